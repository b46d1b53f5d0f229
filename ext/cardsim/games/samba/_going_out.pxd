# Samba going-out searches (docs/rules/samba.md §4.0 HG, §4.3 initial meld, §4.4 GO_OUT_QUERY):
# the exact initial-batch search, canasta-aware (x_free), and the going-out plan feasibility
# (sb_go_out_*). Pure rules on count vectors, meld records and the config; only the types and the
# inline helpers of _rules.pxd are used (_opening cimports x_free and sb_canasta_bound from here).
from cardsim.core._types cimport int8_t
from cardsim.games.samba._rules cimport SBConfig, Meld

cdef bint x_free(const int8_t* H, int budget, int need, int K, const SBConfig* c) noexcept nogil
cdef int sb_canasta_bound(const int8_t* A, const int8_t* B) noexcept nogil
cdef int sb_go_out_ok(const Meld* melds, const int8_t* S, const int8_t* H, int need,
                      const SBConfig* c) noexcept nogil
cdef int sb_go_out_placed(const Meld* melds, const int8_t* S, int target, const int8_t* H, int need,
                          const SBConfig* c) noexcept nogil
cdef int sb_go_out_merged(const Meld* melds, int a, int b, const int8_t* H, int need,
                          const SBConfig* c) noexcept nogil
