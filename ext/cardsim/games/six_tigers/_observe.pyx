"""Hakka Six Tigers: resample and the greedy agent (see the docstring of `_six_tigers` for the
policy; rules as implemented: docs/rules/six_tigers.md).

Resample (for observer p) redraws what p cannot see: the other hands (the dreamer's card
included), the aside card of the 3-player game and the other seats' face-down discards, trick
by trick, with the core resample policy. What p saw constrains the world: single-card
discards under must_beat become per-card bans (no higher card of the suit was held then);
everything else is checked by replaying the round in the candidate world (replay_ok). Cards
shown at the end stay where they are.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, uint8_t, int8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, bit_below
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._actions cimport ActionSet, as_first
from cardsim.core._staged cimport staged_clear
from cardsim.core._engine cimport State, GameSpec
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.games._six_tigers_rules cimport (
    STPlay, ST_MAX_PLAYS, PT_NONE, PT_SINGLE, st_bit, st_full, st_suit_mask, st_fixed_old, st_suit,
    st_number, st_old_mask, st_pattern, st_single_leads, st_enum_leads, st_enum_beats, st_has_beat)
from cardsim.games._six_tigers cimport (
    STState, STConfig, ST_PH_DECLARE, ST_PH_CLAIM, ST_PH_PLAY, ST_STAGE_DISCARD, ST_A_PLAY,
    ST_A_DISCARD, ST_A_COMMIT, ST_A_DECLARE, ST_A_PASS, ST_A_CLAIM, ST_A_CONTINUE, st_tigers,
    next_active, old_now, above, lead_list)


# ---------------------------------------------------------------------------------------------
# resampling: hidden cards are other hands, the aside card and others' face-down discards
# ---------------------------------------------------------------------------------------------
ctypedef struct WorldCtx:
    const STState* s         # the true state (its public record is what the observer saw)
    const STConfig* c
    int p                    # observer
    int nz                   # zones
    int8_t zseat[32]         # seat of zone z (-1 = the aside card)
    int8_t ztrick[32]        # trick of a face-down group, -1 = a hand / aside
    uint64_t pinned[4]       # hand cards shown at the end (stay where they are)

cdef void play_groups(const STState* s, uint64_t* down, uint64_t* up) noexcept nogil:
    """down[t*4 + q] / up[t*4 + q] = the cards seat q played face down / face up in trick t
    (the truth)."""
    cdef int i, t, q
    memset(down, 0, 48 * sizeof(uint64_t))
    memset(up, 0, 48 * sizeof(uint64_t))
    for i in range(37):
        t = s.card_trick[i]
        q = s.card_seat[i]
        if t >= 0:
            if (s.trick_down[t] >> q) & 1:
                down[t * 4 + q] |= st_bit(i)
            else:
                up[t * 4 + q] |= st_bit(i)

cdef uint64_t played_before(const STState* s) noexcept nogil:
    """Cards played before the first trick on record (a scenario's `played` cards: face up, in
    no trick): the replay starts with them played, as the true state's old cards do."""
    cdef uint64_t m = s.up[0] | s.up[1] | s.up[2] | s.up[3]
    cdef int i
    for i in range(37):
        if s.card_trick[i] >= 0:
            m &= ~st_bit(i)
    return m

cdef bint window_ok(const WorldCtx* w, int t, const uint64_t* h, const int* tr, uint64_t old) noexcept nogil:
    """The claim window after trick t (-1: before the first lead): under auto_claim nobody
    before the claimant (everybody, without a claim) had a count of 6; a claimant's count is
    the t scored."""
    cdef const STState* s = w.s
    cdef bint last = t == s.ntricks - 1
    cdef int q = s.dealer if t < 0 else s.trick_winner[t], i, cnt
    if not (w.c.auto_claim or (s.claimed and last)):
        return True
    for i in range(3):
        cnt = tr[q] + cs_popcount(h[q] & old)
        if s.claimed and last and q == s.winner:
            return cnt == s.t
        if w.c.auto_claim and cnt >= 6:
            return False
        q = next_active(s, q)
    return True

cdef bint replay_ok(const WorldCtx* w, const uint64_t* hands, const uint64_t* group) noexcept nogil:
    """Whether a candidate world explains everything the observer saw this round: no Five
    Tigers unless shown (§4.3); every single lead allowed by §5.2 under the world's old cards;
    every face-down discard made without a beat in hand when must_beat (X7); the observer's own
    old cards identical at every play (X9, all_played only); under auto_claim nobody reached 6
    at a window before the claim; a claimant's count equal to the t scored."""
    cdef const STState* s = w.s
    cdef const STConfig* c = w.c
    cdef uint64_t h[4]
    cdef uint64_t tg[48]
    cdef uint64_t ug[48]
    cdef uint64_t played_c = 0, played_t = 0, played_up = 0, P, Pt, old_c, old_t
    cdef int tr[4]
    cdef int q, t, i, nplays, win
    cdef bint fd, stars = not c.old_public
    cdef STPlay high
    if s.phase == ST_PH_DECLARE:
        return True
    play_groups(s, tg, ug)
    played_c = played_t = played_up = played_before(s)
    for q in range(4):
        h[q] = hands[q]
        tr[q] = s.tricks[q]                     # less the tricks on record, credited below
        for t in range(12):
            h[q] |= group[t * 4 + q] | ug[t * 4 + q]
    for t in range(s.ntricks):
        tr[s.trick_winner[t]] -= s.trick_k[t]
    if s.five_tigers:
        return True
    for i in range(3):
        if (h[s.order[i]] & st_tigers()) == st_tigers():
            return False
    if not window_ok(w, -1, h, tr, st_old_mask(played_c)):
        return False
    for t in range(s.ntricks + 1 if s.ntricks < 12 else 12):   # the trick in play, if any (12 after the last)
        nplays = 3 if t < s.ntricks else s.trick.n
        if t == s.ntricks and (s.phase != ST_PH_PLAY or nplays == 0):
            break
        q = s.trick_leader[t]
        high.type = PT_NONE
        for i in range(nplays):
            fd = (s.trick_down[t] >> q) & 1
            P = group[t * 4 + q] if fd else ug[t * 4 + q]
            Pt = tg[t * 4 + q] if fd else P
            old_c = st_old_mask(played_up if c.old_public else played_c)
            if stars:
                old_t = st_old_mask(played_t)
                if (old_c & h[w.p]) != (old_t & h[w.p]):
                    return False
            if i == 0:
                st_pattern(P, &c.rules, &high)
                if high.type == PT_SINGLE and not (P & st_single_leads(h[q], old_c, q == s.special)):
                    return False
            elif fd:
                if c.must_beat and st_has_beat(h[q], &high, &c.rules):
                    return False
            else:
                st_pattern(P, &c.rules, &high)
            h[q] &= ~P
            played_c |= P
            played_t |= Pt
            if not fd:
                played_up |= P
            q = next_active(s, q)
        if t == s.ntricks:
            break
        win = s.trick_winner[t]
        tr[win] += s.trick_k[t]
        if h[win] == 0:
            break                   # the last trick: its window (X16) sees only public tricks
        if not window_ok(w, t, h, tr, st_old_mask(played_up if c.old_public else played_c)):
            return False
    if stars:
        if (st_old_mask(played_c) & h[w.p]) != (st_old_mask(played_t) & h[w.p]):
            return False
    return True

cdef void world_of(const WorldCtx* w, const card_t* cards, const uint8_t* dest, int n,
                   uint64_t* hands, uint64_t* group) noexcept nogil:
    """Candidate hands and face-down groups: the observer's own cards and groups are the truth,
    pinned cards stay, hidden cards go to their zones."""
    cdef int i, z, q
    cdef uint64_t up[48]
    play_groups(w.s, group, up)
    for q in range(4):
        hands[q] = w.s.hand[q] if q == w.p else w.pinned[q]
        if q != w.p:
            for i in range(12):
                group[i * 4 + q] = 0
    for i in range(n):
        z = dest[i]
        if w.zseat[z] < 0:
            continue
        if w.ztrick[z] < 0:
            hands[w.zseat[z]] |= st_bit(cards[i])
        else:
            group[w.ztrick[z] * 4 + w.zseat[z]] |= st_bit(cards[i])

cdef bint world_check(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    cdef const WorldCtx* w = <const WorldCtx*>ctx
    cdef uint64_t hands[4]
    cdef uint64_t group[48]
    world_of(w, cards, dest, n, hands, group)
    return replay_ok(w, hands, group)

cdef void star_ban(const STState* s, const WorldCtx* w, uint64_t hp, uint64_t played, uint64_t hidden,
                   uint32_t ok, uint32_t* allowed) noexcept nogil:
    """At one moment: where p's highest card x of a suit is old (and not a fixed old card),
    every card of that suit above x was played by then, so a hidden one lies in one of the
    face-down groups `ok` (those played before this moment)."""
    cdef uint64_t old = st_old_mask(played), ps, m
    cdef int suit, x
    for suit in range(4):
        ps = hp & st_suit_mask(suit) & ~st_fixed_old()
        if not ps:
            continue
        x = bit_high(ps)
        if not (old >> x) & 1:
            continue
        m = hidden & st_suit_mask(suit) & above(x)
        while m:
            allowed[bit_low(m)] &= ok
            m &= m - 1

cdef void star_bans(const STState* s, const WorldCtx* w, uint64_t hidden, uint32_t* allowed) noexcept nogil:
    """Per-card form of the observer's own old cards (X9, all_played): replay the round's plays
    in order and apply star_ban before every play and at the present moment."""
    cdef uint64_t tg[48]
    cdef uint64_t ug[48]
    cdef uint64_t hp, played = played_before(s), P
    cdef int pos[32]
    cdef int t, i, q, z, nplays, p = w.p
    cdef uint32_t ok
    play_groups(s, tg, ug)
    hp = s.hand[p]
    for t in range(12):
        hp |= tg[t * 4 + p] | ug[t * 4 + p]
    for z in range(w.nz):
        pos[z] = -1
        if w.ztrick[z] >= 0:
            q = s.trick_leader[w.ztrick[z]]
            for i in range(3):
                if q == w.zseat[z]:
                    pos[z] = i
                q = next_active(s, q)
    for t in range(s.ntricks + 1 if s.ntricks < 12 else 12):   # the trick in play, if any (12 after the last)
        if s.trick_leader[t] < 0:
            break
        nplays = 3 if t < s.ntricks else s.trick.n
        q = s.trick_leader[t]
        for i in range(nplays):
            ok = 0
            for z in range(w.nz):
                if w.ztrick[z] >= 0 and (w.ztrick[z] < t or (w.ztrick[z] == t and pos[z] < i)):
                    ok |= <uint32_t>1 << z
            star_ban(s, w, hp, played, hidden, ok, allowed)
            P = tg[t * 4 + q] | ug[t * 4 + q]
            if q == p:
                hp &= ~P
            played |= P
            q = next_active(s, q)
    ok = 0
    for z in range(w.nz):
        if w.ztrick[z] >= 0:
            ok |= <uint32_t>1 << z
    star_ban(s, w, hp, played, hidden, ok, allowed)

cdef enum:
    # Constrained deals before reporting failure: 8x the core default. Multi-card discards
    # (no beating run or set was held) and the observer's old cards at every play are checked
    # only by the replay, so a hard position can need a few thousand deals; the default budget
    # failed about 1 resample in 4,000 on random play, this one none in 100,000.
    CONSTRAINED_TRIES = 8 * RESAMPLE_CONSTRAINED_TRIES

cdef int st_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see (other hands, the aside card, others' face-down discards) with
    the core resample policy: per-card constraints from single-card discards under must_beat
    (no higher card of the led suit was held then), and the replay check of everything else
    (replay_ok). A staged play of another seat is private and folds back into its hand. The
    deal stream is replaced. Returns 0 when no consistent world was found."""
    cdef STState* s = <STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef STState truth
    cdef WorldCtx w
    cdef card_t cards[37]
    cdef uint8_t dest[37]
    cdef uint32_t allowed[37]
    cdef int room[32]
    cdef uint64_t hidden = 0, m
    cdef uint64_t hands[4]
    cdef uint64_t group[48]
    cdef uint32_t ban
    cdef uint64_t upg[48]
    cdef int q, t, n = 0, z, i, hc, lead, r
    if s.turn != p and s.phase == ST_PH_PLAY:
        staged_clear(&s.stg)
    memcpy(&truth, s, sizeof(STState))
    w.s = &truth
    w.c = c
    w.p = p
    w.nz = 0
    for q in range(4):
        w.pinned[q] = 0
        if q == p or q >= c.nplayers:
            continue
        w.pinned[q] = s.hand[q] & s.shown
        w.zseat[w.nz] = q
        w.ztrick[w.nz] = -1
        room[w.nz] = cs_popcount(s.hand[q] & ~s.shown)
        hidden |= s.hand[q] & ~s.shown
        w.nz += 1
    if s.aside:
        w.zseat[w.nz] = -1
        w.ztrick[w.nz] = -1
        room[w.nz] = 1
        hidden |= s.aside
        w.nz += 1
    play_groups(s, group, upg)
    for t in range(12):
        for q in range(4):
            if q != p and group[t * 4 + q]:
                w.zseat[w.nz] = q
                w.ztrick[w.nz] = t
                room[w.nz] = cs_popcount(group[t * 4 + q])
                hidden |= group[t * 4 + q]
                w.nz += 1
    m = hidden
    while m:
        cards[n] = bit_low(m)
        allowed[cards[n]] = <uint32_t>((<uint64_t>1 << w.nz) - 1)
        m &= m - 1
        n += 1
    if c.must_beat:
        # single-card discards: the discarder held no higher card of the high card's suit
        for t in range(s.ntricks + 1 if s.ntricks < 12 else 12):   # the trick in play, if any (12 after the last)
            if s.trick_k[t] != 1 or s.trick_leader[t] < 0:
                continue
            lead = s.trick_leader[t]
            hc = -1
            q = lead
            for i in range(3):
                if (s.trick_down[t] >> q) & 1:
                    if hc >= 0 and q != p and not (st_bit(hc) & st_fixed_old()):
                        ban = 0
                        for z in range(w.nz):
                            if w.zseat[z] == q and (w.ztrick[z] < 0 or w.ztrick[z] >= t):
                                ban |= <uint32_t>1 << z
                        m = hidden & st_suit_mask(st_suit(hc)) & above(hc)
                        while m:
                            allowed[bit_low(m)] &= ~ban
                            m &= m - 1
                else:
                    for z in range(37):
                        if s.card_trick[z] == t and s.card_seat[z] == q:
                            hc = z
                q = next_active(s, q)
    if not c.old_public:
        star_bans(s, &w, hidden, allowed)
    r = resample_zones(cards, n, allowed, room, w.nz, dest, rng, world_check, &w,
                       RESAMPLE_EXACT_TRIES, CONSTRAINED_TRIES)
    if not r:
        return 0
    world_of(&w, cards, dest, n, hands, group)
    for q in range(4):
        if q == p or q >= c.nplayers:
            continue
        s.hand[q] = hands[q]
        s.down[q] = 0
        if (s.cur_down >> q) & 1:
            s.cur[q] = 0
    for i in range(n):
        if (s.aside >> cards[i]) & 1 or s.card_seat[cards[i]] >= 0:
            s.card_trick[cards[i]] = -1
            s.card_seat[cards[i]] = -1
    s.aside = 0
    for i in range(n):
        z = dest[i]
        if w.zseat[z] < 0:
            s.aside = st_bit(cards[i])
        elif w.ztrick[z] >= 0:
            q = w.zseat[z]
            t = w.ztrick[z]
            s.down[q] |= st_bit(cards[i])
            s.card_trick[cards[i]] = t
            s.card_seat[cards[i]] = q
            if t == s.ntricks and s.phase == ST_PH_PLAY and s.trick.n > 0:
                s.cur[q] |= st_bit(cards[i])
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef inline int card_value(int c, uint64_t old) noexcept nogil:
    """How much a card is worth keeping: its number, +30 when old (it counts while held)."""
    return st_number(c) + (30 if (old >> c) & 1 else 0)

cdef inline bint fits_stage(uint64_t L, uint64_t P) noexcept nogil:
    """L extends the staged cards P in ascending order."""
    if P == 0:
        return True
    return (L & P) == P and (L & ~P & bit_below(bit_high(P) + 1)) == 0

cdef uint64_t greedy_plan(const STState* s, const STConfig* c, bint* face_down) noexcept nogil:
    """The whole play the greedy agent wants (see the module docstring)."""
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef int n, i, best = -1, sc, bs = -1000000, need, cb, bv, v
    cdef int p = s.turn
    cdef uint64_t hand = s.hand[p], P = s.stg.cards.layer[0], old = old_now(s, c), unseen, plan, m
    cdef STPlay pl
    face_down[0] = False
    if s.trick.n == 0:
        unseen = st_full() & ~hand & ~(s.up[0] | s.up[1] | s.up[2] | s.up[3]) & ~s.down[p]
        n = lead_list(s, c, buf)
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
    while need > 0 and m:
        cb = -1
        bv = 1000
        i = 0
        while i < 37:
            if (m >> i) & 1:
                v = card_value(i, old)
                if v < bv:
                    bv = v
                    cb = i
            i += 1
        plan |= st_bit(cb)
        m &= ~st_bit(cb)
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


# ---- test hook: the true world must always pass the replay check ---------------------------------
def _true_world_ok(s, p):
    """replay_ok on the state's own hidden cards, for observer p (a test hook: a resample can
    only succeed if the truth is consistent). s: a six_tigers State, p: a seat."""
    from cardsim.errors import ConfigError
    from cardsim.core._engine import check_int
    if not isinstance(s, State) or (<State>s).spec.name != "six_tigers":
        raise ConfigError("six_tigers: _true_world_ok needs a six_tigers State")
    p = check_int(p, "six_tigers: observer", 0, (<State>s).spec.num_players - 1, ConfigError)
    cdef STState* st = <STState*>(<State>s).data
    cdef WorldCtx w
    cdef uint64_t hands[4]
    cdef uint64_t group[48]
    cdef uint64_t up[48]
    cdef int q
    w.s = st
    w.c = <const STConfig*>(<State>s).spec.cfg
    w.p = p
    for q in range(4):
        hands[q] = st.hand[q]
    play_groups(st, group, up)
    return replay_ok(&w, hands, group)
