"""Karnöffel's static facts, declared once (cardsim.info.GameInfo): seats and teams, the options
(DESIGN §4 names of the rules spec's §8 table), the unit of the returns, the metrics of the result
table, the observation layout (from which `_layout.pxd` is generated: tools/gen_layout.py) and the
exact bounds of the returns and of the game length (docs/rules/karnoffel.md "Bounds").

Options:
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

from cardsim.errors import ConfigError, short
from cardsim.info import GameInfo, Metric, ObsBlock, one_hot_seat, per_seat, per_side
from cardsim.options import MATCH_ONLY, SCOPE, Option

SUITS = ("S", "H", "D", "C")          # suit 0..3 of a card id suit*12 + rank


def _kaiser_banners(value):
    if value is False:
        return False
    if value is True:
        raise ConfigError(
            "karnoffel: option 'kaiser_banners' cannot be True: the rules spec (§8) leaves the rank "
            "of a declared Banner unspecified and says not to implement it without that table; "
            "allowed: [False]")
    raise ConfigError(f"karnoffel: option 'kaiser_banners' must be False, got {short(value)}")


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): exact lowest and highest return of any seat in a terminal state of the resolved
    configuration `o`.

    Derivation (docs/rules/karnoffel.md "Bounds"): a return is ante x (own team's game points -
    the other team's), ante = 1 without stakes. A deal gives one game point to the team with 3
    of the 5 tricks (with stop_at_three off all 5 are played, and one team still has 3 or more):
    [-ante, ante]. A match ends when a team reaches match_target = T; the loser then has 0..T-1
    points: [-ante x T, ante x T], reached when the loser scores nothing."""
    a = o["ante"] if o["stakes"] == "ante" else 1
    t = o["match_target"] if o["scope"] == "match" else 1
    return (-float(a * t), float(a * t))


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play, in the
    resolved configuration `o`.

    Derivation (docs/rules/karnoffel.md "Bounds"): one action per card played; a deal has at
    most 5 tricks of N cards (N = players), so at most 5 N actions (it may stop at a team's
    third trick). A match of target T ends by the deal in which a team reaches T; each deal gives
    one point, so there are at most 2T - 1 deals: (2T - 1) x 5 N actions."""
    deals = 2 * o["match_target"] - 1 if o["scope"] == "match" else 1
    return deals * 5 * o["players"]


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    'the tricks each team has won in the deal (the first team to 3 tricks wins it); both partners '
    "share their team's figure")


INFO = GameInfo(
    phases=('play', 'end'),
    name="karnoffel", title="Karnöffel",
    players=(4, 6), default_players=4,
    teams="two teams: seat p plays for team p % 2 (partners opposite with 4, alternating with 6)",
    sides=2,
    unit=lambda o: "chips" if o["stakes"] == "ante" else "game points",
    returns_sum="zero",
    options=(
        Option("stop_at_three", True, "end the deal as soon as a team has 3 tricks, or play all 5 (D2)", kind=bool),
        Option("match_target", 5, "game points that win a match, scope='match' (D3)", kind=int, min=1, max=1000,
               applies_when=MATCH_ONLY),
        Option("kaiser_banners", False, "Swiss Banner-as-Kaiser declaration: not specified, only False (§8)",
               validate=_kaiser_banners),
        Option("stakes", "none", "no stakes, or an ante into a pot won by the deal's winning team (§8)",
               choices=("none", "ante")),
        Option("ante", 1, "chips each player antes per deal when stakes='ante'", kind=int, min=1, max=1_000_000,
               applies_when={"stakes": ("ante",)}),
        SCOPE,
    ),
    presets={},
    metrics=(
        Metric("winner_team", "team that won the last finished deal (-1: none yet)", categories="team"),
        Metric("team0_tricks", "tricks won by team 0 in the last deal"),
        Metric("team1_tricks", "tricks won by team 1 in the last deal"),
        Metric("tricks_played", "tricks completed in the last deal"),
        Metric("chosen_suit", "chosen suit of the last deal", categories=SUITS),
        Metric("dealer", "dealer of the last deal", categories="seat"),
        Metric("team0_points", "game points of team 0"),
        Metric("team1_points", "game points of team 1"),
        Metric("deals", "deals played"),
    ),
    # 6 seat slots whatever the table size (4 players leave slots 4 and 5 empty)
    observation=(
        ObsBlock("hand", 48, "own hand: 1 per card held"),
        ObsBlock("up", 6 * 48, "face-up card of each seat slot, 6 x 48 (public even after it is played, D5)",
                 seats=per_seat(6)),
        ObsBlock("played", 6 * 48, "cards played by each seat slot this deal, 6 x 48", seats=per_seat(6)),
        ObsBlock("card_trick", 48, "per card: (trick number + 1) / 5 if played this deal, else 0"),
        ObsBlock("trick", 6 * 48, "current trick: the card played by each seat slot, 6 x 48", seats=per_seat(6)),
        ObsBlock("trick_leader", 5 * 6, "leader of each trick of the deal, 5 x one-hot seat", seats=one_hot_seat(6)),
        ObsBlock("trick_winner", 5 * 6, "winner of each completed trick, 5 x one-hot seat", seats=one_hot_seat(6)),
        ObsBlock("chosen", 4, "chosen suit, one-hot S H D C"),
        ObsBlock("team_tricks", 2, "tricks won this deal by team 0 and team 1, / 3", seats=per_side(2)),
        ObsBlock("phase", 2, "phase one-hot: play, end"),
        ObsBlock("turn", 6, "seat to act, one-hot (all 0 at the end)", seats=one_hot_seat(6)),
        ObsBlock("dealer", 6, "dealer, one-hot", seats=one_hot_seat(6)),
        ObsBlock("observer", 6, "observing seat, one-hot", seats=one_hot_seat(6)),
        ObsBlock("score", 2, "game points of team 0 and team 1, / match_target", seats=per_side(2)),
        ObsBlock("deals", 1, "deals finished, / (2 match_target)"),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=(
        {},
        {"players": 6},
        {"scope": "match", "match_target": 2},
        {"players": 6, "scope": "match", "match_target": 2, "stakes": "ante", "ante": 3},
        {"stop_at_three": False},
    ),
    seat_names=("seat 0", "seat 1", "seat 2", "seat 3", "seat 4", "seat 5"),   # docs/rules/karnoffel.md numbers the seats
)
