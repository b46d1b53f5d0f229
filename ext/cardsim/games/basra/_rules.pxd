# Basra, pure rules (docs/rules/basra.md §2, §4-§7): card identities, the config, and the rule
# kernels on cards and config only (no state struct): capture sets, basra points, deal scoring,
# the game-end check. Card identity: rank*4 + suit, rank 0 = A .. 9 = 10, 10 = J, 11 = Q, 12 = K;
# suits S H D C (0..3). The 44-card pack is identities 0..43.
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, cs_ctz, bit_low, card_bit

cdef enum:
    BA_MAXSETS = 512         # capacity for legal capture sets of one play
    BA_D7 = 26               # the seven of diamonds (rank 6, suit 2)
    BA_RANK_J = 10           # rank index of the Jack

cdef extern from *:
    """
    static const unsigned long long ba_numerals = 0xFFFFFFFFFFULL;               /* A..10 */
    static const unsigned long long ba_jacks = 0xFULL << 40;
    static const unsigned long long ba_ten_q_k = (0xFULL << 36) | (0xFFULL << 44);
    """
    const uint64_t ba_numerals           # the 40 numerals A..10
    const uint64_t ba_jacks              # the four Jacks
    const uint64_t ba_ten_q_k            # the 10s, Queens and Kings (Yemeni ♦7 rule)

ctypedef struct BasraConfig:
    int32_t nplayers         # 2..4
    int32_t nsides           # 2 (partnerships) or nplayers
    int32_t deck             # 52 or 44
    int32_t hand_size        # 4, 5 or 6
    int32_t cut_peek         # 0 dealer, 1 both, 2 none
    int32_t floor_bury       # 0 bottom10, 1 bottom, 2 random
    int32_t d7_sweep         # seven_diamonds == "sweep"
    int32_t rank_all         # same_rank_take == "all"
    int32_t cap_maximum      # capture_mode == "maximum"
    int32_t sweep_bonus      # basra bonus for clearing the floor
    int32_t floor_max        # basra_floor_max, 0 = none
    int32_t lone_rule        # only lone-card captures are basras (Palestinian/Jordanian)
    int32_t lone_double      # lone_value == "double_value" (else flat 20)
    int32_t face_basra_value # face_value_for_basra (Q/K under double_value)
    int32_t d7_yemeni        # seven_d_rule == "yemeni"
    int32_t jack_lone_jack   # basra points for J on a lone J
    int32_t queen_lone_queen # Q on a lone Q is a basra
    int32_t face_doubling    # 0 off, 1 QKJ, 2 J only
    int32_t card_half[52]    # card points, in half points
    uint64_t pts_cards       # the cards whose card_half is not 0 (the greedy agent sums only these)
    int32_t majority_half    # majority bonus, in half points
    int32_t majority_carry   # a tie for most cards carries the bonus over
    int32_t basra_last       # a basra with the last card of the deal counts
    int32_t target           # game target (ladder: 51, with ladder = 1)
    int32_t ladder           # target == "ladder" (51/61/71)
    int32_t sudden_death     # tie_rule == "sudden_death"
    int32_t best_of_5        # match == "best_of_5_150"
    int32_t match            # scope == "match"
    int32_t max_deals        # scope "match": the match ends (no winner) after this many deals (B-D26)

cdef inline uint64_t rank_mask(int r) noexcept nogil:
    """The four cards of rank r."""
    return (<uint64_t>0xF) << (4 * r)

cdef inline int side_of(const BasraConfig* c, int p) noexcept nogil:
    """Side of seat p: partners opposite ({0,2} v {1,3}) with 4 players in partnership."""
    return p & 1 if c.nsides == 2 else p            # nsides 2 < nplayers only with 4 (2 players: p & 1 = p)

cdef inline bint is_sweeper(const BasraConfig* c, int card) noexcept nogil:
    """A J, or the ♦7 when it sweeps (§4.2): takes the whole floor."""
    return (card >> 2) == BA_RANK_J or (card == BA_D7 and c.d7_sweep)

cdef inline bint face_doubles(const BasraConfig* c, int card, uint64_t floor) noexcept nogil:
    """Syrian face doubling (§8.1): a face card taking a lone face of its rank doubles both
    (every face with QKJ, the J only with J_only)."""
    return (c.face_doubling != 0 and cs_popcount(floor) == 1 and (card >> 2) >= BA_RANK_J
            and (bit_low(floor) >> 2) == (card >> 2) and (c.face_doubling == 1 or (card >> 2) == BA_RANK_J))

cdef extern from *:
    """
    /* ids whose rank (id >> 2) has bit b set, numerals A..10 only (ranks 0..9) */
    static const unsigned long long ba_rank_b0 = 0xF0F0F0F0F0ULL;    /* ranks 1 3 5 7 9 */
    static const unsigned long long ba_rank_b1 = 0xFF00FF00ULL;      /* ranks 2 3 6 7 */
    static const unsigned long long ba_rank_b2 = 0xFFFF0000ULL;      /* ranks 4 5 6 7 */
    static const unsigned long long ba_rank_b3 = 0xFF00000000ULL;    /* ranks 8 9 */
    """
    const uint64_t ba_rank_b0
    const uint64_t ba_rank_b1
    const uint64_t ba_rank_b2
    const uint64_t ba_rank_b3

cdef inline int floor_total(uint64_t f) noexcept nogil:
    """Sum of the values of the numerals in f (A = 1 .. 10 = 10; f holds numerals only): the
    value is rank + 1, summed bit by bit of the rank with popcounts (no loop over the cards)."""
    return (cs_popcount(f) + cs_popcount(f & ba_rank_b0) + 2 * cs_popcount(f & ba_rank_b1)
            + 4 * cs_popcount(f & ba_rank_b2) + 8 * cs_popcount(f & ba_rank_b3))

cdef inline int sum_groups(uint64_t R, int v) noexcept nogil:
    """How many sum groups (subsets of the numerals R, all worth less than v, summing to v; such
    a subset has >= 2 cards) there are, saturated at 2: a subset-sum over the card values with
    two bitsets, sums reached by at least one subset (one) and by at least two (two)."""
    cdef uint64_t one = 1, two = 0
    cdef int val
    while R:
        val = (cs_ctz(R) >> 2) + 1
        R &= R - 1
        two |= (two << val) | (one & (one << val))
        one |= one << val
    return <int>((one >> v) & 1) + <int>((two >> v) & 1)

cdef int capture_search(uint64_t floor, int card, const BasraConfig* c, const uint64_t* bases, int nb,
                        uint64_t* out, int found) noexcept nogil

cdef inline int capture_bases(uint64_t floor, int card, const BasraConfig* c, uint64_t* bases) noexcept nogil:
    """The same-rank part of a capture (B-D4): the sets of floor cards of the card's rank it
    may take (the empty set if none; all of them with same_rank_take = all; else one each) in
    bases[0..3]; returns their count."""
    cdef uint64_t same = floor & rank_mask(card >> 2), m
    cdef int nb = 0
    if same == 0:
        bases[0] = 0
        return 1
    if c.rank_all:
        bases[0] = same
        return 1
    m = same
    while m:
        bases[nb] = m & (~m + 1)
        nb += 1
        m &= m - 1
    return nb

cdef inline int capture_sets(uint64_t floor, int card, const BasraConfig* c, uint64_t* out) noexcept nogil:
    """Legal capture sets of playing `card` on `floor` (§4.2, B-D3/B-D4/B-D5/B-D6).

    Validity: empty floor -> only the trail (any card, J and ♦7 included); J, or ♦7 as a
    sweeper, on a non-empty floor -> the whole floor; Q/K -> one same-rank card (player's
    choice; `same_rank_take=all`: all of them), else trail; a numeral v -> one same-rank card
    if any (compulsory) plus the union of a maximal family of disjoint groups of >= 2 numerals
    summing to v; every distinct set is one choice (`capture_mode=maximum`: largest only).
    Writes the sets (the empty set = trail) to out (BA_MAXSETS capacity), returns the count
    (>= 1). Inline: every play asks it, and most plays need no sum search (capture_search)."""
    cdef int r = card >> 2, nb, i, found
    cdef uint64_t R
    cdef uint64_t bases[4]
    if floor == 0:
        out[0] = 0
        return 1
    if is_sweeper(c, card):
        out[0] = floor
        return 1
    nb = capture_bases(floor, card, c, bases)
    if r < BA_RANK_J:
        R = floor & (card_bit(4 * r) - 1)                        # numerals worth less than the card
        if cs_popcount(R) >= 2:
            found = sum_groups(R, r + 1)
            if found:
                return capture_search(floor, card, c, bases, nb, out, found)
    for i in range(nb):                                     # no sum possible: the bases (one
        out[i] = bases[i]                                   # size, so capture_mode is moot)
    return nb

cdef inline int capture_sets_summed(uint64_t floor, int card, const BasraConfig* c, int found,
                                    uint64_t* out) noexcept nogil:
    """capture_sets of a play for which capture_quick_found has counted `found` >= 1 sum groups
    (so the floor holds numerals and the card is a numeral, no sweeper): the same sets."""
    cdef uint64_t bases[4]
    cdef int nb = capture_bases(floor, card, c, bases)
    return capture_search(floor, card, c, bases, nb, out, found)

cdef inline int capture_quick_found(uint64_t floor, int card, const BasraConfig* c, uint64_t* one,
                                    int* found) noexcept nogil:
    """capture_sets without writing the list, for the hot path of a play: the number of legal
    sets when no sum search is needed (the set itself in *one when that number is 1), or 0 when
    floor numerals sum to the card's value (then *found = sum_groups' count, 1 or 2, and
    capture_sets_summed decides)."""
    cdef int r = card >> 2
    cdef uint64_t same, R
    if floor == 0:
        one[0] = 0
        return 1
    if is_sweeper(c, card):
        one[0] = floor
        return 1
    if r < BA_RANK_J:
        R = floor & (card_bit(4 * r) - 1)
        # a sum group has >= 2 cards: none if the two lowest already exceed the card's value
        if cs_popcount(R) >= 2 and (cs_ctz(R) >> 2) + (cs_ctz(R & (R - 1)) >> 2) + 2 <= r + 1:
            found[0] = sum_groups(R, r + 1)
            if found[0]:
                return 0
    same = floor & rank_mask(r)
    if same == 0 or c.rank_all:
        one[0] = same
        return 1
    one[0] = same & (~same + 1)
    return cs_popcount(same)

cdef inline int capture_quick(uint64_t floor, int card, const BasraConfig* c, uint64_t* one) noexcept nogil:
    """capture_quick_found without the count of sum groups: 0 when a sum search is needed."""
    cdef int found
    return capture_quick_found(floor, card, c, one, &found)

cdef int basra_points(const BasraConfig* c, int card, uint64_t floor, bint last) noexcept nogil
cdef void score_deal(const BasraConfig* c, const uint64_t* pile, const uint64_t* doubled,
                     const int32_t* basra_half, int32_t* carry, int32_t* out_half,
                     int8_t* majority_side) noexcept nogil
cdef int game_end(const BasraConfig* c, const int32_t* game_half, int8_t* ladder_step) noexcept nogil
