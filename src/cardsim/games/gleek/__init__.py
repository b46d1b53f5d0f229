"""Gleek: options, presets and rule oracles (docs/rules/gleek.md).

See the docstring of the compiled module `cardsim.games._gleek` for the action space, the
observation layout, the returns and the greedy agent. Returns are chips (zero-sum): the deal's
chip changes (scope="deal") or the match result, balance minus STARTING_CHIPS (scope="match").

Rule oracles (card strings as in DESIGN §4, e.g. 'AS', '10H'; they run the engine's kernels):
`trick_winner(plays, trump)`, `legal_follows(hand, led)`, `ruff_value(hand)`, `gleek_value(hand)`,
`gleek_settlement(hands)`, `trick_settlement(tricks, honours, turnup, dealer, discards)`; and
`game.spec.scenario(hands, turnup=..., dealer=0, dead=0, chips=None)` (or the older
`deal_hands(game, hands, turnup, dealer, dead, chips)`) to set up a position for analysis.
Inconsistent inputs (a card in two seats, float counts, out-of-range seats) raise ConfigError or
ParseError instead of being scored.
`game.spec.view(state)` returns every fact of a state as a dict (incl. the chips of the deal
by step: turnup, stock, ruff, gleeks, tricks).
"""
from __future__ import annotations

import math

import numpy as np

from cardsim.core._engine import _short, check_int
from cardsim.errors import ConfigError, ParseError
from cardsim.games import _gleek as _k
from cardsim.games import _gleek_rules as _r
from cardsim.options import SCOPE, Option

NAME = "gleek"
PLAYERS = (3,)
DEFAULT_PLAYERS = 3
HONOURS = ("A", "K", "Q", "J")


def _table(name, default, multiple_of=1):
    def check(value):
        if isinstance(value, dict):
            table = list(default)
            for k, v in value.items():
                key = str(k).upper()
                if key not in HONOURS:
                    raise ConfigError(f"gleek: {name} key {_short(k)} unknown; keys: {list(HONOURS)}")
                table[HONOURS.index(key)] = v
        elif isinstance(value, (list, tuple)) and len(value) == 4:
            table = list(value)
        else:
            raise ConfigError(f"gleek: {name} must be 4 ints (A K Q J) or a dict by rank, got {_short(value)}")
        for v in table:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1000:
                raise ConfigError(f"gleek: {name} values must be ints in 0..1000, got {_short(v)}")
            if v % multiple_of:
                raise ConfigError(f"gleek: {name} values must be multiples of {multiple_of} "
                                  f"(so that the average T/3 is a whole number of chips), got {_short(v)}")
        return tuple(table)
    return check


def _tiddy(value):
    """4 or 2, as an int (not 4.0 nor a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in (4, 2):
        raise ConfigError(f"gleek: option 'tiddy_turnup_pay' must be one of [4, 2], got {_short(value)}")
    return int(value)


OPTIONS = (
    Option("tiddy_turnup_pay", 4, "a turned-up 4 (Tiddy): each non-dealer pays the dealer 4, or 2 (Cotgrave)",
           validate=_tiddy),
    Option("towser_tumbler", False, "turn-up 5 / 6 pays 5 / 6 from each non-dealer", kind=bool),
    Option("stock_opening_bid", 12, "eldest's forced opening bid for the stock (12, Cotgrave 13)",
           kind=int, min=0, max=960),
    Option("stock_raise", "any", "a bid may be any higher number up to max_stock_bid, or exactly +1",
           choices=("any", "plus_one")),
    Option("stock_odd_chip", "last_passer", "odd chip of an odd price: to the last passer (D13), or eldest (Cotton)",
           choices=("last_passer", "eldest")),
    Option("stock_payment", "halves", "the buyer pays half the price to each opponent, or the full price to each",
           choices=("halves", "full_each")),
    Option("exchange_order", "discard_first", "buyer discards 7 then takes the stock (D3), or takes then discards",
           choices=("discard_first", "take_first")),
    Option("honour_scoring", "held", "trump honours count for the player who held them, or who won them in a trick",
           choices=("held", "won")),
    Option("fold_pays", "committed", "a folding player owes what he committed (D5), or the current stake",
           choices=("committed", "stake")),
    Option("gleek_declaration", "automatic", "gleeks/mournivals declared automatically (D9), or optional per set",
           choices=("automatic", "optional")),
    Option("max_stock_bid", 40, "highest bid for the stock (engine cap, D2)", kind=int, min=1, max=960),
    Option("max_revies", 3, "revies allowed per deal (engine cap, D2)", kind=int, min=0, max=10),
    Option("honour_values", (15, 3, 3, 9), "trump honour values A K Q J (multiples of 3; D1)",
           validate=_table("honour_values", (15, 3, 3, 9), 3)),
    Option("gleek_values", (4, 3, 2, 1), "gleek (3 of a rank) from each opponent, A K Q J (D6)",
           validate=_table("gleek_values", (4, 3, 2, 1))),
    Option("mournival_values", (8, 6, 4, 2), "mournival (4 of a rank) from each opponent, A K Q J (D6)",
           validate=_table("mournival_values", (8, 6, 4, 2))),
    Option("trick_value", 3, "points per trick in the trick settlement", kind=int, min=0, max=1000),
    Option("num_deals", 6, "deals in a match (scope='match'; D11)", kind=int, min=1, max=10_000),
    Option("starting_chips", 200, "chips each player starts a match with (D11)", kind=int, min=1, max=1_000_000),
    SCOPE,
)

# Published variants (docs/rules/gleek.md §8, sources S6 S7 S11).
PRESETS: dict[str, dict] = {
    "cotgrave": {"stock_opening_bid": 13, "tiddy_turnup_pay": 2},
    "cotton": {"stock_odd_chip": "eldest", "stock_raise": "plus_one"},
    "parlett": {"exchange_order": "take_first"},
}

# Configurations the generic conformance suite runs (tests/conformance).
CONFORMANCE_CONFIGS = (
    {},
    {"scope": "match", "num_deals": 3},
    {"variant": "cotgrave", "gleek_declaration": "optional", "fold_pays": "stake", "honour_scoring": "won",
     "exchange_order": "take_first", "towser_tumbler": True, "stock_payment": "full_each",
     "stock_odd_chip": "eldest", "stock_raise": "plus_one", "max_stock_bid": 20, "max_revies": 1},
    {"variant": "cotton"},
    {"variant": "parlett", "scope": "match", "num_deals": 2, "gleek_declaration": "optional", "starting_chips": 40},
)


def build(opts: dict):
    if opts["stock_opening_bid"] > opts["max_stock_bid"]:
        raise ConfigError(f"gleek: stock_opening_bid ({opts['stock_opening_bid']}) must not exceed "
                          f"max_stock_bid ({opts['max_stock_bid']})")
    return _k.GleekSpec(opts)


def _resolved(opts) -> dict:
    """opts resolved and checked as cardsim.make resolves them (cardsim.game.resolved_options)."""
    from cardsim.game import resolved_options

    return resolved_options(NAME, opts)


def _deal_range(o: dict, dead: int) -> tuple[int, int]:
    """(lo, hi): a seat's chip change in one deal whose ruff base is 2 x (1 + dead); see
    return_bounds for the derivation."""
    pay = max(o["tiddy_turnup_pay"], 6 if o["towser_tumbler"] else 0)
    bid = o["max_stock_bid"]
    if o["stock_payment"] == "full_each":
        stock_in, stock_out = bid, 2 * bid
    else:
        stock_in, stock_out = (bid + 1) // 2, bid
    stake = 2 * (1 + dead) * 2 ** o["max_revies"]
    g, m = o["gleek_values"], o["mournival_values"]
    best_v = 0                                             # V of one 12-card hand at most
    for choice in range(3 ** 4):
        cards = v = 0
        for r in range(4):
            k = (choice // 3 ** r) % 3
            cards += (0, 3, 4)[k]
            v += (0, g[r], m[r])[k]
        if cards <= 12:
            best_v = max(best_v, v)
    others_v = sum(max(g[r], m[r]) for r in range(4))
    total = 12 * o["trick_value"] + sum(o["honour_values"])
    hi = 2 * pay + stock_in + 2 * stake + 2 * best_v + 2 * total // 3
    lo = -pay - stock_out - stake - others_v - total // 3
    return lo, hi


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return (chips) of any seat in a terminal
    state of this configuration (opts: ``cardsim.make("gleek", ...).options``).

    Derivation (docs/rules/gleek.md "Bounds"), per deal and seat, summing the five settlement
    steps (§6) at their extremes: turn-up: the dealer gets 2 p, the others pay p (p = the Tiddy
    pay, or 6 with towser_tumbler); stock (price h <= max_stock_bid): the buyer pays h (halves)
    or 2 h (full_each), an opponent gets at most ceil(h / 2) or h; ruff: the stake is at most
    B x 2^max_revies with base B = 2 (1 + dead) (dead = 0 at a new deal), a winner takes at most
    what two losers owe (2 S), a loser pays at most S; gleeks: a seat gets 2 V - V' - V'' with V
    the best value of a 12-card hand (sets of 3 or 4 cards) and loses at most the value of every
    rank's best set (each rank's set is in one hand only); tricks: score - T/3 with 0 <= score
    <= T, T = 12 trick_value + the honour values: in [-T/3, 2T/3]. A match of N = num_deals deals
    (dead <= N - 1) is bounded by N times the deal bounds, and also because it stops once a
    seat has <= 0 chips: before its last deal every seat had >= 1 chip, so a return lies in
    [1 - starting + lo_deal, 2 (starting - 1) + hi_deal]; the tighter of the two is used."""
    o = _resolved(opts)
    if o["scope"] != "match":
        lo, hi = _deal_range(o, 0)
        return (float(lo), float(hi))
    n = o["num_deals"]
    lo, hi = _deal_range(o, n - 1)
    start = o["starting_chips"]
    return (float(max(n * lo, 1 - start + lo)), float(min(n * hi, 2 * (start - 1) + hi)))


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play.

    Derivation (docs/rules/gleek.md "Bounds"): auction: every bid raises the price from the
    forced opening bid to at most max_stock_bid, plus the two passes that end it; exchange: 7
    discards; vying: at most 3 open-round actions (two checks and a vie, or three checks), then
    at most 2 responses per stake (pending holds two players; a revie, at most max_revies of
    them, refills it); optional declarations: at most 4 sets in all (a rank's 3 or 4 cards are
    in one hand) and one DONE per player; 36 cards in 12 tricks. A match has num_deals deals."""
    o = _resolved(opts)
    deal = (o["max_stock_bid"] - o["stock_opening_bid"] + 2) + 7 + (3 + 2 * (o["max_revies"] + 1)) + 36
    if o["gleek_declaration"] == "optional":
        deal += 4 + 3
    return deal * (o["num_deals"] if o["scope"] == "match" else 1)


def _cards(cards):
    return [_k.parse_card(c) for c in cards]


def _own_game(game):
    """game, checked to be a Gleek game (cardsim.make("gleek", ...))."""
    from cardsim.game import Game

    if not isinstance(game, Game) or game.name != NAME:
        raise ConfigError(f"gleek: expected a Gleek game (cardsim.make('gleek', ...)), got {_short(game)}")
    return game


def _hand(hand, what="hand"):
    """A list of distinct cards -> its mask (the oracles judge any such set of cards, also larger
    than a 12-card hand, as their docstrings say)."""
    return _k.cards_to_mask(hand)


def trick_winner(plays: list[str], trump: str) -> int:
    """Index of the winning card of a trick (plays[0] leads; trump 'S'/'H'/'D'/'C' or a symbol):
    the highest trump if any, else the highest card of the led suit (§5)."""
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 3:
        raise ParseError(f"gleek: a trick is a list of 1 to 3 cards, got {_short(plays)}")
    cards = _cards(plays)
    if len(set(cards)) != len(cards):
        raise ParseError(f"gleek: a card appears twice in the trick {_short(plays)}")
    return _r.oracle_trick_winner(cards, _k.parse_suit(trump))


def legal_follows(hand: list[str], led: str | None) -> list[str]:
    """Cards of `hand` that may be played to a trick led by card `led` (None: on lead, any)."""
    m = _hand(hand)
    led_suit = -1
    if led is not None:
        lc = _k.parse_card(led)
        if (m >> lc) & 1:
            raise ConfigError(f"gleek: the led card {_short(led)} cannot also be in the hand")
        led_suit = lc // 11
    return _k.mask_to_cards(_r.oracle_follow(m, led_suit))


def ruff_value(hand: list[str]) -> float:
    """Ruff value of a hand (§4.3): the best suit's sum of card values (A 11, K Q J 10, 10..4
    face value); math.inf for a hand holding all four Aces."""
    v, _suit = _r.oracle_ruff(_hand(hand))
    return math.inf if v == _k.RUFF_FOUR_ACES else v


def gleek_value(hand: list[str], **options) -> int:
    """V of a hand (§4.4): the chips it receives from each opponent for its gleeks/mournivals."""
    from cardsim.game import make

    return _k.oracle_sets_value(make(NAME, **options).spec, _hand(hand))


def _hand_list(hands, what):
    """Three card lists, no card in two of them -> their masks."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != 3:
        raise ConfigError(f"gleek: {what} must be 3 card lists (one per seat), got {_short(hands)}")
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
    from cardsim.game import make

    if isinstance(tricks, (str, bytes)) or not isinstance(tricks, (list, tuple)) or len(tricks) != 3:
        raise ConfigError(f"gleek: tricks must be 3 counts summing to 12, got {_short(tricks)}")
    tricks = [check_int(t, "gleek: tricks", 0, 12, ConfigError) for t in tricks]
    if sum(tricks) != 12:
        raise ConfigError(f"gleek: tricks must be 3 counts summing to 12, got {_short(tricks)}")
    masks = _hand_list(honours, "honours")
    dealer = check_int(dealer, "gleek: dealer", 0, 2, ConfigError)
    tu = _k.parse_card(turnup)
    dm = _k.cards_to_mask(discards)
    if len(discards) > 7:
        raise ConfigError(f"gleek: the buyer discards 7 cards, got {len(discards)}")
    if dm & (masks[0] | masks[1] | masks[2]):
        raise ConfigError("gleek: a card is both discarded and counted for a seat")
    if ((masks[0] | masks[1] | masks[2] | dm) >> tu) & 1:
        raise ConfigError("gleek: the turn-up counts for the dealer by itself; it cannot be held, won or discarded")
    spec = make(NAME, **options).spec
    return _k.oracle_trick_settlement(spec, tricks, masks, tu, dealer, dm)


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
