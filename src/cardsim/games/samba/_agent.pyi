# Typed surface of cardsim.games._samba_greedy (the greedy agent; C-level only).
