"""Exposure: the greedy agent (vt.greedy), on the rule kernels of _rules.pxd over the state of
_state.pxd.

Greedy agent: declares melds greedily, each time the highest-valued meld still available
(sequences longest first, taking hand cards before face-up cards, then sets of a kind), until none
is left. In play it wants a trick unless it already holds exactly the contract target (then one
more trick would cost the 5-point bonus for 2 points). Leading, it plays the card the fewest
unseen cards can beat when it wants the trick, otherwise the one the most unseen cards beat.
Following, it wins with its cheapest winning card when it wants the trick, otherwise plays its
highest losing card (its lowest card when it must win anyway).
"""
from cardsim.core._types cimport uint8_t, uint32_t
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.games.exposure._rules cimport (EXConfig, EX_FULL, EX_SUIT0, ex_windows, ex_rank_spread,
                                            card_suit, card_rank, bit32, rank_cards, suit_cards,
                                            rank_bits, rank_key)
from cardsim.games.exposure._state cimport (EXState, EX_PH_DECLARE, EX_MELD0, EX_DECLARE, EX_DONE, led_card,
                                            sel_of, table_mask, avail_table, visible)


cdef inline uint32_t nibble_low(uint32_t x) noexcept nogil:
    """The lowest card of each rank of card set x (the lowest set bit of each nibble)."""
    return (x & ~((x & <uint32_t>0x777777) << 1) & ~((x & <uint32_t>0x333333) << 2)
            & ~((x & <uint32_t>0x111111) << 3))

cdef inline uint32_t nibble_any(uint32_t x) noexcept nogil:
    """All four cards of each rank x has a card of (whole nibbles)."""
    x |= x >> 1
    x |= x >> 2
    return (x & <uint32_t>0x111111) * 0xF

cdef uint32_t best_meld(const EXState* s, const EXConfig* c, int* best_pts) noexcept nogil:
    """The greedy agent's next meld: the highest-valued legal meld that contains the cards
    already built, sequences (longest first, hand cards before face-up cards) before sets of a
    kind at equal value. 0 if none. (The candidates are a card per rank over a window, or sel
    with every available card of one rank, so meld_value's tests reduce to the card count and
    the hand-card count: meld_value(m) is meld_pts[n - 2] for a window of n >= 4 ranks and
    meld_pts[n - 3] for n = 3 or 4 cards of one rank, when min_hand of them are hand cards.)"""
    cdef int p = s.turn, r, i, n, v, bv = -1
    cdef uint32_t tm = table_mask(s)
    cdef uint32_t Ah = s.hand[p] & ~s.melded[p] & ~sel_of(s)
    cdef uint32_t At = avail_table(s, c, p)
    cdef uint32_t sel = sel_of(s), W, m, best = 0, rs = rank_bits(sel), have, picks, need
    if cs_popcount(rs) == cs_popcount(sel):
        # the card each missing rank would add: the lowest hand card of the rank, else the
        # lowest face-up card (have: the ranks that have one)
        picks = (nibble_low(Ah) | (nibble_low(At) & ~nibble_any(Ah))) & ~ex_rank_spread[rs]
        have = rank_bits(picks)
        for i in range(6):
            W = ex_windows[i]
            if rs & ~W:
                continue
            need = W & ~rs
            if need & ~have:
                continue
            m = sel | (picks & ex_rank_spread[need])
            n = cs_popcount(m)                  # = the window's ranks (4..6), one card each
            v = c.meld_pts[n - 2] if cs_popcount(m & ~tm) >= c.min_hand else -1
            if v > bv:
                bv = v
                best = m
    if cs_popcount(rs) <= 1:
        for r in range(6):
            if rs and not (rs >> r) & 1:
                continue
            m = sel | ((Ah | At) & rank_cards(r))
            n = cs_popcount(m)                  # <= 4: one rank
            v = c.meld_pts[n - 3] if n >= 3 and cs_popcount(m & ~tm) >= c.min_hand else -1
            if v > bv:
                bv = v
                best = m
    best_pts[0] = bv
    return best

cdef int greedy_declare(const EXState* s, const EXConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int pts
    cdef uint32_t m = best_meld(s, c, &pts)
    if m == 0 or pts <= 0 and sel_of(s) == 0:
        if as_has(legal, EX_DONE):
            return EX_DONE
    if m != 0:
        if m == sel_of(s):
            return EX_DECLARE
        return EX_MELD0 + bit_low(m & ~sel_of(s))
    return as_first(legal, 1)

cdef inline int play_key(int c, bint led, const EXState* s) noexcept nogil:
    """Sort key of a card for 'cheapest': trumps above every plain card."""
    return rank_key(card_rank(c), led, s.high) + (16 if card_suit(c) == s.trump else 0)

cdef extern from *:
    """
    /* [high rank][card] -> the other cards of the card's suit that take the trick from it when
       it is led and they follow: their rank_key (§2, _rules.rank_key), followed, above its
       rank_key, led (computed from rank_key for every high rank and card) */
    static const unsigned int ex_lead_above[6][24] = {{0x0, 0x0, 0x0, 0x0, 0x111101, 0x222202, 0x444404, 0x888808, 0x111001, 0x222002, 0x444004, 0x888008, 0x110001, 0x220002, 0x440004, 0x880008, 0x100001, 0x200002, 0x400004, 0x800008, 0x11111, 0x22222, 0x44444, 0x88888}, {0x111110, 0x222220, 0x444440, 0x888880, 0x0, 0x0, 0x0, 0x0, 0x111010, 0x222020, 0x444040, 0x888080, 0x110010, 0x220020, 0x440040, 0x880080, 0x100010, 0x200020, 0x400040, 0x800080, 0x11111, 0x22222, 0x44444, 0x88888}, {0x111110, 0x222220, 0x444440, 0x888880, 0x111100, 0x222200, 0x444400, 0x888800, 0x0, 0x0, 0x0, 0x0, 0x110100, 0x220200, 0x440400, 0x880800, 0x100100, 0x200200, 0x400400, 0x800800, 0x11111, 0x22222, 0x44444, 0x88888}, {0x111110, 0x222220, 0x444440, 0x888880, 0x111100, 0x222200, 0x444400, 0x888800, 0x111000, 0x222000, 0x444000, 0x888000, 0x0, 0x0, 0x0, 0x0, 0x101000, 0x202000, 0x404000, 0x808000, 0x11111, 0x22222, 0x44444, 0x88888}, {0x111110, 0x222220, 0x444440, 0x888880, 0x111100, 0x222200, 0x444400, 0x888800, 0x111000, 0x222000, 0x444000, 0x888000, 0x110000, 0x220000, 0x440000, 0x880000, 0x0, 0x0, 0x0, 0x0, 0x11111, 0x22222, 0x44444, 0x88888}, {0x111110, 0x222220, 0x444440, 0x888880, 0x111100, 0x222200, 0x444400, 0x888800, 0x111000, 0x222000, 0x444000, 0x888000, 0x110000, 0x220000, 0x440000, 0x880000, 0x100000, 0x200000, 0x400000, 0x800000, 0x0, 0x0, 0x0, 0x0}};
    """
    const uint32_t ex_lead_above[6][24]

cdef inline uint32_t lead_beaters(int cd, int trump, int high) noexcept nogil:
    """The cards that take the trick from the led card cd (_rules.trick_winner(cd, o) == 1): the
    trumps when cd is no trump, and the cards of cd's suit whose rank, followed, outranks cd's
    rank, led (rank_key; from a table by high rank and card)."""
    return ex_lead_above[high][cd] | (suit_cards(trump) if card_suit(cd) != trump else 0)

cdef int greedy_play(const EXState* s, const EXConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, q = 1 - p, cd, k, best = -1, bk = 0, danger
    cdef uint32_t m = <uint32_t>legal.w[0], tmp, unseen, opp, win
    cdef bint want = s.tricks[p] != s.target or c.contract_bonus < c.trick_pts
    unseen = EX_FULL & ~(s.hand[p] | s.played[0] | s.played[1] | table_mask(s))
    opp = unseen & ~(<uint32_t>s.void_suits[q] * <uint32_t>EX_SUIT0)   # less q's void suits
    if visible(s, c, q, p):
        opp |= s.exposed[q]
    if s.trick.n == 0:
        tmp = m
        while tmp:
            cd = bit_low(tmp)
            tmp &= tmp - 1
            danger = cs_popcount(opp & lead_beaters(cd, s.trump, s.high))
            # want: fewest beaters, then cheapest; else: most beaters, then cheapest
            k = (danger * 64 + play_key(cd, True, s)) if want else ((24 - danger) * 64 + play_key(cd, True, s))
            if best < 0 or k < bk:
                bk = k
                best = cd
        return best
    win = lead_beaters(led_card(s), s.trump, s.high)      # trick_winner(led, cd) == 1
    tmp = m
    while tmp:
        cd = bit_low(tmp)
        tmp &= tmp - 1
        if (win >> cd) & 1:
            # a winner: cheapest when wanted, else only as a last resort (lowest)
            k = play_key(cd, False, s) if want else 1000 + play_key(cd, False, s)
        else:
            # a loser: lowest when a win was wanted (none possible), else the highest loser
            k = 100 + play_key(cd, False, s) if want else 100 - play_key(cd, False, s)
        if best < 0 or k < bk:
            bk = k
            best = cd
    return best

cdef int ex_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    if s.phase == EX_PH_DECLARE:
        return greedy_declare(s, <const EXConfig*>cfg, legal)
    return greedy_play(s, <const EXConfig*>cfg, legal)
