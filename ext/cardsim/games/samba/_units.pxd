# Samba's constructive meld builder (the value an initial batch may count on from a rest of the hand).
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.games.samba._rules cimport SBConfig

cdef int sb_best_value(const int8_t* H, int budget, const SBConfig* c, uint64_t* wit, int target) noexcept nogil
