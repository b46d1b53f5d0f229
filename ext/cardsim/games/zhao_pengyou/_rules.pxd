# Zhao Pengyou pure rules (docs/rules/zhao_pengyou.md §2, §5, §6): card identities, the trump
# tables, the deal config, and the rule kernels on cards and config only (no state struct).
from cardsim.core._types cimport uint8_t, int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._hand cimport Hand, hand_count, hand_size, hand_size_in, hand_max_count

cdef enum:
    ZP_NID = 54              # identities: suit*13 + rank (S H D C, rank 0='2'..12='A'), 52 SJK, 53 BJK
    ZP_SJK = 52              # small joker
    ZP_BJK = 53              # big joker
    ZP_NPLAIN = 52           # plain identities (a 52-card pack); the jokers follow
    ZP_TRUMP = 4             # effective suit index of the trump suit
    ZP_F_SINGLE = 1          # lead formats (§5.2)
    ZP_F_SET = 2
    ZP_F_SEQ = 3
    ZP_F_THROW = 4
    ZP_MAX_DECK = 216        # 4 packs + 8 jokers at most
    ZP_MIN_SEATS = 5         # the deck table (§2.1) has a row for 5..12 players
    ZP_MAX_SEATS = 12
    ZP_IMPOSSIBLE = 1 << 20  # set_obligation_cost: no completion exists
    ZP_MAXU = 32             # units in a mixed-throw format (issue 17)
    ZP_MAXM = 40             # member identities over all units of a format
    ZP_DP_NP = 0             # draw policies (shengji TrickDrawPolicy): no_protections
    ZP_DP_LTP = 1            # longer_tuples_protected
    ZP_DP_OTT = 2            # only_draw_tractor_on_tractor
    ZP_DP_LTP_OTT = 3        # both
    ZP_DP_NFBD = 4           # no_format_based_draw
    ZP_TE_ALL = 0            # throw evaluation (ThrowEvaluationPolicy): all, highest, trick_unit_length
    ZP_TE_HIGHEST = 1
    ZP_TE_TUL = 2

ctypedef struct ZPTrump:
    uint8_t eff[ZP_NID]          # effective suit of each identity (0..3 plain S H D C, 4 trump)
    uint8_t strength[ZP_NID]     # strength inside its effective suit (higher = stronger; equal = tie)
    int8_t seqpos[ZP_NID]        # position in the sequence order of its suit, -1 = never in a sequence
    uint64_t smask[5]        # identities of each effective suit
    int8_t suit              # trump suit 0..3, -1 = no trump
    int8_t rank              # trump rank 0..12
    int8_t succ[ZP_NID][3]       # tractor successors of each identity (-1 = none; zp_set_adjacency)
    uint8_t ordinal[5]       # shengji's suit ordinal of each effective suit (cmp_effective)

ctypedef struct ZPFormat:
    int8_t nu                # units, in shengji's order: ascending (size, first card)
    int8_t suit              # effective suit of the lead (0..4)
    int8_t rainbow           # a rainbow lead (units: cnt cards of one rank, mem = a card of it)
    int8_t cnt[32]           # copies of each member of a unit
    int8_t len[32]           # members of a unit (1 = a tuple of cnt copies, >= 2 a tractor)
    int8_t off[32]           # offset of a unit's members in mem
    int8_t mem[40]           # member identities, low to high inside a unit

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
    int32_t max_deals        # cap on deals in a match (D23)
    int32_t max_redeals      # redeals allowed in one deal; then a deal nobody declares in is void (D24)
    int32_t mixed            # throw_units 'mixed': shengji's TrickFormat leads and follows (issue 17)
    int32_t adj_sj           # tractor_adjacency 'shengji' (through the trump rank and jokers)
    int32_t tmin_count       # tractor_min_count
    int32_t tmin_len         # tractor_min_length
    int32_t draw_policy      # ZP_DP_*
    int32_t throw_eval       # ZP_TE_*
    int32_t bombs            # 0 no_bombs, 1 allow_bombs, 2 allow_bombs_suit_following
    int32_t rainbows         # 0 off, n >= 1: rainbow leads of at least n cards per rank
    int32_t nt_declare       # no-trump declarations with two copies of a joker
    int32_t gp[7]            # game points: DECL at 0 (base, per short), DECL below t1 (base, per short), OPP 1/2/3
    int32_t thr[3]           # thresholds per pack: t1 (40), t2 (80), t3 (100)


# ---- hot helpers (inline) ----------------------------------------------------------------------
cdef inline int id_points(int k) noexcept nogil:
    """Points of one card (§6.1): K and 10 score 10, 5 scores 5, jokers and the rest 0 (the K/10
    and 5 identities of every suit as masks, as in hand_points; 0 <= k < 54)."""
    return (10 * <int>((<uint64_t>0x4802401200900 >> k) & 1)
            + 5 * <int>((<uint64_t>0x40020010008 >> k) & 1))

cdef inline int hand_points(const Hand* h) noexcept nogil:
    """Points of a multiset of cards (the K/10 and 5 identities of every suit as masks; the layers
    are nested, so the first empty one ends the sum)."""
    cdef int i, t = 0
    for i in range(4):
        if not h.layer[i]:
            break
        t += (10 * cs_popcount(h.layer[i] & <uint64_t>0x4802401200900)
              + 5 * cs_popcount(h.layer[i] & <uint64_t>0x40020010008))
    return t

cdef inline void zp_merge(Hand* d, const Hand* s) noexcept nogil:
    """d += s (multiset union by counts, saturating at 4 copies like hand_merge), bit-sliced on the
    layers: a + b > i iff a > j and b > i - 1 - j for some j."""
    cdef uint64_t a0 = d.layer[0], a1 = d.layer[1], a2 = d.layer[2], a3 = d.layer[3]
    cdef uint64_t b0 = s.layer[0], b1 = s.layer[1], b2 = s.layer[2], b3 = s.layer[3]
    d.layer[0] = a0 | b0
    d.layer[1] = a1 | b1 | (a0 & b0)
    d.layer[2] = a2 | b2 | (a1 & b0) | (a0 & b1)
    d.layer[3] = a3 | b3 | (a2 & b0) | (a1 & b1) | (a0 & b2)

cdef inline void zp_sub(Hand* d, const Hand* s) noexcept nogil:
    """d -= s as far as held (like hand_sub), bit-sliced: a - b > i iff b = v and a > i + v for
    some v."""
    cdef uint64_t a0 = d.layer[0], a1 = d.layer[1], a2 = d.layer[2], a3 = d.layer[3]
    cdef uint64_t e0 = ~s.layer[0], e1 = s.layer[0] & ~s.layer[1], e2 = s.layer[1] & ~s.layer[2]
    cdef uint64_t e3 = s.layer[2] & ~s.layer[3]
    d.layer[0] = (e0 & a0) | (e1 & a1) | (e2 & a2) | (e3 & a3)
    d.layer[1] = (e0 & a1) | (e1 & a2) | (e2 & a3)
    d.layer[2] = (e0 & a2) | (e1 & a3)
    d.layer[3] = e0 & a3

cdef inline uint64_t rank_mask(int rank) noexcept nogil:
    """The four plain identities of one rank."""
    return (<uint64_t>0x8004002001) << rank

cdef inline int seq_id(const ZPTrump* t, int suit, int pos) noexcept nogil:
    """Identity at sequence position pos of effective suit `suit`."""
    cdef int ps = suit if suit < 4 else t.suit
    cdef int r = pos if pos < t.rank else pos + 1
    return ps * 13 + r


cdef inline int ekey(const ZPTrump* t, int k) noexcept nogil:
    """shengji's compare_effective as a key: suit ordinal, then strength (equal = tie)."""
    return t.ordinal[t.eff[k]] * 64 + t.strength[k]

cdef inline int okey(const ZPTrump* t, int k) noexcept nogil:
    """A total order refining ekey (shengji's OrderedCard order; ties broken by identity)."""
    return ekey(t, k) * 64 + k


cdef inline uint64_t zp_lead_candidates(const ZPTrump* t, const Hand* P, const Hand* rest) noexcept nogil:
    """The factored lead (§5.2, one card at a time): the identities of `rest` (the hand) whose
    next copy keeps the non-empty partial lead P completable into a lead (the holding is rest +
    P). Validity: the lead's effective suit, and the largest count after the add at most the
    smallest holding of any identity in it (groups of one size k, max count <= k <= min
    holding). Exact without V4 'reject' (which adds zp_lead_legal_now). On the layers: minH is
    the first layer of the holding missing an identity of P, a candidate must be held maxP
    times and be in P fewer than minH times."""
    cdef uint64_t u = P.layer[0]
    cdef int maxP = hand_max_count(P), minH = 1
    cdef Hand full = rest[0]
    zp_merge(&full, P)
    while minH < 4 and (u & ~full.layer[minH]) == 0:
        minH += 1
    if maxP > minH:                         # not a valid partial lead: nothing completes it
        return 0
    return rest.layer[0] & t.smask[t.eff[bit_low(u)]] & full.layer[maxP - 1] & ~P.layer[minH - 1]


cdef inline uint64_t zp_follow_candidates(const ZPTrump* t, const Hand* rest, const Hand* play, int k,
                                          int suit, int L, bint* check) noexcept nogil:
    """The factored follow (§5.4, one card at a time): the identities of `rest` (the hand) that may
    be added to the partial follow `play`. *check is set when each candidate must still meet the
    set obligation (a set-type lead with enough suit cards: zp_follow_set_adds); otherwise every
    candidate returned can be completed as it is."""
    cdef uint64_t sm = t.smask[suit]
    cdef int inplay = hand_size_in(play, sm)
    cdef int nS = hand_size_in(rest, sm) + inplay
    check[0] = False
    if nS < L:
        if hand_size(play) - inplay < L - nS:
            return rest.layer[0]
        return rest.layer[0] & sm
    check[0] = k >= 2
    return rest.layer[0] & sm


# ---- rule kernels (_rules.pyx) -------------------------------------------------
cdef bint zp_lead_completable(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int seat,
                              const Hand* full, const Hand* P, int kmin, int kmax) noexcept nogil

cdef inline bint zp_lead_whole(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int seat,
                               const Hand* full, const Hand* P) noexcept nogil:
    """May the partial lead P be committed as it is? Validity: groups of one size (every identity
    in P held the same number of times) and, with V4 'reject', a lead legal now."""
    cdef int maxP = hand_max_count(P)
    if maxP == 0 or P.layer[maxP - 1] != P.layer[0]:
        return False
    return not c.reject_throw or zp_lead_completable(t, c, hands, seat, full, P, maxP, maxP)

cdef void zp_set_trump(ZPTrump* t, int suit, int rank) noexcept nogil
cdef void zp_trump_tables(ZPTrump* t, int suit, int rank) noexcept nogil
cdef int zp_classify(const ZPTrump* t, const Hand* P, int* k, int* m, int* suit) noexcept nogil
cdef int zp_trick_winner(const ZPTrump* t, const Hand* plays, int n, int fmt, int k, int m,
                         int suit) noexcept nogil

cdef inline int zp_play_key(const ZPTrump* t, const Hand* P, int fmt, int k, int m, int suit) noexcept nogil:
    """Strength key of a play for SINGLE/SET/SEQ leads (§5.5): -1 if it does not qualify; trumps
    rank above the led suit (zp_trick_winner: the first play of the highest key wins)."""
    cdef int id0, e, kk, mm, ss, f
    cdef uint64_t ids = P.layer[0]
    if fmt == ZP_F_SINGLE or fmt == ZP_F_SET:
        if ids == 0 or (ids & (ids - 1)) != 0:
            return -1
        id0 = bit_low(ids)
        e = t.eff[id0]
        if e == ZP_TRUMP:
            return 100 + t.strength[id0]
        if e == suit:
            return t.strength[id0]
        return -1
    f = zp_classify(t, P, &kk, &mm, &ss)
    if f != ZP_F_SEQ or kk != k or mm != m or (ss != suit and ss != ZP_TRUMP):
        return -1
    e = -1
    while ids:
        id0 = bit_low(ids)
        ids &= ids - 1
        if t.seqpos[id0] > e:
            e = t.seqpos[id0]
    return e + (100 if ss == ZP_TRUMP else 0)
cdef int set_obligation_cost(const int* pc, const int* cap, const int* sc, int n, int k, int m,
                             int min_size) noexcept nogil
cdef bint zp_follow_completable(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play,
                                int k, int m, int suit, int L) noexcept nogil
cdef bint zp_follow_ok(const ZPTrump* t, const ZPConfig* c, const Hand* full, const Hand* play, int k,
                       int m, int suit, int L) noexcept nogil
cdef int zp_pair_cost(const Hand* rest, const Hand* play, uint64_t sm, int m, int min_size) noexcept nogil
cdef uint64_t zp_follow_set_adds(const Hand* rest, const Hand* play, uint64_t sm, int k, int m, int min_size,
                                 int left) noexcept nogil
cdef int zp_suit_counts(const Hand* full, const Hand* play, uint64_t sm, int* sc, int* pc,
                        int* ids) noexcept nogil
cdef int zp_throw_blocker(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int leader,
                          const Hand* P, int k) noexcept nogil
cdef bint zp_lead_legal_now(const ZPTrump* t, const ZPConfig* c, const Hand* hands, int seat,
                            const Hand* full, const Hand* P) noexcept nogil
cdef int zp_lead_component(const ZPTrump* t, const Hand* lead, int fmt, int k, int m) noexcept nogil
cdef int zp_opposition_points(const ZPConfig* c, int captured, int kitty_pts, int last_unit,
                              bint opp_last, int fails_decl, int fails_opp) noexcept nogil
cdef int zp_game_points(const ZPConfig* c, int p_opp, int decl_size, int* decl_won) noexcept nogil

cdef bint zp_deck_row(ZPConfig* c, int n) noexcept nogil

# ---- card order and tractor adjacency (shengji types.rs; _rules.pyx) -------------
cdef int sorted_ids(const ZPTrump* t, uint64_t m, int* out) noexcept nogil
cdef void zp_set_adjacency(ZPTrump* t, bint shengji) noexcept nogil
