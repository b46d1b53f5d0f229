"""Gleek, what a seat sees and what it may believe: the observation (vt.observe; the blocks are
declared once in INFO.observation, offsets in the generated _layout.pxd) and the resample of the
hidden cards (vt.resample) under the public constraints: shown voids, the showdown's ruffs and
the declared gleeks and mournivals."""
from cardsim.core._types cimport uint8_t, int8_t, uint64_t, card_t
from cardsim.core._trick cimport put_trick_cards
from cardsim.core._resample cimport (resample_masks, resample_rekey, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_CONSTRAINED_TRIES)
from cardsim.core._bits cimport cs_popcount, put_bits, card_bit
from cardsim.core._rng cimport Rng, rng_next
from cardsim.games.gleek._rules cimport (GLConfig, GL_RANK_ACE, suit_mask, rank_cards, hand_sets,
                                         ruff_value)
from cardsim.games.gleek._state cimport GLState, GL_PH_END, GL_PH_PLAY, GL_PH_VIE, GL_PH_DECLARE
from cardsim.games.gleek._layout cimport *


cdef void gl_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    """Seat p's view: every block at its OBS_<BLOCK> offset (INFO.observation says what each holds)."""
    cdef const GLState* s = <const GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef int q, i, r
    put_bits(o + OBS_HAND, s.hand[p])
    if s.buyer == p:
        put_bits(o + OBS_DISCARDS, s.discards)
    o[OBS_TURNUP + s.turnup] = 1.0
    for q in range(3):
        put_bits(o + OBS_PLAYED + 44 * q, s.played[q])
    put_trick_cards(o + OBS_TRICK, &s.cur, 3, 44)
    for q in range(3):
        put_bits(o + OBS_SHOWN + 44 * q, s.shown[q])
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase != GL_PH_END:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    # auction
    o[OBS_HIGH] = s.high / 100.0
    o[OBS_HIGH_BIDDER + s.high_bidder] = 1.0
    for q in range(3):
        o[OBS_PASS_ORDER + 3 * q + s.pass_rank[q]] = 1.0
    for q in range(3):
        o[OBS_LAST_BID + q] = s.last_bid[q] / 100.0
    if s.buyer >= 0:
        o[OBS_BUYER + s.buyer] = 1.0
    o[OBS_DISCARDS_MADE] = s.ndiscard / 7.0
    o[OBS_STOCK_TAKEN] = s.took
    # vie
    o[OBS_VIE_OPEN] = s.vie_open
    o[OBS_OPEN_ACTED] = s.open_acted / 3.0
    o[OBS_VIED] = s.vied
    o[OBS_REVIES] = s.revies / 4.0
    o[OBS_STAKE] = s.stake / 100.0
    o[OBS_BASE] = s.base / 100.0
    for q in range(3):
        o[OBS_COMMITTED + q] = s.committed[q] / 100.0
        o[OBS_OWE + q] = s.owe[q] / 100.0
        o[OBS_FOLDED + q] = (s.folded >> q) & 1
        o[OBS_CHECKED + q] = (s.checked >> q) & 1
    for i in range(3):
        if s.pending[i] >= 0 and i < s.npend:
            o[OBS_PENDING + 3 * i + s.pending[i]] = 1.0
    o[OBS_SHOWDOWN] = s.showdown
    for q in range(3):
        if s.ruff_suit[q] >= 0:
            o[OBS_RUFF_SUIT + 5 * q + s.ruff_suit[q]] = 1.0
    for q in range(3):
        if s.ruff[q] >= 0:
            o[OBS_RUFF + q] = s.ruff[q] / 100.0
    o[OBS_DEAD] = s.dead / 10.0
    # declarations
    for q in range(3):
        for r in range(4):
            if (s.declared[q] >> r) & 1:
                o[OBS_DECLARED + 4 * q + r] = 1.0
                o[OBS_SET_SIZE + 4 * q + r] = s.set_count[q][r] / 4.0
    for q in range(3):
        o[OBS_DECL_DONE + q] = (s.decl_done >> q) & 1
    # play
    for q in range(3):
        o[OBS_TRICKS + q] = s.tricks[q] / 12.0
    o[OBS_TRICKS_DONE] = s.tricks_done / 12.0
    if s.phase == GL_PH_PLAY:
        o[OBS_LEADER + s.cur.leader] = 1.0
    for r in range(5):
        for q in range(3):
            o[OBS_PARTS + 3 * r + q] = s.part[r][q] / 100.0
    for q in range(3):
        o[OBS_CHIPS + q] = s.chips[q] / <float>(c.starting_chips if c.starting_chips > 0 else 1)
    o[OBS_DEALS_DONE] = s.deal_no / <float>c.num_deals

ctypedef struct WorldCtx:
    const GLState* s
    const GLConfig* c
    int p                    # the observer

cdef bint consistent(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """World check of the resample policy (constraints that are not per card; the per-card ones
    are the `allowed` masks, see gl_resample): each showdown ruff value and suit stays, and with
    automatic declarations each seat holds exactly the gleeks/mournivals it declared."""
    cdef const WorldCtx* x = <const WorldCtx*>ctx
    cdef const GLState* s = x.s
    cdef uint64_t full[3]
    cdef int q, i, suit, v
    cdef int8_t cnt[4]
    for q in range(3):
        full[q] = s.hand[q] & s.shown[q] | s.played[q]
    for i in range(n):
        if dest[i] < 3:
            full[dest[i]] |= card_bit(cards[i])
    for q in range(3):
        if q == x.p:
            continue
        if s.ruff[q] >= 0:
            v = ruff_value(full[q], &suit)
            if v != s.ruff[q] or suit != s.ruff_suit[q]:
                return False
        if (s.phase == GL_PH_PLAY or s.phase == GL_PH_END) and not x.c.optional_decl:
            if hand_sets(full[q], cnt) != s.declared[q]:
                return False
    return True

cdef int gl_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal the cards p cannot see with the core resample policy: the other seats' unshown
    cards (zones 0..2), the stock until taken (zone 3) and the buyer's discards unless p is the
    buyer (zone 4), each zone keeping its size. Per-card constraints (`allowed`): suits shown
    void in play, the rest of a suit fully revealed at the ruff showdown, the fourth card of a
    declared gleek. World check (`consistent`): showdown ruff values and suits, and with
    automatic declarations the exact sets. Returns 0 when no consistent world is found (never
    the true cards, never a world that breaks a constraint); the deal stream is replaced so
    later deals of a match are not leaked."""
    cdef GLState* s = <GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef uint64_t unknown = 0
    cdef int need[5]
    cdef uint64_t newh[5]
    cdef uint64_t forbid[5]
    cdef int q, t, z, r
    cdef WorldCtx x
    for z in range(5):
        need[z] = 0
        forbid[z] = 0
    for q in range(3):
        if q != p:
            unknown |= s.hand[q] & ~s.shown[q]
            need[q] = cs_popcount(s.hand[q] & ~s.shown[q])
            for t in range(4):
                if (s.void_suits[q] >> t) & 1:
                    forbid[q] |= suit_mask(t)
            if 0 <= s.ruff_suit[q] < 4:
                forbid[q] |= suit_mask(s.ruff_suit[q])
            for r in range(4):
                if (s.declared[q] >> r) & 1:
                    forbid[q] |= rank_cards(GL_RANK_ACE - r)
    unknown |= s.stock
    need[3] = cs_popcount(s.stock)
    if s.buyer != p:
        unknown |= s.discards
        need[4] = cs_popcount(s.discards)
    x.s = s
    x.c = c
    x.p = p
    if not resample_masks(unknown, need, forbid, 5, newh, rng, consistent, &x, RESAMPLE_EXACT_TRIES,
                          RESAMPLE_CONSTRAINED_TRIES):
        return 0                                 # no consistent world found: say so
    for q in range(3):
        if q != p:
            s.hand[q] = newh[q] | (s.hand[q] & s.shown[q])
            if s.phase >= GL_PH_VIE:
                s.kept[q] = s.hand[q] | s.played[q]
            if s.phase == GL_PH_DECLARE and not ((s.decl_done >> q) & 1):
                s.sets[q] = hand_sets(s.hand[q], s.set_count[q])
    s.stock = newh[3]
    if s.buyer != p:
        s.discards = newh[4]
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)
    return 1
