# Hakka Six Tigers: the config struct, card identities and pure rules on card masks (no state
# struct). Card identity: suit * 9 + (number - 1), suits SHI GUAN SUO XIAN = 0..3 (strongest
# first), CLOUD = 36. A play or a hand is a mask (bit k = identity k).
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._bits cimport bit_below, card_bit, cs_clz

cdef enum:
    ST_DECK = 37             # 36 suit cards + CLOUD
    ST_CLOUD = 36            # the suitless card, value 1
    ST_SHI1 = 0              # fixed old card SHI1
    ST_XIAN1 = 27            # fixed old card XIAN1
    PT_NONE = 0              # not a legal pattern
    PT_SINGLE = 1            # one card
    PT_RUN = 2               # >= 3 consecutive numbers of one suit
    PT_SET = 3               # 3 or 4 cards of one number
    ST_MAX_PLAYS = 208       # room for every lead / beat of any card mask, even all 37 (bound in the .pyx)

ctypedef struct STRules:
    int32_t set_natural      # set order 9 > 8 > ... > 1 (else X4: 9 > 1 > 8 > ... > 2)
    int32_t cloud_in_sets    # CLOUD may serve as a 1 in a set of 1s (X3 variant)

ctypedef struct STPlay:
    int8_t type              # PT_*
    int8_t size              # number of cards
    int8_t key               # strength within (type, size): single = card id, run = (3-suit)*16+top, set = set rank

ctypedef struct STConfig:
    int32_t nplayers         # 4 (with the dreamer) or 3 (no dreamer)
    int32_t ccw              # direction = "ccw": next(i) = i - 1
    int32_t must_beat        # X7: a player holding a beat must beat
    int32_t old_public       # old_tracking = "public": only face-up plays make old cards
    int32_t auto_claim       # X10 variant: a player reaching count 6 claims at once
    int32_t sung             # scoring = "sung" (else the point table)
    int32_t match            # scope = "match"
    int32_t rounds           # counted rounds of a match (4)
    int32_t claim_last       # claim_after_last_trick (X16): a claim window follows the last trick too
    int32_t max_redeals      # X17: void deals redealt in one round before it is abandoned
    int32_t table[7]         # points for t = 6..12 tricks
    STRules rules            # set order and CLOUD in sets

cdef extern from *:
    """
    /* the 36 suit cards, and the masks that keep a right shift by 1, 2, 4, 8 inside each suit's
       9-bit field (the top 1, 2, 4, 8 bits of every field cleared) */
    static const unsigned long long ST_SUIT_CARDS = 0xFFFFFFFFFULL;
    static const unsigned long long ST_FIELD_K1 = 0xFFFFFFFFFULL & ~(0x100ULL * 0x8040201ULL);
    static const unsigned long long ST_FIELD_K2 = 0xFFFFFFFFFULL & ~(0x180ULL * 0x8040201ULL);
    static const unsigned long long ST_FIELD_K4 = 0xFFFFFFFFFULL & ~(0x1E0ULL * 0x8040201ULL);
    static const unsigned long long ST_FIELD_K8 = 0x1ULL * 0x8040201ULL;
    /* numbers 1..7 of every suit: where a run of three can start */
    static const unsigned long long ST_RUN_STARTS = 0x7FULL * 0x8040201ULL;
    """
    const uint64_t ST_SUIT_CARDS
    const uint64_t ST_FIELD_K1
    const uint64_t ST_FIELD_K2
    const uint64_t ST_FIELD_K4
    const uint64_t ST_FIELD_K8
    const uint64_t ST_RUN_STARTS

cdef inline uint64_t st_full() noexcept nogil:
    """All 37 identities."""
    return ((<uint64_t>1) << 37) - 1

cdef inline uint64_t st_suit_mask(int s) noexcept nogil:
    """The nine cards of suit s (0 = SHI .. 3 = XIAN)."""
    return (<uint64_t>0x1FF) << (9 * s)

cdef inline uint64_t st_fixed_old() noexcept nogil:
    """SHI1, XIAN1, CLOUD: old whenever held (§2.5)."""
    return card_bit(ST_SHI1) | card_bit(ST_XIAN1) | card_bit(ST_CLOUD)

cdef inline int st_suit(int c) noexcept nogil:
    """Suit 0..3 of a card, 4 for CLOUD."""
    return c // 9

cdef inline int st_number(int c) noexcept nogil:
    """Number 1..9 of a card; CLOUD counts as 1."""
    return 1 if c == ST_CLOUD else c % 9 + 1

cdef inline uint64_t st_tigers() noexcept nogil:
    """The Five Tigers: SHI1 GUAN1 SUO1 XIAN1 CLOUD (§4.3)."""
    return card_bit(0) | card_bit(9) | card_bit(18) | card_bit(27) | card_bit(ST_CLOUD)

cdef inline uint64_t above(int c) noexcept nogil:
    """Identities strictly above c."""
    return ~bit_below(c + 1) & st_full()

cdef inline uint64_t st_old_mask(uint64_t played) noexcept nogil:
    """The old cards (§2.5) given the cards already played (face up, plus face down under
    old_tracking = all_played, DECISION X9).

    Points: the fixed old cards SHI1, XIAN1 and CLOUD while unplayed, and the top card of each
    suit: its highest-numbered card not yet played (cards in any hand, the dreamer's included,
    count as not played). Only cards in a hand are old in effect; the mask may hold the top
    card of a suit wherever it lies. Inline and unrolled: every lead and claim asks it."""
    cdef uint64_t rest = ~played & ST_SUIT_CARDS, y
    # y = rest smeared down inside each suit's 9-bit field (bit p set iff the suit holds an
    # unplayed card at or above p); the top card is then the bit of y whose next one is clear
    y = rest | ((rest >> 1) & ST_FIELD_K1)
    y |= (y >> 2) & ST_FIELD_K2
    y |= (y >> 4) & ST_FIELD_K4
    y |= (y >> 8) & ST_FIELD_K8
    return (st_fixed_old() & ~played) | (y & ~((y >> 1) & ST_FIELD_K1))
cdef int st_pattern(uint64_t m, const STRules* r, STPlay* out) noexcept nogil
cdef bint st_beats(uint64_t cand, const STPlay* high, const STRules* r) noexcept nogil
# inline: the legal plays of random play ask them at every lead and follow
cdef inline uint64_t st_single_leads(uint64_t hand, uint64_t old, bint special) noexcept nogil:
    """Cards of `hand` that may be led as a single (§5.2).

    Validity: with N = the non-old cards in hand, a normal player leads a card of N whose suit
    is the highest suit present in N, or any card when N is empty; a special player may also
    lead any old card at any time."""
    cdef uint64_t nonold = hand & ~old, res = 0
    cdef int s
    if nonold == 0:
        return hand
    for s in range(4):
        if nonold & st_suit_mask(s):
            res = nonold & st_suit_mask(s)
            break
    if special:
        res |= hand & old
    return res


cdef inline uint64_t st_multi_starts(uint64_t hand, const STRules* r) noexcept nogil:
    """Cards that begin a run or a set of hand built in ascending identity order: the lowest
    card of every run (c, c+1, c+2 held in one suit) and of every set (two more cards of its
    number in later suits; CLOUD, the highest identity, counts for the 1s with
    cloud_in_sets). Word operations: the hot path of random play."""
    cdef uint64_t h = hand & (st_full() >> 1)          # the 36 suit cards
    cdef uint64_t runs = h & (h >> 1) & (h >> 2) & ST_RUN_STARTS
    cdef uint64_t x1 = h >> 9, x2 = h >> 18, x3 = h >> 27, sets, ones
    sets = ((x1 & x2) | (x1 & x3) | (x2 & x3)) & h
    if r.cloud_in_sets and (hand >> ST_CLOUD) & 1:
        ones = ((<uint64_t>1) | (<uint64_t>1 << 9) | (<uint64_t>1 << 18) | (<uint64_t>1 << 27)) & h
        sets |= ones & (x1 | x2 | x3)                  # a 1, another 1 above it, and CLOUD
    return runs | sets


cdef inline uint64_t st_lead_starts(uint64_t hand, uint64_t old, bint special, const STRules* r) noexcept nogil:
    """Cards that can begin a legal lead built in ascending order (§5.1-§5.2): the allowed
    singles and the first cards of every run and set (the first cards of st_enum_leads)."""
    return st_single_leads(hand, old, special) | st_multi_starts(hand, r)


cdef inline uint64_t st_single_beats(uint64_t hand, int high) noexcept nogil:
    """Cards of hand that beat the single `high` (§5.3): same suit, higher number; none against
    a fixed old card (SHI1, XIAN1, CLOUD)."""
    if card_bit(high) & st_fixed_old():
        return 0
    return hand & st_suit_mask(st_suit(high)) & ~((card_bit(high) << 1) - 1)

cdef int st_enum_leads(uint64_t hand, uint64_t old, bint special, const STRules* r,
                       uint64_t* out) noexcept nogil
cdef int st_enum_leads_with(uint64_t hand, uint64_t old, bint special, const STRules* r, uint64_t part,
                            uint64_t* out) noexcept nogil
cdef int st_enum_beats(uint64_t hand, const STPlay* high, const STRules* r, uint64_t* out) noexcept nogil
cdef int st_enum_beats_with(uint64_t hand, const STPlay* high, const STRules* r, uint64_t part,
                            uint64_t* out) noexcept nogil
cdef bint st_has_beat(uint64_t hand, const STPlay* high, const STRules* r) noexcept nogil
cdef int st_trick_winner(const uint64_t* plays, int n, const STRules* r) noexcept nogil
cdef int st_dream_matches(uint64_t win_cards, int dream_card) noexcept nogil
cdef int st_sung_points(int t, uint64_t win_cards, bint five_tigers) noexcept nogil
cdef void st_payments(int nplayers, const int8_t* active, int winner, int special, int dreamer,
                      int pts, int dream_pts, int32_t* out) noexcept nogil
