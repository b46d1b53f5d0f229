"""Joffre Whist, the greedy agent (vt.greedy): bids the cheapest legal plain-suit or NT contract its
estimate reaches, doubles with quick tricks against a high contract, and plays master cards,
trumps, long suits and cheapest winners (the face's docstring has the full description)."""
from cardsim.core._types cimport uint64_t
from cardsim.core._suited cimport lowest_by_rank, master_card, long_suit_lead, plain_beaters
from cardsim.core._bits cimport cs_popcount, bit_high
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_has, as_first

from cardsim.games.joffre_whist._rules cimport (JWConfig, JW_PASS, JW_DOUBLE, JW_BID0, JW_NT,
                                                suit_mask, card_rank, strain_suit, bid_decode, row)
from cardsim.games.joffre_whist._state cimport JWState, JW_PH_AUCTION


cdef double quick_tricks(uint64_t hand, int suit) noexcept nogil:
    cdef uint64_t h = (hand & suit_mask(suit)) >> (13 * suit)
    cdef int n = cs_popcount(h)
    cdef double q = 0.0
    if h & (1 << 12):
        q += 1.0
    if h & (1 << 11) and n >= 2:
        q += 0.7 if h & (1 << 12) else 0.5
    if h & (1 << 10) and n >= 3:
        q += 0.3
    return q

# QT[akq | min(n, 3) << 3]: quick_tricks of a suit of n cards whose A, K, Q are the bits of akq
# (A = 4, K = 2, Q = 1), computed by quick_tricks itself (the same double sums, so the same
# values); greedy_bid looks the four suits up (the bids it makes are unchanged)
cdef double QT[32]
for _k in range(32):
    # a suit of (_k >> 3) cards (3 stands for "3 or more") holding the A/K/Q of _k & 7
    _h = (_k & 7) << 10
    _x = 0
    while bin(_h | _x).count("1") < (_k >> 3):
        _x = (_x << 1) | 1
    QT[_k] = quick_tricks(_h | _x, 0) if bin(_h).count("1") <= (_k >> 3) else 0.0

cdef int greedy_bid(const JWState* s, const JWConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, suit, strain, lvl, bi, best = -1, target, hl, n
    cdef double base = 0.0, est, best_val = -1.0, val
    cdef int lens[4]
    cdef int longest = 0
    cdef uint64_t h = s.hand[p]
    for suit in range(4):
        n = cs_popcount(h & suit_mask(suit))
        lens[suit] = n
        if n > longest:
            longest = n
        base += QT[((h >> (13 * suit + 10)) & 7) | ((n if n < 3 else 3) << 3)]   # quick_tricks(h, suit)
    # every strain's estimate is at most the longest suit's before its short-suit deduction (NT's
    # is base + 3.0 less its deductions; a suit's is that sum plus 0.9 per card over 3, which
    # grows with the length): when that, with a margin for the rounding of the doubles, makes no
    # target of 1, no strain bids, and the strains need not be tried
    if <int>(base + 3.0 + 0.9 * (longest - 3 if longest > 3 else 0) + 1e-6) - 6 >= 1:
        for strain in range(5):
            if strain == JW_NT:
                est = base + 3.0
                for suit in range(4):
                    if lens[suit] < 2:
                        est -= 1.0
            else:
                suit = strain_suit(strain)
                est = base + 3.0 + 0.9 * (lens[suit] - 3 if lens[suit] > 3 else 0)
                if lens[suit] < 4:
                    est -= 1.0
            target = <int>est - 6
            if target < 1:
                continue
            if target > 7:
                target = 7
            for lvl in range(1, target + 1):
                bi = strain * 7 + lvl - 1
                if as_has(legal, JW_BID0 + bi):
                    val = row(c, strain, lvl) + 0.1 * lvl
                    if val > best_val:
                        best_val = val
                        best = JW_BID0 + bi
                    break
    if best >= 0:
        return best
    if as_has(legal, JW_DOUBLE):
        bid_decode(s.high, &lvl, &strain, &hl)
        if lvl >= 3 and base >= 3.0:
            return JW_DOUBLE
    if as_has(legal, JW_PASS):
        return JW_PASS
    return as_first(legal, 3)

cdef inline int lowest_card(uint64_t m, int trump) noexcept nogil:
    """Lowest card of m by rank, non-trumps before trumps."""
    return lowest_by_rank(m, 13, trump)

cdef int greedy_play(const JWState* s, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, c, top
    cdef uint64_t m = legal.w[0], unseen, trumps, t
    cdef int n = s.cur.n
    if n == 0:
        # a master card: the highest unplayed card of its suit (unseen: the cards of the other
        # hands = neither played nor p's own; the four hands and the played cards are the pack)
        unseen = (s.hand[0] | s.hand[1] | s.hand[2] | s.hand[3]) & ~s.hand[p]
        c = master_card(m, unseen, 13, s.trump)
        if c >= 0:
            return c
        trumps = m & s.trump_cards
        if trumps and ((s.declarer ^ p) & 1) == 0 and cs_popcount(trumps) >= 3:
            return bit_high(trumps)
        return long_suit_lead(m, 13, s.trump)
    # the card winning the trick so far (jw_trick_winner's rule on the trick's mask: the highest
    # trump, else the highest card of the led suit)
    t = s.trick_mask & s.trump_cards
    if t == 0:
        t = s.trick_mask & s.led_mask
    top = bit_high(t)
    if s.cur.card[(p + 2) & 3] == top and (n == 3 or card_rank(top) >= 10):
        return lowest_card(m, s.trump)
    c = lowest_card(plain_beaters(m, top, 13, s.trump), s.trump)   # cheapest winning card
    if c >= 0:
        return c
    return lowest_card(m, s.trump)

# the bid is called through a pointer: the C compiler cannot inline it, so its registers stay out
# of the card play's path (inlined, they cost every card more than the call costs a bid)
ctypedef int (*bid_fn)(const JWState* s, const JWConfig* c, const ActionSet* legal) noexcept nogil
cdef bid_fn cold_greedy_bid = greedy_bid

cdef int jw_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    if s.phase == JW_PH_AUCTION:
        return cold_greedy_bid(s, <const JWConfig*>cfg, legal)
    return greedy_play(s, legal)

