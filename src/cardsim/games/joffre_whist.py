"""Joffre Whist: options, presets and rule oracles (docs/rules/joffre_whist.md).

See the docstring of the compiled module `cardsim.games._joffre_whist` for the action space,
the observation layout, the returns and the greedy agent.
"""
from __future__ import annotations

from cardsim.errors import ConfigError, ParseError
from cardsim.games import _joffre_whist as _k
from cardsim.options import SCOPE, Option

NAME = "joffre_whist"
PLAYERS = (4,)
DEFAULT_PLAYERS = 4
STRAINS = ("NT", "S", "D", "C", "H", "TA", "JTA")
DEFAULT_UNIT_TABLE = (6, 8, 10, 12, 14, 16, 20)


def _unit_table(value):
    """A 7-tuple of ints in strain order NT S D C H TA JTA, or a dict overriding some strains."""
    table = list(DEFAULT_UNIT_TABLE)
    if isinstance(value, dict):
        for k, v in value.items():
            key = str(k).upper()
            if key not in STRAINS:
                raise ConfigError(f"joffre_whist: unit_table key {k!r} unknown; keys: {list(STRAINS)}")
            table[STRAINS.index(key)] = v
    elif isinstance(value, (list, tuple)) and len(value) == 7:
        table = list(value)
    else:
        raise ConfigError(f"joffre_whist: unit_table must be 7 ints (NT S D C H TA JTA) or a dict by strain, got {value!r}")
    for v in table:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10_000:
            raise ConfigError(f"joffre_whist: unit_table values must be ints in 0..10000, got {v!r}")
    return tuple(table)


OPTIONS = (
    Option("unit_table", DEFAULT_UNIT_TABLE, "points per odd trick by strain NT S D C H TA JTA (D2)",
           validate=_unit_table),
    Option("slam_value", "double_row", "slam = 2 x row(7) (D3), or row(7) + slam_bonus",
           choices=("double_row", "row_plus_bonus")),
    Option("slam_bonus", 50, "bonus added to row(7) when slam_value='row_plus_bonus'", kind=int, min=0, max=10_000),
    Option("jta_joffre_holder", "either", "JTA needs both Joffre cards with one partner (either) or the declarer (D4)",
           choices=("either", "declarer")),
    Option("ta_length_rule", "named_suit", "TA needs 4+ cards of the named suit, or of any suit (D6)",
           choices=("named_suit", "any_suit")),
    Option("failed_jta_double", True, "a failed doubled JTA pays x2 (D5)", kind=bool),
    Option("honours_mode", "set", "honours: 2 for the complete set, or 2 per captured trump honour (D13)",
           choices=("set", "per_card")),
    Option("all_pass", "throw_in", "all four pass: throw-in and redeal, or the dealer must bid (D10)",
           choices=("throw_in", "dealer_bids")),
    Option("joffre_bonus", 15, "Joffre bonus", kind=int, min=0, max=10_000),
    Option("jta_joffre_bonus", 50, "Joffre bonus in a JTA contract (D12)", kind=int, min=0, max=10_000),
    Option("honours_bonus", 2, "honours bonus", kind=int, min=0, max=10_000),
    Option("royal_bonus", 8, "royal honours bonus", kind=int, min=0, max=10_000),
    Option("num_deals", 8, "deals in a match (scope='match')", kind=int, min=1, max=10_000),
    SCOPE,
)
PRESETS: dict[str, dict] = {}

# Configurations the generic conformance suite runs (tests/conformance).
CONFORMANCE_CONFIGS = (
    {},
    {"scope": "match", "num_deals": 2},
    {"all_pass": "dealer_bids", "honours_mode": "per_card", "jta_joffre_holder": "declarer"},
)


def build(opts: dict):
    return _k.JoffreWhistSpec(opts)


def _trump(trump):
    if trump is None:
        return -1
    if isinstance(trump, str) and trump.strip().upper() in ("NT", "NONE", ""):
        return -1
    return _k.parse_suit(trump)


def trick_winner(plays: list[str], trump: str | None) -> int:
    """Index of the winning card of a trick (plays[0] leads; trump 'S'/'H'/'D'/'C' or None)."""
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 4:
        raise ParseError(f"joffre_whist: a trick is a list of 1 to 4 cards, got {plays!r}")
    cards = [_k.parse_card(c) for c in plays]
    if len(set(cards)) != len(cards):
        raise ParseError(f"joffre_whist: a card appears twice in the trick {plays!r}")
    return _k.oracle_trick_winner(cards, _trump(trump))


def legal_follows(hand: list[str], led: str | None, trump: str | None) -> list[str]:
    """Cards of `hand` that may be played to a trick led by card `led` (None: on lead, any)."""
    m = _k.cards_to_mask(hand)
    led_suit = -1 if led is None else _k.parse_card(led) // 13
    return _k.mask_to_cards(_k.oracle_follow(m, led_suit, _trump(trump)))


def score_deal(contract: str, declarer: int, won: list[list[str]], doubled: bool = False,
               **options) -> tuple[int, int, bool]:
    """Score one deal (§6) with the engine's kernel: contract like '2D', '4JTA-S'; won[p] = the
    cards in the tricks seat p won (13 tricks in all). Returns (NS points, EW points, made)."""
    from cardsim.game import make

    if declarer not in range(4):
        raise ConfigError("joffre_whist: declarer must be a seat 0..3")
    if len(won) != 4:
        raise ConfigError("joffre_whist: won needs 4 card lists, one per seat")
    masks = [_k.cards_to_mask(w) for w in won]
    if sum(len(w) for w in won) != 52 or any(len(w) % 4 for w in won):
        raise ConfigError("joffre_whist: won must hold all 52 cards in whole tricks of 4")
    bi = _k.parse_bid(contract)
    spec = make(NAME, **options).spec
    lvl, strain, named = _decode(bi)
    return _k.oracle_score(spec, masks, [len(w) // 4 for w in won], declarer, lvl, strain, named, int(bool(doubled)))


def _decode(bi: int):
    if bi < 35:
        return bi % 7 + 1, bi // 7, -1
    if bi < 63:
        return (bi - 35) // 4 + 1, 5, (bi - 35) % 4
    return (bi - 63) // 4 + 1, 6, (bi - 63) % 4


def scenario(game, hands: list[list[str]], dealer: int = 3):
    """A state at the start of the auction with the given hands (for scenarios and analysis).
    Same as game.spec.scenario(hands, dealer=...); the state is not replayable."""
    return game.spec.scenario(hands, dealer=dealer)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
