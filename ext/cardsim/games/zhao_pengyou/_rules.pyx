"""Zhao Pengyou 找朋友: the pure rules, on cards and the deal config only (no state struct).

docs/rules/zhao_pengyou.md §2 (trump order, §2.3-§2.5), §5 (lead formats §5.2, top cards §5.3,
follow obligations §5.4, trick winner §5.5) and §6 (scoring). The state machine
(`_state`), the greedy agent and the public oracles call these kernels; the oracles
therefore answer exactly as the engine plays. It also holds the card order (shengji's
compare_effective: ekey/okey in the .pxd, sorted_ids) and the tractor adjacency (zp_set_adjacency,
shengji's Trump::successor) that `_formats` and `_plays` build on.

Card identity: suit*13 + rank (suits S H D C = 0..3, rank 0 = '2' .. 12 = 'A'), 52 = small joker,
53 = big joker. A play or hand is a packed multiset (`Hand`, up to 4 copies of an identity).
"""
from libc.string cimport memcpy, memset
from cardsim.core._types cimport uint64_t, int8_t
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._hand cimport (Hand, hand_count, hand_size, hand_size_in, hand_merge, hand_max_count, hand_add,
                                 hand_remove, hand_within)


# ---- the deck table (§2.1): a static C table -------------------------------------------------------
cdef extern from *:
    """
    /* players 5..12 -> 52-card packs, big jokers, small jokers, cards per player, kitty, friend
       calls; 5 players is variant V1 (kitty 8, one call: D14). cardsim.games.zhao_pengyou.info.TABLE
       restates it for the bounds (a test checks they agree). */
    static const int zp_deck_table[8][6] = {
        {2, 2, 2, 20, 8, 1}, {2, 2, 2, 17, 6, 2}, {2, 0, 0, 14, 6, 2}, {3, 2, 0, 19, 6, 3},
        {3, 3, 0, 17, 6, 3}, {3, 0, 0, 15, 6, 4}, {3, 2, 2, 14, 6, 4}, {4, 2, 0, 17, 6, 5},
    };
    """
    const int zp_deck_table[8][6]


cdef bint zp_deck_row(ZPConfig* c, int n) noexcept nogil:
    """Fill the deck fields of the config (n, packs, jokers, cards per player, kitty, calls,
    total) from the §2.1 row of n players; False (nothing written) if n is not 5..12."""
    cdef const int* r
    if n < ZP_MIN_SEATS or n > ZP_MAX_SEATS:
        return False
    r = zp_deck_table[n - ZP_MIN_SEATS]
    c.n = n
    c.decks = r[0]
    c.nbig = r[1]
    c.nsmall = r[2]
    c.cpp = r[3]
    c.kitty = r[4]
    c.calls = r[5]
    c.total = ZP_NPLAIN * c.decks + c.nbig + c.nsmall
    return True


# ---- trump order (§2.3-§2.5) ------------------------------------------------------------------
cdef void zp_set_trump(ZPTrump* t, int suit, int rank) noexcept nogil:
    """zp_trump_tables, then the seed's tractor successors (zp_set_adjacency(t, False))."""
    zp_trump_tables(t, suit, rank)
    zp_set_adjacency(t, False)


# the tables of every trump suit (-1..3, index suit + 1) and rank, computed once at import
cdef ZPTrump TRUMP_TABLES[5][13]

cdef void _fill_trump_tables():
    cdef int su, r
    memset(TRUMP_TABLES, 0, sizeof(TRUMP_TABLES))
    for su in range(-1, 4):
        for r in range(13):
            trump_tables(&TRUMP_TABLES[su + 1][r], su, r)

_fill_trump_tables()


cdef void zp_trump_tables(ZPTrump* t, int suit, int rank) noexcept nogil:
    """Trump tables for trump suit `suit` and trump rank `rank` (§2.3-§2.5; trump_tables), copied
    from the tables computed at import; t.succ is left alone."""
    cdef const ZPTrump* src
    if suit < -1 or suit > 3 or rank < 0 or rank > 12:
        trump_tables(t, suit, rank)
        return
    src = &TRUMP_TABLES[suit + 1][rank]
    memcpy(t, src, <size_t>(<const char*>&src.succ[0][0] - <const char*>src))
    memcpy(t.ordinal, src.ordinal, sizeof(t.ordinal))


cdef void trump_tables(ZPTrump* t, int suit, int rank) noexcept nogil:
    """Trump tables for trump suit `suit` and trump rank `rank` (§2.3-§2.5). Strength: plain cards
    0..12 by rank; trump-suit cards 20+rank; other-suit rank-R cards 40 (all equal); T-R 41;
    small joker 42; big joker 43. Sequence positions skip rank R; jokers and rank-R cards have
    none. suit = -1 is a no-trump game (shengji's NoTrump, issue 17): only the jokers and the
    rank-R cards are trumps, every rank-R card 40. The tractor successors (t.succ, read only by
    shengji's mixed-unit formats) are left to zp_set_adjacency."""
    cdef int k, su, r
    t.suit = suit
    t.rank = rank
    for k in range(5):
        t.smask[k] = 0
    for k in range(ZP_NID):
        if k >= ZP_NPLAIN:
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
        t.smask[t.eff[k]] |= card_bit(k)
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
    bkey = zp_play_key(t, &plays[0], fmt, k, m, suit)
    for i in range(1, n):
        key = zp_play_key(t, &plays[i], fmt, k, m, suit)
        if key > bkey:
            bkey = key
            best = i
    return best


# ---- follow obligations (§5.4) ----------------------------------------------------------------
cdef inline void _level_term(int cap, int p, int k, int sign, int* cheap, int* full) noexcept nogil:
    """One identity's share of set_obligation_cost's full-k-set level (p copies in the follow, up
    to cap reachable), added (sign 1) or taken back (sign -1): the k-sets it may still complete,
    the one it has begun costing k - p % k (cheap[k - p % k]), the others k each (full)."""
    cdef int more = cap // k - p // k
    if more > 0:
        if p % k:
            cheap[k - p % k] += sign
            more -= 1
        full[0] += sign * more

cdef inline int _fill_sets(const int* cheap, int need, int full, int k) noexcept nogil:
    """The cost of the full-k-set level: `need` sets more, the begun ones cheapest first
    (cheap[c] of them cost c cards each), then further sets of k while `full` lasts."""
    cdef int c, a, cost = 0
    for c in range(1, 4):
        a = cheap[c] if cheap[c] < need else need
        need -= a
        cost += a * c
    if need > full:
        return ZP_IMPOSSIBLE
    return cost + need * k

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
    cdef int i, j, slots = m, avail, need, cost = 0, full
    cdef int base[ZP_NID]
    cdef int cheap[4]
    cdef int cand[ZP_NID]
    cdef int nc, a, b, tmp
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
            _level_term(cap[i], pc[i], k, 1, cheap, &full)
        return _fill_sets(cheap, need, full, k)
    for i in range(n):
        base[i] = pc[i]
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
    cdef int sc[ZP_NID]
    cdef int pc[ZP_NID]
    cdef int sids[ZP_NID]
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

cdef uint64_t _full_level_adds(const int* pc, const int* sc, const int* id_of, int n, int k, int m, int left,
                               uint64_t cand) noexcept nogil:
    """zp_follow_set_adds' per-candidate test when the holding has >= m full k-sets (the first
    branch of set_obligation_cost, with cap == sc): that branch's sums over the identities (the
    k-sets still needed, the histogram of begun sets' completion costs, the further full sets)
    are taken once, and each candidate changes only its own identity's term, so its cost is the
    same arithmetic on adjusted sums: the same answer without a pass over the suit per candidate
    (tests/games/zhao_pengyou checks it against set_obligation_cost on random profiles)."""
    cdef int i, need0 = m, need, full = 0, f, kk
    cdef int cheap[4]
    cdef int ch[4]
    cdef uint64_t out = 0
    cheap[0] = cheap[1] = cheap[2] = cheap[3] = 0
    for i in range(n):
        need0 -= pc[i] // k
        _level_term(sc[i], pc[i], k, 1, cheap, &full)
    for i in range(n):
        kk = id_of[i]
        if not (cand >> kk) & 1:
            continue
        need = need0 + pc[i] // k - (pc[i] + 1) // k
        if need <= 0:
            out |= card_bit(kk)          # cost 0 < left
            continue
        ch[0] = cheap[0]; ch[1] = cheap[1]; ch[2] = cheap[2]; ch[3] = cheap[3]
        f = full
        _level_term(sc[i], pc[i], k, -1, ch, &f)
        _level_term(sc[i], pc[i] + 1, k, 1, ch, &f)
        if _fill_sets(ch, need, f, k) < left:
            out |= card_bit(kk)
    return out

ctypedef struct _Pairs:
    uint64_t S0, S1, S2, S3      # the holding (hand + follow): identities held more than j times
    uint64_t P0, P1, P2, P3      # the follow likewise
    int avail                    # sum of floor(s / 2): the pairs held
    int inplay                   # sum of floor(p / 2): the pairs followed

cdef inline void _pairs(const Hand* rest, const Hand* play, uint64_t sm, _Pairs* q) noexcept nogil:
    """The layers of the holding as the bit-sliced sum of the hand's (rest) and the follow's
    (play) in the suit mask sm (copies are at most 4: a layer per copy), and the pair counts."""
    cdef uint64_t R0 = rest.layer[0] & sm, R1 = rest.layer[1] & sm, R2 = rest.layer[2] & sm, R3 = rest.layer[3] & sm
    q.P0 = play.layer[0] & sm
    q.P1 = play.layer[1] & sm
    q.P2 = play.layer[2] & sm
    q.P3 = play.layer[3] & sm
    q.S0 = R0 | q.P0
    q.S1 = R1 | q.P1 | (R0 & q.P0)
    q.S2 = R2 | q.P2 | (R1 & q.P0) | (R0 & q.P1)
    q.S3 = R3 | q.P3 | (R2 & q.P0) | (R1 & q.P1) | (R0 & q.P2)
    q.avail = cs_popcount(q.S1) + cs_popcount(q.S3)
    q.inplay = cs_popcount(q.P1) + cs_popcount(q.P3)

cdef inline int _begun_pairs(const _Pairs* q) noexcept nogil:
    """Identities with an odd count in the follow and a pair left to complete (cost 1 each)."""
    return cs_popcount((q.P0 & ~q.P1 & q.S1) | (q.P2 & ~q.P3 & q.S3))

cdef inline int _fill_pairs(int need, int cheap, int full) noexcept nogil:
    """_fill_sets for pairs, whose begun sets all cost 1 (a count, not a histogram): the begun
    pairs first, then further pairs (2 cards each) while they last."""
    cdef int t = cheap if cheap < need else need
    need -= t
    if need > full:
        return ZP_IMPOSSIBLE
    return t + 2 * need

cdef inline int _pair_cost_of(const _Pairs* q, int m, int min_size) noexcept nogil:
    """set_obligation_cost for a lead of m pairs (k = 2, cap == sc), each of its sums a popcount
    of a class of identities."""
    cdef uint64_t E, odd
    cdef int need, cheap, cost, slots, n0, n1
    if q.avail >= m:
        # the first branch: the pairs still needed, the begun pairs, the further pairs
        need = m - q.inplay
        if need <= 0:
            return 0
        cheap = _begun_pairs(q)
        return _fill_pairs(need, cheap, q.avail - q.inplay - cheap)
    # every pair held is forced: each identity whose pairs (2 * floor(s / 2)) exceed its copies in
    # the follow adds the difference
    E = (q.S1 & ~q.P1) | (q.S3 & ~q.P3)
    cost = (2 * (cs_popcount(E & q.S1) + cs_popcount(E & q.S3))
            - (cs_popcount(E & q.P0) + cs_popcount(E & q.P1) + cs_popcount(E & q.P2) + cs_popcount(E & q.P3)))
    if min_size > 1:
        return cost
    # level 1 (partial sets): the odd single left of each identity held an odd number of times;
    # it costs nothing where every copy is already in the follow, else 1; cheapest first
    slots = m - q.avail
    odd = (q.S0 & ~q.S1) | (q.S2 & ~q.S3)
    n0 = cs_popcount(odd & ~((q.S0 ^ q.P0) | (q.S1 ^ q.P1) | (q.S2 ^ q.P2) | (q.S3 ^ q.P3)))
    n1 = cs_popcount(odd) - n0
    if n0 + n1 <= slots:
        return cost + n1
    return cost + (slots - n0 if slots > n0 else 0)

cdef int zp_pair_cost(const Hand* rest, const Hand* play, uint64_t sm, int m, int min_size) noexcept nogil:
    """set_obligation_cost for a lead of m pairs (k = 2, cap == sc) on the packed layers of the
    hand (rest) and the follow (play) in the suit mask sm (_pairs, _pair_cost_of)."""
    cdef _Pairs q
    _pairs(rest, play, sm, &q)
    return _pair_cost_of(&q, m, min_size)

cdef uint64_t zp_follow_set_adds(const Hand* rest, const Hand* play, uint64_t sm, int k, int m, int min_size,
                                 int left) noexcept nogil:
    """The factored follow under the set obligation (§5.4, D6/D7; V7 with min_size 1): the
    identities of the led suit (mask sm) in `rest` (the hand) whose next copy keeps the partial
    follow `play` completable, i.e. leaves set_obligation_cost <= left - 1 (left: cards still to
    add, >= 1; the holding rest + play has at least |play| + left cards of the suit).
    One evaluation of the obligation settles most calls: adding a held suit card never raises
    the cost (extra suit cards are harmless filler, so a cheapest completion of the play, less
    that card if it used it, completes the larger play) and lowers it by at most one (a
    completion of the larger play plus that card completes the play). So with cost < left every
    candidate keeps the play completable, with cost > left none does, and only when cost == left
    (every card still to add must serve the obligation) is each candidate evaluated.
    A lead of pairs is decided on the packed layers (_pairs), its candidates a class at a time
    when the pairs held suffice; any other lead on the identities' counts, its candidates by
    adjusted sums when the holding has the m full sets (_full_level_adds), else one by one.
    tests/games/zhao_pengyou/test_follow_sets.py checks every path against the candidates
    evaluated one by one with set_obligation_cost."""
    cdef uint64_t cand = rest.layer[0] & sm, ids = (rest.layer[0] | play.layer[0]) & sm, out = 0
    cdef int n = 0, i, kk, cost, avail
    cdef int sc[ZP_NID]
    cdef int pc[ZP_NID]
    cdef int id_of[ZP_NID]
    cdef _Pairs q
    cdef int need, cheap, full
    if k == 2:
        # pairs (the commonest set lead): on the packed layers (_pairs); with the pairs held
        # enough (the first branch) each candidate too, a class at a time; else the identities'
        # counts are gathered below for the candidates' searches
        _pairs(rest, play, sm, &q)
        cost = _pair_cost_of(&q, m, min_size)
        if cost < left:
            return cand
        if cost > left:
            return 0
        if q.avail >= m:
            # cost == left >= 1, so pairs are still needed. One copy more of a candidate (p in the
            # follow, s held, p < s): p even and s >= p + 2 begins a pair that was a further one
            # (cheap + 1, full - 1); p even and s = p + 1 changes no sum (the cost stays: not
            # legal); p odd completes a begun pair (need - 1, cheap - 1)
            need = m - q.inplay
            cheap = _begun_pairs(&q)
            full = q.avail - q.inplay - cheap
            if _fill_pairs(need, cheap + 1, full - 1) < left:
                out |= ((q.S0 & ~q.P0) & q.S1) | ((q.P1 & ~q.P2) & q.S3)
            if need <= 1 or _fill_pairs(need - 1, cheap - 1, full) < left:
                out |= (q.P0 & ~q.P1) | (q.P2 & ~q.P3)
            return out & cand
    while ids:
        kk = bit_low(ids)
        ids &= ids - 1
        id_of[n] = kk
        pc[n] = hand_count(play, kk)
        sc[n] = pc[n] + hand_count(rest, kk)
        n += 1
    if k != 2:
        cost = set_obligation_cost(pc, sc, sc, n, k, m, min_size)
        if cost < left:
            return cand
        if cost > left:
            return 0
    avail = 0
    for i in range(n):
        avail += sc[i] // k
    if avail >= m:
        return _full_level_adds(pc, sc, id_of, n, k, m, left, cand)
    for i in range(n):
        kk = id_of[i]
        if (cand >> kk) & 1:
            pc[i] += 1
            if set_obligation_cost(pc, sc, sc, n, k, m, min_size) < left:
                out |= card_bit(kk)
            pc[i] -= 1
    return out

cdef bint zp_follow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play, int k,
                       int m, int suit, int L) noexcept nogil:
    """Whole-follow legality (§5.4): exactly L cards of the holding, and complete in the sense of
    zp_follow_completable (all of the led suit if the hand holds >= L of it, else all of them
    plus free cards; the set obligation met)."""
    if hand_size(play) != L or not hand_within(play, full):
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
            pos |= card_bit(t.seqpos[kk])
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


# ---- card order and tractor adjacency (shengji types.rs; used by _formats and _plays) --------
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
    for k in range(ZP_NID):
        t.succ[k][0] = -1
        t.succ[k][1] = -1
        t.succ[k][2] = -1
    for k in range(ZP_NPLAIN):
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
