"""Samba pure rules (docs/rules/samba.md §2, §4, §6): card values, meld validity (GROUP, SEQUENCE,
BLACK3), lay-offs and merges with the wild_onto_canasta option, the completions a staged meld can
still reach under the hand guard (HG, §4.0), the initial-meld requirement (§4.0 table, S-D15), the
pile-pair group check, side scoring (§6).

Card kinds: suit*13 + rank (suits S H D C = 0..3; rank 0 = '2', 1 = '3', 2 = '4' .. 12 = 'A'),
52 = joker. Sequence order is the rank order 4 < 5 < ... < A (ranks 2..12), no wrap (§2).
In a packed Hand (core/_hand.pxd, 4 layers) the six jokers are two identities, 52 and 53: a hand
or meld holding j jokers stores min(j, 3) copies as identity 52 and the rest as 53 (jk_add /
jk_remove keep this canonical), so actions and strings only ever name one joker kind `JK`.

The initial-meld searches (can a batch still reach its minimum?) are `_opening`; the exact
initial-batch search (x_free) and the going-out searches are `_going_out`.

These kernels work on count vectors `int8 cnt[53]` indexed by kind (sb_counts converts a Hand);
they never touch a game state.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, int32_t, uint32_t, uint64_t
from cardsim.core._hand cimport Hand, hand_count
from cardsim.core._bits cimport cs_ctz, cs_popcount, bit_high


cdef int KVAL[SB_KINDS]      # sb_card_value of every kind
for _k in range(SB_KINDS):
    KVAL[_k] = sb_card_value(_k)

# is_wild's and is_natural's masks (_rules.pxd) against the kinds' definitions, once at import
for _k in range(-64, 128):
    if (is_wild(_k) != (_k == SB_JK or (0 <= _k < 52 and _k % 13 == 0))
            or is_natural(_k) != (0 <= _k < 52 and _k % 13 >= 2)):
        raise RuntimeError(f"samba: is_wild / is_natural disagree with the kinds at {_k}")


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
    raise ImportError("cardsim.games.samba._rules: the count-vector word helpers need a little-endian machine")

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
    """sb_meld_of(counts of h, out): sb_meld_shape's classification, and for anything that is no
    meld sb_meld_of itself, which names why (its negative codes)."""
    cdef int8_t cnt[SB_KINDS]
    cdef int t = sb_meld_shape(h, out)
    if t >= 0:
        return t
    sb_counts(h, cnt)
    return sb_meld_of(cnt, out)

cdef int sb_meld_shape(const Hand* h, Meld* out) noexcept nogil:
    """sb_meld_of(counts of h, out) read off the packed hand's bits when the cards are a meld
    (GROUP, SEQUENCE, BLACK3: the same return value and the same fields); -1 (out.type MT_NONE)
    for anything else, where sb_meld_of returns one of its negative codes: fewer than 3 cards,
    a red three, black threes with other cards, naturals neither of one rank nor a run of one
    suit held once each without wilds, more than 7 in a run, only wilds. Layer 1 of a natural set
    means it is held twice."""
    cdef uint64_t L0 = h.layer[0], nats = L0 & nat_kinds()
    cdef uint64_t b3 = (<uint64_t>1 << 1) | (<uint64_t>1 << 40)
    cdef uint64_t threes = b3 | (<uint64_t>1 << 14) | (<uint64_t>1 << 27)
    cdef uint32_t ranks
    cdef int n = sb_size(h), w, r, su, lo, hi
    out.type = MT_NONE
    if n < 3:
        return -1
    if nats and not (L0 & threes):
        w = sb_size_in(h, wild_ids())
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
        return -1
    if L0 & b3 and not (L0 & ~b3):
        out.type = MT_BLACK3           # only black threes (sb_meld_of: nb == n)
        out.key = 1
        out.nat = n
        out.wild = 0
        out.n = n
        return MT_BLACK3
    return -1

cdef int sb_layoff_ok(const Meld* m, const int8_t* add, const SBConfig* c) noexcept nogil:
    """sb_layoff_ok_n with the cards of add counted here."""
    return sb_layoff_ok_n(m, add, sb_total(add), c)

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
