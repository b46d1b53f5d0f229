# Typed surface of cardsim.games.zhao_pengyou._formats (shengji's TrickFormat; its kernels are C-level only
# and reached from Python through the oracles of cardsim.games.zhao_pengyou).
