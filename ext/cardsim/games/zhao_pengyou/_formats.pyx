"""Zhao Pengyou 找朋友: shengji-compatible formats (issue 17), the TrickFormat half.

docs/rules/zhao_pengyou.md "Shengji's rules" (throw_units='mixed', tractor_adjacency,
tractor_min_count/length, rainbows): a port of rbtying/shengji's trick.rs TrickFormat::from_cards
(find_plays_inner), ordered_card.rs decomposition orderings (full_decomposition_ordering,
subsequent_decomposition_ordering) and format_match.rs format matching onto packed hands, nogil;
plus the throw check of Trick::play_cards (zp_mixed_blocker) and rainbow leads. The decomposition
orderings are the static tables of the generated `_dectable.pxd`.
`_plays` builds is_legal_play and compute_winner on these; the card order
(ekey/okey, sorted_ids) and tractor adjacency (Trump::successor) live in `_rules`.
"""
from libc.string cimport memcpy, memset
from cardsim.core._types cimport uint64_t, int8_t
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._hand cimport Hand, hand_count, hand_size, hand_size_in, hand_add
from cardsim.games.zhao_pengyou._rules cimport (ZP_NID, ZP_NPLAIN, ZPTrump, ZPConfig, ZPFormat, ZP_SJK, ZP_BJK, ZP_MAXU, ZP_MAXM,
                                                rank_mask, ekey, okey, sorted_ids)
from cardsim.games.zhao_pengyou._dectable cimport (DEC_MAXN, RQ_MAXS, RQ_MAXV, zp_dec_nstart, zp_dec_ncount,
                                                   zp_dec_rstart, zp_dec_rns, zp_dec_sstart, zp_dec_slen, zp_dec_vals)


cdef inline void req_clear(Req* r) noexcept nogil:
    r.ns = 0
    r.nv = 0

cdef inline void req_rect(Req* r, int cnt, int ln) noexcept nogil:
    """Append the shape of a tuple (ln = 1) or a rectangular tractor."""
    cdef int j
    if r.ns >= RQ_MAXS or r.nv + ln > RQ_MAXV:
        return
    r.slen[r.ns] = ln
    r.soff[r.ns] = r.nv
    for j in range(ln):
        r.vals[r.nv + j] = cnt
    r.nv += ln
    r.ns += 1

cdef inline void req_table(Req* r, int e) noexcept nogil:
    """Append the shapes of table requirement e."""
    cdef int i, j, sh, ln
    for i in range(zp_dec_rns[e]):
        sh = zp_dec_rstart[e] + i
        ln = zp_dec_slen[sh]
        if r.ns >= RQ_MAXS or r.nv + ln > RQ_MAXV:
            return
        r.slen[r.ns] = ln
        r.soff[r.ns] = r.nv
        for j in range(ln):
            r.vals[r.nv + j] = zp_dec_vals[zp_dec_sstart[sh] + j]
        r.nv += ln
        r.ns += 1
# ---- TrickFormat::from_cards (find_plays_inner) ---------------------------------------------------
cdef int find_tractors(const ZPTrump* t, int card, int count, const int* cnt, int rc, int rl,
                       int8_t* ocnt, int8_t* olen, int8_t* omem, int maxout) noexcept nogil:
    """find_tractors_from_start: the tractors starting at `card` (count copies) among cnt, in
    shengji's breadth-first order; omem holds 24 members per tractor. Like shengji, the running
    minimum count is shared by the branches (they only occur above the trump suit's top card)."""
    cdef int8_t pc[16]
    cdef int8_t plen[16]
    cdef int8_t path[16][24]
    cdef int8_t nc[16]
    cdef int8_t nlen[16]
    cdef int8_t npath[16][24]
    cdef int n = 0, nn, e, b, s, s2, mc = count, out = 0, L
    if count < rc:
        return 0
    for b in range(3):
        s = t.succ[card][b]
        if s < 0:
            break
        pc[n] = s
        plen[n] = 1
        path[n][0] = card
        n += 1
    while n > 0:
        nn = 0
        for e in range(n):
            s = pc[e]
            if cnt[s] >= 2:
                if cnt[s] < mc:
                    mc = cnt[s]
                L = plen[e]
                if L >= 23:
                    continue
                path[e][L] = s
                plen[e] = L + 1
                if mc >= rc and L + 1 >= rl and out < maxout:
                    ocnt[out] = mc
                    olen[out] = L + 1
                    memcpy(omem + 24 * out, path[e], L + 1)
                    out += 1
                for b in range(3):
                    s2 = t.succ[s][b]
                    if s2 < 0:
                        break
                    if nn < 16:
                        nc[nn] = s2
                        nlen[nn] = L + 1
                        memcpy(npath[nn], path[e], L + 1)
                        nn += 1
        n = nn
        for e in range(n):
            pc[e] = nc[e]
            plen[e] = nlen[e]
            memcpy(path[e], npath[e], nlen[e])
    return out

ctypedef struct FPCtx:
    const ZPTrump* t
    int rc                   # tractor requirements
    int rl
    int cnt[ZP_NID]
    int order[ZP_NID]            # the lead's identities, ascending
    int norder
    int d                    # units on the stack
    int8_t scnt[32]
    int8_t slen[32]
    int8_t soff[32]
    int8_t smem[40]
    int mtop
    int8_t bcnt[32]          # the chosen decomposition
    int8_t blen[32]
    int8_t boff[32]
    int8_t bmem[40]
    int bnu
    int best_key
    int budget

cdef void fp_leaf(FPCtx* x) noexcept nogil:
    """A complete decomposition: keep it if its largest (size, is_tractor) is at least the best
    so far (shengji sorts the possibilities stably by that key and pops the last)."""
    cdef int i, key = -1, kk
    for i in range(x.d):
        kk = 2 * x.scnt[i] * x.slen[i] + (1 if x.slen[i] > 1 else 0)
        if kk > key:
            key = kk
    if key >= x.best_key:
        x.best_key = key
        x.bnu = x.d
        memcpy(x.bcnt, x.scnt, x.d)
        memcpy(x.blen, x.slen, x.d)
        memcpy(x.boff, x.soff, x.d)
        memcpy(x.bmem, x.smem, x.mtop)

cdef inline bint fp_push(FPCtx* x, int cnt, int ln, const int8_t* mem) noexcept nogil:
    cdef int j
    if x.d >= ZP_MAXU or x.mtop + ln > ZP_MAXM:
        return False
    x.scnt[x.d] = cnt
    x.slen[x.d] = ln
    x.soff[x.d] = x.mtop
    for j in range(ln):
        x.smem[x.mtop + j] = mem[j]
        x.cnt[mem[j]] -= cnt
    x.mtop += ln
    x.d += 1
    return True

cdef inline void fp_pop(FPCtx* x) noexcept nogil:
    cdef int j
    x.d -= 1
    x.mtop -= x.slen[x.d]
    for j in range(x.slen[x.d]):
        x.cnt[x.smem[x.mtop + j]] += x.scnt[x.d]

cdef void fp_rec(FPCtx* x, int num) noexcept nogil:
    """find_plays_inner: starts at the lowest card left (its tractors in shengji's order, then
    the card's tuple unless every tractor consumes all of its members); a start that takes every
    card left ends the search at this level."""
    cdef int8_t tc[24]
    cdef int8_t tl[24]
    cdef int8_t tm[24 * 24]
    cdef int8_t one[1]
    cdef int a, card = -1, count, ntr, j, m, nst, size
    cdef bint all_consumed
    if x.budget <= 0:
        return
    x.budget -= 1
    for a in range(x.norder):
        if x.cnt[x.order[a]] > 0:
            card = x.order[a]
            break
    if card < 0:
        return
    count = x.cnt[card]
    ntr = find_tractors(x.t, card, count, x.cnt, x.rc, x.rl, tc, tl, tm, 24)
    all_consumed = ntr > 0
    for j in range(ntr):
        for m in range(tl[j]):
            if x.cnt[tm[24 * j + m]] != tc[j]:
                all_consumed = False
    nst = ntr if all_consumed else ntr + 1
    one[0] = card
    for j in range(nst):
        size = tc[j] * tl[j] if j < ntr else count
        if size == num:
            if (fp_push(x, tc[j], tl[j], &tm[24 * j]) if j < ntr else fp_push(x, count, 1, one)):
                fp_leaf(x)
                fp_pop(x)
            return
    for j in range(nst):
        size = tc[j] * tl[j] if j < ntr else count
        if (fp_push(x, tc[j], tl[j], &tm[24 * j]) if j < ntr else fp_push(x, count, 1, one)):
            fp_rec(x, num - size)
            fp_pop(x)

cdef int zp_fmt_size(const ZPFormat* F) noexcept nogil:
    cdef int i, n = 0
    for i in range(F.nu):
        n += F.cnt[i] * F.len[i]
    return n

cdef bint rank_rainbow(const ZPTrump* t, const ZPConfig* c, const Hand* h, int r) noexcept nogil:
    """h's cards of rank r: at least c.rainbows of them, spanning at least 4 effective suits."""
    cdef int suits = 0
    cdef uint64_t m = h.layer[0] & rank_mask(r)
    if hand_size_in(h, rank_mask(r)) < c.rainbows:
        return False
    while m:
        suits |= 1 << t.eff[bit_low(m)]
        m &= m - 1
    return cs_popcount(<uint64_t>suits) >= 4

cdef bint zp_rainbow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* P) noexcept nogil:
    """try_rainbow_format: rainbows enabled, no jokers, and every rank present has at least
    c.rainbows cards spanning at least 4 effective suits."""
    cdef int r
    cdef bint any = False
    if c.rainbows <= 0 or P.layer[0] == 0 or (P.layer[0] >> ZP_NPLAIN):
        return False
    for r in range(13):
        if (P.layer[0] & rank_mask(r)) == 0:
            continue
        if not rank_rainbow(t, c, P, r):
            return False
        any = True
    return any

cdef int zp_mixed_format(const ZPTrump* t, const ZPConfig* c, const Hand* P, ZPFormat* F) noexcept nogil:
    """TrickFormat::from_cards without a format hint: a rainbow if enabled and the lead is one;
    else one effective suit, decomposed by find_plays_inner, the decomposition whose largest
    (size, is_tractor) is greatest chosen (the last such in shengji's order), units sorted by
    (size, first card). Returns 0, or -1 (empty), -2 (suits differ), -4 (more units or members
    than a format holds, or the search budget exhausted)."""
    cdef FPCtx x
    cdef int i, j, k, r, n, a, b, tmp, total
    cdef int idx[32]
    cdef uint64_t ids = P.layer[0], m
    memset(F, 0, sizeof(ZPFormat))
    if ids == 0:
        return -1
    if zp_rainbow_ok(t, c, P):
        F.rainbow = 1
        F.suit = -1
        for r in range(13):
            m = ids & rank_mask(r)
            if m == 0:
                continue
            n = hand_size_in(P, rank_mask(r))
            a = sorted_ids(t, m, x.order)
            F.cnt[F.nu] = n
            F.len[F.nu] = 1
            F.off[F.nu] = F.nu
            F.mem[F.nu] = x.order[0]
            F.nu += 1
        return 0
    F.suit = t.eff[bit_low(ids)]
    if ids & ~t.smask[F.suit]:
        return -2
    x.t = t
    x.rc = c.tmin_count if c.tmin_count >= 2 else 2
    x.rl = c.tmin_len if c.tmin_len >= 2 else 2
    for k in range(ZP_NID):
        x.cnt[k] = 0
    m = ids
    while m:
        k = bit_low(m)
        m &= m - 1
        x.cnt[k] = hand_count(P, k)
    x.norder = sorted_ids(t, ids, x.order)
    x.d = 0
    x.mtop = 0
    x.bnu = 0
    x.best_key = -1
    x.budget = 200000
    total = hand_size(P)
    fp_rec(&x, total)
    if x.bnu == 0:
        return -4
    for i in range(x.bnu):
        idx[i] = i
    for i in range(1, x.bnu):
        tmp = idx[i]
        j = i - 1
        while j >= 0 and (x.bcnt[idx[j]] * x.blen[idx[j]] > x.bcnt[tmp] * x.blen[tmp] or (
                x.bcnt[idx[j]] * x.blen[idx[j]] == x.bcnt[tmp] * x.blen[tmp]
                and okey(t, x.bmem[x.boff[idx[j]]]) > okey(t, x.bmem[x.boff[tmp]]))):
            idx[j + 1] = idx[j]
            j -= 1
        idx[j + 1] = tmp
    n = 0
    for i in range(x.bnu):
        a = idx[i]
        F.cnt[i] = x.bcnt[a]
        F.len[i] = x.blen[a]
        F.off[i] = n
        for b in range(x.blen[a]):
            F.mem[n + b] = x.bmem[x.boff[a] + b]
        n += x.blen[a]
    F.nu = x.bnu
    return 0

cdef int zp_fmt_largest(const ZPFormat* F) noexcept nogil:
    """largest_trick_unit_size (the kitty multiplier's unit, V2)."""
    cdef int i, best = 0
    for i in range(F.nu):
        if F.cnt[i] * F.len[i] > best:
            best = F.cnt[i] * F.len[i]
    return best

cdef void zp_fmt_unit_cards(const ZPTrump* t, const ZPFormat* F, const Hand* lead, int u,
                            Hand* out) noexcept nogil:
    """The cards of unit u (a rainbow unit: its count of the lead's cards of its rank, lowest
    first)."""
    cdef int j, k, n, a
    cdef int ids[ZP_NID]
    out.layer[0] = 0
    out.layer[1] = 0
    out.layer[2] = 0
    out.layer[3] = 0
    if F.rainbow:
        n = sorted_ids(t, lead.layer[0] & rank_mask(F.mem[F.off[u]] % 13), ids)
        k = F.cnt[u]
        for a in range(n):
            j = hand_count(lead, ids[a])
            while j > 0 and k > 0:
                hand_add(out, ids[a])
                j -= 1
                k -= 1
        return
    for j in range(F.len[u]):
        for a in range(F.cnt[u]):
            hand_add(out, F.mem[F.off[u] + j])

cdef void zp_fmt_force(ZPFormat* F, int u) noexcept nogil:
    """The format after a failed throw: the forced unit alone."""
    cdef int j, ln = F.len[u], off = F.off[u]
    cdef int8_t mem[40]
    for j in range(ln):
        mem[j] = F.mem[off + j]
    F.cnt[0] = F.cnt[u]
    F.len[0] = ln
    F.off[0] = 0
    for j in range(ln):
        F.mem[j] = mem[j]
    F.nu = 1

cdef int zp_mixed_blocker(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int leader,
                          const ZPFormat* F, int* unit) noexcept nogil:
    """The throw check of Trick::play_cards: the first seat after the leader (play order) able to
    beat a unit (first such unit in the format's order): a tuple by as many copies of a strictly
    stronger card of the suit; a tractor by a tractor of at least its count and length starting at
    or above its second member (a rainbow unit: as many cards of a higher rank). -1 if the throw
    stands; a single unit is no throw."""
    cdef int i, q, u, k, r, a, n
    cdef int cnt[ZP_NID]
    cdef int rk[13]
    cdef int8_t tc[4]
    cdef int8_t tl[4]
    cdef int8_t tm[4 * 24]
    cdef uint64_t m
    if F.nu <= 1:
        return -1
    for i in range(1, c.n):
        q = (leader + i) % c.n
        if F.rainbow:
            for r in range(13):
                rk[r] = hand_size_in(&hands[q], rank_mask(r))
            for u in range(F.nu):
                for r in range(F.mem[F.off[u]] % 13 + 1, 13):
                    if rk[r] >= F.cnt[u]:
                        unit[0] = u
                        return q
            continue
        m = hands[q].layer[0] & t.smask[F.suit]
        for k in range(ZP_NID):
            cnt[k] = 0
        while m:
            k = bit_low(m)
            m &= m - 1
            cnt[k] = hand_count(&hands[q], k)
        for u in range(F.nu):
            m = hands[q].layer[0] & t.smask[F.suit]
            if F.len[u] == 1:
                while m:
                    k = bit_low(m)
                    m &= m - 1
                    if cnt[k] >= F.cnt[u] and ekey(t, k) > ekey(t, F.mem[F.off[u]]):
                        unit[0] = u
                        return q
            else:
                a = okey(t, F.mem[F.off[u] + 1])
                while m:
                    k = bit_low(m)
                    m &= m - 1
                    if okey(t, k) >= a and find_tractors(t, k, cnt[k], cnt, F.cnt[u], F.len[u], tc, tl, tm, 1) > 0:
                        unit[0] = u
                        return q
    return -1


# ---- format matching (format_match.rs find_format_matches: does a matching exist?) -------------
ctypedef struct MCtx:
    const ZPTrump* t
    int rem[ZP_NID]              # copies left
    const int* orig          # the counts matched (the policy filter compares with them)
    const int* cover         # NULL, or counts the matching must cover (the singles take the rest)
    int ids[ZP_NID]              # identities with orig > 0, ascending
    int nids
    int exact                # longer_tuples_protected filter: a tuple of n uses a card held exactly n times
    const Req* r
    int ms[48]               # the multi-card shapes, largest first
    int same[48]             # shape equal to the previous one (symmetry: starts non-decreasing)
    int nm
    int s1                   # single-card shapes

cdef bint m_leaf(MCtx* x) noexcept nogil:
    cdef int a, k, tot = 0, unc = 0, u
    if x.exact:
        for a in range(x.nids):
            k = x.ids[a]
            if x.orig[k] == 1 and x.rem[k] == 1:
                tot += 1
        return tot >= x.s1
    for a in range(x.nids):
        k = x.ids[a]
        tot += x.rem[k]
        if x.cover != NULL:
            u = x.cover[k] - (x.orig[k] - x.rem[k])
            if u > 0:
                unc += u
    return tot >= x.s1 and unc <= x.s1

cdef bint m_path(MCtx* x, int i, int a, int k, int j) noexcept nogil:
    cdef int sh = x.ms[i], b, nx, v
    cdef bint ok
    if j == x.r.slen[sh]:
        return m_dfs(x, i + 1, a)
    v = x.r.vals[x.r.soff[sh] + j]
    for b in range(3):
        nx = x.t.succ[k][b]
        if nx < 0:
            break
        if x.rem[nx] < v or (x.exact and x.orig[nx] != v):
            continue
        x.rem[nx] -= v
        ok = m_path(x, i, a, nx, j + 1)
        x.rem[nx] += v
        if ok:
            return True
    return False

cdef bint m_dfs(MCtx* x, int i, int lo) noexcept nogil:
    cdef int sh, a, k, v0
    cdef bint ok
    if i == x.nm:
        return m_leaf(x)
    sh = x.ms[i]
    v0 = x.r.vals[x.r.soff[sh]]
    for a in range(lo if x.same[i] else 0, x.nids):
        k = x.ids[a]
        if x.rem[k] < v0 or (x.exact and x.orig[k] != v0):
            continue
        x.rem[k] -= v0
        if x.r.slen[sh] == 1:
            ok = m_dfs(x, i + 1, a)
        else:
            ok = m_path(x, i, a, k, 1)
        x.rem[k] += v0
        if ok:
            return True
    return False

cdef inline int shape_cmp(const Req* r, int a, int b) noexcept nogil:
    """Order of shapes: more members first, then larger tuple sizes (0 = equal)."""
    cdef int j
    if r.slen[a] != r.slen[b]:
        return -1 if r.slen[a] > r.slen[b] else 1
    for j in range(r.slen[a]):
        if r.vals[r.soff[a] + j] != r.vals[r.soff[b] + j]:
            return -1 if r.vals[r.soff[a] + j] > r.vals[r.soff[b] + j] else 1
    return 0

cdef bint fm_match(const ZPTrump* t, const int* counts, const int* ids, int nids, const Req* r, bint exact,
                   const int* cover) noexcept nogil:
    """Can the requirement's shapes be matched to disjoint cards of `counts` (identities `ids`,
    ascending)? A tuple of n takes n copies of one card (exact: a card held exactly n times), a
    tractor shape takes successive cards (t.succ) with at least its tuple sizes. With `cover`, the
    cards of cover must all be inside the matching."""
    cdef MCtx x
    cdef int i, j, tmp, need = 0, have = 0
    x.t = t
    x.orig = counts
    x.cover = cover
    x.exact = exact
    x.r = r
    x.nids = nids
    for i in range(ZP_NID):
        x.rem[i] = counts[i]
    for i in range(nids):
        x.ids[i] = ids[i]
        have += counts[ids[i]]
    need = r.nv
    if need > have:
        return False
    x.nm = 0
    x.s1 = 0
    for i in range(r.ns):
        if r.slen[i] == 1 and r.vals[r.soff[i]] == 1:
            x.s1 += 1
        else:
            x.ms[x.nm] = i
            x.nm += 1
    for i in range(1, x.nm):
        tmp = x.ms[i]
        j = i - 1
        while j >= 0 and shape_cmp(r, x.ms[j], tmp) > 0:
            x.ms[j + 1] = x.ms[j]
            j -= 1
        x.ms[j + 1] = tmp
    for i in range(x.nm):
        x.same[i] = i > 0 and shape_cmp(r, x.ms[i - 1], x.ms[i]) == 0
    return m_dfs(&x, 0, 0)


# ---- TrickFormat::decomposition (subsequent_decomposition_ordering) ----------------------------

cdef void dec_init(DecIt* it, const ZPFormat* F, bint include_new) noexcept nogil:
    cdef int i, n, e, st, en, sh, j
    cdef bint found
    it.nu = F.nu
    it.first = 1
    for i in range(F.nu):
        it.ucnt[i] = F.cnt[i]
        it.ulen[i] = F.len[i]
        it.cur[i] = -1
        it.h[i] = i
        it.can[i] = include_new or F.len[i] > 1
        n = F.cnt[i] * F.len[i]
        it.pos[i] = 0
        it.end[i] = 0
        if n <= DEC_MAXN:
            st = zp_dec_nstart[n]
            en = st + zp_dec_ncount[n]
            it.pos[i] = en
            it.end[i] = en
            for e in range(st, en):
                if zp_dec_rns[e] != 1:
                    continue
                sh = zp_dec_rstart[e]
                if zp_dec_slen[sh] != F.len[i]:
                    continue
                found = True
                for j in range(F.len[i]):
                    if zp_dec_vals[zp_dec_sstart[sh] + j] != F.cnt[i]:
                        found = False
                if found:
                    it.pos[i] = e + 1
                    break

cdef void dec_build(const DecIt* it, Req* r) noexcept nogil:
    cdef int a, j
    req_clear(r)
    for a in range(it.nu):
        j = it.h[a]
        if it.cur[j] < 0:
            req_rect(r, it.ucnt[j], it.ulen[j])
        else:
            req_table(r, it.cur[j])

cdef bint dec_next(DecIt* it, Req* r) noexcept nogil:
    """The next requirement: the format itself first, then shengji's subsequent decompositions
    (units with the most decompositions left are decomposed first; a requirement that would put
    new adjacency into a plain tuple is skipped under only_draw_tractor_on_tractor)."""
    cdef int a, b, i, j, tmp, sh, e, s
    cdef bint incl
    if it.first:
        it.first = 0
        dec_build(it, r)
        return True
    while True:
        for a in range(1, it.nu):
            tmp = it.h[a]
            b = a - 1
            while b >= 0 and it.end[it.h[b]] - it.pos[it.h[b]] < it.end[tmp] - it.pos[tmp]:
                it.h[b + 1] = it.h[b]
                b -= 1
            it.h[b + 1] = tmp
        i = it.h[0]
        if it.end[i] - it.pos[i] <= 0:
            return False
        it.cur[i] = it.pos[i]
        it.pos[i] += 1
        incl = True
        for j in range(it.nu):
            if it.cur[j] >= 0 and not it.can[j]:
                e = it.cur[j]
                for s in range(zp_dec_rns[e]):
                    sh = zp_dec_rstart[e] + s
                    if zp_dec_slen[sh] > 1:
                        incl = False
        if incl:
            dec_build(it, r)
            return True
