"""Basra, the pure rules (docs/rules/basra.md): the legal capture sets of a play (§4.2, maximal
captures B-D3), basra points (§4.3), deal scoring with the majority carry (§6) and the game-end
check with targets, the ladder and sudden death (§7), and the compiled oracle entry points
(oracle_*) on them. Nothing here sees a game state: the state machine
(`cardsim.games.basra._state`) and the public oracles (`cardsim.games.basra`, which validate
their arguments and convert card strings) both run these kernels.

Capture sets are enumerated exactly (§4.2): sum groups by DFS over the floor numerals, then the
unions of maximal disjoint families by a memoised search that decides the cards in order (see
gen_unions). The kernel keeps at most BA_MAXSETS = 512 distinct sets per play and 2048 sum
groups, and stops a search after 2 x 10^6 nodes (~0.2 s). These bounds are far beyond play:
random play never showed more than 11 floor cards or 7 legal sets; floors of up to 16 small
numerals (all the A-4, 17 maximal captures for a 10) are solved exactly and checked against
the spec's reference algorithm. Only absurd floors (20+ small numerals, which play cannot
build, since nearly every numeral played there must capture) could hit a bound; the list is
then truncated, consistently and still without dead ends.
"""
from libc.string cimport memset
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, cs_clz, bit_low

from cardsim.core._engine cimport GameSpec

cdef enum:
    MAXGROUPS = 2048
    FAMILY_BUDGET = 2000000
    MEMO_SIZE = 8192


ctypedef struct CapCtx:
    uint64_t groups[MAXGROUPS]   # sum groups, ordered by their lowest card
    int ngroups
    int lo_start[40]             # groups whose lowest card is ids[i]: [lo_start[i], lo_end[i])
    int lo_end[40]
    int8_t ids[40]               # candidate floor numerals (value < v), ascending
    int n
    uint64_t unions[BA_MAXSETS]  # distinct unions of maximal families
    int nunions
    int16_t by_hi[MAXGROUPS]     # group indices ordered by their highest card
    int hi_start[41]             # groups whose highest card is ids[i]: by_hi[hi_start[i]:hi_start[i+1]]
    bint use_memo                # big searches only (clearing the table costs more than tiny searches)
    uint64_t memo[MEMO_SIZE]     # visited (position, covered) search states, 0 = empty
    long budget                  # safety bound on search nodes

cdef void gen_groups(CapCtx* x, const int8_t* vals, int start, int rem, uint64_t cur) noexcept nogil:
    """Every subset (>= 2 cards: all values < v) of ids[start:] summing to rem; vals ascending."""
    cdef int i
    for i in range(start, x.n):
        if vals[i] > rem:
            return
        if vals[i] == rem:
            if x.ngroups < MAXGROUPS:
                x.groups[x.ngroups] = cur | card_bit(x.ids[i])
                x.ngroups += 1
        else:
            gen_groups(x, vals, i + 1, rem - vals[i], cur | card_bit(x.ids[i]))

cdef void add_union(CapCtx* x, uint64_t u) noexcept nogil:
    cdef int i
    for i in range(x.nunions):
        if x.unions[i] == u:
            return
    if x.nunions < BA_MAXSETS:
        x.unions[x.nunions] = u
        x.nunions += 1

cdef bint memo_seen(CapCtx* x, int i, uint64_t covered) noexcept nogil:
    """Insert (i, covered) into the open-addressing table; True if it was already there."""
    cdef uint64_t key = (covered | ((<uint64_t>(i + 1)) << 57))
    cdef uint64_t h = (key * <uint64_t>0x9E3779B97F4A7C15) >> 51
    cdef int k, slot
    for k in range(16):
        slot = (h + k) & (MEMO_SIZE - 1)
        if x.memo[slot] == key:
            return True
        if x.memo[slot] == 0:
            x.memo[slot] = key
            return False
    return False

cdef void gen_unions(CapCtx* x, int i, uint64_t covered, uint64_t skipped) noexcept nogil:
    """Unions of the maximal families of disjoint groups (B-D3), by deciding the candidate
    cards in order: card i is either covered by a group whose lowest card it is, or left
    uncovered for good; a branch dies as soon as the cards left uncovered contain a whole
    group (the family could never be maximal). The state (i, covered) determines the rest, so
    repeated states are searched once. Exact; `budget` only guards absurd floors."""
    cdef int k
    cdef uint64_t ns
    while i < x.n and (covered & card_bit(x.ids[i])):
        i += 1
    if i == x.n:
        add_union(x, covered)
        return
    x.budget -= 1
    if x.budget < 0 or (x.use_memo and memo_seen(x, i, covered)):
        return
    for k in range(x.lo_start[i], x.lo_end[i]):
        if not (x.groups[k] & covered):
            gen_unions(x, i + 1, covered | x.groups[k], skipped)
    ns = skipped | card_bit(x.ids[i])
    for k in range(x.hi_start[i], x.hi_start[i + 1]):      # a group left wholly uncovered ends
        if (x.groups[x.by_hi[k]] & ~ns) == 0:              # with card i (earlier ones were
            return                                         # checked when they were skipped)
    gen_unions(x, i + 1, covered, ns)

cdef void index_by_highest(CapCtx* x) noexcept nogil:
    cdef int pos[52]
    cdef int i, g, h
    for i in range(x.n):
        pos[x.ids[i]] = i
    for i in range(x.n + 1):
        x.hi_start[i] = 0
    for g in range(x.ngroups):
        x.hi_start[pos[63 - cs_clz(x.groups[g])] + 1] += 1
    for i in range(x.n):
        x.hi_start[i + 1] += x.hi_start[i]
    for g in range(x.ngroups):                             # counting sort: hi_start[h] is the
        h = pos[63 - cs_clz(x.groups[g])]                  # cursor of bucket h, then shifted
        x.by_hi[x.hi_start[h]] = g                         # back to bucket starts below
        x.hi_start[h] += 1
    for i in range(x.n, 0, -1):
        x.hi_start[i] = x.hi_start[i - 1]
    x.hi_start[0] = 0

cdef inline int keep_largest(uint64_t* sets, int n) noexcept nogil:
    """The cap_maximum option: keep only the sets of the most cards (in their order); their count."""
    cdef int i, k = 0, best = 0
    for i in range(n):
        if cs_popcount(sets[i]) > best:
            best = cs_popcount(sets[i])
    for i in range(n):
        if cs_popcount(sets[i]) == best:
            sets[k] = sets[i]
            k += 1
    return k

cdef int capture_search(uint64_t floor, int card, const BasraConfig* c, const uint64_t* bases, int nb,
                        uint64_t* out, int found) noexcept nogil:
    """The summing part of capture_sets (§4.2, B-D3), called only when at least two floor
    numerals worth less than the card's value v could sum to v. Most floors have no sum group
    or exactly one (the union is then the group itself): sum_groups tells which (`found`, 1 or
    2, computed by the caller), and those are settled here on a small frame; two groups or more
    go to the full search (capture_search_full)."""
    cdef int r = card >> 2, k = 0, i, v = r + 1, n = 0, t
    cdef uint64_t R = floor & (card_bit(4 * r) - 1), m = R, u = 0, one = 1
    cdef int8_t ids[40]
    cdef int8_t vals[40]
    cdef uint64_t pre[40]
    if found >= 2:
        return capture_search_full(floor, card, c, bases, nb, out)
    if found == 1:
        # the one group, rebuilt from sum_groups' table of reachable sums: pre[i] = the sums
        # the cards before ids[i] reach; from the last card down, a card is in the group iff
        # the sum still wanted is out of reach without it (the group is the only subset
        # summing to v, so this finds it)
        while m:
            i = bit_low(m)
            m &= m - 1
            ids[k] = i
            vals[k] = (i >> 2) + 1
            pre[k] = one
            one |= one << vals[k]
            k += 1
        t = v
        i = k - 1
        while t > 0:
            if not ((pre[i] >> t) & 1):
                u |= card_bit(ids[i])
                t -= vals[i]
            i -= 1
    for i in range(nb):
        out[i] = bases[i] | u
    n = nb
    if c.cap_maximum and n > 1:                 # as capture_search_full: keep the largest sets
        n = keep_largest(out, n)
    return n

cdef inline bint groups_disjoint(const CapCtx* x) noexcept nogil:
    """No two sum groups share a card (then all of them form the only maximal family)."""
    cdef uint64_t seen = 0
    cdef int g
    for g in range(x.ngroups):
        if x.groups[g] & seen:
            return False
        seen |= x.groups[g]
    return True

cdef int capture_search_full(uint64_t floor, int card, const BasraConfig* c, const uint64_t* bases, int nb,
                             uint64_t* out) noexcept nogil:
    """The full summing search: every distinct union of a maximal family of disjoint groups
    (>= 2 numerals each) summing to v, each combined with every same-rank base;
    `capture_mode=maximum` keeps the largest only. Its search workspace (CapCtx, ~90 KB) lives
    in this frame only, so the common plays never touch it."""
    cdef int r = card >> 2, n = 0, i, k, v = r + 1, tot = 0
    cdef uint64_t R = floor & (card_bit(4 * r) - 1), m          # numerals worth less than v
    cdef int8_t vals[40]
    cdef CapCtx x
    x.nunions = 0
    k = 0
    m = R
    while m:
        i = bit_low(m)
        m &= m - 1
        x.ids[k] = i
        vals[k] = (i >> 2) + 1
        tot += vals[k]
        k += 1
    x.n = k
    if tot >= v:
        x.ngroups = 0
        for i in range(k):
            x.lo_start[i] = x.ngroups
            if vals[i] < v:
                gen_groups(&x, vals, i + 1, v - vals[i], card_bit(x.ids[i]))
            x.lo_end[i] = x.ngroups
        if x.ngroups == 1:
            x.unions[0] = x.groups[0]
            x.nunions = 1
        elif x.ngroups > 1 and groups_disjoint(&x):  # the one maximal family: every group
            m = 0
            for i in range(x.ngroups):
                m |= x.groups[i]
            x.unions[0] = m
            x.nunions = 1
        elif x.ngroups == 2:                      # two groups sharing a card: each alone is a
            x.unions[0] = x.groups[0]             # maximal family, in gen_unions' order (the
            x.unions[1] = x.groups[1]             # family of the lower first card first)
            x.nunions = 2
        elif x.ngroups > 1:
            index_by_highest(&x)
            x.use_memo = x.ngroups > 24
            if x.use_memo:
                memset(x.memo, 0, sizeof(x.memo))
            x.budget = FAMILY_BUDGET
            gen_unions(&x, 0, 0, 0)
    if x.nunions == 0:
        x.unions[0] = 0
        x.nunions = 1
    for k in range(nb):
        for i in range(x.nunions):
            if n < BA_MAXSETS:
                out[n] = bases[k] | x.unions[i]
                n += 1
    if c.cap_maximum and n > 1:
        n = keep_largest(out, n)
    return n

cdef bint fill_bin(int* cnt, int s, int k, int rem, int maxv) noexcept nogil:
    cdef int val
    cdef bint ok
    if rem == 0:
        return part_rest(cnt, s, k - 1)
    val = rem if rem < maxv else maxv
    while val >= 1:
        if cnt[val]:
            cnt[val] -= 1
            ok = fill_bin(cnt, s, k, rem - val, val)
            cnt[val] += 1
            if ok:
                return True
        val -= 1
    return False

cdef bint part_rest(int* cnt, int s, int k) noexcept nogil:
    if k <= 1:
        return True
    return fill_bin(cnt, s, k, s, 10)

cdef bint equal_partition_below_10(uint64_t f) noexcept nogil:
    """The numeral floor splits into k >= 2 groups (single cards allowed) of one equal sum
    s < 10 (B-D20; WIK's A-2-7-8 = (1+8) + (2+7))."""
    cdef int cnt[11]
    cdef int i, t = 0, mx = 0, s, val
    for i in range(11):
        cnt[i] = 0
    while f:
        val = (bit_low(f) >> 2) + 1
        f &= f - 1
        cnt[val] += 1
        t += val
        if val > mx:
            mx = val
    for s in range(mx, 10):
        if t % s == 0 and t // s >= 2 and part_rest(cnt, s, t // s):
            return True
    return False

cdef int basra_points(const BasraConfig* c, int card, uint64_t floor, bint last) noexcept nogil:
    """Basra points for clearing `floor` (non-empty) with `card` (§4.3).

    Validity: J never makes a normal basra, only `jack_on_lone_jack` on a lone J; no sweep bonus
    at all when sweep_bonus is off (Syria); floor-size limit (Lebanese); lone rule (Palestinian/
    Jordanian: lone card only, flat 20 or twice its value, ♦7 on a lone 7 = 14); ♦7 sweeps need
    an all-numeral floor totalling <= 10 (Egyptian) or the Yemeni conditions; Q on a lone Q is
    no basra when queen_on_lone_queen is off (Ethiopia). Points: 10 otherwise. `last`: this is
    the last card of the deal (basra_on_last_play)."""
    cdef int n = cs_popcount(floor), r = card >> 2, f
    cdef bint d7 = card == BA_D7 and c.d7_sweep
    if last and not c.basra_last:
        return 0
    if r == 10:
        if n == 1 and (floor & ba_jacks):
            return c.jack_lone_jack
        return 0
    if not c.sweep_bonus:
        return 0
    if c.floor_max and n > c.floor_max:
        return 0
    if c.lone_rule:
        if n != 1:
            return 0
        f = bit_low(floor)
        if d7:
            return 14 if (f >> 2) == 6 else 0
        if not c.lone_double:
            return 20
        if (f >> 2) >= 11:
            return 2 * c.face_basra_value
        return 2 * ((f >> 2) + 1)
    if d7:
        if not c.d7_yemeni:
            return 10 if (floor & ~ba_numerals) == 0 and floor_total(floor) <= 10 else 0
        if (floor & ~ba_ten_q_k) == 0:
            return 10
        if floor & ~ba_numerals:
            return 0
        if floor_total(floor) < 10 or equal_partition_below_10(floor):
            return 10
        return 0
    if r == 11 and n == 1 and not c.queen_lone_queen:
        return 0
    return 10

cdef void score_deal(const BasraConfig* c, const uint64_t* pile, const uint64_t* doubled,
                     const int32_t* basra_half, int32_t* carry, int32_t* out_half,
                     int8_t* majority_side) noexcept nogil:
    """Score one deal (§6), in half points. Points: card points of each side's pile (doubled
    cards twice), its basra points, and the majority bonus: the side with strictly the most
    cards gets majority_points x (1 + carry) and the carry resets; a tie for most cards gives
    nobody anything and, with majority_tie=carry, adds one to the carry (B-D12, B-D13)."""
    cdef int s, best = -1, bestn = -1, n, k
    cdef bint tie = False
    cdef uint64_t m
    cdef int32_t tot
    for s in range(c.nsides):
        tot = basra_half[s]                     # a local sum: out_half may alias card_half
        m = pile[s]
        while m:
            k = bit_low(m)
            m &= m - 1
            tot += c.card_half[k]
        m = doubled[s] & pile[s]
        while m:
            k = bit_low(m)
            m &= m - 1
            tot += c.card_half[k]
        out_half[s] = tot
        n = cs_popcount(pile[s])
        if n > bestn:
            bestn = n
            best = s
            tie = False
        elif n == bestn:
            tie = True
    if tie:
        majority_side[0] = -1
        if c.majority_carry:
            carry[0] += 1
    else:
        majority_side[0] = best
        out_half[best] += c.majority_half * (1 + carry[0])
        carry[0] = 0



cdef int game_end(const BasraConfig* c, const int32_t* game_half, int8_t* ladder_step) noexcept nogil:
    """Game end (§7) on the current game's points per side (half points): -2 play on, -1 a drawn
    game, else the winning side. ladder_step: the ladder's target index (51/61/71), raised in
    place as the rule says. Targets compare in half points;
    the ladder raises 51 -> 61 -> 71 in the same check (B-D15); a tie for highest is a draw or
    (sudden death) plays on until one side is alone on top (B-D14)."""
    cdef int t, cnt, sd, i, best = -1, hi = -1
    cdef bint tie = False
    if c.ladder and not c.best_of_5:
        while True:
            t = 2 * (51 + 10 * ladder_step[0])
            cnt = 0
            sd = -1
            for i in range(c.nsides):
                if game_half[i] >= t:
                    cnt += 1
                    sd = i
            if cnt == 0:
                return -2
            if cnt == 1:
                return sd
            if ladder_step[0] < 2:
                ladder_step[0] += 1
                continue
            break
    else:
        t = 2 * (150 if c.best_of_5 else c.target)
        cnt = 0
        for i in range(c.nsides):
            if game_half[i] >= t:
                cnt += 1
        if cnt == 0:
            return -2
    for i in range(c.nsides):
        if game_half[i] > hi:
            hi = game_half[i]
            best = i
            tie = False
        elif game_half[i] == hi:
            tie = True
    if not tie:
        return best
    return -2 if c.sudden_death else -1



# ---------------------------------------------------------------------------------------------
# oracle entry points (the public, validating oracles are in the face, cardsim.games.basra)
# ---------------------------------------------------------------------------------------------
cdef const BasraConfig* checked_config(GameSpec spec, uint64_t floor, int card) except NULL:
    """The config of a Basra spec, with a card id and a floor mask of its pack (the card not on
    the floor): the kernels are safe only on those. The face checks them first with typed errors;
    this is the memory-safety net for direct calls (builtin ValueError)."""
    cdef const BasraConfig* c
    if spec is None or spec.name != "basra":
        raise ValueError("basra oracle: expected the spec of a Basra game")
    c = <const BasraConfig*>spec.cfg
    if not 0 <= card < c.deck or floor >> c.deck or (floor >> card) & 1:
        raise ValueError(f"basra oracle: card id {card} and floor mask must lie in the {c.deck}-card pack, "
                         f"the card not on the floor")
    return c

def oracle_capture_sets(GameSpec spec, uint64_t floor, int card):
    """The legal capture sets (floor masks; [0] = trail only) of playing card id `card` on `floor`."""
    cdef uint64_t sets[BA_MAXSETS]
    cdef const BasraConfig* c = checked_config(spec, floor, card)
    cdef int n
    with nogil:
        n = capture_sets(floor, card, c, sets)
    return [sets[i] for i in range(n)]

def oracle_basra_points(GameSpec spec, int card, uint64_t floor, bint last=False):
    """Basra points of `card` clearing the whole `floor` (last: the last card of the deal)."""
    return basra_points(checked_config(spec, floor, card), card, floor, last)

def oracle_score(GameSpec spec, list piles, list doubled, list basra_half, int carry=0):
    """Score a deal: piles / doubled as masks per side, basra points per side in half points.
    Returns (points per side in half points, new carry, majority side or -1)."""
    cdef uint64_t p[4]
    cdef uint64_t d[4]
    cdef int32_t b[4]
    cdef int32_t out[4]
    cdef int32_t cr = carry
    cdef int8_t ms = -1
    cdef const BasraConfig* c = checked_config(spec, 0, 0)
    if len(piles) > 4 or len(doubled) > 4 or len(basra_half) > 4:
        raise ValueError("basra oracle: at most 4 sides")
    for i in range(4):
        p[i] = piles[i] if i < len(piles) else 0
        d[i] = doubled[i] if i < len(doubled) else 0
        b[i] = basra_half[i] if i < len(basra_half) else 0
        out[i] = 0
    score_deal(c, p, d, b, &cr, out, &ms)
    return [out[i] for i in range(c.nsides)], cr, ms
