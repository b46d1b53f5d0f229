# Zhao Pengyou Python face (docs/rules/zhao_pengyou.md): the card and config helpers the oracles
# module (_zhao_pengyou_oracles) cimports.
from cardsim.core._hand cimport Hand
from cardsim.games._zhao_pengyou_rules cimport ZPConfig

cdef list hand_to_list(const Hand* h)
cdef void fill_config(ZPConfig* c, dict opts, dict table) except *
cdef void _fill(Hand* h, ids)
cdef int cards_to_hand(cards, Hand* h, what=*) except -1
