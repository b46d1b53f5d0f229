# Typed surface of cardsim.games.six_tigers._agent: none (C-level only, cimported by _spec).
