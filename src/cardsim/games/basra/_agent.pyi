# Typed surface of cardsim.games.basra._agent: the greedy agent is C-level only.
