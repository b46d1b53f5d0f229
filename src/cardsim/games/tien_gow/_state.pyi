# Typed surface of cardsim.games.tien_gow._state: C kernels only (config, state struct, state machine).
