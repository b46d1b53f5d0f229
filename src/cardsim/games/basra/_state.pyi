# Typed surface of cardsim.games.basra._state: the state machine's kernels are C-level only.
