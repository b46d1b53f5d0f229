# Exposure: state struct, config and the kernels other modules may cimport.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint32_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

cdef enum:
    EX_NUM_ACTIONS = 50      # 24 plays, 24 meld additions, DECLARE, DONE
    EX_MELD0 = 24            # MELD c = add card c (hand or face-up) to the meld being built
    EX_DECLARE = 48          # declare the meld being built
    EX_DONE = 49             # end this player's declarations
    EX_MAXMELD = 9           # melds per player (each uses >= 1 hand card of 9)
    EX_PH_DECLARE = 0
    EX_PH_PLAY = 1
    EX_PH_END = 2
    EX_H = 0                 # face-up slots: high-rank card, trump card, contract card
    EX_T = 1
    EX_C = 2

ctypedef struct EXConfig:
    int32_t simultaneous     # DECLARATION_ORDER: 1 = hidden choices revealed after both (D1 alt)
    int32_t min_hand         # MIN_HAND_CARDS_PER_MELD (2 or 1)
    int32_t table_reuse      # TABLE_CARD_REUSE: a face-up card may serve several melds of one player
    int32_t target_score     # TARGET_SCORE of a match
    int32_t meld_pts[5]      # points: 3 of a kind, 4 of a kind, 4, 5, 6 in sequence
    int32_t trick_pts        # points per trick won
    int32_t contract_bonus   # bonus for exactly the contract target
    int32_t match            # scope == "match"

ctypedef struct EXState:
    Rng rng                  # deal stream: next deals of a match
    uint32_t hand[2]         # cards held, exposed ones included; bit = rank*4 + suit
    uint32_t exposed[2]      # held cards lying face up (melded, not yet played)
    uint32_t melded[2]       # hand cards used in this player's melds this deal
    uint32_t used_table[2]   # face-up cards this player used in melds
    uint32_t played[2]       # cards each player has played this deal
    uint32_t aside           # the three unused face-down cards (cards 22-24)
    uint32_t sel             # meld under construction by the declaring player
    uint32_t meld[2][9]      # each declared meld (hand and face-up cards), in order
    int8_t nmelds[2]         # melds declared per player
    int16_t meld_points[2]   # meld points per player this deal
    int8_t card_trick[24]    # trick number (0..8) each card was played in, -1 = not played
    int8_t table[3]          # face-up H, T, C cards
    int8_t high              # high rank (rank of the H-card, 0 = '9' .. 5 = 'A')
    int8_t trump             # trump suit (suit of the T-card)
    int8_t target            # contract target in tricks (from the C-card)
    int8_t phase             # EX_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this deal
    int8_t leader            # leader of the current trick
    int8_t led               # card led to the current trick, -1 = none
    uint8_t decl_done        # bitmask of players who finished declaring
    int8_t tricks[2]         # tricks won this deal
    int8_t tricks_done       # completed tricks
    uint8_t void_suits[2]    # per player, suits shown void by play (public)
    int8_t bonus_seat        # player who made the contract bonus last deal, -1
    int8_t winner            # match: winner seat, -1 draw/undecided
    int16_t deal_no          # deals completed in this match
    int32_t score[2]         # cumulative points
    int32_t deal_pts[2]      # points of the last scored deal

cdef int ex_trick_winner(int lead, int follow, int trump, int high) noexcept nogil
cdef uint32_t ex_follow_mask(uint32_t held, int led) noexcept nogil
cdef int ex_meld_value(const EXConfig* c, uint32_t cards, uint32_t hand_part) noexcept nogil
cdef int ex_match_outcome(const int32_t* score, int target) noexcept nogil
