"""Hearts: the greedy agent (vt.greedy), a one-trick heuristic on the rule kernels of _rules.pxd
over the state of _state.pxd.

Greedy agent (docs/rules/hearts.md "Greedy agent"):
- pass: the most dangerous card left in hand, one card per action: ♠Q, then ♠A and ♠K, then
  hearts from the Ace down, then the highest card by rank;
- follow: duck: the highest card of the led suit that stays under the winning card; if none can,
  the highest card (never ♠Q when another card will do) when last to play, else the lowest;
- discard (void in the led suit): ♠Q, else ♠A/♠K while ♠Q is still out, else the highest heart,
  else the highest card by rank;
- lead: the lowest card by rank, avoiding ♠Q/♠K/♠A while ♠Q is out (and hearts when another
  suit is allowed).
"""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport bit_low, bit_high, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_first
from cardsim.core._suited cimport lowest_by_rank
from cardsim.games.hearts._rules cimport (HTConfig, QS, ht_hearts, suit_mask, card_suit)
from cardsim.games.hearts._state cimport HTState, HT_PH_PASS

cdef enum:
    KS = 11
    AS = 12


cdef int most_dangerous(uint64_t m, bint qs_out) noexcept nogil:
    """The card of m (non-empty) that most wants to go, in word operations: ♠Q first, then ♠A
    and ♠K while ♠Q is still out, then the highest heart, then the highest rank of the other
    suits (ties to the lowest suit)."""
    if m & card_bit(QS):
        return QS
    if qs_out:
        if m & card_bit(AS):
            return AS
        if m & card_bit(KS):
            return KS
    if m & ht_hearts:
        return bit_high(m & ht_hearts)
    return highest_by_rank(m)

cdef inline int highest_by_rank(uint64_t m) noexcept nogil:
    """The card of m (non-empty) of the highest rank, ties to the lowest identity."""
    cdef int r, q
    cdef uint64_t x = (m | (m >> 13) | (m >> 26) | (m >> 39)) & <uint64_t>0x1FFF
    r = bit_high(x)
    for q in range(4):
        if (m >> (13 * q + r)) & 1:
            return 13 * q + r
    return -1

cdef inline int lowest_rank(uint64_t m) noexcept nogil:
    """The card of m (non-empty) of the lowest rank, ties to the lowest identity (core
    lowest_by_rank with no trump)."""
    return lowest_by_rank(m, 13, -1)

cdef inline bint qs_still_out(const HTState* s, int N) noexcept nogil:
    """♠Q not played yet this deal (no seat's played cards hold it)."""
    cdef uint64_t gone = 0
    cdef int q
    for q in range(N):
        gone |= s.played[q]
    return not (gone & card_bit(QS))

cdef int ht_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const HTState* s = <const HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int N = c.nplayers, win, led
    cdef uint64_t m = legal.w[0], below, safe
    cdef bint qs_out
    if n_legal == 1:
        return as_first(legal, 1)
    if s.phase == HT_PH_PASS:
        return most_dangerous(m, qs_still_out(s, N))
    if s.trick_cards == 0:                                # lead
        safe = m & ~ht_hearts
        if safe:
            m = safe
        if qs_still_out(s, N):
            safe = m & ~(card_bit(QS) | card_bit(KS) | card_bit(AS))
            if safe:
                m = safe
        return lowest_rank(m)
    led = s.led
    if m & suit_mask(led) == m:                           # following suit
        win = s.win_card
        below = m & ((card_bit(win) - 1))
        if below:
            return bit_high(below)
        if s.nxt[s.turn] == s.leader:                     # last to play
            safe = m & ~card_bit(QS)
            return bit_high(safe if safe else m)
        return bit_low(m)
    if m & card_bit(QS):                                  # discard
        return QS
    qs_out = qs_still_out(s, N)
    if qs_out:
        if m & card_bit(AS):
            return AS
        if m & card_bit(KS):
            return KS
    if m & ht_hearts:
        return bit_high(m & ht_hearts)
    return most_dangerous(m, qs_out)
