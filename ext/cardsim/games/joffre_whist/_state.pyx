"""Joffre Whist, the state machine (docs/rules/joffre_whist.md §1-§6): the deal (§3), the auction
(§4: bids, doubles, passes, throw-ins and the D14 pass-out), the play (§5: the TA lead rule, the
public voids a play reveals, the trick in a core TrickRecord) and the hand-off to the score
(jw_score in _rules), the returns and the metrics. The game itself, its decisions, action space
and returns are described in the face, `cardsim.games.joffre_whist`."""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, int32_t, uint64_t
from cardsim.core._trick cimport trick_reset, trick_start, trick_add_positional, trick_reopen
from cardsim.core._bits cimport cs_popcount, bit_high, card_bit
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._deal cimport shuffle_deal_four
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._search cimport SearchWork
from cardsim.core._actions cimport ActionSet, as_add, as_add_range, as_first, as_nth

from cardsim.games.joffre_whist._rules cimport (JWConfig, JW_NUM_ACTIONS, JW_PASS, JW_DOUBLE, JW_BID0,
                                                JW_TA, JW_JTA, suit_mask, jw_suit_of, strain_suit,
                                                ta_length_ok, bid_rank, first_bid_of_rank, bid_decode,
                                                jw_follow_mask, jw_score)

# TA_BITS[s]: the action-set words holding the 7 TA bids naming suit s (actions 89 + 4l + s)
cdef uint64_t TA_BITS[4][3]
for _s in range(4):
    TA_BITS[_s][0] = TA_BITS[_s][1] = TA_BITS[_s][2] = 0
    for _l in range(7):
        _a = JW_BID0 + 35 + 4 * _l + _s
        TA_BITS[_s][_a // 64] |= (<uint64_t>1) << (_a % 64)


cdef void deal_cards(JWState* s) noexcept nogil:
    """Shuffle (Fisher-Yates on the deal stream) and deal one card at a time clockwise from
    next(dealer) (§3); reset everything of the previous deal."""
    cdef int i
    shuffle_deal_four(s.hand, 52, s.dealer + 1, &s.rng)
    for i in range(4):
        s.won[i] = 0
        s.played[i] = 0
        s.tricks[i] = 0
        s.dbl_at[i] = -1
        s.pass_at[i] = -2
        s.void_suits[i] = 0
        s.ta_suits[i] = 0
    memset(s.bid_by, -1, sizeof(s.bid_by))
    s.trick_mask = 0
    s.led = -1
    s.led_mask = 0
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

cdef inline uint64_t play_mask(const JWState* s) noexcept nogil:
    """Legal cards of the seat to act in the play phase (§5), incl. the TA lead rule: the
    follow rule of jw_follow_mask on the kept led-suit mask (0 on lead, so following suit, the
    commonest case, is the first test)."""
    cdef uint64_t h = s.hand[s.turn]
    cdef uint64_t t = h & s.led_mask
    if t:
        return t
    if s.cur.n == 0:
        if (s.strain == JW_TA and s.turn == ((s.declarer + 2) & 3) and s.ta_count < 3):
            t = h & s.trump_cards
            if t:
                return t
        return h
    t = h & s.trump_cards
    return t if t else h

cdef int jw_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    cdef const JWState* s = <const JWState*>st
    cdef uint64_t m
    if s.phase == JW_PH_PLAY:
        m = play_mask(s)
        out.w[0] = m
        out.w[1] = 0
        out.w[2] = 0
        return cs_popcount(m)
    return cold_auction_legal(s, <const JWConfig*>cfg, out)

cdef int auction_legal(const JWState* s, const JWConfig* c, ActionSet* out) noexcept nogil:
    cdef int p, lo, suit
    out.w[0] = 0
    out.w[1] = 0
    out.w[2] = 0
    if s.phase != JW_PH_AUCTION:
        return 0
    p = s.turn
    # PASS: always, unless the dealer-must-bid option forces the last player to bid
    if not (c.dealer_bids and s.high < 0 and cs_popcount(s.passed) == 3):
        as_add(out, JW_PASS)
    if (s.high >= 0 and not s.doubled and ((s.high_bidder ^ p) & 1)
            and not (s.has_doubled >> p) & 1):
        as_add(out, JW_DOUBLE)
    lo = 0 if s.high < 0 else first_bid_of_rank(bid_rank(s.high) + 1)
    # every bid from lo up is higher (bid ids are in rank order): set the range word by word,
    # then drop the TA bids of suits p holds fewer than 4 cards of (§4, D6)
    as_add_range(out, JW_BID0 + lo, JW_NUM_ACTIONS)
    if not c.ta_any_suit and lo < 63:          # TA bids are 35..62
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

cdef void finish_deal(JWState* s, const JWConfig* c, int a) noexcept nogil:
    """The thirteenth trick is closed: score the deal (jw_score), then the next deal or the end
    (a is unused: the step_fn shape)."""
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

cdef inline void apply_play(JWState* s, const JWConfig* c, int card) noexcept nogil:
    """Play one card (§5), for jw_apply: play_steps with the cold steps behind their pointers."""
    play_steps(s, c, card, False)

cdef inline void play_steps(JWState* s, const JWConfig* c, int card, bint direct) noexcept nogil:
    """Play one card (§5): the card leaves the hand into the trick. The common case (following
    to the led suit, trick not complete) is done here; a lead, a card off the led suit (public
    voids) and the trick's last card go on in the cold steps below. `direct` (a constant at each
    call site, folded once inlined): call them directly, as the batch loop does (it saves its
    registers once per deal, not per card: measured 2026-12-03 at 259 fewer instructions per
    random deal than through the pointers), rather than through their pointers, as jw_apply does
    (a leaf that saves no registers)."""
    cdef int p = s.turn
    cdef int n = s.cur.n
    cdef uint64_t b = card_bit(card)
    s.hand[p] &= ~b
    s.played[p] |= b
    trick_add_positional(&s.cur, p, card)      # core positional mode (see JWState.cur)
    s.trick_mask |= b
    if n == 0:
        if direct:
            lead_card(s, c, card)
        else:
            cold_lead(s, c, card)
    elif not (b & s.led_mask):
        if direct:
            off_suit(s, c, card)
        else:
            cold_off_suit(s, c, card)
    elif n == 3:
        if direct:
            close_trick(s, c, card)
        else:
            cold_close_trick(s, c, card)
    else:
        s.turn = (p + 1) & 3

cdef void lead_card(JWState* s, const JWConfig* c, int card) noexcept nogil:
    """The lead (already in the trick): the led suit, and the TA lead rule's bookkeeping (the TA
    partner leading a side suit while trump leads are owed shows he holds no trump)."""
    cdef int p = s.turn
    s.led = jw_suit_of[card]
    s.led_mask = suit_mask(s.led)
    if (s.strain == JW_TA and p == ((s.declarer + 2) & 3) and s.ta_count < 3):
        if card_bit(card) & s.trump_cards:
            s.ta_count += 1
        else:
            s.void_suits[p] |= 1 << s.trump
    s.turn = (p + 1) & 3

cdef void off_suit(JWState* s, const JWConfig* c, int card) noexcept nogil:
    """A follower's card off the led suit (already in the trick): he is void in the led suit,
    and in trumps too if he did not trump; then the next seat, or the trick is complete."""
    cdef int p = s.turn
    if s.trump_cards and not (card_bit(card) & s.trump_cards):
        s.void_suits[p] |= (1 << s.led) | (1 << s.trump)
    else:
        s.void_suits[p] |= 1 << s.led
    if s.cur.n == 4:
        close_trick(s, c, card)
    else:
        s.turn = (p + 1) & 3

cdef void close_trick(JWState* s, const JWConfig* c, int card) noexcept nogil:
    """A full trick goes to the highest trump, else the highest card of the led suit: within a
    suit a higher rank is a higher bit, so the winning card is the top bit of the trick's trumps,
    else of its led-suit cards; the winner is the seat that played it and leads the next trick."""
    cdef uint64_t tm = s.trick_mask
    cdef uint64_t m = tm & s.trump_cards
    cdef int top, w = 0
    if m == 0:
        m = tm & s.led_mask
    top = bit_high(m)
    if s.cur.card[1] == top:
        w = 1
    if s.cur.card[2] == top:
        w = 2
    if s.cur.card[3] == top:
        w = 3
    trick_reopen(&s.cur, w)                    # the next trick, led by the winner
    s.trick_cards[s.tricks_done] = tm
    s.won[w] |= tm
    s.trick_mask = 0
    s.led = -1
    s.led_mask = 0
    s.tricks[w] += 1
    s.tricks_done += 1
    s.turn = w
    if s.tricks_done == 13:
        cold_finish_deal(s, c, 0)

# The cold steps (a lead, a card off the led suit, closing a trick, every auction action) are
# called through these pointers by jw_apply on purpose: the C compiler cannot inline a call
# through a pointer, so jw_apply's common card path stays a leaf that saves no registers
# (inlined, their register needs gave every card played a prologue and an epilogue). The batch
# loop calls the card steps directly (play_steps). Set once at import.
ctypedef void (*step_fn)(JWState* s, const JWConfig* c, int a) noexcept nogil
cdef step_fn cold_lead = lead_card
cdef step_fn cold_off_suit = off_suit
cdef step_fn cold_close_trick = close_trick
# the deal's end, once per deal: behind a pointer too, so close_trick saves no registers for
# jw_score's call on the other twelve tricks
cdef step_fn cold_finish_deal = finish_deal
cdef step_fn cold_apply_auction = apply_auction
# the auction's legal set, called through a pointer for the same reason: inlined into the batch
# loop, its three words' counts were kept for the pick of every card played
ctypedef int (*legal_step_fn)(const JWState* s, const JWConfig* c, ActionSet* out) noexcept nogil
cdef legal_step_fn cold_auction_legal = auction_legal

cdef void jw_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef JWState* s = <JWState*>st
    if s.phase == JW_PH_PLAY:
        apply_play(s, <const JWConfig*>cfg, a)
    elif s.phase == JW_PH_AUCTION:
        cold_apply_auction(s, <const JWConfig*>cfg, a)

# ---- the batch kernel's hot loop compiled here (core/_play_loop.pxi): jw_legal,
# jw_current_player and jw_apply are in this module, so the C compiler can inline them into the
# loop (through the vtable it cannot); the spec puts the loop in vt.play
cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """jw_legal for the loop: a play's set is w[0] alone, and the loop's pick (as_first, as_nth
    with fewer than popcount(w[0]) skipped) never reads past a word holding every legal action,
    so w[1] and w[2] are not cleared for a card (jw_legal, the State API's, clears them); the
    greedy agent's play reads w[0] only."""
    cdef const JWState* s = <const JWState*>st
    cdef uint64_t m
    if s.phase == JW_PH_PLAY:
        m = play_mask(s)
        out.w[0] = m
        return cs_popcount(m)
    return cold_auction_legal(s, <const JWConfig*>cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return (<const JWState*>st).turn             # asked only with two or more legal actions: never at the end

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    cdef JWState* s = <JWState*>st
    if s.phase == JW_PH_PLAY:
        play_steps(s, <const JWConfig*>cfg, a, True)   # the cold steps called directly (see play_steps)
    else:
        jw_apply(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (JW_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return (<const JWState*>st).phase == JW_PH_PLAY   # a card's set is w[0] (_pl_legal)

# ---- the fused random play (core/_play_loop.pxi's _pl_segment, _pl_play_segment) -----------------
from cardsim.core._fused cimport fused_pick

cdef inline bint _pl_fused_ok(const void* cfg, const int* agents) noexcept nogil:
    return (agents[0] == AGENT_RANDOM and agents[1] == AGENT_RANDOM and agents[2] == AGENT_RANDOM
            and agents[3] == AGENT_RANDOM)

cdef long fused_tricks(JWState* s, const JWConfig* c, Rng* ar, long* dec, long* ls) noexcept nogil:
    """The rest of the play from a trick's start (phase PLAY, cur.n == 0) to the deal's end, with
    a random agent at every seat: the loop's steps (_pl_legal's play_mask, the pick, play_steps
    with lead_card, off_suit and close_trick) with the hands, the trick, the public voids, the
    tricks won and the counters in locals, written back after the thirteenth trick as
    close_trick leaves them, then finish_deal as close_trick calls it. Returns the cards played."""
    cdef uint64_t hand[4]
    cdef uint64_t played[4]
    cdef uint64_t won[4]
    cdef int8_t card[4]
    cdef uint8_t void_suits[4]
    cdef int8_t tricks[4]
    cdef uint64_t h, b, legal, tm, m, led_mask, trump_cards = s.trump_cards
    cdef int q, j, t, p, cd, led, top, w = s.cur.leader, ta_count = s.ta_count
    cdef int partner = (s.declarer + 2) & 3 if s.strain == JW_TA else -1     # the TA lead rule's seat
    cdef int trump = s.trump
    cdef long k = 0
    for q in range(4):
        hand[q] = s.hand[q]
        played[q] = s.played[q]
        won[q] = s.won[q]
        void_suits[q] = s.void_suits[q]
        tricks[q] = s.tricks[q]
    for t in range(s.tricks_done, 13):
        # the lead (play_mask on lead, lead_card)
        p = w
        h = hand[p]
        legal = h
        if p == partner and ta_count < 3 and h & trump_cards:
            legal = h & trump_cards             # the TA partner leads trumps while owed
        cd = fused_pick(legal, &ar[p], dec, ls)
        b = card_bit(cd)
        card[p] = <int8_t>cd
        hand[p] = h & ~b
        played[p] |= b
        tm = b
        led = jw_suit_of[cd]
        led_mask = suit_mask(led)
        if p == partner and ta_count < 3:
            if b & trump_cards:
                ta_count += 1
            else:
                void_suits[p] |= 1 << trump     # a side suit led while trumps are owed: none held
        for j in range(1, 4):                   # the followers (play_mask, play_steps, off_suit)
            p = (p + 1) & 3
            h = hand[p]
            legal = h & led_mask
            if legal == 0:
                legal = h & trump_cards
                if legal == 0:
                    legal = h
            cd = fused_pick(legal, &ar[p], dec, ls)
            b = card_bit(cd)
            card[p] = <int8_t>cd
            hand[p] = h & ~b
            played[p] |= b
            tm |= b
            if not (b & led_mask):
                if trump_cards and not (b & trump_cards):
                    void_suits[p] |= (1 << led) | (1 << trump)
                else:
                    void_suits[p] |= 1 << led
        # close_trick: the top trump, else the top card of the led suit; the seat that played it
        m = tm & trump_cards
        if m == 0:
            m = tm & led_mask
        top = bit_high(m)
        w = 0
        if card[1] == top:
            w = 1
        if card[2] == top:
            w = 2
        if card[3] == top:
            w = 3
        s.trick_cards[t] = tm
        won[w] |= tm
        tricks[w] += 1
        k += 4
    for q in range(4):
        s.hand[q] = hand[q]
        s.played[q] = played[q]
        s.won[q] = won[q]
        s.void_suits[q] = void_suits[q]
        s.tricks[q] = tricks[q]
    s.ta_count = <int8_t>ta_count
    trick_reopen(&s.cur, w)                     # close_trick's last steps
    s.trick_mask = 0
    s.led = -1
    s.led_mask = 0
    s.tricks_done = 13
    s.turn = <uint8_t>w
    finish_deal(s, c, 0)
    return k

cdef inline long _pl_segment(const void* st, const void* cfg) noexcept nogil:
    """A deal's play from a trick's start: four cards a trick left."""
    cdef const JWState* s = <const JWState*>st
    if s.phase == JW_PH_PLAY and s.cur.n == 0:
        return 4 * (13 - s.tricks_done)
    return 0

cdef inline long _pl_play_segment(void* st, const void* cfg, Rng* ar, long* dec, long* ls) noexcept nogil:
    return fused_tricks(<JWState*>st, <const JWConfig*>cfg, ar, dec, ls)

include "cardsim/core/_play_loop_fused.pxi"      # _pl_fused_play on the hooks above
include "cardsim/core/_play_loop.pxi"

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

