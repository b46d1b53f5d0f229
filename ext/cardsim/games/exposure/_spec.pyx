"""Exposure: the thin glue between the kernels and Python (ExposureSpec).

It fills the config struct from the resolved options (defaults live only in INFO.options), fills
the vtable from the kernel modules (_state, _agent, _observe), installs the game from INFO
(GameSpec.install_game), and implements the hooks that read or write the state struct: action
and hand strings, phase, card total, view, render, and the scenario's struct setter. Checking and
converting arguments (card strings, scenario hands and facts) is the Python face's
(cardsim.games.exposure)."""
from cardsim.core._types cimport int32_t, uint32_t, card_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State
from cardsim.games.exposure._rules cimport EXConfig, EX_NCARDS, EX_FULL
from cardsim.games.exposure._state cimport (EXState, EX_NUM_ACTIONS, EX_MELD0, EX_DECLARE, EX_DONE,
                                            EX_PH_DECLARE, ex_init, ex_current_player, ex_legal, ex_apply,
                                            ex_is_terminal, ex_returns, ex_metrics, ex_set_deal, led_card,
                                            sel_of, table_mask)
from cardsim.games.exposure._agent cimport ex_greedy
from cardsim.games.exposure._observe cimport ex_observe, ex_resample
from cardsim.games.exposure._layout cimport OBS_SIZE
from cardsim.games.exposure._state cimport play_loop as _play_loop

from cardsim.games.exposure._rules cimport deal_points

from cardsim.errors import ParseError, short
from cardsim.games.exposure.notation import RANKS, SUITS, card_str, mask_to_cards, parse_card
from cardsim.games.exposure.info import INFO


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void ex_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): the deal's points as if it ended now (§6: 2 per trick
    won, the meld points declared, the contract bonus while the tricks equal the target), the
    difference as the returns give it, added to the match score difference in a match."""
    cdef const EXState* s = <const EXState*>st
    cdef const EXConfig* c = <const EXConfig*>cfg
    cdef double v = (s.score[0] - s.score[1]) if c.match else 0.0
    v += deal_points(c, s.tricks[0], s.meld_points[0], s.target) - deal_points(c, s.tricks[1], s.meld_points[1], s.target)
    out[0] = v
    out[1] = -v

cdef void exposure_fill_vtable(GameVTable* vt) noexcept:
    vt.init = ex_init
    vt.current_player = ex_current_player
    vt.legal = ex_legal
    vt.apply = ex_apply
    vt.play = _play_loop
    vt.is_terminal = ex_is_terminal
    vt.returns = ex_returns
    vt.observe = ex_observe
    vt.resample = ex_resample
    vt.greedy = ex_greedy
    vt.metrics = ex_metrics
    vt.standing = ex_standing


cdef class ExposureSpec(GameSpec):
    cdef EXConfig c

    def __init__(self, dict opts, info=INFO):
        """opts: the resolved options (INFO.resolve); info: the GameInfo to install from."""
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
        exposure_fill_vtable(&self.vt)
        self.install_game(info, &self.c, 2, EX_NUM_ACTIONS, sizeof(EXState), OBS_SIZE, dict(opts))

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < EX_NCARDS:
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
        return EX_NCARDS

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
    def deal_hands(self, hands, table, dealer=1, scores=None):
        """Same as scenario(hands, table=table, dealer=dealer, scores=scores)."""
        return self.scenario(hands, table=table, dealer=dealer, scores=scores)

    def _set_deal(self, list perm, int dealer, scores):
        """The scenario's struct setter (checked arguments only: the face's `_scenario`): a state
        dealt by `dealer` from the deck `perm` (the 24 card ids in dealing order), with the
        cumulative scores before it (two ints, or None); not replayable."""
        cdef card_t pm[EX_NCARDS]
        cdef int32_t sc[2]
        cdef int32_t* scp = NULL
        cdef int i
        if len(perm) != EX_NCARDS or sorted(perm) != list(range(EX_NCARDS)) or not 0 <= dealer <= 1:
            raise ValueError("exposure: _set_deal takes checked arguments (see scenario)")
        for i in range(EX_NCARDS):
            pm[i] = perm[i]
        if scores is not None:
            sc[0] = scores[0]
            sc[1] = scores[1]
            scp = sc
        cdef State s = self._scenario_state()
        ex_set_deal(<EXState*>self._data(s), pm, dealer, scp)
        return s
