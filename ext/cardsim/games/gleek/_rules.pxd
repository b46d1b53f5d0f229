# Gleek, pure rules (docs/rules/gleek.md §4-§6): card identities, the config, and the rule
# kernels on cards and config only (no state struct): trick winner, follow rule, ruff value,
# gleeks and mournivals, trick settlement, all inline here (_rules.pyx holds the oracles' entry
# points). Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10',
# 7 = J, 8 = Q, 9 = K, 10 = A.
from cardsim.core._types cimport int8_t, uint8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_high, card_bit
from cardsim.core._suited cimport follow_mask

cdef enum:
    GL_NCARDS = 44           # 4 suits x A K Q J 10 9 8 7 6 5 4
    GL_RANK_ACE = 10         # rank index of the Ace
    GL_RUFF_FOUR_ACES = 1000 # ruff value of a hand holding all four Aces (beats every ruff)

cdef extern from *:
    """
    /* card -> suit and card -> rank as tables: no division in the hot loops */
    static const signed char gl_suit_of[44] = {0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3};
    static const signed char gl_rank_of[44] = {0,1,2,3,4,5,6,7,8,9,10,0,1,2,3,4,5,6,7,8,9,10,0,1,2,3,4,5,6,7,8,9,10,0,1,2,3,4,5,6,7,8,9,10};
    /* ruff value of a suit's seven low cards (4..10, bit r worth r + 4), by their 7-bit mask */
    static const unsigned char gl_low_ruff[128] = {
        0,4,5,9,6,10,11,15,7,11,12,16,13,17,18,22,8,12,13,17,14,18,19,23,15,19,20,24,21,25,26,30,9,
        13,14,18,15,19,20,24,16,20,21,25,22,26,27,31,17,21,22,26,23,27,28,32,24,28,29,33,30,34,35,
        39,10,14,15,19,16,20,21,25,17,21,22,26,23,27,28,32,18,22,23,27,24,28,29,33,25,29,30,34,31,
        35,36,40,19,23,24,28,25,29,30,34,26,30,31,35,32,36,37,41,27,31,32,36,33,37,38,42,34,38,39,
        43,40,44,45,49};
    """
    const int8_t gl_suit_of[44]          # suit of each card
    const int8_t gl_rank_of[44]          # rank of each card
    const uint8_t gl_low_ruff[128]       # ruff value of the low cards 4..10 of a suit, by mask

ctypedef struct GLConfig:
    int32_t tiddy_pay        # each non-dealer pays the dealer this for a turned-up 4
    int32_t towser_tumbler   # turn-up 5 / 6 pays 5 / 6 from each
    int32_t opening_bid      # eldest's forced bid (12)
    int32_t raise_one        # STOCK_RAISE: bids must be exactly high + 1
    int32_t odd_to_eldest    # STOCK_ODD_CHIP: odd chip to eldest instead of the last passer
    int32_t pay_full         # STOCK_PAYMENT: the full bid to each opponent
    int32_t take_first       # EXCHANGE_ORDER: take the stock, then discard 7 of 19
    int32_t honours_won      # HONOUR_SCORING: honours count for the trick winner
    int32_t fold_pays_stake  # FOLD_PAYS: a folder owes the current stake
    int32_t optional_decl    # GLEEK_DECLARATION: optional per set
    int32_t max_bid          # MAX_STOCK_BID
    int32_t max_revies       # MAX_REVIES
    int32_t honour[4]        # honour value of trump A, K, Q, J
    int32_t gleek[4]         # gleek value (3 of a rank) for A, K, Q, J, from each opponent
    int32_t mournival[4]     # mournival value (4 of a rank) for A, K, Q, J, from each opponent
    int32_t trick_value      # points per trick (3)
    int32_t num_deals        # deals in a match
    int32_t starting_chips   # chips each player starts a match with
    int32_t match            # scope == "match"
    int32_t nw               # action words (GameSpec.install's action_words)

cdef inline uint64_t full_pack() noexcept nogil:
    """All 44 cards."""
    return ((<uint64_t>1) << 44) - 1

cdef inline uint64_t suit_mask(int s) noexcept nogil:
    """The eleven cards of suit s."""
    return (<uint64_t>0x7FF) << (11 * s)

cdef inline uint64_t rank_cards(int r) noexcept nogil:
    """The four cards of rank r."""
    return ((<uint64_t>1) << r) | ((<uint64_t>1) << (r + 11)) | ((<uint64_t>1) << (r + 22)) | ((<uint64_t>1) << (r + 33))

cdef inline int card_suit(int c) noexcept nogil:
    return gl_suit_of[c]

cdef inline int card_rank(int c) noexcept nogil:
    return gl_rank_of[c]

cdef inline int winning_card(uint64_t trick, int led_suit, int trump) noexcept nogil:
    """Trick winner (§5) on the mask of the cards played. Action: if any trump was played the
    highest trump wins, else the highest card of the led suit (A high .. 4 low, the same order in
    every suit; a higher rank is a higher bit). No ties: one pack. Returns the winning card."""
    cdef uint64_t m = trick & suit_mask(trump)
    if m == 0:
        m = trick & suit_mask(led_suit)
    return bit_high(m)

cdef inline int trick_winner(const int8_t* cards, int n, int trump) noexcept nogil:
    """Trick winner (§5) of cards[0..n-1], cards[0] leading: the index of the winning card
    (see winning_card)."""
    cdef uint64_t tm = 0
    cdef int i, w
    for i in range(n):
        tm |= card_bit(cards[i])
    w = winning_card(tm, card_suit(cards[0]), trump)
    for i in range(n):
        if cards[i] == w:
            return i
    return 0

cdef inline uint64_t legal_follows(uint64_t hand, int led_suit) noexcept nogil:
    """Follow-suit rule (§5). Validity: a follower holding the led suit must play one of them;
    otherwise any card (no duty to trump). led_suit -1 = on lead: any card."""
    if led_suit < 0:
        return hand
    return follow_mask(hand, suit_mask(led_suit), 0)

cdef inline uint8_t hand_sets(uint64_t hand, int8_t* counts) noexcept nogil:
    """Gleeks (exactly 3 of a rank) and mournivals (all 4) of A K Q J in a hand (§4.4): bit r of
    the result for honour index r (0 A, 1 K, 2 Q, 3 J); counts[r] = cards of that rank (or 0)."""
    cdef uint8_t out = 0
    cdef int r, n
    for r in range(4):
        n = cs_popcount(hand & rank_cards(GL_RANK_ACE - r))
        if n >= 3:
            out |= 1 << r
            if counts != NULL:
                counts[r] = n
        elif counts != NULL:
            counts[r] = 0
    return out

cdef inline int honour_sum(const GLConfig* c, uint64_t cards, int trump) noexcept nogil:
    """Honour value of the trump A/K/Q/J among cards."""
    cdef int r, v = 0
    for r in range(4):
        if cards & card_bit(trump * 11 + GL_RANK_ACE - r):
            v += c.honour[r]
    return v

cdef inline int suit_ruff(uint64_t h) noexcept nogil:
    """Ruff value of one suit's holding h (11 bits, rank 0 = '4' .. 10 = A): A 11, K Q J 10,
    10..4 face value (rank r < 7 is worth r + 4: the table gl_low_ruff by the 7 low bits)."""
    return gl_low_ruff[h & 0x7F] + 10 * cs_popcount(h & 0x380) + 11 * <int>((h >> 10) & 1)

cdef inline int ruff_value(uint64_t hand, int* best_suit) noexcept nogil:
    """Ruff value of a hand (§4.3). Points: max over suits of the suit's card values (A 11,
    K Q J 10, 10..4 face); all four Aces = GL_RUFF_FOUR_ACES (beats any ruff). best_suit gets
    the suit revealed at a showdown: the first best suit in order S H D C (D7), or 4 for the
    four Aces."""
    cdef int s, v, best = -1, bs = 0
    if (hand & rank_cards(GL_RANK_ACE)) == rank_cards(GL_RANK_ACE):
        best_suit[0] = 4
        return GL_RUFF_FOUR_ACES
    for s in range(4):
        v = suit_ruff((hand >> (11 * s)) & 0x7FF)
        if v > best:
            best = v
            bs = s
    best_suit[0] = bs
    return best

cdef inline int sets_value(const GLConfig* c, uint64_t hand, uint8_t ranks) noexcept nogil:
    """V of a hand (§4.4): the sum over its gleeks/mournivals (restricted to the honour indices
    in `ranks`) of the table value, received from each opponent."""
    cdef int r, n, v = 0
    for r in range(4):
        if (ranks >> r) & 1:
            n = cs_popcount(hand & rank_cards(GL_RANK_ACE - r))
            if n == 4:
                v += c.mournival[r]
            elif n == 3:
                v += c.gleek[r]
    return v

cdef inline void trick_settlement(const GLConfig* c, const int8_t* tricks, const uint64_t* honours,
                                  int turnup, int dealer, uint64_t discards, int32_t* score,
                                  int32_t* total, int32_t* delta) noexcept nogil:
    """Trick settlement (§6.5). Points: score[p] = trick_value x tricks[p] + honour values of the
    trump A/K/Q/J in honours[p] (held, or won with HONOUR_SCORING="won"), plus the turn-up's
    honour value for the dealer. T = 12 x trick_value + all honour values - those discarded
    (66 less discarded honours by default); every player's chips change by score[p] - T/3
    (zero-sum, D10)."""
    cdef int trump = card_suit(turnup), q, r
    total[0] = 12 * c.trick_value - honour_sum(c, discards, trump)
    for r in range(4):
        total[0] += c.honour[r]
    for q in range(3):
        score[q] = c.trick_value * tricks[q] + honour_sum(c, honours[q], trump)
    score[dealer] += honour_sum(c, card_bit(turnup), trump)
    for q in range(3):
        delta[q] = score[q] - total[0] // 3
