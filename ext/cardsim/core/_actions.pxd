# Legal-action sets as bitsets over a game's fixed action space 0..num_actions-1.
# Functions take nw, the number of 64-bit words the game uses (ceil(num_actions / 64)), so a
# small game never touches the unused words.
from cardsim.core._types cimport uint64_t, MAX_ACTION_WORDS
from cardsim.core._bits cimport cs_popcount, cs_ctz, bit_nth, bit_below

ctypedef struct ActionSet:
    uint64_t w[16]           # MAX_ACTION_WORDS words; bit a%64 of w[a/64] = action a legal

cdef inline void as_clear(ActionSet* s, int nw) noexcept nogil:
    cdef int i
    for i in range(nw):
        s.w[i] = 0

cdef inline void as_add(ActionSet* s, int a) noexcept nogil:
    s.w[a >> 6] |= (<uint64_t>1) << (a & 63)

cdef inline void as_remove(ActionSet* s, int a) noexcept nogil:
    s.w[a >> 6] &= ~((<uint64_t>1) << (a & 63))

cdef inline void as_add_range(ActionSet* s, int lo, int hi) noexcept nogil:
    """Add every action in [lo, hi), a word at a time."""
    cdef int wlo, whi, i
    if lo >= hi:
        return
    wlo = lo >> 6
    whi = (hi - 1) >> 6
    if wlo == whi:
        s.w[wlo] |= bit_below(hi - (wlo << 6)) & ~bit_below(lo & 63)
        return
    s.w[wlo] |= ~bit_below(lo & 63)
    for i in range(wlo + 1, whi):
        s.w[i] = <uint64_t>0xFFFFFFFFFFFFFFFF
    s.w[whi] |= bit_below(hi - (whi << 6))

cdef inline void as_add_mask(ActionSet* s, int base, uint64_t mask) noexcept nogil:
    """Add action base+k for every bit k of mask (base a multiple of 64 is fastest)."""
    cdef int sh = base & 63
    s.w[base >> 6] |= mask << sh
    if sh and (mask >> (64 - sh)):
        s.w[(base >> 6) + 1] |= mask >> (64 - sh)

cdef inline bint as_has(const ActionSet* s, int a) noexcept nogil:
    return (s.w[a >> 6] >> (a & 63)) & 1

cdef inline int as_count(const ActionSet* s, int nw) noexcept nogil:
    cdef int i, n = 0
    for i in range(nw):
        n += cs_popcount(s.w[i])
    return n

cdef inline int as_first(const ActionSet* s, int nw) noexcept nogil:
    """Lowest action in the set, -1 if empty."""
    cdef int i
    for i in range(nw):
        if s.w[i]:
            return (i << 6) + cs_ctz(s.w[i])
    return -1

cdef inline int as_nth(const ActionSet* s, int nw, int n) noexcept nogil:
    """The n-th (0-based, ascending) action of the set; -1 if it has n or fewer."""
    cdef int i, c
    for i in range(nw):
        c = cs_popcount(s.w[i])
        if n < c:
            return (i << 6) + bit_nth(s.w[i], n)
        n -= c
    return -1
