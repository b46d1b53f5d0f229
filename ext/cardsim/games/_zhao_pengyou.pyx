"""Zhao Pengyou 找朋友 (Finding Friends): 5-12 players with 2-4 packs and jokers, a mahjong-style
draw with trump declarations, a kitty exchange, friends called by "the N-th copy played", sets,
set sequences (tractors) and top-card multi-leads, and rank advancement.

Implements docs/rules/zhao_pengyou.md §1-§7 (every variant V1-V9 as an option) and follows its
decisions D1-D24 as written: declaration windows after every draw, drawer first (D1), one last
window after the final draw (D2); throws are attempts judged on the real hands after they are
played (D3) and a failed one forces its lowest group, ties broken C < D < H < S (D4); equal-size
identical groups (D5); only sets of exactly the led size oblige (D6, D7); copies counted in play
order (D8); calls fulfilled inside DECL are consumed (D9), unplayed ones stay open (D10); the
revealing copy's points count for nobody (D11); after a redeal everyone is active (D12); joint
match winners (D13); 1 call with 5 players (D14); no duplicate calls, N <= d (D15); only THROW
leads are checked for top cards (D16); ties go to the earlier play (D20); THROW(1,m) is beaten by
any m trumps, THROW(k>=2,m) only by trumps of the same shape (D21); a match stops after max_deals
deals (D23); after max_redeals redeals a deal nobody declares in is void (D24).

Where the spec is silent (documented in the issue note): the kitty discards and the partial play
of the seat to act are built one card at a time; the cards of a play being built stay private to
the seat to act until the play is complete (resample for another seat folds them back into the
hand); a called copy played by the declarer or a known friend stays in the trick; the card shown
at declaration is, once the declarer has discarded face down, only known to be in his hand or the
kitty (resample keeps it there); a failed throw's blocker is the first seat after the leader (in
play order) holding a stronger card/group; with V4 'penalty' the attempts are totalled and P_opp
clamped at 0 once; with V4 'reject' resample keeps the legal set of a lead in progress (legality
then depends on the other hands); with V7 the follower must match the lead's m groups with the
largest sets available, sizes capped at k (the multiset of the m largest "chunks" of its suit
cards, a count c giving floor(c/k) chunks of k and one of c mod k); with V9 ('defend_A') ranks
stop at A and the match ends when DECL wins a deal whose trump rank is A. The match stops after
max_deals deals with no winner (D23); after max_redeals redeals a deal nobody declares in is void:
nobody scores, and in a match it counts as a deal (D24).

Shengji's rules (issue 17, docs/rules/zhao_pengyou.md "Shengji's rules"): with throw_units='mixed'
leads, throws, forced plays, follows (the five draw policies), trick winners (throw evaluation),
bombs and rainbows follow rbtying/shengji's mechanics (trick.rs, types.rs, ordered_card.rs,
format_match.rs), ported to nogil kernels in `_zhao_pengyou_shengji` (formats) and
`_zhao_pengyou_shengji_play` (legality, winner); the factored actions stay exact
(zp_mixed_completable); two copies of a joker may declare a no-trump deal (notrump_declaration;
metric trump_suit = 4). Where shengji lets the leader pick among decompositions (a format hint) the
engine takes shengji's default choice.
Core mechanisms used: shuffle (the pack), TrickRecord (leader and order of the current trick),
Staged (leads and follows built one card at a time, with the lead and follow completability
rules as callbacks), resample_zones (resample, with world_ok as its callback), GameSpec.install,
_scenario_state and check_int (spec.scenario).

Modules: `_zhao_pengyou_rules` holds the pure rules (trump order, lead formats, trick winner,
follow obligations, top cards, scoring), `_zhao_pengyou_shengji` shengji's TrickFormat (mixed
formats, decompositions, format matching, throw check) and `_zhao_pengyou_shengji_play` its
is_legal_play and compute_winner (draw policies, throw evaluation, bombs, rainbows),
`_zhao_pengyou_state` the state machine (its docstring gives the action space, the returns and the
observation layout), `_zhao_pengyou_greedy` the greedy agent (its docstring describes the policy),
`_zhao_pengyou_oracles` the rule oracles behind `cardsim.games.zhao_pengyou`, and this module the
Python face: the spec, card parsing, rendering and scenario states.

Card identity: suit*13 + rank (suits S H D C = 0..3, rank 0 = '2' .. 12 = 'A'), 52 = small
joker (SJ), 53 = big joker (BJ).
"""
from libc.string cimport memset
from cardsim.core._types cimport uint64_t
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size, hand_merge
from cardsim.core._actions cimport ActionSet
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.core._rng cimport Rng, rng_seed, STREAM_DEAL
from cardsim.core._trick cimport trick_start
from cardsim.games._zhao_pengyou_rules cimport ZPTrump, ZPConfig, ZP_SJK, ZP_BJK, hand_points, zp_trump_tables, zp_set_adjacency
from cardsim.games._zhao_pengyou_shengji_play cimport zp_mixed_completable
from cardsim.games._zhao_pengyou_shengji import dec_install
from cardsim.games._zhao_pengyou_state cimport (
    ZPState, ZP_A_ADD, ZP_A_COMMIT, ZP_A_PASS, ZP_A_DECLARE, ZP_A_DISCARD, ZP_A_CALL, ZP_NUM_ACTIONS, ZP_NUM_ACTIONS_NT, ZP_ACTION_WORDS,
    ZP_PH_DRAW, ZP_PH_PLAY, ZP_PH_END, ZP_MAX_CALLS, ZP_A_DECLARE_NT, start_deal, draw_advance, finish_deal, zp_init,
    zp_current_player, zp_legal, zp_apply, zp_is_terminal, zp_returns, zp_observe, zp_resample, zp_metrics)
from cardsim.games._zhao_pengyou_greedy cimport zp_greedy

from cardsim.errors import ConfigError, ParseError, IllegalActionError, short
from cardsim import cards as _cards
from cardsim.games._zhao_pengyou_state import OBS_SIZE

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PHASES = ("draw", "kitty", "call", "play", "end")
FORMATS = (None, "single", "set", "sequence", "throw")
METRICS = ("declarer", "trump_suit", "trump_rank", "opp_points", "decl_size", "decl_won", "game_points",
           "redeals", "failed_throws", "deals")

_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)}
_RANK_ALIASES["T"] = 8


def card_str(int k):
    if k == ZP_BJK:
        return "BJ"
    if k == ZP_SJK:
        return "SJ"
    return RANKS[k % 13] + SUITS[k // 13]


def parse_card(text):
    """'AS', '10H', 'TD', '7♦', 'BJ' (big joker), 'SJ' (small joker), lower case ok -> identity."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"zhao_pengyou: a card is a string like 'AS', '10H', 'BJ' or 'SJ', got {_short(text)}")
    rank, suit = _cards.parse_card(text, "zhao_pengyou", jokers=("BJ", "SJ"))
    if suit < 0:
        return ZP_BJK if rank == "BJ" else ZP_SJK
    return suit * 13 + RANKS.index(rank)


def parse_suit(text):
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"zhao_pengyou: a suit is one of S H D C (or ♠ ♥ ♦ ♣), got {_short(text)}")
    return _cards.parse_suit(text, "zhao_pengyou")


def parse_rank(text):
    if isinstance(text, int) and not isinstance(text, bool) and 2 <= text <= 14:
        return text - 2
    if not isinstance(text, str) or text.strip().upper() not in _RANK_ALIASES:
        raise ParseError(f"zhao_pengyou: bad rank {_short(text)}; ranks: 2-10 J Q K A (or the ints 2..14)")
    return _RANK_ALIASES[text.strip().upper()]


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


cdef void fill_config(ZPConfig* c, dict opts, dict table) except *:
    """The deal config from resolved options (validated by cardsim.games.zhao_pengyou) and the
    table row of the player count."""
    memset(c, 0, sizeof(ZPConfig))
    c.n = opts["players"]
    c.decks = table["decks"]
    c.nbig = table["big"]
    c.nsmall = table["small"]
    c.cpp = table["cards"]
    c.kitty = table["kitty"]
    c.calls = table["calls"]
    c.total = 52 * c.decks + c.nbig + c.nsmall
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
    c.mixed = opts.get("throw_units", "uniform") == "mixed"
    c.adj_sj = opts.get("tractor_adjacency", "standard") == "shengji"
    c.tmin_count = opts.get("tractor_min_count", 2)
    c.tmin_len = opts.get("tractor_min_length", 2)
    dp = opts.get("draw_policy", "seed")
    c.draw_policy = _DRAW_POLICIES.index(dp) if dp in _DRAW_POLICIES else 0
    te = opts.get("throw_evaluation", "seed")
    c.throw_eval = _THROW_EVALS.index(te) if te in _THROW_EVALS else 0
    c.bombs = _BOMBS.index(opts.get("bomb_policy", "no_bombs"))
    c.rainbows = opts.get("rainbows", 0)
    c.nt_declare = opts.get("notrump_declaration", False)
    if c.mixed:
        dec_install(_decompositions())


_DEC_TABLE = None


def _decompositions():
    """shengji's full_decomposition_ordering(n) for n = 1..12 (ordered_card.rs, ported), computed
    once."""
    global _DEC_TABLE
    if _DEC_TABLE is None:
        _DEC_TABLE = {n: full_decomposition_ordering(n) for n in range(1, 13)}
    return _DEC_TABLE


# ---- ordered_card.rs decomposition orderings, ported (shengji's own tests check them) ----------
_DEC_CACHE = {}


def _unique(seq):
    seen = set()
    out = []
    for x in seq:
        k = repr(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def find_tuple_partitions(int num):
    """The partitions of num, descending (ordered_card.rs find_tuple_partitions)."""
    key = ("p", num)
    if key in _DEC_CACHE:
        return _DEC_CACHE[key]
    if num == 1:
        groupings = [[1]]
    else:
        groupings = []
        for g in find_tuple_partitions(num - 1):
            done = set()
            for v in g:
                if v not in done:
                    done.add(v)
                    found = False
                    g2 = []
                    for vv in g:
                        if vv == v and not found:
                            found = True
                            g2.append(vv + 1)
                        else:
                            g2.append(vv)
                    groupings.append(g2)
            groupings.append(list(g) + [1])
        groupings.sort(reverse=True)
        groupings = [g for i, g in enumerate(groupings) if i == 0 or groupings[i - 1] != g]
    _DEC_CACHE[key] = groupings
    return groupings


def _adjacent_assignments(int length):
    key = ("a", length)
    if key in _DEC_CACHE:
        return _DEC_CACHE[key]
    if length == 1:
        out = [[[0]]]
    else:
        elem = length - 1
        out = []
        for part in _adjacent_assignments(length - 1):
            part = [list(p) for p in part]
            for i in range(len(part)):
                part[i].append(elem)
                out.append([list(p) for p in part])
                part[i].pop()
            out.append([list(p) for p in part] + [[elem]])
        out.sort(key=lambda a: (-max(len(v) for v in a), len(a)))
        out = [a for i, a in enumerate(out) if i == 0 or out[i - 1] != a]
    _DEC_CACHE[key] = out
    return out


def _sequential_tuples(values):
    import itertools
    res = []
    for assignment in _adjacent_assignments(len(values)):
        assignment = [[values[i] for i in sub] for sub in assignment]
        if all(all(pp == p[0] for pp in p) for p in assignment):
            res.append(assignment)
        else:
            perms = [_unique([list(x) for x in itertools.permutations(p)]) for p in assignment]
            for combo in itertools.product(*perms):
                res.append([list(c) for c in combo])
    return _unique(res)


def full_decomposition_ordering(int n):
    """Every way of playing n cards as adjacent-tuple shapes, in shengji's order
    (ordered_card.rs full_decomposition_ordering)."""
    key = ("f", n)
    if key in _DEC_CACHE:
        return _DEC_CACHE[key]
    full = []
    for group in find_tuple_partitions(n):
        one = group.index(1) if 1 in group else len(group)
        gt1, eq1 = group[:one], group[one:]
        if not gt1:
            full.append([[v] for v in eq1])
        else:
            for d in _sequential_tuples(gt1):
                d = d + [[v] for v in eq1]
                d.sort(reverse=True)
                full.append(d)
    full = _unique(full)
    _DEC_CACHE[key] = full
    return full


cdef class ZhaoPengyouSpec(GameSpec):
    cdef ZPConfig c

    def __init__(self, dict opts, dict table):
        fill_config(&self.c, opts, table)
        n = opts["players"]
        self.vt.init = zp_init
        self.vt.current_player = zp_current_player
        self.vt.legal = zp_legal
        self.vt.apply = zp_apply
        self.vt.is_terminal = zp_is_terminal
        self.vt.returns = zp_returns
        self.vt.observe = zp_observe
        self.vt.resample = zp_resample
        self.vt.greedy = zp_greedy
        self.vt.metrics = zp_metrics
        self.install("zhao_pengyou", &self.c, n, ZP_NUM_ACTIONS_NT if self.c.nt_declare else ZP_NUM_ACTIONS, sizeof(ZPState), OBS_SIZE, METRICS, "none",
                     dict(opts))

    @property
    def config(self):
        return {"players": self.c.n, "decks": self.c.decks, "big_jokers": self.c.nbig,
                "small_jokers": self.c.nsmall, "cards_per_player": self.c.cpp, "kitty": self.c.kitty,
                "calls": self.c.calls, "total": self.c.total}

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < 54:
            return card_str(a)
        if a == ZP_A_COMMIT:
            return "COMMIT"
        if a == ZP_A_PASS:
            return "PASS"
        if a == ZP_A_DECLARE_NT:
            return "DECLARE NT"
        if a < ZP_A_DISCARD:
            return "DECLARE " + SUITS[a - ZP_A_DECLARE]
        if a < ZP_A_CALL:
            return "DISCARD " + card_str(a - ZP_A_DISCARD)
        a -= ZP_A_CALL
        return f"CALL {card_str(a // 4)} {a % 4 + 1}"

    def _parse_action(self, State s, str text):
        t = " ".join(text.strip().upper().split())
        try:
            if t in ("COMMIT", "LEAD"):
                return ZP_A_COMMIT
            if t == "PASS":
                return ZP_A_PASS
            if t in ("DECLARE NT", "DECLARE NOTRUMP"):
                return ZP_A_DECLARE_NT
            if t.startswith("DECLARE "):
                return ZP_A_DECLARE + parse_suit(t[8:])
            if t.startswith("DISCARD "):
                return ZP_A_DISCARD + parse_card(t[8:])
            if t.startswith("CALL "):
                parts = t[5:].split()
                if len(parts) != 2 or not parts[1].isdigit() or not 1 <= int(parts[1]) <= 4:
                    raise ParseError("bad call")
                k = parse_card(parts[0])
                if k >= 52:
                    raise ParseError("jokers cannot be called")
                return ZP_A_CALL + 4 * k + int(parts[1]) - 1
            return ZP_A_ADD + parse_card(t)
        except ParseError:
            raise ParseError(f"zhao_pengyou: cannot parse action {short(text)}; expected a card ('AS', '10H', 'BJ'), "
                             f"'COMMIT', 'PASS', 'DECLARE S', 'DISCARD 5H' or 'CALL AH 2'") from None

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
        cdef int counts[54]
        cdef int q, k, n = 0
        for k in range(54):
            counts[k] = 0
        for q in range(self.c.n):
            for k in range(54):
                counts[k] += hand_count(&st.hand[q], k) + hand_count(&st.played[q], k)
        for k in range(54):
            counts[k] += hand_count(&st.kitty, k) + hand_count(&st.cur.cards, k)
        for k in range(st.deck_pos, st.deck_len):
            counts[st.deck[k]] += 1
        ok = True
        for k in range(54):
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
        v = self.view(s)
        lines = [f"Zhao Pengyou  {self.c.n} players  phase={v['phase']}  deal {v['deal_no'] + 1}  "
                 f"ranks {' '.join(v['ranks'])}"]
        if v["declarer"] is not None:
            lines.append(f"declarer {v['declarer']}  trump {v['trump_suit']}/{v['trump_rank']}  calls "
                         + ", ".join(f"{c} #{nn}" + (f"->{b}" if b is not None else "") for c, nn, b in v["calls"])
                         + f"  DECL {v['decl']}  captured {v['captured']}")
        for q in range(self.c.n):
            mark = "*" if v["turn"] == q else " "
            lines.append(f"{mark}{q}: {' '.join(self.hand_strings(s, q))}"
                         + (f"   trick: {' '.join(v['trick'][q])}" if v["trick"][q] else ""))
        if v["building"]:
            lines.append("building: " + " ".join(v["building"]))
        if v["phase"] == "end":
            lines.append(f"opposition points {v['opp_points']}  winners {v['winners']}  gained {v['gained']}")
        return "\n".join(lines)

    # ---- scenario states ----------------------------------------------------------------------
    def scenario(self, hands, **facts):
        """A state built from given facts (for the spec's examples, tests and analysis); it has no
        replayable history. Every argument is validated before the state is touched.

        hands=None: a fresh deal of (seed, deal) in the draw phase, restarted with the given
        `starter`, `ranks` (one per seat) and `active` seats.
        hands = one list of card strings per seat: a play-phase state at the start of a trick
        (every seat holding the same number of cards, at least one) with `trump_suit`,
        `trump_rank`, `declarer` (default 0), `leader` (default the declarer), `calls` as
        (card, N) pairs, `kitty` discards, known `decl` seats, cards already `played` per seat,
        `captured` points and failed throw attempts (`fails`) per seat, `ranks`, `active`.
        finished=True with every hand empty: those facts scored at the end of the deal (with
        `last_winner`, the seat that won the last trick); scope "match" then goes on to the next
        deal."""
        cdef State s
        cdef ZPState* st
        cdef Hand h
        cdef Rng r
        cdef int n = self.c.n
        allowed = {"seed", "deal", "starter", "ranks", "active", "trump_suit", "trump_rank", "declarer", "leader",
                   "calls", "kitty", "decl", "played", "captured", "fails", "last_winner", "finished"}
        bad = sorted(set(facts) - allowed)
        if bad:
            raise ConfigError(f"zhao_pengyou: unknown scenario facts {bad}; allowed: {sorted(allowed)}")
        ranks = _ranks(facts.get("ranks"), n)
        active = _seats(facts.get("active"), n, "active")
        if active is not None and not active:
            # a real deal always has an active seat (the winners of the previous deal, or everyone
            # after a redeal); with none nobody could ever declare
            raise ConfigError("zhao_pengyou: active must name at least one seat (the winners of the previous deal)")
        if hands is None:
            extra = sorted(set(facts) - {"seed", "deal", "starter", "ranks", "active"})
            if extra:
                raise ConfigError(f"zhao_pengyou: facts {extra} need the hands (hands=None deals a fresh draw)")
            seed = _int(facts.get("seed", 0), "seed", 0, 2 ** 64 - 1)
            deal = _int(facts.get("deal", 0), "deal", 0, 2 ** 64 - 1)
            starter = facts.get("starter")
            starter = None if starter is None else _int(starter, "starter", 0, n - 1)
            s = self._scenario_state()
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
        finished = facts.get("finished", False)
        if not isinstance(finished, bool):
            raise ConfigError(f"zhao_pengyou: finished must be True or False, got {short(finished)}")
        if not isinstance(hands, (list, tuple)) or len(hands) != n:
            raise ConfigError(f"zhao_pengyou: hands must be a list of {n} lists of card strings, got {_short(hands)}")
        hs = [_parse_cards(x, f"hand {q}") for q, x in enumerate(hands)]
        sizes = {len(x) for x in hs}
        if finished:
            if sizes != {0}:
                raise ConfigError("zhao_pengyou: a finished deal has every hand empty")
        elif len(sizes) != 1 or 0 in sizes:
            raise ConfigError(f"zhao_pengyou: at the start of a trick every seat holds the same number of cards "
                              f"(at least 1); got {[len(x) for x in hs]}")
        if not finished and len(hs[0]) > self.c.cpp:
            raise ConfigError(f"zhao_pengyou: a hand holds at most {self.c.cpp} cards with {n} players")
        if "trump_suit" not in facts or "trump_rank" not in facts:
            raise ConfigError("zhao_pengyou: a play-phase scenario needs trump_suit and trump_rank")
        tsuit = -1 if facts["trump_suit"] is None else parse_suit(facts["trump_suit"])
        trank = parse_rank(facts["trump_rank"])
        declarer = _int(facts.get("declarer", 0), "declarer", 0, n - 1)
        leader = facts.get("leader")
        leader = declarer if leader is None else _int(leader, "leader", 0, n - 1)
        kitty = _parse_cards(facts.get("kitty", ()), "the kitty")
        if len(kitty) > self.c.kitty:
            raise ConfigError(f"zhao_pengyou: the kitty holds at most {self.c.kitty} cards with {n} players")
        played = facts.get("played")
        pl = [[] for _ in range(n)]
        if played is not None:
            if not isinstance(played, (list, tuple)) or len(played) != n:
                raise ConfigError(f"zhao_pengyou: played must be {n} lists of card strings, got {_short(played)}")
            pl = [_parse_cards(x, f"played {q}") for q, x in enumerate(played)]
        counts = [0] * 54
        for group in hs + pl + [kitty]:
            for k in group:
                counts[k] += 1
        for k in range(54):
            have = self.c.nsmall if k == ZP_SJK else (self.c.nbig if k == ZP_BJK else self.c.decks)
            if counts[k] > have:
                raise ConfigError(f"zhao_pengyou: {counts[k]} copies of {card_str(k)} given; the pack for {n} "
                                  f"players has {have}")
        calls = facts.get("calls", ())
        if not isinstance(calls, (list, tuple)) or len(calls) > self.c.calls:
            raise ConfigError(f"zhao_pengyou: calls must be a list of at most {self.c.calls} (card, N) pairs, "
                              f"got {_short(calls)}")
        cl = []
        for item in calls:
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise ConfigError(f"zhao_pengyou: a call is a (card, N) pair, got {_short(item)}")
            k = parse_card(item[0])
            nn = _int(item[1], "a call's N", 1, self.c.decks)
            if k >= 52 or k % 13 == trank or k // 13 == tsuit:
                raise ConfigError(f"zhao_pengyou: {short(item[0])} is a trump and cannot be called (§4.4)")
            if (k, nn) in cl:
                raise ConfigError(f"zhao_pengyou: call {short(item)} given twice (D15)")
            cl.append((k, nn))
        decl = _seats(facts.get("decl"), n, "decl") or []
        captured = facts.get("captured")
        if captured is not None:
            if not isinstance(captured, (list, tuple)) or len(captured) != n:
                raise ConfigError(f"zhao_pengyou: captured must be {n} ints, got {_short(captured)}")
            captured = [_int(x, "captured points", 0, 100 * self.c.decks) for x in captured]
            if sum(captured) + _hand_points_of(kitty) > 100 * self.c.decks:
                raise ConfigError(f"zhao_pengyou: more points captured than the pack holds ({100 * self.c.decks})")
        fails = facts.get("fails")
        if fails is not None:
            if not isinstance(fails, (list, tuple)) or len(fails) != n:
                raise ConfigError(f"zhao_pengyou: fails must be {n} ints, got {_short(fails)}")
            fails = [_int(x, "failed throws", 0, 1000) for x in fails]
        last_winner = facts.get("last_winner")
        if finished:
            last_winner = _int(last_winner, "last_winner", 0, n - 1)
        elif last_winner is not None:
            raise ConfigError("zhao_pengyou: last_winner is a fact of a finished deal (finished=True)")
        # everything is valid: build the state
        s = self._scenario_state()
        st = <ZPState*>self._data(s)
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
        st.phase = ZP_PH_PLAY
        trick_start(&st.rec, leader, n)
        st.turn = leader
        st.win_i = n
        if finished:
            st.last_winner = last_winner
            finish_deal(st, &self.c)
        return s


# ---- validation helpers ------------------------------------------------------------------------
def _short(x):
    t = repr(x)
    return t if len(t) <= 60 else t[:57] + "..."


def _int(x, what, lo, hi):
    return check_int(x, "zhao_pengyou: " + what, lo, hi, ConfigError)


def _ranks(ranks, int n):
    if ranks is None:
        return None
    if not isinstance(ranks, (list, tuple)) or len(ranks) != n:
        raise ConfigError(f"zhao_pengyou: ranks must be {n} ranks (2..A), got {_short(ranks)}")
    return [parse_rank(r) for r in ranks]


def _seats(seats, int n, what):
    if seats is None:
        return None
    if isinstance(seats, (str, bytes)) or not hasattr(seats, "__iter__"):
        raise ConfigError(f"zhao_pengyou: {what} must be a list of seats 0..{n - 1}, got {_short(seats)}")
    out = [_int(q, f"a seat in {what}", 0, n - 1) for q in seats]
    if len(set(out)) != len(out):
        raise ConfigError(f"zhao_pengyou: {what} names a seat twice: {_short(seats)}")
    return out


def _parse_cards(cards, what):
    """Card strings -> identities; a list or tuple, at most 4 copies of a card (4 packs)."""
    if not isinstance(cards, (list, tuple)):
        raise ParseError(f"zhao_pengyou: {what} must be a list of card strings, got {_short(cards)}")
    if len(cards) > 216:
        raise ParseError(f"zhao_pengyou: {what} has {len(cards)} cards; the largest pack has 216")
    out = [parse_card(t) for t in cards]
    for k in set(out):
        if out.count(k) > 4:
            raise ParseError(f"zhao_pengyou: {what} has {out.count(k)} copies of {card_str(k)}; at most 4 packs")
    return out


def _hand_points_of(ids):
    cdef Hand h
    _fill(&h, ids)
    return hand_points(&h)


cdef void _fill(Hand* h, ids):
    hand_clear(h)
    for k in ids:
        hand_add(h, k)


cdef int cards_to_hand(cards, Hand* h, what="a play") except -1:
    _fill(h, _parse_cards(cards, what))
    return 0
