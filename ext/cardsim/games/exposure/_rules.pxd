# Exposure, pure rules (docs/rules/exposure.md §2, §4-§7): card identities, the config, and the
# rule kernels on cards and config only (no state struct). Hot ones are inline here; the rest
# and the compiled oracles (oracle_*) live in _rules.pyx; the card notation is the Python face's
# (cardsim.games.exposure). Card identity: rank*4 + suit, rank 0 = '9' .. 5 = 'A', suits S H D C.
from cardsim.core._types cimport uint8_t, int8_t, int32_t, uint32_t, uint64_t, card_t
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._suited cimport follow_mask

cdef enum:
    EX_NCARDS = 24           # A K Q J 10 9 of four suits
    EX_RANK_ACE = 5          # rank index of the Ace
    EX_HAND = 9              # cards dealt to each player
    EX_TRICKS = 9            # tricks in a deal
    EX_H = 0                 # face-up slots: high-rank card, trump card, contract card
    EX_T = 1
    EX_C = 2

ctypedef struct EXConfig:
    int32_t simultaneous     # DECLARATION_ORDER: 1 = hidden choices revealed after both (D1 alt)
    int32_t min_hand         # MIN_HAND_CARDS_PER_MELD (2 or 1)
    int32_t table_reuse      # TABLE_CARD_REUSE: a face-up card may serve several melds of one player
    int32_t target_score     # TARGET_SCORE of a match
    int32_t meld_pts[5]      # points: 3 of a kind, 4 of a kind, 4, 5, 6 in sequence
    int32_t trick_pts        # points per trick won
    int32_t contract_bonus   # bonus for exactly the contract target
    int32_t match            # scope == "match"
    int32_t max_deals        # scope "match": the match ends after this many deals (D6)

cdef extern from *:
    """
    /* windows of consecutive natural ranks that make a sequence meld (length 6, 5, 5, 4, 4, 4) */
    static const unsigned int ex_windows[6] = {0x3F, 0x1F, 0x3E, 0x0F, 0x1E, 0x3C};
    /* a count of 1 in each of the n lowest nibbles (n consecutive ranks, one card each) */
    static const unsigned int ex_ones[7] = {0x0, 0x1, 0x11, 0x111, 0x1111, 0x11111, 0x111111};
    /* rank mask (6 bits) -> the cards of those ranks (a nibble per rank) */
    /* rank mask (6 bits) -> its run of 4 or more consecutive ranks (at most one: 6 ranks), 0 = none */
    static const unsigned char ex_long_run[64] = {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0xF, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1E, 0x1F, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0xF, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x3C, 0x3C, 0x3E, 0x3F};
    static const unsigned int ex_rank_spread[64] = {0x0, 0xF, 0xF0, 0xFF, 0xF00, 0xF0F, 0xFF0, 0xFFF, 0xF000, 0xF00F, 0xF0F0, 0xF0FF, 0xFF00, 0xFF0F, 0xFFF0, 0xFFFF, 0xF0000, 0xF000F, 0xF00F0, 0xF00FF, 0xF0F00, 0xF0F0F, 0xF0FF0, 0xF0FFF, 0xFF000, 0xFF00F, 0xFF0F0, 0xFF0FF, 0xFFF00, 0xFFF0F, 0xFFFF0, 0xFFFFF, 0xF00000, 0xF0000F, 0xF000F0, 0xF000FF, 0xF00F00, 0xF00F0F, 0xF00FF0, 0xF00FFF, 0xF0F000, 0xF0F00F, 0xF0F0F0, 0xF0F0FF, 0xF0FF00, 0xF0FF0F, 0xF0FFF0, 0xF0FFFF, 0xFF0000, 0xFF000F, 0xFF00F0, 0xFF00FF, 0xFF0F00, 0xFF0F0F, 0xFF0FF0, 0xFF0FFF, 0xFFF000, 0xFFF00F, 0xFFF0F0, 0xFFF0FF, 0xFFFF00, 0xFFFF0F, 0xFFFFF0, 0xFFFFFF};
    """
    const uint32_t ex_windows[6]         # rank masks of the sequence windows
    const uint8_t ex_long_run[64]        # rank mask -> its run of >= 4 consecutive ranks, 0 = none
    const uint32_t ex_rank_spread[64]    # rank mask -> card mask of those ranks
    const uint32_t ex_ones[7]            # n -> a count of 1 in each of the n lowest nibbles

cdef enum:
    EX_FULL = 0xFFFFFF       # all 24 cards
    EX_SUIT0 = 0x111111      # the six cards of suit 0 (shift left by the suit)

cdef inline int card_suit(int c) noexcept nogil:
    return c & 3

cdef inline int card_rank(int c) noexcept nogil:
    return c >> 2

cdef inline uint32_t bit32(int c) noexcept nogil:
    """core card_bit as a 24-card mask: Exposure keeps its card sets as uint32 (24 cards fit,
    and the state struct stays small), so the 64-bit mask is cast once here."""
    return <uint32_t>card_bit(c)

cdef inline uint32_t rank_cards(int r) noexcept nogil:
    """The four cards of rank r."""
    return (<uint32_t>0xF) << (4 * r)

cdef inline uint32_t suit_cards(int s) noexcept nogil:
    """The six cards of suit s."""
    return (<uint32_t>EX_SUIT0) << s

cdef inline uint32_t rank_bits(uint32_t m) noexcept nogil:
    """6-bit mask of the ranks present in card set m."""
    m = m | (m >> 1)
    m = (m | (m >> 2)) & <uint32_t>0x111111      # bit 4r: rank r present
    m = (m | (m >> 3)) & <uint32_t>0x030303      # ranks 2k, 2k+1 at bits 8k, 8k+1
    m = (m | (m >> 6)) & <uint32_t>0x0F000F      # ranks 0-3 at bits 0-3, ranks 4, 5 at 16, 17
    return (m | (m >> 12)) & <uint32_t>0x3F

cdef inline uint32_t rank_counts(uint32_t m) noexcept nogil:
    """Per-rank card counts of card set m: nibble r holds how many cards of rank r m has (0..4)."""
    m = m - ((m >> 1) & <uint32_t>0x555555)
    return (m & <uint32_t>0x333333) + ((m >> 2) & <uint32_t>0x333333)

cdef inline uint32_t rank_bits_pair(uint32_t a, uint32_t b, uint32_t* rb) noexcept nogil:
    """rank_bits of a (returned) and of b (into *rb) at once: the same folds on one 64-bit word
    holding a in its low half and b in its high half (no fold carries a bit across halves)."""
    cdef uint64_t m = <uint64_t>a | (<uint64_t>b << 32)
    m = m | (m >> 1)
    m = (m | (m >> 2)) & <uint64_t>0x0011111100111111
    m = (m | (m >> 3)) & <uint64_t>0x0003030300030303
    m = (m | (m >> 6)) & <uint64_t>0x000F000F000F000F
    m = m | (m >> 12)
    rb[0] = <uint32_t>(m >> 32) & 0x3F
    return <uint32_t>m & 0x3F

cdef inline int rank_key(int rank, bint led, int high) noexcept nogil:
    """Trick strength of a rank (§2): natural when the high rank is the Ace; otherwise the high
    rank is top, an Ace is second when followed and lowest when led."""
    if high == EX_RANK_ACE:
        return rank
    if rank == high:
        return 7
    if rank == EX_RANK_ACE:
        return -1 if led else 6
    return rank

cdef inline int trick_winner(int lead, int follow, int trump, int high) noexcept nogil:
    """Trick winner (§5). Validity: any two cards, lead first. Action: if exactly one trump was
    played it wins; else if the follower followed suit the higher card by the §2 order wins
    (the led card ranked as 'led', the follower's as 'followed'); else the leader wins.
    Returns 0 (leader) or 1 (follower)."""
    cdef int ls = card_suit(lead), fs = card_suit(follow)
    if ls == trump and fs != trump:
        return 0
    if fs == trump and ls != trump:
        return 1
    if fs == ls:
        return 1 if rank_key(card_rank(follow), False, high) > rank_key(card_rank(lead), True, high) else 0
    return 0

cdef inline uint32_t legal_follows(uint32_t held, int led) noexcept nogil:
    """Follow-suit rule (§5). Validity: a follower holding (hand or exposed) a card of the led
    suit must play one; otherwise any card. led = -1: on lead, any card."""
    if led < 0:
        return held
    return <uint32_t>follow_mask(held, suit_cards(card_suit(led)), 0)

cdef inline int meld_value(const EXConfig* c, uint32_t cards, uint32_t hand_part) noexcept nogil:
    """Meld type and points (§4), -1 if `cards` is not a legal meld. Validity: 3 or 4 cards of
    one rank, or 4-6 cards of consecutive natural ranks (any suits), with at least min_hand of
    them from the hand (`hand_part`). Points: the meld_points table (1, 2, 1, 2, 3)."""
    return meld_value_n(c, cards, cs_popcount(cards), cs_popcount(hand_part & cards))

cdef inline int meld_value_n(const EXConfig* c, uint32_t cards, int n, int nhand) noexcept nogil:
    """meld_value with the counts known: n = the cards of `cards`, nhand = how many of them are
    from the hand."""
    cdef int sh
    if n < 3 or n > 6 or nhand < c.min_hand:
        return -1
    sh = bit_low(cards) & ~3                 # 4 * the lowest rank
    if (cards >> sh) <= 0xF:                 # one rank: 3 or 4 of a kind
        return c.meld_pts[n - 3]
    # n >= 4 cards of n consecutive ranks, one each: a count of 1 in n nibbles from the lowest
    if n >= 4 and (rank_counts(cards) >> sh) == ex_ones[n]:
        return c.meld_pts[n - 2]
    return -1

cdef inline int deal_points(const EXConfig* c, int tricks, int meld_points, int target) noexcept nogil:
    """A player's points for the deal (§6): points_per_trick per trick won, his meld points,
    and the contract bonus when he took exactly the contract target."""
    return c.trick_pts * tricks + meld_points + (c.contract_bonus if tricks == target else 0)

cdef inline int contract_target(int c) noexcept nogil:
    """Tricks to take exactly for the contract bonus (§3) from the C-card c: its rank + 4
    (A 9, K 8, Q 7, J 6, 10 5, 9 4)."""
    return card_rank(c) + 4

cdef inline void deal_order(const card_t* perm, int dealer, uint32_t* hand, int8_t* table,
                            uint32_t* aside) noexcept nogil:
    """Where the cards of a deck in dealing order go (§3): cards 1-18 one at a time
    alternately, non-dealer first, into hand[0..1]; cards 19, 20, 21 face up as the H-card,
    T-card, C-card (table[EX_H], table[EX_T], table[EX_C]); 22-24 set aside."""
    cdef int i, nd = 1 - dealer
    hand[0] = 0
    hand[1] = 0
    for i in range(2 * EX_HAND):
        hand[nd if (i & 1) == 0 else dealer] |= bit32(perm[i])
    table[EX_H] = perm[18]
    table[EX_T] = perm[19]
    table[EX_C] = perm[20]
    aside[0] = bit32(perm[21]) | bit32(perm[22]) | bit32(perm[23])

cdef inline int match_outcome(const int32_t* score, int target) noexcept nogil:
    """Game end (§7): -2 = play on (nobody reached target), -1 = draw (equal scores), else the
    seat with the higher score."""
    if score[0] < target and score[1] < target:
        return -2
    if score[0] == score[1]:
        return -1
    return 0 if score[0] > score[1] else 1

cdef inline uint32_t ranks_at_least(uint32_t counts, int t) noexcept nogil:
    """The cards (whole nibbles) of the ranks whose count in `counts` (rank_counts) is >= t."""
    if t <= 0:
        return EX_FULL
    if t > 4:
        return 0
    # a count 0..4 plus 8 - t (4..7) stays inside its nibble; its bit 3 is set iff count >= t
    return (((counts + <uint32_t>(8 - t) * <uint32_t>0x111111) & <uint32_t>0x888888) >> 3) * <uint32_t>0xF

cdef inline uint32_t meld_extensions(const EXConfig* c, uint32_t sel, int sel_hand, uint32_t avail_hand,
                                     uint32_t avail_table) noexcept nogil:
    """Cards that may be added to the meld under construction (§4), so that it can still be
    completed into a legal meld. `sel`: the cards built so far, `sel_hand` of them from the
    hand; `avail_hand` / `avail_table`: the own unmelded hand cards and the face-up cards the
    player may still use (none of them in sel).

    Whether a card k fits depends only on its rank and on whether it is a hand or a face-up card
    (the other available cards of its rank count the same either way), so the test runs on ranks,
    in word operations: a set of a kind (sel of one rank at most) needs 3+ cards of the rank in
    all with min_hand from the hand (per-rank counts, all ranks at once); a sequence (sel of
    distinct ranks) needs a window W of 4-6 consecutive ranks holding sel's ranks whose missing
    ranks d = W - ranks(sel) are all available. With h = the ranks of d that have a hand card
    and T = sel_hand + h - min_hand, a hand card of a rank of d fits iff T >= 0 (the others of d
    can be hand cards), a face-up card iff T >= 1, or T >= 0 when its rank has no hand card.

    Every run of 4+ consecutive ranks is a window, so the windows holding sel's ranks with all
    their ranks available are the ones inside R, the run of 4+ available ranks (sel's included;
    6 ranks have at most one) when R holds sel's ranks. R is the largest of them and T only
    grows with W, so R alone decides: a rank of d = R - ranks(sel) fits by R exactly when it
    fits by some smaller window."""
    return meld_extensions_r(c, rank_bits(sel), cs_popcount(sel), sel_hand, avail_hand, avail_table)

cdef inline uint32_t meld_extensions_r(const EXConfig* c, uint32_t rsel, int nsel, int sel_hand,
                                       uint32_t avail_hand, uint32_t avail_table) noexcept nogil:
    """meld_extensions from what it needs of the cards built: their ranks (rank_bits) `rsel`
    and their number `nsel` (the state keeps both as the meld is built)."""
    cdef uint32_t A = avail_hand | avail_table
    cdef uint32_t out = 0, ok, RH, RA, R, d
    cdef int nr = cs_popcount(rsel), T
    if nr <= 1:
        ok = (ranks_at_least(rank_counts(A), 3 - nsel)
              & ranks_at_least(rank_counts(avail_hand), c.min_hand - sel_hand))
        if nr:
            ok &= ex_rank_spread[rsel]
        out = A & ok
    if nr == nsel:
        RH = rank_bits_pair(avail_hand, A, &RA)
        R = ex_long_run[RA | rsel]
        if (rsel & ~R) == 0:
            d = R & ~rsel
            T = sel_hand + cs_popcount(d & RH) - c.min_hand
            if T >= 0:
                out |= (avail_hand & ex_rank_spread[d]) | (avail_table & ex_rank_spread[d & ~RH if T == 0 else d])
    return out
