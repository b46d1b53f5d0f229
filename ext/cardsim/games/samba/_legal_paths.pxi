# Samba's dedicated meld-phase legal-set generators, included into _legal.pyx (one module, so
# that gcc inlines them into meld_legal): meld_rules picks the one for the situation, each gives
# exactly meld_rules_generic's set (tests/games/samba/test_legal_paths.py), and every other
# situation goes to meld_rules_generic.

cdef inline int group_layoffs(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, int r, int sn,
                              int sw, ActionSet* out) noexcept nogil:
    """LAYOFF (layoff_ok) of a stage of sn naturals of rank r (-1: none) and sw wilds, ssize
    cards, onto the side's GROUPs of rank r (any GROUP with wilds only): sb_layoff_ok_n's GROUP
    test on those counts (wild_onto_canasta, the wild limits), then the hand guard on the
    canastas after it."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* m
    cdef int i, n = 0
    cdef bint mo = may_out(s)
    cdef uint32_t g = mi.rank_grps[r] if r >= 0 else mi.grps
    while g:
        i = cs_ctz(g)
        g &= g - 1
        m = &s.melds[side][i]
        if (not m.pending and not (sw and woc_blocks(m, c)) and sb_group_ok(m.nat + sn, m.wild + sw, c)
                and sb_hg_ok(hsize, mi.C - sb_is_canasta(m) + (m.n + ssize >= 7), mo, c)):
            as_add(out, A_LAYOFF + i)
            n += 1
    return n

cdef inline int seq_layoffs(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, int su, uint32_t Rs,
                            ActionSet* out) noexcept nogil:
    """LAYOFF (layoff_ok, seq_span) of a stage of ssize naturals of suit su, each once (ranks Rs),
    onto the side's SEQUENCEs of that suit: none of the ranks inside the run, and run and ranks
    one consecutive run of <= 7; the hand guard on the canastas after it (a samba at 7)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* m
    cdef int i, n = 0
    cdef bint mo = may_out(s)
    cdef uint32_t U, run, sq = mi.seqs
    while sq:                   # (a SEQUENCE of 7 cards takes none: m.n + ssize <= 7 below)
        i = cs_ctz(sq)
        sq &= sq - 1
        m = &s.melds[side][i]
        if m.key != su:
            continue
        run = ((<uint32_t>1 << (m.hi + 1)) - 1) & ~((<uint32_t>1 << m.lo) - 1)
        U = Rs | run
        # consecutive: U shifted down to bit 0 is a block of ones
        if (not (Rs & run) and m.n + ssize <= 7 and ((U >> cs_ctz(U)) & ((U >> cs_ctz(U)) + 1)) == 0
                and sb_hg_ok(hsize, mi.C - sb_is_canasta(m) + (m.n + ssize == 7), mo, c)):
            as_add(out, A_LAYOFF + i)
            n += 1
    return n

cdef inline uint64_t seq_layoff_adds(const SBState* s, int side, int hsize, uint64_t st, int su, uint64_t cand,
                                     uint64_t* und) noexcept nogil:
    """The kinds of cand (naturals of suit su, none staged) that a stage of naturals of that suit,
    each once (kinds st), takes with it onto a placed SEQUENCE of the suit of < 7 cards: seq_gap
    on the staged ranks and the card's (the gap comes from the hand without the card, which is
    not in it); the fewest cards so used (the gap) leave the most in hand, so with >= 2 left
    (HG) some completion passes; with fewer only by going out (*und, searched); otherwise no
    completion exists. Returns those accepted."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* m
    cdef uint32_t R = <uint32_t>((st >> (13 * su)) & 0x1FFF)
    cdef uint32_t Hs = <uint32_t>((s.hand[s.turn].layer[0] >> (13 * su)) & 0x1FFF)
    cdef uint32_t sq = mi.seqs
    cdef uint64_t acc = 0, u = 0, b
    cdef int k, x
    while sq:
        m = &s.melds[side][cs_ctz(sq)]
        sq &= sq - 1
        if m.key != su:
            continue
        b = cand & ~acc
        while b:
            k = cs_ctz(b)
            b &= b - 1
            x = seq_gap(m, R | (<uint32_t>1 << (k % 13)), Hs)
            if x < 0:
                continue
            if hsize - 1 - x >= 2:
                acc |= <uint64_t>1 << k
            else:
                u |= <uint64_t>1 << k
    und[0] = u & ~acc
    return acc

cdef inline uint64_t suit_adds(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, uint64_t st,
                               int su, uint64_t rest) noexcept nogil:
    """The ADDs of rest (naturals of suit su, none staged) onto a stage of ssize naturals of that
    suit, each once (kinds st). add_check's answer for such a stage plus one card of another rank
    is a new meld (sb_complete_new_n) or a lay-off onto a SEQUENCE of the suit (its GROUP
    lay-offs need one rank): the new SEQUENCE in opened_seq_adds' closed form when a slot is
    free, the lay-offs in seq_layoff_adds', and add_check's searches only for the cards either
    leaves to the hand guard (going out)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef uint64_t acc = 0, hg_und = 0, lay_und = 0, lay
    if rest and mi.slot:
        acc = opened_seq_adds(s, side, st, su, hsize, &rest, &hg_und)
    if rest:
        lay = seq_layoff_adds(s, side, hsize, st, su, rest, &lay_und)
        acc |= lay
        rest &= (hg_und | lay_und) & ~lay
    if rest:
        acc |= suit_adds_search(s, c, side, hsize, ssize, st, su, rest)
    return acc

cdef uint64_t suit_adds_search(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, uint64_t st,
                               int su, uint64_t rest) noexcept nogil:
    """suit_adds' cards left to add_check's searches (sb_complete_new_n, sb_complete_layoff onto a
    SEQUENCE of the suit) on the count vectors: the accepted ones. (Declared in _legal.pxd, so
    gcc keeps it out of suit_adds, which then stays small.)"""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* m
    cdef int j, kk
    cdef bint mo = may_out(s), ok
    cdef uint64_t acc = 0
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    sb_counts(&s.hand[s.turn], H)
    sb_counts(&s.stage.cards, S)
    while rest:
        kk = cs_ctz(rest)
        rest &= rest - 1
        S[kk] = 1
        H[kk] -= 1
        ok = mi.slot and sb_complete_new_n(S, st | (<uint64_t>1 << kk), H, ssize + 1, hsize - 1, mi.C, mo,
                                           c) != 0
        j = 0
        while not ok and j < mi.nlive - mi.ngrp:
            m = &s.melds[side][mi.oth[j]]
            if m.type == MT_SEQ and m.key == su:
                ok = sb_complete_layoff(m, S, H, ssize + 1, hsize - 1, mi.C, mo, c) != 0
            j += 1
        S[kk] = 0
        H[kk] += 1
        if ok:
            acc |= <uint64_t>1 << kk
    return acc

cdef int group_stage_legal(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, int r, int sw,
                           ActionSet* out) noexcept nogil:
    """meld_rules_generic for an opened side whose stage (ssize >= 2 cards, or one wild; no three,
    outside a pile group and a merge) holds naturals of one rank r (-1: none) and sw wilds: the same set
    from the counts alone, without the count vectors (out already cleared). The ADDs:
    legal_adds' shape_mask leaves the wilds and the naturals of r (of any rank with wilds only;
    no SEQUENCE card: two naturals of one rank are one kind twice or of two suits, and otherwise
    a wild is staged), all decided by opened_group_adds' classes, none left for the callback.
    MELD: sb_meld_shape makes such a stage of >= 3 cards a GROUP of ssize - sw naturals and sw
    wilds (only wilds: no meld, and sb_group_ok refuses 0 naturals). LAYOFF: layoff_ok onto the
    GROUPs of rank r (any GROUP with wilds only), sb_layoff_ok_n's GROUP test on those counts; a
    SEQUENCE takes none (its test counts only the naturals of its suit, fewer than the staged
    cards: the stage holds a wild or two cards of rank r), nor a BLACK3 (no black three staged).
    tests/games/samba/test_legal_paths.py checks the sets against meld_rules_generic."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef int sn = ssize - sw, n
    cdef bint mo = may_out(s)
    cdef uint64_t cand = s.hand[s.turn].layer[0] & (wild_kinds() | (nat_kinds() if r < 0 else rank_mask(r)))
    cdef uint64_t acc = (rank_group_adds(s, c, side, r, sn, sw, hsize, &cand) if r >= 0
                         else opened_group_adds(s, c, side, r, 0, sw, hsize, &cand))
    as_add_mask(out, A_ADD, acc)
    n = cs_popcount(acc)
    if mi.slot and sb_group_ok(sn, sw, c) and sb_hg_ok(hsize, mi.C + (ssize >= 7), mo, c):
        as_add(out, A_MELD)
        n += 1
    return n + group_layoffs(s, c, side, hsize, ssize, r, sn, sw, out)

cdef int single_stage_legal(const SBState* s, const SBConfig* c, int side, int hsize, int k,
                            ActionSet* out) noexcept nogil:
    """meld_rules_generic for an opened side with one natural k staged (outside a pile group and
    a merge; out already cleared). The ADDs (legal_adds): shape_mask leaves the wilds, the
    naturals of k's rank r and the other naturals of k's suit; the first two are
    rank_group_adds' classes for a stage of one natural (class_ok on the counts of r and of
    the wilds; written out here: a second call of rank_group_adds stops gcc inlining it into
    group_stage_legal, +4,600 instructions a deal measured), the suit's cards go to
    opened_seq_adds when a slot is free, and those it leaves to add_check, whose answer for a
    stage of k and k' (two ranks) is a new meld (sb_complete_new_n) or a lay-off onto a SEQUENCE
    of the suit (its GROUP lay-offs need one rank). No MELD (one card). LAYOFF (layoff_ok): onto a GROUP of rank r, sb_group_ok with one
    natural more; onto a SEQUENCE of k's suit of < 7 cards whose run k extends by one rank at
    either end (seq_span); the hand guard on the canastas after it. Checked against
    meld_rules_generic by tests/games/samba/test_legal_paths.py."""
    cdef const Hand* hand = &s.hand[s.turn]
    cdef int r = rank_of(k), su = suit_of(k), hn, hw, n
    cdef uint64_t L0 = hand.layer[0], acc = 0
    hn = sb_size_in(hand, rank_mask(r))
    hw = sb_size_in(hand, wild_ids())
    if L0 & wild_kinds() and class_ok(s, c, side, r, 1, 1, hn, hw - 1, hsize - 1):
        acc |= L0 & wild_kinds()
    if L0 & rank_mask(r) and class_ok(s, c, side, r, 2, 0, hn - 1, hw, hsize - 1):
        acc |= L0 & rank_mask(r)
    acc |= suit_adds(s, c, side, hsize, 1, <uint64_t>1 << k, su,
                     L0 & nat_kinds() & (<uint64_t>0x1FFF << (13 * su)) & ~rank_mask(r))
    as_add_mask(out, A_ADD, acc)
    n = cs_popcount(acc) + group_layoffs(s, c, side, hsize, 1, r, 1, 0, out)
    return n + seq_layoffs(s, c, side, hsize, 1, su, <uint32_t>1 << r, out)

cdef int empty_stage_legal(const SBState* s, const SBConfig* c, int side, int hsize, ActionSet* out) noexcept nogil:
    """meld_rules_generic for an opened side with nothing staged and >= 5 cards in hand (outside
    a pile group and a merge), red threes automatic and no go-out query (so neither DISCARD nor
    ASK reads the hand's counts); out already cleared. The ADDs are opened_empty_adds' closed
    forms; when they leave candidates to the callback, -1 (the caller runs meld_rules_generic).
    Then the discards (discard_legal) and the merges (merge_from_legal). Checked against
    meld_rules_generic by tests/games/samba/test_legal_paths.py."""
    cdef uint64_t und = s.hand[s.turn].layer[0] & ((<uint64_t>1 << SB_KINDS) - 1) & ~((<uint64_t>1 << 14) | (<uint64_t>1 << 27))
    cdef uint64_t st = opened_empty_adds(s, c, side, hsize, &und)
    cdef int n
    if und:
        return -1
    as_add_mask(out, A_ADD, st)
    n = cs_popcount(st) + discard_legal(s, c, NULL, hsize, s.mi[side].C, may_out(s), out)
    return n + merge_from_legal(s, c, side, hsize, may_out(s), out)

cdef inline uint64_t one_card_adds(const SBState* s, const SBConfig* c, int side, int hsize,
                                   uint64_t cards) noexcept nogil:
    """The kinds of cards (held; naturals whose GROUP parts class_ok refused, black threes) that
    add_check accepts on an empty stage of an opened side, on the count vectors: a new meld of
    the one card (a natural's SEQUENCE, seq_completion as single_ok has it; a black three's,
    sb_complete_new_n) or a lay-off onto a meld that can take it (a SEQUENCE of a natural's suit,
    a BLACK3 for a black three; sb_complete_layoff refuses the others)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* m
    cdef uint64_t acc = 0
    cdef int k, j
    cdef bint mo = may_out(s), ok
    # a new SEQUENCE of a natural takes >= 2 more cards, of < 5 in hand (short_stage_legal): it
    # leaves <= 1 card and is no samba, so the hand guard passes only by going out
    cdef bint new_seq = mi.slot and mo and mi.C >= c.min_canastas
    cdef int8_t H[SB_KINDS]
    cdef int8_t S[SB_KINDS]
    sb_counts(&s.hand[s.turn], H)
    memset(S, 0, SB_KINDS)
    while cards:
        k = cs_ctz(cards)
        cards &= cards - 1
        H[k] -= 1
        S[k] = 1
        if is_natural(k):
            ok = new_seq and seq_completion(suit_of(k), rank_of(k), rank_of(k), 1, 1, H, hsize - 1, mi.C, 0, mo,
                                            c) != 0
        else:
            ok = mi.slot and sb_complete_new_n(S, <uint64_t>1 << k, H, 1, hsize - 1, mi.C, mo, c) != 0
        j = 0
        while not ok and j < mi.nlive - mi.ngrp:
            m = &s.melds[side][mi.oth[j]]
            if (m.type == MT_SEQ and m.key == suit_of(k)) or (m.type == MT_BLACK3 and is_black3(k)):
                ok = sb_complete_layoff(m, S, H, 1, hsize - 1, mi.C, mo, c) != 0
            j += 1
        H[k] += 1
        S[k] = 0
        if ok:
            acc |= <uint64_t>1 << k
    return acc

cdef int short_stage_legal(const SBState* s, const SBConfig* c, int side, int hsize, ActionSet* out) noexcept nogil:
    """meld_rules_generic for an opened side with nothing staged and < 5 cards in hand (outside a
    pile group and a merge), red threes automatic and no go-out query; out already cleared. The
    ADDs are add_check's single_ok per candidate (shape_mask leaves every kind but the red
    threes), here by classes: the wilds one class (opened_group_adds' wild class for a stage of
    one wild: a new GROUP of some rank or a lay-off onto a GROUP, class_ok rank by rank), the
    naturals of a rank one class for their GROUP parts (class_ok for a stage of one natural: a
    new GROUP, a lay-off onto a GROUP of the rank) and, where it says no, each natural by
    one_card_adds (its new meld can only be a SEQUENCE then, its lay-offs only onto a SEQUENCE of
    its suit), as the black threes. Then the discards (discard_legal) and the merges
    (merge_from_legal). Checked against meld_rules_generic by
    tests/games/samba/test_legal_paths.py."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Hand* hand = &s.hand[s.turn]
    cdef uint64_t L0 = hand.layer[0], cand, acc, rk, left = 0
    cdef uint32_t todo
    cdef int hw, r, n
    cdef bint mo = may_out(s)
    cand = L0 & ((<uint64_t>1 << SB_KINDS) - 1) & wild_kinds()
    acc = opened_group_adds(s, c, side, -1, 0, 0, hsize, &cand) if cand else 0
    hw = sb_size_in(hand, wild_ids())
    todo = ranks_of(L0 & nat_kinds())
    while todo:
        r = cs_ctz(todo)
        todo &= todo - 1
        rk = L0 & rank_mask(r)
        if class_ok(s, c, side, r, 1, 0, sb_size_in(hand, rank_mask(r)) - 1, hw, hsize - 1):
            acc |= rk
        else:
            left |= rk
    # the naturals left and the black threes: add_check's test for a one-card stage
    left |= L0 & ((<uint64_t>1 << 1) | (<uint64_t>1 << 40))
    if left:
        acc |= one_card_adds(s, c, side, hsize, left)
    as_add_mask(out, A_ADD, acc)
    n = cs_popcount(acc) + discard_legal(s, c, NULL, hsize, mi.C, mo, out)
    return n + merge_from_legal(s, c, side, hsize, mo, out)

cdef int seq_stage_legal(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, uint64_t st,
                         ActionSet* out) noexcept nogil:
    """meld_rules_generic for an opened side whose stage holds ssize >= 2 naturals of one suit, of
    different ranks (st: their kinds; no wild, no three, outside a pile group and a merge; out
    already cleared). The ADDs (legal_adds): shape_mask leaves the suit's other naturals (no GROUP
    part: several ranks); opened_seq_adds decides them when a slot is free, and those it leaves go
    to add_check, whose answer for such a stage is a new meld (sb_complete_new_n) or a lay-off onto
    a SEQUENCE of the suit (its GROUP lay-offs need one rank). MELD: sb_meld_shape makes the stage
    a SEQUENCE when its ranks are consecutive (>= 3 of them, <= 7: a samba at 7), else nothing.
    LAYOFF (layoff_ok, seq_span): onto a SEQUENCE of the suit whose run the staged ranks extend
    into one consecutive run of <= 7 ranks, none inside it; the hand guard on the canastas after
    it. Checked against meld_rules_generic by tests/games/samba/test_legal_paths.py."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef int su = cs_ctz(st) // 13, n
    cdef uint32_t Rs = <uint32_t>(st >> (13 * su))
    cdef uint64_t acc = suit_adds(s, c, side, hsize, ssize, st, su,
                                  s.hand[s.turn].layer[0] & nat_kinds() & (<uint64_t>0x1FFF << (13 * su)) & ~st)
    as_add_mask(out, A_ADD, acc)
    n = cs_popcount(acc)
    # consecutive ranks: Rs shifted down to bit 0 is a block of ones
    if (mi.slot and ssize >= 3 and ssize <= 7 and ((Rs >> cs_ctz(Rs)) & ((Rs >> cs_ctz(Rs)) + 1)) == 0
            and sb_hg_ok(hsize, mi.C + (ssize == 7), may_out(s), c)):
        as_add(out, A_MELD)
        n += 1
    return n + seq_layoffs(s, c, side, hsize, ssize, su, Rs, out)

cdef int pile_stage_legal(const SBState* s, const SBConfig* c, int side, ActionSet* out) noexcept nogil:
    """meld_rules_generic for an opened side building the group on a taken top card (pile_take
    1, outside a merge; out already cleared), from the packed hand's and stage's counts of the
    top's rank r and of the wilds, without the count vectors. The stage holds only naturals of r
    and wilds (no other ADD is offered), sn and sw of them. The ADDs are legal_adds' closed
    form: every natural of r held when sb_pile_group_ok accepts one more staged natural, every
    wild held when the pair is staged and it accepts one more staged wild. MELD: the pair
    staged, sb_group_ok on the top and the stage, the hand guard with the rest of the pile
    joined. Every test is monotone in the cards the rest of the pile brings (pile_all_in: the
    hand guard on a larger hand), so a yes without them stands and that count is taken only
    for a no. Checked against meld_rules_generic by tests/games/samba/test_legal_paths.py."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Hand* hand = &s.hand[s.turn]
    cdef int r = rank_of(s.take_top), hsize = sb_size(hand), sn = 0, sw = 0, hn, hw, n
    cdef int extra = -1, C = mi.C
    cdef bint mo = may_out(s), ok
    cdef uint64_t m = hand.layer[0] & ((<uint64_t>1 << SB_KINDS) - 1), acc = 0
    if s.stage.n:
        sn = sb_size_in(&s.stage.cards, rank_mask(r))
        sw = sb_size_in(&s.stage.cards, wild_ids())
    hn = sb_size_in(hand, rank_mask(r))
    hw = sb_size_in(hand, wild_ids())
    if m & rank_mask(r):
        ok = sb_pile_group_ok(sn + 1, sw, hn - 1, hw, hsize - 1, 0, C, mo, c) != 0
        if not ok:
            extra = pile_all_in(s, c)
            ok = extra > 0 and sb_pile_group_ok(sn + 1, sw, hn - 1, hw, hsize - 1, extra, C, mo, c) != 0
        if ok:
            acc |= m & rank_mask(r)
    if sn >= 2 and m & wild_kinds():
        ok = sb_pile_group_ok(sn, sw + 1, hn, hw - 1, hsize - 1, 0, C, mo, c) != 0
        if not ok:
            if extra < 0:
                extra = pile_all_in(s, c)
            ok = extra > 0 and sb_pile_group_ok(sn, sw + 1, hn, hw - 1, hsize - 1, extra, C, mo, c) != 0
        if ok:
            acc |= m & wild_kinds()
    as_add_mask(out, A_ADD, acc)
    n = cs_popcount(acc)
    if sn >= 2 and sb_group_ok(1 + sn, sw, c) and mi.slot:
        # the hand guard with the rest of the pile joined: after a no without it, only the
        # larger hand can say yes (the canastas are the same)
        ok = sb_hg_ok(hsize, C + (1 if 1 + sn + sw >= 7 else 0), mo, c)
        if not ok:
            if extra < 0:
                extra = pile_all_in(s, c)
            ok = hsize + extra >= 2
        if ok:
            as_add(out, A_MELD)
            n += 1
    return n

cdef int meld_rules(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil:
    """T2 (§4.4) under construction: the situations with a dedicated generator first (each
    gives meld_rules_generic's set, in fewer instructions), then meld_rules_generic."""
    cdef int side = s.tside, ssize = s.stage.n
    cdef int hsize, n
    cdef uint64_t st
    cdef uint32_t R
    if s.pile_take == 1:
        if s.opened[side] and s.merge_from < 0:
            # the group on a taken top card (pile_stage_legal)
            as_clear(out, NW)
            return pile_stage_legal(s, c, side, out)
    elif ssize == 0:
        if s.opened[side] and s.merge_from < 0 and not c.red3_manual and not c.go_out_query:
            # nothing staged: five cards or more (empty_stage_legal), fewer (short_stage_legal)
            hsize = sb_size(&s.hand[s.turn])
            as_clear(out, NW)
            if hsize >= 5:
                n = empty_stage_legal(s, c, side, hsize, out)
            else:
                # fewer than five cards (short_stage_legal)
                n = short_stage_legal(s, c, side, hsize, out)
            if n >= 0:
                return n
    elif s.opened[side] and s.merge_from < 0:
        st = s.stage.cards.layer[0]
        if ssize == 1 and st & nat_kinds():
            # one natural staged (single_stage_legal)
            as_clear(out, NW)
            return single_stage_legal(s, c, side, sb_size(&s.hand[s.turn]), cs_ctz(st), out)
        # a GROUP-shaped stage without a three: >= 2 cards, or one wild (group_stage_legal)
        R = ranks_of(st & nat_kinds())
        if not (st & rank_mask(1)) and not (R & (R - 1)):
            as_clear(out, NW)
            return group_stage_legal(s, c, side, sb_size(&s.hand[s.turn]), ssize, cs_ctz(R) if R else -1,
                                     sb_size_in(&s.stage.cards, wild_ids()), out)
        if ssize >= 2:
            # naturals of one suit, each once (several ranks: not a GROUP shape) (seq_stage_legal)
            if (not (st & ~nat_kinds()) and s.stage.cards.layer[1] == 0
                    and (st >> (13 * (cs_ctz(st) // 13)) >> 13) == 0):
                as_clear(out, NW)
                return seq_stage_legal(s, c, side, sb_size(&s.hand[s.turn]), ssize, st, out)
    return meld_rules_generic(s, c, out, True)
