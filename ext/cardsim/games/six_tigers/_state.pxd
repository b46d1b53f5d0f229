# Hakka Six Tigers: the state struct, phases and action ids of the state machine.
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._trick cimport TrickRecord
from cardsim.core._staged cimport Staged
from cardsim.core._bits cimport cs_popcount
from cardsim.core._actions cimport ActionSet
from cardsim.games.six_tigers._rules cimport STConfig, STPlay, st_old_mask, st_enum_leads, st_enum_leads_with

cdef enum:
    ST_A_PLAY = 0            # 0..36: add card c face up (to a lead or a beat)
    ST_A_DISCARD = 37        # 37..73: add card c to a face-down discard
    ST_A_COMMIT = 74         # finish the lead being built
    ST_A_DECLARE = 75        # DECLARE phase: declare
    ST_A_PASS = 76           # DECLARE phase: pass
    ST_A_CLAIM = 77          # claim window: claim victory (count >= 6)
    ST_A_CONTINUE = 78       # claim window: play on
    ST_NUM_ACTIONS = 79
    ST_PH_DECLARE = 0
    ST_PH_CLAIM = 1
    ST_PH_PLAY = 2
    ST_PH_END = 3
    ST_STAGE_LEAD = 1        # Staged.kind: a lead under construction
    ST_STAGE_BEAT = 2        # a face-up beat under construction
    ST_STAGE_DISCARD = 3     # a face-down discard under construction
    ST_MAX_TRICKS = 12       # at most 12 tricks (12 cards per active hand)

ctypedef struct STState:
    Rng rng                  # deal stream: first dealer, every shuffle of the match
    uint64_t hand[4]         # cards held per seat (dreamer: one card); staged cards stay here
    uint64_t aside           # 3 players: the undealt 37th card (face down)
    uint64_t up[4]           # face-up plays per seat this round
    uint64_t down[4]         # face-down discards per seat this round
    uint64_t cur[4]          # each seat's play in the current trick
    uint64_t win_cards[4]    # cards of the plays with which each seat won tricks
    uint64_t shown           # cards revealed at the end (dreamer's card, claimed old cards, Five Tigers)
    TrickRecord trick        # leader / order / winner of the current trick
    Staged stg               # the play under construction (kind ST_STAGE_*)
    STPlay high              # current high play of the trick
    int8_t high_seat         # seat of the current high play
    int8_t k                 # cards per play in the current trick (0 before the lead)
    int8_t cur_down          # bit q: seat q discarded face down in the current trick
    int8_t card_trick[37]    # trick index each card was played in, -1 = not played
    int8_t card_seat[37]     # seat that played each card, -1 = not played
    int8_t trick_leader[12]  # leader of each trick
    int8_t trick_winner[12]  # winner of each completed trick
    int8_t trick_down[12]    # bit q: seat q discarded in that trick
    int8_t trick_k[12]       # cards per play in each trick
    int8_t tricks[4]         # tricks credited per seat
    int8_t reach6[4]         # trick index at which a seat reached 6 tricks, -1 = not yet, -2 = before a scenario began
    int8_t order[3]          # active seats in play order from the dealer
    int8_t claim_order[3]    # seats of the current claim window, in order
    int8_t phase             # ST_PH_*
    int8_t turn              # seat to act
    int8_t dealer            # dealer of this round
    int8_t next_dealer       # dealer of the next round (§4.1)
    int8_t dreamer           # dreamer seat, -1 with 3 players
    int8_t declarer          # seat that declared, -1 = none yet
    int8_t special           # special player, -1 = none
    int8_t decl_pos          # declarations made (position in order)
    int8_t claim_pos         # position in the current claim window
    int8_t ntricks           # completed tricks this round
    int8_t winner            # round winner, -1 = none / not yet
    int8_t t                 # winner's tricks (count) for scoring
    int8_t t_dream           # dreamer's tricks (5 + matches), 0 = no dreamer / no winner
    int8_t five_tigers       # the round ended by Five Tigers
    int8_t claimed           # the round ended by a claim
    int16_t round_no         # counted rounds finished
    int16_t voids            # void (all-pass) rounds redealt
    int16_t redeals          # void deals redealt in the current round (X17 cap)
    int32_t last[4]          # payments of the last counted round
    int32_t score[4]         # cumulative points


# ---- inline helpers shared by the state machine, the agent and the observation --------------
cdef inline int next_active(const STState* s, int q) noexcept nogil:
    """The active player after q in play order (the dreamer is skipped)."""
    if s.order[0] == q:
        return s.order[1]
    if s.order[1] == q:
        return s.order[2]
    return s.order[0]

cdef inline uint64_t old_now(const STState* s, const STConfig* c) noexcept nogil:
    """Current old cards (§2.5): face-down discards count as played unless old_tracking is
    public (X9)."""
    cdef uint64_t m = s.up[0] | s.up[1] | s.up[2] | s.up[3]
    if not c.old_public:
        m |= s.down[0] | s.down[1] | s.down[2] | s.down[3]
    return st_old_mask(m)

cdef inline int count_of(const STState* s, int q, uint64_t old) noexcept nogil:
    """A player's count (§5.5): tricks credited + old cards in hand."""
    return s.tricks[q] + cs_popcount(s.hand[q] & old)

cdef inline int lead_list_with(const STState* s, const STConfig* c, uint64_t part, uint64_t* buf) noexcept nogil:
    """The legal leads of the seat to act that may contain the staged cards `part` (non-empty):
    all of lead_list's supersets of part, and maybe other leads (buf: ST_MAX_PLAYS entries)."""
    return st_enum_leads_with(s.hand[s.turn], old_now(s, c), s.turn == s.special, &c.rules, part, buf)

cdef inline int lead_list(const STState* s, const STConfig* c, uint64_t* buf) noexcept nogil:
    """Every legal lead of the seat to act (buf: ST_MAX_PLAYS entries)."""
    return st_enum_leads(s.hand[s.turn], old_now(s, c), s.turn == s.special, &c.rules, buf)


# ---- the state machine (vt.init, ...), and the steps a scenario replays ------------------------
cdef void deal_round(STState* s, const STConfig* c) noexcept nogil
cdef void end_declare(STState* s, const STConfig* c) noexcept nogil
cdef void open_window(STState* s, const STConfig* c, int first) noexcept nogil
cdef void st_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int st_current_player(const void* st, const void* cfg) noexcept nogil
cdef int st_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void st_apply(void* st, const void* cfg, int a) noexcept nogil
cdef bint st_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef void st_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void st_metrics(const void* st, const void* cfg, double* out) noexcept nogil
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
