"""Samba (three-deck Canasta with sequences), 2 to 6 players.

Implements docs/rules/samba.md §1-§8 and its decisions S-D1..S-D24 as written, with the engine
limits listed in docs/rules/samba.md ("As implemented"). Seats 0..N-1 clockwise; sides: N = 2,
3, 5 each player alone; N = 4 partners {0,2} {1,3}; N = 6 {0,3} {1,4} {2,5} (side = seat % S).

Card kinds: suit*13 + rank (suits S H D C, rank 0 = '2' .. 12 = 'A'), 52 = joker `JK`.

Core mechanisms used: shuffle (the deal), Staged + staged_legal_adds with a completability
callback (every ADD), resample_zones with a world check and resample_rekey (resample),
GameSpec.install_game (INFO), _scenario_state and check_int (the scenario writer).

Modules (ext/cardsim/games/samba/): `_rules` the pure rules (card values, meld validity,
lay-offs and merges, the completions a staged meld can still reach, the initial-meld requirement,
the pile-pair group, side scoring); `_units` the constructive meld builder; `_going_out` the exact
searches about going out (x_free: the initial batch from some of the cards; the go-out plans);
`_opening` the initial-meld searches (can a batch still reach its minimum?); `_state` the state
struct and the state machine with the draw phase's legal actions (its docstring gives the action
space and the returns); `_masks` the closed-form ADD decisions on the packed hands' bit masks;
`_legal` the meld phase's legal-move generation and the vtable's `legal`; `_agent` the greedy
agent (its docstring describes the policy); `_observe` the observation (blocks: INFO.observation
in `cardsim.games.samba.info`, offsets generated into `_layout.pxd`) and resampling; and this
module the glue: the spec (config, vtable, install), the hooks that read the struct (hands, view,
card total; their text comes from `cardsim.games.samba.notation`, pure Python), the scenario's
struct writer and the rule oracles' kernels behind `cardsim.games.samba`. Test hooks: `_testing`
(records_consistent).
"""
from libc.string cimport memset
from cardsim.core._types cimport int8_t
from cardsim.core._hand cimport Hand, hand_clear
from cardsim.core._staged cimport staged_clear
from cardsim.core._actions cimport ActionSet, as_has
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games.samba._rules cimport (
    SBConfig, Meld, SB_KINDS, SB_JK, SB_DECK, SB_MAXMELDS, MT_NONE, MT_GROUP, MT_SEQ, sb_req, sb_group_ok,
    sb_meld_of, sb_counts, sb_is_canasta, is_wild, is_red3)
from cardsim.games.samba._state cimport (
    SBState, MeldIndex, SB_MAXP, SB_MAXS, SB_NUM_ACTIONS, A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_DECLINE, A_MELD, A_FAIL,
    A_RED3, A_ASK, A_YES, A_NO, A_LAYOFF, A_TAKE_LAYOFF, A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO, PH_DRAW, PH_MELD,
    add_kind, canastas, req_of, reindex, side_points, reset_turn, start_turn, side_score, sb_init, sb_current_player, sb_is_terminal,
    sb_apply, sb_returns, sb_metrics, draw_legal)
from cardsim.games.samba._legal cimport sb_legal
from cardsim.games.samba._agent cimport sb_greedy
from cardsim.games.samba._observe cimport sb_observe, sb_resample
from cardsim.games.samba._layout cimport OBS_SIZE
from cardsim.games.samba._state cimport play_loop as _play_loop

from cardsim.core._hand cimport hand_size
from cardsim.games.samba._rules cimport sb_red3_score
from cardsim.games.samba._state cimport side_of

from cardsim.errors import ConfigError, ParseError, short as _short
from cardsim.games.samba.notation import (PHASES, END_TYPES, MELD_TYPES, kind_str, counts_to_strings,
                                          action_name, parse_action_text, check_kinds, render)

# the kernel's action space and card constants, for the test that checks notation.py against them
ACTION_BASES = {"A_ADD": A_ADD, "A_DISCARD": A_DISCARD, "A_DRAW": A_DRAW, "A_TAKE_PAIR": A_TAKE_PAIR,
                "A_DECLINE": A_DECLINE, "A_MELD": A_MELD, "A_FAIL": A_FAIL, "A_RED3": A_RED3,
                "A_ASK": A_ASK, "A_YES": A_YES, "A_NO": A_NO, "A_LAYOFF": A_LAYOFF,
                "A_TAKE_LAYOFF": A_TAKE_LAYOFF, "A_TAKE_SEQ": A_TAKE_SEQ, "A_MERGE_FROM": A_MERGE_FROM,
                "A_MERGE_TO": A_MERGE_TO, "NUM_ACTIONS": SB_NUM_ACTIONS, "KINDS": SB_KINDS, "JK": SB_JK,
                "DECK": SB_DECK, "MAXMELDS": SB_MAXMELDS}

cdef void count_into(const Hand* h, int* tot) noexcept:
    cdef int8_t cnt[SB_KINDS]
    cdef int k
    sb_counts(h, cnt)
    for k in range(SB_KINDS):
        tot[k] += cnt[k]

cdef list hand_list(const Hand* h):
    cdef int8_t cnt[SB_KINDS]
    sb_counts(h, cnt)
    return counts_to_strings([cnt[k] for k in range(SB_KINDS)])

def config_from_options(dict opts):
    """The resolved options (cardsim.games.samba.OPTIONS) as the C config fields."""
    N = opts["players"]
    hs = opts["hand_size"] or (13 if N == 6 else 15)
    return dict(
        nplayers=N, nsides={2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[N], hand_size=hs,
        upcard_rewind=int(opts["upcard_rewind"]), always_frozen=int(opts["pile_model"] == "always_frozen"),
        seq_top_take=int(opts["sequence_top_card_take"]), red3_manual=int(opts["red_three_mode"] == "manual"),
        red3_hand_750=int(opts["red3_in_hand_penalty"] == "per_player_750"),
        red3_six_600=int(opts["red3_unqualified"] == "dutch"),
        dutch_groups=int(opts["group_wild_rule"] == "dutch"),
        woc=("allowed", "not_onto_natural", "never").index(opts["wild_onto_canasta"]),
        table_hoyle=int(opts["initial_meld_table"] == "hoyle"),
        penalize=int(opts["insufficient_initial_meld"] == "penalize"),
        go_out_query=int(opts["allow_go_out_query"]), min_canastas=opts["going_out_min_canastas"],
        target=opts["target_score"], concealed_bonus=opts["concealed_bonus"],
        match=int(opts["scope"] == "match"), max_fails=opts["max_failed_melds"], max_deals=opts["max_deals"])

cdef void fill_config(SBConfig* c, dict f):
    c.nplayers = f["nplayers"]; c.nsides = f["nsides"]; c.hand_size = f["hand_size"]
    c.upcard_rewind = f["upcard_rewind"]; c.always_frozen = f["always_frozen"]
    c.seq_top_take = f["seq_top_take"]; c.red3_manual = f["red3_manual"]
    c.red3_hand_750 = f["red3_hand_750"]; c.red3_six_600 = f["red3_six_600"]
    c.dutch_groups = f["dutch_groups"]; c.woc = f["woc"]; c.table_hoyle = f["table_hoyle"]
    c.penalize = f["penalize"]; c.go_out_query = f["go_out_query"]; c.min_canastas = f["min_canastas"]
    c.target = f["target"]; c.concealed_bonus = f["concealed_bonus"]; c.match = f["match"]
    c.max_fails = f["max_fails"]; c.max_deals = f["max_deals"]


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void sb_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): each side's points on the table, as the deal's score
    counts them (§Scoring: the card values of its melds, its canasta and samba bonuses, its
    exposed red threes, negative while it has fewer than 2 canastas), without what counts only
    at the end (the cards left in hand, going out); partners get their side's figure, added to
    the cumulative score in a match. A meld's points come from its cards' bit masks (side_points:
    popcounts, no count vector); the canastas, pending ones too, from the meld index (C + Cp)."""
    cdef const SBState* s = <const SBState*>st
    cdef const SBConfig* c = <const SBConfig*>cfg
    cdef double table[SB_MAXS]
    cdef int side, p, r3
    for side in range(c.nsides):
        table[side] = s.cum[side] if c.match else 0.0
        table[side] += side_points(s, side)
        r3 = hand_size(&s.red3[side])
        if r3:
            table[side] += sb_red3_score(r3, s.mi[side].C + s.mi[side].Cp, c)
    for p in range(c.nplayers):
        out[p] = table[side_of(c, p)]

cdef class SambaSpec(GameSpec):
    cdef SBConfig c

    def __init__(self, dict opts, info):
        """The spec of these resolved options and Samba's GameInfo (`cardsim.games.samba.build`
        passes INFO; the layout tests pass a changed one to see the install check fail)."""
        fill_config(&self.c, config_from_options(opts))
        self.vt.init = sb_init
        self.vt.current_player = sb_current_player
        self.vt.legal = sb_legal
        self.vt.apply = sb_apply
        self.vt.play = _play_loop
        self.vt.is_terminal = sb_is_terminal
        self.vt.returns = sb_returns
        self.vt.observe = sb_observe
        self.vt.resample = sb_resample
        self.vt.greedy = sb_greedy
        self.vt.metrics = sb_metrics
        self.vt.standing = sb_standing
        self.install_game(info, &self.c, self.c.nplayers, SB_NUM_ACTIONS, sizeof(SBState), OBS_SIZE, opts)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return action_name(a)

    def _parse_action(self, State s, str text):
        return parse_action_text(text)

    def _hand_strings(self, State s, int p):
        return hand_list(&(<SBState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return PHASES[(<SBState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return SB_DECK

    def _card_total(self, State s):
        """Cards in hands, staged, melds, exposed red threes, the pile (and a top card being
        taken) and the stock: 162 when every kind has its 3 copies (6 jokers), else -total."""
        cdef SBState* st = <SBState*>self._data(s)
        cdef int tot[SB_KINDS]
        cdef int i, k, q, side
        for k in range(SB_KINDS):
            tot[k] = 0
        for q in range(self.c.nplayers):
            count_into(&st.hand[q], tot)
        count_into(&st.stage.cards, tot)
        count_into(&st.aside, tot)
        for side in range(self.c.nsides):
            count_into(&st.red3[side], tot)
            for i in range(SB_MAXMELDS):
                if st.melds[side][i].type != MT_NONE:
                    count_into(&st.melds[side][i].cards, tot)
        for i in range(st.npile):
            tot[st.pile[i]] += 1
        for i in range(st.nstock):
            tot[st.stock[i]] += 1
        if st.take_top >= 0:
            tot[st.take_top] += 1
        n = 0
        ok = tot[SB_JK] == 6
        for k in range(SB_KINDS):
            n += tot[k]
            if k < 52 and tot[k] != 3:
                ok = False
        return n if ok else -n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef SBState* st = <SBState*>self._data(s)
        N = self.c.nplayers
        melds = []
        for side in range(self.c.nsides):
            row = []
            for i in range(SB_MAXMELDS):
                if st.melds[side][i].type != MT_NONE:
                    row.append({"slot": i, "type": MELD_TYPES[st.melds[side][i].type],
                                "cards": hand_list(&st.melds[side][i].cards),
                                "pending": bool(st.melds[side][i].pending)})
            melds.append(row)
        return {
            "phase": PHASES[st.phase], "turn": st.turn, "mover": st.mover, "dealer": st.dealer,
            "hands": [hand_list(&st.hand[q]) for q in range(N)],
            "known": [hand_list(&st.known[q]) for q in range(N)],
            "staged": hand_list(&st.stage.cards),
            "take_top": None if st.take_top < 0 else kind_str(st.take_top),
            "melds": melds,
            "red3": [hand_list(&st.red3[side]) for side in range(self.c.nsides)],
            "opened": [bool(st.opened[side]) for side in range(self.c.nsides)],
            "requirement": [req_of(st, &self.c, side) for side in range(self.c.nsides)],
            "canastas": [canastas(st, side) for side in range(self.c.nsides)],
            "pile": [kind_str(st.pile[i]) for i in range(st.npile)],
            "stock": [kind_str(st.stock[i]) for i in range(st.nstock)],
            "pile_take": st.pile_take, "merge_from": None if st.merge_from < 0 else st.merge_from,
            "partner_said_no": bool(st.partner_no), "must_go_out": bool(st.must_out),
            "end_type": END_TYPES[st.end_type], "out_seat": None if st.out_seat < 0 else st.out_seat,
            "deal_scores": [st.last[side] for side in range(self.c.nsides)],
            "cum_scores": [st.cum[side] for side in range(self.c.nsides)], "deal_no": st.deal_no,
        }

    def _render(self, State s):
        return render(self.view(s), self.c.nplayers, self.c.nsides)

    # ---- scenario set-up: the struct writer behind cardsim.games.samba.scenario ----------------
    def _scenario_fill(self, int dealer, int turn, bint meld_phase, bint first_turn_done, list hk, list pk,
                       list mk, list opened, list rk, list cum, list sk):
        """A scenario state from facts cardsim.games.samba.scenario has checked (card kinds per
        seat, the pile, per side the melds, opened flags, red threes and scores, the stock). Only
        what a write needs is re-checked here (shapes, seats, kinds and copies, meld validity), so
        no call writes outside the struct; the rules' checks and messages are the face's."""
        cdef State s
        cdef SBState* st
        cdef int8_t cnt[SB_KINDS]
        cdef int used[SB_KINDS]
        cdef Meld m
        cdef Hand h
        N = self.c.nplayers
        S = self.c.nsides
        if (len(hk) != N or len(mk) != S or len(opened) != S or len(rk) != S or len(cum) != S
                or not 0 <= dealer < N or not 0 <= turn < N or any(len(x) > SB_MAXMELDS for x in mk)):
            raise ConfigError("samba: _scenario_fill takes the checked facts of cardsim.games.samba.scenario")
        every = list(pk) + list(sk)
        for x in hk + rk + [ks for side_melds in mk for ks in side_melds]:
            every += x
        check_kinds(every)                  # kinds 0..52, copies within the deck (ParseError)
        memset(used, 0, sizeof(used))
        for k in every:
            used[k] += 1
        s = self._scenario_state()
        st = <SBState*>self._data(s)
        st.dealer = dealer
        for q in range(SB_MAXP):
            hand_clear(&st.hand[q])
            hand_clear(&st.known[q])
            st.first_done[q] = 1 if first_turn_done else 0
            st.melded[q] = 0
        for side in range(SB_MAXS):
            hand_clear(&st.red3[side])
            memset(&st.melds[side][0], 0, sizeof(Meld) * SB_MAXMELDS)
            st.live[side] = 0
            reindex(st, &self.c, side, -1)
            st.opened[side] = 0
            st.req_pen[side] = 0
            st.cum[side] = 0
            st.last[side] = 0
        staged_clear(&st.stage)
        hand_clear(&st.aside)
        for k in range(SB_KINDS):
            for i in range((6 if k == SB_JK else 3) - used[k]):
                add_kind(&st.aside, k)
        for q in range(N):
            for k in hk[q]:
                add_kind(&st.hand[q], k)
        for side in range(S):
            st.opened[side] = bool(opened[side])
            st.cum[side] = check_int(cum[side], "samba: cum", -10**8, 10**8, ConfigError)
            for k in rk[side]:
                add_kind(&st.red3[side], k)
            for i, ks in enumerate(mk[side]):
                for k in range(SB_KINDS):
                    cnt[k] = 0
                hand_clear(&h)
                for k in ks:
                    cnt[k] += 1
                    add_kind(&h, k)
                t = sb_meld_of(cnt, &m)
                if t <= 0 or (t == MT_GROUP and not sb_group_ok(m.nat, m.wild, &self.c)):
                    raise ConfigError(f"samba: {[kind_str(k) for k in ks]} is not a valid meld")
                m.cards = h
                m.pending = 0
                st.melds[side][i] = m
                reindex(st, &self.c, side, i)
        st.npile = len(pk)
        st.pile_frz = 0
        for i, k in enumerate(pk):
            st.pile[i] = k
            if is_wild(k) or is_red3(k):
                st.pile_frz += 1
        st.nstock = len(sk)
        for i, k in enumerate(sk):
            st.stock[i] = k
        st.batch_value = 0
        st.end_type = 0
        st.out_seat = -1
        reset_turn(st, &self.c, turn)
        if meld_phase:
            st.phase = PH_MELD
            st.drew = 1
        elif st.nstock == 0 or not first_turn_done:
            start_turn(st, &self.c, turn)       # T0 (dealt red threes), or the end of the stock (§4.5)
        return s


# ---- oracles' kernels (cardsim.games.samba parses and validates first) -------------------------
cdef int counts_in(list kinds, int8_t* cnt) except -1:
    """The count vector of card kinds; kinds outside 0..52 or more copies than the deck holds raise
    ParseError before anything is written (these kernels are reachable from Python)."""
    check_kinds(kinds)
    for k in range(SB_KINDS):
        cnt[k] = 0
    for k in kinds:
        cnt[k] += 1
    return 0

def oracle_classify(list kinds, bint going_out, dict opts):
    """(type code, meld n, nat, wild) or (negative reason code, ...) for one meld's cards."""
    cdef SBConfig c
    cdef int8_t cnt[SB_KINDS]
    cdef Meld m
    fill_config(&c, config_from_options(opts))
    counts_in(kinds, cnt)
    t = sb_meld_of(cnt, &m)
    if t == MT_GROUP and not sb_group_ok(m.nat, m.wild, &c):
        return (-4, m.n, m.nat, m.wild)
    if t <= 0:
        return (t, 0, 0, 0)
    return (t, m.n, m.nat, m.wild)

cdef int check_oracle_lists(list melds, list hands, list pile) except -1:
    """The oracles' list arguments within what their kernels hold: at most 32 melds, one or two
    hands, at most 162 cards a list, card kinds 0..52, no more copies than the deck in all."""
    if len(melds) > SB_MAXMELDS or len(pile) > SB_DECK or len(hands) > 2:
        raise ParseError(f"samba: at most {SB_MAXMELDS} melds, 2 hands and {SB_DECK} pile cards")
    every = list(pile)
    for x in melds + hands:
        if not isinstance(x, list):
            raise ParseError(f"samba: a meld or hand is a list of card kinds, got {_short(x)}")
        every += x
    check_kinds(every)
    return 0

cdef int build_meld(list kinds, Meld* m, SBConfig* c) except -1:
    cdef int8_t cnt[SB_KINDS]
    counts_in(kinds, cnt)
    t = sb_meld_of(cnt, m)
    if t <= 0 or (t == MT_GROUP and not sb_group_ok(m.nat, m.wild, c)):
        raise ParseError(f"samba: {[kind_str(k) for k in kinds]} is not a valid meld")
    hand_clear(&m.cards)
    for k in kinds:
        add_kind(&m.cards, k)
    m.pending = 0
    return 0

def oracle_can_take_pile(list hand, list pile, list side_melds, bint opened, int side_score, dict opts):
    """can_take_pile through the engine's own T1 legality: a 2-player scenario where seat 0's side
    holds the melds, the pile and the score; True if TAKE_PAIR or TAKE_LAYOFF is legal."""
    cdef SBConfig c
    cdef SBState st
    cdef ActionSet out
    cdef Meld m
    check_oracle_lists(side_melds, [hand], pile)
    o = dict(opts)
    o["players"] = 2
    o["scope"] = "deal"
    fill_config(&c, config_from_options(o))
    memset(&st, 0, sizeof(SBState))
    for k in hand:
        add_kind(&st.hand[0], k)
    for i, ks in enumerate(side_melds):
        build_meld(ks, &m, &c)
        st.melds[0][i] = m
        reindex(&st, &c, 0, i)
    for i, k in enumerate(pile):
        st.pile[i] = k
        if is_wild(k) or is_red3(k):
            st.pile_frz += 1
    st.npile = len(pile)
    st.nstock = 1
    st.opened[0] = opened
    st.cum[0] = side_score
    st.phase = PH_DRAW
    st.take_top = -1
    st.merge_from = -1
    draw_legal(&st, &c, &out)
    if as_has(&out, A_TAKE_PAIR):
        return True
    for i in range(SB_MAXMELDS):
        if as_has(&out, A_TAKE_LAYOFF + i):
            return True
    return False

def oracle_score_side(list melds, list hands, int red_threes, bint went_out, dict opts):
    """score_side through the engine's side_score on a finished 2-player state."""
    cdef SBConfig c
    cdef SBState st
    cdef Meld m
    if len(hands) not in (1, 2) or not 0 <= red_threes <= 6:
        raise ParseError("samba: score_side takes 1 or 2 hands and 0..6 exposed red threes")
    check_oracle_lists(melds, hands, [])
    o = dict(opts)
    o["players"] = 2 * len(hands) if len(hands) in (1, 2) else 2
    if len(hands) == 2:
        o["players"] = 4
    o["scope"] = "deal"
    fill_config(&c, config_from_options(o))
    memset(&st, 0, sizeof(SBState))
    for i, ks in enumerate(melds):
        build_meld(ks, &m, &c)
        st.melds[0][i] = m
        reindex(&st, &c, 0, i)
    for j, h in enumerate(hands):
        q = j * c.nsides
        st.first_done[q] = 1
        for k in h:
            add_kind(&st.hand[q], k)
    for i in range(red_threes):
        add_kind(&st.red3[0], 14 if i % 2 == 0 else 27)
    st.end_type = 1 if went_out else 2
    st.out_seat = 0 if went_out else -1
    st.melded_at_start = 1
    st.mover = 1
    return side_score(&st, &c, 0)

def oracle_req(int cum, bint hoyle):
    return sb_req(cum, hoyle)
