"""Samba (three-deck Canasta with sequences), 2 to 6 players: the state machine, observation,
resampling, the greedy agent and the Python face. The pure rules are in `_samba_rules`.

Implements docs/rules/samba.md §1-§8 and its decisions S-D1..S-D21 as written, with the engine
limits listed in docs/rules/samba.md ("As implemented"). Seats 0..N-1 clockwise; sides: N = 2,
3, 5 each player alone; N = 4 partners {0,2} {1,3}; N = 6 {0,3} {1,4} {2,5} (side = seat % S).

Card kinds: suit*13 + rank (suits S H D C, rank 0 = '2' .. 12 = 'A'), 52 = joker `JK`.

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

Greedy agent: takes the pile whenever it can (lay-off pickup, Dutch top card, natural pair),
else draws; in the pile group adds every natural of the rank, then commits; builds moves in this
order: merge groups of one rank, lay off naturals onto its groups and sequences, meld ranks of
three or more, meld runs of three or more of a suit, put a wild on a group of five or six cards
(to make a canasta), place manual red threes; a staged move is continued with the cards that
fit it and committed as soon as nothing more fits; it discards a black three if it has one, else
its lowest-valued card of a rank it holds once (never a wild while it has anything else).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size
from cardsim.core._staged cimport (Staged, staged_clear, staged_start, staged_add, staged_commit,
                                   staged_legal_adds)
from cardsim.core._deal cimport shuffle
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.core._types cimport card_t, uint8_t, uint32_t
from cardsim.core._actions cimport ActionSet, as_add, as_has, as_first, as_count, as_clear
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games._samba_rules cimport (
    SBConfig, Meld, SB_KINDS, SB_JK, SB_JK2, SB_DECK, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ,
    MT_BLACK3, sb_card_value, sb_req, sb_group_ok, sb_meld_of, sb_layoff_ok, sb_merge_ok,
    sb_is_canasta, sb_meld_value, sb_meld_bonus, sb_red3_score, sb_counts_value, sb_counts,
    sb_complete_new, sb_complete_new_n, sb_complete_layoff, sb_opening_ok, kind_of, rank_of, suit_of, is_wild,
    is_natural, is_black3, is_red3, sb_hg_ok, sb_nat_of_rank, sb_pile_group_ok, sb_wilds, sb_total)

from cardsim import cards as _cards
from cardsim.errors import ConfigError, ParseError

cdef enum:
    NW = 5                   # action words: ceil(276 / 64)
OBS_SIZE = 53 * 3 + 6 * 53 + 6 + 5 * 32 * 54 + 15 + 53 + 53 + 3 + 4 + 6 * 4 + 32 + 5 + 5 + 1
METRICS = ("end_type", "out_seat", "score_side0", "score_side1", "score_side2", "score_side3", "score_side4",
           "canastas_side0", "canastas_side1", "canastas_side2", "canastas_side3", "canastas_side4",
           "stock_left", "deals")

# ---------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------
cdef inline int side_of(const SBConfig* c, int p) noexcept nogil:
    return p % c.nsides

cdef inline void add_kind(Hand* h, int k) noexcept nogil:
    """Add one card of kind k (jokers canonical: identity 52 up to 3 copies, then 53)."""
    if k == SB_JK:
        if hand_count(h, SB_JK) < 3:
            hand_add(h, SB_JK)
        else:
            hand_add(h, SB_JK2)
    else:
        hand_add(h, k)

cdef inline void remove_kind(Hand* h, int k) noexcept nogil:
    if k == SB_JK:
        if hand_count(h, SB_JK2):
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
    """Seat p gave up a card of kind k: the public lower bound on its holding drops by one."""
    if count_kind(&s.known[p], k):
        remove_kind(&s.known[p], k)

cdef int canastas(const SBState* s, int side) noexcept nogil:
    cdef int i, n = 0
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type != MT_NONE and not s.melds[side][i].pending and sb_is_canasta(&s.melds[side][i]):
            n += 1
    return n

cdef int free_slot(const SBState* s, int side) noexcept nogil:
    cdef int i
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type == MT_NONE:
            return i
    return -1

cdef inline int req_of(const SBState* s, const SBConfig* c, int side) noexcept nogil:
    return sb_req(s.cum[side], c.table_hoyle) + s.req_pen[side]

cdef inline bint blocked_top(const SBState* s) noexcept nogil:
    cdef int t
    if s.npile == 0:
        return True
    t = s.pile[s.npile - 1]
    return is_wild(t) or rank_of(t) == 1

cdef int pile_rest_in(const SBState* s, const SBConfig* c) noexcept nogil:
    """Cards the hand gains from the pile below the top (red threes are exposed instead, auto)."""
    cdef int i, n = 0
    for i in range(s.npile - 1):
        if c.red3_manual or not is_red3(s.pile[i]):
            n += 1
    return n

cdef inline bint may_out(const SBState* s) noexcept nogil:
    return not s.partner_no

# ---------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------
cdef void expose_red3(SBState* s, const SBConfig* c, int p, int k) noexcept nogil:
    add_kind(&s.red3[side_of(c, p)], k)

cdef int draw_card(SBState* s, const SBConfig* c, int p) noexcept nogil:
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
    of the deal when the stock is empty and the pile cannot be taken, E2)."""
    cdef int k, n
    cdef ActionSet tmp
    reset_turn(s, p)
    if not s.first_done[p]:
        s.first_done[p] = 1
        if not c.red3_manual:
            for k in range(14, 28, 13):
                n = count_kind(&s.hand[p], k)
                while n > 0:
                    remove_kind(&s.hand[p], k)
                    expose_red3(s, c, p, k)
                    draw_card(s, c, p)
                    n -= 1
    if s.nstock == 0 and draw_legal(s, c, &tmp) == 0:
        end_deal(s, c, 2, -1)

cdef void deal_cards(SBState* s, const SBConfig* c) noexcept nogil:
    """Shuffle the 162 cards (Fisher-Yates on the deal stream), deal hand_size to each seat one
    at a time from dealer+1 (§3), turn the upcard (re-turning wilds and red threes on top when
    upcard_rewind), the rest is the stock; then seat dealer+1 starts (S-D1)."""
    cdef card_t deck[162]
    cdef int i, j, t, q, side, N = c.nplayers
    for i in range(52):
        deck[3 * i] = i
        deck[3 * i + 1] = i
        deck[3 * i + 2] = i
    for i in range(156, 162):
        deck[i] = SB_JK
    shuffle(deck, 162, &s.rng)
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
    staged_clear(&s.stage)
    hand_clear(&s.aside)
    # deck[161] is dealt first (the top of the pack)
    s.nstock = 162
    for i in range(162):
        s.stock[i] = deck[i]
    for i in range(c.hand_size * N):
        q = (s.dealer + 1 + i) % N
        s.nstock -= 1
        add_kind(&s.hand[q], s.stock[s.nstock])
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
    deal_cards(s, c)

cdef int sb_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    return -1 if s.phase == PH_END else s.turn

cdef bint sb_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const SBState*>st).phase == PH_END

# ---------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------
cdef inline int pile_all_in(const SBState* s, const SBConfig* c) noexcept nogil:
    """Cards the hand gains when the whole pile (top already removed) joins it."""
    cdef int i, n = 0
    for i in range(s.npile):
        if c.red3_manual or not is_red3(s.pile[i]):
            n += 1
    return n

cdef bint takeable_onto(const SBState* s, const SBConfig* c, int side, int i, int top, int h,
                        int C) noexcept nogil:
    """The top card alone extends slot i (not a canasta, not pending) and HG holds at h cards."""
    cdef const Meld* m = &s.melds[side][i]
    cdef int8_t one[SB_KINDS]
    if m.type == MT_NONE or m.pending or m.type == MT_BLACK3 or sb_is_canasta(m):
        return False
    memset(one, 0, SB_KINDS)
    one[top] = 1
    if not sb_layoff_ok(m, one, c):
        return False
    return sb_hg_ok(h, C + (1 if m.n + 1 >= 7 else 0), may_out(s), c)

cdef int draw_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """T1 (§4.3, §4.5): DRAW while the stock lasts; TAKE_PAIR (natural pair; an unopened side
    must be able to complete its initial meld with the pile group); TAKE_LAYOFF onto a
    non-canasta meld the top extends (pile unfrozen, american pile model); TAKE_SEQ (Dutch
    sequence_top_card_take); with an empty stock DECLINE when no lay-off take is possible but
    the pair take is (the lay-off take is then compulsory, S-D12)."""
    cdef int p = s.turn, side = side_of(c, p), top, r, i, hsize, rest, C, n = 0
    cdef bint forced = False, pair = False, frozen
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    as_clear(out, NW)
    if s.nstock > 0:
        as_add(out, A_DRAW)
        n += 1
    if not blocked_top(s):
        top = s.pile[s.npile - 1]
        r = rank_of(top)
        sb_counts(&s.hand[p], H)
        hsize = hand_size(&s.hand[p])
        rest = pile_rest_in(s, c)
        C = canastas(s, side)
        if sb_nat_of_rank(H, r) >= 2:
            if s.opened[side]:
                pair = sb_pile_group_ok(0, 0, sb_nat_of_rank(H, r), sb_wilds(H), hsize, rest, C,
                                        may_out(s), c) != 0
            else:
                memset(S, 0, SB_KINDS)
                S[top] = 1
                pair = sb_opening_ok(S, H, req_of(s, c, side), rest, 3, c) != 0
            if pair:
                as_add(out, A_TAKE_PAIR)
                n += 1
        frozen = c.always_frozen or s.pile_frz > 0 or not s.opened[side]
        if not frozen:
            for i in range(SB_MAXMELDS):
                if takeable_onto(s, c, side, i, top, hsize + rest, C):
                    as_add(out, A_TAKE_LAYOFF + i)
                    n += 1
                    forced = True
        if c.seq_top_take and s.opened[side]:
            for i in range(SB_MAXMELDS):
                if s.melds[side][i].type == MT_SEQ and takeable_onto(
                        s, c, side, i, top, hsize + (1 if s.nstock > 0 else 0), C):
                    as_add(out, A_TAKE_SEQ + i)
                    n += 1
                    forced = True
    if s.nstock == 0 and pair and not forced:
        as_add(out, A_DECLINE)
        n += 1
    return n

cdef bint grouped_natural(const SBState* s, int side, int k) noexcept nogil:
    """k is a natural of a rank the side holds a (non-pending) GROUP of."""
    cdef int i
    if not is_natural(k):
        return False
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type == MT_GROUP and not s.melds[side][i].pending and s.melds[side][i].key == rank_of(k):
            return True
    return False

cdef int loose_cards(const SBState* s, int side, const int8_t* H) noexcept nogil:
    """Cards of H that are not naturals of a rank the side has grouped."""
    cdef int k, n = 0
    for k in range(SB_KINDS):
        if H[k] and not grouped_natural(s, side, k):
            n += H[k]
    return n

cdef bint pending_batch(const SBState* s, int side) noexcept nogil:
    cdef int i
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type != MT_NONE and s.melds[side][i].pending:
            return True
    return False


ctypedef struct AddCtx:
    const SBState* s
    const SBConfig* c
    int mode                 # ADD_* below
    int C                    # the side's canastas
    int need                 # initial-meld value still needed
    int extra                # cards joining the hand after the batch (the rest of a taken pile)
    bint mo                  # may go out (the partner has not said no)
    bint slot                # a free meld slot exists
    int8_t H[SB_KINDS]       # the hand before the add
    int8_t S[SB_KINDS]       # the staged cards before the add
    int nS                   # cards staged
    int hsize                # cards in hand
    int srank                # rank of the staged naturals: -1 none, -2 several

cdef enum:
    ADD_PILE = 1             # the group on a taken top card
    ADD_OPENING = 2          # an unopened side's batch that must reach the requirement
    ADD_PENALIZE = 3         # an unopened side's batch under insufficient_initial_meld=penalize
    ADD_OPENED = 4           # an opened side: new melds and lay-offs

cdef bint add_completable(const void* ctx, const Staged* play) noexcept nogil:
    """The core staged-move callback: can the stage `play` (the current stage plus one card) be
    completed into a legal whole move from the rest of the hand (HG, the requirement)?"""
    cdef const AddCtx* x = <const AddCtx*>ctx
    cdef const SBState* s = x.s
    cdef const SBConfig* c = x.c
    cdef int8_t S[SB_KINDS]
    cdef int8_t H[SB_KINDS]
    cdef int k, added = -1, i, r, sn, side = side_of(c, s.turn)
    cdef bint isnat
    cdef uint64_t ids = play.cards.layer[0] | play.cards.layer[1]
    cdef int srank, nS, hsize
    cdef const Meld* m
    while ids:                                  # the one kind with a copy more than the stage
        k = bit_low(ids)
        ids &= ids - 1
        if count_kind(&play.cards, kind_of(k)) > x.S[kind_of(k)]:
            added = kind_of(k)
            break
    if added < 0 or x.H[added] == 0:
        return False
    memcpy(S, x.S, SB_KINDS)
    memcpy(H, x.H, SB_KINDS)
    S[added] += 1
    H[added] -= 1
    if x.mode == ADD_PILE:
        r = rank_of(s.take_top)
        sn = sb_nat_of_rank(x.S, r)
        isnat = is_natural(added) and rank_of(added) == r
        if not isnat and not (is_wild(added) and sn >= 2):
            return False        # the natural pair is staged first
        if s.opened[side]:
            return sb_pile_group_ok(sn + isnat, sb_wilds(x.S) + (not isnat), sb_nat_of_rank(H, r),
                                    sb_wilds(H), sb_total(H), x.extra, x.C, x.mo, c) != 0
        S[s.take_top] += 1
        return sb_opening_ok(S, H, x.need, x.extra, 3, c) != 0
    if x.mode == ADD_OPENING or x.mode == ADD_PENALIZE:
        if not (is_natural(added) or is_wild(added)) or not x.slot:
            return False
        if x.mode == ADD_PENALIZE:
            return sb_complete_new(S, H, 0, False, c) != 0
        return sb_opening_ok(S, H, x.need, x.extra, 0, c) != 0
    if is_red3(added):
        return False
    if x.slot and sb_complete_new_n(S, H, x.nS + 1, x.hsize - 1, x.C, x.mo, c):
        return True
    # lay-offs: only the melds the stage can still fit (its rank, its suit, black threes)
    srank = x.srank
    if is_natural(added):
        srank = rank_of(added) if srank == -1 else (srank if srank == rank_of(added) else -2)
    nS = x.nS + 1
    hsize = x.hsize - 1
    for i in range(SB_MAXMELDS):
        m = &s.melds[side][i]
        if m.type == MT_NONE:
            continue
        if m.type == MT_GROUP and (srank == -2 or (srank >= 0 and m.key != srank) or is_black3(added)):
            continue
        if m.type == MT_SEQ and (not is_natural(added) or suit_of(added) != m.key):
            continue
        if m.type == MT_BLACK3 and not is_black3(added):
            continue
        if sb_complete_layoff(m, S, H, nS, hsize, x.C, x.mo, c):
            return True
    return False

cdef int legal_adds(const SBState* s, const SBConfig* c, int mode, int need, int extra, int C,
                    const int8_t* H, const int8_t* S, ActionSet* out) noexcept nogil:
    """ADD actions through the core staged-move mechanism (core/_staged.pxd): candidates are the
    kinds in hand (identity 52 stands for the jokers), kept if add_completable says yes."""
    cdef AddCtx x
    cdef int k
    x.s = s
    x.c = c
    x.mode = mode
    x.C = C
    x.need = need
    x.extra = extra
    x.mo = may_out(s)
    x.slot = free_slot(s, side_of(c, s.turn)) >= 0
    x.nS = 0
    x.hsize = 0
    x.srank = -1
    for k in range(SB_KINDS):
        x.H[k] = H[k]
        x.S[k] = S[k]
        x.nS += S[k]
        x.hsize += H[k]
        if S[k] and is_natural(k):
            x.srank = rank_of(k) if x.srank == -1 or x.srank == rank_of(k) else -2
    return staged_legal_adds(&s.stage, s.hand[s.turn].layer[0] & ((<uint64_t>1 << SB_KINDS) - 1), A_ADD,
                             add_completable, &x, out)

cdef int meld_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """T2 (§4.4) under construction: see the module docstring for the factoring."""
    cdef int p = s.turn, side = side_of(c, p), k, i, hsize, ssize, C, t, r, sn, sw, need, extra, v
    cdef int n = 0, hn, hw
    cdef bint mo = may_out(s), ok, isnat
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    cdef Meld m
    cdef Meld tmp
    as_clear(out, NW)
    sb_counts(&s.hand[p], H)
    sb_counts(&s.stage.cards, S)
    hsize = hand_size(&s.hand[p])
    ssize = sb_total(S)
    C = canastas(s, side)
    if s.merge_from >= 0:
        for i in range(SB_MAXMELDS):
            if i != s.merge_from and s.melds[side][i].type == MT_GROUP and sb_merge_ok(
                    &s.melds[side][s.merge_from], &s.melds[side][i], c):
                as_add(out, A_MERGE_TO + i)
                n += 1
        return n
    if s.pile_take == 1:
        # the group on the taken top card: the natural pair first, then naturals / wilds
        t = s.take_top
        r = rank_of(t)
        sn = sb_nat_of_rank(S, r)
        sw = sb_wilds(S)
        extra = pile_all_in(s, c)
        n += legal_adds(s, c, ADD_PILE, req_of(s, c, side), extra, C, H, S, out)
        if sn >= 2 and sb_group_ok(1 + sn, sw, c) and free_slot(s, side) >= 0:
            if s.opened[side]:
                ok = sb_hg_ok(hsize + extra, C + (1 if 1 + sn + sw >= 7 else 0), mo, c)
            else:
                v = sb_counts_value(S) + sb_card_value(t)
                need = req_of(s, c, side)
                if v >= need:
                    ok = hsize + extra >= 2
                else:
                    memset(S, 0, SB_KINDS)
                    ok = sb_opening_ok(S, H, need - v, extra, 0, c) != 0
            if ok:
                as_add(out, A_MELD)
                n += 1
        return n
    if not s.opened[side]:
        need = req_of(s, c, side) - s.batch_value
        extra = pile_all_in(s, c) if s.pile_take == 2 else 0
        n += legal_adds(s, c, ADD_PENALIZE if c.penalize and s.pile_take == 0 else ADD_OPENING, need, extra,
                        C, H, S, out)
        if ssize:
            t = sb_meld_of(S, &m)
            if (t == MT_SEQ or (t == MT_GROUP and sb_group_ok(m.nat, m.wild, c))) and free_slot(s, side) >= 0:
                v = sb_counts_value(S)
                if v >= need:
                    ok = hsize + extra >= 2
                elif c.penalize and s.pile_take == 0:
                    ok = hsize >= 2
                else:
                    memset(S, 0, SB_KINDS)
                    ok = sb_opening_ok(S, H, need - v, extra, 0, c) != 0
                if ok:
                    as_add(out, A_MELD)
                    n += 1
            return n
        if pending_batch(s, side):
            if c.penalize and s.pile_take == 0:
                as_add(out, A_FAIL)
                n += 1
            return n
        # no batch under way: discards and manual red threes
        n += discard_legal(s, c, H, hsize, C, mo, out)
        return n
    # opened side
    if s.must_out:
        if ssize == 0:
            for k in range(SB_KINDS):
                if H[k] and grouped_natural(s, side, k):
                    as_add(out, A_ADD + k)
                    n += 1
            if hsize == 1:
                for k in range(SB_KINDS):
                    if H[k] and (c.red3_manual or not is_red3(k)):
                        as_add(out, A_DISCARD + k)
                        n += 1
        else:
            for i in range(SB_MAXMELDS):
                if s.melds[side][i].type == MT_GROUP and not s.melds[side][i].pending and sb_layoff_ok(
                        &s.melds[side][i], S, c):
                    as_add(out, A_LAYOFF + i)
                    n += 1
        return n
    n += legal_adds(s, c, ADD_OPENED, 0, 0, C, H, S, out)
    if ssize:
        t = sb_meld_of(S, &m)
        if free_slot(s, side) >= 0:
            if t == MT_BLACK3:
                ok = hsize <= 1 and mo and C >= c.min_canastas
            elif t == MT_SEQ or (t == MT_GROUP and sb_group_ok(m.nat, m.wild, c)):
                m.n = ssize
                ok = sb_hg_ok(hsize, C + sb_is_canasta(&m), mo, c)
            else:
                ok = False
            if ok:
                as_add(out, A_MELD)
                n += 1
        for i in range(SB_MAXMELDS):
            if s.melds[side][i].type == MT_NONE or s.melds[side][i].pending:
                continue
            if not sb_layoff_ok(&s.melds[side][i], S, c):
                continue
            if s.melds[side][i].type == MT_BLACK3:
                ok = hsize <= 1 and mo and C >= c.min_canastas
            else:
                tmp = s.melds[side][i]
                tmp.n += ssize
                ok = sb_hg_ok(hsize, C - sb_is_canasta(&s.melds[side][i]) + sb_is_canasta(&tmp), mo, c)
            if ok:
                as_add(out, A_LAYOFF + i)
                n += 1
        return n
    n += discard_legal(s, c, H, hsize, C, mo, out)
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type != MT_GROUP:
            continue
        for k in range(SB_MAXMELDS):
            if k != i and s.melds[side][k].type == MT_GROUP and sb_merge_ok(&s.melds[side][i], &s.melds[side][k], c):
                as_add(out, A_MERGE_FROM + i)
                n += 1
                break
    if (c.go_out_query and (c.nplayers == 4 or c.nplayers == 6) and not s.asked and mo
            and C >= c.min_canastas and hsize >= 2 and loose_cards(s, side, H) <= 1):
        # hsize >= 2: after a 'no' the player can still discard and keep a card (HG)
        as_add(out, A_ASK)
        n += 1
    return n

cdef int discard_legal(const SBState* s, const SBConfig* c, const int8_t* H, int hsize, int C, bint mo,
                       ActionSet* out) noexcept nogil:
    """DISCARD (HG: the hand may be emptied only with min_canastas canastas and no 'no' from the
    partner; American red threes are never discarded) and PLACE_RED3 (manual mode)."""
    cdef int k, n = 0
    cdef bint empty_ok = mo and C >= c.min_canastas
    if hsize >= 2 or empty_ok:
        for k in range(SB_KINDS):
            if H[k] and (c.red3_manual or not is_red3(k)):
                as_add(out, A_DISCARD + k)
                n += 1
    if c.red3_manual and (hsize >= 3 or empty_ok):
        if H[14]:
            as_add(out, A_RED3)
            n += 1
        if H[27]:
            as_add(out, A_RED3 + 1)
            n += 1
    return n

cdef int sb_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    if s.phase == PH_DRAW:
        return draw_legal(s, c, out)
    if s.phase == PH_MELD:
        return meld_legal(s, c, out)
    as_clear(out, NW)
    if s.phase == PH_ANSWER:
        as_add(out, A_YES)
        as_add(out, A_NO)
        return 2
    return 0

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
    cdef int8_t cnt[SB_KINDS]
    cdef Meld t
    m.cards = cards[0]
    sb_counts(cards, cnt)
    sb_meld_of(cnt, &t)
    m.nat = t.nat
    m.wild = t.wild
    m.n = t.n
    if m.type == MT_SEQ:
        m.lo = t.lo
        m.hi = t.hi

cdef void place_meld(SBState* s, const SBConfig* c, int side, const Hand* cards, bint pending) noexcept nogil:
    cdef int8_t cnt[SB_KINDS]
    cdef int i = free_slot(s, side)
    cdef Meld* m = &s.melds[side][i]
    sb_counts(cards, cnt)
    sb_meld_of(cnt, m)
    m.cards = cards[0]
    m.pending = pending

cdef void open_side(SBState* s, const SBConfig* c, int side) noexcept nogil:
    cdef int i
    s.opened[side] = 1
    s.batch_value = 0
    for i in range(SB_MAXMELDS):
        s.melds[side][i].pending = 0

cdef void check_out(SBState* s, const SBConfig* c, int p) noexcept nogil:
    if hand_size(&s.hand[p]) == 0 and s.stage.n == 0:
        end_deal(s, c, 1, p)

cdef void do_meld(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """MELD: the staged cards (plus the taken top card in a pile take) become a new meld; an
    unopened side's meld is pending until the batch reaches the requirement (then the side opens
    and, in a pile take, the rest of the pile joins the hand)."""
    cdef int side = side_of(c, p), v, k
    cdef Hand cards
    staged_commit(&s.stage, &cards)
    cdef bint pile_group = s.pile_take == 1
    if pile_group:
        add_kind(&cards, s.take_top)
        s.take_top = -1
    staged_clear(&s.stage)
    s.melded[p] = 1
    if s.opened[side]:
        place_meld(s, c, side, &cards, False)
        if pile_group:
            s.pile_take = 0
            take_rest(s, c, p)
        check_out(s, c, p)
        return
    v = sb_meld_value_of(&cards)
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

cdef int sb_meld_value_of(const Hand* h) noexcept nogil:
    cdef int8_t cnt[SB_KINDS]
    sb_counts(h, cnt)
    return sb_counts_value(cnt)

cdef void fail_batch(SBState* s, const SBConfig* c, int p) noexcept nogil:
    """penalize mode: the pending melds return to the hand and the requirement rises by 100."""
    cdef int side = side_of(c, p), i, k
    cdef int8_t cnt[SB_KINDS]
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type != MT_NONE and s.melds[side][i].pending:
            sb_counts(&s.melds[side][i].cards, cnt)
            for k in range(SB_KINDS):
                while cnt[k] > 0:
                    add_kind(&s.hand[p], k)
                    add_kind(&s.known[p], k)
                    cnt[k] -= 1
            memset(&s.melds[side][i], 0, sizeof(Meld))
    s.batch_value = 0
    s.req_pen[side] += 100

cdef void next_turn(SBState* s, const SBConfig* c) noexcept nogil:
    start_turn(s, c, (s.mover + 1) % c.nplayers)

cdef void sb_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef SBState* s = <SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int p = s.turn, side = side_of(c, p), k, i, got, n
    cdef Meld* m
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
            i = a - A_TAKE_SEQ
            add_kind(&s.melds[side][i].cards, k)
            set_meld(&s.melds[side][i], &s.melds[side][i].cards)
            s.melded[p] = 1
            s.drew = 1
            if s.nstock > 0:
                draw_card(s, c, p)
            check_out(s, c, p)
            return
        i = a - A_TAKE_LAYOFF
        add_kind(&s.melds[side][i].cards, k)
        set_meld(&s.melds[side][i], &s.melds[side][i].cards)
        s.melded[p] = 1
        take_rest(s, c, p)
        check_out(s, c, p)
        return
    # PH_MELD
    if a < A_DISCARD:
        remove_kind(&s.hand[p], a)
        forget(s, p, a)
        staged_add(&s.stage, a)
        return
    if a < A_DRAW:
        k = a - A_DISCARD
        remove_kind(&s.hand[p], k)
        forget(s, p, k)
        s.pile[s.npile] = k
        s.npile += 1
        if is_wild(k) or is_red3(k):
            s.pile_frz += 1
        if hand_size(&s.hand[p]) == 0:
            end_deal(s, c, 1, p)
        else:
            next_turn(s, c)
        return
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
        s.merge_from = -1
        return
    if a >= A_MERGE_FROM:
        s.merge_from = a - A_MERGE_FROM
        return
    if a >= A_LAYOFF and a < A_TAKE_LAYOFF:
        i = a - A_LAYOFF
        h = s.melds[side][i].cards
        sb_hand_merge(&h, &s.stage.cards)
        set_meld(&s.melds[side][i], &h)
        staged_clear(&s.stage)
        s.melded[p] = 1
        check_out(s, c, p)
        return

cdef void sb_hand_merge(Hand* dst, const Hand* src) noexcept nogil:
    """dst += src card by card (jokers kept canonical)."""
    cdef int8_t cnt[SB_KINDS]
    cdef int k, j
    sb_counts(src, cnt)
    for k in range(SB_KINDS):
        for j in range(cnt[k]):
            add_kind(dst, k)

# ---------------------------------------------------------------------------------------------
# end of deal, scoring (§5, §6), match (§7)
# ---------------------------------------------------------------------------------------------
cdef int hand_penalty(const SBState* s, const SBConfig* c, int q, int* red3_exposed) noexcept nogil:
    """Card value of seat q's hand at the end, and its red threes: dealt ones never exposed
    (auto mode, q had no turn yet) count as exposed (S-D14, added to *red3_exposed); otherwise
    -100 each, or -750 once for the player (Dutch red3_in_hand_penalty)."""
    cdef int8_t cnt[SB_KINDS]
    cdef int v, r3
    sb_counts(&s.hand[q], cnt)
    if q == s.mover and s.stage.n:
        sb_hand_add_counts(&s.stage.cards, cnt)
    v = sb_counts_value(cnt)
    r3 = cnt[14] + cnt[27]
    if r3:
        if not c.red3_manual and not s.first_done[q]:
            red3_exposed[0] += r3
        elif c.red3_hand_750:
            v += 750
        else:
            v += 100 * r3
    return v

cdef void sb_hand_add_counts(const Hand* h, int8_t* cnt) noexcept nogil:
    cdef int8_t more[SB_KINDS]
    cdef int k
    sb_counts(h, more)
    for k in range(SB_KINDS):
        cnt[k] += more[k]

cdef int side_score(const SBState* s, const SBConfig* c, int side) noexcept nogil:
    """score(s) of §6: meld card values + canasta/samba bonuses + 200 for going out (+ the
    concealed bonus) + R(s) - the card values left in the side's hands."""
    cdef int i, q, sc = 0, r3 = 0, C = 0
    cdef const Meld* m
    for i in range(SB_MAXMELDS):
        m = &s.melds[side][i]
        if m.type == MT_NONE:
            continue
        sc += sb_meld_value(m) + sb_meld_bonus(m)
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
    if best >= 0:
        s.phase = PH_END
        return
    s.dealer = (s.dealer + 1) % c.nplayers
    deal_cards(s, c)

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
    if s.phase == PH_ANSWER or s.must_out:
        sb_counts(&s.hand[s.mover], H)
        if loose_cards(s, side, H) > 1:
            return False
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


# ---------------------------------------------------------------------------------------------
# greedy agent (policy in the module docstring)
# ---------------------------------------------------------------------------------------------
cdef int first_in(const ActionSet* legal, int lo, int hi) noexcept nogil:
    cdef int a
    for a in range(lo, hi):
        if as_has(legal, a):
            return a
    return -1

cdef int discard_choice(const SBState* s, const ActionSet* legal, const int8_t* H) noexcept nogil:
    """A black three if legal; else the lowest-valued natural held once; else the lowest-valued
    legal discard, wilds last."""
    cdef int k, best = -1, bv = 100000, v
    for k in range(1, 41, 39):
        if as_has(legal, A_DISCARD + k):
            return A_DISCARD + k
    for k in range(SB_KINDS):
        if not as_has(legal, A_DISCARD + k):
            continue
        v = sb_card_value(k) * 10 + H[k] * 100
        if is_wild(k):
            v += 10000
        if is_red3(k):
            v += 5000
        if v < bv:
            bv = v
            best = A_DISCARD + k
    return best

cdef int sb_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int p = s.turn, side = side_of(c, p), a, k, r, i, su, lo, hi
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    cdef int ssize
    if n_legal == 1:
        return as_first(legal, NW)
    if s.phase == PH_ANSWER:
        return A_YES
    if s.phase == PH_DRAW:
        a = first_in(legal, A_TAKE_LAYOFF, A_TAKE_SEQ + SB_MAXMELDS)
        if a >= 0:
            return a
        if as_has(legal, A_TAKE_PAIR):
            return A_TAKE_PAIR
        if as_has(legal, A_DRAW):
            return A_DRAW
        return as_first(legal, NW)
    sb_counts(&s.hand[p], H)
    sb_counts(&s.stage.cards, S)
    ssize = sb_total(S)
    if s.merge_from >= 0:
        return first_in(legal, A_MERGE_TO, A_MERGE_TO + SB_MAXMELDS)
    if s.pile_take == 1:
        r = rank_of(s.take_top)
        for su in range(4):
            if as_has(legal, A_ADD + su * 13 + r):
                return A_ADD + su * 13 + r
        if as_has(legal, A_MELD):
            return A_MELD
        return first_in(legal, A_ADD, A_DISCARD)
    if ssize:
        # continue the staged move with cards that fit it, then commit
        for k in range(52):
            if S[k] and is_natural(k):
                r = rank_of(k)
                su = suit_of(k)
                break
        else:
            r = -1
            su = -1
        if r >= 0:
            # same rank (a group or a lay-off on one)
            for i in range(4):
                if as_has(legal, A_ADD + i * 13 + r) and sb_nat_of_rank(S, r) == sb_total(S) - sb_wilds(S):
                    return A_ADD + i * 13 + r
            # the next card of a run
            lo = 13
            hi = -1
            for k in range(su * 13 + 2, su * 13 + 13):
                if S[k]:
                    lo = rank_of(k) if rank_of(k) < lo else lo
                    hi = rank_of(k) if rank_of(k) > hi else hi
            if hi > lo or sb_nat_of_rank(S, r) == 1:
                if hi + 1 <= 12 and as_has(legal, A_ADD + su * 13 + hi + 1) and S[su * 13 + hi + 1] == 0:
                    if not (hi == lo and H[su * 13 + hi + 1] == 0):
                        return A_ADD + su * 13 + hi + 1
        a = first_in(legal, A_LAYOFF, A_LAYOFF + SB_MAXMELDS)
        if a >= 0:
            return a
        if as_has(legal, A_MELD):
            return A_MELD
        return first_in(legal, A_ADD, A_DISCARD)
    # nothing staged: pick the next move
    a = first_in(legal, A_MERGE_FROM, A_MERGE_FROM + SB_MAXMELDS)
    if a >= 0:
        return a
    if as_has(legal, A_ASK):
        return A_ASK
    for i in range(2):
        if as_has(legal, A_RED3 + i):
            return A_RED3 + i
    # naturals that extend the side's melds (lay-offs), then ranks held three times or more,
    # then runs of three
    for k in range(52):
        if as_has(legal, A_ADD + k) and is_natural(k):
            for i in range(SB_MAXMELDS):
                if (s.melds[side][i].type == MT_GROUP and s.melds[side][i].key == rank_of(k)
                        and not s.melds[side][i].pending):
                    return A_ADD + k
                if (s.melds[side][i].type == MT_SEQ and s.melds[side][i].key == suit_of(k)
                        and (rank_of(k) == s.melds[side][i].lo - 1 or rank_of(k) == s.melds[side][i].hi + 1)
                        and s.melds[side][i].n < 7):
                    return A_ADD + k
    for r in range(12, 1, -1):
        if sb_nat_of_rank(H, r) >= 3:
            for su in range(4):
                if as_has(legal, A_ADD + su * 13 + r):
                    return A_ADD + su * 13 + r
    for k in range(52):
        if as_has(legal, A_ADD + k) and is_natural(k) and rank_of(k) <= 10:
            if H[k + 1] and H[k + 2]:
                return A_ADD + k
    # a wild onto a group of five or six cards
    for i in range(SB_MAXMELDS):
        if s.melds[side][i].type == MT_GROUP and 5 <= s.melds[side][i].n <= 6 and s.melds[side][i].wild < 2:
            if as_has(legal, A_ADD + SB_JK):
                return A_ADD + SB_JK
            for su in range(4):
                if as_has(legal, A_ADD + su * 13):
                    return A_ADD + su * 13
    # an opening that needs pairs with wilds: any legal ADD of a natural pair rank
    if not s.opened[side]:
        for r in range(12, 1, -1):
            if sb_nat_of_rank(H, r) >= 2:
                for su in range(4):
                    if as_has(legal, A_ADD + su * 13 + r):
                        return A_ADD + su * 13 + r
    a = discard_choice(s, legal, H)
    if a >= 0:
        return a
    return as_first(legal, NW)

# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PHASES = ("draw", "meld", "answer", "end")
END_TYPES = (None, "went_out", "stock_out", "red_threes_last")

def kind_str(int k):
    if k == SB_JK:
        return "JK"
    return RANKS[k % 13] + SUITS[k // 13]

def parse_kind(text):
    """'KS', '10H', 'TD', '♦7', 'JK' -> card kind 0..52."""
    rank, suit = _cards.parse_card(text, "samba", RANKS, ("JK",))
    if suit == -1:
        return SB_JK
    return suit * 13 + RANKS.index(rank)

DISPLAY_ORDER = tuple([SB_JK] + [su * 13 + r for su in range(4) for r in range(12, -1, -1)])

def counts_to_strings(counts):
    out = []
    for k in DISPLAY_ORDER:
        out.extend([kind_str(k)] * counts[k])
    return out

cdef void count_into(const Hand* h, int* tot) noexcept:
    cdef int8_t cnt[SB_KINDS]
    cdef int k
    sb_counts(h, cnt)
    for k in range(SB_KINDS):
        tot[k] += cnt[k]

cdef list hand_list(const Hand* h):
    cdef int8_t cnt[SB_KINDS]
    sb_counts(h, cnt)
    return counts_to_strings([cnt[k] for k in range(SB_KINDS)])

def config_from_options(dict opts):
    """The resolved options (cardsim.games.samba.OPTIONS) as the C config fields."""
    N = opts["players"]
    hs = opts["hand_size"] or (13 if N == 6 else 15)
    return dict(
        nplayers=N, nsides={2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[N], hand_size=hs,
        upcard_rewind=int(opts["upcard_rewind"]), always_frozen=int(opts["pile_model"] == "always_frozen"),
        seq_top_take=int(opts["sequence_top_card_take"]), red3_manual=int(opts["red_three_mode"] == "manual"),
        red3_hand_750=int(opts["red3_in_hand_penalty"] == "per_player_750"),
        red3_six_600=int(opts["red3_unqualified"] == "dutch"),
        dutch_groups=int(opts["group_wild_rule"] == "dutch"),
        woc=("allowed", "not_onto_natural", "never").index(opts["wild_onto_canasta"]),
        table_hoyle=int(opts["initial_meld_table"] == "hoyle"),
        penalize=int(opts["insufficient_initial_meld"] == "penalize"),
        go_out_query=int(opts["allow_go_out_query"]), min_canastas=opts["going_out_min_canastas"],
        target=opts["target_score"], concealed_bonus=opts["concealed_bonus"],
        match=int(opts["scope"] == "match"))

cdef void fill_config(SBConfig* c, dict f):
    c.nplayers = f["nplayers"]; c.nsides = f["nsides"]; c.hand_size = f["hand_size"]
    c.upcard_rewind = f["upcard_rewind"]; c.always_frozen = f["always_frozen"]
    c.seq_top_take = f["seq_top_take"]; c.red3_manual = f["red3_manual"]
    c.red3_hand_750 = f["red3_hand_750"]; c.red3_six_600 = f["red3_six_600"]
    c.dutch_groups = f["dutch_groups"]; c.woc = f["woc"]; c.table_hoyle = f["table_hoyle"]
    c.penalize = f["penalize"]; c.go_out_query = f["go_out_query"]; c.min_canastas = f["min_canastas"]
    c.target = f["target"]; c.concealed_bonus = f["concealed_bonus"]; c.match = f["match"]


cdef class SambaSpec(GameSpec):
    cdef SBConfig c

    def __init__(self, dict opts):
        fill_config(&self.c, config_from_options(opts))
        self.vt.init = sb_init
        self.vt.current_player = sb_current_player
        self.vt.legal = sb_legal
        self.vt.apply = sb_apply
        self.vt.is_terminal = sb_is_terminal
        self.vt.returns = sb_returns
        self.vt.observe = sb_observe
        self.vt.resample = sb_resample
        self.vt.greedy = sb_greedy
        self.vt.metrics = sb_metrics
        self.install("samba", &self.c, self.c.nplayers, SB_NUM_ACTIONS, sizeof(SBState), OBS_SIZE, METRICS,
                     "none", opts)

    # ---- strings --------------------------------------------------------------------------
    def action_string(self, State s, int a):
        return action_name(a)

    def parse_action(self, State s, str text):
        return parse_action_text(text)

    def hand_strings(self, State s, int p):
        return hand_list(&(<SBState*>s.data).hand[p])

    def phase_name(self, State s):
        return PHASES[(<SBState*>s.data).phase]

    @property
    def deck_size(self):
        return SB_DECK

    def card_total(self, State s):
        """Cards in hands, staged, melds, exposed red threes, the pile (and a top card being
        taken) and the stock: 162 when every kind has its 3 copies (6 jokers), else -total."""
        cdef SBState* st = <SBState*>s.data
        cdef int tot[SB_KINDS]
        cdef int i, k, q, side
        for k in range(SB_KINDS):
            tot[k] = 0
        for q in range(self.c.nplayers):
            count_into(&st.hand[q], tot)
        count_into(&st.stage.cards, tot)
        count_into(&st.aside, tot)
        for side in range(self.c.nsides):
            count_into(&st.red3[side], tot)
            for i in range(SB_MAXMELDS):
                if st.melds[side][i].type != MT_NONE:
                    count_into(&st.melds[side][i].cards, tot)
        for i in range(st.npile):
            tot[st.pile[i]] += 1
        for i in range(st.nstock):
            tot[st.stock[i]] += 1
        if st.take_top >= 0:
            tot[st.take_top] += 1
        n = 0
        ok = tot[SB_JK] == 6
        for k in range(SB_KINDS):
            n += tot[k]
            if k < 52 and tot[k] != 3:
                ok = False
        return n if ok else -n

    def view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef SBState* st = <SBState*>s.data
        N = self.c.nplayers
        melds = []
        for side in range(self.c.nsides):
            row = []
            for i in range(SB_MAXMELDS):
                if st.melds[side][i].type != MT_NONE:
                    row.append({"slot": i, "type": ("", "group", "sequence", "black3")[st.melds[side][i].type],
                                "cards": hand_list(&st.melds[side][i].cards),
                                "pending": bool(st.melds[side][i].pending)})
            melds.append(row)
        return {
            "phase": PHASES[st.phase], "turn": st.turn, "mover": st.mover, "dealer": st.dealer,
            "hands": [hand_list(&st.hand[q]) for q in range(N)],
            "known": [hand_list(&st.known[q]) for q in range(N)],
            "staged": hand_list(&st.stage.cards),
            "take_top": None if st.take_top < 0 else kind_str(st.take_top),
            "melds": melds,
            "red3": [hand_list(&st.red3[side]) for side in range(self.c.nsides)],
            "opened": [bool(st.opened[side]) for side in range(self.c.nsides)],
            "requirement": [req_of(st, &self.c, side) for side in range(self.c.nsides)],
            "canastas": [canastas(st, side) for side in range(self.c.nsides)],
            "pile": [kind_str(st.pile[i]) for i in range(st.npile)],
            "stock": [kind_str(st.stock[i]) for i in range(st.nstock)],
            "pile_take": st.pile_take, "merge_from": None if st.merge_from < 0 else st.merge_from,
            "partner_said_no": bool(st.partner_no), "must_go_out": bool(st.must_out),
            "end_type": END_TYPES[st.end_type], "out_seat": None if st.out_seat < 0 else st.out_seat,
            "deal_scores": [st.last[side] for side in range(self.c.nsides)],
            "cum_scores": [st.cum[side] for side in range(self.c.nsides)], "deal_no": st.deal_no,
        }

    def render(self, State s):
        v = self.view(s)
        N = self.c.nplayers
        lines = [f"Samba  {N} players  phase={v['phase']}  dealer={v['dealer']}  stock={len(v['stock'])}  "
                 f"pile={len(v['pile'])} top={v['pile'][len(v['pile']) - 1] if v['pile'] else '-'}  scores={v['cum_scores']}"]
        for p in range(N):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p} (side {p % self.c.nsides}): {' '.join(v['hands'][p])}")
        for side in range(self.c.nsides):
            ms = "  ".join(f"[{m['slot']}{'?' if m['pending'] else ''}] {' '.join(m['cards'])}" for m in v["melds"][side])
            lines.append(f"side {side}: red3 {len(v['red3'][side])}  {ms}")
        if v["staged"] or v["take_top"]:
            lines.append(f"staged: {' '.join(v['staged'])}" + (f"  on top card {v['take_top']}" if v["take_top"] else ""))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, *, dealer=0, turn=None, pile=(), melds=None, opened=None, red3=None,
                 cum=None, stock=None, phase="draw", first_turn_done=True):
        """A state built from the given facts (tests and analysis): hands (card strings per
        seat), the pile (bottom first, top last), each side's melds (lists of card strings; all
        open unless `opened` says otherwise), exposed red threes per side, cumulative scores per
        side, the stock (top last; default: every card not placed, in display order), the seat
        to act (default dealer+1) and its phase ("draw" or "meld"). Marked not replayable."""
        cdef State s
        cdef SBState* st
        cdef int8_t cnt[SB_KINDS]
        cdef Meld m
        cdef Hand h
        N = self.c.nplayers
        S = self.c.nsides
        if not isinstance(hands, (list, tuple)) or len(hands) != N:
            raise ConfigError(f"samba: need {N} hands (lists of card strings)")
        dealer = check_int(dealer, "samba: dealer", 0, N - 1, ConfigError)
        turn = check_int((dealer + 1) % N if turn is None else turn, "samba: turn", 0, N - 1, ConfigError)
        if phase not in ("draw", "meld"):
            raise ConfigError("samba: phase must be 'draw' or 'meld'")
        used = [0] * SB_KINDS
        def take(cards, what):
            if isinstance(cards, str):
                raise ParseError(f"samba: {what} must be a list of card strings")
            ks = [parse_kind(t) for t in cards]
            for k in ks:
                used[k] += 1
            return ks
        hk = [take(h_, f"hand {q}") for q, h_ in enumerate(hands)]
        pk = take(pile, "the pile")
        melds = melds or [[] for _ in range(S)]
        if len(melds) != S:
            raise ConfigError(f"samba: melds: one list per side ({S})")
        mk = [[take(m_, "a meld") for m_ in side_melds] for side_melds in melds]
        red3 = red3 or [[] for _ in range(S)]
        rk = [take(r_, "red threes") for r_ in red3]
        for side in range(S):
            if any(not is_red3(k) for k in rk[side]):
                raise ConfigError("samba: red3 lists hold only 3H / 3D")
        sk = None if stock is None else take(stock, "the stock")
        for k in range(SB_KINDS):
            if used[k] > (6 if k == SB_JK else 3):
                raise ConfigError(f"samba: more copies of {kind_str(k)} than the 162-card deck holds")
        if sk is None:
            sk = []
            for k in reversed(DISPLAY_ORDER):
                sk.extend([k] * ((6 if k == SB_JK else 3) - used[k]))
        opened = [bool(mk[side]) for side in range(S)] if opened is None else [bool(x) for x in opened]
        cum = [0] * S if cum is None else list(cum)
        if len(opened) != S or len(cum) != S:
            raise ConfigError(f"samba: opened and cum need one entry per side ({S})")
        cum = [check_int(x, "samba: cum", -10**8, 10**8, ConfigError) for x in cum]
        s = self._scenario_state()
        st = <SBState*>s.data
        st.dealer = dealer
        for q in range(SB_MAXP):
            hand_clear(&st.hand[q])
            hand_clear(&st.known[q])
            st.first_done[q] = 1 if first_turn_done else 0
            st.melded[q] = 0
        for side in range(SB_MAXS):
            hand_clear(&st.red3[side])
            memset(&st.melds[side][0], 0, sizeof(Meld) * SB_MAXMELDS)
            st.opened[side] = 0
            st.req_pen[side] = 0
            st.cum[side] = 0
            st.last[side] = 0
        staged_clear(&st.stage)
        hand_clear(&st.aside)
        for k in range(SB_KINDS):
            for i in range((6 if k == SB_JK else 3) - used[k]):
                add_kind(&st.aside, k)
        for q in range(N):
            for k in hk[q]:
                add_kind(&st.hand[q], k)
        for side in range(S):
            st.opened[side] = opened[side]
            st.cum[side] = cum[side]
            for k in rk[side]:
                add_kind(&st.red3[side], k)
            for i, ks in enumerate(mk[side]):
                for k in range(SB_KINDS):
                    cnt[k] = 0
                hand_clear(&h)
                for k in ks:
                    cnt[k] += 1
                    add_kind(&h, k)
                t = sb_meld_of(cnt, &m)
                if t <= 0 or (t == MT_GROUP and not sb_group_ok(m.nat, m.wild, &self.c)):
                    raise ConfigError(f"samba: {[kind_str(k) for k in ks]} is not a valid meld")
                if i >= SB_MAXMELDS:
                    raise ConfigError(f"samba: at most {SB_MAXMELDS} melds per side")
                m.cards = h
                m.pending = 0
                st.melds[side][i] = m
        st.npile = len(pk)
        st.pile_frz = 0
        for i, k in enumerate(pk):
            st.pile[i] = k
            if is_wild(k) or is_red3(k):
                st.pile_frz += 1
        st.nstock = len(sk)
        for i, k in enumerate(sk):
            st.stock[i] = k
        st.batch_value = 0
        st.end_type = 0
        st.out_seat = -1
        reset_turn(st, turn)
        if phase == "meld":
            st.phase = PH_MELD
            st.drew = 1
        elif st.nstock == 0:
            start_turn(st, &self.c, turn)
        return s


def action_name(int a):
    if a < A_DISCARD:
        return "+" + kind_str(a)
    if a < A_DRAW:
        return "discard " + kind_str(a - A_DISCARD)
    names = {A_DRAW: "draw", A_TAKE_PAIR: "take pair", A_DECLINE: "decline", A_MELD: "meld",
             A_FAIL: "fail", A_RED3: "red3 3H", A_RED3 + 1: "red3 3D", A_ASK: "ask", A_YES: "yes",
             A_NO: "no"}
    if a in names:
        return names[a]
    for base, word in ((A_MERGE_TO, "into"), (A_MERGE_FROM, "merge"), (A_TAKE_SEQ, "take seq"),
                       (A_TAKE_LAYOFF, "take layoff"), (A_LAYOFF, "layoff")):
        if a >= base:
            return f"{word} {a - base}"
    raise ParseError(f"samba: no action {a}")

ACTIONS = {"+": A_ADD, "discard": A_DISCARD, "draw": A_DRAW, "take pair": A_TAKE_PAIR, "decline": A_DECLINE,
           "meld": A_MELD, "fail": A_FAIL, "red3 3H": A_RED3, "red3 3D": A_RED3 + 1, "ask": A_ASK, "yes": A_YES,
           "no": A_NO, "layoff": A_LAYOFF, "take layoff": A_TAKE_LAYOFF, "take seq": A_TAKE_SEQ,
           "merge": A_MERGE_FROM, "into": A_MERGE_TO}   # first action of each range (move_to_actions)

_WORDS = {"draw": A_DRAW, "take pair": A_TAKE_PAIR, "decline": A_DECLINE, "meld": A_MELD, "fail": A_FAIL,
          "red3 3h": A_RED3, "red3 3d": A_RED3 + 1, "ask": A_ASK, "yes": A_YES, "no": A_NO}
_SLOTTED = (("into", A_MERGE_TO), ("merge", A_MERGE_FROM), ("take seq", A_TAKE_SEQ),
            ("take layoff", A_TAKE_LAYOFF), ("layoff", A_LAYOFF))

def parse_action_text(str text):
    """Inverse of action_name: '+KS', 'discard 10H', 'draw', 'take pair', 'decline', 'meld',
    'fail', 'red3 3H', 'ask', 'yes', 'no', 'layoff 3', 'take layoff 0', 'take seq 1',
    'merge 2', 'into 5'."""
    t = " ".join(text.strip().lower().split())
    if t in _WORDS:
        return _WORDS[t]
    try:
        if t.startswith("+"):
            return A_ADD + parse_kind(t[1:])
        if t.startswith("discard "):
            return A_DISCARD + parse_kind(t[8:])
        for word, base in _SLOTTED:
            if t.startswith(word + " "):
                i = int(t[len(word) + 1:])
                if 0 <= i < SB_MAXMELDS:
                    return base + i
    except (ParseError, ValueError):
        pass
    raise ParseError(f"samba: cannot parse action {text!r}; actions: '+KS' (stage a card), 'discard KS', "
                     f"'draw', 'take pair', 'decline', 'meld', 'fail', 'red3 3H', 'ask', 'yes', 'no', "
                     f"'layoff i', 'take layoff i', 'take seq i', 'merge i', 'into i' (i = meld slot "
                     f"0..{SB_MAXMELDS - 1})")


# ---- oracles' kernels (cardsim.games.samba parses and validates first) -------------------------
cdef void counts_in(list kinds, int8_t* cnt):
    for k in range(SB_KINDS):
        cnt[k] = 0
    for k in kinds:
        cnt[k] += 1

def oracle_classify(list kinds, bint going_out, dict opts):
    """(type code, meld n, nat, wild) or (negative reason code, ...) for one meld's cards."""
    cdef SBConfig c
    cdef int8_t cnt[SB_KINDS]
    cdef Meld m
    fill_config(&c, config_from_options(opts))
    counts_in(kinds, cnt)
    t = sb_meld_of(cnt, &m)
    if t == MT_GROUP and not sb_group_ok(m.nat, m.wild, &c):
        return (-4, m.n, m.nat, m.wild)
    if t <= 0:
        return (t, 0, 0, 0)
    return (t, m.n, m.nat, m.wild)

cdef int build_meld(list kinds, Meld* m, SBConfig* c) except -1:
    cdef int8_t cnt[SB_KINDS]
    counts_in(kinds, cnt)
    t = sb_meld_of(cnt, m)
    if t <= 0 or (t == MT_GROUP and not sb_group_ok(m.nat, m.wild, c)):
        raise ParseError(f"samba: {[kind_str(k) for k in kinds]} is not a valid meld")
    hand_clear(&m.cards)
    for k in kinds:
        add_kind(&m.cards, k)
    m.pending = 0
    return 0

def oracle_can_take_pile(list hand, list pile, list side_melds, bint opened, int side_score, dict opts):
    """can_take_pile through the engine's own T1 legality: a 2-player scenario where seat 0's side
    holds the melds, the pile and the score; True if TAKE_PAIR or TAKE_LAYOFF is legal."""
    cdef SBConfig c
    cdef SBState st
    cdef ActionSet out
    cdef Meld m
    o = dict(opts)
    o["players"] = 2
    o["scope"] = "deal"
    fill_config(&c, config_from_options(o))
    memset(&st, 0, sizeof(SBState))
    for k in hand:
        add_kind(&st.hand[0], k)
    for i, ks in enumerate(side_melds):
        build_meld(ks, &m, &c)
        st.melds[0][i] = m
    for i, k in enumerate(pile):
        st.pile[i] = k
        if is_wild(k) or is_red3(k):
            st.pile_frz += 1
    st.npile = len(pile)
    st.nstock = 1
    st.opened[0] = opened
    st.cum[0] = side_score
    st.phase = PH_DRAW
    st.take_top = -1
    st.merge_from = -1
    draw_legal(&st, &c, &out)
    if as_has(&out, A_TAKE_PAIR):
        return True
    for i in range(SB_MAXMELDS):
        if as_has(&out, A_TAKE_LAYOFF + i):
            return True
    return False

def oracle_score_side(list melds, list hands, int red_threes, bint went_out, dict opts):
    """score_side through the engine's side_score on a finished 2-player state."""
    cdef SBConfig c
    cdef SBState st
    cdef Meld m
    o = dict(opts)
    o["players"] = 2 * len(hands) if len(hands) in (1, 2) else 2
    if len(hands) == 2:
        o["players"] = 4
    o["scope"] = "deal"
    fill_config(&c, config_from_options(o))
    memset(&st, 0, sizeof(SBState))
    for i, ks in enumerate(melds):
        build_meld(ks, &m, &c)
        st.melds[0][i] = m
    for j, h in enumerate(hands):
        q = j * c.nsides
        st.first_done[q] = 1
        for k in h:
            add_kind(&st.hand[q], k)
    for i in range(red_threes):
        add_kind(&st.red3[0], 14 if i % 2 == 0 else 27)
    st.end_type = 1 if went_out else 2
    st.out_seat = 0 if went_out else -1
    st.melded_at_start = 1
    st.mover = 1
    return side_score(&st, &c, 0)

def oracle_req(int cum, bint hoyle):
    return sb_req(cum, hoyle)
