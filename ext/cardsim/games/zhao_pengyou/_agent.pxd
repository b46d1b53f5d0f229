# Zhao Pengyou greedy agent (the vtable's `greedy`).
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int zp_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil
