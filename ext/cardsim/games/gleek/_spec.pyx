"""Gleek, the compiled glue: `GleekSpec` fills the config struct from the resolved options (defaults
live only in INFO.options), fills the vtable from the kernels (_state, _agent, _observe) and
installs the game, and implements the hooks that read or write the state struct (action and hand
strings, phase, card total, view, render, the scenario's struct setter). The text itself (cards,
actions, the view built from the struct's fields, the rendering) and the checking of scenario
arguments are `cardsim.games.gleek.notation`'s (pure Python)."""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, card_bit
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State

from cardsim.games.gleek._rules cimport GLConfig, full_pack, sets_value
from cardsim.games.gleek._state cimport play_loop as gl_play_loop
from cardsim.games.gleek._state cimport (GLState, GL_BID0, gl_init, gl_current_player, gl_legal,
                                         gl_apply, gl_is_terminal, gl_returns, gl_metrics, setup_deal)
from cardsim.games.gleek._agent cimport gl_greedy
from cardsim.games.gleek._observe cimport gl_observe, gl_resample
from cardsim.games.gleek._layout cimport OBS_SIZE

from cardsim.games.gleek.info import INFO
from cardsim.games.gleek.notation import PHASES, mask_to_cards, action_str, parse_action, view, render


cdef void gl_fill_vtable(GameVTable* vt) noexcept:
    vt.init = gl_init
    vt.current_player = gl_current_player
    vt.legal = gl_legal
    vt.apply = gl_apply
    vt.is_terminal = gl_is_terminal
    vt.returns = gl_returns
    vt.observe = gl_observe
    vt.resample = gl_resample
    vt.greedy = gl_greedy
    vt.metrics = gl_metrics
    vt.play = gl_play_loop           # the batch loop with this game's kernels inlined


cdef class GleekSpec(GameSpec):
    cdef GLConfig c              # the resolved options as C values (vtable's cfg points here)

    def __init__(self, dict opts, info=INFO):
        """The spec of the resolved options `opts`; `info` is the game's GameInfo (INFO; the
        layout test passes a broken one to see install_game refuse it)."""
        self.c.tiddy_pay = opts["tiddy_turnup_pay"]
        self.c.towser_tumbler = opts["towser_tumbler"]
        self.c.opening_bid = opts["stock_opening_bid"]
        self.c.raise_one = opts["stock_raise"] == "plus_one"
        self.c.odd_to_eldest = opts["stock_odd_chip"] == "eldest"
        self.c.pay_full = opts["stock_payment"] == "full_each"
        self.c.take_first = opts["exchange_order"] == "take_first"
        self.c.honours_won = opts["honour_scoring"] == "won"
        self.c.fold_pays_stake = opts["fold_pays"] == "stake"
        self.c.optional_decl = opts["gleek_declaration"] == "optional"
        self.c.max_bid = opts["max_stock_bid"]
        self.c.max_revies = opts["max_revies"]
        for i in range(4):
            self.c.honour[i] = opts["honour_values"][i]
            self.c.gleek[i] = opts["gleek_values"][i]
            self.c.mournival[i] = opts["mournival_values"][i]
        self.c.trick_value = opts["trick_value"]
        self.c.num_deals = opts["num_deals"]
        self.c.starting_chips = opts["starting_chips"]
        self.c.match = opts["scope"] == "match"
        gl_fill_vtable(&self.vt)
        self.install_game(info, &self.c, 3, GL_BID0 + self.c.max_bid + 1, sizeof(GLState), OBS_SIZE,
                          dict(opts))
        self.c.nw = self.action_words              # the legal kernel clears this many words

    @property
    def deck_size(self):
        return 44

    def _card_total(self, State s):
        """Cards in hands + played + stock + discards + the turn-up; negative if any card is
        missing or in two zones."""
        cdef GLState* st = <GLState*>self._data(s)
        cdef uint64_t allm = st.stock | st.discards | card_bit(st.turnup)
        cdef int n = cs_popcount(st.stock) + cs_popcount(st.discards) + 1
        for p in range(3):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == full_pack() else -n

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return action_str(a, (<GLState*>self._data(s)).phase)

    def _parse_action(self, State s, str text):
        return parse_action(text, self.options["max_stock_bid"])

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<GLState*>self._data(s)).hand[p % 3])

    def _phase_name(self, State s):
        return PHASES[(<GLState*>self._data(s)).phase]

    def _view(self, State s):
        """A dict of every fact of the state (public and hidden; for tests and display)."""
        return view(self._fields(s), self.phase_name(s))

    def _render(self, State s):
        return render(self.view(s), [self.hand_strings(s, p) for p in range(3)])

    # ---- scenario set-up --------------------------------------------------------------------
    def deal_hands(self, hands, turnup, dealer=0, dead=0, chips=None):
        """Same as scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)."""
        return self.scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)

    def _fields(self, State s):
        """The struct's fields the view reads, as plain ints and lists (gleek_value: V of
        each seat's kept hand for the sets it declared, under this spec's tables)."""
        cdef GLState* st = <GLState*>self._data(s)
        return {
            "phase": st.phase, "dealer": st.dealer, "eldest": st.eldest, "turn": st.turn,
            "turnup": st.turnup, "trump": st.trump, "high": st.high, "high_bidder": st.high_bidder,
            "passed": st.passed, "pass_rank": [st.pass_rank[q] for q in range(3)],
            "buyer": st.buyer, "stock": st.stock, "discards": st.discards, "base": st.base,
            "stake": st.stake, "vied": st.vied, "dead": st.dead,
            "committed": [st.committed[q] for q in range(3)], "owe": [st.owe[q] for q in range(3)],
            "folded": st.folded, "pending": [st.pending[i] for i in range(st.npend)],
            "showdown": st.showdown, "ruff": [st.ruff[q] for q in range(3)],
            "ruff_suit": [st.ruff_suit[q] for q in range(3)],
            "shown": [st.shown[q] for q in range(3)], "declared": [st.declared[q] for q in range(3)],
            "gleek_value": [sets_value(&self.c, st.kept[q], st.declared[q]) for q in range(3)],
            "kept": [st.kept[q] for q in range(3)], "leader": st.cur.leader,
            "trick": [st.cur.card[q] for q in range(3)], "tricks": [st.tricks[q] for q in range(3)],
            "tricks_done": st.tricks_done, "played": [st.played[q] for q in range(3)],
            "won": [st.won[q] for q in range(3)], "score": [st.score[q] for q in range(3)],
            "total": st.total, "part": [[st.part[k][q] for q in range(3)] for k in range(5)],
            "chips": [st.chips[q] for q in range(3)], "deal_no": st.deal_no,
        }

    def _scenario_deal(self, list masks, int turnup, int dealer, int dead, chips):
        """A fresh state at the start of the auction: masks[q] = seat q's 12 cards, the turn-up
        card id, the dealer 0..2, dead ruffs before this deal, chips (3 balances, or None); the
        remaining cards form the stock; turn-up payment and eldest's forced bid applied as in a
        real deal (setup_deal). The face checks every argument first."""
        cdef State s
        cdef GLState* st
        cdef int p
        cdef uint64_t allm = 0
        if len(masks) != 3 or not 0 <= turnup < 44 or not 0 <= dealer < 3 or dead < 0:
            raise ValueError("gleek: _scenario_deal needs 3 hand masks, a turn-up id, a dealer 0..2 "
                             "and dead >= 0")
        for p in range(3):
            allm |= <uint64_t>masks[p]
        s = self._scenario_state()
        st = <GLState*>self._data(s)
        st.dealer = dealer
        st.dead = dead
        for p in range(3):
            st.hand[p] = masks[p]
            if chips is not None:
                st.chips[p] = chips[p]
        st.turnup = turnup
        st.stock = full_pack() & ~allm & ~card_bit(turnup)
        setup_deal(st, &self.c)
        return s
