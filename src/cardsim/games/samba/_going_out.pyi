# Typed surface of cardsim.games.samba._going_out (the going-out searches; C-level only): no Python-level names.
