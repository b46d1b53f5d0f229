# Karnöffel: the state struct and the state machine's entry points (the config and the card rules
# live in _rules.pxd). The vtable is filled in _spec.pyx.
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._trick cimport TrickRecord
from cardsim.core._actions cimport ActionSet
from cardsim.games.karnoffel._rules cimport KNConfig

cdef enum:
    KN_NUM_ACTIONS = 48      # action a = play card a
    KN_PH_PLAY = 0
    KN_PH_END = 1

ctypedef struct KNState:
    Rng rng                  # deal stream: first dealer, shuffles, the next deals of a match
    uint64_t hand[6]         # cards held per seat (the up-card included until played)
    uint64_t played[6]       # cards each seat has played this deal
    uint64_t stock           # undealt cards (face down, unused)
    int8_t up[6]             # face-up card dealt to each seat in round 1 (public, D5)
    TrickRecord cur          # the current trick: leader, order, card by seat (core/_trick)
    int8_t card_trick[48]    # trick number (0..4) each card was played in, -1 = not played
    int8_t trick_leader[5]   # leader of each trick of this deal, -1 = not started
    int8_t trick_winner[5]   # winner of each completed trick, -1 = not completed
    int8_t phase             # KN_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this deal
    int8_t tricks_done       # completed tricks this deal
    int8_t chosen            # chosen suit 0..3 (S H D C)
    int8_t team_tricks[2]    # tricks won this deal by team 0 (even seats) and team 1 (odd seats)
    int8_t deal_winner       # team that won the last finished deal, -1 = none yet
    int16_t deal_no          # deals finished in this match
    int32_t score[2]         # game points per team (one per deal won)
    uint64_t tmask           # the cards of the current trick (cur's cards as a mask)
    # kn_init sets every byte without a memset of the struct (deal_cards the deal's fields, kn_init
    # the rest, deal_no to score as one block ending at tmask): a new field must be set there too

# deal (also the scenario setter's starting point), and the vtable entries of the state machine
cdef void deal_cards(KNState* s, int N) noexcept nogil
cdef void kn_set_deal(KNState* s, int N, int dealer, const uint64_t* hands, const int8_t* up) noexcept nogil
cdef void kn_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int kn_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint kn_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int kn_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void kn_apply(void* st, const void* cfg, int card) noexcept nogil
cdef void kn_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void kn_metrics(const void* st, const void* cfg, double* out) noexcept nogil
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
