# Zhao Pengyou (Finding Friends): config, state struct and the kernels other modules may cimport.
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint16_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand
from cardsim.core._actions cimport ActionSet

cdef enum:
    ZP_NID = 54              # identities: suit*13 + rank (S H D C, rank 0='2'..12='A'), 52 SJK, 53 BJK
    ZP_SJK = 52
    ZP_BJK = 53
    ZP_TRUMP = 4             # effective suit index of the trump suit
    ZP_A_ADD = 0             # 0..53: add one copy of identity k to the play being built
    ZP_A_COMMIT = 54         # commit the lead built so far
    ZP_A_PASS = 55           # declaration window: pass
    ZP_A_DECLARE = 56        # 56..59: declare suit S H D C (with a card of one's own rank)
    ZP_A_DISCARD = 60        # 60..113: discard one copy of identity k to the kitty
    ZP_A_CALL = 114          # 114 + 4*id + (N-1): call the N-th copy of plain identity id (id < 52)
    ZP_NUM_ACTIONS = 322
    ZP_PH_DRAW = 0
    ZP_PH_KITTY = 1
    ZP_PH_CALL = 2
    ZP_PH_PLAY = 3
    ZP_PH_END = 4
    ZP_F_SINGLE = 1
    ZP_F_SET = 2
    ZP_F_SEQ = 3
    ZP_F_THROW = 4
    ZP_MAX_CALLS = 5
    ZP_MAX_DECK = 216

ctypedef struct ZPTrump:
    uint8_t eff[54]          # effective suit of each identity (0..3 plain S H D C, 4 trump)
    uint8_t strength[54]     # strength inside its effective suit (higher = stronger; equal = tie)
    int8_t seqpos[54]        # position in the sequence order of its suit, -1 = never in a sequence
    uint64_t smask[5]        # identities of each effective suit
    int8_t suit              # trump suit 0..3
    int8_t rank              # trump rank 0..12

ctypedef struct ZPConfig:
    int32_t n                # players
    int32_t decks            # 52-card packs d
    int32_t nbig             # big jokers
    int32_t nsmall           # small jokers
    int32_t cpp              # cards per player
    int32_t kitty            # kitty size (6, or 8 with 5 players)
    int32_t calls            # friend calls F
    int32_t total            # cards in the pack
    int32_t kitty_mult       # 0: x2 (seed); 1: 2 x largest component of the last lead (V2)
    int32_t component_top    # throw validity by component instead of by card (V3)
    int32_t reject_throw     # failed throws are illegal actions (V4 'reject')
    int32_t throw_penalty    # points per failed attempt (V4 'penalty'), 0 = none
    int32_t reveal_blocker   # reveal who stopped a failed throw (V4)
    int32_t self_consume     # a called copy played inside DECL consumes the call (V5)
    int32_t called_removed   # the revealing copy's points count for nobody (V6, D11)
    int32_t partial_sets     # shengji-style partial set obligation (V7)
    int32_t every_window     # declaration windows after every draw for everyone (V8)
    int32_t defend_a         # match ends when a deal at trump rank A is won by DECL (V9)
    int32_t match            # scope == "match"
    int32_t max_deals        # safety cap on deals in a match
    int32_t gp[7]            # game points: DECL at 0 (base, per short), DECL below t1 (base, per short), OPP 1/2/3
    int32_t thr[3]           # thresholds per pack: t1 (40), t2 (80), t3 (100)

ctypedef struct ZPState:
    Rng rng                  # deal stream: redeals and the next deals of a match
    Hand hand[12]            # cards held (the play being built is already out of the hand)
    Hand played[12]          # cards each seat played this deal
    Hand trick[12]           # cards each seat played to the current trick
    Hand exposed[12]         # cards publicly known to be in a seat's hand (declared T-R, failed throws)
    Hand kitty               # the declarer's discards
    Hand cur                 # play being built by the seat to act
    ZPTrump tr               # trump tables of this deal (valid once declared)
    uint8_t deck[216]        # the shuffled pack (draw order)
    uint8_t played_count[54] # copies of each identity played to tricks
    int8_t call_id[5]        # called identity per call
    int8_t call_n[5]         # N of each call
    int8_t call_by[5]        # seat that fulfilled the call, -1 = open
    int8_t rank[12]          # personal rank 0..12 (2..A)
    int16_t captured[12]     # points captured in tricks this deal
    int16_t fails[12]        # failed throw attempts this deal
    int16_t gained[12]       # game points gained this deal
    uint8_t void[12]         # effective suits each seat has shown void in
    int16_t deck_len         # cards in the pack
    int16_t deck_pos         # cards drawn so far
    int16_t ncalls           # calls made
    int16_t discards         # kitty discards made
    int16_t trick_removed    # points of revealing copies removed from the current trick
    int16_t kitty_pts        # points in the discards
    int16_t p_opp            # opposition points of the finished deal
    int16_t tricks_done      # completed tricks
    int16_t redeals          # redeals (nobody declared) in this deal
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
    int8_t leader            # leader of the current trick
    int8_t nplays            # plays made to the current trick
    int8_t cur_n             # cards in cur
    int8_t lead_fmt          # ZP_F_* of the current trick, 0 = no lead yet
    int8_t lead_k            # group size of the lead
    int8_t lead_m            # groups in the lead
    int8_t lead_suit         # effective suit of the lead
    int8_t lead_len          # cards in the lead
    int8_t last_winner       # winner of the last trick
    int8_t blocker           # seat that stopped the last failed throw (-1; public only with reveal_blocker)
    int8_t fail_seat         # seat of the last failed throw, -1
    int8_t decl_won          # 1 DECL won the last deal, 0 OPP, -1 none yet

cdef void zp_set_trump(ZPTrump* t, int suit, int rank) noexcept nogil
cdef int zp_classify(const ZPTrump* t, const Hand* P, int* k, int* m, int* suit) noexcept nogil
cdef int zp_trick_winner(const ZPTrump* t, const Hand* plays, int n, int fmt, int k, int m, int suit) noexcept nogil
cdef bint zp_follow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play, int fmt, int k,
                       int m, int suit, int L) noexcept nogil
