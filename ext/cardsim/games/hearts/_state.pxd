# Hearts: the state struct and the state machine's entry points (the config and the card rules
# live in _rules.pxd). The vtable is filled in _spec.pyx.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._staged cimport Staged
from cardsim.core._actions cimport ActionSet
from cardsim.core._bits cimport cs_popcount
from cardsim.games.hearts._rules cimport HTConfig

cdef enum:
    HT_NUM_ACTIONS = 52      # action a = pass card a (pass phase) or play card a (play phase)
    HT_PH_PASS = 0
    HT_PH_PLAY = 1
    HT_PH_END = 2

ctypedef struct HTState:
    Rng rng                  # deal stream: first dealer, shuffles, random pass directions, next deals
    uint64_t hand[6]         # cards held per seat
    uint64_t played[6]       # cards each seat has played this deal (its card in the current trick:
                             # played & trick_cards)
    uint64_t taken[6]        # cards in the tricks each seat has won this deal
    uint64_t passed[6]       # the 3 cards each seat passed this deal (once its pass is whole)
    uint64_t received[6]     # the cards each seat received (after every pass is made)
    uint64_t forbid[6]       # public: cards a seat has shown it cannot hold (voids, D12)
    Staged stage             # the pass being chosen, card by card (target = the passing seat)
    uint64_t trick_cards     # the cards of the current trick (a mask; 0 before its lead)
    int8_t led               # led suit of the current trick, -1 before its lead
    int8_t leader            # seat that leads the current trick (the first passer in the pass)
    int8_t win_seat          # seat whose card wins the current trick so far
    int8_t win_card          # that card
    int8_t phase             # HT_PH_*
    uint8_t turn             # seat to act (unsigned: a zero-extending load indexes the hands)
    int8_t dealer            # dealer of this deal
    int8_t pass_dir          # PD_HOLD / PD_LEFT / PD_ACROSS / PD_RIGHT (D2)
    int8_t passers           # seats whose pass is whole
    int8_t tricks_done       # completed tricks this deal
    int8_t broken            # hearts broken (D6) by the closed tricks (ht_broken: the current one too)
    int8_t shooter           # seat that shot the moon in the last finished deal, -1 = none
    int8_t qs_taker          # seat that took ♠Q in the last finished deal, -1 = none yet
    uint8_t nxt[6]           # the seat after each seat (the table size's cycle, set by ht_init)
    int16_t deal_no          # deals finished in this match
    int32_t deal_pts[6]      # points of the last finished deal (moon and bonuses applied)
    int32_t score[6]         # scores: the sum of the deal points (the current deal once finished)
    uint64_t led_mask        # the cards of the led suit, 0 before the lead (kept with `led`)
    uint64_t legal_mask      # the legal set is hand & legal_mask whenever that is not empty
                             # (_ht_legal_impl): the led suit once led; before the lead the cards
                             # that may be led (the first lead's ♣2 or clubs, else lead_ok); in
                             # the pass phase every card
    uint64_t lead_ok         # the cards a later lead may be (D6): every card once hearts are broken,
                             # else all but the hearts, or 0 (ask the rules) with hearts_over_qs
    uint64_t brk             # the cards whose play breaks hearts (hearts, ♠Q with qs_breaks); 0 once
                             # broken (kept with `broken` as each trick closes)

cdef inline bint ht_broken(const HTState* s) noexcept nogil:
    """Hearts broken (D6) as of now: by a closed trick, or by a card of the current one (the
    state records the break as the trick closes; a lead, the one play the break rules, comes
    after that)."""
    return s.broken or (s.trick_cards & s.brk) != 0

cdef inline int ht_tricks_won(const HTState* s, int q, int n) noexcept nogil:
    """Tricks seat q has won this deal (n = the table size): every trick holds n cards."""
    return cs_popcount(s.taken[q]) // n

cdef void deal_cards(HTState* s, const HTConfig* c) noexcept nogil
cdef void ht_set_deal(HTState* s, const HTConfig* c, int dealer, int pass_dir, const uint64_t* hands) noexcept nogil
cdef void ht_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int ht_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint ht_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int ht_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void ht_apply(void* st, const void* cfg, int card) noexcept nogil
cdef void ht_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void ht_metrics(const void* st, const void* cfg, double* out) noexcept nogil
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
