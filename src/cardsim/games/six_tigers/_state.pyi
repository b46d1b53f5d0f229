# Typed surface of cardsim.games.six_tigers._state: none (C-level only, cimported by _spec).
