# Karnöffel, pure rules (docs/rules/karnoffel.md §3-§5): card identities, the config, and the
# rule kernels on cards and config only (no state struct): the chosen suit and the trick winner.
# Hot, so inline here; `_rules.pyx` holds the compiled oracles' entry points (oracle_*), the
# card notation lives in the Python face (cardsim.games.karnoffel).
#
# Card identity: suit*12 + rank, suits S H D C (0..3), rank 0 = '2' .. 11 = 'K' (no Aces).
from cardsim.core._types cimport int8_t, int32_t, uint64_t

cdef enum:
    KN_DECK = 48             # 4 suits x 2..K (no Aces)
    KN_MAXP = 6              # largest table (3 vs 3)
    KN_HAND = 5              # cards dealt to each player
    KN_TRICKS = 5            # tricks in a deal
    R2 = 0                   # rank indices used by the rules
    R3 = 1
    R4 = 2
    R5 = 3
    R6 = 4
    R7 = 5
    RJ = 9
    RQ = 10
    RK = 11

cdef extern from *:
    """
    static const unsigned long long kn_full = (1ULL << 48) - 1;     /* the whole 48-card pack */
    """
    const uint64_t kn_full

ctypedef struct KNConfig:
    int32_t nplayers         # 4 or 6
    int32_t stop_at_three    # end the deal as soon as a team has 3 tricks (D2)
    int32_t match_target     # game points that win a match (D3)
    int32_t match            # scope == "match"
    int32_t ante             # stakes: chips each player antes per deal (1 when stakes = "none")

cdef inline int card_suit(int c) noexcept nogil:
    return c // 12

cdef inline int card_rank(int c) noexcept nogil:
    return c % 12

cdef inline uint64_t suit_mask(int s) noexcept nogil:
    return (<uint64_t>0xFFF) << (12 * s)

cdef inline int team_of(int p) noexcept nogil:
    """Team of seat p: p % 2 (partners opposite with 4 players, alternate with 6)."""
    return p & 1


cdef inline int kn_chosen_suit(const int8_t* up, int n) noexcept nogil:
    """Chosen suit (§3.4). Validity: up[0..n-1] are the face-up cards in dealing order. Action:
    the suit of the lowest by natural order (2 lowest, K highest); a tie goes to the card dealt
    earliest (strict comparison in dealing order). Returns the suit 0..3."""
    cdef int i, best = 0
    for i in range(1, n):
        if card_rank(up[i]) < card_rank(up[best]):
            best = i
    return card_suit(up[best])

cdef inline int privileged_order(int c, int chosen) noexcept nogil:
    """Scan position (0..4) of a privileged card of the chosen suit in the order 6, 2, 3, 4, 5;
    -1 for any other card (the Karnöffel and the Devil are handled before the scan)."""
    if card_suit(c) != chosen:
        return -1
    cdef int r = card_rank(c)
    if r == R6:
        return 0
    if r == R2:
        return 1
    if r == R3:
        return 2
    if r == R4:
        return 3
    if r == R5:
        return 4
    return -1

cdef inline int kn_trick_winner(const int8_t* cards, int n, int chosen) noexcept nogil:
    """Trick winner (§5), cards[0] led, n >= 1 cards (a partial trick gives the current winner).

    Points: 1. the Karnöffel (J of the chosen suit) wins wherever it is; 2. else a led Devil
    (7 of chosen) wins; 3. else, with P the highest ordinary card of the led suit (a non-led
    Devil is never P: it cannot win), the first privileged card present in the order 6, 2, 3,
    4, 5 of chosen that P does not block wins (3 blocked by a K, 4 by K/Q, 5 by K/Q/J; 6 and 2
    never; only led-suit cards block, D4); 4. else P wins. Returns the index into cards."""
    cdef int i, c, r, led = card_suit(cards[0]), p = -1, prank = -1, o
    cdef int priv[5]
    for i in range(5):
        priv[i] = -1
    for i in range(n):
        c = cards[i]
        if card_suit(c) == chosen and card_rank(c) == RJ:
            return i
    if card_suit(cards[0]) == chosen and card_rank(cards[0]) == R7:
        return 0
    for i in range(n):
        c = cards[i]
        o = privileged_order(c, chosen)
        if o >= 0:
            priv[o] = i
        elif card_suit(c) == led:
            r = card_rank(c)
            if r > prank and not (card_suit(c) == chosen and r == R7):
                prank = r
                p = i
    if priv[0] >= 0:
        return priv[0]
    if priv[1] >= 0:
        return priv[1]
    if priv[2] >= 0 and prank != RK:
        return priv[2]
    if priv[3] >= 0 and prank != RK and prank != RQ:
        return priv[3]
    if priv[4] >= 0 and prank != RK and prank != RQ and prank != RJ:
        return priv[4]
    return p
