"""Samba: the state machine (docs/rules/samba.md §3-§7): the deal and the upcard, the turn
phases (T0 red threes, T1 draw or take the pile, T2 melding with the factored moves, the discard,
the go-out query), the end of a deal and its scoring, the match; the draw phase's legal actions
(draw_legal: the deal ends when none is left). The pure rules come from `_rules`, the
initial-meld searches from `_opening`, the meld phase's legal actions from `_legal`; the module
docstring of `_spec` lists the decisions followed.

Actions (fixed space of 276; a move is built from small actions, and every legal action can be
completed into a legal whole move):
  0..52    ADD k: stage one card of kind k from the hand for the move under construction
  53..105  DISCARD k (ends the turn; empties the hand = going out)
  106 DRAW (two cards), 107 TAKE_PAIR (start the new group on the top card: then ADD the pair,
  any extra naturals/wilds, MELD), 108 DECLINE (empty stock), 109 MELD (staged cards = a new
  meld; in a pile take the group on the top card), 110 FAIL (penalize mode: abandon a pending
  initial batch, +100 to the requirement), 111/112 PLACE_RED3 3H/3D (manual red threes),
  113 ASK (go-out query), 114 YES, 115 NO (the partner's answer),
  116+i LAYOFF onto the side's meld slot i, 148+i TAKE_LAYOFF onto slot i, 180+i TAKE_SEQ
  (Dutch top-card take onto slot i), 212+i MERGE_FROM slot i, 244+i MERGE_TO slot i.
An initial meld of several melds is built meld by meld: each MELD while the side has not
opened adds a pending meld; the batch completes (the side opens) as soon as the pending value
reaches the requirement; ADD and MELD are legal only while the batch can still reach it.
In a pile take the first two ADDs are the natural pair (naturals of the top's rank).

Returns: per seat, its side's score for the deal (scope "deal") or its side's cumulative score
(scope "match"); no sum invariant ("none").

Observation and resampling: `_observe` (the layout: INFO.observation in
`cardsim.games.samba.info`, generated into `_layout.pxd`).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, uint8_t, uint32_t, uint64_t, int8_t
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._hand cimport Hand, hand_clear
from cardsim.core._staged cimport staged_clear, staged_add, staged_commit
from cardsim.core._deal cimport shuffle
from cardsim.core._actions cimport ActionSet, as_add, as_clear
from cardsim.core._bits cimport cs_ctz, cs_clz, cs_popcount
from cardsim.games.samba._rules cimport (
    sb_size, sb_size_in,
    Meld, SBConfig, SB_KINDS, SB_JK, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ, MT_BLACK3, sb_meld_of, sb_meld_bonus,
    sb_is_canasta, sb_red3_score, sb_counts_value, sb_counts, sb_card_value, kind_of, rank_of, suit_of, is_wild,
    is_natural, is_black3, is_red3, sb_meld_of_hand, sb_layoff_ok_n, sb_group_ok, sb_hg_ok, sb_pile_group_ok, rank_mask, wild_ids)
from cardsim.games.samba._opening cimport opening_ok
from cardsim.games.samba._state cimport (
    SBState, MeldIndex, SB_MAXP, SB_MAXS, NW, A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_DECLINE, A_MELD, A_FAIL,
    A_RED3, A_ASK,
    A_YES, A_LAYOFF, A_TAKE_LAYOFF, A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO, PH_DRAW, PH_MELD, PH_ANSWER, PH_END,
    side_of, add_kind, remove_kind, count_kind, forget, canastas, free_slot, req_of, reindex, blocked_top,
    pile_rest_in, may_out, cards_value)

# Identity masks of a packed hand (identities 0..53, both joker identities), built from the rules'
# own predicates so that values and meld fields come from popcounts instead of a 53-entry count
# vector: the identities worth 50, 20, 10 and 5 points (sb_card_value; red threes are worth 0),
# the wild cards, the naturals (ranks 4..A), the black and the red threes.
cdef uint64_t V50 = 0, V20 = 0, V10 = 0, V5 = 0, M_R3 = 0
# the 162 cards in a fixed order (3 copies of each of the 52 kinds, then the 6 jokers): the deck
# before its shuffle
cdef int8_t DECK0[162]
for _k in range(SB_JK + 2):
    _v = sb_card_value(kind_of(_k))
    if _v == 50:
        V50 |= <uint64_t>1 << _k
    elif _v == 20:
        V20 |= <uint64_t>1 << _k
    elif _v == 10:
        V10 |= <uint64_t>1 << _k
    elif _v == 5:
        V5 |= <uint64_t>1 << _k
    elif _v != 0:
        raise RuntimeError(f"samba: card value {_v} has no mask")
    if is_red3(kind_of(_k)):
        M_R3 |= <uint64_t>1 << _k
# cards_value's identity masks (_state.pxd) against sb_card_value
cdef Hand _one
for _k in range(SB_JK + 2):
    hand_clear(&_one)
    _one.layer[0] = <uint64_t>1 << _k
    if cards_value(&_one) != sb_card_value(kind_of(_k)):
        raise RuntimeError(f"samba: cards_value's masks disagree with sb_card_value at identity {_k}")
for _k in range(52):
    DECK0[3 * _k] = _k
    DECK0[3 * _k + 1] = _k
    DECK0[3 * _k + 2] = _k
for _k in range(156, 162):
    DECK0[_k] = SB_JK

cdef inline int hand_value(const Hand* h) noexcept nogil:
    """sb_counts_value of the hand's counts (the card values, §2), by popcounts per value."""
    cdef int i, v = 0
    cdef uint64_t L
    for i in range(4):
        L = h.layer[i]
        if L:
            v += (50 * cs_popcount(L & V50) + 20 * cs_popcount(L & V20) + 10 * cs_popcount(L & V10)
                  + 5 * cs_popcount(L & V5))
    return v

# ---------------------------------------------------------------------------------------------
# the draw phase's legal actions (T1): the state machine ends a deal when none is left (E2)
# ---------------------------------------------------------------------------------------------
cdef inline bint takeable_onto(const SBState* s, const SBConfig* c, int side, int i, int top, int h,
                        int C) noexcept nogil:
    """The top card alone extends slot i (not a canasta, not pending) and HG holds at h cards."""
    cdef const Meld* m = &s.melds[side][i]
    cdef int r = rank_of(top), span
    if m.type == MT_NONE or m.pending or m.type == MT_BLACK3 or sb_is_canasta(m):
        return False
    # the top is a natural (blocked_top): only a GROUP of its rank or a SEQUENCE of its suit;
    # sb_layoff_ok_n of the one card: a GROUP with one more natural within the wild limits, a
    # SEQUENCE with the rank next to either end (outside the run, the run then one longer, <= 7)
    if m.type == MT_GROUP:
        if m.key != r or not sb_group_ok(m.nat + 1, m.wild, c):
            return False
    elif m.type == MT_SEQ:
        if m.key != suit_of(top) or m.lo <= r <= m.hi:
            return False
        span = (m.hi if m.hi > r else r) - (m.lo if m.lo < r else r) + 1
        if span != m.n + 1 or span > 7:
            return False
    return sb_hg_ok(h, C + (1 if m.n + 1 >= 7 else 0), may_out(s), c)

cdef int draw_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """T1 (§4.3, §4.5): DRAW while the stock lasts; TAKE_PAIR (natural pair; an unopened side
    must be able to complete its initial meld with the pile group); TAKE_LAYOFF onto a
    non-canasta meld the top extends (pile unfrozen, american pile model); TAKE_SEQ (Dutch
    sequence_top_card_take); with an empty stock DECLINE when no lay-off take is possible but
    the pair take is (the lay-off take is then compulsory, S-D12)."""
    cdef int p = s.turn, side = s.tside, top, r, hn, n = 0
    cdef bint frozen
    cdef const MeldIndex* mi
    as_clear(out, NW)
    if s.nstock > 0:
        as_add(out, A_DRAW)
        n += 1
    if blocked_top(s):
        return n
    top = s.pile[s.npile - 1]
    r = rank_of(top)
    hn = sb_size_in(&s.hand[p], rank_mask(r))
    frozen = c.always_frozen or s.pile_frz > 0 or not s.opened[side]
    if hn < 2 and frozen and not (c.seq_top_take and s.opened[side]):
        return n                # no take of any kind: the rest below is not needed
    mi = &s.mi[side]
    if hn < 2 and not ((mi.grp_ranks >> r) & 1) and not ((mi.seq_adj >> top) & 1):
        return n                # no pair, and no GROUP of the rank or SEQUENCE the top extends
    # (the takes in a function of their own: the common turn above keeps a small frame)
    return draw_takes(s, c, out, n, top, hn, frozen)

cdef int draw_takes(const SBState* s, const SBConfig* c, ActionSet* out, int n, int top, int hn,
                    bint frozen) noexcept nogil:
    """draw_legal's takes of the top card (not blocked; hn naturals of its rank in hand; frozen:
    the pile frozen for the side), added to out (n actions so far), and DECLINE."""
    cdef int p = s.turn, side = s.tside, r = rank_of(top), i, hsize, rest, C, hw
    cdef bint forced = False, pair = False
    cdef uint32_t sq
    cdef const MeldIndex* mi = &s.mi[side]
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    hsize = sb_size(&s.hand[p])
    # pile_rest_in walks a pile holding wilds or red threes; a pair take is only easier with
    # more cards joining the hand (sb_pile_group_ok: HG on the hand left), so a yes with none
    # stands and only a no needs the count (-1: not counted; a lay-off take needs an
    # unfrozen pile, counted at once)
    rest = pile_rest_in(s, c) if c.red3_manual or s.pile_frz == 0 else -1
    C = canastas(s, side)
    if hn >= 2:
        if s.opened[side]:
            hw = sb_size_in(&s.hand[p], wild_ids())
            pair = sb_pile_group_ok(0, 0, hn, hw, hsize, 0 if rest < 0 else rest, C, may_out(s), c) != 0
            if not pair and rest < 0:
                rest = pile_rest_in(s, c)
                pair = sb_pile_group_ok(0, 0, hn, hw, hsize, rest, C, may_out(s), c) != 0
        else:
            if rest < 0:
                rest = pile_rest_in(s, c)
            sb_counts(&s.hand[p], H)
            memset(S, 0, SB_KINDS)
            S[top] = 1
            pair = opening_ok(S, H, req_of(s, c, side), rest, 3, c.min_canastas, may_out(s), c, NULL, False)
        if pair:
            as_add(out, A_TAKE_PAIR)
            n += 1
    # takeable_onto refuses every meld but the GROUPs of the top's rank and the SEQUENCEs
    # (of its suit): only those are tried
    if not frozen:
        # the GROUPs of the rank, and the SEQUENCEs (takeable_onto refuses a pending SEQUENCE and a
        # samba) when the top is next to an end of one (MeldIndex.seq_adj)
        sq = mi.rank_grps[r] | (mi.seqs if (mi.seq_adj >> top) & 1 else 0)
        while sq:
            i = cs_ctz(sq)
            sq &= sq - 1
            if takeable_onto(s, c, side, i, top, hsize + rest, C):
                as_add(out, A_TAKE_LAYOFF + i)
                n += 1
                forced = True
    if c.seq_top_take and s.opened[side]:
        sq = mi.seqs if (mi.seq_adj >> top) & 1 else 0      # (as above)
        while sq:
            i = cs_ctz(sq)
            sq &= sq - 1
            if takeable_onto(s, c, side, i, top, hsize + (1 if s.nstock > 0 else 0), C):
                as_add(out, A_TAKE_SEQ + i)
                n += 1
                forced = True
    if s.nstock == 0 and pair and not forced:
        as_add(out, A_DECLINE)
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------
cdef void expose_red3(SBState* s, const SBConfig* c, int p, int k) noexcept nogil:
    add_kind(&s.red3[side_of(c, p)], k)

cdef inline int draw_card(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """Draw the stock's top card into p's hand; in auto mode a red three is exposed and
    replaced while the stock lasts (§4.3). Returns 1 if a non-red-three card (any card in manual
    mode) reached the hand, else 0."""
    cdef int k
    while s.nstock > 0:
        s.nstock -= 1
        k = s.stock[s.nstock]
        if not c.red3_manual and is_red3(k):
            expose_red3(s, c, p, k)
            continue
        add_kind(&s.hand[p], k)
        return 1
    return 0

cdef void reset_turn(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """Seat p's turn starts at T1 with every per-turn flag cleared."""
    s.turn = p
    s.tside = side_of(c, p)
    s.mover = p
    s.phase = PH_DRAW
    s.partner_no = 0
    s.asked = 0
    s.must_out = 0
    s.drew = 0
    s.pile_take = 0
    s.take_top = -1
    s.merge_from = -1
    s.melded_at_start = s.melded[p]

cdef void start_turn(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """T0 (§4.1): on a seat's first turn (auto mode) expose its dealt red threes and replace
    each from the stock, the replacements handled the same way. Then T1 (or the automatic end
    of the deal when the stock is empty and the pile cannot be taken, E2). The common turn (not
    the seat's first, stock left) is the reset alone; the rest runs in start_turn_rest."""
    reset_turn(s, c, p)
    if not s.first_done[p] or s.nstock == 0:
        start_turn_rest(s, c, p)

cdef void start_turn_rest(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """start_turn after the reset: the first turn's red threes, the end of the deal (E2)."""
    cdef int k, n
    cdef ActionSet tmp
    if not s.first_done[p]:
        s.first_done[p] = 1
        if not c.red3_manual and s.hand[p].layer[0] & M_R3:
            for k in range(14, 28, 13):
                n = count_kind(&s.hand[p], k)
                while n > 0:
                    remove_kind(&s.hand[p], k)
                    expose_red3(s, c, p, k)
                    draw_card(s, c, p)
                    n -= 1
    if s.nstock == 0 and draw_legal(s, c, &tmp) == 0:
        end_deal(s, c, 2, -1)


cdef void deal_cards(SBState* s, const SBConfig* c, bint fresh) noexcept nogil:
    """Shuffle the 162 cards (Fisher-Yates on the deal stream), deal hand_size to each seat one
    at a time from dealer+1 (§3), turn the upcard (re-turning wilds and red threes on top when
    upcard_rewind), the rest is the stock; then seat dealer+1 starts (S-D1). fresh: the state
    was just zeroed (sb_init), so the per-deal fields need no clearing."""
    cdef int i, j, t, q, side, N = c.nplayers
    if not fresh:
        for q in range(SB_MAXP):
            hand_clear(&s.hand[q])
            hand_clear(&s.known[q])
            s.first_done[q] = 0
            s.melded[q] = 0
        for side in range(SB_MAXS):
            hand_clear(&s.red3[side])
            s.opened[side] = 0
            s.req_pen[side] = 0
            memset(&s.melds[side][0], 0, sizeof(Meld) * SB_MAXMELDS)
            s.live[side] = 0
        memset(&s.mi[0], 0, sizeof(s.mi))
        hand_clear(&s.aside)
    for side in range(SB_MAXS):
        s.mi[side].slot = 1              # reindex of a side without melds: all zero, a free slot
    staged_clear(&s.stage)
    # the shuffle runs on the stock itself (card_t and the stock's int8_t hold kinds 0..52
    # alike); stock[161] is dealt first (the top of the pack)
    memcpy(&s.stock[0], &DECK0[0], 162)
    shuffle(<card_t*>&s.stock[0], 162, &s.rng)
    s.nstock = 162
    q = s.dealer + 1
    for i in range(c.hand_size * N):
        if q >= N:
            q -= N
        s.nstock -= 1
        add_kind(&s.hand[q], s.stock[s.nstock])
        q += 1
    s.npile = 0
    s.pile_frz = 0
    while s.nstock > 0:
        s.nstock -= 1
        t = s.stock[s.nstock]
        s.pile[s.npile] = t
        s.npile += 1
        if is_wild(t) or is_red3(t):
            s.pile_frz += 1
            if c.upcard_rewind:
                continue
        break
    s.batch_value = 0
    s.end_type = 0
    s.out_seat = -1
    start_turn(s, c, (s.dealer + 1) % N)

cdef void sb_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef SBState* s = <SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    memset(s, 0, sizeof(SBState))      # (under 8 KiB, which gcc clears inline; larger by a libc call:
                                        # tests/games/samba/test_samba.py keeps it under)
    s.rng = rng[0]
    s.dealer = <int8_t>rng_below(&s.rng, c.nplayers)
    deal_cards(s, c, True)

cdef int sb_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    return -1 if s.phase == PH_END else s.turn

cdef bint sb_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const SBState*>st).phase == PH_END

# ---------------------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------------------
cdef void take_rest(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """The rest of the pile joins p's hand (auto mode: red threes exposed, not replaced, §4.3);
    every player now knows p holds these cards."""
    cdef int i, k
    for i in range(s.npile):
        k = s.pile[i]
        if not c.red3_manual and is_red3(k):
            expose_red3(s, c, p, k)
        else:
            add_kind(&s.hand[p], k)
            add_kind(&s.known[p], k)
    s.npile = 0
    s.pile_frz = 0

cdef void set_meld(Meld* m, const Hand* cards) noexcept nogil:
    """Recompute a meld's fields from its cards (type and key must be set)."""
    cdef Meld t
    m.cards = cards[0]
    sb_meld_of_hand(cards, &t)
    m.nat = t.nat
    m.wild = t.wild
    m.n = t.n
    if m.type == MT_SEQ:
        m.lo = t.lo
        m.hi = t.hi

cdef void meld_take(Meld* m, int k) noexcept nogil:
    """One card of kind k joins meld m (a lay-off the legal set offered, so the result is valid):
    its cards, and the fields set_meld (sb_meld_of) would give: n; naturals and wilds (a
    SEQUENCE's and BLACK3's cards count as naturals); a SEQUENCE's run ends."""
    cdef int r
    add_kind(&m.cards, k)
    m.n += 1
    if is_wild(k):
        m.wild += 1
    else:
        m.nat += 1
        if m.type == MT_SEQ:
            r = rank_of(k)
            if r < m.lo:
                m.lo = r
            if r > m.hi:
                m.hi = r

cdef void place_meld(SBState* s, const SBConfig* c, int side, const Hand* cards, bint pending) noexcept nogil:
    """A new meld of these cards in the side's lowest free slot (zeroed while free)."""
    cdef int i = free_slot(s, side)
    cdef Meld* m = &s.melds[side][i]
    sb_meld_of_hand(cards, m)
    m.cards = cards[0]
    m.pending = pending
    index_new(s, c, side, i)

cdef void index_new(SBState* s, const SBConfig* c, int side, int i) noexcept nogil:
    """reindex(s, c, side, i) for a slot i that just came into use: the slot joins live and its
    place in the ordered GROUP or other list, with the same bytes a full pass gives."""
    cdef MeldIndex* mi = &s.mi[side]
    cdef const Meld* m = &s.melds[side][i]
    cdef int j
    s.live[side] |= <uint32_t>1 << i
    if sb_is_canasta(m):
        if m.pending:
            mi.Cp += 1
        else:
            mi.C += 1
    if m.type == MT_GROUP:
        mi.grps |= <uint32_t>1 << i
        mi.ngrp += 1
        mi.grp_ranks |= <uint32_t>1 << m.key
        mi.rank_grps[m.key] |= <uint32_t>1 << i
    else:
        j = mi.nlive - mi.ngrp
        while j > 0 and mi.oth[j - 1] > i:
            mi.oth[j] = mi.oth[j - 1]
            j -= 1
        mi.oth[j] = i
        if m.type == MT_SEQ and not m.pending and m.n < 7:
            mi.seqs |= <uint32_t>1 << i
            seq_index(s, side)
    mi.nlive += 1
    mi.slot = mi.nlive < SB_MAXMELDS
    if m.type == MT_GROUP:
        remerge(s, c, side, m.key)

cdef inline void index_grown(SBState* s, const SBConfig* c, int side, const Meld* m, bint was) noexcept nogil:
    """reindex(s, c, side, i) after cards joined meld m in slot i, in use before (same type, key and
    pending flag): only the canasta counts, at 7 cards a SEQUENCE's place among those that can
    grow, and a GROUP's merges change; was = m counted as a canasta before."""
    if not m.pending:
        s.mi[side].C += <int>sb_is_canasta(m) - <int>was
        if m.type == MT_SEQ:
            if m.n >= 7:
                s.mi[side].seqs &= ~(<uint32_t>1 << <int>(m - &s.melds[side][0]))
            seq_index(s, side)
    else:
        s.mi[side].Cp += <int>sb_is_canasta(m) - <int>was
    if m.type == MT_GROUP:
        remerge(s, c, side, m.key)

cdef void open_side(SBState* s, const SBConfig* c, int side) noexcept nogil:
    cdef int i
    cdef uint32_t b = s.live[side]
    s.opened[side] = 1
    s.batch_value = 0
    while b:
        i = cs_ctz(b)
        b &= b - 1
        s.melds[side][i].pending = 0
    reindex(s, c, side, -1)

cdef void check_out(SBState* s, const SBConfig* c, int p) noexcept nogil:
    if s.hand[p].layer[0] == 0 and s.stage.n == 0:      # nested layers: empty iff layer[0] is
        end_deal(s, c, 1, p)

cdef void do_meld(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """MELD: the staged cards (plus the taken top card in a pile take) become a new meld; an
    unopened side's meld is pending until the batch reaches the requirement (then the side opens
    and, in a pile take, the rest of the pile joins the hand)."""
    cdef int side = side_of(c, p), v, k
    cdef Hand cards
    staged_commit(&s.stage, &cards)             # (clears the stage)
    cdef bint pile_group = s.pile_take == 1
    if pile_group:
        add_kind(&cards, s.take_top)
        s.take_top = -1
    s.melded[p] = 1
    if s.opened[side]:
        place_meld(s, c, side, &cards, False)
        if pile_group:
            s.pile_take = 0
            take_rest(s, c, p)
        check_out(s, c, p)
        return
    v = hand_value(&cards)
    place_meld(s, c, side, &cards, True)
    s.batch_value += v
    if pile_group:
        s.pile_take = 2
    if s.batch_value >= req_of(s, c, side):
        open_side(s, c, side)
        if s.pile_take == 2:
            s.pile_take = 0
            take_rest(s, c, p)
        check_out(s, c, p)

cdef void fail_batch(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """penalize mode: the pending melds return to the hand and the requirement rises by 100."""
    cdef int side = side_of(c, p), i, k
    cdef int8_t cnt[SB_KINDS]
    cdef uint32_t b = s.live[side]
    while b:
        i = cs_ctz(b)
        b &= b - 1
        if s.melds[side][i].pending:
            sb_counts(&s.melds[side][i].cards, cnt)
            for k in range(SB_KINDS):
                while cnt[k] > 0:
                    add_kind(&s.hand[p], k)
                    add_kind(&s.known[p], k)
                    cnt[k] -= 1
            memset(&s.melds[side][i], 0, sizeof(Meld))
            s.live[side] &= ~(<uint32_t>1 << i)
    reindex(s, c, side, -1)
    s.batch_value = 0
    s.req_pen[side] += 100

cdef void next_turn(SBState* s, const SBConfig* c) noexcept nogil:
    start_turn(s, c, s.mover + 1 if s.mover + 1 < c.nplayers else 0)


cdef void sb_apply(void* st, const void* cfg, int a) noexcept nogil:
    _sb_apply_impl(st, cfg, a)

cdef inline void _sb_apply_impl(void* st, const void* cfg, int a) noexcept nogil:
    """ADD and DISCARD (six in ten actions) and DRAW (one in five) here; every other action in
    apply_rest."""
    cdef SBState* s = <SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int p, k, i, n, got
    if s.phase == PH_MELD and a < A_DRAW:
        p = s.turn
        if a < A_DISCARD:                        # ADD
            remove_kind(&s.hand[p], a)
            forget(s, p, a)
            staged_add(&s.stage, a)
            return
        k = a - A_DISCARD                        # DISCARD
        remove_kind(&s.hand[p], k)
        forget(s, p, k)
        s.pile[s.npile] = k
        s.npile += 1
        if is_wild(k) or is_red3(k):
            s.pile_frz += 1
        if s.hand[p].layer[0] == 0:
            end_deal(s, c, 1, p)
        else:
            next_turn(s, c)
        return
    if a == A_DRAW and s.phase == PH_DRAW:       # DRAW (one action in five)
        p = s.turn
        s.drew = 1
        got = 0
        n = 2 if s.nstock >= 2 else 1
        for i in range(n):
            got += draw_card(s, c, p)
        if s.nstock == 0 and got == 0:
            end_deal(s, c, 3, -1)
            return
        s.phase = PH_MELD
        return
    apply_rest(s, c, a)

cdef void apply_rest(SBState* s, const SBConfig* c, int a) noexcept nogil:
    """sb_apply of the actions other than ADD, DISCARD and DRAW."""
    cdef int p = s.turn, side = s.tside, k, i, j
    cdef uint64_t b
    cdef Meld* m
    cdef bint was
    cdef Hand h
    if s.phase == PH_ANSWER:
        s.turn = s.mover
        s.phase = PH_MELD
        if a == A_YES:
            s.must_out = 1
        else:
            s.partner_no = 1
        return
    if s.phase == PH_DRAW:
        if a == A_DECLINE:
            end_deal(s, c, 2, -1)
            return
        k = s.pile[s.npile - 1]
        s.npile -= 1
        s.phase = PH_MELD
        if a == A_TAKE_PAIR:
            s.take_top = k
            s.pile_take = 1
            return
        if a >= A_TAKE_SEQ:
            m = &s.melds[side][a - A_TAKE_SEQ]
            was = sb_is_canasta(m)
            meld_take(m, k)
            index_grown(s, c, side, m, was)
            s.melded[p] = 1
            s.drew = 1
            if s.nstock > 0:
                draw_card(s, c, p)
            check_out(s, c, p)
            return
        m = &s.melds[side][a - A_TAKE_LAYOFF]
        was = sb_is_canasta(m)
        meld_take(m, k)
        index_grown(s, c, side, m, was)
        s.melded[p] = 1
        take_rest(s, c, p)
        check_out(s, c, p)
        return
    # PH_MELD (ADD and DISCARD in sb_apply)
    if a == A_MELD:
        do_meld(s, c, p)
        return
    if a == A_FAIL:
        fail_batch(s, c, p)
        return
    if a == A_RED3 or a == A_RED3 + 1:
        k = 14 if a == A_RED3 else 27
        remove_kind(&s.hand[p], k)
        forget(s, p, k)
        expose_red3(s, c, p, k)
        check_out(s, c, p)
        return
    if a == A_ASK:
        s.asked = 1
        s.turn = (p + c.nsides) % c.nplayers
        s.phase = PH_ANSWER
        return
    if a >= A_MERGE_TO:
        i = a - A_MERGE_TO
        m = &s.melds[side][s.merge_from]
        h = m.cards
        sb_hand_merge(&h, &s.melds[side][i].cards)
        set_meld(m, &h)
        memset(&s.melds[side][i], 0, sizeof(Meld))
        reindex(s, c, side, i)
        s.merge_from = -1
        return
    if a >= A_MERGE_FROM:
        s.merge_from = a - A_MERGE_FROM
        return
    if a >= A_LAYOFF and a < A_TAKE_LAYOFF:
        m = &s.melds[side][a - A_LAYOFF]
        was = sb_is_canasta(m)
        for j in range(4):
            b = s.stage.cards.layer[j]
            while b:
                meld_take(m, kind_of(cs_ctz(b)))
                b &= b - 1
        index_grown(s, c, side, m, was)
        staged_clear(&s.stage)
        s.melded[p] = 1
        check_out(s, c, p)
        return


cdef void sb_hand_merge(Hand* dst, const Hand* src) noexcept nogil:
    """dst += src card by card (jokers kept canonical: add_kind; the result depends only on the
    counts, so the cards are visited in layer order)."""
    cdef uint64_t b
    cdef int i
    for i in range(4):
        b = src.layer[i]
        while b:
            add_kind(dst, kind_of(cs_ctz(b)))
            b &= b - 1

# ---------------------------------------------------------------------------------------------
# end of deal, scoring (§5, §6), match (§7)
# ---------------------------------------------------------------------------------------------
cdef int hand_penalty(const SBState* s, const SBConfig* c, int q, int* red3_exposed) noexcept nogil:
    """Card value of seat q's hand at the end, and its red threes: dealt ones never exposed
    (auto mode, q had no turn yet) count as exposed (S-D14, added to *red3_exposed); otherwise
    -100 each, or -750 once for the player (Dutch red3_in_hand_penalty)."""
    cdef int v, r3
    v = hand_value(&s.hand[q])
    r3 = sb_size_in(&s.hand[q], M_R3)
    if q == s.mover and s.stage.n:
        v += hand_value(&s.stage.cards)
        r3 += sb_size_in(&s.stage.cards, M_R3)
    if r3:
        if not c.red3_manual and not s.first_done[q]:
            red3_exposed[0] += r3
        elif c.red3_hand_750:
            v += 750
        else:
            v += 100 * r3
    return v

cdef int side_score(const SBState* s, const SBConfig* c, int side) noexcept nogil:
    """score(s) of §6: meld card values + canasta/samba bonuses + 200 for going out (+ the
    concealed bonus) + R(s) - the card values left in the side's hands."""
    cdef int i, q, sc = 0, r3 = 0, C = 0
    cdef const Meld* m
    cdef uint32_t b = s.live[side]
    while b:
        i = cs_ctz(b)
        b &= b - 1
        m = &s.melds[side][i]
        sc += hand_value(&m.cards) + sb_meld_bonus(m)       # sb_meld_value(m)
        if sb_is_canasta(m):
            C += 1
    if s.end_type == 1 and s.out_seat >= 0 and side_of(c, s.out_seat) == side:
        sc += 200
        if not s.melded_at_start:
            sc += c.concealed_bonus
    for q in range(c.nplayers):
        if side_of(c, q) == side:
            sc -= hand_penalty(s, c, q, &r3)
    r3 += sb_size(&s.red3[side])
    if r3:
        sc += sb_red3_score(r3, C, c)
    return sc

cdef void end_deal(SBState* s, const SBConfig* c, int end_type, int out_seat) noexcept nogil:
    cdef int side, best = -1
    s.end_type = end_type
    s.out_seat = out_seat
    for side in range(c.nsides):
        s.last[side] = side_score(s, c, side)
    s.deal_no += 1
    if not c.match:
        s.phase = PH_END
        return
    for side in range(c.nsides):
        s.cum[side] += s.last[side]
        if s.cum[side] >= c.target:
            best = side
    if best >= 0 or s.deal_no >= c.max_deals:
        s.phase = PH_END            # a side reached target_score (§7), or max_deals deals were played (S-D24)
        return
    s.dealer = (s.dealer + 1) % c.nplayers
    deal_cards(s, c, False)

cdef void sb_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int p
    for p in range(c.nplayers):
        if c.match:
            out[p] = s.cum[side_of(c, p)]
        else:
            out[p] = s.last[side_of(c, p)] if s.phase == PH_END else 0.0

cdef void sb_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int side
    out[0] = s.end_type
    out[1] = s.out_seat
    for side in range(SB_MAXS):
        out[2 + side] = s.last[side] if side < c.nsides else 0
        out[7 + side] = canastas(s, side) if side < c.nsides else 0
    out[12] = s.nstock
    out[13] = s.deal_no


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth
from cardsim.games.samba._legal cimport sb_legal

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return sb_legal(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return sb_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _sb_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (SB_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
