# Samba observation (vt.observe) and resampling (vt.resample); see _observe.pyx.
from cardsim.core._rng cimport Rng

cdef void sb_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int sb_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
