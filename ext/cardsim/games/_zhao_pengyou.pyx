"""Zhao Pengyou 找朋友 (Finding Friends): 5-12 players with 2-4 packs and jokers, a mahjong-style
draw with trump declarations, a kitty exchange, friends called by "the N-th copy played", sets,
set sequences (tractors) and top-card multi-leads, and rank advancement.

Implements docs/rules/zhao_pengyou.md §1-§7 (every variant V1-V9 as an option) and follows its
decisions D1-D22 as written: declaration windows after every draw, drawer first (D1), one last
window after the final draw (D2); throws are attempts judged on the real hands after they are
played (D3) and a failed one forces its lowest group, ties broken C < D < H < S (D4); equal-size
identical groups (D5); only sets of exactly the led size oblige (D6, D7); copies counted in play
order (D8); calls fulfilled inside DECL are consumed (D9), unplayed ones stay open (D10); the
revealing copy's points count for nobody (D11); after a redeal everyone is active (D12); joint
match winners (D13); 1 call with 5 players (D14); no duplicate calls, N <= d (D15); only THROW
leads are checked for top cards (D16); ties go to the earlier play (D20); THROW(1,m) is beaten by
any m trumps, THROW(k>=2,m) only by trumps of the same shape (D21).

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
stop at A and the match ends when DECL wins a deal whose trump rank is A; the match stops after
max_deals deals.

Shengji's rules (issue 17, docs/rules/zhao_pengyou.md "Shengji's rules"): with throw_units='mixed'
leads, throws, forced plays, follows (the five draw policies), trick winners (throw evaluation),
bombs and rainbows follow rbtying/shengji's mechanics (trick.rs, types.rs, ordered_card.rs,
format_match.rs), ported to nogil kernels in `_zhao_pengyou_rules`; the factored actions stay exact
(zp_mixed_completable); two copies of a joker may declare a no-trump deal (notrump_declaration;
metric trump_suit = 4). Where shengji lets the leader pick among decompositions (a format hint) the
engine takes shengji's default choice.
Core mechanisms used: shuffle (the pack), TrickRecord (leader and order of the current trick),
Staged (leads and follows built one card at a time, with the lead and follow completability
rules as callbacks), resample_zones (resample, with world_ok as its callback), GameSpec.install,
_scenario_state and check_int (spec.scenario).

Modules: `_zhao_pengyou_rules` holds the pure rules (trump order, lead formats, trick winner,
follow obligations, top cards, scoring), `_zhao_pengyou_state` the state machine (its docstring
gives the action space, the returns and the observation layout), `_zhao_pengyou_greedy` the
greedy agent (its docstring describes the policy), and this module the Python face: the spec,
card parsing, rendering, scenario states and the rule oracles behind `cardsim.games.zhao_pengyou`.

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
from cardsim.games._zhao_pengyou_rules cimport (
    ZPTrump, ZPConfig, ZPFormat, ZP_SJK, ZP_BJK, ZP_TRUMP, ZP_IMPOSSIBLE, hand_points, zp_set_trump, zp_classify,
    zp_trick_winner, zp_follow_ok, set_obligation_cost, zp_set_adjacency, zp_mixed_format, zp_mixed_winner,
    zp_mixed_follow_ok, zp_mixed_completable, zp_mixed_blocker, zp_fmt_unit_cards, zp_fmt_matches)
from cardsim.games._zhao_pengyou_rules import dec_install
from cardsim.games._zhao_pengyou_state cimport (
    ZPState, ZP_A_ADD, ZP_A_COMMIT, ZP_A_PASS, ZP_A_DECLARE, ZP_A_DISCARD, ZP_A_CALL, ZP_NUM_ACTIONS, ZP_NUM_ACTIONS_NT, ZP_ACTION_WORDS,
    ZP_PH_DRAW, ZP_PH_PLAY, ZP_PH_END, ZP_MAX_CALLS, ZP_A_DECLARE_NT, start_deal, draw_advance, finish_deal, zp_init,
    zp_current_player, zp_legal, zp_apply, zp_is_terminal, zp_returns, zp_observe, zp_resample, zp_metrics)
from cardsim.games._zhao_pengyou_greedy cimport zp_greedy

from cardsim.errors import ConfigError, ParseError, IllegalActionError
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
    rank, suit = _cards.parse_card(text, "zhao_pengyou", jokers=("BJ", "SJ"))
    if suit < 0:
        return ZP_BJK if rank == "BJ" else ZP_SJK
    return suit * 13 + RANKS.index(rank)


def parse_suit(text):
    return _cards.parse_suit(text, "zhao_pengyou")


def parse_rank(text):
    if isinstance(text, int) and not isinstance(text, bool) and 2 <= text <= 14:
        return text - 2
    if not isinstance(text, str) or text.strip().upper() not in _RANK_ALIASES:
        raise ParseError(f"zhao_pengyou: bad rank {text!r}; ranks: 2-10 J Q K A")
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
    def action_string(self, State s, int a):
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

    def parse_action(self, State s, str text):
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
            raise ParseError(f"zhao_pengyou: cannot parse action {text!r}; expected a card ('AS', '10H', 'BJ'), "
                             f"'COMMIT', 'PASS', 'DECLARE S', 'DISCARD 5H' or 'CALL AH 2'") from None

    def hand_strings(self, State s, int p):
        return hand_to_list(&(<ZPState*>s.data).hand[p])

    def phase_name(self, State s):
        return PHASES[(<ZPState*>s.data).phase]

    @property
    def deck_size(self):
        return self.c.total

    def card_total(self, State s):
        """Cards in hands, the play being built, the undrawn pack, the kitty and all played cards;
        negative if some identity has the wrong number of copies."""
        cdef ZPState* st = <ZPState*>s.data
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

    def view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef ZPState* st = <ZPState*>s.data
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

    def render(self, State s):
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
            st = <ZPState*>s.data
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
            raise ConfigError(f"zhao_pengyou: finished must be True or False, got {finished!r}")
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
                raise ConfigError(f"zhao_pengyou: {item[0]!r} is a trump and cannot be called (§4.4)")
            if (k, nn) in cl:
                raise ConfigError(f"zhao_pengyou: call {item!r} given twice (D15)")
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
        st = <ZPState*>s.data
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
        zp_set_trump(&st.tr, tsuit, trank)
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


# ---- oracle kernels ---------------------------------------------------------------------------
MAX_FOLLOWS = 10_000


def oracle_classify(list lead, int suit, int rank):
    cdef ZPTrump t
    cdef Hand P
    cdef int k = 0, m = 0, su = 0, f
    zp_set_trump(&t, suit, rank)
    cards_to_hand(lead, &P, "a lead")
    f = zp_classify(&t, &P, &k, &m, &su)
    return f, k, m, su


def oracle_trick_winner(list plays, int suit, int rank):
    cdef ZPTrump t
    cdef Hand hs[12]
    cdef Hand h
    cdef int k = 0, m = 0, su = 0, f
    if not 1 <= len(plays) <= 12:
        raise ConfigError(f"zhao_pengyou: a trick has 1 to 12 plays, got {len(plays)}")
    ids = [_parse_cards(p, f"play {i}") for i, p in enumerate(plays)]
    allc = [k for p in ids for k in p]
    for kk in set(allc):
        if allc.count(kk) > 4:
            raise ConfigError(f"zhao_pengyou: the trick holds {allc.count(kk)} copies of {card_str(kk)}; "
                              f"a pack of at most 4 decks has 4")
    zp_set_trump(&t, suit, rank)
    for i, p in enumerate(ids):
        _fill(&h, p)
        hs[i] = h
    f = zp_classify(&t, &hs[0], &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: the lead {_short(plays[0])} is not a valid lead")
    L = hand_size(&hs[0])
    for i in range(1, len(plays)):
        if hand_size(&hs[i]) != L:
            raise IllegalActionError(f"zhao_pengyou: play {_short(plays[i])} has {hand_size(&hs[i])} cards, "
                                     f"the lead has {L}")
    return zp_trick_winner(&t, hs, len(plays), f, k, m, su)


cdef int _enum_counts(int* pc, int* cap, const int* sc, const int* ids, int n, int i, int left, int k, int m,
                      int mins, bint oblige, list prefix, list out, int limit) except -1:
    """Depth-first over the identities ids[i..]: how many copies of each go into the follow. A
    branch is entered only if set_obligation_cost (the kernel behind the engine's factored
    actions) says a completion still exists, so every leaf is a legal follow and the work is
    proportional to the number of follows."""
    cdef int a, j, room = 0
    cdef Hand h
    if i == n:
        if left == 0:
            _fill(&h, prefix)
            for j in range(n):
                for a in range(pc[j]):
                    hand_add(&h, ids[j])
            out.append(hand_to_list(&h))
            if len(out) > limit:
                raise ConfigError(f"zhao_pengyou: more than MAX_FOLLOWS = {limit} legal follows; legal_follows "
                                  f"refuses to list them all (is_legal_follow checks one play)")
        return 0
    for j in range(i + 1, n):
        room += sc[j]
    a = sc[i] if sc[i] < left else left
    while a >= 0 and left - a <= room:
        pc[i] = a
        cap[i] = a
        if not oblige or set_obligation_cost(pc, cap, sc, n, k, m, mins) <= left - a:
            _enum_counts(pc, cap, sc, ids, n, i + 1, left - a, k, m, mins, oblige, prefix, out, limit)
        a -= 1
    pc[i] = 0
    cap[i] = sc[i]
    return 0


def _hand_and_lead(hand, lead):
    h = _parse_cards(hand, "the hand")
    ld = _parse_cards(lead, "the lead")
    for k in set(h) | set(ld):
        if h.count(k) + ld.count(k) > 4:
            raise ParseError(f"zhao_pengyou: the hand and the lead hold {h.count(k) + ld.count(k)} copies of "
                             f"{card_str(k)}; a pack of at most 4 decks has 4")
    return h, ld


def oracle_legal_follows(hand, lead, int suit, int rank, bint partial_sets=False):
    """Every distinct legal follow (§5.4) of `hand` to the legal lead `lead`, each multiset once,
    at most MAX_FOLLOWS of them (ConfigError beyond)."""
    cdef ZPTrump t
    cdef Hand H, P
    cdef int k = 0, m = 0, su = 0, f, n = 0, L, nS = 0
    cdef int ids[54]
    cdef int sc[54]
    cdef int pc[54]
    cdef int cap[54]
    h, ld = _hand_and_lead(hand, lead)
    zp_set_trump(&t, suit, rank)
    _fill(&H, h)
    _fill(&P, ld)
    f = zp_classify(&t, &P, &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} is not a valid lead")
    L = hand_size(&P)
    if hand_size(&H) < L:
        raise IllegalActionError(f"zhao_pengyou: the hand has fewer cards ({hand_size(&H)}) than the lead ({L})")
    for kk in range(54):
        if hand_count(&H, kk) and t.eff[kk] == su:
            nS += hand_count(&H, kk)
    prefix = []
    for kk in range(54):
        c = hand_count(&H, kk)
        if c == 0:
            continue
        if (t.eff[kk] == su) == (nS >= L):
            ids[n] = kk
            sc[n] = c
            pc[n] = 0
            cap[n] = c
            n += 1
        else:
            prefix += [kk] * c
    out = []
    if nS >= L:
        _enum_counts(pc, cap, sc, ids, n, 0, L, k, m, 1 if partial_sets else k, k >= 2, [], out, MAX_FOLLOWS)
    else:
        _enum_counts(pc, cap, sc, ids, n, 0, L - nS, k, m, k, False, prefix, out, MAX_FOLLOWS)
    return out


def oracle_follow_ok(hand, lead, play, int suit, int rank, bint partial_sets=False):
    cdef ZPTrump t
    cdef ZPConfig c
    cdef Hand H, P, Q
    cdef int k = 0, m = 0, su = 0, f
    memset(&c, 0, sizeof(ZPConfig))
    c.partial_sets = partial_sets
    h, ld = _hand_and_lead(hand, lead)
    zp_set_trump(&t, suit, rank)
    _fill(&H, h)
    _fill(&P, ld)
    cards_to_hand(play, &Q, "the play")
    f = zp_classify(&t, &P, &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} is not a valid lead")
    return bool(zp_follow_ok(&t, &c, &H, &Q, k, m, su, hand_size(&P)))


def oracle_strength(card, int suit, int rank):
    cdef ZPTrump t
    zp_set_trump(&t, suit, rank)
    k = parse_card(card)
    return ("T" if t.eff[k] == ZP_TRUMP else SUITS[t.eff[k]]), t.strength[k]


# ---- shengji-compatible oracle kernels (issue 17) ----------------------------------------------
cdef int _mixed_setup(ZPConfig* c, ZPTrump* t, dict opts, dict table, int suit, int rank) except -1:
    fill_config(c, opts, table)
    zp_set_trump(t, suit, rank)
    zp_set_adjacency(t, c.adj_sj)
    return 0


cdef int _mixed_lead(const ZPTrump* t, const ZPConfig* c, lead, Hand* P, ZPFormat* F) except -1:
    cdef int f
    cards_to_hand(lead, P, "a lead")
    f = zp_mixed_format(t, c, P, F)
    if f == -1:
        raise IllegalActionError("zhao_pengyou: an empty lead")
    if f == -2:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} is no valid lead: the cards are not all of one "
                                 f"suit (trumps count as one suit)" + (" and no rainbow" if c.rainbows else ""))
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} has more units than a lead can hold (32)")
    return 0


cdef str _fmt_kind(const ZPConfig* c, const ZPFormat* F):
    if F.rainbow:
        return "rainbow"
    if c.bombs and F.nu == 1 and F.len[0] == 1 and F.cnt[0] >= 4:
        return "bomb"
    if F.nu == 1 and F.len[0] == 1:
        return "single" if F.cnt[0] == 1 else "set"
    if F.nu == 1:
        return "sequence"
    return "throw"


# The mixed oracles take each hand, lead and play as its own packed multiset (at most 4 copies of
# a card each); together they may hold more copies than 4 packs (shengji's tests use up to 6 decks).
def oracle_mixed_format(list lead, int suit, int rank, dict opts, dict table):
    """(kind, units) of a lead under throw_units='mixed': units largest first, each (count,
    distinct cards low to high); a rainbow unit (count cards of one rank, several suits) is listed
    as (count, [its lowest card]), so that count * len(cards) is its size."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef Hand P
    cdef ZPFormat F
    _mixed_setup(&c, &t, opts, table, suit, rank)
    _mixed_lead(&t, &c, lead, &P, &F)
    units = []
    for u in range(F.nu):
        if F.rainbow:
            mem = [F.mem[F.off[u]]]
        else:
            mem = [F.mem[F.off[u] + j] for j in range(F.len[u])]
        strength = max(t.strength[k] for k in mem)
        units.append((F.cnt[u] * F.len[u], strength, u, (F.cnt[u], [card_str(k) for k in mem])))
    units.sort(key=lambda x: (-x[0], -x[1], -x[2]))
    return _fmt_kind(&c, &F), [x[3] for x in units]


def oracle_mixed_winner(list plays, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand hs[12]
    cdef Hand h
    if not 1 <= len(plays) <= 12:
        raise ConfigError(f"zhao_pengyou: a trick has 1 to 12 plays, got {len(plays)}")
    ids = [_parse_cards(p, f"play {i}") for i, p in enumerate(plays)]
    _mixed_setup(&c, &t, opts, table, suit, rank)
    _mixed_lead(&t, &c, plays[0], &h, &F)
    for i, p in enumerate(ids):
        _fill(&h, p)
        hs[i] = h
    L = hand_size(&hs[0])
    for i in range(1, len(plays)):
        if hand_size(&hs[i]) != L:
            raise IllegalActionError(f"zhao_pengyou: play {_short(plays[i])} has {hand_size(&hs[i])} cards, "
                                     f"the lead has {L}")
    return zp_mixed_winner(&t, &c, &F, hs, len(plays))


def oracle_mixed_follow_ok(hand, lead, play, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand H, P, Q
    h = _parse_cards(hand, "the hand")
    _mixed_setup(&c, &t, opts, table, suit, rank)
    _mixed_lead(&t, &c, lead, &P, &F)
    _fill(&H, h)
    cards_to_hand(play, &Q, "the play")
    return bool(zp_mixed_follow_ok(&t, &c, &F, &H, &Q))


cdef int _mixed_enum(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* H, Hand* Q, list ids,
                     int i, int left, list out, int limit) except -1:
    """Depth-first over the hand's identities ids[i..] (copies of each in the follow); a branch
    is entered only if zp_mixed_completable (the engine's factored-follow kernel) says a legal
    completion may exist; leaves are checked with zp_mixed_follow_ok."""
    cdef int a, j, k, room = 0
    if left == 0:
        if zp_mixed_follow_ok(t, c, F, H, Q):
            out.append(hand_to_list(Q))
            if len(out) > limit:
                raise ConfigError(f"zhao_pengyou: more than MAX_FOLLOWS = {limit} legal follows; legal_follows "
                                  f"refuses to list them all (is_legal_follow checks one play)")
        return 0
    if i == len(ids):
        return 0
    for j in range(i + 1, len(ids)):
        room += hand_count(H, ids[j])
    k = ids[i]
    a = hand_count(H, k)
    if a > left:
        a = left
    while a >= 0:
        if left - a <= room:
            for j in range(a):
                hand_add(Q, k)
            if a == 0 or zp_mixed_completable(t, c, F, H, Q):
                _mixed_enum(t, c, F, H, Q, ids, i + 1, left - a, out, limit)
            for j in range(a):
                hand_remove(Q, k)
        a -= 1
    return 0


def oracle_mixed_follows(hand, lead, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand H, P, Q
    h = _parse_cards(hand, "the hand")
    _mixed_setup(&c, &t, opts, table, suit, rank)
    _mixed_lead(&t, &c, lead, &P, &F)
    _fill(&H, h)
    L = hand_size(&P)
    if hand_size(&H) < L:
        raise IllegalActionError(f"zhao_pengyou: the hand has fewer cards ({hand_size(&H)}) than the lead ({L})")
    hand_clear(&Q)
    out = []
    _mixed_enum(&t, &c, &F, &H, &Q, sorted(set(h)), 0, L, out, MAX_FOLLOWS)
    return out


def oracle_throw_outcome(lead, others, int suit, int rank, dict opts, dict table):
    """The cards actually led when `lead` is attempted against the other hands (in play order
    after the leader): the lead if the throw stands, else the forced unit."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand P
    cdef Hand hs[12]
    cdef Hand out
    cdef int u = 0, b
    if not isinstance(others, (list, tuple)) or not 1 <= len(others) <= 11:
        raise ConfigError(f"zhao_pengyou: other_hands must be a list of 1 to 11 hands, got {_short(others)}")
    oh = [_parse_cards(x, f"other hand {i}") for i, x in enumerate(others)]
    _mixed_setup(&c, &t, opts, table, suit, rank)
    _mixed_lead(&t, &c, lead, &P, &F)
    c.n = 1 + len(oh)
    hs[0] = P
    for i, x in enumerate(oh):
        _fill(&hs[i + 1], x)
    b = zp_mixed_blocker(&t, &c, hs, 0, &F, &u)
    if b < 0:
        return hand_to_list(&P)
    zp_fmt_unit_cards(&t, &F, &P, u, &out)
    return hand_to_list(&out)


def oracle_follow_matches(lead, play, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand P, Q
    _mixed_setup(&c, &t, opts, table, suit, rank)
    _mixed_lead(&t, &c, lead, &P, &F)
    cards_to_hand(play, &Q, "the play")
    return bool(zp_fmt_matches(&t, &c, &F, &Q))
