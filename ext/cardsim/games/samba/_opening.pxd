# Samba initial-meld searches (docs/rules/samba.md §4.0, §4.3): can a batch still reach the
# side's minimum? Count vectors only (no state struct); see _opening.pyx.
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.games.samba._rules cimport SBConfig

cdef int sb_value_bound(const int8_t* A, const int8_t* B) noexcept nogil
cdef int sb_opening_ok(const int8_t* S, const int8_t* H, int need, int extra, int min_nat,
                       const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil
cdef int sb_opening_ok_si(const int8_t* S, uint64_t mask, int n, int v, const int8_t* H, int hn, int need,
                          int extra, int min_nat, const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil
cdef int sb_opening_out(const int8_t* S, const int8_t* H, int need, int min_nat, int K,
                        const SBConfig* c) noexcept nogil

cdef inline bint opening_ok(const int8_t* S, const int8_t* H, int need, int extra, int min_nat, int K, bint mo,
                            const SBConfig* c, uint64_t* wit, bint rest_too) noexcept nogil:
    """An initial batch completing the stage S reaches `need` keeping 2 cards in hand, or (the
    partner not having said no) holds K more canastas and may empty the hand (HG, §4.0). wit (may
    be NULL): kinds the batch found shows completable too (sb_opening_ok)."""
    return (sb_opening_ok(S, H, need, extra, min_nat, c, wit, rest_too) != 0
            or (mo and sb_opening_out(S, H, need, min_nat, K, c) != 0))
cdef bint groups_fit(const int8_t* R, int budget, int target) noexcept nogil
