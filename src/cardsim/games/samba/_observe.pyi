# Typed surface of cardsim.games.samba._observe (observation and resampling; C-level only): no Python-level names.
