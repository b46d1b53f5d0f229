"""Zhao Pengyou 找朋友: the greedy agent (the default agent wherever none is given).

Greedy agent: declares as soon as it may with its longest suit when at least a third of its
cards would be trumps, otherwise at the last window (a no-trump declaration, where allowed, only
when no suit can be declared, on the same rule); discards its lowest non-trump, non-point
cards from its shortest suits; calls the first copy of plain aces (kings where the trump rank is
A) it does not hold, shortest suits first; leads all copies of a master card of a plain suit
(no unseen stronger card), else a trump pair, else all copies of its lowest card of its longest
plain suit; follows a single lead with the cheapest winning card unless its known team already
wins, when it dumps its best point card; for multi-card follows it adds point cards when its team
wins and its weakest cards otherwise.
"""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport bit_low
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_count, hand_size, hand_size_in
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.core._trick cimport trick_empty
from cardsim.games.zhao_pengyou._rules cimport ZPConfig, ZP_NPLAIN, ZP_SJK, ZP_BJK, ZP_TRUMP, id_points, hand_points, rank_mask
from cardsim.games.zhao_pengyou._state cimport (
    ZPState, ZP_A_ADD, ZP_A_COMMIT, ZP_A_PASS, ZP_A_DECLARE, ZP_A_DECLARE_NT, ZP_A_DISCARD, ZP_A_CALL, ZP_ACTION_WORDS, ZP_PH_DRAW,
    ZP_PH_KITTY, ZP_PH_CALL, trick_winner_so_far)


if ZP_A_ADD != 0:      # greedy_follow reads the legal ADDs as bits 0..53 of w[0]
    raise ImportError("zhao_pengyou._agent: ADD k must be action k")

# id_points(k) per identity, read by the scans below as one load (filled from the rule at import)
cdef int PTS[64]
for _k in range(64):
    PTS[_k] = id_points(_k) if _k < 54 else 0


cdef inline bint known_mate(const ZPState* s, int p, int q) noexcept nogil:
    """Does p know q to be on its team? DECL members know DECL; others assume that everyone not
    known to be in DECL is with them."""
    if (s.decl_mask >> p) & 1:
        return (s.decl_mask >> q) & 1
    return not ((s.decl_mask >> q) & 1)

cdef int greedy_draw(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, su, best = -1, bn = -1, cnt, size, ntr
    cdef uint64_t rm = rank_mask(s.rank[p])
    cdef bint last = s.deck_pos >= s.deck_len - c.kitty
    size = hand_size(&s.hand[p])
    if size < 5 and not last:
        return ZP_A_PASS        # every declaration below needs 5 cards or the last window
    ntr = hand_size_in(&s.hand[p], rm | ((<uint64_t>3) << ZP_NPLAIN))     # jokers and trump-rank cards
    for su in range(4):
        if as_has(legal, ZP_A_DECLARE + su):
            cnt = hand_size_in(&s.hand[p], (<uint64_t>0x1FFF) << (13 * su)) + ntr
            if cnt > bn:
                bn = cnt
                best = su
    if best < 0 and as_has(legal, ZP_A_DECLARE_NT):
        # no suit to declare: a no-trump deal when its trumps (jokers, trump-rank cards) would be
        # a third of the hand, or at the last window
        cnt = ntr
        if (3 * cnt >= size and size >= 5) or last:
            return ZP_A_DECLARE_NT
        return ZP_A_PASS
    if best < 0:
        return ZP_A_PASS
    if (3 * bn >= size and size >= 5) or last:
        return ZP_A_DECLARE + best
    return ZP_A_PASS

cdef inline void suit_lengths(const ZPState* s, int p, int* slen) noexcept nogil:
    """slen[e]: cards of p's hand in effective suit e (0..4)."""
    cdef int e
    for e in range(5):
        slen[e] = hand_size_in(&s.hand[p], s.tr.smask[e])

cdef inline int discard_score(const ZPState* s, int p, int k, const int* slen) noexcept nogil:
    cdef int sc = s.tr.strength[k]
    if s.tr.eff[k] == ZP_TRUMP:
        sc += 1000
    sc += 50 * PTS[k]
    if s.tr.eff[k] != ZP_TRUMP:
        sc += 4 * slen[s.tr.eff[k]]
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
    return as_first(legal, ZP_ACTION_WORDS)

cdef int greedy_lead(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, k, best = -1, bs = -999, sc, su, ln, held
    cdef int slen[5]
    cdef uint64_t ids
    if s.cur.n > 0:
        k = bit_low(s.cur.cards.layer[0])
        if as_has(legal, ZP_A_ADD + k):
            return ZP_A_ADD + k
        if as_has(legal, ZP_A_COMMIT):
            return ZP_A_COMMIT
        return as_first(legal, ZP_ACTION_WORDS)
    ids = s.hand[p].layer[0]
    suit_lengths(s, p, slen)
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        su = s.tr.eff[k]
        held = hand_count(&s.hand[p], k)
        if su != ZP_TRUMP:
            ln = slen[su]
            if s.tr.strength[k] >= 11 and is_master_copies(s, c, p, k):
                sc = 300 + 20 * held + s.tr.strength[k]
            else:
                sc = 100 + 3 * ln - s.tr.strength[k] - 5 * PTS[k] + 10 * (held - 1)
        else:
            if held >= 2 and (s.decl_mask >> p) & 1:
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

cdef int greedy_follow(const ZPState* s, const ZPConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, w, k, best = -1, bs = -99999, sc, pts_trick = s.trick_pts, i, e
    cdef bint mate_wins, wins
    cdef Hand one
    # the identities held whose ADD is legal (ADD k is action k: bits 0..53 of w[0]), so the scans
    # below visit only those
    cdef uint64_t ids = s.hand[p].layer[0] & legal.w[0]
    w = trick_winner_so_far(s, c, NULL)
    mate_wins = known_mate(s, p, w)
    if s.lead_len == 1:
        while ids:
            k = bit_low(ids)
            ids &= ids - 1
            if mate_wins:
                sc = 100 * PTS[k] - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
                if sc > bs:
                    bs = sc
                    best = k
                continue
            if c.mixed:
                hand_clear(&one)
                hand_add(&one, k)
                wins = trick_winner_so_far(s, c, &one) == p
            else:
                # one card to a SINGLE lead wins iff its key beats the winner's (trick_winner_so_far)
                e = s.tr.eff[k]
                wins = (100 + s.tr.strength[k] if e == ZP_TRUMP
                        else (s.tr.strength[k] if e == s.lead_suit else -1)) > s.tw_key
            if wins and (pts_trick > 0 or PTS[k] > 0 or s.tr.eff[k] != ZP_TRUMP):
                sc = 5000 - s.tr.strength[k] - (100 if s.tr.eff[k] == ZP_TRUMP else 0) + 10 * PTS[k]
            else:
                sc = -100 * PTS[k] - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
            if sc > bs:
                bs = sc
                best = k
        return ZP_A_ADD + best
    while ids:
        k = bit_low(ids)
        ids &= ids - 1
        if mate_wins:
            sc = 100 * PTS[k] - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
        else:
            sc = -100 * PTS[k] - s.tr.strength[k] - (200 if s.tr.eff[k] == ZP_TRUMP else 0)
        if (s.cur.cards.layer[0] >> k) & 1:         # copies already in the follow
            sc += 30 * hand_count(&s.cur.cards, k)
        if sc > bs:
            bs = sc
            best = k
    return ZP_A_ADD + best

cdef int zp_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int k, best = -1, bs = 1 << 30, sc
    cdef int slen[5]
    cdef uint64_t ids
    if s.phase == ZP_PH_DRAW:
        return greedy_draw(s, c, legal)
    if s.phase == ZP_PH_KITTY:
        ids = s.hand[s.turn].layer[0]
        suit_lengths(s, s.turn, slen)
        while ids:
            k = bit_low(ids)
            ids &= ids - 1
            sc = discard_score(s, s.turn, k, slen)
            if sc < bs:
                bs = sc
                best = k
        return ZP_A_DISCARD + best
    if s.phase == ZP_PH_CALL:
        return greedy_call(s, c, legal)
    if trick_empty(&s.rec):
        return greedy_lead(s, c, legal)
    return greedy_follow(s, c, legal)
