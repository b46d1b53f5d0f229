# Typed surface of cardsim.games._samba_rules (pure rules; its kernels are C-level only and
# reached from Python through the oracles of cardsim.games.samba).
