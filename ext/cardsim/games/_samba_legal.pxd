# Samba legal-move generation (docs/rules/samba.md §4): the vtable's `legal` and the two phase
# generators the state machine uses (the automatic end of a deal, resample's world check).
from cardsim.core._actions cimport ActionSet
from cardsim.games._samba_rules cimport SBConfig
from cardsim.games._samba_state cimport SBState

cdef int draw_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil
cdef int meld_legal(const SBState* s, const SBConfig* c, ActionSet* out) noexcept nogil
cdef int sb_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
