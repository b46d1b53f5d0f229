# Basra (Egyptian rules and regional presets): the state struct, its phases and the state
# machine's kernels (the config and the pure rules are in _rules.pxd).
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet
from cardsim.core._staged cimport Staged
from cardsim.games.basra._rules cimport BasraConfig

cdef enum:
    BA_NUM_ACTIONS = 105     # 0..51 play card, 52..103 take floor card, 104 commit
    BA_TAKE0 = 52            # first TAKE action
    BA_COMMIT = 104          # capture exactly the cards chosen so far
    BA_PH_PLAY = 0           # seat to act plays a card from hand
    BA_PH_CHOOSE = 1         # the played card has several legal capture sets: pick floor cards
    BA_PH_END = 2            # deal (scope "deal") or match (scope "match") over
    BA_STAGE_CAPTURE = 1     # Staged.kind of a capture choice

ctypedef struct BasraState:
    Rng rng                  # deal stream: burial shuffles and the next deals of a match
    uint64_t hand[4]         # cards held per seat
    uint64_t floor           # face-up floor cards
    uint64_t pile[4]         # captured cards per side (this deal)
    uint64_t doubled[4]      # Syrian doubled face cards per side (this deal)
    uint64_t played[4]       # cards each seat played this deal (public)
    uint64_t buried          # J / ♦7 buried in the stock during floor cleaning (public)
    Staged choice            # BA_PH_CHOOSE: target = the card being played, cards = floor cards chosen (public)
    uint8_t stock[52]        # stock, stock[0] = bottom, stock[nstock-1] = top
    int8_t nstock            # cards in the stock
    int8_t peek              # bottom card the dealer saw at the cut, -1 none
    int8_t phase             # BA_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this deal
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

cdef void deal_from_stock(BasraState* s, const BasraConfig* c) noexcept nogil
cdef void ba_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int ba_current_player(const void* st, const void* cfg) noexcept nogil
cdef int ba_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void ba_apply(void* st, const void* cfg, int a) noexcept nogil
cdef bint ba_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef void ba_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void ba_metrics(const void* st, const void* cfg, double* out) noexcept nogil

cdef inline double ba_versus(double own, double tot, int nsides) noexcept nogil:
    """A side's figure as the returns compare it: its own less the other sides' mean (tot: all
    sides' sum)."""
    return own - (tot - own) / (nsides - 1)

cdef inline uint64_t chosen_of(const BasraState* s) noexcept nogil:
    """Floor cards chosen so far in the choose phase (the staged capture)."""
    return s.choice.cards.layer[0]
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
