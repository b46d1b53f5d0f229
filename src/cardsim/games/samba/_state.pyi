# Typed surface of cardsim.games.samba._state (the state struct and the state machine; C-level only): no Python-level names.
