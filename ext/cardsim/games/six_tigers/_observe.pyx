"""Hakka Six Tigers: the observation (vt.observe) and resample (vt.resample); rules as
implemented: docs/rules/six_tigers.md.

Observation (float32, 4 seat slots): the named blocks of
`cardsim.games.six_tigers.INFO.observation`, each written at its OBS_<BLOCK> offset of the
generated `_layout.pxd`.

Resample (for observer p) redraws what p cannot see: the other hands (the dreamer's card
included), the aside card of the 3-player game and the other seats' face-down discards, trick
by trick, with the core resample policy. What p saw constrains the world: single-card
discards under must_beat become per-card bans (no higher card of the suit was held then);
everything else is checked by replaying the round in the candidate world (replay_ok). Cards
shown at the end stay where they are.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, uint8_t, int8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, put_bits, card_bit
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._staged cimport staged_clear
from cardsim.core._resample cimport (resample_zones, resample_rekey, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_CONSTRAINED_TRIES)
from cardsim.games.six_tigers._rules cimport (
    STConfig, STPlay, PT_NONE, PT_SINGLE, st_suit_mask, st_fixed_old, st_suit, st_tigers,
    above, st_old_mask, st_pattern, st_single_leads, st_has_beat)
from cardsim.games.six_tigers._state cimport STState, ST_PH_DECLARE, ST_PH_PLAY, ST_PH_END, next_active, old_now
from cardsim.games.six_tigers._layout cimport *


# ---------------------------------------------------------------------------------------------
# resampling: hidden cards are other hands, the aside card and others' face-down discards
# ---------------------------------------------------------------------------------------------
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
                down[t * 4 + q] |= card_bit(i)
            else:
                up[t * 4 + q] |= card_bit(i)

cdef uint64_t played_before(const STState* s) noexcept nogil:
    """Cards played before the first trick on record (a scenario's `played` cards: face up, in
    no trick): the replay starts with them played, as the true state's old cards do."""
    cdef uint64_t m = s.up[0] | s.up[1] | s.up[2] | s.up[3]
    cdef int i
    for i in range(37):
        if s.card_trick[i] >= 0:
            m &= ~card_bit(i)
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
            hands[w.zseat[z]] |= card_bit(cards[i])
        else:
            group[w.ztrick[z] * 4 + w.zseat[z]] |= card_bit(cards[i])

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
                    if hc >= 0 and q != p and not (card_bit(hc) & st_fixed_old()):
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
            s.aside = card_bit(cards[i])
        elif w.ztrick[z] >= 0:
            q = w.zseat[z]
            t = w.ztrick[z]
            s.down[q] |= card_bit(cards[i])
            s.card_trick[cards[i]] = t
            s.card_seat[cards[i]] = q
            if t == s.ntricks and s.phase == ST_PH_PLAY and s.trick.n > 0:
                s.cur[q] |= card_bit(cards[i])
    r = resample_rekey(&s.rng, rng)
    rng_next(&s.rng)            # one step on from the resample stream (as the game always did)
    return r


# ---------------------------------------------------------------------------------------------
# observation
# ---------------------------------------------------------------------------------------------
cdef inline void one_hot(float* o, int v) noexcept nogil:
    if v >= 0:
        o[v] = 1.0

cdef void st_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    """Every block of INFO.observation at its OBS_<BLOCK> offset (the engine zeroes o first)."""
    cdef const STState* s = <const STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef int q, i
    cdef uint64_t old = old_now(s, c), seen
    put_bits(o + OBS_HAND, s.hand[p])
    put_bits(o + OBS_OWN_OLD, s.hand[p] & old)
    for q in range(4):
        put_bits(o + OBS_UP + 37 * q, s.up[q])
    put_bits(o + OBS_OWN_DOWN, s.down[p])
    seen = s.up[0] | s.up[1] | s.up[2] | s.up[3] | s.down[p]
    for i in range(37):
        if (seen >> i) & 1:
            o[OBS_CARD_TRICK + i] = (s.card_trick[i] + 1) / 12.0
    for q in range(4):
        o[OBS_DOWN_COUNT + q] = cs_popcount(s.down[q]) / 12.0
    for q in range(4):
        if not (s.cur_down >> q) & 1:
            put_bits(o + OBS_TRICK_UP + 37 * q, s.cur[q])
    for q in range(4):
        o[OBS_TRICK_DOWN + q] = (s.cur_down >> q) & 1
    if s.turn == p and s.phase == ST_PH_PLAY:
        put_bits(o + OBS_STAGED, s.stg.cards.layer[0])
        o[OBS_STAGED_KIND + s.stg.kind] = 1.0
    one_hot(o + OBS_HIGH_SEAT, s.high_seat)
    o[OBS_HIGH_TYPE + s.high.type] = 1.0
    o[OBS_K] = s.k / 9.0
    if s.phase == ST_PH_PLAY:
        one_hot(o + OBS_LEADER, s.trick.leader)
    for i in range(12):
        one_hot(o + OBS_TRICK_WINNERS + 4 * i, s.trick_winner[i])
    for q in range(4):
        o[OBS_TRICKS + q] = s.tricks[q] / 12.0
    one_hot(o + OBS_DEALER, s.dealer)
    one_hot(o + OBS_DREAMER, s.dreamer)
    one_hot(o + OBS_DECLARER, s.declarer)
    one_hot(o + OBS_SPECIAL, s.special)
    o[OBS_OBSERVER + p] = 1.0
    if s.phase != ST_PH_END:
        o[OBS_TO_ACT + s.turn] = 1.0
    o[OBS_PHASE + s.phase] = 1.0
    o[OBS_PROGRESS] = s.decl_pos / 3.0
    o[OBS_PROGRESS + 1] = s.claim_pos / 3.0
    o[OBS_PROGRESS + 2] = s.ntricks / 12.0
    one_hot(o + OBS_WINNER, s.winner)
    o[OBS_RESULT] = s.t / 12.0
    o[OBS_RESULT + 1] = s.t_dream / 12.0
    o[OBS_RESULT + 2] = s.five_tigers
    o[OBS_RESULT + 3] = s.claimed
    put_bits(o + OBS_SHOWN, s.shown)
    for q in range(4):
        o[OBS_LAST + q] = s.last[q] / 256.0
        o[OBS_SCORE + q] = s.score[q] / 1024.0
    o[OBS_ROUNDS] = s.round_no / 4.0
    o[OBS_ROUNDS + 1] = s.voids / 10.0
    if c.old_public:
        put_bits(o + OBS_PUBLIC_OLD, old)
