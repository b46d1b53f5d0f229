"""Typed errors. Every error cardsim raises for bad input is a CardsimError, which is also a
ValueError, and its message says what was wrong and what is allowed."""


class CardsimError(ValueError):
    """Base class of cardsim's errors."""


class ConfigError(CardsimError):
    """Unknown game, option, option value, preset, agent or player count."""


class IllegalActionError(CardsimError):
    """An action that is out of range or not legal in the current state (the state is unchanged)."""


class ParseError(CardsimError):
    """A malformed card, tile or action string."""
