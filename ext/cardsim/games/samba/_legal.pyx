"""Samba legal-move generation (docs/rules/samba.md §4): the actions legal in the meld phase (the
factored moves: ADD through the core staged-move mechanism with a completability callback, MELD, LAYOFF, MERGE, FAIL, ASK, discards, manual red threes) and in the
partner's answer. Every legal action can be completed into a legal whole move: an ADD is offered
only if the stage with one more card of that kind can still become a legal meld or lay-off under
the hand guard (HG) and, for an unopened side, an initial batch reaching the requirement
(`add_completable`, with the completion searches of `_rules` and `_opening`). The actions legal
at T1 (draw, take the pile) are `_state`'s draw_legal (the state machine needs them: the end of
a deal at an empty stock).

Speed without changing the sets: per legal set the hand and the stage are read once, and the
side's melds come indexed with the state (SBState.mi, recomputed when they change); the
candidates the stage's shape cannot take are masked out first (shape_mask; for a pile group the
top's rank); an opened side decides most ADDs in closed form on the packed hand's bit masks
(_masks: with nothing staged and >= 5 cards in hand per class, opened_empty_adds; with a
GROUP-shaped stage per class on the counts of its rank and of the wilds, opened_group_adds; a
SEQUENCE's next cards, opened_seq_adds; the group on a taken top card per class), the rest
through the callback (where a one-card stage's GROUP parts are answered once per rank and once
for the wilds, single_ok), so the hand's count vector is filled only when a search reads it
(ensure_h); an unopened side's ADDs a batch already shows completable are accepted without the
callback, none is searched when sb_value_bound is below the requirement, the naturals of a
one-suit stage that no SEQUENCE can take are refused by their ranks (seq_dead), and the deuces
and a rank's naturals outside every run of their suit are one class each, decided by one search
(opening_classes; _testing.legal_generic checks every candidate on its own); the staged cards'
meld shape comes from the stage's bits (sb_meld_shape).

An opened side's commonest situations have their own generators (all in _legal_paths.pxi;
meld_rules picks them, meld_rules_generic does the rest, tests/games/samba/test_legal_paths.py
compares the two): a GROUP-shaped stage or one wild staged (group_stage_legal), one natural
staged (single_stage_legal), naturals of one suit each once (seq_stage_legal), nothing staged
under automatic red threes and no go-out query (empty_stage_legal with >= 5 cards in hand,
short_stage_legal with fewer), the group on a taken top card (pile_stage_legal). The generic
generator keeps its own closed forms and callback, so that it stays an independent reference.

Each shortcut only skips work whose answer is known (each says why), so the sets equal those of
the plain per-candidate searches (tests/games/samba/test_agents.py pins them;
tests/games/samba/test_moves.py checks them against brute force).

The state struct, the action layout and the inline helpers are in `_state.pxd`; the action
space is described in the module docstring of `_state.pyx`.
"""
from libc.string cimport memset
from cardsim.core._types cimport int8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_ctz, cs_popcount, bit_high
from cardsim.core._hand cimport Hand
from cardsim.core._staged cimport Staged, staged_legal_adds
from cardsim.core._actions cimport ActionSet, as_add, as_add_mask, as_clear, as_remove
from cardsim.games.samba._rules cimport (
    sb_size, sb_size_in,
    SBConfig, Meld, SB_KINDS, SB_JK, SB_JK2, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ, MT_BLACK3, sb_card_value,
    sb_group_ok, sb_layoff_ok, sb_layoff_ok_n, sb_merge_ok, sb_is_canasta, sb_counts,
    sb_complete_new, sb_complete_new_n, sb_complete_layoff, group_completion, seq_completion, kind_of, rank_of, suit_of, is_wild,
    is_natural, is_black3, is_red3, sb_hg_ok, sb_nat_of_rank, sb_pile_group_ok, sb_wilds, sb_total, sb_meld_shape,
    rank_mask, wild_kinds, nat_kinds, run_kinds, wild_ids, ranks_of, woc_blocks)
from cardsim.games.samba._going_out cimport sb_go_out_ok, sb_go_out_placed, sb_go_out_merged, sb_canasta_bound
from cardsim.games.samba._units cimport sb_best_value
from cardsim.games.samba._opening cimport sb_value_bound, sb_opening_ok, sb_opening_ok_si, sb_opening_out, opening_ok
from cardsim.games.samba._masks cimport (opened_empty_adds, opened_group_adds, rank_group_adds, opened_seq_adds,
                                         class_ok, seq_shape, seq_gap)
from cardsim.games.samba._state cimport (
    SBState, MeldIndex, NW, A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_DECLINE, A_MELD, A_FAIL, A_RED3, A_ASK, A_YES, A_NO,
    A_LAYOFF, A_TAKE_LAYOFF, A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO, PH_DRAW, PH_MELD, PH_ANSWER, side_of,
    count_kind, canastas, req_of, blocked_top, pile_rest_in, may_out, pending_batch, draw_legal, cards_value,
    merge_hg_ok, merge_pairs)

cdef inline int pile_all_in(const SBState* s, const SBConfig* c) noexcept nogil:
    """Cards the hand gains when the whole pile (top already removed) joins it (pile_rest_in)."""
    cdef int i, n = 0
    if c.red3_manual or s.pile_frz == 0:
        return s.npile
    for i in range(s.npile):
        if c.red3_manual or not is_red3(s.pile[i]):
            n += 1
    return n


ctypedef struct AddCtx:
    const SBState* s
    const SBConfig* c
    const Hand* stage        # the staged cards before the add
    int mode                 # ADD_* below
    int side                 # the side of the seat to act
    int C                    # the side's canastas
    int need                 # initial-meld value still needed
    int extra                # cards joining the hand after the batch (the rest of a taken pile)
    bint mo                  # may go out (the partner has not said no)
    int kneed                # canastas an initial batch still needs to empty the hand
    int8_t* H                # the hand's counts (each check moves the added card into S and back)
    bint hready              # H filled (ensure_h)
    int8_t* S                # the staged cards' counts
    uint64_t smask           # bit k: kind k is staged
    int nS                   # cards staged
    int hsize                # cards in hand
    int srank                # rank of the staged naturals: -1 none, -2 several
    int ssuit                # suit of the staged naturals: -1 none, -2 several
    bint sdup                # a natural is staged twice
    int sw                   # wilds staged
    int nb                   # black threes staged
    int r3                   # red threes staged
    int vbound               # sb_value_bound of the stage and the hand where needed, else need (legal_adds)
    int cbound               # sb_canasta_bound of the same cards (-1 until needed)
    int sval                 # the staged cards' value (-1 until needed: batch_ok)
    int8_t grp_memo[13]      # opened side, empty stage: a natural of rank r's GROUP parts (single_ok), -1 unknown
    int8_t wild_memo         # ... from a wild (-1 unknown)
    uint64_t open_yes        # unopened side: kinds a batch already found shows completable (sb_opening_ok's wit)
    const MeldIndex* mi      # the side's melds

cdef enum:
    ADD_PILE = 1             # the group on a taken top card
    ADD_OPENING = 2          # an unopened side's batch that must reach the requirement
    ADD_PENALIZE = 3         # an unopened side's batch under insufficient_initial_meld=penalize
    ADD_OPENED = 4           # an opened side: new melds and lay-offs

cdef bint add_completable(const void* ctx, const Staged* play) noexcept nogil:
    """The core staged-move callback: can the stage `play` (the current stage plus one card) be
    completed into a legal whole move from the rest of the hand (HG, the requirement)? The added
    kind is the one identity whose bits differ from the stage; the check runs on the context's
    counts with that card moved from H to S (restored before returning)."""
    cdef AddCtx* x = <AddCtx*>ctx           # our own context: S and H are restored below
    cdef uint64_t d = ((play.cards.layer[0] ^ x.stage.layer[0]) | (play.cards.layer[1] ^ x.stage.layer[1])
                       | (play.cards.layer[2] ^ x.stage.layer[2]) | (play.cards.layer[3] ^ x.stage.layer[3]))
    cdef int added
    if d == 0:
        return False                            # no copy more (a fifth staged joker identity)
    added = kind_of(cs_ctz(d))
    if x.H[added] == 0:
        return False
    return check_one(x, added)

cdef inline bint batch_out_ok(AddCtx* x, const int8_t* S, const int8_t* H, int min_nat) noexcept nogil:
    """sb_opening_out(S, H, x.need, min_nat, x.kneed) for a candidate: its first test, the
    canasta bound of the cards S + H, is the same for every candidate of the legal set (each
    moves one card from H to S; a pile take's top card is in S for all of them), so it is
    computed once (x.cbound)."""
    if x.kneed > 0:
        if x.cbound < 0:
            x.cbound = sb_canasta_bound(S, H)
        if x.cbound < x.kneed:
            return False        # sb_opening_out's own first test
    return sb_opening_out(S, H, x.need, min_nat, x.kneed, x.c) != 0

cdef inline bint batch_ok(AddCtx* x, const int8_t* S, const int8_t* H, int min_nat, bint rest_too,
                          int added) noexcept nogil:
    """opening_ok (_opening.pxd) for a candidate, with batch_out_ok for the batch emptying the
    hand. added >= 0 (an initial batch's ADD: S is the stage plus that kind): the staged cards'
    kinds, number and value and the hand's size come from the packed stage and hand
    (sb_opening_ok_si; the stage's value once per legal set, x.sval) instead of from S and H."""
    cdef bint ok
    if added >= 0:
        if x.sval < 0:
            x.sval = cards_value(&x.s.stage.cards)
        ok = sb_opening_ok_si(S, x.smask | (<uint64_t>1 << added), x.nS + 1, x.sval + sb_card_value(added), H,
                              x.hsize - 1, x.need, x.extra, min_nat, x.c, &x.open_yes, rest_too) != 0
    else:
        ok = sb_opening_ok(S, H, x.need, x.extra, min_nat, x.c, &x.open_yes, rest_too) != 0
    return ok or (x.mo and batch_out_ok(x, S, H, min_nat))

cdef inline int merge_key(int key, int v) noexcept nogil:
    """A rank or suit shared by the staged naturals: -1 none yet, -2 several."""
    return v if key == -1 else (key if key == v else -2)

cdef inline uint64_t shape_mask(const AddCtx* x) noexcept nogil:
    """Exact pre-filter of the ADD checks, as a mask (bits 0..52) of the kinds whose add leaves a
    stage of a meld's shape: all black threes, or no three and naturals of one rank (a GROUP
    shape, wilds allowed) or of one suit, each once, without wilds (a SEQUENCE shape). A new
    meld, a lay-off and an initial meld each need one of these shapes, so the completion searches
    would answer no for any other kind (add_check therefore sees only these candidates)."""
    cdef uint64_t wilds = rank_mask(0) | (<uint64_t>1 << SB_JK)
    cdef uint64_t nats = ((<uint64_t>1 << 52) - 1) & ~(rank_mask(0) | rank_mask(1))
    cdef uint64_t m = 0
    if x.r3:
        return 0
    if x.nS == 0:                               # one card: anything but a red three
        return ((<uint64_t>1 << SB_KINDS) - 1) & ~((<uint64_t>1 << 14) | (<uint64_t>1 << 27))
    if x.nb:                                    # black threes: only more black threes
        return ((<uint64_t>1 << 1) | (<uint64_t>1 << 40)) if x.nb == x.nS else 0
    if x.srank != -2:                           # a group shape: naturals of the rank (any: none staged), wilds
        m |= wilds | (nats if x.srank == -1 else rank_mask(x.srank))
    if x.sw == 0 and not x.sdup and x.ssuit >= 0:   # a sequence shape: more naturals of the suit, once each
        m |= (nats & (((<uint64_t>1 << 13) - 1) << (13 * x.ssuit))) & ~x.smask
    return m

cdef inline uint64_t opening_mask(const int8_t* H, uint64_t held) noexcept nogil:
    """With nothing staged and the side not opened, the kinds an initial-meld search could start
    from (a mask, bits 0..52; exact pre-filter): a natural of a rank held three times, or twice
    with a wild in hand (a GROUP), or inside a run of three ranks of its suit (a SEQUENCE); a wild
    if some rank is held twice. A one-card stage of any other kind completes to no meld."""
    cdef uint64_t m = 0
    cdef int r, su, k, lo, hi, nr, w = sb_wilds(H)
    cdef bint pair = False
    for r in range(2, 13):
        nr = sb_nat_of_rank(H, r)
        if nr >= 2:
            pair = True
            if nr >= 3 or w > 0:
                m |= rank_mask(r)
    m |= run_kinds(held)
    if pair:
        m |= rank_mask(0) | (<uint64_t>1 << SB_JK)
    return m

cdef inline bint check_one(AddCtx* x, int k) noexcept nogil:
    """add_check for the candidate kind k (held), moved from x.H to x.S and back."""
    cdef bint ok
    x.S[k] += 1
    x.H[k] -= 1
    ok = add_check(x, k)
    x.S[k] -= 1
    x.H[k] += 1
    return ok

cdef bint group_layoff_any(AddCtx* x, int r) noexcept nogil:
    """A GROUP of the side (of rank r; any rank when r < 0) can take the one-card stage x.S."""
    cdef uint32_t g = x.mi.rank_grps[r] if r >= 0 else x.mi.grps
    cdef const Meld* m
    while g:
        m = &x.s.melds[x.side][cs_ctz(g)]
        g &= g - 1
        if sb_complete_layoff(m, x.S, x.H, 1, x.hsize - 1, x.C, x.mo, x.c):
            return True
    return False

cdef bint single_ok(AddCtx* x, int k) noexcept nogil:
    """add_check of an opened side for a stage of the one card k (a natural or a wild, already
    moved from x.H to x.S): a new meld (sb_complete_new_n) or a lay-off. The GROUP parts (a new
    GROUP, a lay-off onto a GROUP) depend only on k's rank, and for a wild on nothing (the hand
    differs only in which card of that rank, or which wild, was moved), so they are computed once
    per rank and once for the wilds per legal set; then the SEQUENCE parts of a natural."""
    cdef const int8_t* H = x.H
    cdef int r, j
    cdef const Meld* m
    if is_wild(k):
        if x.wild_memo < 0:
            x.wild_memo = 0
            if x.mi.slot:
                for r in range(2, 13):
                    if group_completion(0, 1, sb_nat_of_rank(H, r), sb_wilds(H), 0, 0, 0, x.hsize - 1, x.C, 0,
                                        True, x.mo, x.c):
                        x.wild_memo = 1
                        break
            if not x.wild_memo and group_layoff_any(x, -1):
                x.wild_memo = 1
        return x.wild_memo
    r = rank_of(k)
    if x.grp_memo[r] < 0:
        x.grp_memo[r] = ((x.mi.slot and group_completion(1, 0, sb_nat_of_rank(H, r), sb_wilds(H), 0, 0, 0,
                                                      x.hsize - 1, x.C, 0, True, x.mo, x.c) != 0)
                         or ((x.mi.grp_ranks >> r) & 1 and group_layoff_any(x, r)))
    if x.grp_memo[r]:
        return True
    if x.mi.slot and seq_completion(suit_of(k), r, r, 1, 1, H, x.hsize - 1, x.C, 0, x.mo, x.c):
        return True
    for j in range(x.mi.nlive - x.mi.ngrp):
        m = &x.s.melds[x.side][x.mi.oth[j]]
        if m.type == MT_SEQ and m.key == suit_of(k) and sb_complete_layoff(m, x.S, H, 1, x.hsize - 1, x.C,
                                                                           x.mo, x.c):
            return True
    return False

cdef bint add_check(AddCtx* x, int added) noexcept nogil:
    """add_completable's rule, with `added` already moved from x.H to x.S."""
    cdef const SBState* s = x.s
    cdef const SBConfig* c = x.c
    cdef int8_t* S = x.S
    cdef const int8_t* H = x.H
    cdef int j, r, sn, side = x.side
    cdef bint isnat, ok
    cdef int srank, nS, hsize
    cdef uint32_t g
    cdef const Meld* m
    if x.mode == ADD_PILE:
        r = rank_of(s.take_top)
        isnat = is_natural(added) and rank_of(added) == r
        sn = sb_nat_of_rank(S, r) - isnat       # staged naturals of the rank before the add
        if not isnat and not (is_wild(added) and sn >= 2):
            return False        # the natural pair is staged first
        if s.opened[side]:
            return sb_pile_group_ok(sn + isnat, sb_wilds(S), sb_nat_of_rank(H, r),
                                    sb_wilds(H), x.hsize - 1, x.extra, x.C, x.mo, c) != 0
        if (x.open_yes >> added) & 1:
            return True         # a batch found for another candidate holds it in the group
        if x.vbound < x.need:
            return False        # no batch reaches the requirement (exact: sb_value_bound)
        S[s.take_top] += 1
        ok = batch_ok(x, S, H, 3, False, -1)
        S[s.take_top] -= 1
        return ok
    if x.mode == ADD_OPENING or x.mode == ADD_PENALIZE:
        if not (is_natural(added) or is_wild(added)) or not x.mi.slot:
            return False
        if x.mode == ADD_PENALIZE:
            return sb_complete_new(S, H, 0, False, c) != 0 or (x.mo and batch_out_ok(x, S, H, 0))
        if (x.open_yes >> added) & 1:
            return True         # a batch found for another candidate holds it (where it may stand)
        if x.vbound < x.need:
            return False        # no batch reaches the requirement (exact: sb_value_bound)
        return batch_ok(x, S, H, 0, x.nS == 0, added)
    nS = x.nS + 1
    hsize = x.hsize - 1
    if x.nS == 0 and not is_black3(added):
        return single_ok(x, added)
    if x.mi.slot and sb_complete_new_n(S, x.smask | (<uint64_t>1 << added), H, nS, hsize, x.C, x.mo, c):
        return True
    # lay-offs: only the melds the stage can still fit (its rank, its suit, black threes)
    srank = merge_key(x.srank, rank_of(added)) if is_natural(added) else x.srank
    # (any order: the answer is whether one of them can take the stage)
    if srank != -2 and not is_black3(added):
        g = x.mi.rank_grps[srank] if srank >= 0 else x.mi.grps
        while g:
            m = &s.melds[side][cs_ctz(g)]
            g &= g - 1
            if sb_complete_layoff(m, S, H, nS, hsize, x.C, x.mo, c):
                return True
    for j in range(x.mi.nlive - x.mi.ngrp):
        m = &s.melds[side][x.mi.oth[j]]
        if m.type == MT_SEQ and (not is_natural(added) or suit_of(added) != m.key):
            continue
        if m.type == MT_BLACK3 and not is_black3(added):
            continue
        if sb_complete_layoff(m, S, H, nS, hsize, x.C, x.mo, c):
            return True
    return False

cdef inline uint64_t seq_dead(const AddCtx* x, uint64_t m, uint64_t held) noexcept nogil:
    """An unopened side's stage of naturals of one suit, each once, no wild (x.nS >= 1): the
    candidates of m that only a SEQUENCE could take (naturals of the suit of a rank not staged:
    with the staged rank(s) they are two ranks, so no GROUP) and that no SEQUENCE can take (the
    staged ranks and the candidate's span more than 7 ranks, a rank between is not in hand, or
    two ranks with neither neighbour in hand). Every search on them says no (seq_ext's first
    tests, in opening_fast, x_opening and sb_opening_out alike): exact, _masks.seq_shape."""
    cdef uint64_t c = m & nat_kinds() & (<uint64_t>0x1FFF << (13 * x.ssuit)) & ~x.smask, dead = 0
    cdef uint32_t R = <uint32_t>((x.smask >> (13 * x.ssuit)) & 0x1FFF)
    cdef uint32_t Hs = <uint32_t>((held >> (13 * x.ssuit)) & 0x1FFF), gap
    cdef int k
    if x.srank >= 0:
        c &= ~rank_mask(x.srank)            # the staged rank's other copies: a GROUP may take them
    while c:
        k = cs_ctz(c)
        c &= c - 1
        if seq_shape(R | (<uint32_t>1 << (k % 13)), Hs, &gap) < 0:
            dead |= <uint64_t>1 << k
    return dead

cdef inline uint64_t opening_classes(AddCtx* x, uint64_t* cand, uint64_t held) noexcept nogil:
    """An unopened side's ADD candidates (*cand) in classes whose answer is one: the deuces, and
    the naturals of one rank in no run of three ranks of their suit among the cards held and
    staged (run_kinds). In a batch completing the stage plus one card k of a class, swap k with
    another card k' of the class held (in another meld, which can only be a GROUP of the rank
    for a natural, or as a wild for a deuce; or unused): every meld keeps its naturals, wilds,
    size and value, and the staged meld now holds k'. So one check (check_one) decides a class
    of two or more; the others stay in *cand. A deuce accepted accepts the joker too: swapped
    with the deuce the same way, the joker adds 30 to the batch's value or moves the deuce's 20
    into the meld that held it (a wild for a wild: every meld stays valid), so the batch still
    reaches the requirement. Returns the accepted kinds."""
    cdef uint64_t m = cand[0], acc = 0, cm, free = m & nat_kinds() & ~run_kinds(held)
    cdef uint32_t todo = ranks_of(free)
    cdef int r
    cm = m & rank_mask(0)
    if cm:
        if check_one(x, cs_ctz(cm)):
            acc |= cm | (m & (<uint64_t>1 << SB_JK))
            m &= ~(<uint64_t>1 << SB_JK)
        m &= ~cm
    while todo:
        r = cs_ctz(todo)
        todo &= todo - 1
        cm = free & rank_mask(r)
        if cm & (cm - 1):
            if check_one(x, cs_ctz(cm)):
                acc |= cm
            m &= ~cm
    cand[0] = m
    return acc

cdef inline void ensure_h(AddCtx* x) noexcept nogil:
    """The hand's counts in x.H, counted on first use (the closed forms do not read them)."""
    if not x.hready:
        sb_counts(&x.s.hand[x.s.turn], x.H)
        x.hready = True

cdef int legal_adds(const SBState* s, const SBConfig* c, int mode, int need, int extra, const MeldIndex* mi,
                    int8_t* H, bint hready, int hsize, int8_t* S, ActionSet* out, uint64_t und,
                    bint classes) noexcept nogil:
    """ADD actions: candidates are the kinds in hand (identity 52 stands for the jokers), kept if
    add_completable says yes (the joker through the core staged-move mechanism, core/_staged.pxd;
    the other kinds by its check_one directly). H: the
    hand's counts, filled here first when needed and not hready (the closed forms of an opened
    side do not read them); S: the stage's counts. The checks move a card between H and S and
    restore it. The callback's context is set up only for the candidates the closed forms leave.
    und: an opened side with nothing staged and >= 5 cards in hand, the candidates
    opened_empty_adds left undecided (the caller added those it accepts). classes: an unopened
    side's candidates decided by seq_dead and opening_classes first (False: each one by its own
    check, the reference _testing.legal_generic runs)."""
    cdef AddCtx x
    cdef uint32_t R
    cdef int r, sn, hn, hw, k
    cdef uint64_t m, b, yes = 0, acc = 0, st = s.stage.cards.layer[0]
    x.side = s.tside
    # the staged kinds (identities 0..51, and 52 for a joker held as identity 52 or 53); the
    # staged naturals' rank and suit (-1 none, -2 several), whether one is staged twice; the
    # wilds, black and red threes staged
    # (nothing staged: all empty, without reading the stage)
    x.nS = s.stage.n
    if x.nS == 0:
        x.smask = 0
        x.srank = -1
        x.ssuit = -1
        x.sdup = False
        x.sw = 0
        x.nb = 0
        x.r3 = 0
    else:
        x.smask = (st & ((<uint64_t>1 << SB_JK) - 1)) | ((((st >> SB_JK) | (st >> SB_JK2)) & 1) << SB_JK)
        m = st & nat_kinds()
        R = ranks_of(m)
        x.srank = -1 if R == 0 else (cs_ctz(R) if R & (R - 1) == 0 else -2)
        x.ssuit = -1 if m == 0 else (cs_ctz(m) // 13 if m >> (13 * (cs_ctz(m) // 13) + 13) == 0 else -2)
        x.sdup = (s.stage.cards.layer[1] & nat_kinds()) != 0
        x.sw = sb_wilds(S)
        x.nb = S[1] + S[40]
        x.r3 = S[14] + S[27]
    m = s.hand[s.turn].layer[0] & ((<uint64_t>1 << SB_KINDS) - 1)
    if mode == ADD_OPENED and x.nS == 0 and hsize >= 5:
        m = und
    elif mode == ADD_OPENED and x.nS > 0:
        m &= shape_mask(&x)
        if x.nb == 0 and m:
            # a GROUP shape: its classes in closed form (opened_group_adds); a SEQUENCE shape's
            # next cards (opened_seq_adds); the rest through the callback
            if x.srank != -2:
                acc = opened_group_adds(s, c, x.side, x.srank, sb_nat_of_rank(S, x.srank) if x.srank >= 0 else 0,
                                        x.sw, hsize, &m)
            if m and x.sw == 0 and not x.sdup and x.ssuit >= 0 and mi.slot:
                acc |= opened_seq_adds(s, x.side, x.smask, x.ssuit, hsize, &m, NULL)
            as_add_mask(out, A_ADD, acc)
    elif mode == ADD_PILE and s.opened[x.side]:
        # the group on a taken top card, opened side: add_check's answer (sb_pile_group_ok) is
        # one for every natural of the top's rank and one for every wild (legal once the pair
        # is staged), on the counts of that rank and of the wilds (by popcount)
        r = rank_of(s.take_top)
        sn = sb_nat_of_rank(S, r)
        hn = sb_size_in(&s.hand[s.turn], rank_mask(r))
        hw = sb_size_in(&s.hand[s.turn], wild_ids())
        if m & rank_mask(r) and sb_pile_group_ok(sn + 1, x.sw, hn - 1, hw, hsize - 1, extra, mi.C, may_out(s), c):
            acc |= m & rank_mask(r)
        if sn >= 2 and m & wild_kinds() and sb_pile_group_ok(sn, x.sw + 1, hn, hw - 1, hsize - 1, extra, mi.C,
                                                             may_out(s), c):
            acc |= m & wild_kinds()
        as_add_mask(out, A_ADD, acc)
        return cs_popcount(acc)
    if m == 0:
        return cs_popcount(acc)
    x.s = s
    x.c = c
    x.stage = &s.stage.cards
    x.mode = mode
    x.C = mi.C
    x.mo = may_out(s)
    x.mi = mi
    x.hsize = hsize
    x.H = H
    x.hready = hready
    x.S = S
    x.need = need
    x.extra = extra
    x.kneed = 0 if mode == ADD_OPENED else c.min_canastas - mi.Cp   # (unused when opened)
    x.vbound = 0
    x.cbound = -1
    x.sval = -1
    memset(x.grp_memo, -1, 13)
    x.wild_memo = -1
    x.open_yes = 0
    if mode != ADD_OPENED:
        ensure_h(&x)
        if mode == ADD_PILE:
            # add_check's first test: a natural of the top's rank, or a wild once the pair is staged
            m &= rank_mask(rank_of(s.take_top)) | (wild_kinds() if sb_nat_of_rank(S, rank_of(s.take_top)) >= 2 else 0)
        else:
            m &= shape_mask(&x)
            if x.nS == 0:
                m &= opening_mask(H, s.hand[s.turn].layer[0])
        if m == 0:
            return 0
        # x.vbound: sb_value_bound of the stage (with a taken top card) and the hand where it may
        # refute every candidate at once, else need (the test in add_check passes; the searches
        # decide, exactly either way). With cards staged (or a top card taken) the stage and the
        # hand are the cards of the ADD (or TAKE_PAIR) that allowed them, which a batch reaching
        # the requirement completed: the bound, an upper bound of such a batch's value, is not
        # short, so it is not computed.
        x.vbound = need
        if mode == ADD_OPENING and x.nS == 0 and need > 0:
            # the kinds of a constructive meld set worth >= need within the hand's budget (two
            # cards kept): each can be staged alone and completed into its own meld of that
            # batch, so add_check's search would say yes (sb_best_value's witness); only when it
            # finds none may the bound refute them all
            if sb_best_value(H, hsize + extra - 2, c, &x.open_yes, need) < need:
                x.vbound = sb_value_bound(S, H)
        if mode == ADD_OPENING:
            # add_check's first tests, for the whole set: no slot, or not a natural or wild: no;
            # a kind a batch already found holds: yes; with the value bound short of the need:
            # no (no search runs then, so no witness is added during the loop)
            m &= (nat_kinds() | wild_kinds()) if mi.slot else 0
            acc = m & x.open_yes
            m &= ~acc
            if x.vbound < need:
                m = 0
            if classes and m and x.nS > 0 and x.sw == 0 and not x.sdup and x.ssuit >= 0:
                m &= ~seq_dead(&x, m, s.hand[s.turn].layer[0])
            if classes and m:
                acc |= opening_classes(&x, &m, s.hand[s.turn].layer[0] | st)
            as_add_mask(out, A_ADD, acc)
            if m == 0:
                return cs_popcount(acc)
        if classes and mode == ADD_PILE and m:
            # the group on a taken top card of an unopened side: the same classes (the top
            # counted among the cards that make runs)
            acc = opening_classes(&x, &m, s.hand[s.turn].layer[0] | st | (<uint64_t>1 << s.take_top))
            as_add_mask(out, A_ADD, acc)
            if m == 0:
                return cs_popcount(acc)
    elif x.nS == 0 and hsize < 5:
        m &= shape_mask(&x)
    ensure_h(&x)
    # add_completable's answer for a held kind other than the joker is check_one's (its added
    # card is that kind, held): asked directly, without the trial stage; the joker through the
    # core mechanism (a fifth staged joker identity is refused there)
    b = m & ((<uint64_t>1 << SB_JK) - 1)
    while b:
        k = cs_ctz(b)
        b &= b - 1
        if check_one(&x, k):
            yes |= <uint64_t>1 << k
    as_add_mask(out, A_ADD, yes)
    return cs_popcount(acc) + cs_popcount(yes) + staged_legal_adds(&s.stage, m & (<uint64_t>1 << SB_JK), A_ADD,
                                                                   add_completable, &x, out)

cdef bint batch_meld_ok(int v, int need, const int8_t* H, int hsize, int extra, bint short_ok, int K, bint mo,
                        const SBConfig* c) noexcept nogil:
    """An unopened side's MELD worth v towards the `need` still missing: it completes the batch
    (the hand keeps a card to discard, counting the `extra` pile cards that join it), or the batch
    may stay short (penalize mode, a card kept), or the rest of the hand can still reach it."""
    cdef int8_t Z[SB_KINDS]
    if v >= need:
        return hsize + extra >= 2 or (mo and K <= 0)
    if short_ok:
        return hsize >= 2
    memset(Z, 0, SB_KINDS)
    if sb_value_bound(Z, H) < need - v:
        return False            # exact: sb_opening_ok finds no more than this bound
    return opening_ok(Z, H, need - v, extra, 0, K, mo, c, NULL, False)

cdef inline bint ask_ok(const SBState* s, const SBConfig* c, int side, const int8_t* H, const int8_t* Z, int hsize,
                        int need) noexcept nogil:
    """GO_OUT_QUERY (§4.4, S-D11): partnerships, once a turn, nothing under way, a going-out plan
    exists (sb_go_out_ok; need: an unopened side's requirement); hsize >= 2 so that after a 'no'
    the player can still discard and keep a card (HG)."""
    return (c.go_out_query and (c.nplayers == 4 or c.nplayers == 6) and not s.asked and may_out(s)
            and hsize >= 2 and sb_go_out_ok(&s.melds[side][0], Z, H, need, c) != 0)

cdef int keep_going_out(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """After the partner's 'yes' (S-D11) the turn must go out: of the actions the rules allow,
    keep those after which going out can still be completed (sb_go_out_*, _going_out)."""
    cdef int p = s.turn, side = s.tside, a, k, i, w, n = 0, hsize, need
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    cdef uint64_t b
    cdef uint32_t g
    cdef bint ok
    cdef const Meld* melds = &s.melds[side][0]
    sb_counts(&s.hand[p], H)
    sb_counts(&s.stage.cards, S)
    hsize = sb_size(&s.hand[p])
    need = 0 if s.opened[side] else req_of(s, c, side) - s.batch_value
    for w in range(NW):
        b = out.w[w]
        while b:
            a = (w << 6) + cs_ctz(b)
            b &= b - 1
            if a < A_DISCARD:                   # ADD: the stage with one more card
                S[a] += 1
                H[a] -= 1
                ok = sb_go_out_ok(melds, S, H, need, c) != 0
                S[a] -= 1
                H[a] += 1
            elif a < A_DRAW:                    # DISCARD: only the last card
                ok = hsize == 1
            elif a == A_MELD:
                ok = sb_go_out_placed(melds, S, -1, H, need, c) != 0
            elif a == A_RED3 or a == A_RED3 + 1:
                k = 14 if a == A_RED3 else 27
                H[k] -= 1
                ok = sb_go_out_ok(melds, S, H, need, c) != 0
                H[k] += 1
            elif A_LAYOFF <= a < A_TAKE_LAYOFF:
                ok = sb_go_out_placed(melds, S, a - A_LAYOFF, H, need, c) != 0
            elif a >= A_MERGE_TO:
                ok = sb_go_out_merged(melds, s.merge_from, a - A_MERGE_TO, H, need, c) != 0
            elif a >= A_MERGE_FROM:
                ok = False
                k = a - A_MERGE_FROM
                g = s.live[side]
                while g:
                    i = cs_ctz(g)
                    g &= g - 1
                    if (i != k and melds[i].type == MT_GROUP and sb_merge_ok(&melds[k], &melds[i], c)
                            and merge_hg_ok(&melds[k], &melds[i], hsize, s.mi[side].C, may_out(s), c)
                            and sb_go_out_merged(melds, k, i, H, need, c)):
                        ok = True
                        break
            else:
                ok = False
            if ok:
                n += 1
            else:
                as_remove(out, a)
    return n

cdef inline bint penalize_now(const SBState* s, const SBConfig* c, int side) noexcept nogil:
    """insufficient_initial_meld=penalize applies to the side's batch now: not in a pile take, and
    the side has failed fewer than max_failed_melds batches this deal (each FAIL adds 100 to
    req_pen); after that its batch must reach the requirement, as under 'reject' (S-D23)."""
    return c.penalize and s.pile_take == 0 and s.req_pen[side] < 100 * c.max_fails

cdef inline bint layoff_ok(const SBState* s, const SBConfig* c, const Meld* m, const int8_t* S, int ssize, int hsize,
                           int C, bint mo) noexcept nogil:
    """LAYOFF of the staged cards (S, ssize > 0) onto the placed meld m: valid (sb_layoff_ok_n)
    and HG after it (a BLACK3 only while going out, S-D9)."""
    cdef Meld tmp
    if m.pending or not sb_layoff_ok_n(m, S, ssize, c):
        return False
    if m.type == MT_BLACK3:
        return hsize <= 1 and mo and C >= c.min_canastas
    tmp = m[0]
    tmp.n += ssize
    return sb_hg_ok(hsize, C - sb_is_canasta(m) + sb_is_canasta(&tmp), mo, c)

cdef int meld_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """T2 (§4.4): the actions the rules allow; after the partner's 'yes' only those that keep
    going out completable."""
    if s.must_out:
        meld_rules(s, c, out)
        return keep_going_out(s, c, out)
    return meld_rules(s, c, out)

cdef int meld_legal_generic(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """meld_legal without the dedicated generators (meld_rules_generic): the reference the tests
    compare them with (_testing.legal_generic)."""
    cdef int n = meld_rules_generic(s, c, out, False)
    if s.must_out:
        return keep_going_out(s, c, out)
    return n

include "cardsim/games/samba/_legal_paths.pxi"

cdef int meld_rules_generic(const SBState* s, const SBConfig* c, ActionSet* out, bint classes) noexcept nogil:
    """T2 (§4.4) under construction, every situation: see the module docstring for the factoring.
    classes: an unopened side's ADDs decided by class first (legal_adds); the reference
    (meld_legal_generic) checks each candidate on its own."""
    cdef int p = s.turn, side = s.tside, k, i, hsize, ssize, C, t, r, sn, sw, need, extra, v
    cdef int n = 0, hn, hw, j, j0, srank, ssuit
    cdef uint64_t st, nb3, und
    cdef uint32_t R, g
    cdef Meld sm
    cdef const MeldIndex* mi = &s.mi[side]
    cdef bint mo = may_out(s), ok, isnat, lazy_h
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    as_clear(out, NW)
    hsize = sb_size(&s.hand[p])
    ssize = s.stage.n                   # (core Staged: the cards staged)
    if ssize:
        sb_counts(&s.stage.cards, S)
    else:
        memset(S, 0, SB_KINDS)
    # the hand's counts only if red threes are manual (discard_legal) or the go-out query is on
    # (ask_ok), or (below) for an unopened side, whose batch_meld_ok reads them; else legal_adds
    # fills H when a search needs it
    lazy_h = not c.red3_manual and not c.go_out_query
    if not lazy_h:
        sb_counts(&s.hand[p], H)
    C = mi.C
    if s.merge_from >= 0:
        g = mi.grps
        while g:
            i = cs_ctz(g)
            g &= g - 1
            if i != s.merge_from and s.melds[side][i].type == MT_GROUP and sb_merge_ok(
                    &s.melds[side][s.merge_from], &s.melds[side][i], c) and merge_hg_ok(
                    &s.melds[side][s.merge_from], &s.melds[side][i], hsize, C, mo, c):
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
        if lazy_h and not s.opened[side]:   # batch_meld_ok below reads H whatever legal_adds did
            sb_counts(&s.hand[p], H)
            lazy_h = False
        n += legal_adds(s, c, ADD_PILE, req_of(s, c, side), extra, mi, H, not lazy_h, hsize, S, out, 0, classes)
        if sn >= 2 and sb_group_ok(1 + sn, sw, c) and mi.slot:
            if s.opened[side]:
                ok = sb_hg_ok(hsize + extra, C + (1 if 1 + sn + sw >= 7 else 0), mo, c)
            else:
                ok = batch_meld_ok(cards_value(&s.stage.cards) + sb_card_value(t), req_of(s, c, side), H, hsize,
                                   extra, False, c.min_canastas - (1 if 1 + ssize >= 7 else 0), mo, c)
            if ok:
                as_add(out, A_MELD)
                n += 1
        return n
    if not s.opened[side]:
        need = req_of(s, c, side) - s.batch_value
        extra = pile_all_in(s, c) if s.pile_take == 2 else 0
        if lazy_h:                          # batch_meld_ok below reads H whatever legal_adds did
            sb_counts(&s.hand[p], H)
            lazy_h = False
        n += legal_adds(s, c, ADD_PENALIZE if penalize_now(s, c, side) else ADD_OPENING, need, extra,
                        mi, H, not lazy_h, hsize, S, out, 0, classes)
        if ssize:
            t = sb_meld_shape(&s.stage.cards, &sm) if ssize >= 3 else -1
            if (t == MT_SEQ or (t == MT_GROUP and sb_group_ok(sm.nat, sm.wild, c))) and mi.slot:
                if batch_meld_ok(cards_value(&s.stage.cards), need, H, hsize, extra, penalize_now(s, c, side),
                                 c.min_canastas - mi.Cp - (1 if ssize >= 7 else 0), mo, c):
                    as_add(out, A_MELD)
                    n += 1
            return n
        if pending_batch(s, side):
            if penalize_now(s, c, side):
                as_add(out, A_FAIL)
                n += 1
            return n
        # no batch under way: discards and manual red threes, the go-out query
        n += discard_legal(s, c, H, hsize, C, mo, out)
        if ask_ok(s, c, side, H, S, hsize, req_of(s, c, side)):
            as_add(out, A_ASK)
            n += 1
        return n
    # opened side
    if ssize == 0 and hsize >= 5:
        # nothing staged: the closed forms first (shape_mask: any kind but a red three), the
        # callback only for the candidates they leave
        und = s.hand[p].layer[0] & ((<uint64_t>1 << SB_KINDS) - 1) & ~((<uint64_t>1 << 14) | (<uint64_t>1 << 27))
        st = opened_empty_adds(s, c, side, hsize, &und)
        as_add_mask(out, A_ADD, st)
        n += cs_popcount(st)
        if und:
            n += legal_adds(s, c, ADD_OPENED, 0, 0, mi, H, not lazy_h, hsize, S, out, und, classes)
    else:
        n += legal_adds(s, c, ADD_OPENED, 0, 0, mi, H, not lazy_h, hsize, S, out, 0, classes)
    if ssize:
        t = sb_meld_shape(&s.stage.cards, &sm) if ssize >= 3 else -1
        if mi.slot:
            if t == MT_BLACK3:
                ok = hsize <= 1 and mo and C >= c.min_canastas
            elif t == MT_SEQ or (t == MT_GROUP and sb_group_ok(sm.nat, sm.wild, c)):
                ok = sb_hg_ok(hsize, C + ((t == MT_GROUP and ssize >= 7) or (t == MT_SEQ and ssize == 7)), mo, c)
            else:
                ok = False
            if ok:
                as_add(out, A_MELD)
                n += 1
        # the stage's naturals: one rank (a GROUP's key) / one suit (a SEQUENCE's key), -2 several
        st = s.stage.cards.layer[0] & nat_kinds()
        R = ranks_of(st)
        srank = -1 if R == 0 else (cs_ctz(R) if R & (R - 1) == 0 else -2)
        ssuit = -1 if st == 0 else (cs_ctz(st) // 13 if st >> (13 * (cs_ctz(st) // 13) + 13) == 0 else -2)
        # sb_layoff_ok_n is 0 when a staged card is neither a wild nor a natural of the GROUP's
        # rank, or not a natural of the SEQUENCE's suit, or (BLACK3) not a black three: only the
        # GROUPs of the stage's rank (rank_grps[srank]; any rank: wilds only), the SEQUENCEs of
        # its suit and, with black threes staged, the BLACK3s are tried
        nb3 = ((s.stage.cards.layer[0] >> 1) | (s.stage.cards.layer[0] >> 40)) & 1
        if srank != -2 and not nb3:
            g = mi.rank_grps[srank] if srank >= 0 else mi.grps
            while g:
                i = cs_ctz(g)
                g &= g - 1
                if layoff_ok(s, c, &s.melds[side][i], S, ssize, hsize, C, mo):
                    as_add(out, A_LAYOFF + i)
                    n += 1
        if ssuit >= 0 or nb3:
            for j in range(mi.nlive - mi.ngrp):
                i = mi.oth[j]
                if s.melds[side][i].type == MT_SEQ and ssuit != s.melds[side][i].key:
                    continue
                if s.melds[side][i].type == MT_BLACK3 and not nb3:
                    continue
                if layoff_ok(s, c, &s.melds[side][i], S, ssize, hsize, C, mo):
                    as_add(out, A_LAYOFF + i)
                    n += 1
        return n
    n += discard_legal(s, c, H, hsize, C, mo, out)
    n += merge_from_legal(s, c, side, hsize, mo, out)
    if ask_ok(s, c, side, H, S, hsize, 0):
        as_add(out, A_ASK)
        n += 1
    return n

cdef inline int merge_from_legal(const SBState* s, const SBConfig* c, int side, int hsize, bint mo,
                                 ActionSet* out) noexcept nogil:
    """MERGE_FROM with nothing staged (§4.4, S-D8): the GROUPs that can merge with another GROUP
    of their rank (sb_merge_ok; the meld index keeps them, MeldIndex.mergeable) leaving the hand
    guard (merge_hg_ok: with two cards or more in hand, always; else pair by pair)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef int r
    cdef uint32_t mfrom, ranks, g
    if mi.mergeable == 0:
        return 0
    if hsize >= 2:
        # merge_hg_ok holds: the pairs sb_merge_ok accepts, kept by the meld index
        as_add_mask(out, A_MERGE_FROM, mi.mergeable)
        return cs_popcount(mi.mergeable)
    # one card in hand: the pairs of each rank among those again, with the hand guard
    mfrom = 0
    ranks = mi.grp_ranks
    while ranks:
        r = cs_ctz(ranks)
        ranks &= ranks - 1
        g = mi.rank_grps[r] & mi.mergeable
        if g & (g - 1):
            mfrom |= merge_pairs(s, c, side, g, hsize, mi.C, mo)
    as_add_mask(out, A_MERGE_FROM, mfrom)
    return cs_popcount(mfrom)

cdef inline int discard_legal(const SBState* s, const SBConfig* c, const int8_t* H, int hsize, int C, bint mo,
                       ActionSet* out) noexcept nogil:
    """DISCARD (HG: the hand may be emptied only with min_canastas canastas and no 'no' from the
    partner; American red threes are never discarded) and PLACE_RED3 (manual mode)."""
    cdef int k, n = 0
    cdef bint empty_ok = mo and C >= c.min_canastas
    cdef uint64_t m = s.hand[s.turn].layer[0]   # the kinds held (identity 52 for the jokers)
    if hsize >= 2 or empty_ok:
        m = (m & ((<uint64_t>1 << SB_JK) - 1)) | ((((m >> SB_JK) | (m >> SB_JK2)) & 1) << SB_JK)
        if not c.red3_manual:
            m &= ~((<uint64_t>1 << 14) | (<uint64_t>1 << 27))
        n = cs_popcount(m)
        as_add_mask(out, A_DISCARD, m)
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
