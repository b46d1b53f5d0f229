"""Basra: the thin glue between the engine and the kernels (docs/rules/basra.md).

BasraSpec fills the config struct from the resolved options (the card-point table through
info.card_half, the one derivation of it), fills the vtable from `_state`, `_agent` and `_observe`,
installs the game, and holds the hooks that must read or write the state struct: strings, view,
render, and the minimal struct setters the Python face's scenario builders call
(`_deal_pack`, `_set_position`, `_set_scores`, `_game_end`). Validation, scenario argument
checking and card notation live in the face (`cardsim.games.basra`); the setters here only
refuse what would write outside the struct.
"""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, card_bit
from cardsim.core._staged cimport staged_clear
from cardsim.core._engine cimport GameSpec, State
from cardsim.games.basra._rules cimport BasraConfig, game_end
from cardsim.games.basra._state cimport (
    BasraState, BA_NUM_ACTIONS, BA_TAKE0, BA_COMMIT, BA_PH_PLAY, BA_PH_CHOOSE, chosen_of, deal_from_stock,
    ba_init, ba_current_player, ba_legal, ba_apply, ba_is_terminal, ba_returns, ba_metrics, ba_versus)
from cardsim.games.basra._agent cimport ba_greedy
from cardsim.games.basra._observe cimport ba_observe, ba_resample
from cardsim.games.basra._layout cimport OBS_SIZE
from cardsim.games.basra._state cimport play_loop as _play_loop

from cardsim.core._types cimport int8_t, int32_t
from cardsim.games.basra._rules cimport score_deal, side_of

from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.basra.info import card_half
from cardsim.games.basra.notation import card_str, parse_card, mask_to_cards

BA_TAKE0_ACTION = BA_TAKE0
BA_COMMIT_ACTION = BA_COMMIT


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void ba_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): the deal's points as if it ended now (§6: the card
    points each side has captured, doubled cards twice, its basras, and the majority bonus to the
    side with strictly the most cards so far), added to the points so far and compared as the
    returns do (own minus the other sides' mean, in points); partners get their side's figure.
    best_of_5_150: the games won (the returns), ties broken by the current game's points / 1000."""
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef int32_t carry = s.carry
    cdef int32_t half[4]
    cdef int32_t own_half[4]
    cdef int8_t maj
    cdef int p, sd
    cdef double tot = 0.0, own, v
    score_deal(c, s.pile, s.doubled, s.basra_half, &carry, half, &maj)
    for sd in range(c.nsides):
        own_half[sd] = (s.cum_half[sd] if c.best_of_5 else s.total_half[sd]) + half[sd]
        tot += own_half[sd]
    if c.best_of_5:
        ba_returns(st, cfg, out)
    for p in range(c.nplayers):
        own = own_half[side_of(c, p)]
        v = ba_versus(own, tot, c.nsides) / 2.0
        if c.best_of_5:
            out[p] += v / 1000.0
        else:
            out[p] = v

cdef class BasraSpec(GameSpec):
    cdef BasraConfig c

    def __init__(self, dict opts, info):
        n = opts["players"]
        self.c.nplayers = n
        self.c.nsides = 2 if (n == 4 and opts["partnership"]) else n
        self.c.deck = opts["deck"]
        self.c.hand_size = opts["hand_size"]
        self.c.cut_peek = ("dealer", "both", "none").index(opts["cut_peek"])
        self.c.floor_bury = ("bottom10", "bottom", "random").index(opts["floor_bury"])
        self.c.d7_sweep = opts["seven_diamonds"] == "sweep"
        self.c.rank_all = opts["same_rank_take"] == "all"
        self.c.cap_maximum = opts["capture_mode"] == "maximum"
        self.c.sweep_bonus = opts["sweep_bonus"]
        self.c.floor_max = 0 if opts["basra_floor_max"] == "none" else opts["basra_floor_max"]
        self.c.lone_rule = opts["lone_rule"]
        self.c.lone_double = opts["lone_value"] == "double_value"
        self.c.face_basra_value = opts["face_value_for_basra"]
        self.c.d7_yemeni = opts["seven_d_rule"] == "yemeni"
        self.c.jack_lone_jack = opts["jack_on_lone_jack"]
        self.c.queen_lone_queen = opts["queen_on_lone_queen"]
        self.c.face_doubling = {"off": 0, "QKJ": 1, "J_only": 2}[opts["face_doubling"]]
        table = card_half(opts)
        self.c.pts_cards = 0
        for k in range(52):
            self.c.card_half[k] = table[k]
            if table[k]:
                self.c.pts_cards |= (<uint64_t>1) << k
        self.c.majority_half = 2 * opts["majority_points"]
        self.c.majority_carry = opts["majority_tie"] == "carry"
        self.c.basra_last = opts["basra_on_last_play"]
        self.c.ladder = opts["target"] == "ladder"
        self.c.target = 51 if self.c.ladder else opts["target"]
        self.c.sudden_death = opts["tie_rule"] == "sudden_death"
        self.c.best_of_5 = opts["match"] == "best_of_5_150"
        self.c.match = opts["scope"] == "match"
        self.c.max_deals = opts["max_deals"]
        self.vt.init = ba_init
        self.vt.current_player = ba_current_player
        self.vt.legal = ba_legal
        self.vt.apply = ba_apply
        self.vt.play = _play_loop
        self.vt.is_terminal = ba_is_terminal
        self.vt.returns = ba_returns
        self.vt.observe = ba_observe
        self.vt.resample = ba_resample
        self.vt.greedy = ba_greedy
        self.vt.metrics = ba_metrics
        self.vt.standing = ba_standing
        self.install_game(info, &self.c, n, BA_NUM_ACTIONS, sizeof(BasraState), OBS_SIZE,
                          {k: v for k, v in opts.items() if not k.startswith("_")})

    @property
    def num_sides(self):
        return self.c.nsides

    @property
    def deck_size(self):
        return self.c.deck

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < 52:
            return card_str(a)
        if a == BA_COMMIT:
            return "DONE"
        return "TAKE " + card_str(a - BA_TAKE0)

    def _parse_action(self, State s, str text):
        t = text.strip().upper()
        if t in ("DONE", "COMMIT", "CAPTURE"):
            return BA_COMMIT
        take = False
        if t.startswith("TAKE"):
            t = t[4:].strip()
            take = True
        elif t.startswith("+"):
            t = t[1:].strip()
            take = True
        elif (<BasraState*>self._data(s)).phase == BA_PH_CHOOSE:
            take = True
        try:
            k = parse_card(t)
        except ParseError:
            raise ParseError(f"basra: cannot parse action {short(text)}; expected a card to play ('7D', "
                             f"'10H'), 'TAKE <card>' to pick a floor card, or 'DONE'") from None
        return BA_TAKE0 + k if take else k

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<BasraState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("play", "choose", "end")[(<BasraState*>self._data(s)).phase]

    def _card_total(self, State s):
        """Cards in hands + floor + captured piles + stock + the card being played."""
        cdef BasraState* st = <BasraState*>self._data(s)
        cdef uint64_t allm = st.floor
        cdef int n = cs_popcount(st.floor) + st.nstock
        for p in range(4):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.pile[p])
            allm |= st.hand[p] | st.pile[p]
        for i in range(st.nstock):
            allm |= card_bit(st.stock[i])
        if st.phase == BA_PH_CHOOSE:
            n += 1
            allm |= card_bit(st.choice.target)
        return n if allm == card_bit(self.c.deck) - 1 else -n

    def _view(self, State s):
        """A dict of the facts of the state (for tests and display; includes hidden ones)."""
        cdef BasraState* st = <BasraState*>self._data(s)
        S = self.c.nsides
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "cutter": (st.dealer - 1) % self.c.nplayers,          # the dealer's left cuts (§3.1)
            "floor": mask_to_cards(st.floor),
            "hands": [mask_to_cards(st.hand[p]) for p in range(self.c.nplayers)],
            "stock": [card_str(st.stock[i]) for i in range(st.nstock - 1, -1, -1)],   # top first
            "piles": [mask_to_cards(st.pile[i]) for i in range(S)],
            "doubled": [mask_to_cards(st.doubled[i]) for i in range(S)],
            "buried": mask_to_cards(st.buried),
            "peek": card_str(st.peek) if st.peek >= 0 else None,
            "pending": card_str(st.choice.target) if st.phase == BA_PH_CHOOSE else None,
            "chosen": mask_to_cards(chosen_of(st)),
            "last_capturer": None if st.last_capturer < 0 else st.last_capturer,
            "basras": [st.nbasra[i] for i in range(S)],
            "basra_points": [st.basra_half[i] / 2.0 for i in range(S)],
            "deal_points": [st.deal_half[i] / 2.0 for i in range(S)],
            "game_points": [st.cum_half[i] / 2.0 for i in range(S)],
            "total_points": [st.total_half[i] / 2.0 for i in range(S)],
            "games_won": [st.games_won[i] for i in range(S)],
            "carry": st.carry, "majority_side": None if st.majority_side < 0 else st.majority_side,
            "target": (51 + 10 * st.last_target) if self.c.ladder else (150 if self.c.best_of_5 else self.c.target),
            "deals": st.deal_no, "games": st.game_no,
            "winner": None if st.winner < 0 else st.winner,
        }

    def _render(self, State s):
        v = self.view(s)
        lines = [f"Basra  phase={v['phase']}  dealer={v['dealer']}  deal {v['deals'] + (v['phase'] != 'end')}"
                 f"  game points {v['game_points']}  carry {v['carry']}  stock {len(v['stock'])}"]
        lines.append("floor: " + (" ".join(v["floor"]) or "-"))
        for p, h in enumerate(v["hands"]):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p}: {' '.join(h)}")
        if v["pending"]:
            lines.append(f"playing {v['pending']}, chosen: {' '.join(v['chosen']) or '-'}")
        lines.append("captured: " + "  ".join(f"side {i}: {len(pl)} cards, {b} basras"
                                              for i, (pl, b) in enumerate(zip(v["piles"], v["basras"]))))
        return "\n".join(lines)

    # ---- struct setters for the face's scenario builders (cardsim.games.basra) ----------------
    # The face validates every argument with typed errors first; these only refuse what would
    # write outside the struct or leave it inconsistent with the config.
    cdef int _check_mask(self, uint64_t m, str what) except -1:
        if m >> self.c.deck:
            raise ConfigError(f"basra: {what} mask holds cards outside the {self.c.deck}-card pack")
        return 0

    cdef int _check_range(self, long v, long lo, long hi, str what) except -1:
        if not lo <= v <= hi:
            raise ConfigError(f"basra: {what} {v} outside {lo}..{hi}")
        return 0

    def _deal_pack(self, list ids, int dealer):
        """A fresh deal from a whole pack of card ids (ids[0] = top card), dealt as the engine
        deals (§3)."""
        cdef State s
        cdef BasraState* st
        cdef int i
        if len(ids) != self.c.deck or sorted(ids) != list(range(self.c.deck)):
            raise ConfigError(f"basra: the pack must be the {self.c.deck} card ids once each")
        self._check_range(dealer, 0, self.c.nplayers - 1, "dealer")
        s = self._scenario_state()
        st = <BasraState*>self._data(s)
        for i, k in enumerate(reversed(ids)):
            st.stock[i] = k
        st.nstock = self.c.deck
        st.dealer = dealer
        deal_from_stock(st, &self.c)
        return s

    def _set_position(self, list hands, uint64_t floor, list stock, list piles, int dealer, int turn,
                      int last_capturer, long carry):
        """A mid-deal position (phase "play"): hand masks per seat, the floor mask, the stock as
        card ids (stock[0] = top card), pile masks per side (at most one per side), dealer, seat
        to act, last capturer (a side, -1 none) and the majority carry."""
        cdef State s
        cdef BasraState* st
        cdef int p, i
        N = self.c.nplayers
        if len(hands) != N or len(piles) > self.c.nsides or len(stock) > self.c.deck:
            raise ConfigError(f"basra: {N} hands, at most {self.c.nsides} piles and {self.c.deck} stock cards")
        for m in hands + piles + [floor]:
            self._check_mask(m, "a card")
        for k in stock:
            self._check_range(k, 0, self.c.deck - 1, "stock card id")
        self._check_range(dealer, 0, N - 1, "dealer")
        self._check_range(turn, 0, N - 1, "turn")
        self._check_range(last_capturer, -1, self.c.nsides - 1, "last_capturer")
        self._check_range(carry, 0, 2 ** 31 - 1, "carry")
        s = self._scenario_state()
        st = <BasraState*>self._data(s)
        for p in range(4):
            st.hand[p] = hands[p] if p < N else 0
            st.pile[p] = piles[p] if p < len(piles) else 0
            st.played[p] = 0
            st.doubled[p] = 0
            st.nbasra[p] = 0
            st.basra_half[p] = 0
        st.floor = floor
        for i, k in enumerate(reversed(stock)):
            st.stock[i] = k
        st.nstock = len(stock)
        st.dealer = dealer
        st.turn = turn
        st.last_capturer = last_capturer
        st.buried = 0
        staged_clear(&st.choice)
        st.peek = -1
        st.carry = carry
        st.phase = BA_PH_PLAY
        return s

    def _set_scores(self, State s, list game_half, long carry, int ladder_step):
        """Set the current game's points per side (half points; also the whole state's totals),
        the carry (-1: keep it) and the ladder step."""
        cdef BasraState* st = <BasraState*>self._data(s)
        cdef int i
        if len(game_half) != self.c.nsides:
            raise ConfigError(f"basra: game points for {self.c.nsides} sides")
        for v in game_half:
            self._check_range(v, 0, 2 ** 31 - 1, "game points (half points)")
        self._check_range(carry, -1, 2 ** 31 - 1, "carry")
        self._check_range(ladder_step, 0, 2, "ladder_step")
        for i in range(self.c.nsides):
            st.cum_half[i] = game_half[i]
            st.total_half[i] = game_half[i]
        if carry >= 0:
            st.carry = carry
        st.last_target = ladder_step
        return s

    def _game_end(self, State s):
        """The §7 end-of-game check on the state's current points (-2 play on, -1 draw, else a
        side); it may raise the ladder target, as the engine does."""
        cdef BasraState* st = <BasraState*>self._data(s)
        return game_end(&self.c, st.cum_half, &st.last_target)
