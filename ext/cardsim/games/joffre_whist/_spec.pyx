"""Joffre Whist, the compiled glue: `JoffreWhistSpec` fills the config struct from the resolved
options (defaults live only in INFO.options), fills the vtable from the kernels (_state, _agent,
_observe) and installs the game; its underscore hooks only read or write the state struct. Card
and bid strings, views, rendering and scenario checks are the face's (`cardsim.games.joffre_whist`,
which subclasses this spec)."""
from cardsim.core._types cimport int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State

from cardsim.games.joffre_whist._rules cimport JWConfig, JW_NUM_ACTIONS, jw_full
from cardsim.games.joffre_whist._state cimport (JWState, deal_cards, jw_init, jw_current_player,
                                                jw_legal, jw_apply, jw_is_terminal, jw_returns,
                                                jw_metrics)
from cardsim.games.joffre_whist._agent cimport jw_greedy
from cardsim.games.joffre_whist._observe cimport jw_observe, jw_resample
from cardsim.games.joffre_whist._layout cimport OBS_SIZE

from cardsim.games.joffre_whist.info import INFO


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

    # ---- struct reads and the scenario setter (the face turns them into strings) ------------
    def _phase(self, State s):
        """The phase (0 auction, 1 play, 2 end)."""
        return (<JWState*>self._data(s)).phase

    def _hand_mask(self, State s, int p):
        """Seat p's hand as a 52-bit mask (p checked by the caller)."""
        return (<JWState*>self._data(s)).hand[p & 3]

    def _fields(self, State s):
        """The struct's fields the face's view reads, as plain ints and lists."""
        cdef JWState* st = <JWState*>self._data(s)
        return {
            "phase": st.phase, "dealer": st.dealer, "turn": st.turn, "high": st.high,
            "high_bidder": st.high_bidder, "doubled": st.doubled, "doubler": st.doubler,
            "passed": st.passed, "declarer": st.declarer, "level": st.level, "strain": st.strain,
            "named": st.named, "cdoubled": st.cdoubled, "trump": st.trump, "leader": st.cur.leader,
            "trick": [st.cur.card[p] for p in range(4)], "tricks": [st.tricks[p] for p in range(4)],
            "tricks_done": st.tricks_done, "ta_count": st.ta_count,
            "score": [st.score[0], st.score[1]], "deal_pts": [st.deal_pts[0], st.deal_pts[1]],
            "deal_no": st.deal_no, "made": st.made, "throw_ins": st.throw_ins,
            "redeals": st.redeals, "won": [st.won[p] for p in range(4)],
            "void_suits": [st.void_suits[p] for p in range(4)],
        }

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
