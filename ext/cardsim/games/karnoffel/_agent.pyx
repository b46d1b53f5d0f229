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
                                             card_suit, card_rank, kn_trick_winner, kn_priv_order,
                                             kn_priv_below, kn_block_from)
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

cdef uint64_t beaters(const int8_t* cards, int n, int chosen) noexcept nogil:
    """The cards that would win the trick cards[0..n-1] (n >= 1) if played next, as a mask: the
    trick winner (§5, _rules.kn_trick_winner) with one more card y is either the current winner
    or y, so the greedy agent's one-card look-ahead needs only this set. y wins iff y is the
    Karnöffel (not already played), or, no Devil having been led: y is a privileged card of an
    order below every privileged card present that the led suit's highest ordinary card P does
    not block (and P does not block y), or y is an ordinary card of the led suit above P that
    blocks every privileged card present (3 by a K, 4 by K/Q, 5 by K/Q/J)."""
    cdef int i, c, r, o, karn = chosen * 12 + RJ, led = card_suit(cards[0]), prank = -1
    cdef int devil_led = 0, a, lo, start
    cdef unsigned int seen = 0, low
    cdef uint64_t out, rm
    for i in range(n):
        c = cards[i]
        if c == karn:
            return 0                            # the Karnöffel wins wherever it is
        r = card_rank(c)
        if card_suit(c) == chosen:
            o = kn_priv_order[r]
            if o >= 0:
                seen |= 1u << o
                continue
            if r == R7:                         # a Devil: wins when led, never P
                if i == 0:
                    devil_led = 1
                continue
        if card_suit(c) == led and r > prank:
            prank = r
    out = card_bit(karn)
    if devil_led:
        return out
    a = 2 + (prank < RK) + (prank < RQ) + (prank < RJ)   # the orders P leaves unblocked: 0..a-1
    low = seen & ((1u << a) - 1)
    lo = bit_low(low) if low else 5             # the winning privileged order, 5 = none (P wins)
    out |= <uint64_t>kn_priv_below[lo if lo < a else a] << (12 * chosen)
    start = kn_block_from[lo]                   # an ordinary card of this rank or above blocks lo
    if start <= prank:
        start = prank + 1
    if start < 12:
        rm = (<uint64_t>0xFFF >> start) << start
        if led == chosen:
            rm &= ~(<uint64_t>0x23F)            # 2-7 and J of the chosen suit are not ordinary
        out |= rm << (12 * led)
    return out

cdef inline bint holds_against(const int8_t* cards, int n, uint64_t threats, int chosen) noexcept nogil:
    """True if the current winner of the n-card trick cards[0..n-1] stays the winner when any
    single card of threats is played after it (a pairwise look-ahead that ignores who holds
    the card)."""
    return (threats & beaters(cards, n, chosen)) == 0

cdef int kn_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef int p = s.turn, n = s.cur.n, i, x, w, chosen = s.chosen
    cdef uint64_t m = legal.w[0], gone = 0, threats, tmp, sure = 0, winners
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
            if holds_against(cards, 1, threats, chosen):
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
        if holds_against(cards, n, threats, chosen):
            return cheapest(m, chosen)
    winners = m & beaters(cards, n, chosen)     # the cards that take the trick now
    tmp = winners
    while tmp:
        x = bit_low(tmp)
        tmp &= tmp - 1
        if n == N - 1:
            sure |= card_bit(x)
        else:
            cards[n] = x
            if holds_against(cards, n + 1, threats, chosen):
                sure |= card_bit(x)
    if sure:
        return cheapest(sure, chosen)
    if winners and ((w ^ p) & 1) == 1:
        return cheapest(winners, chosen)
    return cheapest(m, chosen)
