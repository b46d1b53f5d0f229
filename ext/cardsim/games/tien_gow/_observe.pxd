# Tien Gow observation (vt.observe) and resample (vt.resample): cimported by _spec only.
from cardsim.core._rng cimport Rng

cdef void tg_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int tg_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
