# Tien Gow pure rules (docs/rules/tien_gow.md §2, §5, §6): tiles, the combination table of one
# configuration, comparison, trick winner, settlement, the contest sort. No state struct here.
# A tile identity's bit in a mask is the core card_bit (cardsim.core._bits).
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from cardsim.core._hand cimport Hand
from cardsim.core._bits cimport cs_popcount, cs_ctz

cdef enum:
    TG_IDS = 21              # tile identities: civil 0..10 (C1..C11), military 11..20 (strongest first)
    TG_CIVIL = 11            # identities 0..10 are civil (two copies each)
    TG_TILES = 32            # tiles in the set
    TG_NP = 4                # players
    TG_HAND = 8              # tiles dealt to each player
    TG_MAXCOMBO = 160        # room in the combination table (21 singles + at most 116 sets)
    TG_MAXBYTILE = 24        # room per identity in TGRules.by_tile
    TG_MAXBYCAT = 64         # room per category in TGRules.by_cat
    TG_NCAT = 11             # number of categories
    CAT_SINGLE_CIVIL = 0
    CAT_SINGLE_MILITARY = 1
    CAT_PAIR_CIVIL = 2
    CAT_PAIR_MILITARY = 3
    CAT_PAIR_MIXED = 4
    CAT_SUPREME = 5
    CAT_TRIPLE_2C1M = 6
    CAT_TRIPLE_1C2M = 7
    CAT_QUAD = 8
    CAT_TWO_PAIRS_CIVIL = 9
    CAT_TWO_PAIRS_MILITARY = 10
    TG_SIX = 17              # 4-2, half of the Supreme pair
    TG_THREE = 20            # 2-1, half of the Supreme pair
    TG_LOOK = 10             # 5-1, the lowest civil tile (its pair earns an hk_bonuses payment)

ctypedef struct TGCombo:
    uint64_t one             # identities present (bit k: at least one copy of k)
    uint64_t two             # identities present twice
    int8_t cat               # CAT_*
    int8_t size              # number of tiles
    int16_t strength         # larger = stronger, compared only inside one category

ctypedef struct TGRules:
    int32_t ncombo           # combinations in combo[] (singles first: combo k = the single tile k)
    int32_t supreme_beats_pairs  # option supreme_follow = "highest_pair": a followed Supreme beats any pair
    int32_t supreme          # index of the Supreme pair in combo[]
    TGCombo combo[160]       # TG_MAXCOMBO: every legal lead of this configuration
    int16_t by_tile_n[21]    # number of multi-tile combinations holding identity k
    int16_t by_tile[21][24]  # their indices
    int16_t by_cat_n[11]     # number of combinations per category
    int16_t by_cat[11][64]   # their indices, strongest first
    uint64_t beat_single[21] # identities whose single tile beats a single tile k (same suit, stronger)
    uint64_t reach[21]       # every identity of the multi-tile combinations holding k (k included)

cdef inline bint combo_within(const TGCombo* c, const Hand* h) noexcept nogil:
    return ((c.one & ~h.layer[0]) | (c.two & ~h.layer[1])) == 0

cdef inline bint combo_holds(const TGCombo* c, const Hand* p) noexcept nogil:
    """True if the partial play p is contained in combination c."""
    return ((p.layer[0] & ~c.one) | (p.layer[1] & ~c.two)) == 0

cdef inline uint64_t combo_missing(const TGCombo* c, const Hand* p) noexcept nogil:
    """Identities of c still missing from its sub-multiset p (one more copy of each may be added)."""
    return (c.one & ~p.layer[0]) | (c.two & ~p.layer[1])

cdef inline bint combo_beats(const TGRules* r, int ci, int hi) noexcept nogil:
    """Beat (§5.1, T9, T12): combination ci beats the current high play hi iff it is of the same
    category and strictly stronger; a Supreme high is never beaten; with supreme_follow =
    "highest_pair" a Supreme beats any pair (civil, military or mixed)."""
    cdef int hc = r.combo[hi].cat
    if hc == CAT_SUPREME:
        return False
    if r.combo[ci].cat == hc:
        return r.combo[ci].strength > r.combo[hi].strength
    return (ci == r.supreme and r.supreme_beats_pairs
            and (hc == CAT_PAIR_CIVIL or hc == CAT_PAIR_MILITARY or hc == CAT_PAIR_MIXED))

cdef void tg_rules_init(TGRules* r, bint fives_equal, bint mixed, bint two_pairs, bint supreme_beats_pairs) noexcept nogil
cdef inline int tg_classify(const TGRules* r, const Hand* p) noexcept nogil:
    """The combination a set of tiles forms (§2.2): its index in r.combo, or -1 if the tiles are
    no legal combination of this configuration (Validity of a lead). Inline: every lead and
    BEAT asks it."""
    cdef int n, k, i, ci
    if p.layer[2] != 0 or p.layer[0] == 0:
        return -1
    n = cs_popcount(p.layer[0]) + cs_popcount(p.layer[1])   # layer 2 is empty, so layer 3 too
    k = cs_ctz(p.layer[0])
    if n == 1:
        return k
    for i in range(r.by_tile_n[k]):
        ci = r.by_tile[k][i]
        if r.combo[ci].one == p.layer[0] and r.combo[ci].two == p.layer[1]:
            return ci
    return -1
cdef int tg_trick_winner(const TGRules* r, const int16_t* plays, int n) noexcept nogil
cdef void tg_settle(const int8_t* tricks, int banker, int winner, int mult, bint increasing, bint shutout,
                    int factor, int catch_leader, int32_t* pay) noexcept nogil
cdef int tg_sort(const uint8_t* ids, int n, uint8_t* civil, uint8_t* military) noexcept nogil
