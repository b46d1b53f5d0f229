# Hearts: observation (vt.observe) and resampling (vt.resample) of the state in _state.pxd.
from cardsim.core._rng cimport Rng

cdef void ht_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int ht_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
