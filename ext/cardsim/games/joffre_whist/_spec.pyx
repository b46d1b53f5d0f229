"""Joffre Whist, the compiled glue: `JoffreWhistSpec` fills the config struct from the resolved
options (defaults live only in INFO.options), fills the vtable from the kernels (_state, _agent,
_observe) and installs the game, and implements the hooks that read or write the state struct
(action and hand strings, phase, card total, view, render, the scenario's struct setter). The text
itself (cards, bids, actions, the rendering) and the checking of scenario arguments are
`cardsim.games.joffre_whist.notation`'s (pure Python)."""
from cardsim.core._types cimport int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State

from cardsim.games.joffre_whist._rules cimport JWConfig, JW_NUM_ACTIONS, jw_full
from cardsim.games.joffre_whist._state cimport play_loop as jw_play_loop
from cardsim.games.joffre_whist._state cimport (JWState, deal_cards, jw_init, jw_current_player,
                                                jw_legal, jw_apply, jw_is_terminal, jw_returns,
                                                jw_metrics)
from cardsim.games.joffre_whist._agent cimport jw_greedy
from cardsim.games.joffre_whist._observe cimport jw_observe, jw_resample
from cardsim.games.joffre_whist._layout cimport OBS_SIZE

from cardsim.games.joffre_whist._state cimport JW_PH_PLAY

from cardsim.games.joffre_whist.info import INFO
from cardsim.games.joffre_whist.notation import (SUITS, card_str, mask_to_cards, bid_str, action_str,
                                                 parse_action, render, _bid_index)


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void jw_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): the score so far (the returns: team points, the
    match's before its last deal) plus, in trick play, the declaring team's progress toward its
    contract against the defenders' toward setting it (§6): DT / need - OT / (14 - need), need =
    6 + level tricks, DT and OT the tricks the teams have won; both partners get the team's
    figure, the defenders its negative."""
    cdef const JWState* s = <const JWState*>st
    cdef int p, T, need, dt, ot
    cdef double f
    jw_returns(st, cfg, out)
    if s.phase != JW_PH_PLAY or s.declarer < 0:
        return
    T = s.declarer & 1
    need = 6 + s.level
    dt = s.tricks[T] + s.tricks[T + 2]
    ot = s.tricks_done - dt
    f = <double>dt / need - <double>ot / (14 - need)
    for p in range(4):
        out[p] += f if (p & 1) == T else -f

cdef void jw_fill_vtable(GameVTable* vt) noexcept:
    vt.init = jw_init
    vt.current_player = jw_current_player
    vt.legal = jw_legal
    vt.apply = jw_apply
    vt.is_terminal = jw_is_terminal
    vt.returns = jw_returns
    vt.observe = jw_observe
    vt.resample = jw_resample
    vt.greedy = jw_greedy
    vt.metrics = jw_metrics
    vt.standing = jw_standing
    vt.play = jw_play_loop           # the batch loop with this game's kernels inlined


cdef class JoffreWhistSpec(GameSpec):
    cdef JWConfig c

    def __init__(self, dict opts, info=INFO):
        """The spec of the resolved options `opts`; `info` is the game's GameInfo (INFO; the
        layout test passes a broken one to see install_game refuse it)."""
        unit = opts["unit_table"]
        for i in range(7):
            self.c.unit[i] = unit[i]
        self.c.slam_mode = 0 if opts["slam_value"] == "double_row" else 1
        self.c.slam_bonus = opts["slam_bonus"]
        self.c.joffre_declarer_only = opts["jta_joffre_holder"] == "declarer"
        self.c.ta_any_suit = opts["ta_length_rule"] == "any_suit"
        self.c.failed_jta_double = opts["failed_jta_double"]
        self.c.honours_per_card = opts["honours_mode"] == "per_card"
        self.c.dealer_bids = opts["all_pass"] == "dealer_bids"
        self.c.joffre_bonus = opts["joffre_bonus"]
        self.c.jta_joffre_bonus = opts["jta_joffre_bonus"]
        self.c.honours_bonus = opts["honours_bonus"]
        self.c.royal_bonus = opts["royal_bonus"]
        self.c.num_deals = opts["num_deals"]
        self.c.match = opts["scope"] == "match"
        self.c.max_redeals = opts["max_redeals"]
        jw_fill_vtable(&self.vt)
        self.install_game(info, &self.c, 4, JW_NUM_ACTIONS, sizeof(JWState), OBS_SIZE, opts)

    @property
    def deck_size(self):
        return 52

    def _card_total(self, State s):
        """Cards in hands + cards played (in tricks won or on the table) this deal."""
        cdef JWState* st = <JWState*>self._data(s)
        cdef uint64_t allm = 0
        cdef int n = 0
        for p in range(4):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == jw_full else -n

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return action_str(a)

    def _parse_action(self, State s, str text):
        return parse_action(text, (<JWState*>self._data(s)).phase)

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<JWState*>self._data(s)).hand[p & 3])

    def _phase_name(self, State s):
        return ("auction", "play", "end")[(<JWState*>self._data(s)).phase]

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef JWState* st = <JWState*>self._data(s)
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "high": None if st.high < 0 else bid_str(st.high), "high_bidder": st.high_bidder,
            "doubled": bool(st.doubled), "doubler": st.doubler,
            "passed": [p for p in range(4) if (st.passed >> p) & 1],
            "declarer": st.declarer if st.declarer >= 0 else None,
            "contract": None if st.declarer < 0 else bid_str(_bid_index(st.level, st.strain, st.named)),
            "contract_doubled": bool(st.cdoubled),
            "trump": None if st.trump < 0 else SUITS[st.trump],
            "leader": st.cur.leader, "trick": [None if st.cur.card[p] < 0 else card_str(st.cur.card[p])
                                               for p in range(4)],
            "tricks": [st.tricks[p] for p in range(4)], "tricks_done": st.tricks_done,
            "ta_count": st.ta_count, "score": [st.score[0], st.score[1]],
            "deal_points": [st.deal_pts[0], st.deal_pts[1]], "deal_no": st.deal_no,
            "made": None if st.made < 0 else bool(st.made), "throw_ins": st.throw_ins,
            "redeals": st.redeals,
            "won": [mask_to_cards(st.won[p]) for p in range(4)],
            "voids": [[SUITS[x] for x in range(4) if (st.void_suits[p] >> x) & 1] for p in range(4)],
        }

    def _render(self, State s):
        return render(self.view(s), [self.hand_strings(s, p) for p in range(4)])

    # ---- scenario set-up: the struct setter behind cardsim.games.joffre_whist.scenario -------
    def _scenario_deal(self, int dealer, list masks):
        """A fresh deal at the start of the auction (match score 0-0): `dealer` deals (0..3),
        masks[q] = seat q's hand (4 disjoint 13-card masks; the face checks them)."""
        cdef State s
        cdef JWState* st
        if not 0 <= dealer < 4 or len(masks) != 4:
            raise ValueError("joffre_whist: _scenario_deal needs a dealer 0..3 and 4 hand masks")
        s = self._scenario_state()
        st = <JWState*>self._data(s)
        st.dealer = dealer
        deal_cards(st)
        for p in range(4):
            st.hand[p] = masks[p]
        return s
