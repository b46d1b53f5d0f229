# Bit tricks on 64-bit words (gcc builtins), all inline and nogil.
from cardsim.core._types cimport uint64_t

cdef extern from *:
    """
    #ifndef CARDSIM_CHECKS
    #define CARDSIM_CHECKS 0
    #endif
    #define cs_popcount(x) __builtin_popcountll(x)
    #ifdef __POPCNT__
    #define CARDSIM_POPCNT_BUILT 1    /* compiled with -mpopcnt: cs_popcount is one instruction */
    #else
    #define CARDSIM_POPCNT_BUILT 0
    #endif
    #define cs_ctz(x) __builtin_ctzll(x)
    #define cs_clz(x) __builtin_clzll(x)

    /* PDEP (BMI2) selects the n-th set bit in one instruction: ctz(pdep(1 << n, x)). The package
       is built for any x86-64 (-mpopcnt only), so it is used only where the CPU has it and
       executes it fast, decided once per module at load time: Intel with BMI2, AMD from family
       19h (Zen 3; Zen 1 and 2 run PDEP in microcode, tens to hundreds of cycles). Elsewhere, and
       off x86-64, bit_nth keeps its portable loop. Both give the same bit. The environment
       variable CARDSIM_NO_PDEP (set and not "0" when the package loads) keeps the loop too: to
       compare the two on one machine. */
    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CARDSIM_NO_PDEP)
    #include <cpuid.h>
    #include <stdlib.h>
    static int cs_fast_pdep = 0;
    __attribute__((constructor)) static void cs_detect_pdep(void) {
        unsigned a, b, c, d, family, vendor_b, vendor_d;
        const char *off = getenv("CARDSIM_NO_PDEP");
        if (off && *off && !(off[0] == '0' && off[1] == 0)) return;
        if (!__get_cpuid(0, &a, &vendor_b, &c, &vendor_d) || a < 7) return;
        __get_cpuid(1, &a, &b, &c, &d);
        family = ((a >> 8) & 0xF) + (((a >> 8) & 0xF) == 0xF ? ((a >> 20) & 0xFF) : 0);
        __cpuid_count(7, 0, a, b, c, d);
        if (!((b >> 8) & 1)) return;                                  /* no BMI2 */
        if (vendor_b == 0x756E6547u && vendor_d == 0x49656E69u)       /* "GenuineIntel" */
            cs_fast_pdep = 1;
        else if (vendor_b == 0x68747541u && vendor_d == 0x69746E65u)  /* "AuthenticAMD" */
            cs_fast_pdep = family >= 0x19;
    }
    static inline int cs_pdep_nth(unsigned long long x, int n) {
        unsigned long long r;
        __asm__("pdepq %2, %1, %0" : "=r"(r) : "r"(1ULL << n), "rm"(x));
        return __builtin_ctzll(r);
    }
    #else
    static const int cs_fast_pdep = 0;
    static inline int cs_pdep_nth(unsigned long long x, int n) { (void)x; (void)n; return -1; }
    #endif
    """
    const int CARDSIM_CHECKS             # 1 in a checks build (bounds checks, C asserts)
    const int CARDSIM_POPCNT_BUILT       # 1 when compiled with -mpopcnt (CMake's CARDSIM_POPCNT, x86-64)
    int cs_popcount(uint64_t x) nogil    # number of set bits
    int cs_ctz(uint64_t x) nogil         # index of the lowest set bit (x != 0)
    int cs_clz(uint64_t x) nogil         # leading zeros (x != 0)
    int cs_fast_pdep                     # 1 where bit_nth uses PDEP (set at module load)
    int cs_pdep_nth(uint64_t x, int n) nogil   # bit_nth by PDEP (only where cs_fast_pdep)

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
    n == 0 is the lowest bit; where the CPU executes PDEP fast (cs_fast_pdep, set at load), one
    PDEP; else bit_nth_portable. Every path gives the same bit (tests/test_core.py checks them
    against each other and against Python)."""
    if n == 0:
        return cs_ctz(x)
    if cs_fast_pdep:
        return cs_pdep_nth(x, n)
    return bit_nth_portable(x, n)

cdef inline int bit_nth_portable(uint64_t x, int n) noexcept nogil:
    """bit_nth without PDEP: clears the n lowest bits when n < 4; else halves the word by
    popcount down to a byte, then clears low bits (<= 7 steps), so the cost does not grow with n
    (random agents pick among up to ~100 actions)."""
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
