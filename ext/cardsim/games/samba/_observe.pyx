"""Samba observation and resampling (docs/rules/samba.md): vt.observe writes the blocks of
INFO.observation (`cardsim.games.samba.info`) at their offsets from the generated `_layout.pxd`;
vt.resample redeals what the observer cannot see with the core resample policy and a world check
(the mover's move under construction stays completable).
"""
from libc.string cimport memset
from cardsim.core._types cimport card_t, uint8_t, uint32_t, int8_t
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._hand cimport Hand, hand_clear, hand_size
from cardsim.core._actions cimport ActionSet
from cardsim.core._resample cimport (resample_zones, resample_rekey, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_CONSTRAINED_TRIES)
from cardsim.games.samba._rules cimport SBConfig, SB_KINDS, SB_MAXMELDS, MT_NONE, sb_counts, is_red3
from cardsim.games.samba._state cimport (
    SBState, PH_DRAW, PH_MELD, PH_ANSWER, PH_END, side_of, add_kind, req_of, draw_legal)
from cardsim.games.samba._going_out cimport sb_go_out_ok
from cardsim.games.samba._legal cimport meld_legal
from cardsim.games.samba._layout cimport (
    OBS_HAND, OBS_STAGED, OBS_TAKE_TOP, OBS_KNOWN, OBS_HAND_SIZES, OBS_MELDS, OBS_RED3, OBS_OPENED,
    OBS_REQUIREMENT, OBS_PILE, OBS_PILE_TOP, OBS_PILE_STATE, OBS_PHASE, OBS_TO_ACT, OBS_MOVER, OBS_DEALER,
    OBS_OBSERVER, OBS_MERGE_FROM, OBS_FLAGS, OBS_CUM, OBS_DEALS)

# ---------------------------------------------------------------------------------------------
# observation
# ---------------------------------------------------------------------------------------------
cdef inline void put_counts(float* o, const Hand* h) noexcept nogil:
    cdef int8_t cnt[SB_KINDS]
    cdef int k
    sb_counts(h, cnt)
    for k in range(SB_KINDS):
        if cnt[k]:
            o[k] = cnt[k] / 3.0

cdef void sb_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int q, side, i
    cdef int8_t cnt[SB_KINDS]
    put_counts(o + OBS_HAND, &s.hand[p])
    put_counts(o + OBS_STAGED, &s.stage.cards)
    if s.take_top >= 0:
        o[OBS_TAKE_TOP + s.take_top] = 1.0
    for q in range(c.nplayers):
        put_counts(o + OBS_KNOWN + 53 * q, &s.known[q])
    for q in range(c.nplayers):
        o[OBS_HAND_SIZES + q] = hand_size(&s.hand[q]) / 30.0
    for side in range(c.nsides):
        for i in range(SB_MAXMELDS):
            if s.melds[side][i].type != MT_NONE:
                put_counts(o + OBS_MELDS + (side * 32 + i) * 54, &s.melds[side][i].cards)
                o[OBS_MELDS + (side * 32 + i) * 54 + 53] = 1.0 + s.melds[side][i].pending
    for side in range(c.nsides):
        o[OBS_RED3 + side] = hand_size(&s.red3[side]) / 6.0
        o[OBS_OPENED + side] = s.opened[side]
        o[OBS_REQUIREMENT + side] = req_of(s, c, side) / 200.0
    memset(cnt, 0, SB_KINDS)
    for i in range(s.npile):
        cnt[s.pile[i]] += 1
    for i in range(SB_KINDS):
        o[OBS_PILE + i] = cnt[i] / 3.0
    if s.npile:
        o[OBS_PILE_TOP + s.pile[s.npile - 1]] = 1.0
    o[OBS_PILE_STATE] = s.npile / 162.0
    o[OBS_PILE_STATE + 1] = 1.0 if s.pile_frz else 0.0
    o[OBS_PILE_STATE + 2] = s.nstock / 162.0
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase != PH_END:
        o[OBS_TO_ACT + s.turn] = 1.0
        o[OBS_MOVER + s.mover] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    if s.merge_from >= 0:
        o[OBS_MERGE_FROM + s.merge_from] = 1.0
    o[OBS_FLAGS] = s.partner_no
    o[OBS_FLAGS + 1] = s.asked
    o[OBS_FLAGS + 2] = s.must_out
    o[OBS_FLAGS + 3] = s.drew
    o[OBS_FLAGS + 4] = s.pile_take
    for side in range(c.nsides):
        o[OBS_CUM + side] = s.cum[side] / 10000.0
    o[OBS_DEALS] = s.deal_no / 20.0

# ---------------------------------------------------------------------------------------------
# resampling
# ---------------------------------------------------------------------------------------------
cdef bint mover_consistent(const SBState* s, const SBConfig* c) noexcept nogil:
    """After a redeal: the mover's move under construction (staged cards, a pile group, a
    pending initial batch, a go-out query) can still be completed, as its legal actions showed.
    The current construction being completable implies every earlier step was."""
    cdef ActionSet tmp
    cdef int8_t H[SB_KINDS]
    cdef int side = side_of(c, s.mover)
    cdef int8_t Z[SB_KINDS]
    if s.phase == PH_ANSWER:                    # the mover asked: a going-out plan exists
        sb_counts(&s.hand[s.mover], H)
        memset(Z, 0, SB_KINDS)
        return sb_go_out_ok(&s.melds[side][0], Z, H, 0 if s.opened[side] else req_of(s, c, side), c) != 0
    if s.phase == PH_MELD:
        return meld_legal(s, c, &tmp) > 0
    if s.phase == PH_DRAW and s.nstock == 0:
        return draw_legal(s, c, &tmp) > 0      # the deal did not end: the mover can take
    return True

ctypedef struct WorldCtx:
    SBState* s
    const SBConfig* c
    int p                    # the observer
    int nz                   # zones: the other seats in order, then the stock (zone nz - 1)
    int8_t seat[6]           # seat of zone z (z < nz - 1)

cdef void write_world(const WorldCtx* x, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """Hands = known cards + the hidden cards of their zone; the stock in the drawn order."""
    cdef SBState* s = x.s
    cdef int8_t kn[SB_KINDS]
    cdef int z, q, k, j, i, ns = 0
    for z in range(x.nz - 1):
        q = x.seat[z]
        hand_clear(&s.hand[q])
        sb_counts(&s.known[q], kn)
        for k in range(SB_KINDS):
            for j in range(kn[k]):
                add_kind(&s.hand[q], k)
    for i in range(n):
        if dest[i] == x.nz - 1:
            s.stock[ns] = cards[i]
            ns += 1
        else:
            add_kind(&s.hand[x.seat[dest[i]]], cards[i])

cdef bint world_ok(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """The core resample policy's world check: write the candidate world, then the mover's move
    under construction must still be completable (mover_consistent)."""
    cdef const WorldCtx* x = <const WorldCtx*>ctx
    write_world(x, cards, dest, n)
    return x.s.mover == x.p or mover_consistent(x.s, x.c)

cdef int sb_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy (core/_resample.pxd): the other
    seats' cards that are not publicly known (known = taken from the pile and not given up
    since) and the stock, keeping hand sizes. Constraints play reveals: in auto mode a seat that
    has had its first turn holds no red three (per-card zones); the mover's move under
    construction stays completable and, with an empty stock, the mover can take the pile (the
    world check). 0 if no consistent world is found (never the true hands). The deal stream is
    replaced (later deals must not leak)."""
    cdef SBState* s = <SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef card_t cards[162]
    cdef uint8_t dest[162]
    cdef uint32_t allowed[SB_KINDS]
    cdef int room[7]
    cdef int8_t cnt[SB_KINDS]
    cdef int8_t kn[SB_KINDS]
    cdef WorldCtx x
    cdef int n = 0, q, k, j, z = 0
    cdef uint32_t all_zones, red_zones
    x.s = s
    x.c = c
    x.p = p
    for q in range(c.nplayers):
        if q == p:
            continue
        x.seat[z] = q
        room[z] = 0
        sb_counts(&s.hand[q], cnt)
        sb_counts(&s.known[q], kn)
        for k in range(SB_KINDS):
            for j in range(cnt[k] - kn[k]):
                cards[n] = k
                n += 1
                room[z] += 1
        z += 1
    room[z] = s.nstock
    for j in range(s.nstock):
        cards[n] = s.stock[j]
        n += 1
    x.nz = z + 1
    all_zones = (<uint32_t>1 << x.nz) - 1
    red_zones = <uint32_t>1 << z
    for j in range(z):
        if c.red3_manual or not s.first_done[x.seat[j]]:
            red_zones |= <uint32_t>1 << j
    for k in range(SB_KINDS):
        allowed[k] = red_zones if is_red3(k) and not c.red3_manual else all_zones
    if not resample_zones(cards, n, allowed, room, x.nz, dest, rng, world_ok, &x,
                          RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES):
        return 0
    write_world(&x, cards, dest, n)
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)            # Samba's stream then steps once more (as it always did: byte-identical)
    return 1

