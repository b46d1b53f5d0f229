# Zhao Pengyou shengji-compatible play (issue 17; docs/rules/zhao_pengyou.md "Shengji's rules"):
# is_legal_play (the draw policies, bombs, rainbows) and compute_winner (throw evaluation), nogil.
from cardsim.core._types cimport uint64_t
from cardsim.core._hand cimport Hand
from cardsim.games.zhao_pengyou._rules cimport ZPTrump, ZPConfig, ZPFormat

cdef bint zp_is_bomb(const Hand* P) noexcept nogil
cdef bint zp_mixed_follow_ok(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* full,
                             const Hand* play) noexcept nogil
cdef bint zp_mixed_completable(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* full,
                               const Hand* play) noexcept nogil
cdef uint64_t zp_mixed_follow_candidates(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F,
                                         const Hand* rest, const Hand* play, bint* check) noexcept nogil
cdef uint64_t zp_mixed_lead_candidates(const ZPTrump* t, const ZPConfig* c, const Hand* full,
                                       const Hand* P, const Hand* rest) noexcept nogil
cdef bint zp_mixed_lead_whole(const ZPTrump* t, const ZPConfig* c, const Hand* P) noexcept nogil
cdef int zp_mixed_winner(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* plays,
                         int n) noexcept nogil
cdef bint zp_fmt_matches(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* P) noexcept nogil
