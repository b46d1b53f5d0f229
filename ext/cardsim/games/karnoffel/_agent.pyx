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
from cardsim.core._types cimport uint8_t, uint64_t
from cardsim.core._bits cimport bit_low, bit_high, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_first
from cardsim.games.karnoffel._rules cimport (kn_led_top, KNConfig, R2, R3, R4, R5, R6, R7, RJ, RQ, RK, kn_full,
                                             card_suit, card_rank, kn_trick_winner_card, kn_priv_below,
                                             kn_block_from)
from cardsim.games.karnoffel._state cimport KNState


cdef extern from *:
    """
    /* [chosen suit][card] -> how much the card is worth keeping (higher = stronger; the greedy
       agent spends the cheapest card that does the job): chosen J 100, 6 90, 2 85, 3 70, 4 62,
       7 60, 5 58; any other K 50, Q 45, J 40, else its rank index (2 = 0 .. 10 = 8) */
    static const unsigned char kn_card_value[4][48] = {{85, 70, 62, 58, 90, 60, 6, 7, 8, 100, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 85, 70, 62, 58, 90, 60, 6, 7, 8, 100, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 85, 70, 62, 58, 90, 60, 6, 7, 8, 100, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 0, 1, 2, 3, 4, 5, 6, 7, 8, 40, 45, 50, 85, 70, 62, 58, 90, 60, 6, 7, 8, 100, 45, 50}};
    """
    const uint8_t kn_card_value[4][48]      # card value by chosen suit and card

cdef int cheapest(uint64_t m, int chosen) noexcept nogil:
    """The card of m (non-empty) with the lowest value."""
    cdef int best = -1, bv = 1000, c, v
    while m:
        c = bit_low(m)
        m &= m - 1
        v = kn_card_value[chosen][c]
        if v < bv:
            bv = v
            best = c
    return best

cdef inline uint64_t beaters_m(uint64_t m, int led_card, int chosen) noexcept nogil:
    """The cards that would win the trick whose cards are the mask m (one pack: each card once),
    led by led_card, if played next, as a mask: the trick winner (§5, _rules.kn_trick_winner)
    with one more card y is either the current winner or y, so the greedy agent's one-card
    look-ahead needs only this set. y wins iff y is the Karnöffel (not already played), or, no
    Devil having been led: y is a privileged card of an order below every privileged card
    present that the led suit's highest ordinary card P does not block (and P does not block
    y), or y is an ordinary card of the led suit above P that blocks every privileged card
    present (3 by a K, 4 by K/Q, 5 by K/Q/J). Word operations on the mask, as
    _rules.kn_trick_winner_card."""
    cdef int cs = 12 * chosen, led, prank, a, lo, start
    cdef unsigned int pr, seen, low
    cdef uint64_t out, rm
    if (m >> (cs + RJ)) & 1:
        return 0                                # the Karnöffel wins wherever it is
    out = card_bit(cs + RJ)
    if led_card == cs + R7:                     # a led Devil
        return out
    led = card_suit(led_card)
    prank = kn_led_top(m, led, chosen)
    pr = <unsigned int>(m >> cs) & 0x1Fu        # chosen 2, 3, 4, 5, 6 present
    seen = (pr >> 4) | ((pr & 0xFu) << 1)       # as scan positions (kn_priv_order: 6 2 3 4 5)
    a = 2 + (prank < RK) + (prank < RQ) + (prank < RJ)
    low = seen & ((1u << a) - 1)
    lo = bit_low(low) if low else 5
    out |= <uint64_t>kn_priv_below[lo if lo < a else a] << cs
    start = kn_block_from[lo]
    if start <= prank:
        start = prank + 1
    if start < 12:
        rm = (<uint64_t>0xFFF >> start) << start
        if led == chosen:
            rm &= ~(<uint64_t>0x23F)
        out |= rm << (12 * led)
    return out

# [chosen suit][card]: the cards that would beat the card led alone (beaters_m of that one-card
# trick), filled once at import: a lead's "sure" test reads it instead of recomputing it for every
# card of the hand at every lead (the greedy deal's largest cost)
cdef uint64_t lead_beaters[4][48]

cdef void fill_lead_beaters() noexcept nogil:
    cdef int ch, x
    for ch in range(4):
        for x in range(48):
            lead_beaters[ch][x] = beaters_m(card_bit(x), x, ch)

fill_lead_beaters()


cdef int kn_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef int p = s.turn, n = s.cur.n, x, w, chosen = s.chosen, led
    cdef uint64_t m = legal.w[0], threats, tmp, sure = 0, winners, beat
    if n_legal == 1:
        return as_first(legal, 1)
    # the unseen cards (played[q] is empty for q >= N)
    threats = kn_full & ~(s.played[0] | s.played[1] | s.played[2] | s.played[3] | s.played[4]
                          | s.played[5] | s.hand[p])
    if n == 0:
        tmp = m
        while tmp:
            x = bit_low(tmp)
            tmp &= tmp - 1
            if (threats & lead_beaters[chosen][x]) == 0:      # holds_against, led alone
                sure |= card_bit(x)
        if sure:
            return cheapest(sure, chosen)
        x = chosen * 12 + R7
        if m & card_bit(x):
            return x
        return cheapest(m, chosen)
    # the trick so far as its card mask (s.tmask) and led card: the winner, and the cards that
    # would beat it (beaters), once for both uses
    led = s.cur.card[s.cur.leader]
    x = kn_trick_winner_card(s.tmask, led, chosen)
    w = 0
    while s.cur.card[w] != x:
        w += 1
    beat = beaters_m(s.tmask, led, chosen)
    if ((w ^ p) & 1) == 0:
        if n == N - 1:
            return cheapest(m, chosen)
        # partner wins now: discard if its card is safe against one more card
        if (threats & beat) == 0:
            return cheapest(m, chosen)
    winners = m & beat                          # the cards that take the trick now
    tmp = winners
    while tmp:
        x = bit_low(tmp)
        tmp &= tmp - 1
        if n == N - 1 or (threats & beaters_m(s.tmask | card_bit(x), led, chosen)) == 0:
            sure |= card_bit(x)
    if sure:
        return cheapest(sure, chosen)
    if winners and ((w ^ p) & 1) == 1:
        return cheapest(winners, chosen)
    return cheapest(m, chosen)
