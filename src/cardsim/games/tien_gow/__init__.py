"""Tien Gow 天九 (Da Tian Jiu): options, rule oracles and the tile-sorting contest
(docs/rules/tien_gow.md).

Four players, the 32 Chinese domino tiles (21 identities: 11 civil tiles twice, 10 military tiles
once), singles, pairs, triples and quads compared only inside their category, BEAT face up or
DISCARD face down, the last trick's winner collecting from everyone, doubled with the banker. See
the docstring of the compiled module `cardsim.games.tien_gow._state` for the decisions, the action
space and the returns, `_agent` for the greedy agent, and INFO.observation (`info.py`) for the
observation layout. INFO (`cardsim.games.tien_gow.info`) declares the options, the metrics, the
unit of the returns (chips) and the bounds.

Tiles are written by their pips, high end first (`6-6`, `4-2`, `2-1`); parsers also accept the
low end first (`1-3`) and the names of §2.1 that name one tile (`Heaven`, `天`, `Goose`, `Six`).

Options (§7, DESIGN §4 names): INFO.options in info.py, each with its default and meaning
(`cardsim games tien_gow` lists them; docs/rules/tien_gow.md §7 explains them).

Bounds (the shared protocol): `return_bounds(opts)` and `max_game_length(opts)` are INFO's (their
derivations are in info.py).
"""
from __future__ import annotations

import time

from cardsim.core._engine import GameSpec, State, check_int
from cardsim.errors import ConfigError, IllegalActionError, ParseError, short
from cardsim.info import scenario_spec
from cardsim.games.tien_gow import _rules as _r
from cardsim.games.tien_gow import _spec
from cardsim.games.tien_gow import notation as _n
from cardsim.games.tien_gow.info import INFO

TILES = _n.TILES
CATEGORIES = _n.CATEGORIES
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

_OPTION_NAMES = {o.name: o for o in INFO.options}
_RULE_OPTIONS = ("military_fives_equal", "mixed_combinations", "two_pair_lead", "supreme_follow")


class CombinationError(ParseError):
    """Tiles that form no legal combination of §2.2 (a ValueError, like every cardsim error)."""


def build(opts: dict):
    return _Spec(opts, INFO)


# ---- tiles ----------------------------------------------------------------------------------------
def parse_tile(text: str) -> str:
    """A tile in the engine's notation: '1-3' -> '3-1', 'Heaven' -> '6-6', '二四' -> '4-2'."""
    return TILES[_n.parse_tile(text)]


def _flags(options: dict) -> tuple:
    """The combination table's flags (the kernel's tg_rules_init) of the combination options."""
    opts = {}
    for k, v in options.items():
        if k not in _RULE_OPTIONS:
            raise ConfigError(f"tien_gow: option {short(k)} does not change combinations; allowed: "
                              f"{', '.join(_RULE_OPTIONS)}")
        opts[k] = _OPTION_NAMES[k].check("tien_gow", v)
    d = {o: _OPTION_NAMES[o].default for o in _RULE_OPTIONS} | opts
    return (d["military_fives_equal"], d["mixed_combinations"] == "allowed", d["two_pair_lead"],
            d["supreme_follow"] == "highest_pair")


# ---- oracles --------------------------------------------------------------------------------------
def sort_tiles(tiles: list[str]) -> dict:
    """The contest of the seed (§9 G-01, G-02): {"civil": [...], "military": [...]}, each row
    strongest first with tiles of equal strength adjacent; every given tile appears once. Any
    multiset of up to 32 tiles of the set; a tile beyond its count in the set is a ParseError."""
    ids = _n.tiles_to_ids(tiles, "the tiles to sort")
    civil, military = _r.oracle_sort(ids)
    return {"civil": [TILES[k] for k in civil], "military": [TILES[k] for k in military]}


def combination(tiles: list[str], **options) -> str:
    """The category of a legal combination (§2.2): "single_civil", "single_military", "pair_civil",
    "pair_military", "pair_mixed", "supreme", "triple_2c1m", "triple_1c2m", "quad" (and, with
    two_pair_lead=True, "two_pairs_civil", "two_pairs_military"). Tiles that form none raise
    CombinationError (a ParseError, hence a ValueError) saying why. Options: military_fives_equal,
    mixed_combinations, two_pair_lead, supreme_follow."""
    flags = _flags(options)
    ids = _n.tiles_to_ids(tiles, "a combination")
    return CATEGORIES[_classify(flags, ids)[1]]


def _classify(flags, ids) -> tuple[int, int]:
    """(combination index, category) of the tiles `ids`; CombinationError if they form none."""
    if not 1 <= len(ids) <= 4:
        raise CombinationError(f"tien_gow: a combination has 1 to 4 tiles, got {len(ids)}")
    ci, cat = _r.oracle_classify(flags, _n.counts_of(ids))
    if ci < 0:
        shown = "+".join(TILES[k] for k in sorted(ids))
        raise CombinationError(
            f"tien_gow: {shown} is not a legal combination: pairs are two identical civil tiles, a military "
            f"pair of one row (9s, 8s, 7s, 5s), a civil tile with a military tile of its matching row (Heaven-9, "
            f"Earth-8, Man-7, Harmony-5) or the Supreme 4-2+2-1; triples and quads join a matching civil tile or "
            f"pair with a military tile or pair")
    return ci, cat


def trick_winner(plays: list[list[str]], **options) -> int:
    """Index of the winning play of a trick (§5.1): plays[0] is the lead (a legal combination), the
    others follow in order with as many tiles. A play beats the current high only with the same
    category and strictly more strength (ties go to the earlier play, T9); a play of another
    category never wins (T12); a Supreme wins only when led (T6). Options as for combination()."""
    flags = _flags(options)
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 4:
        raise ParseError(f"tien_gow: a trick is a list of 1 to 4 plays (lists of tiles), got {short(plays)}")
    ids = [_n.tiles_to_ids(p, f"play {i}") for i, p in enumerate(plays)]
    _n.tiles_to_ids([TILES[k] for p in ids for k in p], "the trick")
    _classify(flags, ids[0])
    if any(len(p) != len(ids[0]) for p in ids):
        raise ParseError(f"tien_gow: every play of a trick has as many tiles as the lead ({len(ids[0])})")
    return _r.oracle_trick_winner(flags, [_n.counts_of(p) for p in ids])


def score_deal(tricks: list[int], banker: int, winner: int, *, banker_multiplier: str = "fixed",
               streak: int = 0, shutout_bonus: bool = False) -> list[int]:
    """Net chips of one deal (§6.1, T7): tricks[i] credited to seat i (sum 8), the deal's banker
    and the final trick's winner. `streak` = deals the banker had already won in a row (only
    with banker_multiplier="increasing"). Zero-sum."""
    if (not isinstance(tricks, (list, tuple)) or len(tricks) != 4
            or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 8 for x in tricks) or sum(tricks) != 8):
        raise ConfigError(f"tien_gow: tricks must be 4 counts 0..8 summing to 8, got {short(tricks)}")
    for name, v in (("banker", banker), ("winner", winner)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 4:
            raise ConfigError(f"tien_gow: {name} must be a seat 0..3, got {short(v)}")
    if tricks[winner] == 0:
        raise ConfigError("tien_gow: the winner of the final trick has at least one trick")
    inc = _OPTION_NAMES["banker_multiplier"].check("tien_gow", banker_multiplier) == "increasing"
    if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak <= 1000 or (streak and not inc):
        raise ConfigError("tien_gow: streak must be an int 0..1000, and 0 unless banker_multiplier='increasing'")
    _OPTION_NAMES["shutout_bonus"].check("tien_gow", shutout_bonus)
    return _r.oracle_settle(list(tricks), banker, winner, 2 + streak, inc, shutout_bonus, 1, -1)


def timed_sort(tiles: list[str]) -> tuple[dict, float]:
    """sort_tiles and the seconds it took (for the contest command)."""
    t0 = time.perf_counter()
    rows = sort_tiles(tiles)
    return rows, time.perf_counter() - t0


def shuffled_set(seed: int) -> list[str]:
    """The 32 tiles of a set in a shuffled order, reproducible from `seed` (numpy's PCG64)."""
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"tien_gow: seed must be an int >= 0, got {short(seed)}")
    tiles = [t for k, t in enumerate(TILES) for _ in range(2 if k < 11 else 1)]
    return [tiles[i] for i in np.random.default_rng(seed).permutation(len(tiles))]


# ---- plays as actions -----------------------------------------------------------------------------
def _check_state(state, what):
    if not isinstance(state, State) or state.spec.name != INFO.name:
        raise ConfigError(f"tien_gow: {what} needs a tien_gow State, got {short(state)}")


def legal_plays(state) -> list[tuple[bool, list[str]]]:
    """Every whole play the seat to act can make now, as (face_up, tiles) pairs: leads and BEATs
    face up, DISCARDs face down (each reached through the factored actions)."""
    _check_state(state, "legal_plays")
    if state.is_terminal():
        return []
    out: set = set()
    _walk(state, (), out)
    return [(up, list(tiles)) for up, tiles in sorted(out)]


def _walk(s, ids: tuple, out: set) -> None:
    """Every whole play reachable from s through the factored actions, into `out` as (face_up,
    tiles) pairs, tiles strongest first: a play is whole when the spec's progress key moves."""
    key = s.spec._progress(s)
    for a in s.legal_actions():
        a = int(a)
        if a == _n.A_COMMIT:
            out.add((True, tuple(TILES[k] for k in sorted(ids))))
            continue
        new = ids + ((a if a < _n.A_DOWN else a - _n.A_DOWN),)
        c = s.clone()
        c.apply(a)
        if c.spec._progress(c) != key:
            out.add((a < _n.A_DOWN, tuple(TILES[k] for k in sorted(new))))
        else:
            _walk(c, new, out)


def play_to_actions(state, tiles: list[str], face_up: bool = True) -> list[int]:
    """The action sequence that makes the whole play `tiles` (face up: a lead or a BEAT; face
    down: a DISCARD) for the seat to act; IllegalActionError if that play is not legal now. The
    state is not changed."""
    _check_state(state, "play_to_actions")
    if not isinstance(face_up, bool):
        raise IllegalActionError(f"tien_gow: face_up must be True or False, got {short(face_up)}")
    ids = _n.tiles_to_ids(tiles, "the play")
    if not ids:
        raise IllegalActionError("tien_gow: a play has at least one tile")
    st = state.clone()
    seq = []
    base = 0 if face_up else _n.A_DOWN
    for k in sorted(ids):
        a = base + k
        if not st.is_legal(a):
            raise IllegalActionError(
                f"tien_gow: {'+'.join(TILES[x] for x in sorted(ids))} face {'up' if face_up else 'down'} is not a "
                f"legal play now; legal plays: {_fmt_plays(state)}")
        seq.append(a)
        st.apply(a)
    if st.game.view(st)["stage"]:
        if st.is_legal(_n.A_COMMIT):
            seq.append(_n.A_COMMIT)
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
                                 f"{short(actions)}")
    st = state.clone()
    up, ids = True, []
    for a in actions:
        st.apply(a)
        if a == _n.A_COMMIT:
            break
        up = a < _n.A_DOWN
        ids.append(a if a < _n.A_DOWN else a - _n.A_DOWN)
    return up, [TILES[k] for k in sorted(ids)]


def scenario(game, hands: list[list[str]], banker: int = 0, leader: int | None = None,
             tricks: list[int] | None = None):
    """A state at the start of a trick with these hands (tile strings, equal sizes 1..8) for
    scenarios and analysis. With n tiles per hand, 8 - n tiles per seat are out of play: they
    form 8 - n earlier single-tile tricks (shown face up) won as `tricks` says (default: all by
    the leader); `leader` (default the banker) leads next. Not replayable."""
    spec = getattr(game, "spec", None)
    if not isinstance(spec, GameSpec) or spec.name != INFO.name:
        raise ConfigError(f"tien_gow: scenario needs a tien_gow game (cardsim.make('tien_gow', ...)), got "
                          f"{short(game)}")
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise ConfigError("tien_gow: need 4 hands (lists of tiles)")
    ids = [_n.tiles_to_ids(h, f"hand {q}") for q, h in enumerate(hands)]
    n = len(ids[0])
    if not 1 <= n <= 8 or any(len(h) != n for h in ids):
        raise ConfigError(f"tien_gow: the 4 hands must hold the same number of tiles, 1..8; got "
                          f"{[len(h) for h in ids]}")
    allids = sum(ids, [])
    _n.tiles_to_ids([TILES[k] for k in allids], "the hands together")
    banker = check_int(banker, "tien_gow: banker", 0, 3, ConfigError)
    leader = banker if leader is None else check_int(leader, "tien_gow: leader", 0, 3, ConfigError)
    m = 8 - n
    if tricks is None:
        tricks = [m if q == leader else 0 for q in range(4)]
    if not isinstance(tricks, (list, tuple)) or len(tricks) != 4:
        raise ConfigError(f"tien_gow: tricks must be a list of 4 counts, got {short(tricks)}")
    tricks = [check_int(x, "tien_gow: a trick count", 0, m, ConfigError) for x in tricks]
    if sum(tricks) != m or (m > 0 and tricks[leader] == 0):
        raise ConfigError(f"tien_gow: tricks must be 4 counts >= 0 summing to {m} (tiles already played per "
                          f"seat), the leader having at least one when any was played")
    # the tiles out of play, in identity order, dealt 4 to each earlier trick; the other seats'
    # tricks first, the leader's last (it won the trick before the one it leads)
    rest = [k for k in range(21) for _ in range(_n.COPIES[k] - allids.count(k))]
    winners = [q for q in range(4) if q != leader for _ in range(tricks[q])] + [leader] * tricks[leader]
    played = [rest[4 * t:4 * t + 4] for t in range(m)]
    return spec._scenario(banker, ids, played, winners, leader)



_Spec = scenario_spec(_spec.TienGowSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay tien_gow --html`, cardsim.replay.table_of) draws of a
    position: the trick in play (a face-down tile as a back unless it is the viewer's), the tiles
    being staged, the banker, and the tricks, payments and balances. Tiles are drawn as dominoes
    with their pips (`glyph`). `viewer`: the seat the page is seen by (None: everything)."""

    piece = "tile"

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        names = INFO.seat_names_for(4)
        groups = []
        log = v["trick_log"]
        if log and log[-1]["winner"] is None:
            for q, play in sorted(log[-1]["plays"].items()):
                up = play["face_up"]
                groups.append({"seat": q, "cards": play["tiles"] if up or viewer in (None, q) else ["?"] * len(play["tiles"]),
                               "label": "" if up else "face down"})
        zones = [{"name": "trick", "trick": True, "groups": groups}]
        if v["stage"] and viewer in (None, v["turn"]):
            zones.append({"name": "being played", "groups": [{"seat": v["turn"], "cards": v["stage"],
                                                              "label": f"{names[v['turn']]}, {v['stage_mode']}"}]})
        facts = [("banker", names[v["banker"]])]
        if v["streak"]:
            facts.append(("banker streak", v["streak"]))
        if v["high_seat"] is not None and groups:
            facts.append(("highest so far", names[v["high_seat"]]))
        scores = [{"label": "tricks", "cols": names, "values": list(v["tricks"])},
                  {"label": "deal payments", "cols": names, "values": list(v["deal_pay"])},
                  {"label": "balance", "cols": names, "values": list(v["balance"])}]
        return {"zones": zones, "facts": facts, "scores": scores}

    @staticmethod
    def glyph(tile: str) -> dict:
        """A tile as a domino: its two ends' pips (high end on top) and its suit."""
        k = _n.TILES.index(tile)
        a, b = (int(x) for x in tile.split("-"))
        return {"tile": [a, b], "suit": "civil" if k < 11 else "military"}
