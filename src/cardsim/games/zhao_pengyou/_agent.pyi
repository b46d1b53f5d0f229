# Typed surface of cardsim.games.zhao_pengyou._agent (the greedy agent; C-level only).
