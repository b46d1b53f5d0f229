# Exposure: the state struct and the state machine's kernels other modules may cimport (the
# config and the pure rules are in _rules.pxd). The vtable is filled in _spec.pyx.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, card_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet
from cardsim.core._trick cimport TrickRecord
from cardsim.core._staged cimport Staged, staged_clear
from cardsim.games.exposure._rules cimport EXConfig, bit32

cdef enum:
    EX_NUM_ACTIONS = 50      # 24 plays, 24 meld additions, DECLARE, DONE
    EX_MELD0 = 24            # MELD c = add card c (hand or face-up) to the meld being built
    EX_DECLARE = 48          # declare the meld being built
    EX_DONE = 49             # end this player's declarations
    EX_MAXMELD = 9           # melds per player (each uses >= 1 hand card of 9)
    EX_PH_DECLARE = 0
    EX_PH_PLAY = 1
    EX_PH_END = 2
    EX_STAGE_MELD = 1        # Staged.kind of a meld being built

ctypedef struct EXState:
    Rng rng                  # deal stream: next deals of a match
    uint32_t hand[2]         # cards held, exposed ones included; bit = rank*4 + suit
    uint32_t exposed[2]      # held cards lying face up (melded, not yet played)
    uint32_t melded[2]       # hand cards used in this player's melds this deal
    uint32_t used_table[2]   # face-up cards this player used in melds
    uint32_t played[2]       # cards each player has played this deal
    uint32_t aside           # the three unused face-down cards (cards 22-24)
    Staged stage             # the meld under construction by the declaring player (core/_staged)
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
    TrickRecord trick        # the current trick (core/_trick): leader, plays, winner
    uint8_t decl_done        # bitmask of players who finished declaring
    int8_t tricks[2]         # tricks won this deal
    int8_t tricks_done       # completed tricks
    uint8_t void_suits[2]    # per player, suits shown void by play (public)
    int8_t bonus_seat        # player who made the contract bonus last deal, -1
    int8_t winner            # match: winner seat, -1 draw/undecided
    int16_t deal_no          # deals completed in this match
    int32_t score[2]         # cumulative points
    int32_t deal_pts[2]      # points of the last scored deal
    uint32_t tmask           # the three face-up cards as a mask (table_mask; set with table)
    uint8_t sel_ranks        # the ranks of the meld under construction (rank_bits of sel_of)
    int8_t sel_hand          # how many of its cards are hand cards (not face-up ones)

# deal (also the scenario setter's), and the vtable entries of the state machine
cdef void clear_declarations(EXState* s, int q) noexcept nogil
cdef void deal_from(EXState* s, const card_t* perm) noexcept nogil
cdef void start_deal(EXState* s) noexcept nogil
cdef void ex_set_deal(EXState* s, const card_t* perm, int dealer, const int32_t* scores) noexcept nogil
cdef void ex_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int ex_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint ex_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int ex_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void ex_apply(void* st, const void* cfg, int a) noexcept nogil
cdef void ex_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void ex_metrics(const void* st, const void* cfg, double* out) noexcept nogil

cdef inline int led_card(const EXState* s) noexcept nogil:
    """The card led to the current trick, -1 before the lead."""
    return s.trick.card[s.trick.leader] if s.trick.n > 0 else -1

cdef inline uint32_t sel_of(const EXState* s) noexcept nogil:
    """Cards of the meld under construction (hand and face-up cards)."""
    return <uint32_t>s.stage.cards.layer[0]

cdef inline void clear_stage(EXState* s) noexcept nogil:
    """No meld under construction: the stage and its ranks and hand-card count cleared."""
    staged_clear(&s.stage)
    s.sel_ranks = 0
    s.sel_hand = 0

cdef inline uint32_t table_mask(const EXState* s) noexcept nogil:
    """The three face-up cards (kept in the struct by the deal)."""
    return s.tmask

cdef inline uint32_t avail_table(const EXState* s, const EXConfig* c, int p) noexcept nogil:
    """Face-up cards p may still add to the meld under construction (D2, table_card_reuse)."""
    if c.table_reuse:
        return table_mask(s) & ~sel_of(s)
    return table_mask(s) & ~s.used_table[p] & ~sel_of(s)

cdef inline bint visible(const EXState* s, const EXConfig* c, int q, int p) noexcept nogil:
    """Are q's declarations visible to p? Always, except under simultaneous declaration before
    both players have finished."""
    return q == p or not c.simultaneous or s.decl_done == 3
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
