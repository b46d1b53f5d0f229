"""Exposure's static facts, declared once (cardsim.info.GameInfo): the options (with the "pagat"
preset), the unit of the returns, the metrics of the result table, the observation layout (from
which `_layout.pxd` is generated: tools/gen_layout.py) and the bounds of the returns and of the
game length (docs/rules/exposure.md "Bounds")."""
from __future__ import annotations

from numbers import Integral

from cardsim.errors import ConfigError, short
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, one_hot_seat, per_seat
from cardsim.options import MATCH_ONLY, SCOPE, Option

MELD_TYPES = ("three_of_a_kind", "four_of_a_kind", "sequence_4", "sequence_5", "sequence_6")
DEFAULT_MELD_POINTS = (1, 2, 1, 2, 3)


def _meld_points(value):
    """5 ints in the order of MELD_TYPES, or a dict overriding some of them."""
    table = list(DEFAULT_MELD_POINTS)
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in MELD_TYPES:
                raise ConfigError(f"exposure: meld_points key {short(k)} unknown; keys: {list(MELD_TYPES)}")
            table[MELD_TYPES.index(k)] = v
    elif isinstance(value, (list, tuple)) and len(value) == 5:
        table = list(value)
    else:
        raise ConfigError(f"exposure: meld_points must be 5 ints ({', '.join(MELD_TYPES)}) or a dict, got {short(value)}")
    for v in table:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
            raise ConfigError(f"exposure: meld_points values must be ints in 0..100, got {short(v)}")
    return tuple(table)


def _min_hand(value):
    """2 or 1, as an int (not 2.0 nor True; a numpy integer is an int)."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value not in (2, 1):
        raise ConfigError(f"exposure: option 'min_hand_cards_per_meld' must be one of [2, 1], got {short(value)}")
    return int(value)


# ---- bounds (docs/rules/exposure.md "Bounds"); o = resolved options -------------------------------
def _max_melds(o: dict) -> int:
    """Most melds one player can declare in a deal: each takes at least min_hand_cards_per_meld
    of his 9 hand cards (a hand card serves one meld); with face-up cards usable once per player,
    his melds of >= 3 cards share his 9 + 3 cards, so at most 4."""
    m = 9 // o["min_hand_cards_per_meld"]
    if o["table_card_reuse"] != "reusable":
        m = min(m, (9 + 3) // 3)
    return m


def _deal_gain(o: dict) -> int:
    """Most points one player can make in a deal: 9 tricks, his melds, the contract bonus."""
    return 9 * o["points_per_trick"] + _max_melds(o) * max(o["meld_points"]) + o["contract_bonus"]


def _max_deals(o: dict) -> int:
    """Deals in a match at most: every deal adds 9 x points_per_trick to the sum of the two
    scores and the match goes on only while both are below the target: k deals without an end
    need 9 ppt k <= 2 (target - 1); and never more than max_deals (D6)."""
    if o["scope"] != "match":
        return 1
    if o["points_per_trick"] == 0:
        return o["max_deals"]
    return min(o["max_deals"], 2 * (o["target_score"] - 1) // (9 * o["points_per_trick"]) + 1)


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return of any seat in a terminal state of the
    resolved configuration `o`.

    Derivation (docs/rules/exposure.md "Bounds"): a return is own points minus the opponent's
    (zero-sum, symmetric bounds). One player's points in a deal are at most G = 9 x
    points_per_trick + m x (largest meld value) + contract_bonus, m = the most melds he can
    declare (9 // min_hand_cards_per_meld, and at most 4 when a face-up card serves one meld of
    a player: 12 cards, >= 3 per meld); the opponent has >= 0: |return| <= G for a deal. A match
    goes on only while both scores are below the target T (or ends at the deal cap, both below
    T), so before its last deal both are in 0..T-1 and the last deal adds at most G to one:
    |return| <= T - 1 + G."""
    g = _deal_gain(o)
    hi = g if o["scope"] != "match" else o["target_score"] - 1 + g
    return (-float(hi), float(hi))


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play, in the
    resolved configuration `o`.

    Derivation (docs/rules/exposure.md "Bounds"): per player, the declarations take one MELD per
    card of a declared meld (a started meld must be declared: no action is undone), one DECLARE
    per meld and one DONE: his 9 hand cards at most once each, face-up cards 3 in all (or 3 per
    meld when reusable), m melds (see _return_bounds): 9 + 3 (or 3 m) + m + 1; then 18 cards in
    9 tricks. A match has at most D deals: min(max_deals (D6), floor(2 (T - 1) / (9 ppt)) + 1)
    when points_per_trick > 0, else max_deals."""
    m = _max_melds(o)
    table = 3 * m if o["table_card_reuse"] == "reusable" else 3
    deal = 18 + 2 * (9 + table + m + 1)
    return _max_deals(o) * deal


def _seat_blocks(q: int) -> tuple[ObsBlock, ...]:
    """The blocks of seat q's public facts (declarations blank to the other seat under
    simultaneous declaration until both have finished)."""
    return (
        ObsBlock(f"exposed_{q}", 24, f"seat {q}'s exposed cards (melded hand cards not yet played)", about_seat=q),
        ObsBlock(f"played_{q}", 24, f"cards seat {q} has played this deal", about_seat=q),
        ObsBlock(f"melds_{q}", 9 * 24, f"seat {q}'s declared melds, 9 slots x 24 (hand and face-up cards)",
                 about_seat=q),
        ObsBlock(f"meld_points_{q}", 1, f"seat {q}'s meld points this deal / 10", about_seat=q),
        ObsBlock(f"tricks_{q}", 1, f"tricks seat {q} has won this deal / 9", about_seat=q),
        ObsBlock(f"declared_{q}", 1, f"1 once seat {q} has finished declaring", about_seat=q),
        ObsBlock(f"voids_{q}", 4, f"suits seat {q} has shown void in by play (S H D C)", about_seat=q),
    )


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    "the deal's points as if it ended now: 2 per trick won, the meld points declared, and the "
    "contract bonus while a player's tricks equal the target")


INFO = GameInfo(
    phases=('declaration', 'play', 'end'),
    name="exposure", title="Exposure",
    players=(2,), default_players=2,
    teams="none: two players",
    unit="points",
    returns_sum="zero",
    options=(
        Option("declaration_order", "non_dealer_first",
               "non-dealer declares, then the dealer (D1); or simultaneous (hidden until both are done)",
               choices=("non_dealer_first", "simultaneous")),
        Option("min_hand_cards_per_meld", 2, "hand cards a meld needs at least (seed: 2; pagat: 1)",
               validate=_min_hand),
        Option("table_card_reuse", "once_per_player",
               "a face-up card serves one meld of a player (D2), or several (pagat)",
               choices=("once_per_player", "reusable")),
        Option("target_score", 50, "a match ends once someone reaches this score", kind=int, min=1, max=10_000,
               applies_when=MATCH_ONLY),
        Option("meld_points", DEFAULT_MELD_POINTS,
               "points of 3 of a kind, 4 of a kind, 4, 5 and 6 in sequence (D3)", validate=_meld_points),
        Option("points_per_trick", 2, "points per trick won", kind=int, min=0, max=100),
        Option("contract_bonus", 5, "bonus for exactly the contract target", kind=int, min=0, max=100),
        Option("max_deals", 10_000, "scope 'match': the match ends after this many deals, the higher score "
               "winning (D6)", kind=int, min=1, max=30_000, applies_when=MATCH_ONLY),
        SCOPE,
    ),
    presets={
        # pagat.com's description [S1]: no minimum of hand cards, contract cards reusable.
        "pagat": {"min_hand_cards_per_meld": 1, "table_card_reuse": "reusable"},
    },
    metrics=(
        Metric("dealer", "dealer of the last deal", categories="seat"),
        Metric("target", "contract target of the last deal, in tricks"),
        Metric("tricks_0", "tricks won by seat 0 in the last deal"),
        Metric("tricks_1", "tricks won by seat 1 in the last deal"),
        Metric("meld_points_0", "meld points of seat 0 in the last deal"),
        Metric("meld_points_1", "meld points of seat 1 in the last deal"),
        Metric("bonus_seat", "seat that made the contract bonus in the last deal (-1: nobody)", categories="seat"),
        Metric("points_0", "cumulative points of seat 0"),
        Metric("points_1", "cumulative points of seat 1"),
        Metric("deals", "deals played"),
        Metric("winner", "scope 'match': the winning seat (-1: draw; always -1 in scope 'deal')",
               categories="seat"),
    ),
    observation=(
        ObsBlock("hand", 24, "own cards held (exposed ones included)"),
        ObsBlock("observer", 2, "observing seat, one-hot", seats=one_hot_seat(2)),
        ObsBlock("table", 3 * 24, "face-up H-card, T-card and C-card, 3 x one-hot card"),
        *_seat_blocks(0),
        *_seat_blocks(1),
        ObsBlock("card_trick", 24, "per card: (trick number + 1) / 9 if played this deal, else 0"),
        ObsBlock("led", 24, "card led to the current trick (all 0 before the lead)"),
        ObsBlock("leader", 2, "leader of the current trick, one-hot", seats=one_hot_seat(2)),
        ObsBlock("turn", 2, "seat to act, one-hot (all 0 at the end)", seats=one_hot_seat(2)),
        ObsBlock("dealer", 2, "dealer, one-hot", seats=one_hot_seat(2)),
        ObsBlock("phase", 3, "phase one-hot: declaration, play, end"),
        ObsBlock("building", 24, "the meld under construction (declaration phase; blank to the other "
                 "seat under simultaneous declaration)", seats=FIXED),
        ObsBlock("score", 2, "cumulative scores / target_score", seats=per_seat(2)),
        ObsBlock("deals", 1, "deals done / 10"),
        ObsBlock("deal_points", 2, "points of the last scored deal / 50", seats=per_seat(2)),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=(
        {},
        {"scope": "match"},
        # the "pagat" preset's options, spelled out (a preset name does not survive pickling: the
        # core's _rebuild_spec drops `variant`)
        {"declaration_order": "simultaneous", "min_hand_cards_per_meld": 1, "table_card_reuse": "reusable"},
    ),
    seat_names=("seat 0", "seat 1"),   # docs/rules/exposure.md numbers the seats
)
