# Typed surface of cardsim.games.zhao_pengyou._observe (observation and resampling; C-level only).
