"""Option schemas: each game declares its options here-style and `resolve` validates them.

A game module lists `OPTIONS` (Option records), `PRESETS` (name -> {option: value}) and the
allowed player counts; `resolve` applies defaults, then the preset, then the user's explicit
options, and raises ConfigError naming the valid choices for anything unknown or out of range.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from cardsim.errors import ConfigError, short


@dataclass(frozen=True)
class Option:
    """One rule option. Exactly one way of validating applies: `choices` (a closed set),
    `kind` with optional `min`/`max` (ints, floats, bools), or `validate` (a function that
    returns the normalised value or raises ConfigError)."""

    name: str
    default: Any
    doc: str = ""
    choices: tuple | None = None
    kind: type | None = None
    min: float | None = None
    max: float | None = None
    validate: Callable[[Any], Any] | None = field(default=None, compare=False)

    def check(self, game: str, value: Any) -> Any:
        where = f"{game}: option {self.name!r}"
        if self.validate is not None:
            try:
                return self.validate(value)
            except ConfigError:
                raise
            except (TypeError, ValueError) as e:
                raise ConfigError(f"{where}: {str(e)[:200]}") from None
        if self.choices is not None:
            # the value must be one of the choices *and of its type*: 44.0 or True is not the
            # choice 44 or 1 (44.0 == 44 in Python); a numpy scalar stands for its Python value
            for c in self.choices:
                if _same_kind(value, c) and value == c:
                    return c
            raise ConfigError(f"{where} must be one of {_short(list(self.choices))}, got {_short(value)}")
        if self.kind is bool:
            if not isinstance(value, (bool, np.bool_)):
                raise ConfigError(f"{where} must be True or False, got {_short(value)}")
            return bool(value)
        if self.kind is int:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise ConfigError(f"{where} must be an integer (not a float or bool)"
                                  f"{_range(self.min, self.max)}, got {_short(value)}")
            value = int(value)
        elif self.kind is float:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise ConfigError(f"{where} must be a number{_range(self.min, self.max)}, got {_short(value)}")
            value = float(value)
            if not math.isfinite(value):
                raise ConfigError(f"{where} must be a finite number{_range(self.min, self.max)}, got {_short(value)}")
        if self.min is not None and value < self.min:
            raise ConfigError(f"{where} must be >= {self.min}, got {_short(value)}")
        if self.max is not None and value > self.max:
            raise ConfigError(f"{where} must be <= {self.max}, got {_short(value)}")
        return value



def _short(value, limit: int = 200) -> str:
    return short(value, limit)


def _range(lo, hi) -> str:
    if lo is None and hi is None:
        return ""
    if hi is None:
        return f" >= {lo}"
    if lo is None:
        return f" <= {hi}"
    return f" in {lo}..{hi}"


def _same_kind(value, choice) -> bool:
    """Whether `value` may stand for `choice`: bools only for bools, integers (int or numpy int,
    never bool or float) for ints, numbers for floats, otherwise the same type."""
    if isinstance(choice, bool):
        return isinstance(value, (bool, np.bool_))
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(choice, int):
        return isinstance(value, (int, np.integer))
    if isinstance(choice, float):
        return isinstance(value, (int, float, np.integer, np.floating))
    return type(value) is type(choice) or isinstance(value, type(choice))


SCOPE = Option("scope", "deal", "what a state covers: one deal, or the whole match", choices=("deal", "match"))


def resolve(game: str, options: tuple[Option, ...], presets: dict[str, dict], players_allowed: tuple[int, ...],
            default_players: int, kwargs: dict) -> dict:
    """Defaults, then `variant` preset, then explicit options. Returns the resolved dict,
    including 'players' and 'variant'."""
    kwargs = dict(kwargs)
    by_name = {o.name: o for o in options}
    players = kwargs.pop("players", default_players)
    if isinstance(players, (bool, np.bool_)) or not isinstance(players, (int, np.integer)) \
            or int(players) not in players_allowed:
        raise ConfigError(f"{game}: players must be one of {list(players_allowed)} (an integer), got {_short(players)}")
    players = int(players)
    variant = kwargs.pop("variant", None)
    resolved = {o.name: o.default for o in options}
    if variant is not None:
        if not isinstance(variant, str) or variant not in presets:
            raise ConfigError(f"{game}: unknown variant {str(variant)[:40]!r}; variants: {sorted(presets) or 'none'}")
        for k, v in presets[variant].items():
            resolved[k] = by_name[k].check(game, v)
    for k, v in kwargs.items():
        if k not in by_name:
            raise ConfigError(f"{game}: unknown option {_short(k, 60)}; options: {sorted(['players', 'variant', *by_name])}")
        resolved[k] = by_name[k].check(game, v)
    resolved["players"] = players
    resolved["variant"] = variant
    return resolved
