# Basra: the observation and resample kernels (cimported by _spec for the vtable).
from cardsim.core._rng cimport Rng

cdef void ba_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int ba_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
