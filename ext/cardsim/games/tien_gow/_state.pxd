# Tien Gow state machine (docs/rules/tien_gow.md §3-§6): the config and state structs, the phases,
# deal, legal plays, apply, returns and metrics; and the kernels the agent, observe and spec cimport.
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand
from cardsim.core._actions cimport ActionSet
from cardsim.core._hand cimport hand_size
from cardsim.core._bits cimport cs_popcount
from cardsim.core._trick cimport TrickRecord
from cardsim.core._staged cimport Staged
from cardsim.core._trick cimport trick_index_of
from cardsim.games.tien_gow._rules cimport TGRules

cdef enum:
    TG_NUM_ACTIONS = 43      # 0..20 UP k, 21..41 DOWN k, 42 COMMIT
    TG_A_DOWN = 21           # first DOWN action
    TG_A_COMMIT = 42         # the leader's commit
    TG_PH_PLAY = 0
    TG_PH_END = 1
    TG_MODE_NONE = 0         # Staged.kind: nothing staged yet
    TG_MODE_UP = 1           # Staged.kind: staging a lead or a BEAT (face up)
    TG_MODE_DOWN = 2         # Staged.kind: staging a DISCARD (face down)

ctypedef struct TGConfig:
    TGRules rules            # combination table of this configuration (§2.2, §7)
    int32_t must_beat        # must_beat_if_able (§7)
    int32_t death_threshold  # early death: tricks needed before a single final trick to BEAT (0 = off)
    int32_t increasing       # banker_multiplier = "increasing"
    int32_t shutout          # shutout_bonus
    int32_t hk               # hk_bonuses
    int32_t match            # scope == "match"
    int32_t num_deals        # deals of a match (T5)
    int32_t bankroll         # stop a match when a balance falls below -bankroll (0 = no stop)

ctypedef struct TGState:
    Rng rng                  # deal stream: first banker, shuffles, the next deals of a match
    Hand hand[4]             # tiles held (the actor's staged tiles excluded)
    Staged stage             # the actor's play under construction (kind = TG_MODE_*; private to the actor)
    TrickRecord cur          # the current trick: leader, order of plays (the tiles are in tplay)
    Hand tplay[8][4]         # tiles each seat played to each trick of this deal
    int16_t high_combo       # combination index of the current high play, -1 before the lead
    int8_t tface[8]          # per trick: bit q = seat q played face up (lead or BEAT)
    int8_t tsize[8]          # per trick: tiles per play k (0 = not started)
    int8_t tleader[8]        # per trick: leader
    int8_t twinner[8]        # per trick: winner, -1 until complete
    int16_t dcon[8][4]       # must_beat_if_able: high combination a seat declined to beat by discarding (-1 none)
    int8_t tricks[4]         # tricks credited this deal (k for a k-tile trick)
    int8_t phase             # TG_PH_*
    int8_t turn              # seat to act
    int8_t high_seat         # seat of the current high play
    int8_t ntrick            # tricks completed this deal
    int8_t banker            # banker of this deal
    int8_t streak            # consecutive deals the banker has won as banker
    int8_t deal_winner       # winner of the last settled deal, -1 before
    int8_t catch_leader      # hk_bonuses: seat caught by 4-2 over its led 2-1 in the final trick
    int16_t deal_no          # deals settled in this match
    int32_t deal_pay[4]      # chips won this deal (hk payments and the settlement)
    int32_t balance[4]       # chips won this match

cdef void new_deal(TGState* s) noexcept nogil
cdef bint holds_beat(const TGConfig* c, const Hand* holding, int hi) noexcept nogil
cdef void tg_init(void* st, const void* cfg, Rng* rng) noexcept nogil
cdef int tg_current_player(const void* st, const void* cfg) noexcept nogil
cdef bint tg_is_terminal(const void* st, const void* cfg) noexcept nogil
cdef int tg_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil
cdef void tg_apply(void* st, const void* cfg, int a) noexcept nogil
cdef void tg_returns(const void* st, const void* cfg, double* out) noexcept nogil
cdef void tg_metrics(const void* st, const void* cfg, double* out) noexcept nogil


cdef inline Hand merged(const Hand* a, const Hand* b) noexcept nogil:
    """a + b for multisets of at most two copies per identity (hand plus staged tiles)."""
    cdef Hand h
    h.layer[0] = a.layer[0] | b.layer[0]
    h.layer[1] = a.layer[1] | b.layer[1] | (a.layer[0] & b.layer[0])
    h.layer[2] = 0
    h.layer[3] = 0
    return h

cdef inline void hand_union_into(Hand* dst, const Hand* src) noexcept nogil:
    dst[0] = merged(dst, src)

cdef inline int tg_size(const Hand* h) noexcept nogil:
    """hand_size for Tien Gow: at most two copies of a tile, so only layers 0 and 1 are used."""
    return cs_popcount(h.layer[0]) + cs_popcount(h.layer[1])

cdef inline int trick_size(const TGState* s, const TGConfig* c) noexcept nogil:
    return c.rules.combo[s.high_combo].size if s.high_combo >= 0 else 0

cdef inline bint death_blocks(const TGState* s, const TGConfig* c, int p) noexcept nogil:
    """Early death (§5.3): in a single-tile final trick a seat with fewer than the threshold's
    tricks may not BEAT."""
    return (c.death_threshold > 0 and trick_size(s, c) == 1
            and tg_size(&s.hand[p]) + s.stage.n == 1 and s.tricks[p] < c.death_threshold)

cdef inline bint trick_played(const TGState* s, int t, int q) noexcept nogil:
    """True if seat q has made its play in trick t."""
    if t < s.ntrick:
        return True
    return t == s.ntrick and s.phase == TG_PH_PLAY and trick_index_of(&s.cur, q) >= 0
# the batch kernel's hot loop with this game's functions inlined (core/_play_loop.pxi; vt.play)
cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil
