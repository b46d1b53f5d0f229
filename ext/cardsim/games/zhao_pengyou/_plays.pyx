"""Zhao Pengyou 找朋友: shengji-compatible play (issue 17), the legality and winner half.

docs/rules/zhao_pengyou.md "Shengji's rules": a port of rbtying/shengji's trick.rs
TrickFormat::is_legal_play (the draw policies no_protections, longer_tuples_protected,
only_draw_tractor_on_tractor, both, no_format_based_draw; bombs; rainbows) and
Trick::compute_winner (throw evaluation all / highest / trick_unit_length) onto packed hands,
nogil, with the factored (one card at a time) lead and follow candidates the state machine uses.
Formats, decompositions and format matching come from `_formats`.
"""
from libc.string cimport memcpy
from cardsim.core._types cimport uint64_t, int8_t
from cardsim.core._bits cimport bit_low, card_bit
from cardsim.core._hand cimport Hand, hand_count, hand_size, hand_size_in, hand_add, hand_remove, hand_within
from cardsim.games.zhao_pengyou._rules cimport (ZP_NID, ZP_NPLAIN, 
    ZPTrump, ZPConfig, ZPFormat, ZP_TRUMP, ZP_DP_NP, ZP_DP_LTP, ZP_DP_OTT, ZP_DP_LTP_OTT, ZP_DP_NFBD,
    ZP_TE_ALL, ZP_TE_HIGHEST, rank_mask, ekey, okey, sorted_ids)
from cardsim.games.zhao_pengyou._formats cimport (Req, DecIt, zp_fmt_size, rank_rainbow, zp_rainbow_ok, fm_match,
                                                  dec_init, dec_next)


# ---- TrickFormat::is_legal_play ----------------------------------------------------------------
cdef bint zp_is_bomb(const Hand* P) noexcept nogil:
    """is_bomb: at least 4 cards, all identical."""
    cdef uint64_t ids = P.layer[0]
    return ids != 0 and (ids & (ids - 1)) == 0 and P.layer[3] != 0

cdef void rank_counts(const Hand* P, int* out) noexcept nogil:
    cdef int r
    for r in range(13):
        out[r] = hand_size_in(P, rank_mask(r))

cdef bint rb_assign(int* avail, const ZPFormat* F, int u, const int* need) noexcept nogil:
    """Assign rainbow units u.. to ranks with enough cards left; with `need`, every rank must end
    up taking at least need[r] cards (all of the play's cards covered)."""
    cdef int r, sz
    cdef bint ok
    if u == F.nu:
        if need != NULL:
            for r in range(13):
                if avail[r] > need[r + 13]:
                    return False
        return True
    sz = F.cnt[u]
    for r in range(13):
        if avail[r] >= sz:
            avail[r] -= sz
            ok = rb_assign(avail, F, u + 1, need)
            avail[r] += sz
            if ok:
                return True
    return False

cdef bint rb_satisfy(const Hand* P, const ZPFormat* F) noexcept nogil:
    """can_satisfy_rainbow_units."""
    cdef int avail[13]
    rank_counts(P, avail)
    return rb_assign(avail, F, 0, NULL)

cdef bint rb_completable(const Hand* full, const Hand* play, const ZPFormat* F) noexcept nogil:
    """Can `play` grow (from `full`) into a play satisfying the rainbow units? The play must then
    be exactly the units' cards: each rank r takes d_r with play_r <= d_r <= full_r. avail starts
    at full_r and must end at most full_r - play_r (need[13 + r])."""
    cdef int avail[13]
    cdef int need[26]
    cdef int r
    if play.layer[0] >> ZP_NPLAIN:
        return False
    rank_counts(full, avail)
    rank_counts(play, need)
    for r in range(13):
        need[13 + r] = avail[r] - need[r]
    return rb_assign(avail, F, 0, need)

cdef inline bint bomb_allowed(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* full,
                              int k) noexcept nogil:
    if c.bombs == 1:
        return True
    return (t.eff[k] == F.suit or t.eff[k] == ZP_TRUMP
            or hand_size_in(full, t.smask[F.suit]) == 0)

cdef int suit_counts(const ZPTrump* t, const Hand* h, int suit, int* cnt, int* ids) noexcept nogil:
    """Counts (indexed by identity) of h's cards of an effective suit; ids ascending."""
    cdef uint64_t m = h.layer[0] & t.smask[suit]
    cdef int n, a
    for a in range(ZP_NID):
        cnt[a] = 0
    n = sorted_ids(t, m, ids)
    for a in range(n):
        cnt[ids[a]] = hand_count(h, ids[a])
    return n

cdef bint ltp_guard(const ZPTrump* t, const ZPFormat* F, const Req* r, const int* hcnt, const int* pcnt,
                    const int* ids, int nids) noexcept nogil:
    """The longer_tuples_protected guard of is_legal_play: for a tuple size n >= 2 of the
    requirement, the n-slots not filled by cards played exactly n times could be filled by cards
    held exactly n times outside the play: then the play must have used them (illegal)."""
    cdef int i, j, n, slots, covered, avail, a, k
    cdef bint seen
    for i in range(r.ns):
        if r.slen[i] != 1:
            continue
        n = r.vals[r.soff[i]]
        if n < 2:
            continue
        seen = False
        for j in range(i):
            if r.slen[j] == 1 and r.vals[r.soff[j]] == n:
                seen = True
        if seen:
            continue
        slots = 0
        for j in range(r.ns):
            if r.slen[j] == 1 and r.vals[r.soff[j]] == n:
                slots += 1
        covered = 0
        avail = 0
        for a in range(nids):
            k = ids[a]
            if pcnt[k] == n:
                covered += 1
            if hcnt[k] - pcnt[k] == n:
                avail += 1
        if slots - covered > 0 and avail >= slots - covered:
            return True
    return False

cdef bint zp_mixed_follow_ok(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* full,
                             const Hand* play) noexcept nogil:
    """TrickFormat::is_legal_play (with the play a sub-multiset of the holding `full`): the
    lead's size; a rainbow lead: the play satisfies its units or the hand cannot; a bomb as the
    bomb policy allows; fewer led-suit cards than the lead only if that is all of them; else
    (unless no_format_based_draw) the requirements in order (the format, then its
    decompositions): the first the play matches makes it legal (longer_tuples_protected: unless
    its guard fires), the first the hand could match before that makes it illegal."""
    cdef int L = zp_fmt_size(F), k, ns, ps, nids
    cdef int hcnt[ZP_NID]
    cdef int pcnt[ZP_NID]
    cdef int ids[ZP_NID]
    cdef int pids[ZP_NID]
    cdef DecIt it
    cdef Req r
    cdef bint ltp
    if hand_size(play) != L or not hand_within(play, full):
        return False
    if F.rainbow:
        return rb_satisfy(play, F) or not rb_satisfy(full, F)
    if c.bombs and zp_is_bomb(play) and bomb_allowed(t, c, F, full, bit_low(play.layer[0])):
        return True
    ns = hand_size_in(full, t.smask[F.suit])
    ps = hand_size_in(play, t.smask[F.suit])
    if ps < L:
        return ns == ps
    if c.draw_policy == ZP_DP_NFBD:
        return True
    ltp = c.draw_policy == ZP_DP_LTP or c.draw_policy == ZP_DP_LTP_OTT
    nids = suit_counts(t, full, F.suit, hcnt, ids)
    suit_counts(t, play, F.suit, pcnt, pids)
    dec_init(&it, F, c.draw_policy != ZP_DP_OTT and c.draw_policy != ZP_DP_LTP_OTT)
    while dec_next(&it, &r):
        if fm_match(t, pcnt, ids, nids, &r, False, NULL):
            return not (ltp and ltp_guard(t, F, &r, hcnt, pcnt, ids, nids))
        if fm_match(t, hcnt, ids, nids, &r, ltp, NULL):
            return False
    return True

cdef bint ltp_complete(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* full, Hand* play,
                       const int* ids, int nids, int a, int left) noexcept nogil:
    """Depth-first over the completions of `play` by led-suit cards (identities ids[a..]), each
    checked with zp_mixed_follow_ok (used for the longer_tuples_protected policies)."""
    cdef int k, e, room, j, b
    cdef bint ok
    if left == 0:
        return zp_mixed_follow_ok(t, c, F, full, play)
    if a == nids:
        return False
    room = 0
    for b in range(a, nids):
        room += hand_count(full, ids[b]) - hand_count(play, ids[b])
    if room < left:
        return False
    k = ids[a]
    room = hand_count(full, k) - hand_count(play, k)
    if room > left:
        room = left
    for e in range(room, -1, -1):
        for j in range(e):
            hand_add(play, k)
        ok = ltp_complete(t, c, F, full, play, ids, nids, a + 1, left - e)
        for j in range(e):
            hand_remove(play, k)
        if ok:
            return True
    return False

cdef bint zp_mixed_completable(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* full,
                               const Hand* play) noexcept nogil:
    """Can the partial follow `play` (part of the holding `full`) be completed into a legal follow
    (zp_mixed_follow_ok)? Exact: a bomb of the lead's size; a rainbow (rb_completable); with fewer
    led-suit cards than the lead, all of them plus free cards; else only led-suit cards, and under
    no_protections / only_draw_tractor_on_tractor the play must match the first requirement the
    hand can match, so it is completable iff that requirement has a matching in the hand covering
    the play; under the longer_tuples_protected policies the completions are searched."""
    cdef int L = zp_fmt_size(F), np = hand_size(play), ns, ps, k, nids
    cdef uint64_t ids1 = play.layer[0]
    cdef int hcnt[ZP_NID]
    cdef int pcnt[ZP_NID]
    cdef int ids[ZP_NID]
    cdef int pids[ZP_NID]
    cdef DecIt it
    cdef Req r
    cdef Hand tmp
    if np > L:
        return False
    if F.rainbow:
        if not rb_satisfy(full, F):
            return True
        return rb_completable(full, play, F)
    if c.bombs and L >= 4 and ids1 != 0 and (ids1 & (ids1 - 1)) == 0:
        k = bit_low(ids1)
        if hand_count(full, k) >= L and bomb_allowed(t, c, F, full, k):
            return True
    ns = hand_size_in(full, t.smask[F.suit])
    ps = hand_size_in(play, t.smask[F.suit])
    if ns < L:
        return np - ps <= L - ns
    if ps != np:
        return False
    if c.draw_policy == ZP_DP_NFBD:
        return True
    nids = suit_counts(t, full, F.suit, hcnt, ids)
    if c.draw_policy == ZP_DP_NP or c.draw_policy == ZP_DP_OTT:
        suit_counts(t, play, F.suit, pcnt, pids)
        dec_init(&it, F, c.draw_policy != ZP_DP_OTT)
        while dec_next(&it, &r):
            if fm_match(t, hcnt, ids, nids, &r, False, NULL):
                return fm_match(t, hcnt, ids, nids, &r, False, pcnt)
        return True
    tmp = play[0]
    return ltp_complete(t, c, F, full, &tmp, ids, nids, 0, L - np)

cdef uint64_t zp_mixed_follow_candidates(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F,
                                         const Hand* rest, const Hand* play, bint* check) noexcept nogil:
    """The factored follow under throw_units='mixed': candidate identities of `rest` (the hand)
    to add to the partial follow; *check: each must pass zp_mixed_completable."""
    cdef int L = zp_fmt_size(F), i
    cdef uint64_t sm
    cdef int inplay, nS
    cdef bint multi = False
    if F.rainbow or c.bombs:
        check[0] = True
        return rest.layer[0]
    sm = t.smask[F.suit]
    inplay = hand_size_in(play, sm)
    nS = hand_size_in(rest, sm) + inplay
    check[0] = False
    if nS < L:
        if hand_size(play) - inplay < L - nS:
            return rest.layer[0]
        return rest.layer[0] & sm
    for i in range(F.nu):
        if F.cnt[i] * F.len[i] > 1:
            multi = True
    check[0] = multi and c.draw_policy != ZP_DP_NFBD
    return rest.layer[0] & sm

cdef bint rb_lead_completable(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* P) noexcept nogil:
    """Can the partial lead P (several suits) grow into a rainbow from `full`: no jokers, and every
    rank in P has at least c.rainbows cards in full spanning at least 4 effective suits."""
    cdef int r
    if c.rainbows <= 0 or (P.layer[0] >> ZP_NPLAIN):
        return False
    for r in range(13):
        if (P.layer[0] & rank_mask(r)) and not rank_rainbow(t, c, full, r):
            return False
    return True

cdef uint64_t zp_mixed_lead_candidates(const ZPTrump* t, const ZPConfig* c, const Hand* full,
                                       const Hand* P, const Hand* rest) noexcept nogil:
    """The factored lead under throw_units='mixed' (P non-empty): any card of P's effective suit
    (every same-suit set is a lead); with rainbows, also cards that keep P completable into a
    rainbow (rb_lead_completable). Exact."""
    cdef uint64_t ids = P.layer[0], out = 0, cand
    cdef int s0 = t.eff[bit_low(ids)], k
    cdef Hand Q
    if (ids & ~t.smask[s0]) == 0:
        out = rest.layer[0] & t.smask[s0]
    if c.rainbows > 0:
        cand = rest.layer[0] & ~out
        while cand:
            k = bit_low(cand)
            cand &= cand - 1
            Q = P[0]
            hand_add(&Q, k)
            if rb_lead_completable(t, c, full, &Q):
                out |= card_bit(k)
    return out

cdef bint zp_mixed_lead_whole(const ZPTrump* t, const ZPConfig* c, const Hand* P) noexcept nogil:
    """May P be committed as a lead: one effective suit, or a rainbow."""
    cdef uint64_t ids = P.layer[0]
    if ids == 0:
        return False
    if (ids & ~t.smask[t.eff[bit_low(ids)]]) == 0:
        return True
    return zp_rainbow_ok(t, c, P)


# ---- Trick::compute_winner ---------------------------------------------------------------------
ctypedef struct WU:
    int nu
    int bomb                 # a single tuple of >= 4 copies
    int first[32]
    int last[32]
    int size[32]

cdef bint defeats(const ZPTrump* t, const ZPConfig* c, const WU* m, const WU* w) noexcept nogil:
    """Trick::_defeats: bombs first (a bomb beats a non-bomb; more cards, then the stronger card);
    else by the throw evaluation policy: all (every unit's first card stronger than the matching
    unit's), highest (the strongest last card), trick_unit_length (largest units first, the
    first unequal comparison decides)."""
    cdef int i, j, a, b, tmp, ncmp = 0
    cdef int csz[32]
    cdef int cres[32]
    cdef int order[32]
    cdef bint skip
    if m.bomb or w.bomb:
        if not m.bomb:
            return False
        if not w.bomb:
            return True
        if m.size[0] != w.size[0]:
            return m.size[0] > w.size[0]
        return ekey(t, m.first[0]) > ekey(t, w.first[0])
    if c.throw_eval == ZP_TE_ALL:
        for i in range(m.nu):
            if not ekey(t, m.first[i]) > ekey(t, w.first[i]):
                return False
        return True
    if c.throw_eval == ZP_TE_HIGHEST:
        a = m.last[0]
        for i in range(1, m.nu):
            if okey(t, m.last[i]) > okey(t, a):
                a = m.last[i]
        b = w.last[0]
        for i in range(1, w.nu):
            if okey(t, w.last[i]) > okey(t, b):
                b = w.last[i]
        return ekey(t, a) > ekey(t, b)
    skip = False
    if m.nu > 1:
        for i in range(m.nu):
            if m.size[i] > 1:
                skip = True
    for i in range(m.nu):
        if skip and m.size[i] <= 1:
            continue
        csz[ncmp] = m.size[i]
        a = ekey(t, m.first[i])
        b = ekey(t, w.first[i])
        cres[ncmp] = 1 if a > b else (-1 if a < b else 0)
        order[ncmp] = ncmp
        ncmp += 1
    # stable sort by (larger size first, unequal comparisons first)
    for i in range(1, ncmp):
        tmp = order[i]
        j = i - 1
        while j >= 0 and (csz[order[j]] < csz[tmp] or (csz[order[j]] == csz[tmp] and cres[order[j]] == 0
                                                         and cres[tmp] != 0)):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = tmp
    for i in range(ncmp):
        if cres[order[i]] == 0:
            continue
        return cres[order[i]] > 0
    return False

ctypedef struct WCtx:
    const ZPTrump* t
    const ZPConfig* c
    const ZPFormat* F
    const WU* w
    int rem[ZP_NID]
    int ids[ZP_NID]
    int nids
    int8_t path[32][24]      # members assigned to each unit of F
    WU found
    int any                  # accept any complete grouping (TrickFormat::matches)

cdef int mc_cmp(const WCtx* x, int a, int b) noexcept nogil:
    """MatchingCards order of the matchings of units a and b (same shape): lexicographic by
    member."""
    cdef int j, ka, kb
    for j in range(x.F.len[a]):
        ka = okey(x.t, x.path[a][j])
        kb = okey(x.t, x.path[b][j])
        if ka != kb:
            return 1 if ka > kb else -1
    return 0

cdef bint w_leaf(WCtx* x) noexcept nogil:
    """A complete matching of the play onto the format's units: normalised as shengji's
    into_matching_cards (inside each shape, the largest matching to the first unit of that shape)
    and tested against the current winner."""
    cdef int u, v, j, n, tmp
    cdef int grp[32]
    cdef int srt[32]
    cdef bint used[32]
    cdef WU m
    if x.any:
        return True
    for u in range(x.F.nu):
        used[u] = False
    m.nu = x.F.nu
    m.bomb = x.F.nu == 1 and x.F.len[0] == 1 and x.F.cnt[0] >= 4
    for u in range(x.F.nu):
        if used[u]:
            continue
        n = 0
        for v in range(u, x.F.nu):
            if not used[v] and x.F.cnt[v] == x.F.cnt[u] and x.F.len[v] == x.F.len[u]:
                grp[n] = v
                srt[n] = v
                used[v] = True
                n += 1
        for v in range(1, n):
            tmp = srt[v]
            j = v - 1
            while j >= 0 and mc_cmp(x, srt[j], tmp) < 0:
                srt[j + 1] = srt[j]
                j -= 1
            srt[j + 1] = tmp
        for v in range(n):
            m.first[grp[v]] = x.path[srt[v]][0]
            m.last[grp[v]] = x.path[srt[v]][x.F.len[srt[v]] - 1]
            m.size[grp[v]] = x.F.cnt[srt[v]] * x.F.len[srt[v]]
    if defeats(x.t, x.c, &m, x.w):
        x.found = m
        return True
    return False

cdef bint w_path(WCtx* x, int u, int k, int j) noexcept nogil:
    cdef int b, nx, cnt = x.F.cnt[u]
    cdef bint ok
    if j == x.F.len[u]:
        return w_dfs(x, u + 1)
    for b in range(3):
        nx = x.t.succ[k][b]
        if nx < 0:
            break
        if x.rem[nx] < cnt:
            continue
        x.rem[nx] -= cnt
        x.path[u][j] = nx
        ok = w_path(x, u, nx, j + 1)
        x.rem[nx] += cnt
        if ok:
            return True
    return False

cdef bint w_dfs(WCtx* x, int u) noexcept nogil:
    cdef int a, k, cnt
    cdef bint ok
    if u == x.F.nu:
        return w_leaf(x)
    cnt = x.F.cnt[u]
    for a in range(x.nids):
        k = x.ids[a]
        if x.rem[k] < cnt:
            continue
        x.rem[k] -= cnt
        x.path[u][0] = k
        ok = w_path(x, u, k, 1)
        x.rem[k] += cnt
        if ok:
            return True
    return False

cdef inline void sort_desc(int* a, int n) noexcept nogil:
    """Insertion sort of a[0..n) from high to low (n is a handful of units)."""
    cdef int i, j, tmp
    for i in range(1, n):
        tmp = a[i]
        j = i - 1
        while j >= 0 and a[j] < tmp:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = tmp

cdef bint rb_combo(const Hand* P, const ZPFormat* F, int* out) noexcept nogil:
    """rainbow_play_combo: the ranks taken greedily (highest rank with enough cards) by the units,
    largest first, sorted high to low; False if the play cannot satisfy them."""
    cdef int avail[13]
    cdef int sz[32]
    cdef int i, r, n = F.nu
    rank_counts(P, avail)
    for i in range(n):
        sz[i] = F.cnt[i]
    sort_desc(sz, n)
    for i in range(n):
        out[i] = -1
        for r in range(12, -1, -1):
            if avail[r] >= sz[i]:
                out[i] = r
                avail[r] -= sz[i]
                break
        if out[i] < 0:
            return False
    sort_desc(out, n)
    return True

cdef int zp_mixed_winner(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* plays,
                         int n) noexcept nogil:
    """Trick::compute_winner: index of the winning play (plays[0] the lead, F its format). A
    rainbow trick: the best rainbow combination (strictly better replaces). Otherwise the leader's
    units stand until a later play defeats the current winner's units: a bomb (bombs enabled)
    compared as a bomb, or a play of one suit (the led suit or trumps) of the lead's size whose
    cards can be grouped into the format's units (the first grouping found that defeats
    becomes the winner's units)."""
    cdef int i, u, best = 0, k
    cdef int bc[32]
    cdef int cc[32]
    cdef uint64_t ids
    cdef WU w
    cdef WU m
    cdef WCtx x
    cdef int L = zp_fmt_size(F), su
    if F.rainbow:
        if not rb_combo(&plays[0], F, bc):
            return 0
        for i in range(1, n):
            if rb_combo(&plays[i], F, cc):
                for u in range(F.nu):
                    if cc[u] != bc[u]:
                        if cc[u] > bc[u]:
                            best = i
                            memcpy(bc, cc, F.nu * sizeof(int))
                        break
        return best
    w.nu = F.nu
    w.bomb = F.nu == 1 and F.len[0] == 1 and F.cnt[0] >= 4
    for u in range(F.nu):
        w.first[u] = F.mem[F.off[u]]
        w.last[u] = F.mem[F.off[u] + F.len[u] - 1]
        w.size[u] = F.cnt[u] * F.len[u]
    x.t = t
    x.c = c
    x.F = F
    x.any = 0
    for i in range(1, n):
        ids = plays[i].layer[0]
        if ids == 0:
            continue
        if c.bombs and zp_is_bomb(&plays[i]):
            k = bit_low(ids)
            m.nu = 1
            m.bomb = 1
            m.first[0] = k
            m.last[0] = k
            m.size[0] = hand_size(&plays[i])
            if defeats(t, c, &m, &w):
                w = m
                best = i
            continue
        su = t.eff[bit_low(ids)]
        if (ids & ~t.smask[su]) or (su != F.suit and su != ZP_TRUMP) or hand_size(&plays[i]) != L:
            continue
        x.nids = suit_counts(t, &plays[i], su, x.rem, x.ids)
        x.w = &w
        if w_dfs(&x, 0):
            w = x.found
            best = i
    return best


cdef bint zp_fmt_matches(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* P) noexcept nogil:
    """TrickFormat::matches: P is of one effective suit (the led suit or trumps), of the lead's
    size, and its cards can be grouped into the format's units."""
    cdef WCtx x
    cdef uint64_t ids = P.layer[0]
    cdef int su
    if ids == 0 or F.rainbow:
        return False
    su = t.eff[bit_low(ids)]
    if (ids & ~t.smask[su]) or (su != F.suit and su != ZP_TRUMP) or hand_size(P) != zp_fmt_size(F):
        return False
    x.t = t
    x.c = c
    x.F = F
    x.any = 1
    x.nids = suit_counts(t, P, su, x.rem, x.ids)
    return w_dfs(&x, 0)
