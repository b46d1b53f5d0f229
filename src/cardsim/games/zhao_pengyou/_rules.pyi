# Typed surface of cardsim.games.zhao_pengyou._rules (pure rules; its kernels are C-level only and reached
# from Python through the oracles of cardsim.games.zhao_pengyou).
