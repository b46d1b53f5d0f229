# Typed surface of cardsim.games._tien_gow_greedy: C kernels only (the vtable's greedy agent).
