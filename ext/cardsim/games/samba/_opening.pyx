"""Samba's initial-meld searches (docs/rules/samba.md §4.0, §4.3, S-D15): can a batch still reach
the side's minimum? An upper bound of the value reachable from some cards (sb_value_bound), the
exact search over every completion of the staged cards followed by the exact initial batch from
the rest (x_opening: x_free of `_going_out`), the fast constructive check (opening_fast: the meld
builder of `_units`, sound: every yes is reachable; groups_fit answers its yes first where the
builder's construction is known to fit untrimmed) and the batch that may empty the hand
(sb_opening_out, with the canastas it must hold).

These kernels work on count vectors `int8 cnt[53]` indexed by kind (sb_counts converts a Hand);
they never touch a game state. The pure rules they build on are `_rules`.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_ctz, cs_popcount, bit_high
from cardsim.games.samba._rules cimport (
    SBConfig, SB_KINDS, SB_JK, sb_card_value, sb_rank_value, sb_group_ok, sb_word, sb_kinds, sb_total,
    sb_wilds, sb_nat_of_rank, ranks_of, nat_kinds, wild_kinds, rank_mask, suit_of, run_kinds, spread)
from cardsim.games.samba._going_out cimport x_free, sb_canasta_bound
from cardsim.games.samba._units cimport sb_best_value

cdef int VALUE[13]           # card values by rank (§2; the threes 0 here): sb_rank_value
cdef int KVAL[SB_KINDS]      # sb_card_value of every kind
for _k in range(13):
    VALUE[_k] = sb_rank_value(_k)
for _k in range(SB_KINDS):
    KVAL[_k] = sb_card_value(_k)

cdef int sb_value_bound(const int8_t* A, const int8_t* B) noexcept nogil:
    """An upper bound of the card value of any disjoint GROUPs and SEQUENCEs made from the cards
    A + B (hence of every batch sb_opening_ok can find, whose melds all come from them):
    value_bound of their sum."""
    cdef int8_t T[SB_KINDS]
    cdef int k
    cdef uint64_t tw
    for k in range(6):                          # T = A + B word by word (counts <= 6: no carry)
        tw = sb_word(A, k) + sb_word(B, k)
        memcpy(T + 8 * k, &tw, 8)
    for k in range(48, SB_KINDS):
        T[k] = A[k] + B[k]
    return value_bound(T)

cdef inline uint64_t lo_nat() noexcept nogil:
    """rank_lanes' low word: the lanes of ranks 4..9."""
    return <uint64_t>0xFFFFFFFFFFFF0000

cdef inline uint64_t hi_nat() noexcept nogil:
    """rank_lanes' high word: the lanes of ranks 10..A."""
    return <uint64_t>0xFFFFFFFFFF

cdef inline uint64_t rank_lanes(const int8_t* T, int off) noexcept nogil:
    """Bytes r = 0..7 (off 0) or 8..12 (off 8, the top three bytes cleared) of the per-rank
    natural counts T[r] + T[13 + r] + T[26 + r] + T[39 + r] (<= 12 a byte: no carry). Fixed-size
    copies inside the 53 counts (the last suit's five top ranks: four bytes and one)."""
    cdef uint64_t a, b, c, d
    cdef uint32_t lo
    memcpy(&a, T + off, 8)
    memcpy(&b, T + 13 + off, 8)
    memcpy(&c, T + 26 + off, 8)
    if off == 0:
        memcpy(&d, T + 39, 8)
        return a + b + c + d
    memcpy(&lo, T + 47, 4)
    d = <uint64_t>lo | (<uint64_t>(<uint8_t>T[51]) << 32)
    return (a + b + c + d) & <uint64_t>0xFFFFFFFFFF

cdef inline int lane_sum(uint64_t w) noexcept nogil:
    """The sum of the eight bytes of w (<= 255)."""
    return <int>((w * <uint64_t>0x0101010101010101) >> 56)

cdef inline uint64_t lanes_ge(uint64_t x, int t, uint64_t keep) noexcept nogil:
    """The high bit of each byte lane of x (lanes <= 127) holding >= t (1 <= t <= 127), within
    keep (lo_nat(), hi_nat(): the lanes of ranks 4..A)."""
    return ((x + <uint64_t>(128 - t) * <uint64_t>0x0101010101010101) & <uint64_t>0x8080808080808080) & keep

cdef inline uint64_t lanes_kept(uint64_t x, uint64_t hb) noexcept nogil:
    """The lanes of x whose high bit is set in hb, the others cleared."""
    return x & ((hb >> 7) * <uint64_t>0xFF)

cdef inline int lanes_value(uint64_t lo, uint64_t hi) noexcept nogil:
    """The card value of the naturals counted in rank_lanes' two words (by rank class: 4..7 5,
    8..K 10, A 20; the deuce and three lanes must be clear)."""
    return (5 * lane_sum(lo & <uint64_t>0x0000FFFFFFFF0000) + 10 * lane_sum(lo & <uint64_t>0xFFFF000000000000)
            + 10 * lane_sum(hi & <uint64_t>0xFFFFFFFF) + 20 * <int>(hi >> 32))

cdef inline uint32_t lanes_ranks(uint64_t hb_lo, uint64_t hb_hi) noexcept nogil:
    """The ranks (bit r) whose lane's high bit is set in the two words (the eight high bits of a
    word gathered by one multiplication, as sb_kinds)."""
    return <uint32_t>((((hb_lo >> 7) * <uint64_t>0x0102040810204080) >> 56)
                      | ((((hb_hi >> 7) * <uint64_t>0x0102040810204080) >> 56) << 8))

cdef inline int run_cards(const int8_t* T, uint32_t G, bint value) noexcept nogil:
    """The naturals of T in a run of three ranks of their suit (run_kinds), the ranks G left out:
    their card value (value) or their number."""
    cdef uint64_t K = run_kinds(sb_kinds(T)) & ~spread(G)
    cdef int k, n = 0
    while K:
        k = cs_ctz(K)
        K &= K - 1
        n += T[k] * KVAL[k] if value else T[k]
    return n

cdef int value_bound(const int8_t* T) noexcept nogil:
    """An upper bound of the card value of any disjoint GROUPs and SEQUENCEs made from the cards
    T: the naturals of ranks held at least three times (twice with a wild), the naturals in a run
    of three or more ranks of their suit, and every wild if some rank is held at least twice.
    Byte-parallel: the naturals per rank in two words of byte lanes (rank_lanes), the GROUP
    ranks' lanes by threshold (lanes_ge) and their value by rank class (lanes_value); the run
    cards of the other ranks by masks (run_cards)."""
    cdef uint64_t lo = rank_lanes(T, 0), hi = rank_lanes(T, 8)
    cdef uint64_t g_lo = lanes_ge(lo, 3, lo_nat()), g_hi = lanes_ge(hi, 3, hi_nat())
    cdef uint64_t p_lo = lanes_ge(lo, 2, lo_nat()), p_hi = lanes_ge(hi, 2, hi_nat())
    cdef int v, w = sb_wilds(T)
    if w > 0:
        g_lo |= p_lo
        g_hi |= p_hi
    v = lanes_value(lanes_kept(lo, g_lo), lanes_kept(hi, g_hi)) + run_cards(T, lanes_ranks(g_lo, g_hi), True)
    if p_lo | p_hi:
        v += 50 * T[SB_JK] + 20 * (w - T[SB_JK])
    return v

cdef bint groups_fit(const int8_t* R, int budget, int target) noexcept nogil:
    """An exact shortcut for sb_best_value(R, budget, c, NULL, target) >= target (saying yes only
    when it would): the GROUPs of >= 3 naturals of R are worth >= target, and the cards
    value_bound counts on R (the naturals of ranks held >= 3 times, or twice with a wild; the
    other naturals in runs of three; the wilds if some rank is held twice) are at most `budget`.
    Every card of sb_best_value's groups-first construction (build_units) is such a card, so
    that construction is not trimmed (units_eval), and it holds every natural of those ranks in
    its GROUPs: it is worth >= target, and sb_best_value returns it. Byte-parallel as
    value_bound."""
    cdef uint64_t lo = rank_lanes(R, 0), hi = rank_lanes(R, 8)
    cdef uint64_t g_lo = lanes_ge(lo, 3, lo_nat()), g_hi = lanes_ge(hi, 3, hi_nat()), p_lo, p_hi
    cdef int n, w
    if lanes_value(lanes_kept(lo, g_lo), lanes_kept(hi, g_hi)) < target:
        return False
    # the cards value_bound counts
    w = sb_wilds(R)
    p_lo = lanes_ge(lo, 2, lo_nat())
    p_hi = lanes_ge(hi, 2, hi_nat())
    if w > 0:
        g_lo |= p_lo
        g_hi |= p_hi
    n = lane_sum(lanes_kept(lo, g_lo)) + lane_sum(lanes_kept(hi, g_hi)) + (w if p_lo | p_hi else 0)
    return n <= budget and n + run_cards(R, lanes_ranks(g_lo, g_hi), False) <= budget

cdef int try_rest(int sn, int sv, const int8_t* X, uint64_t xm, const int8_t* H, int need, int budget,
                  bint exact, int K, const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """The staged cards (sn of them, worth sv) + X (nonzero only at the kinds of the mask xm) are a
    valid meld: can the rest H - X bring the batch to `need` (and K canastas, the meld being one
    if it has 7 cards) within budget cards? (exact: x_free, else the constructive sb_best_value).
    On yes, wit (may be NULL) |= the kinds of X (each could have been the staged card instead: the
    same batch) and, with rest_too (nothing staged before the card under test), the kinds of the
    constructive rest (units_kinds: each could have been staged and completed into its own meld
    of the same batch)."""
    cdef int8_t rest[SB_KINDS]
    cdef int k, v = sv, used = 0
    cdef uint64_t xk = 0, rk = 0, b = xm
    memcpy(rest, H, SB_KINDS)
    while b:
        k = cs_ctz(b)
        b &= b - 1
        if X[k]:
            rest[k] -= X[k]
            used += X[k]
            v += X[k] * KVAL[k]
            xk |= <uint64_t>1 << k
    if used > budget:
        return 0
    K -= sn + used >= 7
    if v >= need and K <= 0:
        if wit != NULL:
            wit[0] |= xk
        return 1
    if exact:
        if v < need and value_bound(rest) < need - v:
            return 0            # exact: no melds from the rest reach the value still missing
        if x_free(rest, budget - used, need - v, K, c):
            if wit != NULL:
                wit[0] |= xk
            return 1
        return 0
    if K <= 0 and (wit == NULL or not rest_too) and groups_fit(rest, budget - used, need - v):
        if wit != NULL:
            wit[0] |= xk        # (sb_best_value below would say yes, its witness unread: rk = 0)
        return 1
    if K <= 0 and v + sb_best_value(rest, budget - used, c, &rk if (wit != NULL and rest_too) else NULL,
                                     need - v) >= need:
        if wit != NULL:
            wit[0] |= xk | rk
        return 1
    return 0

cdef inline uint64_t group_xmask(int r) noexcept nogil:
    """The kinds a GROUP of rank r may take from the hand: its naturals, the deuces, the joker."""
    return rank_mask(r) | wild_kinds()

ctypedef struct Staged1:
    int n                    # cards staged
    int v                    # their card value
    int rank                 # staged_rank
    uint64_t mask            # the staged kinds

cdef void staged_info(const int8_t* S, Staged1* si) noexcept nogil:
    """The staged counts' number, value, kinds and rank (staged_rank), from their kinds mask."""
    cdef int k
    cdef uint64_t m = sb_kinds(S), b
    cdef uint32_t ranks
    si.mask = m
    si.n = sb_total(S)
    si.v = 0
    while m:
        k = cs_ctz(m)
        m &= m - 1
        si.v += S[k] * KVAL[k]
    ranks = ranks_of(si.mask & nat_kinds())
    si.rank = -1 if ranks == 0 else (cs_ctz(ranks) if (ranks & (ranks - 1)) == 0 else -2)

cdef bint x_opening(const int8_t* S, const Staged1* si, const int8_t* H, int need, int budget, int min_nat,
                    int K, const SBConfig* c, uint64_t* wit) noexcept nogil:
    """Exact version of sb_opening_ok: every completion X of the staged cards S (si: staged_info)
    into one meld (the naturals of the GROUP's rank chosen per suit, jokers and deuces; the
    SEQUENCE's gaps and every extension), then x_free on the rest."""
    cdef int8_t X[SB_KINDS]
    cdef int k, r, s, rank = si.rank, sn, sw, a0, a1, a2, a3, j, d, t
    cdef int D
    if si.n == 0:
        return x_free(H, budget, need, K, c)
    if S[14] or S[27] or S[1] or S[40]:
        return False
    sw = sb_wilds(S)
    D = H[0] + H[13] + H[26] + H[39]
    if rank != -2:
        memset(X, 0, SB_KINDS)
        for r in range(rank if rank >= 0 else 2, rank + 1 if rank >= 0 else 13):
            sn = sb_nat_of_rank(S, r)
            for a0 in range(H[r] + 1):
                for a1 in range(H[13 + r] + 1):
                    for a2 in range(H[26 + r] + 1):
                        for a3 in range(H[39 + r] + 1):
                            if sn + a0 + a1 + a2 + a3 < min_nat:
                                continue
                            for j in range(H[SB_JK] + 1):
                                for d in range(D + 1):
                                    if j + d + sw > 2:
                                        break
                                    if not sb_group_ok(sn + a0 + a1 + a2 + a3, sw + j + d, c):
                                        continue
                                    X[r] = a0
                                    X[13 + r] = a1
                                    X[26 + r] = a2
                                    X[39 + r] = a3
                                    X[SB_JK] = j
                                    X[0] = 0
                                    X[13] = 0
                                    X[26] = 0
                                    X[39] = 0
                                    t = d
                                    for s in range(4):
                                        while t > 0 and X[s * 13] < H[s * 13]:
                                            X[s * 13] += 1
                                            t -= 1
                                    if try_rest(si.n, si.v, X, group_xmask(r), H, need, budget, True, K, c,
                                                wit, False):
                                        return True
            X[r] = 0
            X[13 + r] = 0
            X[26 + r] = 0
            X[39 + r] = 0
    if min_nat > 0 or sw:
        return False
    return seq_ext(S, si, H, need, budget, True, K, c, wit, False)

cdef bint seq_ext(const int8_t* S, const Staged1* si, const int8_t* H, int need, int budget, bint exact, int K,
                  const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """The staged naturals S (si: staged_info) of one suit as a SEQUENCE: its gaps filled from H
    and every extension at either end, the rest then searched by try_rest (exact or
    constructive)."""
    cdef int8_t X[SB_KINDS]
    cdef int k, r, s, lo, hi, la, ra, a, b
    cdef uint64_t m = si.mask, gm, em
    cdef uint32_t R
    if m == 0 or (m & ~nat_kinds()):
        return False                    # nothing staged, or a wild or a three staged
    s = suit_of(cs_ctz(m))
    R = <uint32_t>((m >> (13 * s)) & 0x1FFF)
    if (m >> (13 * s)) >> 13 or si.n != cs_popcount(m):
        return False                    # several suits, or a natural staged twice
    lo = cs_ctz(R)
    hi = bit_high(R)
    if hi - lo > 6:
        return False
    memset(X, 0, SB_KINDS)
    gm = 0
    for r in range(lo, hi + 1):
        if S[s * 13 + r] == 0:
            if H[s * 13 + r] == 0:
                return False
            X[s * 13 + r] = 1
            gm |= <uint64_t>1 << (s * 13 + r)
    la = 0
    while lo - la - 1 >= 2 and H[s * 13 + lo - la - 1] > 0:
        la += 1
    ra = 0
    while hi + ra + 1 <= 12 and H[s * 13 + hi + ra + 1] > 0:
        ra += 1
    for a in range(la + 1):
        for b in range(ra + 1):
            if hi - lo + 1 + a + b < 3 or hi - lo + 1 + a + b > 7:
                continue
            for r in range(1, a + 1):
                X[s * 13 + lo - r] = 1
            for r in range(1, b + 1):
                X[s * 13 + hi + r] = 1
            # the kinds X holds: the gaps and the ranks lo - a .. lo - 1, hi + 1 .. hi + b
            em = ((((<uint64_t>1 << a) - 1) << (lo - a)) | (((<uint64_t>1 << b) - 1) << (hi + 1))) << (13 * s)
            if try_rest(si.n, si.v, X, gm | em, H, need, budget, exact, K, c, wit, rest_too):
                return True
            for r in range(1, a + 1):
                X[s * 13 + lo - r] = 0
            for r in range(1, b + 1):
                X[s * 13 + hi + r] = 0
    return False

cdef int sb_opening_ok(const int8_t* S, const int8_t* H, int need, int extra, int min_nat,
                       const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """The constructive search (opening_fast, cheap) and, when it says no, the exact one
    (x_opening). On yes, wit (may be NULL) |= kinds that the found batch shows completable too
    (try_rest): those of the staged meld's completion and, with rest_too (S is one card staged
    on an empty stage), of the constructive rest."""
    cdef Staged1 si
    staged_info(S, &si)
    return opening_si(S, &si, H, sb_total(H) + extra - 2, need, extra, min_nat, c, wit, rest_too)

cdef int sb_opening_ok_si(const int8_t* S, uint64_t mask, int n, int v, const int8_t* H, int hn, int need,
                          int extra, int min_nat, const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """sb_opening_ok with what staged_info would read off S (its kinds mask, n cards, value v)
    and the hand's size hn = sb_total(H) given by the caller, which knows them from the packed
    stage and hand (the legal set's ADD checks: one card more than the stage each)."""
    cdef Staged1 si
    cdef uint32_t ranks = ranks_of(mask & nat_kinds())
    si.mask = mask
    si.n = n
    si.v = v
    si.rank = -1 if ranks == 0 else (cs_ctz(ranks) if (ranks & (ranks - 1)) == 0 else -2)
    return opening_si(S, &si, H, hn + extra - 2, need, extra, min_nat, c, wit, rest_too)

cdef inline int opening_si(const int8_t* S, const Staged1* si, const int8_t* H, int budget, int need, int extra,
                           int min_nat, const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """sb_opening_ok's two searches on the stage's staged_info si and the budget
    (sb_total(H) + extra - 2)."""
    if opening_fast(S, si, H, need, budget, min_nat, c, wit, rest_too):
        return 1
    return 1 if x_opening(S, si, H, need, budget, min_nat, 0, c, wit) else 0

cdef int sb_opening_out(const int8_t* S, const int8_t* H, int need, int min_nat, int K,
                        const SBConfig* c) noexcept nogil:
    """An initial batch that may empty the hand (HG, §4.0): like sb_opening_ok, but any number of
    cards, the batch (the staged meld completed, and more melds from H) holding K more canastas
    (K = going_out_min_canastas - the pending batch's canastas). Exact (x_opening), after the
    bound sb_canasta_bound."""
    cdef Staged1 si
    if K > 0 and sb_canasta_bound(S, H) < K:
        return 0
    staged_info(S, &si)
    return 1 if x_opening(S, &si, H, need, sb_total(H), min_nat, K, c, NULL) else 0

cdef int opening_fast(const int8_t* S, const Staged1* si, const int8_t* H, int need, int budget, int min_nat,
                      const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """Initial meld completability (§4.3/§4.4 INITIAL_MELD, reject mode): can the staged cards S
    (si: staged_info; possibly none) be completed from H into a valid meld and, with further
    melds from H, bring the batch's value to `need`, leaving the hand >= 2 cards (budget = sb_total(H) + the cards
    joining the hand after the batch (the rest of a taken pile) - 2)? Constructive (the staged meld
    completed by taking naturals in suit order and jokers before deuces, minimally or fully; then
    sb_best_value), hence sound: every yes is reachable. (An initial batch that empties the hand
    is sb_opening_out's.) min_nat > 0: S must become a GROUP with at least min_nat naturals (the
    group on a taken top card: top + the natural pair)."""
    cdef int8_t X[SB_KINDS]
    cdef int r, s, x, y, hn, hw, t, q, x0, ymax, rank = si.rank, sn, sw
    cdef uint64_t nm, wm
    if si.n == 0:
        return 1 if need <= 0 or groups_fit(H, budget, need) or sb_best_value(H, budget, c, NULL, need) >= need else 0
    if S[14] or S[27] or S[1] or S[40]:
        return 0
    # GROUP completions of S: x more naturals of rank r (>= 2 naturals in all, >= min_nat) and
    # y more wilds (<= 2 in all: sb_group_ok), in that order, each tried once (the others fail
    # sb_group_ok); the naturals taken in suit order (once per x), the joker before the deuces
    if rank != -2:
        memset(X, 0, SB_KINDS)
        hw = sb_wilds(H)
        sw = sb_wilds(S)
        ymax = hw if hw < 2 - sw else 2 - sw
        for r in range(rank if rank >= 0 else 2, rank + 1 if rank >= 0 else 13):
            hn = sb_nat_of_rank(H, r)
            sn = sb_nat_of_rank(S, r)
            x0 = (2 if min_nat < 2 else min_nat) - sn
            for x in range(x0 if x0 > 0 else 0, hn + 1):
                t = x
                nm = 0
                for s in range(4):
                    q = H[s * 13 + r] if H[s * 13 + r] < t else t
                    X[s * 13 + r] = q
                    t -= q
                    if q:
                        nm |= <uint64_t>1 << (s * 13 + r)
                for y in range(ymax + 1):
                    if not sb_group_ok(sn + x, sw + y, c):
                        continue
                    t = y
                    wm = 0
                    q = H[SB_JK] if H[SB_JK] < t else t
                    X[SB_JK] = q
                    t -= q
                    if q:
                        wm = <uint64_t>1 << SB_JK
                    for s in range(4):
                        q = H[s * 13] if H[s * 13] < t else t
                        X[s * 13] = q
                        t -= q
                        if q:
                            wm |= <uint64_t>1 << (s * 13)
                    if try_rest(si.n, si.v, X, nm | wm, H, need, budget, False, 0, c, wit, rest_too):
                        return 1
            for s in range(4):
                X[s * 13 + r] = 0
    # SEQUENCE completions of S
    if min_nat > 0 or S[SB_JK]:
        return 0
    return 1 if seq_ext(S, si, H, need, budget, False, 0, c, wit, rest_too) else 0
