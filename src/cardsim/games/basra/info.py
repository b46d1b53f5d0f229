"""Basra / Bastra: the game's metadata, declared once (GameInfo): players, options, presets,
metrics, the observation layout, and the derivations of the exact return bounds and the
longest game (docs/rules/basra.md "Bounds"). Pure Python: no compiled module.

Egyptian rules by default (``variant=None`` or ``variant="egyptian"``); the regional games are
presets over the same options (§8.2) and every option can be overridden on its own.
"""
from __future__ import annotations

import numpy as np

from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.basra.notation import RANKS, parse_card
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, SeatField, one_hot_seat, per_seat, per_side
from cardsim.options import MATCH_ONLY, SCOPE, Option


# Card points in half points (Syrian J = 12.5), by rank / by card (§2, §8.1).
_TABLES = {
    "egyptian": {"A": 1, "J": 1, "10D": 3, "2C": 2},
    "syrian": {"A": 1, "J": 12.5, "Q": 3, "K": 4, "10D": 3, "2C": 2},
    "syrian_J_only": {"A": 1, "J": 12.5, "10D": 3, "2C": 2},
}


def _half_table(table: dict) -> list:
    """{rank or card: points} -> 52 half-point ints (a card entry beats its rank's entry)."""
    out = [0] * 52
    ranks, cards = {}, {}
    for key, pts in table.items():
        if isinstance(pts, bool) or not isinstance(pts, (int, float)) or not 0 <= pts <= 1000 \
                or abs(2 * pts - round(2 * pts)) > 1e-9:
            raise ConfigError(f"basra: card_points values must be multiples of 0.5 in 0..1000, got {short(pts)}")
        k = str(key).strip().upper()
        if k in RANKS or k == "T":
            ranks[RANKS.index("10") if k == "T" else RANKS.index(k)] = pts
        else:
            try:
                cards[parse_card(k)] = pts
            except ParseError:
                raise ConfigError(f"basra: card_points key {short(key)} is neither a rank (A, 2-10, J, Q, K) "
                                  f"nor a card ('10D')") from None
    for c in range(52):
        out[c] = int(round(2 * cards.get(c, ranks.get(c >> 2, 0))))
    return out


def card_half(o: dict) -> list:
    """The card points of the resolved options' table (o["card_points"]: a table name or a
    {rank or card: points} dict) as 52 half-point ints: what the kernel's config holds."""
    cp = o["card_points"]
    return _half_table(_TABLES[cp] if isinstance(cp, str) else cp)


def _card_points(value):
    if isinstance(value, str):
        for name in _TABLES:
            if value.lower() == name.lower():
                return name
        raise ConfigError(f"basra: option 'card_points' must be one of {list(_TABLES)} or a dict "
                          f"{{rank or card: points}}, got {short(value)}")
    if isinstance(value, dict):
        _half_table(value)
        return dict(value)
    raise ConfigError(f"basra: option 'card_points' must be one of {list(_TABLES)} or a dict, got {short(value)}")


def _floor_max(value):
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return "none"
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in (1, 2):
        raise ConfigError(f"basra: option 'basra_floor_max' must be one of ['none', 2, 1], got {short(value)}")
    return int(value)


def _target(value):
    if isinstance(value, str) and value.lower() == "ladder":
        return "ladder"
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
        raise ConfigError(f"basra: option 'target' must be 101, 51, 121, 151 (any int 1..100000) or "
                          f"'ladder', got {short(value)}")
    return value


def _onoff(name):
    """A switch: True/False, or the spec's words "on"/"off" (also "true"/"false")."""
    def check(value):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("on", "off", "true", "false"):
            return value.lower() in ("on", "true")
        raise ConfigError(f"basra: option {short(name)} must be True/False (or 'on'/'off'), got {short(value)}")
    return check


def _case_choice(name, choices):
    def check(value):
        if isinstance(value, str):
            for c in choices:
                if value.lower() == c.lower():
                    return c
        raise ConfigError(f"basra: option {short(name)} must be one of {list(choices)}, got {short(value)}")
    return check


def _int_choice(name, choices):
    """A closed set of ints: the int itself (or a numpy int), never a float, bool or string
    (``deck=44.0`` is refused: the shared choices check would let 44.0 == 44 through)."""
    def check(value):
        if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
                or int(value) not in choices):
            raise ConfigError(f"basra: option {short(name)} must be one of {list(choices)}, got {short(value)}")
        return int(value)
    return check


OPTIONS = (
    Option("partnership", True, "4 players: partners opposite ({0,2} v {1,3}); False = 4 individuals",
           validate=_onoff("partnership")),
    Option("deck", 52, "52 cards, or 44 without Queens and Kings", validate=_int_choice("deck", (52, 44))),
    Option("hand_size", 4, "cards per player per deal round", validate=_int_choice("hand_size", (4, 5, 6))),
    Option("cut_peek", "dealer", "who sees the bottom card at the cut (B-D9)", choices=("dealer", "both", "none")),
    Option("floor_bury", "bottom10", "where a floor J/♦7 is buried (B-D7)", choices=("bottom10", "bottom", "random")),
    Option("seven_diamonds", "sweep", "♦7 in hand sweeps like a J, or is a normal 7", choices=("sweep", "normal")),
    Option("same_rank_take", "one", "a numeral/face takes one same-rank card, or all of them (B-D4)",
           choices=("one", "all")),
    Option("capture_mode", "maximal", "any maximal capture, or only the largest (B-D3)",
           choices=("maximal", "maximum")),
    Option("sweep_bonus", True, "clearing the floor scores a basra",
           validate=_onoff("sweep_bonus")),
    Option("basra_floor_max", "none", "basra only when the cleared floor had at most this many cards",
           validate=_floor_max),
    Option("lone_rule", False, "only a lone card captured is a basra (Palestinian/Jordanian)",
           validate=_onoff("lone_rule")),
    Option("lone_value", "flat20", "lone-card basra value: flat 20, or twice the card's value (B-D16)",
           choices=("flat20", "double_value")),
    Option("face_value_for_basra", 10, "value of Q/K for double_value", kind=int, min=0, max=1000,
           applies_when={"lone_value": ("double_value",)}),
    Option("seven_d_rule", "egyptian", "when a ♦7 sweep is a basra", choices=("egyptian", "yemeni")),
    Option("jack_on_lone_jack", 0, "basra points for a J on a lone J", kind=int, min=0, max=1000),
    Option("queen_on_lone_queen", True, "a Q on a lone Q is a basra (False: Ethiopian)",
           validate=_onoff("queen_on_lone_queen")),
    Option("face_doubling", "off", "Syrian: a face on a lone face of its rank doubles both cards",
           validate=_case_choice("face_doubling", ("off", "QKJ", "J_only"))),
    Option("card_points", "egyptian", "card point table: egyptian, syrian, syrian_J_only or {rank/card: points}",
           validate=_card_points),
    Option("majority_points", 30, "bonus for most cards", kind=int, min=0, max=10_000),
    Option("majority_tie", "carry", "a tie for most cards carries the bonus over, or nothing",
           choices=("carry", "none")),
    Option("basra_on_last_play", True, "a basra with the last card of the deal counts (B-D11)",
           validate=_onoff("basra_on_last_play")),
    Option("target", 101, "game target: 101, 51, 121, 151 or 'ladder' (51/61/71)", validate=_target,
           applies_when=MATCH_ONLY),
    Option("tie_rule", "draw", "a tie for the highest total at the end", choices=("draw", "sudden_death"),
           applies_when=MATCH_ONLY),
    Option("match", "single", "one game, or best of 5 games to 150", choices=("single", "best_of_5_150"),
           applies_when=MATCH_ONLY),
    Option("max_deals", 5000, "scope 'match': the match ends with no winner after this many deals (B-D26)",
           kind=int, min=1, max=30_000, applies_when=MATCH_ONLY),
    SCOPE,
)

_MINOR = {"majority_points": 3, "majority_tie": "none"}
PRESETS: dict[str, dict] = {
    "egyptian": {},
    "jordanian": {"lone_rule": True, "lone_value": "flat20", "face_value_for_basra": 10, **_MINOR},
    "yemeni": {"seven_d_rule": "yemeni", "jack_on_lone_jack": 20},
    "ethiopian": {"queen_on_lone_queen": False, "target": 51, **_MINOR},
    "lebanese_a": {"hand_size": 6, "basra_floor_max": 2, "jack_on_lone_jack": 10, "tie_rule": "sudden_death",
                   **_MINOR},
    "lebanese_b": {"basra_floor_max": 1, "jack_on_lone_jack": 10, "tie_rule": "sudden_death", **_MINOR},
    "palestinian": {"deck": 44, "lone_rule": True, "lone_value": "flat20", **_MINOR},
    "syrian": {"deck": 44, "sweep_bonus": False, "face_doubling": "QKJ", "card_points": "syrian", **_MINOR},
}
# hand sizes each preset allows (§8.2); checked only when a preset is named
PRESET_HAND_SIZES = {"egyptian": (4,), "jordanian": (4, 6), "yemeni": (4,), "ethiopian": (4,),
                     "lebanese_a": (6,), "lebanese_b": (4, 6), "palestinian": (4, 6), "syrian": (4, 5)}

# Configurations the generic conformance suite runs (tests/conformance): every preset, every
# player count, partnership off, scope="match" (short targets keep the suite quick).
CONFORMANCE_CONFIGS = (
    {},
    {"players": 2},
    {"players": 3, "variant": "yemeni"},
    {"players": 4, "partnership": False, "variant": "ethiopian"},
    {"players": 2, "variant": "jordanian", "hand_size": 6, "cut_peek": "both"},
    {"players": 4, "variant": "lebanese_a", "floor_bury": "random"},
    {"players": 2, "variant": "lebanese_b", "same_rank_take": "all", "capture_mode": "maximum"},
    {"players": 4, "variant": "palestinian", "lone_value": "double_value"},
    {"players": 2, "variant": "syrian", "hand_size": 5, "deck": 52},
    {"players": 2, "scope": "match", "target": 51},
    {"players": 3, "scope": "match", "target": "ladder", "seven_diamonds": "normal", "floor_bury": "bottom"},
    {"players": 4, "scope": "match", "variant": "lebanese_b", "target": 51},
)
# best_of_5_150 (3 games to 150) is covered by tests/games/basra/test_basra.py: in the conformance suite its
# quadratic resample-playout check alone takes ~16 s.


def _bound_parts(o: dict) -> dict:
    """The quantities of the bounds' derivation, in half points (see return_bounds)."""
    n = o["players"]
    sides = 2 if (n == 4 and o["partnership"]) else n
    deck = o["deck"]
    half = card_half(o)
    cards = sum(half[:deck])                               # every card ends in some pile (§5)
    faces = [c for c in range(deck) if c >> 2 >= 10]
    if o["face_doubling"] == "J_only":
        faces = [c for c in faces if c >> 2 == 10]
    doubled = sum(half[c] for c in faces) if o["face_doubling"] != "off" else 0
    best = 0                                              # most points one basra can be worth
    if o["jack_on_lone_jack"]:
        best = o["jack_on_lone_jack"]
    if o["sweep_bonus"]:
        if not o["lone_rule"]:
            best = max(best, 10)
        elif o["lone_value"] == "flat20":
            best = max(best, 20)
        else:
            best = max(best, 20, 2 * o["face_value_for_basra"] if deck == 52 else 0)
        if o["lone_rule"] and o["seven_diamonds"] == "sweep":
            best = max(best, 14)
    plays = deck - 4                                      # every card but the 4 floor cards is played
    basras = (plays + 1) // 2                             # a basra empties the floor: the next play trails
    per_deal = cards + doubled + 2 * basras * best        # half points, without the majority bonus
    maj = 2 * o["majority_points"]
    ladder = o["target"] == "ladder"
    target = 71 if ladder else o["target"]
    if o["scope"] != "match":
        deals = 1
    elif o["match"] == "best_of_5_150" or o["tie_rule"] == "sudden_death" or cards == 0:
        deals = o["max_deals"]
    else:
        deals = min(o["max_deals"], sides * (2 * target - 1) // cards + 1)
    return {"sides": sides, "deck": deck, "plays": plays, "per_deal": per_deal, "majority": maj,
            "target": target, "deals": deals}


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return of any seat in a terminal state of this
    configuration (o: the resolved options; INFO.return_bounds(opts) resolves any options dict).

    Derivation (docs/rules/basra.md "Bounds"), in points, S = number of sides. A seat's return
    is its side's points minus the mean of the other sides' (zero-sum), so with P = the most
    points all sides together can score, every return lies in [-P / (S - 1), P].
    One deal: every card ends in a pile (§5), worth C = the card points of the pack, plus the
    doubled faces again (Syrian face doubling, at most the faces' points F); a basra empties the
    floor, so the next play is a trail: at most ceil((deck - 4) / 2) basras, each worth at most
    B = the largest basra value the options allow (10; lone rule flat 20, double value
    max(20, 2 x face_value_for_basra); ♦7 on a lone 7 14; jack_on_lone_jack); the majority bonus
    M x (1 + carry), carry = 0 at a new deal. P_deal = C + F + ceil((deck-4)/2) x B + M.
    Match (scope "match", one game): D deals at most, where D = max_deals (B-D26), and without
    sudden death, when C > 0: every deal adds at least C to the sum of the sides' points, and the
    game goes on only while every side is below the target (71 for the ladder), so
    D <= floor(S x (2 target - 1) / C) + 1 (half points). A tie carried k times pays M x (1 + k)
    once, so the bonuses of D deals total at most D x M. Hence P = D x (C + F + basras x B + M),
    and without sudden death also P <= (target - 1/2) + (C + F + basras x B) + D x M (every
    side is below the target before the last deal). Best of 5 (returns in games won): a side
    wins with 3 games, the others have at most 2 each: [-(3 + 2 (S - 2)) / (S - 1), 3], exact."""
    b = _bound_parts(o)
    S = b["sides"]
    if o["scope"] == "match" and o["match"] == "best_of_5_150":
        return (-(3 + 2 * (S - 2)) / (S - 1), 3.0)
    D = b["deals"]
    total = D * (b["per_deal"] + b["majority"])
    if o["scope"] == "match" and o["tie_rule"] != "sudden_death":
        total = min(total, 2 * b["target"] - 1 + b["per_deal"] + D * b["majority"])
    hi = total / 2
    return (-hi / (S - 1), hi)


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state (per deal in scope "deal",
    per match in scope "match"), for any legal play.

    Derivation (docs/rules/basra.md "Bounds"): a deal plays deck - 4 cards (all but the four
    floor cards, the stock being dealt out); a play whose card has several capture sets adds
    TAKE actions, each choosing at least one more floor card of the set finally taken, and at
    most one DONE. Floor cards taken in a deal are at most the 4 first floor cards plus the
    trailed ones (<= deck - 4), so a deal takes at most (deck - 4) plays + (deck - 4) DONE +
    deck TAKE = 3 deck - 8 actions (148 with 52 cards). A match has at most D deals (see
    return_bounds: max_deals, B-D26, or fewer when the game must end sooner)."""
    b = _bound_parts(o)
    return b["deals"] * (3 * b["deck"] - 8)


def _sides(o: dict) -> int:
    """Number of sides: 2 with 4 players in partnership, else one per seat."""
    return 2 if (o["players"] == 4 and o["partnership"]) else o["players"]


def _metrics(o: dict) -> tuple:
    """The metric columns (vt.metrics order): three per side, then the deal / match facts."""
    per_side = []
    for s in range(_sides(o)):
        per_side += [Metric(f"points_{s}", f"points of side {s} over the whole deal / match"),
                     Metric(f"cards_{s}", f"cards side {s} captured in the last deal"),
                     Metric(f"basras_{s}", f"basras side {s} made in the last deal")]
    return tuple(per_side) + (
        Metric("majority_side", "side that took the majority bonus in the last deal (-1 none)", categories="team"),
        Metric("carry", "majority ties carried over"),
        Metric("winner", "scope match: the winning side (-1 draw or none)", categories="team"),
        Metric("deals", "deals played"),
    )


def _check_options(opts: dict) -> None:
    """Cross-option rules (ConfigError): a 44-card deck does not split into 3 hands; the
    'both' cut peek is the 2-player variant; a preset fixes its hand sizes."""
    n, variant = opts["players"], opts.get("variant")
    if opts["deck"] == 44 and n == 3:
        raise ConfigError("basra: deck=44 cannot be played by 3 players (40 cards do not split into 3); "
                          "use 2 or 4 players or deck=52")
    if opts["cut_peek"] == "both" and n != 2:
        raise ConfigError("basra: cut_peek='both' is the 2-player variant; use players=2")
    if variant is not None and opts["hand_size"] not in PRESET_HAND_SIZES[variant]:
        raise ConfigError(f"basra: variant {short(variant)} is played with hand_size in "
                          f"{list(PRESET_HAND_SIZES[variant])}, got {opts['hand_size']}")


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    "the points captured so far as the deal's score counts them: card points, basras, and the "
    "majority bonus to the side holding the most cards; partners share their side's figure")


INFO = GameInfo(
    phases=('play', 'choose', 'end'),
    name="basra", title="Basra",
    players=(2, 3, 4), default_players=4,
    teams="sides: with 4 players in partnership (the default) seat p plays for side p % 2 (partners "
          "opposite); otherwise every seat is its own side",
    sides=_sides,
    unit="points",
    returns_sum="zero",
    options=OPTIONS,
    presets=PRESETS,
    check_options=_check_options,
    metrics=_metrics,
    observation=(
        ObsBlock("hand", 52, "own hand: 1 per card held"),
        ObsBlock("floor", 52, "face-up floor cards"),
        ObsBlock("played", 4 * 52, "cards each seat played this deal (seat slots 0..3)", seats=per_seat(4)),
        ObsBlock("piles", 4 * 52, "cards captured by each side this deal (side slots 0..3)", seats=per_side(4)),
        ObsBlock("buried", 52, "J / ♦7 buried in the stock during floor cleaning"),
        ObsBlock("peek", 52, "the peeked bottom card, if this seat saw it", seats=FIXED),
        ObsBlock("pending", 52, "choose phase: the card being played"),
        ObsBlock("chosen", 52, "choose phase: floor cards chosen so far"),
        ObsBlock("doubled", 52, "Syrian doubled face cards (any side)", seats=FIXED),
        ObsBlock("hand_sizes", 4, "cards held per seat / 6", seats=per_seat(4)),
        ObsBlock("stock", 1, "cards in the stock / 52"),
        ObsBlock("basra_points", 4, "basra points per side this deal / 20", seats=per_side(4)),
        ObsBlock("basras", 4, "basras per side this deal / 5", seats=per_side(4)),
        ObsBlock("game_points", 4, "points per side in the current game / 100", seats=per_side(4)),
        ObsBlock("total_points", 4, "points per side over the whole deal / match / 100", seats=per_side(4)),
        ObsBlock("games_won", 4, "best_of_5_150: games won per side / 3", seats=per_side(4)),
        ObsBlock("carry", 1, "majority ties carried over / 3"),
        ObsBlock("last_capturer", 5, "side of the last capture this deal (slot 4 = none)",
                 seats=SeatField(4, width=1, of="side")),
        ObsBlock("dealer", 4, "dealer seat", seats=one_hot_seat(4)),
        ObsBlock("to_act", 4, "seat to act (none at the end)", seats=one_hot_seat(4)),
        ObsBlock("observer", 4, "observing seat", seats=one_hot_seat(4)),
        ObsBlock("phase", 3, "phase: play, choose, end"),
        ObsBlock("ladder", 3, "ladder target 51 / 61 / 71"),
        ObsBlock("deals", 1, "deals completed / 10"),
        ObsBlock("deal_points", 4, "points per side of the last scored deal / 100", seats=per_side(4)),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=CONFORMANCE_CONFIGS,
    seat_names=("seat 0", "seat 1", "seat 2", "seat 3"),   # docs/rules/basra.md numbers the seats
)
