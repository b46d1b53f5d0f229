# Samba legal-move generation (docs/rules/samba.md §4): the vtable's `legal` (the draw phase's
# actions are _state's draw_legal) and the meld phase's generator, which resample's world check
# uses too (_observe).
from cardsim.core._types cimport uint64_t
from cardsim.core._actions cimport ActionSet
from cardsim.games.samba._rules cimport SBConfig
from cardsim.games.samba._state cimport SBState

cdef int meld_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil
cdef int meld_legal_generic(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil
cdef int sb_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
# (declared so that gcc keeps them functions of their own: the callers' hot paths keep small
# frames; _legal_paths.pxi)
cdef uint64_t suit_adds_search(const SBState* s, const SBConfig* c, int side, int hsize, int ssize, uint64_t st,
                               int su, uint64_t rest) noexcept nogil
