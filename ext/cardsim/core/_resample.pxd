# The resample policy (DESIGN: "resample never reveals hidden information"): draw the cards an
# observer cannot see into the zones that may hold them (other seats' hands, kitty, stock, ...),
# consistently with everything the observer knows.
#
# What the game supplies:
#   cards[0..n-1]  the hidden cards (identities; repeated identities for copies), any order
#   allowed[c]     bit z set iff zone z may hold identity c (voids shown by play, exposed or
#                  public cards pinned to their zone, ...), indexed by identity (< 256)
#   room[z]        how many hidden cards zone z takes (sum = n; nz <= 32 zones)
#   check          optional callback for constraints that are not per card (e.g. Joffre Whist:
#                  a TA bidder holds >= 4 cards of the named suit); NULL = none
# The policy: exact rejection sampling (a uniform shuffle split into the zones in order, kept
# only if every card is allowed in its zone and `check` accepts it: exactly uniform over the
# consistent worlds) for up to `exact_tries`, then up to `constrained_tries` constrained deals
# (assign_zones: every card to an allowed zone; checked by the same callback; consistent, not
# exactly uniform). It writes dest[i] = zone of cards[i] and returns 1, or 0 when no consistent
# world was found: it never falls back to the true hidden cards and never returns a world that
# breaks a constraint. The game then returns 0 from vt.resample (State.resample raises
# CardsimError; ISMCTS skips the iteration).
from cardsim.core._types cimport card_t, uint8_t, uint32_t, uint64_t
from cardsim.core._bits cimport bit_low
from cardsim.core._rng cimport Rng
from cardsim.core._deal cimport shuffle, assign_zones

ctypedef bint (*world_check_fn)(const void* ctx, const card_t* cards, const uint8_t* dest,
                                int n) noexcept nogil
# A candidate world: cards[i] goes to zone dest[i]. Return True if it satisfies the game's
# constraints that are not per card. `ctx` is the game's (e.g. its state and observer).

# The one budget policy: every game's vt.resample spends at most RESAMPLE_TOTAL_TRIES candidate
# worlds, the first RESAMPLE_EXACT_TRIES of them by exact rejection, then constrained deals.
cdef enum:
    RESAMPLE_EXACT_TRIES = 64          # default budget of exact rejection tries
    RESAMPLE_CONSTRAINED_TRIES = 2000  # default budget of constrained deals
    RESAMPLE_TOTAL_TRIES = 2000        # a game that splits one budget: exact + constrained = this

cdef inline int resample_rekey(Rng* state_rng, const Rng* rng) noexcept nogil:
    """The one re-key after a successful resample: the state's own stream (what later redeals of
    a match draw from) continues from the resample stream `rng`, so the invented world's future
    deals are drawn from the resample seed, never from the true deal's stream (which would
    replay the true future). Returns 1, what vt.resample returns on success."""
    state_rng[0] = rng[0]
    return 1

cdef inline bint split_in_order(const card_t* cards, int n, const uint32_t* allowed,
                                const int* room, int nz, uint8_t* dest) noexcept nogil:
    """Zone 0 takes the first room[0] cards, zone 1 the next room[1], ...; True iff every card
    lands in a zone allowed for it."""
    cdef int z, i = 0, j
    cdef bint ok = True
    for z in range(nz):
        for j in range(room[z]):
            dest[i] = <uint8_t>z
            if not (allowed[cards[i]] >> z) & 1:
                ok = False
            i += 1
    return ok

cdef inline int resample_zones(card_t* cards, int n, const uint32_t* allowed, const int* room,
                               int nz, uint8_t* dest, Rng* rng, world_check_fn check,
                               const void* ctx, int exact_tries, int constrained_tries) noexcept nogil:
    """The resample policy (see the module comment). `cards` is shuffled in place; on 1,
    dest[i] is the zone of cards[i] in a consistent world; on 0 nothing consistent was found
    within the budgets (dest unspecified). Draw order: every try starts with one Fisher-Yates
    of `cards`, so a game whose first try succeeds draws exactly as a plain shuffle-and-split."""
    cdef int t
    for t in range(exact_tries):
        shuffle(cards, n, rng)
        if split_in_order(cards, n, allowed, room, nz, dest):
            if check == NULL or check(ctx, cards, dest, n):
                return 1
    for t in range(constrained_tries):
        shuffle(cards, n, rng)
        if assign_zones(cards, n, allowed, room, nz, dest, rng):
            if check == NULL or check(ctx, cards, dest, n):
                return 1
    return 0

cdef inline int resample_masks(uint64_t hidden, const int* room, const uint64_t* forbid, int nz,
                               uint64_t* out, Rng* rng, world_check_fn check, const void* ctx,
                               int exact_tries, int constrained_tries) noexcept nogil:
    """resample_zones for single-deck games that keep cards as masks: `hidden` = the cards to
    redeal (identities < 64), room[z] = how many zone z takes, forbid[z] = the cards zone z may
    not take (voids shown, cards pinned elsewhere; NULL = none). The cards are listed in
    ascending identity order before the policy's shuffles, so a game that listed them that way
    draws exactly as before. `check` sees the usual (cards, dest, n). On 1, out[z] = the cards
    zone z gets (every out[0..nz-1] written); on 0 nothing consistent was found (out untouched)."""
    cdef card_t cards[64]
    cdef uint8_t dest[64]
    cdef uint32_t allowed[64]
    cdef uint32_t a
    cdef int n = 0, z, i, k
    while hidden:
        k = bit_low(hidden)
        hidden &= hidden - 1
        a = 0
        for z in range(nz):
            if forbid == NULL or not (forbid[z] >> k) & 1:
                a |= (<uint32_t>1) << z
        cards[n] = <card_t>k
        allowed[k] = a
        n += 1
    if not resample_zones(cards, n, allowed, room, nz, dest, rng, check, ctx, exact_tries,
                          constrained_tries):
        return 0
    for z in range(nz):
        out[z] = 0
    for i in range(n):
        out[dest[i]] |= (<uint64_t>1) << cards[i]
    return 1
