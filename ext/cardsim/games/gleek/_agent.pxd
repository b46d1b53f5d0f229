# Gleek: the greedy agent (vt.greedy).
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef int gl_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil
