"""Gleek (17th-century England, Parlett's reconstruction): 3 players each for himself, a 44-card
pack, buying the stock, vying the ruff, gleeks and mournivals, 12 tricks with trump honours, all
settled in chips.

Implements docs/rules/gleek.md §1-§8 (every option of §8) and follows its decisions D1-D13 as
written: honours A15 J9 K3 Q3 (D1); action-space caps MAX_STOCK_BID / MAX_REVIES (D2); discard 7,
then take the stock (D3, option); base stake 2 x (1 + dead ruffs) (D4); a pass before any vie is a
check, a folder forfeits what he committed (D5, option); gleek/mournival table A 4/8 K 3/6 Q 2/4
J 1/2 (D6, an option table); reveal tie-break by suit order S H D C (D7); the turn-up never
counts for ruffs or gleeks (D8); declarations automatic (D9, option); avg = T/3 (D10); match
defaults 6 deals and 200 chips (D11); the game-end test after full settlement (D12); the odd chip
to the second passer (D13).

Where the spec is silent: with STOCK_ODD_CHIP="eldest" and eldest as buyer, the odd chip goes to
the last passer; with FOLD_PAYS="stake" a folder owes the stake current when he folds; honour
values must be multiples of 3 so that avg = T/3 stays an integer; a buyer's discards stay hidden
until the end of the deal; with optional declarations each player, in turn from eldest, declares
any of his sets (one action each) then says DONE (players without a set are skipped).

Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10', 7 = J, 8 = Q,
9 = K, 10 = A. Actions: 0..43 that card (discard it in the exchange, play it in trick play);
44 PASS (auction pass, open-round check, respond-round fold); 45 VIE; 46 SEE; 47 REVIE;
48..51 DECLARE A/K/Q/J (optional declarations); 52 DONE; 53 + n = BID n (n <= MAX_STOCK_BID).

Returns: per seat, the chips won (+) or lost (-) in the deal (scope "deal") or over the match
(scope "match": balance minus starting chips). Zero-sum. The deal's chips by step (turn-up,
stock, ruff, gleeks, tricks) are in `view()["parts"]`.

Observation: float32 blocks declared once in `INFO.observation` (info.py; name, size, meaning,
in order); the kernel writes them at the offsets of the generated `_layout.pxd`
(tools/gen_layout.py), and docs/observations.md lists them.

Greedy agent: never bids for the stock (passes; eldest's 12 is forced); as buyer discards the
7 cards it values least (trumps and cards of ranks it holds 3+ of kept first, then high ranks);
vies with a ruff of 45+, sees with 42+, revies with 55+ (four Aces always revie/see); declares
every set; in play leads a master non-trump card if it has one, otherwise the lowest card of its
longest non-trump suit; as follower plays the cheapest card that currently wins the trick, else
its lowest card (non-trumps first).

Rule oracles (card strings as in DESIGN §4, e.g. 'AS', '10H'; they run the engine's kernels):
`trick_winner(plays, trump)`, `legal_follows(hand, led)`, `ruff_value(hand)`, `gleek_value(hand)`,
`gleek_settlement(hands)`, `trick_settlement(tricks, honours, turnup, dealer, discards)`; and
`game.spec.scenario(hands, turnup=..., dealer=0, dead=0, chips=None)` (or the older
`deal_hands(game, hands, turnup, dealer, dead, chips)`) to set up a position for analysis.
Inconsistent inputs (a card in two seats, float counts, out-of-range seats) raise ConfigError or
ParseError instead of being scored. `game.spec.view(state)` returns every fact of a state as a
dict (incl. the chips of the deal by step: turnup, stock, ruff, gleeks, tricks).

Layout (the one game shape, docs/ADDING_A_GAME.md): ext/cardsim/games/gleek/ holds `_rules` (pure
rules on cards and config: trick winner, follow rule, ruff value, gleeks and mournivals, trick
settlement; the oracles' entry points), `_state` (the state struct and the state machine), `_agent`
(greedy), `_observe` (observation and resampling) and `_spec` (config, vtable, struct glue); this
face holds `INFO` (info.py), the card notation, the spec's string hooks (a Python subclass of the
compiled spec), the oracles and the scenario checks. Core mechanisms used: the core shuffle (deal),
TrickRecord and trick_close, the resample policy (showdown ruffs and declared sets as its world
check; it reports failure rather than relax a constraint) with resample_rekey,
GameSpec.install_game and _scenario_state. Scenario states: spec.scenario(hands, turnup=,
dealer=0, dead=0, chips=None), every argument validated before the state is touched (dead <=
100000: the stake is int32).
"""
from __future__ import annotations

import math
import numbers

from cardsim import cards as _cards
from cardsim.core._engine import check_int
from cardsim.core.notation import disjoint_hands
from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.gleek import _rules, _spec
from cardsim.games.gleek.info import INFO, HONOURS

NAME = INFO.name                          # for the messages below
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

# ---- card notation ------------------------------------------------------------------------------
SUITS = "SHDC"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HONOUR_NAMES = HONOURS
RUFF_FOUR_ACES = _rules.RUFF_FOUR_ACES
DISPLAY_ORDER = tuple(suit * 11 + r for suit in range(4) for r in range(10, -1, -1))
PHASES = ("auction", "exchange", "vie", "declare", "play", "end")
MAX_DEAD = 100_000            # dead ruffs given to a scenario: the stake (int32) stays exact
MAX_CHIPS = 1_000_000_000     # chip balances given to a scenario
# actions: 0..43 cards, then these (BID n = BID0 + n)
PASS, VIE, SEE, REVIE, DECLARE0, DONE, BID0 = 44, 45, 46, 47, 48, 52, 53


def card_str(c) -> str:
    """Card id 0..43 -> 'AS', '10H' (ParseError for any other id)."""
    if isinstance(c, bool) or not isinstance(c, numbers.Integral) or not 0 <= c < 44:
        raise ParseError(f"gleek: card id {short(c)} out of range 0..43")
    return RANKS[c % 11] + SUITS[c // 11]


def parse_suit(text):
    return _cards.parse_suit(text, "gleek")


def parse_card(text):
    """'AS', '10H', 'TD', '4♣', '♣4', lower case ok -> card id (no 2s or 3s in Gleek)."""
    rank, suit = _cards.parse_card(text, "gleek", RANKS)
    return suit * 11 + RANKS.index(rank)


def mask_to_cards(m):
    """Cards of a mask in display order: suits S H D C, high to low."""
    return _cards.mask_to_strings(m, DISPLAY_ORDER, card_str)


def cards_to_mask(cards):
    """A list of card strings (one pack: no card twice) -> mask."""
    return _cards.ids_to_mask(cards, parse_card, "gleek")


# ---- the spec with its string hooks ---------------------------------------------------------------
class GleekSpec(_spec.GleekSpec):
    """The compiled spec (cardsim.games.gleek._spec) with the hooks that speak strings: action
    text, hands, phase names, the view, the rendering and the scenario builder."""

    def _action_string(self, s, a):
        if a < 44:
            if self._phase(s) == 1:                  # the exchange: discards
                return "DISCARD " + card_str(a)
            return card_str(a)
        if a == PASS:
            return "PASS"
        if a == VIE:
            return "VIE"
        if a == SEE:
            return "SEE"
        if a == REVIE:
            return "REVIE"
        if a == DONE:
            return "DONE"
        if a < DONE:
            return "DECLARE " + HONOUR_NAMES[a - DECLARE0]
        return f"BID {a - BID0}"

    def _parse_action(self, s, text):
        t = " ".join(text.strip().upper().split())
        simple = {"PASS": PASS, "P": PASS, "CHECK": PASS, "FOLD": PASS, "VIE": VIE,
                  "SEE": SEE, "REVIE": REVIE, "DONE": DONE}
        if t in simple:
            return simple[t]
        if t.startswith("DECLARE "):
            r = t[8:].strip()
            if r in HONOUR_NAMES:
                return DECLARE0 + HONOUR_NAMES.index(r)
        elif t.startswith("DISCARD "):
            return parse_card(t[8:])
        else:
            num = t[4:].strip() if t.startswith("BID ") else t
            if num.isdigit() and 0 <= int(num) <= self.options["max_stock_bid"]:
                return BID0 + int(num)
            try:
                return parse_card(t)
            except ParseError:
                pass
        raise ParseError(f"gleek: cannot parse action {short(text)}; expected a card ('AS', '10H'), "
                         f"'DISCARD AS', 'BID 13', 'PASS', 'VIE', 'SEE', 'REVIE', 'DECLARE A' or 'DONE'")

    def _hand_strings(self, s, p):
        return mask_to_cards(self._hand_mask(s, p))

    def _phase_name(self, s):
        return PHASES[self._phase(s)]

    def _view(self, s):
        """A dict of every fact of the state (public and hidden; for tests and display)."""
        f = self._fields(s)
        bought = f["buyer"] >= 0
        return {
            "phase": self.phase_name(s), "dealer": f["dealer"], "eldest": f["eldest"],
            "turn": f["turn"] if f["phase"] != 5 else -1,
            "turnup": card_str(f["turnup"]), "trump": SUITS[f["trump"]],
            "high": f["high"], "high_bidder": f["high_bidder"],
            "passed": [q for q in range(3) if (f["passed"] >> q) & 1],
            "last_passer": next((q for q in range(3) if f["pass_rank"][q] == 2), None),
            "buyer": f["buyer"] if bought else None,
            "price": f["high"] if bought else None,
            "stock": mask_to_cards(f["stock"]), "discards": mask_to_cards(f["discards"]),
            "base": f["base"], "stake": f["stake"], "vied": bool(f["vied"]), "dead": f["dead"],
            "committed": f["committed"], "owe": f["owe"],
            "folded": [q for q in range(3) if (f["folded"] >> q) & 1],
            "pending": f["pending"],
            "showdown": bool(f["showdown"]),
            "ruff": [None if r < 0 else r for r in f["ruff"]],
            "ruff_suit": [None if r < 0 else ("SHDC" + "A")[r] for r in f["ruff_suit"]],
            "shown": [mask_to_cards(m) for m in f["shown"]],
            "declared": [[HONOUR_NAMES[r] for r in range(4) if (d >> r) & 1] for d in f["declared"]],
            "gleek_value": f["gleek_value"],
            "kept": [mask_to_cards(m) for m in f["kept"]],
            "leader": f["leader"], "trick": [None if c < 0 else card_str(c) for c in f["trick"]],
            "tricks": f["tricks"], "tricks_done": f["tricks_done"],
            "played": [mask_to_cards(m) for m in f["played"]],
            "won": [mask_to_cards(m) for m in f["won"]],
            "score": f["score"], "points_total": f["total"],
            "parts": {name: f["part"][k] for k, name in enumerate(("turnup", "stock", "ruff", "gleeks", "tricks"))},
            "deal_chips": [sum(f["part"][k][q] for k in range(5)) for q in range(3)],
            "chips": f["chips"], "deal_no": f["deal_no"],
        }

    def _render(self, s):
        v = self.view(s)
        lines = [f"Gleek  phase={v['phase']}  dealer=P{v['dealer']}  turn-up {v['turnup']} (trump {v['trump']})"
                 f"  deal {v['deal_no'] + (v['phase'] != 'end')}  chips {v['chips']}"]
        if v["phase"] == "auction":
            lines.append(f"auction: high {v['high']} by P{v['high_bidder']}  passed {v['passed']}")
        elif v["buyer"] is not None:
            lines.append(f"stock bought by P{v['buyer']} at {v['price']}; ruff base {v['base']} stake {v['stake']}"
                         f" folded {v['folded']}")
        for p in range(3):
            mark = "*" if v["turn"] == p else " "
            lines.append(f"{mark}P{p}: {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"P{p}:{c}" for p, c in enumerate(v["trick"]) if c)
                         + f"   tricks {v['tricks']}")
        lines.append(f"this deal: {v['parts']}")
        return "\n".join(lines)

    def scenario(self, hands, **facts):
        """A fresh state at the start of the auction, for scenario tests and analysis: three
        12-card hands (card strings) and the public facts turnup (required), dealer (0..2),
        dead (consecutive dead ruffs before this deal, 0..MAX_DEAD: base stake 2 x (1 + dead))
        and chips (3 balances before this deal, scope "match"); the 7 remaining cards form the
        stock. Turn-up payment and eldest's forced bid are applied as in a real deal. Every
        argument is validated before the state is touched (ConfigError / ParseError)."""
        unknown = sorted(set(facts) - {"turnup", "dealer", "dead", "chips"})
        if unknown:
            raise ConfigError(f"gleek: unknown scenario facts {unknown}; known: turnup, dealer, dead, chips")
        if "turnup" not in facts:
            raise ConfigError("gleek: a scenario needs the turn-up card (turnup='7H')")
        masks, allm = disjoint_hands("gleek", hands, 3, cards_to_mask, 12)
        tu = parse_card(facts["turnup"])
        if (allm >> tu) & 1:
            raise ConfigError("gleek: the turn-up is in a hand")
        dealer = check_int(facts.get("dealer", 0), "gleek: dealer", 0, 2, ConfigError)
        dead = check_int(facts.get("dead", 0), "gleek: dead", 0, MAX_DEAD, ConfigError)
        chips = facts.get("chips")
        if chips is not None:
            if isinstance(chips, (str, bytes)) or not isinstance(chips, (list, tuple)) or len(chips) != 3:
                raise ConfigError(f"gleek: chips must be 3 ints, got {chips!r:.60}")
            chips = [check_int(v, "gleek: chips", -MAX_CHIPS, MAX_CHIPS, ConfigError) for v in chips]
        return self._scenario_deal(masks, tu, dealer, dead, chips)

    def deal_hands(self, hands, turnup, dealer=0, dead=0, chips=None):
        """Same as scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)."""
        return self.scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)


def build(opts: dict):
    """The spec of the resolved options `opts` (cardsim.make calls it; INFO.resolve has checked
    them, the cross-option rule included)."""
    return GleekSpec(opts)


# ---- the public oracles (card strings in, checked here; the kernels in _rules) ---------------------
def _card_ids(cards):
    return [parse_card(c) for c in cards]


def _own_game(game):
    """game, checked to be a Gleek game (cardsim.make("gleek", ...))."""
    return INFO.game_of(game)


def _hand(hand, what="hand"):
    """A list of distinct cards -> its mask (the oracles judge any such set of cards, also larger
    than a 12-card hand, as their docstrings say)."""
    return cards_to_mask(hand)


def trick_winner(plays: list[str], trump: str) -> int:
    """Index of the winning card of a trick (plays[0] leads; trump 'S'/'H'/'D'/'C' or a symbol):
    the highest trump if any, else the highest card of the led suit (§5)."""
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 3:
        raise ParseError(f"gleek: a trick is a list of 1 to 3 cards, got {short(plays)}")
    cards = _card_ids(plays)
    if len(set(cards)) != len(cards):
        raise ParseError(f"gleek: a card appears twice in the trick {short(plays)}")
    return _rules.oracle_trick_winner(cards, parse_suit(trump))


def legal_follows(hand: list[str], led: str | None) -> list[str]:
    """Cards of `hand` that may be played to a trick led by card `led` (None: on lead, any)."""
    m = _hand(hand)
    led_suit = -1
    if led is not None:
        lc = parse_card(led)
        if (m >> lc) & 1:
            raise ConfigError(f"gleek: the led card {short(led)} cannot also be in the hand")
        led_suit = lc // 11
    return mask_to_cards(_rules.oracle_follow(m, led_suit))


def ruff_value(hand: list[str]) -> float:
    """Ruff value of a hand (§4.3): the best suit's sum of card values (A 11, K Q J 10, 10..4
    face value); math.inf for a hand holding all four Aces."""
    v, _suit = _rules.oracle_ruff(_hand(hand))
    return math.inf if v == _rules.RUFF_FOUR_ACES else v


def gleek_value(hand: list[str], **options) -> int:
    """V of a hand (§4.4): the chips it receives from each opponent for its gleeks/mournivals."""
    return _rules.oracle_sets_value(build(INFO.resolve_kwargs(options)), _hand(hand))


def _hand_list(hands, what):
    """Three card lists, no card in two of them -> their masks."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != 3:
        raise ConfigError(f"gleek: {what} must be 3 card lists (one per seat), got {short(hands)}")
    masks = [_hand(h, what) for h in hands]
    if masks[0] & masks[1] or masks[0] & masks[2] or masks[1] & masks[2]:
        raise ConfigError(f"gleek: a card appears in two seats' {what}")
    return masks


def gleek_settlement(hands: list[list[str]], **options) -> list[int]:
    """Net chips of each seat from gleeks and mournivals (§4.4): 2 V[p] - sum of the others' V."""
    _hand_list(hands, "hands")
    V = [gleek_value(h, **options) for h in hands]
    return [2 * V[p] - sum(V[q] for q in range(3) if q != p) for p in range(3)]


def trick_settlement(tricks: list[int], honours: list[list[str]], turnup: str, dealer: int = 0,
                     discards: list[str] = (), **options):
    """Trick settlement (§6.5) with the engine's kernel. honours[p] = the cards that count for
    seat p (held in hand, or won in tricks with honour_scoring='won'; only trump A/K/Q/J score);
    discards = the buyer's discards (at most 7). Returns (scores, T, chip deltas). Inconsistent
    inputs (a card counted for two seats or also discarded, the turn-up among them, trick counts
    that are not 3 ints summing to 12) raise ConfigError / ParseError."""
    if isinstance(tricks, (str, bytes)) or not isinstance(tricks, (list, tuple)) or len(tricks) != 3:
        raise ConfigError(f"gleek: tricks must be 3 counts summing to 12, got {short(tricks)}")
    tricks = [check_int(t, "gleek: tricks", 0, 12, ConfigError) for t in tricks]
    if sum(tricks) != 12:
        raise ConfigError(f"gleek: tricks must be 3 counts summing to 12, got {short(tricks)}")
    masks = _hand_list(honours, "honours")
    dealer = check_int(dealer, "gleek: dealer", 0, 2, ConfigError)
    tu = parse_card(turnup)
    dm = cards_to_mask(discards)
    if len(discards) > 7:
        raise ConfigError(f"gleek: the buyer discards 7 cards, got {len(discards)}")
    if dm & (masks[0] | masks[1] | masks[2]):
        raise ConfigError("gleek: a card is both discarded and counted for a seat")
    if ((masks[0] | masks[1] | masks[2] | dm) >> tu) & 1:
        raise ConfigError("gleek: the turn-up counts for the dealer by itself; it cannot be held, won or discarded")
    spec = build(INFO.resolve_kwargs(options))
    return _rules.oracle_trick_settlement(spec, tricks, masks, tu, dealer, dm)


def deal_hands(game, hands: list[list[str]], turnup: str, dealer: int = 0, dead: int = 0,
               chips: list[int] | None = None):
    """A state at the start of the auction with the given hands and turn-up (the 7 other cards
    form the stock); `dead` = consecutive dead ruffs before this deal (base stake 2 x (1 + dead));
    `chips` = balances before this deal (scope="match"). The same as
    game.spec.scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)."""
    return _own_game(game).spec.scenario(hands, turnup=turnup, dealer=dealer, dead=dead, chips=chips)


def scenario(game, hands, **facts):
    """A state built from card strings for scenarios and analysis: game.spec.scenario(hands,
    **facts) (three 12-card hands; facts: turnup (required), dealer, dead, chips. See
    GleekSpec.scenario.); every argument is validated before the state is touched, and the state is
    marked not replayable."""
    return _own_game(game).spec.scenario(hands, **facts)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay gleek --html`, cardsim.replay.table_of) draws of a
    position: the turn-up, the stock (face down unless everything is shown), the cards shown for
    the ruff and the gleeks, the trick, and the chips by step of the deal as a table (not the
    view's dict). `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        names = INFO.seat_names_for(3)
        zones = [{"name": "turn-up", "groups": [{"cards": [v["turnup"]], "label": f"trump {v['trump']}"}]}]
        if v["stock"]:
            zones.append({"name": "stock", "groups": [{"cards": v["stock"] if viewer is None else ["?"] * len(v["stock"])}]})
        if any(v["shown"]):
            zones.append({"name": "shown", "groups": [{"seat": p, "cards": v["shown"][p]} for p in range(3) if v["shown"][p]]})
        zones.append({"name": "trick", "trick": True,
                      "groups": [{"seat": p, "cards": [c]} for p, c in enumerate(v["trick"]) if c is not None]})
        facts = [("dealer", names[v["dealer"]]), ("trump", v["trump"])]
        if v["buyer"] is not None:
            facts.append(("stock bought", f"by {names[v['buyer']]} for {v['price']}"))
        elif v["phase"] == "auction":
            facts.append(("stock bid", f"{v['high']}" + (f" by {names[v['high_bidder']]}" if v["high_bidder"] >= 0 else "")))
        if v["passed"] and v["phase"] == "auction":
            facts.append(("passed", ", ".join(names[p] for p in v["passed"])))
        if v["stake"]:
            facts.append(("stake", v["stake"]))
        if v["folded"]:
            facts.append(("folded", ", ".join(names[p] for p in v["folded"])))
        parts = {"turnup": "chips: turn-up", "stock": "chips: stock", "ruff": "chips: ruff",
                 "gleeks": "chips: gleeks", "tricks": "chips: tricks"}
        scores = [{"label": "tricks", "cols": names, "values": v["tricks"]}]
        scores += [{"label": parts[k], "cols": names, "values": list(x)} for k, x in v["parts"].items() if any(x)]
        scores += [{"label": "chips this deal", "cols": names, "values": v["deal_chips"]},
                   {"label": "chips", "cols": names, "values": v["chips"]}]
        return {"zones": zones, "facts": facts, "scores": scores}
