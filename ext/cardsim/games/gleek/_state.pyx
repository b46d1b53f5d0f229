"""Gleek's state machine (docs/rules/gleek.md §3-§7): the deal, the auction for the stock, the
exchange, vying the ruff, declarations, trick play (the trick in a core TrickRecord) and the
settlement. The game's overview (decisions followed, action space, returns, greedy agent) is the
docstring of the face, `cardsim.games.gleek`; the pure rules are in `_rules`.
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t, uint32_t, MAX_ACTION_WORDS
from cardsim.core._types cimport card_t
from cardsim.core._trick cimport trick_start, trick_add_positional, trick_reopen
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, card_bit, bit_below
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._deal cimport cs_identity_pack64, _draw_down, draw_down
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._search cimport SearchWork
from cardsim.core._actions cimport ActionSet, as_add, as_has, as_first, as_nth, as_add_range
from cardsim.games.gleek._rules cimport (
    GLConfig, GL_RANK_ACE, full_pack, suit_mask, rank_cards, card_suit, card_rank, winning_card,
    gl_suit_of,
    legal_follows, hand_sets, honour_sum, ruff_value, sets_value, trick_settlement)


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void setup_deal(GLState* s, const GLConfig* c) noexcept nogil:
    """With hands, turn-up and stock in place: trump, turn-up payment (§3.4) and the auction's
    forced opening bid by eldest (§4.1)."""
    cdef int q, pay = 0, rk
    s.eldest = nxt(s.dealer)
    s.trump = card_suit(s.turnup)
    for q in range(3):
        s.played[q] = 0
        s.won[q] = 0
        s.shown[q] = 0
        s.kept[q] = 0
        s.pass_rank[q] = 0
        s.last_bid[q] = 0
        s.committed[q] = 0
        s.owe[q] = 0
        s.pending[q] = -1
        s.ruff_suit[q] = -1
        s.ruff[q] = -1
        s.sets[q] = 0
        s.declared[q] = 0
        s.tricks[q] = 0
        s.void_suits[q] = 0
        s.score[q] = 0
        for rk in range(4):
            s.set_count[q][rk] = 0
        for rk in range(5):
            s.part[rk][q] = 0
    s.discards = 0
    s.passed = 0
    s.buyer = -1
    s.ndiscard = 0
    s.took = 0
    s.vie_open = 1
    s.open_acted = 0
    s.vied = 0
    s.revies = 0
    s.stake = 0
    s.base = 2 * (1 + s.dead)
    s.folded = 0
    s.checked = 0
    s.npend = 0
    s.showdown = 0
    s.decl_done = 0
    trick_start(&s.cur, s.eldest, 3)
    s.led = -1
    s.led_mask = 0
    s.tricks_done = 0
    s.total = 0
    rk = card_rank(s.turnup)
    if rk == 0:
        pay = c.tiddy_pay
    elif c.towser_tumbler and rk == 1:
        pay = 5
    elif c.towser_tumbler and rk == 2:
        pay = 6
    if pay:
        for q in range(3):
            if q != s.dealer:
                s.part[0][q] -= pay
                s.part[0][s.dealer] += pay
    s.high = c.opening_bid
    s.high_bidder = s.eldest
    s.last_bid[s.eldest] = c.opening_bid
    s.phase = GL_PH_AUCTION
    s.turn = nxt(s.eldest)

cdef void deal_cards(GLState* s, const GLConfig* c) noexcept nogil:
    """Shuffle (the core Fisher-Yates on the deal stream) and deal 3 rounds of packets of 4 from eldest
    (§3): position i of the pack goes to seat eldest + (i / 4) mod 3; position 36 is the turn-up,
    37..43 the stock. Dealt as drawn (core/_deal's draw_down: shuffled_pack + deal_round_robin,
    the same draws in the same order, i from 43 down to 1), each card going where its final
    position sends it as soon as the shuffle fixes it (packets 8, 7, 6 = offsets 2, 1, 0 from
    eldest, and so on down)."""
    cdef card_t a[44]
    cdef Rng r = s.rng                # local copy of the stream (see core shuffle)
    cdef uint64_t st = 0, g0 = 0, g1 = 0, g2 = 0
    cdef int i, k, e
    memcpy(a, cs_identity_pack64, 44)  # a fresh pack
    for i in range(43, 36, -1):
        st |= card_bit(_draw_down(a, i, &r))
    s.turnup = _draw_down(a, 36, &r)
    i = 35
    while True:
        for k in range(4):
            g2 |= card_bit(_draw_down(a, i - k, &r))
        for k in range(4):
            g1 |= card_bit(_draw_down(a, i - 4 - k, &r))
        i -= 8
        if i == 3:
            break
        for k in range(4):
            g0 |= card_bit(_draw_down(a, i - k, &r))
        i -= 4
    for k in range(3, 0, -1):         # positions 3, 2, 1; position 0 takes no draw
        g0 |= card_bit(_draw_down(a, k, &r))
    g0 |= card_bit(draw_down(a, 0, &r))
    s.rng = r
    e = nxt(s.dealer)
    s.hand[e] = g0
    s.hand[nxt(e)] = g1
    s.hand[nxt(nxt(e))] = g2
    s.stock = st
    setup_deal(s, c)

cdef void gl_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef GLState* s = <GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef int q
    memset(s, 0, sizeof(GLState))
    s.rng = rng[0]
    s.dealer = <int8_t>rng_below(&s.rng, 3)      # first dealer: random (§1)
    for q in range(3):
        s.chips[q] = c.starting_chips
    s.dead = 0
    s.deal_no = 0
    deal_cards(s, c)

cdef int gl_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    return -1 if s.phase == GL_PH_END else s.turn

cdef bint gl_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const GLState*>st).phase == GL_PH_END

cdef inline void clear_words(const GLConfig* c, ActionSet* out) noexcept nogil:
    cdef int i
    out.w[0] = 0
    out.w[1] = 0
    for i in range(2, c.nw):
        out.w[i] = 0

cdef int gl_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions per phase: the play's here when the action space has two words (the
    default: no loop to clear the rest), everything else in phase_legal."""
    cdef const GLState* s = <const GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef uint64_t m
    if s.phase == GL_PH_PLAY and c.nw == 2:
        m = play_legal(s)
        out.w[0] = m
        out.w[1] = 0
        return cs_popcount(m)
    return cold_phase_legal(s, c, out)

cdef inline uint64_t play_legal(const GLState* s) noexcept nogil:
    """The follow-suit rule: legal_follows on the kept led-suit mask (the led suit's cards if
    any, else the whole hand; on lead the mask is 0: the whole hand)."""
    cdef uint64_t h = s.hand[s.turn]
    cdef uint64_t m = h & s.led_mask
    return m if m else h

cdef int play_legal_wide(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """The play's legal set in an action space of more than two words (a high MAX_STOCK_BID)."""
    clear_words(c, out)
    out.w[0] = play_legal(s)
    return cs_popcount(out.w[0])

cdef int phase_legal(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """Legal actions of any phase, any action-space size: each phase in its own function
    (PHASE_LEGAL); a corrupt struct (restored bytes with no valid phase) plays nothing."""
    return PHASE_LEGAL[s.phase if 0 <= s.phase <= GL_PH_END else GL_PH_END](s, c, out)

cdef int auction_legal(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """PASS, BID n for high < n <= MAX_STOCK_BID (or exactly high + 1)."""
    cdef int lo, hi
    clear_words(c, out)
    as_add(out, GL_PASS)
    if c.raise_one:
        if s.high + 1 <= c.max_bid:
            as_add(out, GL_BID0 + s.high + 1)
            return 2
        return 1
    if s.high < c.max_bid:
        lo = GL_BID0 + s.high + 1
        hi = GL_BID0 + c.max_bid + 1
        if hi <= 128:                   # the bids within two words (the default): no word loop
            if lo < 64:
                out.w[0] |= bit_below(64 if hi > 64 else hi) & ~bit_below(lo)
            if hi > 64:
                out.w[1] |= bit_below(hi - 64) & ~bit_below(lo - 64 if lo > 64 else 0)
        else:
            cold_add_range(out, lo, hi)
        return 1 + c.max_bid - s.high
    return 1

cdef void add_range(ActionSet* out, int lo, int hi) noexcept nogil:
    as_add_range(out, lo, hi)
# an action space of more than two words (a high MAX_STOCK_BID): the word loop, behind a pointer
# so that auction_legal's common case saves no registers for it
ctypedef void (*range_fn)(ActionSet* out, int lo, int hi) noexcept nogil
cdef range_fn cold_add_range = add_range

cdef int exchange_legal(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """Discard any card in hand."""
    clear_words(c, out)
    out.w[0] = s.hand[s.turn]
    return cs_popcount(s.hand[s.turn])

cdef int vie_legal(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """Open round: VIE, PASS (check); respond: SEE, PASS (fold), REVIE while revies < MAX_REVIES."""
    clear_words(c, out)
    as_add(out, GL_PASS)
    if s.vie_open:
        as_add(out, GL_VIE)
        return 2
    as_add(out, GL_SEE)
    if s.revies < c.max_revies:
        as_add(out, GL_REVIE)
        return 3
    return 2

cdef int declare_legal(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """DECLARE r per undeclared set, DONE."""
    cdef int n = 1, r
    cdef uint64_t m
    clear_words(c, out)
    as_add(out, GL_DONE)
    m = s.sets[s.turn] & ~s.declared[s.turn]
    for r in range(4):
        if (m >> r) & 1:
            as_add(out, GL_DECLARE0 + r)
            n += 1
    return n

cdef int end_legal(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil:
    """Nothing once the deal (or the match) is over."""
    clear_words(c, out)
    return 0

cdef void end_auction(GLState* s, const GLConfig* c, int last_passer) noexcept nogil:
    """Stock payment (§4.1): the buyer pays floor(high/2) to each other player, the odd chip to
    the last passer (or to eldest, option; to the last passer if eldest bought), or the full bid
    to each (option). Then the exchange starts."""
    cdef int b = 0, q, half, odd
    while (s.passed >> b) & 1:
        b += 1
    s.buyer = b
    if c.pay_full:
        for q in range(3):
            if q != b:
                s.part[1][q] += s.high
                s.part[1][b] -= s.high
    else:
        half = s.high >> 1
        for q in range(3):
            if q != b:
                s.part[1][q] += half
                s.part[1][b] -= half
        if s.high & 1:
            odd = s.eldest if (c.odd_to_eldest and s.eldest != b) else last_passer
            s.part[1][odd] += 1
            s.part[1][b] -= 1
    s.phase = GL_PH_EXCHANGE
    s.turn = b
    if c.take_first:
        s.hand[b] |= s.stock
        s.stock = 0
        s.took = 1

cdef void apply_auction(GLState* s, const GLConfig* c, int a) noexcept nogil:
    cdef int p = s.turn, np
    if a == GL_PASS:
        s.passed |= 1 << p
        np = cs_popcount(s.passed)
        s.pass_rank[p] = np
        if np == 2:
            end_auction(s, c, p)
            return
    else:
        s.high = a - GL_BID0
        s.high_bidder = p
        s.last_bid[p] = s.high
    p = nxt(p)
    while (s.passed >> p) & 1:
        p = nxt(p)
    s.turn = p

cdef void start_vie(GLState* s) noexcept nogil:
    cdef int q
    for q in range(3):
        s.kept[q] = s.hand[q]
    s.phase = GL_PH_VIE
    s.vie_open = 1
    s.open_acted = 0
    s.turn = s.eldest

cdef void apply_exchange(GLState* s, const GLConfig* c, int card) noexcept nogil:
    """Exchange (§4.2): the buyer discards one card face down; after 7 discards he takes the 7
    stock cards (default order: discard first, D3)."""
    cdef int b = s.turn
    s.hand[b] &= ~card_bit(card)
    s.discards |= card_bit(card)
    s.ndiscard += 1
    if s.ndiscard == 7:
        if not s.took:
            s.hand[b] |= s.stock
            s.stock = 0
            s.took = 1
        start_vie(s)

cdef void resolve_ruff(GLState* s, const GLConfig* c) noexcept nogil:
    """Resolution of the ruff (§4.3). Points: a lone survivor takes what each other player owes;
    else a showdown of the survivors' best ruff suits: one winner takes what each other player
    owes, two tied winners split what the third owes, three tied: nothing moves."""
    cdef int q, j, best = -1, nw = 0, suit
    cdef uint8_t act = (~s.folded) & 7, W = 0
    s.dead = 0
    for q in range(3):
        if (act >> q) & 1:
            s.owe[q] = s.committed[q]
    if cs_popcount(act) == 1:
        W = act
        nw = 1
    else:
        s.showdown = 1
        for q in range(3):
            if (act >> q) & 1:
                s.ruff[q] = ruff_value(s.hand[q], &suit)
                s.ruff_suit[q] = suit
                if suit == 4:
                    s.shown[q] |= s.hand[q] & rank_cards(GL_RANK_ACE)
                else:
                    s.shown[q] |= s.hand[q] & suit_mask(suit)
                if s.ruff[q] > best:
                    best = s.ruff[q]
        for q in range(3):
            if (act >> q) & 1 and s.ruff[q] == best:
                W |= 1 << q
                nw += 1
    if nw == 3:
        return
    for j in range(3):
        if (W >> j) & 1:
            continue
        for q in range(3):
            if (W >> q) & 1:
                s.part[2][q] += s.owe[j] // nw
                s.part[2][j] -= s.owe[j] // nw

cdef void settle_gleeks(GLState* s, const GLConfig* c) noexcept nogil:
    """Gleeks and mournivals (§4.4): each player receives V[p] from each opponent, V over the
    declared sets; then trick play starts with eldest's lead."""
    cdef int V[3]
    cdef int q, o
    for q in range(3):
        V[q] = sets_value(c, s.hand[q], s.declared[q])
    for q in range(3):
        for o in range(3):
            if o != q:
                s.part[3][q] += V[q] - V[o]
    s.phase = GL_PH_PLAY
    trick_start(&s.cur, s.eldest, 3)
    s.led = -1
    s.led_mask = 0
    s.turn = s.eldest

cdef void start_declarations(GLState* s, const GLConfig* c) noexcept nogil:
    cdef int q, r, i
    for q in range(3):
        s.sets[q] = hand_sets(s.hand[q], s.set_count[q])
    if not c.optional_decl:
        for q in range(3):
            s.declared[q] = s.sets[q]
            for r in range(4):
                if (s.sets[q] >> r) & 1:
                    s.shown[q] |= s.hand[q] & rank_cards(GL_RANK_ACE - r)
        s.decl_done = 7
        settle_gleeks(s, c)
        return
    q = s.eldest
    for i in range(3):
        if s.sets[q]:
            s.phase = GL_PH_DECLARE
            s.turn = q
            return
        s.decl_done |= 1 << q
        q = nxt(q)
    settle_gleeks(s, c)

cdef void apply_declare(GLState* s, const GLConfig* c, int a) noexcept nogil:
    cdef int p = s.turn, r
    if a != GL_DONE:
        r = a - GL_DECLARE0
        s.declared[p] |= 1 << r
        s.shown[p] |= s.hand[p] & rank_cards(GL_RANK_ACE - r)
        return
    s.decl_done |= 1 << p
    while p != s.dealer:
        p = nxt(p)
        if s.sets[p]:
            s.turn = p
            return
        s.decl_done |= 1 << p
    settle_gleeks(s, c)

cdef void apply_vie(GLState* s, const GLConfig* c, int a) noexcept nogil:
    """Vying the ruff (§4.3): the open round (VIE or check) from eldest, then the respond round
    (SEE, REVIE doubling the stake, PASS = fold) over the pending players."""
    cdef int p = s.turn, i, q
    if s.vie_open:
        if a == GL_VIE:
            s.vied = 1
            s.vie_open = 0
            s.stake = s.base
            s.committed[p] = s.base
            s.pending[0] = nxt(p)
            s.pending[1] = nxt(nxt(p))
            s.npend = 2
            s.turn = s.pending[0]
            return
        s.checked |= 1 << p
        s.open_acted += 1
        if s.open_acted < 3:
            s.turn = nxt(p)
            return
        s.dead += 1                                 # dead ruff: no chips (§4.3)
        start_declarations(s, c)
        return
    # respond round: p == pending[0]
    for i in range(s.npend - 1):
        s.pending[i] = s.pending[i + 1]
    s.npend -= 1
    s.pending[s.npend] = -1
    if a == GL_SEE:
        s.committed[p] = s.stake
    elif a == GL_REVIE:
        s.stake *= 2
        s.committed[p] = s.stake
        s.revies += 1
        s.npend = 0
        q = nxt(p)
        while q != p:
            if not (s.folded >> q) & 1:
                s.pending[s.npend] = q
                s.npend += 1
            q = nxt(q)
        for i in range(s.npend, 3):
            s.pending[i] = -1
    else:
        s.folded |= 1 << p
        s.owe[p] = s.stake if c.fold_pays_stake else s.committed[p]
    if s.npend == 0 or cs_popcount((~s.folded) & 7) == 1:
        s.npend = 0
        for i in range(3):
            s.pending[i] = -1
        resolve_ruff(s, c)
        start_declarations(s, c)
        return
    s.turn = s.pending[0]

cdef void finish_deal(GLState* s, const GLConfig* c) noexcept nogil:
    """Trick settlement (§6.5), chips updated; the match goes on with the next dealer unless
    NUM_DEALS deals are done or someone has chips <= 0 (§7, D12)."""
    cdef int q, k
    cdef int32_t delta[3]
    cdef const uint64_t* hon = &s.played[0]
    if c.honours_won:
        hon = &s.won[0]
    trick_settlement(c, s.tricks, hon, s.turnup, s.dealer, s.discards, s.score, &s.total, delta)
    for q in range(3):
        s.part[4][q] = delta[q]
        for k in range(5):
            s.chips[q] += s.part[k][q]
    s.deal_no += 1
    if c.match and s.deal_no < c.num_deals and s.chips[0] > 0 and s.chips[1] > 0 and s.chips[2] > 0:
        s.dealer = nxt(s.dealer)
        deal_cards(s, c)
    else:
        s.phase = GL_PH_END

cdef inline void apply_play(GLState* s, const GLConfig* c, int card) noexcept nogil:
    """Play one card (§5), for gl_apply: play_steps with the cold steps behind their pointers."""
    play_steps(s, c, card, False)

cdef inline void play_steps(GLState* s, const GLConfig* c, int card, bint direct) noexcept nogil:
    """Play one card (§5): the card leaves the hand into the trick (core positional mode). The
    common cases (following to the led suit, trick not complete; a lead: the led suit, then the
    next seat) are done here; a card off the led suit and the trick's third card go on in the
    cold steps below. `direct` (a constant at each call site, folded once inlined): call them
    directly, as the batch loop does (it saves its registers once per deal, not per card:
    measured 2026-12-03 at 40 fewer instructions per random deal than through the pointers),
    rather than through their pointers, as gl_apply does (a leaf that saves no registers)."""
    cdef int p = s.turn
    cdef int n = s.cur.n
    cdef uint64_t b = card_bit(card)
    s.hand[p] &= ~b
    s.played[p] |= b
    trick_add_positional(&s.cur, p, card)      # core positional mode (see GLState.cur)
    if n == 0:
        s.led = gl_suit_of[card]
        s.led_mask = suit_mask(s.led)
        s.turn = nxt(p)
    elif not (b & s.led_mask):
        if direct:
            off_suit(s, c, card)
        else:
            cold_off_suit(s, c, card)
    elif n == 2:
        if direct:
            close_trick(s, c, card)
        else:
            cold_close_trick(s, c, card)
    else:
        s.turn = nxt(p)

cdef void off_suit(GLState* s, const GLConfig* c, int card) noexcept nogil:
    """A follower's card off the led suit (already in the trick): he is void in it; then the
    next seat, or the trick is complete."""
    s.void_suits[s.turn] |= 1 << s.led
    if s.cur.n == 3:
        close_trick(s, c, card)
    else:
        s.turn = nxt(s.turn)

cdef void close_trick(GLState* s, const GLConfig* c, int card) noexcept nogil:
    """The third card closes the trick: the winner (winning_card on the trick's mask) takes it
    and leads the next."""
    cdef uint64_t tm = card_bit(s.cur.card[0]) | card_bit(s.cur.card[1]) | card_bit(s.cur.card[2])
    cdef int top = winning_card(tm, s.led, s.trump)
    cdef int w = 0 if s.cur.card[0] == top else (1 if s.cur.card[1] == top else 2)
    trick_reopen(&s.cur, w)                    # the next trick, led by the winner
    s.won[w] |= tm
    s.tricks[w] += 1
    s.tricks_done += 1
    s.led = -1
    s.led_mask = 0
    s.turn = w
    if s.tricks_done == 12:
        finish_deal(s, c)

cdef void apply_end(GLState* s, const GLConfig* c, int a) noexcept nogil:
    """No action once the deal (or the match) is over."""
    pass

# Per-phase dispatch: the play's card path is gl_legal's / gl_apply's own code; every other step
# (a card off the led suit, closing a trick, the phases before the play) is a function
# called through these pointers, on purpose: the C compiler cannot inline a call through a
# pointer, so the card paths stay leaf functions that save no registers, and each cold step
# pays only for its own registers (inlined together, their needs gave every card a prologue and
# an epilogue; the lead's three stores are written out in play_steps: measured cheaper than its
# call). The batch loop calls the two card steps directly (play_steps). Filled once at import,
# never changed.
ctypedef void (*step_fn)(GLState* s, const GLConfig* c, int a) noexcept nogil
ctypedef int (*legal_step_fn)(const GLState* s, const GLConfig* c, ActionSet* out) noexcept nogil
cdef step_fn cold_off_suit = off_suit
cdef step_fn cold_close_trick = close_trick
cdef legal_step_fn cold_phase_legal = phase_legal
cdef step_fn PHASE_APPLY[6]          # by GL_PH_*; the play's entries are never called
cdef legal_step_fn PHASE_LEGAL[6]
PHASE_APPLY[GL_PH_AUCTION] = apply_auction
PHASE_APPLY[GL_PH_EXCHANGE] = apply_exchange
PHASE_APPLY[GL_PH_VIE] = apply_vie
PHASE_APPLY[GL_PH_DECLARE] = apply_declare
PHASE_APPLY[GL_PH_PLAY] = apply_end
PHASE_APPLY[GL_PH_END] = apply_end
PHASE_LEGAL[GL_PH_AUCTION] = auction_legal
PHASE_LEGAL[GL_PH_EXCHANGE] = exchange_legal
PHASE_LEGAL[GL_PH_VIE] = vie_legal
PHASE_LEGAL[GL_PH_DECLARE] = declare_legal
PHASE_LEGAL[GL_PH_PLAY] = play_legal_wide
PHASE_LEGAL[GL_PH_END] = end_legal

cdef void gl_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef GLState* s = <GLState*>st
    if s.phase == GL_PH_PLAY:
        apply_play(s, <const GLConfig*>cfg, a)
    elif 0 <= s.phase <= GL_PH_END:
        PHASE_APPLY[s.phase](s, <const GLConfig*>cfg, a)

# ---- the batch kernel's hot loop compiled here (core/_play_loop.pxi): gl_legal,
# gl_current_player and gl_apply are in this module, so the C compiler can inline them into the
# loop (through the vtable it cannot); the spec puts the loop in vt.play
cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """gl_legal for the loop: a play's set is w[0] alone, and the loop's pick (as_first, as_nth
    with fewer than popcount(w[0]) skipped) never reads past a word holding every legal action,
    so the other words are not cleared for a card, whatever the action space's size (gl_legal,
    the State API's, clears them); the greedy agent's play reads w[0] only."""
    cdef const GLState* s = <const GLState*>st
    cdef uint64_t m
    if s.phase == GL_PH_PLAY:
        m = play_legal(s)
        out.w[0] = m
        return cs_popcount(m)
    # the phases a deal always passes through, called directly (the small ones inline into the
    # loop: measured 2026-12-03 at 59 fewer instructions per random deal, 42 per greedy one,
    # than through PHASE_LEGAL / PHASE_APPLY); the declarations and the end through the tables
    if s.phase == GL_PH_AUCTION:
        return auction_legal(s, <const GLConfig*>cfg, out)
    if s.phase == GL_PH_EXCHANGE:
        return exchange_legal(s, <const GLConfig*>cfg, out)
    if s.phase == GL_PH_VIE:
        return vie_legal(s, <const GLConfig*>cfg, out)
    return PHASE_LEGAL[s.phase](s, <const GLConfig*>cfg, out)   # play_one's own state: a valid phase

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return (<const GLState*>st).turn             # asked only with two or more legal actions: never at the end

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    cdef GLState* s = <GLState*>st
    if s.phase == GL_PH_PLAY:
        play_steps(s, <const GLConfig*>cfg, a, True)   # the cold steps called directly (see play_steps)
    elif s.phase == GL_PH_AUCTION:                       # as in _pl_legal
        apply_auction(s, <const GLConfig*>cfg, a)
    elif s.phase == GL_PH_EXCHANGE:
        apply_exchange(s, <const GLConfig*>cfg, a)
    elif s.phase == GL_PH_VIE:
        apply_vie(s, <const GLConfig*>cfg, a)
    else:
        PHASE_APPLY[s.phase](s, <const GLConfig*>cfg, a)  # play_one's own state: a valid phase

cdef inline int _pl_words(int nw) noexcept nogil:
    return MAX_ACTION_WORDS                  # >= nw (the bids' count is an option): the pick stops
                                             # inside the legal set's words, so a constant does

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return (<const GLState*>st).phase == GL_PH_PLAY   # a card's set is w[0] (_pl_legal)

# ---- the fused random play (core/_play_loop.pxi's _pl_segment, _pl_play_segment) -----------------
from cardsim.core._fused cimport fused_pick

cdef inline bint _pl_fused_ok(const void* cfg, const int* agents) noexcept nogil:
    """The fused play may run: a random agent at each of the three seats."""
    return agents[0] == AGENT_RANDOM and agents[1] == AGENT_RANDOM and agents[2] == AGENT_RANDOM

cdef inline long fused_tricks(GLState* s, const GLConfig* c, Rng* ar, long* dec, long* ls) noexcept nogil:
    """The play phase's remaining tricks, from a trick's start (s.cur.n == 0, s.tricks_done <
    12), as the loop's steps play them (_pl_legal's play_legal, the pick, play_steps with its
    direct cold steps off_suit and close_trick), with the hands, the seats' masks and counters
    in locals, written back after the last trick; then finish_deal, as close_trick calls it.
    Adds its decisions and legal counts to *dec, *ls; returns its actions (3 per trick)."""
    cdef uint64_t hand[3]                       # whole arrays, a constant size
    cdef uint64_t played[3]
    cdef uint64_t won[3]
    cdef uint8_t void_suits[3]
    cdef int8_t tricks[3]
    cdef int8_t card[3]                         # each seat's card in the trick (close_trick's cur.card)
    cdef int t0 = s.tricks_done, t, q, j, cd, p
    cdef int trump = s.trump
    cdef int lead = s.turn, led, top, w
    cdef uint64_t h, m, b, led_mask, tm
    for q in range(3):
        hand[q] = s.hand[q]
        played[q] = s.played[q]
        won[q] = s.won[q]
        void_suits[q] = s.void_suits[q]
        tricks[q] = s.tricks[q]
    for t in range(t0, 12):
        # the lead: play_legal (led_mask is 0 on lead: the whole hand); play_steps' n == 0 case
        h = hand[lead]
        cd = fused_pick(h, &ar[lead], dec, ls)
        card[lead] = <int8_t>cd
        b = card_bit(cd)
        hand[lead] = h & ~b
        played[lead] |= b
        led = gl_suit_of[cd]
        led_mask = suit_mask(led)
        tm = b
        p = lead
        for j in range(2):                      # the followers: play_legal; play_steps, off_suit
            p = nxt(p)
            h = hand[p]
            m = h & led_mask
            cd = fused_pick(m if m else h, &ar[p], dec, ls)
            card[p] = <int8_t>cd
            b = card_bit(cd)
            hand[p] = h & ~b
            played[p] |= b
            if not (b & led_mask):
                void_suits[p] |= 1 << led
            tm |= b
        # close_trick: the winner (winning_card on the trick's mask) takes it and leads the next
        top = winning_card(tm, led, trump)
        w = 0 if card[0] == top else (1 if card[1] == top else 2)
        won[w] |= tm
        tricks[w] += 1
        lead = w
    for q in range(3):
        s.hand[q] = hand[q]
        s.played[q] = played[q]
        s.won[q] = won[q]
        s.void_suits[q] = void_suits[q]
        s.tricks[q] = tricks[q]
    # close_trick's record and fields after the last trick: trick_reopen resets all that the
    # positional plays (trick_add_positional: n and card[]) and the earlier reopens changed
    trick_reopen(&s.cur, lead)
    s.tricks_done = 12
    s.led = -1
    s.led_mask = 0
    s.turn = <int8_t>lead
    finish_deal(s, c)
    return 3 * (12 - t0)

cdef inline long _pl_segment(const void* st, const void* cfg) noexcept nogil:
    """A deal's play from a trick's start: three cards a trick left."""
    cdef const GLState* s = <const GLState*>st
    if s.phase == GL_PH_PLAY and s.cur.n == 0 and s.tricks_done < 12:
        return 3 * (12 - s.tricks_done)
    return 0

cdef inline long _pl_play_segment(void* st, const void* cfg, Rng* ar, long* dec, long* ls) noexcept nogil:
    return fused_tricks(<GLState*>st, <const GLConfig*>cfg, ar, dec, ls)

include "cardsim/core/_play_loop_fused.pxi"      # _pl_fused_play on the hooks above
include "cardsim/core/_play_loop.pxi"

cdef void gl_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef int q, k, v
    for q in range(3):
        if c.match:
            out[q] = s.chips[q] - c.starting_chips
        else:
            v = 0
            for k in range(5):
                v += s.part[k][q]
            out[q] = v

cdef void gl_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    out[0] = s.dealer
    out[1] = s.buyer
    out[2] = s.high if s.buyer >= 0 else -1
    out[3] = s.vied
    out[4] = s.stake
    out[5] = s.showdown
    out[6] = s.trump
    out[7] = honour_sum(c, s.discards, s.trump) if s.phase == GL_PH_END else 0
    out[8] = s.total
    out[9] = s.deal_no
