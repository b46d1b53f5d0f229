# Zhao Pengyou shengji-compatible formats (issue 17; docs/rules/zhao_pengyou.md "Shengji's rules"):
# TrickFormat::from_cards, its decomposition orderings and format matching, on packed hands (nogil).
# Card order, trump order and the basic types come from _rules.pxd.
from cardsim.core._types cimport int8_t
from cardsim.core._hand cimport Hand
from cardsim.games.zhao_pengyou._rules cimport ZPTrump, ZPConfig, ZPFormat

ctypedef struct Req:
    int ns                   # shapes
    int slen[48]             # members of each shape (1 = a tuple)
    int soff[48]             # offset of its tuple sizes in vals
    int nv
    int8_t vals[96]


ctypedef struct DecIt:
    int nu
    int ucnt[32]
    int ulen[32]
    int pos[32]
    int end[32]
    int cur[32]
    int can[32]
    int h[32]
    int first


cdef int zp_fmt_size(const ZPFormat* F) noexcept nogil
cdef bint rank_rainbow(const ZPTrump* t, const ZPConfig* c, const Hand* h, int r) noexcept nogil
cdef bint zp_rainbow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* P) noexcept nogil
cdef int zp_mixed_format(const ZPTrump* t, const ZPConfig* c, const Hand* P, ZPFormat* F) noexcept nogil
cdef int zp_fmt_largest(const ZPFormat* F) noexcept nogil
cdef void zp_fmt_unit_cards(const ZPTrump* t, const ZPFormat* F, const Hand* lead, int u,
                            Hand* out) noexcept nogil
cdef void zp_fmt_force(ZPFormat* F, int u) noexcept nogil
cdef int zp_mixed_blocker(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int leader,
                          const ZPFormat* F, int* unit) noexcept nogil
cdef bint fm_match(const ZPTrump* t, const int* counts, const int* ids, int nids, const Req* r, bint exact,
                   const int* cover) noexcept nogil
cdef void dec_init(DecIt* it, const ZPFormat* F, bint include_new) noexcept nogil
cdef bint dec_next(DecIt* it, Req* r) noexcept nogil
