# Dealing mechanisms shared by every game: shuffles of the keyed deal stream and the constrained
# deal used by the resample policy (_resample.pxd).
#
# FROZEN DRAW ORDERS: `shuffle` is the Fisher-Yates every game has always used (i from n-1 down
# to 1, j = rng_below(i + 1)); `shuffle_prefix` is the partial form (i from 0 up to k-1,
# j = i + rng_below(n - i)). Changing either changes every deal (golden playthroughs).
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
