"""cardsim: a fast, seeded simulation engine for traditional card and tile games."""
from cardsim.analysis.compare import compare
from cardsim.analysis.summary import Summary as _Summary
from cardsim.analysis.skill import skill
from cardsim.analysis.sweep import sweep
from cardsim.errors import CardsimError, ConfigError, IllegalActionError, ParseError
from cardsim.game import GAMES, Game, make
from cardsim.result import SimResult, load, set_summary_type as _set_summary_type
from cardsim.simulate import simulate
from cardsim.views import state_html as _state_html
from cardsim.core._engine import set_html_view as _set_html_view

_set_html_view(_state_html)      # the layers below never import the presentation above them:
_set_summary_type(_Summary)      # it is registered here, on `import cardsim`

__version__ = "0.1.0"


def __getattr__(name):
    """`cardsim.VectorEnv` is imported on first use: it subclasses gymnasium's vector env when
    gymnasium is installed, and `import cardsim` should not pay for gymnasium."""
    if name == "VectorEnv":
        from cardsim.vector import VectorEnv

        globals()["VectorEnv"] = VectorEnv
        return VectorEnv
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")
__all__ = ["GAMES", "Game", "make", "simulate", "SimResult", "skill", "compare", "sweep", "load", "CardsimError",
           "ConfigError", "IllegalActionError", "ParseError", "VectorEnv", "__version__"]
