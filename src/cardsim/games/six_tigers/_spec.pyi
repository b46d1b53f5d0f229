# Typed surface of cardsim.games.six_tigers._spec.
from typing import Any

from cardsim.core._engine import GameSpec, State

class SixTigersSpec(GameSpec):
    def __init__(self, opts: dict[str, Any], info: Any = ...) -> None: ...
    def _scenario_set(self, dealer: int, hands: list[int], played: list[int], tricks: list[int], aside: int,
                      declarer: int | None, leader: int | None) -> State: ...
