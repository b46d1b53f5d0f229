"""Zhao Pengyou 找朋友 (Finding Friends): 5-12 players with 2-4 packs and jokers, a mahjong-style
draw with trump declarations, a kitty exchange, friends called by "the N-th copy played", sets,
set sequences (tractors) and top-card multi-leads, and rank advancement.

Implements shared/rules/zhao_pengyou.md §1-§7 (every variant V1-V9 as an option) and follows its
decisions D1-D22 as written: declaration windows after every draw, drawer first (D1), one last
window after the final draw (D2); throws are attempts judged on the real hands after they are
played (D3) and a failed one forces its lowest group, ties broken C < D < H < S (D4); equal-size
identical groups (D5); only sets of exactly the led size oblige (D6, D7); copies counted in play
order (D8); calls fulfilled inside DECL are consumed (D9), unplayed ones stay open (D10); the
revealing copy's points count for nobody (D11); after a redeal everyone is active (D12); joint
match winners (D13); 1 call with 5 players (D14); no duplicate calls, N <= d (D15); only THROW
leads are checked for top cards (D16); ties go to the earlier play (D20); THROW(1,m) is beaten by
any m trumps, THROW(k>=2,m) only by trumps of the same shape (D21).

Where the spec is silent (documented in the issue note): the kitty discards and the partial play
of the seat to act are built one card at a time; the cards of a play being built stay private to
the seat to act until the play is complete (resample for another seat folds them back into the
hand); a called copy played by the declarer or a known friend stays in
the trick; a failed throw's blocker is the first seat after the leader (in play order) holding a
stronger card/group; with V7 the follower must match the lead's m groups with the largest sets
available, sizes capped at k (the multiset of the m largest "chunks" of its suit cards, a count c
giving floor(c/k) chunks of k and one of c mod k); with V9 ('defend_A') ranks stop at A and the
match ends when DECL wins a deal whose trump rank is A; the match stops after max_deals deals.

Card identity: suit*13 + rank (suits S H D C = 0..3, rank 0 = '2' .. 12 = 'A'), 52 = small
joker (SJ), 53 = big joker (BJ). Actions (322): 0..53 add one copy of identity k to the play being
built (a follow commits itself when it has as many cards as the lead); 54 COMMIT the lead; 55 PASS
and 56..59 DECLARE S/H/D/C in a declaration window; 60..113 DISCARD identity k to the kitty;
114 + 4*id + (N-1) CALL the N-th copy of plain identity id. Every legal action can be completed
into a legal whole play: a lead prefix is completable iff all its cards share one suit and the
largest count in it is at most the smallest number of copies held of any of its identities; a
follow prefix iff some completion satisfies §5.4 (checked by a cost argument on the missing sets).

Returns (scope "deal"): the game points each seat gained this deal (winners get the table's
points, losers 0); scope "match": the rank levels each seat gained (final rank - 2; reaching A =
12). returns_sum is "none".

Observation (float32, OBS_SIZE), blocks: own hand counts/4 (54); the play being built (54, own only); cards
played by each seat (12x54); the current trick per seat (12x54); cards known to be held per seat
(12x54); own kitty discards, for the declarer (54); voids shown per seat (12x5); trump suit (4),
trump rank (13), declarer (12); calls: per call identity (54), N (4), fulfilled by (13: seat or
open); DECL membership (12); points captured per seat /100 (12); ranks (12x13); active (12); phase
(5); seat to act (12); observer (12); leader (12); starter (12); drawer (12); cards drawn / pack (1);
window offset / n (1); lead format (5), k/4 (1), m/16 (1), lead suit (5); failed throws per seat
(12); blocker (13, only with reveal_blocker); tricks done /25 (1); last trick winner (12); deals
done /20 (1); redeals /10 (1); discards made /8 (1); calls made /5 (1).

Greedy agent: declares as soon as it may with its longest suit when at least a third of its
cards would be trumps, otherwise at the last window; discards its lowest non-trump, non-point
cards from its shortest suits; calls the first copy of plain aces (kings where the trump rank is
A) it does not hold, shortest suits first; leads all copies of a master card of a plain suit
(no unseen stronger card), else a trump pair, else all copies of its lowest card of its longest
plain suit; follows a single lead with the cheapest winning card unless its known team already
wins, when it dumps its best point card; for multi-card follows it adds point cards when its team
wins and its weakest cards otherwise.
"""
from libc.string cimport memset
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint16_t, uint64_t, uint32_t
from cardsim.core._deal cimport assign_zones
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._hand cimport (Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size, hand_size_in,
                                 hand_add_n, hand_merge, hand_sub, hand_max_count)
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_has, as_first, as_add_mask, as_count
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State

from cardsim.errors import ConfigError, ParseError, IllegalActionError
from cardsim import cards as _cards

cdef uint64_t ALL_IDS = ((<uint64_t>1) << 54) - 1
cdef uint64_t K_MASK = ((<uint64_t>1) << 11) | ((<uint64_t>1) << 24) | ((<uint64_t>1) << 37) | ((<uint64_t>1) << 50)
cdef uint64_t TEN_MASK = ((<uint64_t>1) << 8) | ((<uint64_t>1) << 21) | ((<uint64_t>1) << 34) | ((<uint64_t>1) << 47)
cdef uint64_t FIVE_MASK = ((<uint64_t>1) << 3) | ((<uint64_t>1) << 16) | ((<uint64_t>1) << 29) | ((<uint64_t>1) << 42)

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PHASES = ("draw", "kitty", "call", "play", "end")
FORMATS = (None, "single", "set", "sequence", "throw")
OBS_SIZE = (54 + 54 + 3 * 12 * 54 + 54 + 60 + 4 + 13 + 12 + 5 * (54 + 4 + 13) + 12 + 12 + 12 * 13 + 12
            + 5 + 12 * 5 + 1 + 1 + 5 + 1 + 1 + 5 + 12 + 13 + 1 + 12 + 1 + 1 + 1 + 1)
METRICS = ("declarer", "trump_suit", "trump_rank", "opp_points", "decl_size", "decl_won", "game_points",
           "redeals", "failed_throws", "deals")


# ---------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------
cdef inline int id_points(int k) noexcept nogil:
    cdef int r
    if k >= 52:
        return 0
    r = k % 13
    if r == 11 or r == 8:
        return 10
    if r == 3:
        return 5
    return 0

cdef inline int hand_points(const Hand* h) noexcept nogil:
    cdef int i, t = 0
    for i in range(4):
        t += 10 * cs_popcount(h.layer[i] & (K_MASK | TEN_MASK)) + 5 * cs_popcount(h.layer[i] & FIVE_MASK)
    return t

cdef inline int sets_of(const Hand* h, uint64_t mask, int k) noexcept nogil:
    """Disjoint k-sets of identical cards among the identities of mask: sum floor(count/k)."""
    cdef int j = k, n = 0
    while j <= 4:
        n += cs_popcount(h.layer[j - 1] & mask)
        j += k
    return n

cdef inline bint is_trump_id(const ZPTrump* t, int k) noexcept nogil:
    return t.eff[k] == ZP_TRUMP


# ---------------------------------------------------------------------------------------------
# pure rules (§2, §5): also behind the public oracles
# ---------------------------------------------------------------------------------------------
cdef void zp_set_trump(ZPTrump* t, int suit, int rank) noexcept nogil:
    """Trump tables for trump suit `suit` and trump rank `rank` (§2.3-§2.5). Strength: plain cards
    0..12 by rank; trump-suit cards 20+rank; other-suit rank-R cards 40 (all equal); T-R 41;
    small joker 42; big joker 43. Sequence positions skip rank R; jokers and rank-R cards have
    none."""
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
                t.seqpos[k] = r if r < rank else r - 1
        t.smask[t.eff[k]] |= (<uint64_t>1) << k

cdef inline int seq_id(const ZPTrump* t, int suit, int pos) noexcept nogil:
    """Identity at sequence position pos of effective suit `suit`."""
    cdef int ps = suit if suit < 4 else t.suit
    cdef int r = pos if pos < t.rank else pos + 1
    return ps * 13 + r

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

cdef int zp_trick_winner(const ZPTrump* t, const Hand* plays, int n, int fmt, int k, int m, int suit) noexcept nogil:
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


# ---- follow obligations (§5.4) ---------------------------------------------------------------
cdef void chunk_profile(const int* cnt, int nids, int k, int m, int* prof) noexcept nogil:
    """V7: the m largest chunks (sizes capped at k) of a count vector: prof[j] = chunks of size j."""
    cdef int i, j, slots = m, take
    for j in range(k + 1):
        prof[j] = 0
    take = 0
    for i in range(nids):
        take += cnt[i] // k
    if take > slots:
        take = slots
    prof[k] = take
    slots -= take
    j = k - 1
    while j >= 1 and slots > 0:
        take = 0
        for i in range(nids):
            if cnt[i] % k == j:
                take += 1
        if take > slots:
            take = slots
        prof[j] = take
        slots -= take
        j -= 1

cdef bint v7_search(int* pc, const int* sc, int nids, int i, int budget, int k, int m, const int* target) noexcept nogil:
    """V7: is there a completion (adding `budget` cards from identities i.. within their counts)
    whose chunk profile equals target? Depth-first with early exit."""
    cdef int prof[5]
    cdef int a, j, room = 0
    if budget == 0:
        chunk_profile(pc, nids, k, m, prof)
        for j in range(1, k + 1):
            if prof[j] != target[j]:
                return False
        return True
    if i >= nids:
        return False
    for j in range(i, nids):
        room += sc[j] - pc[j]
    if room < budget:
        return False
    a = sc[i] - pc[i]
    if a > budget:
        a = budget
    while a >= 0:
        pc[i] += a
        if v7_search(pc, sc, nids, i + 1, budget - a, k, m, target):
            pc[i] -= a
            return True
        pc[i] -= a
        a -= 1
    return False

cdef bint sets_completable(const int* pc, const int* sc, int nids, int k, int need, int budget) noexcept nogil:
    """Can `budget` more suit cards (within the counts sc) raise the disjoint k-sets of the play
    (counts pc) to `need`? The cheapest missing sets are completed first: finishing a started
    group costs k - (pc mod k), a fresh set costs k."""
    cdef int cur = 0, i, r, more, full = 0, extra, cost = 0, c
    cdef int cheap[4]
    cheap[0] = cheap[1] = cheap[2] = cheap[3] = 0
    for i in range(nids):
        cur += pc[i] // k
    extra = need - cur
    if extra <= 0:
        return True
    for i in range(nids):
        more = sc[i] // k - pc[i] // k
        if more <= 0:
            continue
        r = pc[i] % k
        if r > 0:
            cheap[k - r] += 1
            more -= 1
        full += more
    for c in range(1, 4):
        while cheap[c] > 0 and extra > 0:
            cheap[c] -= 1
            extra -= 1
            cost += c
    if extra > full:
        return False
    cost += extra * k
    return cost <= budget

cdef int suit_counts(const Hand* full, const Hand* play, uint64_t sm, int* ids, int* sc, int* pc) noexcept nogil:
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

cdef bint zp_follow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play, int fmt, int k,
                       int m, int suit, int L) noexcept nogil:
    """Whole-follow legality (§5.4). Validity: exactly L cards of the hand; all of the led suit if
    the hand holds >= L of it, else all of them plus free cards; with a set-type lead (k >= 2) and
    enough suit cards, at least min(m, available k-sets) disjoint k-sets (D6, D7), or with V7 the
    same chunk profile as the best possible."""
    cdef uint64_t sm = t.smask[suit]
    cdef uint64_t ids = play.layer[0]
    cdef int nS, i, kk, n, need
    cdef int sids[54]
    cdef int sc[54]
    cdef int pc[54]
    cdef int p1[5]
    cdef int p2[5]
    if hand_size(play) != L:
        return False
    while ids:
        kk = bit_low(ids)
        ids &= ids - 1
        if hand_count(play, kk) > hand_count(full, kk):
            return False
    nS = hand_size_in(full, sm)
    if nS < L:
        return hand_size_in(play, sm) == nS
    if play.layer[0] & ~sm:
        return False
    if k < 2:
        return True
    n = suit_counts(full, play, sm, sids, sc, pc)
    if c != NULL and c.partial_sets:
        chunk_profile(sc, n, k, m, p1)
        chunk_profile(pc, n, k, m, p2)
        for i in range(1, k + 1):
            if p1[i] != p2[i]:
                return False
        return True
    need = sets_of(full, sm, k)
    if need > m:
        need = m
    return sets_of(play, sm, k) >= need

cdef void follow_actions(const ZPTrump* t, const ZPConfig* c, const Hand* rest, const Hand* cur, int cur_n,
                         int fmt, int k, int m, int suit, int L, ActionSet* out) noexcept nogil:
    """Legal ADD actions of a follower holding `rest` with `cur` already chosen: exactly those
    identities after which some completion is a legal follow (no dead ends)."""
    cdef uint64_t sm = t.smask[suit]
    cdef Hand full
    cdef int nS, nonS, n, i, j, need, kk
    cdef uint64_t cand
    cdef int sids[54]
    cdef int sc[54]
    cdef int pc[54]
    cdef int target[5]
    full = rest[0]
    hand_merge(&full, cur)
    nS = hand_size_in(&full, sm)
    if nS < L:
        nonS = cur_n - hand_size_in(cur, sm)
        if nonS < L - nS:
            as_add_mask(out, ZP_A_ADD, rest.layer[0])
        else:
            as_add_mask(out, ZP_A_ADD, rest.layer[0] & sm)
        return
    cand = rest.layer[0] & sm
    if k < 2:
        as_add_mask(out, ZP_A_ADD, cand)
        return
    n = suit_counts(&full, cur, sm, sids, sc, pc)
    if c.partial_sets:
        chunk_profile(sc, n, k, m, target)
        for i in range(n):
            if sc[i] > pc[i]:
                pc[i] += 1
                if v7_search(pc, sc, n, 0, L - cur_n - 1, k, m, target):
                    as_add(out, ZP_A_ADD + sids[i])
                pc[i] -= 1
        return
    need = sets_of(&full, sm, k)
    if need > m:
        need = m
    if need == 0:
        as_add_mask(out, ZP_A_ADD, cand)
        return
    for i in range(n):
        if sc[i] > pc[i]:
            pc[i] += 1
            if sets_completable(pc, sc, n, k, need, L - cur_n - 1):
                as_add(out, ZP_A_ADD + sids[i])
            pc[i] -= 1


# ---- top cards (§5.3) ------------------------------------------------------------------------
cdef int throw_blocker(const ZPState* s, const ZPConfig* c, int leader, const Hand* P, int k) noexcept nogil:
    """First seat after the leader (in play order) holding a card (V3 'component': a k-set of
    identical cards) of the throw's suit strictly stronger than the weakest group; -1 if every
    card is top and the throw stands."""
    cdef uint64_t ids = P.layer[0], m
    cdef int suit = s.tr.eff[bit_low(ids)]
    cdef int weakest = 99, i, q, kk, layer
    while ids:
        kk = bit_low(ids)
        ids &= ids - 1
        if s.tr.strength[kk] < weakest:
            weakest = s.tr.strength[kk]
    layer = (k - 1) if c.component_top else 0
    for i in range(1, c.n):
        q = (leader + i) % c.n
        m = s.hand[q].layer[layer] & s.tr.smask[suit]
        while m:
            kk = bit_low(m)
            m &= m - 1
            if s.tr.strength[kk] > weakest:
                return q
    return -1

cdef bint lead_completable(const ZPState* s, const ZPConfig* c, const Hand* P, int kmin, int kmax) noexcept nogil:
    """V4 'reject': can P be completed into a lead that is legal now (a set, a set sequence, or a
    throw whose cards are all top)? Group sizes kmin..kmax are possible."""
    cdef uint64_t ids = P.layer[0]
    cdef int k, lo, hi, p, kk, suit
    cdef uint64_t t = ids
    cdef bint seq_ok
    if cs_popcount(ids) == 1:
        return True
    suit = s.tr.eff[bit_low(ids)]
    for k in range(kmin, kmax + 1):
        if throw_blocker(s, c, s.turn, P, k) < 0:
            return True
        if k >= 2:
            lo = 99
            hi = -1
            seq_ok = True
            t = ids
            while t:
                kk = bit_low(t)
                t &= t - 1
                p = s.tr.seqpos[kk]
                if p < 0:
                    seq_ok = False
                    break
                if p < lo:
                    lo = p
                if p > hi:
                    hi = p
            if seq_ok:
                for p in range(lo, hi + 1):
                    kk = seq_id(&s.tr, suit, p)
                    if hand_count(&s.hand[s.turn], kk) + hand_count(P, kk) < k:
                        seq_ok = False
                        break
                if seq_ok:
                    return True
    return False


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void start_deal(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Shuffle the pack on the deal stream and reset everything of a deal (§3)."""
    cdef int i, j, t, n = 0, su, r, q
    for su in range(4):
        for r in range(13):
            for i in range(c.decks):
                s.deck[n] = su * 13 + r
                n += 1
    for i in range(c.nsmall):
        s.deck[n] = ZP_SJK
        n += 1
    for i in range(c.nbig):
        s.deck[n] = ZP_BJK
        n += 1
    s.deck_len = n
    for i in range(n - 1, 0, -1):
        j = rng_below(&s.rng, i + 1)
        t = s.deck[i]; s.deck[i] = s.deck[j]; s.deck[j] = t
    for q in range(12):
        hand_clear(&s.hand[q])
        hand_clear(&s.played[q])
        hand_clear(&s.trick[q])
        hand_clear(&s.exposed[q])
        s.captured[q] = 0
        s.fails[q] = 0
        s.gained[q] = 0
        s.void[q] = 0
    hand_clear(&s.kitty)
    hand_clear(&s.cur)
    for i in range(54):
        s.played_count[i] = 0
    for i in range(ZP_MAX_CALLS):
        s.call_id[i] = -1
        s.call_n[i] = 0
        s.call_by[i] = -1
    memset(&s.tr, 0, sizeof(ZPTrump))
    s.deck_pos = 0
    s.ncalls = 0
    s.discards = 0
    s.trick_removed = 0
    s.kitty_pts = 0
    s.p_opp = 0
    s.tricks_done = 0
    s.last_unit = 1
    s.failed_total = 0
    s.decl_mask = 0
    s.winners = 0
    s.phase = ZP_PH_DRAW
    s.turn = s.starter
    s.drawer = -1
    s.win_i = c.n
    s.declarer = -1
    s.leader = -1
    s.nplays = 0
    s.cur_n = 0
    s.lead_fmt = 0
    s.lead_k = 0
    s.lead_m = 0
    s.lead_suit = 0
    s.lead_len = 0
    s.last_winner = -1
    s.blocker = -1
    s.fail_seat = -1

cdef inline bint eligible(const ZPState* s, int q) noexcept nogil:
    """§4.1: active and holding a card of one's own rank."""
    cdef uint64_t rm = ((<uint64_t>1) << s.rank[q]) * ((<uint64_t>1) | ((<uint64_t>1) << 13) | ((<uint64_t>1) << 26) | ((<uint64_t>1) << 39))
    return ((s.active >> q) & 1) and (s.hand[q].layer[0] & rm) != 0

cdef void draw_advance(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Run the automatic draws until a declaration window needs a decision (§4.1, D1, D2), the
    drawing ends (kitty phase) or nobody declared (redeal, same starter, everyone active, §3.5)."""
    cdef int q, i
    while True:
        if s.declarer < 0 and s.win_i < c.n:
            while s.win_i < c.n:
                if not c.every_window and s.win_i > 0:
                    s.win_i = c.n
                    break
                q = (s.drawer + s.win_i) % c.n
                if eligible(s, q):
                    s.turn = q
                    return
                s.win_i += 1
            continue
        if s.deck_pos < s.deck_len - c.kitty:
            s.drawer = (s.starter + s.deck_pos) % c.n
            hand_add(&s.hand[s.drawer], s.deck[s.deck_pos])
            s.deck_pos += 1
            if s.declarer < 0:
                s.win_i = 0
            continue
        if s.declarer >= 0:
            for i in range(s.deck_pos, s.deck_len):
                hand_add(&s.hand[s.declarer], s.deck[i])
            s.deck_pos = s.deck_len
            s.phase = ZP_PH_KITTY
            s.turn = s.declarer
            return
        s.active = <uint16_t>((1 << c.n) - 1)
        s.redeals += 1
        start_deal(s, c)

cdef void zp_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef ZPState* s = <ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q
    memset(s, 0, sizeof(ZPState))
    s.rng = rng[0]
    for q in range(12):
        s.rank[q] = 0
    s.active = <uint16_t>((1 << c.n) - 1)
    s.starter = <int8_t>rng_below(&s.rng, c.n)      # first deal: uniformly random starter (§3.1)
    s.redeals = 0
    s.deal_no = 0
    s.match_winners = 0
    s.decl_won = -1
    start_deal(s, c)
    draw_advance(s, c)

cdef int zp_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    if s.phase == ZP_PH_END:
        return -1
    return s.turn

cdef bint zp_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const ZPState*>st).phase == ZP_PH_END

cdef int zp_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int p = s.turn, su, k, kk, maxP, minH, full, newc, newmax, newmin, j
    cdef uint64_t ids, cand, rm
    cdef Hand P2
    as_clear(out, 6)
    if s.phase == ZP_PH_END:
        return 0
    if s.phase == ZP_PH_DRAW:
        as_add(out, ZP_A_PASS)
        rm = s.hand[p].layer[0] >> s.rank[p]
        for su in range(4):
            if (rm >> (13 * su)) & 1:
                as_add(out, ZP_A_DECLARE + su)
    elif s.phase == ZP_PH_KITTY:
        as_add_mask(out, ZP_A_DISCARD, s.hand[p].layer[0])
    elif s.phase == ZP_PH_CALL:
        for kk in range(52):
            if s.tr.eff[kk] == ZP_TRUMP:
                continue
            for j in range(c.decks):
                newc = 0
                for k in range(s.ncalls):
                    if s.call_id[k] == kk and s.call_n[k] == j + 1:
                        newc = 1
                if not newc:
                    as_add(out, ZP_A_CALL + 4 * kk + j)
    elif s.nplays == 0:
        if s.cur_n == 0:
            as_add_mask(out, ZP_A_ADD, s.hand[p].layer[0])
        else:
            ids = s.cur.layer[0]
            su = s.tr.eff[bit_low(ids)]
            maxP = hand_max_count(&s.cur)
            minH = 99
            cand = ids
            while cand:
                kk = bit_low(cand)
                cand &= cand - 1
                full = hand_count(&s.hand[p], kk) + hand_count(&s.cur, kk)
                if full < minH:
                    minH = full
            if s.cur.layer[maxP - 1] == ids:
                if not c.reject_throw or lead_completable(s, c, &s.cur, maxP, maxP):
                    as_add(out, ZP_A_COMMIT)
            cand = s.hand[p].layer[0] & s.tr.smask[su]
            while cand:
                kk = bit_low(cand)
                cand &= cand - 1
                newc = hand_count(&s.cur, kk) + 1
                newmax = maxP if maxP > newc else newc
                full = hand_count(&s.hand[p], kk) + newc - 1
                newmin = minH if minH < full else full
                if newmax <= newmin:
                    if c.reject_throw:
                        P2 = s.cur
                        hand_add(&P2, kk)
                        if not lead_completable(s, c, &P2, newmax, newmin):
                            continue
                    as_add(out, ZP_A_ADD + kk)
    else:
        follow_actions(&s.tr, c, &s.hand[p], &s.cur, s.cur_n, s.lead_fmt, s.lead_k, s.lead_m,
                       s.lead_suit, s.lead_len, out)
    return as_count(out, 6)

cdef void count_copies(ZPState* s, const ZPConfig* c, int p, const Hand* P) noexcept nogil:
    """Friend revelation (§4.5, D8-D11): count the copies of a play in order and fulfil calls."""
    cdef uint64_t ids = P.layer[0]
    cdef int k, i, j, best
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        for i in range(hand_count(P, k)):
            s.played_count[k] += 1
            best = -1
            for j in range(s.ncalls):
                if s.call_id[j] != k or s.call_by[j] >= 0:
                    continue
                if c.self_consume:
                    if s.call_n[j] == s.played_count[k]:
                        best = j
                elif s.played_count[k] >= s.call_n[j] and not ((s.decl_mask >> p) & 1):
                    if best < 0 or s.call_n[j] < s.call_n[best]:
                        best = j
            if best >= 0:
                s.call_by[best] = p
                if not ((s.decl_mask >> p) & 1):
                    s.decl_mask |= <uint16_t>(1 << p)
                    if c.called_removed:
                        s.trick_removed += id_points(k)

cdef void finish_deal(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Scoring (§6): opposition points with the kitty to the last trick's team, the game-point
    table by thresholds of 40 x decks with the bonus for a short DECL team (both replaceable
    options: cfg.thr per pack, cfg.gp), then (scope 'match')
    rank advancement, game end and the next deal."""
    cdef int q, P = 0, A, short, gp, decl_won, adv, mult, all_mask = (1 << c.n) - 1
    cdef int t1 = c.thr[0] * c.decks, t2 = c.thr[1] * c.decks, t3 = c.thr[2] * c.decks
    for q in range(c.n):
        if not ((s.decl_mask >> q) & 1):
            P += s.captured[q]
    if not ((s.decl_mask >> s.last_winner) & 1):
        mult = 2 if c.kitty_mult == 0 else 2 * s.last_unit
        P += mult * s.kitty_pts
    for q in range(c.n):
        if s.fails[q] and c.throw_penalty:
            if (s.decl_mask >> q) & 1:
                P += c.throw_penalty * s.fails[q]
            else:
                P -= c.throw_penalty * s.fails[q]
                if P < 0:
                    P = 0
    s.p_opp = P
    A = cs_popcount(s.decl_mask)
    short = 1 + c.calls - A
    if short < 0:
        short = 0
    if P == 0:
        decl_won = 1
        gp = c.gp[0] + c.gp[1] * short
    elif P < t1:
        decl_won = 1
        gp = c.gp[2] + c.gp[3] * short
    elif P < t2:
        decl_won = 0
        gp = c.gp[4]
    elif P < t3:
        decl_won = 0
        gp = c.gp[5]
    else:
        decl_won = 0
        gp = c.gp[6]
    s.decl_won = decl_won
    s.winners = <uint16_t>(s.decl_mask if decl_won else (all_mask & ~s.decl_mask))
    for q in range(c.n):
        s.gained[q] = gp if (s.winners >> q) & 1 else 0
    if not c.match:
        s.phase = ZP_PH_END
        return
    for q in range(c.n):
        if (s.winners >> q) & 1:
            adv = gp if (s.active >> q) & 1 else gp - 1
            s.rank[q] += adv
            if s.rank[q] >= 12:
                s.rank[q] = 12
                if not c.defend_a:
                    s.match_winners |= <uint16_t>(1 << q)
    if c.defend_a and decl_won and s.tr.rank == 12:
        for q in range(c.n):
            if (s.winners >> q) & 1 and s.rank[q] == 12:
                s.match_winners |= <uint16_t>(1 << q)
    s.active = s.winners
    s.deal_no += 1
    if s.match_winners or s.deal_no >= c.max_deals:
        s.phase = ZP_PH_END
        return
    # next starter (§3.1, D18)
    if decl_won:
        s.starter = s.declarer
    else:
        for q in range(1, c.n + 1):
            if (s.winners >> ((s.declarer + q) % c.n)) & 1:
                s.starter = (s.declarer + q) % c.n
                break
    start_deal(s, c)
    draw_advance(s, c)

cdef int lead_component(const ZPTrump* t, const Hand* lead, int fmt, int k, int m) noexcept nogil:
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


cdef void finish_trick(ZPState* s, const ZPConfig* c) noexcept nogil:
    cdef Hand plays[12]
    cdef int i, w, pts = 0
    for i in range(c.n):
        plays[i] = s.trick[(s.leader + i) % c.n]
        pts += hand_points(&plays[i])
    w = (s.leader + zp_trick_winner(&s.tr, plays, c.n, s.lead_fmt, s.lead_k, s.lead_m, s.lead_suit)) % c.n
    s.captured[w] += pts - s.trick_removed
    s.last_unit = lead_component(&s.tr, &s.trick[s.leader], s.lead_fmt, s.lead_k, s.lead_m)
    s.last_winner = w
    for i in range(c.n):
        hand_clear(&s.trick[i])
    s.trick_removed = 0
    s.nplays = 0
    s.lead_fmt = 0
    s.tricks_done += 1
    s.leader = w
    s.turn = w
    if s.hand[w].layer[0] == 0:
        finish_deal(s, c)

cdef void play_cur(ZPState* s, const ZPConfig* c) noexcept nogil:
    """The seat to act plays the cards of `cur` (already out of its hand)."""
    cdef int p = s.turn
    count_copies(s, c, p, &s.cur)
    hand_merge(&s.played[p], &s.cur)
    hand_sub(&s.exposed[p], &s.cur)
    s.trick[p] = s.cur
    if s.nplays > 0 and hand_size_in(&s.cur, s.tr.smask[s.lead_suit]) < s.lead_len:
        s.void[p] |= 1 << s.lead_suit
    hand_clear(&s.cur)
    s.cur_n = 0
    s.nplays += 1
    if s.nplays == c.n:
        finish_trick(s, c)
    else:
        s.turn = (p + 1) % c.n

cdef void commit_lead(ZPState* s, const ZPConfig* c) noexcept nogil:
    """Classify the built lead; a THROW is checked against the real hands (§5.3, D3/D4): if a
    card is not top, the lowest group (ties C < D < H < S) is led instead, the rest go back to
    the hand and become public."""
    cdef int fmt, k, m, suit, b, kk, low = -1, ls = 99
    cdef uint64_t ids
    cdef Hand back
    fmt = zp_classify(&s.tr, &s.cur, &k, &m, &suit)
    if fmt == ZP_F_THROW:
        b = throw_blocker(s, c, s.turn, &s.cur, k)
        if b >= 0:
            ids = s.cur.layer[0]
            while ids:
                kk = bit_low(ids)
                ids &= ids - 1
                if s.tr.strength[kk] <= ls:
                    ls = s.tr.strength[kk]
                    low = kk
            back = s.cur
            hand_clear(&s.cur)
            hand_add_n(&s.cur, low, k)
            hand_sub(&back, &s.cur)
            hand_merge(&s.hand[s.turn], &back)
            hand_merge(&s.exposed[s.turn], &back)
            s.fails[s.turn] += 1
            s.failed_total += 1
            s.blocker = b
            s.fail_seat = s.turn
            s.cur_n = k
            fmt = ZP_F_SET if k >= 2 else ZP_F_SINGLE
            m = 1
    s.lead_fmt = fmt
    s.lead_k = k
    s.lead_m = m
    s.lead_suit = suit
    s.lead_len = s.cur_n
    play_cur(s, c)

cdef void zp_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef ZPState* s = <ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int p = s.turn, k
    if s.phase == ZP_PH_PLAY:
        if a == ZP_A_COMMIT:
            commit_lead(s, c)
            return
        hand_remove(&s.hand[p], a)
        hand_add(&s.cur, a)
        s.cur_n += 1
        if s.nplays > 0 and s.cur_n == s.lead_len:
            play_cur(s, c)
    elif s.phase == ZP_PH_DRAW:
        if a == ZP_A_PASS:
            s.win_i += 1
        else:
            k = a - ZP_A_DECLARE
            s.declarer = p
            zp_set_trump(&s.tr, k, s.rank[p])
            hand_add(&s.exposed[p], k * 13 + s.rank[p])
            s.decl_mask = <uint16_t>(1 << p)
        draw_advance(s, c)
    elif s.phase == ZP_PH_KITTY:
        k = a - ZP_A_DISCARD
        hand_remove(&s.hand[p], k)
        hand_add(&s.kitty, k)
        s.kitty_pts += id_points(k)
        s.discards += 1
        if s.discards == c.kitty:
            s.phase = ZP_PH_CALL
            if c.calls == 0:
                s.phase = ZP_PH_PLAY
                s.leader = s.declarer
    elif s.phase == ZP_PH_CALL:
        k = a - ZP_A_CALL
        s.call_id[s.ncalls] = k // 4
        s.call_n[s.ncalls] = k % 4 + 1
        s.call_by[s.ncalls] = -1
        s.ncalls += 1
        if s.ncalls == c.calls:
            s.phase = ZP_PH_PLAY
            s.leader = s.declarer
            s.turn = s.declarer

cdef void zp_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q
    for q in range(c.n):
        out[q] = <double>(s.rank[q] if c.match else s.gained[q])

cdef void zp_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q, gp = 0
    for q in range(c.n):
        if s.gained[q] > gp:
            gp = s.gained[q]
    out[0] = s.declarer
    out[1] = s.tr.suit if s.declarer >= 0 else -1
    out[2] = s.tr.rank + 2 if s.declarer >= 0 else -1
    out[3] = s.p_opp
    out[4] = cs_popcount(s.decl_mask)
    out[5] = s.decl_won
    out[6] = gp
    out[7] = s.redeals
    out[8] = s.failed_total
    out[9] = s.deal_no


# ---------------------------------------------------------------------------------------------
# observation and resampling
# ---------------------------------------------------------------------------------------------
cdef inline void put_hand(float* o, const Hand* h) noexcept nogil:
    cdef uint64_t ids = h.layer[0]
    cdef int k
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        o[k] = hand_count(h, k) * 0.25

cdef void zp_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q, i, k = 0
    put_hand(o + k, &s.hand[p]); k += 54
    if p == s.turn:
        put_hand(o + k, &s.cur)
    k += 54
    for q in range(12):
        if q < c.n:
            put_hand(o + k, &s.played[q])
        k += 54
    for q in range(12):
        if q < c.n:
            put_hand(o + k, &s.trick[q])
        k += 54
    for q in range(12):
        if q < c.n:
            put_hand(o + k, &s.exposed[q])
        k += 54
    if p == s.declarer:
        put_hand(o + k, &s.kitty)
    k += 54
    for q in range(12):
        for i in range(5):
            if q < c.n and (s.void[q] >> i) & 1:
                o[k + i] = 1.0
        k += 5
    if s.declarer >= 0:
        o[k + s.tr.suit] = 1.0
        o[k + 4 + s.tr.rank] = 1.0
        o[k + 17 + s.declarer] = 1.0
    k += 29
    for i in range(ZP_MAX_CALLS):
        if i < s.ncalls:
            o[k + s.call_id[i]] = 1.0
            o[k + 54 + s.call_n[i] - 1] = 1.0
            o[k + 58 + (s.call_by[i] if s.call_by[i] >= 0 else 12)] = 1.0
        k += 71
    for q in range(c.n):
        if (s.decl_mask >> q) & 1:
            o[k + q] = 1.0
        o[k + 12 + q] = s.captured[q] / 100.0
        o[k + 24 + 13 * q + s.rank[q]] = 1.0
        o[k + 24 + 156 + q] = (s.active >> q) & 1
    k += 24 + 156 + 12
    o[k + s.phase] = 1.0; k += 5
    if s.phase != ZP_PH_END:
        o[k + s.turn] = 1.0
    k += 12
    o[k + p] = 1.0; k += 12
    if s.leader >= 0:
        o[k + s.leader] = 1.0
    k += 12
    o[k + s.starter] = 1.0; k += 12
    if s.drawer >= 0:
        o[k + s.drawer] = 1.0
    k += 12
    o[k] = s.deck_pos / <float>s.deck_len; k += 1
    o[k] = s.win_i / <float>c.n; k += 1
    o[k + s.lead_fmt] = 1.0; k += 5
    o[k] = s.lead_k * 0.25; k += 1
    o[k] = s.lead_m / 16.0; k += 1
    if s.lead_fmt:
        o[k + s.lead_suit] = 1.0
    k += 5
    for q in range(c.n):
        o[k + q] = s.fails[q]
    k += 12
    if c.reveal_blocker and s.blocker >= 0:
        o[k + s.blocker] = 1.0
    elif s.fail_seat >= 0:
        o[k + 12] = 1.0
    k += 13
    o[k] = s.tricks_done / 25.0; k += 1
    if s.last_winner >= 0:
        o[k + s.last_winner] = 1.0
    k += 12
    o[k] = s.deal_no / 20.0; k += 1
    o[k] = s.redeals / 10.0; k += 1
    o[k] = s.discards / 8.0; k += 1
    o[k] = s.ncalls / 5.0; k += 1

cdef int zp_assign_with_voids(const ZPState* s, const ZPConfig* c, int p, uint8_t* pool, int n,
                              const int* need, const Hand* base, Hand* newh, Rng* rng) noexcept nogil:
    """Constrained redeal for zp_resample: reorders `pool` so that the first need[q] cards (seats
    in order, p skipped) go to seat q and the rest to the hidden zones (zone 12: kitty, undrawn
    pack), with no seat receiving an effective suit it has shown void in. Returns 1 on success
    (newh filled), 0 if every try hit a dead end."""
    cdef uint8_t dest[216]
    cdef uint8_t out[216]
    cdef uint32_t allowed[54]
    cdef int room[13]
    cdef int q, i, j, k, kk, tries, tmp
    for kk in range(54):
        allowed[kk] = 1 << 12
        for q in range(c.n):
            if q != p and not (s.void[q] >> s.tr.eff[kk]) & 1:
                allowed[kk] |= 1 << q
    room[12] = n
    for q in range(12):
        room[q] = need[q] if (q < c.n and q != p) else 0
        room[12] -= room[q]
    for tries in range(200):
        for i in range(n - 1, 0, -1):
            j = rng_below(rng, i + 1)
            tmp = pool[i]; pool[i] = pool[j]; pool[j] = tmp
        if not assign_zones(pool, n, allowed, room, 13, dest, rng):
            continue
        k = 0
        for q in range(c.n):
            if q == p:
                continue
            newh[q] = base[q]
            for i in range(n):
                if dest[i] == q:
                    hand_add(&newh[q], pool[i])
                    out[k] = pool[i]
                    k += 1
        for i in range(n):
            if dest[i] == 12:
                out[k] = pool[i]
                k += 1
        for i in range(n):
            pool[i] = out[i]
        return 1
    return 0


cdef int zp_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal everything p cannot see: the other seats' unexposed cards, the undrawn pack and (for
    all but the declarer) the kitty discards; every zone keeps its size, exposed cards stay with
    their holder, and seats keep their shown voids when a few tries allow it. The deal stream is
    replaced, so later deals of a match are not leaked."""
    cdef ZPState* s = <ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef uint8_t pool[216]
    cdef int need[13]
    cdef Hand base[13]
    cdef Hand newh[13]
    cdef int n = 0, q, i, j, t, tries, ok, kk, e
    cdef Hand tmp
    cdef bint kitty_hidden = p != s.declarer and s.discards > 0
    if p != s.turn and s.cur_n > 0:
        # the play being built is private to the seat to act: p cannot know it
        hand_merge(&s.hand[s.turn], &s.cur)
        hand_clear(&s.cur)
        s.cur_n = 0
    for q in range(c.n):
        if q == p:
            continue
        tmp = s.hand[q]
        hand_sub(&tmp, &s.exposed[q])
        need[q] = hand_size(&tmp)
        base[q] = s.hand[q]
        hand_sub(&base[q], &tmp)
        for kk in range(54):
            for i in range(hand_count(&tmp, kk)):
                pool[n] = kk
                n += 1
    need[12] = 0
    if kitty_hidden:
        need[12] = hand_size(&s.kitty)
        for kk in range(54):
            for i in range(hand_count(&s.kitty, kk)):
                pool[n] = kk
                n += 1
    t = n
    for i in range(s.deck_pos, s.deck_len):
        pool[n] = s.deck[i]
        n += 1
    ok = 0
    for tries in range(64):            # uniform rejection: exact over consistent deals
        for i in range(n - 1, 0, -1):
            j = rng_below(rng, i + 1)
            kk = pool[i]; pool[i] = pool[j]; pool[j] = kk
        i = 0
        ok = 1
        for q in range(c.n):
            if q == p:
                continue
            newh[q] = base[q]
            for j in range(need[q]):
                hand_add(&newh[q], pool[i])
                if s.declarer >= 0:
                    e = s.tr.eff[pool[i]]
                    if (s.void[q] >> e) & 1:
                        ok = 0
                i += 1
        if ok:
            break
    if not ok and s.declarer >= 0:
        # many shown voids: place each unseen card on a random seat that may hold it (weighted by
        # the room left), or in the kitty/undrawn pack, retrying on a dead end; the true deal is
        # one solution, so this practically always succeeds and never breaks a shown void
        ok = zp_assign_with_voids(s, c, p, pool, n, need, base, newh, rng)
    i = 0
    for q in range(c.n):
        if q == p:
            continue
        s.hand[q] = newh[q]
        i += need[q]
    if kitty_hidden:
        hand_clear(&s.kitty)
        s.kitty_pts = 0
        for j in range(need[12]):
            hand_add(&s.kitty, pool[i])
            s.kitty_pts += id_points(pool[i])
            i += 1
    for j in range(s.deck_pos, s.deck_len):
        s.deck[j] = pool[i]
        i += 1
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef inline bint known_mate(const ZPState* s, int p, int q) noexcept nogil:
    """Does p know q to be on its team? DECL members know DECL; others assume that everyone not
    known to be in DECL is with them."""
    if (s.decl_mask >> p) & 1:
        return (s.decl_mask >> q) & 1
    return not ((s.decl_mask >> q) & 1)

cdef int greedy_draw(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, su, best = -1, bn = -1, cnt, size
    cdef uint64_t rm = ((<uint64_t>1) << s.rank[p]) * ((<uint64_t>1) | ((<uint64_t>1) << 13) | ((<uint64_t>1) << 26) | ((<uint64_t>1) << 39))
    size = hand_size(&s.hand[p])
    for su in range(4):
        if as_has(legal, ZP_A_DECLARE + su):
            cnt = (hand_size_in(&s.hand[p], (<uint64_t>0x1FFF) << (13 * su))
                   + hand_size_in(&s.hand[p], rm | ((<uint64_t>3) << 52)))
            if cnt > bn:
                bn = cnt
                best = su
    if best < 0:
        return ZP_A_PASS
    if (3 * bn >= size and size >= 5) or s.deck_pos >= s.deck_len - c.kitty:
        return ZP_A_DECLARE + best
    return ZP_A_PASS

cdef int discard_score(const ZPState* s, int p, int k) noexcept nogil:
    cdef int sc = s.tr.strength[k]
    if s.tr.eff[k] == ZP_TRUMP:
        sc += 1000
    sc += 50 * id_points(k)
    if s.tr.eff[k] != ZP_TRUMP:
        sc += 4 * hand_size_in(&s.hand[p], s.tr.smask[s.tr.eff[k]])
    return sc

cdef int greedy_call(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, su, r, best = -1, bl = 999, ln, k, a, held
    for r in range(12, 10, -1):
        for su in range(4):
            k = su * 13 + r
            if s.tr.eff[k] == ZP_TRUMP:
                continue
            held = hand_count(&s.hand[p], k)
            if held >= c.decks:
                continue
            a = ZP_A_CALL + 4 * k + held
            if not as_has(legal, a):
                continue
            ln = hand_size_in(&s.hand[p], s.tr.smask[su]) + 20 * (12 - r)
            if ln < bl:
                bl = ln
                best = a
        if best >= 0:
            return best
    return as_first(legal, 6)

cdef int greedy_lead(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, k, best = -1, bs = -999, sc, su, ln
    cdef uint64_t ids
    if s.cur_n > 0:
        k = bit_low(s.cur.layer[0])
        if as_has(legal, ZP_A_ADD + k):
            return ZP_A_ADD + k
        if as_has(legal, ZP_A_COMMIT):
            return ZP_A_COMMIT
        return as_first(legal, 6)
    ids = s.hand[p].layer[0]
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        su = s.tr.eff[k]
        if su != ZP_TRUMP:
            ln = hand_size_in(&s.hand[p], s.tr.smask[su])
            if s.tr.strength[k] >= 11 and is_master_copies(s, c, p, k):
                sc = 300 + 20 * hand_count(&s.hand[p], k) + s.tr.strength[k]
            else:
                sc = 100 + 3 * ln - s.tr.strength[k] - 5 * id_points(k) + 10 * (hand_count(&s.hand[p], k) - 1)
        else:
            if hand_count(&s.hand[p], k) >= 2 and (s.decl_mask >> p) & 1:
                sc = 200 + s.tr.strength[k]
            else:
                sc = 20 - s.tr.strength[k]
        if sc > bs:
            bs = sc
            best = k
    return ZP_A_ADD + best

cdef bint is_master_copies(const ZPState* s, const ZPConfig* c, int p, int k) noexcept nogil:
    """Every copy of every stronger card of k's suit is in p's hand or already played."""
    cdef int su = s.tr.eff[k], j, tot
    cdef uint64_t m = s.tr.smask[su]
    while m:
        j = bit_low(m)
        m &= m - 1
        if s.tr.strength[j] > s.tr.strength[k]:
            tot = c.nsmall if j == ZP_SJK else (c.nbig if j == ZP_BJK else c.decks)
            if hand_count(&s.hand[p], j) + s.played_count[j] < tot:
                return False
    return True

cdef int current_winner(const ZPState* s, const ZPConfig* c, const Hand* extra) noexcept nogil:
    """Seat winning the current trick so far (with `extra` as the acting seat's play if given)."""
    cdef Hand plays[12]
    cdef int i, n = s.nplays
    for i in range(n):
        plays[i] = s.trick[(s.leader + i) % c.n]
    if extra != NULL:
        plays[n] = extra[0]
        n += 1
    return (s.leader + zp_trick_winner(&s.tr, plays, n, s.lead_fmt, s.lead_k, s.lead_m, s.lead_suit)) % c.n

cdef int greedy_follow(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, w, k, best = -1, bs = -99999, sc, pts_trick = 0, i
    cdef bint mate_wins
    cdef Hand one
    cdef uint64_t ids = s.hand[p].layer[0]
    w = current_winner(s, c, NULL)
    mate_wins = known_mate(s, p, w)
    for i in range(c.n):
        pts_trick += hand_points(&s.trick[i])
    if s.lead_len == 1:
        while ids:
            k = bit_low(ids)
            ids &= ids - 1
            if not as_has(legal, ZP_A_ADD + k):
                continue
            hand_clear(&one)
            hand_add(&one, k)
            if mate_wins:
                sc = 100 * id_points(k) - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
            elif current_winner(s, c, &one) == p and (pts_trick > 0 or id_points(k) > 0 or s.tr.eff[k] != ZP_TRUMP):
                sc = 5000 - s.tr.strength[k] - (100 if s.tr.eff[k] == ZP_TRUMP else 0) + 10 * id_points(k)
            else:
                sc = -100 * id_points(k) - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
            if sc > bs:
                bs = sc
                best = k
        return ZP_A_ADD + best
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        if not as_has(legal, ZP_A_ADD + k):
            continue
        if mate_wins:
            sc = 100 * id_points(k) - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
        else:
            sc = -100 * id_points(k) - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
        sc += 30 * hand_count(&s.cur, k)
        if sc > bs:
            bs = sc
            best = k
    return ZP_A_ADD + best

cdef int zp_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int k, best = -1, bs = 1 << 30, sc
    cdef uint64_t ids
    if s.phase == ZP_PH_DRAW:
        return greedy_draw(s, c, legal)
    if s.phase == ZP_PH_KITTY:
        ids = s.hand[s.turn].layer[0]
        while ids:
            k = bit_low(ids)
            ids &= ids - 1
            sc = discard_score(s, s.turn, k)
            if sc < bs:
                bs = sc
                best = k
        return ZP_A_DISCARD + best
    if s.phase == ZP_PH_CALL:
        return greedy_call(s, c, legal)
    if s.nplays == 0:
        return greedy_lead(s, c, legal)
    return greedy_follow(s, c, legal)


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)}
_RANK_ALIASES["T"] = 8


def card_str(int k):
    if k == ZP_BJK:
        return "BJ"
    if k == ZP_SJK:
        return "SJ"
    return RANKS[k % 13] + SUITS[k // 13]


def parse_card(text):
    """'AS', '10H', 'TD', '7♦', 'BJ' (big joker), 'SJ' (small joker), lower case ok -> identity."""
    rank, suit = _cards.parse_card(text, "zhao_pengyou", jokers=("BJ", "SJ"))
    if suit < 0:
        return ZP_BJK if rank == "BJ" else ZP_SJK
    return suit * 13 + RANKS.index(rank)


def parse_suit(text):
    return _cards.parse_suit(text, "zhao_pengyou")


def parse_rank(text):
    if isinstance(text, int) and not isinstance(text, bool) and 2 <= text <= 14:
        return text - 2
    if not isinstance(text, str) or text.strip().upper() not in _RANK_ALIASES:
        raise ParseError(f"zhao_pengyou: bad rank {text!r}; ranks: 2-10 J Q K A")
    return _RANK_ALIASES[text.strip().upper()]


cdef int cards_to_hand(cards, Hand* h) except -1:
    hand_clear(h)
    if not isinstance(cards, (list, tuple)):
        raise ParseError(f"zhao_pengyou: a play or hand is a list of card strings, got {cards!r}")
    for t in cards:
        k = parse_card(t)
        if hand_count(h, k) >= 4:
            raise ParseError(f"zhao_pengyou: more than 4 copies of {t!r} (at most 4 packs)")
        hand_add(h, k)
    return 0


cdef list hand_to_list(const Hand* h):
    """Cards of a hand in display order: jokers, then suits S H D C, high to low."""
    out = []
    for k in (ZP_BJK, ZP_SJK):
        out += [card_str(k)] * hand_count(h, k)
    for su in range(4):
        for r in range(12, -1, -1):
            out += [card_str(su * 13 + r)] * hand_count(h, su * 13 + r)
    return out


cdef class ZhaoPengyouSpec(GameSpec):
    cdef ZPConfig c

    def __init__(self, dict opts, dict table):
        memset(&self.c, 0, sizeof(ZPConfig))
        n = opts["players"]
        self.c.n = n
        self.c.decks = table["decks"]
        self.c.nbig = table["big"]
        self.c.nsmall = table["small"]
        self.c.cpp = table["cards"]
        self.c.kitty = table["kitty"]
        self.c.calls = table["calls"]
        self.c.total = 52 * self.c.decks + self.c.nbig + self.c.nsmall
        self.c.kitty_mult = 0 if opts["kitty_multiplier"] == "x2" else 1
        self.c.component_top = opts["throw_validity"] == "component"
        ft = opts["failed_throw"]
        self.c.reject_throw = ft == "reject"
        self.c.throw_penalty = 10 if "penalty" in ft else 0
        self.c.reveal_blocker = "reveal_blocker" in ft
        self.c.self_consume = opts["friend_self_consume"]
        self.c.called_removed = opts["called_card_points"] == "removed"
        self.c.partial_sets = opts["partial_set_obligation"]
        self.c.every_window = opts["declaration_windows"] == "every_draw"
        self.c.defend_a = opts["game_end"] == "defend_A"
        self.c.match = opts["scope"] == "match"
        self.c.max_deals = opts["max_deals"]
        for i in range(7):
            self.c.gp[i] = opts["game_points"][i]
        for i in range(3):
            self.c.thr[i] = opts["thresholds"][i]
        self.cfg = &self.c
        self.name = "zhao_pengyou"
        self.num_players = n
        self.num_actions = ZP_NUM_ACTIONS
        self.action_words = 6
        self.state_size = sizeof(ZPState)
        self.obs_size = OBS_SIZE
        self.metric_names = METRICS
        self.options = dict(opts)
        self.returns_sum = "none"
        self.vt.init = zp_init
        self.vt.current_player = zp_current_player
        self.vt.legal = zp_legal
        self.vt.apply = zp_apply
        self.vt.is_terminal = zp_is_terminal
        self.vt.returns = zp_returns
        self.vt.observe = zp_observe
        self.vt.resample = zp_resample
        self.vt.greedy = zp_greedy
        self.vt.metrics = zp_metrics

    @property
    def config(self):
        return {"players": self.c.n, "decks": self.c.decks, "big_jokers": self.c.nbig,
                "small_jokers": self.c.nsmall, "cards_per_player": self.c.cpp, "kitty": self.c.kitty,
                "calls": self.c.calls, "total": self.c.total}

    # ---- strings --------------------------------------------------------------------------
    def action_string(self, State s, int a):
        if a < 54:
            return card_str(a)
        if a == ZP_A_COMMIT:
            return "COMMIT"
        if a == ZP_A_PASS:
            return "PASS"
        if a < ZP_A_DISCARD:
            return "DECLARE " + SUITS[a - ZP_A_DECLARE]
        if a < ZP_A_CALL:
            return "DISCARD " + card_str(a - ZP_A_DISCARD)
        a -= ZP_A_CALL
        return f"CALL {card_str(a // 4)} {a % 4 + 1}"

    def parse_action(self, State s, str text):
        t = " ".join(text.strip().upper().split())
        try:
            if t in ("COMMIT", "LEAD"):
                return ZP_A_COMMIT
            if t == "PASS":
                return ZP_A_PASS
            if t.startswith("DECLARE "):
                return ZP_A_DECLARE + parse_suit(t[8:])
            if t.startswith("DISCARD "):
                return ZP_A_DISCARD + parse_card(t[8:])
            if t.startswith("CALL "):
                parts = t[5:].split()
                if len(parts) != 2 or not parts[1].isdigit() or not 1 <= int(parts[1]) <= 4:
                    raise ParseError("bad call")
                k = parse_card(parts[0])
                if k >= 52:
                    raise ParseError("jokers cannot be called")
                return ZP_A_CALL + 4 * k + int(parts[1]) - 1
            return ZP_A_ADD + parse_card(t)
        except ParseError:
            raise ParseError(f"zhao_pengyou: cannot parse action {text!r}; expected a card ('AS', '10H', 'BJ'), "
                             f"'COMMIT', 'PASS', 'DECLARE S', 'DISCARD 5H' or 'CALL AH 2'") from None

    def hand_strings(self, State s, int p):
        return hand_to_list(&(<ZPState*>s.data).hand[p])

    def phase_name(self, State s):
        return PHASES[(<ZPState*>s.data).phase]

    @property
    def deck_size(self):
        return self.c.total

    def card_total(self, State s):
        """Cards in hands, the play being built, the undrawn pack, the kitty and all played cards;
        negative if some identity has the wrong number of copies."""
        cdef ZPState* st = <ZPState*>s.data
        cdef int counts[54]
        cdef int q, k, n = 0
        for k in range(54):
            counts[k] = 0
        for q in range(self.c.n):
            for k in range(54):
                counts[k] += hand_count(&st.hand[q], k) + hand_count(&st.played[q], k)
        for k in range(54):
            counts[k] += hand_count(&st.kitty, k) + hand_count(&st.cur, k)
        for k in range(st.deck_pos, st.deck_len):
            counts[st.deck[k]] += 1
        ok = True
        for k in range(54):
            n += counts[k]
            want = self.c.nsmall if k == ZP_SJK else (self.c.nbig if k == ZP_BJK else self.c.decks)
            if counts[k] != want:
                ok = False
        return n if ok else -n

    def view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef ZPState* st = <ZPState*>s.data
        n = self.c.n
        declared = st.declarer >= 0
        return {
            "phase": self.phase_name(s), "turn": st.turn if st.phase != ZP_PH_END else -1,
            "starter": st.starter, "declarer": st.declarer if declared else None,
            "trump_suit": SUITS[st.tr.suit] if declared else None,
            "trump_rank": RANKS[st.tr.rank] if declared else None,
            "calls": [(card_str(st.call_id[i]), st.call_n[i], None if st.call_by[i] < 0 else st.call_by[i])
                      for i in range(st.ncalls)],
            "decl": [q for q in range(n) if (st.decl_mask >> q) & 1],
            "captured": [st.captured[q] for q in range(n)],
            "ranks": [RANKS[st.rank[q]] for q in range(n)],
            "active": [q for q in range(n) if (st.active >> q) & 1],
            "leader": st.leader, "trick": [hand_to_list(&st.trick[q]) for q in range(n)],
            "building": hand_to_list(&st.cur),
            "lead_format": FORMATS[st.lead_fmt], "tricks_done": st.tricks_done,
            "kitty": hand_to_list(&st.kitty), "kitty_points": st.kitty_pts,
            "exposed": [hand_to_list(&st.exposed[q]) for q in range(n)],
            "played": [hand_to_list(&st.played[q]) for q in range(n)],
            "fails": [st.fails[q] for q in range(n)], "blocker": st.blocker if st.blocker >= 0 else None,
            "last_winner": st.last_winner if st.last_winner >= 0 else None,
            "opp_points": st.p_opp, "decl_won": None if st.decl_won < 0 else bool(st.decl_won),
            "winners": [q for q in range(n) if (st.winners >> q) & 1],
            "gained": [st.gained[q] for q in range(n)], "deal_no": st.deal_no, "redeals": st.redeals,
            "match_winners": [q for q in range(n) if (st.match_winners >> q) & 1],
            "drawn": st.deck_pos, "void": [[ "SHDCT"[i] for i in range(5) if (st.void[q] >> i) & 1] for q in range(n)],
        }

    def render(self, State s):
        v = self.view(s)
        lines = [f"Zhao Pengyou  {self.c.n} players  phase={v['phase']}  deal {v['deal_no'] + 1}  "
                 f"ranks {' '.join(v['ranks'])}"]
        if v["declarer"] is not None:
            lines.append(f"declarer {v['declarer']}  trump {v['trump_suit']}/{v['trump_rank']}  calls "
                         + ", ".join(f"{c} #{nn}" + (f"->{b}" if b is not None else "") for c, nn, b in v["calls"])
                         + f"  DECL {v['decl']}  captured {v['captured']}")
        for q in range(self.c.n):
            mark = "*" if v["turn"] == q else " "
            lines.append(f"{mark}{q}: {' '.join(self.hand_strings(s, q))}"
                         + (f"   trick: {' '.join(v['trick'][q])}" if v["trick"][q] else ""))
        if v["building"]:
            lines.append("building: " + " ".join(v["building"]))
        if v["phase"] == "end":
            lines.append(f"opposition points {v['opp_points']}  winners {v['winners']}  gained {v['gained']}")
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def setup_play(self, hands, trump_suit, trump_rank, int declarer=0, leader=None, calls=(), kitty=(),
                   decl=None, played=None):
        """A state in the play phase with the given hands (lists of card strings, one per seat;
        the pack need not be complete), trump, declarer, leader (default the declarer), calls as
        (card, N) pairs, kitty discards, known DECL seats and cards already played per seat."""
        cdef State s
        cdef ZPState* st
        cdef Hand h
        n = self.c.n
        if not isinstance(hands, (list, tuple)) or len(hands) != n:
            raise ConfigError(f"zhao_pengyou: need {n} hands")
        if not 0 <= declarer < n:
            raise ConfigError("zhao_pengyou: declarer out of range")
        leader = declarer if leader is None else leader
        if not 0 <= leader < n:
            raise ConfigError("zhao_pengyou: leader out of range")
        if len(calls) > ZP_MAX_CALLS:
            raise ConfigError("zhao_pengyou: at most 5 calls")
        s = self.new_state(0, 0)
        st = <ZPState*>s.data
        start_deal(st, &self.c)
        st.deck_pos = st.deck_len
        for q in range(n):
            cards_to_hand(hands[q], &h)
            st.hand[q] = h
        cards_to_hand(list(kitty), &h)
        st.kitty = h
        st.kitty_pts = hand_points(&h)
        st.discards = hand_size(&h)
        if played is not None:
            for q in range(n):
                cards_to_hand(played[q], &h)
                st.played[q] = h
                for k in range(54):
                    st.played_count[k] += hand_count(&h, k)
        zp_set_trump(&st.tr, parse_suit(trump_suit), parse_rank(trump_rank))
        st.rank[declarer] = st.tr.rank
        st.declarer = declarer
        st.decl_mask = 1 << declarer
        for q in (decl or ()):
            st.decl_mask |= 1 << q
        for i, (card, nn) in enumerate(calls):
            st.call_id[i] = parse_card(card)
            st.call_n[i] = nn
            st.call_by[i] = -1
        st.ncalls = len(calls)
        st.phase = ZP_PH_PLAY
        st.leader = leader
        st.turn = leader
        st.win_i = n
        return s

    def setup_scoring(self, State s, captured, int last_winner, decl, kitty):
        """Overwrite the scoring inputs of a state and score it (for the score examples)."""
        cdef ZPState* st = <ZPState*>s.data
        cdef Hand h
        for q in range(self.c.n):
            st.captured[q] = captured[q]
        st.decl_mask = 0
        for q in decl:
            st.decl_mask |= 1 << q
        st.last_winner = last_winner
        cards_to_hand(list(kitty), &h)
        st.kitty = h
        st.kitty_pts = hand_points(&h)
        finish_deal(st, &self.c)
        return self.view(s)

    def set_ranks(self, State s, ranks, active):
        cdef ZPState* st = <ZPState*>s.data
        for q in range(self.c.n):
            st.rank[q] = parse_rank(ranks[q])
        st.active = 0
        for q in active:
            st.active |= 1 << q

    def rng_reseed(self, State s, int starter):
        """Restart the deal with `starter` as the starter (used by scenario tests)."""
        cdef ZPState* st = <ZPState*>s.data
        st.starter = starter
        start_deal(st, &self.c)
        draw_advance(st, &self.c)

    def next_starter_after(self, State s):
        return (<ZPState*>s.data).starter


# ---- oracle kernels ---------------------------------------------------------------------------
def oracle_classify(list lead, int suit, int rank):
    cdef ZPTrump t
    cdef Hand P
    cdef int k = 0, m = 0, su = 0, f
    zp_set_trump(&t, suit, rank)
    cards_to_hand(lead, &P)
    f = zp_classify(&t, &P, &k, &m, &su)
    return f, k, m, su


def oracle_trick_winner(list plays, int suit, int rank):
    cdef ZPTrump t
    cdef Hand hs[12]
    cdef Hand h
    cdef int k = 0, m = 0, su = 0, f
    if not 1 <= len(plays) <= 12:
        raise ConfigError("zhao_pengyou: a trick has 1 to 12 plays")
    zp_set_trump(&t, suit, rank)
    for i, p in enumerate(plays):
        cards_to_hand(p, &h)
        hs[i] = h
    f = zp_classify(&t, &hs[0], &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: the lead {plays[0]!r} is not a valid lead")
    L = hand_size(&hs[0])
    for i in range(1, len(plays)):
        if hand_size(&hs[i]) != L:
            raise IllegalActionError(f"zhao_pengyou: play {plays[i]!r} has {hand_size(&hs[i])} cards, the lead has {L}")
    return zp_trick_winner(&t, hs, len(plays), f, k, m, su)


cdef void _enum_follows(const ZPTrump* t, const ZPConfig* c, Hand* rest, Hand* cur, int cur_n, int fmt, int k,
                        int m, int suit, int L, int last, list out):
    cdef ActionSet a
    cdef int j
    if cur_n == L:
        out.append(hand_to_list(cur))
        return
    as_clear(&a, 6)
    follow_actions(t, c, rest, cur, cur_n, fmt, k, m, suit, L, &a)
    for j in range(last, 54):
        if as_has(&a, ZP_A_ADD + j):
            hand_remove(rest, j)
            hand_add(cur, j)
            _enum_follows(t, c, rest, cur, cur_n + 1, fmt, k, m, suit, L, j, out)
            hand_remove(cur, j)
            hand_add(rest, j)


def oracle_legal_follows(list hand, list lead, int suit, int rank, bint partial_sets=False):
    """Every distinct legal follow, enumerated through the engine's factored ADD legality
    (identities in ascending order, so each multiset once); each checked by zp_follow_ok."""
    cdef ZPTrump t
    cdef ZPConfig c
    cdef Hand H, P, cur, play
    cdef int k = 0, m = 0, su = 0, f
    memset(&c, 0, sizeof(ZPConfig))
    c.partial_sets = partial_sets
    zp_set_trump(&t, suit, rank)
    cards_to_hand(hand, &H)
    cards_to_hand(lead, &P)
    f = zp_classify(&t, &P, &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {lead!r} is not a valid lead")
    L = hand_size(&P)
    if hand_size(&H) < L:
        raise IllegalActionError(f"zhao_pengyou: the hand has fewer cards ({hand_size(&H)}) than the lead ({L})")
    hand_clear(&cur)
    out = []
    _enum_follows(&t, &c, &H, &cur, 0, f, k, m, su, L, 0, out)
    cards_to_hand(hand, &H)
    for pl in out:
        cards_to_hand(pl, &play)
        assert zp_follow_ok(&t, &c, &H, &play, f, k, m, su, L), (pl, "factored and whole-play rules disagree")
    return out


def oracle_follow_ok(list hand, list lead, list play, int suit, int rank, bint partial_sets=False):
    cdef ZPTrump t
    cdef ZPConfig c
    cdef Hand H, P, Q
    cdef int k = 0, m = 0, su = 0, f
    memset(&c, 0, sizeof(ZPConfig))
    c.partial_sets = partial_sets
    zp_set_trump(&t, suit, rank)
    cards_to_hand(hand, &H)
    cards_to_hand(lead, &P)
    cards_to_hand(play, &Q)
    f = zp_classify(&t, &P, &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {lead!r} is not a valid lead")
    return bool(zp_follow_ok(&t, &c, &H, &Q, f, k, m, su, hand_size(&P)))


def oracle_strength(str card, int suit, int rank):
    cdef ZPTrump t
    zp_set_trump(&t, suit, rank)
    k = parse_card(card)
    return ("T" if t.eff[k] == ZP_TRUMP else SUITS[t.eff[k]]), t.strength[k]
