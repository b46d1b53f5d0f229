# Typed surface of cardsim.games._zhao_pengyou_shengji (shengji's TrickFormat; its kernels are C-level
# only and reached from Python through the oracles of cardsim.games.zhao_pengyou).
from typing import Any

def dec_install(table) -> Any: ...
