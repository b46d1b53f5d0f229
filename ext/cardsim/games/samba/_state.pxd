# Samba state machine (docs/rules/samba.md): the state struct (fixed size, no pointers; clone =
# memcpy), the action layout, the small inline helpers on the state that the legal-move
# generation (_legal), the greedy agent (_agent), the observation (_observe) and the glue
# (_spec) share,
# and the kernels of _state.pyx. The pure rules are _rules.
from libc.string cimport memset
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_ctz
from cardsim.core._actions cimport ActionSet
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand, hand_add, hand_remove, hand_count
from cardsim.core._staged cimport Staged
from cardsim.core._bits cimport cs_popcount
from cardsim.games.samba._rules cimport (
    SBConfig, Meld, SB_KINDS, SB_JK, SB_JK2, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ, sb_req, sb_is_canasta, rank_of,
    is_wild, is_natural, is_red3, rank_mask, spread, sb_merge_ok, sb_hg_ok)

cdef enum:
    SB_MAXP = 6
    SB_MAXS = 5              # sides (N = 5: five sides of one)
    # actions (see the module docstring)
    A_ADD = 0                # 0..52: stage one card of that kind from the hand
    A_DISCARD = 53           # 53..105: discard one card of that kind
    A_DRAW = 106             # DRAW_STOCK
    A_TAKE_PAIR = 107        # TAKE_PILE_PAIR: start the group on the top card
    A_DECLINE = 108          # DECLINE_PILE (stock empty)
    A_MELD = 109             # the staged cards become a new meld (with the top card in a pile take)
    A_FAIL = 110             # insufficient_initial_meld=penalize: give up the pending initial batch
    A_RED3 = 111             # 111, 112: PLACE_RED3 of 3H / 3D (red_three_mode=manual)
    A_ASK = 113              # GO_OUT_QUERY
    A_YES = 114              # partner's answer
    A_NO = 115
    A_LAYOFF = 116           # 116..147: the staged cards join meld slot i of the side
    A_TAKE_LAYOFF = 148      # 148..179: TAKE_PILE_LAYOFF onto slot i
    A_TAKE_SEQ = 180         # 180..211: sequence_top_card_take onto slot i
    A_MERGE_FROM = 212       # 212..243: MERGE, first meld
    A_MERGE_TO = 244         # 244..275: MERGE, second meld (joins the first)
    SB_NUM_ACTIONS = 276
    NW = 5                   # action words: ceil(276 / 64)
    PH_DRAW = 0
    PH_MELD = 1
    PH_ANSWER = 2
    PH_END = 3

ctypedef struct MeldIndex:
    uint64_t seq_adj         # kinds next to either end of a SEQUENCE in seqs (laid off alone: seq_index)
    uint64_t seq_far         # kinds further out that such a SEQUENCE may take with the ranks between
    int32_t C                # the side's canastas (placed melds)
    int32_t Cp               # canastas among its pending melds (an initial batch under way)
    int32_t slot             # a free meld slot exists
    int32_t nlive            # meld slots in use
    int32_t ngrp             # of them GROUPs (slots: grps); the others: oth[0..nlive-ngrp-1]
    uint32_t grp_ranks       # bit r: a GROUP of rank r is on the table
    uint32_t seqs            # bit i: slot i holds a placed SEQUENCE of < 7 cards (one can grow)
    uint32_t grps            # bit i: slot i holds a GROUP (rank_grps by rank)
    uint32_t mergeable       # bit i: GROUP i can merge with another of its rank (sb_merge_ok)
    int8_t oth[32]
    uint32_t rank_grps[13]   # bit i: slot i holds a GROUP of rank r

ctypedef struct SBState:
    Rng rng                  # deal stream: first dealer, shuffles, the next deals of a match
    Hand hand[6]             # cards held per seat (staged cards excluded)
    Hand known[6]            # cards every player knows seat q holds (taken from the pile)
    Staged stage             # the move under construction (core staged move; public): kind 1
    Hand aside               # cards out of play (only scenarios with an explicit stock use it)
    Hand red3[5]             # exposed red threes per side
    Meld melds[5][32]        # meld slots per side (SB_MAXMELDS)
    int8_t stock[162]        # stock kinds, top = stock[nstock - 1]
    int8_t pile[162]         # discard pile kinds, top = pile[npile - 1]
    int16_t nstock           # cards in the stock
    int16_t npile            # cards in the pile
    int16_t pile_frz         # wilds and red threes in the pile (frozen for everyone when > 0)
    int16_t batch_value      # value of the pending initial-meld melds
    int16_t req_pen[5]       # +100 per failed initial batch (penalize)
    int16_t deal_no          # deals finished (scope="match")
    int8_t phase             # PH_*
    int8_t turn              # seat to act (the partner in PH_ANSWER)
    int8_t tside             # side of turn (the mover's: a partner answers for the same side)
    int8_t mover             # seat whose turn it is
    int8_t dealer            # dealer of this deal
    int8_t opened[5]         # side has made its initial meld
    int8_t first_done[6]     # seat has had its first turn (dealt red threes exposed)
    int8_t melded[6]         # seat has melded or laid off this deal (concealed bonus)
    int8_t melded_at_start   # melded[mover] at the start of this turn
    int8_t partner_no        # the partner said no this turn
    int8_t asked             # GO_OUT_QUERY used this turn
    int8_t must_out          # the partner said yes: this turn goes out
    int8_t drew              # drew from the stock this turn
    int8_t pile_take         # 1: building the group on the top card; 2: its initial batch continues
    int8_t take_top          # the top card being taken (kind), -1 (the pile group's target)
    int8_t merge_from        # slot chosen by MERGE_FROM, -1
    int8_t end_type          # 0 none, 1 went out, 2 stock out / pile declined, 3 last draw red threes
    int8_t out_seat          # seat that went out, -1
    int32_t cum[5]           # cumulative scores at the start of this deal
    int32_t last[5]          # scores of the last finished deal per side
    uint32_t live[5]         # bit i: meld slot i of the side is in use (type != MT_NONE)
    MeldIndex mi[5]          # the side's melds indexed (canastas, GROUPs by rank, the rest)
                             # live and mi are recomputed from the slots by reindex() after every
                             # change of a side's melds: a function of the melds (equality holds)

# ---- the state machine's kernels (_state.pyx) ---------------------------------------------
cdef void reset_turn(SBState* s, const SBConfig* c, int p) noexcept nogil
cdef void start_turn(SBState* s, const SBConfig* c, int p) noexcept nogil
# (declared so that gcc keeps it out of start_turn, whose common turn then needs no frame)
cdef void start_turn_rest(SBState* s, const SBConfig* c, int p) noexcept nogil
cdef int side_score(const SBState* s, const SBConfig* c, int side) noexcept nogil
cdef void sb_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int sb_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint sb_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef void sb_apply(void* st, const void* cfg, int a) noexcept nogil
cdef void sb_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void sb_metrics(const void* st, const void* cfg, double* out) noexcept nogil
cdef int draw_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil
# (declared here, so exported: gcc keeps it a function of its own instead of inlining it into
# draw_legal, whose common turn then keeps a small frame: about 400 instructions a deal)
cdef int draw_takes(const SBState* s, const SBConfig* c, ActionSet* out, int n, int top, int hn,
                    bint frozen) noexcept nogil

# ---- small helpers (inline: the legal-move generation, the greedy agent and the face use them) --
cdef inline int side_of(const SBConfig* c, int p) noexcept nogil:
    """Side of seat p (0 <= p < nplayers): p % nsides without a division, as nplayers <=
    2 * nsides for every player count (2, 3, 5: one seat a side; 4, 6: two)."""
    return p - c.nsides if p >= c.nsides else p

cdef inline void add_kind(Hand* h, int k) noexcept nogil:
    """Add one card of kind k (jokers canonical: identity 52 up to 3 copies, then 53). A packed
    hand's layers are nested (layer[i+1] within layer[i]), so identity 52 holds 3 copies exactly
    when its bit is set in layer[2]."""
    if k == SB_JK:
        if not (h.layer[2] >> SB_JK) & 1:
            hand_add(h, SB_JK)
        else:
            hand_add(h, SB_JK2)
    else:
        hand_add(h, k)

cdef inline void remove_kind(Hand* h, int k) noexcept nogil:
    """Remove one card of kind k (jokers: identity 53 first; held iff its layer[0] bit is set)."""
    if k == SB_JK:
        if (h.layer[0] >> SB_JK2) & 1:
            hand_remove(h, SB_JK2)
        else:
            hand_remove(h, SB_JK)
    else:
        hand_remove(h, k)

cdef inline int count_kind(const Hand* h, int k) noexcept nogil:
    if k == SB_JK:
        return hand_count(h, SB_JK) + hand_count(h, SB_JK2)
    return hand_count(h, k)

cdef inline void forget(SBState* s, int p, int k) noexcept nogil:
    """Seat p gave up a card of kind k: the public lower bound on its holding drops by one.
    (A kind is held iff one of its identities has its layer[0] bit set: 52 and 53 for jokers.)"""
    cdef uint64_t b = (<uint64_t>3 << SB_JK) if k == SB_JK else (<uint64_t>1 << k)
    if s.known[p].layer[0] & b:
        remove_kind(&s.known[p], k)

# ---- a meld's points (card values §2 + bonus §6), for MeldIndex.pts -------------------------------
cdef inline int cards_value(const Hand* h) noexcept nogil:
    """Card value of the cards h (sb_card_value summed: joker 50, 2 and A 20, K..8 10, 7..4 and
    the black threes 5, red threes 0) by popcounts of the identity masks per layer (both joker
    identities 52 and 53; _state.pyx checks the masks against sb_card_value at import)."""
    cdef int i, v = 0
    cdef uint64_t L
    cdef uint64_t m50 = <uint64_t>3 << SB_JK
    cdef uint64_t m20 = rank_mask(0) | rank_mask(12)
    cdef uint64_t m10 = spread(0xFC0)
    cdef uint64_t m5 = spread(0x3C) | (<uint64_t>1 << 1) | (<uint64_t>1 << 40)
    for i in range(4):
        L = h.layer[i]
        if L:
            v += (50 * cs_popcount(L & m50) + 20 * cs_popcount(L & m20) + 10 * cs_popcount(L & m10)
                  + 5 * cs_popcount(L & m5))
    return v

cdef inline int meld_bonus(const Meld* m) noexcept nogil:
    """sb_meld_bonus (§6), inline: natural canasta 500, mixed 300, samba 1500."""
    if m.type == MT_GROUP and m.n >= 7:
        return 500 if m.wild == 0 else 300
    if m.type == MT_SEQ and m.n == 7:
        return 1500
    return 0

cdef inline int meld_points(const Meld* m) noexcept nogil:
    """What meld m counts on the table: its card values and its bonus (sb_meld_value)."""
    return cards_value(&m.cards) + meld_bonus(m)

cdef inline bint merge_hg_ok(const Meld* a, const Meld* b, int hsize, int C, bint mo,
                             const SBConfig* c) noexcept nogil:
    """HG (S-D10) after merging GROUPs a and b: the merge takes no card from the hand, but it may
    leave the side fewer canastas (two canastas become one; two short groups may make one). With
    one card left (a merge is offered only with nothing staged) that card must still be
    discardable, so the side must keep going_out_min_canastas; with two or more the discard
    keeps one (issue 23: MERGE into a dead end)."""
    return hsize >= 2 or sb_hg_ok(hsize, C - <int>sb_is_canasta(a) - <int>sb_is_canasta(b) + (a.n + b.n >= 7),
                                  mo, c)

cdef inline uint32_t merge_pairs(const SBState* s, const SBConfig* c, int side, uint32_t g, int hsize, int C,
                                 bint mo) noexcept nogil:
    """The slots of g (GROUPs of one rank) that another slot of g can merge with (sb_merge_ok is
    symmetric; each pair tried once, none whose two slots are both in already) leaving the hand
    guard (merge_hg_ok at hsize cards, C canastas; hsize >= 2: always)."""
    cdef uint32_t out = 0, g2
    cdef int i, j
    while g:
        i = cs_ctz(g)
        g &= g - 1
        g2 = g
        while g2:
            j = cs_ctz(g2)
            g2 &= g2 - 1
            if (not ((out >> i) & (out >> j) & 1) and sb_merge_ok(&s.melds[side][i], &s.melds[side][j], c)
                    and merge_hg_ok(&s.melds[side][i], &s.melds[side][j], hsize, C, mo, c)):
                out |= (<uint32_t>1 << i) | (<uint32_t>1 << j)
    return out

cdef inline void remerge(SBState* s, const SBConfig* c, int side, int r) noexcept nogil:
    """mi.mergeable for the GROUPs of rank r, after one of them came or changed."""
    cdef MeldIndex* mi = &s.mi[side]
    cdef uint32_t g = mi.rank_grps[r]
    mi.mergeable = (mi.mergeable & ~g) | (merge_pairs(s, c, side, g, 2, 0, False) if g & (g - 1) else 0)

cdef inline void seq_index(SBState* s, int side) noexcept nogil:
    """MeldIndex.seq_adj and seq_far from mi.seqs (the placed SEQUENCEs of < 7 cards): for each,
    the kinds of its suit just below and above its run (ranks 4..A, outside it), and the kinds
    of the ranks 4..A further out within a run of 7 (lo + 6 above, hi - 6 below: the ranks a
    lay-off with the ranks between may reach). Functions of the melds, as the rest of the index;
    every SEQUENCE in seqs has a kind in seq_adj (< 7 cards: it cannot span 4..A), so the suits
    with one are those with bits there. opened_empty_adds, opened_seq_adds and the draw phase read
    them instead of walking the SEQUENCEs."""
    cdef MeldIndex* mi = &s.mi[side]
    cdef const Meld* m
    cdef uint32_t sq = mi.seqs, w
    cdef uint64_t adj = 0, far = 0
    cdef int base
    while sq:
        m = &s.melds[side][cs_ctz(sq)]
        sq &= sq - 1
        base = m.key * 13
        if m.lo > 2:
            adj |= <uint64_t>1 << (base + m.lo - 1)
        if m.hi < 12:
            adj |= <uint64_t>1 << (base + m.hi + 1)
        w = (0x1FFC & ~((<uint32_t>1 << (m.hi + 2)) - (<uint32_t>1 << (m.lo - 1)))
             & ((<uint32_t>1 << (m.lo + 7)) - 1) & ~((<uint32_t>1 << (m.hi - 6 if m.hi >= 6 else 0)) - 1))
        far |= <uint64_t>w << base
    mi.seq_adj = adj
    mi.seq_far = far

cdef inline void reindex(SBState* s, const SBConfig* c, int side, int i) noexcept nogil:
    """Recompute s.live[side] and s.mi[side] after a change of the side's meld slot i (placed,
    laid off onto, merged, emptied), or with i = -1 when no slot came into or went out of use
    (pending flags cleared; s.live already updated by the caller). One pass over the melds in
    use: canastas (placed, pending), a free slot, the GROUPs by rank, the rest, the placed
    SEQUENCEs that can still grow; then the GROUPs that can merge (unused entries zero, so equal
    melds give equal bytes)."""
    cdef const Meld* m
    cdef MeldIndex* mi = &s.mi[side]
    cdef uint32_t b
    if i >= 0:
        if s.melds[side][i].type != MT_NONE:
            s.live[side] |= <uint32_t>1 << i
        else:
            s.live[side] &= ~(<uint32_t>1 << i)
    memset(mi, 0, sizeof(MeldIndex))
    b = s.live[side]
    while b:
        i = cs_ctz(b)
        b &= b - 1
        m = &s.melds[side][i]
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
            mi.oth[mi.nlive - mi.ngrp] = i
            if m.type == MT_SEQ and not m.pending and m.n < 7:
                mi.seqs |= <uint32_t>1 << i
        mi.nlive += 1
    mi.slot = mi.nlive < SB_MAXMELDS
    if mi.seqs:
        seq_index(s, side)
    if mi.ngrp > cs_popcount(mi.grp_ranks):         # some rank has two GROUPs
        b = mi.grp_ranks
        while b:
            i = cs_ctz(b)
            b &= b - 1
            if mi.rank_grps[i] & (mi.rank_grps[i] - 1):
                mi.mergeable |= merge_pairs(s, c, side, mi.rank_grps[i], 2, 0, False)

cdef inline int side_points(const SBState* s, int side) noexcept nogil:
    """The side's melds in use on the table: meld_points summed (the running standing's figure)."""
    cdef int i, v = 0
    cdef uint32_t b = s.live[side]
    while b:
        i = cs_ctz(b)
        b &= b - 1
        v += meld_points(&s.melds[side][i])
    return v

cdef inline int canastas(const SBState* s, int side) noexcept nogil:
    return s.mi[side].C

cdef inline int free_slot(const SBState* s, int side) noexcept nogil:
    cdef uint32_t b = ~s.live[side]
    return cs_ctz(b) if b else -1

cdef inline int req_of(const SBState* s, const SBConfig* c, int side) noexcept nogil:
    return sb_req(s.cum[side], c.table_hoyle) + s.req_pen[side]

cdef inline bint blocked_top(const SBState* s) noexcept nogil:
    cdef int t
    if s.npile == 0:
        return True
    t = s.pile[s.npile - 1]
    # a wild (a deuce or the joker) or a three: one mask test (kinds 0..52)
    return ((rank_mask(0) | rank_mask(1) | (<uint64_t>1 << SB_JK)) >> t) & 1

cdef inline int pile_rest_in(const SBState* s, const SBConfig* c) noexcept nogil:
    """Cards the hand gains from the pile below the top (red threes are exposed instead, auto).
    pile_frz counts the pile's wilds and red threes: with none, every card below the top."""
    cdef int i, n = 0
    if c.red3_manual or s.pile_frz == 0:
        return s.npile - 1 if s.npile > 0 else 0
    for i in range(s.npile - 1):
        if c.red3_manual or not is_red3(s.pile[i]):
            n += 1
    return n

cdef inline bint may_out(const SBState* s) noexcept nogil:
    return not s.partner_no

cdef inline bint pending_batch(const SBState* s, int side) noexcept nogil:
    cdef int i
    cdef uint32_t b = s.live[side]
    while b:
        i = cs_ctz(b)
        b &= b - 1
        if s.melds[side][i].pending:
            return True
    return False
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
