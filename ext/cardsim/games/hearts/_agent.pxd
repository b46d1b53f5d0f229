# Hearts: the greedy agent (vt.greedy).
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int ht_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil
