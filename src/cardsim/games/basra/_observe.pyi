# Typed surface of cardsim.games.basra._observe: the observation and resample kernels are C-level only.
