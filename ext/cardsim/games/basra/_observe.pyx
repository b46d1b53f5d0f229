"""Basra: what a seat sees — the observation vector and the resample of the hidden cards
(docs/rules/basra.md; the observation's blocks are INFO.observation, their offsets the
OBS_<BLOCK> constants of the generated `_layout.pxd`).

Hidden from a seat: the other hands, the stock's order, buried J/♦7 cards' places inside their
public span of the stock, and the peeked bottom card unless the seat saw it. `ba_resample` draws
these consistently with what the observer knows through the core resample policy
(`resample_zones`); it returns 0, never the true cards, when no consistent world is found.
"""
from libc.string cimport memset
from cardsim.core._types cimport uint8_t, uint32_t, uint64_t, card_t
from cardsim.core._bits cimport cs_popcount, bit_low, put_bits, card_bit
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._resample cimport resample_zones, resample_rekey, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.games.basra._rules cimport BasraConfig
from cardsim.games.basra._state cimport BasraState, BA_PH_CHOOSE, BA_PH_END, chosen_of
from cardsim.games.basra._layout cimport (
    OBS_HAND, OBS_FLOOR, OBS_PLAYED, OBS_PILES, OBS_BURIED, OBS_PEEK, OBS_PENDING, OBS_CHOSEN, OBS_DOUBLED,
    OBS_HAND_SIZES, OBS_STOCK, OBS_BASRA_POINTS, OBS_BASRAS, OBS_GAME_POINTS, OBS_TOTAL_POINTS, OBS_GAMES_WON,
    OBS_CARRY, OBS_LAST_CAPTURER, OBS_DEALER, OBS_TO_ACT, OBS_OBSERVER, OBS_PHASE, OBS_LADDER, OBS_DEALS,
    OBS_DEAL_POINTS)

cdef inline bint sees_peek(const BasraState* s, const BasraConfig* c, int p) noexcept nogil:
    return s.peek >= 0 and (c.cut_peek == 1 or (c.cut_peek == 0 and p == s.dealer))

cdef void ba_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    """Write p's observation at the OBS_<BLOCK> offsets of _layout (blocks: INFO.observation)."""
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef int q
    cdef uint64_t dbl = 0
    put_bits(o + OBS_HAND, s.hand[p])
    put_bits(o + OBS_FLOOR, s.floor)
    for q in range(4):
        put_bits(o + OBS_PLAYED + 52 * q, s.played[q])
    for q in range(4):
        put_bits(o + OBS_PILES + 52 * q, s.pile[q])
        dbl |= s.doubled[q]
    put_bits(o + OBS_BURIED, s.buried)
    if sees_peek(s, c, p):
        o[OBS_PEEK + s.peek] = 1.0
    if s.phase == BA_PH_CHOOSE:
        o[OBS_PENDING + s.choice.target] = 1.0
    put_bits(o + OBS_CHOSEN, chosen_of(s))
    put_bits(o + OBS_DOUBLED, dbl)
    for q in range(4):
        o[OBS_HAND_SIZES + q] = cs_popcount(s.hand[q]) / 6.0
    o[OBS_STOCK] = s.nstock / 52.0
    for q in range(4):
        o[OBS_BASRA_POINTS + q] = s.basra_half[q] / 40.0
        o[OBS_BASRAS + q] = s.nbasra[q] / 5.0
        o[OBS_GAME_POINTS + q] = s.cum_half[q] / 200.0
        o[OBS_TOTAL_POINTS + q] = s.total_half[q] / 200.0
        o[OBS_GAMES_WON + q] = s.games_won[q] / 3.0
    o[OBS_CARRY] = s.carry / 3.0
    o[OBS_LAST_CAPTURER + (s.last_capturer if s.last_capturer >= 0 else 4)] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    if s.phase != BA_PH_END:
        o[OBS_TO_ACT + s.turn] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    o[OBS_PHASE + s.phase] = 1.0
    o[OBS_LADDER + s.last_target] = 1.0
    o[OBS_DEALS] = s.deal_no / 10.0
    for q in range(4):
        o[OBS_DEAL_POINTS + q] = s.deal_half[q] / 200.0

cdef inline int s0_size(const BasraConfig* c) noexcept nogil:
    """Cards in the stock right after floor cleaning ("S0"): each burial puts one card in and
    draws one out, so this is the pack less the first hands and the 4 floor cards."""
    return c.deck - c.nplayers * c.hand_size - 4

cdef void public_span(const BasraState* s, const BasraConfig* c, bint peek, int* lo, int* hi) noexcept nogil:
    """The S0 positions (0 = bottom; later draws take the top, so positions stay put) where a
    buried card (peek False) or the peeked bottom card (peek True) may lie, from public facts
    only (§3.5, B-D7): with nb burials, `bottom10` mixes each into the bottom min(10, |S0|) + 1
    cards after inserting it at the bottom, so both lie in [0, min(10, |S0|) + nb) (the peek at
    0 if nothing was buried); `bottom` stacks them at the very bottom (positions public: the
    peek at exactly nb, each buried card where it was put); `random` inserts anywhere (buried:
    all of S0; the peek rose by at most one per burial: [0, nb + 1)). A span of one position
    means the location is public."""
    cdef int n0 = s0_size(c), nb = cs_popcount(s.buried)
    cdef int m = 10 if n0 > 10 else n0
    lo[0] = 0
    if c.floor_bury == 0:
        hi[0] = (m + nb) if nb else 1
    elif c.floor_bury == 1:
        if peek:
            lo[0] = nb
        hi[0] = lo[0] + 1
    else:
        hi[0] = (nb + 1) if peek else n0
    if hi[0] > n0:
        hi[0] = n0
    if lo[0] >= hi[0]:
        lo[0] = hi[0] - 1

cdef bint last_batches(const BasraState* s, const BasraConfig* c, int* bl, int* bh) noexcept nogil:
    """If the hands were dealt from S0 (a re-deal, §3.7), each seat q's hand is what is left of
    its last batch, S0 positions [bl[q], bh[q]) (batches go from dealer+1 round, each drawn
    from the top); return True. False in the first round (hands dealt before the floor)."""
    cdef int rem = s0_size(c), k, i, q, N = c.nplayers
    while rem > s.nstock:
        k = rem // N
        if k > c.hand_size:
            k = c.hand_size
        if k <= 0:
            return False
        if rem - N * k <= s.nstock:
            for i in range(N):
                q = (s.dealer + 1 + i) % N
                bh[q] = rem - i * k
                bl[q] = rem - (i + 1) * k
            return True
        rem -= N * k
    return False

cdef int ba_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy. Zones: each other seat's hand
    (sizes kept) and the stock, cut into segments where the public spans begin and end. The
    cards whose place p only partly knows are the buried J/♦7 (public identities: they went into
    S0) and the peeked bottom card if p saw it: each may go only to a stock segment inside its
    public span (public_span) or, after a re-deal, to a hand whose batch overlaps that span;
    one whose span is a single position (floor_bury "bottom") keeps its public place. Every
    other hidden card may go anywhere, so within those limits the first exact try is a uniform
    redeal (64 x 16 exact tries, then the constrained deal). If p did not see the peek, the
    dealer's peek becomes the unburied card now at its old place (its old stock position, or a
    card of the hand it was in), so the dealer's knowledge stays consistent. The deal stream is
    replaced so later draws are not leaked."""
    cdef BasraState* s = <BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef card_t cards[52]
    cdef uint8_t dest[52]
    cdef uint32_t allowed[52]
    cdef int room[16]
    cdef int cut[8]
    cdef int bl[4]
    cdef int bh[4]
    cdef int bounds[4]
    cdef uint8_t fixed[52]
    cdef int n = 0, q, i, j, k, z, N = c.nplayers, nz, ncut, blo, bhi, plo, phi, lo, hi, x
    cdef int peek_pos = -1, peek_seat = -1
    cdef uint64_t located, hidden = 0, m, cand
    cdef bint seen = sees_peek(s, c, p), dealt, pinned
    cdef uint32_t all_zones, span_zones
    for q in range(N):
        if q != p:
            hidden |= s.hand[q]
    for i in range(s.nstock):
        hidden |= card_bit(s.stock[i])
    located = s.buried & hidden
    if seen and hidden & card_bit(s.peek):
        located |= card_bit(s.peek)
    public_span(s, c, False, &blo, &bhi)
    public_span(s, c, True, &plo, &phi)
    dealt = located != 0 and last_batches(s, c, bl, bh)
    # stock positions whose card is public (a located card with a one-position span)
    memset(fixed, 0, sizeof(fixed))
    for i in range(s.nstock):
        k = s.stock[i]
        if located & card_bit(k):
            if k == s.peek and seen:
                pinned = phi - plo == 1
            else:
                pinned = bhi - blo == 1
            fixed[i] = pinned
    # stock segments: cut where a span begins or ends
    ncut = 0
    cut[ncut] = 0; ncut += 1
    bounds[0] = blo; bounds[1] = bhi; bounds[2] = plo; bounds[3] = phi
    for i in range(4):
        x = bounds[i]
        if 0 < x < s.nstock:
            j = 0
            while j < ncut and cut[j] != x:
                j += 1
            if j == ncut:
                cut[ncut] = x; ncut += 1
    for i in range(1, ncut):                        # insertion sort (at most 5 cuts)
        x = cut[i]
        j = i - 1
        while j >= 0 and cut[j] > x:
            cut[j + 1] = cut[j]
            j -= 1
        cut[j + 1] = x
    cut[ncut] = s.nstock
    nz = N + (ncut if s.nstock > 0 else 0)           # zones: seats 0..N-1, then stock segments
    for z in range(nz):
        room[z] = 0
    for q in range(N):
        if q != p:
            room[q] = cs_popcount(s.hand[q])
    for z in range(N, nz):
        for i in range(cut[z - N], cut[z - N + 1]):
            if not fixed[i]:
                room[z] += 1
    all_zones = (1u << nz) - 1
    for k in range(52):
        allowed[k] = all_zones
    m = located
    while m:
        k = bit_low(m)
        m &= m - 1
        if k == s.peek and seen:
            lo = plo; hi = phi
        else:
            lo = blo; hi = bhi
        span_zones = 0
        if hi - lo == 1:                           # public place: pinned where it is
            for q in range(N):
                if s.hand[q] & card_bit(k):
                    span_zones = 1u << q
            if span_zones == 0:
                span_zones = all_zones             # in the stock: fixed, not drawn
        else:
            for q in range(N):
                if q != p and (not dealt or (bl[q] < hi and lo < bh[q])):
                    if dealt:
                        span_zones |= 1u << q
            for z in range(N, nz):
                if cut[z - N] < hi and lo < cut[z - N + 1]:
                    span_zones |= 1u << z
        allowed[k] = span_zones
    # the hidden cards, and where the unseen peek lies now
    for q in range(N):
        if q != p:
            m = s.hand[q]
            while m:
                k = bit_low(m)
                m &= m - 1
                cards[n] = k
                n += 1
                if k == s.peek and not seen:
                    peek_seat = q
    for i in range(s.nstock):
        if s.stock[i] == s.peek and not seen:
            peek_pos = i
        if not fixed[i]:
            cards[n] = s.stock[i]
            n += 1
    if not resample_zones(cards, n, allowed, room, nz, dest, rng, NULL, NULL,
                          16 * RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES):
        return 0
    for q in range(N):
        if q != p:
            s.hand[q] = 0
    for z in range(N, nz):
        room[z] = cut[z - N]                        # next stock position of segment z
    for i in range(n):
        z = dest[i]
        if z < N:
            s.hand[z] |= card_bit(cards[i])
        else:
            while fixed[room[z]]:
                room[z] += 1
            s.stock[room[z]] = cards[i]
            room[z] += 1
    if peek_pos >= 0 and not (s.buried & card_bit(s.stock[peek_pos])):
        s.peek = s.stock[peek_pos]
    elif peek_pos >= 0 or peek_seat >= 0:
        # the card now at the old place is buried: take an unburied card from the same place
        # (the peek's hand) or the stock inside the peek's span
        cand = (s.hand[peek_seat] if peek_seat >= 0 else 0) & ~s.buried
        if cand == 0:
            for i in range(plo, phi if phi < s.nstock else s.nstock):
                if not (s.buried & card_bit(s.stock[i])):
                    cand |= card_bit(s.stock[i])
        if cand == 0:
            return 0
        s.peek = bit_low(cand)
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)
    return 1
