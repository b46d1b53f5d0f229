"""Zhao Pengyou 找朋友: observation (vt.observe) and resampling (vt.resample).

The observation's blocks are declared once, INFO.observation in
src/cardsim/games/zhao_pengyou/info.py; their offsets are the generated `_layout.pxd`.
Resampling redeals what the observer cannot see with the core resample policy (see zp_resample).
"""
from libc.string cimport memcpy
from cardsim.core._types cimport card_t, uint8_t, uint32_t, MAX_PLAYERS
from cardsim.core._resample cimport (resample_zones, resample_rekey, world_check_fn, RESAMPLE_EXACT_TRIES,
                                    RESAMPLE_CONSTRAINED_TRIES)
from cardsim.core._trick cimport trick_empty
from cardsim.core._staged cimport staged_clear
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._hand cimport Hand, put_counts, hand_clear, hand_add, hand_count, hand_size, hand_merge, hand_sub
from cardsim.core._actions cimport ActionSet
from cardsim.games.zhao_pengyou._rules cimport ZPConfig, ZP_NID, ZP_MAX_DECK, hand_points
from cardsim.games.zhao_pengyou._state cimport (ZPState, ZP_PH_PLAY, ZP_PH_END, ZP_ACTION_WORDS, ZP_MAX_CALLS,
                                                zp_legal)
from cardsim.games.zhao_pengyou._layout cimport *

cdef enum:
    MAX_SEATS = 12                        # seat blocks are sized for the largest table
    ZP_VOID_SUITS = 5                     # effective suits a seat can show void in (S H D C, trumps)
    ZP_CALL_OBS = ZP_NID + 4 + 13         # one call: identity, N (1..4), fulfilled by (seat or open)


cdef void zp_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    """Write p's observation at the offsets of _layout.pxd (INFO.observation says what each block
    holds); o is zeroed by the engine."""
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q, i, k
    put_counts(o + OBS_HAND, &s.hand[p], 0.25)
    if p == s.turn:
        put_counts(o + OBS_BUILDING, &s.cur.cards, 0.25)
    for q in range(c.n):
        put_counts(o + OBS_PLAYED + q * ZP_NID, &s.played[q], 0.25)
        put_counts(o + OBS_TRICK + q * ZP_NID, &s.trick[q], 0.25)
        put_counts(o + OBS_EXPOSED + q * ZP_NID, &s.exposed[q], 0.25)
    if p == s.declarer:
        put_counts(o + OBS_KITTY, &s.kitty, 0.25)
    for q in range(c.n):
        for i in range(ZP_VOID_SUITS):
            if (s.void[q] >> i) & 1:
                o[OBS_VOIDS + ZP_VOID_SUITS * q + i] = 1.0
    if s.declarer >= 0:
        if s.tr.suit >= 0:                    # a no-trump deal: no suit set
            o[OBS_TRUMP_SUIT + s.tr.suit] = 1.0
        o[OBS_TRUMP_RANK + s.tr.rank] = 1.0
        o[OBS_DECLARER + s.declarer] = 1.0
    for i in range(s.ncalls):
        k = OBS_CALLS + i * ZP_CALL_OBS
        o[k + s.call_id[i]] = 1.0
        o[k + ZP_NID + s.call_n[i] - 1] = 1.0
        o[k + ZP_NID + 4 + (s.call_by[i] if s.call_by[i] >= 0 else MAX_SEATS)] = 1.0
    for q in range(c.n):
        if (s.decl_mask >> q) & 1:
            o[OBS_DECL + q] = 1.0
        o[OBS_CAPTURED + q] = s.captured[q] / 100.0
        o[OBS_RANKS + 13 * q + s.rank[q]] = 1.0
        o[OBS_ACTIVE + q] = (s.active >> q) & 1
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase != ZP_PH_END:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    if s.rec.leader >= 0:
        o[OBS_LEADER + s.rec.leader] = 1.0
    o[OBS_STARTER + s.starter] = 1.0
    if s.drawer >= 0:
        o[OBS_DRAWER + s.drawer] = 1.0
    o[OBS_DRAWN] = s.deck_pos / <float>s.deck_len
    o[OBS_WINDOW] = s.win_i / <float>c.n
    o[OBS_LEAD_FORMAT + s.lead_fmt] = 1.0
    o[OBS_LEAD_K] = s.lead_k * 0.25
    o[OBS_LEAD_M] = s.lead_m / 16.0
    if s.lead_fmt:
        o[OBS_LEAD_SUIT + s.lead_suit] = 1.0
    for q in range(c.n):
        o[OBS_FAILS + q] = s.fails[q]
    if c.reveal_blocker and s.blocker >= 0:
        o[OBS_BLOCKER + s.blocker] = 1.0
    elif s.fail_seat >= 0:
        o[OBS_BLOCKER + MAX_SEATS] = 1.0
    o[OBS_TRICKS_DONE] = s.tricks_done / 25.0
    if s.last_winner >= 0:
        o[OBS_LAST_WINNER + s.last_winner] = 1.0
    o[OBS_DEALS_DONE] = s.deal_no / 20.0
    o[OBS_REDEALS] = s.redeals / 10.0
    o[OBS_DISCARDS] = s.discards / 8.0
    o[OBS_CALLS_MADE] = s.ncalls / 5.0
    put_counts(o + OBS_DK_KNOWN, &s.dk_known, 0.25)

ctypedef struct WorldCtx:
    const ZPState* s         # the state before the redeal (hands hold only their exposed cards)
    const ZPConfig* c        # the config
    ZPState* trial           # scratch state for the legal-set comparison (reject mode), or NULL
    int p                    # the observer
    ActionSet legal          # p's legal set to keep (reject mode, p building a lead)

cdef bint world_ok(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """Constraints of a candidate world that are not per card: the cards known to be in the
    declarer's hand or the kitty are there; with V4 'reject', when p is building a lead, p's
    legal set is the one p sees (legality then depends on the other hands)."""
    cdef const WorldCtx* x = <const WorldCtx*>ctx
    cdef const ZPState* s = x.s
    cdef int i, k, kitty_zone = x.c.n
    cdef Hand got
    cdef ActionSet a
    if s.dk_known.layer[0] and x.p != s.declarer:
        hand_clear(&got)
        for i in range(n):
            if dest[i] == s.declarer or dest[i] == kitty_zone:
                hand_add(&got, cards[i])
        hand_merge(&got, &s.hand[s.declarer])          # its exposed cards, pinned
        for k in range(ZP_NID):
            if hand_count(&s.dk_known, k) > hand_count(&got, k):
                return False
    if x.trial != NULL:
        memcpy(x.trial, s, sizeof(ZPState))
        for i in range(n):
            if dest[i] < x.c.n:
                hand_add(&x.trial.hand[dest[i]], cards[i])
        zp_legal(x.trial, x.c, &a)
        for i in range(ZP_ACTION_WORDS):
            if a.w[i] != x.legal.w[i]:
                return False
    return True

cdef int zp_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal everything p cannot see with the core resample policy: the other seats' unexposed
    cards, the undrawn pack and (for all but the declarer) the kitty discards. Zones: seats
    0..n-1 (p takes none), n = kitty, n+1 = undrawn pack; every zone keeps its size, exposed
    cards stay with their holder, and no seat gets a card of an effective suit it has shown void
    in; world_ok adds the constraints that are not per card (cards known to be in the
    declarer's hand or the kitty; with V4 'reject' the legal set of p's lead in progress).
    Returns 0 (state unspecified) if no consistent world was found. The deal stream is replaced,
    so later deals of a match are not leaked."""
    cdef ZPState* s = <ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef card_t cards[ZP_MAX_DECK]
    cdef uint8_t dest[ZP_MAX_DECK]
    cdef uint32_t allowed[ZP_NID]
    cdef int room[MAX_PLAYERS + 2]
    cdef int n = 0, q, i, j, kk, nz = c.n + 2
    cdef Hand tmp
    cdef bint kitty_hidden = p != s.declarer and s.discards > 0
    cdef WorldCtx ctx
    cdef ZPState trial
    cdef bint need_check
    ctx.s = s
    ctx.c = c
    ctx.p = p
    ctx.trial = NULL
    if c.reject_throw and p == s.turn and s.phase == ZP_PH_PLAY and trick_empty(&s.rec) and s.cur.n > 0:
        zp_legal(s, c, &ctx.legal)
        ctx.trial = &trial
    need_check = ctx.trial != NULL or (kitty_hidden and s.dk_known.layer[0] != 0)
    if p != s.turn and s.cur.n > 0:
        # the play being built is private to the seat to act: p cannot know it
        hand_merge(&s.hand[s.turn], &s.cur.cards)
        staged_clear(&s.cur)
    for q in range(c.n):
        room[q] = 0
        if q == p:
            continue
        tmp = s.hand[q]
        hand_sub(&tmp, &s.exposed[q])
        room[q] = hand_size(&tmp)
        hand_sub(&s.hand[q], &tmp)                  # keep the exposed cards; the rest is redealt
        for kk in range(ZP_NID):
            for i in range(hand_count(&tmp, kk)):
                cards[n] = kk
                n += 1
    room[c.n] = 0
    if kitty_hidden:
        room[c.n] = hand_size(&s.kitty)
        for kk in range(ZP_NID):
            for i in range(hand_count(&s.kitty, kk)):
                cards[n] = kk
                n += 1
    room[c.n + 1] = s.deck_len - s.deck_pos
    for i in range(s.deck_pos, s.deck_len):
        cards[n] = s.deck[i]
        n += 1
    for kk in range(ZP_NID):
        allowed[kk] = (<uint32_t>3) << c.n
        for q in range(c.n):
            if q != p and not (s.void[q] >> s.tr.eff[kk]) & 1:
                allowed[kk] |= (<uint32_t>1) << q
    if not resample_zones(cards, n, allowed, room, nz, dest, rng, world_ok if need_check else <world_check_fn>NULL,
                          &ctx, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES):
        return 0
    if kitty_hidden:
        hand_clear(&s.kitty)
    j = s.deck_pos
    for i in range(n):
        q = dest[i]
        if q < c.n:
            hand_add(&s.hand[q], cards[i])
        elif q == c.n:
            hand_add(&s.kitty, cards[i])
        else:
            s.deck[j] = cards[i]
            j += 1
    if kitty_hidden:
        s.kitty_pts = hand_points(&s.kitty)
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)
    return 1
