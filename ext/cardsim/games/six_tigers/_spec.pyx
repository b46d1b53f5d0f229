"""Hakka Six Tigers: the engine glue. `SixTigersSpec` fills the config struct from the resolved
options and the vtable, installs the game, and reads / writes the state struct for the Python
face (strings, view, the scenario setter). Options, validation and strings live in the face
(`cardsim.games.six_tigers`, its `info` and `notation`)."""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._trick cimport trick_reset
from cardsim.core._engine cimport GameSpec, State
from cardsim.games.six_tigers._rules cimport STConfig, st_full
from cardsim.games.six_tigers._state cimport (
    STState, ST_NUM_ACTIONS, ST_PH_END, old_now, count_of, deal_round, end_declare, open_window,
    st_init, st_current_player, st_legal, st_apply, st_is_terminal, st_returns, st_metrics)
from cardsim.games.six_tigers._agent cimport st_greedy
from cardsim.games.six_tigers._observe cimport st_observe, st_resample
from cardsim.games.six_tigers._layout cimport OBS_SIZE
from cardsim.games.six_tigers._state cimport play_loop as _play_loop

from cardsim.games.six_tigers import notation as _n
from cardsim.games.six_tigers.info import INFO


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void st_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-round (info.STANDING): the points so far (the returns: the match's before
    its last round) plus each active player's count (§6: tricks credited + old cards in hand), the
    figure that lets a player claim the round at 6; the dreamer, who cannot win the round, adds
    nothing."""
    cdef const STState* s = <const STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef uint64_t old = old_now(s, c)
    cdef int q
    st_returns(st, cfg, out)
    for q in range(c.nplayers):
        if q != s.dreamer:
            out[q] += count_of(s, q, old)

cdef class SixTigersSpec(GameSpec):
    cdef STConfig c

    def __init__(self, dict opts, info=None):
        """`info`: the GameInfo to install with (default INFO; tests/test_layout.py passes a
        broken one to prove the install check catches a drifted layout)."""
        cdef int i
        table = opts["point_table"]
        self.c.nplayers = opts["players"]
        self.c.ccw = opts["direction"] == "ccw"
        self.c.must_beat = opts["must_beat_if_able"]
        self.c.old_public = opts["old_tracking"] == "public"
        self.c.auto_claim = opts["auto_claim"]
        self.c.sung = opts["scoring"] == "sung"
        self.c.match = opts["scope"] == "match"
        self.c.rounds = opts["rounds"]
        self.c.claim_last = opts["claim_after_last_trick"]
        self.c.max_redeals = opts["max_redeals"]
        for i in range(7):
            self.c.table[i] = table[i]
        self.c.rules.set_natural = opts["set_order"] == "natural"
        self.c.rules.cloud_in_sets = opts["cloud_in_sets"]
        self.vt.init = st_init
        self.vt.current_player = st_current_player
        self.vt.legal = st_legal
        self.vt.apply = st_apply
        self.vt.play = _play_loop
        self.vt.is_terminal = st_is_terminal
        self.vt.returns = st_returns
        self.vt.observe = st_observe
        self.vt.resample = st_resample
        self.vt.greedy = st_greedy
        self.vt.metrics = st_metrics
        self.vt.standing = st_standing
        self.install_game(INFO if info is None else info, &self.c, self.c.nplayers, ST_NUM_ACTIONS, sizeof(STState), OBS_SIZE, opts)

    # ---- strings (notation in the face) ---------------------------------------------------------
    def _action_string(self, State s, int a):
        return _n.action_string(a)

    def _parse_action(self, State s, str text):
        return _n.parse_action(text)

    def _hand_strings(self, State s, int p):
        return _n.mask_to_cards((<STState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return _n.PHASES[(<STState*>self._data(s)).phase]

    def _render(self, State s):
        return _n.render(self.view(s), [self.hand_strings(s, p) for p in range(self.c.nplayers)])

    @property
    def deck_size(self):
        return 37

    def _card_total(self, State s):
        """Cards in hands + the aside card + face-up and face-down plays of this round (each
        card exactly once, else the negated count)."""
        cdef STState* st = <STState*>self._data(s)
        cdef uint64_t allm = st.aside, m
        cdef int n = cs_popcount(st.aside), q
        for q in range(4):
            m = st.hand[q] | st.up[q] | st.down[q]
            n += cs_popcount(st.hand[q]) + cs_popcount(st.up[q]) + cs_popcount(st.down[q])
            allm |= m
        return n if allm == st_full() and n == 37 else -n

    def _view(self, State s):
        """A dict of the public and private facts (tests, display)."""
        cdef STState* st = <STState*>self._data(s)
        N = self.c.nplayers
        old = old_now(st, &self.c)
        cards = _n.mask_to_cards
        opt = lambda v: None if v < 0 else int(v)
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "dreamer": opt(st.dreamer),
            "turn": opt(st_current_player(st, &self.c)), "order": [st.order[i] for i in range(3)],
            "declarer": opt(st.declarer), "special": opt(st.special),
            "next_dealer": opt(st.next_dealer),
            "leader": opt(st.trick.leader), "k": st.k,
            "high": cards(st.cur[st.high_seat]) if st.high_seat >= 0 else [],
            "trick": [cards(st.cur[q]) for q in range(N)],
            "trick_down": [bool((st.cur_down >> q) & 1) for q in range(N)],
            "staged": cards(st.stg.cards.layer[0]),
            "tricks": [st.tricks[q] for q in range(N)], "ntricks": st.ntricks, "tricks_done": st.ntricks,
            "trick_winners": [st.trick_winner[i] for i in range(st.ntricks)],
            "old": cards(old),
            "counts": [count_of(st, q, old) for q in range(N)],
            "up": [cards(st.up[q]) for q in range(N)],
            "down": [cards(st.down[q]) for q in range(N)],
            "aside": cards(st.aside), "shown": cards(st.shown),
            "winner": opt(st.winner), "t": st.t, "t_dream": st.t_dream,
            "five_tigers": bool(st.five_tigers), "claimed": bool(st.claimed),
            "win_cards": [cards(st.win_cards[q]) for q in range(N)],
            "last": [st.last[q] for q in range(N)], "score": [st.score[q] for q in range(N)],
            "round_no": st.round_no, "voids": st.voids,
        }

    # ---- scenario: the struct setter (arguments checked by cardsim.games.six_tigers.scenario) ---
    def _scenario_set(self, int dealer, list hands, list played, list tricks, uint64_t aside,
                      declarer, leader):
        """A round dealt by `dealer` with these hands / face-up played cards / tricks (4 masks or
        ints each, unused seats 0) and the aside card, then, with a declarer (a seat, or -1 =
        everybody passed), the end of the declaration and the claim window before the lead of
        `leader`. The face has checked every argument (X18)."""
        cdef State s = self._scenario_state()
        cdef STState* st = <STState*>self._data(s)
        cdef int q
        st.dealer = dealer
        st.round_no = 0
        st.voids = 0
        st.redeals = 0
        deal_round(st, &self.c)
        for q in range(4):
            st.hand[q] = hands[q]
            st.up[q] = played[q]
            st.tricks[q] = tricks[q]
            st.reach6[q] = -2 if tricks[q] >= 6 else -1
        st.aside = aside
        if declarer is not None:
            st.declarer = declarer
            if declarer < 0:
                st.decl_pos = 3
            end_declare(st, &self.c)
            if leader is not None and st.phase != ST_PH_END and st.declarer >= 0:
                trick_reset(&st.trick)
                open_window(st, &self.c, leader)
        return s
