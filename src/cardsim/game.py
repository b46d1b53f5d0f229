"""`make()` and the `Game` object: the registry of games and their configured specs."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import numpy as np

import cardsim.games as _games_pkg
from cardsim.core._engine import set_spec_rebuild
from cardsim.errors import ConfigError, short
from cardsim.options import resolve

U64_MAX = 2**64 - 1


def check_seed(value, what: str = "seed") -> int:
    """A seed or deal index: any integer (int or numpy integer, signed or unsigned; not bool,
    float or str) in 0..2**64-1, returned as a Python int; else ConfigError naming the range.
    Every entry point that takes a seed uses it, so they all accept the same values."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        r = repr(value)
        shown = r if len(r) <= 40 else r[:37] + "..."
        raise ConfigError(f"{what} must be an integer in 0..{U64_MAX} (0..2**64-1), got {shown}")
    v = int(value)
    if not 0 <= v <= U64_MAX:
        r = str(v)
        shown = r if len(r) <= 40 else r[:37] + "..."
        raise ConfigError(f"{what} must be in 0..{U64_MAX} (0..2**64-1), got {shown}")
    return v


# Every public module in cardsim.games is a game (files starting with "_" are extensions).
GAMES: tuple[str, ...] = tuple(sorted(m.name for m in pkgutil.iter_modules(_games_pkg.__path__)
                                      if not m.name.startswith("_")))


def game_module(name: str) -> ModuleType:
    """The public module of a registered game (options, presets, rule oracles)."""
    if not isinstance(name, str) or name not in GAMES:
        shown = repr(name) if len(repr(name)) <= 60 else repr(name)[:57] + "..."
        raise ConfigError(f"unknown game {shown}; games: {list(GAMES)}")
    return importlib.import_module(f"cardsim.games.{name}")


def game_info(name: str):
    """The GameInfo of a registered game (cardsim.info.GameInfo, declared once in the game's
    folder, src/cardsim/games/<game>/info.py): options, presets, players, unit, metrics,
    observation layout, bounds."""
    return game_module(name).INFO


class Game:
    """A configured game: options resolved, the compiled spec built once. Create states with
    `new_state(seed, deal)`."""

    def __init__(self, name: str, **options):
        mod = game_module(name)
        self.module = mod
        info = self.info = game_info(name)
        resolved = info.resolve_kwargs(options)
        self.spec = mod.build(resolved)
        self.options = resolved

    name = property(lambda self: self.spec.name)
    num_players = property(lambda self: self.spec.num_players)
    num_actions = property(lambda self: self.spec.num_actions)
    observation_size = property(lambda self: self.spec.obs_size)
    metric_names = property(lambda self: self.spec.metric_names)
    returns_sum = property(lambda self: self.spec.returns_sum, doc="'zero', 'constant' or 'none'")

    def new_state(self, seed: int = 0, deal: int = 0):
        """Deal `deal` of seed `seed`: the same state every time, on any thread or machine."""
        return self.spec.new_state(check_seed(seed, "seed"), check_seed(deal, "deal"))

    def __reduce__(self):
        return (_rebuild_game, (self.name, dict(self.options)))

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"cardsim.make({self.name!r}, {shown})"


def _rebuild_game(name, opts):
    opts = dict(opts)
    if opts.get("variant") is None:
        opts.pop("variant", None)
    return Game(name, **opts)


def make(name: str, **options) -> Game:
    """Configure a game. Unknown names, options, values, variants or player counts raise
    ConfigError naming the valid choices."""
    return Game(name, **options)


def _rebuild_spec(name, opts):
    # the resolved options (preset already applied) plus the preset name: resolving them again
    # gives the same dict, so the rebuilt spec compares equal
    return _rebuild_game(name, opts).spec


set_spec_rebuild(_rebuild_spec)     # how a pickled spec is rebuilt (the engine imports nothing above it)
