# Joffre Whist: observation (vt.observe) and resample (vt.resample).
from cardsim.core._rng cimport Rng

cdef void jw_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int jw_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
