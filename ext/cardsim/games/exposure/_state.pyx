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

Layout (ext/cardsim/games/exposure/, the shape of docs/ADDING_A_GAME.md): `_rules` the pure
rules on cards and config (trick order and winner, follow rule, meld value and completability,
dealing order, deal points, game end) and the compiled oracles; this module the state struct's
machine (deal, declarations, play, scoring); `_agent` the greedy agent; `_observe` observation
and resampling; `_layout.pxd` the observation offsets (generated from INFO.observation); `_spec`
the thin glue (ExposureSpec: config, vtable, the struct's string and scenario hooks). The Python
face cardsim.games.exposure holds INFO (info.py: options, metrics, observation blocks, bounds),
the card notation, the public oracles and the scenario builders, which check every argument.
Core mechanisms used: deal_down / draw_down (the deal as drawn), TrickRecord and trick_close
(the current trick), staged moves (the meld under construction), the resample policy (with the
meld in view as its world check) and resample_rekey, card_bit (as the 24-card bit32),
GameSpec.install_game and _scenario_state. Scenario states: scenario(game, hands,
table=[H, T, C], dealer=1, scores=None) or spec.scenario(hands, ...).

Returns: per seat, own points minus the opponent's (zero-sum): the deal's points (scope "deal")
or the cumulative match points (scope "match"). Raw points are the metrics points_0/points_1.

Metrics: dealer, target (contract tricks), tricks_0/1, meld_points_0/1, bonus_seat (who made
the contract bonus in the last deal, -1 nobody), points_0/1 (cumulative points), deals (deals
played), winner (scope "match": the winning seat, -1 draw; always -1 in scope "deal").

Observation: the blocks (own cards, face-up cards, per seat exposed cards, plays, melds, ...)
are declared once in INFO.observation (src/cardsim/games/exposure/info.py, printed by
INFO.layout_doc() and in docs/observations.md); `_layout.pxd` holds their generated offsets and
`_observe` writes each block at its OBS_<BLOCK> offset. With
``declaration_order="simultaneous"`` the other seat's melds, exposed cards, meld points and meld
under construction are blank until both players have finished declaring.

Greedy agent: see `_agent` (the highest-valued meld still available until none is left; in play
a trick is wanted unless the contract target is already reached exactly).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, int32_t, uint32_t, uint64_t, card_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._actions cimport ActionSet, as_add, as_add_mask
from cardsim.core._deal cimport cs_identity_pack64, deal_down, draw_down
from cardsim.core._trick cimport trick_start, trick_add, trick_close
from cardsim.core._hand cimport Hand
from cardsim.core._staged cimport staged_start, staged_add, staged_active, staged_commit
from cardsim.games.exposure._rules cimport (
    EXConfig, EX_NCARDS, EX_TRICKS, EX_H, EX_T, EX_C, card_suit, card_rank, bit32, trick_winner,
    legal_follows, meld_value, meld_value_n, meld_extensions_r, deal_points, match_outcome, contract_target,
    deal_order)


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
    """Deal a shuffled deck (§3, _rules.deal_order): cards 1-18 one at a time alternately,
    non-dealer first; cards 19, 20, 21 face up as H-card, T-card, C-card; 22-24 aside. Resets
    the deal's state."""
    deal_order(perm, s.dealer, s.hand, s.table, &s.aside)
    start_deal(s)

cdef void start_deal(EXState* s) noexcept nogil:
    """Reset the deal's state around the cards just dealt (hands, face-up cards and aside set):
    the face-up cards' roles, no plays, no declarations, the non-dealer to declare."""
    cdef int q
    cdef int nd = 1 - s.dealer
    for q in range(2):
        s.played[q] = 0
        s.tricks[q] = 0
        s.void_suits[q] = 0
        clear_declarations(s, q)
    memset(s.card_trick, -1, sizeof(s.card_trick))
    s.tmask = bit32(s.table[0]) | bit32(s.table[1]) | bit32(s.table[2])
    s.high = card_rank(s.table[EX_H])
    s.trump = card_suit(s.table[EX_T])
    s.target = contract_target(s.table[EX_C])
    clear_stage(s)
    s.phase = EX_PH_DECLARE
    s.turn = nd
    trick_start(&s.trick, nd, 2)
    s.decl_done = 0
    s.tricks_done = 0

cdef void ex_set_deal(EXState* s, const card_t* perm, int dealer, const int32_t* scores) noexcept nogil:
    """The scenario setter: a fresh deal of the deck `perm` (in dealing order) by `dealer`, with
    the cumulative scores before it (NULL: unchanged). Checked arguments only (the face checks
    them)."""
    s.dealer = dealer
    deal_from(s, perm)
    if scores != NULL:
        s.score[0] = scores[0]
        s.score[1] = scores[1]

cdef void deal_cards(EXState* s) noexcept nogil:
    """Shuffle and deal (§3, deal_order's places) as drawn (core deal_down / draw_down): the
    frozen shuffle of a fresh pack fixes positions from the last down, each card going straight
    to its place: positions 23-21 aside, 20 C-card, 19 T-card, 18 H-card, then 17..0 alternately
    to the dealer (odd) and the non-dealer (even). The same draws and the same deal as
    shuffled_pack then deal_from."""
    cdef card_t a[EX_NCARDS]
    cdef Rng r = s.rng                      # local copy of the stream (see core shuffle)
    cdef uint64_t aside = 0
    cdef uint64_t h[2]                      # the dealer's (odd positions), the non-dealer's
    h[0] = 0
    h[1] = 0
    memcpy(a, cs_identity_pack64, EX_NCARDS)
    deal_down(&aside, a, EX_NCARDS - 1, 21, 1, &r)     # positions 23..21: aside
    s.table[EX_C] = draw_down(a, 20, &r)
    s.table[EX_T] = draw_down(a, 19, &r)
    s.table[EX_H] = draw_down(a, 18, &r)
    deal_down(h, a, 17, 0, 2, &r)           # 17..0: dealer, non-dealer, ...
    s.rng = r
    s.hand[s.dealer] = <uint32_t>h[0]
    s.hand[1 - s.dealer] = <uint32_t>h[1]
    s.aside = <uint32_t>aside
    start_deal(s)

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

cdef int legal_declare(const EXState* s, const EXConfig* c, ActionSet* out) noexcept nogil:
    """Declaration turn (§4). Validity: DONE iff no meld is being built; DECLARE iff the cards
    built form a legal meld; MELD k iff k is an own unmelded hand card or a face-up card this
    player may still use, and the cards built plus k can still be completed into a legal meld
    (meld_extensions)."""
    cdef int p = s.turn, n = 0
    cdef uint32_t sel = sel_of(s)
    cdef uint32_t ext = meld_extensions_r(c, s.sel_ranks, s.stage.n, s.sel_hand,
                                          s.hand[p] & ~s.melded[p] & ~sel, avail_table(s, c, p))
    if sel == 0:
        as_add(out, EX_DONE)
        n = 1
    elif meld_value_n(c, sel, s.stage.n, s.sel_hand) >= 0:
        as_add(out, EX_DECLARE)
        n = 1
    # the staged meld's adds: meld_extensions already is the completability rule (computed a
    # rank at a time), so every one of its cards is offered at once
    as_add_mask(out, EX_MELD0, ext)
    return n + cs_popcount(ext)

cdef int ex_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _ex_legal_impl(st, cfg, out)

cdef inline int _ex_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
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
        s.sel_ranks = 0
        s.sel_hand = 0
        s.melded[p] |= hp
        s.exposed[p] |= hp
        s.used_table[p] |= sel & tm
    else:
        if not staged_active(&s.stage):
            staged_start(&s.stage, EX_STAGE_MELD, p)
        a -= EX_MELD0
        staged_add(&s.stage, a)
        s.sel_ranks |= 1 << card_rank(a)
        s.sel_hand += not ((s.tmask >> a) & 1)

cdef void apply_play(EXState* s, const EXConfig* c, int card) noexcept nogil:
    """Play one card (§5): the lead, or the follow that closes the trick (the winner leads next)."""
    cdef int p = s.turn, w, led
    cdef uint32_t b = bit32(card)
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
    w = trick_close(&s.trick, trick_winner(led, card, s.trump, s.high))   # the winner leads next
    s.tricks[w] += 1
    s.tricks_done += 1
    s.turn = w
    if s.tricks_done == EX_TRICKS:
        finish_deal(s, c)

cdef void ex_apply(void* st, const void* cfg, int a) noexcept nogil:
    _ex_apply_impl(st, cfg, a)

cdef inline void _ex_apply_impl(void* st, const void* cfg, int a) noexcept nogil:
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


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _ex_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return ex_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _ex_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (EX_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
