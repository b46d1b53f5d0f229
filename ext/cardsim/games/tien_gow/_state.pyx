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

Core mechanisms used: the deal is the core `shuffle`; the current trick is a `TrickRecord` (the
tiles of each play are kept per trick in `tplay`); the play under construction is a `Staged`
(kind = UP/DOWN mode) whose adds go through `staged_legal_adds`; resample is the core policy
(`resample_zones`, with the must_beat_if_able discards as its world check); the spec is
installed by `GameSpec.install`; `spec.scenario` starts from `_scenario_state`.

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

Observation (float32, OBS_SIZE = 867), blocks in order: own hand counts/2 (21); own staged tiles
counts/2 (21) and staging mode up/down (2); for each of the 8 tricks and each seat, the tiles it
played (counts/2: face-up tiles for everybody, face-down tiles only for their owner) and a
face-down flag (8x4x22); per trick leader (4), winner (4) and size/4 (1) (8x9); current high seat
(4) and its category (11); tricks credited per seat /8 (4); banker (4); seat to act (4); observer
(4); phase play/end (2); chips won this deal /20 (4); match balances /100 (4); deals settled
/num_deals (1); banker streak /8 (1).

Greedy agent: it treats a combination as "sure" when the tiles it has not seen cannot form a
stronger one of the same category. Leading, it plays the largest sure multi-tile combination it
holds; else, with no trick yet, its weakest sure single; else its weakest single (keeping its
strong tiles for the final trick). Following, it beats in the final trick with its strongest
beating combination; before it, it beats with its weakest sure beating combination, or with its
weakest beating combination while it has no trick yet (early death); otherwise it discards its k
weakest tiles (civil by rank, military by row, on one scale).
"""
from libc.string cimport memset
from cardsim.core._types cimport card_t, int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size, put_counts
from cardsim.core._actions cimport ActionSet, as_first, as_has
from cardsim.core._deal cimport shuffle
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.core._staged cimport (Staged, staged_clear, staged_start, staged_add, staged_commit,
                                   staged_legal_adds)
from cardsim.core._trick cimport (TrickRecord, trick_reset, trick_start, trick_add_seat, trick_done,
                                  trick_index_of, trick_set_winner)
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.core._engine import _short
from cardsim.games._tien_gow_greedy cimport tg_greedy
from cardsim.games._tien_gow_rules cimport (
    TGRules, TGCombo, TG_IDS, TG_CIVIL, TG_TILES, TG_NP, TG_HAND, TG_NCAT, CAT_SUPREME, CAT_PAIR_CIVIL,
    CAT_QUAD, TG_SIX, TG_THREE, TG_LOOK, tbit, combo_within, combo_holds, combo_missing, combo_beats,
    tg_rules_init, tg_classify, tg_settle)

from cardsim.errors import ConfigError, ParseError, short

cdef uint64_t IDS_MASK = ((<uint64_t>1) << 21) - 1
OBS_SIZE = 21 + 21 + 2 + 8 * 4 * 22 + 8 * 9 + 4 + 11 + 4 + 4 + 4 + 4 + 2 + 4 + 4 + 1 + 1
METRICS = ("winner", "banker", "banker_won", "tricks_0", "tricks_1", "tricks_2", "tricks_3",
           "final_trick_size", "deals")
PHASES = ("play", "end")


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
    full = merged(hand, part)
    k = bit_low(part.layer[0])
    for i in range(r.by_tile_n[k]):
        ci = r.by_tile[k][i]
        if r.combo[ci].size > n_part and combo_holds(&r.combo[ci], part) and combo_within(&r.combo[ci], &full):
            m |= combo_missing(&r.combo[ci], part)
    return m & hand.layer[0]

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
    """Legal actions (§5.2, §5.3, §7 must_beat_if_able) of the seat to act; see the module
    docstring. Every legal action can be completed into a legal whole play."""
    cdef const TGState* s = <const TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int p = s.turn
    cdef uint64_t up, down
    cdef Hand empty
    out.w[0] = 0
    if s.phase != TG_PH_PLAY:
        return 0
    # The candidate masks below are already exactly the completable adds (one pass over the
    # combination table instead of a completability test per candidate), so the core's
    # staged_legal_adds runs without a callback.
    if s.cur.n == 0:
        staged_legal_adds(&s.stage, lead_adds(c, &s.hand[p], &s.stage.cards, s.stage.n), 0, NULL, NULL, out)
        if s.stage.n > 0 and tg_classify(&c.rules, &s.stage.cards) >= 0:
            out.w[0] |= tbit(TG_A_COMMIT)
    elif s.stage.kind == TG_MODE_DOWN:
        staged_legal_adds(&s.stage, s.hand[p].layer[0], TG_A_DOWN, NULL, NULL, out)
    elif s.stage.kind == TG_MODE_UP:
        staged_legal_adds(&s.stage, beat_adds(c, &s.hand[p], &s.stage.cards, s.high_combo), 0, NULL, NULL, out)
    else:
        hand_clear(&empty)
        up = 0 if death_blocks(s, c, p) else beat_adds(c, &s.hand[p], &empty, s.high_combo)
        down = 0 if (c.must_beat and up) else s.hand[p].layer[0]
        staged_legal_adds(&s.stage, up, 0, NULL, NULL, out)
        staged_legal_adds(&s.stage, down, TG_A_DOWN, NULL, NULL, out)
    return cs_popcount(out.w[0])


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void new_deal(TGState* s) noexcept nogil:
    """Shuffle and deal (§3, T4): a Fisher-Yates shuffle of the 32 tiles on the deal stream; the
    seat at offset j from the banker receives tiles 8j..8j+7. The banker leads."""
    cdef card_t t[32]
    cdef int i, j, q, n = 0
    for i in range(TG_IDS):
        t[n] = i
        n += 1
        if i < TG_CIVIL:
            t[n] = i
            n += 1
    shuffle(t, TG_TILES, &s.rng)
    for q in range(TG_NP):
        hand_clear(&s.hand[q])
    for j in range(TG_NP):
        q = (s.banker + j) % TG_NP
        for i in range(TG_HAND):
            hand_add(&s.hand[q], t[TG_HAND * j + i])
    memset(s.tplay, 0, sizeof(s.tplay))
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
    new_deal(s)

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
    if ci == c.rules.supreme or (c.rules.combo[ci].cat == CAT_PAIR_CIVIL and c.rules.combo[ci].one == tbit(TG_LOOK)):
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
    cdef int p = s.turn, t = s.ntrick, ci, w, k, mode = s.stage.kind, n
    cdef bint final = hand_size(&s.hand[p]) == 0
    cdef bint blocked = death_blocks(s, c, p)      # before the commit empties the stage
    n = staged_commit(&s.stage, &s.tplay[t][p])
    if s.cur.n == 0:
        ci = tg_classify(&c.rules, &s.tplay[t][p])
        s.high_combo = ci
        s.high_seat = p
        s.tsize[t] = n
        s.tleader[t] = p
        s.tface[t] |= 1 << p
        hk_show(s, c, p, ci, final)
    elif mode == TG_MODE_UP:
        ci = tg_classify(&c.rules, &s.tplay[t][p])
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
        hk_show(s, c, p, ci, final)
    elif c.must_beat and not blocked:
        s.dcon[t][p] = s.high_combo
    trick_add_seat(&s.cur, p)
    s.turn = (p + 1) % TG_NP
    if not trick_done(&s.cur):
        return
    trick_set_winner(&s.cur, trick_index_of(&s.cur, s.high_seat))
    w = s.cur.winner
    k = s.tsize[t]
    s.tricks[w] += k
    s.twinner[t] = w
    s.ntrick += 1
    s.turn = w
    if hand_size(&s.hand[w]) == 0:
        settle_deal(s, c)
    else:
        trick_start(&s.cur, w, TG_NP)
        s.high_combo = -1
        s.high_seat = -1
        s.tleader[s.ntrick] = w

cdef void tg_apply(void* st, const void* cfg, int a) noexcept nogil:
    """Stage one tile (UP/DOWN k) or COMMIT the lead; see the module docstring."""
    cdef TGState* s = <TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int p = s.turn, k
    if a == TG_A_COMMIT:
        commit_play(s, c)
        return
    k = a if a < TG_A_DOWN else a - TG_A_DOWN
    if s.stage.n == 0:
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


# ---------------------------------------------------------------------------------------------
# observation and resampling (T8: face-down discards are seen by their owner only)
# ---------------------------------------------------------------------------------------------
cdef inline bint trick_played(const TGState* s, int t, int q) noexcept nogil:
    """True if seat q has made its play in trick t."""
    if t < s.ntrick:
        return True
    return t == s.ntrick and s.phase == TG_PH_PLAY and trick_index_of(&s.cur, q) >= 0

cdef void tg_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const TGState* s = <const TGState*>st
    cdef const TGConfig* c = <const TGConfig*>cfg
    cdef int t, q, i = 0
    put_counts(o + i, &s.hand[p], 0.5); i += 21
    if s.turn == p and s.phase == TG_PH_PLAY:
        put_counts(o + i, &s.stage.cards, 0.5)
        if s.stage.kind != TG_MODE_NONE:
            o[i + 21 + s.stage.kind - 1] = 1.0
    i += 23
    for t in range(8):
        for q in range(TG_NP):
            if s.tsize[t] > 0 and trick_played(s, t, q):
                if (s.tface[t] >> q) & 1:
                    put_counts(o + i, &s.tplay[t][q], 0.5)
                else:
                    if q == p:
                        put_counts(o + i, &s.tplay[t][q], 0.5)
                    o[i + 21] = 1.0
            i += 22
    for t in range(8):
        if s.tleader[t] >= 0:
            o[i + s.tleader[t]] = 1.0
        if s.twinner[t] >= 0:
            o[i + 4 + s.twinner[t]] = 1.0
        o[i + 8] = s.tsize[t] / 4.0
        i += 9
    if s.high_combo >= 0 and s.phase == TG_PH_PLAY:
        o[i + s.high_seat] = 1.0
        o[i + 4 + c.rules.combo[s.high_combo].cat] = 1.0
    i += 15
    for q in range(TG_NP):
        o[i + q] = s.tricks[q] / 8.0
    i += 4
    o[i + s.banker] = 1.0; i += 4
    if s.phase == TG_PH_PLAY:
        o[i + s.turn] = 1.0
    i += 4
    o[i + p] = 1.0; i += 4
    o[i + s.phase] = 1.0; i += 2
    for q in range(TG_NP):
        o[i + q] = s.deal_pay[q] / 20.0
        o[i + 4 + q] = s.balance[q] / 100.0
    i += 8
    o[i] = s.deal_no / <float>c.num_deals; i += 1
    o[i] = s.streak / 8.0; i += 1

ctypedef struct ResampleCtx:
    const TGState* s         # the state being resampled (hands and hidden discards cleared)
    const TGConfig* c        # its config
    int p                    # the observer
    int8_t zseat[32]         # seat of zone z
    int8_t ztrick[32]        # trick of zone z (a hidden discard), -1 = the seat's hand
    int8_t zhand[4]          # zone of seat q's hand, -1 = the observer
    int8_t zplay[4][8]       # zone of seat q's hidden discard in trick t, -1 = none (or face up)

cdef bint discards_consistent(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """World check for must_beat_if_able: at every trick where a seat discarded, the tiles it
    held then (its hand plus everything it played from that trick on) contained no BEAT of the
    high play it faced (§7)."""
    cdef const ResampleCtx* x = <const ResampleCtx*>ctx
    cdef const TGState* s = x.s
    cdef Hand zone[32]
    cdef Hand h
    cdef int i, q, t
    for i in range(32):
        hand_clear(&zone[i])
    for i in range(n):
        hand_add(&zone[dest[i]], cards[i])
    for q in range(TG_NP):
        if q == x.p:
            continue
        h = zone[x.zhand[q]]
        for t in range(s.ntrick if s.ntrick < 8 else 7, -1, -1):
            if x.zplay[q][t] >= 0:
                hand_union_into(&h, &zone[x.zplay[q][t]])
            else:
                hand_union_into(&h, &s.tplay[t][q])
            if s.dcon[t][q] >= 0 and holds_beat(x.c, &h, s.dcon[t][q]):
                return False
    return True

cdef void add_tiles(const Hand* h, card_t* cards, int* n) noexcept nogil:
    cdef int i
    cdef uint64_t m
    for i in range(2):
        m = h.layer[i]
        while m:
            cards[n[0]] = bit_low(m)
            n[0] += 1
            m &= m - 1

cdef int tg_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see (T8) with the core resample policy: the other seats' hands and
    their face-down discards (the actor's private staged tiles are folded back into its hand).
    Every hidden zone keeps its size and may take any hidden tile, so the first exact try (a
    uniform shuffle split zone by zone) is exactly uniform over the consistent worlds, unless
    must_beat_if_able made discards informative: then the world check `discards_consistent`
    rejects worlds where a seat discarded while holding a BEAT (no consistent world within the
    budget: 0). The deal stream is replaced too (later deals of a match must not leak)."""
    cdef TGState* s = <TGState*>st
    cdef ResampleCtx x
    cdef card_t cards[32]
    cdef uint8_t dest[32]
    cdef uint32_t allowed[21]
    cdef int room[32]
    cdef int n = 0, nz = 0, q, t, i, z
    cdef bint check = False
    x.s = s
    x.c = <const TGConfig*>cfg
    x.p = p
    if s.phase == TG_PH_PLAY:
        if s.stage.n > 0 and s.turn != p:
            hand_union_into(&s.hand[s.turn], &s.stage.cards)
            staged_clear(&s.stage)
        for q in range(TG_NP):
            x.zhand[q] = -1
            for t in range(8):
                x.zplay[q][t] = -1
            if q == p:
                continue
            x.zhand[q] = nz
            x.zseat[nz] = q
            x.ztrick[nz] = -1
            room[nz] = hand_size(&s.hand[q])
            add_tiles(&s.hand[q], cards, &n)
            hand_clear(&s.hand[q])
            nz += 1
            for t in range(s.ntrick + 1 if s.ntrick < 8 else 8):
                if s.tsize[t] > 0 and not (s.tface[t] >> q) & 1 and trick_played(s, t, q):
                    x.zplay[q][t] = nz
                    x.zseat[nz] = q
                    x.ztrick[nz] = t
                    room[nz] = s.tsize[t]
                    add_tiles(&s.tplay[t][q], cards, &n)
                    hand_clear(&s.tplay[t][q])
                    nz += 1
                    check = check or (x.c.must_beat and s.dcon[t][q] >= 0)
        for i in range(TG_IDS):
            allowed[i] = 0xFFFFFFFF
        if check:
            if not resample_zones(cards, n, allowed, room, nz, dest, rng, discards_consistent, &x,
                                  64 * RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES):
                return 0
        elif not resample_zones(cards, n, allowed, room, nz, dest, rng, NULL, NULL, 1, 0):
            return 0
        for i in range(n):
            z = dest[i]
            if x.ztrick[z] < 0:
                hand_add(&s.hand[x.zseat[z]], cards[i])
            else:
                hand_add(&s.tplay[x.ztrick[z]][x.zseat[z]], cards[i])
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
TILES = ("6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1",
         "6-3", "5-4", "6-2", "5-3", "5-2", "4-3", "4-2", "4-1", "3-2", "2-1")
COPIES = tuple(2 if k < 11 else 1 for k in range(21))
# names of §2.1 that name exactly one tile identity (Chinese and English/Cantonese)
NAMES = {
    "天": 0, "heaven": 0, "teen": 0, "地": 1, "earth": 1, "day": 1, "人": 2, "man": 2, "yun": 2,
    "和": 3, "鵝": 3, "harmony": 3, "goose": 3, "gor": 3, "梅": 4, "梅花": 4, "plum": 4, "plum flower": 4,
    "plum-flower": 4, "mooy": 4, "長三": 5, "long three": 5, "long-three": 5, "chong": 5, "板凳": 6,
    "bench": 6, "bon": 6, "斧頭": 7, "虎頭": 7, "axe": 7, "tiger's head": 7, "tigers head": 7, "foo": 7,
    "紅頭十": 8, "red-head ten": 8, "red head ten": 8, "ping": 8, "高腳七": 9, "long-leg seven": 9,
    "long leg seven": 9, "tit": 9, "零霖六": 10, "銅錘六": 10, "red-mallet six": 10, "red mallet six": 10,
    "look": 10, "二四": 17, "six": 17, "luk": 17, "丁三": 20, "幺二": 20, "three": 20, "saam": 20,
}
AMBIGUOUS = {"雜九": (11, 12), "nines": (11, 12), "nine": (11, 12), "chop gow": (11, 12),
             "雜八": (13, 14), "eights": (13, 14), "eight": (13, 14), "chop bot": (13, 14),
             "雜七": (15, 16), "sevens": (15, 16), "seven": (15, 16), "chop chit": (15, 16),
             "雜五": (18, 19), "fives": (18, 19), "five": (18, 19), "chop ng": (18, 19)}


def tile_str(k):
    return TILES[check_int(k, "tien_gow: a tile identity", 0, TG_IDS - 1, ParseError)]


def parse_tile(text):
    """'6-6', '4-2', low end first '1-3', or a name of §2.1 that names one tile ('Heaven', '天',
    'Goose', '二四') -> identity 0..20."""
    if not isinstance(text, str):
        raise ParseError(f"tien_gow: a tile is a string such as '6-6', '4-2' or 'Heaven', got {_short(text)}")
    t = text.strip().lower()
    if t in NAMES:
        return NAMES[t]
    if t in AMBIGUOUS:
        a, b = AMBIGUOUS[t]
        raise ParseError(f"tien_gow: {_short(text)} names two tiles ({TILES[a]} and {TILES[b]}); write the pips")
    parts = t.replace("–", "-").split("-")
    if len(parts) == 2 and all(len(x) == 1 and x in "123456" for x in parts):
        hi, lo = max(parts), min(parts)
        key = f"{hi}-{lo}"
        if key in TILES:
            return TILES.index(key)
    raise ParseError(f"tien_gow: cannot parse tile {_short(text)}; tiles are written by their pips, high end first "
                     f"('6-6', '4-2', '2-1'; '1-3' is accepted too), or named ('Heaven', '天', 'Six')")


def tiles_to_ids(tiles, what="tiles"):
    """Parse a list of tile strings (at most the copies of the set) -> list of identities."""
    if not isinstance(tiles, (list, tuple)):
        raise ParseError(f"tien_gow: {what} must be a list of tile strings, got {_short(tiles)}")
    if len(tiles) > TG_TILES:
        raise ParseError(f"tien_gow: {what}: a list of tiles holds at most the {TG_TILES} tiles of the set, got "
                         f"{len(tiles)}")
    ids = [parse_tile(x) for x in tiles]
    for k in set(ids):
        if ids.count(k) > COPIES[k]:
            raise ParseError(f"tien_gow: {TILES[k]} appears {ids.count(k)} times in {what}; the set holds "
                             f"{COPIES[k]} {'copies' if COPIES[k] > 1 else 'copy'}")
    return ids


cdef list hand_list(const Hand* h):
    out = []
    cdef int k
    for k in range(TG_IDS):
        out.extend([TILES[k]] * hand_count(h, k))
    return out

cdef void ids_to_hand(list ids, Hand* h):
    hand_clear(h)
    for k in ids:
        hand_add(h, k)


cdef class TienGowSpec(GameSpec):
    cdef TGConfig c

    def __init__(self, dict opts):
        tg_rules_init(&self.c.rules, opts["military_fives_equal"], opts["mixed_combinations"] == "allowed",
                      opts["two_pair_lead"], opts["supreme_follow"] == "highest_pair")
        self.c.must_beat = opts["must_beat_if_able"]
        self.c.death_threshold = {"on": 1, "off": 0, "two_tricks": 2}[opts["early_death"]]
        self.c.increasing = opts["banker_multiplier"] == "increasing"
        self.c.shutout = opts["shutout_bonus"]
        self.c.hk = opts["hk_bonuses"]
        self.c.match = opts["scope"] == "match"
        self.c.num_deals = opts["num_deals"]
        self.c.bankroll = opts["bankroll"] or 0
        self.vt.init = tg_init
        self.vt.current_player = tg_current_player
        self.vt.legal = tg_legal
        self.vt.apply = tg_apply
        self.vt.is_terminal = tg_is_terminal
        self.vt.returns = tg_returns
        self.vt.observe = tg_observe
        self.vt.resample = tg_resample
        self.vt.greedy = tg_greedy
        self.vt.metrics = tg_metrics
        self.install("tien_gow", &self.c, TG_NP, TG_NUM_ACTIONS, sizeof(TGState), OBS_SIZE, METRICS, "zero", opts)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a == TG_A_COMMIT:
            return "commit"
        if a < TG_A_DOWN:
            return "up " + TILES[a]
        return "down " + TILES[a - TG_A_DOWN]

    def _parse_action(self, State s, str text):
        t = text.strip().lower()
        if t == "commit":
            return TG_A_COMMIT
        words = t.split(None, 1)
        try:
            if len(words) == 2 and words[0] in ("up", "lead", "beat", "play"):
                return parse_tile(words[1])
            if len(words) == 2 and words[0] in ("down", "discard"):
                return TG_A_DOWN + parse_tile(words[1])
            return parse_tile(t)
        except ParseError as e:
            raise ParseError(f"tien_gow: cannot parse action {short(text)}; actions are 'up 6-6' (lead or beat, face "
                             f"up), 'down 6-6' (discard face down) and 'commit' (end a lead)") from e

    def _hand_strings(self, State s, int p):
        cdef TGState* st = <TGState*>self._data(s)
        cdef Hand h = st.hand[p]
        if st.turn == p and st.phase == TG_PH_PLAY:
            h = merged(&h, &st.stage.cards)
        return hand_list(&h)

    def _phase_name(self, State s):
        return PHASES[(<TGState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return TG_TILES

    def _card_total(self, State s):
        """Tiles in hands + the staged play + every play of this deal (32 at every step)."""
        cdef TGState* st = <TGState*>self._data(s)
        cdef int n = st.stage.n, q, t
        cdef int cnt[21]
        for q in range(TG_IDS):
            cnt[q] = hand_count(&st.stage.cards, q)
        for q in range(TG_NP):
            n += hand_size(&st.hand[q])
            for t in range(8):
                n += hand_size(&st.tplay[t][q])
                for k in range(TG_IDS):
                    cnt[k] += hand_count(&st.tplay[t][q], k)
            for k in range(TG_IDS):
                cnt[k] += hand_count(&st.hand[q], k)
        if any(cnt[k] != COPIES[k] for k in range(TG_IDS)):
            return -n
        return n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef TGState* st = <TGState*>self._data(s)
        tricks = []
        for t in range(st.ntrick + 1):
            if t >= 8 or st.tsize[t] == 0:
                break
            plays = {}
            for q in range(TG_NP):
                if trick_played(st, t, q):
                    plays[q] = {"tiles": hand_list(&st.tplay[t][q]),
                                "face_up": bool((st.tface[t] >> q) & 1)}
            tricks.append({"leader": st.tleader[t], "size": st.tsize[t], "plays": plays,
                           "winner": None if st.twinner[t] < 0 else st.twinner[t]})
        return {
            "phase": PHASES[st.phase], "banker": st.banker, "turn": st.turn, "leader": st.cur.leader,
            "tricks": [st.tricks[q] for q in range(TG_NP)], "trick_log": tricks,
            "high_seat": None if st.high_seat < 0 else st.high_seat,
            "high": None if st.high_combo < 0 else self.combo_tiles(st.high_combo),
            "stage": hand_list(&st.stage.cards), "stage_mode": ("none", "up", "down")[st.stage.kind],
            "deal_pay": [st.deal_pay[q] for q in range(TG_NP)], "balance": [st.balance[q] for q in range(TG_NP)],
            "deal_no": st.deal_no, "streak": st.streak,
            "deal_winner": None if st.deal_winner < 0 else st.deal_winner,
        }

    def combo_tiles(self, ci):
        cdef TGCombo* cb = &self.c.rules.combo[check_int(ci, "tien_gow: a combination index", 0,
                                                         self.c.rules.ncombo - 1, ConfigError)]
        cdef Hand h
        hand_clear(&h)
        h.layer[0] = cb.one
        h.layer[1] = cb.two
        return hand_list(&h)

    def _render(self, State s):
        v = self.view(s)
        lines = [f"Tien Gow  phase={v['phase']}  banker={v['banker']}  tricks {v['tricks']}  "
                 f"deal chips {v['deal_pay']}" + (f"  balances {v['balance']} after {v['deal_no']} deals"
                                                   if self.c.match else "")]
        for p in range(TG_NP):
            mark = "*" if v["phase"] == "play" and v["turn"] == p else " "
            lines.append(f"{mark}{p}: {' '.join(hand_list(&(<TGState*>self._data(s)).hand[p]))}")
        if v["phase"] == "play" and v["trick_log"]:
            cur = v["trick_log"][len(v["trick_log"]) - 1]
            shown = []
            for q, pl in cur["plays"].items():
                shown.append(f"{q}:{'+'.join(pl['tiles']) if pl['face_up'] else 'x' * len(pl['tiles'])}")
            lines.append("trick: " + "  ".join(shown) + (f"  (staged {'+'.join(v['stage'])} {v['stage_mode']})"
                                                         if v["stage"] else ""))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, banker=0, leader=None, tricks=None):
        """A state at the start of a trick with these hands (tile strings, equal sizes 1..8) for
        scenarios and analysis. With n tiles per hand, 8 - n tiles per seat are out of play: they
        form 8 - n earlier single-tile tricks (shown face up) won as `tricks` says (default: all
        by the leader); `leader` (default the banker) leads next. Not replayable."""
        cdef State s
        cdef TGState* st
        if not isinstance(hands, (list, tuple)) or len(hands) != TG_NP:
            raise ConfigError("tien_gow: need 4 hands (lists of tiles)")
        ids = [tiles_to_ids(h, f"hand {q}") for q, h in enumerate(hands)]
        n = len(ids[0])
        if not 1 <= n <= TG_HAND or any(len(h) != n for h in ids):
            raise ConfigError(f"tien_gow: the 4 hands must hold the same number of tiles, 1..8; got "
                              f"{[len(h) for h in ids]}")
        allids = sum(ids, [])
        tiles_to_ids([TILES[k] for k in allids], "the hands together")
        banker = check_int(banker, "tien_gow: banker", 0, TG_NP - 1, ConfigError)
        leader = banker if leader is None else check_int(leader, "tien_gow: leader", 0, TG_NP - 1, ConfigError)
        m = TG_HAND - n
        if tricks is None:
            tricks = [m if q == leader else 0 for q in range(TG_NP)]
        if not isinstance(tricks, (list, tuple)) or len(tricks) != TG_NP:
            raise ConfigError(f"tien_gow: tricks must be a list of 4 counts, got {_short(tricks)}")
        tricks = [check_int(x, "tien_gow: a trick count", 0, m, ConfigError) for x in tricks]
        if sum(tricks) != m or (m > 0 and tricks[leader] == 0):
            raise ConfigError(f"tien_gow: tricks must be 4 counts >= 0 summing to {m} (tiles already played per "
                              f"seat), the leader having at least one when any was played")
        rest = []
        for k in range(TG_IDS):
            rest.extend([k] * (COPIES[k] - allids.count(k)))
        winners = [q for q in range(TG_NP) if q != leader for _ in range(tricks[q])] + [leader] * tricks[leader]
        s = self._scenario_state()
        st = <TGState*>self._data(s)
        st.banker = banker
        new_deal(st)
        for q in range(TG_NP):
            ids_to_hand(ids[q], &st.hand[q])
        prev = banker
        for t in range(m):
            st.tleader[t] = prev
            st.tsize[t] = 1
            st.tface[t] = 0xF
            st.twinner[t] = winners[t]
            for q in range(TG_NP):
                hand_add(&st.tplay[t][q], rest[4 * t + q])
            prev = winners[t]
            st.tricks[winners[t]] += 1
        st.ntrick = m
        trick_start(&st.cur, leader, TG_NP)
        st.turn = leader
        st.tleader[m] = leader
        return s


# ---- oracles' helpers ---------------------------------------------------------------------------
def staged_plays(s):
    """Every whole play reachable from s through the factored actions: a sorted list of
    (face_up, tiles) pairs, tiles strongest first (for the brute-force cross-check and
    legal_plays). `s` must be a tien_gow State (ConfigError otherwise)."""
    if not isinstance(s, State) or not isinstance((<State>s).spec, TienGowSpec):
        raise ConfigError(f"tien_gow: staged_plays needs a tien_gow State, got {_short(s)}")
    out = set()
    _walk(s, (), out)
    return sorted(out)

cdef _walk(State s, tuple ids, set out):
    cdef TGState* st = <TGState*>s.spec._data(s)
    cdef TGState* cs
    key = (st.ntrick, st.cur.n, st.deal_no, st.phase)
    for a in s.legal_actions():
        a = int(a)
        if a == TG_A_COMMIT:
            out.add((True, tuple(TILES[k] for k in sorted(ids))))
            continue
        new = ids + ((a if a < TG_A_DOWN else a - TG_A_DOWN),)
        c = s.clone()
        c.apply(a)
        cs = <TGState*>(<State>c).data
        if (cs.ntrick, cs.cur.n, cs.deal_no, cs.phase) != key:
            out.add((a < TG_A_DOWN, tuple(TILES[k] for k in sorted(new))))
        else:
            _walk(c, new, out)
