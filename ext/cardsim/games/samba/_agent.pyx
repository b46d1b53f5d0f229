"""Samba: the greedy agent (the default agent wherever none is given; docs/rules/samba.md).

Greedy agent: takes the pile whenever it can (lay-off pickup, Dutch top card, natural pair),
else draws; in the pile group adds every natural of the rank, then commits; builds moves in this
order: merge groups of one rank, lay off naturals onto its groups and sequences, meld ranks of
three or more, meld runs of three or more of a suit, put a wild on a group of five or six cards
(to make a canasta), place manual red threes; a staged move is continued with the cards that
fit it and committed as soon as nothing more fits; it discards a black three if it has one, else
its lowest-valued card of a rank it holds once (never a wild while it has anything else).
"""
from cardsim.core._types cimport int8_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.games.samba._rules cimport (
    SBConfig, SB_KINDS, SB_JK, SB_MAXMELDS, MT_GROUP, MT_SEQ, sb_card_value, sb_counts, rank_of, suit_of, is_wild,
    is_natural, is_red3, sb_nat_of_rank, sb_wilds, sb_total)
from cardsim.games.samba._state cimport (
    SBState, NW, A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_MELD, A_RED3, A_ASK, A_YES, A_LAYOFF, A_TAKE_LAYOFF,
    A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO, PH_DRAW, PH_ANSWER, side_of)

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
