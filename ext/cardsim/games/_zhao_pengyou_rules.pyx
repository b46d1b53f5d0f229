"""Zhao Pengyou 找朋友: the pure rules, on cards and the deal config only (no state struct).

docs/rules/zhao_pengyou.md §2 (trump order, §2.3-§2.5), §5 (lead formats §5.2, top cards §5.3,
follow obligations §5.4, trick winner §5.5) and §6 (scoring). The state machine
(`_zhao_pengyou_state`), the greedy agent and the public oracles call these kernels; the oracles
therefore answer exactly as the engine plays.

Card identity: suit*13 + rank (suits S H D C = 0..3, rank 0 = '2' .. 12 = 'A'), 52 = small joker,
53 = big joker. A play or hand is a packed multiset (`Hand`, up to 4 copies of an identity).
"""
from libc.string cimport memcpy, memset
from cardsim.core._types cimport uint64_t, int8_t
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._hand cimport (Hand, hand_count, hand_size, hand_size_in, hand_merge, hand_max_count, hand_add,
                                 hand_remove)


# ---- trump order (§2.3-§2.5) ------------------------------------------------------------------
cdef void zp_set_trump(ZPTrump* t, int suit, int rank) noexcept nogil:
    """Trump tables for trump suit `suit` and trump rank `rank` (§2.3-§2.5). Strength: plain cards
    0..12 by rank; trump-suit cards 20+rank; other-suit rank-R cards 40 (all equal); T-R 41;
    small joker 42; big joker 43. Sequence positions skip rank R; jokers and rank-R cards have
    none. suit = -1 is a no-trump game (shengji's NoTrump, issue 17): only the jokers and the
    rank-R cards are trumps, every rank-R card 40."""
    cdef int k, su, r
    t.suit = suit
    t.rank = rank
    for k in range(5):
        t.smask[k] = 0
    for k in range(54):
        if k >= 52:
            t.eff[k] = ZP_TRUMP
            t.strength[k] = 42 if k == ZP_SJK else 43
            t.seqpos[k] = -1
        else:
            su = k // 13
            r = k % 13
            if r == rank:
                t.eff[k] = ZP_TRUMP
                t.strength[k] = 41 if su == suit else 40
                t.seqpos[k] = -1
            else:
                t.eff[k] = ZP_TRUMP if su == suit else su
                t.strength[k] = (20 + r) if su == suit else r
                t.seqpos[k] = r if (rank < 0 or r < rank) else r - 1
        t.smask[t.eff[k]] |= (<uint64_t>1) << k
    zp_set_adjacency(t, False)
    # shengji's suit_ordinal (cmp_effective compares it first): the plain suits in a fixed cyclic
    # order ending with the trump suit, trumps last; no trump: C D S H, trumps last
    if suit < 0:
        t.ordinal[3] = 1
        t.ordinal[2] = 2
        t.ordinal[0] = 3
        t.ordinal[1] = 4
    else:
        # trump C: D S H; trump D: S H C; trump S: H C D; trump H: C D S (then the trump suit)
        for k in range(4):
            t.ordinal[k] = 4
        if suit == 3:
            t.ordinal[2] = 1; t.ordinal[0] = 2; t.ordinal[1] = 3
        elif suit == 2:
            t.ordinal[0] = 1; t.ordinal[1] = 2; t.ordinal[3] = 3
        elif suit == 0:
            t.ordinal[1] = 1; t.ordinal[3] = 2; t.ordinal[2] = 3
        else:
            t.ordinal[3] = 1; t.ordinal[2] = 2; t.ordinal[0] = 3
    t.ordinal[ZP_TRUMP] = 5


# ---- lead formats (§5.2) ----------------------------------------------------------------------
cdef bint ids_consecutive(const ZPTrump* t, uint64_t ids) noexcept nogil:
    """True iff the identities of ids occupy consecutive sequence positions of one suit (§2.5)."""
    cdef int lo = 99, hi = -1, n = 0, k, p
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        p = t.seqpos[k]
        if p < 0:
            return False
        if p < lo:
            lo = p
        if p > hi:
            hi = p
        n += 1
    return hi - lo + 1 == n

cdef int zp_classify(const ZPTrump* t, const Hand* P, int* k, int* m, int* suit) noexcept nogil:
    """Lead format of the multiset P (§5.2). Validity: one effective suit; one group (SET), or
    m >= 2 groups of the same size k with distinct identities: consecutive positions with k >= 2
    make a SEQ, anything else a THROW (top-card check happens at play time, D3).
    Returns ZP_F_* or -1 (empty), -2 (suits differ), -3 (groups of unequal size)."""
    cdef uint64_t ids = P.layer[0]
    cdef int total, kk, s0
    if ids == 0:
        return -1
    s0 = t.eff[bit_low(ids)]
    if ids & ~t.smask[s0]:
        return -2
    total = hand_size(P)
    m[0] = cs_popcount(ids)
    kk = total // m[0]
    k[0] = kk
    suit[0] = s0
    if kk * m[0] != total or P.layer[kk - 1] != ids or (kk < 4 and P.layer[kk] != 0):
        return -3
    if total == 1:
        return ZP_F_SINGLE
    if m[0] == 1:
        return ZP_F_SET
    if kk >= 2 and ids_consecutive(t, ids):
        return ZP_F_SEQ
    return ZP_F_THROW


# ---- trick winner (§5.5) ----------------------------------------------------------------------
cdef int play_key(const ZPTrump* t, const Hand* P, int fmt, int k, int m, int suit) noexcept nogil:
    """Strength key of a play for SINGLE/SET/SEQ leads (§5.5): -1 if it does not qualify; trumps
    rank above the led suit."""
    cdef int id0, e, kk, mm, ss, f
    cdef uint64_t ids = P.layer[0]
    if fmt == ZP_F_SINGLE or fmt == ZP_F_SET:
        if cs_popcount(ids) != 1:
            return -1
        id0 = bit_low(ids)
        e = t.eff[id0]
        if e == ZP_TRUMP:
            return 100 + t.strength[id0]
        if e == suit:
            return t.strength[id0]
        return -1
    f = zp_classify(t, P, &kk, &mm, &ss)
    if f != ZP_F_SEQ or kk != k or mm != m or (ss != suit and ss != ZP_TRUMP):
        return -1
    e = -1
    while ids:
        id0 = bit_low(ids)
        ids &= ids - 1
        if t.seqpos[id0] > e:
            e = t.seqpos[id0]
    return e + (100 if ss == ZP_TRUMP else 0)

cdef bint throw_hist(const ZPTrump* t, const Hand* P, int k, int m, int* hist) noexcept nogil:
    """Histogram (by strength 0..43) of a trump answer to a THROW(k, m) lead: every card for k = 1,
    every group for k >= 2 (which must have the lead's shape). False if it does not qualify."""
    cdef uint64_t ids = P.layer[0]
    cdef int i, id0
    for i in range(44):
        hist[i] = 0
    if ids & ~t.smask[ZP_TRUMP]:
        return False
    if k >= 2:
        if cs_popcount(ids) != m or P.layer[k - 1] != ids or (k < 4 and P.layer[k] != 0):
            return False
        while ids:
            id0 = bit_low(ids)
            ids &= ids - 1
            hist[t.strength[id0]] += 1
        return True
    while ids:
        id0 = bit_low(ids)
        ids &= ids - 1
        hist[t.strength[id0]] += hand_count(P, id0)
    return True

cdef int zp_trick_winner(const ZPTrump* t, const Hand* plays, int n, int fmt, int k, int m,
                         int suit) noexcept nogil:
    """Index of the winning play (§5.5); plays[0] is the lead. Validity: only qualifying plays
    compete; equal strength -> the earlier play wins (D20). THROW: the leader wins unless a
    follower answers a plain-suit throw with trumps (any m trumps for k = 1, the same shape for
    k >= 2, D21); trump answers compare strongest first, lexicographically."""
    cdef int best = 0, i, key, bkey, j, cmp
    cdef int h[44]
    cdef int bh[44]
    if fmt == ZP_F_THROW:
        if suit == ZP_TRUMP:
            return 0
        for i in range(1, n):
            if not throw_hist(t, &plays[i], k, m, h):
                continue
            cmp = 1
            if best > 0:
                cmp = 0
                for j in range(43, -1, -1):
                    if h[j] != bh[j]:
                        cmp = 1 if h[j] > bh[j] else -1
                        break
            if cmp > 0:
                best = i
                for j in range(44):
                    bh[j] = h[j]
        return best
    bkey = play_key(t, &plays[0], fmt, k, m, suit)
    for i in range(1, n):
        key = play_key(t, &plays[i], fmt, k, m, suit)
        if key > bkey:
            bkey = key
            best = i
    return best


# ---- follow obligations (§5.4) ----------------------------------------------------------------
cdef int set_obligation_cost(const int* pc, const int* cap, const int* sc, int n, int k, int m,
                             int min_size) noexcept nogil:
    """The set obligation of a follow to a lead of m groups of k identical cards (§5.4, D6/D7;
    V7 with min_size < k). Validity: the follow's *chunk profile* (its m largest chunks of
    identical led-suit cards, sizes capped at k: a count c gives floor(c/k) chunks of k and one
    of c mod k, larger sizes first; only sizes >= min_size count) must equal the profile of the
    follower's whole holding of the suit. The seed counts only full k-sets (min_size = k: at
    least min(m, available k-sets) of them, D6, D7); V7 (min_size = 1) also obliges the largest
    partial sets.

    pc[i]: copies of suit identity i already in the follow; cap[i] (>= pc[i]): copies it may
    still reach; sc[i]: copies held in all (which fixes the obligation). Returns the fewest cards
    that must still be added (cheapest completion), or ZP_IMPOSSIBLE.

    Why this is exact: a sub-multiset's profile never exceeds the holding's (lexicographically,
    larger sizes first), adding cards never lowers it, so extra suit cards are harmless filler.
    Reading the holding's profile level by level, every level whose chunks all fit in the slots
    left forces those cards (all full k-sets; every identity with exactly j left over in full);
    the first level with more candidates than slots leaves a choice, met by the cheapest
    candidates; lower levels get no slot."""
    cdef int i, j, slots = m, avail, cnt, need, cost = 0, c, full, more, r, extra
    cdef int base[54]
    cdef int cheap[4]
    cdef int cand[54]
    cdef int nc, a, b, tmp
    for i in range(n):
        base[i] = pc[i]
    # level k: full k-sets
    avail = 0
    for i in range(n):
        avail += sc[i] // k
    if avail >= slots:
        need = slots
        for i in range(n):
            need -= pc[i] // k
        if need <= 0:
            return 0
        cheap[0] = cheap[1] = cheap[2] = cheap[3] = 0
        full = 0
        for i in range(n):
            more = cap[i] // k - pc[i] // k
            if more <= 0:
                continue
            r = pc[i] % k
            if r > 0:
                cheap[k - r] += 1
                more -= 1
            full += more
        for c in range(1, 4):
            while cheap[c] > 0 and need > 0:
                cheap[c] -= 1
                need -= 1
                cost += c
        if need > full:
            return ZP_IMPOSSIBLE
        return cost + need * k
    for i in range(n):
        j = k * (sc[i] // k)
        if j > base[i]:
            if cap[i] < j:
                return ZP_IMPOSSIBLE
            cost += j - base[i]
            base[i] = j
    slots -= avail
    # levels k-1 .. min_size: identities left over with exactly j cards, taken in full
    j = k - 1
    while j >= min_size and j >= 1 and slots > 0:
        nc = 0
        for i in range(n):
            if sc[i] % k == j:
                if cap[i] < sc[i]:
                    cand[nc] = ZP_IMPOSSIBLE
                else:
                    cand[nc] = sc[i] - base[i] if sc[i] > base[i] else 0
                nc += 1
        if nc <= slots:
            for a in range(nc):
                if cand[a] >= ZP_IMPOSSIBLE:
                    return ZP_IMPOSSIBLE
                cost += cand[a]
            slots -= nc
        else:
            # choose the `slots` cheapest candidates (nc <= 13: a selection sort suffices)
            for a in range(slots):
                b = a
                for i in range(a + 1, nc):
                    if cand[i] < cand[b]:
                        b = i
                tmp = cand[a]; cand[a] = cand[b]; cand[b] = tmp
                if cand[a] >= ZP_IMPOSSIBLE:
                    return ZP_IMPOSSIBLE
                cost += cand[a]
            slots = 0
        j -= 1
    return cost

cdef int zp_suit_counts(const Hand* full, const Hand* play, uint64_t sm, int* sc, int* pc,
                        int* ids) noexcept nogil:
    """Per identity of the suit mask held in `full`: copies held (sc) and in `play` (pc)."""
    cdef uint64_t m = full.layer[0] & sm
    cdef int n = 0, k
    while m:
        k = bit_low(m)
        m &= m - 1
        ids[n] = k
        sc[n] = hand_count(full, k)
        pc[n] = hand_count(play, k)
        n += 1
    return n

cdef bint zp_follow_completable(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play,
                                int k, int m, int suit, int L) noexcept nogil:
    """Can the partial follow `play` (a sub-multiset of the holding `full`) be completed into a
    legal follow of L cards (§5.4)? Validity: at most L cards; if the holding has >= L cards of
    the led suit, only suit cards, and with a set-type lead (k >= 2) the set obligation can still
    be met with the cards left (set_obligation_cost <= L - |play|); else at most L - (suit cards
    held) cards of other suits, so that every suit card still fits."""
    cdef uint64_t sm = t.smask[suit]
    cdef int nS, n, np = hand_size(play)
    cdef int sc[54]
    cdef int pc[54]
    cdef int sids[54]
    if np > L:
        return False
    nS = hand_size_in(full, sm)
    if nS < L:
        return np - hand_size_in(play, sm) <= L - nS
    if play.layer[0] & ~sm:
        return False
    if k < 2:
        return True
    n = zp_suit_counts(full, play, sm, sc, pc, sids)
    return set_obligation_cost(pc, sc, sc, n, k, m, 1 if c.partial_sets else k) <= L - np

cdef bint zp_follow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play, int k,
                       int m, int suit, int L) noexcept nogil:
    """Whole-follow legality (§5.4): exactly L cards of the holding, and complete in the sense of
    zp_follow_completable (all of the led suit if the hand holds >= L of it, else all of them
    plus free cards; the set obligation met)."""
    cdef uint64_t ids = play.layer[0]
    cdef int kk
    if hand_size(play) != L:
        return False
    while ids:
        kk = bit_low(ids)
        ids &= ids - 1
        if hand_count(play, kk) > hand_count(full, kk):
            return False
    return zp_follow_completable(t, c, full, play, k, m, suit, L)

# ---- top cards (§5.3) -------------------------------------------------------------------------
cdef int zp_throw_blocker(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int leader,
                          const Hand* P, int k) noexcept nogil:
    """First seat after the leader (in play order) holding a card (V3 'component': a k-set of
    identical cards) of the throw's suit strictly stronger than the weakest group; -1 if every
    card is top and the throw stands. hands[q] is seat q's hand (c.n seats)."""
    cdef uint64_t ids = P.layer[0], m
    cdef int suit = t.eff[bit_low(ids)]
    cdef int weakest = 99, i, q, kk, layer
    while ids:
        kk = bit_low(ids)
        ids &= ids - 1
        if t.strength[kk] < weakest:
            weakest = t.strength[kk]
    layer = (k - 1) if c.component_top else 0
    for i in range(1, c.n):
        q = (leader + i) % c.n
        m = hands[q].layer[layer] & t.smask[suit]
        while m:
            kk = bit_low(m)
            m &= m - 1
            if t.strength[kk] > weakest:
                return q
    return -1

cdef bint zp_lead_completable(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int seat,
                              const Hand* full, const Hand* P, int kmin, int kmax) noexcept nogil:
    """V4 'reject': can P (part of the seat's holding `full`) be completed into a lead that is
    legal now (a set, a set sequence, or a throw whose cards are all top against the other
    seats' hands)? Group sizes kmin..kmax are possible."""
    cdef uint64_t ids = P.layer[0]
    cdef int k, lo, hi, p, kk, suit
    cdef uint64_t u = ids
    cdef bint seq_ok
    if cs_popcount(ids) == 1:
        return True
    suit = t.eff[bit_low(ids)]
    for k in range(kmin, kmax + 1):
        if zp_throw_blocker(t, c, hands, seat, P, k) < 0:
            return True
        if k >= 2:
            lo = 99
            hi = -1
            seq_ok = True
            u = ids
            while u:
                kk = bit_low(u)
                u &= u - 1
                p = t.seqpos[kk]
                if p < 0:
                    seq_ok = False
                    break
                if p < lo:
                    lo = p
                if p > hi:
                    hi = p
            if seq_ok:
                for p in range(lo, hi + 1):
                    kk = seq_id(t, suit, p)
                    if hand_count(full, kk) < k:
                        seq_ok = False
                        break
                if seq_ok:
                    return True
    return False


cdef bint zp_lead_legal_now(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int seat,
                            const Hand* full, const Hand* P) noexcept nogil:
    """V4 'reject' on the factored lead: can the partial lead P (part of the seat's holding
    `full`, groups of sizes max count .. min holding possible, see zp_lead_candidates) be
    completed into a lead that is legal now (zp_lead_completable)?"""
    cdef uint64_t u = P.layer[0]
    cdef int kk, minH = 99, h
    while u:
        kk = bit_low(u)
        u &= u - 1
        h = hand_count(full, kk)
        if h < minH:
            minH = h
    return zp_lead_completable(t, c, hands, seat, full, P, hand_max_count(P), minH)

# ---- scoring (§6) -----------------------------------------------------------------------------
cdef int zp_lead_component(const ZPTrump* t, const Hand* lead, int fmt, int k, int m) noexcept nogil:
    """Cards in the largest component of a lead (V2): a single 1, a set k, a sequence k*m; a
    throw of k-sets its longest run of consecutive sets (a tractor inside the throw) times k."""
    cdef uint64_t ids = lead.layer[0]
    cdef int run, best = 1, p, kk
    cdef uint64_t pos = 0
    if fmt == ZP_F_SEQ:
        return k * m
    if fmt != ZP_F_THROW or k < 2:
        return k
    while ids:
        kk = bit_low(ids)
        ids &= ids - 1
        if t.seqpos[kk] >= 0:
            pos |= (<uint64_t>1) << t.seqpos[kk]
    run = 0
    for p in range(14):
        if (pos >> p) & 1:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best * k

cdef int zp_opposition_points(const ZPConfig* c, int captured, int kitty_pts, int last_unit,
                              bint opp_last, int fails_decl, int fails_opp) noexcept nogil:
    """P_opp (§6.1, V2, V4). Points: the opposition's captured points; the kitty's points times 2
    (V2: times 2 x the largest component of the last lead) if the opposition won the last trick;
    with V4 'penalty', c.throw_penalty per failed throw attempt, to the opposition for DECL's
    attempts and against it for its own, added as one total and clamped at 0 once (so the score
    does not depend on where the seats sit)."""
    cdef int P = captured
    if opp_last:
        P += (2 if c.kitty_mult == 0 else 2 * last_unit) * kitty_pts
    if c.throw_penalty:
        P += c.throw_penalty * (fails_decl - fails_opp)
        if P < 0:
            P = 0
    return P

cdef int zp_game_points(const ZPConfig* c, int p_opp, int decl_size, int* decl_won) noexcept nogil:
    """Game points of the deal's winners (§6.2): by the thresholds t1 < t2 < t3 (per pack, times
    the number of packs) DECL wins below t1, with its base plus a bonus per missing friend
    (short = 1 + calls - |DECL|), more with P_opp = 0; otherwise OPP wins 1/2/3 levels. The table
    (c.gp) and thresholds (c.thr) are options."""
    cdef int t1 = c.thr[0] * c.decks, t2 = c.thr[1] * c.decks, t3 = c.thr[2] * c.decks
    cdef int short = 1 + c.calls - decl_size
    if short < 0:
        short = 0
    if p_opp == 0:
        decl_won[0] = 1
        return c.gp[0] + c.gp[1] * short
    if p_opp < t1:
        decl_won[0] = 1
        return c.gp[2] + c.gp[3] * short
    decl_won[0] = 0
    if p_opp < t2:
        return c.gp[4]
    if p_opp < t3:
        return c.gp[5]
    return c.gp[6]


# =================================================================================================
# Shengji-compatible formats (issue 17; docs/rules/zhao_pengyou.md "shengji options"): a port of
# rbtying/shengji's mechanics (trick.rs TrickFormat / is_legal_play / compute_winner, types.rs
# Trump::successor and compare_effective, ordered_card.rs decomposition orderings,
# format_match.rs format matching) onto packed hands, nogil.
# =================================================================================================
cdef enum:
    DEC_MAXN = 12            # units up to 12 cards have shengji's full decomposition ordering
    DEC_MAXR = 1600          # requirements in the table (1,414 for n <= 12)
    DEC_MAXS = 4600          # shapes (4,292)
    DEC_MAXV = 12000         # tuple sizes
    RQ_MAXS = 48             # shapes in one requirement
    RQ_MAXV = 96             # tuple sizes in one requirement

cdef int dec_ready = 0
cdef int dec_nstart[13]
cdef int dec_ncount[13]
cdef int dec_rstart[1600]
cdef int dec_rns[1600]
cdef int dec_sstart[4600]
cdef int dec_slen[4600]
cdef int8_t dec_vals[12000]


def dec_install(table):
    """Install shengji's full_decomposition_ordering(n) for n = 1..12 (computed once in Python by
    cardsim.games.zhao_pengyou._decompositions): table[n] = list of requirements, each a list of
    adjacent-tuple shapes (lists of tuple sizes)."""
    global dec_ready
    cdef int r = 0, sh = 0, v = 0, n
    if dec_ready:
        return
    for n in range(1, DEC_MAXN + 1):
        dec_nstart[n] = r
        dec_ncount[n] = len(table[n])
        for req in table[n]:
            dec_rstart[r] = sh
            dec_rns[r] = len(req)
            r += 1
            for shape in req:
                dec_sstart[sh] = v
                dec_slen[sh] = len(shape)
                sh += 1
                for x in shape:
                    dec_vals[v] = x
                    v += 1
    assert r <= DEC_MAXR and sh <= DEC_MAXS and v <= DEC_MAXV
    dec_ready = 1


ctypedef struct Req:
    int ns                   # shapes
    int slen[48]             # members of each shape (1 = a tuple)
    int soff[48]             # offset of its tuple sizes in vals
    int nv
    int8_t vals[96]

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
    for i in range(dec_rns[e]):
        sh = dec_rstart[e] + i
        ln = dec_slen[sh]
        if r.ns >= RQ_MAXS or r.nv + ln > RQ_MAXV:
            return
        r.slen[r.ns] = ln
        r.soff[r.ns] = r.nv
        for j in range(ln):
            r.vals[r.nv + j] = dec_vals[dec_sstart[sh] + j]
        r.nv += ln
        r.ns += 1


# ---- card order --------------------------------------------------------------------------------
cdef inline int ekey(const ZPTrump* t, int k) noexcept nogil:
    """shengji's compare_effective as a key: suit ordinal, then strength (equal = tie)."""
    return t.ordinal[t.eff[k]] * 64 + t.strength[k]

cdef inline int okey(const ZPTrump* t, int k) noexcept nogil:
    """A total order refining ekey (shengji's OrderedCard order; ties broken by identity)."""
    return ekey(t, k) * 64 + k

cdef int sorted_ids(const ZPTrump* t, uint64_t m, int* out) noexcept nogil:
    """Identities of m in ascending okey order."""
    cdef int n = 0, k, i, j, x
    while m:
        k = bit_low(m)
        m &= m - 1
        out[n] = k
        n += 1
    for i in range(1, n):
        x = out[i]
        j = i - 1
        while j >= 0 and okey(t, out[j]) > okey(t, x):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x
    return n

cdef void zp_set_adjacency(ZPTrump* t, bint shengji) noexcept nogil:
    """Tractor successors (types.rs Trump::successor with shengji=True: through the trump rank and
    the jokers: the trump suit's top card -> the other suits' trump-rank cards -> the trump suit's
    trump-rank card -> small joker -> big joker; in a no-trump game every trump-rank card -> small
    joker). shengji=False: the seed's sequences (§2.5: consecutive ranks of one suit, skipping the
    trump rank; trump-rank cards and jokers in none)."""
    cdef int k, su, r, nx, q, b
    for k in range(54):
        t.succ[k][0] = -1
        t.succ[k][1] = -1
        t.succ[k][2] = -1
    for k in range(52):
        su = k // 13
        r = k % 13
        if r == t.rank:
            if shengji:
                if su == t.suit and t.suit >= 0:
                    t.succ[k][0] = ZP_SJK
                elif t.suit >= 0:
                    t.succ[k][0] = t.suit * 13 + t.rank
                else:
                    t.succ[k][0] = ZP_SJK
            continue
        nx = r + 1
        if nx == t.rank:
            nx += 1
        if nx <= 12:
            t.succ[k][0] = su * 13 + nx
        elif shengji and t.eff[k] == ZP_TRUMP and t.rank < 0:
            t.succ[k][0] = ZP_SJK
        elif shengji and t.eff[k] == ZP_TRUMP:
            b = 0
            for q in range(4):
                if q != t.suit:
                    t.succ[k][b] = q * 13 + t.rank
                    b += 1
    if shengji:
        t.succ[ZP_SJK][0] = ZP_BJK


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
    int cnt[54]
    int order[54]            # the lead's identities, ascending
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
    if c.rainbows <= 0 or P.layer[0] == 0 or (P.layer[0] >> 52):
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
    for k in range(54):
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
    cdef int ids[54]
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
    cdef int cnt[54]
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
        for k in range(54):
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
    int rem[54]              # copies left
    const int* orig          # the counts matched (the policy filter compares with them)
    const int* cover         # NULL, or counts the matching must cover (the singles take the rest)
    int ids[54]              # identities with orig > 0, ascending
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
    for i in range(54):
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
ctypedef struct DecIt:
    int nu
    int ucnt[32]
    int ulen[32]
    int pos[32]
    int end[32]
    int cur[32]
    int can[32]
    int h[32]
    int first

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
        if n <= DEC_MAXN and dec_ready:
            st = dec_nstart[n]
            en = st + dec_ncount[n]
            it.pos[i] = en
            it.end[i] = en
            for e in range(st, en):
                if dec_rns[e] != 1:
                    continue
                sh = dec_rstart[e]
                if dec_slen[sh] != F.len[i]:
                    continue
                found = True
                for j in range(F.len[i]):
                    if dec_vals[dec_sstart[sh] + j] != F.cnt[i]:
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
                for s in range(dec_rns[e]):
                    sh = dec_rstart[e] + s
                    if dec_slen[sh] > 1:
                        incl = False
        if incl:
            dec_build(it, r)
            return True


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
    if play.layer[0] >> 52:
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
    for a in range(54):
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
    cdef uint64_t m = play.layer[0]
    cdef int hcnt[54]
    cdef int pcnt[54]
    cdef int ids[54]
    cdef int pids[54]
    cdef DecIt it
    cdef Req r
    cdef bint ltp
    if hand_size(play) != L:
        return False
    while m:
        k = bit_low(m)
        m &= m - 1
        if hand_count(play, k) > hand_count(full, k):
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
    cdef int hcnt[54]
    cdef int pcnt[54]
    cdef int ids[54]
    cdef int pids[54]
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
    if c.rainbows <= 0 or (P.layer[0] >> 52):
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
                out |= (<uint64_t>1) << k
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
    int rem[54]
    int ids[54]
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

cdef bint rb_combo(const Hand* P, const ZPFormat* F, int* out) noexcept nogil:
    """rainbow_play_combo: the ranks taken greedily (highest rank with enough cards) by the units,
    largest first, sorted high to low; False if the play cannot satisfy them."""
    cdef int avail[13]
    cdef int sz[32]
    cdef int i, j, r, tmp, n = F.nu
    rank_counts(P, avail)
    for i in range(n):
        sz[i] = F.cnt[i]
    for i in range(1, n):
        tmp = sz[i]
        j = i - 1
        while j >= 0 and sz[j] < tmp:
            sz[j + 1] = sz[j]
            j -= 1
        sz[j + 1] = tmp
    for i in range(n):
        out[i] = -1
        for r in range(12, -1, -1):
            if avail[r] >= sz[i]:
                out[i] = r
                avail[r] -= sz[i]
                break
        if out[i] < 0:
            return False
    for i in range(1, n):
        tmp = out[i]
        j = i - 1
        while j >= 0 and out[j] < tmp:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = tmp
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
