"""Karnöffel: the greedy agent (vt.greedy), a one-card look-ahead on the rule kernels of
_rules.pxd over the state of _state.pxd.

Greedy agent: on lead it plays its cheapest "sure" card (one no unseen card can beat when it is
led), else the Devil if it holds it, else its cheapest card; when following, it discards its
cheapest card if its partner already wins the trick and is last to play or holds it safely;
otherwise it plays its cheapest card that takes the trick, preferring one no unseen card can
still beat when others play after it, else it discards its cheapest card. "Cheapest" is by a
value table: the Karnöffel 100, Pope 90, Kaiser 85, Oberstecher 70, Unterstecher 62,
Farbenstecher 58, Devil 60, K 50, Q 45, J 40, then 10..2 by rank.
"""
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.core._bits cimport bit_low, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._trick cimport trick_cards, trick_seat_of
from cardsim.core._actions cimport ActionSet, as_first
from cardsim.games.karnoffel._rules cimport (KNConfig, R2, R3, R4, R5, R6, R7, RJ, RQ, RK, kn_full,
                                             card_suit, card_rank, kn_trick_winner)
from cardsim.games.karnoffel._state cimport KNState


cdef int card_value(int c, int chosen) noexcept nogil:
    """How much a card is worth keeping (higher = stronger); the greedy agent spends the
    cheapest card that does the job."""
    cdef int r = card_rank(c)
    if card_suit(c) == chosen:
        if r == RJ:
            return 100
        if r == R6:
            return 90
        if r == R2:
            return 85
        if r == R3:
            return 70
        if r == R4:
            return 62
        if r == R7:
            return 60
        if r == R5:
            return 58
    if r == RK:
        return 50
    if r == RQ:
        return 45
    if r == RJ:
        return 40
    return r

cdef int cheapest(uint64_t m, int chosen) noexcept nogil:
    """The card of m (non-empty) with the lowest value."""
    cdef int best = -1, bv = 1000, c, v
    while m:
        c = bit_low(m)
        m &= m - 1
        v = card_value(c, chosen)
        if v < bv:
            bv = v
            best = c
    return best

cdef bint holds_against(int8_t* cards, int n, int wi, uint64_t threats, int chosen) noexcept nogil:
    """True if cards[wi] stays the winner of the n-card trick cards[0..n-1] when any single
    card of threats is played after it (a pairwise look-ahead that ignores who holds the card;
    cards has room for n+1 entries)."""
    cdef int y
    while threats:
        y = bit_low(threats)
        threats &= threats - 1
        cards[n] = y
        if kn_trick_winner(cards, n + 1, chosen) != wi:
            return False
    return True

cdef int kn_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef int p = s.turn, n = s.cur.n, i, x, w, chosen = s.chosen
    cdef uint64_t m = legal.w[0], gone = 0, threats, tmp, sure = 0, winners = 0
    cdef int8_t cards[7]
    if n_legal == 1:
        return as_first(legal, 1)
    for i in range(N):
        gone |= s.played[i]
    threats = kn_full & ~gone & ~s.hand[p]
    if n == 0:
        tmp = m
        while tmp:
            x = bit_low(tmp)
            tmp &= tmp - 1
            cards[0] = x
            if holds_against(cards, 1, 0, threats, chosen):
                sure |= card_bit(x)
        if sure:
            return cheapest(sure, chosen)
        x = chosen * 12 + R7
        if m & card_bit(x):
            return x
        return cheapest(m, chosen)
    trick_cards(&s.cur, cards)
    w = trick_seat_of(&s.cur, kn_trick_winner(cards, n, chosen))
    if ((w ^ p) & 1) == 0:
        if n == N - 1:
            return cheapest(m, chosen)
        # partner wins now: discard if its card is safe against one more card
        i = kn_trick_winner(cards, n, chosen)
        if holds_against(cards, n, i, threats, chosen):
            return cheapest(m, chosen)
    tmp = m
    while tmp:
        x = bit_low(tmp)
        tmp &= tmp - 1
        cards[n] = x
        if kn_trick_winner(cards, n + 1, chosen) == n:
            winners |= card_bit(x)
            if n == N - 1 or holds_against(cards, n + 1, n, threats, chosen):
                sure |= card_bit(x)
    if sure:
        return cheapest(sure, chosen)
    if winners and ((w ^ p) & 1) == 1:
        return cheapest(winners, chosen)
    return cheapest(m, chosen)
