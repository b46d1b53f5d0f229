# Typed surface of cardsim.games.samba._agent (the greedy agent; C-level only): no Python-level names.
