# Typed surface of cardsim.games.samba._testing (test hooks; not used by the engine).
from cardsim.core._engine import GameSpec, State

def records_consistent(spec: GameSpec, s: State) -> bool: ...
