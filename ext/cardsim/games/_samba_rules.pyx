"""Samba pure rules (docs/rules/samba.md §2, §4, §6): card values, meld validity (GROUP, SEQUENCE,
BLACK3), lay-offs and merges with the wild_onto_canasta option, the completions a staged meld can
still reach under the hand guard (HG, §4.0), the initial-meld requirement (§4.0 table, S-D15) and a
constructive check that an initial meld can still reach its minimum, side scoring (§6).

Card kinds: suit*13 + rank (suits S H D C = 0..3; rank 0 = '2', 1 = '3', 2 = '4' .. 12 = 'A'),
52 = joker. Sequence order is the rank order 4 < 5 < ... < A (ranks 2..12), no wrap (§2).
In a packed Hand (core/_hand.pxd, 4 layers) the six jokers are two identities, 52 and 53: a hand
or meld holding j jokers stores min(j, 3) copies as identity 52 and the rest as 53 (jk_add /
jk_remove keep this canonical), so actions and strings only ever name one joker kind `JK`.

The exact initial-batch search (x_free) and the going-out searches are in _samba_out.

These kernels work on count vectors `int8 cnt[53]` indexed by kind (sb_counts converts a Hand);
they never touch a game state.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, int32_t, uint32_t, uint64_t
from cardsim.core._hand cimport Hand, hand_count
from cardsim.core._bits cimport cs_ctz, cs_popcount, bit_high
from cardsim.games._samba_out cimport x_free, sb_canasta_bound
from cardsim.games._samba_units cimport sb_best_value

cdef int VALUE[13]
VALUE[:] = [20, 0, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20]

cdef int sb_card_value(int kind) noexcept nogil:
    """Card value (§2): joker 50, 2 and A 20, K..8 10, 7..4 5, black 3 5, red 3 0."""
    if kind == SB_JK:
        return 50
    if kind % 13 == 1:
        return 5 if is_black3(kind) else 0
    return VALUE[kind % 13]

cdef int KVAL[SB_KINDS]      # sb_card_value of every kind
for _k in range(SB_KINDS):
    KVAL[_k] = sb_card_value(_k)


cdef bint _words_ok():
    """The count-vector word helpers (sb_word, sb_total, sb_kinds) read bytes as little-endian
    words: check them once on a known vector."""
    cdef int8_t t[SB_KINDS]
    memset(t, 0, SB_KINDS)
    t[0] = 1
    t[9] = 2
    t[47] = 3
    t[SB_JK] = 6
    return sb_kinds(t) == ((<uint64_t>1) | (<uint64_t>1 << 9) | (<uint64_t>1 << 47) | (<uint64_t>1 << SB_JK)) and sb_total(t) == 12

if not _words_ok():
    raise ImportError("cardsim.games._samba_rules: the count-vector word helpers need a little-endian machine")

cdef int sb_counts_value(const int8_t* cnt) noexcept nogil:
    """Card value of the counts (the kinds held found by sb_kinds)."""
    cdef int k, v = 0
    cdef uint64_t m = sb_kinds(cnt)
    while m:
        k = cs_ctz(m)
        m &= m - 1
        v += cnt[k] * KVAL[k]
    return v

cdef int sb_meld_of(const int8_t* cnt, Meld* out) noexcept nogil:
    """Classify the cards cnt as one new meld (§4.0) without the going-out conditions of BLACK3.
    Returns the meld type and fills out's type/key/lo/hi/nat/wild/n (not its cards), or a
    negative code: -1 fewer than 3 cards, -2 a red three, -3 black threes mixed with other cards,
    -4 GROUP wild limits broken, -5 naturals neither one rank nor one suit, -6 a SEQUENCE with a
    gap, a repeated card or a wild, -7 more than 7 cards in a SEQUENCE, -8 only wild cards."""
    cdef int n = sb_total(cnt), k, r, s = -1, rank = -1, nb, w, nat = 0, lo = 99, hi = -1
    cdef bint one_rank = True
    cdef uint64_t nm, m
    out.type = MT_NONE
    if n < 3:
        return -1
    if cnt[14] or cnt[27]:
        return -2
    nb = cnt[1] + cnt[40]
    w = sb_wilds(cnt)
    if nb:
        if nb != n:
            return -3
        out.type = MT_BLACK3
        out.key = 1
        out.nat = n
        out.wild = 0
        out.n = n
        return MT_BLACK3
    nm = sb_kinds(cnt) & nat_kinds()
    m = nm
    while m:
        k = cs_ctz(m)
        m &= m - 1
        r = rank_of(k)
        nat += cnt[k]
        if rank < 0:
            rank = r
        elif r != rank:
            one_rank = False
    if nat == 0:
        return -8
    out.n = n
    out.nat = nat
    out.wild = w
    if one_rank:
        out.type = MT_GROUP
        out.key = rank
        out.lo = rank
        out.hi = rank
        return MT_GROUP        # validity (wild limits) is checked by the caller with sb_group_ok
    # a sequence: one suit, one card per rank, consecutive, no wilds
    m = nm
    while m:
        k = cs_ctz(m)
        m &= m - 1
        if s < 0:
            s = suit_of(k)
        elif suit_of(k) != s:
            return -5
        if cnt[k] > 1:
            return -6
        r = rank_of(k)
        lo = r if r < lo else lo
        hi = r if r > hi else hi
    if w:
        return -6
    if hi - lo + 1 != nat:
        return -6
    if nat > 7:
        return -7
    out.type = MT_SEQ
    out.key = s
    out.lo = lo
    out.hi = hi
    return MT_SEQ

cdef int sb_meld_of_hand(const Hand* h, Meld* out) noexcept nogil:
    """sb_meld_of(counts of h, out) with the GROUP and SEQUENCE classifications (every meld the
    legal set lets a player make but BLACK3) read off the packed hand's bits: the same return
    value and the same fields; anything else (fewer than 3 cards, threes, a mix, a broken
    sequence) goes to sb_meld_of itself, which names why. Layer 1 of a natural set means it is
    held twice."""
    cdef int8_t cnt[SB_KINDS]
    cdef uint64_t L0 = h.layer[0], nats = L0 & nat_kinds()
    cdef uint64_t threes = (<uint64_t>1 << 1) | (<uint64_t>1 << 40) | (<uint64_t>1 << 14) | (<uint64_t>1 << 27)
    cdef uint32_t ranks
    cdef int n = hand_size(h), w, r, su, lo, hi
    if n >= 3 and nats and not (L0 & threes):
        w = hand_size_in(h, wild_ids())
        ranks = ranks_of(nats)
        if not (ranks & (ranks - 1)):
            r = cs_ctz(ranks)
            out.type = MT_GROUP
            out.key = r
            out.lo = r
            out.hi = r
            out.nat = n - w
            out.wild = w
            out.n = n
            return MT_GROUP
        su = cs_ctz(nats) // 13
        lo = cs_ctz(ranks)
        hi = bit_high(ranks)
        if (w == 0 and not (nats >> (13 * su) >> 13) and not (h.layer[1] & nat_kinds())
                and hi - lo + 1 == n and n <= 7):
            out.type = MT_SEQ
            out.key = su
            out.lo = lo
            out.hi = hi
            out.nat = n
            out.wild = 0
            out.n = n
            return MT_SEQ
    sb_counts(h, cnt)
    return sb_meld_of(cnt, out)

cdef int seq_span(const Meld* m, const int8_t* add, int* lo, int* hi) noexcept nogil:
    """Cards of add in sequence m's suit, each once and outside m's run, widening lo..hi to
    cover them; -1 if a card repeats or falls inside the run."""
    cdef int k, r, n = 0
    lo[0] = m.lo
    hi[0] = m.hi
    for k in range(m.key * 13 + 2, m.key * 13 + 13):
        if add[k]:
            r = rank_of(k)
            if add[k] > 1 or m.lo <= r <= m.hi:
                return -1
            lo[0] = r if r < lo[0] else lo[0]
            hi[0] = r if r > hi[0] else hi[0]
            n += 1
    return n

cdef int sb_layoff_ok(const Meld* m, const int8_t* add, const SBConfig* c) noexcept nogil:
    """sb_layoff_ok_n with the cards of add counted here."""
    return sb_layoff_ok_n(m, add, sb_total(add), c)

cdef int sb_layoff_ok_n(const Meld* m, const int8_t* add, int n, const SBConfig* c) noexcept nogil:
    """LAY_OFF validity (§4.4): the cards `add` (non-empty) join meld m and the result is valid.
    GROUP: naturals of its rank and/or wilds within the wild limits and the wild_onto_canasta
    option; SEQUENCE: naturals of its suit making one longer consecutive run of <= 7 cards
    (either or both ends, S-D8); BLACK3: black threes, <= 6 in all (the going-out conditions are
    the hand guard's). n = the cards in add. Returns 1 or 0."""
    cdef int k, sn = 0, sw, r, lo, hi
    if n == 0:
        return 0
    if m.type == MT_GROUP:
        sw = sb_wilds(add)
        sn = sb_nat_of_rank(add, m.key)
        if sn + sw != n:
            return 0
        if sw and woc_blocks(m, c):
            return 0
        return sb_group_ok(m.nat + sn, m.wild + sw, c)
    if m.type == MT_SEQ:
        sn = seq_span(m, add, &lo, &hi)
        if sn != n or hi - lo + 1 != m.n + n or hi - lo + 1 > 7:
            return 0
        return 1
    if m.type == MT_BLACK3:
        return 1 if add[1] + add[40] == n and m.n + n <= 6 else 0
    return 0

cdef int sb_merge_ok(const Meld* a, const Meld* b, const SBConfig* c) noexcept nogil:
    """MERGE validity (§4.4, S-D8): two GROUPs of one rank; the union within the wild limits; and
    no wild joins a canasta that wild_onto_canasta protects (EX-S10)."""
    if a.type != MT_GROUP or b.type != MT_GROUP or a.key != b.key:
        return 0
    if not sb_group_ok(a.nat + b.nat, a.wild + b.wild, c):
        return 0
    if (b.wild and woc_blocks(a, c)) or (a.wild and woc_blocks(b, c)):
        return 0
    return 1

cdef int sb_meld_bonus(const Meld* m) noexcept nogil:
    """§6: natural canasta 500, mixed canasta 300, samba 1500 (not also a canasta bonus)."""
    if m.type == MT_GROUP and m.n >= 7:
        return 500 if m.wild == 0 else 300
    if m.type == MT_SEQ and m.n == 7:
        return 1500
    return 0

cdef int sb_red3_score(int k, int canastas, const SBConfig* c) noexcept nogil:
    """R(s) (§6): base 100 per red three, 1000 for all six (Dutch red3_unqualified: a penalty of
    600 for six); + if the side has >= 2 canastas/sambas, else -."""
    cdef int base = 1000 if k == 6 else 100 * k
    if canastas >= 2:
        return base
    if k == 6 and c.red3_six_600:
        return -600
    return -base

# ---------------------------------------------------------------------------------------------
# completions of a staged meld under the hand guard
# ---------------------------------------------------------------------------------------------
cdef int group_completion(int sn, int sw, int hn, int hw, int base_nat, int base_wild, int base_n,
                          int hsize, int C, int was_canasta, bint wild_ok, bint may_out,
                          const SBConfig* c) noexcept nogil:
    """Some x <= hn naturals and y <= hw wilds join the staged sn naturals and sw wilds (on top of
    a meld of base_nat/base_wild/base_n, 0 for a new meld) making a valid GROUP that passes HG."""
    cdef int x, y, nat, w, h, x0, ymax
    # the iterations sb_group_ok refuses at once are skipped: nat < 2, wilds > 2
    x0 = 2 - base_nat - sn if base_nat + sn < 2 else 0
    ymax = hw if wild_ok else 0
    if 2 - base_wild - sw < ymax:
        ymax = 2 - base_wild - sw
    if ymax < 0:
        return 0
    for x in range(x0, hn + 1):
        for y in range(ymax + 1):
            nat = base_nat + sn + x
            w = base_wild + sw + y
            if not sb_group_ok(nat, w, c):
                continue
            if sn + sw + x + y == 0:
                continue
            h = hsize - x - y
            if sb_hg_ok(h, C - was_canasta + (1 if base_n + sn + sw + x + y >= 7 else 0), may_out, c):
                return 1
    return 0

cdef int seq_completion(int s, int lo, int hi, int fixed_n, int gaps_ok, const int8_t* H, int hsize,
                        int C, int was_samba, bint may_out, const SBConfig* c) noexcept nogil:
    """A run lo..hi of suit s whose missing cards (fixed_n = cards already in it) come from H,
    extended by a lower and b higher cards of H, 3..7 long, passing HG."""
    cdef int r, gaps = 0, la = 0, ra = 0, a, b, L, x
    if not gaps_ok:
        return 0
    gaps = (hi - lo + 1) - fixed_n
    r = lo - 1
    while r >= 2 and H[s * 13 + r] > 0:
        la += 1
        r -= 1
    r = hi + 1
    while r <= 12 and H[s * 13 + r] > 0:
        ra += 1
        r += 1
    for a in range(la + 1):
        for b in range(ra + 1):
            L = hi - lo + 1 + a + b
            if L < 3 or L > 7:
                continue
            x = gaps + a + b
            if x == 0 and fixed_n == 0:
                continue
            if sb_hg_ok(hsize - x, C - was_samba + (1 if L == 7 else 0), may_out, c):
                return 1
    return 0

cdef int sb_complete_new(const int8_t* S, const int8_t* H, int C, bint may_out, const SBConfig* c) noexcept nogil:
    return sb_complete_new_n(S, (<uint64_t>1 << SB_KINDS) - 1, H, sb_total(S), sb_total(H), C, may_out, c)

cdef int sb_complete_new_n(const int8_t* S, uint64_t smask, const int8_t* H, int n, int hsize, int C,
                           bint may_out, const SBConfig* c) noexcept nogil:
    """1 if the staged cards S (non-empty) plus some cards of H (the rest of the hand) can form
    one valid new meld that passes HG: a GROUP, a SEQUENCE or (for black threes: C >= 2 and the
    hand left with <= 1 card, S-D9) a BLACK3. C = the side's canastas now. smask: a superset of
    the kinds in S (bit k), so the scan visits only those."""
    cdef int k, r, rank = -1, suit = -1, nat = 0, sw, nb
    cdef int lo = 99, hi = -1, x
    cdef uint64_t m = smask & ((<uint64_t>1 << 52) - 1)
    cdef bint seq_ok = True, grp_ok = True
    if n == 0:
        return 0
    if S[14] or S[27]:
        return 0
    nb = S[1] + S[40]
    if nb:
        if nb != n:
            return 0
        for x in range(H[1] + H[40] + 1):
            if 3 <= nb + x <= 6 and hsize - x <= 1 and may_out and C >= c.min_canastas:
                return 1
        return 0
    sw = sb_wilds(S)
    while m:
        k = cs_ctz(m)
        m &= m - 1
        if S[k] and is_natural(k):
            nat += S[k]
            if rank < 0:
                rank = rank_of(k)
            elif rank_of(k) != rank:
                grp_ok = False
            if suit < 0:
                suit = suit_of(k)
            elif suit_of(k) != suit:
                seq_ok = False
            if S[k] > 1:
                seq_ok = False
            lo = rank_of(k) if rank_of(k) < lo else lo
            hi = rank_of(k) if rank_of(k) > hi else hi
    if sw or nat == 0:
        seq_ok = False
    if grp_ok:
        if rank >= 0:
            if group_completion(nat, sw, sb_nat_of_rank(H, rank), sb_wilds(H), 0, 0, 0, hsize, C, 0,
                                True, may_out, c):
                return 1
        else:
            for r in range(2, 13):
                if group_completion(0, sw, sb_nat_of_rank(H, r), sb_wilds(H), 0, 0, 0, hsize, C, 0,
                                    True, may_out, c):
                    return 1
    if seq_ok and hi - lo <= 6:
        for r in range(lo, hi + 1):
            if S[suit * 13 + r] == 0 and H[suit * 13 + r] == 0:
                return 0
        return seq_completion(suit, lo, hi, nat, 1, H, hsize, C, 0, may_out, c)
    return 0

cdef int sb_complete_layoff(const Meld* m, const int8_t* S, const int8_t* H, int n, int hsize, int C,
                            bint may_out, const SBConfig* c) noexcept nogil:
    """1 if the staged cards S (n > 0 cards) plus some cards of H (hsize cards) can be laid off
    onto meld m, passing HG (BLACK3: the going-out conditions of S-D9)."""
    cdef int k, r, sn, sw, lo, hi, x, fixed
    if n == 0 or m.type == MT_NONE or m.pending:
        return 0
    if m.type == MT_GROUP:
        sw = sb_wilds(S)
        sn = sb_nat_of_rank(S, m.key)
        if sn + sw != n:
            return 0
        if sw and woc_blocks(m, c):
            return 0
        return group_completion(sn, sw, sb_nat_of_rank(H, m.key), sb_wilds(H), m.nat, m.wild, m.n,
                                hsize, C, 1 if m.n >= 7 else 0, not woc_blocks(m, c), may_out, c)
    if m.type == MT_SEQ:
        if m.n >= 7:
            return 0
        sn = seq_span(m, S, &lo, &hi)
        if sn != n or hi - lo + 1 > 7:
            return 0
        for r in range(lo, hi + 1):
            if (r < m.lo or r > m.hi) and S[m.key * 13 + r] == 0 and H[m.key * 13 + r] == 0:
                return 0
        return seq_completion(m.key, lo, hi, m.n + sn, 1, H, hsize, C, 0, may_out, c)
    if m.type == MT_BLACK3:
        if S[1] + S[40] != n:
            return 0
        for x in range(H[1] + H[40] + 1):
            if m.n + n + x <= 6 and hsize - x <= 1 and may_out and C >= c.min_canastas:
                return 1
        return 0
    return 0

# ---------------------------------------------------------------------------------------------
# initial meld: can a batch still reach its minimum?
# ---------------------------------------------------------------------------------------------
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

cdef int value_bound(const int8_t* T) noexcept nogil:
    """An upper bound of the card value of any disjoint GROUPs and SEQUENCEs made from the cards
    T: the naturals of ranks held at least three times (twice with a wild), the naturals in a run
    of three or more ranks of their suit, and every wild if some rank is held at least twice.
    By masks: a suit's held ranks h, its run members (t = h & h>>1 & h>>2, spread back)."""
    cdef int k, r, su, nr, w, v = 0
    cdef bint pair = False
    cdef uint64_t tw = sb_kinds(T)
    cdef uint32_t held, h, t, runs[4]
    held = ranks_of(tw) & 0x1FFC                # ranks 4..A held
    for su in range(4):
        h = <uint32_t>(tw >> (13 * su)) & 0x1FFC
        t = h & (h >> 1) & (h >> 2)
        runs[su] = t | (t << 1) | (t << 2)
    w = sb_wilds(T)
    while held:
        r = cs_ctz(held)
        held &= held - 1
        nr = sb_nat_of_rank(T, r)
        if nr >= 2:
            pair = True
        if nr >= 3 or (nr == 2 and w > 0):
            v += nr * VALUE[r]
            continue
        for su in range(4):
            if (runs[su] >> r) & 1:
                v += T[su * 13 + r] * VALUE[r]
    if pair:
        v += 50 * T[SB_JK] + 20 * (w - T[SB_JK])
    return v

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
    cdef uint64_t m = si.mask
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
    for r in range(lo, hi + 1):
        if S[s * 13 + r] == 0:
            if H[s * 13 + r] == 0:
                return False
            X[s * 13 + r] = 1
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
            if try_rest(si.n, si.v, X, <uint64_t>0x1FFF << (13 * s), H, need, budget, exact, K, c, wit, rest_too):
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
    if opening_fast(S, &si, H, need, extra, min_nat, c, wit, rest_too):
        return 1
    return 1 if x_opening(S, &si, H, need, sb_total(H) + extra - 2, min_nat, 0, c, wit) else 0

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

cdef int opening_fast(const int8_t* S, const Staged1* si, const int8_t* H, int need, int extra, int min_nat,
                      const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """Initial meld completability (§4.3/§4.4 INITIAL_MELD, reject mode): can the staged cards S
    (si: staged_info; possibly none) be completed from H into a valid meld and, with further
    melds from H, bring the batch's value to `need`, leaving the hand >= 2 cards (extra = cards
    joining the hand after the batch: the rest of a taken pile)? Constructive (the staged meld
    completed by taking naturals in suit order and jokers before deuces, minimally or fully; then
    sb_best_value), hence sound: every yes is reachable. (An initial batch that empties the hand
    is sb_opening_out's.) min_nat > 0: S must become a GROUP with at least min_nat naturals (the
    group on a taken top card: top + the natural pair)."""
    cdef int8_t X[SB_KINDS]
    cdef int r, s, x, y, hn, hw, t, budget, rank = si.rank, sn, sw
    budget = sb_total(H) + extra - 2
    if si.n == 0:
        return 1 if need <= 0 or sb_best_value(H, budget, c, NULL, need) >= need else 0
    if S[14] or S[27] or S[1] or S[40]:
        return 0
    # GROUP completions of S
    if rank != -2:
        memset(X, 0, SB_KINDS)
        hw = sb_wilds(H)
        sw = sb_wilds(S)
        for r in range(rank if rank >= 0 else 2, rank + 1 if rank >= 0 else 13):
            hn = sb_nat_of_rank(H, r)
            sn = sb_nat_of_rank(S, r)
            for x in range(hn + 1):
                for y in range(hw + 1):
                    if not sb_group_ok(sn + x, sw + y, c):
                        continue
                    if sn + x < min_nat:
                        continue
                    t = x
                    for s in range(4):
                        X[s * 13 + r] = 0
                        while t > 0 and X[s * 13 + r] < H[s * 13 + r]:
                            X[s * 13 + r] += 1
                            t -= 1
                    t = y
                    X[SB_JK] = 0
                    while t > 0 and X[SB_JK] < H[SB_JK]:
                        X[SB_JK] += 1
                        t -= 1
                    for s in range(4):
                        X[s * 13] = 0
                        while t > 0 and X[s * 13] < H[s * 13]:
                            X[s * 13] += 1
                            t -= 1
                    if try_rest(si.n, si.v, X, group_xmask(r), H, need, budget, False, 0, c, wit, rest_too):
                        return 1
            for s in range(4):
                X[s * 13 + r] = 0
    # SEQUENCE completions of S
    if min_nat > 0 or S[SB_JK]:
        return 0
    return 1 if seq_ext(S, si, H, need, budget, False, 0, c, wit, rest_too) else 0

cdef int sb_pile_group_ok(int sn, int sw, int hn, int hw, int hsize, int rest, int C, bint may_out,
                          const SBConfig* c) noexcept nogil:
    """TAKE_PILE_PAIR for an opened side (§4.3): the group top + sn staged naturals + sw staged
    wilds + x more naturals and y more wilds of the hand (hn, hw available) is valid with at
    least two naturals from the hand, and HG holds with the hand left at hsize - x - y + rest
    (the rest of the pile joins it)."""
    cdef int x, y
    for x in range(hn + 1):
        if sn + x < 2:
            continue
        for y in range(hw + 1):
            if not sb_group_ok(1 + sn + x, sw + y, c):
                continue
            if sb_hg_ok(hsize - x - y + rest, C + (1 if 1 + sn + sw + x + y >= 7 else 0), may_out, c):
                return 1
    return 0
