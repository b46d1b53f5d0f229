"""Tien Gow greedy agent: the vtable's `greedy` entry (vt.greedy).

It treats a combination as "sure" when the tiles it has not seen cannot form a
stronger one of the same category. Leading, it plays the largest sure multi-tile combination it
holds; else, with no trick yet, its weakest sure single; else its weakest single (keeping its
strong tiles for the final trick). Following, it beats in the final trick with its strongest
beating combination; before it, it beats with its weakest sure beating combination, or with its
weakest beating combination while it has no trick yet (early death); otherwise it discards its k
weakest tiles (civil by rank, military by row, on one scale).
"""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport bit_low, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size
from cardsim.core._actions cimport ActionSet, as_first, as_has
from cardsim.games.tien_gow._rules cimport (TGRules, TG_IDS, TG_CIVIL, TG_NP, combo_within, combo_missing,
                                           combo_beats)
from cardsim.games.tien_gow._state cimport (TGState, TGConfig, TG_A_DOWN, TG_A_COMMIT, merged, trick_size,
                                            death_blocks)


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef inline int tile_value(const TGRules* r, int k) noexcept nogil:
    """One scale for both suits: civil strength /11, military strength /12 (1.0 = the top tile),
    as the integer 132 times that (civil strength * 12, military * 11): the same order as the
    quotients, ties included (a/11 < b/12 iff 12a < 11b; distinct quotients of strengths <= 12
    differ by >= 1/132, far more than a double's rounding), without a division."""
    return r.combo[k].strength * (12 if k < TG_CIVIL else 11)

cdef inline void count_in(uint64_t* seen, uint64_t* dup, const Hand* h) noexcept nogil:
    """Add the multiset h (two layers: at most two copies) to the seen copies per identity, kept
    as two masks: seen (at least once) and dup (at least twice). A second copy is one already
    seen, or h's own second copy (layer 1, within layer 0)."""
    dup[0] |= (seen[0] & h.layer[0]) | h.layer[1]
    seen[0] |= h.layer[0]

cdef Hand unseen_tiles(const TGState* s, int p) noexcept nogil:
    """Tiles p has not seen: the set minus its holding, every face-up play and its own discards
    (the seen copies per identity at once: seen = once or more, dup = twice or more)."""
    cdef uint64_t seen = 0, dup = 0, civil = card_bit(TG_CIVIL) - 1, ids = card_bit(TG_IDS) - 1
    cdef int t, q, face, nt
    cdef Hand u
    count_in(&seen, &dup, &s.hand[p])
    if s.turn == p:
        count_in(&seen, &dup, &s.stage.cards)
    nt = s.ntrick + 1 if s.ntrick < 8 else 8      # later tricks have no tiles yet
    for t in range(nt):
        face = s.tface[t] | (1 << p)
        for q in range(TG_NP):
            if (face >> q) & 1:
                count_in(&seen, &dup, &s.tplay[t][q])
    hand_clear(&u)
    u.layer[0] = (civil & ~dup) | (ids & ~civil & ~seen)     # civil: seen < 2; military: none seen
    u.layer[1] = civil & ~seen                               # civil: none seen
    return u

cdef bint is_sure(const TGRules* r, int ci, const Hand* unseen) noexcept nogil:
    """No combination of the unseen tiles beats ci. Within ci's category the combinations that
    beat it are the stronger ones (combo_beats), a prefix of by_cat[cat] (strongest first,
    tg_rules_init; tests/games/tien_gow pin the order), so the scan stops at the first one not
    stronger; a Supreme is beaten by none (its category holds it alone)."""
    cdef int i, cj, cat = r.combo[ci].cat, st = r.combo[ci].strength
    if r.combo[ci].size == 1:
        return (unseen.layer[0] & r.beat_single[ci]) == 0
    for i in range(r.by_cat_n[cat]):
        cj = r.by_cat[cat][i]
        if r.combo[cj].strength <= st:
            break
        if combo_within(&r.combo[cj], unseen):
            return False
    return not (combo_beats(r, r.supreme, ci) and combo_within(&r.combo[r.supreme], unseen))

cdef int weakest_single(const TGRules* r, const Hand* h, const Hand* unseen, bint sure_only) noexcept nogil:
    cdef uint64_t m = h.layer[0]
    cdef int k, best = -1, v, bv = 1 << 30
    while m:
        k = bit_low(m)
        m &= m - 1
        if sure_only and not is_sure(r, k, unseen):
            continue
        v = tile_value(r, k)
        if v < bv:
            bv = v
            best = k
    return best

cdef void weakest_tiles(const TGRules* r, const Hand* h, int k, Hand* out) noexcept nogil:
    """The k weakest tiles of h (by tile_value) into out."""
    cdef Hand rest = h[0]
    cdef int i, t
    hand_clear(out)
    for i in range(k):
        t = weakest_single(r, &rest, &rest, False)
        hand_remove(&rest, t)
        hand_add(out, t)

ctypedef struct Unseen:
    Hand u                   # unseen_tiles(s, p), once ready
    bint ready

cdef inline const Hand* unseen_of(const TGState* s, int p, Unseen* x) noexcept nogil:
    """unseen_tiles(s, p), computed on first use: a lead holding no multi-tile combination
    after its first trick, a follow that is a discard or in the final trick, never reads it."""
    if not x.ready:
        x.u = unseen_tiles(s, p)
        x.ready = True
    return &x.u

cdef inline int follow_pick(const TGState* s, const TGConfig* c, int ci, int k, bint final,
                            Unseen* unseen, const Hand* full, int target, double* bs) noexcept nogil:
    """One step of the follower's scan over the combinations (in index order): the new target.
    Before the final trick: a weaker beating combination than target's that is sure (or the
    seat has no trick yet, or must beat and has no target); the tests are pure, so the cheap
    ones come first and is_sure (with the unseen tiles) runs only when it decides."""
    cdef const TGRules* r = &c.rules
    cdef int p = s.turn
    if r.combo[ci].size != k or not combo_beats(r, ci, s.high_combo) or not combo_within(&r.combo[ci], full):
        return target
    if final:
        if ci == r.supreme or r.combo[ci].strength > bs[0]:
            bs[0] = 1e9 if ci == r.supreme else r.combo[ci].strength
            return ci
    elif target < 0 or r.combo[ci].strength < r.combo[target].strength:
        if s.tricks[p] == 0 or (c.must_beat and target < 0) or is_sure(r, ci, unseen_of(s, p, unseen)):
            return ci
    return target

cdef int tg_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const TGState* s = <const TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef const TGRules* r = &c.rules
    cdef int p = s.turn, ci, k, target = -1, best_size = 0, a, i, hc, sup, hs
    cdef double bs
    cdef Hand full, want
    cdef Unseen lazy
    cdef uint64_t miss, m
    cdef bint face_up = True, final
    if n_legal == 1:
        return as_first(legal, 1)
    full = merged(&s.hand[p], &s.stage.cards)
    lazy.ready = False
    if s.cur.n == 0:
        # the largest sure multi-tile combination within full, the lowest index among equals
        # (what a scan of r.combo in index order keeps), found from the tiles held (by_tile)
        m = full.layer[0]
        while m:
            k = bit_low(m)
            m &= m - 1
            # none fits in full unless it holds another identity of them or a second k
            if (full.layer[0] & ~card_bit(k) & r.reach[k]) == 0 and not (full.layer[1] >> k) & 1:
                continue
            for i in range(r.by_tile_n[k]):
                ci = r.by_tile[k][i]
                if ((r.combo[ci].size > best_size or (r.combo[ci].size == best_size and ci < target))
                        and combo_within(&r.combo[ci], &full) and is_sure(r, ci, unseen_of(s, p, &lazy))):
                    best_size = r.combo[ci].size
                    target = ci
        if target < 0 and s.tricks[p] == 0:
            target = weakest_single(r, &full, unseen_of(s, p, &lazy), True)
        if target < 0:
            target = weakest_single(r, &full, &full, False)      # (no is_sure: unseen unread)
    else:
        k = trick_size(s, c)
        final = hand_size(&full) == k
        if not death_blocks(s, c, p):
            # Only the high play's category (a block of r.combo listed in index order in
            # by_cat) and the Supreme can beat it: those, in index order, are the combinations
            # of the full scan that pass its tests, so the choice is the same.
            bs = -1.0
            hc = r.combo[s.high_combo].cat
            sup = r.supreme
            if k == 1:
                # a single: the scan's combinations that pass are the stronger singles of its
                # suit held (beat_single), in index order; the others leave target as it is
                m = full.layer[0] & r.beat_single[s.high_combo]
                while m:
                    ci = bit_low(m)
                    m &= m - 1
                    target = follow_pick(s, c, ci, k, final, &lazy, &full, target, &bs)
            else:
                # by_cat[hc] is strongest first (tg_rules_init), so the combinations of hc that beat
                # the high play are a prefix: the scan stops at the first one not stronger (it and
                # the rest leave target as it is), then the Supreme if its turn had not come yet
                hs = r.combo[s.high_combo].strength
                for i in range(r.by_cat_n[hc]):
                    ci = r.by_cat[hc][i]
                    if sup >= 0 and sup < ci:                  # the Supreme comes first
                        target = follow_pick(s, c, sup, k, final, &lazy, &full, target, &bs)
                        sup = -1
                    if r.combo[ci].strength <= hs:
                        break
                    target = follow_pick(s, c, ci, k, final, &lazy, &full, target, &bs)
                if sup >= 0:
                    target = follow_pick(s, c, sup, k, final, &lazy, &full, target, &bs)
        if target < 0:
            face_up = False
            weakest_tiles(r, &full, k, &want)
    if face_up:
        want.layer[0] = r.combo[target].one
        want.layer[1] = r.combo[target].two
        if s.stage.cards.layer[0] == want.layer[0] and s.stage.cards.layer[1] == want.layer[1]:
            a = TG_A_COMMIT
        else:
            miss = combo_missing(&r.combo[target], &s.stage.cards) & s.hand[p].layer[0]
            a = bit_low(miss) if miss else -1
    else:
        miss = ((want.layer[0] & ~s.stage.cards.layer[0]) | (want.layer[1] & ~s.stage.cards.layer[1])) & s.hand[p].layer[0]
        a = TG_A_DOWN + bit_low(miss) if miss else -1
    if a < 0 or not as_has(legal, a):
        return as_first(legal, 1)
    return a


