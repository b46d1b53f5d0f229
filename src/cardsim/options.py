"""Option schemas: each game declares its options here-style and `resolve` validates them.

A game module lists `OPTIONS` (Option records), `PRESETS` (name -> {option: value}) and the
allowed player counts; `resolve` applies defaults, then the preset, then the user's explicit
options, and raises ConfigError naming the valid choices for anything unknown or out of range.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
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
    # when the option has an effect at all: {other option: the values under which it matters}, e.g.
    # {"scope": ("match",)} for a match target. An option given explicitly in a configuration
    # where it has no effect draws a NoEffectWarning naming the reason (make, simulate), and a
    # sweep over it is refused (cardsim.analysis.sweep).
    applies_when: Mapping[str, tuple] | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.applies_when is not None:
            if not isinstance(self.applies_when, Mapping) or not all(
                    isinstance(k, str) and isinstance(v, tuple) and v for k, v in self.applies_when.items()):
                raise ConfigError(f"Option {self.name}: applies_when must map option names to non-empty tuples "
                                  f"of values, got {_short(self.applies_when)}")
            object.__setattr__(self, "applies_when", MappingProxyType(dict(self.applies_when)))

    def no_effect_reason(self, resolved: Mapping) -> str | None:
        """Why this option has no effect under the resolved options `resolved`, or None if it may."""
        for k, allowed in (self.applies_when or {}).items():
            if k in resolved and not any(_same_kind(resolved[k], a) and resolved[k] == a for a in allowed):
                need = " or ".join(repr(a) for a in allowed)
                return (f"option {self.name!r} has no effect here: it only matters when {k} is {need} "
                        f"(here {k}={resolved[k]!r})")
        return None

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


def option_type(o: Option) -> str:
    """The option's type in words: 'one of [...]', 'int in 0..10', 'bool', or the default's type."""
    if o.choices is not None:
        return f"one of {_short(list(o.choices))}"
    if o.kind is not None:
        return o.kind.__name__ + _range(o.min, o.max)
    if o.default is None:
        return "value checked by the game (see the doc)"
    return f"{type(o.default).__name__} (checked by the game; see the doc)"


class NoEffectWarning(UserWarning):
    """An option was given explicitly in a configuration where it has no effect (its Option's
    `applies_when` is not met): the run is the same as without it."""


def _same_value(a, b) -> bool:
    try:
        return bool(a == b) and _same_kind(a, b)
    except Exception:  # noqa: BLE001 - values that do not compare (arrays): treat as chosen
        return False


def without_effect(options: tuple[Option, ...], resolved: Mapping, given) -> list[tuple[str, str]]:
    """[(name, reason)] for the options named in `given` that have no effect under `resolved`."""
    by_name = {o.name: o for o in options}
    out = []
    for k in given:
        o = by_name.get(k)
        r = o.no_effect_reason(resolved) if o is not None else None
        if r is not None:
            out.append((k, r))
    return out


MATCH_ONLY = {"scope": ("match",)}     # applies_when of an option that only matters in a whole match

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
    baseline = dict(resolved)         # defaults and preset: what an option is when not chosen
    for k, v in kwargs.items():
        if k not in by_name:
            raise ConfigError(f"{game}: unknown option {_short(k, 60)}; options: {sorted(['players', 'variant', *by_name])}")
        resolved[k] = by_name[k].check(game, v)
    resolved["players"] = players
    resolved["variant"] = variant
    # an option the caller chose explicitly that changes nothing in this configuration is said (a
    # complete option dict, e.g. a Game rebuilt from its resolved options, is a copy, not a choice)
    # (or an option set to the value it would have anyway: a Game's options passed on, as an
    # adapter's parameters are, are not a choice either)
    if not set(by_name) <= set(kwargs):
        chosen = [k for k in kwargs if k in by_name and not _same_value(resolved[k], baseline[k])]
        for _, reason in without_effect(options, resolved, chosen):
            warnings.warn(f"{game}: {reason}; the run is the same without it", NoEffectWarning, stacklevel=4)
    return resolved
