# Typed surface of cardsim.games.zhao_pengyou._plays (shengji's is_legal_play and compute_winner; its
# kernels are C-level only and reached from Python through the oracles of cardsim.games.zhao_pengyou).
