"""Samba: the state machine (docs/rules/samba.md §3-§7): the deal and the upcard, the turn
phases (T0 red threes, T1 draw or take the pile, T2 melding with the factored moves, the discard,
the go-out query), the end of a deal and its scoring, the match, the observation and resampling.
The pure rules come from `_samba_rules`, the legal actions from `_samba_legal`; the module
docstring of `cardsim.games._samba` lists the decisions followed.

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

Observation (float32, OBS_SIZE): own hand counts/3 (53); staged cards (53); top card being
taken (53); cards known to be in each seat's hand (6x53); hand sizes /30 (6); melds of each side
(5 sides x 32 slots x (53 counts/3, then 1 placed / 2 pending)); exposed red threes per side /6 (5); opened
(5); requirement /200 (5); pile counts/3 (53); pile top (53); pile size /162, frozen flag, stock size
/162 (3); phase (4); seat to act (6); mover (6); dealer (6); observer (6); merge source slot
(32); flags partner_no, asked, must_out, drew, pile_take (5); cumulative scores /10000 (5);
deals /20 (1).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, uint8_t, uint32_t, uint64_t, int8_t
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._hand cimport Hand, hand_clear, hand_size, hand_size_in
from cardsim.core._staged cimport staged_clear, staged_add, staged_commit
from cardsim.core._deal cimport shuffle
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.core._actions cimport ActionSet, as_add, as_clear
from cardsim.games._samba_rules cimport (
    Meld, SBConfig, SB_KINDS, SB_JK, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ, sb_meld_of, sb_meld_bonus,
    sb_is_canasta, sb_red3_score, sb_counts_value, sb_counts, sb_card_value, kind_of, rank_of, is_wild,
    is_natural, is_black3, is_red3, sb_meld_of_hand)
from cardsim.games._samba_state cimport (
    SBState, MeldIndex, SB_MAXP, SB_MAXS, A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_DECLINE, A_MELD, A_FAIL,
    A_RED3, A_ASK,
    A_YES, A_LAYOFF, A_TAKE_LAYOFF, A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO, PH_DRAW, PH_MELD, PH_ANSWER, PH_END,
    side_of, add_kind, remove_kind, count_kind, forget, canastas, free_slot, req_of, reindex)
from cardsim.games._samba_out cimport sb_go_out_ok
from cardsim.core._bits cimport cs_ctz, cs_clz, cs_popcount
from cardsim.games._samba_legal cimport draw_legal, meld_legal

OBS_SIZE = 53 * 3 + 6 * 53 + 6 + 5 * 32 * 54 + 15 + 53 + 53 + 3 + 4 + 6 * 4 + 32 + 5 + 5 + 1

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

cdef void reset_turn(SBState* s, int p) noexcept nogil:
    """Seat p's turn starts at T1 with every per-turn flag cleared."""
    s.turn = p
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
    reset_turn(s, p)
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
    memset(s, 0, sizeof(SBState))
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
    index_new(s, side, i)

cdef void index_new(SBState* s, int side, int i) noexcept nogil:
    """reindex(s, side, i) for a slot i that just came into use: the slot joins live and its
    place in the ordered GROUP or other list, with the same bytes a full pass gives."""
    cdef MeldIndex* mi = &s.mi[side]
    cdef const Meld* m = &s.melds[side][i]
    cdef int j
    s.live[side] |= <uint32_t>1 << i
    if not m.pending and sb_is_canasta(m):
        mi.C += 1
    if m.type == MT_GROUP:
        j = mi.ngrp
        while j > 0 and mi.grp[j - 1] > i:
            mi.grp[j] = mi.grp[j - 1]
            j -= 1
        mi.grp[j] = i
        mi.ngrp += 1
        mi.grp_ranks |= <uint32_t>1 << m.key
        mi.per_rank[m.key] += 1
    else:
        j = mi.nlive - mi.ngrp
        while j > 0 and mi.oth[j - 1] > i:
            mi.oth[j] = mi.oth[j - 1]
            j -= 1
        mi.oth[j] = i
    mi.nlive += 1
    mi.slot = mi.nlive < SB_MAXMELDS

cdef inline void index_grown(SBState* s, int side, const Meld* m, bint was) noexcept nogil:
    """reindex(s, side, i) after cards joined meld m in slot i, in use before (same type, key and
    pending flag): only the canasta count can change; was = m counted as a canasta before."""
    if not m.pending:
        s.mi[side].C += <int>sb_is_canasta(m) - <int>was

cdef void open_side(SBState* s, const SBConfig* c, int side) noexcept nogil:
    cdef int i
    cdef uint32_t b = s.live[side]
    s.opened[side] = 1
    s.batch_value = 0
    while b:
        i = cs_ctz(b)
        b &= b - 1
        s.melds[side][i].pending = 0
    reindex(s, side, -1)

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
    reindex(s, side, -1)
    s.batch_value = 0
    s.req_pen[side] += 100

cdef void next_turn(SBState* s, const SBConfig* c) noexcept nogil:
    start_turn(s, c, s.mover + 1 if s.mover + 1 < c.nplayers else 0)


cdef void sb_apply(void* st, const void* cfg, int a) noexcept nogil:
    """ADD and DISCARD (six in ten actions) here; every other action in apply_rest."""
    cdef SBState* s = <SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int p, k
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
    apply_rest(s, c, a)

cdef void apply_rest(SBState* s, const SBConfig* c, int a) noexcept nogil:
    """sb_apply of the actions other than ADD and DISCARD."""
    cdef int p = s.turn, side = side_of(c, p), k, i, j, got, n
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
        if a == A_DRAW:
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
            index_grown(s, side, m, was)
            s.melded[p] = 1
            s.drew = 1
            if s.nstock > 0:
                draw_card(s, c, p)
            check_out(s, c, p)
            return
        m = &s.melds[side][a - A_TAKE_LAYOFF]
        was = sb_is_canasta(m)
        meld_take(m, k)
        index_grown(s, side, m, was)
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
        reindex(s, side, i)
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
        index_grown(s, side, m, was)
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
    r3 = hand_size_in(&s.hand[q], M_R3)
    if q == s.mover and s.stage.n:
        v += hand_value(&s.stage.cards)
        r3 += hand_size_in(&s.stage.cards, M_R3)
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
    r3 += hand_size(&s.red3[side])
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

# ---------------------------------------------------------------------------------------------
# observation and resampling
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
    cdef int q, side, i, k = 0
    cdef int8_t cnt[SB_KINDS]
    put_counts(o + k, &s.hand[p]); k += 53
    put_counts(o + k, &s.stage.cards); k += 53
    if s.take_top >= 0:
        o[k + s.take_top] = 1.0
    k += 53
    for q in range(c.nplayers):
        put_counts(o + k + 53 * q, &s.known[q])
    k += 6 * 53
    for q in range(c.nplayers):
        o[k + q] = hand_size(&s.hand[q]) / 30.0
    k += 6
    for side in range(c.nsides):
        for i in range(SB_MAXMELDS):
            if s.melds[side][i].type != MT_NONE:
                put_counts(o + k + (side * 32 + i) * 54, &s.melds[side][i].cards)
                o[k + (side * 32 + i) * 54 + 53] = 1.0 + s.melds[side][i].pending
    k += 5 * 32 * 54
    for side in range(c.nsides):
        o[k + side] = hand_size(&s.red3[side]) / 6.0
        o[k + 5 + side] = s.opened[side]
        o[k + 10 + side] = req_of(s, c, side) / 200.0
    k += 15
    memset(cnt, 0, SB_KINDS)
    for i in range(s.npile):
        cnt[s.pile[i]] += 1
    for i in range(SB_KINDS):
        o[k + i] = cnt[i] / 3.0
    k += 53
    if s.npile:
        o[k + s.pile[s.npile - 1]] = 1.0
    k += 53
    o[k] = s.npile / 162.0
    o[k + 1] = 1.0 if s.pile_frz else 0.0
    o[k + 2] = s.nstock / 162.0
    k += 3
    o[k + s.phase] = 1.0; k += 4
    if s.phase != PH_END:
        o[k + s.turn] = 1.0
        o[k + 6 + s.mover] = 1.0
    o[k + 12 + s.dealer] = 1.0
    o[k + 18 + p] = 1.0
    k += 24
    if s.merge_from >= 0:
        o[k + s.merge_from] = 1.0
    k += 32
    o[k] = s.partner_no
    o[k + 1] = s.asked
    o[k + 2] = s.must_out
    o[k + 3] = s.drew
    o[k + 4] = s.pile_take
    k += 5
    for side in range(c.nsides):
        o[k + side] = s.cum[side] / 10000.0
    k += 5
    o[k] = s.deal_no / 20.0

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
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1
