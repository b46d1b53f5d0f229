"""Samba going-out searches (docs/rules/samba.md §4.0 HG, §4.3, §4.4): exact, bounded, sound.

x_free: do disjoint GROUPs and SEQUENCEs of some of the cards H (at most `budget` of them) reach
`need` points with at least K canastas among them? Every partition of the naturals into
SEQUENCEs, GROUPs (several per rank allowed, S-D3) and unused cards, then the wilds placed on the
GROUPs, jokers first. With K > 0 it also chooses how many canastas each rank's GROUPs form (the
wild counts g naturals can carry while forming >= k canastas are an interval, tabled below). The
initial-meld search of _opening uses it: K = 0 with a card budget (the hand keeps 2 cards),
K > 0 without one (an initial batch holding the side's going_out_min_canastas canastas may empty
the hand, HG).

sb_go_out_ok / _placed / _merged: can the seat to act still go out this turn? (the going-out
plans of §4.4 GO_OUT_QUERY, S-D11: melds, lay-offs onto the side's melds, red threes, then at
most one discard; the hand guard at every step; black threes only as the going-out meld, S-D9).
The search: the discarded card (none or one kind), the extensions of the side's sequences, new
sequences rank by rank, every natural left over joining GROUPs of its rank (new ones, or laid off
onto the side's GROUPs of that rank; per rank a table of the wild counts that fit with >= k
canastas), then the wilds shared out over the ranks with the canastas counted (a small DP).
The side's GROUPs of a rank may first be merged (every set partition). Order of the
steps: any plan whose final position has the canastas can be ordered so that only its last step
matters for HG, except a plan of single-card lay-offs that each complete a canasta (handled by
the rule `hand <= canastas missing`). Bounds (docs/rules/samba.md, engine limits): at most
4 GROUPs of a rank take cards or merge (others stay as they are); a merge that makes a canasta
closed to wilds (wild_onto_canasta) takes no new wild; at most ONODES search nodes per query;
while an unopened side's batch is pending, the rest of a plan goes into new melds (the same
positions are reached by staging those cards into the batch's melds). A bound only ever answers
no: the engine never offers an action that cannot be completed.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, uint32_t
from cardsim.core._bits cimport cs_ctz
from cardsim.games.samba._rules cimport (
    SBConfig, Meld, SB_KINDS, SB_JK, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ, MT_BLACK3, WOC_NEVER,
    WOC_NOT_NATURAL, is_natural, is_black3, rank_of, suit_of, sb_group_ok, sb_nat_of_rank, sb_wilds, sb_total)

cdef int OVAL[13]            # card values by rank (§2): 2 = 20, 3 (black) = 5 is not melded here
OVAL[:] = [20, 0, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20]

# [dutch][g][k]: g naturals of one rank and w wilds split into valid GROUPs with >= k canastas:
cdef uint32_t NEWM[2][13][3]         # bit w set if possible
cdef uint32_t NEWU[2][13][3]         # ... for some g' <= g naturals (the rest laid off elsewhere)
cdef int8_t WLO[2][13][3]            # lowest and highest such w (an interval), -1 if none
cdef int8_t WHI[2][13][3]

def _group_tables():
    """best[g, w] = most canastas of a split of g naturals and w wilds into valid GROUPs (-1: none),
    by the first GROUP's naturals and wilds (a brute force; the tables are read from it)."""
    cdef int d, g, w, n, y, b, k, sub
    for d in range(2):
        best = {}
        for g in range(13):
            for w in range(25):
                b = 0 if g == 0 and w == 0 else -1
                for n in range(2, g + 1):
                    for y in range(min(2, w) + 1):
                        if n + y < 3 or (d and n < 2 * y):
                            continue
                        sub = best[(g - n, w - y)]
                        if sub >= 0 and sub + (1 if n + y >= 7 else 0) > b:
                            b = sub + (1 if n + y >= 7 else 0)
                best[(g, w)] = b
        for k in range(3):
            acc = 0
            for g in range(13):
                m = sum(1 << w for w in range(25) if best[(g, w)] >= k)
                acc |= m
                NEWM[d][g][k] = m
                NEWU[d][g][k] = acc
                WLO[d][g][k] = (m & -m).bit_length() - 1 if m else -1
                WHI[d][g][k] = m.bit_length() - 1 if m else -1

_group_tables()

# ---------------------------------------------------------------------------------------------
# x_free: an initial batch from some of the cards (exact)
# ---------------------------------------------------------------------------------------------
cdef enum:
    XNODES = 200000          # search nodes per query (engine limit, docs/rules/samba.md)

ctypedef struct XCtx:
    int8_t R[SB_KINDS]       # cards still undecided (ranks >= the current one) and the wilds
    int8_t g[13]             # naturals put into GROUPs, per rank
    int8_t k[13]             # canastas those GROUPs form (K > 0 only)
    int B                    # cards the batch may still use
    int N                    # value the batch must reach
    int K                    # canastas the batch must hold
    int kc                   # sambas chosen
    int used                 # cards used
    int val                  # value of the cards used (wilds not yet)
    int pot                  # value of the undecided naturals and of every wild
    int nodes
    int dutch

cdef bint x_final(XCtx* x) noexcept nogil:
    cdef int r, mn = 0, mx = 0, J = x.R[SB_JK], D = x.R[0] + x.R[13] + x.R[26] + x.R[39], w, j, t = x.kc
    for r in range(2, 13):
        mn += WLO[x.dutch][x.g[r]][x.k[r]]
        mx += WHI[x.dutch][x.g[r]][x.k[r]]
        t += x.k[r]
    if t < x.K:
        return False
    w = mx
    if J + D < w:
        w = J + D
    if x.B - x.used < w:
        w = x.B - x.used
    if w < mn:
        return False
    j = w if w < J else J
    return x.val + 50 * j + 20 * (w - j) >= x.N

cdef bint x_rank(XCtx* x, int r) noexcept nogil:
    x.nodes += 1
    if x.nodes > XNODES or x.val + x.pot < x.N:
        return False
    if r > 12:
        return x_final(x)
    return x_seq(x, r, 0, 7)

cdef bint x_seq(XCtx* x, int r, int s, int maxL) noexcept nogil:
    """SEQUENCEs starting at rank r of suits s.. (lengths non-increasing per suit: each set once),
    then the GROUPs of rank r."""
    cdef int k = s * 13 + r, L, i, v
    cdef bint ok
    if s == 4:
        return x_groups(x, r)
    if x.R[k] > 0:
        L = 0
        while L < maxL and r + L <= 12 and x.R[k + L] > 0:
            L += 1
        while L >= 3:
            if x.used + L <= x.B:
                v = 0
                for i in range(L):
                    x.R[k + i] -= 1
                    v += OVAL[r + i]
                x.used += L
                x.val += v
                x.pot -= v
                x.kc += L == 7
                ok = x_seq(x, r, s, L)
                x.kc -= L == 7
                for i in range(L):
                    x.R[k + i] += 1
                x.used -= L
                x.val -= v
                x.pot += v
                if ok:
                    return True
            L -= 1
    return x_seq(x, r, s + 1, 7)

cdef bint x_groups(XCtx* x, int r) noexcept nogil:
    """The naturals of rank r left after the SEQUENCEs: g of them into GROUPs forming kk
    canastas, the rest unused."""
    cdef int L = sb_nat_of_rank(x.R, r), g, kk
    cdef bint ok = False
    x.pot -= L * OVAL[r]
    g = L
    while g >= 0 and not ok:
        if g != 1 and x.used + g <= x.B:
            x.g[r] = g
            x.used += g
            x.val += g * OVAL[r]
            kk = 0
            while not ok and kk <= (2 if x.K > 0 else 0) and WLO[x.dutch][g][kk] >= 0:
                x.k[r] = kk
                ok = x_rank(x, r + 1)
                kk += 1
            x.used -= g
            x.val -= g * OVAL[r]
            x.g[r] = 0
            x.k[r] = 0
        g -= 1
    x.pot += L * OVAL[r]
    return ok

cdef bint x_free(const int8_t* H, int budget, int need, int K, const SBConfig* c) noexcept nogil:
    """Exact: do disjoint GROUPs and SEQUENCEs of the cards H, at most `budget` of them, reach
    `need` points and hold at least K canastas?"""
    cdef XCtx x
    cdef int k
    if need <= 0 and K <= 0:
        return budget >= 0
    if budget < 3:
        return False
    x.pot = 0
    for k in range(SB_KINDS):
        x.R[k] = H[k]
        if is_natural(k):
            x.pot += H[k] * OVAL[k % 13]
    x.pot += 50 * H[SB_JK] + 20 * (H[0] + H[13] + H[26] + H[39])
    memset(x.g, 0, 13)
    memset(x.k, 0, 13)
    x.B = budget
    x.N = need
    x.K = K
    x.kc = 0
    x.used = 0
    x.val = 0
    x.nodes = 0
    x.dutch = 1 if c.dutch_groups else 0
    return x_rank(&x, 2)

cdef int sb_canasta_bound(const int8_t* A, const int8_t* B) noexcept nogil:
    """An upper bound of the canastas disjoint melds of the cards A + B can hold: a canasta GROUP
    needs 5 naturals of its rank (at most 2 wilds), a samba 7 naturals of its suit."""
    cdef int r, s, n = 0, t
    for r in range(2, 13):
        n += (sb_nat_of_rank(A, r) + sb_nat_of_rank(B, r)) // 5
    for s in range(4):
        t = 0
        for r in range(2, 13):
            t += A[s * 13 + r] + B[s * 13 + r]
        n += t // 7
    return n

# ---------------------------------------------------------------------------------------------
# going out: the rest of the turn empties the hand
# ---------------------------------------------------------------------------------------------
cdef enum:
    OMAXG = 4                # GROUPs of one rank that take cards in the search (engine limit)
    ONODES = 100000          # search nodes per query (engine limit)

ctypedef struct OCtx:
    int8_t R[SB_KINDS]       # cards still to place in this branch (naturals and wilds)
    int8_t ng[13]            # the side's GROUPs that take cards, per rank: naturals, wilds,
    int8_t gn[13][4]         # closed to wilds (wild_onto_canasta, S-D6)
    int8_t gw[13][4]
    int8_t gp[13][4]
    int8_t sqs[32]           # the side's SEQUENCEs of < 7 cards: suit, low and high rank
    int8_t sqlo[32]
    int8_t sqhi[32]
    int8_t gl[13]            # naturals of each rank left to the GROUPs in this branch
    int nsq
    int b3                   # room in the roomiest BLACK3 meld (6 - its cards), -1 none
    int base                 # canastas the rank tables do not count (sambas, melds taking nothing)
    int C                    # canastas on the table (every meld, a pending batch's too)
    int kc                   # sambas made in this branch
    int K                    # going_out_min_canastas
    int nodes
    int dutch
    int woc
    uint32_t RM[13][13][3]   # rank r, g naturals to its GROUPs: bit w if w wilds fit with >= k canastas

cdef void o_add(OCtx* x, int type, int key, int lo, int hi, int nat, int wild, bint active) noexcept nogil:
    """A meld of the side (after the action being judged): counted, and open to lay-offs if
    active (the side has opened)."""
    cdef int n = nat + wild if type == MT_GROUP else (hi - lo + 1 if type == MT_SEQ else nat), i
    cdef bint can = (type == MT_GROUP and n >= 7) or (type == MT_SEQ and n == 7)
    x.C += can
    if type == MT_GROUP and active and x.ng[key] < OMAXG:
        i = x.ng[key]
        x.gn[key][i] = nat
        x.gw[key][i] = wild
        x.gp[key][i] = n >= 7 and (x.woc == WOC_NEVER or (x.woc == WOC_NOT_NATURAL and wild == 0))
        x.ng[key] += 1
    elif type == MT_SEQ and active and n < 7:
        x.sqs[x.nsq] = key
        x.sqlo[x.nsq] = lo
        x.sqhi[x.nsq] = hi
        x.nsq += 1
    elif type == MT_BLACK3:
        if active and 6 - nat > x.b3:
            x.b3 = 6 - nat
    else:
        x.base += can

cdef void o_build(OCtx* x, const Meld* melds, bint active, int skip1, int skip2, const SBConfig* c) noexcept nogil:
    cdef int i
    memset(x.ng, 0, 13)
    x.nsq = 0
    x.b3 = -1
    x.base = 0
    x.C = 0
    x.K = c.min_canastas
    x.dutch = 1 if c.dutch_groups else 0
    x.woc = c.woc
    for i in range(SB_MAXMELDS):
        if melds[i].type != MT_NONE and i != skip1 and i != skip2:
            o_add(x, melds[i].type, melds[i].key, melds[i].lo, melds[i].hi, melds[i].nat, melds[i].wild, active)

cdef void o_rm_rec(OCtx* x, int r, int cnt, int i, int nc, const int8_t* cn, const int8_t* cw, const int8_t* cap,
                   int xs, int ys, int kc) noexcept nogil:
    """GROUP i of rank r (of nc, after the merges chosen) takes y wilds and just the naturals they
    need (Dutch), or enough to become a canasta; the naturals left (some of them, when a GROUP can
    take the rest) form new GROUPs."""
    cdef int y, xo, t, g, k, n, w
    cdef uint32_t m
    if xs > cnt:
        return
    if i == nc:
        for g in range(xs, cnt + 1):
            for k in range(3):
                m = NEWU[x.dutch][g - xs][k] if nc else NEWM[x.dutch][g - xs][k]
                if m:
                    t = kc + k if kc + k < 2 else 2
                    x.RM[r][g][t] |= m << ys
        return
    n = cn[i]
    w = cw[i]
    for y in range(cap[i] + 1):
        xo = 2 * (w + y) - n if x.dutch and 2 * (w + y) > n else 0
        o_rm_rec(x, r, cnt, i + 1, nc, cn, cw, cap, xs + xo, ys + y, kc + (1 if n + w + y + xo >= 7 else 0))
        t = 7 - n - w - y
        if t > xo:
            o_rm_rec(x, r, cnt, i + 1, nc, cn, cw, cap, xs + t, ys + y, kc + 1)

cdef void o_rm_part(OCtx* x, int r, int cnt, int i, int8_t* part, int np) noexcept nogil:
    """Every way of merging the side's GROUPs of rank r (set partitions: part[i] = the merged GROUP
    of GROUP i), each then searched by o_rm_rec. A merged GROUP keeps <= 2 wilds; a canasta closed
    to wilds (wild_onto_canasta) merges only with GROUPs without wilds and takes no wild; a merge
    that makes such a canasta before the wilds could join takes no new wild (S-D6, EX-S10)."""
    cdef int8_t cn[4]
    cdef int8_t cw[4]
    cdef int8_t cap[4]
    cdef int8_t cm[4]
    cdef int8_t cp[4]
    cdef int j, q, c
    if i < x.ng[r]:
        for j in range(np + 1):
            part[i] = j
            o_rm_part(x, r, cnt, i + 1, part, np + 1 if j == np else np)
        return
    memset(cn, 0, 4)
    memset(cw, 0, 4)
    memset(cm, 0, 4)
    memset(cp, 0, 4)
    for j in range(x.ng[r]):
        c = part[j]
        cn[c] += x.gn[r][j]
        cw[c] += x.gw[r][j]
        cm[c] += 1
        cp[c] += x.gp[r][j]
    for c in range(np):
        if cw[c] > 2 or (x.dutch and cn[c] < 2 * cw[c]):
            return
        cap[c] = 2 - cw[c]
        if cp[c]:
            cap[c] = 0
            for j in range(x.ng[r]):          # a closed canasta merges only with wild-free GROUPs
                if part[j] == c and x.gp[r][j]:
                    for q in range(x.ng[r]):
                        if q != j and part[q] == c and x.gw[r][q]:
                            return
        elif cm[c] > 1 and cn[c] + cw[c] >= 7 and (x.woc == WOC_NEVER or (x.woc == WOC_NOT_NATURAL and cw[c] == 0)):
            cap[c] = 0
    o_rm_rec(x, r, cnt, 0, np, cn, cw, cap, 0, 0, 0)

cdef void o_rm(OCtx* x, int r, int cnt) noexcept nogil:
    cdef int g
    cdef int8_t part[4]
    memset(x.RM[r], 0, sizeof(x.RM[r]))
    o_rm_part(x, r, cnt, 0, part, 0)
    for g in range(cnt + 1):
        x.RM[r][g][1] |= x.RM[r][g][2]
        x.RM[r][g][0] |= x.RM[r][g][1]

cdef inline uint32_t sumset(uint32_t a, uint32_t m) noexcept nogil:
    cdef uint32_t out = 0
    while m:
        out |= a << cs_ctz(m)
        m &= m - 1
    return out

cdef bint o_final(OCtx* x) noexcept nogil:
    """The wilds shared out over the ranks' GROUPs (all of them placed), the canastas counted."""
    cdef uint32_t dp[11]
    cdef uint32_t nd[11]
    cdef uint32_t m
    cdef int r, a, k, t, K2 = x.K - x.base - x.kc, g
    if K2 < 0:
        K2 = 0
    if K2 > 10:
        return False
    memset(dp, 0, sizeof(dp))
    dp[0] = 1
    for r in range(2, 13):
        g = x.gl[r]
        memset(nd, 0, sizeof(nd))
        for a in range(K2 + 1):
            if dp[a] == 0:
                continue
            for k in range(3):
                m = x.RM[r][g][k]
                if m == 0:
                    break
                t = a + k if a + k < K2 else K2
                nd[t] |= sumset(dp[a], m)
        memcpy(dp, nd, sizeof(dp))
    return (dp[K2] >> sb_wilds(x.R)) & 1

cdef bint o_rank(OCtx* x, int r) noexcept nogil:
    x.nodes += 1
    if x.nodes > ONODES:
        return False
    if r > 12:
        return o_final(x)
    return o_run(x, r, 0, 7)

cdef bint o_run(OCtx* x, int r, int s, int maxL) noexcept nogil:
    """New SEQUENCEs starting at rank r, suits s.. (lengths non-increasing per suit), then every
    natural of rank r left goes to the GROUPs of its rank."""
    cdef int k = s * 13 + r, L, i, g
    cdef bint ok
    if s == 4:
        g = sb_nat_of_rank(x.R, r)
        if x.RM[r][g][0] == 0:
            return False
        x.gl[r] = g
        return o_rank(x, r + 1)
    if x.R[k] > 0:
        L = 0
        while L < maxL and r + L <= 12 and x.R[k + L] > 0:
            L += 1
        while L >= 3:
            for i in range(L):
                x.R[k + i] -= 1
            x.kc += L == 7
            ok = o_run(x, r, s, L)
            x.kc -= L == 7
            for i in range(L):
                x.R[k + i] += 1
            if ok:
                return True
            L -= 1
    return o_run(x, r, s + 1, 7)

cdef bint o_seqext(OCtx* x, int i) noexcept nogil:
    """The side's SEQUENCE i takes a cards below and b above (<= 7 in all), then the next one."""
    cdef int s, lo, hi, n, la = 0, ra = 0, a, b, q
    cdef bint ok
    x.nodes += 1
    if x.nodes > ONODES:
        return False
    if i == x.nsq:
        return o_rank(x, 2)
    s = x.sqs[i]
    lo = x.sqlo[i]
    hi = x.sqhi[i]
    n = hi - lo + 1
    while lo - la - 1 >= 2 and x.R[s * 13 + lo - la - 1] > 0:
        la += 1
    while hi + ra + 1 <= 12 and x.R[s * 13 + hi + ra + 1] > 0:
        ra += 1
    for a in range(la + 1):
        for b in range(ra + 1):
            if n + a + b > 7:
                break
            for q in range(lo - a, lo):
                x.R[s * 13 + q] -= 1
            for q in range(hi + 1, hi + b + 1):
                x.R[s * 13 + q] -= 1
            x.kc += n + a + b == 7
            ok = o_seqext(x, i + 1)
            x.kc -= n + a + b == 7
            for q in range(lo - a, lo):
                x.R[s * 13 + q] += 1
            for q in range(hi + 1, hi + b + 1):
                x.R[s * 13 + q] += 1
            if ok:
                return True
    return False

cdef int o_loose(const OCtx* x, const int8_t* H, int* which) noexcept nogil:
    """Naturals that cannot be melded or laid off at all (the only one of their rank, no GROUP of
    it, no neighbour of their suit in hand, no SEQUENCE they extend): each must be the discard."""
    cdef int k, r, s, i, n = 0
    cdef bint ok
    for k in range(52):
        if H[k] == 0 or not is_natural(k):
            continue
        r = rank_of(k)
        s = suit_of(k)
        if x.ng[r] or sb_nat_of_rank(H, r) >= 2 or (r > 2 and H[k - 1]) or (r < 12 and H[k + 1]):
            continue
        ok = False
        for i in range(x.nsq):
            if x.sqs[i] == s and (x.sqlo[i] - 1 == r or x.sqhi[i] + 1 == r):
                ok = True
        if not ok:
            n += H[k]
            which[0] = k
    return n

cdef inline bint o_black_ok(const OCtx* x, int b) noexcept nogil:
    """b black threes can go out as one BLACK3 meld or lay-off (S-D9)."""
    return b == 0 or (3 <= b <= 6) or x.b3 >= b

cdef int o_plain(OCtx* x, const int8_t* H, int hsize, int need) noexcept nogil:
    """Nothing staged: can the hand H (hsize cards) be emptied by melds, lay-offs onto the side's
    melds in x, red threes, and at most one discard, with the hand guard? need > 0: the side has
    not opened and its initial batch still needs that value (every card then goes to new melds)."""
    cdef int8_t T[SB_KINDS]
    cdef int r, d, k, v, which = -1, forced = -1, loose
    if hsize == 0:
        return x.C >= x.K
    if x.C + hsize < x.K:
        return 0
    loose = o_loose(x, H, &which)
    if loose >= 2:
        return 0
    if loose == 1:
        forced = which
    if not o_black_ok(x, H[1] + H[40]):
        if forced >= 0:
            return 0
        forced = 1 if H[1] else 40
    for r in range(2, 13):
        o_rm(x, r, sb_nat_of_rank(H, r))
    x.nodes = 0
    for d in range(-1, SB_KINDS):
        if (d >= 0 and H[d] == 0) or (forced >= 0 and d != forced):
            continue
        if d < 0 and 2 <= hsize <= x.K - x.C:
            continue        # only single-card lay-offs that each make a canasta: the last-but-one fails HG
        memcpy(T, H, SB_KINDS)
        if d >= 0:
            T[d] -= 1
        if not o_black_ok(x, T[1] + T[40]):
            continue
        T[1] = 0
        T[40] = 0
        T[14] = 0
        T[27] = 0
        if need > 0:
            v = 0
            for k in range(SB_KINDS):
                if T[k]:
                    v += T[k] * (50 if k == SB_JK else OVAL[k % 13])
            if v < need:
                continue
        memcpy(x.R, T, SB_KINDS)
        x.kc = 0
        if o_seqext(x, 0):
            return 1
        if x.nodes > ONODES:
            return 0
    return 0

cdef int o_step(const Meld* melds, int target, int type, int key, int lo, int hi, int nat, int wild,
                const int8_t* H2, int v, int need, const SBConfig* c) noexcept nogil:
    """One action done: the meld type/key/lo/hi/nat/wild is new (target < 0, worth v towards an
    unopened side's batch) or slot target after a lay-off; the hand is H2. Its hand guard, then
    o_plain."""
    cdef OCtx x
    cdef int h = sb_total(H2)
    if target < 0 and need > 0:
        need -= v
    o_build(&x, melds, need <= 0, target, -1, c)
    o_add(&x, type, key, lo, hi, nat, wild, need <= 0)
    if type == MT_BLACK3:
        if h > 1 or x.C < x.K:
            return 0
    elif h < 2 and x.C < x.K:
        return 0
    return o_plain(&x, H2, h, need)

cdef int o_stage_group(const Meld* melds, const int8_t* S, const int8_t* H, int r, int need,
                       const SBConfig* c) noexcept nogil:
    """The staged cards as a GROUP of rank r: every choice of the naturals of r and of the wilds
    (jokers, deuces in suit order) joining them, as a new GROUP or laid off onto one of the side's
    GROUPs of rank r. The naturals are chosen per suit where the suit matters (a neighbour of its
    suit in hand, or a SEQUENCE it extends), by count from the other suits (interchangeable: those
    cards can only join GROUPs of r or be discarded)."""
    cdef int8_t H2[SB_KINDS]
    cdef int8_t lim[4]
    cdef int sn = sb_nat_of_rank(S, r), sw = sb_wilds(S), a0, a1, a2, a3, ap, pool = 0, j, d, t, s, i, nat, w, v
    cdef int D = H[0] + H[13] + H[26] + H[39], k, vs = 0
    cdef const Meld* m
    for k in range(SB_KINDS):
        if S[k]:
            vs += S[k] * (50 if k == SB_JK else OVAL[k % 13])
    for s in range(4):
        k = s * 13 + r
        lim[s] = H[k] if (r > 2 and H[k - 1]) or (r < 12 and H[k + 1]) else 0
        for i in range(SB_MAXMELDS):
            if melds[i].type == MT_SEQ and melds[i].key == s and (melds[i].lo - 1 == r or melds[i].hi + 1 == r):
                lim[s] = H[k]
        if lim[s] == 0:
            pool += H[k]
    for ap in range(pool + 1):
        for a0 in range(lim[0] + 1):
            for a1 in range(lim[1] + 1):
                for a2 in range(lim[2] + 1):
                    for a3 in range(lim[3] + 1):
                        for j in range(H[SB_JK] + 1):
                            for d in range(D + 1):
                                if sw + j + d > 2:
                                    break
                                memcpy(H2, H, SB_KINDS)
                                H2[r] -= a0
                                H2[13 + r] -= a1
                                H2[26 + r] -= a2
                                H2[39 + r] -= a3
                                t = ap
                                for s in range(4):
                                    while t > 0 and lim[s] == 0 and H2[s * 13 + r] > 0:
                                        H2[s * 13 + r] -= 1
                                        t -= 1
                                H2[SB_JK] -= j
                                t = d
                                for s in range(4):
                                    while t > 0 and H2[s * 13] > 0:
                                        H2[s * 13] -= 1
                                        t -= 1
                                nat = sn + a0 + a1 + a2 + a3 + ap
                                w = sw + j + d
                                v = vs + OVAL[r] * (nat - sn) + 50 * j + 20 * d
                                if sb_group_ok(nat, w, c) and o_step(melds, -1, MT_GROUP, r, r, r, nat, w, H2, v,
                                                                     need, c):
                                    return 1
                                if need > 0:
                                    continue
                                for i in range(SB_MAXMELDS):
                                    m = &melds[i]
                                    if (m.type == MT_GROUP and m.key == r and sb_group_ok(m.nat + nat, m.wild + w, c)
                                            and not (w and m.n >= 7 and (c.woc == WOC_NEVER or (
                                                c.woc == WOC_NOT_NATURAL and m.wild == 0)))
                                            and o_step(melds, i, MT_GROUP, r, r, r, m.nat + nat, m.wild + w, H2, 0,
                                                       need, c)):
                                        return 1
    return 0

cdef int o_seq_ends(const Meld* melds, int i, int s, int L0, int L1, int8_t* H2, int v, int need,
                    const SBConfig* c) noexcept nogil:
    """The run L0..L1 of suit s (its cards already taken from H2) with a more cards below and b
    above from H2, <= 7 in all (>= 3 for a new SEQUENCE, i < 0), then o_step."""
    cdef int la = 0, ra = 0, a, b, q, L, va
    cdef bint ok
    while L0 - la - 1 >= 2 and H2[s * 13 + L0 - la - 1] > 0:
        la += 1
    while L1 + ra + 1 <= 12 and H2[s * 13 + L1 + ra + 1] > 0:
        ra += 1
    for a in range(la + 1):
        for b in range(ra + 1):
            L = L1 - L0 + 1 + a + b
            if L > 7:
                break
            if i < 0 and L < 3:
                continue
            va = v
            for q in range(L0 - a, L0):
                H2[s * 13 + q] -= 1
                va += OVAL[q]
            for q in range(L1 + 1, L1 + b + 1):
                H2[s * 13 + q] -= 1
                va += OVAL[q]
            ok = o_step(melds, i, MT_SEQ, s, L0 - a, L1 + b, L, 0, H2, va, need, c)
            for q in range(L0 - a, L0):
                H2[s * 13 + q] += 1
            for q in range(L1 + 1, L1 + b + 1):
                H2[s * 13 + q] += 1
            if ok:
                return 1
    return 0

cdef int o_stage_seq(const Meld* melds, const int8_t* S, const int8_t* H, int s, int lo, int hi, int need,
                     const SBConfig* c) noexcept nogil:
    """The staged naturals of suit s (ranks lo..hi, each once) as a new SEQUENCE or laid off onto
    one of the side's SEQUENCEs of suit s (no staged card inside its run): the gaps from H, then
    any extension at either end."""
    cdef int8_t H2[SB_KINDS]
    cdef int i, L0, L1, q, mlo, mhi, v
    cdef bint ok
    cdef const Meld* m
    for i in range(-1, SB_MAXMELDS):
        mlo = lo
        mhi = hi
        if i >= 0:
            m = &melds[i]
            if need > 0 or m.type != MT_SEQ or m.key != s or m.n >= 7:
                continue
            mlo = m.lo
            mhi = m.hi
            ok = True
            for q in range(mlo, mhi + 1):
                if S[s * 13 + q]:
                    ok = False
            if not ok:
                continue
        L0 = lo if lo < mlo else mlo
        L1 = hi if hi > mhi else mhi
        if L1 - L0 + 1 > 7:
            continue
        memcpy(H2, H, SB_KINDS)
        v = 0
        ok = True
        for q in range(L0, L1 + 1):
            if S[s * 13 + q]:
                v += OVAL[q]
            elif i < 0 or q < mlo or q > mhi:
                if H2[s * 13 + q] == 0:
                    ok = False
                    break
                H2[s * 13 + q] -= 1
                v += OVAL[q]
        if ok and o_seq_ends(melds, i, s, L0, L1, H2, v, need, c):
            return 1
    return 0

cdef int sb_go_out_ok(const Meld* melds, const int8_t* S, const int8_t* H, int need,
                      const SBConfig* c) noexcept nogil:
    """Can the seat to act still go out this turn (GO_OUT_QUERY plans, §4.4, S-D11)? melds: the
    side's SB_MAXMELDS slots; S: the staged cards (all zero: none), to be completed from the hand H
    into one new meld or one lay-off first; need: for a side that has not opened, the value its
    initial batch still needs (> 0), else 0."""
    cdef OCtx x
    cdef int nS = sb_total(S), nb = S[1] + S[40], k, r, rank = -1, suit = -1, lo = 99, hi = -1, t, i
    cdef int8_t H2[SB_KINDS]
    cdef bint seq = True
    if nS == 0:
        o_build(&x, melds, need <= 0, -1, -1, c)
        return o_plain(&x, H, sb_total(H), need)
    if S[14] or S[27]:
        return 0
    if nb:
        if nb != nS or need > 0:
            return 0
        memcpy(H2, H, SB_KINDS)
        for t in range(H[1] + H[40] + 1):
            if t:
                if H2[1]:
                    H2[1] -= 1
                else:
                    H2[40] -= 1
            if 3 <= nS + t <= 6 and o_step(melds, -1, MT_BLACK3, 1, 1, 1, nS + t, 0, H2, 0, need, c):
                return 1
            for i in range(SB_MAXMELDS):
                if melds[i].type == MT_BLACK3 and melds[i].n + nS + t <= 6 and o_step(
                        melds, i, MT_BLACK3, 1, 1, 1, melds[i].n + nS + t, 0, H2, 0, need, c):
                    return 1
        return 0
    for k in range(52):
        if S[k] and is_natural(k):
            r = rank_of(k)
            rank = r if rank == -1 or rank == r else -2
            if (suit >= 0 and suit_of(k) != suit) or S[k] > 1:
                seq = False
            suit = suit_of(k)
            lo = r if r < lo else lo
            hi = r if r > hi else hi
    if rank != -2:
        for r in range(2, 13):
            if (rank < 0 or r == rank) and o_stage_group(melds, S, H, r, need, c):
                return 1
    if seq and suit >= 0 and sb_wilds(S) == 0 and hi - lo <= 6:
        return o_stage_seq(melds, S, H, suit, lo, hi, need, c)
    return 0

cdef int sb_go_out_placed(const Meld* melds, const int8_t* S, int target, const int8_t* H, int need,
                          const SBConfig* c) noexcept nogil:
    """sb_go_out_ok after the staged cards S (a legal MELD, or LAY_OFF onto slot target >= 0)
    are placed as they are, H being the hand left."""
    cdef int k, r, nat = 0, lo = 99, hi = -1, key = -1, type, v = 0, w = sb_wilds(S), nb = S[1] + S[40]
    cdef const Meld* m
    for k in range(52):
        if S[k] and is_natural(k):
            r = rank_of(k)
            nat += S[k]
            lo = r if r < lo else lo
            hi = r if r > hi else hi
            key = r if key == -1 or key == r else -2
        v += S[k] * OVAL[k % 13]
    v += 50 * S[SB_JK]
    if target >= 0:
        m = &melds[target]
        if m.type == MT_GROUP:
            return o_step(melds, target, MT_GROUP, m.key, m.key, m.key, m.nat + nat, m.wild + w, H, 0, need, c)
        if m.type == MT_SEQ:
            return o_step(melds, target, MT_SEQ, m.key, lo if lo < m.lo else m.lo, hi if hi > m.hi else m.hi,
                          0, 0, H, 0, need, c)
        return o_step(melds, target, MT_BLACK3, 1, 1, 1, m.n + nb, 0, H, 0, need, c)
    if nb:
        return o_step(melds, -1, MT_BLACK3, 1, 1, 1, nb, 0, H, v, need, c)
    if key >= 0:
        return o_step(melds, -1, MT_GROUP, key, key, key, nat, w, H, v, need, c)
    for k in range(52):
        if S[k]:
            return o_step(melds, -1, MT_SEQ, suit_of(k), lo, hi, nat, 0, H, v, need, c)
    return 0

cdef int sb_go_out_merged(const Meld* melds, int a, int b, const int8_t* H, int need,
                          const SBConfig* c) noexcept nogil:
    """sb_go_out_ok after MERGE of the side's GROUPs in slots a and b (a legal merge)."""
    cdef OCtx x
    o_build(&x, melds, need <= 0, a, b, c)
    o_add(&x, MT_GROUP, melds[a].key, melds[a].key, melds[a].key, melds[a].nat + melds[b].nat,
          melds[a].wild + melds[b].wild, need <= 0)
    return o_plain(&x, H, sb_total(H), need)
