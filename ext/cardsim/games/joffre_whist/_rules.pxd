# Joffre Whist, pure rules (docs/rules/joffre_whist.md §2-§6): card identities, the action and bid
# layout, the config, and the rule kernels on cards and config only (no state struct): bids and
# their ranking, the TA length rule, the follow rule, the trick winner (inline: hot) and the
# deal's score (jw_score, in _rules.pyx with the oracles' entry points).
#
# Card identity: suit*13 + rank, suits S H D C (0..3), rank 0 = '2' .. 12 = 'A'.
from cardsim.core._types cimport uint8_t, int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.core._suited cimport follow_mask

cdef enum:
    JW_NUM_ACTIONS = 145     # 52 cards, PASS, DOUBLE, 91 bids
    JW_PASS = 52
    JW_DOUBLE = 53
    JW_BID0 = 54             # first bid action (1NT)
    JW_NBIDS = 91
    JW_NT = 0                # strains in bid-rank order
    JW_TA = 5
    JW_JTA = 6
    JW_D10 = 2 * 13 + 8      # the Joffre: ♦10 ...
    JW_S2 = 0                # ... and ♠2 (D1)
    JW_CJ = 3 * 13 + 9       # ♣J, the NT honour

cdef extern from *:
    """
    static const unsigned long long jw_full = (1ULL << 52) - 1;     /* the whole pack */
    /* card -> suit and card -> rank as tables: no division in the hot paths */
    static const signed char jw_suit_of[52] = {0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3};
    static const signed char jw_rank_of[52] = {0,1,2,3,4,5,6,7,8,9,10,11,12,0,1,2,3,4,5,6,7,8,9,10,11,12,0,1,2,3,4,5,6,7,8,9,10,11,12,0,1,2,3,4,5,6,7,8,9,10,11,12};
    """
    const uint64_t jw_full
    const int8_t jw_suit_of[52]          # suit of each card
    const int8_t jw_rank_of[52]          # rank of each card

ctypedef struct JWConfig:
    int32_t unit[7]          # points per odd trick, by strain NT S D C H TA JTA
    int32_t slam_mode        # 0: slam = 2 x row(7); 1: slam = row(7) + slam_bonus
    int32_t slam_bonus       # fixed bonus for slam_mode 1
    int32_t joffre_declarer_only  # JTA success needs the declarer himself to hold both Joffre cards
    int32_t ta_any_suit      # TA legal with any 4-card suit (vacuous) instead of the named suit
    int32_t failed_jta_double  # a failed doubled JTA pays x2 again
    int32_t honours_per_card # 2 per captured trump honour instead of 2 for the complete set
    int32_t dealer_bids      # all-pass: the dealer must bid instead of a throw-in
    int32_t joffre_bonus     # Joffre bonus (15)
    int32_t jta_joffre_bonus # Joffre bonus when the contract is JTA (50)
    int32_t honours_bonus    # honours bonus (2)
    int32_t royal_bonus      # royal honours bonus (8)
    int32_t num_deals        # deals in a match
    int32_t match            # scope == "match"
    int32_t max_redeals      # throw-ins allowed in one deal; the next all-pass passes it out (D14)

cdef inline uint64_t suit_mask(int s) noexcept nogil:
    return (<uint64_t>0x1FFF) << (13 * s)

cdef inline int card_suit(int c) noexcept nogil:
    return jw_suit_of[c]

cdef inline int card_rank(int c) noexcept nogil:
    return jw_rank_of[c]

cdef inline int strain_suit(int strain) noexcept nogil:
    """Trump suit (S=0 H=1 D=2 C=3) of a plain strain NT S D C H; -1 for NT."""
    if strain == 1:
        return 0
    if strain == 2:
        return 2
    if strain == 3:
        return 3
    if strain == 4:
        return 1
    return -1

cdef inline bint ta_length_ok(uint64_t cards, int suit) noexcept nogil:
    """TA length rule (§4, D6): a TA bid naming `suit` needs >= 4 cards of it among `cards`
    (the bidder's hand at the bid; in resampling, the cards it was dealt)."""
    return cs_popcount(cards & suit_mask(suit)) >= 4


# ---- bids ----------------------------------------------------------------------------------------
cdef inline int bid_rank(int bi) noexcept nogil:
    """Rank of bid index bi (0..90): strain dominates level; TA/JTA suits share a rank (§2)."""
    if bi < 35:
        return bi
    if bi < 63:
        return 35 + (bi - 35) // 4
    return 42 + (bi - 63) // 4

cdef inline int first_bid_of_rank(int r) noexcept nogil:
    """Smallest bid index of rank r (r in 0..49; 91 when r = 49)."""
    if r < 35:
        return r
    if r < 42:
        return 35 + (r - 35) * 4
    return 63 + (r - 42) * 4

cdef inline void bid_decode(int bi, int* level, int* strain, int* named) noexcept nogil:
    if bi < 35:
        strain[0] = bi // 7
        level[0] = bi % 7 + 1
        named[0] = -1
    elif bi < 63:
        strain[0] = JW_TA
        level[0] = (bi - 35) // 4 + 1
        named[0] = (bi - 35) % 4
    else:
        strain[0] = JW_JTA
        level[0] = (bi - 63) // 4 + 1
        named[0] = (bi - 63) % 4

cdef inline int bid_index(int level, int strain, int named) noexcept nogil:
    if strain < JW_TA:
        return strain * 7 + level - 1
    if strain == JW_TA:
        return 35 + (level - 1) * 4 + named
    return 63 + (level - 1) * 4 + named


# ---- play --------------------------------------------------------------------------------------
cdef inline uint64_t jw_follow_mask(uint64_t hand, int led_suit, uint64_t trumps) noexcept nogil:
    """Follow-suit rule (§5). Validity: a follower holding the led suit must play it; else a
    holder of trumps must trump (any trump, no over-trump duty); else any card. Returns the mask
    of legal cards of `hand` (led_suit -1 = on lead: any card); `trumps` = the trump suit's
    cards (0 = no trump; the state keeps it as trump_cards)."""
    if led_suit < 0:
        return hand
    return follow_mask(hand, suit_mask(led_suit), trumps)

cdef inline int jw_trick_winner(const int8_t* cards, int n, int trump) noexcept nogil:
    """Trick winner (§5): the highest trump if any trump was played, else the highest card of
    the led suit (cards[0] leads). No ties in a single deck. Returns the index into cards."""
    cdef int led = card_suit(cards[0])
    cdef int best = 0, i, key, bkey = -1, s
    for i in range(n):
        s = card_suit(cards[i])
        if s == trump:
            key = 32 + card_rank(cards[i])
        elif s == led:
            key = 16 + card_rank(cards[i])
        else:
            key = 0
        if key > bkey:
            bkey = key
            best = i
    return best

cdef inline int32_t row(const JWConfig* c, int strain, int k) noexcept nogil:
    return k * c.unit[strain]

cdef void jw_score(const JWConfig* c, const uint64_t* won, const int8_t* tricks, int declarer,
                   int level, int strain, int named, int doubled, int32_t* pts, int8_t* made,
                   int8_t* joffre_team) noexcept nogil
