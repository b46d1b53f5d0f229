"""Hakka Six Tigers 客家六虎牌 (Luk Fu): four seats, a 37-card pack (SHI > GUAN > SUO > XIAN of 1-9
plus CLOUD), a dreamer who holds one card and never plays, a declaration with a special player,
single / run / set leads beaten by stronger patterns of the same shape or discarded face down,
"old" cards that change as cards are played, Five Tigers, victory claims at a count of six and a
doubling point table.

Rules as implemented, every option and decision: docs/rules/six_tigers.md. This module is the
state machine; the pure rules (patterns, old cards, beating, trick winner, payments) are in
`_rules`, the greedy agent in `_agent`, observation and resample in `_observe`, the engine glue
in `_spec`. Core mechanisms used: deal_down / draw_down (the deal as drawn), TrickRecord,
staged moves. Decisions X1-X15 of the rules spec are followed as written. Where the spec
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

Observation: the named blocks of `cardsim.games.six_tigers.INFO.observation` (docs/observations.md);
their offsets are generated into `_layout.pxd` and written by `_observe`.

Greedy agent: see `_agent`.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport card_t, int8_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, bit_below, card_bit
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._deal cimport cs_identity_pack64, deal_down, draw_down
from cardsim.core._actions cimport ActionSet, as_add, as_add_mask
from cardsim.core._trick cimport trick_start, trick_add_seat, trick_done, trick_reset, trick_close, trick_index_of
from cardsim.core._staged cimport Staged, staged_clear, staged_start, staged_add, staged_legal_adds, staged_active
from cardsim.games.six_tigers._rules cimport (
    STConfig, ST_MAX_PLAYS, PT_NONE, PT_SINGLE, st_tigers, above, st_pattern, st_single_leads,
    st_lead_starts, st_multi_starts, st_single_beats, st_enum_beats, st_enum_beats_with, st_dream_matches,
    st_sung_points, st_payments)


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
cdef inline int nxt(const STConfig* c, int i) noexcept nogil:
    """The next seat in the direction of play (X2: clockwise = i + 1)."""
    if c.ccw:
        return (i if i > 0 else c.nplayers) - 1
    i += 1
    return 0 if i == c.nplayers else i

cdef inline uint64_t drop_top(uint64_t m, int n) noexcept nogil:
    """m without its n highest cards."""
    while n > 0 and m:
        m &= ~card_bit(bit_high(m))
        n -= 1
    return m


# ---------------------------------------------------------------------------------------------
# deal, declaration, claims, scoring
# ---------------------------------------------------------------------------------------------
cdef void deal_round(STState* s, const STConfig* c) noexcept nogil:
    """Shuffle and deal (§3): one card each to the 4 seats from the dealer (the dreamer
    included), then one at a time to the active players only until each holds 12; with 3
    players 12 each and the 37th card aside. Resets the round and opens DECLARE (§4.1)."""
    cdef int D = s.dealer, q
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
        shuffle_deal(s, 4)
    else:
        s.dreamer = -1
        s.order[0] = D
        s.order[1] = nxt(c, D)
        s.order[2] = nxt(c, s.order[1])
        shuffle_deal(s, 3)
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

cdef inline void shuffle_deal(STState* s, int nplayers) noexcept nogil:
    """The deal of a fresh pack as drawn (core deal_down / draw_down): the same draws and the
    same hands as shuffled_pack(perm, 37) and then, with 4 players, pack position 0 to the
    dealer order[0], 1 to order[1], 2 to the dreamer, 3 to order[2] (one card each to the four
    seats) and position i >= 4 to order[(i - 4) % 3]; with 3 players position i < 36 to
    order[i % 3] and the 37th card aside. The shuffle fixes positions from the last down: a
    run of three seats over 36..4 (or 35..0), single draws for the rest. The active hands (and
    the dreamer's or the aside card) are overwritten; nplayers is a constant at each call, so
    each form is specialised."""
    cdef card_t a[37]
    cdef Rng r = s.rng                 # local copy of the stream (see the core shuffle)
    cdef uint64_t h[3]                 # order[2], order[1], order[0] (positions 36, 35, 34, ...)
    h[0] = 0; h[1] = 0; h[2] = 0
    memcpy(a, cs_identity_pack64, 37)
    if nplayers == 4:
        deal_down(h, a, 36, 4, 3, &r)
        h[0] |= card_bit(draw_down(a, 3, &r))           # positions 3..0: order[2], the
        s.hand[s.dreamer] = card_bit(draw_down(a, 2, &r))   # dreamer, order[1], order[0]
        h[1] |= card_bit(draw_down(a, 1, &r))
        h[2] |= card_bit(draw_down(a, 0, &r))
    else:
        s.aside = card_bit(draw_down(a, 36, &r))
        deal_down(h, a, 35, 0, 3, &r)      # position 35 to order[2], 34 to order[1], ...
    s.hand[s.order[2]] = h[0]
    s.hand[s.order[1]] = h[1]
    s.hand[s.order[0]] = h[2]
    s.rng = r

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
    cdef int q
    while s.claim_pos < 3:
        q = s.claim_order[s.claim_pos]
        if c.auto_claim:
            if count_of(s, q, old_now(s, c)) >= 6:
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

cdef inline uint64_t list_adds(const uint64_t* buf, int n, uint64_t P, bint* whole) noexcept nogil:
    """The staged adds of `completable` at once: for every whole play L of the list holding the
    staged cards P, the lowest card of L beyond P (the only card that can come next, plays
    being built in ascending order); the caller keeps those above P's highest card, exactly
    the candidates completable accepts. *whole = P itself is in the list."""
    cdef uint64_t adds = 0, L
    cdef int i
    whole[0] = False
    for i in range(n):
        L = buf[i]
        if (L & P) == P:
            L &= ~P
            if L:
                adds |= L & (~L + 1)
            else:
                whole[0] = True
    return adds

cdef inline bint in_list(const uint64_t* buf, int n, uint64_t m) noexcept nogil:
    cdef int i
    for i in range(n):
        if buf[i] == m:
            return True
    return False

cdef int st_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _st_legal_impl(st, cfg, out)

cdef inline int _st_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions. DECLARE: DECLARE/PASS. Claim window: CONTINUE, and CLAIM with count >= 6.
    Lead (§5.1-§5.2): adds completing some legal lead, COMMIT once the play is a legal lead.
    Follow: face-up adds completing some beat (§5.3); face-down adds for a discard of k cards
    when no beat is held or must_beat is off (X7). Inline for the loop: the common cases (the
    declaration, claims, a lead's first card, the follow of a single); the staged plays of
    several cards, which need the list of whole plays, in legal_staged."""
    cdef const STState* s = <const STState*>st
    cdef const STConfig* c = <const STConfig*>cfg
    cdef uint64_t hand, cand, P
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
    if s.trick.n == 0 and s.stg.cards.layer[0] == 0:
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
    if s.stg.kind == ST_STAGE_DISCARD:            # legal_staged of a discard under way
        P = s.stg.cards.layer[0]
        cand = drop_top(hand & ~P & above(bit_high(P)), s.k - s.stg.n - 1)
        as_add_mask(out, ST_A_DISCARD, cand)
        return cs_popcount(cand)
    return legal_staged(s, c, out)

cdef int legal_staged(const STState* s, const STConfig* c, ActionSet* out) noexcept nogil:
    """_st_legal_impl of a lead with staged cards or a follow of several cards (out cleared)."""
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef uint64_t hand, P, cand, m
    cdef int n, p, nb
    cdef bint whole
    p = s.turn
    hand = s.hand[p]
    P = s.stg.cards.layer[0]
    cand = hand & ~P
    if P:
        cand &= above(bit_high(P))
    if s.trick.n == 0:
        n = lead_list_with(s, c, P, buf)          # completable and in_list ask for supersets of P
        cand &= list_adds(buf, n, P, &whole)
        as_add_mask(out, ST_A_PLAY, cand)
        n = cs_popcount(cand)
        if whole:                                 # P itself is a legal lead (in_list)
            as_add(out, ST_A_COMMIT)
            n += 1
        return n
    n = 0
    if s.stg.kind != ST_STAGE_DISCARD:
        nb = st_enum_beats_with(hand, &s.high, &c.rules, P, buf)   # nb is read only with P empty
        m = cand & list_adds(buf, nb, P, &whole)
        as_add_mask(out, ST_A_PLAY, m)
        n = cs_popcount(m)
        if s.stg.kind == ST_STAGE_BEAT or (nb > 0 and c.must_beat):
            return n
    cand = drop_top(cand, s.k - s.stg.n - 1)
    as_add_mask(out, ST_A_DISCARD, cand)
    return n + cs_popcount(cand)

cdef inline void commit_play(STState* s, const STConfig* c, bint face_down) noexcept nogil:
    """The staged play of the seat to act leaves its hand for the trick (commit_cards)."""
    cdef uint64_t P = s.stg.cards.layer[0]
    staged_clear(&s.stg)
    commit_cards(s, c, P, face_down)

cdef void commit_cards(STState* s, const STConfig* c, uint64_t P, bint face_down) noexcept nogil:
    """The play P of the seat to act (nothing staged) leaves its hand for the trick (face up:
    it is the new current high, or the lead; face down: a discard). Completes the trick after
    three plays: the final high play wins k tricks (§5.1) and a claim window opens (§5.5)."""
    cdef int p = s.turn, i, w
    cdef uint64_t m
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
        if (P & (P - 1)) == 0:                     # st_pattern of one card
            s.high.type = PT_SINGLE
            s.high.size = 1
            s.high.key = <int8_t>bit_low(P)
        else:
            st_pattern(P, &c.rules, &s.high)
        s.high_seat = p
        if s.trick.n == 0:
            s.k = cs_popcount(P)
            s.trick_k[s.ntricks] = s.k
    trick_add_seat(&s.trick, p)
    if not trick_done(&s.trick):
        s.turn = next_active(s, p)
        return
    w = trick_close(&s.trick, trick_index_of(&s.trick, s.high_seat))   # the record now leads w's trick
    s.tricks[w] += s.k
    s.win_cards[w] |= s.cur[w]
    if s.tricks[w] >= 6 and s.reach6[w] == -1:
        s.reach6[w] = s.ntricks
    s.trick_winner[s.ntricks] = w
    s.ntricks += 1
    if s.hand[w] == 0 and not c.claim_last:
        end_without_claim(s, c)
        return
    open_window(s, c, w)        # after the last trick too (X16): then X11 if nobody claims

cdef inline bint lead_extendable(const STState* s, const STConfig* c, uint64_t P, bint* whole) noexcept nogil:
    """Whether the staged lead P can take more cards; *whole = P is a legal lead."""
    if (P & (P - 1)) == 0:
        # one card: a whole lead iff an allowed single; extendable iff it starts a run or set
        whole[0] = (P & st_single_leads(s.hand[s.turn], old_now(s, c), s.turn == s.special)) != 0
        return (P & st_multi_starts(s.hand[s.turn], &c.rules)) != 0
    return lead_extendable_list(s, c, P, whole)

cdef bint lead_extendable_list(const STState* s, const STConfig* c, uint64_t P, bint* whole) noexcept nogil:
    """lead_extendable of several staged cards, from the list of leads holding them."""
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef uint64_t low
    cdef int n, i
    cdef bint ext = False
    n = lead_list_with(s, c, P, buf)              # only supersets of P matter below
    low = bit_below(bit_high(P) + 1)
    whole[0] = False
    for i in range(n):
        if buf[i] == P:
            whole[0] = True
        elif (buf[i] & P) == P and (buf[i] & ~P & low) == 0:
            ext = True
    return ext

cdef void st_apply(void* st, const void* cfg, int a) noexcept nogil:
    _st_apply_impl(st, cfg, a)

cdef inline void _st_apply_impl(void* st, const void* cfg, int a) noexcept nogil:
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
        if not c.auto_claim and s.claim_pos < 3 and may_be_eligible(s, s.claim_order[s.claim_pos]):
            s.turn = s.claim_order[s.claim_pos]    # advance_window's first step: the next asked
        else:
            advance_window(s, c)
    elif a == ST_A_COMMIT:
        commit_play(s, c, False)
    elif a < ST_A_DISCARD:
        if not staged_active(&s.stg):
            # a play's first card: a single lead nothing extends, or the follow of a single,
            # is whole at once (committed without staging it)
            if s.trick.n == 0:
                if not lead_extendable(s, c, card_bit(a), &whole) and whole:
                    commit_cards(s, c, card_bit(a), False)
                    return
                staged_start(&s.stg, ST_STAGE_LEAD, -1)
                staged_add(&s.stg, a)
                return
            if s.k == 1:
                commit_cards(s, c, card_bit(a), False)
                return
            staged_start(&s.stg, ST_STAGE_BEAT, -1)
        staged_add(&s.stg, a)
        if s.stg.kind == ST_STAGE_LEAD:
            if not lead_extendable(s, c, s.stg.cards.layer[0], &whole) and whole:
                commit_play(s, c, False)
        elif s.stg.n == s.k:
            commit_play(s, c, False)
    else:
        if not staged_active(&s.stg):
            if s.k == 1:                           # a one-card discard is whole at once
                commit_cards(s, c, card_bit(a - ST_A_DISCARD), True)
                return
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


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _st_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return st_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _st_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (ST_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
