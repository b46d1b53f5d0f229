"""Hakka Six Tigers 客家六虎牌 (Luk Fu): four seats, a 37-card pack (SHI > GUAN > SUO > XIAN of 1-9
plus CLOUD), a dreamer who holds one card and never plays, a declaration with a special player,
single / run / set leads beaten by stronger patterns of the same shape or discarded face down,
"old" cards that change as cards are played, Five Tigers, victory claims at a count of six and a
doubling point table.

Rules as implemented, every option and decision: docs/rules/six_tigers.md. This module is the
state machine; the pure rules (patterns, old cards, beating, trick winner, payments) are in
`_six_tigers_rules`. Decisions X1-X15 of the rules spec are followed as written. Where the spec
is silent (documented in docs/rules/six_tigers.md "Engine choices"):
  * claim windows ask every active player who could still be eligible on public facts
    (tricks + min(cards held, 7) >= 6), so who is asked never reveals a count; CLAIM is legal
    only with a count >= 6. A window follows every trick, the last one too (X16, option
    claim_after_last_trick; with False, X11 settles the round right after the last trick).
  * a void round (everyone passed) is redealt inside the same state (scope "deal" covers one
    counted round); after max_redeals void deals in one round (default 10) the next void one
    ends the round with no winner and no payments, counted as a round (X17), so a policy that
    always passes still ends.
  * scenarios refuse positions no deal reaches where they could break the round (X18).
  * 3 players (option players=3): no dreamer; 12 cards each from the dealer, the 37th card is
    set aside face down unseen (it counts as not played for the old cards).
  * At the end of a round the dreamer's card, the claimed old cards and a Five Tigers hand are
    shown; other hands stay hidden.
  * Sung's scoring: the dreamer receives t_dream - 5 (no red bonus).

Card identity: suit * 9 + (number - 1), suits SHI GUAN SUO XIAN = 0..3, CLOUD = 36.
Actions (79): 0..36 add card c face up to the play being built (a lead, or a beat); 37..73 add
card c to a face-down discard; 74 COMMIT the lead; 75 DECLARE, 76 PASS; 77 CLAIM, 78 CONTINUE.
Cards are added in ascending identity order (one action sequence per play); every add offered
can be completed into a legal whole play (core staged moves with the game's completability
rule). A follow commits itself at k cards; a lead commits itself when it cannot be extended,
otherwise with COMMIT. `cardsim.games.six_tigers.play_actions` turns a whole play into its
action sequence.

Returns: the points each seat won or paid (zero-sum): the round's payments (scope "deal"), the
cumulative points of the 4 counted rounds (scope "match").

Observation (float32, OBS_SIZE; 4 seat slots), blocks in order: own hand (37); own old cards
(37); face-up cards played per seat (4x37); own face-down discards (37); trick number+1 /12 of
each card p saw played (37); face-down cards per seat /12 (4); current trick face-up plays per
seat (4x37); seats that discarded in the current trick (4); own staged play (37) and its kind
(4); high seat (4), high type (4), k/9 (1), leader (4); winner of each trick (12x4); tricks per
seat /12 (4); dealer, dreamer, declarer, special, observer, seat to act (6x4); phase (4),
declarations made /3, claim window position /3, tricks done /12 (3); winner (4), t/12,
t_dream/12, Five Tigers, claimed (4); cards shown at the end (37); last round's payments /256
(4); points /1024 (4); counted rounds /4, void rounds /10 (2); the old cards when
old_tracking = "public" (37, else zeros).

Greedy agent: the dealer always declares (it costs nothing and blocks a special player); a
non-dealer declares with at least 4 old cards, or 3 and a run or set. It claims whenever it may.
It leads the largest play that no unseen cards can beat, preferring non-old cards (an old card
already counts while held); otherwise its longest run or set, else its lowest allowed single.
Following, it beats with the cheapest beating play (fewest old cards, lowest strength); it
discards its lowest-valued cards (number, old cards +30).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, uint8_t, int8_t, int16_t, int32_t, uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, bit_below, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._deal cimport shuffled_pack
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_add_mask, as_first
from cardsim.core._trick cimport TrickRecord, trick_start, trick_add_seat, trick_done, trick_reset
from cardsim.core._staged cimport (Staged, staged_clear, staged_start, staged_add, staged_legal_adds,
                                   staged_active)
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games._six_tigers_agent cimport st_resample, st_greedy
from cardsim.games._six_tigers_rules cimport (
    STRules, STPlay, ST_DECK, ST_CLOUD, ST_MAX_PLAYS, PT_NONE, PT_SINGLE, PT_RUN, PT_SET,
    st_bit, st_full, st_suit_mask, st_fixed_old, st_suit, st_number, st_old_mask, st_pattern,
    st_beats, st_single_leads, st_enum_leads, st_lead_starts, st_multi_starts, st_single_beats, st_enum_beats, st_has_beat, st_dream_matches,
    st_sung_points, st_payments)

from cardsim.core.notation import disjoint_hands
from cardsim.core._engine import _short
from cardsim.errors import ConfigError, ParseError, short
from cardsim.games._six_tigers_rules import card_str, parse_card, mask_to_cards, cards_to_mask


PHASES = ("declare", "claim", "play", "end")
OBS_SIZE = (37 + 37 + 4 * 37 + 37 + 37 + 4 + 4 * 37 + 4 + 37 + 4 + 4 + 4 + 1 + 4 + 12 * 4 + 4
            + 6 * 4 + 4 + 3 + 4 + 4 + 37 + 4 + 4 + 2 + 37)
METRICS = ("winner", "t", "t_dream", "five_tigers", "claimed", "special", "declarer", "dealer",
           "voids", "counted_rounds", "tricks_played")


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
cdef inline int nxt(const STConfig* c, int i) noexcept nogil:
    """The next seat in the direction of play (X2: clockwise = i + 1)."""
    return (i + c.nplayers - 1) % c.nplayers if c.ccw else (i + 1) % c.nplayers

cdef inline uint64_t drop_top(uint64_t m, int n) noexcept nogil:
    """m without its n highest cards."""
    while n > 0 and m:
        m &= ~st_bit(bit_high(m))
        n -= 1
    return m


# ---------------------------------------------------------------------------------------------
# deal, declaration, claims, scoring
# ---------------------------------------------------------------------------------------------
cdef void deal_round(STState* s, const STConfig* c) noexcept nogil:
    """Shuffle and deal (§3): one card each to the 4 seats from the dealer (the dreamer
    included), then one at a time to the active players only until each holds 12; with 3
    players 12 each and the 37th card aside. Resets the round and opens DECLARE (§4.1)."""
    cdef card_t perm[37]
    cdef int i, D = s.dealer, q
    shuffled_pack(perm, 37, &s.rng)
    for q in range(4):
        s.hand[q] = 0
        s.up[q] = 0
        s.down[q] = 0
        s.cur[q] = 0
        s.win_cards[q] = 0
        s.tricks[q] = 0
        s.reach6[q] = -1
    s.aside = 0
    s.shown = 0
    memset(s.card_trick, -1, 37)
    memset(s.card_seat, -1, 37)
    memset(s.trick_leader, -1, 12)
    memset(s.trick_winner, -1, 12)
    memset(s.trick_down, 0, 12)
    memset(s.trick_k, 0, 12)
    if c.nplayers == 4:
        s.dreamer = nxt(c, nxt(c, D))
        s.order[0] = D
        s.order[1] = nxt(c, D)
        s.order[2] = nxt(c, s.dreamer)
        for i in range(4):
            q = D if i == 0 else (s.order[1] if i == 1 else (s.dreamer if i == 2 else s.order[2]))
            s.hand[q] |= st_bit(perm[i])
        for i in range(4, 37):
            s.hand[s.order[(i - 4) % 3]] |= st_bit(perm[i])
    else:
        s.dreamer = -1
        s.order[0] = D
        s.order[1] = nxt(c, D)
        s.order[2] = nxt(c, s.order[1])
        for i in range(36):
            s.hand[s.order[i % 3]] |= st_bit(perm[i])
        s.aside = st_bit(perm[36])
    trick_reset(&s.trick)
    staged_clear(&s.stg)
    s.high.type = PT_NONE
    s.high.size = 0
    s.high.key = 0
    s.high_seat = -1
    s.k = 0
    s.cur_down = 0
    s.phase = ST_PH_DECLARE
    s.decl_pos = 0
    s.turn = D
    s.declarer = -1
    s.special = -1
    s.next_dealer = -1
    s.claim_pos = 0
    s.ntricks = 0
    s.winner = -1
    s.t = 0
    s.t_dream = 0
    s.five_tigers = 0
    s.claimed = 0

cdef void st_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef STState* s = <STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    memset(s, 0, sizeof(STState))
    s.rng = rng[0]
    s.dealer = <int8_t>rng_below(&s.rng, c.nplayers)      # first dealer at random (§1)
    deal_round(s, c)

cdef void finish_round(STState* s, const STConfig* c, uint64_t win) noexcept nogil:
    """Score a counted round (§6): points for the winner's t (table or Sung), the dreamer's
    5 + matches, payments with the special player's liability; then the next round of a match
    (dealer by §4.1) or the end."""
    cdef int pts = 0, dpts = 0, q, m
    cdef int8_t active[4]
    for q in range(4):
        active[q] = 1 if (q != s.dreamer and q < c.nplayers) else 0
    if s.dreamer >= 0:
        s.shown |= s.hand[s.dreamer]
    if s.winner >= 0:
        pts = st_sung_points(s.t, win, s.five_tigers) if c.sung else c.table[s.t - 6]
        if s.dreamer >= 0:
            m = st_dream_matches(win, bit_low(s.hand[s.dreamer]))
            s.t_dream = 5 + m
            if s.t_dream >= 6:
                dpts = s.t_dream - 5 if c.sung else c.table[s.t_dream - 6]
    st_payments(c.nplayers, active, s.winner, s.special, s.dreamer, pts, dpts, s.last)
    for q in range(c.nplayers):
        s.score[q] += s.last[q]
    s.round_no += 1
    s.redeals = 0
    staged_clear(&s.stg)
    if c.match and s.round_no < c.rounds:
        s.dealer = s.next_dealer
        deal_round(s, c)
    else:
        s.phase = ST_PH_END

cdef void do_claim(STState* s, const STConfig* c, int q) noexcept nogil:
    """A claim (§5.5): the claimant wins with t = count; his old cards in hand are shown and
    join his winning cards (X13)."""
    cdef uint64_t old = old_now(s, c)
    cdef uint64_t held_old = s.hand[q] & old
    s.winner = q
    s.t = count_of(s, q, old)
    s.claimed = 1
    s.shown |= held_old
    finish_round(s, c, s.win_cards[q] | held_old)

cdef void end_without_claim(STState* s, const STConfig* c) noexcept nogil:
    """All cards played without a claim (X11): the player with >= 6 tricks wins with t =
    tricks, the first to reach 6 if two have 6; nobody with 6: no winner."""
    cdef int q, best = -1
    for q in range(c.nplayers):
        if s.tricks[q] >= 6 and (best < 0 or s.reach6[q] < s.reach6[best]):
            best = q
    s.winner = best
    if best >= 0:
        s.t = s.tricks[best]
        finish_round(s, c, s.win_cards[best])
    else:
        finish_round(s, c, 0)

cdef void start_trick(STState* s) noexcept nogil:
    cdef int q
    trick_start(&s.trick, s.trick.leader if s.trick.leader >= 0 else s.dealer, 3)
    for q in range(4):
        s.cur[q] = 0
    s.k = 0
    s.cur_down = 0
    s.high_seat = -1
    s.high.type = PT_NONE
    s.phase = ST_PH_PLAY
    s.turn = s.trick.leader
    s.trick_leader[s.ntricks] = s.trick.leader

cdef inline bint may_be_eligible(const STState* s, int q) noexcept nogil:
    """Public bound on the count: tricks + min(cards held, 7 old cards at most) >= 6."""
    cdef int h = cs_popcount(s.hand[q])
    return s.tricks[q] + (h if h < 7 else 7) >= 6

cdef void advance_window(STState* s, const STConfig* c) noexcept nogil:
    """Go through the claim window (§4.4, §5.5) from claim_pos: with auto_claim the first
    player with count >= 6 claims; otherwise stop at the next player who may be eligible.
    After the window the trick leader leads."""
    cdef uint64_t old = old_now(s, c)
    cdef int q
    while s.claim_pos < 3:
        q = s.claim_order[s.claim_pos]
        if c.auto_claim:
            if count_of(s, q, old) >= 6:
                do_claim(s, c, q)
                return
        elif may_be_eligible(s, q):
            s.phase = ST_PH_CLAIM
            s.turn = q
            return
        s.claim_pos += 1
    if s.hand[s.trick.leader] == 0:
        end_without_claim(s, c)     # the window after the last trick passed without a claim (X11)
    else:
        start_trick(s)

cdef void open_window(STState* s, const STConfig* c, int first) noexcept nogil:
    """A claim window in play order starting with `first` (the dealer before the first lead,
    the trick winner after a trick)."""
    s.claim_order[0] = first
    s.claim_order[1] = next_active(s, first)
    s.claim_order[2] = next_active(s, s.claim_order[1])
    s.claim_pos = 0
    s.trick.leader = first
    advance_window(s, c)

cdef void end_declare(STState* s, const STConfig* c) noexcept nogil:
    """After DECLARE (§4.1, §4.3): the next dealer and the special player; Five Tigers wins at
    once, before the void rule (X6); all passed: void round, redeal by the next dealer (X5);
    else the pre-lead claim window and the dealer's lead."""
    cdef int i, q
    s.next_dealer = s.dealer if s.declarer == s.dealer else nxt(c, s.dealer)
    s.special = s.declarer if (s.declarer >= 0 and s.declarer != s.dealer) else -1
    for i in range(3):
        q = s.order[i]
        if (s.hand[q] & st_tigers()) == st_tigers():
            s.winner = q
            s.t = 8
            s.five_tigers = 1
            s.shown |= st_tigers()
            finish_round(s, c, st_tigers())
            return
    if s.declarer < 0:
        if s.redeals >= c.max_redeals:
            s.winner = -1               # X17: the round is abandoned: no winner, counted
            finish_round(s, c, 0)
            return
        s.voids += 1
        s.redeals += 1
        s.dealer = s.next_dealer
        deal_round(s, c)
        return
    trick_reset(&s.trick)
    open_window(s, c, s.dealer)


# ---------------------------------------------------------------------------------------------
# play: leads and follows built with staged moves
# ---------------------------------------------------------------------------------------------
ctypedef struct PlayList:
    const uint64_t* plays    # candidate whole plays (card masks)
    int n                    # how many

cdef bint completable(const void* ctx, const Staged* trial) noexcept nogil:
    """Staged completability: some whole play of the list contains the trial cards, and all its
    other cards lie above the highest trial card (plays are built in ascending order)."""
    cdef const PlayList* pl = <const PlayList*>ctx
    cdef uint64_t t = trial.cards.layer[0], L
    cdef uint64_t low = bit_below(bit_high(t) + 1)
    cdef int i
    for i in range(pl.n):
        L = pl.plays[i]
        if (L & t) == t and (L & ~t & low) == 0:
            return True
    return False

cdef inline bint in_list(const uint64_t* buf, int n, uint64_t m) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return True
    return False

cdef int st_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions. DECLARE: DECLARE/PASS. Claim window: CONTINUE, and CLAIM with count >= 6.
    Lead (§5.1-§5.2): adds completing some legal lead, COMMIT once the play is a legal lead.
    Follow: face-up adds completing some beat (§5.3); face-down adds for a discard of k cards
    when no beat is held or must_beat is off (X7)."""
    cdef const STState* s = <const STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef PlayList pl
    cdef uint64_t hand, P, cand
    cdef int n, p
    out.w[0] = 0
    out.w[1] = 0
    if s.phase == ST_PH_END:
        return 0
    if s.phase == ST_PH_DECLARE:
        as_add(out, ST_A_DECLARE)
        as_add(out, ST_A_PASS)
        return 2
    if s.phase == ST_PH_CLAIM:
        as_add(out, ST_A_CONTINUE)
        if count_of(s, s.turn, old_now(s, c)) >= 6:
            as_add(out, ST_A_CLAIM)
            return 2
        return 1
    p = s.turn
    hand = s.hand[p]
    P = s.stg.cards.layer[0]
    cand = hand & ~P
    if P:
        cand &= above(bit_high(P))
    pl.plays = buf
    if s.trick.n == 0 and P == 0:
        cand = st_lead_starts(hand, old_now(s, c), p == s.special, &c.rules)
        as_add_mask(out, ST_A_PLAY, cand)
        return cs_popcount(cand)
    if s.k == 1:
        cand = st_single_beats(hand, s.high.key)
        as_add_mask(out, ST_A_PLAY, cand)
        n = cs_popcount(cand)
        if n and c.must_beat:
            return n
        as_add_mask(out, ST_A_DISCARD, hand)
        return n + cs_popcount(hand)
    if s.trick.n == 0:
        pl.n = lead_list(s, c, buf)
        n = staged_legal_adds(&s.stg, cand, ST_A_PLAY, completable, &pl, out)
        if P and in_list(buf, pl.n, P):
            as_add(out, ST_A_COMMIT)
            n += 1
        return n
    n = 0
    if s.stg.kind != ST_STAGE_DISCARD:
        pl.n = st_enum_beats(hand, &s.high, &c.rules, buf)
        n = staged_legal_adds(&s.stg, cand, ST_A_PLAY, completable, &pl, out)
        if s.stg.kind == ST_STAGE_BEAT or (pl.n > 0 and c.must_beat):
            return n
    cand = drop_top(cand, s.k - s.stg.n - 1)
    as_add_mask(out, ST_A_DISCARD, cand)
    return n + cs_popcount(cand)

cdef void commit_play(STState* s, const STConfig* c, bint face_down) noexcept nogil:
    """The staged play of the seat to act leaves its hand for the trick (face up: it is the new
    current high, or the lead; face down: a discard). Completes the trick after three plays:
    the final high play wins k tricks (§5.1) and a claim window opens (§5.5)."""
    cdef int p = s.turn, i, w
    cdef uint64_t P = s.stg.cards.layer[0], m
    staged_clear(&s.stg)
    s.hand[p] &= ~P
    s.cur[p] = P
    m = P
    while m:
        i = bit_low(m)
        m &= m - 1
        s.card_trick[i] = s.ntricks
        s.card_seat[i] = p
    if face_down:
        s.down[p] |= P
        s.cur_down |= <int8_t>(1 << p)
        s.trick_down[s.ntricks] |= <int8_t>(1 << p)
    else:
        s.up[p] |= P
        st_pattern(P, &c.rules, &s.high)
        s.high_seat = p
        if s.trick.n == 0:
            s.k = cs_popcount(P)
            s.trick_k[s.ntricks] = s.k
    trick_add_seat(&s.trick, p)
    if not trick_done(&s.trick):
        s.turn = next_active(s, p)
        return
    w = s.high_seat
    s.trick.winner = w
    s.tricks[w] += s.k
    s.win_cards[w] |= s.cur[w]
    if s.tricks[w] >= 6 and s.reach6[w] == -1:
        s.reach6[w] = s.ntricks
    s.trick_winner[s.ntricks] = w
    s.ntricks += 1
    if s.hand[w] == 0 and not c.claim_last:
        s.trick.leader = w
        end_without_claim(s, c)
        return
    open_window(s, c, w)        # after the last trick too (X16): then X11 if nobody claims

cdef bint lead_extendable(const STState* s, const STConfig* c, uint64_t P, bint* whole) noexcept nogil:
    """Whether the staged lead P can take more cards; *whole = P is a legal lead."""
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef uint64_t low
    cdef int n, i
    cdef bint ext = False
    if cs_popcount(P) == 1:
        # one card: a whole lead iff an allowed single; extendable iff it starts a run or set
        whole[0] = (P & st_single_leads(s.hand[s.turn], old_now(s, c), s.turn == s.special)) != 0
        return (P & st_multi_starts(s.hand[s.turn], &c.rules)) != 0
    n = lead_list(s, c, buf)
    low = bit_below(bit_high(P) + 1)
    whole[0] = False
    for i in range(n):
        if buf[i] == P:
            whole[0] = True
        elif (buf[i] & P) == P and (buf[i] & ~P & low) == 0:
            ext = True
    return ext

cdef void st_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef STState* s = <STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef bint whole
    if a == ST_A_DECLARE:
        s.declarer = s.turn
        end_declare(s, c)
    elif a == ST_A_PASS:
        s.decl_pos += 1
        if s.decl_pos == 3:
            end_declare(s, c)
        else:
            s.turn = s.order[s.decl_pos]
    elif a == ST_A_CLAIM:
        do_claim(s, c, s.turn)
    elif a == ST_A_CONTINUE:
        s.claim_pos += 1
        advance_window(s, c)
    elif a == ST_A_COMMIT:
        commit_play(s, c, False)
    elif a < ST_A_DISCARD:
        if not staged_active(&s.stg):
            staged_start(&s.stg, ST_STAGE_LEAD if s.trick.n == 0 else ST_STAGE_BEAT, -1)
        staged_add(&s.stg, a)
        if s.stg.kind == ST_STAGE_LEAD:
            if not lead_extendable(s, c, s.stg.cards.layer[0], &whole) and whole:
                commit_play(s, c, False)
        elif s.stg.n == s.k:
            commit_play(s, c, False)
    else:
        if not staged_active(&s.stg):
            staged_start(&s.stg, ST_STAGE_DISCARD, -1)
        staged_add(&s.stg, a - ST_A_DISCARD)
        if s.stg.n == s.k:
            commit_play(s, c, True)

cdef int st_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const STState* s = <const STState*>st
    return -1 if s.phase == ST_PH_END else s.turn

cdef bint st_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const STState*>st).phase == ST_PH_END

cdef void st_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const STState* s = <const STState*>st
    cdef int q
    for q in range((<const STConfig*>cfg).nplayers):
        out[q] = s.score[q]

cdef void st_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const STState* s = <const STState*>st
    out[0] = s.winner
    out[1] = s.t
    out[2] = s.t_dream
    out[3] = s.five_tigers
    out[4] = s.claimed
    out[5] = s.special
    out[6] = s.declarer
    out[7] = s.dealer
    out[8] = s.voids
    out[9] = s.round_no
    out[10] = s.ntricks


# ---------------------------------------------------------------------------------------------
# observation
# ---------------------------------------------------------------------------------------------
cdef inline void one_hot(float* o, int v) noexcept nogil:
    if v >= 0:
        o[v] = 1.0

cdef void st_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const STState* s = <const STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef int k = 0, q, i
    cdef uint64_t old = old_now(s, c), seen
    put_bits(o + k, s.hand[p]); k += 37
    put_bits(o + k, s.hand[p] & old); k += 37
    for q in range(4):
        put_bits(o + k, s.up[q]); k += 37
    put_bits(o + k, s.down[p]); k += 37
    seen = s.up[0] | s.up[1] | s.up[2] | s.up[3] | s.down[p]
    for i in range(37):
        if (seen >> i) & 1:
            o[k + i] = (s.card_trick[i] + 1) / 12.0
    k += 37
    for q in range(4):
        o[k + q] = cs_popcount(s.down[q]) / 12.0
    k += 4
    for q in range(4):
        if not (s.cur_down >> q) & 1:
            put_bits(o + k, s.cur[q])
        k += 37
    for q in range(4):
        o[k + q] = (s.cur_down >> q) & 1
    k += 4
    if s.turn == p and s.phase == ST_PH_PLAY:
        put_bits(o + k, s.stg.cards.layer[0])
        o[k + 37 + s.stg.kind] = 1.0
    k += 41
    one_hot(o + k, s.high_seat); k += 4
    o[k + s.high.type] = 1.0; k += 4
    o[k] = s.k / 9.0; k += 1
    if s.phase == ST_PH_PLAY:
        one_hot(o + k, s.trick.leader)
    k += 4
    for i in range(12):
        one_hot(o + k + 4 * i, s.trick_winner[i])
    k += 48
    for q in range(4):
        o[k + q] = s.tricks[q] / 12.0
    k += 4
    one_hot(o + k, s.dealer); k += 4
    one_hot(o + k, s.dreamer); k += 4
    one_hot(o + k, s.declarer); k += 4
    one_hot(o + k, s.special); k += 4
    o[k + p] = 1.0; k += 4
    if s.phase != ST_PH_END:
        o[k + s.turn] = 1.0
    k += 4
    o[k + s.phase] = 1.0; k += 4
    o[k] = s.decl_pos / 3.0
    o[k + 1] = s.claim_pos / 3.0
    o[k + 2] = s.ntricks / 12.0
    k += 3
    one_hot(o + k, s.winner); k += 4
    o[k] = s.t / 12.0
    o[k + 1] = s.t_dream / 12.0
    o[k + 2] = s.five_tigers
    o[k + 3] = s.claimed
    k += 4
    put_bits(o + k, s.shown); k += 37
    for q in range(4):
        o[k + q] = s.last[q] / 256.0
        o[k + 4 + q] = s.score[q] / 1024.0
    k += 8
    o[k] = s.round_no / 4.0
    o[k + 1] = s.voids / 10.0
    k += 2
    if c.old_public:
        put_bits(o + k, old)
    k += 37




# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------


cdef class SixTigersSpec(GameSpec):
    cdef STConfig c

    def __init__(self, dict opts):
        table = opts["point_table"]
        self.c.nplayers = opts["players"]
        self.c.ccw = opts["direction"] == "ccw"
        self.c.must_beat = opts["must_beat_if_able"]
        self.c.old_public = opts["old_tracking"] == "public"
        self.c.auto_claim = opts["auto_claim"]
        self.c.sung = opts["scoring"] == "sung"
        self.c.match = opts["scope"] == "match"
        self.c.rounds = opts["rounds"]
        self.c.claim_last = opts["claim_after_last_trick"]
        self.c.max_redeals = opts["max_redeals"]
        for i in range(7):
            self.c.table[i] = table[i]
        self.c.rules.set_natural = opts["set_order"] == "natural"
        self.c.rules.cloud_in_sets = opts["cloud_in_sets"]
        self.vt.init = st_init
        self.vt.current_player = st_current_player
        self.vt.legal = st_legal
        self.vt.apply = st_apply
        self.vt.is_terminal = st_is_terminal
        self.vt.returns = st_returns
        self.vt.observe = st_observe
        self.vt.resample = st_resample
        self.vt.greedy = st_greedy
        self.vt.metrics = st_metrics
        self.install("six_tigers", &self.c, self.c.nplayers, ST_NUM_ACTIONS, sizeof(STState), OBS_SIZE,
                     METRICS, "zero", opts)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < ST_A_DISCARD:
            return card_str(a)
        if a < ST_A_COMMIT:
            return "DISCARD " + card_str(a - ST_A_DISCARD)
        return ("COMMIT", "DECLARE", "PASS", "CLAIM", "CONTINUE")[a - ST_A_COMMIT]

    def _parse_action(self, State s, str text):
        t = text.strip().upper()
        words = ("COMMIT", "DECLARE", "PASS", "CLAIM", "CONTINUE")
        if t in words:
            return ST_A_COMMIT + words.index(t)
        try:
            if t.startswith("DISCARD "):
                return ST_A_DISCARD + parse_card(t[8:].strip())
            return parse_card(t)
        except ParseError as e:
            raise ParseError(f"six_tigers: cannot parse action {short(text)}; actions: a card to add face up "
                             f"('SHI9', 'CLOUD'), 'DISCARD <card>', COMMIT, DECLARE, PASS, CLAIM, "
                             f"CONTINUE") from e

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<STState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return PHASES[(<STState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return 37

    def _card_total(self, State s):
        """Cards in hands + the aside card + face-up and face-down plays of this round (each
        card exactly once, else the negated count)."""
        cdef STState* st = <STState*>self._data(s)
        cdef uint64_t allm = st.aside, m
        cdef int n = cs_popcount(st.aside)
        for q in range(4):
            m = st.hand[q] | st.up[q] | st.down[q]
            n += cs_popcount(st.hand[q]) + cs_popcount(st.up[q]) + cs_popcount(st.down[q])
            allm |= m
        return n if allm == st_full() and n == 37 else -n

    def _view(self, State s):
        """A dict of the public and private facts (tests, display)."""
        cdef STState* st = <STState*>self._data(s)
        N = self.c.nplayers
        old = old_now(st, &self.c)
        opt = lambda v: None if v < 0 else int(v)
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "dreamer": opt(st.dreamer),
            "turn": opt(st_current_player(st, &self.c)), "order": [st.order[i] for i in range(3)],
            "declarer": opt(st.declarer), "special": opt(st.special),
            "next_dealer": opt(st.next_dealer),
            "leader": opt(st.trick.leader), "k": st.k,
            "high": mask_to_cards(st.cur[st.high_seat]) if st.high_seat >= 0 else [],
            "trick": [mask_to_cards(st.cur[q]) for q in range(N)],
            "trick_down": [bool((st.cur_down >> q) & 1) for q in range(N)],
            "staged": mask_to_cards(st.stg.cards.layer[0]),
            "tricks": [st.tricks[q] for q in range(N)], "ntricks": st.ntricks, "tricks_done": st.ntricks,
            "trick_winners": [st.trick_winner[i] for i in range(st.ntricks)],
            "old": mask_to_cards(old),
            "counts": [count_of(st, q, old) for q in range(N)],
            "up": [mask_to_cards(st.up[q]) for q in range(N)],
            "down": [mask_to_cards(st.down[q]) for q in range(N)],
            "aside": mask_to_cards(st.aside), "shown": mask_to_cards(st.shown),
            "winner": opt(st.winner), "t": st.t, "t_dream": st.t_dream,
            "five_tigers": bool(st.five_tigers), "claimed": bool(st.claimed),
            "win_cards": [mask_to_cards(st.win_cards[q]) for q in range(N)],
            "last": [st.last[q] for q in range(N)], "score": [st.score[q] for q in range(N)],
            "round_no": st.round_no, "voids": st.voids,
        }

    def _render(self, State s):
        v = self.view(s)
        N = self.c.nplayers
        lines = [f"Six Tigers  {N} players  phase={v['phase']}  dealer={v['dealer']}  dreamer={v['dreamer']}  "
                 f"special={v['special']}  tricks={v['tricks']}  points={v['score']}"]
        for p in range(N):
            mark = "*" if v["turn"] == p else " "
            role = "dreamer" if p == v["dreamer"] else f"count {v['counts'][p]}"
            old = set(v["old"])
            cards = " ".join(c + ("*" if c in old else "") for c in self.hand_strings(s, p))
            lines.append(f"{mark}{p} ({role}): {cards}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(
                f"{p}:{'(down x%d)' % v['k'] if v['trick_down'][p] else '-'.join(v['trick'][p])}"
                for p in range(N) if v["trick"][p]))
        if v["phase"] == "end":
            lines.append(f"winner {v['winner']} t={v['t']} dreamer t={v['t_dream']} payments {v['last']}")
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, dealer=0, declarer=None, played=None, tricks=None, leader=None):
        """A round with these hands (card strings per seat; with 4 players the dreamer, seat
        opposite the dealer, holds 1 card and the active players equally many, 1..12).
        `played[q]`: cards seat q already played face up (public, in no particular trick);
        every one of the 37 cards must be in a hand or played (3 players: one card may be left
        over, it goes aside). `tricks[q]`: tricks already credited. With declarer=None the
        state is in DECLARE (the dealer first); with a seat (or -1: everybody passed) the
        declaration is over: §4.1 rotation, the special player, Five Tigers, then the claim
        window and the lead of `leader` (default the dealer). Not replayable. Raises
        ConfigError / ParseError before building.

        Positions no real deal reaches are refused where they could break the round (X18):
        before the declaration (declarer=None) nothing has been played, so `played`, `tricks`
        and `leader` must be absent (the hands are then the whole deal, 12 cards each); the
        dreamer has no tricks; with n cards in each active hand every active player has played
        12 - n cards, and a trick credits as many tricks as cards each player played, so the
        active players' tricks sum to at most 12 - n (a count, tricks + old cards held, then
        never exceeds 12, the top of the point table); a leader needs a declarer."""
        cdef State s
        cdef STState* st
        N = self.c.nplayers
        d = check_int(dealer, "six_tigers: dealer", 0, N - 1, ConfigError)
        masks, allm = disjoint_hands("six_tigers", hands, N, cards_to_mask)
        dreamer = (d + 2) % N if N == 4 else -1
        sizes = {len(hands[q]) for q in range(N) if q != dreamer}
        if len(sizes) != 1 or not 1 <= sizes.pop() <= 12:
            raise ConfigError("six_tigers: the active players hold equally many cards, 1 to 12")
        if dreamer >= 0 and len(hands[dreamer]) != 1:
            raise ConfigError(f"six_tigers: the dreamer (seat {dreamer}, opposite the dealer) holds exactly 1 card")
        pl = [0] * 4
        if played is not None:
            pl, allm = disjoint_hands("six_tigers", played, N, cards_to_mask, what="played list",
                                      taken=allm)
            if dreamer >= 0 and pl[dreamer]:
                raise ConfigError("six_tigers: the dreamer never plays")
            pl = pl + [0] * (4 - N)
        rest = ((1 << 37) - 1) & ~allm
        if bin(rest).count("1") > (1 if N == 3 else 0):
            raise ConfigError(f"six_tigers: every card must be held or played; missing {mask_to_cards(rest)}")
        n = len(hands[d])
        tr = [0] * 4
        if tricks is not None:
            if isinstance(tricks, (str, bytes)) or not isinstance(tricks, (list, tuple)) or len(tricks) != N:
                raise ConfigError(f"six_tigers: tricks must list {N} ints, got {_short(tricks)}")
            for q in range(N):
                tr[q] = check_int(tricks[q], f"six_tigers: tricks[{q}]", 0, 12 - n, ConfigError)
            if dreamer >= 0 and tr[dreamer]:
                raise ConfigError(f"six_tigers: the dreamer (seat {dreamer}) never plays, so has no tricks")
            if sum(tr) > 12 - n:
                raise ConfigError(f"six_tigers: with {n} cards in each active hand, each active player has played "
                                  f"{12 - n} cards, so at most {12 - n} tricks were credited in all; got {tr[:N]}")
        if declarer is not None:
            declarer = check_int(declarer, "six_tigers: declarer", -1, N - 1, ConfigError)
            if declarer == dreamer and declarer >= 0:
                raise ConfigError("six_tigers: the dreamer takes no part in the declaration")
        if leader is not None:
            leader = check_int(leader, "six_tigers: leader", 0, N - 1, ConfigError)
            if leader == dreamer:
                raise ConfigError("six_tigers: the dreamer never leads")
        if declarer is None and (any(pl) or any(tr) or leader is not None):
            raise ConfigError("six_tigers: with declarer=None the round is before the declaration, where nothing "
                              "has been played: give no played cards, tricks or leader (or give a declarer)")
        if leader is not None and (declarer is None or declarer < 0):
            raise ConfigError("six_tigers: a leader needs a declarer (a seat who declared; -1 means everybody "
                              "passed and the round is redealt)")
        s = self._scenario_state()
        st = <STState*>self._data(s)
        st.dealer = d
        st.round_no = 0
        st.voids = 0
        st.redeals = 0
        deal_round(st, &self.c)
        for q in range(4):
            st.hand[q] = masks[q] if q < N else 0
            st.up[q] = pl[q]
            st.tricks[q] = tr[q]
            st.reach6[q] = -2 if tr[q] >= 6 else -1
        st.aside = rest
        if declarer is not None:
            st.declarer = declarer
            if declarer < 0:
                st.decl_pos = 3
            end_declare(st, &self.c)
            if leader is not None and st.phase != ST_PH_END and st.declarer >= 0:
                trick_reset(&st.trick)
                open_window(st, &self.c, leader)
        return s
