# Dealing helpers shared by the games' resample kernels.
from cardsim.core._types cimport uint8_t, uint32_t
from cardsim.core._rng cimport Rng, rng_below

cdef inline int assign_zones(const uint8_t* cards, int n, const uint32_t* allowed, const int* room,
                             int nz, uint8_t* dest, Rng* rng) noexcept nogil:
    """Constrained random deal: put cards[i] into a zone z (0..nz-1, nz <= 32) whose bit is set in
    allowed[cards[i]] (indexed by card identity), zone z taking exactly room[z] cards (sum = n).
    Each card in turn goes to a random allowed zone with room left, weighted by that room, and
    dest[i] gets the zone. Returns 1, or 0 at a dead end (a card with no allowed zone left): the
    caller reshuffles `cards` and tries again. Used when plain rejection sampling (exactly uniform
    over consistent deals) keeps failing because many voids are known."""
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
