"""Samba's constructive meld builder (docs/rules/samba.md §4.3 initial meld): a meld set built
from count vectors by rules of thumb (GROUPs first or SEQUENCEs first, the wilds onto the
GROUPs), trimmed to a card budget; sb_best_value is the value the initial-meld search
(`_opening`: opening_fast, try_rest) may count on from the cards left after the staged meld,
and the kinds its meld set holds (units_kinds) let one search decide several ADD candidates.
Pure kernels on count vectors; only the types and inline helpers of _rules.pxd are used."""
from libc.string cimport memcpy, memset
from cardsim.core._types cimport int8_t, uint32_t, uint64_t
from cardsim.games.samba._rules cimport (SBConfig, SB_KINDS, SB_JK, MT_NONE, MT_GROUP, MT_SEQ, sb_group_ok,
                                         sb_nat_of_rank, sb_rank_value, sb_kinds)

cdef enum:
    MAXU = 64

ctypedef struct Unit:
    int8_t type              # MT_GROUP / MT_SEQ
    int8_t key               # rank (GROUP) / suit (SEQ)
    int8_t nat               # naturals (GROUP) / low end (SEQ)
    int8_t hi                # SEQ high end
    int8_t jk                # jokers in it (GROUP)
    int8_t dw                # deuces in it (GROUP)

cdef inline int wild_cap(int nat, const SBConfig* c) noexcept nogil:
    if c.dutch_groups:
        return 2 if nat // 2 > 2 else nat // 2
    return 2

cdef int build_units(int8_t* H, bint seq_first, uint32_t seqs, Unit* u, const SBConfig* c) noexcept nogil:
    """A constructive meld set from H (consumed): GROUPs of every rank with >= 3 naturals, pairs
    with a wild while wilds last, SEQUENCEs (maximal runs cut at 7) from the cards left (or
    SEQUENCEs first when seq_first; only in the suits of the mask seqs, the others holding no run),
    then every remaining wild (jokers first) onto the groups within their limits. Returns the
    number of units."""
    cdef int nu = 0, r, s, k, cnt, need, st, L, i, jk, dw, cap
    cdef int pairs = 0
    if seq_first and seqs:
        nu = build_seqs(H, u, nu, seqs)
    jk = H[SB_JK]
    dw = H[0] + H[13] + H[26] + H[39]
    for r in range(12, 1, -1):
        cnt = sb_nat_of_rank(H, r)
        if cnt >= 3 or (cnt == 2 and jk + dw > 0):
            u[nu].type = MT_GROUP
            u[nu].key = r
            u[nu].nat = cnt
            u[nu].jk = 0
            u[nu].dw = 0
            if cnt == 2:
                if jk:
                    u[nu].jk = 1
                    jk -= 1
                else:
                    u[nu].dw = 1
                    dw -= 1
            for s in range(4):
                H[s * 13 + r] = 0
            nu += 1
    if not seq_first and seqs:
        nu = build_seqs(H, u, nu, seqs)
    for i in range(nu):
        if u[i].type != MT_GROUP:
            continue
        cap = wild_cap(u[i].nat, c) - u[i].jk - u[i].dw
        while cap > 0 and jk > 0:
            u[i].jk += 1
            jk -= 1
            cap -= 1
        while cap > 0 and dw > 0:
            u[i].dw += 1
            dw -= 1
            cap -= 1
    return nu

cdef int build_seqs(int8_t* H, Unit* u, int nu, uint32_t suits) noexcept nogil:
    """SEQUENCEs (maximal runs cut at 7, again while copies last) of the suits in the mask
    `suits` (the others hold no three consecutive ranks), taken from H."""
    cdef int s, r, st, L
    for s in range(4):
        if not (suits >> s) & 1:
            continue
        r = 2
        while r <= 12:
            if H[s * 13 + r] == 0:
                r += 1
                continue
            st = r
            while r <= 12 and H[s * 13 + r] > 0 and r - st < 7:
                r += 1
            L = r - st
            if L >= 3:
                u[nu].type = MT_SEQ
                u[nu].key = s
                u[nu].nat = st
                u[nu].hi = r - 1
                u[nu].jk = 0
                u[nu].dw = 0
                for L in range(st, r):
                    H[s * 13 + L] -= 1
                nu += 1
                r = st      # the same ranks may hold further copies for another run
                if H[s * 13 + st] == 0:
                    r = st + 1
    return nu

cdef int units_eval(Unit* u, int nu, int budget, const SBConfig* c) noexcept nogil:
    """Value of the units after trimming them to at most `budget` cards: repeatedly remove the
    cheapest single card whose removal keeps its meld valid, else drop the cheapest meld."""
    cdef int i, cards = 0, val = 0, best, bv, how, v, n
    for i in range(nu):
        if u[i].type == MT_GROUP:
            cards += u[i].nat + u[i].jk + u[i].dw
            val += u[i].nat * sb_rank_value(u[i].key) + 50 * u[i].jk + 20 * u[i].dw
        elif u[i].type == MT_SEQ:
            cards += u[i].hi - u[i].nat + 1
            for n in range(u[i].nat, u[i].hi + 1):
                val += sb_rank_value(n)
    while cards > budget:
        best = -1
        bv = 1000
        how = 0
        for i in range(nu):
            if u[i].type == MT_GROUP:
                n = u[i].nat + u[i].jk + u[i].dw
                if n >= 4 and sb_group_ok(u[i].nat - 1, u[i].jk + u[i].dw, c) and sb_rank_value(u[i].key) < bv:
                    bv = sb_rank_value(u[i].key); best = i; how = 1
                if n >= 4 and u[i].dw and 20 < bv:
                    bv = 20; best = i; how = 2
                if n >= 4 and u[i].jk and 50 < bv:
                    bv = 50; best = i; how = 3
            elif u[i].type == MT_SEQ and u[i].hi - u[i].nat >= 3:
                if sb_rank_value(u[i].nat) < bv:
                    bv = sb_rank_value(u[i].nat); best = i; how = 4
                if sb_rank_value(u[i].hi) < bv:
                    bv = sb_rank_value(u[i].hi); best = i; how = 5
        if best >= 0:
            cards -= 1
            val -= bv
            if how == 1:
                u[best].nat -= 1
            elif how == 2:
                u[best].dw -= 1
            elif how == 3:
                u[best].jk -= 1
            elif how == 4:
                u[best].nat += 1
            else:
                u[best].hi -= 1
            continue
        # no single card can go: drop the cheapest whole meld
        bv = 100000
        for i in range(nu):
            if u[i].type == MT_NONE:
                continue
            v = 0
            if u[i].type == MT_GROUP:
                v = u[i].nat * sb_rank_value(u[i].key) + 50 * u[i].jk + 20 * u[i].dw
            else:
                for n in range(u[i].nat, u[i].hi + 1):
                    v += sb_rank_value(n)
            if v < bv:
                bv = v; best = i
        if best < 0:
            return 0
        if u[best].type == MT_GROUP:
            cards -= u[best].nat + u[best].jk + u[best].dw
        else:
            cards -= u[best].hi - u[best].nat + 1
        val -= bv
        u[best].type = MT_NONE
    return val

cdef int sb_best_value(const int8_t* H, int budget, const SBConfig* c, uint64_t* wit, int target) noexcept nogil:
    """Card value of a meld set the engine can build from H (black and red threes never count)
    using at most `budget` cards: the better of groups-first and sequences-first constructions
    (build_units), trimmed to the budget (units_eval); the two are the same construction when no
    suit holds three consecutive ranks (no SEQUENCE either way), then built once. Constructive,
    so never more than what is reachable. The sequences-first construction is skipped when the
    groups-first one is already worth >= target (the callers only ask whether target is reached).
    wit (may be NULL): |= the kinds some copy of which is in a construction worth >= target
    (units_kinds)."""
    cdef int8_t tmp[SB_KINDS]
    cdef Unit u[MAXU]
    cdef Unit u2[MAXU]
    cdef int nu, nu2, k, v1, v2, su
    cdef uint32_t m, runs = 0
    cdef uint64_t held
    if budget < 3:
        return 0
    held = sb_kinds(H)
    for su in range(4):
        m = <uint32_t>(held >> (13 * su)) & 0x1FFC
        if m & (m >> 1) & (m >> 2):
            runs |= <uint32_t>1 << su           # suit su holds three consecutive ranks
    memcpy(tmp, H, SB_KINDS)
    nu = build_units(tmp, False, runs, u, c)
    v1 = units_eval(u, nu, budget, c)
    if runs == 0 or v1 >= target:
        if wit != NULL and v1 >= target:
            wit[0] |= units_kinds(u, nu, H)
        return v1
    memcpy(tmp, H, SB_KINDS)
    nu2 = build_units(tmp, True, runs, u2, c)
    v2 = units_eval(u2, nu2, budget, c)
    if wit != NULL:
        if v1 >= target:
            wit[0] |= units_kinds(u, nu, H)
        if v2 >= target:
            wit[0] |= units_kinds(u2, nu2, H)
    return v1 if v1 > v2 else v2

cdef uint64_t units_kinds(const Unit* u, int nu, const int8_t* H) noexcept nogil:
    """The kinds k such that the units (built from H and trimmed) can be chosen to hold a copy of
    k: a SEQUENCE's cards; for a GROUP of rank r, every kind of rank r with a copy in H beyond the
    SEQUENCEs' (a GROUP's validity depends only on its counts, so any such copy can stand for one
    of its naturals); every held deuce for a GROUP with deuces, the joker for one with jokers."""
    cdef int8_t used[SB_KINDS]
    cdef uint64_t w = 0
    cdef int i, r, s
    memset(used, 0, SB_KINDS)
    for i in range(nu):
        if u[i].type == MT_SEQ:
            for r in range(u[i].nat, u[i].hi + 1):
                used[u[i].key * 13 + r] += 1
                w |= <uint64_t>1 << (u[i].key * 13 + r)
    for i in range(nu):
        if u[i].type != MT_GROUP:
            continue
        r = u[i].key
        for s in range(4):
            if H[s * 13 + r] > used[s * 13 + r]:
                w |= <uint64_t>1 << (s * 13 + r)
        if u[i].jk:
            w |= <uint64_t>1 << SB_JK
        if u[i].dw:
            for s in range(4):
                if H[s * 13]:
                    w |= <uint64_t>1 << (s * 13)
    return w

