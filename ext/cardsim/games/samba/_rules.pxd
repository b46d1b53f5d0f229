# Samba pure rules (docs/rules/samba.md): card identities, meld records, meld validity, the
# completions a staged meld can still reach, the initial-meld requirement, side scoring.
# No access to the state struct: everything works on packed hands, meld records and the config.
from cardsim.core._types cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy
from cardsim.core._bits cimport cs_ctz, cs_popcount
from cardsim.core._hand cimport Hand

cdef enum:
    SB_KINDS = 53            # card kinds: suit*13 + rank (rank 0 = '2' .. 12 = 'A'), 52 = joker
    SB_JK = 52               # joker kind; stored as identities 52 (first 3 copies) and 53
    SB_JK2 = 53              # second joker identity (a hand holds copies 4..6 here, see jk_add)
    SB_DECK = 162            # 3 x 52 + 6 jokers
    SB_MAXMELDS = 32         # meld slots per side (engine limit, see docs/rules/samba.md)
    MT_NONE = 0              # meld types
    MT_GROUP = 1
    MT_SEQ = 2
    MT_BLACK3 = 3
    WOC_ALLOWED = 0          # wild_onto_canasta
    WOC_NOT_NATURAL = 1
    WOC_NEVER = 2

ctypedef struct SBConfig:
    int32_t nplayers         # 2..6
    int32_t nsides           # sides (2 for N = 2, 4; 3 for N = 3, 6; 5 for N = 5)
    int32_t hand_size        # cards dealt to each player
    int32_t upcard_rewind    # re-turn a wild / red-three upcard (§3.3)
    int32_t always_frozen    # pile_model == "always_frozen" (no lay-off pickup)
    int32_t seq_top_take     # sequence_top_card_take (Dutch)
    int32_t red3_manual      # red_three_mode == "manual" (Dutch)
    int32_t red3_hand_750    # red3_in_hand_penalty: 1 = -750 per player holding any, 0 = -100 each
    int32_t red3_six_600     # red3_unqualified: 1 = six count -600 (Dutch), 0 = -1000
    int32_t dutch_groups     # group_wild_rule: naturals >= 2 x wilds
    int32_t woc              # wild_onto_canasta WOC_*
    int32_t table_hoyle      # initial_meld_table == "hoyle"
    int32_t penalize         # insufficient_initial_meld == "penalize"
    int32_t go_out_query     # allow_go_out_query
    int32_t min_canastas     # going_out_min_canastas
    int32_t target           # target_score (scope="match")
    int32_t concealed_bonus  # bonus for going out concealed (never melded before the going-out turn)
    int32_t match            # scope == "match"
    int32_t max_fails        # max_failed_melds: penalize applies while a side failed fewer batches (S-D23)
    int32_t max_deals        # scope="match": the match ends after this many deals (S-D24)

ctypedef struct Meld:
    int8_t type              # MT_*
    int8_t key               # GROUP: rank 2..12; SEQ: suit 0..3
    int8_t lo                # SEQ: lowest rank
    int8_t hi                # SEQ: highest rank
    int8_t nat               # natural cards (GROUP) / cards (SEQ, BLACK3)
    int8_t wild              # wild cards (GROUP only)
    int8_t n                 # cards in the meld
    int8_t pending           # 1 while part of an unfinished initial-meld batch
    Hand cards               # the cards themselves (identities, jokers canonical)

cdef int sb_meld_of(const int8_t* cnt, Meld* out) noexcept nogil
cdef int sb_meld_of_hand(const Hand* h, Meld* out) noexcept nogil
cdef int sb_meld_shape(const Hand* h, Meld* out) noexcept nogil
cdef int sb_layoff_ok(const Meld* m, const int8_t* add, const SBConfig* c) noexcept nogil
cdef int sb_meld_bonus(const Meld* m) noexcept nogil
cdef int sb_red3_score(int k, int canastas, const SBConfig* c) noexcept nogil
cdef int sb_counts_value(const int8_t* cnt) noexcept nogil
cdef int seq_completion(int s, int lo, int hi, int fixed_n, int gaps_ok, const int8_t* H, int hsize,
                        int C, int was_samba, bint may_out, const SBConfig* c) noexcept nogil
cdef int sb_complete_new(const int8_t* S, const int8_t* H, int C, bint may_out, const SBConfig* c) noexcept nogil
cdef int sb_complete_new_n(const int8_t* S, uint64_t smask, const int8_t* H, int n, int hsize, int C,
                           bint may_out, const SBConfig* c) noexcept nogil
cdef int sb_complete_layoff(const Meld* m, const int8_t* S, const int8_t* H, int n, int hsize, int C,
                            bint may_out, const SBConfig* c) noexcept nogil

cdef inline int kind_of(int ident) noexcept nogil:
    """Card kind of a card identity (both joker identities are the joker kind)."""
    return SB_JK if ident >= SB_JK else ident

cdef inline int rank_of(int kind) noexcept nogil:
    return kind % 13

cdef inline int suit_of(int kind) noexcept nogil:
    return kind // 13

cdef inline bint is_wild(int kind) noexcept nogil:
    """A deuce or the joker (kind 52): bit kind of wild_kinds' mask (0x8004002001 | 1 << 52; any
    other int, negative included, is no wild)."""
    return <unsigned int>kind <= 52 and (<uint64_t>0x10008004002001 >> kind) & 1

cdef inline bint is_natural(int kind) noexcept nogil:
    """Ranks 4..A of kinds 0..51: bit kind of nat_kinds' mask (any other int is no natural)."""
    return <unsigned int>kind < 52 and (<uint64_t>0xFFE7FF3FF9FFC >> kind) & 1

cdef inline bint is_black3(int kind) noexcept nogil:
    return kind == 1 or kind == 40

cdef inline bint is_red3(int kind) noexcept nogil:
    return kind == 14 or kind == 27

cdef inline int sb_size(const Hand* h) noexcept nogil:
    """Cards held (core hand_size without layer 3): a Samba hand, stage or meld never holds an
    identity four times (three decks; add_kind keeps the joker identity 52 at <= 3 copies, the
    rest on 53), so layer 3 is empty (_testing.records_consistent checks it)."""
    return cs_popcount(h.layer[0]) + cs_popcount(h.layer[1]) + cs_popcount(h.layer[2])

cdef inline int sb_size_in(const Hand* h, uint64_t mask) noexcept nogil:
    """Cards held among the identities in mask (core hand_size_in without layer 3: see sb_size)."""
    return cs_popcount(h.layer[0] & mask) + cs_popcount(h.layer[1] & mask) + cs_popcount(h.layer[2] & mask)

cdef inline void sb_counts(const Hand* h, int8_t* cnt) noexcept nogil:
    """cnt[kind] = copies of each kind in h (jokers: both identities). Layer i holds the
    identities with more than i copies (a thermometer), so a pass over the set bits of each
    layer in turn stores i + 1 for identities 0..51 (no read-modify-write, the last layer to
    hold a bit wins); the joker kind is the popcount of identities 52 and 53 over the layers."""
    cdef uint64_t b, M = (<uint64_t>1 << SB_JK) - 1
    cdef int i
    memset(cnt, 0, SB_KINDS)
    for i in range(4):
        b = h.layer[i] & M
        if b == 0:
            break               # the layers above hold no natural identity either
        while b:
            cnt[cs_ctz(b)] = i + 1
            b &= b - 1
    cnt[SB_JK] = cs_popcount(((h.layer[0] >> SB_JK) & 3) | (((h.layer[1] >> SB_JK) & 3) << 2)
                             | (((h.layer[2] >> SB_JK) & 3) << 4) | (((h.layer[3] >> SB_JK) & 3) << 6))

# kind masks (bit k: kind or identity k) and counts read off a packed hand
cdef inline uint64_t rank_mask(int r) noexcept nogil:
    """The kinds of rank r in the four suits (bits r, 13 + r, 26 + r, 39 + r: 0x8004002001 << r)."""
    return <uint64_t>0x8004002001 << r

cdef inline uint64_t wild_kinds() noexcept nogil:
    """The wild kinds (the four deuces and the joker) as a mask."""
    return rank_mask(0) | (<uint64_t>1 << SB_JK)

cdef inline uint64_t wild_ids() noexcept nogil:
    """The identities of the wild cards in a packed hand (deuces, both joker identities)."""
    return rank_mask(0) | (<uint64_t>1 << SB_JK) | (<uint64_t>1 << SB_JK2)

cdef inline uint64_t nat_kinds() noexcept nogil:
    """The natural kinds (ranks 4..A of the four suits) as a mask."""
    return ((<uint64_t>1 << 52) - 1) & ~(rank_mask(0) | rank_mask(1))

cdef inline uint64_t run_kinds(uint64_t held) noexcept nogil:
    """The naturals of `held` (bit k: kind k held) lying in a run of >= 3 consecutive held ranks
    of their suit: the windows of three held naturals, spread back over their three ranks (a
    window never crosses suits: the ranks 2 and 3 between them are not naturals)."""
    cdef uint64_t n = held & nat_kinds()
    cdef uint64_t t = n & (n >> 1) & (n >> 2)
    return t | (t << 1) | (t << 2)

cdef inline uint32_t ranks_of(uint64_t kinds) noexcept nogil:
    """The ranks (bit r) of the kinds 0..51 in the mask (folded down 26, then 13)."""
    cdef uint64_t x = kinds | (kinds >> 26)
    return <uint32_t>((x | (x >> 13)) & 0x1FFF)

cdef inline uint64_t spread(uint32_t R) noexcept nogil:
    """The kinds of the ranks in R (bit r) in the four suits (R < 2**13: the copies at 0, 13, 26,
    39 do not overlap, so the product is rank_mask summed over R)."""
    return <uint64_t>R * <uint64_t>0x8004002001

cdef inline bint sb_is_canasta(const Meld* m) noexcept nogil:
    """A GROUP of >= 7 cards or a SEQUENCE of 7 (a samba) counts toward canastas(s) (§4.0)."""
    return (m.type == MT_GROUP and m.n >= 7) or (m.type == MT_SEQ and m.n == 7)

cdef inline bint woc_blocks(const Meld* m, const SBConfig* c) noexcept nogil:
    """True if wild_onto_canasta forbids adding any wild to m (judged before the action, S-D6)."""
    if m.type != MT_GROUP or m.n < 7:
        return False
    if c.woc == WOC_NEVER:
        return True
    return c.woc == WOC_NOT_NATURAL and m.wild == 0

cdef inline bint sb_hg_ok(int h, int cafter, bint may_out, const SBConfig* c) noexcept nogil:
    """Hand guard HG (§4.0) after a non-discard action leaving h cards: h >= 2, or h <= 1 with
    the side holding min_canastas canastas and the partner not having said no."""
    return h >= 2 or (may_out and cafter >= c.min_canastas)

cdef inline int sb_nat_of_rank(const int8_t* cnt, int r) noexcept nogil:
    """Naturals of rank r (all suits) in the counts."""
    return cnt[r] + cnt[13 + r] + cnt[26 + r] + cnt[39 + r]

cdef inline int sb_wilds(const int8_t* cnt) noexcept nogil:
    """Wild cards (deuces and jokers) in the counts."""
    return cnt[0] + cnt[13] + cnt[26] + cnt[39] + cnt[SB_JK]

cdef inline uint64_t sb_word(const int8_t* cnt, int i) noexcept nogil:
    """Bytes 8i..8i+7 of a count vector as one word (i = 6: kinds 48..52 only). Fixed-size
    copies, so the compiler makes them plain loads."""
    cdef uint64_t w
    cdef uint32_t lo
    if i < 6:
        memcpy(&w, cnt + 8 * i, 8)
        return w
    memcpy(&lo, cnt + 48, 4)
    return <uint64_t>lo | (<uint64_t>(<uint8_t>cnt[52]) << 32)

cdef inline int sb_rank_value(int r) noexcept nogil:
    """Card value of a rank (§2): 2 and A 20, K..8 10, 7..4 5, (the threes: 0 here)."""
    return 20 if r == 0 or r == 12 else (0 if r == 1 else (5 if r <= 5 else 10))

cdef inline int sb_card_value(int kind) noexcept nogil:
    """Card value (§2): joker 50, 2 and A 20, K..8 10, 7..4 5, black 3 5, red 3 0."""
    if kind == SB_JK:
        return 50
    if kind % 13 == 1:
        return 5 if is_black3(kind) else 0
    return sb_rank_value(kind % 13)

cdef inline int sb_total(const int8_t* cnt) noexcept nogil:
    """Cards in the counts: the seven words added lane by lane (a lane holds <= 7 counts of at
    most 6 copies: no carry), then the eight lanes by one multiplication (a count vector holds
    <= 162 cards < 256)."""
    cdef uint64_t t = (sb_word(cnt, 0) + sb_word(cnt, 1) + sb_word(cnt, 2) + sb_word(cnt, 3)
                       + sb_word(cnt, 4) + sb_word(cnt, 5) + sb_word(cnt, 6))
    return <int>((t * <uint64_t>0x0101010101010101) >> 56)

cdef inline uint64_t sb_kinds(const int8_t* cnt) noexcept nogil:
    """The kinds with a nonzero count, as a mask (bit k: kind k): per word, a byte's high bit is
    set when the byte is nonzero, then the eight high bits are gathered by one multiplication
    (little-endian byte order, as on every platform the package builds for)."""
    cdef uint64_t m = 0, w, t
    cdef int i
    for i in range(7):
        w = sb_word(cnt, i)
        t = ((w | ((w & <uint64_t>0x7F7F7F7F7F7F7F7F) + <uint64_t>0x7F7F7F7F7F7F7F7F))
             & <uint64_t>0x8080808080808080) >> 7
        m |= ((t * <uint64_t>0x0102040810204080) >> 56) << (8 * i)
    return m

cdef inline int sb_req(int cum, int hoyle) noexcept nogil:
    """Initial-meld requirement from the side's cumulative score at the start of the deal (§4.0,
    S-D15): <0: 15, 0..1495: 50, 1500..2995: 90, 3000..4995: 120, >=5000: 150; the Hoyle table
    has 3000..6995: 120, >=7000: 160."""
    if cum < 0:
        return 15
    if cum < 1500:
        return 50
    if cum < 3000:
        return 90
    if hoyle:
        return 120 if cum < 7000 else 160
    return 120 if cum < 5000 else 150

cdef inline bint sb_group_ok(int nat, int wild, const SBConfig* c) noexcept nogil:
    """GROUP validity (§4.0): >= 3 cards, >= 2 naturals, <= 2 wilds; Dutch group_wild_rule also
    naturals >= 2 x wilds (S-D7)."""
    if nat < 2 or wild > 2 or nat + wild < 3:
        return False
    if c.dutch_groups and nat < 2 * wild:
        return False
    return True

# ---- hot rules, inline (the legal-move generation calls them for every legal set; a call across
# modules goes through a pointer and is never inlined)

cdef inline int seq_span(const Meld* m, const int8_t* add, int* lo, int* hi) noexcept nogil:
    """Cards of add in sequence m's suit, each once and outside m's run, widening lo..hi to
    cover them; -1 if a card repeats or falls inside the run."""
    cdef int k, r, n = 0
    lo[0] = m.lo
    hi[0] = m.hi
    for k in range(m.key * 13 + 2, m.key * 13 + 13):
        if add[k]:
            r = rank_of(k)
            if add[k] > 1 or m.lo <= r <= m.hi:
                return -1
            lo[0] = r if r < lo[0] else lo[0]
            hi[0] = r if r > hi[0] else hi[0]
            n += 1
    return n


cdef inline int sb_layoff_ok_n(const Meld* m, const int8_t* add, int n, const SBConfig* c) noexcept nogil:
    """LAY_OFF validity (§4.4): the cards `add` (non-empty) join meld m and the result is valid.
    GROUP: naturals of its rank and/or wilds within the wild limits and the wild_onto_canasta
    option; SEQUENCE: naturals of its suit making one longer consecutive run of <= 7 cards
    (either or both ends, S-D8); BLACK3: black threes, <= 6 in all (the going-out conditions are
    the hand guard's). n = the cards in add. Returns 1 or 0."""
    cdef int k, sn = 0, sw, r, lo, hi
    if n == 0:
        return 0
    if m.type == MT_GROUP:
        sw = sb_wilds(add)
        sn = sb_nat_of_rank(add, m.key)
        if sn + sw != n:
            return 0
        if sw and woc_blocks(m, c):
            return 0
        return sb_group_ok(m.nat + sn, m.wild + sw, c)
    if m.type == MT_SEQ:
        sn = seq_span(m, add, &lo, &hi)
        if sn != n or hi - lo + 1 != m.n + n or hi - lo + 1 > 7:
            return 0
        return 1
    if m.type == MT_BLACK3:
        return 1 if add[1] + add[40] == n and m.n + n <= 6 else 0
    return 0


cdef inline int sb_merge_ok(const Meld* a, const Meld* b, const SBConfig* c) noexcept nogil:
    """MERGE validity (§4.4, S-D8): two GROUPs of one rank; the union within the wild limits; and
    no wild joins a canasta that wild_onto_canasta protects (EX-S10)."""
    if a.type != MT_GROUP or b.type != MT_GROUP or a.key != b.key:
        return 0
    if not sb_group_ok(a.nat + b.nat, a.wild + b.wild, c):
        return 0
    if (b.wild and woc_blocks(a, c)) or (a.wild and woc_blocks(b, c)):
        return 0
    return 1


cdef inline int group_completion(int sn, int sw, int hn, int hw, int base_nat, int base_wild, int base_n,
                          int hsize, int C, int was_canasta, bint wild_ok, bint may_out,
                          const SBConfig* c) noexcept nogil:
    """Some x <= hn naturals and y <= hw wilds join the staged sn naturals and sw wilds (on top of
    a meld of base_nat/base_wild/base_n, 0 for a new meld) making a valid GROUP that passes HG."""
    cdef int x, y, nat, w, h, x0, ymax
    # the iterations sb_group_ok refuses at once are skipped: nat < 2, wilds > 2
    x0 = 2 - base_nat - sn if base_nat + sn < 2 else 0
    ymax = hw if wild_ok else 0
    if 2 - base_wild - sw < ymax:
        ymax = 2 - base_wild - sw
    if ymax < 0:
        return 0
    for x in range(x0, hn + 1):
        for y in range(ymax + 1):
            nat = base_nat + sn + x
            w = base_wild + sw + y
            if not sb_group_ok(nat, w, c):
                continue
            if sn + sw + x + y == 0:
                continue
            h = hsize - x - y
            if sb_hg_ok(h, C - was_canasta + (1 if base_n + sn + sw + x + y >= 7 else 0), may_out, c):
                return 1
    return 0


cdef inline int sb_pile_group_ok(int sn, int sw, int hn, int hw, int hsize, int rest, int C, bint may_out,
                          const SBConfig* c) noexcept nogil:
    """TAKE_PILE_PAIR for an opened side (§4.3): the group top + sn staged naturals + sw staged
    wilds + x more naturals and y more wilds of the hand (hn, hw available) is valid with at
    least two naturals from the hand, and HG holds with the hand left at hsize - x - y + rest
    (the rest of the pile joins it)."""
    cdef int x, y
    for x in range(hn + 1):
        if sn + x < 2:
            continue
        for y in range(hw + 1):
            if not sb_group_ok(1 + sn + x, sw + y, c):
                continue
            if sb_hg_ok(hsize - x - y + rest, C + (1 if 1 + sn + sw + x + y >= 7 else 0), may_out, c):
                return 1
    return 0
