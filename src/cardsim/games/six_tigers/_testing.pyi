# Typed surface of cardsim.games.six_tigers._testing (test hooks).
from cardsim.core._engine import State

def _true_world_ok(s: State, p: int) -> bool: ...
