"""Karnöffel: options, presets and rule oracles (docs/rules/karnoffel.md).

4 or 6 players in two teams (seat p is on team p % 2), 48 cards (no Aces), five cards each, the
chosen suit from the lowest face-up card, no duty to follow, first team to three tricks wins the
deal. See the docstring of the compiled module `cardsim.games._karnoffel` for the action space,
the observation layout, the returns and the greedy agent.

Options (DESIGN §4 names of the spec's §8 table):
  players         NUM_PLAYERS: 4 (2 vs 2, partners opposite) or 6 (3 vs 3, alternating)
  stop_at_three   STOP_AT_THREE (D2): end the deal at a team's third trick, or play all 5
  match_target    MATCH_TARGET (D3): game points that win a match (scope="match"), default 5
  kaiser_banners  KAISER_BANNERS: only False. The spec gives no rank for a declared Banner
                  ("do not implement without that table"), so True raises ConfigError.
  stakes, ante    STAKES: "none", or "ante": every player antes `ante` chips per deal into a pot
                  shared by the deal's winning team; returns are then chips won net.
  scope           "deal" or "match"
"""
from __future__ import annotations

from cardsim.core._engine import _short
from cardsim.errors import ConfigError, ParseError
from cardsim.games import _karnoffel as _k
from cardsim.options import SCOPE, Option

NAME = "karnoffel"
PLAYERS = (4, 6)
DEFAULT_PLAYERS = 4


def _kaiser_banners(value):
    if value is False:
        return False
    if value is True:
        raise ConfigError(
            "karnoffel: option 'kaiser_banners' cannot be True: the rules spec (§8) leaves the rank "
            "of a declared Banner unspecified and says not to implement it without that table; "
            "allowed: [False]")
    raise ConfigError(f"karnoffel: option 'kaiser_banners' must be False, got {_short(value)}")


OPTIONS = (
    Option("stop_at_three", True, "end the deal as soon as a team has 3 tricks, or play all 5 (D2)", kind=bool),
    Option("match_target", 5, "game points that win a match, scope='match' (D3)", kind=int, min=1, max=1000),
    Option("kaiser_banners", False, "Swiss Banner-as-Kaiser declaration: not specified, only False (§8)",
           validate=_kaiser_banners),
    Option("stakes", "none", "no stakes, or an ante into a pot won by the deal's winning team (§8)",
           choices=("none", "ante")),
    Option("ante", 1, "chips each player antes per deal when stakes='ante'", kind=int, min=1, max=1_000_000),
    SCOPE,
)
PRESETS: dict[str, dict] = {}

# Configurations the generic conformance suite runs (tests/conformance).
CONFORMANCE_CONFIGS = (
    {},
    {"players": 6},
    {"scope": "match", "match_target": 2},
    {"players": 6, "scope": "match", "match_target": 2, "stakes": "ante", "ante": 3},
    {"stop_at_three": False},
)


def build(opts: dict):
    return _k.KarnoffelSpec(opts)


def _resolved(opts) -> dict:
    """opts resolved and checked as cardsim.make resolves them (cardsim.game.resolved_options)."""
    from cardsim.game import resolved_options

    return resolved_options(NAME, opts)


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): exact lowest and highest return of any seat in a terminal state of this
    configuration (opts: ``cardsim.make("karnoffel", ...).options``).

    Derivation (docs/rules/karnoffel.md "Bounds"): a return is ante x (own team's game points -
    the other team's), ante = 1 without stakes. A deal gives one game point to the team with 3
    of the 5 tricks (with stop_at_three off all 5 are played, and one team still has 3 or more):
    [-ante, ante]. A match ends when a team reaches match_target = T; the loser then has 0..T-1
    points: [-ante x T, ante x T], reached when the loser scores nothing."""
    o = _resolved(opts)
    a = o["ante"] if o["stakes"] == "ante" else 1
    t = o["match_target"] if o["scope"] == "match" else 1
    return (-float(a * t), float(a * t))


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play.

    Derivation (docs/rules/karnoffel.md "Bounds"): one action per card played; a deal has at
    most 5 tricks of N cards (N = players), so at most 5 N actions (it may stop at a team's
    third trick). A match of target T ends by the deal in which a team reaches T; each deal gives
    one point, so there are at most 2T - 1 deals: (2T - 1) x 5 N actions."""
    o = _resolved(opts)
    deals = 2 * o["match_target"] - 1 if o["scope"] == "match" else 1
    return deals * 5 * o["players"]


def _cards(plays, what):
    if not isinstance(plays, (list, tuple)):
        raise ParseError(f"karnoffel: {what} must be a list of card strings, got {_short(plays)}")
    cards = [_k.parse_card(c) for c in plays]
    if len(set(cards)) != len(cards):
        raise ParseError(f"karnoffel: a card appears twice in {_short(plays)} (one deck)")
    return cards


def trick_winner(plays: list[str], chosen_suit: str) -> int:
    """Index of the winning card of a complete trick (§5): plays[0] is the lead, 4 or 6 cards;
    chosen_suit 'S'/'H'/'D'/'C' (or a suit symbol)."""
    cards = _cards(plays, "a trick")
    if len(cards) not in (4, 6):
        raise ParseError(f"karnoffel: a trick has 4 or 6 cards, got {len(cards)}")
    return _k.oracle_trick_winner(cards, _k.parse_suit(chosen_suit))


def current_winner(plays: list[str], chosen_suit: str) -> int:
    """Index of the card winning a trick so far (1 to 6 cards, plays[0] led)."""
    cards = _cards(plays, "a trick")
    if not 1 <= len(cards) <= 6:
        raise ParseError(f"karnoffel: a trick has 1 to 6 cards, got {len(cards)}")
    return _k.oracle_trick_winner(cards, _k.parse_suit(chosen_suit))


def chosen_suit(up_cards: list[str]) -> str:
    """The chosen suit (§3.4) from the face-up cards in dealing order (4 or 6 cards): the suit
    of the lowest by natural order, a tie going to the card dealt first."""
    cards = _cards(up_cards, "the up-cards")
    if len(cards) not in (4, 6):
        raise ParseError(f"karnoffel: 4 or 6 up-cards, got {len(cards)}")
    return "SHDC"[_k.oracle_chosen_suit(cards)]


def legal_plays(hand: list[str]) -> list[str]:
    """Cards of `hand` (at most 5) that may be played (§5): all of them, whatever was led."""
    m = _k.cards_to_mask(hand)
    if len(hand) > 5:
        raise ConfigError(f"karnoffel: a hand holds at most 5 cards, got {len(hand)}")
    return _k.mask_to_cards(m)


def scenario(game, hands: list[list[str]], dealer: int = 0, up: list[str] | None = None):
    """A state at the start of play with the given 5-card hands (for scenarios and analysis);
    up[q] (default hands[q][0]) is seat q's face-up card and fixes the chosen suit. Same as
    game.spec.scenario(hands, dealer=..., up=...); the state is not replayable."""
    from cardsim.game import Game

    if not isinstance(game, Game) or game.name != NAME:
        raise ConfigError(f"karnoffel: expected a Karnöffel game (cardsim.make('karnoffel', ...)), got {_short(game)}")
    return game.spec.scenario(hands, dealer=dealer, up=up)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
