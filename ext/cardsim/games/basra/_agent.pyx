"""Basra: the greedy agent (vt.greedy; docs/rules/basra.md).

Greedy agent: for every card in hand and every legal capture set of it, scores the play as
card points taken + 0.75 per card taken (majority) + basra points + 2 for leaving an empty
floor - 3 for leaving a single floor card (an easy basra for the next player) - 4 for spending
a J or ♦7 sweeper; a trail costs the trailed card's points + 0.5 and 3 more if it leaves a lone
card. Plays the best (lowest card id on ties); in the choose phase it steers to its best set.
"""
from cardsim.core._types cimport uint64_t, int64_t
from libc.stdint cimport INT64_MIN
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet
from cardsim.games.basra._rules cimport (BasraConfig, BA_MAXSETS, is_sweeper, capture_sets, capture_quick_found,
                                         capture_sets_summed, basra_points)
from cardsim.games.basra._state cimport BasraState, BA_PH_PLAY, BA_TAKE0, BA_COMMIT, chosen_of


cdef inline int64_t play_value(const BasraState* s, const BasraConfig* c, int card, uint64_t S) noexcept nogil:
    """The play's score (the module docstring's weights) in quarter points, so that it is an
    integer: card points are half points (card_half, at most 2,000 each) and every weight is a
    multiple of 0.25. Taken cards count 2 card_half + 3 each (card points + 0.75), summed over
    the cards with points only (pts_cards) plus 3 per card."""
    cdef int64_t v = 0
    cdef uint64_t taken, m
    if S:
        taken = S | card_bit(card)
        v = 3 * cs_popcount(taken)
        m = taken & c.pts_cards
        while m:
            v += 2 * c.card_half[bit_low(m)]
            m &= m - 1
        if S == s.floor:
            v += 4 * basra_points(c, card, s.floor, False) + 8
        elif cs_popcount(s.floor & ~S) == 1:
            v -= 12
        if is_sweeper(c, card):
            v -= 16
    else:
        v -= 2 * c.card_half[card] + 2
        if s.floor == 0:
            v -= 12
    return v

cdef int ba_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal, Rng* rng) noexcept nogil:
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef uint64_t sets[BA_MAXSETS]
    cdef uint64_t m, bestset = 0, chosen, one
    cdef int card, n, i, best = -1, found
    cdef int64_t v, bv = INT64_MIN
    if s.phase == BA_PH_PLAY:
        m = s.hand[s.turn]
        while m:
            card = bit_low(m)
            m &= m - 1
            n = capture_quick_found(s.floor, card, c, &one, &found)
            if n == 1:                                         # one set (most plays): no list
                v = play_value(s, c, card, one)
                if v > bv:
                    bv = v
                    best = card
                continue
            if n == 0:                                         # the sum search, its count known
                n = capture_sets_summed(s.floor, card, c, found, sets)
            else:
                n = capture_sets(s.floor, card, c, sets)
            for i in range(n):
                v = play_value(s, c, card, sets[i])
                if v > bv:
                    bv = v
                    best = card
        return best
    chosen = chosen_of(s)
    n = capture_sets(s.floor, s.choice.target, c, sets)
    for i in range(n):
        if (sets[i] & chosen) == chosen:
            v = play_value(s, c, s.choice.target, sets[i])
            if v > bv:
                bv = v
                bestset = sets[i]
    if bestset == chosen:
        return BA_COMMIT
    return BA_TAKE0 + bit_low(bestset & ~chosen)
