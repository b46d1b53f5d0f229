"""Typed errors. Every error cardsim raises for bad input is a CardsimError, which is also a
ValueError, and its message says what was wrong and what is allowed."""


MAX_MESSAGE = 2000      # characters: a message never carries a huge input back to the user


def short(value, limit: int = 60) -> str:
    """repr(value) cut to `limit` characters: what an error message may quote of a bad input (the
    one helper for it; a broken __repr__ gives the type's name instead of hiding the real error)."""
    try:
        r = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        r = f"<{type(value).__name__}>"
    return r if len(r) <= limit else r[:limit - 3] + "..."


class CardsimError(ValueError):
    """Base class of cardsim's errors. Messages quote at most a short part of a bad input (each
    raise site cuts what it echoes); as a backstop, a message longer than MAX_MESSAGE characters
    is cut there, saying how much was cut."""

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], str) and len(args[0]) > MAX_MESSAGE:
            m = args[0]
            args = (f"{m[:MAX_MESSAGE]} ... [{len(m) - MAX_MESSAGE} more characters cut]",)
        super().__init__(*args)


class ConfigError(CardsimError):
    """Unknown game, option, option value, preset, agent or player count."""


class IllegalActionError(CardsimError):
    """An action that is out of range or not legal in the current state (the state is unchanged)."""


class ParseError(CardsimError):
    """A malformed card, tile or action string."""
