"""Zhao Pengyou 找朋友: the spec (the cdef glue between the engine and the kernels).

`ZhaoPengyouSpec` fills the config struct from the resolved options (checked by
cardsim.games.zhao_pengyou) and the row of the player count in the static §2.1 deck table of
`_rules`, fills the vtable from `_state`, `_agent` and `_observe`, installs the game, and holds
the hooks that read or write the state struct: action and hand strings, the view, the card total,
and the two struct setters of scenario states (the arguments are checked and parsed by
`cardsim.games.zhao_pengyou.scenario`). The text itself (cards, actions, the rendering) is
`cardsim.games.zhao_pengyou.notation`'s (pure Python).
"""
from libc.string cimport memset
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_count
from cardsim.core._engine cimport GameSpec, State
from cardsim.core._rng cimport Rng, rng_seed, STREAM_DEAL
from cardsim.core._trick cimport trick_start
from cardsim.games.zhao_pengyou._rules cimport (ZPConfig, ZP_NID, ZP_NPLAIN, ZP_MIN_SEATS, ZP_MAX_SEATS, zp_deck_row, ZP_SJK, ZP_BJK, ZP_MAX_DECK, hand_points,
                                                zp_trump_tables, zp_set_adjacency)
from cardsim.games.zhao_pengyou._state cimport (
    ZPState, ZP_A_ADD, ZP_A_COMMIT, ZP_A_PASS, ZP_A_DECLARE, ZP_A_DISCARD, ZP_A_CALL, ZP_NUM_ACTIONS, ZP_NUM_ACTIONS_NT,
    ZP_PH_PLAY, ZP_PH_END, ZP_A_DECLARE_NT, start_deal, zp_open_calls, draw_advance, finish_deal, zp_init,
    zp_current_player, zp_legal, zp_apply, zp_is_terminal, zp_returns, zp_metrics, zp_side_totals)
from cardsim.games.zhao_pengyou._observe cimport zp_observe, zp_resample
from cardsim.games.zhao_pengyou._agent cimport zp_greedy
from cardsim.games.zhao_pengyou._layout cimport OBS_SIZE
from cardsim.games.zhao_pengyou._state cimport play_loop as _play_loop

from cardsim.core._bits cimport cs_popcount
from cardsim.games.zhao_pengyou._rules cimport zp_opposition_points, zp_game_points

from cardsim.errors import ConfigError, short
from cardsim.games.zhao_pengyou.notation import (SUITS, RANKS, PHASES, FORMATS, card_str, action_str,
                                                 parse_action, render)

# the kernel's constants, for the test that checks notation.py against them
CONSTANTS = {"NID": ZP_NID, "NPLAIN": ZP_NPLAIN, "MAX_DECK": ZP_MAX_DECK, "SJK": ZP_SJK, "BJK": ZP_BJK,
             "A_ADD": ZP_A_ADD, "A_COMMIT": ZP_A_COMMIT, "A_PASS": ZP_A_PASS, "A_DECLARE": ZP_A_DECLARE,
             "A_DISCARD": ZP_A_DISCARD, "A_CALL": ZP_A_CALL, "A_DECLARE_NT": ZP_A_DECLARE_NT,
             "NUM_ACTIONS": ZP_NUM_ACTIONS}


cdef list hand_to_list(const Hand* h):
    """Cards of a hand in display order: jokers, then suits S H D C, high to low."""
    out = []
    for k in (ZP_BJK, ZP_SJK):
        out += [card_str(k)] * hand_count(h, k)
    for su in range(4):
        for r in range(12, -1, -1):
            out += [card_str(su * 13 + r)] * hand_count(h, su * 13 + r)
    return out


_DRAW_POLICIES = ("no_protections", "longer_tuples_protected", "only_draw_tractor_on_tractor",
                  "longer_tuples_protected_and_only_draw_tractor_on_tractor", "no_format_based_draw")
_THROW_EVALS = ("all", "highest", "trick_unit_length")
_BOMBS = ("no_bombs", "allow_bombs", "allow_bombs_suit_following")


cdef void fill_config(ZPConfig* c, dict opts) except *:
    """The deal config from resolved options (validated by cardsim.games.zhao_pengyou; every key
    present: defaults live in INFO.options); the deck fields come from the §2.1 table (zp_deck_row)."""
    memset(c, 0, sizeof(ZPConfig))
    if not zp_deck_row(c, opts["players"]):
        raise ConfigError(f"zhao_pengyou: players must be in {ZP_MIN_SEATS}..{ZP_MAX_SEATS}, got {short(opts['players'])}")
    c.kitty_mult = 0 if opts["kitty_multiplier"] == "x2" else 1
    c.component_top = opts["throw_validity"] == "component"
    ft = opts["failed_throw"]
    c.reject_throw = ft == "reject"
    c.throw_penalty = 10 if "penalty" in ft else 0
    c.reveal_blocker = "reveal_blocker" in ft
    c.self_consume = opts["friend_self_consume"]
    c.called_removed = opts["called_card_points"] == "removed"
    c.partial_sets = opts["partial_set_obligation"]
    c.every_window = opts["declaration_windows"] == "every_draw"
    c.defend_a = opts["game_end"] == "defend_A"
    c.match = opts["scope"] == "match"
    c.max_deals = opts["max_deals"]
    c.max_redeals = opts["max_redeals"]
    for i in range(7):
        c.gp[i] = opts["game_points"][i]
    for i in range(3):
        c.thr[i] = opts["thresholds"][i]
    c.mixed = opts["throw_units"] == "mixed"
    c.adj_sj = opts["tractor_adjacency"] == "shengji"
    c.tmin_count = opts["tractor_min_count"]
    c.tmin_len = opts["tractor_min_length"]
    dp = opts["draw_policy"]                    # 'seed' (the seed's rules) is 0, read only when mixed
    c.draw_policy = _DRAW_POLICIES.index(dp) if dp in _DRAW_POLICIES else 0
    te = opts["throw_evaluation"]
    c.throw_eval = _THROW_EVALS.index(te) if te in _THROW_EVALS else 0
    c.bombs = _BOMBS.index(opts["bomb_policy"])
    c.rainbows = opts["rainbows"]
    c.nt_declare = opts["notrump_declaration"]


cdef void _fill(Hand* h, ids):
    hand_clear(h)
    for k in ids:
        hand_add(h, k)


# ---- the running standing (vt.standing; core game_standing; info.STANDING) -----------------------
cdef void zp_standing(const void* st, const void* cfg, double* out) noexcept nogil:
    """Who is ahead mid-deal (info.STANDING): once a declarer exists, the game points the deal
    would give if it ended now (§6.1-§6.2: the opposition's points captured so far, throw
    penalties included, the kitty not yet, against the thresholds) to every seat of the side that
    would win: DECL (the declarer and the friends revealed so far) or OPP (everyone else); added
    to the ranks (the returns) in a match. Before a declaration: the returns."""
    cdef const ZPState* s = <const ZPState*>st
    cdef const ZPConfig* c = <const ZPConfig*>cfg
    cdef int q, P = 0, fd = 0, fo = 0, gp, won = 0
    cdef int win_mask
    zp_returns(st, cfg, out)
    if s.declarer < 0 or s.phase == ZP_PH_END:
        return
    zp_side_totals(s, c, &P, &fd, &fo)
    P = zp_opposition_points(c, P, 0, 0, False, fd, fo)
    gp = zp_game_points(c, P, cs_popcount(s.decl_mask), &won)
    win_mask = s.decl_mask if won else (((1 << c.n) - 1) & ~s.decl_mask)
    for q in range(c.n):
        if (win_mask >> q) & 1:
            out[q] += gp

cdef class ZhaoPengyouSpec(GameSpec):
    cdef ZPConfig c

    def __init__(self, dict opts, info):
        fill_config(&self.c, opts)
        n = opts["players"]
        self.vt.init = zp_init
        self.vt.current_player = zp_current_player
        self.vt.legal = zp_legal
        self.vt.apply = zp_apply
        self.vt.play = _play_loop
        self.vt.is_terminal = zp_is_terminal
        self.vt.returns = zp_returns
        self.vt.observe = zp_observe
        self.vt.resample = zp_resample
        self.vt.greedy = zp_greedy
        self.vt.metrics = zp_metrics
        self.vt.standing = zp_standing
        self.install_game(info, &self.c, n, ZP_NUM_ACTIONS_NT if self.c.nt_declare else ZP_NUM_ACTIONS,
                          sizeof(ZPState), OBS_SIZE, dict(opts))

    @property
    def config(self):
        return {"players": self.c.n, "decks": self.c.decks, "big_jokers": self.c.nbig,
                "small_jokers": self.c.nsmall, "cards_per_player": self.c.cpp, "kitty": self.c.kitty,
                "calls": self.c.calls, "total": self.c.total}

    def _config_bytes(self):
        """The config struct as bytes (what the oracles of `_oracles` run with)."""
        return (<char*>&self.c)[:sizeof(ZPConfig)]

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return action_str(a)

    def _parse_action(self, State s, str text):
        return parse_action(text)

    def _hand_strings(self, State s, int p):
        return hand_to_list(&(<ZPState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return PHASES[(<ZPState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return self.c.total

    def _card_total(self, State s):
        """Cards in hands, the play being built, the undrawn pack, the kitty and all played cards;
        negative if some identity has the wrong number of copies."""
        cdef ZPState* st = <ZPState*>self._data(s)
        cdef int counts[ZP_NID]
        cdef int q, k, n = 0
        for k in range(ZP_NID):
            counts[k] = 0
        for q in range(self.c.n):
            for k in range(ZP_NID):
                counts[k] += hand_count(&st.hand[q], k) + hand_count(&st.played[q], k)
        for k in range(ZP_NID):
            counts[k] += hand_count(&st.kitty, k) + hand_count(&st.cur.cards, k)
        for k in range(st.deck_pos, st.deck_len):
            counts[st.deck[k]] += 1
        ok = True
        for k in range(ZP_NID):
            n += counts[k]
            want = self.c.nsmall if k == ZP_SJK else (self.c.nbig if k == ZP_BJK else self.c.decks)
            if counts[k] != want:
                ok = False
        return n if ok else -n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef ZPState* st = <ZPState*>self._data(s)
        n = self.c.n
        declared = st.declarer >= 0
        return {
            "phase": self.phase_name(s), "turn": st.turn if st.phase != ZP_PH_END else -1,
            "starter": st.starter, "declarer": st.declarer if declared else None,
            "trump_suit": (SUITS[st.tr.suit] if st.tr.suit >= 0 else "NT") if declared else None,
            "trump_rank": RANKS[st.tr.rank] if declared else None,
            "calls": [(card_str(st.call_id[i]), st.call_n[i], None if st.call_by[i] < 0 else st.call_by[i])
                      for i in range(st.ncalls)],
            "decl": [q for q in range(n) if (st.decl_mask >> q) & 1],
            "captured": [st.captured[q] for q in range(n)],
            "ranks": [RANKS[st.rank[q]] for q in range(n)],
            "active": [q for q in range(n) if (st.active >> q) & 1],
            "leader": st.rec.leader, "trick": [hand_to_list(&st.trick[q]) for q in range(n)],
            "building": hand_to_list(&st.cur.cards),
            "lead_format": FORMATS[st.lead_fmt], "tricks_done": st.tricks_done,
            "kitty": hand_to_list(&st.kitty), "kitty_points": st.kitty_pts,
            "exposed": [hand_to_list(&st.exposed[q]) for q in range(n)],
            "played": [hand_to_list(&st.played[q]) for q in range(n)],
            "fails": [st.fails[q] for q in range(n)], "blocker": st.blocker if st.blocker >= 0 else None,
            "last_winner": st.last_winner if st.last_winner >= 0 else None,
            "opp_points": st.p_opp, "decl_won": None if st.decl_won < 0 else bool(st.decl_won),
            "winners": [q for q in range(n) if (st.winners >> q) & 1],
            "gained": [st.gained[q] for q in range(n)], "deal_no": st.deal_no, "redeals": st.redeals,
            "match_winners": [q for q in range(n) if (st.match_winners >> q) & 1],
            "drawn": st.deck_pos, "void": [[ "SHDCT"[i] for i in range(5) if (st.void[q] >> i) & 1] for q in range(n)],
        }

    def _render(self, State s):
        return render(self.view(s), [self.hand_strings(s, q) for q in range(self.c.n)], self.c.n)

    # ---- scenario states: struct setters (cardsim.games.zhao_pengyou.scenario checks the facts) ----
    def _scenario_draw(self, seed, deal, starter, ranks, active):
        """A fresh deal of (seed, deal) in the draw phase, restarted with the given starter, ranks
        (rank indices per seat) and active seats (None: as dealt)."""
        cdef State s = self._scenario_state()
        cdef Rng r
        cdef ZPState* st
        cdef int n = self.c.n
        rng_seed(&r, seed, deal, STREAM_DEAL)          # deal (seed, deal) instead of (0, 0)
        st = <ZPState*>self._data(s)
        zp_init(st, &self.c, &r)
        if ranks is not None:
            for q in range(n):
                st.rank[q] = ranks[q]
        if active is not None:
            st.active = 0
            for q in active:
                st.active |= 1 << q
        if starter is not None:
            st.starter = starter
        start_deal(st, &self.c)
        draw_advance(st, &self.c)
        return s

    def _scenario_play(self, hs, pl, kitty, int tsuit, int trank, int declarer, int leader, cl, decl, captured,
                       fails, ranks, active, bint finished, last_winner):
        """A play-phase state at the start of a trick from checked identities (see
        cardsim.games.zhao_pengyou.scenario); finished: scored at the end of the deal."""
        cdef State s = self._scenario_state()
        cdef ZPState* st = <ZPState*>self._data(s)
        cdef int n = self.c.n
        start_deal(st, &self.c)
        st.deck_pos = st.deck_len
        for q in range(n):
            _fill(&st.hand[q], hs[q])
            _fill(&st.played[q], pl[q])
            for k in pl[q]:
                st.played_count[k] += 1
            if captured is not None:
                st.captured[q] = captured[q]
            if fails is not None:
                st.fails[q] = fails[q]
                st.failed_total += fails[q]
        _fill(&st.kitty, kitty)
        st.kitty_pts = hand_points(&st.kitty)
        st.discards = len(kitty)
        zp_trump_tables(&st.tr, tsuit, trank)
        if self.c.mixed:                # tractor successors: read only by the mixed-unit formats
            zp_set_adjacency(&st.tr, self.c.adj_sj)
        if ranks is not None:
            for q in range(n):
                st.rank[q] = ranks[q]
        st.rank[declarer] = trank
        if active is not None:
            st.active = 0
            for q in active:
                st.active |= 1 << q
        st.declarer = declarer
        st.decl_mask = 1 << declarer
        for q in decl:
            st.decl_mask |= 1 << q
        for i, (k, nn) in enumerate(cl):
            st.call_id[i] = k
            st.call_n[i] = nn
            st.call_by[i] = -1
        st.ncalls = len(cl)
        zp_open_calls(st)
        st.phase = ZP_PH_PLAY
        trick_start(&st.rec, leader, n)
        st.turn = leader
        st.win_i = n
        if finished:
            st.last_winner = last_winner
            finish_deal(st, &self.c)
        return s



