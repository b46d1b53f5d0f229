# Typed surface of cardsim.games.samba._rules (pure rules; its kernels are C-level only and reached from Python through the oracles of cardsim.games.samba): no Python-level names.
