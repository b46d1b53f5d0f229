"""Joffre Whist (E. Lynch, 1909): 4 players in partnerships, an auction over seven strains with
Trump Attack and Joffre Trump Attack, whist play, a reconstructed score table.

Implements shared/rules/joffre_whist.md §1-§8 and follows its decisions D1-D13 as written:
♦10 + ♠2 are the Joffre (D1); linear unit table, replaceable (D2); slam = 2 x row(7) (D3); JTA
success with either partner holding both Joffre cards alone (D4, option); failed doubled JTA x2
(D5, option); TA needs 4 cards of the named suit (D6, option); TA opening lead by the partner (D7);
strain dominates level (D8); a doubler left alone declares the doubled contract (D9); all-pass is
a throw-in that does not count as a deal (D10, option); failure pays only odd tricks over 6 (D11);
JTA Joffre bonus 50 replaces 15 (D12); honours are complete-set bonuses (D13, option).

Card identity: suit*13 + rank, suits S H D C (0..3), rank 0 = '2' .. 12 = 'A'.
Actions: 0..51 play that card; 52 PASS; 53 DOUBLE; 54..144 bids in rank order
(1NT..7NT, 1S..7S, 1D..7D, 1C..7C, 1H..7H, then TA level-major with suits S H D C, then JTA).

Returns: per seat, own team's points minus the other team's (zero-sum), for the deal (scope
"deal") or the whole match (scope "match"). Raw team points are the metrics ns_points/ew_points.

Observation (float32, length OBS_SIZE), blocks in order: own hand (52); cards played by each
seat 0..3 (4x52); trick number+1 of each played card /13 (52); current trick by seat (4x52);
auction: who made each bid (91x4), bid each seat doubled (4x91), high bid when each seat passed
(4x92, slot 0 = no bid yet); contract strain (7), level (7), named suit (4), declarer (4),
doubled (1), trump (4); phase (3), seat to act (4), dealer (4), observer (4); tricks won per seat
/13 (4); TA trump-lead counter /3 (1); cumulative team scores /100 (2); deals done /num_deals (1);
throw-ins /10 (1).

Greedy agent: bids the cheapest legal plain-suit or NT contract its estimate reaches (high
cards + trump length + 3 tricks expected from partner), never TA/JTA, doubles only a contract
of level >= 3 when it holds 3+ quick tricks against it; in play it leads a master card if it has
one, otherwise draws trumps as declarer side with 3+ trumps, otherwise the lowest card of its
longest suit; as follower it plays low when partner already wins, else the cheapest card that
wins, else its lowest card.
"""
from libc.string cimport memset
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from cardsim.core._types cimport card_t
from cardsim.core._deal cimport fill_identity, shuffle
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_add_range, as_has, as_first
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.core._engine import _short

from cardsim.errors import ConfigError, ParseError, IllegalActionError
from cardsim import cards as _cards

cdef uint64_t FULL = (<uint64_t>1 << 52) - 1
cdef uint64_t SUIT_MASK_0 = 0x1FFF
cdef int D10 = 2 * 13 + 8       # ♦10
cdef int S2 = 0                 # ♠2
cdef int CJ = 3 * 13 + 9        # ♣J
# strain (NT S D C H) -> trump suit id (S=0 H=1 D=2 C=3)
cdef int8_t STRAIN_SUIT[5]
STRAIN_SUIT[:] = [-1, 0, 2, 3, 1]

# TA_BITS[s]: the action-set words holding the 7 TA bids naming suit s (actions 89 + 4l + s)
cdef uint64_t TA_BITS[4][3]
for _s in range(4):
    TA_BITS[_s][0] = TA_BITS[_s][1] = TA_BITS[_s][2] = 0
    for _l in range(7):
        _a = JW_BID0 + 35 + 4 * _l + _s
        TA_BITS[_s][_a // 64] |= (<uint64_t>1) << (_a % 64)

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
STRAIN_NAMES = ("NT", "S", "D", "C", "H", "TA", "JTA")
OBS_SIZE = 52 + 208 + 52 + 208 + 364 + 364 + 368 + 7 + 7 + 4 + 4 + 1 + 4 + 3 + 4 + 4 + 4 + 4 + 1 + 2 + 1 + 1
METRICS = ("declarer", "strain", "level", "doubled", "made", "declarer_tricks", "ns_points",
           "ew_points", "joffre_team", "throw_ins")

cdef uint8_t SUIT_OF[52]
for _c in range(52):
    SUIT_OF[_c] = _c // 13

cdef inline uint64_t suit_mask(int s) noexcept nogil:
    return SUIT_MASK_0 << (13 * s)

cdef inline int card_suit(int c) noexcept nogil:
    return c // 13

cdef inline int card_rank(int c) noexcept nogil:
    return c % 13


# ---------------------------------------------------------------------------------------------
# bids
# ---------------------------------------------------------------------------------------------
cdef inline int bid_rank(int bi) noexcept nogil:
    """Rank of bid index bi (0..90): strain dominates level; TA/JTA suits share a rank (§2)."""
    if bi < 35:
        return bi
    if bi < 63:
        return 35 + (bi - 35) // 4
    return 42 + (bi - 63) // 4

cdef inline int first_bid_of_rank(int r) noexcept nogil:
    """Smallest bid index of rank r (r in 0..49; 91 when r = 49)."""
    if r < 35:
        return r
    if r < 42:
        return 35 + (r - 35) * 4
    return 63 + (r - 42) * 4

cdef inline void bid_decode(int bi, int* level, int* strain, int* named) noexcept nogil:
    if bi < 35:
        strain[0] = bi // 7
        level[0] = bi % 7 + 1
        named[0] = -1
    elif bi < 63:
        strain[0] = JW_TA
        level[0] = (bi - 35) // 4 + 1
        named[0] = (bi - 35) % 4
    else:
        strain[0] = JW_JTA
        level[0] = (bi - 63) // 4 + 1
        named[0] = (bi - 63) % 4

cdef inline int bid_index(int level, int strain, int named) noexcept nogil:
    if strain < JW_TA:
        return strain * 7 + level - 1
    if strain == JW_TA:
        return 35 + (level - 1) * 4 + named
    return 63 + (level - 1) * 4 + named


# ---------------------------------------------------------------------------------------------
# pure rules (also behind the public oracles)
# ---------------------------------------------------------------------------------------------
cdef uint64_t jw_follow_mask(uint64_t hand, int led_suit, int trump) noexcept nogil:
    """Follow-suit rule (§5). Validity: a follower holding the led suit must play it; else a
    holder of trumps must trump (any trump, no over-trump duty); else any card. Returns the mask
    of legal cards of `hand` (led_suit -1 = on lead: any card)."""
    cdef uint64_t m
    if led_suit < 0:
        return hand
    m = hand & suit_mask(led_suit)
    if m:
        return m
    if trump >= 0:
        m = hand & suit_mask(trump)
        if m:
            return m
    return hand

cdef int jw_trick_winner(const int8_t* cards, int n, int trump) noexcept nogil:
    """Trick winner (§5): the highest trump if any trump was played, else the highest card of
    the led suit (cards[0] leads). No ties in a single deck. Returns the index into cards."""
    cdef int led = card_suit(cards[0])
    cdef int best = 0, i, key, bkey = -1, s
    for i in range(n):
        s = card_suit(cards[i])
        if s == trump:
            key = 32 + card_rank(cards[i])
        elif s == led:
            key = 16 + card_rank(cards[i])
        else:
            key = 0
        if key > bkey:
            bkey = key
            best = i
    return best

cdef inline int32_t row(const JWConfig* c, int strain, int k) noexcept nogil:
    return k * c.unit[strain]

cdef void jw_score(const JWConfig* c, const uint64_t* won, const int8_t* tricks, int declarer,
                   int level, int strain, int named, int doubled, int32_t* pts, int8_t* made,
                   int8_t* joffre_team) noexcept nogil:
    """Score one deal (§6). Points: the contract (made: row(DT-6), slam on level 7; failed JTA:
    2 x row(level) to the opponents; failed other: row(OT-6) to the opponents), x2 when doubled;
    then Joffre (15, or 50 in a JTA contract), honours (2) and royal honours (8) to whichever
    team qualifies, never doubled. pts[0] = NS, pts[1] = EW."""
    cdef int T = declarer & 1
    cdef int DT = tricks[T] + tricks[T + 2]
    cdef int OT = 13 - DT
    cdef int holder = -1, p, t, ok
    cdef int32_t v
    cdef uint64_t joffre = ((<uint64_t>1) << D10) | ((<uint64_t>1) << S2)
    cdef uint64_t team_won[2]
    cdef uint64_t hon
    cdef int trump
    pts[0] = 0
    pts[1] = 0
    for p in range(4):
        if (won[p] & joffre) == joffre:
            holder = p
    team_won[0] = won[0] | won[2]
    team_won[1] = won[1] | won[3]
    ok = DT >= 6 + level
    if ok and strain == JW_JTA:
        if c.joffre_declarer_only:
            ok = holder == declarer
        else:
            ok = holder >= 0 and (holder & 1) == T
    made[0] = ok
    if ok:
        if level == 7:
            v = 2 * row(c, strain, 7) if c.slam_mode == 0 else row(c, strain, 7) + c.slam_bonus
        else:
            v = row(c, strain, DT - 6)
        pts[T] += v * (2 if doubled else 1)
    elif strain == JW_JTA:
        v = 2 * row(c, JW_JTA, level)
        pts[1 - T] += v * (2 if (doubled and c.failed_jta_double) else 1)
    elif OT > 6:
        pts[1 - T] += row(c, strain, OT - 6) * (2 if doubled else 1)
    joffre_team[0] = -1
    if holder >= 0:
        pts[holder & 1] += c.jta_joffre_bonus if strain == JW_JTA else c.joffre_bonus
        joffre_team[0] = holder & 1
    if strain == JW_NT:
        for t in range(2):
            if team_won[t] & ((<uint64_t>1) << CJ):
                pts[t] += c.honours_bonus
    else:
        trump = named if strain >= JW_TA else STRAIN_SUIT[strain]
        hon = (<uint64_t>0xF << 9) << (13 * trump)    # J Q K A of the trump suit
        for t in range(2):
            if c.honours_per_card:
                pts[t] += c.honours_bonus * cs_popcount(team_won[t] & hon)
            elif (team_won[t] & hon) == hon:
                pts[t] += c.honours_bonus
    hon = 0
    for t in range(4):
        hon |= (<uint64_t>0xF << 9) << (13 * t)
    for t in range(2):
        if (team_won[t] & hon) == hon:
            pts[t] += c.royal_bonus


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void deal_cards(JWState* s) noexcept nogil:
    """Shuffle (Fisher-Yates on the deal stream) and deal one card at a time clockwise from
    next(dealer) (§3); reset everything of the previous deal."""
    cdef card_t perm[52]
    cdef int i
    fill_identity(perm, 52)
    shuffle(perm, 52, &s.rng)
    for i in range(4):
        s.hand[i] = 0
        s.won[i] = 0
        s.played[i] = 0
        s.trick[i] = -1
        s.tricks[i] = 0
        s.dbl_at[i] = -1
        s.pass_at[i] = -2
        s.void_suits[i] = 0
        s.ta_suits[i] = 0
    for i in range(52):
        s.hand[(s.dealer + 1 + i) & 3] |= (<uint64_t>1) << perm[i]
    memset(s.card_trick, -1, sizeof(s.card_trick))
    memset(s.bid_by, -1, sizeof(s.bid_by))
    s.trick_mask = 0
    s.led = -1
    s.high = -1
    s.high_bidder = -1
    s.doubled = 0
    s.doubler = -1
    s.passed = 0
    s.has_doubled = 0
    s.phase = JW_PH_AUCTION
    s.turn = (s.dealer + 1) & 3
    s.leader = -1
    s.ntrick = 0
    s.tricks_done = 0
    s.declarer = -1
    s.level = 0
    s.strain = -1
    s.named = -1
    s.trump = -1
    s.cdoubled = 0
    s.ta_count = 0

cdef void jw_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef JWState* s = <JWState*>st
    memset(s, 0, sizeof(JWState))
    s.rng = rng[0]
    s.dealer = rng_below(&s.rng, 4)          # first dealer random (§1)
    s.made = -1
    s.joffre_team = -1
    deal_cards(s)

cdef int jw_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    return -1 if s.phase == JW_PH_END else s.turn

cdef bint jw_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const JWState*>st).phase == JW_PH_END

cdef uint64_t play_mask(const JWState* s) noexcept nogil:
    """Legal cards of the seat to act in the play phase (§5), incl. the TA lead rule."""
    cdef uint64_t h = s.hand[s.turn]
    cdef uint64_t t
    if s.ntrick == 0:
        if (s.strain == JW_TA and s.turn == ((s.declarer + 2) & 3) and s.ta_count < 3):
            t = h & suit_mask(s.trump)
            if t:
                return t
        return h
    return jw_follow_mask(h, s.led, s.trump)

cdef int jw_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    cdef const JWConfig* c = <const JWConfig*>cfg
    cdef uint64_t m
    cdef int p, lo, a, suit, lvl, n
    out.w[0] = 0
    out.w[1] = 0
    out.w[2] = 0
    if s.phase == JW_PH_PLAY:
        m = play_mask(s)
        out.w[0] = m
        return cs_popcount(m)
    if s.phase != JW_PH_AUCTION:
        return 0
    p = s.turn
    n = 0
    # PASS: always, unless the dealer-must-bid option forces the last player to bid
    if not (c.dealer_bids and s.high < 0 and cs_popcount(s.passed) == 3):
        as_add(out, JW_PASS)
        n += 1
    if (s.high >= 0 and not s.doubled and ((s.high_bidder ^ p) & 1)
            and not (s.has_doubled >> p) & 1):
        as_add(out, JW_DOUBLE)
        n += 1
    lo = 0 if s.high < 0 else first_bid_of_rank(bid_rank(s.high) + 1)
    # every bid from lo up is higher (bid ids are in rank order): set the range word by word,
    # then drop the TA bids of suits p holds fewer than 4 cards of (§4, D6)
    as_add_range(out, JW_BID0 + lo, JW_NUM_ACTIONS)
    if not c.ta_any_suit:
        for suit in range(4):
            if cs_popcount(s.hand[p] & suit_mask(suit)) < 4:
                out.w[1] &= ~TA_BITS[suit][1]
                out.w[2] &= ~TA_BITS[suit][2]
    return cs_popcount(out.w[0]) + cs_popcount(out.w[1]) + cs_popcount(out.w[2])

cdef inline int next_active(const JWState* s, int p) noexcept nogil:
    cdef int i
    for i in range(1, 5):
        if not (s.passed >> ((p + i) & 3)) & 1:
            return (p + i) & 3
    return p

cdef void start_play(JWState* s, int declarer) noexcept nogil:
    cdef int lvl, strain, named
    bid_decode(s.high, &lvl, &strain, &named)
    s.declarer = declarer
    s.level = lvl
    s.strain = strain
    s.named = named
    s.trump = named if strain >= JW_TA else STRAIN_SUIT[strain]
    s.cdoubled = s.doubled
    s.phase = JW_PH_PLAY
    if strain == JW_JTA:                       # opening leader (§5, D7)
        s.leader = (declarer + 1) & 3
    elif strain == JW_TA:
        s.leader = (declarer + 2) & 3
    else:
        s.leader = declarer
    s.turn = s.leader

cdef void finish_deal(JWState* s, const JWConfig* c) noexcept nogil:
    cdef int32_t pts[2]
    jw_score(c, s.won, s.tricks, s.declarer, s.level, s.strain, s.named, s.cdoubled, pts,
             &s.made, &s.joffre_team)
    s.deal_pts[0] = pts[0]
    s.deal_pts[1] = pts[1]
    s.score[0] += pts[0]
    s.score[1] += pts[1]
    s.deal_no += 1
    if c.match and s.deal_no < c.num_deals:
        s.dealer = (s.dealer + 1) & 3          # deal passes to the left (§1)
        deal_cards(s)
    else:
        s.phase = JW_PH_END

cdef void apply_auction(JWState* s, const JWConfig* c, int a) noexcept nogil:
    cdef int p = s.turn
    cdef int remaining
    if a == JW_PASS:
        s.passed |= 1 << p
        s.pass_at[p] = s.high
    elif a == JW_DOUBLE:
        s.doubled = 1
        s.doubler = p
        s.has_doubled |= 1 << p
        s.dbl_at[p] = s.high
    else:
        s.high = a - JW_BID0
        s.high_bidder = p
        s.doubled = 0
        s.doubler = -1
        s.bid_by[s.high] = p
        if 35 <= s.high < 63:
            s.ta_suits[p] |= 1 << ((s.high - 35) % 4)
    remaining = 4 - cs_popcount(s.passed)
    if s.high >= 0 and remaining == 1:
        start_play(s, next_active(s, p) if (s.passed >> p) & 1 else p)
    elif remaining == 0:                        # all passed, no bid: throw-in (D10)
        s.throw_ins += 1
        s.dealer = (s.dealer + 1) & 3
        deal_cards(s)
    else:
        s.turn = next_active(s, p)

cdef void apply_play(JWState* s, const JWConfig* c, int card) noexcept nogil:
    """Play one card (§5). Tracks the public voids a play reveals (a follower off suit is void in
    the led suit, and in trumps too if he did not trump; the TA partner leading a side suit while
    trump leads are owed holds no trump). A full trick goes to the highest trump, else the
    highest card of the led suit: within a suit a higher rank is a higher bit, so the winner is
    the top bit of the trick's trumps, else of its led-suit cards."""
    cdef int p = s.turn
    cdef uint64_t b = (<uint64_t>1) << card
    cdef int suit = SUIT_OF[card], w, i, top
    cdef uint64_t m
    if s.ntrick == 0:
        s.led = suit
        if (s.strain == JW_TA and p == ((s.declarer + 2) & 3) and s.ta_count < 3):
            if suit == s.trump:
                s.ta_count += 1
            else:
                s.void_suits[p] |= 1 << s.trump
    elif suit != s.led:
        s.void_suits[p] |= 1 << s.led
        if s.trump >= 0 and suit != s.trump:
            s.void_suits[p] |= 1 << s.trump
    s.hand[p] &= ~b
    s.played[p] |= b
    s.card_trick[card] = s.tricks_done
    s.trick[p] = card
    s.trick_mask |= b
    s.ntrick += 1
    if s.ntrick < 4:
        s.turn = (p + 1) & 3
        return
    m = s.trick_mask & suit_mask(s.trump) if s.trump >= 0 else 0
    if m == 0:
        m = s.trick_mask & suit_mask(s.led)
    top = bit_high(m)
    w = 0
    for i in range(4):
        if s.trick[i] == top:
            w = i
        s.trick[i] = -1
    s.won[w] |= s.trick_mask
    s.trick_mask = 0
    s.led = -1
    s.tricks[w] += 1
    s.tricks_done += 1
    s.ntrick = 0
    s.leader = w
    s.turn = w
    if s.tricks_done == 13:
        finish_deal(s, c)

cdef void jw_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef JWState* s = <JWState*>st
    if s.phase == JW_PH_PLAY:
        apply_play(s, <const JWConfig*>cfg, a)
    elif s.phase == JW_PH_AUCTION:
        apply_auction(s, <const JWConfig*>cfg, a)

cdef void jw_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    cdef int p
    for p in range(4):
        out[p] = <double>(s.score[p & 1] - s.score[1 - (p & 1)])

cdef void jw_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    cdef int T = s.declarer & 1
    out[0] = s.declarer
    out[1] = s.strain
    out[2] = s.level
    out[3] = s.cdoubled
    out[4] = s.made
    out[5] = (s.tricks[T] + s.tricks[T + 2]) if s.declarer >= 0 else -1
    out[6] = s.score[0]
    out[7] = s.score[1]
    out[8] = s.joffre_team
    out[9] = s.throw_ins


# ---------------------------------------------------------------------------------------------
# observation and resampling
# ---------------------------------------------------------------------------------------------
cdef void jw_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    cdef const JWConfig* c = <const JWConfig*>cfg
    cdef int q, i, k = 0
    put_bits(o + k, s.hand[p]); k += 52
    for q in range(4):
        put_bits(o + k, s.played[q]); k += 52
    for i in range(52):
        if s.card_trick[i] >= 0:
            o[k + i] = (s.card_trick[i] + 1) / 13.0
    k += 52
    for q in range(4):
        if s.trick[q] >= 0:
            o[k + s.trick[q]] = 1.0
        k += 52
    for i in range(JW_NBIDS):
        if s.bid_by[i] >= 0:
            o[k + 4 * i + s.bid_by[i]] = 1.0
    k += 364
    for q in range(4):
        if s.dbl_at[q] >= 0:
            o[k + s.dbl_at[q]] = 1.0
        k += 91
    for q in range(4):
        if s.pass_at[q] >= -1:
            o[k + s.pass_at[q] + 1] = 1.0
        k += 92
    if s.declarer >= 0:
        o[k + s.strain] = 1.0
        o[k + 7 + s.level - 1] = 1.0
        if s.named >= 0:
            o[k + 14 + s.named] = 1.0
        o[k + 18 + s.declarer] = 1.0
        o[k + 22] = s.cdoubled
        if s.trump >= 0:
            o[k + 23 + s.trump] = 1.0
    k += 27
    o[k + s.phase] = 1.0; k += 3
    if s.phase != JW_PH_END:
        o[k + s.turn] = 1.0
    k += 4
    o[k + s.dealer] = 1.0; k += 4
    o[k + p] = 1.0; k += 4
    for q in range(4):
        o[k + q] = s.tricks[q] / 13.0
    k += 4
    o[k] = s.ta_count / 3.0; k += 1
    o[k] = s.score[0] / 100.0
    o[k + 1] = s.score[1] / 100.0
    k += 2
    o[k] = s.deal_no / <float>c.num_deals; k += 1
    o[k] = s.throw_ins / 10.0; k += 1

ctypedef struct TACheck:
    const JWState* s         # the state being resampled (hands of the hidden seats cleared)
    int p                    # the observer

cdef bint ta_world_ok(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """Resample constraint that is not per card (§4, D6): every seat that bid TA in a suit was
    dealt >= 4 cards of it (cards still held + cards it has played)."""
    cdef const TACheck* k = <const TACheck*>ctx
    cdef const JWState* s = k.s
    cdef uint64_t dealt[4]
    cdef int q, i, suit
    for q in range(4):
        dealt[q] = s.played[q]
    for i in range(n):
        dealt[dest[i]] |= (<uint64_t>1) << cards[i]
    for q in range(4):
        if q == k.p or not s.ta_suits[q]:
            continue
        for suit in range(4):
            if (s.ta_suits[q] >> suit) & 1 and cs_popcount(dealt[q] & suit_mask(suit)) < 4:
                return False
    return True

cdef int jw_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal the cards p cannot see among the other seats with the core resample policy: each
    keeps its hand size, no seat gets a suit it has shown void in (per-card allowed seats), and
    every TA bidder was dealt >= 4 cards of each suit it named (the ta_world_ok callback). Exact
    rejection sampling first (uniform over the consistent deals), then constrained deals checked
    by the same rules; returns 0 when neither finds a consistent deal (never the true hands,
    never a deal that drops a constraint). The deal stream is replaced too, so later deals of a
    match are not leaked."""
    cdef JWState* s = <JWState*>st
    cdef uint64_t unknown = 0
    cdef card_t cards[52]
    cdef uint8_t dest[52]
    cdef uint32_t allowed[52]
    cdef int room[4]
    cdef int n = 0, q, i, c
    cdef TACheck ctx
    for q in range(4):
        if q != p:
            unknown |= s.hand[q]
            room[q] = cs_popcount(s.hand[q])
        else:
            room[q] = 0
    while unknown:
        cards[n] = bit_low(unknown)
        n += 1
        unknown &= unknown - 1
    for c in range(52):                          # seats that may hold each card: not shown void
        allowed[c] = 0
        for q in range(4):
            if q != p and not (s.void_suits[q] >> card_suit(c)) & 1:
                allowed[c] |= 1 << q
    ctx.s = s
    ctx.p = p
    if not resample_zones(cards, n, allowed, room, 4, dest, rng, ta_world_ok, &ctx,
                          RESAMPLE_EXACT_TRIES, 2000 - RESAMPLE_EXACT_TRIES):
        return 0
    for q in range(4):
        if q != p:
            s.hand[q] = 0
    for i in range(n):
        s.hand[dest[i]] |= (<uint64_t>1) << cards[i]
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef double quick_tricks(uint64_t hand, int suit) noexcept nogil:
    cdef uint64_t h = (hand >> (13 * suit)) & SUIT_MASK_0
    cdef int n = cs_popcount(h)
    cdef double q = 0.0
    if h & (1 << 12):
        q += 1.0
    if h & (1 << 11) and n >= 2:
        q += 0.7 if h & (1 << 12) else 0.5
    if h & (1 << 10) and n >= 3:
        q += 0.3
    return q

cdef int greedy_bid(const JWState* s, const JWConfig* c, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, suit, strain, lvl, bi, best = -1, target, hl
    cdef double base = 0.0, est, best_val = -1.0, val
    cdef int lens[4]
    for suit in range(4):
        base += quick_tricks(s.hand[p], suit)
        lens[suit] = cs_popcount(s.hand[p] & suit_mask(suit))
    for strain in range(5):
        if strain == JW_NT:
            est = base + 3.0
            for suit in range(4):
                if lens[suit] < 2:
                    est -= 1.0
        else:
            suit = STRAIN_SUIT[strain]
            est = base + 3.0 + 0.9 * (lens[suit] - 3 if lens[suit] > 3 else 0)
            if lens[suit] < 4:
                est -= 1.0
        target = <int>est - 6
        if target < 1:
            continue
        if target > 7:
            target = 7
        for lvl in range(1, target + 1):
            bi = strain * 7 + lvl - 1
            if as_has(legal, JW_BID0 + bi):
                val = row(c, strain, lvl) + 0.1 * lvl
                if val > best_val:
                    best_val = val
                    best = JW_BID0 + bi
                break
    if best >= 0:
        return best
    if as_has(legal, JW_DOUBLE):
        bid_decode(s.high, &lvl, &strain, &hl)
        if lvl >= 3 and base >= 3.0:
            return JW_DOUBLE
    if as_has(legal, JW_PASS):
        return JW_PASS
    return as_first(legal, 3)

cdef inline int lowest_card(uint64_t m, int trump) noexcept nogil:
    """Lowest card of m by rank, non-trumps before trumps."""
    cdef int best = -1, bk = 99, k, c
    while m:
        c = bit_low(m)
        m &= m - 1
        k = card_rank(c) + (13 if card_suit(c) == trump else 0)
        if k < bk:
            bk = k
            best = c
    return best

cdef int greedy_play(const JWState* s, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, i, c, suit, w, best, longest
    cdef uint64_t m = legal.w[0], gone = 0, winners = 0, tmp, trumps
    cdef int8_t cards[4]
    cdef int n = s.ntrick
    for i in range(4):
        gone |= s.played[i]
    if n == 0:
        # a master card: the highest unplayed card of its suit
        tmp = m
        while tmp:
            c = bit_low(tmp)
            tmp &= tmp - 1
            suit = card_suit(c)
            if ((suit_mask(suit) & ~gone & ~s.hand[p]) >> c) == 0 and suit != s.trump:
                return c
        trumps = m & suit_mask(s.trump) if s.trump >= 0 else 0
        if trumps and ((s.declarer ^ p) & 1) == 0 and cs_popcount(trumps) >= 3:
            return bit_high(trumps)
        best = -1
        longest = -1
        for suit in range(4):
            if suit != s.trump and cs_popcount(m & suit_mask(suit)) > longest:
                longest = cs_popcount(m & suit_mask(suit))
                best = suit
        if longest > 0:
            return lowest_card(m & suit_mask(best), s.trump)
        return lowest_card(m, s.trump)
    for i in range(n):
        cards[i] = s.trick[(s.leader + i) & 3]
    w = jw_trick_winner(cards, n, s.trump)
    if ((s.leader + w) & 3) == ((p + 2) & 3) and (n == 3 or card_rank(cards[w]) >= 10):
        return lowest_card(m, s.trump)
    # cheapest winning card
    best = -1
    tmp = m
    while tmp:
        c = bit_low(tmp)
        tmp &= tmp - 1
        cards[n] = c
        if jw_trick_winner(cards, n + 1, s.trump) == n:
            if best < 0 or lowest_card(((<uint64_t>1) << c) | ((<uint64_t>1) << best), s.trump) == c:
                best = c
    if best >= 0:
        return best
    return lowest_card(m, s.trump)

cdef int jw_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    if s.phase == JW_PH_AUCTION:
        return greedy_bid(s, <const JWConfig*>cfg, legal)
    return greedy_play(s, legal)


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
def card_str(int c):
    return RANKS[c % 13] + SUITS[c // 13]

def parse_suit(text):
    return _cards.parse_suit(text, "joffre_whist")

def parse_card(text):
    """'AS', '10H', 'TD', '7♦', lower case ok -> card id."""
    rank, suit = _cards.parse_card(text, "joffre_whist")
    return suit * 13 + RANKS.index(rank)

def bid_str(int bi):
    cdef int lvl, strain, named
    bid_decode(bi, &lvl, &strain, &named)
    if strain >= JW_TA:
        return f"{lvl}{STRAIN_NAMES[strain]}-{SUITS[named]}"
    return f"{lvl}{STRAIN_NAMES[strain]}"

def parse_bid(text):
    """'3D', '1NT', '2TA-S', '4JTA♥', '2 TA S' -> bid index 0..90."""
    if not isinstance(text, str) or not text.strip():
        raise ParseError(f"joffre_whist: malformed bid {text!r}")
    t = text.strip().upper().replace(" ", "").replace("-", "").replace(":", "")
    if t[:1].isdigit() and 1 <= int(t[0]) <= 7:
        lvl = int(t[0])
        rest = t[1:]
        for strain, name in ((6, "JTA"), (5, "TA")):
            if rest.startswith(name) and len(rest) == len(name) + 1 and rest[-1] in _cards.SUIT_ALIASES:
                return bid_index(lvl, strain, _cards.SUIT_ALIASES[rest[-1]])
        if rest == "NT":
            return bid_index(lvl, 0, -1)
        if rest in _cards.SUIT_ALIASES:
            return bid_index(lvl, (1, 4, 2, 3)[_cards.SUIT_ALIASES[rest]], -1)
    raise ParseError(f"joffre_whist: malformed bid {text!r}; e.g. '3D', '1NT', '2TA-S', '4JTA-H'")

DISPLAY_ORDER = tuple(suit * 13 + r for suit in range(4) for r in range(12, -1, -1))

def mask_to_cards(uint64_t m):
    """Cards of a mask in display order: suits S H D C, high to low."""
    return _cards.mask_to_strings(m, DISPLAY_ORDER, card_str)

def cards_to_mask(cards):
    return _cards.ids_to_mask(cards, parse_card, "joffre_whist")


cdef class JoffreWhistSpec(GameSpec):
    cdef JWConfig c

    def __init__(self, dict opts):
        unit = opts["unit_table"]
        for i in range(7):
            self.c.unit[i] = unit[i]
        self.c.slam_mode = 0 if opts["slam_value"] == "double_row" else 1
        self.c.slam_bonus = opts["slam_bonus"]
        self.c.joffre_declarer_only = opts["jta_joffre_holder"] == "declarer"
        self.c.ta_any_suit = opts["ta_length_rule"] == "any_suit"
        self.c.failed_jta_double = opts["failed_jta_double"]
        self.c.honours_per_card = opts["honours_mode"] == "per_card"
        self.c.dealer_bids = opts["all_pass"] == "dealer_bids"
        self.c.joffre_bonus = opts["joffre_bonus"]
        self.c.jta_joffre_bonus = opts["jta_joffre_bonus"]
        self.c.honours_bonus = opts["honours_bonus"]
        self.c.royal_bonus = opts["royal_bonus"]
        self.c.num_deals = opts["num_deals"]
        self.c.match = opts["scope"] == "match"
        self.vt.init = jw_init
        self.vt.current_player = jw_current_player
        self.vt.legal = jw_legal
        self.vt.apply = jw_apply
        self.vt.is_terminal = jw_is_terminal
        self.vt.returns = jw_returns
        self.vt.observe = jw_observe
        self.vt.resample = jw_resample
        self.vt.greedy = jw_greedy
        self.vt.metrics = jw_metrics
        self.install("joffre_whist", &self.c, 4, JW_NUM_ACTIONS, sizeof(JWState), OBS_SIZE, METRICS,
                     "zero", opts)

    # ---- strings --------------------------------------------------------------------------
    def action_string(self, State s, int a):
        if a < 52:
            return card_str(a)
        if a == JW_PASS:
            return "PASS"
        if a == JW_DOUBLE:
            return "DOUBLE"
        return "BID " + bid_str(a - JW_BID0)

    def parse_action(self, State s, str text):
        t = text.strip().upper()
        if t in ("PASS", "P"):
            return JW_PASS
        if t in ("DOUBLE", "DBL", "X"):
            return JW_DOUBLE
        if t.startswith("BID"):
            t = t[3:]
        elif (<JWState*>s.data).phase != JW_PH_AUCTION:
            # in play '2S' is the card; in the auction it is the bid (cards cannot be played there)
            try:
                return parse_card(t)
            except ParseError:
                pass
        try:
            return JW_BID0 + parse_bid(t)
        except (ParseError, ValueError):
            raise ParseError(f"joffre_whist: cannot parse action {text!r}; expected a card ('AS', "
                             f"'10H'), a bid ('3D', '1NT', '2TA-S', '4JTA-H'), 'PASS' or 'DOUBLE'") from None

    def hand_strings(self, State s, int p):
        return mask_to_cards((<JWState*>s.data).hand[p])

    def phase_name(self, State s):
        return ("auction", "play", "end")[(<JWState*>s.data).phase]

    @property
    def deck_size(self):
        return 52

    def card_total(self, State s):
        """Cards in hands + cards played (in tricks won or on the table) this deal."""
        cdef JWState* st = <JWState*>s.data
        cdef uint64_t allm = 0
        cdef int n = 0
        for p in range(4):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == FULL else -n

    def view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef JWState* st = <JWState*>s.data
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "high": None if st.high < 0 else bid_str(st.high), "high_bidder": st.high_bidder,
            "doubled": bool(st.doubled), "doubler": st.doubler,
            "passed": [p for p in range(4) if (st.passed >> p) & 1],
            "declarer": st.declarer if st.declarer >= 0 else None,
            "contract": None if st.declarer < 0 else bid_str(bid_index(st.level, st.strain, st.named)),
            "contract_doubled": bool(st.cdoubled),
            "trump": None if st.trump < 0 else SUITS[st.trump],
            "leader": st.leader, "trick": [None if st.trick[p] < 0 else card_str(st.trick[p]) for p in range(4)],
            "tricks": [st.tricks[p] for p in range(4)], "tricks_done": st.tricks_done,
            "ta_count": st.ta_count, "score": [st.score[0], st.score[1]],
            "deal_points": [st.deal_pts[0], st.deal_pts[1]], "deal_no": st.deal_no,
            "made": None if st.made < 0 else bool(st.made), "throw_ins": st.throw_ins,
            "won": [mask_to_cards(st.won[p]) for p in range(4)],
            "voids": [[SUITS[x] for x in range(4) if (st.void_suits[p] >> x) & 1] for p in range(4)],
        }

    def render(self, State s):
        v = self.view(s)
        seats = "NESW"
        lines = [f"Joffre Whist  phase={v['phase']}  dealer={seats[v['dealer']]}  "
                 f"score NS {v['score'][0]} EW {v['score'][1]}  deal {v['deal_no'] + (v['phase'] != 'end')}"]
        if v["declarer"] is not None:
            lines.append(f"contract {v['contract']}{' doubled' if v['contract_doubled'] else ''} by "
                         f"{seats[v['declarer']]}  trump {v['trump'] or 'none'}  tricks {v['tricks']}")
        elif v["phase"] == "auction":
            lines.append(f"auction: high {v['high'] or '-'}"
                         + (f" by {seats[v['high_bidder']]}" if v['high'] else "")
                         + (" doubled" if v['doubled'] else "") + f"  passed {[seats[p] for p in v['passed']]}")
        for p in range(4):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{seats[p]}: {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"{seats[p]}:{c}" for p, c in enumerate(v["trick"]) if c))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, dealer=3):
        """A fresh deal at the start of the auction (match score 0-0) with these hands: hands[q]
        is seat q's 13 cards (card strings), `dealer` the dealing seat (seat next(dealer) bids
        first). The state is not replayable (State.replayable is False). Raises ConfigError (or
        ParseError for a card that does not parse) before building anything."""
        cdef State s
        cdef JWState* st
        if not isinstance(hands, (list, tuple)) or len(hands) != 4:
            raise ConfigError("joffre_whist: need a list of 4 hands (one per seat)")
        masks = []
        allm = 0
        for q, h in enumerate(hands):
            if not isinstance(h, (list, tuple)) or len(h) != 13:
                raise ConfigError(f"joffre_whist: hand {q} must be a list of 13 cards, got {_short(h)}")
            m = cards_to_mask(h)
            if allm & m:
                raise ConfigError(f"joffre_whist: a card of hand {q} is also in an earlier hand")
            allm |= m
            masks.append(m)
        d = check_int(dealer, "joffre_whist: dealer", 0, 3, ConfigError)
        s = self._scenario_state()
        st = <JWState*>s.data
        st.dealer = d
        deal_cards(st)
        for p in range(4):
            st.hand[p] = masks[p]
        return s


# ---- oracles' kernels --------------------------------------------------------------------------
def oracle_trick_winner(list cards, int trump):
    cdef int8_t cs[4]
    for i, c in enumerate(cards):
        cs[i] = c
    return jw_trick_winner(cs, len(cards), trump)

def oracle_follow(uint64_t hand, int led_suit, int trump):
    return jw_follow_mask(hand, led_suit, trump)

def oracle_score(JoffreWhistSpec spec, list won, list tricks, int declarer, int level, int strain,
                 int named, int doubled):
    cdef uint64_t w[4]
    cdef int8_t t[4]
    cdef int32_t pts[2]
    cdef int8_t made, jt
    for p in range(4):
        w[p] = won[p]
        t[p] = tricks[p]
    jw_score(&spec.c, w, t, declarer, level, strain, named, doubled, pts, &made, &jt)
    return (pts[0], pts[1], bool(made))
