# Samba legal-move closed forms on the packed hands' bit masks (docs/rules/samba.md §4): the
# kind masks, per-rank count thresholds by popcount, and the ADD decisions of an opened side that
# _legal takes without the hand's count vector (see _masks.pyx).
from cardsim.core._types cimport int8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_ctz, cs_popcount, bit_high
from cardsim.core._hand cimport Hand
from cardsim.games.samba._rules cimport (SBConfig, Meld, SB_JK, SB_JK2, MT_GROUP, MT_SEQ, MT_BLACK3, group_completion,
                                         woc_blocks, rank_mask, wild_kinds, wild_ids, nat_kinds, run_kinds, ranks_of,
                                         spread, sb_size_in)
from cardsim.games.samba._state cimport SBState, MeldIndex, may_out

cdef inline void rank_counts(const Hand* h, uint32_t* r1, uint32_t* r2, uint32_t* r3) noexcept nogil:
    """The ranks (bit r) of which h holds >= 1 / >= 2 / >= 3 cards over the four suits. Layer i
    of a kind is the thermometer bit 'more than i copies', so two thermometers add saturating at
    3 as (a1|b1, a2|b2|a1&b1, a3|b3|a2&b1|a1&b2): first each word with itself shifted down 26
    (suits 0+2 and 1+3 in bits 0..25), then that with itself shifted down 13 (the four suits in
    bits 0..12); the bits above a step's lanes hold other sums and are cleared once at the end
    (the joker bits 52/53 never reach bits 0..12); layer 3 never changes a threshold <= 3 (it
    lies inside layer 2)."""
    cdef uint64_t a1 = h.layer[0], a2 = h.layer[1], a3 = h.layer[2]
    cdef uint64_t b1 = a1 >> 26, b2 = a2 >> 26, b3 = a3 >> 26
    cdef uint64_t c1 = a1 | b1, c2 = a2 | b2 | (a1 & b1), c3 = a3 | b3 | (a2 & b1) | (a1 & b2)
    cdef uint64_t e1 = c1 >> 13, e2 = c2 >> 13, e3 = c3 >> 13
    r1[0] = <uint32_t>((c1 | e1) & 0x1FFF)
    r2[0] = <uint32_t>((c2 | e2 | (c1 & e1)) & 0x1FFF)
    r3[0] = <uint32_t>((c3 | e3 | (c2 & e1) | (c1 & e2)) & 0x1FFF)

# ---- the closed forms (inline: _legal calls them on every meld-phase legal set; see _masks.pyx)

cdef inline uint64_t opened_empty_adds(const SBState* s, const SBConfig* c, int side, int hsize,
                                uint64_t* cand) noexcept nogil:
    """Opened side, nothing staged, at least 5 cards in hand: single_ok's answers in closed form
    for whole classes of candidates at once. Returns the candidates of *cand known completable and
    leaves in *cand those still to be checked by the callback (black threes, lay-offs needing the
    search); the others are known not completable. Exact: with h' = hsize - 1 >= 4 cards left
    after the add, the smallest completions (two more cards for a new meld, none for a lay-off
    onto a GROUP that stays valid) pass HG (h' - 2 >= 2), so
    - a new GROUP from a natural of rank r: r held >= 3 times, or twice with a wild in hand
      (group_completion: 1 + x naturals, y wilds, x + y = 2; rank counts by rank_counts);
    - a new SEQUENCE: the natural lies in a run of >= 3 held ranks of its suit (seq_completion:
      a + b = 2 neighbours);
    - a lay-off onto any GROUP of rank r: an opened side has no pending meld (open_side clears
      them all) and its GROUPs are valid, and a valid GROUP with one more natural stays valid
      (sb_group_ok(nat + 1, wild): nat + 1 >= 2 * wild when nat >= 2 * wild);
    - a lay-off onto a SEQUENCE (< 7 cards, placed) of the rank next to either end (none inside
      the run); further out when the ranks between are held and the run stays <= 7 long, the
      gap filled from the hand (seq_completion with no extension, x = gap cards) passes HG if
      h' - x >= 2 (else searched);
    - a wild: some rank held >= 2 times (a new GROUP), or a lay-off (searched);
    - a black three: a new BLACK3 or a lay-off onto one must leave <= 1 card, so only with every
      card but one a black three (then searched)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* mm
    cdef uint64_t m = cand[0], acc = 0, und = 0, wm = wild_kinds()
    cdef uint64_t seq_yes = 0, seq_maybe = 0
    cdef const Hand* hand = &s.hand[s.turn]
    cdef uint32_t R1, R2, R3, Hs, far, gap, accR, sq = mi.seqs
    cdef int r, base
    # the rank just below or above a run: laid off alone (x = 0 cards more, HG holds); further out
    # only when the hand holds a kind that some SEQUENCE's run of 7 reaches (MeldIndex.seq_far)
    # and one next to an end (the gap to a card further out holds the rank next to the run)
    seq_yes = mi.seq_adj
    if not (hand.layer[0] & mi.seq_far) or not (hand.layer[0] & seq_yes):
        sq = 0
    while sq:                                   # (sb_complete_layoff: no lay-off onto the others)
        mm = &s.melds[side][cs_ctz(sq)]
        sq &= sq - 1
        base = mm.key * 13
        # further out (held ranks of the suit outside lo - 1 .. hi + 1): the gap from the hand
        # (seq_gap for one card, written out for the side r lies on: a call here costs about
        # 2,000 instructions a deal)
        Hs = <uint32_t>((hand.layer[0] >> base) & 0x1FFF)
        far = Hs & 0x1FFC & ~((<uint32_t>1 << (mm.hi + 2)) - (<uint32_t>1 << (mm.lo - 1)))
        while far:
            r = cs_ctz(far)
            far &= far - 1
            if r < mm.lo:
                if mm.hi - r >= 7:
                    continue
                gap = ((<uint32_t>1 << mm.lo) - 1) & ~((<uint32_t>2 << r) - 1)
            else:
                if r - mm.lo >= 7:
                    continue
                gap = ((<uint32_t>1 << r) - 1) & ~((<uint32_t>2 << mm.hi) - 1)
            if gap & ~Hs:
                continue                        # a rank between is not in hand: no lay-off
            if hsize - 1 - cs_popcount(gap) >= 2:
                seq_yes |= <uint64_t>1 << (base + r)
            else:
                seq_maybe |= <uint64_t>1 << (base + r)
    rank_counts(hand, &R1, &R2, &R3)
    accR = mi.grp_ranks & R1
    if mi.slot:
        accR |= R3 | (R2 if hand.layer[0] & wild_ids() else 0)
        acc |= run_kinds(hand.layer[0])
    acc |= spread(accR & 0x1FFC) | seq_yes
    und |= seq_maybe
    if mi.slot and (R2 & 0x1FFC):
        acc |= wm
    elif mi.ngrp:
        und |= wm
    if (hand.layer[0] & ((<uint64_t>1 << 1) | (<uint64_t>1 << 40))
            and sb_size_in(hand, (<uint64_t>1 << 1) | (<uint64_t>1 << 40)) >= hsize - 1):
        und |= (<uint64_t>1 << 1) | (<uint64_t>1 << 40)
    acc &= m
    cand[0] = und & m & ~acc
    return acc

cdef inline bint class_ok(const SBState* s, const SBConfig* c, int side, int r, int sn, int sw, int hn, int hw,
                   int h) noexcept nogil:
    """add_check for a stage that after the add holds sn naturals of rank r and sw wilds and
    nothing else, the hand then holding hn naturals of rank r, hw wilds and h cards: a new GROUP
    (sb_complete_new_n's GROUP part; its SEQUENCE part needs a wild-free stage of one suit with
    each card once, so it fails with a wild or with two naturals of one rank) or a lay-off onto a
    GROUP of rank r (sb_complete_layoff's GROUP part; the SEQUENCEs' lay-off needs every staged
    card a natural of the suit, once)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef const Meld* g
    cdef uint32_t gs
    cdef bint wb, mo = may_out(s)
    if mi.slot and group_completion(sn, sw, hn, hw, 0, 0, 0, h, mi.C, 0, True, mo, c):
        return True
    gs = mi.rank_grps[r]
    while gs:
        g = &s.melds[side][cs_ctz(gs)]
        gs &= gs - 1
        if g.pending:
            continue
        wb = woc_blocks(g, c)
        if sw and wb:
            continue
        if group_completion(sn, sw, hn, hw, g.nat, g.wild, g.n, h, mi.C, 1 if g.n >= 7 else 0, not wb,
                            mo, c):
            return True
    return False

cdef inline uint64_t rank_group_adds(const SBState* s, const SBConfig* c, int side, int srank, int sn, int sw,
                                     int hsize, uint64_t* cand) noexcept nogil:
    """opened_group_adds for a stage holding naturals of rank srank >= 0 (sn of them) and sw wilds:
    the wilds one class, the naturals of srank another (class_ok); the other candidates stay in
    *cand. (A function of its own, small enough for gcc to inline where such a stage is common:
    group_stage_legal.)"""
    cdef const Hand* hand = &s.hand[s.turn]
    cdef uint64_t m = cand[0], acc = 0, cm
    cdef int hw = sb_size_in(hand, wild_ids()), hn = sb_size_in(hand, rank_mask(srank))
    cm = m & wild_kinds()
    if cm:
        if class_ok(s, c, side, srank, sn, sw + 1, hn, hw - 1, hsize - 1):
            acc |= cm
        m &= ~cm
    cm = m & rank_mask(srank)
    if cm:
        if class_ok(s, c, side, srank, sn + 1, sw, hn - 1, hw, hsize - 1):
            acc |= cm
        m &= ~cm
    cand[0] = m
    return acc

cdef inline uint64_t opened_group_adds(const SBState* s, const SBConfig* c, int side, int srank, int sn, int sw,
                                int hsize, uint64_t* cand) noexcept nogil:
    """Opened side, a stage of sn >= 0 naturals of rank srank (-1: none) and sw wilds, nothing
    else, at least one card: the candidates of *cand that keep it so fall into classes decided at
    once (class_ok) on the hand's counts of the rank and of the wilds (by popcount; the answer is
    the same whichever suit or wild was moved): every wild, and the naturals of one rank (the
    staged rank, or each rank when only wilds are staged). Returns the accepted ones; the others
    (a one-natural stage's SEQUENCE cards) stay in *cand. A wild onto a wilds-only stage: a new
    GROUP of some rank (group_completion needs >= 2 naturals of it in hand) or a lay-off onto any
    GROUP, each rank in turn."""
    cdef const Hand* hand = &s.hand[s.turn]
    cdef uint64_t m = cand[0], acc = 0, cm
    cdef int hw, r
    cdef uint32_t R1, R2, R3, todo
    if srank >= 0:
        return rank_group_adds(s, c, side, srank, sn, sw, hsize, cand)
    hw = sb_size_in(hand, wild_ids())
    cm = m & wild_kinds()
    if cm:
        rank_counts(hand, &R1, &R2, &R3)
        todo = (R2 | s.mi[side].grp_ranks) & 0x1FFC
        while todo:
            r = cs_ctz(todo)
            todo &= todo - 1
            if class_ok(s, c, side, r, 0, sw + 1, sb_size_in(hand, rank_mask(r)), hw - 1, hsize - 1):
                acc |= cm
                break
        m &= ~cm
    todo = ranks_of(m & nat_kinds())
    while todo:
        r = cs_ctz(todo)
        todo &= todo - 1
        cm = m & rank_mask(r)
        if class_ok(s, c, side, r, sn + 1, sw, sb_size_in(hand, rank_mask(r)) - 1, hw, hsize - 1):
            acc |= cm
        m &= ~cm
    cand[0] = m
    return acc

cdef inline int seq_gap(const Meld* m, uint32_t T, uint32_t Hs) noexcept nogil:
    """Naturals of m's suit of the ranks T (bit r) laid off onto SEQUENCE m with cards of the
    held ranks Hs (sb_complete_layoff's SEQUENCE test on the ranks): none of T inside m's run,
    T and the run spanning <= 7 ranks, every rank between them held. Returns the number of those
    ranks (the fewest cards a completion takes from the hand), else -1."""
    cdef uint32_t run = ((<uint32_t>1 << (m.hi + 1)) - 1) & ~((<uint32_t>1 << m.lo) - 1), U = T | run, gap
    cdef int lo, hi
    if T & run:
        return -1
    lo = cs_ctz(U)
    hi = bit_high(U)
    if hi - lo >= 7:
        return -1
    gap = (((<uint32_t>1 << (hi - lo + 1)) - 1) << lo) & ~U
    if gap & ~Hs:
        return -1
    return cs_popcount(gap)

cdef inline int seq_shape(uint32_t T, uint32_t Hs, uint32_t* gap) noexcept nogil:
    """Naturals of one suit of the ranks T (bit r; two ranks or more, 4..A) can become a new
    SEQUENCE with cards of the held ranks Hs (seq_completion's shape) if they span <= 7 ranks,
    every rank between them is held (*gap: those ranks) and two ranks have a held neighbour
    (4..A) at either end: then their span less one (>= 1), else -1."""
    cdef int lo = cs_ctz(T), hi = bit_high(T)
    if hi - lo > 6:
        return -1
    gap[0] = (((<uint32_t>1 << (hi - lo + 1)) - 1) << lo) & ~T
    if gap[0] & ~Hs:
        return -1
    if hi - lo >= 2 or (lo - 1 >= 2 and (Hs >> (lo - 1)) & 1) or (hi + 1 <= 12 and (Hs >> (hi + 1)) & 1):
        return hi - lo
    return -1

cdef inline uint64_t opened_seq_adds(const SBState* s, int side, uint64_t smask, int su, int hsize,
                              uint64_t* cand, uint64_t* hg_und) noexcept nogil:
    """Opened side, a SEQUENCE-shaped stage (naturals of suit su, each once, no wild; smask its
    kinds) of >= 2 ranks after the add, a free slot: the next cards of the suit (*cand) decided
    in closed form for a new SEQUENCE; those it cannot accept stay in *cand for the callback when
    the hand guard needs going out or a SEQUENCE of the suit is on the table (a lay-off), else
    are refused. Exact (sb_complete_new_n's SEQUENCE part; its GROUP part fails with two ranks
    staged; seq_completion): the run lo..hi of the staged ranks and the candidate must span <= 7
    ranks with every missing rank in hand, then 3 or more ranks need no extension and 2 ranks one
    held neighbour; the fewest cards so used (the gaps, plus one for 2 ranks) leave the most in
    hand, so the hand guard holds for some completion if it holds for that one with >= 2 cards
    left, and otherwise only by going out (searched). hg_und (may be NULL): those left because of
    the hand guard alone (a new SEQUENCE's shape fits)."""
    cdef const MeldIndex* mi = &s.mi[side]
    cdef uint64_t m = cand[0], acc = 0, und = 0, hgu = 0, bit
    cdef int k, d
    cdef uint32_t R, Hs, need
    # a SEQUENCE of the suit that can grow: each has a kind next to an end (MeldIndex.seq_adj)
    cdef bint seq_on_table = ((mi.seq_adj >> (13 * su)) & 0x1FFF) != 0
    R = <uint32_t>((smask >> (13 * su)) & 0x1FFF)
    Hs = <uint32_t>((s.hand[s.turn].layer[0] >> (13 * su)) & 0x1FFF)
    while m:
        k = cs_ctz(m)
        bit = <uint64_t>1 << k
        m &= m - 1
        d = seq_shape(R | (<uint32_t>1 << (k % 13)), Hs, &need)
        if d >= 0:
            # the gap, and for two ranks one neighbour more
            if hsize - 1 - cs_popcount(need) - (0 if d >= 2 else 1) >= 2:
                acc |= bit
            else:
                und |= bit
                hgu |= bit
        elif seq_on_table:
            und |= bit
    cand[0] = und
    if hg_und != NULL:
        hg_und[0] = hgu
    return acc
