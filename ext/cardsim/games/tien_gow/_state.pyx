"""Tien Gow 天九 / Da Tian Jiu 打天九: four players, the 32 Chinese domino tiles in a civil and a
military suit, singles, pairs, triples and quads compared only inside their category, the Supreme
pair, face-down discards, early death, the winner of the last trick collecting from everyone
(double with the banker).

Implements docs/rules/tien_gow.md §1-§7 and follows the decisions T1-T12 as written: military
tiles of one row are equal (T1, option military_fives_equal for 4-1 > 3-2); beating is optional
(T2, option must_beat_if_able); early death ON with a 1-trick threshold (T3, option early_death
"on"/"off"/"two_tricks"); the banker at offset j receives tiles 8j..8j+7 of the shuffled set (T4);
a match is num_deals = 16 deals with an optional bankroll stop (T5); a followed Supreme is a
discard (T6, option supreme_follow = "highest_pair" lets it beat any pair); every payment between
the banker and the winner is doubled (T7, option banker_multiplier = "increasing"); face-down
discards are seen only by their owner (T8: observation and resample); the earlier of equal plays
wins (T9); the Hong Kong extras are an option, off (T10, hk_bonuses); no bidding (T11); a play of
the lead's size but another category is a discard (T12).

Where the spec is silent (documented in docs/rules/tien_gow.md): the first banker is drawn from
the deal stream; with two_pair_lead the two pairs are two civil pairs or two military pairs (the
Supreme is not a military pair) and a two-pair play beats another when its higher pair outranks
both pairs of it (dominorules: "one of the pairs must be of a higher value than either of those
led"); hk_bonuses pays 2 chips from each opponent to whoever shows a Supreme or a 5-1 civil pair
face up before the final trick, multiplies the settlement by 4 when the final trick is won with a
quad, and when a final single 2-1 lead is won by a 4-2, whoever beat the 2-1 in between (T13),
the leader pays double what every loser owes (payments the winner owes are unchanged); with the increasing multiplier a losing banker who
took more than 4 tricks is paid unmultiplied (navpil's rule set).

Core mechanisms used: the deal is the core `shuffle`; the current trick is a `TrickRecord` (leader,
order of plays; a complete trick is closed by `trick_close`; the tiles of each play are kept per
trick in `tplay`); the play under construction is a `Staged` (kind = UP/DOWN mode) whose adds go
through `staged_legal_adds`; resample is the core policy (`resample_zones`, with the
must_beat_if_able discards as its world check, then `resample_rekey`); the spec (`_spec`) is
installed by `GameSpec.install_game` from INFO (`cardsim.games.tien_gow.info`).

The game's modules (ext/cardsim/games/tien_gow/): `_rules` (tiles, the combination table,
comparison, settlement, the contest sort, the oracle entry points), `_state` (this module: config,
state struct, deal, legal plays, apply, returns, metrics), `_agent` (the greedy agent), `_observe`
(observation and resample), `_layout.pxd` (observation offsets, generated from INFO.observation),
`_spec` (the GameSpec glue); the face, its validation and the tile notation are Python
(src/cardsim/games/tien_gow/).

Seats 0..3 in playing order (counter-clockwise at the table). Tile identities (the rules module):
civil 0..10 = 6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5 6-4 6-1 5-1 (two copies each), military 11..20 =
6-3 5-4 6-2 5-3 5-2 4-3 4-2 4-1 3-2 2-1, strongest first.

Actions (43), a play built one tile at a time (staged move, no dead ends): 0..20 UP k, add one
copy of identity k face up (the leader's lead, or a follower's BEAT); 21..41 DOWN k, add one copy
of identity k face down (a follower's DISCARD); 42 COMMIT, the leader ends the lead. A follower's
first tile fixes the mode: UP k is legal only if some combination that beats the current high and
holds k can be completed from its hand (not at all under early death), DOWN k always (not when
must_beat_if_able and a BEAT exists); the play commits itself at k tiles. The leader may add a
tile only if the staged tiles can still be completed into a legal combination of its hand, and
COMMIT when they form one; the lead commits itself when no tile can be added any more.

Returns (zero-sum): chips won this deal (scope "deal"), or the match balances (scope "match").

Observation: the blocks of INFO.observation (src/cardsim/games/tien_gow/info.py), written by
`_observe` at the offsets of the generated `_layout.pxd` (docs/observations.md lists them).

Greedy agent: see `_agent`.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_size
from cardsim.core._actions cimport ActionSet
from cardsim.core._deal cimport shuffle
from cardsim.core._staged cimport Staged, staged_clear, staged_start, staged_add, staged_commit, staged_legal_adds
from cardsim.core._trick cimport trick_start, trick_add_seat, trick_done, trick_index_of, trick_close
from cardsim.games.tien_gow._rules cimport (
    TGRules, TGCombo, TG_IDS, TG_CIVIL, TG_TILES, TG_NP, TG_HAND, CAT_SUPREME, CAT_PAIR_CIVIL, CAT_QUAD,
    TG_SIX, TG_THREE, TG_LOOK, combo_within, combo_holds, combo_missing, combo_beats, tg_classify, tg_settle)

# ---------------------------------------------------------------------------------------------
# legal plays (§5.2) as staged tile additions
# ---------------------------------------------------------------------------------------------
cdef uint64_t lead_adds(const TGConfig* c, const Hand* hand, const Hand* part, int n_part) noexcept nogil:
    """Identities the leader may add to its staged tiles `part`: those of a combination of its
    holding (hand + part) that contains part and is larger. An empty part may start with any tile
    (every single is a lead)."""
    cdef const TGRules* r = &c.rules
    cdef Hand full
    cdef uint64_t m = 0
    cdef int k, i, ci
    if n_part == 0:
        return hand.layer[0]
    k = bit_low(part.layer[0])
    if n_part == 1:
        return lead_adds_one(r, hand, k)
    full = merged(hand, part)
    for i in range(r.by_tile_n[k]):
        ci = r.by_tile[k][i]
        if r.combo[ci].size > n_part and combo_holds(&r.combo[ci], part) and combo_within(&r.combo[ci], &full):
            m |= combo_missing(&r.combo[ci], part)
    return m & hand.layer[0]

cdef inline uint64_t lead_adds_one(const TGRules* r, const Hand* hand, int k) noexcept nogil:
    """lead_adds of a single staged tile k: every multi-tile combination holding k contains it
    and is larger, so only its fit in hand + k counts; none fits unless the hand holds one of
    the identities of those combinations (r.reach[k]), the common case of a lead."""
    cdef uint64_t b = card_bit(k), m = 0, h0 = hand.layer[0], f0, f1
    cdef int i, ci
    if (h0 & r.reach[k]) == 0:
        return 0
    f0 = h0 | b                                    # merged(hand, {k})
    f1 = hand.layer[1] | (h0 & b)
    for i in range(r.by_tile_n[k]):
        ci = r.by_tile[k][i]
        if ((r.combo[ci].one & ~f0) | (r.combo[ci].two & ~f1)) == 0:
            m |= (r.combo[ci].one & ~b) | r.combo[ci].two
    return m & h0

cdef uint64_t beat_adds(const TGConfig* c, const Hand* hand, const Hand* part, int hi) noexcept nogil:
    """Identities a follower may add face up: those of a combination of its holding that beats
    the current high play `hi` (§5.1) and contains the staged tiles `part`."""
    cdef const TGRules* r = &c.rules
    cdef const TGCombo* h = &r.combo[hi]
    cdef Hand full
    cdef uint64_t m = 0
    cdef int i, ci, cat = h.cat
    if h.size == 1:
        return hand.layer[0] & r.beat_single[hi]
    if cat == CAT_SUPREME:
        return 0
    full = merged(hand, part)
    for i in range(r.by_cat_n[cat]):
        ci = r.by_cat[cat][i]
        if r.combo[ci].strength <= h.strength:
            break
        if combo_holds(&r.combo[ci], part) and combo_within(&r.combo[ci], &full):
            m |= combo_missing(&r.combo[ci], part)
    if h.size == 2 and combo_beats(r, r.supreme, hi):
        ci = r.supreme
        if combo_holds(&r.combo[ci], part) and combo_within(&r.combo[ci], &full):
            m |= combo_missing(&r.combo[ci], part)
    return m & hand.layer[0]

cdef bint holds_beat(const TGConfig* c, const Hand* holding, int hi) noexcept nogil:
    """True if some combination within `holding` beats `hi`."""
    cdef Hand empty
    hand_clear(&empty)
    return beat_adds(c, holding, &empty, hi) != 0

cdef int tg_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _tg_legal_impl(st, cfg, out)

cdef inline int _tg_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions (§5.2, §5.3, §7 must_beat_if_able) of the seat to act; see the module
    docstring. Every legal action can be completed into a legal whole play."""
    cdef const TGState* s = <const TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int p = s.turn
    cdef uint64_t up, down, w, h0
    cdef Hand empty
    if s.phase != TG_PH_PLAY:
        out.w[0] = 0
        return 0
    # The candidate masks below are already exactly the completable adds (one pass over the
    # combination table instead of a completability test per candidate): what the core's
    # staged_legal_adds would add without a callback, here one shift into the single action
    # word (43 actions: UP k = bit k, DOWN k = bit 21 + k, COMMIT = bit 42).
    if s.cur.n == 0:
        if s.stage.n == 0:
            w = s.hand[p].layer[0]                 # any tile starts a lead
        elif s.stage.n == 1:                       # a single is a lead: COMMIT
            w = lead_adds_one(&c.rules, &s.hand[p], bit_low(s.stage.cards.layer[0])) | card_bit(TG_A_COMMIT)
        else:
            w = lead_adds(c, &s.hand[p], &s.stage.cards, s.stage.n)
            if tg_classify(&c.rules, &s.stage.cards) >= 0:
                w |= card_bit(TG_A_COMMIT)
    elif s.stage.kind == TG_MODE_DOWN:
        w = s.hand[p].layer[0] << TG_A_DOWN
    elif s.stage.kind == TG_MODE_UP:
        w = beat_adds(c, &s.hand[p], &s.stage.cards, s.high_combo)
    else:
        h0 = s.hand[p].layer[0]
        if c.rules.combo[s.high_combo].size == 1:
            # a single: the stronger tiles of its suit, none under early death (death_blocks:
            # the seat's last tile, fewer tricks than the threshold)
            if (c.death_threshold > 0 and s.hand[p].layer[1] == 0 and (h0 & (h0 - 1)) == 0
                    and s.tricks[p] < c.death_threshold):
                up = 0
            else:
                up = h0 & c.rules.beat_single[s.high_combo]
        else:
            hand_clear(&empty)
            up = beat_adds(c, &s.hand[p], &empty, s.high_combo)
        down = 0 if (c.must_beat and up) else h0
        w = up | (down << TG_A_DOWN)
    out.w[0] = w
    return cs_popcount(w)


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef extern from *:
    """
    /* the 32 tiles before the shuffle: civil identities 0..10 twice (each copy next to the
       other), then military 11..20 once */
    static const unsigned char tg_fresh_set[32] = {0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,
        11,12,13,14,15,16,17,18,19,20};
    """
    const card_t tg_fresh_set[32]

cdef void new_deal(TGState* s) noexcept nogil:
    """Shuffle and deal (§3, T4): a Fisher-Yates shuffle of the 32 tiles on the deal stream; the
    seat at offset j from the banker receives tiles 8j..8j+7. The banker leads."""
    memset(s.tplay, 0, sizeof(s.tplay))
    deal_tiles(s)

cdef inline void deal_tiles(TGState* s) noexcept nogil:
    """new_deal but the zeroing of tplay (tg_init's memset has done it)."""
    cdef card_t t[32]
    cdef int i, j, q
    cdef uint64_t l0, l1, b
    memcpy(t, tg_fresh_set, TG_TILES)
    shuffle(t, TG_TILES, &s.rng)
    for j in range(TG_NP):
        q = (s.banker + j) & (TG_NP - 1)               # TG_NP = 4
        l0 = 0
        l1 = 0
        for i in range(TG_HAND):                       # hand_add of two layers (two copies at most)
            b = card_bit(t[TG_HAND * j + i])
            l1 |= l0 & b
            l0 |= b
        s.hand[q].layer[0] = l0
        s.hand[q].layer[1] = l1
        s.hand[q].layer[2] = 0
        s.hand[q].layer[3] = 0
    memset(s.tface, 0, sizeof(s.tface))
    memset(s.tsize, 0, sizeof(s.tsize))
    memset(s.tleader, -1, sizeof(s.tleader))
    memset(s.twinner, -1, sizeof(s.twinner))
    memset(s.dcon, -1, sizeof(s.dcon))
    for q in range(TG_NP):
        s.tricks[q] = 0
        s.deal_pay[q] = 0
    staged_clear(&s.stage)
    s.high_combo = -1
    s.high_seat = -1
    s.ntrick = 0
    s.catch_leader = -1
    trick_start(&s.cur, s.banker, TG_NP)
    s.turn = s.banker
    s.tleader[0] = s.banker
    s.phase = TG_PH_PLAY

cdef void tg_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef TGState* s = <TGState*>st
    memset(s, 0, sizeof(TGState))
    s.rng = rng[0]
    s.banker = <int8_t>rng_below(&s.rng, TG_NP)     # first banker by dice (§1)
    s.deal_winner = -1
    deal_tiles(s)                                   # tplay is zero already

cdef int tg_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const TGState* s = <const TGState*>st
    return -1 if s.phase == TG_PH_END else s.turn

cdef bint tg_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const TGState*>st).phase == TG_PH_END

cdef void hk_show(TGState* s, const TGConfig* c, int p, int ci, bint final) noexcept nogil:
    """hk_bonuses (§7, T10): a Supreme or a 5-1 civil pair shown face up before the final trick
    collects 2 chips from each opponent at once."""
    cdef int q
    if not c.hk or final:
        return
    if ci == c.rules.supreme or (c.rules.combo[ci].cat == CAT_PAIR_CIVIL and c.rules.combo[ci].one == card_bit(TG_LOOK)):
        for q in range(TG_NP):
            if q != p:
                s.deal_pay[q] -= 2
                s.balance[q] -= 2
                s.deal_pay[p] += 2
                s.balance[p] += 2

cdef void settle_deal(TGState* s, const TGConfig* c) noexcept nogil:
    """End of a deal (§5.4, §6): settle, make the winner the next banker and, in a match, deal
    again until num_deals deals or a balance below -bankroll."""
    cdef int32_t pay[4]
    cdef int q, w = s.high_seat, factor = 1, t = s.ntrick - 1
    cdef int mult = 2 + (s.streak if c.increasing else 0)
    cdef bint stop = False
    if c.hk and c.rules.combo[s.high_combo].cat == CAT_QUAD:
        factor = 4
    tg_settle(s.tricks, s.banker, w, mult, c.increasing, c.shutout, factor,
              s.catch_leader if c.hk else -1, pay)
    for q in range(TG_NP):
        s.deal_pay[q] += pay[q]
        s.balance[q] += pay[q]
        if c.bankroll > 0 and s.balance[q] < -c.bankroll:
            stop = True
    s.deal_winner = w
    s.deal_no += 1
    if c.match and s.deal_no < c.num_deals and not stop:
        s.streak = s.streak + 1 if w == s.banker else 0
        s.banker = w
        new_deal(s)
    else:
        s.phase = TG_PH_END

cdef void commit_play(TGState* s, const TGConfig* c) noexcept nogil:
    """A whole play is in (§5.1). Action: the lead or a BEAT becomes the current high play (face
    up); a DISCARD stays face down (with must_beat_if_able it records that the seat held no
    BEAT). After the fourth play the high play's seat is credited k tricks and leads next."""
    cdef int p = s.turn, t = s.ntrick, ci, mode = s.stage.kind, n
    cdef bint final = tg_size(&s.hand[p]) == 0
    n = staged_commit(&s.stage, &s.tplay[t][p])
    if s.cur.n == 0:
        ci = tg_classify(&c.rules, &s.tplay[t][p])
        s.high_combo = ci
        s.high_seat = p
        s.tsize[t] = n
        s.tleader[t] = p
        s.tface[t] |= 1 << p
        if c.hk:
            hk_show(s, c, p, ci, final)
    elif mode == TG_MODE_UP:
        beat_in(s, c, p, tg_classify(&c.rules, &s.tplay[t][p]), final)
    elif c.must_beat and not discard_blocked(s, c, p, n):
        s.dcon[t][p] = s.high_combo
    play_done(s, c, p)

cdef inline bint discard_blocked(const TGState* s, const TGConfig* c, int p, int n) noexcept nogil:
    """death_blocks of a discard of n tiles just taken from p's hand (before its commit)."""
    return (c.death_threshold > 0 and trick_size(s, c) == 1
            and tg_size(&s.hand[p]) + n == 1 and s.tricks[p] < c.death_threshold)

cdef inline void beat_in(TGState* s, const TGConfig* c, int p, int ci, bint final) noexcept nogil:
    """A follower's BEAT, combination ci, is the new high play (its tiles are in tplay)."""
    cdef int t = s.ntrick
    # hk catch (T10, T13): the final trick is a single whose lead was the 2-1 and the 4-2 now
    # holds it, whoever beat the 2-1 in between; any later BEAT takes the trick and lifts it
    if (final and c.hk and ci == TG_SIX and s.tsize[t] == 1
            and tg_classify(&c.rules, &s.tplay[t][s.tleader[t]]) == TG_THREE):
        s.catch_leader = s.tleader[t]
    else:
        s.catch_leader = -1
    s.high_combo = ci
    s.high_seat = p
    s.tface[t] |= 1 << p
    if c.hk:
        hk_show(s, c, p, ci, final)

cdef inline void play_done(TGState* s, const TGConfig* c, int p) noexcept nogil:
    """Seat p's play is recorded: the next seat acts, or the trick is complete."""
    trick_add_seat(&s.cur, p)
    s.turn = (p + 1) & (TG_NP - 1)                 # TG_NP = 4
    if trick_done(&s.cur):
        trick_end_p(s, c)

cdef void trick_end(TGState* s, const TGConfig* c) noexcept nogil:
    """The fourth play is in: the high play wins (§5.1); the record opens the next trick, led by
    the winner (at the end of a deal the leaders and winners of its tricks stay in tleader /
    twinner)."""
    cdef int t = s.ntrick, w
    w = trick_close(&s.cur, trick_index_of(&s.cur, s.high_seat))
    s.tricks[w] += s.tsize[t]
    s.twinner[t] = w
    s.ntrick += 1
    s.turn = w
    if tg_size(&s.hand[w]) == 0:
        settle_deal(s, c)
    else:
        s.high_combo = -1
        s.high_seat = -1
        s.tleader[s.ntrick] = w

# A trick's end, once in four plays, called through a pointer: the compiler then keeps it (and
# the deal's settlement) out of the plays inlined into the hot loop.
ctypedef void (*trick_end_fn)(TGState* s, const TGConfig* c) noexcept nogil
cdef trick_end_fn trick_end_p = trick_end

cdef inline void single_in(TGState* s, const TGConfig* c, int p, int k, bint up) noexcept nogil:
    """A one-tile play, k already out of p's hand, that is whole at once (a single lead nothing
    extends, or a follow of a single): what staging k and committing it do, without the stage."""
    cdef int t = s.ntrick
    cdef bint final = tg_size(&s.hand[p]) == 0
    s.tplay[t][p].layer[0] = card_bit(k)           # zero before: a seat plays once per trick
    if s.cur.n == 0:
        s.high_combo = k                           # tg_classify of a single tile k
        s.high_seat = p
        s.tsize[t] = 1
        s.tleader[t] = p
        s.tface[t] |= 1 << p
        if c.hk:
            hk_show(s, c, p, k, final)
    elif up:
        beat_in(s, c, p, k, final)
    elif c.must_beat and not (c.death_threshold > 0 and final and s.tricks[p] < c.death_threshold):
        s.dcon[t][p] = s.high_combo                # discard_blocked of one tile
    play_done(s, c, p)

cdef void tg_apply(void* st, const void* cfg, int a) noexcept nogil:
    _tg_apply_impl(st, cfg, a)

cdef inline void _tg_apply_impl(void* st, const void* cfg, int a) noexcept nogil:
    """Stage one tile (UP/DOWN k) or COMMIT the lead; see the module docstring."""
    cdef TGState* s = <TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int p = s.turn, k
    if a == TG_A_COMMIT:
        commit_play(s, c)
        return
    k = a if a < TG_A_DOWN else a - TG_A_DOWN
    if s.stage.n == 0:
        if s.cur.n == 0:
            # a lead's first tile: whole at once unless some larger combination holds it
            hand_remove(&s.hand[p], k)
            if lead_adds_one(&c.rules, &s.hand[p], k) == 0:
                single_in(s, c, p, k, a < TG_A_DOWN)
            else:
                staged_start(&s.stage, TG_MODE_UP if a < TG_A_DOWN else TG_MODE_DOWN, -1)
                staged_add(&s.stage, k)
            return
        if c.rules.combo[s.high_combo].size == 1:  # the follow of a single is one tile
            hand_remove(&s.hand[p], k)
            single_in(s, c, p, k, a < TG_A_DOWN)
            return
        staged_start(&s.stage, TG_MODE_UP if a < TG_A_DOWN else TG_MODE_DOWN, -1)
    hand_remove(&s.hand[p], k)
    staged_add(&s.stage, k)
    if s.cur.n == 0:
        if lead_adds(c, &s.hand[p], &s.stage.cards, s.stage.n) == 0:
            commit_play(s, c)
    elif s.stage.n == trick_size(s, c):
        commit_play(s, c)

cdef void tg_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const TGState* s = <const TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int q
    for q in range(TG_NP):
        out[q] = s.balance[q] if c.match else s.deal_pay[q]

cdef void tg_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const TGState* s = <const TGState*>st
    cdef int q, t = s.ntrick - 1
    out[0] = s.deal_winner
    out[1] = s.banker
    out[2] = 1.0 if (s.deal_winner >= 0 and s.deal_winner == s.banker) else 0.0
    for q in range(TG_NP):
        out[3 + q] = s.tricks[q]
    out[7] = s.tsize[t] if t >= 0 else 0
    out[8] = s.deal_no


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _tg_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return tg_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _tg_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (TG_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
