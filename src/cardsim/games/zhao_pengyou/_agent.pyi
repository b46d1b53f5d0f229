# Typed surface of cardsim.games._zhao_pengyou_greedy (the greedy agent; C-level only).
