# Dealing mechanisms shared by every game: shuffles of the keyed deal stream and the constrained
# deal used by the resample policy (_resample.pxd).
#
# FROZEN DRAW ORDERS: `shuffle` is the Fisher-Yates every game has always used (i from n-1 down
# to 1, j = rng_below(i + 1)); `shuffle_prefix` is the partial form (i from 0 up to k-1,
# j = i + rng_below(n - i)). Changing either changes every deal (golden playthroughs).
from libc.string cimport memcpy
from cardsim.core._types cimport card_t, uint8_t, uint32_t, uint64_t
from cardsim.core._rng cimport Rng, rng_below

cdef inline void shuffle(card_t* a, int n, Rng* rng) noexcept nogil:
    """Fisher-Yates: a uniform permutation of a[0..n-1] in place (n - 1 draws of the stream)."""
    cdef int i, j
    cdef card_t t
    cdef Rng r = rng[0]     # a local copy: the byte stores into a[] may alias *rng, which would
    for i in range(n - 1, 0, -1):   # make the compiler reload and store the stream for every card
        j = <int>rng_below(&r, i + 1)
        t = a[i]; a[i] = a[j]; a[j] = t
    rng[0] = r

cdef inline void shuffle_prefix(card_t* a, int n, int k, Rng* rng) noexcept nogil:
    """Partial Fisher-Yates: afterwards a[0..k-1] is a uniform k-permutation of the n entries
    (k draws; the rest a[k..n-1] holds the others in no guaranteed order). 0 <= k <= n."""
    cdef int i, j
    cdef card_t t
    cdef Rng r = rng[0]     # local copy of the stream (see shuffle)
    for i in range(k):
        j = i + <int>rng_below(&r, n - i)
        t = a[i]; a[i] = a[j]; a[j] = t
    rng[0] = r

cdef inline void fill_identity(card_t* a, int n) noexcept nogil:
    """a[i] = i for i < n (a fresh single pack before a shuffle)."""
    cdef int i
    for i in range(n):
        a[i] = <card_t>i

cdef inline void shuffled_pack(card_t* a, int n, Rng* rng) noexcept nogil:
    """A fresh single pack a[0..n-1] in shuffled order: fill_identity then shuffle (the draws of
    `shuffle`)."""
    fill_identity(a, n)
    shuffle(a, n, rng)

cdef extern from *:
    """
    static const unsigned char cs_identity_pack64[64] = {0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,
        18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,
        48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63};
    """
    const card_t cs_identity_pack64[64]   # cs_identity_pack64[i] = i: a fresh pack to memcpy

cdef inline void shuffle_deal_four(uint64_t* hand, int n, int first, Rng* rng) noexcept nogil:
    """shuffled_pack(a, n) then deal_round_robin(a, n, hand, 4, first, 1), fused: a fresh pack of n
    cards (n a multiple of 4, 4 <= n <= 64) shuffled by the frozen Fisher-Yates (i from n-1 down to
    1, j = rng_below(i + 1)) and dealt one card at a time to four seats from `first`, i.e. pack
    position i to seat (first + i) % 4. Position i is final once the step of i has swapped into it,
    so each card goes straight into a hand (four in registers) and the pack is never read back:
    the same draws and the same hands as the two calls. hand[0..3] is overwritten."""
    cdef card_t a[64]
    cdef Rng r = rng[0]              # local copy of the stream (see shuffle)
    cdef uint64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0
    cdef int i = n - 1, j
    memcpy(a, cs_identity_pack64, n)
    while i > 3:                     # positions i, i-1, i-2, i-3 (i % 4 == 3)
        j = <int>rng_below(&r, i + 1)
        h3 |= (<uint64_t>1) << a[j]
        a[j] = a[i]
        j = <int>rng_below(&r, i)
        h2 |= (<uint64_t>1) << a[j]
        a[j] = a[i - 1]
        j = <int>rng_below(&r, i - 1)
        h1 |= (<uint64_t>1) << a[j]
        a[j] = a[i - 2]
        j = <int>rng_below(&r, i - 2)
        h0 |= (<uint64_t>1) << a[j]
        a[j] = a[i - 3]
        i -= 4
    j = <int>rng_below(&r, 4)        # positions 3, 2, 1, then 0 (no draw)
    h3 |= (<uint64_t>1) << a[j]
    a[j] = a[3]
    j = <int>rng_below(&r, 3)
    h2 |= (<uint64_t>1) << a[j]
    a[j] = a[2]
    j = <int>rng_below(&r, 2)
    h1 |= (<uint64_t>1) << a[j]
    a[j] = a[1]
    h0 |= (<uint64_t>1) << a[0]
    rng[0] = r
    hand[first & 3] = h0
    hand[(first + 1) & 3] = h1
    hand[(first + 2) & 3] = h2
    hand[(first + 3) & 3] = h3

cdef inline void deal_round_robin(const card_t* pack, int n, uint64_t* hands, int nseats, int first,
                                  int batch) noexcept nogil:
    """Deal pack[0..n-1] round the table in batches: card i goes to seat
    (first + i // batch) % nseats (batch 1: one card at a time). `hands` are card masks (one bit
    per identity), added to, not cleared."""
    cdef int i, k = 0, seat = first % nseats
    for i in range(n):
        hands[seat] |= (<uint64_t>1) << pack[i]
        k += 1
        if k == batch:                  # next seat: no division per card
            k = 0
            seat += 1
            if seat == nseats:
                seat = 0

cdef inline int assign_zones(const card_t* cards, int n, const uint32_t* allowed, const int* room,
                             int nz, uint8_t* dest, Rng* rng) noexcept nogil:
    """Constrained random deal: put cards[i] into a zone z (0..nz-1, nz <= 32) whose bit is set in
    allowed[cards[i]] (indexed by card identity), zone z taking exactly room[z] cards (sum = n).
    Each card in turn goes to a random allowed zone with room left, weighted by that room, and
    dest[i] gets the zone. Returns 1, or 0 at a dead end (a card with no allowed zone left): the
    caller reshuffles `cards` and tries again. Not uniform over the consistent deals (the
    resample policy uses it only after exact rejection sampling has used its budget)."""
    cdef int cap[32]
    cdef int z, i, total, pick
    cdef uint32_t a
    for z in range(nz):
        cap[z] = room[z]
    for i in range(n):
        a = allowed[cards[i]]
        total = 0
        for z in range(nz):
            if cap[z] > 0 and (a >> z) & 1:
                total += cap[z]
        if total == 0:
            return 0
        pick = rng_below(rng, total)
        for z in range(nz):
            if cap[z] > 0 and (a >> z) & 1:
                if pick < cap[z]:
                    break
                pick -= cap[z]
        dest[i] = z
        cap[z] -= 1
    return 1
