"""Hearts, the compiled glue: `HeartsSpec` fills the config struct from the resolved options
(defaults live only in INFO.options), fills the vtable from the kernels (_state, _agent,
_observe), installs the game and implements the hooks that read or write the state struct
(strings, view, rendering, the scenario's struct setter)."""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State

from cardsim.games.hearts._rules cimport HTConfig, HT_MAXP, ht_deck_of, card_points
from cardsim.games.hearts._state cimport (HTState, HT_NUM_ACTIONS, HT_PH_PASS, ht_init, ht_current_player,
                                          ht_legal, ht_apply, ht_is_terminal, ht_returns, ht_metrics,
                                          ht_set_deal, ht_broken, ht_tricks_won)
from cardsim.games.hearts._agent cimport ht_greedy
from cardsim.games.hearts._observe cimport ht_observe, ht_resample
from cardsim.games.hearts._layout cimport OBS_SIZE
from cardsim.games.hearts._state cimport play_loop as _play_loop

from cardsim.core._types cimport int32_t
from cardsim.games.hearts._rules cimport ht_return

from cardsim.errors import ParseError, short
from cardsim.games.hearts.notation import card_str, mask_to_cards, parse_card
from cardsim.games.hearts.info import INFO, PASS_DIRS, ROTATIONS


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void ht_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): the penalty points each seat has taken so far (§6: a
    heart 1, ♠Q 13, ♦J -10 with jd_bonus) added to its score, through the returns' own formula
    (D10: the others' mean minus own, or 26 - own); a moon counts only when the deal ends."""
    cdef const HTState* s = <const HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int32_t sc[HT_MAXP]
    cdef int q, N = c.nplayers
    for q in range(N):
        sc[q] = s.score[q] + card_points(c, s.taken[q])
    for q in range(N):
        out[q] = ht_return(c, sc, N, q)

cdef void hearts_fill_vtable(GameVTable* vt) noexcept:
    vt.init = ht_init
    vt.current_player = ht_current_player
    vt.legal = ht_legal
    vt.apply = ht_apply
    vt.play = _play_loop
    vt.is_terminal = ht_is_terminal
    vt.returns = ht_returns
    vt.observe = ht_observe
    vt.resample = ht_resample
    vt.greedy = ht_greedy
    vt.metrics = ht_metrics
    vt.standing = ht_standing


cdef class HeartsSpec(GameSpec):
    cdef HTConfig c

    def __init__(self, dict opts, info=INFO):
        """opts: the resolved options (INFO.resolve); info: the GameInfo to install from."""
        self.c.nplayers = opts["players"]
        self.c.deck = ht_deck_of(self.c.nplayers)
        self.c.hand_size = cs_popcount(self.c.deck) // self.c.nplayers
        self.c.rotation = ROTATIONS.index(opts["pass_rotation"])
        self.c.any_club = opts["first_lead"] == "any_club"
        self.c.no_pts_first = opts["no_points_first_trick"]
        self.c.must_break = opts["must_break_hearts"]
        self.c.qs_breaks = opts["queen_breaks_hearts"]
        self.c.hearts_over_qs = opts["lead_hearts_over_queen"]
        self.c.moon_add = opts["moon"] == "add"
        self.c.jd_bonus = opts["jd_bonus"]
        self.c.avoid_bonus = opts["avoid_all_tricks_bonus"]
        self.c.openspiel_returns = opts["returns"] == "openspiel"
        self.c.match = opts["scope"] == "match"
        self.c.match_target = opts["match_target"]
        self.c.max_deals = opts["max_deals"]
        hearts_fill_vtable(&self.vt)
        self.install_game(info, &self.c, self.c.nplayers, HT_NUM_ACTIONS, sizeof(HTState), OBS_SIZE, opts)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return card_str(a)

    def _parse_action(self, State s, str text):
        try:
            return parse_card(text)
        except ParseError as e:
            raise ParseError(f"hearts: cannot parse action {short(text)}; an action is the card to pass "
                             f"or play, e.g. 'QS', '10H', '2C'") from e

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<HTState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("pass", "play", "end")[(<HTState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return cs_popcount(self.c.deck)

    def _card_total(self, State s):
        """Cards in hands + cards played this deal + the passes in transit (pass phase)."""
        cdef HTState* st = <HTState*>self._data(s)
        cdef uint64_t allm = 0, m
        cdef int n = 0
        for p in range(self.c.nplayers):
            m = st.hand[p] | st.played[p]
            if st.phase == HT_PH_PASS:
                m |= st.passed[p]
            n += cs_popcount(m)
            allm |= m
        if st.phase == HT_PH_PASS:
            n += st.stage.n
            allm |= st.stage.cards.layer[0]
        return n if allm == self.c.deck else -n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef HTState* st = <HTState*>self._data(s)
        N = self.c.nplayers
        staged = st.stage.cards.layer[0] if st.phase == HT_PH_PASS else 0
        trick = [st.played[p] & st.trick_cards for p in range(N)]        # each seat's card in it
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "pass_dir": PASS_DIRS[st.pass_dir], "leader": st.leader,
            "trick": [card_str(bit_low(t)) if t else None for t in trick],
            "hearts_broken": bool(ht_broken(st)), "tricks_done": st.tricks_done,
            "passing": mask_to_cards(staged),
            "passed": [mask_to_cards(st.passed[p]) for p in range(N)],
            "received": [mask_to_cards(st.received[p]) for p in range(N)],
            "played": [mask_to_cards(st.played[p]) for p in range(N)],
            "taken": [mask_to_cards(st.taken[p]) for p in range(N)],
            "tricks": [ht_tricks_won(st, p, N) for p in range(N)],
            "points": [card_points(&self.c, st.taken[p]) for p in range(N)],
            "deal_points": [st.deal_pts[p] for p in range(N)],
            "score": [st.score[p] for p in range(N)], "deal_no": st.deal_no,
            "shooter": None if st.shooter < 0 else st.shooter,
        }

    def _render(self, State s):
        v = self.view(s)
        N = self.c.nplayers
        lines = [f"Hearts  {N} players  phase={v['phase']}  dealer={v['dealer']}  pass {v['pass_dir']}  "
                 f"hearts {'broken' if v['hearts_broken'] else 'unbroken'}  score {v['score']}"]
        for p in range(N):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p} ({v['points'][p]} pts): {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"{p}:{c}" for p, c in enumerate(v["trick"]) if c))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def _set_deal(self, hands, int dealer, int pass_dir):
        """The scenario's struct setter (checked arguments only: the face's `_scenario`): a state
        dealt by `dealer` with hands[q] (disjoint masks of the table's pack, hand_size cards each)
        and pass_dir 0..3 (hold, left, across, right; -1 = the rotation's); not replayable."""
        cdef uint64_t hm[HT_MAXP]
        cdef uint64_t allm = 0
        cdef int q, N = self.c.nplayers
        if len(hands) != N or not 0 <= dealer < N or not -1 <= pass_dir < 4 \
                or (pass_dir == 2 and N != 4):
            raise ValueError("hearts: _set_deal takes checked arguments (see scenario)")
        for q in range(N):
            hm[q] = hands[q]
            if hm[q] & ~self.c.deck or hm[q] & allm or cs_popcount(hm[q]) != self.c.hand_size:
                raise ValueError("hearts: _set_deal takes checked arguments (see scenario)")
            allm |= hm[q]
        cdef State s = self._scenario_state()
        ht_set_deal(<HTState*>self._data(s), &self.c, dealer, pass_dir, hm)
        return s
