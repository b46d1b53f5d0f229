"""Hakka Six Tigers: the greedy agent (vt.greedy); rules as implemented: docs/rules/six_tigers.md.

Greedy agent: the dealer always declares (it costs nothing and blocks a special player); a
non-dealer declares with at least 4 old cards, or 3 and a run or set. It claims whenever it may.
It leads the largest play that no unseen cards can beat, preferring non-old cards (an old card
already counts while held); otherwise its longest run or set, else its lowest allowed single.
Following, it beats with the cheapest beating play (fewest old cards, lowest strength); it
discards its lowest-valued cards (number, old cards +30).
"""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, bit_below, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_first
from cardsim.games.six_tigers._rules cimport (
    STConfig, STPlay, ST_MAX_PLAYS, st_full, st_number, above, st_pattern, st_single_leads,
    st_enum_leads, st_enum_beats, st_has_beat)
from cardsim.games.six_tigers._state cimport (
    STState, ST_PH_DECLARE, ST_PH_CLAIM, ST_STAGE_DISCARD, ST_A_PLAY, ST_A_DISCARD, ST_A_COMMIT,
    ST_A_DECLARE, ST_A_PASS, ST_A_CLAIM, ST_A_CONTINUE, old_now, lead_list, lead_list_with)


# st_number per card, read as one load (filled from the rule at import; 0 past the cards)
cdef int NUMBER[64]
for _c in range(64):
    NUMBER[_c] = st_number(_c) if (st_full() >> _c) & 1 else 0

cdef inline int card_value(int c, uint64_t old) noexcept nogil:
    """How much a card is worth keeping: its number, +30 when old (it counts while held)."""
    return NUMBER[c] + (30 if (old >> c) & 1 else 0)

cdef inline bint fits_stage(uint64_t L, uint64_t P) noexcept nogil:
    """L extends the staged cards P in ascending order."""
    if P == 0:
        return True
    return (L & P) == P and (L & ~P & bit_below(bit_high(P) + 1)) == 0

cdef uint64_t greedy_plan(const STState* s, const STConfig* c, bint* face_down) noexcept nogil:
    """The whole play the greedy agent wants (see the module docstring)."""
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef int n, i, best = -1, sc, bs = -1000000, need, cb, nk
    cdef int keys[64]
    cdef int p = s.turn
    cdef uint64_t hand = s.hand[p], P = s.stg.cards.layer[0], old = old_now(s, c), unseen, plan, m, mm
    cdef STPlay pl
    face_down[0] = False
    if s.trick.n == 0:
        unseen = st_full() & ~hand & ~(s.up[0] | s.up[1] | s.up[2] | s.up[3]) & ~s.down[p]
        # with cards staged, only the leads that can hold them: the same ones, in the same order
        n = lead_list_with(s, c, P, buf) if P else lead_list(s, c, buf)
        for i in range(n):
            if not fits_stage(buf[i], P):
                continue
            st_pattern(buf[i], &c.rules, &pl)
            if not st_has_beat(unseen, &pl, &c.rules):
                sc = 1000 + 10 * pl.size - 9 * cs_popcount(buf[i] & old)
            elif pl.size >= 3:
                sc = 500 + 10 * pl.size - pl.key
            else:
                sc = 100 - card_value(bit_low(buf[i]), old)
            if sc > bs:
                bs = sc
                best = i
        return buf[best] if best >= 0 else P
    if s.stg.kind != ST_STAGE_DISCARD:
        n = st_enum_beats(hand, &s.high, &c.rules, buf)
        for i in range(n):
            if not fits_stage(buf[i], P):
                continue
            st_pattern(buf[i], &c.rules, &pl)
            sc = -100 * cs_popcount(buf[i] & old) - pl.key
            if sc > bs:
                bs = sc
                best = i
        if best >= 0:
            return buf[best]
    face_down[0] = True
    plan = P
    m = hand & ~P
    if P:
        m &= above(bit_high(P))
    need = s.k - s.stg.n
    # the need cards of m of the lowest card_value, the lower card first among equals (what a
    # scan of m in ascending order for each card keeps): each card's value once, as the unique
    # key value * 64 + card, then the smallest keys
    nk = 0
    mm = m
    while mm:
        i = bit_low(mm)
        mm &= mm - 1
        keys[nk] = (card_value(i, old) << 6) | i
        nk += 1
    while need > 0 and nk > 0:
        cb = 0
        for i in range(1, nk):
            if keys[i] < keys[cb]:
                cb = i
        plan |= card_bit(keys[cb] & 63)
        nk -= 1
        keys[cb] = keys[nk]
        need -= 1
    return plan

cdef int st_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const STState* s = <const STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef uint64_t old, plan, P
    cdef int olds, multi, a, i
    cdef bint down
    if n_legal == 1:
        return as_first(legal, 2)
    if s.phase == ST_PH_DECLARE:
        if s.turn == s.dealer:
            return ST_A_DECLARE
        old = old_now(s, c)
        olds = cs_popcount(s.hand[s.turn] & old)
        multi = st_enum_leads(s.hand[s.turn], old, False, &c.rules, buf) - cs_popcount(
            st_single_leads(s.hand[s.turn], old, False))
        return ST_A_DECLARE if (olds >= 4 or (olds >= 3 and multi > 0)) else ST_A_PASS
    if s.phase == ST_PH_CLAIM:
        return ST_A_CLAIM if (legal.w[ST_A_CLAIM >> 6] >> (ST_A_CLAIM & 63)) & 1 else ST_A_CONTINUE
    plan = greedy_plan(s, c, &down)
    P = s.stg.cards.layer[0]
    if plan == P:
        a = ST_A_COMMIT
    else:
        a = (ST_A_DISCARD if down else ST_A_PLAY) + bit_low(plan & ~P)
    if (legal.w[a >> 6] >> (a & 63)) & 1:
        return a
    return as_first(legal, 2)
