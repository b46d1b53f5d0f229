# Typed surface of cardsim.games._zhao_pengyou_rules (pure rules; its kernels are C-level only and
# reached from Python through the oracles of cardsim.games.zhao_pengyou).
