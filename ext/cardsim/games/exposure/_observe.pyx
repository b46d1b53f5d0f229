"""Exposure: what a seat sees (vt.observe) and the worlds consistent with it (vt.resample).

The observation's blocks are declared once in INFO.observation (src/cardsim/games/exposure/
info.py, with their meaning and scaling); `_layout.pxd`, generated from them by
tools/gen_layout.py, gives each block's offset OBS_<BLOCK>, at which ex_observe writes it. The
engine zeroes the vector first; a blank block is one left at 0 (another seat's declarations under
simultaneous declaration until both have finished)."""
from cardsim.core._types cimport uint8_t, uint32_t, uint64_t, card_t
from cardsim.core._bits cimport cs_popcount, put_bits
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._trick cimport put_card_tricks
from cardsim.core._resample cimport (resample_masks, resample_rekey, world_check_fn, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_CONSTRAINED_TRIES)
from cardsim.games.exposure._rules cimport (EXConfig, EX_NCARDS, EX_TRICKS, bit32, suit_cards, meld_value,
                                            meld_extensions)
from cardsim.games.exposure._state cimport (EXState, EX_MAXMELD, EX_PH_DECLARE, EX_PH_END, clear_declarations,
                                            clear_stage, led_card, sel_of, table_mask, avail_table, visible)
from cardsim.games.exposure._layout cimport *


cdef inline void put_seat(float* o, const EXState* s, const EXConfig* c, int q, int p, int exposed,
                          int played, int melds, int meld_points, int tricks, int declared,
                          int voids) noexcept nogil:
    """Seat q's public facts as p sees them, at the offsets of q's blocks (OBS_<BLOCK>_<q>)."""
    cdef int i
    cdef bint vis = visible(s, c, q, p)
    if vis:
        put_bits(o + exposed, s.exposed[q])
    put_bits(o + played, s.played[q])
    if vis:
        for i in range(EX_MAXMELD):
            put_bits(o + melds + EX_NCARDS * i, s.meld[q][i])
        o[meld_points] = s.meld_points[q] / 10.0
    o[tricks] = s.tricks[q] / 9.0
    o[declared] = (s.decl_done >> q) & 1
    for i in range(4):
        o[voids + i] = (s.void_suits[q] >> i) & 1


cdef void ex_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    cdef const EXConfig* c = <const EXConfig*>cfg
    cdef int i
    put_bits(o + OBS_HAND, s.hand[p])
    o[OBS_OBSERVER + p] = 1.0
    for i in range(3):
        o[OBS_TABLE + EX_NCARDS * i + s.table[i]] = 1.0
    put_seat(o, s, c, 0, p, OBS_EXPOSED_0, OBS_PLAYED_0, OBS_MELDS_0, OBS_MELD_POINTS_0, OBS_TRICKS_0,
             OBS_DECLARED_0, OBS_VOIDS_0)
    put_seat(o, s, c, 1, p, OBS_EXPOSED_1, OBS_PLAYED_1, OBS_MELDS_1, OBS_MELD_POINTS_1, OBS_TRICKS_1,
             OBS_DECLARED_1, OBS_VOIDS_1)
    put_card_tricks(o + OBS_CARD_TRICK, s.card_trick, EX_NCARDS, 9.0)
    if s.trick.n > 0:
        o[OBS_LED + led_card(s)] = 1.0
    o[OBS_LEADER + s.trick.leader] = 1.0
    if s.phase != EX_PH_END:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase == EX_PH_DECLARE and visible(s, c, s.turn, p):
        put_bits(o + OBS_BUILDING, sel_of(s))
    o[OBS_SCORE] = s.score[0] / <float>c.target_score
    o[OBS_SCORE + 1] = s.score[1] / <float>c.target_score
    o[OBS_DEALS] = s.deal_no / 10.0
    o[OBS_DEAL_POINTS] = s.deal_pts[0] / 50.0
    o[OBS_DEAL_POINTS + 1] = s.deal_pts[1] / 50.0


ctypedef struct BuildCtx:
    const EXConfig* c
    uint32_t known           # the opponent's cards p knows (exposed, and the meld he is building)
    uint32_t melded          # his hand cards already used in melds
    uint32_t sel             # the meld he is building (in view)
    uint32_t table_avail     # face-up cards he may still use
    uint32_t tm              # the face-up cards

cdef bint can_complete(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """World check of the resample policy: the meld the opponent is building in view can still
    be completed with the hand this world gives him (zone 0)."""
    cdef const BuildCtx* x = <const BuildCtx*>ctx
    cdef uint32_t hand = x.known
    cdef int i
    for i in range(n):
        if dest[i] == 0:
            hand |= bit32(cards[i])
    if meld_value(x.c, x.sel, ~x.tm) >= 0:
        return True
    return meld_extensions(x.c, x.sel, cs_popcount(x.sel & ~x.tm), hand & ~x.melded & ~x.sel,
                           x.table_avail) != 0

cdef int ex_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy: the opponent's hidden cards
    (zone 0, his hand size kept) and the three set-aside cards (zone 1). He keeps every card he
    has exposed (and the cards of a meld he is building in view); the cards of a suit he has
    shown void in are set aside (they are pinned there, so the draw stays uniform). A meld he
    is building in view must stay completable (the policy's world check). Under simultaneous
    declaration, declarations p has not seen yet are withdrawn (an opponent who declared nothing
    is a consistent world). Returns 0 if no consistent world is found. The deal stream is
    replaced so later deals of a match do not leak."""
    cdef EXState* s = <EXState*>st
    cdef const EXConfig* c = <const EXConfig*>cfg
    cdef int q = 1 - p, i
    cdef int room[2]
    cdef uint64_t newh[2]
    cdef uint32_t pool, forced
    cdef BuildCtx x
    cdef world_check_fn check = NULL
    cdef bint building
    if not visible(s, c, q, p):
        clear_declarations(s, q)
        if s.phase == EX_PH_DECLARE and s.turn == q:
            clear_stage(s)
    x.known = s.exposed[q]
    if s.phase == EX_PH_DECLARE and s.turn == q:
        x.known |= sel_of(s) & s.hand[q]
    pool = (s.hand[q] & ~x.known) | s.aside
    room[0] = cs_popcount(s.hand[q] & ~x.known)
    forced = 0
    for i in range(4):
        if (s.void_suits[q] >> i) & 1:
            forced |= pool & suit_cards(i)
    room[1] = cs_popcount(s.aside) - cs_popcount(forced)
    building = s.phase == EX_PH_DECLARE and s.turn == q and sel_of(s) != 0
    x.c = c
    x.melded = s.melded[q]
    x.sel = sel_of(s)
    x.tm = table_mask(s)
    x.table_avail = avail_table(s, c, q)
    if building:
        check = can_complete
    if not resample_masks(pool & ~forced, room, NULL, 2, newh, rng, check, &x, RESAMPLE_EXACT_TRIES,
                          RESAMPLE_CONSTRAINED_TRIES):
        return 0
    s.hand[q] = x.known | <uint32_t>newh[0]
    s.aside = forced | <uint32_t>newh[1]
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)          # then one step on (as before the shared re-key: same streams)
    return 1
