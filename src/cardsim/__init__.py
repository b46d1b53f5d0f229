"""cardsim: a fast, seeded simulation engine for traditional card and tile games."""
from cardsim.errors import CardsimError, ConfigError, IllegalActionError, ParseError
from cardsim.game import GAMES, Game, make
from cardsim.simulate import SimResult, load, simulate, skill
from cardsim.stats import compare

__version__ = "0.1.0"
__all__ = ["GAMES", "Game", "make", "simulate", "SimResult", "skill", "compare", "load", "CardsimError", "ConfigError",
           "IllegalActionError", "ParseError", "__version__"]
