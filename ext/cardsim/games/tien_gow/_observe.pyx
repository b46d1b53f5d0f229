"""Tien Gow observation (vt.observe) and resample (vt.resample), T8: face-down discards are seen
by their owner only. The observation writes every block of INFO.observation
(src/cardsim/games/tien_gow/info.py) at its OBS_<BLOCK> offset of the generated `_layout.pxd`."""
from cardsim.core._types cimport card_t, int8_t, uint8_t, uint32_t, uint64_t
from cardsim.core._bits cimport bit_low
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_size, put_counts
from cardsim.core._staged cimport staged_clear
from cardsim.core._resample cimport resample_zones, resample_rekey, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.games.tien_gow._rules cimport TG_IDS, TG_NP
from cardsim.games.tien_gow._state cimport (TGState, TGConfig, TG_PH_PLAY, TG_MODE_NONE, hand_union_into,
                                            holds_beat, trick_played)
from cardsim.games.tien_gow._layout cimport *

cdef void tg_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const TGState* s = <const TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int t, q
    cdef float* x
    put_counts(o + OBS_HAND, &s.hand[p], 0.5)
    if s.turn == p and s.phase == TG_PH_PLAY:
        put_counts(o + OBS_STAGE, &s.stage.cards, 0.5)
        if s.stage.kind != TG_MODE_NONE:
            o[OBS_STAGE_MODE + s.stage.kind - 1] = 1.0
    for t in range(8):                      # plays: 22 per trick and seat (21 counts, face-down flag)
        for q in range(TG_NP):
            if s.tsize[t] > 0 and trick_played(s, t, q):
                x = o + OBS_PLAYS + 22 * (TG_NP * t + q)
                if (s.tface[t] >> q) & 1:
                    put_counts(x, &s.tplay[t][q], 0.5)
                else:
                    if q == p:
                        put_counts(x, &s.tplay[t][q], 0.5)
                    x[21] = 1.0
    for t in range(8):                      # trick_meta: 9 per trick (leader, winner, size)
        x = o + OBS_TRICK_META + 9 * t
        if s.tleader[t] >= 0:
            x[s.tleader[t]] = 1.0
        if s.twinner[t] >= 0:
            x[4 + s.twinner[t]] = 1.0
        x[8] = s.tsize[t] / 4.0
    if s.high_combo >= 0 and s.phase == TG_PH_PLAY:
        o[OBS_HIGH_SEAT + s.high_seat] = 1.0
        o[OBS_HIGH_CAT + c.rules.combo[s.high_combo].cat] = 1.0
    for q in range(TG_NP):
        o[OBS_TRICKS + q] = s.tricks[q] / 8.0
    o[OBS_BANKER + s.banker] = 1.0
    if s.phase == TG_PH_PLAY:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    o[OBS_PHASE + s.phase] = 1.0
    for q in range(TG_NP):
        o[OBS_DEAL_PAY + q] = s.deal_pay[q] / 20.0
        o[OBS_BALANCE + q] = s.balance[q] / 100.0
    o[OBS_DEALS] = s.deal_no / <float>c.num_deals
    o[OBS_STREAK] = s.streak / 8.0

ctypedef struct ResampleCtx:
    const TGState* s         # the state being resampled (hands and hidden discards cleared)
    const TGConfig* c        # its config
    int p                    # the observer
    int8_t zseat[32]         # seat of zone z
    int8_t ztrick[32]        # trick of zone z (a hidden discard), -1 = the seat's hand
    int8_t zhand[4]          # zone of seat q's hand, -1 = the observer
    int8_t zplay[4][8]       # zone of seat q's hidden discard in trick t, -1 = none (or face up)

cdef bint discards_consistent(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """World check for must_beat_if_able: at every trick where a seat discarded, the tiles it
    held then (its hand plus everything it played from that trick on) contained no BEAT of the
    high play it faced (§7)."""
    cdef const ResampleCtx* x = <const ResampleCtx*>ctx
    cdef const TGState* s = x.s
    cdef Hand zone[32]
    cdef Hand h
    cdef int i, q, t
    for i in range(32):
        hand_clear(&zone[i])
    for i in range(n):
        hand_add(&zone[dest[i]], cards[i])
    for q in range(TG_NP):
        if q == x.p:
            continue
        h = zone[x.zhand[q]]
        for t in range(s.ntrick if s.ntrick < 8 else 7, -1, -1):
            if x.zplay[q][t] >= 0:
                hand_union_into(&h, &zone[x.zplay[q][t]])
            else:
                hand_union_into(&h, &s.tplay[t][q])
            if s.dcon[t][q] >= 0 and holds_beat(x.c, &h, s.dcon[t][q]):
                return False
    return True

cdef void add_tiles(const Hand* h, card_t* cards, int* n) noexcept nogil:
    cdef int i
    cdef uint64_t m
    for i in range(2):
        m = h.layer[i]
        while m:
            cards[n[0]] = bit_low(m)
            n[0] += 1
            m &= m - 1

cdef int tg_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see (T8) with the core resample policy: the other seats' hands and
    their face-down discards (the actor's private staged tiles are folded back into its hand).
    Every hidden zone keeps its size and may take any hidden tile, so the first exact try (a
    uniform shuffle split zone by zone) is exactly uniform over the consistent worlds, unless
    must_beat_if_able made discards informative: then the world check `discards_consistent`
    rejects worlds where a seat discarded while holding a BEAT (no consistent world within the
    budget: 0). The deal stream is replaced too (later deals of a match must not leak)."""
    cdef TGState* s = <TGState*>st
    cdef ResampleCtx x
    cdef card_t cards[32]
    cdef uint8_t dest[32]
    cdef uint32_t allowed[21]
    cdef int room[32]
    cdef int n = 0, nz = 0, q, t, i, z
    cdef bint check = False
    x.s = s
    x.c = <const TGConfig*>cfg
    x.p = p
    if s.phase == TG_PH_PLAY:
        if s.stage.n > 0 and s.turn != p:
            hand_union_into(&s.hand[s.turn], &s.stage.cards)
            staged_clear(&s.stage)
        for q in range(TG_NP):
            x.zhand[q] = -1
            for t in range(8):
                x.zplay[q][t] = -1
            if q == p:
                continue
            x.zhand[q] = nz
            x.zseat[nz] = q
            x.ztrick[nz] = -1
            room[nz] = hand_size(&s.hand[q])
            add_tiles(&s.hand[q], cards, &n)
            hand_clear(&s.hand[q])
            nz += 1
            for t in range(s.ntrick + 1 if s.ntrick < 8 else 8):
                if s.tsize[t] > 0 and not (s.tface[t] >> q) & 1 and trick_played(s, t, q):
                    x.zplay[q][t] = nz
                    x.zseat[nz] = q
                    x.ztrick[nz] = t
                    room[nz] = s.tsize[t]
                    add_tiles(&s.tplay[t][q], cards, &n)
                    hand_clear(&s.tplay[t][q])
                    nz += 1
                    check = check or (x.c.must_beat and s.dcon[t][q] >= 0)
        for i in range(TG_IDS):
            allowed[i] = 0xFFFFFFFF
        if check:
            if not resample_zones(cards, n, allowed, room, nz, dest, rng, discards_consistent, &x,
                                  64 * RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES):
                return 0
        elif not resample_zones(cards, n, allowed, room, nz, dest, rng, NULL, NULL, 1, 0):
            return 0
        for i in range(n):
            z = dest[i]
            if x.ztrick[z] < 0:
                hand_add(&s.hand[x.zseat[z]], cards[i])
            else:
                hand_add(&s.tplay[x.ztrick[z]][x.zseat[z]], cards[i])
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)                        # (this game steps the re-keyed stream once more)
    return 1
