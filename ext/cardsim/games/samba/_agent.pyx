"""Samba: the greedy agent (the default agent wherever none is given; docs/rules/samba.md).

Greedy agent: takes the pile whenever it can (lay-off pickup, Dutch top card, natural pair),
else draws; in the pile group adds every natural of the rank, then commits; builds moves in this
order: merge groups of one rank, lay off naturals onto its groups and sequences, meld ranks of
three or more, meld runs of three or more of a suit, put a wild on a group of five or six cards
(to make a canasta), place manual red threes; a staged move is continued with the cards that
fit it and committed as soon as nothing more fits; it discards a black three if it has one, else
its lowest-valued card of a rank it holds once (never a wild while it has anything else).
"""
from cardsim.core._types cimport int8_t, uint32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._bits cimport cs_ctz, bit_high
from cardsim.core._hand cimport Hand
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.games.samba._rules cimport (
    sb_size, sb_size_in,
    SBConfig, Meld, SB_KINDS, SB_JK, SB_MAXMELDS, MT_GROUP, MT_SEQ, rank_of, suit_of, is_wild, is_red3,
    is_black3, sb_rank_value, sb_card_value, rank_mask, nat_kinds, wild_ids, spread)
from cardsim.games.samba._masks cimport rank_counts
from cardsim.games.samba._state cimport (
    SBState, MeldIndex, NW, A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_MELD, A_RED3, A_ASK, A_YES, A_LAYOFF, A_TAKE_LAYOFF,
    A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO, PH_DRAW, PH_ANSWER, side_of, count_kind)

cdef inline uint64_t bits_at(const ActionSet* legal, int base) noexcept nogil:
    """The 64 actions base .. base + 63 of the set as a mask (bit j: action base + j; the
    action space's words past NW read as zero: ActionSet holds 16 words)."""
    cdef int w = base >> 6, sh = base & 63
    if sh == 0:
        return legal.w[w]
    return (legal.w[w] >> sh) | (legal.w[w + 1] << (64 - sh))

cdef inline int first_in(const ActionSet* legal, int lo, int hi) noexcept nogil:
    """The lowest legal action in lo .. hi - 1 (hi - lo <= 64), -1 if none."""
    cdef uint64_t m = bits_at(legal, lo)
    if hi - lo < 64:
        m &= (<uint64_t>1 << (hi - lo)) - 1
    return lo + cs_ctz(m) if m else -1

cdef int discard_choice(const SBState* s, const ActionSet* legal, const Hand* hand) noexcept nogil:
    """A black three if legal; else the lowest-valued natural held once; else the lowest-valued
    legal discard, wilds last (ties: the lowest kind)."""
    cdef int k, best = -1, bv = 100000, v
    cdef uint64_t m = bits_at(legal, A_DISCARD) & ((<uint64_t>1 << SB_KINDS) - 1)
    if m & (<uint64_t>1 << 1):
        return A_DISCARD + 1
    if m & (<uint64_t>1 << 40):
        return A_DISCARD + 40
    while m:
        k = cs_ctz(m)
        m &= m - 1
        v = sb_card_value(k) * 10 + count_kind(hand, k) * 100
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
    """The policy of the module docstring. The candidates are read off the legal set's words
    and the packed hands' bits (lowest action first, as a scan in action order would find)."""
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef int p = s.turn, side = side_of(c, p), a, k, r, i, su, lo, hi, ssize, sr
    cdef uint64_t adds, m, held, st0
    cdef uint32_t R, R1, R2, R3, g
    cdef const Meld* mm
    cdef const MeldIndex* mi
    cdef const Hand* hand = &s.hand[p]
    cdef const Hand* stage = &s.stage.cards
    if n_legal == 1:
        return as_first(legal, NW)
    if s.phase == PH_ANSWER:
        return A_YES
    if s.phase == PH_DRAW:
        a = first_in(legal, A_TAKE_LAYOFF, A_TAKE_SEQ + SB_MAXMELDS)     # (64 actions)
        if a >= 0:
            return a
        if as_has(legal, A_TAKE_PAIR):
            return A_TAKE_PAIR
        if as_has(legal, A_DRAW):
            return A_DRAW
        return as_first(legal, NW)
    if s.merge_from >= 0:
        return first_in(legal, A_MERGE_TO, A_MERGE_TO + SB_MAXMELDS)
    adds = bits_at(legal, A_ADD) & ((<uint64_t>1 << SB_KINDS) - 1)
    if s.pile_take == 1:
        m = adds & rank_mask(rank_of(s.take_top))
        if m:
            return A_ADD + cs_ctz(m)
        if as_has(legal, A_MELD):
            return A_MELD
        return A_ADD + cs_ctz(adds) if adds else -1
    ssize = sb_size(stage)
    if ssize:
        # continue the staged move with cards that fit it, then commit
        st0 = stage.layer[0] & nat_kinds()         # the staged naturals (kinds 0..51)
        if st0:
            k = cs_ctz(st0)
            r = rank_of(k)
            su = suit_of(k)
            sr = sb_size_in(stage, rank_mask(r))  # staged naturals of rank r
            # same rank (a group or a lay-off on one): every staged card but the wilds of rank r
            m = adds & rank_mask(r)
            if m and sr == ssize - sb_size_in(stage, wild_ids()):
                return A_ADD + cs_ctz(m)
            # the next card of a run
            R = <uint32_t>((st0 >> (13 * su)) & 0x1FFC)
            lo = cs_ctz(R)
            hi = bit_high(R)
            if hi > lo or sr == 1:
                k = su * 13 + hi + 1
                if hi + 1 <= 12 and (adds >> k) & 1 and not (stage.layer[0] >> k) & 1:
                    if not (hi == lo and not (hand.layer[0] >> k) & 1):
                        return A_ADD + k
        a = first_in(legal, A_LAYOFF, A_LAYOFF + SB_MAXMELDS)
        if a >= 0:
            return a
        if as_has(legal, A_MELD):
            return A_MELD
        return A_ADD + cs_ctz(adds) if adds else -1
    # nothing staged: pick the next move
    a = first_in(legal, A_MERGE_FROM, A_MERGE_FROM + SB_MAXMELDS)
    if a >= 0:
        return a
    if as_has(legal, A_ASK):
        return A_ASK
    for i in range(2):
        if as_has(legal, A_RED3 + i):
            return A_RED3 + i
    # naturals that extend the side's melds (lay-offs): a placed GROUP's rank, the ranks next to
    # a SEQUENCE's ends (< 7 cards); then ranks held three times or more, then runs of three.
    # The side's melds come indexed (s.mi: the GROUPs, their ranks, the other melds); an opened
    # side has no pending meld (open_side clears them all).
    mi = &s.mi[side]
    if s.opened[side]:
        m = spread(mi.grp_ranks)
    else:
        m = 0
        g = mi.grps
        while g:
            mm = &s.melds[side][cs_ctz(g)]
            g &= g - 1
            if not mm.pending:
                m |= rank_mask(mm.key)
    for i in range(mi.nlive - mi.ngrp):
        mm = &s.melds[side][mi.oth[i]]
        if mm.type == MT_SEQ and mm.n < 7:
            if mm.lo - 1 >= 0:
                m |= <uint64_t>1 << (mm.key * 13 + mm.lo - 1)
            if mm.hi + 1 <= 12:
                m |= <uint64_t>1 << (mm.key * 13 + mm.hi + 1)
    m &= adds & nat_kinds()
    if m:
        return A_ADD + cs_ctz(m)
    # the ranks held >= 3 (R3) and >= 2 (R2) times over the four suits, highest rank first
    rank_counts(hand, &R1, &R2, &R3)
    R = R3 & 0x1FFC
    while R:
        r = bit_high(R)
        R &= ~(<uint32_t>1 << r)
        m = adds & rank_mask(r)
        if m:
            return A_ADD + cs_ctz(m)
    # a natural of rank <= 10 (a queen at most) whose next two ranks of its suit are held
    held = hand.layer[0]
    m = adds & nat_kinds() & (held >> 1) & (held >> 2) & ~(rank_mask(11) | rank_mask(12))
    if m:
        return A_ADD + cs_ctz(m)
    # a wild onto a group of five or six cards
    g = mi.grps
    while g:
        mm = &s.melds[side][cs_ctz(g)]
        g &= g - 1
        if 5 <= mm.n <= 6 and mm.wild < 2:
            if adds & (<uint64_t>1 << SB_JK):
                return A_ADD + SB_JK
            m = adds & rank_mask(0)
            if m:
                return A_ADD + cs_ctz(m)
    # an opening that needs pairs with wilds: any legal ADD of a natural pair rank
    if not s.opened[side]:
        R = R2 & 0x1FFC
        while R:
            r = bit_high(R)
            R &= ~(<uint32_t>1 << r)
            m = adds & rank_mask(r)
            if m:
                return A_ADD + cs_ctz(m)
    a = discard_choice(s, legal, hand)
    if a >= 0:
        return a
    return as_first(legal, NW)
