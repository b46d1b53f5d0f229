"""Zhao Pengyou 找朋友: the state machine (docs/rules/zhao_pengyou.md §3-§7): the deal and the
draw with declaration windows, the kitty exchange, friend calls, play with the factored lead and
follow actions, scoring and rank advancement. Pure rules come from `_rules` (shengji's formats
from `_formats`, its legality and winner from `_plays`); the module docstring of the face
`cardsim.games.zhao_pengyou` lists the decisions followed.

Actions (322): 0..53 add one copy of identity k to the play being built (a follow commits itself
when it has as many cards as the lead); 54 COMMIT the lead; 55 PASS and 56..59 DECLARE S/H/D/C in
a declaration window; 60..113 DISCARD identity k to the kitty; 114 + 4*id + (N-1) CALL the N-th
copy of plain identity id. Every legal action can be completed into a legal whole play: a lead
prefix is completable iff all its cards share one suit and the largest count in it is at most the
smallest number of copies held of any of its identities; a follow prefix iff the set obligation
can still be met (`set_obligation_cost`).

Returns (scope "deal"): the game points each seat gained this deal (winners get the table's
points, losers 0); scope "match": the rank levels each seat gained (final rank - 2; reaching A =
12). returns_sum is "none".

Observation and resampling: `_observe` (the layout is declared once, INFO.observation in
src/cardsim/games/zhao_pengyou/info.py; its offsets are `_layout.pxd`).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, uint8_t, int8_t, int16_t, int32_t, uint16_t, uint64_t, uint32_t, MAX_PLAYERS
from cardsim.core._deal cimport shuffle
from cardsim.core._trick cimport (TrickRecord, trick_reset, trick_start, trick_add_seat, trick_seat_of, trick_done,
                                 trick_empty, trick_close)
from cardsim.core._staged cimport Staged, staged_clear, staged_add, staged_commit, staged_legal_adds
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._hand cimport (Hand, put_counts, hand_clear, hand_add, hand_remove, hand_count, hand_size, hand_size_in,
                                 hand_add_n, hand_merge, hand_sub, hand_max_count)
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_remove, as_add_mask, as_count
from cardsim.games.zhao_pengyou._rules cimport (ZP_NID, ZP_NPLAIN, 
    ZPTrump, ZPConfig, ZP_SJK, ZP_BJK, ZP_TRUMP, ZP_F_SINGLE, ZP_F_SET, ZP_F_THROW, id_points, hand_points,
    rank_mask, zp_trump_tables, zp_classify, zp_trick_winner, zp_follow_candidates, zp_follow_set_adds,
    set_obligation_cost, zp_throw_blocker, zp_lead_candidates, zp_lead_legal_now, zp_lead_whole, zp_lead_component, zp_opposition_points, zp_game_points,
    ZPFormat, zp_set_adjacency, ZP_F_SEQ, zp_merge, zp_sub, zp_play_key)
from cardsim.games.zhao_pengyou._formats cimport (zp_mixed_format, zp_mixed_blocker, zp_fmt_unit_cards, zp_fmt_force,
                                                  zp_fmt_largest)
from cardsim.games.zhao_pengyou._plays cimport (
    zp_mixed_completable, zp_mixed_follow_candidates, zp_mixed_lead_candidates, zp_mixed_lead_whole, zp_mixed_winner,
    zp_is_bomb)


# the unshuffled plain cards of d packs (suit, rank, then copy: the draw order start_deal shuffles),
# for d = 1..4, filled once at import
cdef uint8_t DECK0[4][4 * ZP_NPLAIN]

cdef void _fill_deck0():
    cdef int d, n, su, rk, i
    for d in range(1, 5):
        n = 0
        for su in range(4):
            for rk in range(13):
                for i in range(d):
                    DECK0[d - 1][n] = su * 13 + rk
                    n += 1

_fill_deck0()


cdef void start_deal(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Shuffle the pack on the deal stream and reset everything of a deal (§3)."""
    cdef int i, n = ZP_NPLAIN * c.decks
    memcpy(s.deck, DECK0[c.decks - 1], n)
    for i in range(c.nsmall):
        s.deck[n] = ZP_SJK
        n += 1
    for i in range(c.nbig):
        s.deck[n] = ZP_BJK
        n += 1
    s.deck_len = n
    shuffle(s.deck, n, &s.rng)
    # hand, played, trick, exposed, kitty and dk_known are consecutive Hands
    memset(s.hand, 0, (4 * MAX_PLAYERS + 2) * sizeof(Hand))
    memset(s.captured, 0, sizeof(s.captured))
    memset(s.fails, 0, sizeof(s.fails))
    memset(s.gained, 0, sizeof(s.gained))
    memset(s.void, 0, sizeof(s.void))
    staged_clear(&s.cur)
    trick_reset(&s.rec)
    memset(s.played_count, 0, sizeof(s.played_count))
    for i in range(ZP_MAX_CALLS):
        s.call_id[i] = -1
        s.call_n[i] = 0
        s.call_by[i] = -1
    memset(&s.tr, 0, sizeof(ZPTrump))
    s.deck_pos = 0
    s.ncalls = 0
    s.open_calls = 0
    s.discards = 0
    s.trick_removed = 0
    s.trick_pts = 0
    s.tw_key = -1
    s.tw_best = 0
    s.kitty_pts = 0
    s.p_opp = 0
    s.tricks_done = 0
    s.last_unit = 1
    s.failed_total = 0
    s.decl_mask = 0
    s.winners = 0
    s.phase = ZP_PH_DRAW
    s.turn = s.starter
    s.drawer = -1
    s.win_i = c.n
    s.declarer = -1
    s.lead_fmt = 0
    s.lead_k = 0
    s.lead_m = 0
    s.lead_suit = 0
    s.lead_len = 0
    s.last_winner = -1
    s.blocker = -1
    s.fail_seat = -1

# POINTS[k]: id_points(k)
cdef uint8_t POINTS[ZP_NID]

cdef void _fill_points():
    cdef int k
    for k in range(ZP_NID):
        POINTS[k] = id_points(k)

_fill_points()

# SPREAD4[x]: the 7 bits of x spread 4 apart (bit i -> bit 4i): the CALL actions of a suit
cdef uint64_t SPREAD4[128]

cdef void _fill_spread4():
    cdef int x, i
    for x in range(128):
        SPREAD4[x] = 0
        for i in range(7):
            if (x >> i) & 1:
                SPREAD4[x] |= (<uint64_t>1) << (4 * i)

_fill_spread4()

cdef inline uint64_t spread4(uint64_t x) noexcept nogil:
    """The 13 bits of x spread 4 apart (bit i -> bit 4i, 52 bits)."""
    return SPREAD4[x & 127] | (SPREAD4[x >> 7] << 28)


cdef inline bint eligible(const ZPState* s, int q) noexcept nogil:
    """§4.1: active and holding a card of one's own rank."""
    return ((s.active >> q) & 1) and (s.hand[q].layer[0] & rank_mask(s.rank[q])) != 0

cdef inline bint nt_eligible(const ZPState* s, const ZPConfig* c, int q) noexcept nogil:
    """notrump_declaration: active and holding two copies of a joker (shengji's joker bid,
    BothTwoOrMore)."""
    return c.nt_declare and ((s.active >> q) & 1) and (s.hand[q].layer[1] >> ZP_NPLAIN) != 0

cdef void void_deal(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Nobody declared after max_redeals redeals (D24): the deal is void, nobody scores (gained
    stays 0, no rank changes). Scope 'match': it counts as a deal (max_deals, D23); the next one
    is dealt by the same starter with everyone active, as after a redeal (D12)."""
    s.decl_won = -1
    s.winners = 0
    s.p_opp = 0
    if not c.match:
        s.phase = ZP_PH_END
        return
    s.deal_no += 1
    if s.deal_no >= c.max_deals:
        s.phase = ZP_PH_END
        return
    s.active = <uint16_t>((1 << c.n) - 1)
    s.redeals = 0
    start_deal(s, c)

cdef void draw_advance(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Run the automatic draws until a declaration window needs a decision (§4.1, D1, D2), the
    drawing ends (kitty phase) or nobody declared (redeal, same starter, everyone active, §3.5;
    after max_redeals redeals the deal is void instead, D24)."""
    cdef int q, i, limit, w
    while True:
        if s.declarer < 0 and s.win_i < c.n:
            w = s.win_i
            q = (s.drawer + w) % c.n
            while w < c.n:
                if not c.every_window and w > 0:
                    break
                if eligible(s, q) or nt_eligible(s, c, q):
                    s.win_i = w
                    s.turn = q
                    return
                w += 1
                q += 1
                if q == c.n:
                    q = 0
            s.win_i = c.n
            continue
        limit = s.deck_len - c.kitty
        if s.deck_pos < limit:
            if s.declarer >= 0:
                # declared: no more windows, the rest of the hands are drawn at once
                q = (s.starter + s.deck_pos) % c.n
                while s.deck_pos < limit:
                    hand_add(&s.hand[q], s.deck[s.deck_pos])
                    s.drawer = q
                    s.deck_pos += 1
                    q += 1
                    if q == c.n:
                        q = 0
                continue
            if not c.every_window:
                # a window for the drawer only (the loop above): draw until a drawer may declare
                q = (s.starter + s.deck_pos) % c.n
                while s.deck_pos < limit:
                    hand_add(&s.hand[q], s.deck[s.deck_pos])
                    s.deck_pos += 1
                    if eligible(s, q) or nt_eligible(s, c, q):
                        s.drawer = q
                        s.win_i = 0
                        s.turn = q
                        return
                    q += 1
                    if q == c.n:
                        q = 0
                s.drawer = (s.starter + s.deck_pos - 1) % c.n
                s.win_i = c.n
                continue
            s.drawer = (s.starter + s.deck_pos) % c.n
            hand_add(&s.hand[s.drawer], s.deck[s.deck_pos])
            s.deck_pos += 1
            s.win_i = 0
            continue
        if s.declarer >= 0:
            for i in range(s.deck_pos, s.deck_len):
                hand_add(&s.hand[s.declarer], s.deck[i])
            s.deck_pos = s.deck_len
            s.phase = ZP_PH_KITTY
            s.turn = s.declarer
            return
        if s.redeals >= c.max_redeals:
            void_deal(s, c)
            if s.phase == ZP_PH_END:
                return
            continue
        s.active = <uint16_t>((1 << c.n) - 1)
        s.redeals += 1
        start_deal(s, c)

cdef void zp_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef ZPState* s = <ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q
    memset(s, 0, sizeof(ZPState))
    s.rng = rng[0]
    for q in range(12):
        s.rank[q] = 0
    s.active = <uint16_t>((1 << c.n) - 1)
    s.starter = <int8_t>rng_below(&s.rng, c.n)      # first deal: uniformly random starter (§3.1)
    s.redeals = 0
    s.deal_no = 0
    s.match_winners = 0
    s.decl_won = -1
    start_deal(s, c)
    draw_advance(s, c)

cdef int zp_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    if s.phase == ZP_PH_END:
        return -1
    return s.turn

cdef bint zp_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const ZPState*>st).phase == ZP_PH_END

ctypedef struct PlayCtx:
    const ZPState* s         # the state (other seats' hands for top cards)
    const ZPConfig* c        # the config
    Hand full                # the acting seat's holding: hand + the play being built
    int seat                 # the acting seat

cdef bint lead_cb(const void* ctx, const Staged* play) noexcept nogil:
    """Staged-move callback of the factored lead under V4 'reject': zp_lead_legal_now."""
    cdef const PlayCtx* x = <const PlayCtx*>ctx
    return zp_lead_legal_now(&x.s.tr, x.c, x.s.hand, x.seat, &x.full, &play.cards)

cdef bint mixed_follow_cb(const void* ctx, const Staged* play) noexcept nogil:
    """Staged-move callback of the factored follow under throw_units='mixed': the play after the
    add can still be completed into a legal follow (zp_mixed_completable)."""
    cdef const PlayCtx* x = <const PlayCtx*>ctx
    return zp_mixed_completable(&x.s.tr, x.c, &x.s.fmt, &x.full, &play.cards)

cdef int (*LEGAL_ALL)(const ZPState*, const ZPConfig*, ActionSet*) noexcept nogil
cdef void (*APPLY_ALL)(ZPState*, const ZPConfig*, int) noexcept nogil

cdef int zp_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _zp_legal_impl(st, cfg, out)

cdef inline int _zp_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions (legal_all); the two commonest cases, the first card of a lead and a one-card
    follow, are answered here without its frame."""
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef uint64_t m
    cdef int maxP
    if s.phase != ZP_PH_PLAY:
        return LEGAL_ALL(s, c, out)
    m = s.hand[s.turn].layer[0]
    if not trick_empty(&s.rec):
        if s.lead_len != 1 or c.mixed:
            return LEGAL_ALL(s, c, out)
        # a one-card follow (zp_follow_candidates with L = 1): a card of the led suit if any
        if m & s.tr.smask[s.lead_suit]:
            m &= s.tr.smask[s.lead_suit]
    elif s.cur.n != 0:
        if c.mixed or c.reject_throw:
            return LEGAL_ALL(s, c, out)
        # a lead being built (seed rules): the candidates, and COMMIT if its groups are of one size
        # (zp_lead_whole)
        m = zp_lead_candidates(&s.tr, &s.cur.cards, &s.hand[s.turn])
        maxP = hand_max_count(&s.cur.cards)
        if s.cur.cards.layer[maxP - 1] == s.cur.cards.layer[0]:
            m |= (<uint64_t>1) << ZP_A_COMMIT
    out.w[0] = m                            # ADD k (0..53) and COMMIT (54): word 0
    out.w[1] = 0
    out.w[2] = 0
    out.w[3] = 0
    out.w[4] = 0
    out.w[5] = 0
    return cs_popcount(m)

cdef int legal_all(const ZPState* s, const ZPConfig* c, ActionSet* out) noexcept nogil:
    """Legal actions by phase. Play: the lead and the follow are core staged moves (one ADD per
    card, then COMMIT for a lead; a follow commits itself at the lead's length); an ADD is
    offered only if the play can still be completed (the lead: zp_lead_candidates, with V4
    'reject' the callback lead_cb; the follow: zp_follow_candidates, under the set obligation
    zp_follow_set_adds; shengji's formats: the mixed kernels), so there are no dead ends."""
    cdef int p = s.turn, su, k, kk, j, dup
    cdef uint64_t rm, cand
    cdef bint check
    cdef PlayCtx ctx
    as_clear(out, ZP_ACTION_WORDS)
    if s.phase == ZP_PH_END:
        return 0
    if s.phase == ZP_PH_DRAW:
        as_add(out, ZP_A_PASS)
        rm = s.hand[p].layer[0] >> s.rank[p]
        for su in range(4):
            if (rm >> (13 * su)) & 1:
                as_add(out, ZP_A_DECLARE + su)
        if nt_eligible(s, c, p):
            as_add(out, ZP_A_DECLARE_NT)
    elif s.phase == ZP_PH_KITTY:
        as_add_mask(out, ZP_A_DISCARD, s.hand[p].layer[0])
    elif s.phase == ZP_PH_CALL:
        # CALL + 4 * id + j for every plain non-trump id and j < decks, a suit (52 actions) at a
        # time, less the calls already made
        rm = ~s.tr.smask[ZP_TRUMP]
        for su in range(4):
            cand = spread4((rm >> (13 * su)) & 0x1FFF)
            for j in range(c.decks):
                as_add_mask(out, ZP_A_CALL + 52 * su + j, cand)
        for k in range(s.ncalls):
            as_remove(out, ZP_A_CALL + 4 * s.call_id[k] + s.call_n[k] - 1)
    elif trick_empty(&s.rec) and s.cur.n == 0:
        as_add_mask(out, ZP_A_ADD, s.hand[p].layer[0])          # any card may start a lead
        return cs_popcount(out.w[0])
    elif s.lead_len == 1 and not c.mixed and not trick_empty(&s.rec):
        # a one-card follow (zp_follow_candidates with L = 1): a card of the led suit if any
        cand = s.hand[p].layer[0] & s.tr.smask[s.lead_suit]
        out.w[0] = cand if cand else s.hand[p].layer[0]
        return cs_popcount(out.w[0])
    else:
        # a staged lead or follow: the candidates, then the completability callback where one is
        # needed (without one every candidate is completable: added a mask at a time)
        ctx.s = s
        ctx.c = c
        ctx.seat = p
        if c.mixed and trick_empty(&s.rec):
            ctx.full = s.hand[p]
            zp_merge(&ctx.full, &s.cur.cards)
            if zp_mixed_lead_whole(&s.tr, c, &s.cur.cards):
                as_add(out, ZP_A_COMMIT)
            as_add_mask(out, ZP_A_ADD, zp_mixed_lead_candidates(&s.tr, c, &ctx.full, &s.cur.cards, &s.hand[p]))
        elif c.mixed:
            cand = zp_mixed_follow_candidates(&s.tr, c, &s.fmt, &s.hand[p], &s.cur.cards, &check)
            if check:
                ctx.full = s.hand[p]
                zp_merge(&ctx.full, &s.cur.cards)
                staged_legal_adds(&s.cur, cand, ZP_A_ADD, mixed_follow_cb, &ctx, out)
            else:
                as_add_mask(out, ZP_A_ADD, cand)
        elif trick_empty(&s.rec):
            if c.reject_throw:                  # the holding (hand + staged lead): V4's checks only
                ctx.full = s.hand[p]
                zp_merge(&ctx.full, &s.cur.cards)
            if zp_lead_whole(&s.tr, c, s.hand, p, &ctx.full, &s.cur.cards):
                as_add(out, ZP_A_COMMIT)
            cand = zp_lead_candidates(&s.tr, &s.cur.cards, &s.hand[p])
            if c.reject_throw:
                staged_legal_adds(&s.cur, cand, ZP_A_ADD, lead_cb, &ctx, out)
            else:
                as_add_mask(out, ZP_A_ADD, cand)
        else:
            cand = zp_follow_candidates(&s.tr, &s.hand[p], &s.cur.cards, s.lead_k, s.lead_suit, s.lead_len,
                                        &check)
            if check:
                # the set obligation, decided for all candidates at once (exact: no dead ends)
                cand = zp_follow_set_adds(&s.hand[p], &s.cur.cards, s.tr.smask[s.lead_suit], s.lead_k, s.lead_m,
                                          1 if c.partial_sets else s.lead_k, s.lead_len - s.cur.n)
            as_add_mask(out, ZP_A_ADD, cand)
        return cs_popcount(out.w[0])        # play actions (ADD 0..53, COMMIT 54) are all in word 0
    return as_count(out, ZP_ACTION_WORDS)

cdef void zp_open_calls(ZPState* s) noexcept nogil:
    """open_calls from the calls: the identities of the calls nobody has fulfilled yet."""
    cdef int j
    s.open_calls = 0
    for j in range(s.ncalls):
        if s.call_by[j] < 0:
            s.open_calls |= (<uint64_t>1) << s.call_id[j]

cdef void count_copies(ZPState* s, const ZPConfig* c, int p, const Hand* P) noexcept nogil:
    """Friend revelation (§4.5, D8-D11): count the copies of a play in order and fulfil calls."""
    cdef uint64_t ids = P.layer[0], open_ids = s.open_calls, rest
    cdef int k, i, j, best
    rest = ids & ~open_ids                  # no open call: the copies are only counted
    while rest:
        k = bit_low(rest)
        rest &= rest - 1
        s.played_count[k] += hand_count(P, k)
    ids &= open_ids
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        for i in range(hand_count(P, k)):
            s.played_count[k] += 1
            best = -1
            for j in range(s.ncalls):
                if s.call_id[j] != k or s.call_by[j] >= 0:
                    continue
                if c.self_consume:
                    if s.call_n[j] == s.played_count[k]:
                        best = j
                elif s.played_count[k] >= s.call_n[j] and not ((s.decl_mask >> p) & 1):
                    if best < 0 or s.call_n[j] < s.call_n[best]:
                        best = j
            if best >= 0:
                s.call_by[best] = p
                zp_open_calls(s)
                if not ((s.decl_mask >> p) & 1):
                    s.decl_mask |= <uint16_t>(1 << p)
                    if c.called_removed:
                        s.trick_removed += id_points(k)

cdef void finish_deal(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Scoring (§6, zp_opposition_points and zp_game_points), then (scope 'match') rank
    advancement (§7), game end and the next deal."""
    cdef int q, P = 0, fd = 0, fo = 0, gp, decl_won, adv, all_mask = (1 << c.n) - 1
    zp_side_totals(s, c, &P, &fd, &fo)
    P = zp_opposition_points(c, P, s.kitty_pts, s.last_unit, not ((s.decl_mask >> s.last_winner) & 1), fd, fo)
    s.p_opp = P
    gp = zp_game_points(c, P, cs_popcount(s.decl_mask), &decl_won)
    s.decl_won = decl_won
    s.winners = <uint16_t>(s.decl_mask if decl_won else (all_mask & ~s.decl_mask))
    for q in range(c.n):
        s.gained[q] = gp if (s.winners >> q) & 1 else 0
    if not c.match:
        s.phase = ZP_PH_END
        return
    for q in range(c.n):
        if (s.winners >> q) & 1:
            adv = gp if (s.active >> q) & 1 else gp - 1
            s.rank[q] += adv
            if s.rank[q] >= 12:
                s.rank[q] = 12
                if not c.defend_a:
                    s.match_winners |= <uint16_t>(1 << q)
    if c.defend_a and decl_won and s.tr.rank == 12:
        for q in range(c.n):
            if (s.winners >> q) & 1 and s.rank[q] == 12:
                s.match_winners |= <uint16_t>(1 << q)
    s.active = s.winners
    s.deal_no += 1
    if s.match_winners or s.deal_no >= c.max_deals:
        s.phase = ZP_PH_END
        return
    # next starter (§3.1, D18)
    if decl_won:
        s.starter = s.declarer
    else:
        for q in range(1, c.n + 1):
            if (s.winners >> ((s.declarer + q) % c.n)) & 1:
                s.starter = (s.declarer + q) % c.n
                break
    s.redeals = 0
    start_deal(s, c)
    draw_advance(s, c)

cdef int trick_winner_so_far(const ZPState* s, const ZPConfig* c, const Hand* extra) noexcept nogil:
    """Seat winning the current trick so far (with `extra` as the acting seat's play if given)."""
    cdef Hand plays[MAX_PLAYERS]
    cdef int i, n = s.rec.n
    if n > 0 and not c.mixed and s.lead_fmt != ZP_F_THROW:
        # the winner so far is tracked as the plays come (play_cur)
        if extra != NULL and zp_play_key(&s.tr, extra, s.lead_fmt, s.lead_k, s.lead_m, s.lead_suit) > s.tw_key:
            return s.turn
        return s.rec.order[s.tw_best]
    for i in range(n):
        plays[i] = s.trick[trick_seat_of(&s.rec, i)]
    if extra != NULL:
        plays[n] = extra[0]
        n += 1
    if c.mixed:
        i = zp_mixed_winner(&s.tr, c, &s.fmt, plays, n)
    else:
        i = zp_trick_winner(&s.tr, plays, n, s.lead_fmt, s.lead_k, s.lead_m, s.lead_suit)
    return trick_seat_of(&s.rec, i) if i < s.rec.n else s.turn

cdef void finish_trick(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Score the complete trick (§5.5, §6.1): the winner takes its points (less a revealing copy's,
    D11) and leads the next trick; the deal ends when the hands are empty."""
    cdef Hand plays[MAX_PLAYERS]
    cdef int i, w, leader = s.rec.order[0]
    if c.mixed or s.lead_fmt == ZP_F_THROW:
        for i in range(s.rec.n):
            plays[i] = s.trick[trick_seat_of(&s.rec, i)]
        if c.mixed:
            i = zp_mixed_winner(&s.tr, c, &s.fmt, plays, s.rec.n)
        else:
            i = zp_trick_winner(&s.tr, plays, s.rec.n, s.lead_fmt, s.lead_k, s.lead_m, s.lead_suit)
    else:
        i = s.tw_best                               # tracked as the plays came (play_cur)
    w = trick_close(&s.rec, i)                      # the winner leads the next trick
    s.captured[w] += s.trick_pts - s.trick_removed
    if c.mixed:
        s.last_unit = zp_fmt_largest(&s.fmt)
    else:
        s.last_unit = zp_lead_component(&s.tr, &s.trick[leader], s.lead_fmt, s.lead_k, s.lead_m)
    s.last_winner = w
    for i in range(c.n):
        hand_clear(&s.trick[i])
    s.trick_removed = 0
    s.trick_pts = 0
    s.lead_fmt = 0
    s.tricks_done += 1
    s.turn = w
    if s.hand[w].layer[0] == 0:
        finish_deal(s, c)

cdef void play_cur(ZPState* s, const ZPConfig* c) noexcept nogil:
    """The seat to act plays the staged cards (already out of its hand)."""
    cdef int p = s.turn, key
    cdef Hand P
    staged_commit(&s.cur, &P)
    count_copies(s, c, p, &P)
    zp_merge(&s.played[p], &P)
    if s.exposed[p].layer[0]:
        zp_sub(&s.exposed[p], &P)
    if p == s.declarer and s.dk_known.layer[0]:
        zp_sub(&s.dk_known, &P)
    s.trick[p] = P
    s.trick_pts += hand_points(&P)
    if (not trick_empty(&s.rec) and hand_size_in(&P, s.tr.smask[s.lead_suit]) < s.lead_len
            and not (c.mixed and (s.fmt.rainbow or (c.bombs and zp_is_bomb(&P))))):
        s.void[p] |= 1 << s.lead_suit
    if not c.mixed and s.lead_fmt != ZP_F_THROW:
        # the winner so far (zp_trick_winner: the first play of the highest key)
        key = zp_play_key(&s.tr, &P, s.lead_fmt, s.lead_k, s.lead_m, s.lead_suit)
        if trick_empty(&s.rec) or key > s.tw_key:
            s.tw_key = key
            s.tw_best = s.rec.n
    trick_add_seat(&s.rec, p)
    if trick_done(&s.rec):
        finish_trick(s, c)
    else:
        s.turn = (p + 1) % c.n

cdef void play_single(ZPState* s, const ZPConfig* c, int k) noexcept nogil:
    """play_cur for a play of one card k in a trick led by one card (lead_fmt SINGLE, lead_len 1;
    not under throw_units 'mixed'; nothing staged): the same bookkeeping without the multiset
    steps. The trick's Hands of the seats yet to play are empty (finish_trick, start_deal)."""
    cdef int p = s.turn, e = s.tr.eff[k], key
    cdef uint64_t b = (<uint64_t>1) << k
    cdef Hand P
    if s.open_calls & b:
        P.layer[0] = b
        P.layer[1] = 0
        P.layer[2] = 0
        P.layer[3] = 0
        count_copies(s, c, p, &P)
    else:
        s.played_count[k] += 1
    hand_add(&s.played[p], k)
    if s.exposed[p].layer[0]:
        hand_remove(&s.exposed[p], k)
    if p == s.declarer and s.dk_known.layer[0]:
        hand_remove(&s.dk_known, k)
    s.trick[p].layer[0] = b
    s.trick_pts += POINTS[k]
    # zp_play_key of one card to a SINGLE lead: a trump, the led suit, or nothing
    key = 100 + s.tr.strength[k] if e == ZP_TRUMP else (s.tr.strength[k] if e == s.lead_suit else -1)
    if trick_empty(&s.rec):
        s.tw_key = key
        s.tw_best = 0
    else:
        if e != s.lead_suit:                # no card of the led suit (lead_len 1)
            s.void[p] |= 1 << s.lead_suit
        if key > s.tw_key:
            s.tw_key = key
            s.tw_best = s.rec.n
    trick_add_seat(&s.rec, p)
    if trick_done(&s.rec):
        finish_trick(s, c)
    else:
        p += 1
        s.turn = p if p < c.n else 0

cdef void throw_failed(ZPState* s, const Hand* back, int b) noexcept nogil:
    """A failed throw (D3/D4, V4): the cards not led go back to the hand and become public; the
    attempt and its blocker are recorded."""
    zp_merge(&s.hand[s.turn], back)
    zp_merge(&s.exposed[s.turn], back)
    s.fails[s.turn] += 1
    s.failed_total += 1
    s.blocker = b
    s.fail_seat = s.turn

cdef void commit_mixed(ZPState* s, const ZPConfig* c) noexcept nogil:
    """throw_units='mixed': shengji's format of the built lead; a throw (several units) is checked
    against the real hands (zp_mixed_blocker, D3 as an attempt): if a unit can be beaten, that
    unit is led instead (shengji's forced play), the rest go back to the hand and become public."""
    cdef int b, u = 0, i, mx = 0
    cdef Hand back, forced
    zp_mixed_format(&s.tr, c, &s.cur.cards, &s.fmt)
    b = zp_mixed_blocker(&s.tr, c, s.hand, s.turn, &s.fmt, &u)
    if b >= 0:
        zp_fmt_unit_cards(&s.tr, &s.fmt, &s.cur.cards, u, &forced)
        back = s.cur.cards
        zp_sub(&back, &forced)
        staged_clear(&s.cur)
        for i in range(ZP_NID):
            while hand_count(&forced, i) > hand_count(&s.cur.cards, i):
                staged_add(&s.cur, i)
        throw_failed(s, &back, b)
        zp_fmt_force(&s.fmt, u)
    for i in range(s.fmt.nu):
        if s.fmt.cnt[i] > mx:
            mx = s.fmt.cnt[i]
    if s.cur.n == 1:
        s.lead_fmt = ZP_F_SINGLE
    elif s.fmt.nu == 1 and s.fmt.len[0] == 1 and not s.fmt.rainbow:
        s.lead_fmt = ZP_F_SET
    elif s.fmt.nu == 1 and not s.fmt.rainbow:
        s.lead_fmt = ZP_F_SEQ
    else:
        s.lead_fmt = ZP_F_THROW
    s.lead_k = mx
    s.lead_m = s.fmt.nu
    s.lead_suit = s.fmt.suit if not s.fmt.rainbow else 0
    s.lead_len = s.cur.n
    play_cur(s, c)

cdef void commit_lead(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Classify the built lead; a THROW is checked against the real hands (§5.3, D3/D4): if a
    card is not top, the lowest group (ties C < D < H < S) is led instead, the rest go back to
    the hand and become public."""
    cdef int fmt, k, m, suit, b, kk, low = -1, ls = 99
    cdef uint64_t ids
    cdef Hand back
    if c.mixed:
        commit_mixed(s, c)
        return
    fmt = zp_classify(&s.tr, &s.cur.cards, &k, &m, &suit)
    if fmt == ZP_F_THROW:
        b = zp_throw_blocker(&s.tr, c, s.hand, s.turn, &s.cur.cards, k)
        if b >= 0:
            ids = s.cur.cards.layer[0]
            while ids:
                kk = bit_low(ids)
                ids &= ids - 1
                if s.tr.strength[kk] <= ls:
                    ls = s.tr.strength[kk]
                    low = kk
            back = s.cur.cards
            staged_clear(&s.cur)
            for kk in range(k):
                staged_add(&s.cur, low)
            zp_sub(&back, &s.cur.cards)
            throw_failed(s, &back, b)
            fmt = ZP_F_SET if k >= 2 else ZP_F_SINGLE
            m = 1
    s.lead_fmt = fmt
    s.lead_k = k
    s.lead_m = m
    s.lead_suit = suit
    s.lead_len = s.cur.n
    if s.cur.n == 1:
        kk = bit_low(s.cur.cards.layer[0])
        staged_clear(&s.cur)
        play_single(s, c, kk)
    else:
        play_cur(s, c)

cdef void zp_apply(void* st, const void* cfg, int a) noexcept nogil:
    _zp_apply_impl(st, cfg, a)

cdef inline void _zp_apply_impl(void* st, const void* cfg, int a) noexcept nogil:
    """Apply action a (apply_all); a one-card follow, the commonest, is played here."""
    cdef ZPState* s = <ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    if s.phase == ZP_PH_PLAY and a != ZP_A_COMMIT:
        if trick_empty(&s.rec):
            hand_remove(&s.hand[s.turn], a)     # a card added to the lead being built
            staged_add(&s.cur, a)
            return
        if s.lead_len == 1 and not c.mixed:
            hand_remove(&s.hand[s.turn], a)     # a one-card follow
            play_single(s, c, a)
            return
    APPLY_ALL(s, c, a)

cdef void apply_all(ZPState* s, const ZPConfig* c, int a) noexcept nogil:
    cdef int p = s.turn, k
    if s.phase == ZP_PH_PLAY:
        if a == ZP_A_COMMIT:
            commit_lead(s, c)
            return
        hand_remove(&s.hand[p], a)
        staged_add(&s.cur, a)
        if not trick_empty(&s.rec) and s.cur.n == s.lead_len:
            play_cur(s, c)
    elif s.phase == ZP_PH_DRAW:
        if a == ZP_A_PASS:
            s.win_i += 1
        elif a == ZP_A_DECLARE_NT:
            s.declarer = p
            zp_trump_tables(&s.tr, -1, s.rank[p])
            if c.mixed:                 # tractor successors: read only by the mixed-unit formats
                zp_set_adjacency(&s.tr, c.adj_sj)
            k = ZP_BJK if (s.hand[p].layer[1] >> ZP_BJK) & 1 else ZP_SJK
            hand_add(&s.exposed[p], k)
            hand_add(&s.exposed[p], k)
            s.decl_mask = <uint16_t>(1 << p)
        else:
            k = a - ZP_A_DECLARE
            s.declarer = p
            zp_trump_tables(&s.tr, k, s.rank[p])
            if c.mixed:                 # tractor successors: read only by the mixed-unit formats
                zp_set_adjacency(&s.tr, c.adj_sj)
            hand_add(&s.exposed[p], k * 13 + s.rank[p])
            s.decl_mask = <uint16_t>(1 << p)
        draw_advance(s, c)
    elif s.phase == ZP_PH_KITTY:
        k = a - ZP_A_DISCARD
        hand_remove(&s.hand[p], k)
        hand_add(&s.kitty, k)
        # a face-down discard may be a card everybody saw (the declared trump-rank card): from
        # now on it is only known to be in the declarer's hand or the kitty
        zp_merge(&s.dk_known, &s.exposed[p])
        hand_clear(&s.exposed[p])
        s.kitty_pts += id_points(k)
        s.discards += 1
        if s.discards == c.kitty:
            s.phase = ZP_PH_CALL
            if c.calls == 0:
                s.phase = ZP_PH_PLAY
                trick_start(&s.rec, s.declarer, c.n)
    elif s.phase == ZP_PH_CALL:
        k = a - ZP_A_CALL
        s.call_id[s.ncalls] = k // 4
        s.call_n[s.ncalls] = k % 4 + 1
        s.call_by[s.ncalls] = -1
        s.ncalls += 1
        s.open_calls |= (<uint64_t>1) << (k // 4)
        if s.ncalls == c.calls:
            s.phase = ZP_PH_PLAY
            trick_start(&s.rec, s.declarer, c.n)
            s.turn = s.declarer

cdef void zp_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q
    for q in range(c.n):
        out[q] = <double>(s.rank[q] if c.match else s.gained[q])

cdef void zp_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q, gp = 0
    for q in range(c.n):
        if s.gained[q] > gp:
            gp = s.gained[q]
    out[0] = s.declarer
    out[1] = (s.tr.suit if s.tr.suit >= 0 else 4) if s.declarer >= 0 else -1
    out[2] = s.tr.rank + 2 if s.declarer >= 0 else -1
    out[3] = s.p_opp
    out[4] = cs_popcount(s.decl_mask)
    out[5] = s.decl_won
    out[6] = gp
    out[7] = s.redeals
    out[8] = s.failed_total
    out[9] = s.deal_no


# the general cases behind function pointers, so that the C compiler does not inline them into
# zp_legal / zp_apply (their frames would then be paid by the fast cases too)
cdef void _set_pointers():
    global LEGAL_ALL, APPLY_ALL
    LEGAL_ALL = legal_all
    APPLY_ALL = apply_all

_set_pointers()


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _zp_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return zp_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _zp_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (ZP_NUM_ACTIONS_NT + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
