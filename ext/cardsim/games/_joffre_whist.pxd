# Joffre Whist: state struct, config and the kernels other modules may cimport.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef enum:
    JW_NUM_ACTIONS = 145     # 52 cards, PASS, DOUBLE, 91 bids
    JW_PASS = 52
    JW_DOUBLE = 53
    JW_BID0 = 54             # first bid action (1NT)
    JW_NBIDS = 91
    JW_PH_AUCTION = 0
    JW_PH_PLAY = 1
    JW_PH_END = 2
    JW_NT = 0                # strains in bid-rank order
    JW_TA = 5
    JW_JTA = 6

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

ctypedef struct JWState:
    Rng rng                  # deal stream: redeals after throw-ins and the next deals of a match
    uint64_t hand[4]         # cards held, bit = suit*13 + rank (rank 0 = '2' .. 12 = 'A')
    uint64_t won[4]          # cards in the tricks each player won this deal
    uint64_t played[4]       # cards each player has played this deal
    int8_t card_trick[52]    # trick number (0..12) each card was played in, -1 = not played
    int8_t trick[4]          # card each seat played to the current trick, -1 = none yet
    uint64_t trick_mask      # cards of the current trick
    int8_t led               # suit led to the current trick, -1 when on lead
    int8_t bid_by[91]        # seat that made each bid, -1 = not bid
    int16_t dbl_at[4]        # bid each seat doubled, -1 = none
    int16_t pass_at[4]       # high bid (index, -1 none) when each seat passed, -2 = not passed
    int16_t high             # high bid index 0..90, -1 = none
    int8_t high_bidder       # seat of the high bid
    int8_t doubled           # high bid doubled
    int8_t doubler           # seat of the double, -1
    uint8_t passed           # bitmask of seats that passed (permanent)
    uint8_t has_doubled      # bitmask of seats that doubled in this auction
    uint8_t void_suits[4]    # per seat, bitmask of suits shown void by play (public)
    uint8_t ta_suits[4]      # per seat, bitmask of suits it bid TA in (>= 4 cards dealt)
    int8_t phase             # JW_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this deal
    int8_t leader            # leader of the current trick
    int8_t ntrick            # cards in the current trick
    int8_t tricks_done       # completed tricks
    int8_t tricks[4]         # tricks won per player
    int8_t declarer          # -1 before the auction ends
    int8_t level             # contract level 1..7
    int8_t strain            # contract strain 0..6 (NT S D C H TA JTA)
    int8_t named             # suit named in TA/JTA, -1 otherwise
    int8_t trump             # trump suit, -1 = no trump
    int8_t cdoubled          # contract doubled
    int8_t ta_count          # trump leads by partner(declarer) in a TA contract
    int8_t joffre_team       # team that scored the Joffre bonus this deal, -1
    int8_t made              # last contract made (1) or failed (0), -1 none yet
    int16_t throw_ins        # throw-ins (all passed) so far
    int16_t deal_no          # deals completed in this match
    int32_t score[2]         # cumulative team points (NS, EW)
    int32_t deal_pts[2]      # points of the last scored deal (NS, EW)

cdef uint64_t jw_follow_mask(uint64_t hand, int led_suit, int trump) noexcept nogil
cdef int jw_trick_winner(const int8_t* cards, int n, int trump) noexcept nogil
cdef void jw_score(const JWConfig* c, const uint64_t* won, const int8_t* tricks, int declarer,
                   int level, int strain, int named, int doubled, int32_t* pts, int8_t* made,
                   int8_t* joffre_team) noexcept nogil
