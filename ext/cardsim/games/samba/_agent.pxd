# Samba greedy agent (the vtable's `greedy`; policy in the module docstring).
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int sb_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal, Rng* rng) noexcept nogil
