# Typed surface of cardsim.games.tien_gow._agent: C kernels only (the vtable's greedy agent).
