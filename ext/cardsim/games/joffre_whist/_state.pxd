# Joffre Whist: the state struct and the state machine's entry points (config, card and bid
# rules live in _rules.pxd).
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._trick cimport TrickRecord
from cardsim.core._actions cimport ActionSet
from cardsim.games.joffre_whist._rules cimport JWConfig

cdef enum:
    JW_PH_AUCTION = 0
    JW_PH_PLAY = 1
    JW_PH_END = 2

ctypedef struct JWState:
    Rng rng                  # deal stream: redeals after throw-ins and the next deals of a match
    uint64_t hand[4]         # cards held, bit = suit*13 + rank (rank 0 = '2' .. 12 = 'A')
    uint64_t won[4]          # cards in the tricks each player won this deal
    uint64_t played[4]       # cards each player has played this deal
    uint64_t trick_cards[13] # the cards of each completed trick (0..tricks_done-1): when each card
                             # was played (observe's card_trick), written once per trick
    TrickRecord cur          # the current trick: leader, plays made, card by seat, in core/_trick's
                             # positional mode (order[] not kept: every trick has 4 plays, the
                             # i-th by seat (leader + i) & 3; the order helpers are not valid)
    uint64_t trick_mask      # cards of the current trick
    uint64_t trump_cards     # the 13 cards of the trump suit, 0 = no trump (kept with `trump`)
    uint64_t led_mask        # the 13 cards of the led suit, 0 when on lead (kept with `led`)
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
    uint8_t turn             # seat to act (unsigned: a zero-extending load indexes the hands)
    int8_t dealer            # dealer of this deal
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
    int16_t redeals          # throw-ins in the current deal (D14: at most max_redeals)
    int16_t deal_no          # deals completed in this match
    int32_t score[2]         # cumulative team points (NS, EW)
    int32_t deal_pts[2]      # points of the last scored deal (NS, EW)


# the state machine (_state.pyx): vt.init / current_player / legal / apply / is_terminal /
# returns / metrics, and the deal step the scenario builder reuses
cdef void deal_cards(JWState* s) noexcept nogil
cdef void jw_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int jw_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint jw_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int jw_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void jw_apply(void* st, const void* cfg, int a) noexcept nogil
cdef void jw_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void jw_metrics(const void* st, const void* cfg, double* out) noexcept nogil
# the batch kernel's hot loop with this module's kernels inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
