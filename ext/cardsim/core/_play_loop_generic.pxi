# The generic instantiation of the hot loop (core/_play_loop.pxi): every step through the vtable,
# no fused random play. core/_batch_kernel.pxi includes it (play_one's loop for a game without its
# own) and core/_testing.pyx (the _play_paths hook, which plays a state by it and by the game's own
# copy). The including module has cimported what _play_loop.pxi names.

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return vt.legal(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return vt.current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    vt.apply(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return nw

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return False                            # the words are known only at run time: as_nth

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
