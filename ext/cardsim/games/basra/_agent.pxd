# Basra: the greedy agent (cimported by _spec for the vtable).
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int ba_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal, Rng* rng) noexcept nogil
