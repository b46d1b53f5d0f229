# Bit tricks on 64-bit words (gcc builtins), all inline and nogil.
from cardsim.core._types cimport uint64_t

cdef extern from *:
    """
    #ifndef CARDSIM_CHECKS
    #define CARDSIM_CHECKS 0
    #endif
    #define cs_popcount(x) __builtin_popcountll(x)
    #define cs_ctz(x) __builtin_ctzll(x)
    #define cs_clz(x) __builtin_clzll(x)
    """
    const int CARDSIM_CHECKS             # 1 in a checks build (bounds checks, C asserts)
    int cs_popcount(uint64_t x) nogil    # number of set bits
    int cs_ctz(uint64_t x) nogil         # index of the lowest set bit (x != 0)
    int cs_clz(uint64_t x) nogil         # leading zeros (x != 0)

cdef inline uint64_t card_bit(int c) noexcept nogil:
    """The one-bit mask of card (or tile, or slot) id c, 0 <= c < 64: a card set is a mask."""
    return (<uint64_t>1) << c

cdef inline int bit_low(uint64_t x) noexcept nogil:
    """Index of the lowest set bit of x (x != 0)."""
    return cs_ctz(x)

cdef inline int bit_high(uint64_t x) noexcept nogil:
    """Index of the highest set bit of x (x != 0)."""
    return 63 - cs_clz(x)

cdef inline uint64_t bit_below(int k) noexcept nogil:
    """Mask of bits 0..k-1 (k in 0..64)."""
    if k >= 64:
        return <uint64_t>0xFFFFFFFFFFFFFFFF
    return ((<uint64_t>1) << k) - 1

cdef inline int bit_nth(uint64_t x, int n) noexcept nogil:
    """Index of the n-th (0-based, ascending) set bit of x; x has more than n bits set.
    Clears the n lowest bits when n < 4; else halves the word by popcount down to a byte, then
    clears low bits (<= 7 steps), so the cost does not grow with n (random agents pick among up to ~100 actions)."""
    cdef int base = 0, c
    if n < 4:                    # the commonest draws: clear the n lowest bits
        while n > 0:
            x &= x - 1
            n -= 1
        return cs_ctz(x)
    c = cs_popcount(x & <uint64_t>0xFFFFFFFF)
    if n >= c:
        n -= c
        x >>= 32
        base = 32
    c = cs_popcount(x & <uint64_t>0xFFFF)
    if n >= c:
        n -= c
        x >>= 16
        base += 16
    c = cs_popcount(x & <uint64_t>0xFF)
    if n >= c:
        n -= c
        x >>= 8
        base += 8
    while n > 0:
        x &= x - 1
        n -= 1
    return base + cs_ctz(x)

cdef inline void put_bits(float* o, uint64_t m) noexcept nogil:
    """o[k] = 1.0 for every set bit k of m (one-hot blocks of observations)."""
    while m:
        o[cs_ctz(m)] = 1.0
        m &= m - 1
