"""Exposure (Matthew Shields): 2 players, 24 cards (A K Q J 10 9), three face-up cards that set
the high rank (H-card), the trump suit (T-card) and the contract target (C-card), meld
declarations that expose cards, nine tricks, a game to 50.

Implements docs/rules/exposure.md §1-§8 and follows its decisions D1-D6 as written: the
non-dealer declares first, then the dealer (D1; option ``declaration_order="simultaneous"``
hides each player's declarations from the other until both have finished); a face-up card serves
at most one meld of a given player, either player may use it (D2; option ``table_card_reuse``);
meld values 1/2/1/2/3 from pagat (D3; option ``meld_points``); sequences in natural order
9 < 10 < J < Q < K < A with mixed suits whatever the high rank (D4); an empty declaration is
legal (D5); a match ends after max_deals deals, the higher score winning (D6).

Where the spec is silent: the first dealer of a deal (scope "deal") or of a match is drawn from
the deal stream; the three set-aside cards are never shown; a player who has started building a
meld must complete it (every partial meld can be completed: no dead ends) — there is no undo.

Card identity: rank*4 + suit, rank 0 = '9', 1 = '10', 2 = 'J', 3 = 'Q', 4 = 'K', 5 = 'A';
suits S H D C (0..3).
Actions (50): 0..23 play that card; 24..47 MELD c (add card c — an own unmelded hand card or a
face-up card this player may still use — to the meld being built); 48 DECLARE (declare the meld
built, legal iff it is a complete legal meld); 49 DONE (end declarations, legal iff no meld is
being built). Strings: 'QS', 'MELD QS' ('MELD JC*' for a face-up card), 'DECLARE', 'DONE'.

Layout: `_exposure_rules` holds the pure rules on cards and config (trick order and winner,
follow rule, meld value and completability, deal points, game end, card notation); this module
the state machine, observation and resampling, the greedy agent and the Python face
(ExposureSpec). Core mechanisms used: the core shuffle (deal), TrickRecord (the current trick),
staged moves (the meld under construction), the resample policy (with the meld in view as its
world check), GameSpec.install and _scenario_state. Scenario states: spec.scenario(hands,
table=[H, T, C], dealer=1, scores=None), every argument validated before the state is touched.

Returns: per seat, own points minus the opponent's (zero-sum): the deal's points (scope "deal")
or the cumulative match points (scope "match"). Raw points are the metrics points_0/points_1.

Metrics: dealer, target (contract tricks), tricks_0/1, meld_points_0/1, bonus_seat (who made
the contract bonus in the last deal, -1 nobody), points_0/1 (cumulative points), deals (deals
played), winner (scope "match": the winning seat, -1 draw; always -1 in scope "deal").

Observation (float32, OBS_SIZE = 726), blocks in order: own cards held (24); observer (2);
face-up H, T, C cards (3x24); per seat 0, 1: exposed cards (24), cards played (24), declared
melds (9 slots x 24), meld points /10 (1), tricks won /9 (1), declarations finished (1), suits
shown void (4); trick number+1 /9 of each played card (24); card led to the current trick (24);
leader (2); seat to act (2); dealer (2); phase (3); meld under construction (24); cumulative
scores /target (2); deals done /10 (1); points of the last scored deal /50 (2). With
``declaration_order="simultaneous"`` the other seat's melds, exposed cards, meld points and meld
under construction are blank until both players have finished declaring.

Greedy agent: declares melds greedily, each time the highest-valued meld still available
(sequences longest first, taking hand cards before face-up cards, then sets of a kind), until none
is left. In play it wants a trick unless it already holds exactly the contract target (then one
more trick would cost the 5-point bonus for 2 points). Leading, it plays the card the fewest
unseen cards can beat when it wants the trick, otherwise the one the most unseen cards beat.
Following, it wins with its cheapest winning card when it wants the trick, otherwise plays its
highest losing card (its lowest card when it must win anyway).
"""
from libc.string cimport memset
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_add_mask, as_has, as_first, as_count
from cardsim.core._types cimport card_t
from cardsim.core._deal cimport shuffled_pack
from cardsim.core._trick cimport trick_start, trick_add, trick_set_winner, put_card_tricks
from cardsim.core._hand cimport Hand
from cardsim.core._staged cimport staged_clear, staged_start, staged_add, staged_active, staged_commit
from cardsim.core._resample cimport (resample_masks, world_check_fn, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_CONSTRAINED_TRIES)
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games._exposure_rules cimport (
    EXConfig, EX_FULL, ex_windows, card_suit, card_rank, bit, rank_cards, suit_cards, rank_bits, rank_key,
    trick_winner, legal_follows, meld_value, meld_extensions, deal_points, match_outcome)

from cardsim.errors import ConfigError, ParseError, IllegalActionError, short
from cardsim.games._exposure_rules import (SUITS, RANKS, DISPLAY_ORDER, card_str, parse_suit, parse_rank,
                                           parse_card, mask_to_cards, cards_to_mask)

OBS_SIZE = 24 + 2 + 72 + 2 * (24 + 24 + 9 * 24 + 1 + 1 + 1 + 4) + 24 + 24 + 2 + 2 + 2 + 3 + 24 + 2 + 1 + 2
METRICS = ("dealer", "target", "tricks_0", "tricks_1", "meld_points_0", "meld_points_1",
           "bonus_seat", "points_0", "points_1", "deals", "winner")

cdef inline uint32_t table_mask(const EXState* s) noexcept nogil:
    return bit(s.table[0]) | bit(s.table[1]) | bit(s.table[2])


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void clear_declarations(EXState* s, int q) noexcept nogil:
    """Forget seat q's declarations: exposed and melded cards, table cards used, melds, points."""
    cdef int i
    s.exposed[q] = 0
    s.melded[q] = 0
    s.used_table[q] = 0
    s.nmelds[q] = 0
    s.meld_points[q] = 0
    for i in range(EX_MAXMELD):
        s.meld[q][i] = 0

cdef void deal_from(EXState* s, const card_t* perm) noexcept nogil:
    """Deal a shuffled deck (§3): cards 1-18 one at a time alternately, non-dealer first; cards
    19, 20, 21 face up as H-card, T-card, C-card; 22-24 aside. Resets the deal's state."""
    cdef int i, q
    cdef int nd = 1 - s.dealer
    for q in range(2):
        s.hand[q] = 0
        s.played[q] = 0
        s.tricks[q] = 0
        s.void_suits[q] = 0
        clear_declarations(s, q)
    for i in range(24):
        s.card_trick[i] = -1
    for i in range(18):
        s.hand[nd if (i & 1) == 0 else s.dealer] |= bit(perm[i])
    s.table[EX_H] = perm[18]
    s.table[EX_T] = perm[19]
    s.table[EX_C] = perm[20]
    s.aside = bit(perm[21]) | bit(perm[22]) | bit(perm[23])
    s.high = card_rank(perm[18])
    s.trump = card_suit(perm[19])
    s.target = card_rank(perm[20]) + 4
    staged_clear(&s.stage)
    s.phase = EX_PH_DECLARE
    s.turn = nd
    trick_start(&s.trick, nd, 2)
    s.decl_done = 0
    s.tricks_done = 0

cdef void deal_cards(EXState* s) noexcept nogil:
    """Shuffle (the core Fisher-Yates on the deal stream) and deal (§3)."""
    cdef card_t perm[24]
    shuffled_pack(perm, 24, &s.rng)
    deal_from(s, perm)

cdef void ex_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef EXState* s = <EXState*>st
    memset(s, 0, sizeof(EXState))
    s.rng = rng[0]
    s.dealer = rng_below(&s.rng, 2)          # first dealer at random (§1)
    s.bonus_seat = -1
    s.winner = -1
    deal_cards(s)

cdef int ex_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    return -1 if s.phase == EX_PH_END else s.turn

cdef bint ex_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const EXState*>st).phase == EX_PH_END

cdef inline uint32_t avail_table(const EXState* s, const EXConfig* c, int p) noexcept nogil:
    if c.table_reuse:
        return table_mask(s) & ~sel_of(s)
    return table_mask(s) & ~s.used_table[p] & ~sel_of(s)

cdef int legal_declare(const EXState* s, const EXConfig* c, ActionSet* out) noexcept nogil:
    """Declaration turn (§4). Validity: DONE iff no meld is being built; DECLARE iff the cards
    built form a legal meld; MELD k iff k is an own unmelded hand card or a face-up card this
    player may still use, and the cards built plus k can still be completed into a legal meld
    (meld_extensions)."""
    cdef int p = s.turn, n = 0
    cdef uint32_t tm = table_mask(s), sel = sel_of(s)
    cdef uint32_t ext = meld_extensions(c, sel, cs_popcount(sel & ~tm), s.hand[p] & ~s.melded[p] & ~sel,
                                        avail_table(s, c, p))
    if sel == 0:
        as_add(out, EX_DONE)
        n = 1
    elif meld_value(c, sel, ~tm) >= 0:
        as_add(out, EX_DECLARE)
        n = 1
    # the staged meld's adds: meld_extensions already is the completability rule (computed a
    # rank at a time), so every one of its cards is offered at once
    as_add_mask(out, EX_MELD0, ext)
    return n + cs_popcount(ext)

cdef int ex_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    cdef uint32_t m
    out.w[0] = 0
    if s.phase == EX_PH_PLAY:
        m = legal_follows(s.hand[s.turn], led_card(s))
        out.w[0] = m
        return cs_popcount(m)
    if s.phase == EX_PH_DECLARE:
        return legal_declare(s, <const EXConfig*>cfg, out)
    return 0

cdef void finish_deal(EXState* s, const EXConfig* c) noexcept nogil:
    """Score the deal (§6) and, in a match, decide the game (§7) or deal again (roles swap)."""
    cdef int q, o
    s.bonus_seat = -1
    for q in range(2):
        s.deal_pts[q] = deal_points(c, s.tricks[q], s.meld_points[q], s.target)
        if s.tricks[q] == s.target:
            s.bonus_seat = q
        s.score[q] += s.deal_pts[q]
    s.deal_no += 1
    if c.match:
        o = match_outcome(s.score, c.target_score)
        if o == -2:
            if s.deal_no < c.max_deals:
                s.dealer = 1 - s.dealer
                deal_cards(s)
                return
            # the deal cap (D6): the match ends, the higher score wins, equal scores draw
            o = -1 if s.score[0] == s.score[1] else (0 if s.score[0] > s.score[1] else 1)
        s.winner = o
    s.phase = EX_PH_END

cdef void apply_declare(EXState* s, const EXConfig* c, int a) noexcept nogil:
    cdef int p = s.turn
    cdef uint32_t tm, hp, sel
    cdef Hand h
    if a == EX_DONE:
        s.decl_done |= 1 << p
        if s.decl_done == 3:
            s.phase = EX_PH_PLAY
            s.turn = 1 - s.dealer              # non-dealer leads trick 1 (§5)
            trick_start(&s.trick, s.turn, 2)
        else:
            s.turn = 1 - p
    elif a == EX_DECLARE:
        tm = table_mask(s)
        staged_commit(&s.stage, &h)
        sel = <uint32_t>h.layer[0]
        hp = sel & ~tm
        s.meld[p][s.nmelds[p]] = sel
        s.nmelds[p] += 1
        s.meld_points[p] += meld_value(c, sel, hp)
        s.melded[p] |= hp
        s.exposed[p] |= hp
        s.used_table[p] |= sel & tm
    else:
        if not staged_active(&s.stage):
            staged_start(&s.stage, EX_STAGE_MELD, p)
        staged_add(&s.stage, a - EX_MELD0)

cdef void apply_play(EXState* s, const EXConfig* c, int card) noexcept nogil:
    """Play one card (§5): the lead, or the follow that closes the trick (the winner leads next)."""
    cdef int p = s.turn, w, led
    cdef uint32_t b = bit(card)
    s.hand[p] &= ~b
    s.exposed[p] &= ~b
    s.played[p] |= b
    s.card_trick[card] = s.tricks_done
    if s.trick.n == 0:                          # the lead (the trick was opened for p)
        trick_add(&s.trick, p, card)
        s.turn = 1 - p
        return
    led = led_card(s)
    trick_add(&s.trick, p, card)
    if card_suit(card) != card_suit(led):
        s.void_suits[p] |= 1 << card_suit(led)
    trick_set_winner(&s.trick, trick_winner(led, card, s.trump, s.high))
    w = s.trick.winner
    s.tricks[w] += 1
    s.tricks_done += 1
    trick_start(&s.trick, w, 2)
    s.turn = w
    if s.tricks_done == 9:
        finish_deal(s, c)

cdef void ex_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef EXState* s = <EXState*>st
    if s.phase == EX_PH_PLAY:
        apply_play(s, <const EXConfig*>cfg, a)
    elif s.phase == EX_PH_DECLARE:
        apply_declare(s, <const EXConfig*>cfg, a)

cdef void ex_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    cdef const EXConfig* c = <const EXConfig*>cfg
    if c.match:
        out[0] = <double>(s.score[0] - s.score[1])
    elif s.phase == EX_PH_END:
        out[0] = <double>(s.deal_pts[0] - s.deal_pts[1])
    else:
        out[0] = 0.0
    out[1] = -out[0]

cdef void ex_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    out[0] = s.dealer
    out[1] = s.target
    out[2] = s.tricks[0]
    out[3] = s.tricks[1]
    out[4] = s.meld_points[0]
    out[5] = s.meld_points[1]
    out[6] = s.bonus_seat
    out[7] = s.score[0]
    out[8] = s.score[1]
    out[9] = s.deal_no
    out[10] = s.winner


# ---------------------------------------------------------------------------------------------
# observation and resampling
# ---------------------------------------------------------------------------------------------
cdef inline bint visible(const EXState* s, const EXConfig* c, int q, int p) noexcept nogil:
    """Are q's declarations visible to p? Always, except under simultaneous declaration before
    both players have finished."""
    return q == p or not c.simultaneous or s.decl_done == 3

cdef void ex_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    cdef const EXConfig* c = <const EXConfig*>cfg
    cdef int q, i, k = 0
    cdef bint vis
    put_bits(o + k, s.hand[p]); k += 24
    o[k + p] = 1.0; k += 2
    for i in range(3):
        o[k + s.table[i]] = 1.0
        k += 24
    for q in range(2):
        vis = visible(s, c, q, p)
        if vis:
            put_bits(o + k, s.exposed[q])
        k += 24
        put_bits(o + k, s.played[q]); k += 24
        for i in range(EX_MAXMELD):
            if vis:
                put_bits(o + k, s.meld[q][i])
            k += 24
        if vis:
            o[k] = s.meld_points[q] / 10.0
        k += 1
        o[k] = s.tricks[q] / 9.0; k += 1
        o[k] = (s.decl_done >> q) & 1; k += 1
        for i in range(4):
            o[k + i] = (s.void_suits[q] >> i) & 1
        k += 4
    k += put_card_tricks(o + k, s.card_trick, 24, 9.0)
    if s.trick.n > 0:
        o[k + led_card(s)] = 1.0
    k += 24
    o[k + s.trick.leader] = 1.0; k += 2
    if s.phase != EX_PH_END:
        o[k + s.turn] = 1.0
    k += 2
    o[k + s.dealer] = 1.0; k += 2
    o[k + s.phase] = 1.0; k += 3
    if s.phase == EX_PH_DECLARE and visible(s, c, s.turn, p):
        put_bits(o + k, sel_of(s))
    k += 24
    o[k] = s.score[0] / <float>c.target_score
    o[k + 1] = s.score[1] / <float>c.target_score
    k += 2
    o[k] = s.deal_no / 10.0; k += 1
    o[k] = s.deal_pts[0] / 50.0
    o[k + 1] = s.deal_pts[1] / 50.0
    k += 2

ctypedef struct BuildCtx:
    const EXConfig* c
    uint32_t known           # the opponent's cards p knows (exposed, and the meld he is building)
    uint32_t melded          # his hand cards already used in melds
    uint32_t sel             # the meld he is building (in view)
    uint32_t table_avail     # face-up cards he may still use
    uint32_t tm              # the face-up cards

cdef bint can_complete(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """World check of the resample policy: the meld the opponent is building in view can still
    be completed with the hand this world gives him (zone 0)."""
    cdef const BuildCtx* x = <const BuildCtx*>ctx
    cdef uint32_t hand = x.known
    cdef int i
    for i in range(n):
        if dest[i] == 0:
            hand |= bit(cards[i])
    if meld_value(x.c, x.sel, ~x.tm) >= 0:
        return True
    return meld_extensions(x.c, x.sel, cs_popcount(x.sel & ~x.tm), hand & ~x.melded & ~x.sel,
                           x.table_avail) != 0

cdef int ex_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy: the opponent's hidden cards
    (zone 0, his hand size kept) and the three set-aside cards (zone 1). He keeps every card he
    has exposed (and the cards of a meld he is building in view); the cards of a suit he has
    shown void in are set aside (they are pinned there, so the draw stays uniform). A meld he
    is building in view must stay completable (the policy's world check). Under simultaneous
    declaration, declarations p has not seen yet are withdrawn (an opponent who declared nothing
    is a consistent world). Returns 0 if no consistent world is found. The deal stream is
    replaced so later deals of a match do not leak."""
    cdef EXState* s = <EXState*>st
    cdef const EXConfig* c = <const EXConfig*>cfg
    cdef int q = 1 - p, i
    cdef int room[2]
    cdef uint64_t newh[2]
    cdef uint32_t pool, forced
    cdef BuildCtx x
    cdef world_check_fn check = NULL
    cdef bint building
    if not visible(s, c, q, p):
        clear_declarations(s, q)
        if s.phase == EX_PH_DECLARE and s.turn == q:
            staged_clear(&s.stage)
    x.known = s.exposed[q]
    if s.phase == EX_PH_DECLARE and s.turn == q:
        x.known |= sel_of(s) & s.hand[q]
    pool = (s.hand[q] & ~x.known) | s.aside
    room[0] = cs_popcount(s.hand[q] & ~x.known)
    forced = 0
    for i in range(4):
        if (s.void_suits[q] >> i) & 1:
            forced |= pool & suit_cards(i)
    room[1] = cs_popcount(s.aside) - cs_popcount(forced)
    building = s.phase == EX_PH_DECLARE and s.turn == q and sel_of(s) != 0
    x.c = c
    x.melded = s.melded[q]
    x.sel = sel_of(s)
    x.tm = table_mask(s)
    x.table_avail = avail_table(s, c, q)
    if building:
        check = can_complete
    if not resample_masks(pool & ~forced, room, NULL, 2, newh, rng, check, &x, RESAMPLE_EXACT_TRIES,
                          RESAMPLE_CONSTRAINED_TRIES):
        return 0
    s.hand[q] = x.known | <uint32_t>newh[0]
    s.aside = forced | <uint32_t>newh[1]
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef uint32_t best_meld(const EXState* s, const EXConfig* c, int* best_pts) noexcept nogil:
    """The greedy agent's next meld: the highest-valued legal meld that contains the cards
    already built, sequences (longest first, hand cards before face-up cards) before sets of a
    kind at equal value. 0 if none."""
    cdef int p = s.turn, r, i, v, bv = -1
    cdef uint32_t tm = table_mask(s)
    cdef uint32_t Ah = s.hand[p] & ~s.melded[p] & ~sel_of(s)
    cdef uint32_t At = avail_table(s, c, p)
    cdef uint32_t sel = sel_of(s), W, m, best = 0, pick, rs = rank_bits(sel)
    cdef bint ok
    if cs_popcount(rs) == cs_popcount(sel):
        for i in range(6):
            W = ex_windows[i]
            if rs & ~W:
                continue
            m = sel
            ok = True
            for r in range(6):
                if not (W >> r) & 1 or (rs >> r) & 1:
                    continue
                pick = Ah & rank_cards(r)
                if not pick:
                    pick = At & rank_cards(r)
                if not pick:
                    ok = False
                    break
                m |= bit(bit_low(pick))
            if not ok:
                continue
            v = meld_value(c, m, ~tm)
            if v > bv:
                bv = v
                best = m
    if cs_popcount(rs) <= 1:
        for r in range(6):
            if rs and not (rs >> r) & 1:
                continue
            m = sel | ((Ah | At) & rank_cards(r))
            v = meld_value(c, m, ~tm)
            if v > bv:
                bv = v
                best = m
    best_pts[0] = bv
    return best

cdef int greedy_declare(const EXState* s, const EXConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int pts
    cdef uint32_t m = best_meld(s, c, &pts)
    if m == 0 or pts <= 0 and sel_of(s) == 0:
        if as_has(legal, EX_DONE):
            return EX_DONE
    if m != 0:
        if m == sel_of(s):
            return EX_DECLARE
        return EX_MELD0 + bit_low(m & ~sel_of(s))
    return as_first(legal, 1)

cdef inline int play_key(int c, bint led, const EXState* s) noexcept nogil:
    """Sort key of a card for 'cheapest': trumps above every plain card."""
    return rank_key(card_rank(c), led, s.high) + (16 if card_suit(c) == s.trump else 0)

cdef int greedy_play(const EXState* s, const EXConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, q = 1 - p, cd, k, best = -1, bk = 0, danger, o
    cdef uint32_t m = <uint32_t>legal.w[0], tmp, unseen, opp, beat
    cdef bint want = s.tricks[p] != s.target or c.contract_bonus < c.trick_pts
    unseen = EX_FULL & ~(s.hand[p] | s.played[0] | s.played[1] | table_mask(s))
    opp = unseen
    for k in range(4):
        if (s.void_suits[q] >> k) & 1:
            opp &= ~suit_cards(k)
    if visible(s, c, q, p):
        opp |= s.exposed[q]
    if s.trick.n == 0:
        tmp = m
        while tmp:
            cd = bit_low(tmp)
            tmp &= tmp - 1
            danger = 0
            beat = opp
            while beat:
                o = bit_low(beat)
                beat &= beat - 1
                if trick_winner(cd, o, s.trump, s.high) == 1:
                    danger += 1
            # want: fewest beaters, then cheapest; else: most beaters, then cheapest
            k = (danger * 64 + play_key(cd, True, s)) if want else ((24 - danger) * 64 + play_key(cd, True, s))
            if best < 0 or k < bk:
                bk = k
                best = cd
        return best
    tmp = m
    while tmp:
        cd = bit_low(tmp)
        tmp &= tmp - 1
        if trick_winner(led_card(s), cd, s.trump, s.high) == 1:
            # a winner: cheapest when wanted, else only as a last resort (lowest)
            k = play_key(cd, False, s) if want else 1000 + play_key(cd, False, s)
        else:
            # a loser: lowest when a win was wanted (none possible), else the highest loser
            k = 100 + play_key(cd, False, s) if want else 100 - play_key(cd, False, s)
        if best < 0 or k < bk:
            bk = k
            best = cd
    return best

cdef int ex_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const EXState* s = <const EXState*>st
    if s.phase == EX_PH_DECLARE:
        return greedy_declare(s, <const EXConfig*>cfg, legal)
    return greedy_play(s, <const EXConfig*>cfg, legal)


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
cdef class ExposureSpec(GameSpec):
    cdef EXConfig c

    def __init__(self, dict opts):
        self.c.simultaneous = opts["declaration_order"] == "simultaneous"
        self.c.min_hand = opts["min_hand_cards_per_meld"]
        self.c.table_reuse = opts["table_card_reuse"] == "reusable"
        self.c.target_score = opts["target_score"]
        for i, v in enumerate(opts["meld_points"]):
            self.c.meld_pts[i] = v
        self.c.trick_pts = opts["points_per_trick"]
        self.c.contract_bonus = opts["contract_bonus"]
        self.c.match = opts["scope"] == "match"
        self.c.max_deals = opts["max_deals"]
        self.vt.init = ex_init
        self.vt.current_player = ex_current_player
        self.vt.legal = ex_legal
        self.vt.apply = ex_apply
        self.vt.is_terminal = ex_is_terminal
        self.vt.returns = ex_returns
        self.vt.observe = ex_observe
        self.vt.resample = ex_resample
        self.vt.greedy = ex_greedy
        self.vt.metrics = ex_metrics
        self.install("exposure", &self.c, 2, EX_NUM_ACTIONS, sizeof(EXState), OBS_SIZE, METRICS, "zero",
                     dict(opts))

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < 24:
            return card_str(a)
        if a < EX_DECLARE:
            # a face-up card is marked with '*' as in the spec (parsing accepts it either way)
            c = a - EX_MELD0
            return "MELD " + card_str(c) + ("*" if (table_mask(<EXState*>self._data(s)) >> c) & 1 else "")
        if a == EX_DECLARE:
            return "DECLARE"
        return "DONE"

    def _parse_action(self, State s, str text):
        t = text.strip().upper().rstrip("*")
        if t in ("DONE", "PASS"):
            return EX_DONE
        if t in ("DECLARE", "COMMIT"):
            return EX_DECLARE
        try:
            if t.startswith("MELD"):
                return EX_MELD0 + parse_card(t[4:].strip())
            if t.startswith("+"):
                return EX_MELD0 + parse_card(t[1:].strip())
            c = parse_card(t)
        except ParseError:
            raise ParseError(f"exposure: cannot parse action {short(text)}; expected a card ('AS', "
                             f"'10H'), 'MELD <card>', 'DECLARE' or 'DONE'") from None
        # in the declaration phase a bare card means adding it to the meld
        return EX_MELD0 + c if (<EXState*>self._data(s)).phase == EX_PH_DECLARE else c

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<EXState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("declaration", "play", "end")[(<EXState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return 24

    def _card_total(self, State s):
        """Cards in hands (exposed included) + played + face-up + set aside."""
        cdef EXState* st = <EXState*>self._data(s)
        cdef uint32_t tm = table_mask(st)
        cdef uint32_t allm = tm | st.aside
        cdef int n = 3 + cs_popcount(st.aside)
        for p in range(2):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == EX_FULL else -n

    def _view(self, State s):
        """A dict of the facts of the position (for tests and display; includes hidden ones)."""
        cdef EXState* st = <EXState*>self._data(s)
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "high_card": card_str(st.table[0]), "trump_card": card_str(st.table[1]),
            "contract_card": card_str(st.table[2]),
            "high_rank": RANKS[st.high], "trump": SUITS[st.trump], "target": st.target,
            "hands": [mask_to_cards(st.hand[p]) for p in range(2)],
            "exposed": [mask_to_cards(st.exposed[p]) for p in range(2)],
            "melds": [[mask_to_cards(st.meld[p][i]) for i in range(st.nmelds[p])] for p in range(2)],
            "meld_points": [st.meld_points[0], st.meld_points[1]],
            "building": mask_to_cards(sel_of(st)),
            "aside": mask_to_cards(st.aside),
            "declared": [bool(st.decl_done & 1), bool(st.decl_done & 2)],
            "leader": st.trick.leader, "led": None if st.trick.n == 0 else card_str(led_card(st)),
            "tricks": [st.tricks[0], st.tricks[1]], "tricks_done": st.tricks_done,
            "score": [st.score[0], st.score[1]], "deal_points": [st.deal_pts[0], st.deal_pts[1]],
            "deal_no": st.deal_no, "bonus_seat": None if st.bonus_seat < 0 else st.bonus_seat,
            "winner": None if st.winner < 0 else st.winner,
            "played": [mask_to_cards(st.played[p]) for p in range(2)],
        }

    def _render(self, State s):
        v = self.view(s)
        lines = [f"Exposure  phase={v['phase']}  dealer={v['dealer']}  face-up H {v['high_card']} "
                 f"T {v['trump_card']} C {v['contract_card']}  (high {v['high_rank']}, trump "
                 f"{v['trump']}, target {v['target']})  score {v['score'][0]}-{v['score'][1]}"]
        for p in range(2):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p}: {' '.join(v['hands'][p])}  exposed [{' '.join(v['exposed'][p])}]  "
                         f"melds {v['meld_points'][p]}  tricks {v['tricks'][p]}")
        if v["phase"] == "declaration" and v["building"]:
            lines.append("building: " + " ".join(v["building"]))
        if v["phase"] == "play" and v["led"]:
            lines.append(f"trick: {v['leader']} led {v['led']}")
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, **facts):
        """A fresh state (declaration phase), for scenario tests and analysis: two 9-card hands
        (card strings) and the public facts table (the face-up cards [H, T, C], required),
        dealer (0 or 1, default 1) and scores (the two cumulative scores before this deal,
        scope "match"); the remaining three cards are set aside. Every argument is validated
        before the state is touched (ConfigError / ParseError)."""
        cdef State s
        cdef EXState* st
        cdef card_t perm[24]
        cdef int i
        unknown = sorted(set(facts) - {"table", "dealer", "scores"})
        if unknown:
            raise ConfigError(f"exposure: unknown scenario facts {unknown}; known: table, dealer, scores")
        table = facts.get("table")
        if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != 2:
            raise ConfigError(f"exposure: hands must be 2 lists of 9 cards, got {hands!r:.60}")
        masks = [cards_to_mask(h) for h in hands]
        for h in hands:
            if len(h) != 9:
                raise ConfigError(f"exposure: every hand has 9 cards, got {len(h)}")
        tm = cards_to_mask(table)
        if len(table) != 3:
            raise ConfigError("exposure: need 3 face-up cards [H, T, C]")
        tcards = [parse_card(t) for t in table]
        dealer = check_int(facts.get("dealer", 1), "exposure: dealer", 0, 1, ConfigError)
        scores = facts.get("scores")
        if scores is not None:
            if isinstance(scores, (str, bytes)) or not isinstance(scores, (list, tuple)) or len(scores) != 2:
                raise ConfigError(f"exposure: scores must be 2 ints, got {scores!r:.60}")
            scores = [check_int(v, "exposure: scores", 0, MAX_SCORE, ConfigError) for v in scores]
        allm = masks[0] | masks[1]
        if masks[0] & masks[1] or allm & tm:
            raise ConfigError("exposure: a card appears twice among the hands and face-up cards")
        nd = 1 - dealer
        h = [sorted(c for c in range(24) if (masks[q] >> c) & 1) for q in range(2)]
        rest = [c for c in range(24) if not ((allm | tm) >> c) & 1]
        for i in range(9):
            perm[2 * i] = h[nd][i]
            perm[2 * i + 1] = h[dealer][i]
        for i in range(3):
            perm[18 + i] = tcards[i]
            perm[21 + i] = rest[i]
        s = self._scenario_state()
        st = <EXState*>self._data(s)
        st.dealer = dealer
        deal_from(st, perm)
        if scores is not None:
            st.score[0] = scores[0]
            st.score[1] = scores[1]
        return s

    def deal_hands(self, hands, table, dealer=1, scores=None):
        """Same as scenario(hands, table=table, dealer=dealer, scores=scores)."""
        return self.scenario(hands, table=table, dealer=dealer, scores=scores)


MAX_SCORE = 1_000_000         # cumulative scores given to a scenario


# ---- oracles' kernels --------------------------------------------------------------------------
def oracle_deal_order(list perm, int dealer):
    """Hands, face-up cards and aside from a deck in dealing order (perm[0] = card 1)."""
    cdef EXState st
    cdef card_t pm[24]
    if len(perm) != 24 or sorted(perm) != list(range(24)) or not 0 <= dealer <= 1:
        raise ConfigError("exposure: a deal order is the 24 card ids 0..23, each once, and a dealer 0 or 1")
    memset(&st, 0, sizeof(EXState))
    for i in range(24):
        pm[i] = perm[i]
    st.dealer = dealer
    deal_from(&st, pm)
    return ([st.hand[0], st.hand[1]], [st.table[0], st.table[1], st.table[2]], st.aside,
            st.turn, st.high, st.trump, st.target)

def oracle_score(ExposureSpec spec, list tricks, list meld_points, int target):
    """Deal points per player (§6) with the engine's scoring kernel."""
    return (deal_points(&spec.c, tricks[0], meld_points[0], target),
            deal_points(&spec.c, tricks[1], meld_points[1], target))
