# Dealing mechanisms shared by every game: shuffles of the keyed deal stream, the deal as drawn
# (those shuffles with each card dealt as its draw fixes it) and the constrained deal used by the
# resample policy (_resample.pxd).
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

# ---- deal as drawn: the frozen shuffles with each card dealt to its seat as its draw fixes it ----
# A step of `shuffle` (step i: j = rng_below(i + 1), swap a[i], a[j]) leaves position i final: later
# steps touch only a[0..i-1]. So a deal that gives pack position i to a seat can take each card as
# its draw fixes it, skip the swap's other half (a[j] = a[i] only) and never read the pack back.
# Likewise shuffle_prefix's step i fixes position i. A game's deal is a few runs of positions, each
# dealt round the table (deal_down / deal_up), and single draws where a card's identity matters
# (draw_down / draw_up); the same draws and the same deal as shuffled_pack (or fill_identity +
# shuffle_prefix) and then dealing pack position i to seat_of(i). Pass nseats (and the run's
# bounds) as compile-time constants: the inlined round is then specialised, its hands in
# registers; tests/test_core.py checks every form against the pack dealt position by position.
cdef enum:
    DEAL_MAX_SEATS = 6     # deal_down / deal_up: 1 <= nseats <= 6

cdef inline int _draw_down(card_t* a, int i, Rng* r) noexcept nogil:
    """draw_down for i >= 1 (no test for position 0)."""
    cdef int j = <int>rng_below(r, i + 1)
    cdef int x = a[j]
    a[j] = a[i]
    return x

cdef inline int draw_down(card_t* a, int i, Rng* r) noexcept nogil:
    """Step i of `shuffle` (the steps run i = n-1 down to 0 on a fresh pack a[0..n-1]), the card
    taken as drawn: returns the card position i holds for good (j = rng_below(i + 1), a[j]; at
    i = 0, a[0] with no draw) and moves a[i] into its place (a[i] is never read again)."""
    if i == 0:
        return a[0]
    return _draw_down(a, i, r)

cdef inline void _add_hands(uint64_t* hand, int nseats, uint64_t h0, uint64_t h1, uint64_t h2,
                            uint64_t h3, uint64_t h4, uint64_t h5) noexcept nogil:
    """hand[k] |= h<k> for k < nseats (the round's hands, kept in registers while dealing)."""
    hand[0] |= h0
    if nseats > 1:
        hand[1] |= h1
    if nseats > 2:
        hand[2] |= h2
    if nseats > 3:
        hand[3] |= h3
    if nseats > 4:
        hand[4] |= h4
    if nseats > 5:
        hand[5] |= h5

cdef inline void deal_down(uint64_t* hand, card_t* a, int hi, int lo, int nseats,
                           Rng* rng) noexcept nogil:
    """Deal as drawn, down: `shuffle`'s steps for positions hi, hi-1, ..., lo (n-1 >= hi >= lo >=
    0; the steps above hi already done on a, as draw_down/deal_down leave it), round the table:
    the d-th card drawn (position hi - d) is added to hand[d % nseats], 1 <= nseats <= 6. The
    masks are added to, not cleared. On a fresh pack, runs and draw_downs from position n-1 down
    to 0 make exactly shuffled_pack's n - 1 draws and deal pack position i to its seat."""
    cdef Rng r = rng[0]                 # local copy of the stream (see shuffle)
    cdef uint64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0
    cdef int i = hi
    while i - nseats >= lo:             # whole rounds, all above position lo (so never 0)
        h0 |= (<uint64_t>1) << _draw_down(a, i, &r)
        if nseats > 1:
            h1 |= (<uint64_t>1) << _draw_down(a, i - 1, &r)
        if nseats > 2:
            h2 |= (<uint64_t>1) << _draw_down(a, i - 2, &r)
        if nseats > 3:
            h3 |= (<uint64_t>1) << _draw_down(a, i - 3, &r)
        if nseats > 4:
            h4 |= (<uint64_t>1) << _draw_down(a, i - 4, &r)
        if nseats > 5:
            h5 |= (<uint64_t>1) << _draw_down(a, i - 5, &r)
        i -= nseats
    h0 |= (<uint64_t>1) << draw_down(a, i, &r)  # the last round: positions i..lo (1 to nseats)
    if nseats > 1 and i - 1 >= lo:
        h1 |= (<uint64_t>1) << draw_down(a, i - 1, &r)
    if nseats > 2 and i - 2 >= lo:
        h2 |= (<uint64_t>1) << draw_down(a, i - 2, &r)
    if nseats > 3 and i - 3 >= lo:
        h3 |= (<uint64_t>1) << draw_down(a, i - 3, &r)
    if nseats > 4 and i - 4 >= lo:
        h4 |= (<uint64_t>1) << draw_down(a, i - 4, &r)
    if nseats > 5 and i - 5 >= lo:
        h5 |= (<uint64_t>1) << draw_down(a, i - 5, &r)
    rng[0] = r
    _add_hands(hand, nseats, h0, h1, h2, h3, h4, h5)

cdef inline int draw_up(card_t* a, int n, int i, Rng* r) noexcept nogil:
    """Step i of shuffle_prefix(a, n, k) (the steps run i = 0 up to k-1), the card taken as
    drawn: returns the card position i holds for good (a[i + rng_below(n - i)]) and moves a[i]
    into its place (a[i] is never read again). 0 <= i < n."""
    cdef int j = i + <int>rng_below(r, n - i)
    cdef int x = a[j]
    a[j] = a[i]
    return x

cdef inline void deal_up(uint64_t* hand, card_t* a, int n, int lo, int hi, int nseats,
                         Rng* rng) noexcept nogil:
    """Deal as drawn, up: shuffle_prefix's steps for positions lo, lo+1, ..., hi-1 (0 <= lo <= hi
    <= n; the steps below lo already done on a), round the table: the d-th card drawn (position
    lo + d) is added to hand[d % nseats], 1 <= nseats <= 6. The masks are added to, not
    cleared. On a fresh pack, runs and draw_ups from position 0 up to k-1 make exactly
    shuffle_prefix(a, n, k)'s k draws and deal pack position i to its seat."""
    cdef Rng r = rng[0]                 # local copy of the stream (see shuffle)
    cdef uint64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0
    cdef int i = lo
    while i + nseats <= hi:             # whole rounds
        h0 |= (<uint64_t>1) << draw_up(a, n, i, &r)
        if nseats > 1:
            h1 |= (<uint64_t>1) << draw_up(a, n, i + 1, &r)
        if nseats > 2:
            h2 |= (<uint64_t>1) << draw_up(a, n, i + 2, &r)
        if nseats > 3:
            h3 |= (<uint64_t>1) << draw_up(a, n, i + 3, &r)
        if nseats > 4:
            h4 |= (<uint64_t>1) << draw_up(a, n, i + 4, &r)
        if nseats > 5:
            h5 |= (<uint64_t>1) << draw_up(a, n, i + 5, &r)
        i += nseats
    if i < hi:                          # a last, short round: positions i..hi-1 (fewer than
        h0 |= (<uint64_t>1) << draw_up(a, n, i, &r)   # nseats, so seat k needs nseats > k + 1)
        if nseats > 2 and i + 1 < hi:
            h1 |= (<uint64_t>1) << draw_up(a, n, i + 1, &r)
        if nseats > 3 and i + 2 < hi:
            h2 |= (<uint64_t>1) << draw_up(a, n, i + 2, &r)
        if nseats > 4 and i + 3 < hi:
            h3 |= (<uint64_t>1) << draw_up(a, n, i + 3, &r)
        if nseats > 5 and i + 4 < hi:
            h4 |= (<uint64_t>1) << draw_up(a, n, i + 4, &r)
    rng[0] = r
    _add_hands(hand, nseats, h0, h1, h2, h3, h4, h5)

cdef inline void shuffle_deal_four(uint64_t* hand, int n, int first, Rng* rng) noexcept nogil:
    """shuffled_pack(a, n) then deal_round_robin(a, n, hand, 4, first, 1), dealt as drawn: a
    fresh pack of n cards (n a multiple of 4, 4 <= n <= 64), pack position i to seat
    (first + i) % 4, i.e. deal_down over positions n-1..0 with four seats (the d-th card drawn,
    position n-1-d, to seat (first + 3 - d) % 4). The same draws and the same hands as the two
    calls; hand[0..3] is overwritten."""
    cdef card_t a[64]
    cdef uint64_t h[4]
    h[0] = 0; h[1] = 0; h[2] = 0; h[3] = 0
    memcpy(a, cs_identity_pack64, n)
    deal_down(h, a, n - 1, 0, 4, rng)
    hand[(first + 3) & 3] = h[0]
    hand[(first + 2) & 3] = h[1]
    hand[(first + 1) & 3] = h[2]
    hand[first & 3] = h[3]

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
