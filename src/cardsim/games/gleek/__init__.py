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
(greedy), `_observe` (observation and resampling) and `_spec` (config, vtable, the hooks that read
or write the struct); `notation.py` holds the card and action text, the view built from the
struct's fields, the rendering and the scenario checks; this face holds `INFO` (info.py) and the
oracles, and re-exports the notation. Core mechanisms used: the core shuffle (deal),
TrickRecord and trick_close, the resample policy (showdown ruffs and declared sets as its world
check; it reports failure rather than relax a constraint) with resample_rekey,
GameSpec.install_game and _scenario_state. Scenario states: spec.scenario(hands, turnup=,
dealer=0, dead=0, chips=None), every argument validated before the state is touched (dead <=
100000: the stake is int32).
"""
from __future__ import annotations

import math

from cardsim.core._engine import check_int
from cardsim.errors import ConfigError, ParseError, short
from cardsim.info import scenario_spec
from cardsim.games.gleek import _rules, _spec
from cardsim.games.gleek.info import INFO
# card and action notation: cardsim.games.gleek.notation, re-exported
from cardsim.games.gleek.notation import (  # noqa: F401 (the public notation)
                                          SUITS, RANKS, HONOUR_NAMES, DISPLAY_ORDER, PHASES, MAX_DEAD, MAX_CHIPS,
                                          PASS, VIE, SEE, REVIE, DECLARE0, DONE, BID0, card_str, parse_suit,
                                          parse_card, mask_to_cards, cards_to_mask, _scenario)

NAME = INFO.name                          # for the messages below
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

RUFF_FOUR_ACES = _rules.RUFF_FOUR_ACES


def build(opts: dict):
    """The spec of the resolved options `opts` (cardsim.make calls it; INFO.resolve has checked
    them, the cross-option rule included)."""
    return _Spec(opts)


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
    return _scenario(_own_game(game).spec, hands, facts)


_Spec = scenario_spec(_spec.GleekSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


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
