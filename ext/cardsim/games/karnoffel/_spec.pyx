"""Karnöffel: the thin glue between the kernels and Python (KarnoffelSpec).

It fills the config struct from the resolved options (defaults live only in INFO.options), fills
the vtable from the kernel modules (_state, _agent, _observe), installs the game from INFO
(GameSpec.install_game), and implements the hooks that read or write the state struct: action
and hand strings, phase, card total, view, render, and the scenario's struct setter. Checking and
converting arguments (card strings, scenario hands) is the Python face's (cardsim.games.karnoffel)."""
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State
from cardsim.games.karnoffel._rules cimport KNConfig, KN_DECK, KN_MAXP, kn_full
from cardsim.games.karnoffel._state cimport (KNState, KN_NUM_ACTIONS, kn_init, kn_current_player,
                                             kn_legal, kn_apply, kn_is_terminal, kn_returns,
                                             kn_metrics, kn_set_deal)
from cardsim.games.karnoffel._agent cimport kn_greedy
from cardsim.games.karnoffel._observe cimport kn_observe, kn_resample
from cardsim.games.karnoffel._layout cimport OBS_SIZE
from cardsim.games.karnoffel._state cimport play_loop as _play_loop

from cardsim.errors import ParseError, short
from cardsim.games.karnoffel.notation import card_str, mask_to_cards, parse_card
from cardsim.games.karnoffel.info import INFO, SUITS


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void kn_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): the score so far (the returns: ante x the game points
    difference, the match's before its last deal) plus ante x (own team's tricks - the other
    team's) / 3 in the current deal, whose winner is the first team to 3 tricks (§5-§6); both
    partners get the team's figure."""
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int p
    kn_returns(st, cfg, out)
    for p in range(c.nplayers):
        out[p] += c.ante * (s.team_tricks[p & 1] - s.team_tricks[1 - (p & 1)]) / 3.0

cdef void karnoffel_fill_vtable(GameVTable* vt) noexcept:
    vt.init = kn_init
    vt.current_player = kn_current_player
    vt.legal = kn_legal
    vt.apply = kn_apply
    vt.play = _play_loop
    vt.is_terminal = kn_is_terminal
    vt.returns = kn_returns
    vt.observe = kn_observe
    vt.resample = kn_resample
    vt.greedy = kn_greedy
    vt.metrics = kn_metrics
    vt.standing = kn_standing


cdef class KarnoffelSpec(GameSpec):
    cdef KNConfig c

    def __init__(self, dict opts, info=INFO):
        """opts: the resolved options (INFO.resolve); info: the GameInfo to install from."""
        self.c.nplayers = opts["players"]
        self.c.stop_at_three = opts["stop_at_three"]
        self.c.match_target = opts["match_target"]
        self.c.match = opts["scope"] == "match"
        self.c.ante = opts["ante"] if opts["stakes"] == "ante" else 1
        karnoffel_fill_vtable(&self.vt)
        self.install_game(info, &self.c, self.c.nplayers, KN_NUM_ACTIONS, sizeof(KNState), OBS_SIZE, opts)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return card_str(a)

    def _parse_action(self, State s, str text):
        try:
            return parse_card(text)
        except ParseError as e:
            raise ParseError(f"karnoffel: cannot parse action {short(text)}; an action is the card to play, "
                             f"e.g. 'KS', '10H', '7D'") from e

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<KNState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("play", "end")[(<KNState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return KN_DECK

    def _card_total(self, State s):
        """Cards in hands + cards played this deal + the undealt stock."""
        cdef KNState* st = <KNState*>self._data(s)
        cdef uint64_t allm = st.stock
        cdef int n = cs_popcount(st.stock)
        for p in range(self.c.nplayers):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == kn_full else -n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef KNState* st = <KNState*>self._data(s)
        N = self.c.nplayers
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "leader": st.cur.leader, "chosen": SUITS[st.chosen],
            "up": [card_str(st.up[p]) for p in range(N)],
            "trick": [None if st.cur.card[p] < 0 else card_str(st.cur.card[p]) for p in range(N)],
            "team_tricks": [st.team_tricks[0], st.team_tricks[1]], "tricks_done": st.tricks_done,
            "trick_winners": [st.trick_winner[i] for i in range(st.tricks_done)],
            "score": [st.score[0], st.score[1]], "deal_no": st.deal_no,
            "deal_winner": None if st.deal_winner < 0 else st.deal_winner,
            "played": [mask_to_cards(st.played[p]) for p in range(N)],
            "stock": mask_to_cards(st.stock),
        }

    def _render(self, State s):
        v = self.view(s)
        N = self.c.nplayers
        lines = [f"Karnöffel  {N} players  phase={v['phase']}  dealer={v['dealer']}  chosen suit "
                 f"{v['chosen']}  tricks team0 {v['team_tricks'][0]} team1 {v['team_tricks'][1]}  "
                 f"points {v['score'][0]}-{v['score'][1]}"]
        for p in range(N):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p} (team {p & 1}, up {v['up'][p]}): {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"{p}:{c}" for p, c in enumerate(v["trick"]) if c))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def _set_deal(self, hands, int dealer, up):
        """The scenario's struct setter (checked arguments only: the face's `_scenario`): a state
        dealt by `dealer` with hands[q] (masks, disjoint, 5 cards each) and up[q] (card ids, a
        card of hands[q]); not replayable."""
        cdef uint64_t hm[KN_MAXP]
        cdef int8_t ups[KN_MAXP]
        cdef int q, N = self.c.nplayers
        if len(hands) != N or len(up) != N or not 0 <= dealer < N:
            raise ValueError("karnoffel: _set_deal takes checked arguments (see scenario)")
        for q in range(N):
            hm[q] = hands[q]
            ups[q] = up[q]
            if not 0 <= ups[q] < KN_DECK or not (hm[q] >> ups[q]) & 1 or hm[q] & ~kn_full:
                raise ValueError("karnoffel: _set_deal takes checked arguments (see scenario)")
        cdef State s = self._scenario_state()
        kn_set_deal(<KNState*>self._data(s), N, dealer, hm, ups)
        return s
