# Typed surface of cardsim.games.samba._masks (the closed-form ADD decisions; C-level only): no Python-level names.
