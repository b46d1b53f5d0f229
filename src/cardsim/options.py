"""Option schemas: each game declares its options here-style and `resolve` validates them.

A game module lists `OPTIONS` (Option records), `PRESETS` (name -> {option: value}) and the
allowed player counts; `resolve` applies defaults, then the preset, then the user's explicit
options, and raises ConfigError naming the valid choices for anything unknown or out of range.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardsim.errors import ConfigError


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
                raise ConfigError(f"{where}: {e}") from None
        if self.choices is not None:
            if isinstance(value, bool) and not any(isinstance(c, bool) for c in self.choices):
                raise ConfigError(f"{where} must be one of {list(self.choices)}, got {value!r}")
            if value not in self.choices:
                raise ConfigError(f"{where} must be one of {list(self.choices)}, got {value!r}")
            return value
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"{where} must be True or False, got {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{where} must be an int, got {value!r}")
        elif self.kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"{where} must be a number, got {value!r}")
            value = float(value)
        if self.min is not None and value < self.min:
            raise ConfigError(f"{where} must be >= {self.min}, got {value!r}")
        if self.max is not None and value > self.max:
            raise ConfigError(f"{where} must be <= {self.max}, got {value!r}")
        return value


SCOPE = Option("scope", "deal", "what a state covers: one deal, or the whole match", choices=("deal", "match"))


def resolve(game: str, options: tuple[Option, ...], presets: dict[str, dict], players_allowed: tuple[int, ...],
            default_players: int, kwargs: dict) -> dict:
    """Defaults, then `variant` preset, then explicit options. Returns the resolved dict,
    including 'players' and 'variant'."""
    kwargs = dict(kwargs)
    by_name = {o.name: o for o in options}
    players = kwargs.pop("players", default_players)
    if isinstance(players, bool) or not isinstance(players, int) or players not in players_allowed:
        raise ConfigError(f"{game}: players must be one of {list(players_allowed)}, got {players!r}")
    variant = kwargs.pop("variant", None)
    resolved = {o.name: o.default for o in options}
    if variant is not None:
        if not isinstance(variant, str) or variant not in presets:
            raise ConfigError(f"{game}: unknown variant {str(variant)[:40]!r}; variants: {sorted(presets) or 'none'}")
        for k, v in presets[variant].items():
            resolved[k] = by_name[k].check(game, v)
    for k, v in kwargs.items():
        if k not in by_name:
            raise ConfigError(f"{game}: unknown option {k!r}; options: {sorted(['players', 'variant', *by_name])}")
        resolved[k] = by_name[k].check(game, v)
    resolved["players"] = players
    resolved["variant"] = variant
    return resolved
