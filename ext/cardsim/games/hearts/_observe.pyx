"""Hearts: what a seat sees (vt.observe) and the worlds consistent with it (vt.resample).

The observation's blocks are declared once in INFO.observation (src/cardsim/games/hearts/
info.py, with their meaning and scaling); `_layout.pxd`, generated from them by
tools/gen_layout.py, gives each block's offset OBS_<BLOCK>, at which ht_observe writes it. Seat
blocks have HT_MAXP = 6 slots whatever the table size. The engine zeroes the vector first."""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, put_bits, card_bit, bit_nth, bit_low
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._resample cimport (resample_masks, resample_rekey, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_CONSTRAINED_TRIES)
from cardsim.games.hearts._rules cimport (HTConfig, HT_DECK, HT_MAXP, HT_PASS, TWO_C, card_points,
                                          pass_offset)
from cardsim.games.hearts._state cimport HTState, HT_PH_PASS, HT_PH_PLAY, HT_PH_END, ht_broken, ht_tricks_won
from cardsim.games.hearts._layout cimport *


cdef void ht_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const HTState* s = <const HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int q, N = c.nplayers
    cdef uint64_t mine = s.passed[p], t
    if s.phase == HT_PH_PASS and s.stage.target == p:
        mine |= s.stage.cards.layer[0]
    put_bits(o + OBS_HAND, s.hand[p])
    put_bits(o + OBS_PASSED, mine)
    put_bits(o + OBS_RECEIVED, s.received[p])
    for q in range(N):
        put_bits(o + OBS_PLAYED + HT_DECK * q, s.played[q])
        o[OBS_POINTS + q] = card_points(c, s.taken[q]) / 26.0
        o[OBS_TRICKS + q] = ht_tricks_won(s, q, N) / 13.0
        o[OBS_SCORE + q] = s.score[q] / <float>c.match_target
        t = s.played[q] & s.trick_cards                   # q's card in the current trick
        if t:
            o[OBS_TRICK + HT_DECK * q + bit_low(t)] = 1.0
    o[OBS_BROKEN] = ht_broken(s)
    o[OBS_PASS_DIR + s.pass_dir] = 1.0
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase != HT_PH_END:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    o[OBS_DEALS] = s.deal_no / <float>c.max_deals


cdef uint64_t pick(uint64_t m, int k, Rng* rng) noexcept nogil:
    """k cards of m drawn uniformly without replacement (k <= popcount(m))."""
    cdef uint64_t out = 0, b
    cdef int i
    for i in range(k):
        b = card_bit(bit_nth(m, <int>rng_below(rng, cs_popcount(m))))
        out |= b
        m &= ~b
    return out


cdef int ht_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy (D12).

    Pass phase: the other seats' hands, the pass being chosen (unless p's) and the passes
    already made by other seats are one pool, resplit at their sizes (nothing about them is
    public). Play phase: the other seats' hands, with the cards p passed pinned to their
    receiver while held, ♣2 pinned to the seat to lead before the first lead, and each seat's
    forbid mask (voids; "held only hearts and ♠Q" shown on the first trick or by an unbroken
    heart lead); the passes p did not see (neither made nor received by p) are redrawn among
    the receiver's cards. The deal stream is replaced too (later deals of a match must not leak)."""
    cdef HTState* s = <HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int N = c.nplayers, q, r, off, z
    cdef uint64_t hidden = 0, pin[HT_MAXP]
    cdef uint64_t out[2 * HT_MAXP + 1]
    cdef int room[2 * HT_MAXP + 1]
    if s.phase == HT_PH_PASS:
        for q in range(N):
            room[q] = 0
            room[N + q] = 0
            if q == p:
                continue
            hidden |= s.hand[q] | s.passed[q]
            room[q] = cs_popcount(s.hand[q])
            room[N + q] = cs_popcount(s.passed[q])
        room[2 * N] = 0
        if s.stage.target != p:
            hidden |= s.stage.cards.layer[0]
            room[2 * N] = s.stage.n
        if not resample_masks(hidden, room, NULL, 2 * N + 1, out, rng, NULL, NULL,
                              RESAMPLE_EXACT_TRIES, 0):
            return 0
        for q in range(N):
            if q != p:
                s.hand[q] = out[q]
                s.passed[q] = out[N + q]
        if s.stage.target != p:
            s.stage.cards.layer[0] = out[2 * N]
        return resample_rekey(&s.rng, rng)
    if s.phase != HT_PH_PLAY:
        return resample_rekey(&s.rng, rng)
    off = pass_offset(s.pass_dir, N)
    for q in range(N):
        pin[q] = 0
    if off:
        r = (p + off) % N
        pin[r] = s.passed[p] & s.hand[r]
    if s.tricks_done == 0 and s.trick_cards == 0:
        pin[s.turn] |= s.hand[s.turn] & card_bit(TWO_C)
    for q in range(N):
        room[q] = 0
        if q == p:
            continue
        hidden |= s.hand[q] & ~pin[q]
        room[q] = cs_popcount(s.hand[q] & ~pin[q])
    if not resample_masks(hidden, room, s.forbid, N, out, rng, NULL, NULL,
                          RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES):
        return 0
    for q in range(N):
        if q != p:
            s.hand[q] = out[q] | pin[q]
    if off:
        for q in range(N):
            r = (q + off) % N
            if q == p or r == p:
                continue
            s.passed[q] = pick(s.hand[r] | s.played[r], HT_PASS, rng)
            s.received[r] = s.passed[q]
    return resample_rekey(&s.rng, rng)
