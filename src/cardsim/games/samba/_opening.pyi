# Typed surface of cardsim.games.samba._opening (the initial-meld searches; C-level only): no Python-level names.
