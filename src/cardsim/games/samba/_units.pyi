# Typed surface of cardsim.games.samba._units (the constructive meld builder; C-level only): no Python-level names.
