# Mechanisms of suit-major packs (identity = suit * nranks + rank, rank 0 lowest; one bit per
# card in a uint64 mask): the follow-suit mask and the card choices the trick games' greedy agents
# share (Joffre Whist: 13 ranks, Gleek: 11), in word operations (no loop over the cards).
# Everything is inline: called with a constant `nranks` the divisions fold into multiplies, so a
# game pays nothing for the generality.
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, bit_below

cdef inline uint64_t suit_cards(int suit, int nranks) noexcept nogil:
    """The nranks cards of `suit` (0 for suit -1)."""
    if suit < 0:
        return 0
    return bit_below(nranks) << (nranks * suit)

cdef inline uint64_t follow_mask(uint64_t hand, uint64_t led, uint64_t must) noexcept nogil:
    """Follow-suit rule: the cards of `hand` in `led` (the led suit's cards; 0 on lead) if it
    holds any; else those in `must` (the trumps where a void follower must trump; 0 where it
    need not); else the whole hand."""
    cdef uint64_t m = hand & led
    if m:
        return m
    m = hand & must
    return m if m else hand

cdef inline int lowest_by_rank(uint64_t m, int nranks, int trump) noexcept nogil:
    """Lowest card of m by rank, every non-trump before any trump (trump -1: none), ties to the
    lowest identity (the lowest suit); -1 if m is empty. Folds the four suits onto one rank
    mask: a few word operations, whatever the size of m."""
    cdef uint64_t t = suit_cards(trump, nranks), x
    cdef int r, s
    if m & ~t:
        m &= ~t
    if m == 0:
        return -1
    x = (m | (m >> nranks) | (m >> (2 * nranks)) | (m >> (3 * nranks))) & bit_below(nranks)
    r = bit_low(x)
    for s in range(4):
        if (m >> (s * nranks + r)) & 1:
            return s * nranks + r
    return -1

cdef inline int master_card(uint64_t m, uint64_t unseen, int nranks, int trump) noexcept nogil:
    """The lowest identity c of m outside the trump suit that is a master: no card of its suit
    above it among `unseen` (the cards neither played nor held by the player); -1 if none."""
    cdef int suit
    cdef uint64_t held, u
    for suit in range(4):
        if suit == trump:
            continue
        held = m & suit_cards(suit, nranks)
        if held == 0:
            continue
        u = unseen & suit_cards(suit, nranks)
        if u:
            held &= ~bit_below(bit_high(u) + 1)
        if held:
            return bit_low(held)
    return -1

cdef inline int longest_side_suit(uint64_t m, int nranks, int trump) noexcept nogil:
    """The non-trump suit (0..3) with the most cards in m (the first on ties); -1 if m holds
    only trumps."""
    cdef int suit, n, best = -1, longest = 0
    for suit in range(4):
        if suit != trump:
            n = cs_popcount(m & suit_cards(suit, nranks))
            if n > longest:
                longest = n
                best = suit
    return best

cdef inline uint64_t plain_beaters(uint64_t m, int win, int nranks, int trump) noexcept nogil:
    """The cards of m that would take a plain trick (highest trump, else highest card of the led
    suit; ranks ascend with identity within a suit) from its winning card `win`: the higher
    trumps if `win` is a trump, else the higher cards of its suit (the led suit) and every
    trump."""
    cdef int ws = win // nranks
    cdef uint64_t above = suit_cards(ws, nranks) & ~bit_below(win + 1)
    if ws == trump:
        return m & above
    return m & (above | suit_cards(trump, nranks))

cdef inline int long_suit_lead(uint64_t m, int nranks, int trump) noexcept nogil:
    """The lowest card of the longest side suit of m (longest_side_suit), else the lowest card
    (lowest_by_rank): the trick games' greedy lead when no better card is known."""
    cdef int suit = longest_side_suit(m, nranks, trump)
    if suit >= 0:
        return lowest_by_rank(m & suit_cards(suit, nranks), nranks, trump)
    return lowest_by_rank(m, nranks, trump)
