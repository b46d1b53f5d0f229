# Typed surface of cardsim.games.six_tigers._observe: none (C-level only, cimported by _spec).
