"""Basra / Bastra: options, presets and rule oracles (docs/rules/basra.md).

Egyptian rules by default (``variant=None`` or ``variant="egyptian"``); the regional games are
presets over the same options (§8.2) and every option can be overridden on its own. See the
docstring of the compiled module ``cardsim.games._basra`` for the action space, the observation
layout, the returns (per seat: own side's points minus the mean of the other sides', zero-sum;
in a best-of-5 match games won, so that the returns rank the sides as the match result does)
and the greedy agent. Scenario states: ``game.spec.scenario(hands, floor=..., ...)`` (and the
older ``position`` / ``deal_pack`` below, which forward to it).

Where the spec is silent (documented in the module and the tests): a user-supplied card-point
table (``card_points={"J": 2, "10D": 4}``) is allowed besides the named tables;
``capture_options`` judges a play that is not the last card of the deal; a drawn game in a
best-of-5 match counts for nobody; ``hand_size`` is checked against a preset only when a preset
is named.
"""
from __future__ import annotations

import numpy as np

from cardsim.core._engine import _short, check_int
from cardsim.errors import ConfigError, ParseError
from cardsim.games import _basra as _k
from cardsim.options import SCOPE, Option

NAME = "basra"
PLAYERS = (2, 3, 4)
DEFAULT_PLAYERS = 4
RANKS = _k.RANKS
SUITS = _k.SUITS

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
            raise ConfigError(f"basra: card_points values must be multiples of 0.5 in 0..1000, got {_short(pts)}")
        k = str(key).strip().upper()
        if k in RANKS or k == "T":
            ranks[RANKS.index("10") if k == "T" else RANKS.index(k)] = pts
        else:
            try:
                cards[_k.parse_card(k)] = pts
            except ParseError:
                raise ConfigError(f"basra: card_points key {_short(key)} is neither a rank (A, 2-10, J, Q, K) "
                                  f"nor a card ('10D')") from None
    for c in range(52):
        out[c] = int(round(2 * cards.get(c, ranks.get(c >> 2, 0))))
    return out


def _card_points(value):
    if isinstance(value, str):
        for name in _TABLES:
            if value.lower() == name.lower():
                return name
        raise ConfigError(f"basra: option 'card_points' must be one of {list(_TABLES)} or a dict "
                          f"{{rank or card: points}}, got {_short(value)}")
    if isinstance(value, dict):
        _half_table(value)
        return dict(value)
    raise ConfigError(f"basra: option 'card_points' must be one of {list(_TABLES)} or a dict, got {_short(value)}")


def _floor_max(value):
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        return "none"
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in (1, 2):
        raise ConfigError(f"basra: option 'basra_floor_max' must be one of ['none', 2, 1], got {_short(value)}")
    return int(value)


def _target(value):
    if isinstance(value, str) and value.lower() == "ladder":
        return "ladder"
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
        raise ConfigError(f"basra: option 'target' must be 101, 51, 121, 151 (any int 1..100000) or "
                          f"'ladder', got {_short(value)}")
    return value


def _onoff(name):
    """A switch: True/False, or the spec's words "on"/"off" (also "true"/"false")."""
    def check(value):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("on", "off", "true", "false"):
            return value.lower() in ("on", "true")
        raise ConfigError(f"basra: option {_short(name)} must be True/False (or 'on'/'off'), got {_short(value)}")
    return check


def _case_choice(name, choices):
    def check(value):
        if isinstance(value, str):
            for c in choices:
                if value.lower() == c.lower():
                    return c
        raise ConfigError(f"basra: option {_short(name)} must be one of {list(choices)}, got {_short(value)}")
    return check


def _int_choice(name, choices):
    """A closed set of ints: the int itself (or a numpy int), never a float, bool or string
    (``deck=44.0`` is refused: the shared choices check would let 44.0 == 44 through)."""
    def check(value):
        try:
            v = check_int(value, f"basra: option {_short(name)}", min(choices), max(choices), ConfigError)
        except ConfigError:
            v = None
        if v is None or v not in choices:
            raise ConfigError(f"basra: option {_short(name)} must be one of {list(choices)}, got {_short(value)}")
        return v
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
    Option("face_value_for_basra", 10, "value of Q/K for double_value", kind=int, min=0, max=1000),
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
    Option("target", 101, "game target: 101, 51, 121, 151 or 'ladder' (51/61/71)", validate=_target),
    Option("tie_rule", "draw", "a tie for the highest total at the end", choices=("draw", "sudden_death")),
    Option("match", "single", "one game, or best of 5 games to 150", choices=("single", "best_of_5_150")),
    Option("max_deals", 5000, "scope 'match': the match ends with no winner after this many deals (B-D26)",
           kind=int, min=1, max=30_000),
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
# best_of_5_150 (3 games to 150) is covered by tests/games/test_basra.py: in the conformance suite its
# quadratic resample-playout check alone takes ~16 s.


def build(opts: dict):
    n = opts["players"]
    variant = opts.get("variant")
    if opts["deck"] == 44 and n == 3:
        raise ConfigError("basra: deck=44 cannot be played by 3 players (40 cards do not split into 3); "
                          "use 2 or 4 players or deck=52")
    if opts["cut_peek"] == "both" and n != 2:
        raise ConfigError("basra: cut_peek='both' is the 2-player variant; use players=2")
    if variant is not None and opts["hand_size"] not in PRESET_HAND_SIZES[variant]:
        raise ConfigError(f"basra: variant {_short(variant)} is played with hand_size in "
                          f"{list(PRESET_HAND_SIZES[variant])}, got {opts['hand_size']}")
    cp = opts["card_points"]
    full = dict(opts)
    full["_card_half"] = _half_table(_TABLES[cp] if isinstance(cp, str) else cp)
    return _k.BasraSpec(full)


# ---- episode and return bounds (docs/rules/basra.md "Bounds") ---------------------------------
def _resolved(opts) -> dict:
    """opts resolved and checked as cardsim.make resolves them (cardsim.game.resolved_options)."""
    from cardsim.game import resolved_options

    return resolved_options(NAME, opts)


def _bound_parts(o: dict) -> dict:
    """The quantities of the bounds' derivation, in half points (see return_bounds)."""
    n = o["players"]
    sides = 2 if (n == 4 and o["partnership"]) else n
    deck = o["deck"]
    cp = o["card_points"]
    half = _half_table(_TABLES[cp] if isinstance(cp, str) else cp)
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


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return of any seat in a terminal state of this
    configuration (opts: the resolved options, ``cardsim.make("basra", ...).options``).

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
    o = _resolved(opts)
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


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state (per deal in scope "deal",
    per match in scope "match"), for any legal play.

    Derivation (docs/rules/basra.md "Bounds"): a deal plays deck - 4 cards (all but the four
    floor cards, the stock being dealt out); a play whose card has several capture sets adds
    TAKE actions, each choosing at least one more floor card of the set finally taken, and at
    most one DONE. Floor cards taken in a deal are at most the 4 first floor cards plus the
    trailed ones (<= deck - 4), so a deal takes at most (deck - 4) plays + (deck - 4) DONE +
    deck TAKE = 3 deck - 8 actions (148 with 52 cards). A match has at most D deals (see
    return_bounds: max_deals, B-D26, or fewer when the game must end sooner)."""
    o = _resolved(opts)
    b = _bound_parts(o)
    return b["deals"] * (3 * b["deck"] - 8)


_SPECS: dict = {}


def _spec(variant, options):
    """The compiled spec the oracles run on (cached per variant and options)."""
    from cardsim.game import make

    if variant is None:
        variant = "egyptian"
    try:
        key = (variant, repr(sorted(options.items())))
    except TypeError:
        key = None
    if key is not None and key in _SPECS:
        return _SPECS[key]
    if "players" in options:
        spec = make(NAME, variant=variant, **options).spec
    else:
        # the rule oracles do not depend on the table size; pick one the options allow
        try:
            spec = make(NAME, variant=variant, **options).spec
        except ConfigError:
            spec = make(NAME, variant=variant, players=2, **options).spec
    if key is not None and len(_SPECS) < 256:
        _SPECS[key] = spec
    return spec


def _own_game(game):
    """game, checked to be a Basra game (cardsim.make("basra", ...))."""
    from cardsim.game import Game

    if not isinstance(game, Game) or game.name != NAME:
        raise ConfigError(f"basra: expected a Basra game (cardsim.make('basra', ...)), got {_short(game)}")
    return game


def _own_state(state):
    """state, checked to be a State of a Basra game."""
    from cardsim.core._engine import State

    if not isinstance(state, State) or not isinstance(state.spec, _k.BasraSpec):
        raise ConfigError(f"basra: expected a State of a Basra game, got {_short(state)}")
    return state


def _floor_ids(floor, deck):
    if isinstance(floor, str) or not isinstance(floor, (list, tuple)):
        raise ParseError(f"basra: the floor must be a list of card strings, got {_short(floor)}")
    ids = []
    for t in floor:
        k = _k.parse_card(t)
        if k >= deck:
            raise ParseError(f"basra: card {_short(t)} is not in the {deck}-card pack")
        if k in ids:
            raise ParseError(f"basra: card {_short(t)} appears twice on the floor (one pack)")
        ids.append(k)
    return ids


def _card(card, deck):
    c = _k.parse_card(card)
    if c >= deck:
        raise ParseError(f"basra: card {_short(card)} is not in the {deck}-card pack")
    return c


def capture_options(floor: list[str], card: str, variant: str = "egyptian", **options) -> list[dict]:
    """Every legal outcome of playing `card` on `floor` (§4.2, §4.3), with the engine's kernels:
    a list of {"captured": [floor cards taken, in floor order], "basra_points": int}, in the
    order of the floor positions taken; [{"captured": [], "basra_points": 0}] when nothing can
    be taken (a trail). Options override the preset as in make(). The play is judged as not the
    last card of the deal (basra_on_last_play only matters there)."""
    spec = _spec(variant, options)
    deck = spec.deck_size
    ids = _floor_ids(floor, deck)
    c = _card(card, deck)
    if c in ids:
        raise ParseError(f"basra: card {_short(card)} is both played and on the floor (one pack)")
    fmask = 0
    for k in ids:
        fmask |= 1 << k
    out = []
    for s in _k.oracle_capture_sets(spec, fmask, c):
        taken = [i for i, k in enumerate(ids) if (s >> k) & 1]
        pts = _k.oracle_basra_points(spec, c, fmask, False) if s and s == fmask else 0
        out.append((taken, {"captured": [_k.card_str(ids[i]) for i in taken], "basra_points": int(pts)}))
    out.sort(key=lambda t: t[0])
    return [d for _, d in out]


def basra_points(floor: list[str], card: str, variant: str = "egyptian", last_play: bool = False,
                 **options) -> int:
    """Basra points for clearing the whole `floor` with `card` (§4.3); 0 if `card` cannot
    clear it."""
    spec = _spec(variant, options)
    ids = _floor_ids(floor, spec.deck_size)
    c = _card(card, spec.deck_size)
    if c in ids:
        raise ParseError(f"basra: card {_short(card)} is both played and on the floor (one pack)")
    if not isinstance(last_play, (bool, np.bool_)):
        raise ConfigError(f"basra: last_play must be True or False, got {_short(last_play)}")
    fmask = sum(1 << k for k in ids)
    if not fmask or fmask not in _k.oracle_capture_sets(spec, fmask, c):
        return 0
    return int(_k.oracle_basra_points(spec, c, fmask, bool(last_play)))


def score_deal(piles: list[list[str]], basras: list[float] | None = None, doubled: list[list[str]] | None = None,
               carry: int = 0, variant: str = "egyptian", **options) -> tuple[list[float], int, int]:
    """Score one deal (§6) with the engine's kernel: piles[s] = the cards side s captured,
    basras[s] = its basra points, doubled[s] = its doubled (Syrian) cards, carry = majority ties
    carried in. Returns (points per side, new carry, majority side or -1). Inconsistent inputs
    (a card in two piles, a doubled card outside its side's pile, negative or fractional
    counts) raise ConfigError / ParseError instead of being scored."""
    if isinstance(piles, (str, bytes)) or not isinstance(piles, (list, tuple)):
        raise ParseError(f"basra: piles must be a list of 2, 3 or 4 card lists, got {_short(piles)}")
    n = len(piles)
    opts = dict(options)
    if n == 3:
        opts.setdefault("players", 3)
    elif n == 4:
        opts.setdefault("players", 4)
        opts.setdefault("partnership", False)
    elif n == 2:
        opts.setdefault("players", 2)
    else:
        raise ConfigError("basra: piles must hold 2, 3 or 4 sides")
    spec = _spec(variant, opts)
    if spec.num_sides != n:
        raise ConfigError(f"basra: piles hold {n} sides but the options make {spec.num_sides} sides")
    deck = spec.deck_size
    masks = [_k.cards_to_mask(p, deck) for p in piles]
    used = 0
    for m in masks:
        if used & m:
            raise ConfigError(f"basra: a card appears in two piles: {_k.mask_to_cards(used & m)}")
        used |= m
    if doubled is None:
        doubled = []
    if isinstance(doubled, (str, bytes)) or not isinstance(doubled, (list, tuple)) or len(doubled) > n:
        raise ConfigError(f"basra: doubled must be a list of at most {n} card lists, got {_short(doubled)}")
    dbl = [_k.cards_to_mask(p, deck) for p in doubled]
    for s, m in enumerate(dbl):
        if m & ~masks[s]:
            raise ConfigError(f"basra: doubled cards {_k.mask_to_cards(m & ~masks[s])} are not in side {s}'s pile")
    if basras is None:
        basras = [0] * n
    if isinstance(basras, (str, bytes)) or not isinstance(basras, (list, tuple)) or len(basras) != n:
        raise ConfigError(f"basra: basras must be {n} numbers (basra points per side), got {_short(basras)}")
    halves = [_k.half_points("basra points", b, _k.MAX_POINTS) for b in basras]
    carry = check_int(carry, "basra: carry", 0, _k.MAX_CARRY, ConfigError)
    return _k.oracle_score(spec, masks, dbl, [h / 2 for h in halves], carry)


def deal_pack(game, pack: list[str], dealer: int = 0):
    """A fresh deal dealt from an ordered pack (top card first), as the engine deals (§3); the
    same as game.spec.scenario(None, pack=pack, dealer=dealer)."""
    return _own_game(game).spec.scenario(None, pack=pack, dealer=dealer)


def position(game, hands, floor, stock=(), dealer=0, turn=None, last_capturer=None, piles=None, carry=0):
    """A mid-deal position from card strings; the same as game.spec.scenario(hands, floor=...,
    stock=..., dealer=..., turn=..., last_capturer=..., piles=..., carry=...)."""
    return _own_game(game).spec.scenario(hands, floor=floor, stock=stock, dealer=dealer, turn=turn,
                                         last_capturer=last_capturer, piles=piles, carry=carry)


# ---- whole plays <-> factored actions ----------------------------------------------------------
def legal_plays(state) -> list[tuple[str, list[str]]]:
    """Every legal whole play of the seat to act, as (card, captured floor cards), from the
    start of its turn (phase "play"); in phase "choose" only the plays of the pending card that
    are still open. Empty when the state is terminal."""
    v = _own_state(state).spec.view(state)
    if v["phase"] == "end":
        return []
    cards = [v["pending"]] if v["phase"] == "choose" else v["hands"][v["turn"]]
    out = []
    for c in cards:
        for o in _k.oracle_capture_sets(state.spec, _k.cards_to_mask(v["floor"]), _k.parse_card(c)):
            cap = _k.mask_to_cards(o)
            if set(v["chosen"]) <= set(cap):
                out.append((c, cap))
    return out


def play_to_actions(state, card: str, captured: list[str]) -> list[int]:
    """The action sequence that plays `card` capturing exactly `captured` (a list of floor
    cards; [] = trail) from `state` (phase "play"). Raises IllegalActionError if that is not a
    legal play."""
    from cardsim.errors import IllegalActionError

    _own_state(state)
    want = _k.cards_to_mask(captured)
    c = _k.parse_card(card)
    if state.phase != "play":
        raise IllegalActionError("basra: play_to_actions starts at the beginning of a turn (phase 'play')")
    legal = {(k, frozenset(cap)) for k, cap in legal_plays(state)}
    if (_k.card_str(c), frozenset(_k.mask_to_cards(want))) not in legal:
        raise IllegalActionError(f"basra: playing {_short(card)} capturing {_short(list(captured))} is not legal here; "
                                 f"legal plays: {sorted(legal_plays(state))}")
    s = state.clone()
    acts = [c]
    s.apply(c)
    while s.phase == "choose":
        chosen = _k.cards_to_mask(s.spec.view(s)["chosen"])
        if chosen == want:
            a = _k.BA_COMMIT_ACTION
        else:
            rest = want & ~chosen
            a = _k.BA_TAKE0_ACTION + (rest & -rest).bit_length() - 1
        acts.append(a)
        s.apply(a)
    return acts


def actions_to_play(state, actions: list[int]) -> tuple[str, list[str]]:
    """The (card, captured floor cards) that a complete action sequence plays from `state`
    (phase "play"); raises IllegalActionError if the actions are illegal or incomplete."""
    from cardsim.errors import IllegalActionError

    _own_state(state)
    if isinstance(actions, (str, bytes)) or not isinstance(actions, (list, tuple, np.ndarray)) or any(
            isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) for a in actions):
        raise IllegalActionError(f"basra: actions must be a list of action ints, got {_short(actions)}")
    if not len(actions) or state.phase != "play":
        raise IllegalActionError("basra: need the actions of one whole play, from phase 'play'")
    s = state.clone()
    for i, a in enumerate(actions):
        if i > 0 and s.phase != "choose":
            raise IllegalActionError("basra: the actions hold more than one play")
        s.apply(int(a))
    if s.phase == "choose":
        raise IllegalActionError("basra: the actions do not complete the play")
    floor = _k.cards_to_mask(state.spec.view(state)["floor"])
    card = int(actions[0])
    sets = _k.oracle_capture_sets(state.spec, floor, card)
    chosen = 0
    for a in list(actions[1:]) + [None]:
        compat = [x for x in sets if x & chosen == chosen]
        inter = compat[0]
        for x in compat:
            inter &= x
        chosen = inter
        if len(compat) == 1 or a is None or a == _k.BA_COMMIT_ACTION:
            break
        chosen |= 1 << (int(a) - _k.BA_TAKE0_ACTION)
    return _k.card_str(card), _k.mask_to_cards(chosen)


def scenario(game, hands, **facts):
    """A state built from card strings for scenarios and analysis: game.spec.scenario(hands,
    **facts) (hands: one card list per seat; facts: floor, stock, dealer, turn, last_capturer, piles,
    carry (or hands=None with pack= and dealer=). See BasraSpec.scenario.); every argument is validated before the state is touched, and the state is
    marked not replayable."""
    return _own_game(game).spec.scenario(hands, **facts)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
