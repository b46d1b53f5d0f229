# Tien Gow greedy agent: the vtable's `greedy` entry (cimported by _spec only).
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int tg_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil
