# Zhao Pengyou state machine: the state struct (fixed size, no pointers) and the kernels the
# agent, the observer and the spec cimport. Pure rules live in _rules.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint16_t, uint64_t, MAX_PLAYERS
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand
from cardsim.core._actions cimport ActionSet
from cardsim.core._trick cimport TrickRecord
from cardsim.core._staged cimport Staged
from cardsim.games.zhao_pengyou._rules cimport ZPTrump, ZPConfig, ZPFormat, ZP_NID, ZP_MAX_DECK

cdef enum:
    ZP_A_ADD = 0             # 0..53: add one copy of identity k to the play being built
    ZP_A_COMMIT = ZP_A_ADD + ZP_NID  # commit the lead built so far
    ZP_A_PASS = 55           # declaration window: pass
    ZP_A_DECLARE = 56        # 56..59: declare suit S H D C (with a card of one's own rank)
    ZP_A_DISCARD = 60        # 60..113: discard one copy of identity k to the kitty
    ZP_A_CALL = 114          # 114 + 4*id + (N-1): call the N-th copy of plain identity id (id < 52)
    ZP_NUM_ACTIONS = 322
    ZP_A_DECLARE_NT = 322    # declare no trump (option notrump_declaration: two copies of a joker)
    ZP_NUM_ACTIONS_NT = 323
    ZP_ACTION_WORDS = 6      # ceil(322 / 64)
    ZP_PH_DRAW = 0
    ZP_PH_KITTY = 1
    ZP_PH_CALL = 2
    ZP_PH_PLAY = 3
    ZP_PH_END = 4
    ZP_MAX_CALLS = 5

ctypedef struct ZPState:
    Rng rng                  # deal stream: redeals and the next deals of a match
    Hand hand[MAX_PLAYERS]   # cards held (the play being built is already out of the hand); hand, played,
                             # trick, exposed, kitty and dk_known stay consecutive (start_deal clears them at once)
    Hand played[MAX_PLAYERS] # cards each seat played this deal
    Hand trick[MAX_PLAYERS]  # cards each seat played to the current trick
    Hand exposed[MAX_PLAYERS] # cards publicly known to be in a seat's hand (declared T-R, failed throws)
    Hand kitty               # the declarer's discards
    Hand dk_known            # cards public knowledge puts in the declarer's hand or the kitty (the declared
                             # card once the declarer has discarded face down)
    uint64_t open_calls      # identities of the calls nobody has fulfilled yet (zp_open_calls)
    Staged cur               # play being built by the seat to act (core staged move)
    TrickRecord rec          # the current trick: leader, order of play (plays are in trick[])
    ZPTrump tr               # trump tables of this deal (valid once declared)
    ZPFormat fmt             # throw_units 'mixed': shengji's format of the current trick's lead
    uint8_t deck[ZP_MAX_DECK] # the shuffled pack (draw order)
    uint8_t played_count[ZP_NID] # copies of each identity played to tricks
    int8_t call_id[5]        # called identity per call
    int8_t call_n[5]         # N of each call
    int8_t call_by[5]        # seat that fulfilled the call, -1 = open
    int8_t rank[MAX_PLAYERS] # personal rank 0..12 (2..A)
    int16_t captured[MAX_PLAYERS] # points captured in tricks this deal
    int16_t fails[MAX_PLAYERS] # failed throw attempts this deal
    int16_t gained[MAX_PLAYERS] # game points gained this deal
    uint8_t void[MAX_PLAYERS] # effective suits each seat has shown void in
    int16_t deck_len         # cards in the pack
    int16_t deck_pos         # cards drawn so far
    int16_t ncalls           # calls made
    int16_t discards         # kitty discards made
    int16_t trick_removed    # points of revealing copies removed from the current trick
    int16_t trick_pts        # points played to the current trick so far (summed as the plays come)
    int16_t tw_key           # zp_play_key of the current trick's winning play so far (not for a THROW lead)
    int16_t kitty_pts        # points in the discards
    int16_t p_opp            # opposition points of the finished deal
    int16_t tricks_done      # completed tricks
    int16_t redeals          # redeals (nobody declared) in this deal (at most max_redeals, D24)
    int16_t deal_no          # deals completed (match)
    int16_t last_unit        # size of the largest component of the last trick's lead (V2)
    int16_t failed_total     # failed throws this deal
    uint16_t decl_mask       # seats known to be in DECL
    uint16_t active          # active seats (won the previous deal)
    uint16_t winners         # seats of the winning team of the last finished deal
    uint16_t match_winners   # seats that won the match
    int8_t phase             # ZP_PH_*
    int8_t turn              # seat to act
    int8_t starter           # starter of this deal
    int8_t drawer            # seat that drew last
    int8_t win_i             # next offset in the current declaration window (n = closed)
    int8_t declarer          # -1 before a declaration
    int8_t lead_fmt          # ZP_F_* of the current trick, 0 = no lead yet
    int8_t lead_k            # group size of the lead
    int8_t lead_m            # groups in the lead
    int8_t lead_suit         # effective suit of the lead
    int8_t lead_len          # cards in the lead
    int8_t last_winner       # winner of the last trick
    int8_t blocker           # seat that stopped the last failed throw (-1; public only with reveal_blocker)
    int8_t fail_seat         # seat of the last failed throw, -1
    int8_t tw_best           # play index (0 = lead) winning the current trick so far (not for a THROW lead)
    int8_t decl_won          # 1 DECL won the last deal, 0 OPP, -1 none yet

cdef void zp_open_calls(ZPState* s) noexcept nogil
cdef void start_deal(ZPState* s, const ZPConfig* c) noexcept nogil
cdef void draw_advance(ZPState* s, const ZPConfig* c) noexcept nogil
cdef void finish_deal(ZPState* s, const ZPConfig* c) noexcept nogil


cdef inline void zp_side_totals(const ZPState* s, const ZPConfig* c, int* opp_points, int* decl_fails,
                                int* opp_fails) noexcept nogil:
    """The card points the opposition (every seat outside decl_mask) has captured, and each side's
    failed throws (§6's inputs; the scoring and the running standing both start from them)."""
    cdef int q, P = 0, fd = 0, fo = 0
    for q in range(c.n):
        if (s.decl_mask >> q) & 1:
            fd += s.fails[q]
        else:
            P += s.captured[q]
            fo += s.fails[q]
    opp_points[0] = P
    decl_fails[0] = fd
    opp_fails[0] = fo
cdef int trick_winner_so_far(const ZPState* s, const ZPConfig* c, const Hand* extra) noexcept nogil
cdef void zp_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int zp_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint zp_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int zp_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void zp_apply(void* st, const void* cfg, int a) noexcept nogil
cdef void zp_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void zp_metrics(const void* st, const void* cfg, double* out) noexcept nogil
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
