# Hakka Six Tigers: resample (what an observer cannot see) and the greedy agent.
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int st_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
cdef int st_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil
