# Typed surface of cardsim.games.tien_gow._observe: C kernels only (the vtable's observe and resample).
