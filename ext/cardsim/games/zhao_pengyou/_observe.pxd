# Zhao Pengyou observation (vt.observe) and resampling (vt.resample).
from cardsim.core._rng cimport Rng

cdef void zp_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int zp_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
