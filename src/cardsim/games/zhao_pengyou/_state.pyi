# Typed surface of cardsim.games._zhao_pengyou_state (the state machine; its kernels are C-level only).
OBS_SIZE: int
