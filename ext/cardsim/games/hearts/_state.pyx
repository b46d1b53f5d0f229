"""Hearts (pagat.com "Hearts"; OpenSpiel's `hearts`): 3 to 6 players, each for themselves, a
3-card pass whose direction turns with the deal number, the ♣2 leads, follow suit, no trumps,
hearts may not be led until broken, 1 point per heart and 13 for ♠Q, shooting the moon; the
lowest score wins.

Implements docs/rules/hearts.md §1-§8 and follows its decisions D1-D12 as written: small
diamonds and spades are removed for 3, 5, 6 players (D1); the pass directions cycle left,
right, across, hold by deal number (3, 5, 6 players: left, right, hold), or are fixed, or drawn
at random as in OpenSpiel (D2); 3 cards, passed one at a time as a factored decision (D3); the
♣2 leads (any club with first_lead = "any_club", D4); no heart or ♠Q on the first trick unless
nothing else (D5); hearts are broken by a heart or ♠Q, led only once broken or when nothing
else is left (D6); shooting the moon with every heart and ♠Q (D7) scored "add" (the others +26)
or "subtract" (the shooter -26) (D8); the ♦J bonus and the no-trick bonus as options (D9); the
returns (D10); a match to match_target (100) (D11).

Layout (docs/ADDING_A_GAME.md; ext/cardsim/games/hearts/): `_rules` the pure rules on cards and
config (pack, pass direction, legal plays, trick winner, deal points) and the compiled oracles;
this module the state struct and the state machine (deal, pass, play, scoring); `_agent` the
greedy agent; `_observe` observation and resampling; `_layout.pxd` the observation offsets
(generated from INFO.observation); `_spec` the thin glue (HeartsSpec). The Python face
cardsim.games.hearts holds INFO (info.py), the card notation, the public oracles and scenario().
Core mechanisms used: shuffle_deal_four (the four-player deal) / shuffle and deal_round_robin (deal), Staged (the pass,
card by card), resample_masks and resample_rekey (resample), card_bit, GameSpec.install_game,
_scenario_state (scenario). The trick in play is kept as masks rather than a core TrickRecord
(as Karnöffel's tmask): its cards (trick_cards; a seat's card is played[seat] & trick_cards),
its leader and the seat winning it so far, so a play writes no per-play record; the trick is
whole when the next seat is its leader.

Seats 0..N-1 in playing order (clockwise; "left" is the next seat). First dealer random from the
deal stream; cards are dealt one at a time from next(dealer); the passes are made by next(dealer),
..., dealer, each choosing its 3 cards one action at a time; the received cards join the hands
once every pass is made; the holder of ♣2 leads the first trick; the next deal of a match is
dealt by next(dealer).

Card identity: suit*13 + rank, suits S H D C (0..3), rank 0 = '2' .. 12 = 'A'.
Actions: 0..51 the card: in the pass phase "pass this card" (three actions make one pass), in
the play phase "play this card".

Returns (D10): with returns = "relative" (default) each seat gets the mean of the other seats'
scores minus its own (zero-sum; a seat's score is the sum of its deal points, lower is better);
with returns = "openspiel" (scope "deal" only) 26 - its points, as OpenSpiel's Hearts.

Observation: the blocks are declared once in INFO.observation (src/cardsim/games/hearts/info.py)
and written by `_observe` at the offsets of the generated `_layout.pxd`.

Greedy agent: see `_agent` (passes ♠Q, ♠A, ♠K and high hearts; ducks under the winning card;
dumps ♠Q, then high spades and hearts when void; leads low).
"""
from libc.string cimport memset
from cardsim.core._types cimport int8_t, uint8_t, int32_t, uint64_t, card_t
from cardsim.core._bits cimport cs_popcount, card_bit, bit_low
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._deal cimport shuffle, deal_round_robin, shuffle_deal_four
from cardsim.core._staged cimport staged_start, staged_clear
from cardsim.core._actions cimport ActionSet
from cardsim.games.hearts._rules cimport (HTConfig, HT_DECK, HT_PASS, QS, TWO_C, PD_HOLD, PD_LEFT,
                                          PD_ACROSS, PD_RIGHT, ht_hearts, ht_full, ht_clubs, suit_mask, card_suit,
                                          pass_offset, cycle_direction, ht_legal_mask,
                                          ht_score_deal)


cdef int draw_direction(HTState* s, const HTConfig* c) noexcept nogil:
    """The pass direction of this deal (D2) from the rotation option."""
    cdef int r = c.rotation, k
    if r == 0:
        return cycle_direction(s.deal_no, c.nplayers)
    if r == 1:
        return PD_LEFT
    if r == 2:
        return PD_RIGHT
    if r == 3:
        return PD_ACROSS
    if r == 4:
        return PD_HOLD
    if c.nplayers == 4:                       # uniform over hold, left, across, right (OpenSpiel)
        return <int>rng_below(&s.rng, 4)
    k = <int>rng_below(&s.rng, 3)             # hold, left, right
    return PD_RIGHT if k == 2 else k

cdef inline void open_trick(HTState* s, int leader, uint64_t may_lead) noexcept nogil:
    """A new trick led by `leader` (no cards yet, no led suit); may_lead: the cards it may lead
    (the legal set is hand & may_lead when that is not empty), 0 to ask the rules."""
    s.leader = <int8_t>leader
    s.trick_cards = 0
    s.led = -1
    s.led_mask = 0
    s.legal_mask = may_lead
    s.win_seat = <int8_t>leader               # win_card: set by the lead

cdef void start_play(HTState* s, const HTConfig* c) noexcept nogil:
    """The play phase: the holder of ♣2 leads the first trick (D4)."""
    cdef int q
    s.phase = HT_PH_PLAY
    staged_clear(&s.stage)
    for q in range(c.nplayers):
        if s.hand[q] & card_bit(TWO_C):
            s.turn = q
    open_trick(s, s.turn, ht_clubs if c.any_club else card_bit(TWO_C))   # the first lead (D4)

cdef void start_deal(HTState* s, const HTConfig* c, bint fresh=False) noexcept nogil:
    """Reset the deal's records and open the pass (or the play when holding, D2). fresh: the
    state was just zeroed (ht_init), so the records are 0 already."""
    cdef int N = c.nplayers
    if not fresh:
        memset(s.played, 0, sizeof(s.played))
        memset(s.taken, 0, sizeof(s.taken))
        memset(s.passed, 0, sizeof(s.passed))
        memset(s.received, 0, sizeof(s.received))
        memset(s.forbid, 0, sizeof(s.forbid))
    s.tricks_done = 0
    s.passers = 0
    s.broken = not c.must_break
    s.brk = 0
    s.lead_ok = ht_full
    if not s.broken:
        s.brk = ht_hearts | card_bit(QS) if c.qs_breaks else ht_hearts
        s.lead_ok = 0 if c.hearts_over_qs else ht_full & ~ht_hearts   # D6 (see ht_legal_mask)
    if s.pass_dir == PD_HOLD:
        start_play(s, c)
    else:
        s.phase = HT_PH_PASS
        s.turn = (s.dealer + 1) % N
        staged_start(&s.stage, 1, s.turn)
        open_trick(s, s.turn, ht_full)        # the pass: any card in hand (see _ht_legal_impl)

cdef void deal_cards(HTState* s, const HTConfig* c) noexcept nogil:
    """Shuffle and deal (§3): the pack of the table size (D1) shuffled on the deal stream and
    dealt one card at a time from next(dealer); then the pass direction (D2)."""
    deal_fresh(s, c, False)

cdef void deal_fresh(HTState* s, const HTConfig* c, bint fresh) noexcept nogil:
    """deal_cards; fresh: the state was just zeroed (ht_init), nothing to clear."""
    cdef card_t pack[HT_DECK]
    cdef int n = 0, k
    cdef uint64_t d = c.deck
    if c.nplayers == 4:                       # shuffle_deal_four writes the four hands
        shuffle_deal_four(s.hand, HT_DECK, (s.dealer + 1) & 3, &s.rng)
    else:
        if not fresh:
            memset(s.hand, 0, sizeof(s.hand))
        while d:
            k = bit_low(d)
            d &= d - 1
            pack[n] = <card_t>k
            n += 1
        shuffle(pack, n, &s.rng)
        deal_round_robin(pack, n, s.hand, c.nplayers, s.dealer + 1, 1)
    s.pass_dir = <int8_t>draw_direction(s, c)
    start_deal(s, c, fresh)

cdef void ht_set_deal(HTState* s, const HTConfig* c, int dealer, int pass_dir, const uint64_t* hands) noexcept nogil:
    """The scenario setter: a fresh deal by `dealer` (reset as deal_cards does it, which also
    advances the deal stream) with these hands (disjoint masks of the table's pack) and this pass
    direction (-1: the rotation's, D2). Checked arguments only (the face checks them)."""
    cdef int q
    s.dealer = dealer
    deal_cards(s, c)
    for q in range(c.nplayers):
        s.hand[q] = hands[q]
    if pass_dir >= 0:
        s.pass_dir = pass_dir
    staged_clear(&s.stage)
    start_deal(s, c)

cdef void ht_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef HTState* s = <HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int q
    memset(s, 0, sizeof(HTState))
    s.rng = rng[0]
    for q in range(c.nplayers):
        s.nxt[q] = <uint8_t>(q + 1 if q + 1 < c.nplayers else 0)
    s.dealer = <int8_t>rng_below(&s.rng, c.nplayers)   # first dealer at random (§3)
    s.shooter = -1
    s.qs_taker = -1
    deal_fresh(s, c, True)

cdef int ht_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const HTState* s = <const HTState*>st
    return -1 if s.phase == HT_PH_END else s.turn

cdef bint ht_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const HTState*>st).phase == HT_PH_END

cdef int ht_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _ht_legal_impl(st, cfg, out)

cdef inline int _ht_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions: in the pass phase any card still in hand (the cards already chosen have
    left it, D3); in play the rules' legal plays (§5). No phase test on the common path: the
    pass keeps legal_mask = every card, a follower the led suit, a leader the cards it may lead,
    so hand & legal_mask is the legal set whenever it is not empty; an empty result is a void
    follower, a leader left with only what the rules allow as a last resort (ht_legal_mask), or
    the end (no cards)."""
    cdef const HTState* s = <const HTState*>st
    cdef uint64_t m, h
    h = s.hand[s.turn]
    m = h & s.legal_mask
    if m == 0 and s.phase == HT_PH_PLAY:
        if s.led >= 0 and s.tricks_done:                  # void after the first trick: any card (§5)
            m = h
        else:
            m = ht_legal_mask(<const HTConfig*>cfg, h, s.led, s.tricks_done == 0, s.broken)
    out.w[0] = m
    return cs_popcount(m)

cdef void finish_deal(HTState* s, const HTConfig* c) noexcept nogil:
    """Score the deal (§6) and, in a match, deal again until a score reaches match_target or
    max_deals deals are played (§8, D11)."""
    cdef int q, N = c.nplayers
    cdef bint over = False
    s.shooter = <int8_t>ht_score_deal(c, s.taken, N, s.deal_pts)
    for q in range(N):
        s.score[q] += s.deal_pts[q]
        if s.taken[q] & card_bit(QS):
            s.qs_taker = q
        if s.score[q] >= c.match_target:
            over = True
    s.deal_no += 1
    if c.match and not over and s.deal_no < c.max_deals:
        s.dealer = (s.dealer + 1) % N
        deal_cards(s, c)
    else:
        s.phase = HT_PH_END

cdef inline void apply_pass(HTState* s, const HTConfig* c, int card) noexcept nogil:
    """One card of a pass (D3): it leaves the hand into the staged pass (staged_add: the card
    was in the hand, so it is not staged yet and goes into the first layer); the third card
    makes the pass whole (pass_whole)."""
    cdef uint64_t b = card_bit(card)
    s.hand[s.turn] ^= b                       # b is in the hand (apply's precondition: a legal card)
    s.stage.cards.layer[0] |= b
    s.stage.n += 1
    if s.stage.n == HT_PASS:
        pass_whole(s, c)

cdef void pass_whole(HTState* s, const HTConfig* c) noexcept nogil:
    """A pass is whole: the next seat chooses; after the last pass every seat receives its
    cards and the play starts (the stage is cleared by staged_start for the next pass, or by
    start_play)."""
    cdef int p = s.stage.target, q, r, N = c.nplayers    # the passing seat (= turn)
    s.passed[p] = s.stage.cards.layer[0]
    s.passers += 1
    if s.passers < N:
        s.turn = s.nxt[p]
        staged_start(&s.stage, 1, s.turn)
        return
    r = pass_offset(s.pass_dir, N)            # the receiver of seat 0's pass, then of each next
    for q in range(N):
        s.received[r] = s.passed[q]
        s.hand[r] |= s.passed[q]
        r += 1
        if r == N:
            r = 0
    start_play(s, c)

cdef void ht_apply(void* st, const void* cfg, int card) noexcept nogil:
    _ht_apply_impl(st, cfg, card)

cdef inline void _ht_apply_impl(void* st, const void* cfg, int card) noexcept nogil:
    """Pass or play one card. A play (§5): the card leaves the hand for the trick (played,
    trick_cards); what it shows about the hand is recorded in forbid (D12); the seat winning the
    trick so far is kept as the plays come (the rules' ht_beats: a higher card of the led suit);
    when the next seat is the leader the trick is whole (close_trick)."""
    cdef HTState* s = <HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int p = s.turn, q
    cdef uint64_t b = card_bit(card), m
    m = s.led_mask
    if b & m:                                                     # following suit
        if card > s.win_card:                                     # ht_beats: higher in the led suit
            s.win_card = <int8_t>card
            s.win_seat = <int8_t>p
    elif s.led < 0:
        if s.phase == HT_PH_PASS:
            apply_pass(s, c, card)
            return
        lead(s, c, p, card)
    else:
        s.forbid[p] |= m                                          # void in the led suit
        if s.tricks_done == 0 and c.no_pts_first and b & (ht_hearts | card_bit(QS)):
            s.forbid[p] |= ~(ht_hearts | card_bit(QS))            # held only hearts and ♠Q
    s.hand[p] ^= b                                                # b is in the hand (a legal card)
    s.played[p] |= b
    s.trick_cards |= b
    q = s.nxt[p]
    if q != s.leader:
        s.turn = <uint8_t>q
        return
    close_trick(s, c)

cdef inline void lead(HTState* s, const HTConfig* c, int p, int card) noexcept nogil:
    """Seat p leads card: the led suit, the card winning so far (win_seat: the leader already);
    a heart led unbroken shows p held only hearts (or hearts and ♠Q with hearts_over_qs, D12;
    s.broken is whole at a lead)."""
    cdef uint64_t m
    s.led = <int8_t>card_suit(card)
    s.led_mask = suit_mask(s.led)
    s.legal_mask = s.led_mask
    s.win_card = <int8_t>card
    if not s.broken and card_bit(card) & ht_hearts:
        m = ht_hearts | card_bit(QS) if c.hearts_over_qs else ht_hearts
        s.forbid[p] |= ~m                                         # led a heart unbroken: nothing else

cdef inline void close_trick(HTState* s, const HTConfig* c) noexcept nogil:
    """A whole trick: the winning seat takes its cards and leads the next; a heart (or ♠Q with
    qs_breaks) among them breaks hearts (D6); after the last trick the deal is scored."""
    cdef int w = s.win_seat
    cdef uint64_t t = s.trick_cards
    s.taken[w] |= t
    s.tricks_done += 1
    if t & s.brk:
        s.broken = 1
        s.brk = 0
        s.lead_ok = ht_full
    s.turn = <uint8_t>w
    open_trick(s, w, s.lead_ok)
    if s.tricks_done == c.hand_size:
        finish_deal(s, c)

cdef void ht_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const HTState* s = <const HTState*>st
    cdef const HTConfig* c = <const HTConfig*>cfg
    cdef int p, q, N = c.nplayers
    cdef double tot = 0
    if c.openspiel_returns:                   # OpenSpiel: 0 until the end, then 26 - points
        for p in range(N):
            out[p] = 26.0 - s.score[p] if s.phase == HT_PH_END else 0.0
        return
    for q in range(N):
        tot += s.score[q]
    for p in range(N):
        out[p] = (tot - s.score[p]) / (N - 1) - s.score[p]

cdef void ht_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const HTState* s = <const HTState*>st
    out[0] = s.shooter
    out[1] = s.qs_taker
    out[2] = s.pass_dir
    out[3] = s.dealer
    out[4] = s.deal_no


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _ht_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return (<const HTState*>st).turn             # asked only with two or more legal actions: never at the end

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _ht_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (HT_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

# ---- the fused random deal (core/_play_loop.pxi's _pl_segment, _pl_play_segment) -----------------
from cardsim.core._fused cimport fused_pick

cdef inline bint _pl_fused_ok(const void* cfg, const int* agents) noexcept nogil:
    cdef int q
    for q in range((<const HTConfig*>cfg).nplayers):
        if agents[q] != AGENT_RANDOM:
            return False
    return True

cdef inline bint ht_deal_start(const HTState* s) noexcept nogil:
    """s is at the start of a deal: the pass before its first card, or (a held deal) the play
    before its first card."""
    if s.phase == HT_PH_PASS:
        return s.passers == 0 and s.stage.n == 0
    return s.phase == HT_PH_PLAY and s.tricks_done == 0 and s.trick_cards == 0

cdef inline long fused_deal(HTState* s, const HTConfig* c, Rng* ar, int N, long* dec, long* ls) noexcept nogil:
    """One deal from its start (ht_deal_start) to its end, N = c.nplayers (a constant where the
    caller passes one: the four-player body is compiled apart, its trick unrolled). The loop's
    steps (_ht_legal_impl, the pick, _ht_apply_impl) with the hands, the trick, the public voids
    and the counters in locals, written back when the deal ends, then finish_deal as
    close_trick calls it. The pass ends in pass_whole's last steps and start_play; a play
    follows _ht_apply_impl, lead and close_trick line for line. Returns its actions."""
    cdef int H = c.hand_size, p, q, j, r, t, card, leader, win_seat, win_card, led
    cdef uint64_t hand[6]                       # whole arrays copied (a constant size: no memcpy call)
    cdef uint64_t played[6]
    cdef uint64_t taken[6]
    cdef uint64_t forbid[6]
    cdef uint64_t h, g, b, legal, trick, led_mask, lead_ok, brk
    cdef uint64_t pts = ht_hearts | card_bit(QS)
    cdef uint64_t lead_forbid = ~(ht_hearts | card_bit(QS)) if c.hearts_over_qs else ~ht_hearts
    cdef bint broken, no_pts_first = c.no_pts_first
    cdef long k = 0
    for q in range(6):
        hand[q] = s.hand[q]
    if s.phase == HT_PH_PASS:                   # every pass, card by card (apply_pass, pass_whole)
        p = s.turn
        for j in range(N):
            h = hand[p]
            g = 0
            for r in range(HT_PASS):
                b = card_bit(fused_pick(h, &ar[p], dec, ls))
                h ^= b
                g |= b
            hand[p] = h
            s.passed[p] = g
            p = s.nxt[p]
        r = pass_offset(s.pass_dir, N)
        for q in range(N):
            s.received[r] = s.passed[q]
            hand[r] |= s.passed[q]
            r += 1
            if r == N:
                r = 0
        s.passers = N
        k += HT_PASS * N
        for q in range(6):
            s.hand[q] = hand[q]
        start_play(s, c)
    for q in range(6):
        played[q] = s.played[q]
        taken[q] = s.taken[q]
        forbid[q] = s.forbid[q]
    leader = s.leader
    legal = s.legal_mask                        # the first lead's (start_play)
    lead_ok = s.lead_ok
    brk = s.brk
    broken = s.broken
    win_card = s.win_card
    for t in range(H):
        # the lead (lead): the legal set as _ht_legal_impl makes it for a leader
        h = hand[leader]
        legal &= h
        if legal == 0:
            legal = ht_legal_mask(c, h, -1, t == 0, broken)
        card = fused_pick(legal, &ar[leader], dec, ls)
        b = card_bit(card)
        led = card_suit(card)
        led_mask = suit_mask(led)
        win_card = card
        win_seat = leader
        if not broken and b & ht_hearts:
            forbid[leader] |= lead_forbid         # led a heart unbroken: nothing else
        hand[leader] = h ^ b
        played[leader] |= b
        trick = b
        q = leader
        for j in range(1, N):                   # the followers, round the table (_ht_apply_impl)
            q += 1
            if q == N:
                q = 0
            h = hand[q]
            legal = h & led_mask
            if legal == 0:
                legal = h if t else ht_legal_mask(c, h, led, True, broken)
            card = fused_pick(legal, &ar[q], dec, ls)
            b = card_bit(card)
            if b & led_mask:
                if card > win_card:
                    win_card = card
                    win_seat = q
            else:
                forbid[q] |= led_mask           # void in the led suit
                if t == 0 and no_pts_first and b & pts:
                    forbid[q] |= ~pts           # held only hearts and the queen of spades
            hand[q] = h ^ b
            played[q] |= b
            trick |= b
        taken[win_seat] |= trick                # close_trick
        if trick & brk:
            broken = 1
            brk = 0
            lead_ok = ht_full
        leader = win_seat
        legal = lead_ok
    k += N * H
    for q in range(6):
        s.hand[q] = hand[q]
        s.played[q] = played[q]
        s.taken[q] = taken[q]
        s.forbid[q] = forbid[q]
    s.tricks_done = <int8_t>H
    s.broken = broken
    s.brk = brk
    s.lead_ok = lead_ok
    s.win_card = <int8_t>win_card
    s.turn = <uint8_t>leader
    open_trick(s, leader, lead_ok)
    finish_deal(s, c)
    return k

cdef inline long _pl_segment(const void* st, const void* cfg) noexcept nogil:
    """A whole deal from its start (ht_deal_start): at most HT_PASS x N (the pass) + N x hand_size
    actions."""
    cdef const HTConfig* c = <const HTConfig*>cfg
    if ht_deal_start(<const HTState*>st):
        return HT_PASS * c.nplayers + c.nplayers * c.hand_size
    return 0

cdef inline long _pl_play_segment(void* st, const void* cfg, Rng* ar, long* dec, long* ls) noexcept nogil:
    """fused_deal, its four-player body compiled apart (the trick unrolled)."""
    cdef const HTConfig* c = <const HTConfig*>cfg
    if c.nplayers == 4:
        return fused_deal(<HTState*>st, c, ar, 4, dec, ls)
    return fused_deal(<HTState*>st, c, ar, c.nplayers, dec, ls)

include "cardsim/core/_play_loop_fused.pxi"      # _pl_fused_play on the hooks above
include "cardsim/core/_play_loop.pxi"
