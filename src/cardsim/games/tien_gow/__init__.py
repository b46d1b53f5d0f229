"""Tien Gow 天九 (Da Tian Jiu): options, rule oracles and the tile-sorting contest
(docs/rules/tien_gow.md).

Four players, the 32 Chinese domino tiles (21 identities: 11 civil tiles twice, 10 military tiles
once), singles, pairs, triples and quads compared only inside their category, BEAT face up or
DISCARD face down, the last trick's winner collecting from everyone, doubled with the banker. See
the docstring of the compiled module `cardsim.games._tien_gow` for the action space, the
observation layout, the returns and the greedy agent.

Tiles are written by their pips, high end first (`6-6`, `4-2`, `2-1`); parsers also accept the
low end first (`1-3`) and the names of §2.1 that name one tile (`Heaven`, `天`, `Goose`, `Six`).

Options (§7, DESIGN §4 names; the first value is the default):
  military_fives_equal  True: 4-1 = 3-2 as singles (T1); False: 4-1 > 3-2
  must_beat_if_able     False (T2); True: a follower who can BEAT must
  early_death           "on" (T3: a seat without a trick may not BEAT in a single-tile final
                        trick), "off", "two_tricks" (it needs 2 tricks)
  banker_multiplier     "fixed" (x2, T7) or "increasing" (x2, x3, ... for consecutive banker
                        wins; a losing banker with more than 4 tricks is paid unmultiplied)
  supreme_follow        "discard" (T6) or "highest_pair" (a followed Supreme beats any pair)
  mixed_combinations    "allowed" or "pure_pairs_only" (no mixed pairs, triples or quads)
  two_pair_lead         False; True: two civil or two military pairs may be led
  shutout_bonus         False; True: the winner collects double when all three others took no trick
  hk_bonuses            False; True: the Hong Kong extras of T10 (see the compiled module)
  num_deals             16: deals of a match (scope="match", T5)
  bankroll              None; an int: the match stops when a balance falls below -bankroll
  scope                 "deal" or "match"

Bounds (the shared protocol): `return_bounds(opts)` and `max_game_length(opts)` below.
"""
from __future__ import annotations

import time

from cardsim.core._engine import GameSpec, State, _short
from cardsim.errors import ConfigError, IllegalActionError, ParseError
from cardsim.games import _tien_gow as _t
from cardsim.games import _tien_gow_rules as _r
from cardsim.options import SCOPE, Option

NAME = "tien_gow"
PLAYERS = (4,)
DEFAULT_PLAYERS = 4
TILES = _t.TILES
CATEGORIES = _r.CATEGORIES


class CombinationError(ParseError):
    """Tiles that form no legal combination of §2.2 (a ValueError, like every cardsim error)."""


def _bankroll(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**9:
        raise ConfigError(f"tien_gow: option 'bankroll' must be None (no stop) or an int 1..10**9, got {_short(value)}")
    return value


OPTIONS = (
    Option("military_fives_equal", True, "4-1 and 3-2 equal as singles (T1), or 4-1 > 3-2", kind=bool),
    Option("must_beat_if_able", False, "a follower who can BEAT must (T2: beating is optional)", kind=bool),
    Option("early_death", "on", "no trick before a single-tile final trick: may not BEAT (T3); 'two_tricks' "
           "needs 2", choices=("on", "off", "two_tricks")),
    Option("banker_multiplier", "fixed", "banker payments x2 (T7), or x2, x3, ... for consecutive banker wins",
           choices=("fixed", "increasing")),
    Option("supreme_follow", "discard", "a followed Supreme is a discard (T6), or beats any pair",
           choices=("discard", "highest_pair")),
    Option("mixed_combinations", "allowed", "mixed pairs, triples and quads allowed, or pure pairs only",
           choices=("allowed", "pure_pairs_only")),
    Option("two_pair_lead", False, "a leader may lead two civil or two military pairs", kind=bool),
    Option("shutout_bonus", False, "double the winner's collections when all three others took no trick",
           kind=bool),
    Option("hk_bonuses", False, "Hong Kong extras (T10): Supreme/5-1 pair payments, quad x4, 2-1 caught by 4-2",
           kind=bool),
    Option("num_deals", 16, "deals of a match, scope='match' (T5)", kind=int, min=1, max=10_000),
    Option("bankroll", None, "stop a match when a balance falls below -bankroll (None: no stop)",
           validate=_bankroll),
    SCOPE,
)
PRESETS: dict[str, dict] = {}

# Configurations the generic conformance suite runs (tests/conformance): the default game and each §7 option.
CONFORMANCE_CONFIGS = (
    {},
    {"military_fives_equal": False},
    {"must_beat_if_able": True},
    {"early_death": "off"},
    {"early_death": "two_tricks"},
    {"supreme_follow": "highest_pair"},
    {"mixed_combinations": "pure_pairs_only"},
    {"two_pair_lead": True},
    {"shutout_bonus": True, "hk_bonuses": True},
    {"scope": "match", "num_deals": 3, "banker_multiplier": "increasing"},
    {"scope": "match", "num_deals": 40, "bankroll": 10},
)

_OPTION_NAMES = {o.name: o for o in OPTIONS}


def build(opts: dict):
    return _t.TienGowSpec(opts)


# ---- tiles ----------------------------------------------------------------------------------------
def parse_tile(text: str) -> str:
    """A tile in the engine's notation: '1-3' -> '3-1', 'Heaven' -> '6-6', '二四' -> '4-2'."""
    return TILES[_t.parse_tile(text)]


def _rules(options: dict) -> "_r.Rules":
    opts = {}
    for k, v in options.items():
        if k not in ("military_fives_equal", "mixed_combinations", "two_pair_lead", "supreme_follow"):
            raise ConfigError(f"tien_gow: option {_short(k)} does not change combinations; allowed: military_fives_equal, "
                              f"mixed_combinations, two_pair_lead, supreme_follow")
        opts[k] = _OPTION_NAMES[k].check("tien_gow", v)
    return _r.Rules(opts.get("military_fives_equal", True), opts.get("mixed_combinations", "allowed") == "allowed",
                    opts.get("two_pair_lead", False), opts.get("supreme_follow", "discard") == "highest_pair")


def _counts(ids):
    c = [0] * 21
    for k in ids:
        c[k] += 1
    return c


# ---- oracles --------------------------------------------------------------------------------------
def sort_tiles(tiles: list[str]) -> dict:
    """The contest of the seed (§9 G-01, G-02): {"civil": [...], "military": [...]}, each row
    strongest first with tiles of equal strength adjacent; every given tile appears once. Any
    multiset of up to 32 tiles of the set; a tile beyond its count in the set is a ParseError."""
    ids = _t.tiles_to_ids(tiles, "the tiles to sort")
    civil, military = _r.sort_ids(ids)
    return {"civil": [TILES[k] for k in civil], "military": [TILES[k] for k in military]}


def combination(tiles: list[str], **options) -> str:
    """The category of a legal combination (§2.2): "single_civil", "single_military", "pair_civil",
    "pair_military", "pair_mixed", "supreme", "triple_2c1m", "triple_1c2m", "quad" (and, with
    two_pair_lead=True, "two_pairs_civil", "two_pairs_military"). Tiles that form none raise
    CombinationError (a ParseError, hence a ValueError) saying why. Options: military_fives_equal,
    mixed_combinations, two_pair_lead, supreme_follow."""
    rules = _rules(options)
    ids = _t.tiles_to_ids(tiles, "a combination")
    ci = _classify(rules, ids)
    return rules.category(ci)


def _classify(rules, ids) -> int:
    if not 1 <= len(ids) <= 4:
        raise CombinationError(f"tien_gow: a combination has 1 to 4 tiles, got {len(ids)}")
    ci = rules.classify(_counts(ids))
    if ci < 0:
        shown = "+".join(TILES[k] for k in sorted(ids))
        raise CombinationError(
            f"tien_gow: {shown} is not a legal combination: pairs are two identical civil tiles, a military "
            f"pair of one row (9s, 8s, 7s, 5s), a civil tile with a military tile of its matching row (Heaven-9, "
            f"Earth-8, Man-7, Harmony-5) or the Supreme 4-2+2-1; triples and quads join a matching civil tile or "
            f"pair with a military tile or pair")
    return ci


def trick_winner(plays: list[list[str]], **options) -> int:
    """Index of the winning play of a trick (§5.1): plays[0] is the lead (a legal combination), the
    others follow in order with as many tiles. A play beats the current high only with the same
    category and strictly more strength (ties go to the earlier play, T9); a play of another
    category never wins (T12); a Supreme wins only when led (T6). Options as for combination()."""
    rules = _rules(options)
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 4:
        raise ParseError(f"tien_gow: a trick is a list of 1 to 4 plays (lists of tiles), got {_short(plays)}")
    ids = [_t.tiles_to_ids(p, f"play {i}") for i, p in enumerate(plays)]
    _t.tiles_to_ids([TILES[k] for p in ids for k in p], "the trick")
    lead = _classify(rules, ids[0])
    if any(len(p) != len(ids[0]) for p in ids):
        raise ParseError(f"tien_gow: every play of a trick has as many tiles as the lead ({len(ids[0])})")
    seq = [lead] + [rules.classify(_counts(p)) for p in ids[1:]]
    return rules.trick_winner(seq)


def score_deal(tricks: list[int], banker: int, winner: int, *, banker_multiplier: str = "fixed",
               streak: int = 0, shutout_bonus: bool = False) -> list[int]:
    """Net chips of one deal (§6.1, T7): tricks[i] credited to seat i (sum 8), the deal's banker
    and the final trick's winner. `streak` = deals the banker had already won in a row (only
    with banker_multiplier="increasing"). Zero-sum."""
    if (not isinstance(tricks, (list, tuple)) or len(tricks) != 4
            or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 8 for x in tricks) or sum(tricks) != 8):
        raise ConfigError(f"tien_gow: tricks must be 4 counts 0..8 summing to 8, got {_short(tricks)}")
    for name, v in (("banker", banker), ("winner", winner)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 4:
            raise ConfigError(f"tien_gow: {name} must be a seat 0..3, got {_short(v)}")
    if tricks[winner] == 0:
        raise ConfigError("tien_gow: the winner of the final trick has at least one trick")
    inc = _OPTION_NAMES["banker_multiplier"].check("tien_gow", banker_multiplier) == "increasing"
    if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak <= 1000 or (streak and not inc):
        raise ConfigError("tien_gow: streak must be an int 0..1000, and 0 unless banker_multiplier='increasing'")
    _OPTION_NAMES["shutout_bonus"].check("tien_gow", shutout_bonus)
    return _r.settle(list(tricks), banker, winner, 2 + streak, inc, shutout_bonus)


def timed_sort(tiles: list[str]) -> tuple[dict, float]:
    """sort_tiles and the seconds it took (for the contest command)."""
    t0 = time.perf_counter()
    rows = sort_tiles(tiles)
    return rows, time.perf_counter() - t0


def shuffled_set(seed: int) -> list[str]:
    """The 32 tiles of a set in a shuffled order, reproducible from `seed` (numpy's PCG64)."""
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"tien_gow: seed must be an int >= 0, got {_short(seed)}")
    tiles = [t for k, t in enumerate(TILES) for _ in range(2 if k < 11 else 1)]
    return [tiles[i] for i in np.random.default_rng(seed).permutation(len(tiles))]


# ---- plays as actions -----------------------------------------------------------------------------
def _check_state(state, what):
    if not isinstance(state, State) or state.spec.name != NAME:
        raise ConfigError(f"tien_gow: {what} needs a tien_gow State, got {_short(state)}")


def legal_plays(state) -> list[tuple[bool, list[str]]]:
    """Every whole play the seat to act can make now, as (face_up, tiles) pairs: leads and BEATs
    face up, DISCARDs face down (each reached through the factored actions)."""
    _check_state(state, "legal_plays")
    if state.is_terminal():
        return []
    return [(up, list(tiles)) for up, tiles in _t.staged_plays(state)]


def play_to_actions(state, tiles: list[str], face_up: bool = True) -> list[int]:
    """The action sequence that makes the whole play `tiles` (face up: a lead or a BEAT; face
    down: a DISCARD) for the seat to act; IllegalActionError if that play is not legal now. The
    state is not changed."""
    _check_state(state, "play_to_actions")
    if not isinstance(face_up, bool):
        raise IllegalActionError(f"tien_gow: face_up must be True or False, got {_short(face_up)}")
    ids = _t.tiles_to_ids(tiles, "the play")
    if not ids:
        raise IllegalActionError("tien_gow: a play has at least one tile")
    st = state.clone()
    seq = []
    base = 0 if face_up else 21
    for k in sorted(ids):
        a = base + k
        if not st.is_legal(a):
            raise IllegalActionError(
                f"tien_gow: {'+'.join(TILES[x] for x in sorted(ids))} face {'up' if face_up else 'down'} is not a "
                f"legal play now; legal plays: {_fmt_plays(state)}")
        seq.append(a)
        st.apply(a)
    if st.game.view(st)["stage"]:
        if st.is_legal(42):
            seq.append(42)
        else:
            raise IllegalActionError(f"tien_gow: the play is incomplete; legal plays: {_fmt_plays(state)}")
    return seq


def _fmt_plays(state) -> str:
    return ", ".join(("up " if up else "down ") + "+".join(t) for up, t in legal_plays(state))


def play(state, tiles: list[str], face_up: bool = True):
    """Apply a whole play (see play_to_actions); returns the state."""
    for a in play_to_actions(state, tiles, face_up):
        state.apply(a)
    return state


def actions_to_play(state, actions: list[int]) -> tuple[bool, list[str]]:
    """The whole play (face_up, tiles) an action sequence makes from state (state unchanged)."""
    _check_state(state, "actions_to_play")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, (list, tuple)) or len(actions) > 8:
        raise IllegalActionError(f"tien_gow: actions must be a list of at most 8 action ids (one play), got "
                                 f"{_short(actions)}")
    st = state.clone()
    up, ids = True, []
    for a in actions:
        st.apply(a)
        if a == 42:
            break
        up = a < 21
        ids.append(a if a < 21 else a - 21)
    return up, [TILES[k] for k in sorted(ids)]


def scenario(game, hands: list[list[str]], banker: int = 0, leader: int | None = None,
             tricks: list[int] | None = None):
    """A state at the start of a trick with the given hands (for scenarios and analysis); see
    TienGowSpec.scenario."""
    spec = getattr(game, "spec", None)
    if not isinstance(spec, GameSpec) or spec.name != NAME:
        raise ConfigError(f"tien_gow: scenario needs a tien_gow game (cardsim.make('tien_gow', ...)), got "
                          f"{_short(game)}")
    return game.spec.scenario(hands, banker, leader, tricks)


# ---- the shared protocol: episode and return bounds (docs/rules/tien_gow.md "Bounds") ---------------
def _opt(opts, name):
    if not isinstance(opts, dict):
        raise ConfigError(f"tien_gow: opts must be the resolved options dict (game.options), got {_short(opts)}")
    o = _OPTION_NAMES[name]
    return o.check(NAME, opts.get(name, o.default))


def _check_opts(opts):
    """Every option of opts valid (defaults for the missing ones), else ConfigError."""
    for o in OPTIONS:
        _opt(opts, o.name)
    players = opts.get("players", DEFAULT_PLAYERS)
    if isinstance(players, bool) or players not in PLAYERS:
        raise ConfigError(f"tien_gow: players must be 4, got {_short(players)}")


def _deal_bounds(mult: int, factor: int, shut: int, hk: bool) -> tuple[int, int]:
    """(lo, hi) of one deal's chips for one seat with banker multiplier `mult`."""
    hi = 15 * mult * factor * shut + (12 if hk else 0)
    lo = 5 * mult * factor * shut + (4 if hk else 0)
    if hk:
        lo = max(lo, 26 * mult + 2)
    return -lo, hi


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): provably safe bounds on any seat's return in a terminal state (exact in deal
    scope: both are reached, see tests/games/test_tien_gow_bounds.py).

    Derivation (§6.1, T7, §7). In a deal every loser i owes the winner W due_i = 5 (no trick)
    or 4 - t_i (so at most 5, and W pays at most 3, to a loser with 7 tricks), times the banker
    multiplier m <= M when i or W is the banker (M = 2; with banker_multiplier="increasing"
    M = 2 + streak, and the streak before deal d of a match is at most d), times F = 4 when
    hk_bonuses and the final trick is won with a quad (else 1), times S = 2 when shutout_bonus
    and all three losers took no trick (else 1). So W collects at most 3 * 5 * M * F * S (W the
    banker, nobody else with a trick) and a seat loses at most 5 * M * F * S by the settlement.
    hk_bonuses adds: (a) the shows: a Supreme and the 5-1 civil pair can each be shown once per
    deal (one 4-2, one 2-1, two 5-1), each worth 2 chips from each opponent: at most +12 or -4
    for a seat; (b) the catch (T13): the leader L of a final single 2-1 trick won by the 4-2
    pays double every positive amount: L won the trick before, so due_L <= 3, the others owe at
    most 5, so L pays at most 2 * (3 + 5 + 5) * M = 26 M (no quad factor in a single trick, no
    shutout with L holding a trick), and the 4-2 and 2-1 played as singles show no Supreme, so
    L loses at most 26 M + 2 (one 5-1 pair shown), while W gains at most 26 M < 15 * M * F.
    hi = 15 M F S (+ 12 with hk_bonuses); lo = -(5 M F S (+ 4)), or -(26 M + 2) if larger with
    hk_bonuses. Default: (-10, 30); hk_bonuses: (-54, 132); hk_bonuses and shutout_bonus:
    (-84, 252). Match scope: the sum of the per-deal bounds over num_deals deals (the bankroll
    stop only shortens a match)."""
    _check_opts(opts)
    hk = _opt(opts, "hk_bonuses")
    factor = 4 if hk else 1
    shut = 2 if _opt(opts, "shutout_bonus") else 1
    inc = _opt(opts, "banker_multiplier") == "increasing"
    if _opt(opts, "scope") != "match":
        lo, hi = _deal_bounds(2, factor, shut, hk)
        return float(lo), float(hi)
    lo = hi = 0
    for d in range(_opt(opts, "num_deals")):
        a, b = _deal_bounds(2 + (d if inc else 0), factor, shut, hk)
        lo, hi = lo + a, hi + b
    return float(lo), float(hi)


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state(seed, deal) to a terminal state, for any
    sequence of legal actions (per deal in deal scope, per match in match scope).

    Derivation (§5.1, §5.2): a deal has no pre-play phase; each of the 4 players adds his 8
    tiles one action each (UP or DOWN k: 32 actions), and a trick needs at most one more action,
    the leader's COMMIT (a follow commits itself at k tiles). The final trick needs none: its
    leader stages all the tiles he holds, so none can be added and the lead commits itself.
    With at most 8 tricks: 32 + 7 = 39. (A single leader reaches 38: each group of tiles that
    combine, at most 4, ends with a tile that can no longer grow, see
    tests/games/test_tien_gow_bounds.py.) A match plays at most num_deals deals (a bankroll stop
    only ends it earlier): 39 * num_deals."""
    _check_opts(opts)
    return 39 * (_opt(opts, "num_deals") if _opt(opts, "scope") == "match" else 1)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
