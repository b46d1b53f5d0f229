"""Joffre Whist (E. Lynch, 1909): 4 players in partnerships, an auction over seven strains with
Trump Attack and Joffre Trump Attack, whist play, a reconstructed score table.

Implements docs/rules/joffre_whist.md §1-§8 and follows its decisions D1-D14 as written:
♦10 + ♠2 are the Joffre (D1); linear unit table, replaceable (D2); slam = 2 x row(7) (D3); JTA
success with either partner holding both Joffre cards alone (D4, option); failed doubled JTA x2
(D5, option); TA needs 4 cards of the named suit (D6, option); TA opening lead by the partner (D7);
strain dominates level (D8); a doubler left alone declares the doubled contract (D9); all-pass is
a throw-in that does not count as a deal (D10, option), at most max_redeals times in one deal,
then the deal is passed out, scored 0-0 (D14); failure pays only odd tricks over 6 (D11);
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
throw-ins /10 (1); throw-ins in this deal /10 (1).

Greedy agent: bids the cheapest legal plain-suit or NT contract its estimate reaches (high
cards + trump length + 3 tricks expected from partner), never TA/JTA, doubles only a contract
of level >= 3 when it holds 3+ quick tricks against it; in play it leads a master card if it has
one, otherwise draws trumps as declarer side with 3+ trumps, otherwise the lowest card of its
longest suit; as follower it plays low when partner already wins, else the cheapest card that
wins, else its lowest card.

Layout (as Karnöffel's, docs/ADDING_A_GAME.md): `_joffre_whist_rules.pxd/.pyx` hold the pure rules
on cards and config (bid layout and ranking, TA length rule, follow rule, trick winner, deal
score, notation, oracles' entry points); this module holds the state machine (auction, play,
scoring hand-off), observation and resampling, the greedy agent and the Python face. Core
mechanisms used: shuffle (deal), TrickRecord (current trick), resample_zones with the TA rule as
its callback, GameSpec.install, _scenario_state (spec.scenario).
"""
from libc.string cimport memset
from cardsim.core._types cimport card_t, uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from cardsim.core._deal cimport shuffled_pack, deal_round_robin
from cardsim.core._suited cimport lowest_by_rank, master_card, long_suit_lead, plain_beaters
from cardsim.core._trick cimport (trick_reset, trick_start, trick_add, trick_done, trick_cards,
                                  trick_seat_of, trick_set_winner, put_trick_cards, put_card_tricks)
from cardsim.core._resample cimport resample_masks, RESAMPLE_EXACT_TRIES
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_add_range, as_has, as_first
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.core.notation import disjoint_hands

from cardsim.games._joffre_whist_rules cimport (JWConfig, JW_NUM_ACTIONS, JW_PASS, JW_DOUBLE, JW_BID0,
                                                JW_NBIDS, JW_NT, JW_TA, JW_JTA, jw_full, suit_mask,
                                                card_suit, card_rank, strain_suit, ta_length_ok,
                                                bid_rank, first_bid_of_rank, bid_decode, bid_index,
                                                row, jw_follow_mask, jw_trick_winner, jw_score)
from cardsim.games._joffre_whist_rules import (SUITS, RANKS, STRAIN_NAMES, DISPLAY_ORDER, card_str,
                                               parse_suit, parse_card, bid_str, parse_bid, mask_to_cards,
                                               cards_to_mask, oracle_trick_winner, oracle_follow)
from cardsim.errors import ConfigError, ParseError, IllegalActionError, short

# TA_BITS[s]: the action-set words holding the 7 TA bids naming suit s (actions 89 + 4l + s)
cdef uint64_t TA_BITS[4][3]
for _s in range(4):
    TA_BITS[_s][0] = TA_BITS[_s][1] = TA_BITS[_s][2] = 0
    for _l in range(7):
        _a = JW_BID0 + 35 + 4 * _l + _s
        TA_BITS[_s][_a // 64] |= (<uint64_t>1) << (_a % 64)

OBS_SIZE = 52 + 208 + 52 + 208 + 364 + 364 + 368 + 7 + 7 + 4 + 4 + 1 + 4 + 3 + 4 + 4 + 4 + 4 + 1 + 2 + 1 + 1 + 1
METRICS = ("declarer", "strain", "level", "doubled", "made", "declarer_tricks", "ns_points",
           "ew_points", "joffre_team", "throw_ins")

# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void deal_cards(JWState* s) noexcept nogil:
    """Shuffle (Fisher-Yates on the deal stream) and deal one card at a time clockwise from
    next(dealer) (§3); reset everything of the previous deal."""
    cdef card_t perm[52]
    cdef int i
    shuffled_pack(perm, 52, &s.rng)
    for i in range(4):
        s.hand[i] = 0
        s.won[i] = 0
        s.played[i] = 0
        s.tricks[i] = 0
        s.dbl_at[i] = -1
        s.pass_at[i] = -2
        s.void_suits[i] = 0
        s.ta_suits[i] = 0
    deal_round_robin(perm, 52, s.hand, 4, s.dealer + 1, 1)
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
    trick_reset(&s.cur)
    s.tricks_done = 0
    s.declarer = -1
    s.level = 0
    s.strain = -1
    s.named = -1
    s.trump = -1
    s.trump_cards = 0
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
    if s.cur.n == 0:
        if (s.strain == JW_TA and s.turn == ((s.declarer + 2) & 3) and s.ta_count < 3):
            t = h & s.trump_cards
            if t:
                return t
        return h
    return jw_follow_mask(h, s.led, s.trump_cards)

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
            if not ta_length_ok(s.hand[p], suit):
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
    s.trump = named if strain >= JW_TA else strain_suit(strain)
    s.trump_cards = suit_mask(s.trump) if s.trump >= 0 else 0
    s.cdoubled = s.doubled
    s.phase = JW_PH_PLAY
    if strain == JW_JTA:                       # opening leader (§5, D7)
        trick_start(&s.cur, (declarer + 1) & 3, 4)
    elif strain == JW_TA:
        trick_start(&s.cur, (declarer + 2) & 3, 4)
    else:
        trick_start(&s.cur, declarer, 4)
    s.turn = s.cur.leader

cdef void finish_deal(JWState* s, const JWConfig* c) noexcept nogil:
    cdef int32_t pts[2]
    jw_score(c, s.won, s.tricks, s.declarer, s.level, s.strain, s.named, s.cdoubled, pts,
             &s.made, &s.joffre_team)
    s.deal_pts[0] = pts[0]
    s.deal_pts[1] = pts[1]
    s.score[0] += pts[0]
    s.score[1] += pts[1]
    next_deal(s, c)

cdef void next_deal(JWState* s, const JWConfig* c) noexcept nogil:
    """A deal is over (played, or passed out): the next deal of a match, or the end."""
    s.deal_no += 1
    if c.match and s.deal_no < c.num_deals:
        s.redeals = 0
        s.dealer = (s.dealer + 1) & 3          # deal passes to the left (§1)
        deal_cards(s)
    else:
        s.phase = JW_PH_END

cdef void pass_out(JWState* s, const JWConfig* c) noexcept nogil:
    """All passed once more after max_redeals throw-ins (D14): the deal is passed out, scored
    0-0, and counts as a deal of the match."""
    s.deal_pts[0] = 0
    s.deal_pts[1] = 0
    s.made = -1
    s.joffre_team = -1
    next_deal(s, c)                             # no contract: declarer stays -1

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
    elif remaining == 0 and s.redeals >= c.max_redeals:
        pass_out(s, c)                          # the cap on throw-ins (D14)
    elif remaining == 0:                        # all passed, no bid: throw-in (D10)
        s.throw_ins += 1
        s.redeals += 1
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
    cdef int suit = card_suit(card), w, i, top
    cdef uint64_t m
    if s.cur.n == 0:
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
    trick_add(&s.cur, p, card)
    s.trick_mask |= b
    if not trick_done(&s.cur):
        s.turn = (p + 1) & 3
        return
    m = s.trick_mask & s.trump_cards
    if m == 0:
        m = s.trick_mask & suit_mask(s.led)
    top = bit_high(m)
    w = 0
    for i in range(4):
        if s.cur.card[i] == top:
            w = i
    s.won[w] |= s.trick_mask
    s.trick_mask = 0
    s.led = -1
    s.tricks[w] += 1
    s.tricks_done += 1
    trick_start(&s.cur, w, 4)
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
    k += put_card_tricks(o + k, s.card_trick, 52, 13.0)
    k += put_trick_cards(o + k, &s.cur, 4, 52)
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
    o[k] = s.redeals / 10.0; k += 1

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
            if (s.ta_suits[q] >> suit) & 1 and not ta_length_ok(dealt[q], suit):
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
    cdef uint64_t hidden = 0
    cdef uint64_t forbid[4]
    cdef uint64_t newh[4]
    cdef int room[4]
    cdef int q, t
    cdef TACheck ctx
    for q in range(4):
        room[q] = 0
        forbid[q] = <uint64_t>0xFFFFFFFFFFFFFFFF    # p's own zone takes nothing
        if q != p:
            hidden |= s.hand[q]
            room[q] = cs_popcount(s.hand[q])
            forbid[q] = 0                            # seats may not hold a suit shown void
            for t in range(4):
                if (s.void_suits[q] >> t) & 1:
                    forbid[q] |= suit_mask(t)
    ctx.s = s
    ctx.p = p
    if not resample_masks(hidden, room, forbid, 4, newh, rng, ta_world_ok, &ctx,
                          RESAMPLE_EXACT_TRIES, 2000 - RESAMPLE_EXACT_TRIES):
        return 0
    for q in range(4):
        if q != p:
            s.hand[q] = newh[q]
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef double quick_tricks(uint64_t hand, int suit) noexcept nogil:
    cdef uint64_t h = (hand & suit_mask(suit)) >> (13 * suit)
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
            suit = strain_suit(strain)
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
    return lowest_by_rank(m, 13, trump)

cdef int greedy_play(const JWState* s, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, i, c, w
    cdef uint64_t m = legal.w[0], gone = 0, trumps
    cdef int8_t cards[4]
    cdef int n = s.cur.n
    for i in range(4):
        gone |= s.played[i]
    if n == 0:
        # a master card: the highest unplayed card of its suit
        c = master_card(m, ~gone & ~s.hand[p], 13, s.trump)
        if c >= 0:
            return c
        trumps = m & suit_mask(s.trump) if s.trump >= 0 else 0
        if trumps and ((s.declarer ^ p) & 1) == 0 and cs_popcount(trumps) >= 3:
            return bit_high(trumps)
        return long_suit_lead(m, 13, s.trump)
    trick_cards(&s.cur, cards)
    w = jw_trick_winner(cards, n, s.trump)
    if trick_seat_of(&s.cur, w) == ((p + 2) & 3) and (n == 3 or card_rank(cards[w]) >= 10):
        return lowest_card(m, s.trump)
    c = lowest_card(plain_beaters(m, cards[w], 13, s.trump), s.trump)   # cheapest winning card
    if c >= 0:
        return c
    return lowest_card(m, s.trump)

cdef int jw_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    if s.phase == JW_PH_AUCTION:
        return greedy_bid(s, <const JWConfig*>cfg, legal)
    return greedy_play(s, legal)


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
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
        self.c.max_redeals = opts["max_redeals"]
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
    def _action_string(self, State s, int a):
        if a < 52:
            return card_str(a)
        if a == JW_PASS:
            return "PASS"
        if a == JW_DOUBLE:
            return "DOUBLE"
        return "BID " + bid_str(a - JW_BID0)

    def _parse_action(self, State s, str text):
        t = text.strip().upper()
        if t in ("PASS", "P"):
            return JW_PASS
        if t in ("DOUBLE", "DBL", "X"):
            return JW_DOUBLE
        if t.startswith("BID"):
            t = t[3:]
        elif (<JWState*>self._data(s)).phase != JW_PH_AUCTION:
            # in play '2S' is the card; in the auction it is the bid (cards cannot be played there)
            try:
                return parse_card(t)
            except ParseError:
                pass
        try:
            return JW_BID0 + parse_bid(t)
        except (ParseError, ValueError):
            pass
        # name what this phase allows: the auction takes bids, PASS and DOUBLE; play takes cards
        phase = (<JWState*>self._data(s)).phase
        if phase == JW_PH_AUCTION:
            allowed = ("in the auction: a bid ('3D', '1NT', '2TA-S', '4JTA-H'), 'PASS' or "
                       "'DOUBLE' (cards are played only once the auction is over)")
        elif phase == JW_PH_PLAY:
            allowed = "in play: a card ('AS', '10H')"
        else:
            allowed = "nothing: the deal is over"
        raise ParseError(f"joffre_whist: cannot parse action {short(text)}; expected {allowed}")

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<JWState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("auction", "play", "end")[(<JWState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return 52

    def _card_total(self, State s):
        """Cards in hands + cards played (in tricks won or on the table) this deal."""
        cdef JWState* st = <JWState*>self._data(s)
        cdef uint64_t allm = 0
        cdef int n = 0
        for p in range(4):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == jw_full else -n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef JWState* st = <JWState*>self._data(s)
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "high": None if st.high < 0 else bid_str(st.high), "high_bidder": st.high_bidder,
            "doubled": bool(st.doubled), "doubler": st.doubler,
            "passed": [p for p in range(4) if (st.passed >> p) & 1],
            "declarer": st.declarer if st.declarer >= 0 else None,
            "contract": None if st.declarer < 0 else bid_str(bid_index(st.level, st.strain, st.named)),
            "contract_doubled": bool(st.cdoubled),
            "trump": None if st.trump < 0 else SUITS[st.trump],
            "leader": st.cur.leader, "trick": [None if st.cur.card[p] < 0 else card_str(st.cur.card[p]) for p in range(4)],
            "tricks": [st.tricks[p] for p in range(4)], "tricks_done": st.tricks_done,
            "ta_count": st.ta_count, "score": [st.score[0], st.score[1]],
            "deal_points": [st.deal_pts[0], st.deal_pts[1]], "deal_no": st.deal_no,
            "made": None if st.made < 0 else bool(st.made), "throw_ins": st.throw_ins, "redeals": st.redeals,
            "won": [mask_to_cards(st.won[p]) for p in range(4)],
            "voids": [[SUITS[x] for x in range(4) if (st.void_suits[p] >> x) & 1] for p in range(4)],
        }

    def _render(self, State s):
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
        masks, _ = disjoint_hands("joffre_whist", hands, 4, cards_to_mask, 13)
        d = check_int(dealer, "joffre_whist: dealer", 0, 3, ConfigError)
        s = self._scenario_state()
        st = <JWState*>self._data(s)
        st.dealer = d
        deal_cards(st)
        for p in range(4):
            st.hand[p] = masks[p]
        return s


# ---- oracles' entry points needing a configured spec ---------------------------------------------
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
