# core/_play_loop.pxi's fused-random-play hooks for a game that has none (every step through the
# loop): include this just before _play_loop.pxi. _pl_fused_ok is False, so the compiler drops the
# loop's call through _pl_fused_ptr (a game that fuses includes core/_play_loop_fused.pxi instead).
from cardsim.core._fused cimport fused_fn

cdef inline bint _pl_fused_ok(const void* cfg, const int* agents) noexcept nogil:
    return False

cdef fused_fn _pl_fused_ptr = NULL
