"""The last line of defence of the public API: bad arguments never escape as Python's own errors.

Every public function of a game module (`cardsim.games.<game>`: rule oracles, play helpers,
scenario builders) validates what it is given and raises the project's typed errors naming what
is allowed. `guard_public(globals())`, called at the end of each game module, adds a safety net
for any argument check a function still lacks: a TypeError, AttributeError, KeyError, IndexError
or OverflowError raised while it runs becomes a `ConfigError` that quotes the function's signature
(the argument types it accepts) and a short form of the arguments given. The original error is
kept as `__cause__` for debugging.
"""
from __future__ import annotations

import functools
import inspect

from cardsim.errors import CardsimError, ConfigError

_LEAKS = (TypeError, AttributeError, KeyError, IndexError, OverflowError)


def _short(args, kwargs, limit=80) -> str:
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    text = ", ".join(parts)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def guard(fn, owner: str):
    """fn wrapped so that Python's own argument errors surface as ConfigError."""
    try:
        sig = str(inspect.signature(fn))
    except (TypeError, ValueError):
        sig = "(...)"

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CardsimError:
            raise
        except _LEAKS as e:
            raise ConfigError(f"{owner}.{fn.__name__}: bad arguments ({_short(args, kwargs)}): "
                              f"{type(e).__name__}: {str(e)[:120]}; expected {fn.__name__}{sig}") from e

    wrapper.__cardsim_guarded__ = True
    return wrapper


def guard_public(namespace: dict, skip=("build",)) -> None:
    """Wrap every public function defined in the module whose globals() is `namespace`, or in one
    of its submodules and re-exported there (a game face re-exports its `notation`)."""
    mod = namespace["__name__"]
    owner = mod.rsplit(".", 1)[-1]
    for name, fn in list(namespace.items()):
        if (name.startswith("_") or name in skip or not inspect.isfunction(fn)
                or not (fn.__module__ == mod or fn.__module__.startswith(mod + "."))
                or getattr(fn, "__cardsim_guarded__", False)):
            continue
        namespace[name] = guard(fn, owner)
