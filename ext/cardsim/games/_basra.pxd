# Basra (Egyptian rules and regional presets): config, state struct and the kernels other
# modules may cimport. Card identity: rank*4 + suit, rank 0 = A .. 9 = 10, 10 = J, 11 = Q,
# 12 = K; suits S H D C (0..3). The 44-card pack is identities 0..43.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef enum:
    BA_NUM_ACTIONS = 105     # 0..51 play card, 52..103 take floor card, 104 commit
    BA_TAKE0 = 52            # first TAKE action
    BA_COMMIT = 104          # capture exactly the cards chosen so far
    BA_PH_PLAY = 0           # seat to act plays a card from hand
    BA_PH_CHOOSE = 1         # the played card has several legal capture sets: pick floor cards
    BA_PH_END = 2            # deal (scope "deal") or match (scope "match") over
    BA_MAXSETS = 512         # capacity for legal capture sets of one play
    BA_D7 = 26               # the seven of diamonds (rank 6, suit 2)

ctypedef struct BasraConfig:
    int32_t nplayers         # 2..4
    int32_t nsides           # 2 (partnerships) or nplayers
    int32_t deck             # 52 or 44
    int32_t hand_size        # 4, 5 or 6
    int32_t cut_peek         # 0 dealer, 1 both, 2 none
    int32_t floor_bury       # 0 bottom10, 1 bottom, 2 random
    int32_t d7_sweep         # seven_diamonds == "sweep"
    int32_t rank_all         # same_rank_take == "all"
    int32_t cap_maximum      # capture_mode == "maximum"
    int32_t sweep_bonus      # basra bonus for clearing the floor
    int32_t floor_max        # basra_floor_max, 0 = none
    int32_t lone_rule        # only lone-card captures are basras (Palestinian/Jordanian)
    int32_t lone_double      # lone_value == "double_value" (else flat 20)
    int32_t face_basra_value # face_value_for_basra (Q/K under double_value)
    int32_t d7_yemeni        # seven_d_rule == "yemeni"
    int32_t jack_lone_jack   # basra points for J on a lone J
    int32_t queen_lone_queen # Q on a lone Q is a basra
    int32_t face_doubling    # 0 off, 1 QKJ, 2 J only
    int32_t card_half[52]    # card points, in half points
    int32_t majority_half    # majority bonus, in half points
    int32_t majority_carry   # a tie for most cards carries the bonus over
    int32_t basra_last       # a basra with the last card of the deal counts
    int32_t target           # game target (ladder: 51, with ladder = 1)
    int32_t ladder           # target == "ladder" (51/61/71)
    int32_t sudden_death     # tie_rule == "sudden_death"
    int32_t best_of_5        # match == "best_of_5_150"
    int32_t match            # scope == "match"

ctypedef struct BasraState:
    Rng rng                  # deal stream: burial shuffles and the next deals of a match
    uint64_t hand[4]         # cards held per seat
    uint64_t floor           # face-up floor cards
    uint64_t pile[4]         # captured cards per side (this deal)
    uint64_t doubled[4]      # Syrian doubled face cards per side (this deal)
    uint64_t played[4]       # cards each seat played this deal (public)
    uint64_t buried          # J / ♦7 buried in the stock during floor cleaning (public)
    uint64_t chosen          # BA_PH_CHOOSE: floor cards chosen so far (public)
    uint8_t stock[52]        # stock, stock[0] = bottom, stock[nstock-1] = top
    int8_t nstock            # cards in the stock
    int8_t peek              # bottom card the dealer saw at the cut, -1 none
    int8_t phase             # BA_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this deal
    int8_t pending           # BA_PH_CHOOSE: the card being played
    int8_t last_capturer     # side of the last capture this deal, -1 none
    int8_t winner            # scope match: winning side at the end, -1 draw / none
    int8_t majority_side     # side that took the majority bonus in the last deal, -1 none
    int8_t last_target       # ladder: current target index 0/1/2 (51/61/71)
    int16_t nbasra[4]        # basras per side this deal
    int16_t games_won[4]     # best_of_5_150: games won per side
    int16_t deal_no          # deals completed (whole match)
    int16_t game_no          # games completed (best_of_5_150)
    int32_t carry            # consecutive majority ties carried over
    int32_t basra_half[4]    # basra points per side this deal (half points)
    int32_t deal_half[4]     # points per side of the last scored deal (half points)
    int32_t cum_half[4]      # points per side in the current game (half points)
    int32_t total_half[4]    # points per side over the whole state (half points)

cdef int ba_capture_sets(uint64_t floor, int card, const BasraConfig* c, uint64_t* out) noexcept nogil
cdef int ba_basra_points(const BasraConfig* c, int card, uint64_t floor, bint last) noexcept nogil
cdef void ba_score_deal(const BasraConfig* c, const uint64_t* pile, const uint64_t* doubled,
                        const int32_t* basra_half, int32_t* carry, int32_t* out_half,
                        int8_t* majority_side) noexcept nogil
