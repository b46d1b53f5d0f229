# Typed surface of cardsim.games.zhao_pengyou._state (the state machine; its kernels are C-level only).
