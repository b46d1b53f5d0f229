# Hearts, pure rules (docs/rules/hearts.md §2-§6): card identities, the config, and the rule
# kernels on cards and config only (no state struct): the pack of a table size, the pass
# direction, the legal plays, the trick winner, the points of a deal. Hot, so inline here;
# `_rules.pyx` holds the compiled oracles' entry points (oracle_*).
#
# Card identity: suit*13 + rank, suits S H D C (0..3), rank 0 = '2' .. 12 = 'A'.
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, card_bit

cdef enum:
    HT_DECK = 52             # the full pack; 3, 5, 6 players remove small diamonds/spades (D1)
    HT_MAXP = 6              # largest table
    HT_PASS = 3              # cards passed (D3)
    QS = 10                  # ♠Q: suit 0, rank 10
    JD = 35                  # ♦J: suit 2, rank 9
    TWO_C = 39               # ♣2: suit 3, rank 0 (never removed: it always leads, D4)
    PD_HOLD = 0              # pass directions (D2), as OpenSpiel numbers them
    PD_LEFT = 1
    PD_ACROSS = 2
    PD_RIGHT = 3

cdef extern from *:
    """
    static const unsigned long long ht_full = (1ULL << 52) - 1;        /* the whole pack */
    static const unsigned long long ht_hearts = 0x1FFFULL << 13;       /* the 13 hearts */
    static const unsigned long long ht_clubs = 0x1FFFULL << 39;        /* the 13 clubs */
    /* the cards of each suit, and the suit (c / 13) of every card id: loads, not arithmetic */
    static const unsigned long long ht_suit_cards[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
    static const signed char ht_suit_of[52] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    """
    const uint64_t ht_full
    const uint64_t ht_hearts
    const uint64_t ht_clubs
    const uint64_t ht_suit_cards[4]      # suit -> its 13 cards
    const int8_t ht_suit_of[52]          # card id -> suit

ctypedef struct HTConfig:
    int32_t nplayers         # 3..6 (D1)
    uint64_t deck            # the cards in play for this table size (D1)
    int32_t hand_size        # cards per seat = tricks per deal
    int32_t rotation         # 0 cycle by deal number, 1 left, 2 right, 3 across, 4 hold, 5 random (D2)
    int32_t any_club         # the ♣2 holder may lead any club (D4)
    int32_t no_pts_first     # no heart or ♠Q on the first trick unless nothing else (D5)
    int32_t must_break       # hearts may not be led until broken (D6)
    int32_t qs_breaks        # ♠Q breaks hearts (D6)
    int32_t hearts_over_qs   # leading hearts allowed when ♠Q is the only other card (D6)
    int32_t moon_add         # shooting the moon: 1 others +26 (shooter 0), 0 shooter -26 (D8)
    int32_t jd_bonus         # ♦J counts -10 (D9)
    int32_t avoid_bonus      # -5 to a seat that takes no trick (no moon) (D9)
    int32_t openspiel_returns  # returns 26 - points (OpenSpiel), else the relative returns (D10)
    int32_t match            # scope == "match"
    int32_t match_target     # a match ends when a score reaches this (D11)
    int32_t max_deals        # ... or after this many deals (D11)

cdef inline uint64_t ht_deck_of(int n) noexcept nogil:
    """The pack for n players (D1): all 52 cards with 4; 3 players remove ♦2; 5 players ♦2 and
    ♠2; 6 players ♦2, ♦3, ♠2, ♠3 (never a club, a heart or ♠Q)."""
    cdef uint64_t d = ht_full
    if n == 3 or n == 5 or n == 6:
        d &= ~card_bit(2 * 13)
    if n == 5 or n == 6:
        d &= ~card_bit(0)
    if n == 6:
        d &= ~(card_bit(2 * 13 + 1) | card_bit(1))
    return d

cdef inline int pass_offset(int dirn, int n) noexcept nogil:
    """Seat offset of the receiver (D2): left = next seat (+1), right = previous, across = +2
    (4 players only), hold = 0."""
    if dirn == PD_LEFT:
        return 1
    if dirn == PD_RIGHT:
        return n - 1
    if dirn == PD_ACROSS:
        return 2
    return 0

cdef inline int cycle_direction(int deal_no, int n) noexcept nogil:
    """The pass direction of the deal_no-th deal of a match (D2): left, right, across, hold with
    4 players; left, right, hold otherwise."""
    cdef int k = deal_no % 4 if n == 4 else deal_no % 3
    if k == 0:
        return PD_LEFT
    if k == 1:
        return PD_RIGHT
    if k == 2 and n == 4:
        return PD_ACROSS
    return PD_HOLD

cdef inline uint64_t suit_mask(int s) noexcept nogil:
    """The 13 cards of suit s (0..3)."""
    return ht_suit_cards[s]

cdef inline int card_suit(int c) noexcept nogil:
    """Suit of card id c (0..51): c // 13."""
    return ht_suit_of[c]

cdef inline uint64_t ht_legal_mask(const HTConfig* c, uint64_t hand, int led, bint first_trick,
                                   bint broken) noexcept nogil:
    """Legal plays (§5, D4-D6), in OpenSpiel's order of checks. hand: the seat's cards; led: the
    led suit, -1 on lead; first_trick: no trick completed yet; broken: hearts broken. A
    follower must follow suit; the first lead is ♣2 (any club with any_club); a void follower on
    the first trick plays no heart and not ♠Q unless it holds nothing else (no_pts_first); a
    leader leads no heart before hearts are broken (must_break) unless it holds only hearts (or,
    with hearts_over_qs, only hearts and ♠Q); else any card."""
    cdef uint64_t f
    if led >= 0:
        f = hand & suit_mask(led)
        if f:
            return f
    elif first_trick:
        if c.any_club:
            return hand & ht_clubs
        return hand & card_bit(TWO_C)
    if first_trick and c.no_pts_first and led >= 0:
        f = hand & ~(ht_hearts | card_bit(QS))
        if f:
            return f
    if led < 0:
        f = hand if broken else hand & ~ht_hearts
        if c.hearts_over_qs and f == card_bit(QS):
            f = 0
        if f:
            return f
    return hand

cdef inline bint ht_beats(int card, int win) noexcept nogil:
    """True if `card`, played after `win` (the card winning the trick so far), takes the lead
    (§5): same suit (the led suit, since win is of it) and higher. Identities are suit-major,
    rank-ordered, so "higher" is the larger identity within the suit."""
    return card > win and card_suit(card) == card_suit(win)

cdef inline int ht_trick_winner(const int8_t* cards, int n) noexcept nogil:
    """Trick winner (§5): the highest card of the led suit (cards[0] led; n >= 1 cards: a partial
    trick gives the card winning so far). Returns the index into cards."""
    cdef int i, w = 0
    for i in range(1, n):
        if ht_beats(cards[i], cards[w]):
            w = i
    return w

cdef inline int card_points(const HTConfig* c, uint64_t m) noexcept nogil:
    """Points of the cards m (§6): 1 per heart, 13 for ♠Q, -10 for ♦J with jd_bonus (D9)."""
    cdef int p = cs_popcount(m & ht_hearts)
    if m & card_bit(QS):
        p += 13
    if c.jd_bonus and m & card_bit(JD):
        p -= 10
    return p

cdef inline int ht_score_deal(const HTConfig* c, const uint64_t* taken, int n, int32_t* pts) noexcept nogil:
    """Points of a finished deal (§6, D7-D9): pts[q] = points of the cards seat q took; a seat that
    took every heart and ♠Q shoots the moon (D7): with moon_add every other seat gets +26 and the
    shooter -26 (so 0 from the 26 point cards), otherwise the shooter gets -26 in place of +26
    (-52) and the others nothing more (D8); without a moon and with avoid_bonus a seat that
    took no card (no trick) gets -5 (D9). Returns the shooter, or -1."""
    cdef int q, shooter = -1
    cdef uint64_t pc = ht_hearts | card_bit(QS)
    for q in range(n):
        pts[q] = card_points(c, taken[q])
        if taken[q] & pc == pc:
            shooter = q
    if shooter >= 0:
        for q in range(n):
            if q == shooter:
                pts[q] -= 26 if c.moon_add else 52
            elif c.moon_add:
                pts[q] += 26
    elif c.avoid_bonus:
        for q in range(n):
            if taken[q] == 0:
                pts[q] -= 5
    return shooter

cdef inline double ht_return(const HTConfig* c, const int32_t* score, int n, int p) noexcept nogil:
    """Seat p's return from the scores (§7, D10): 26 - score with openspiel_returns (OpenSpiel's
    convention), else the mean of the other seats' scores minus its own (zero-sum)."""
    cdef int q
    cdef double others = 0
    if c.openspiel_returns:
        return 26.0 - score[p]
    for q in range(n):
        if q != p:
            others += score[q]
    return others / (n - 1) - score[p]
