"""Tien Gow 天九 pure rules (docs/rules/tien_gow.md §2, §5, §6): the tiles and their two orders,
the combination table of one configuration, comparison, the trick winner, the settlement of a
deal and the contest sort. Nothing here reads the state struct; the state machine
(`_state`) and the public oracles (`cardsim.games.tien_gow`, through the `oracle_*` entry points
at the end) both call these kernels.

Tile identities, strongest first in each suit (§2.1): civil 0 6-6 Heaven, 1 1-1 Earth, 2 4-4 Man,
3 3-1 Harmony, 4 5-5 Plum flower, 5 3-3 Long three, 6 2-2 Bench, 7 6-5 Axe, 8 6-4 Red-head ten,
9 6-1 Long-leg seven, 10 5-1 Red-mallet six (two copies each); military 11 6-3, 12 5-4 (nines),
13 6-2, 14 5-3 (eights), 15 5-2, 16 4-3 (sevens), 17 4-2 (Six), 18 4-1, 19 3-2 (fives), 20 2-1
(Three), one copy each. Because the identities are numbered in strength order, the contest
rows (§9 G-01/G-02) are the tiles sorted by identity.

A combination is an entry of the configuration's table (TGRules): the 21 singles first
(combination k = the single tile k), then every legal multi-tile set of §2.2 with its category
and a strength that is compared only inside one category. Options change the table:
`military_fives_equal` (T1) the single strengths, `mixed_combinations` whether mixed pairs,
triples and quads exist, `two_pair_lead` whether two pairs of one suit may be led (beaten only
by two pairs of the same suit whose higher pair outranks both pairs led), `supreme_follow` whether
a followed Supreme beats pairs.
"""
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from cardsim.core._hand cimport Hand, hand_size
from cardsim.core._bits cimport bit_low, card_bit

# matching groups (§2.2): civil tile <-> military pair, strongest group first
cdef int GROUP_CIVIL[4]
cdef int GROUP_MIL[4][2]
GROUP_CIVIL[:] = [0, 1, 2, 3]                 # Heaven, Earth, Man, Harmony
GROUP_MIL[0][:] = [11, 12]                    # nines
GROUP_MIL[1][:] = [13, 14]                    # eights
GROUP_MIL[2][:] = [15, 16]                    # sevens
GROUP_MIL[3][:] = [18, 19]                    # fives

cdef int MIL_SINGLE[10]
MIL_SINGLE[:] = [12, 12, 10, 10, 8, 8, 6, 4, 4, 2]   # identities 11..20, equal rows equal (T1)


cdef void add_combo(TGRules* r, uint64_t one, uint64_t two, int cat, int size, int strength) noexcept nogil:
    cdef int i = r.ncombo, k
    cdef uint64_t m
    r.combo[i].one = one
    r.combo[i].two = two
    r.combo[i].cat = cat
    r.combo[i].size = size
    r.combo[i].strength = strength
    r.ncombo += 1
    r.by_cat[cat][r.by_cat_n[cat]] = i
    r.by_cat_n[cat] += 1
    if size > 1:
        m = one
        while m:
            k = bit_low(m)
            m &= m - 1
            r.by_tile[k][r.by_tile_n[k]] = i
            r.by_tile_n[k] += 1
            r.reach[k] |= one


cdef void tg_rules_init(TGRules* r, bint fives_equal, bint mixed, bint two_pairs, bint supreme_beats_pairs) noexcept nogil:
    """Build the combination table of one configuration (§2.2, §7). Singles: civil strength
    11 - rank, military by row (T1: tiles of one row equal; fives_equal = False puts 4-1 above
    3-2). Pairs, triples, quads and two pairs in the order of §2.2, strongest first inside each
    category."""
    cdef int k, g, g2, c, c2, j
    r.ncombo = 0
    r.supreme_beats_pairs = supreme_beats_pairs
    for k in range(TG_IDS):
        r.by_tile_n[k] = 0
        r.reach[k] = 0
    for k in range(TG_NCAT):
        r.by_cat_n[k] = 0
    for k in range(TG_CIVIL):
        add_combo(r, card_bit(k), 0, CAT_SINGLE_CIVIL, 1, TG_CIVIL - k)
    for k in range(TG_CIVIL, TG_IDS):
        add_combo(r, card_bit(k), 0, CAT_SINGLE_MILITARY, 1,
                  MIL_SINGLE[k - TG_CIVIL] + (1 if (k == 18 and not fives_equal) else 0))
    for c in range(TG_CIVIL):
        add_combo(r, card_bit(c), card_bit(c), CAT_PAIR_CIVIL, 2, TG_CIVIL - c)
    for g in range(4):
        add_combo(r, card_bit(GROUP_MIL[g][0]) | card_bit(GROUP_MIL[g][1]), 0, CAT_PAIR_MILITARY, 2, 4 - g)
    r.supreme = r.ncombo
    add_combo(r, card_bit(TG_SIX) | card_bit(TG_THREE), 0, CAT_SUPREME, 2, 1)
    if mixed:
        for g in range(4):
            c = GROUP_CIVIL[g]
            for j in range(2):
                add_combo(r, card_bit(c) | card_bit(GROUP_MIL[g][j]), 0, CAT_PAIR_MIXED, 2, 4 - g)
        for g in range(4):
            c = GROUP_CIVIL[g]
            for j in range(2):
                add_combo(r, card_bit(c) | card_bit(GROUP_MIL[g][j]), card_bit(c), CAT_TRIPLE_2C1M, 3, 4 - g)
        for g in range(4):
            c = GROUP_CIVIL[g]
            add_combo(r, card_bit(c) | card_bit(GROUP_MIL[g][0]) | card_bit(GROUP_MIL[g][1]), 0, CAT_TRIPLE_1C2M, 3, 4 - g)
        for g in range(4):
            c = GROUP_CIVIL[g]
            add_combo(r, card_bit(c) | card_bit(GROUP_MIL[g][0]) | card_bit(GROUP_MIL[g][1]), card_bit(c), CAT_QUAD, 4, 4 - g)
    if two_pairs:
        for c in range(TG_CIVIL):
            for c2 in range(c + 1, TG_CIVIL):
                add_combo(r, card_bit(c) | card_bit(c2), card_bit(c) | card_bit(c2), CAT_TWO_PAIRS_CIVIL, 4, TG_CIVIL - c)
        for g in range(4):
            for g2 in range(g + 1, 4):
                add_combo(r, card_bit(GROUP_MIL[g][0]) | card_bit(GROUP_MIL[g][1]) | card_bit(GROUP_MIL[g2][0])
                          | card_bit(GROUP_MIL[g2][1]), 0, CAT_TWO_PAIRS_MILITARY, 4, 4 - g)
    for k in range(TG_IDS):
        r.beat_single[k] = 0
        for j in range(TG_IDS):
            if r.combo[j].cat == r.combo[k].cat and r.combo[j].strength > r.combo[k].strength:
                r.beat_single[k] |= card_bit(j)


cdef int tg_trick_winner(const TGRules* r, const int16_t* plays, int n) noexcept nogil:
    """Trick winner (§5.1). plays[0] is the lead's combination index; plays[i] (i >= 1) the
    combination a follower showed face up, or -1 for a discard. Points: the current high starts
    as the lead; a play replaces it only if it beats it (same category, strictly stronger, T9:
    equal plays go to the earlier one; T12: another category of the same size is a discard;
    T6: a followed Supreme never beats unless supreme_follow = "highest_pair"). Returns the
    index of the winning play."""
    cdef int i, hi = 0
    for i in range(1, n):
        if plays[i] >= 0 and combo_beats(r, plays[i], plays[hi]):
            hi = i
    return hi


cdef void tg_settle(const int8_t* tricks, int banker, int winner, int mult, bint increasing, bint shutout,
                    int factor, int catch_leader, int32_t* pay) noexcept nogil:
    """Settlement of one deal (§6.1, T7, §7). Validity: tricks[i] = tricks credited to seat i
    (sum 8), winner = the final trick's winner, banker = this deal's banker, mult = the banker
    multiplier in force (2, or 2 + consecutive banker wins with banker_multiplier = "increasing").
    Points: every i != winner owes due_i = 5 if it took no trick, else 4 - tricks[i] (negative:
    the winner pays i), times mult when i or the winner is the banker (T7); with `increasing`, a
    losing banker who took more than 4 tricks is paid unmultiplied; `shutout` doubles everything
    when all three opponents took no trick; `factor` multiplies every payment (4 with hk_bonuses
    when the final trick was won with a quadruple); catch_leader >= 0 (hk_bonuses catch) doubles
    what the losers owe and makes that seat pay all of it. pay[i] gets each seat's net (zero-sum)."""
    cdef int i, due, m, amt, zeros = 0
    for i in range(TG_NP):
        pay[i] = 0
        if i != winner and tricks[i] == 0:
            zeros += 1
    for i in range(TG_NP):
        if i == winner:
            continue
        due = 5 if tricks[i] == 0 else 4 - tricks[i]
        m = 1
        if i == banker or winner == banker:
            m = mult
            if increasing and i == banker and tricks[i] > 4:
                m = 1
        amt = due * m * factor
        if shutout and zeros == TG_NP - 1:
            amt *= 2
        if catch_leader >= 0 and amt > 0:
            amt *= 2
            pay[catch_leader] -= amt
        else:
            pay[i] -= amt
        pay[winner] += amt


cdef int tg_sort(const uint8_t* ids, int n, uint8_t* civil, uint8_t* military) noexcept nogil:
    """The contest (§9 G-01, G-02): split tiles into the civil and the military row, each
    strongest first with equal tiles adjacent. A counting sort over the 21 identities (they are
    numbered in strength order). Returns the number of civil tiles; military gets the rest."""
    cdef int cnt[21]
    cdef int i, k, nc = 0, nm = 0
    for k in range(TG_IDS):
        cnt[k] = 0
    for i in range(n):
        cnt[ids[i]] += 1
    for k in range(TG_CIVIL):
        for i in range(cnt[k]):
            civil[nc] = k
            nc += 1
    for k in range(TG_CIVIL, TG_IDS):
        for i in range(cnt[k]):
            military[nm] = k
            nm += 1
    return nc


# ---- oracle entry points (the public oracles of cardsim.games.tien_gow call these) --------------
# The face checks every argument and raises the typed errors (cardsim.errors); these entry points
# only convert and still refuse what would overrun a fixed buffer (4 plays, 4 seats, 32 tiles, 21
# identities, the combination table) with a built-in IndexError, so a direct call cannot crash.

cdef void oracle_table(TGRules* r, tuple flags) except *:
    """The combination table of flags = (military_fives_equal, mixed allowed, two_pair_lead,
    supreme beats pairs)."""
    if len(flags) != 4:
        raise IndexError("tien_gow: flags are (fives_equal, mixed, two_pairs, supreme_beats_pairs)")
    tg_rules_init(r, bool(flags[0]), bool(flags[1]), bool(flags[2]), bool(flags[3]))

cdef Hand counts_hand(object counts) except *:
    """21 counts 0..2 -> the multiset as a Hand."""
    cdef Hand h
    cdef int k, c
    if len(counts) != TG_IDS:
        raise IndexError("tien_gow: 21 counts, one per tile identity")
    h.layer[0] = h.layer[1] = h.layer[2] = h.layer[3] = 0
    for k in range(TG_IDS):
        c = counts[k]
        if not 0 <= c <= 2:
            raise IndexError("tien_gow: a count is 0..2")
        if c >= 1:
            h.layer[0] |= card_bit(k)
        if c >= 2:
            h.layer[1] |= card_bit(k)
    return h


def oracle_classify(tuple flags, counts):
    """(combination index, category CAT_*) of the multiset given by 21 counts, or (-1, -1)."""
    cdef TGRules r
    cdef Hand h = counts_hand(counts)
    cdef int ci
    oracle_table(&r, flags)
    ci = tg_classify(&r, &h)
    return (ci, r.combo[ci].cat if ci >= 0 else -1)


def oracle_trick_winner(tuple flags, plays):
    """Index of the winning play of a trick: plays = 1..4 lists of 21 counts, plays[0] the lead (a
    legal combination); a follow that forms no combination is a discard."""
    cdef TGRules r
    cdef Hand h
    cdef int16_t p[4]
    cdef int i, n = len(plays)
    if not 1 <= n <= TG_NP:
        raise IndexError("tien_gow: a trick has 1..4 plays")
    oracle_table(&r, flags)
    for i in range(n):
        h = counts_hand(plays[i])
        p[i] = tg_classify(&r, &h)
    if p[0] < 0:
        raise IndexError("tien_gow: the lead is no combination")
    return tg_trick_winner(&r, p, n)


def oracle_combos(tuple flags):
    """Every combination of the table as (counts tuple, category CAT_*, strength), in table order."""
    cdef TGRules r
    cdef int i, k
    oracle_table(&r, flags)
    out = []
    for i in range(r.ncombo):
        c = r.combo[i]
        out.append((tuple(((c.one >> k) & 1) + ((c.two >> k) & 1) for k in range(TG_IDS)), c.cat, c.strength))
    return out


def oracle_settle(tricks, int banker, int winner, int mult, bint increasing, bint shutout, int factor,
                  int catch_leader):
    """Net payments of one deal (tg_settle): tricks = 4 counts 0..8, banker and winner seats,
    catch_leader -1 or a seat."""
    cdef int8_t t[4]
    cdef int32_t pay[4]
    cdef int i
    if (len(tricks) != TG_NP or not 0 <= banker < TG_NP or not 0 <= winner < TG_NP
            or not -1 <= catch_leader < TG_NP):
        raise IndexError("tien_gow: 4 trick counts and seats 0..3")
    for i in range(TG_NP):
        if not 0 <= tricks[i] <= TG_HAND:
            raise IndexError("tien_gow: a trick count is 0..8")
        t[i] = tricks[i]
    tg_settle(t, banker, winner, mult, increasing, shutout, factor, catch_leader, pay)
    return [pay[i] for i in range(TG_NP)]


def oracle_sort(ids):
    """(civil ids, military ids) of the contest sort: ids = at most 32 tile identities 0..20."""
    cdef uint8_t a[32]
    cdef uint8_t c[32]
    cdef uint8_t m[32]
    cdef int i, nc, n = len(ids)
    if n > TG_TILES:
        raise IndexError("tien_gow: at most 32 tiles")
    for i in range(n):
        if not 0 <= ids[i] < TG_IDS:
            raise IndexError("tien_gow: a tile identity is 0..20")
        a[i] = ids[i]
    with nogil:
        nc = tg_sort(a, n, c, m)
    return [c[i] for i in range(nc)], [m[i] for i in range(n - nc)]
