# Karnöffel, pure rules (docs/rules/karnoffel.md §3-§5): card identities, the config, and the
# rule kernels on cards and config only (no state struct): the chosen suit and the trick winner.
# Hot, so inline here; `_rules.pyx` holds the compiled oracles' entry points (oracle_*), the
# card notation lives in the Python face (cardsim.games.karnoffel).
#
# Card identity: suit*12 + rank, suits S H D C (0..3), rank 0 = '2' .. 11 = 'K' (no Aces).
from cardsim.core._types cimport int8_t, uint16_t, int32_t, uint64_t
from cardsim.core._bits cimport bit_low, bit_high

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
    /* suit (c / 12) and rank (c % 12) of every card id: a load instead of a division */
    static const signed char kn_suit_of[48] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    /* scan position of a privileged rank in the order 6, 2, 3, 4, 5 (ranks 2..5 are 0..3, 6 is 4) */
    static const signed char kn_priv_order[12] = {1, 2, 3, 4, 0, -1, -1, -1, -1, -1, -1, -1};
    static const unsigned short kn_priv_below[6] = {0x0, 0x10, 0x11, 0x13, 0x17, 0x1F};
    static const signed char kn_block_from[6] = {12, 12, 11, 10, 9, 0};
    static const signed char kn_rank_of[48] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    """
    const uint64_t kn_full
    const int8_t kn_suit_of[48]          # card id -> suit
    const int8_t kn_rank_of[48]          # card id -> rank
    const int8_t kn_priv_order[12]       # rank -> scan position of a privileged card (6 2 3 4 5), -1
    const uint16_t kn_priv_below[6]      # k -> rank mask of the privileged cards of scan positions < k
    const int8_t kn_block_from[6]        # scan position -> lowest rank of P that blocks it (12 never; 5: none, 0)

ctypedef struct KNConfig:
    int32_t nplayers         # 4 or 6
    int32_t stop_at_three    # end the deal as soon as a team has 3 tricks (D2)
    int32_t match_target     # game points that win a match (D3)
    int32_t match            # scope == "match"
    int32_t ante             # stakes: chips each player antes per deal (1 when stakes = "none")

cdef inline int card_suit(int c) noexcept nogil:
    """Suit of card id c (0..47): c // 12, from a table."""
    return kn_suit_of[c]

cdef inline int card_rank(int c) noexcept nogil:
    """Rank of card id c (0..47): c % 12, from a table."""
    return kn_rank_of[c]

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

cdef inline int kn_trick_winner(const int8_t* cards, int n, int chosen) noexcept nogil:
    """Trick winner (§5), cards[0] led, n >= 1 cards (a partial trick gives the current winner).

    Points: 1. the Karnöffel (J of the chosen suit) wins wherever it is; 2. else a led Devil
    (7 of chosen) wins; 3. else, with P the highest ordinary card of the led suit (a non-led
    Devil is never P: it cannot win), the first privileged card present in the order 6, 2, 3,
    4, 5 of chosen that P does not block wins (3 blocked by a K, 4 by K/Q, 5 by K/Q/J; 6 and 2
    never; only led-suit cards block, D4); 4. else P wins. Returns the index into cards."""
    cdef int i, c, r, o, karn = chosen * 12 + RJ, led = card_suit(cards[0]), p = -1, prank = -1
    cdef int priv[5]
    cdef unsigned int seen = 0, allowed
    for i in range(n):
        c = cards[i]
        if c == karn:
            return i
        r = card_rank(c)
        if card_suit(c) == chosen:
            o = kn_priv_order[r]
            if o >= 0:
                seen |= 1u << o
                priv[o] = i
                continue
            if r == R7:                     # a Devil: wins when led, never P
                if i == 0:
                    led = -1                # (no Karnöffel may follow: keep scanning for one)
                continue
        if card_suit(c) == led and r > prank:
            prank = r
            p = i
    if led < 0:
        return 0
    # 6 and 2 are never blocked; 3 is blocked by a K, 4 by K/Q, 5 by K/Q/J (of the led suit)
    allowed = 3u | ((prank < RK) << 2) | ((prank < RQ) << 3) | ((prank < RJ) << 4)
    seen &= allowed
    if seen:
        return priv[bit_low(seen)]
    return p

cdef inline int kn_led_top(uint64_t m, int led, int chosen) noexcept nogil:
    """The rank of the highest ordinary card of the led suit `led` in the card mask m (P of §5;
    when the led suit is the chosen one, its 2-7 and J are not ordinary), or -1 if none."""
    cdef uint64_t L = (m >> (12 * led)) & 0xFFF
    if led == chosen:
        L &= ~(<uint64_t>0x23F)                 # 2-7 and J of the chosen suit are not ordinary
    return bit_high(L) if L else -1

cdef inline int kn_trick_winner_card(uint64_t m, int led_card, int chosen) noexcept nogil:
    """kn_trick_winner on the trick's cards as a mask m (one pack: each card once) with the card
    led: the winning card (not its index), by the same points 1-4 in word operations. 1. the
    Karnöffel; 2. a led Devil; 3. P is the highest card of the led suit less, when that suit is
    the chosen one, its non-ordinary cards (2-7 and J); the privileged cards present (chosen 2-6)
    that P does not block, 6 first, then the lowest of 2, 3, 4, 5; 4. else P."""
    cdef int cs = 12 * chosen, led, prank
    cdef unsigned int priv
    if (m >> (cs + RJ)) & 1:
        return cs + RJ
    if led_card == cs + R7:
        return led_card
    led = card_suit(led_card)
    prank = kn_led_top(m, led, chosen)
    # chosen 2, 3, 4, 5, 6 at bits 0..4: 6 and 2 never blocked, 3 by a K, 4 by K/Q, 5 by K/Q/J
    priv = <unsigned int>(m >> cs) & (0x11u | ((prank < RK) << 1) | ((prank < RQ) << 2) | ((prank < RJ) << 3))
    if priv & 0x10u:
        return cs + R6
    if priv:
        return cs + bit_low(priv)
    return 12 * led + prank
