# Typed surface of cardsim.games._gleek_state (the signatures embedded in the extension).
from typing import Any

OBS_SIZE: int
