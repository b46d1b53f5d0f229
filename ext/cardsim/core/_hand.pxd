# Packed multi-deck hand (DESIGN §3): bit k of layer[i] is set iff the hand holds more than i
# copies of identity k. layer[1] = identities held at least twice, and so on.
from cardsim.core._types cimport uint64_t, MAXCOPY
from cardsim.core._bits cimport cs_popcount, cs_ctz

ctypedef struct Hand:
    uint64_t layer[4]        # MAXCOPY layers; layer[i] superset of layer[i+1]

cdef inline void hand_clear(Hand* h) noexcept nogil:
    h.layer[0] = 0
    h.layer[1] = 0
    h.layer[2] = 0
    h.layer[3] = 0

cdef inline void hand_add(Hand* h, int k) noexcept nogil:
    """Add one copy of identity k: set the lowest clear layer (no-op past MAXCOPY copies).
    Unrolled over the MAXCOPY = 4 layers (a hot step of every deal)."""
    cdef uint64_t b = (<uint64_t>1) << k
    if not (h.layer[0] & b):
        h.layer[0] |= b
    elif not (h.layer[1] & b):
        h.layer[1] |= b
    elif not (h.layer[2] & b):
        h.layer[2] |= b
    else:
        h.layer[3] |= b

cdef inline void hand_remove(Hand* h, int k) noexcept nogil:
    """Remove one copy of identity k: clear the highest set layer (no-op if none held). The
    layers are nested, so that is the layer below the lowest clear one, found from below (a card
    is mostly held once)."""
    cdef uint64_t b = (<uint64_t>1) << k
    if not (h.layer[1] & b):
        h.layer[0] &= ~b
    elif not (h.layer[2] & b):
        h.layer[1] &= ~b
    elif not (h.layer[3] & b):
        h.layer[2] &= ~b
    else:
        h.layer[3] &= ~b

cdef inline int hand_count(const Hand* h, int k) noexcept nogil:
    """Copies of identity k held."""
    return (<int>((h.layer[0] >> k) & 1) + <int>((h.layer[1] >> k) & 1)
            + <int>((h.layer[2] >> k) & 1) + <int>((h.layer[3] >> k) & 1))

cdef inline int hand_size(const Hand* h) noexcept nogil:
    """Total number of cards held (all copies)."""
    return (cs_popcount(h.layer[0]) + cs_popcount(h.layer[1])
            + cs_popcount(h.layer[2]) + cs_popcount(h.layer[3]))

cdef inline int hand_size_in(const Hand* h, uint64_t mask) noexcept nogil:
    """Cards held among the identities in mask (all copies)."""
    return (cs_popcount(h.layer[0] & mask) + cs_popcount(h.layer[1] & mask)
            + cs_popcount(h.layer[2] & mask) + cs_popcount(h.layer[3] & mask))

cdef inline void hand_add_n(Hand* h, int k, int n) noexcept nogil:
    """Add n copies of identity k."""
    cdef int i
    for i in range(n):
        hand_add(h, k)

cdef inline void hand_merge(Hand* dst, const Hand* src) noexcept nogil:
    """dst += src (multiset union by counts)."""
    cdef uint64_t ids = src.layer[0]
    cdef int k
    while ids:
        k = cs_ctz(ids)
        ids &= ids - 1
        hand_add_n(dst, k, hand_count(src, k))

cdef inline void hand_sub(Hand* dst, const Hand* src) noexcept nogil:
    """dst -= src (as far as held)."""
    cdef uint64_t ids = src.layer[0]
    cdef int k, i
    while ids:
        k = cs_ctz(ids)
        ids &= ids - 1
        for i in range(hand_count(src, k)):
            hand_remove(dst, k)

cdef inline bint hand_within(const Hand* sub, const Hand* sup) noexcept nogil:
    """True iff the multiset sub is contained in sup (every identity at most as often)."""
    cdef uint64_t ids = sub.layer[0]
    cdef int k
    while ids:
        k = cs_ctz(ids)
        ids &= ids - 1
        if hand_count(sub, k) > hand_count(sup, k):
            return False
    return True

cdef inline int hand_max_count(const Hand* h) noexcept nogil:
    """Largest number of copies of any one identity held (0 for an empty hand)."""
    if h.layer[3]:
        return 4
    if h.layer[2]:
        return 3
    if h.layer[1]:
        return 2
    if h.layer[0]:
        return 1
    return 0

cdef inline void put_counts(float* o, const Hand* h, float per_copy) noexcept nogil:
    """o[k] = (copies of k held) * per_copy for every identity k held: the observation block of
    a packed hand (o[k] untouched for identities not held)."""
    cdef uint64_t ids = h.layer[0]
    cdef int k
    while ids:
        k = cs_ctz(ids)
        ids &= ids - 1
        o[k] = hand_count(h, k) * per_copy
