# Gleek's state machine: the state struct and the kernels other modules cimport (the config and
# the pure rules are in _rules.pxd; the greedy agent in _agent, observation and resample in
# _observe, the spec in _spec).
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet
from cardsim.core._trick cimport TrickRecord
from cardsim.games.gleek._rules cimport GLConfig

cdef enum:
    GL_PASS = 44             # auction pass / vie check or fold
    GL_VIE = 45
    GL_SEE = 46
    GL_REVIE = 47
    GL_DECLARE0 = 48         # DECLARE A, K, Q, J (optional declarations)
    GL_DONE = 52             # end of a player's optional declarations
    GL_BID0 = 53             # BID n = GL_BID0 + n, n = 0..max_stock_bid
    GL_MAX_BID_CAP = 960     # keeps the action space <= 1024
    GL_PH_AUCTION = 0
    GL_PH_EXCHANGE = 1
    GL_PH_VIE = 2
    GL_PH_DECLARE = 3
    GL_PH_PLAY = 4
    GL_PH_END = 5

ctypedef struct GLState:
    Rng rng                  # deal stream: first dealer and every later deal of a match
    uint64_t hand[3]         # cards held, bit = suit*11 + rank (rank 0 = '4' .. 10 = 'A')
    uint64_t played[3]       # cards each seat has played this deal
    uint64_t won[3]          # cards in the tricks each seat won this deal
    uint64_t shown[3]        # cards each seat has shown publicly (declared sets, ruff showdown)
    uint64_t kept[3]         # each seat's 12-card hand after the exchange (for scoring/oracles)
    uint64_t stock           # the face-down stock (until the buyer takes it)
    uint64_t discards        # the buyer's dead pile
    int8_t turnup            # the turned-up card (trump indicator, never taken)
    int8_t trump             # trump suit 0..3 (S H D C)
    int8_t phase             # GL_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this deal
    int8_t eldest            # next(dealer)
    # auction
    int16_t high             # current high bid
    int8_t high_bidder       # seat of the high bid
    uint8_t passed           # bitmask of seats that passed in the auction
    int8_t pass_rank[3]      # 0 = not passed, 1 = first passer, 2 = second (last) passer
    int16_t last_bid[3]      # last bid of each seat, 0 = none
    int8_t buyer             # seat that bought the stock, -1 before
    int8_t ndiscard          # cards discarded so far by the buyer
    int8_t took              # the buyer has taken the stock
    # vying the ruff
    int8_t vie_open          # 1 = open round, 0 = respond round
    int8_t open_acted        # players who acted in the open round
    int8_t vied              # someone vied this deal
    int8_t revies            # revies so far
    int32_t stake            # current stake S (0 = no vie yet)
    int32_t base             # base stake B of this deal
    int32_t committed[3]     # chips each seat committed
    int32_t owe[3]           # what each seat owes if it loses (committed, or the stake when folding)
    uint8_t folded           # bitmask of folded seats
    uint8_t checked          # bitmask of seats that checked in the open round
    int8_t pending[3]        # seats still to respond, in order
    int8_t npend             # length of pending
    int8_t showdown          # the ruff went to a showdown
    int8_t ruff_suit[3]      # suit each seat revealed at the showdown, -1 = none
    int16_t ruff[3]          # ruff value each seat revealed at the showdown, -1 = none
    int32_t dead             # consecutive dead ruffs before this deal
    # gleeks and mournivals
    uint8_t sets[3]          # per seat, bit r = holds a gleek/mournival of rank r (0 A,1 K,2 Q,3 J)
    uint8_t declared[3]      # per seat, bit r = declared that set
    uint8_t decl_done        # bitmask of seats done declaring
    int8_t set_count[3][4]   # cards of rank r held by each seat at declaration time (3 or 4, 0 = none)
    # trick play
    TrickRecord cur          # the current trick: leader, plays made, cards by seat, in core/_trick's
                             # positional mode (order[] not kept: the i-th play is by seat
                             # (leader + i) % 3; the order helpers are not valid)
    uint64_t led_mask        # the 11 cards of the led suit, 0 before the lead (kept with `led`)
    int8_t led               # suit led to the current trick, -1 before the lead (cached from cur)
    int8_t tricks_done       # completed tricks
    int8_t tricks[3]         # tricks won per seat
    uint8_t void_suits[3]    # per seat, bitmask of suits shown void by play
    # chips
    int32_t part[5][3]       # this deal's chips by step: turn-up, stock, ruff, gleeks, tricks
    int32_t score[3]         # trick-settlement score of the deal
    int32_t total            # T = points in play (66 less discarded honours)
    int32_t chips[3]         # chip balances (match), starting_chips + every settled change
    int16_t deal_no          # deals completed in this match

cdef inline int nxt(int p) noexcept nogil:
    """The next seat (play passes 0 -> 1 -> 2 -> 0)."""
    return 0 if p == 2 else p + 1

cdef inline int led_suit(const GLState* s) noexcept nogil:
    """Suit led to the current trick, -1 before the lead (kept in s.led: legal and apply ask it
    at every play)."""
    return s.led

cdef void gl_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int gl_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint gl_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int gl_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void gl_apply(void* st, const void* cfg, int a) noexcept nogil
cdef void gl_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void gl_metrics(const void* st, const void* cfg, double* out) noexcept nogil
cdef void setup_deal(GLState* s, const GLConfig* c) noexcept nogil
# the batch kernel's hot loop with this module's kernels inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
