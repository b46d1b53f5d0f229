# Seeded, executor-independent randomness (DESIGN §3).
#
# FROZEN STREAM: rng_seed + rng_next + rng_below define every deal of every game. Changing any
# of them changes every deal and is a breaking change (tests/test_rng.py pins known answers).
from cardsim.core._types cimport uint32_t, uint64_t

ctypedef struct Rng:
    uint64_t s[4]            # xoshiro256** state (never all zero)

cdef enum:
    STREAM_DEAL = 0          # stream of the deal itself (shuffles, later draws)
    STREAM_SEAT0 = 1         # agent of seat p draws from stream STREAM_SEAT0 + p
    STREAM_RESAMPLE = 0x100  # state.resample(p, seed) uses STREAM_RESAMPLE + p

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """SplitMix64 step: advance *x and return a well-mixed 64-bit value."""
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint64_t rng_deal_key(uint64_t seed, uint64_t deal) noexcept nogil:
    """The key of deal (seed, deal) that every stream of the deal starts from (rng_seed's first
    two steps): a kernel seeding several streams of one deal computes it once."""
    cdef uint64_t x = seed
    cdef uint64_t k = splitmix64(&x)
    x = k ^ deal
    return splitmix64(&x)

cdef inline void rng_seed_keyed(Rng* r, uint64_t key, uint64_t stream) noexcept nogil:
    """Stream `stream` of the deal whose rng_deal_key is `key`: rng_seed's last steps."""
    cdef uint64_t x = key ^ stream
    cdef uint64_t k = splitmix64(&x)
    x = k
    r.s[0] = splitmix64(&x)
    r.s[1] = splitmix64(&x)
    r.s[2] = splitmix64(&x)
    r.s[3] = splitmix64(&x)

cdef inline void rng_seed(Rng* r, uint64_t seed, uint64_t deal, uint64_t stream) noexcept nogil:
    """Key a generator by (seed, deal, stream) only: the same triple gives the same stream on
    any thread, worker or machine."""
    rng_seed_keyed(r, rng_deal_key(seed, deal), stream)

cdef inline uint64_t rotl64(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """xoshiro256**: next 64 random bits."""
    cdef uint64_t result = rotl64(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = rotl64(r.s[3], 45)
    return result

cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1: Lemire's multiply-shift on the top 32 bits, with
    rejection, so it is exactly unbiased."""
    cdef uint64_t m = (rng_next(r) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t
    if low < n:
        t = (<uint32_t>(0 - n)) % n
        while low < t:
            m = (rng_next(r) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)
