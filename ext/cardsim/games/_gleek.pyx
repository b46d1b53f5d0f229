"""Gleek (17th-century England, Parlett's reconstruction): 3 players each for himself, a 44-card
pack, buying the stock, vying the ruff, gleeks and mournivals, 12 tricks with trump honours, all
settled in chips.

Implements shared/rules/gleek.md §1-§8 (every option of §8) and follows its decisions D1-D13 as
written: honours A15 J9 K3 Q3 (D1); action-space caps MAX_STOCK_BID / MAX_REVIES (D2); discard 7,
then take the stock (D3, option); base stake 2 x (1 + dead ruffs) (D4); a pass before any vie is a
check, a folder forfeits what he committed (D5, option); gleek/mournival table A 4/8 K 3/6 Q 2/4
J 1/2 (D6, an option table); reveal tie-break by suit order S H D C (D7); the turn-up never
counts for ruffs or gleeks (D8); declarations automatic (D9, option); avg = T/3 (D10); match
defaults 6 deals and 200 chips (D11); the game-end test after full settlement (D12); the odd chip
to the second passer (D13).

Where the spec is silent: with STOCK_ODD_CHIP="eldest" and eldest as buyer, the odd chip goes to
the last passer; with FOLD_PAYS="stake" a folder owes the stake current when he folds; honour
values must be multiples of 3 so that avg = T/3 stays an integer; a buyer's discards stay hidden
until the end of the deal; with optional declarations each player, in turn from eldest, declares
any of his sets (one action each) then says DONE (players without a set are skipped).

Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10', 7 = J, 8 = Q,
9 = K, 10 = A. Actions: 0..43 that card (discard it in the exchange, play it in trick play);
44 PASS (auction pass, open-round check, respond-round fold); 45 VIE; 46 SEE; 47 REVIE;
48..51 DECLARE A/K/Q/J (optional declarations); 52 DONE; 53 + n = BID n (n <= MAX_STOCK_BID).

Returns: per seat, the chips won (+) or lost (-) in the deal (scope "deal") or over the match
(scope "match": balance minus starting chips). Zero-sum. The deal's chips by step (turn-up,
stock, ruff, gleeks, tricks) are in `view()["parts"]`.

Observation (float32, length obs_size), blocks in order: own hand (44); own discards if buyer (44);
turn-up (44); cards played by seat 0..2 (3x44); current trick by seat (3x44); cards shown by seat
(declared sets, ruff showdown) (3x44); phase (6); seat to act (3); dealer (3); observer (3);
auction: high/100 (1), high bidder (3), pass order per seat one-hot none/first/second (3x3), last
bid per seat /100 (3), buyer (3), discards made /7 (1), stock taken (1); vie: open round (1),
open-round actions /3 (1), vied (1), revies /4 (1), stake /100 (1), base /100 (1), committed per
seat /100 (3), owe per seat /100 (3), folded (3), checked (3), pending list position x seat (3x3),
showdown (1), revealed suit per seat (3x5, fifth = four Aces), revealed ruff /100 (3); dead ruffs
/10 (1); declared sets per seat and rank (3x4), their size /4 (3x4), done declaring (3); tricks per
seat /12 (3), tricks done /12 (1), leader (3); chips of this deal by step and seat /100 (15);
chip balances /starting chips (3); deals done /num_deals (1).

Greedy agent: never bids for the stock (passes; eldest's 12 is forced); as buyer discards the
7 cards it values least (trumps and cards of ranks it holds 3+ of kept first, then high ranks);
vies with a ruff of 45+, sees with 42+, revies with 55+ (four Aces always revie/see); declares
every set; in play leads a master non-trump card if it has one, otherwise the lowest card of its
longest non-trump suit; as follower plays the cheapest card that currently wins the trick, else
its lowest card (non-trumps first).
"""
from libc.string cimport memset
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t, uint32_t
from cardsim.core._deal cimport assign_zones
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._actions cimport ActionSet, as_add, as_has, as_first, as_add_range
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State

from cardsim import cards as _cards
from cardsim.errors import ConfigError, ParseError

cdef uint64_t FULL = ((<uint64_t>1) << 44) - 1
cdef uint64_t SUIT0 = 0x7FF
cdef int16_t RUFF_SUM[2048]          # ruff value of an 11-bit suit holding
cdef uint64_t RANKM[11]              # the four cards of each rank
cdef int8_t CARD_RUFF[11]
cdef int8_t SUIT_OF[44]              # card -> suit (a table: no division in the hot loop)
cdef int8_t RANK_OF[44]              # card -> rank
cdef int8_t PACKET_SEAT[36]          # seat offset from eldest of pack position i (packets of 4)

def _init_tables():
    cdef int r, m, v
    for r in range(36):
        PACKET_SEAT[r] = (r // 4) % 3
    for r in range(44):
        SUIT_OF[r] = r // 11
        RANK_OF[r] = r % 11
    for r in range(11):
        CARD_RUFF[r] = 11 if r == 10 else (10 if r >= 7 else r + 4)
        RANKM[r] = ((<uint64_t>1) << r) | ((<uint64_t>1) << (r + 11)) | ((<uint64_t>1) << (r + 22)) | ((<uint64_t>1) << (r + 33))
    for m in range(2048):
        v = 0
        for r in range(11):
            if (m >> r) & 1:
                v += CARD_RUFF[r]
        RUFF_SUM[m] = v
_init_tables()

SUITS = "SHDC"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HONOUR_NAMES = ("A", "K", "Q", "J")
RUFF_FOUR_ACES = GL_RUFF_FOUR_ACES
PHASES = ("auction", "exchange", "vie", "declare", "play", "end")
OBS_SIZE = (44 * 3 + 3 * 44 * 3 + 6 + 9 + (1 + 3 + 9 + 3 + 3 + 1 + 1)
            + (6 + 3 + 3 + 3 + 3 + 9 + 1 + 15 + 3) + 1 + (12 + 12 + 3) + (3 + 1 + 3) + 15 + 3 + 1)
METRICS = ("dealer", "buyer", "price", "vied", "stake", "showdown", "trump", "discarded_honours",
           "points_total", "deals")

cdef inline uint64_t suit_mask(int s) noexcept nogil:
    return SUIT0 << (11 * s)

cdef inline int card_suit(int c) noexcept nogil:
    return SUIT_OF[c]

cdef inline int card_rank(int c) noexcept nogil:
    return RANK_OF[c]

cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c

cdef inline int nxt(int p) noexcept nogil:
    return 0 if p == 2 else p + 1


# ---------------------------------------------------------------------------------------------
# pure rules (also behind the public oracles)
# ---------------------------------------------------------------------------------------------
cdef inline int winning_card(uint64_t trick, int led_suit, int trump) noexcept nogil:
    """Trick winner (§5) on the mask of the cards played. Action: if any trump was played the
    highest trump wins, else the highest card of the led suit (A high .. 4 low, the same order in
    every suit; a higher rank is a higher bit). No ties: one pack. Returns the winning card."""
    cdef uint64_t m = trick & suit_mask(trump)
    if m == 0:
        m = trick & suit_mask(led_suit)
    return bit_high(m)

cdef int gl_trick_winner(const int8_t* cards, int n, int trump) noexcept nogil:
    """Trick winner (§5) of cards[0..n-1], cards[0] leading: the index of the winning card
    (see winning_card)."""
    cdef uint64_t tm = 0
    cdef int i, w
    for i in range(n):
        tm |= bit(cards[i])
    w = winning_card(tm, card_suit(cards[0]), trump)
    for i in range(n):
        if cards[i] == w:
            return i
    return 0

cdef inline uint64_t follow_mask(uint64_t hand, int led_suit) noexcept nogil:
    """Follow-suit rule (§5). Validity: a follower holding the led suit must play one of them;
    otherwise any card (no duty to trump). led_suit -1 = on lead: any card."""
    cdef uint64_t m
    if led_suit < 0:
        return hand
    m = hand & suit_mask(led_suit)
    return m if m else hand

cdef int gl_ruff_value(uint64_t hand, int* best_suit) noexcept nogil:
    """Ruff value of a hand (§4.3). Points: max over suits of the suit's card values (A 11,
    K Q J 10, 10..4 face); all four Aces = GL_RUFF_FOUR_ACES (beats any ruff). best_suit gets
    the suit revealed at a showdown: the first best suit in order S H D C (D7), or 4 for the
    four Aces."""
    cdef int s, v, best = -1, bs = 0
    if (hand & RANKM[10]) == RANKM[10]:
        best_suit[0] = 4
        return GL_RUFF_FOUR_ACES
    for s in range(4):
        v = RUFF_SUM[(hand >> (11 * s)) & SUIT0]
        if v > best:
            best = v
            bs = s
    best_suit[0] = bs
    return best

cdef inline uint8_t hand_sets(uint64_t hand, int8_t* counts) noexcept nogil:
    """Gleeks (exactly 3 of a rank) and mournivals (all 4) of A K Q J in a hand (§4.4): bit r of
    the result for honour index r (0 A, 1 K, 2 Q, 3 J); counts[r] = cards of that rank (or 0)."""
    cdef uint8_t out = 0
    cdef int r, n
    for r in range(4):
        n = cs_popcount(hand & RANKM[10 - r])
        if n >= 3:
            out |= 1 << r
            if counts != NULL:
                counts[r] = n
        elif counts != NULL:
            counts[r] = 0
    return out

cdef int gl_sets_value(const GLConfig* c, uint64_t hand, uint8_t ranks) noexcept nogil:
    """V of a hand (§4.4): the sum over its gleeks/mournivals (restricted to the honour indices
    in `ranks`) of the table value, received from each opponent."""
    cdef int r, n, v = 0
    for r in range(4):
        if (ranks >> r) & 1:
            n = cs_popcount(hand & RANKM[10 - r])
            if n == 4:
                v += c.mournival[r]
            elif n == 3:
                v += c.gleek[r]
    return v

cdef inline int honour_sum(const GLConfig* c, uint64_t cards, int trump) noexcept nogil:
    """Honour value of the trump A/K/Q/J among cards."""
    cdef int r, v = 0
    for r in range(4):
        if cards & bit(trump * 11 + 10 - r):
            v += c.honour[r]
    return v

cdef void gl_trick_settlement(const GLConfig* c, const int8_t* tricks, const uint64_t* honours,
                              int turnup, int dealer, uint64_t discards, int32_t* score,
                              int32_t* total, int32_t* delta) noexcept nogil:
    """Trick settlement (§6.5). Points: score[p] = trick_value x tricks[p] + honour values of the
    trump A/K/Q/J in honours[p] (held, or won with HONOUR_SCORING="won"), plus the turn-up's
    honour value for the dealer. T = 12 x trick_value + all honour values - those discarded
    (66 less discarded honours by default); every player's chips change by score[p] - T/3
    (zero-sum, D10)."""
    cdef int trump = card_suit(turnup), q, r
    total[0] = 12 * c.trick_value - honour_sum(c, discards, trump)
    for r in range(4):
        total[0] += c.honour[r]
    for q in range(3):
        score[q] = c.trick_value * tricks[q] + honour_sum(c, honours[q], trump)
    score[dealer] += honour_sum(c, bit(turnup), trump)
    for q in range(3):
        delta[q] = score[q] - total[0] // 3


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
        s.trick[q] = -1
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
    s.leader = s.eldest
    s.led_suit = -1
    s.ntrick = 0
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
    """Shuffle (Fisher-Yates on the deal stream) and deal 3 rounds of packets of 4 from eldest
    (§3): position i of the pack goes to seat eldest + (i / 4) mod 3; position 36 is the turn-up,
    37..43 the stock."""
    cdef int8_t perm[44]
    cdef int i, j, t, e = nxt(s.dealer)
    cdef uint64_t h[3]
    for i in range(44):
        perm[i] = i
    for i in range(43, 0, -1):
        j = rng_below(&s.rng, i + 1)
        t = perm[i]; perm[i] = perm[j]; perm[j] = t
    h[0] = 0
    h[1] = 0
    h[2] = 0
    for i in range(36):
        h[PACKET_SEAT[i]] |= bit(perm[i])    # packet i/4 goes to seat offset (i/4) mod 3
    for i in range(3):
        t = e + i
        if t >= 3:
            t -= 3
        s.hand[t] = h[i]
    s.turnup = perm[36]
    s.stock = 0
    for i in range(37, 44):
        s.stock |= bit(perm[i])
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

cdef int gl_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal actions per phase. Auction: PASS, BID n for high < n <= MAX_STOCK_BID (or exactly
    high + 1). Exchange: discard any card in hand. Vie open round: VIE, PASS (check); respond:
    SEE, PASS (fold), REVIE while revies < MAX_REVIES. Declare: DECLARE r per undeclared set, DONE.
    Play: the follow-suit rule."""
    cdef const GLState* s = <const GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef int i, n, r
    cdef uint64_t m
    out.w[0] = 0
    out.w[1] = 0
    for i in range(2, c.nw):
        out.w[i] = 0
    if s.phase == GL_PH_PLAY:
        m = follow_mask(s.hand[s.turn], s.led_suit)
        out.w[0] = m
        return cs_popcount(m)
    if s.phase == GL_PH_AUCTION:
        as_add(out, GL_PASS)
        if c.raise_one:
            if s.high + 1 <= c.max_bid:
                as_add(out, GL_BID0 + s.high + 1)
                return 2
            return 1
        if s.high < c.max_bid:
            as_add_range(out, GL_BID0 + s.high + 1, GL_BID0 + c.max_bid + 1)
            return 1 + c.max_bid - s.high
        return 1
    if s.phase == GL_PH_EXCHANGE:
        out.w[0] = s.hand[s.turn]
        return cs_popcount(s.hand[s.turn])
    if s.phase == GL_PH_VIE:
        as_add(out, GL_PASS)
        if s.vie_open:
            as_add(out, GL_VIE)
            return 2
        as_add(out, GL_SEE)
        if s.revies < c.max_revies:
            as_add(out, GL_REVIE)
            return 3
        return 2
    if s.phase == GL_PH_DECLARE:
        n = 1
        as_add(out, GL_DONE)
        m = s.sets[s.turn] & ~s.declared[s.turn]
        for r in range(4):
            if (m >> r) & 1:
                as_add(out, GL_DECLARE0 + r)
                n += 1
        return n
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
    s.hand[b] &= ~bit(card)
    s.discards |= bit(card)
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
                s.ruff[q] = gl_ruff_value(s.hand[q], &suit)
                s.ruff_suit[q] = suit
                if suit == 4:
                    s.shown[q] |= s.hand[q] & RANKM[10]
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
        V[q] = gl_sets_value(c, s.hand[q], s.declared[q])
    for q in range(3):
        for o in range(3):
            if o != q:
                s.part[3][q] += V[q] - V[o]
    s.phase = GL_PH_PLAY
    s.leader = s.eldest
    s.turn = s.eldest
    s.ntrick = 0

cdef void start_declarations(GLState* s, const GLConfig* c) noexcept nogil:
    cdef int q, r, i
    for q in range(3):
        s.sets[q] = hand_sets(s.hand[q], s.set_count[q])
    if not c.optional_decl:
        for q in range(3):
            s.declared[q] = s.sets[q]
            for r in range(4):
                if (s.sets[q] >> r) & 1:
                    s.shown[q] |= s.hand[q] & RANKM[10 - r]
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
        s.shown[p] |= s.hand[p] & RANKM[10 - r]
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
    gl_trick_settlement(c, s.tricks, hon, s.turnup, s.dealer, s.discards, s.score, &s.total, delta)
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

cdef void apply_play(GLState* s, const GLConfig* c, int card) noexcept nogil:
    """Play one card (§5); the third card closes the trick: the winner takes it and leads."""
    cdef int p = s.turn, w, wc, suit = card_suit(card)
    cdef uint64_t b = bit(card), tm
    if s.ntrick == 0:
        s.led_suit = suit
    elif suit != s.led_suit:
        s.void_suits[p] |= 1 << s.led_suit
    s.hand[p] &= ~b
    s.played[p] |= b
    s.trick[p] = card
    s.ntrick += 1
    if s.ntrick < 3:
        s.turn = nxt(p)
        return
    tm = bit(s.trick[0]) | bit(s.trick[1]) | bit(s.trick[2])
    wc = winning_card(tm, s.led_suit, s.trump)
    w = 0 if s.trick[0] == wc else (1 if s.trick[1] == wc else 2)
    s.won[w] |= tm
    s.trick[0] = -1
    s.trick[1] = -1
    s.trick[2] = -1
    s.led_suit = -1
    s.tricks[w] += 1
    s.tricks_done += 1
    s.ntrick = 0
    s.leader = w
    s.turn = w
    if s.tricks_done == 12:
        finish_deal(s, c)

cdef void gl_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef GLState* s = <GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    if s.phase == GL_PH_PLAY:
        apply_play(s, c, a)
    elif s.phase == GL_PH_AUCTION:
        apply_auction(s, c, a)
    elif s.phase == GL_PH_EXCHANGE:
        apply_exchange(s, c, a)
    elif s.phase == GL_PH_VIE:
        apply_vie(s, c, a)
    elif s.phase == GL_PH_DECLARE:
        apply_declare(s, c, a)

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


# ---------------------------------------------------------------------------------------------
# observation and resampling
# ---------------------------------------------------------------------------------------------
cdef void gl_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef int q, i, r, k = 0
    put_bits(o + k, s.hand[p]); k += 44
    if s.buyer == p:
        put_bits(o + k, s.discards)
    k += 44
    o[k + s.turnup] = 1.0; k += 44
    for q in range(3):
        put_bits(o + k, s.played[q]); k += 44
    for q in range(3):
        if s.trick[q] >= 0:
            o[k + s.trick[q]] = 1.0
        k += 44
    for q in range(3):
        put_bits(o + k, s.shown[q]); k += 44
    o[k + s.phase] = 1.0; k += 6
    if s.phase != GL_PH_END:
        o[k + s.turn] = 1.0
    k += 3
    o[k + s.dealer] = 1.0; k += 3
    o[k + p] = 1.0; k += 3
    # auction
    o[k] = s.high / 100.0; k += 1
    o[k + s.high_bidder] = 1.0; k += 3
    for q in range(3):
        o[k + 3 * q + s.pass_rank[q]] = 1.0
    k += 9
    for q in range(3):
        o[k + q] = s.last_bid[q] / 100.0
    k += 3
    if s.buyer >= 0:
        o[k + s.buyer] = 1.0
    k += 3
    o[k] = s.ndiscard / 7.0; k += 1
    o[k] = s.took; k += 1
    # vie
    o[k] = s.vie_open
    o[k + 1] = s.open_acted / 3.0
    o[k + 2] = s.vied
    o[k + 3] = s.revies / 4.0
    o[k + 4] = s.stake / 100.0
    o[k + 5] = s.base / 100.0
    k += 6
    for q in range(3):
        o[k + q] = s.committed[q] / 100.0
        o[k + 3 + q] = s.owe[q] / 100.0
        o[k + 6 + q] = (s.folded >> q) & 1
        o[k + 9 + q] = (s.checked >> q) & 1
    k += 12
    for i in range(3):
        if s.pending[i] >= 0 and i < s.npend:
            o[k + 3 * i + s.pending[i]] = 1.0
    k += 9
    o[k] = s.showdown; k += 1
    for q in range(3):
        if s.ruff_suit[q] >= 0:
            o[k + 5 * q + s.ruff_suit[q]] = 1.0
    k += 15
    for q in range(3):
        if s.ruff[q] >= 0:
            o[k + q] = s.ruff[q] / 100.0
    k += 3
    o[k] = s.dead / 10.0; k += 1
    # declarations
    for q in range(3):
        for r in range(4):
            if (s.declared[q] >> r) & 1:
                o[k + 4 * q + r] = 1.0
                o[k + 12 + 4 * q + r] = s.set_count[q][r] / 4.0
    k += 24
    for q in range(3):
        o[k + q] = (s.decl_done >> q) & 1
    k += 3
    # play
    for q in range(3):
        o[k + q] = s.tricks[q] / 12.0
    k += 3
    o[k] = s.tricks_done / 12.0; k += 1
    if s.phase == GL_PH_PLAY:
        o[k + s.leader] = 1.0
    k += 3
    for r in range(5):
        for q in range(3):
            o[k + 3 * r + q] = s.part[r][q] / 100.0
    k += 15
    for q in range(3):
        o[k + q] = s.chips[q] / <float>(c.starting_chips if c.starting_chips > 0 else 1)
    k += 3
    o[k] = s.deal_no / <float>c.num_deals; k += 1

cdef bint consistent(const GLState* s, const GLConfig* c, const uint64_t* newh, int p) noexcept nogil:
    """Soft constraints of a redeal of the other seats (hard ones are card masks, see
    gl_resample): each showdown ruff value and suit stays, and with automatic declarations the
    seat holds exactly the gleeks/mournivals it declared."""
    cdef int q, suit, v
    cdef uint64_t full
    cdef int8_t cnt[4]
    for q in range(3):
        if q == p:
            continue
        full = newh[q] | s.played[q]
        if s.ruff[q] >= 0:
            v = gl_ruff_value(full, &suit)
            if v != s.ruff[q] or suit != s.ruff_suit[q]:
                return False
        if (s.phase == GL_PH_PLAY or s.phase == GL_PH_END) and not c.optional_decl:
            if hand_sets(full, cnt) != s.declared[q]:
                return False
    return True

cdef int gl_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal the cards p cannot see: the other seats' unshown cards, the stock (until taken)
    and the buyer's discards (unless p is the buyer), each zone keeping its size. Hard
    constraints (card masks): suits shown void in play, the rest of a suit fully revealed at the
    ruff showdown, the fourth card of a declared gleek. Uniform rejection sampling first (also
    keeping showdown ruff values and, with automatic declarations, the exact sets), then a
    random assignment that respects the hard constraints; the deal stream is replaced so later
    deals of a match are not leaked."""
    cdef GLState* s = <GLState*>st
    cdef const GLConfig* c = <const GLConfig*>cfg
    cdef uint64_t unknown = 0
    cdef uint8_t cards[44]
    cdef uint8_t dest[44]
    cdef uint32_t allowed[44]
    cdef int need[5]
    cdef uint64_t newh[5]
    cdef uint64_t forbid[5]
    cdef int n = 0, q, i, j, t, tries, cd, ok = 0, z, r
    for z in range(5):
        need[z] = 0
        forbid[z] = 0
    for q in range(3):
        if q != p:
            unknown |= s.hand[q] & ~s.shown[q]
            need[q] = cs_popcount(s.hand[q] & ~s.shown[q])
            for t in range(4):
                if (s.void_suits[q] >> t) & 1:
                    forbid[q] |= suit_mask(t)
            if 0 <= s.ruff_suit[q] < 4:
                forbid[q] |= suit_mask(s.ruff_suit[q])
            for r in range(4):
                if (s.declared[q] >> r) & 1:
                    forbid[q] |= RANKM[10 - r]
    unknown |= s.stock
    need[3] = cs_popcount(s.stock)
    if s.buyer != p:
        unknown |= s.discards
        need[4] = cs_popcount(s.discards)
    while unknown:
        cards[n] = bit_low(unknown)
        n += 1
        unknown &= unknown - 1
    for cd in range(44):                         # zones that may take each card
        allowed[cd] = 0
        for z in range(5):
            if not (forbid[z] >> cd) & 1:
                allowed[cd] |= 1 << z
    for tries in range(2000):
        for i in range(n - 1, 0, -1):
            j = rng_below(rng, i + 1)
            t = cards[i]; cards[i] = cards[j]; cards[j] = t
        for z in range(5):
            newh[z] = 0
        ok = 1
        if tries < 64:
            i = 0
            for z in range(5):
                for j in range(need[z]):
                    newh[z] |= bit(cards[i])
                    i += 1
                if newh[z] & forbid[z]:
                    ok = 0
        else:                                    # each card to a random zone that may take it
            ok = assign_zones(cards, n, allowed, need, 5, dest, rng)
            for i in range(n if ok else 0):
                newh[dest[i]] |= bit(cards[i])
        if not ok:
            continue
        for q in range(3):
            if q != p:
                newh[q] |= s.hand[q] & s.shown[q]
        if tries >= 1900 or consistent(s, c, newh, p):
            break
        ok = 0
    if ok:
        for q in range(3):
            if q != p:
                s.hand[q] = newh[q]
                if s.phase >= GL_PH_VIE:
                    s.kept[q] = newh[q] | s.played[q]
                if s.phase == GL_PH_DECLARE and not ((s.decl_done >> q) & 1):
                    s.sets[q] = hand_sets(newh[q], s.set_count[q])
        s.stock = newh[3]
        if s.buyer != p:
            s.discards = newh[4]
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef inline int lowest_card(uint64_t m, int trump) noexcept nogil:
    """Lowest card of m by rank, non-trumps before trumps."""
    cdef int best = -1, bk = 99, k, cd
    while m:
        cd = bit_low(m)
        m &= m - 1
        k = card_rank(cd) + (11 if card_suit(cd) == trump else 0)
        if k < bk:
            bk = k
            best = cd
    return best

cdef int keep_value(uint64_t hand, int cd, int trump) noexcept nogil:
    cdef int r = card_rank(cd), v = r
    if card_suit(cd) == trump:
        v += 100
    if r >= 7 and cs_popcount(hand & RANKM[r]) >= 3:
        v += 60
    if r == 10:
        v += 30
    return v

cdef int greedy_play(const GLState* s, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, i, cd, suit, w, best, longest, n = s.ntrick, pos
    cdef uint64_t m = legal.w[0], gone, tmp
    cdef int8_t cards[3]
    gone = s.played[0] | s.played[1] | s.played[2] | bit(s.turnup)
    if s.buyer == p:
        gone |= s.discards
    if n == 0:
        tmp = m
        while tmp:
            cd = bit_low(tmp)
            tmp &= tmp - 1
            suit = card_suit(cd)
            if suit != s.trump and ((suit_mask(suit) & ~gone & ~s.hand[p]) >> cd) == 0:
                return cd
        best = -1
        longest = 0
        for suit in range(4):
            if suit != s.trump and cs_popcount(m & suit_mask(suit)) > longest:
                longest = cs_popcount(m & suit_mask(suit))
                best = suit
        if longest > 0:
            return lowest_card(m & suit_mask(best), s.trump)
        return lowest_card(m, s.trump)
    pos = s.leader
    for i in range(n):
        cards[i] = s.trick[pos]
        pos = nxt(pos)
    best = -1
    tmp = m
    while tmp:
        cd = bit_low(tmp)
        tmp &= tmp - 1
        cards[n] = cd
        if gl_trick_winner(cards, n + 1, s.trump) == n:
            if best < 0 or lowest_card(bit(cd) | bit(best), s.trump) == cd:
                best = cd
    if best >= 0:
        return best
    return lowest_card(m, s.trump)

cdef int gl_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    cdef int p = s.turn, suit, v, cd, bv, best
    cdef uint64_t tmp
    if s.phase == GL_PH_PLAY:
        return greedy_play(s, legal)
    if s.phase == GL_PH_AUCTION:
        return GL_PASS
    if s.phase == GL_PH_EXCHANGE:
        best = -1
        bv = 1 << 30
        tmp = s.hand[p]
        while tmp:
            cd = bit_low(tmp)
            tmp &= tmp - 1
            v = keep_value(s.hand[p], cd, s.trump)
            if v < bv:
                bv = v
                best = cd
        return best
    if s.phase == GL_PH_VIE:
        v = gl_ruff_value(s.hand[p], &suit)
        if s.vie_open:
            return GL_VIE if v >= 45 else GL_PASS
        if v >= 55 and as_has(legal, GL_REVIE):
            return GL_REVIE
        return GL_SEE if v >= 42 else GL_PASS
    if s.phase == GL_PH_DECLARE:
        for v in range(4):
            if as_has(legal, GL_DECLARE0 + v):
                return GL_DECLARE0 + v
        return GL_DONE
    return as_first(legal, 1)


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
def card_str(int c):
    return RANKS[c % 11] + SUITS[c // 11]

def parse_suit(text):
    return _cards.parse_suit(text, "gleek")

def parse_card(text):
    """'AS', '10H', 'TD', '4♣', '♣4', lower case ok -> card id (no 2s or 3s in Gleek)."""
    rank, suit = _cards.parse_card(text, "gleek", RANKS)
    return suit * 11 + RANKS.index(rank)

DISPLAY_ORDER = tuple(suit * 11 + r for suit in range(4) for r in range(10, -1, -1))

def mask_to_cards(uint64_t m):
    """Cards of a mask in display order: suits S H D C, high to low."""
    return _cards.mask_to_strings(m, DISPLAY_ORDER, card_str)

def cards_to_mask(cards):
    return _cards.ids_to_mask(cards, parse_card, "gleek")


cdef class GleekSpec(GameSpec):
    cdef GLConfig c

    def __init__(self, dict opts):
        self.c.tiddy_pay = opts["tiddy_turnup_pay"]
        self.c.towser_tumbler = opts["towser_tumbler"]
        self.c.opening_bid = opts["stock_opening_bid"]
        self.c.raise_one = opts["stock_raise"] == "plus_one"
        self.c.odd_to_eldest = opts["stock_odd_chip"] == "eldest"
        self.c.pay_full = opts["stock_payment"] == "full_each"
        self.c.take_first = opts["exchange_order"] == "take_first"
        self.c.honours_won = opts["honour_scoring"] == "won"
        self.c.fold_pays_stake = opts["fold_pays"] == "stake"
        self.c.optional_decl = opts["gleek_declaration"] == "optional"
        self.c.max_bid = opts["max_stock_bid"]
        self.c.max_revies = opts["max_revies"]
        for i in range(4):
            self.c.honour[i] = opts["honour_values"][i]
            self.c.gleek[i] = opts["gleek_values"][i]
            self.c.mournival[i] = opts["mournival_values"][i]
        self.c.trick_value = opts["trick_value"]
        self.c.num_deals = opts["num_deals"]
        self.c.starting_chips = opts["starting_chips"]
        self.c.match = opts["scope"] == "match"
        self.c.nw = (GL_BID0 + self.c.max_bid + 1 + 63) // 64
        self.cfg = &self.c
        self.name = "gleek"
        self.num_players = 3
        self.num_actions = GL_BID0 + self.c.max_bid + 1
        self.action_words = (self.num_actions + 63) // 64
        self.state_size = sizeof(GLState)
        self.obs_size = OBS_SIZE
        self.metric_names = METRICS
        self.options = dict(opts)
        self.returns_sum = "zero"
        self.vt.init = gl_init
        self.vt.current_player = gl_current_player
        self.vt.legal = gl_legal
        self.vt.apply = gl_apply
        self.vt.is_terminal = gl_is_terminal
        self.vt.returns = gl_returns
        self.vt.observe = gl_observe
        self.vt.resample = gl_resample
        self.vt.greedy = gl_greedy
        self.vt.metrics = gl_metrics

    # ---- strings --------------------------------------------------------------------------
    def action_string(self, State s, int a):
        if a < 44:
            if (<GLState*>s.data).phase == GL_PH_EXCHANGE:
                return "DISCARD " + card_str(a)
            return card_str(a)
        if a == GL_PASS:
            return "PASS"
        if a == GL_VIE:
            return "VIE"
        if a == GL_SEE:
            return "SEE"
        if a == GL_REVIE:
            return "REVIE"
        if a == GL_DONE:
            return "DONE"
        if a < GL_DONE:
            return "DECLARE " + HONOUR_NAMES[a - GL_DECLARE0]
        return f"BID {a - GL_BID0}"

    def parse_action(self, State s, str text):
        t = " ".join(text.strip().upper().split())
        simple = {"PASS": GL_PASS, "P": GL_PASS, "CHECK": GL_PASS, "FOLD": GL_PASS, "VIE": GL_VIE,
                  "SEE": GL_SEE, "REVIE": GL_REVIE, "DONE": GL_DONE}
        if t in simple:
            return simple[t]
        if t.startswith("DECLARE "):
            r = t[8:].strip()
            if r in HONOUR_NAMES:
                return GL_DECLARE0 + HONOUR_NAMES.index(r)
        elif t.startswith("DISCARD "):
            return parse_card(t[8:])
        else:
            num = t[4:].strip() if t.startswith("BID ") else t
            if num.isdigit() and 0 <= int(num) <= self.c.max_bid:
                return GL_BID0 + int(num)
            try:
                return parse_card(t)
            except ParseError:
                pass
        raise ParseError(f"gleek: cannot parse action {text!r}; expected a card ('AS', '10H'), "
                         f"'DISCARD AS', 'BID 13', 'PASS', 'VIE', 'SEE', 'REVIE', 'DECLARE A' or 'DONE'")

    def hand_strings(self, State s, int p):
        return mask_to_cards((<GLState*>s.data).hand[p])

    def phase_name(self, State s):
        return PHASES[(<GLState*>s.data).phase]

    @property
    def deck_size(self):
        return 44

    def card_total(self, State s):
        """Cards in hands + played + stock + discards + the turn-up; negative if any card is
        missing or in two zones."""
        cdef GLState* st = <GLState*>s.data
        cdef uint64_t allm = st.stock | st.discards | bit(st.turnup)
        cdef int n = cs_popcount(st.stock) + cs_popcount(st.discards) + 1
        for p in range(3):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == FULL else -n

    def view(self, State s):
        """A dict of every fact of the state (public and hidden; for tests and display)."""
        cdef GLState* st = <GLState*>s.data
        cdef int V[3]
        for q in range(3):
            V[q] = gl_sets_value(&self.c, st.kept[q], st.declared[q])
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "eldest": st.eldest,
            "turn": st.turn if st.phase != GL_PH_END else -1,
            "turnup": card_str(st.turnup), "trump": SUITS[st.trump],
            "high": st.high, "high_bidder": st.high_bidder,
            "passed": [q for q in range(3) if (st.passed >> q) & 1],
            "last_passer": next((q for q in range(3) if st.pass_rank[q] == 2), None),
            "buyer": st.buyer if st.buyer >= 0 else None,
            "price": st.high if st.buyer >= 0 else None,
            "stock": mask_to_cards(st.stock), "discards": mask_to_cards(st.discards),
            "base": st.base, "stake": st.stake, "vied": bool(st.vied), "dead": st.dead,
            "committed": [st.committed[q] for q in range(3)], "owe": [st.owe[q] for q in range(3)],
            "folded": [q for q in range(3) if (st.folded >> q) & 1],
            "pending": [st.pending[i] for i in range(st.npend)],
            "showdown": bool(st.showdown),
            "ruff": [None if st.ruff[q] < 0 else st.ruff[q] for q in range(3)],
            "ruff_suit": [None if st.ruff_suit[q] < 0 else ("SHDC" + "A")[st.ruff_suit[q]] for q in range(3)],
            "shown": [mask_to_cards(st.shown[q]) for q in range(3)],
            "declared": [[HONOUR_NAMES[r] for r in range(4) if (st.declared[q] >> r) & 1] for q in range(3)],
            "gleek_value": [V[q] for q in range(3)],
            "kept": [mask_to_cards(st.kept[q]) for q in range(3)],
            "leader": st.leader, "trick": [None if st.trick[q] < 0 else card_str(st.trick[q]) for q in range(3)],
            "tricks": [st.tricks[q] for q in range(3)], "tricks_done": st.tricks_done,
            "played": [mask_to_cards(st.played[q]) for q in range(3)],
            "won": [mask_to_cards(st.won[q]) for q in range(3)],
            "score": [st.score[q] for q in range(3)], "points_total": st.total,
            "parts": {name: [st.part[k][q] for q in range(3)]
                      for k, name in enumerate(("turnup", "stock", "ruff", "gleeks", "tricks"))},
            "deal_chips": [sum(st.part[k][q] for k in range(5)) for q in range(3)],
            "chips": [st.chips[q] for q in range(3)], "deal_no": st.deal_no,
        }

    def render(self, State s):
        v = self.view(s)
        lines = [f"Gleek  phase={v['phase']}  dealer=P{v['dealer']}  turn-up {v['turnup']} (trump {v['trump']})"
                 f"  deal {v['deal_no'] + (v['phase'] != 'end')}  chips {v['chips']}"]
        if v["phase"] == "auction":
            lines.append(f"auction: high {v['high']} by P{v['high_bidder']}  passed {v['passed']}")
        elif v["buyer"] is not None:
            lines.append(f"stock bought by P{v['buyer']} at {v['price']}; ruff base {v['base']} stake {v['stake']}"
                         f" folded {v['folded']}")
        for p in range(3):
            mark = "*" if v["turn"] == p else " "
            lines.append(f"{mark}P{p}: {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"P{p}:{c}" for p, c in enumerate(v["trick"]) if c)
                         + f"   tricks {v['tricks']}")
        lines.append(f"this deal: {v['parts']}")
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def deal_hands(self, hands, turnup, int dealer=0, int dead=0, chips=None):
        """A fresh state at the start of the auction: three 12-card hands (card strings), the
        turn-up; the 7 remaining cards form the stock. Turn-up payment and eldest's forced bid
        are applied as in a real deal."""
        cdef State s
        cdef GLState* st
        if len(hands) != 3:
            raise ConfigError("gleek: need 3 hands")
        masks = [cards_to_mask(h) for h in hands]
        allm = 0
        for h, m in zip(hands, masks):
            if len(h) != 12:
                raise ConfigError(f"gleek: every hand has 12 cards, got {len(h)}")
            if allm & m:
                raise ConfigError("gleek: a card appears in two hands")
            allm |= m
        tu = parse_card(turnup)
        if (allm >> tu) & 1:
            raise ConfigError("gleek: the turn-up is in a hand")
        if not 0 <= dealer < 3:
            raise ConfigError("gleek: dealer must be 0..2")
        if dead < 0:
            raise ConfigError("gleek: dead must be >= 0")
        s = self.new_state(0, 0)
        st = <GLState*>s.data
        st.dealer = dealer
        st.dead = dead
        for p in range(3):
            st.hand[p] = masks[p]
            if chips is not None:
                st.chips[p] = chips[p]
        st.turnup = tu
        st.stock = FULL & ~allm & ~bit(tu)
        setup_deal(st, &self.c)
        return s


# ---- oracles' kernels --------------------------------------------------------------------------
def oracle_trick_winner(list cards, int trump):
    cdef int8_t cs[3]
    for i, c in enumerate(cards):
        cs[i] = c
    return gl_trick_winner(cs, len(cards), trump)

def oracle_follow(uint64_t hand, int led_suit):
    return follow_mask(hand, led_suit)

def oracle_ruff(uint64_t hand):
    cdef int suit
    cdef int v = gl_ruff_value(hand, &suit)
    return v, suit

def oracle_sets_value(GleekSpec spec, uint64_t hand):
    return gl_sets_value(&spec.c, hand, 15)

def oracle_trick_settlement(GleekSpec spec, list tricks, list honours, int turnup, int dealer,
                            uint64_t discards):
    cdef int8_t t[3]
    cdef uint64_t h[3]
    cdef int32_t score[3]
    cdef int32_t delta[3]
    cdef int32_t total
    for q in range(3):
        t[q] = tricks[q]
        h[q] = honours[q]
    gl_trick_settlement(&spec.c, t, h, turnup, dealer, discards, score, &total, delta)
    return [score[q] for q in range(3)], total, [delta[q] for q in range(3)]
