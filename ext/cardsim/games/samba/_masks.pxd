# Samba legal-move closed forms on the packed hands' bit masks (docs/rules/samba.md §4): the
# kind masks, per-rank count thresholds by popcount, and the ADD decisions of an opened side that
# _legal takes without the hand's count vector (see _masks.pyx).
from cardsim.core._types cimport int8_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._hand cimport Hand
from cardsim.games.samba._rules cimport SBConfig, SB_JK, SB_JK2
from cardsim.games.samba._state cimport SBState

cdef uint64_t opened_empty_adds(const SBState* s, const SBConfig* c, int side, int hsize,
                                uint64_t* cand) noexcept nogil
cdef uint64_t opened_group_adds(const SBState* s, const SBConfig* c, int side, int srank, int sn, int sw,
                                int hsize, uint64_t* cand) noexcept nogil
cdef uint64_t opened_seq_adds(const SBState* s, int side, uint64_t smask, int su, int hsize,
                              uint64_t* cand) noexcept nogil

cdef inline void rank_counts(const Hand* h, uint32_t* r1, uint32_t* r2, uint32_t* r3) noexcept nogil:
    """The ranks (bit r) of which h holds >= 1 / >= 2 / >= 3 cards over the four suits. Layer i
    of a kind is the thermometer bit 'more than i copies', so two thermometers add saturating at
    3 as (a1|b1, a2|b2|a1&b1, a3|b3|a2&b1|a1&b2): first suits 0+2 and 1+3 in 26-bit lanes, then
    the two lanes (the joker bits 52/53 fall outside both lanes); layer 3 never changes a
    threshold <= 3 (it lies inside layer 2)."""
    cdef uint64_t M = (<uint64_t>1 << 26) - 1
    cdef uint64_t a1 = h.layer[0] & M, a2 = h.layer[1] & M, a3 = h.layer[2] & M
    cdef uint64_t b1 = (h.layer[0] >> 26) & M, b2 = (h.layer[1] >> 26) & M, b3 = (h.layer[2] >> 26) & M
    cdef uint64_t c1 = a1 | b1, c2 = a2 | b2 | (a1 & b1), c3 = a3 | b3 | (a2 & b1) | (a1 & b2)
    cdef uint32_t d1 = c1 & 0x1FFF, d2 = c2 & 0x1FFF, d3 = c3 & 0x1FFF
    cdef uint32_t e1 = c1 >> 13, e2 = c2 >> 13, e3 = c3 >> 13
    r1[0] = d1 | e1
    r2[0] = d2 | e2 | (d1 & e1)
    r3[0] = d3 | e3 | (d2 & e1) | (d1 & e2)
