"""Karnöffel (Nördlingen, 1426): 4 or 6 players in two teams, a chosen suit fixed by the lowest
face-up card, privileged cards whose power depends on the led suit and on being led, no duty to
follow, first team to three tricks wins the deal.

Implements docs/rules/karnoffel.md §1-§8 and follows its decisions D1-D7 as written: the
Dummett/Parlett ranking of the privileged cards (D1); the deal stops as soon as a team holds 3
tricks (D2, option stop_at_three); one game point per deal, a match to match_target = 5 (D3);
partial beaters blocked only by a King/Queen/Jack of the led suit (D4); up-cards stay public
until played (D5); the lowest of N up-cards chooses the suit, ties to the earliest dealt (D6);
the Devil may lead any trick (D7). KAISER_BANNERS is not implemented (the spec gives no rank for
a declared Banner); the Python module rejects it with a ConfigError.

Layout (the template for every game, docs/ADDING_A_GAME.md): `_karnoffel_rules.pxd/.pyx` hold the
pure rules on cards and config (chosen suit, trick winner, card notation, the oracles' entry
points); this module holds the state machine (deal, legal, apply, scoring), observation and
resampling, the greedy agent and the Python face (KarnoffelSpec). Core mechanisms used:
shuffle_prefix (deal), TrickRecord (current trick), resample_zones (resample),
GameSpec.install, _scenario_state (spec.scenario).

Seats 0..N-1 in playing order (counter-clockwise at the table); team of seat p = p % 2
(partners opposite with 4 players, alternate with 6). First dealer random from the deal
stream; the deal and play start at next(dealer); the next deal of a match is dealt by
next(dealer).

Card identity: suit*12 + rank, suits S H D C (0..3), rank 0 = '2' .. 11 = 'K' (no Aces).
Actions: 0..47 play that card. The only phase is "play" (no declarations in the default game):
every card in hand is legal (§5).

Returns: per seat, own team's game points minus the other team's (zero-sum): +1/-1 for a deal
(scope "deal"), the final point difference for a match (scope "match"). With stakes = "ante"
each player antes `ante` chips into a pot that the deal's winning team shares, so every return
is multiplied by `ante` (chips won net).

Observation (float32, length OBS_SIZE = 1049; 6 seat slots whatever the table size), blocks in
order: own hand (48); up-card of each seat (6x48, public even after it is played); cards played
by each seat (6x48); trick number+1 of each played card /5 (48); current trick by seat (6x48);
leader of each trick (5x6); winner of each completed trick (5x6); chosen suit (4); tricks per
team /3 (2); phase play/end (2); seat to act (6); dealer (6); observer (6); game points per
team /match_target (2); deals finished /(2 match_target) (1).

Greedy agent: on lead it plays its cheapest "sure" card (one no unseen card can beat when it is
led), else the Devil if it holds it, else its cheapest card; when following, it discards its
cheapest card if its partner already wins the trick and is last to play or holds it safely;
otherwise it plays its cheapest card that takes the trick, preferring one no unseen card can
still beat when others play after it, else it discards its cheapest card. "Cheapest" is by a
value table: the Karnöffel 100, Pope 90, Kaiser 85, Oberstecher 70, Unterstecher 62,
Farbenstecher 58, Devil 60, K 50, Q 45, J 40, then 10..2 by rank.
"""
from libc.string cimport memset
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, put_bits
from cardsim.core._types cimport card_t, uint8_t, uint32_t
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._deal cimport fill_identity, shuffle_prefix
from cardsim.core._trick cimport (TrickRecord, trick_start, trick_add, trick_done, trick_cards,
                                  trick_seat_of, trick_set_winner, put_trick_cards, put_card_tricks)
from cardsim.core._resample cimport resample_masks
from cardsim.core._actions cimport ActionSet, as_first
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.core.notation import disjoint_hands

from cardsim.games._karnoffel_rules cimport (KNConfig, KN_DECK, KN_HAND, KN_TRICKS, R2, R3, R4, R5, R6,
                                             R7, RJ, RQ, RK, kn_full, card_suit, card_rank, bit, team_of,
                                             kn_trick_winner, kn_chosen_suit)
from cardsim.games._karnoffel_rules import (SUITS, RANKS, DISPLAY_ORDER, card_str, parse_suit, parse_card,
                                            mask_to_cards, cards_to_mask, oracle_trick_winner,
                                            oracle_chosen_suit)
from cardsim.errors import ConfigError, ParseError, short

OBS_SIZE = 48 + 288 + 288 + 48 + 288 + 30 + 30 + 4 + 2 + 2 + 6 + 6 + 6 + 2 + 1
METRICS = ("winner_team", "team0_tricks", "team1_tricks", "tricks_played", "chosen_suit",
           "dealer", "team0_points", "team1_points", "deals")

# ---------------------------------------------------------------------------------------------
# state machine (the rules themselves are in _karnoffel_rules.pxd)
# ---------------------------------------------------------------------------------------------
cdef void deal_cards(KNState* s, int N) noexcept nogil:
    """Shuffle and deal (§3): a partial Fisher-Yates on the deal stream draws the 5N dealt cards
    in dealing order (the rest is the unused stock, whose order never matters). Round 1 (one
    face-up card each) and rounds 2-5 go to next(dealer), ..., dealer. Resets the deal."""
    cdef card_t perm[KN_DECK]
    cdef int8_t upo[6]
    cdef int i, q, r
    cdef uint64_t dealt = 0
    fill_identity(perm, KN_DECK)
    shuffle_prefix(perm, KN_DECK, KN_HAND * N, &s.rng)
    for q in range(6):
        s.hand[q] = 0
        s.played[q] = 0
        s.up[q] = -1
    for r in range(5):
        for i in range(N):
            q = (s.dealer + 1 + i) % N
            s.hand[q] |= bit(perm[r * N + i])
            dealt |= bit(perm[r * N + i])
    for i in range(N):
        upo[i] = perm[i]
        s.up[(s.dealer + 1 + i) % N] = perm[i]
    s.stock = kn_full & ~dealt
    memset(s.card_trick, -1, 48)
    memset(s.trick_leader, -1, 5)
    memset(s.trick_winner, -1, 5)
    s.chosen = kn_chosen_suit(upo, N)
    s.team_tricks[0] = 0
    s.team_tricks[1] = 0
    s.tricks_done = 0
    trick_start(&s.cur, (s.dealer + 1) % N, N)
    s.turn = s.cur.leader
    s.trick_leader[0] = s.cur.leader
    s.phase = KN_PH_PLAY

cdef void kn_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef KNState* s = <KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    memset(s, 0, sizeof(KNState))
    s.rng = rng[0]
    s.dealer = <int8_t>rng_below(&s.rng, c.nplayers)   # first dealer at random (§1)
    s.deal_winner = -1
    deal_cards(s, c.nplayers)

cdef int kn_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    return -1 if s.phase == KN_PH_END else s.turn

cdef bint kn_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const KNState*>st).phase == KN_PH_END

cdef int kn_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Legal plays (§5). Validity: any card in hand, no duty to follow suit or to trump."""
    cdef const KNState* s = <const KNState*>st
    if s.phase != KN_PH_PLAY:
        out.w[0] = 0
        return 0
    out.w[0] = s.hand[s.turn]
    return cs_popcount(out.w[0])

cdef void finish_deal(KNState* s, const KNConfig* c, int team) noexcept nogil:
    """Score the deal (§6): the team with 3 tricks gets 1 game point; a match (§7) deals again
    from next(dealer) until a team has match_target points."""
    s.deal_winner = team
    s.score[team] += 1
    s.deal_no += 1
    if c.match and s.score[team] < c.match_target:
        s.dealer = (s.dealer + 1) % c.nplayers
        deal_cards(s, c.nplayers)
    else:
        s.phase = KN_PH_END

cdef void kn_apply(void* st, const void* cfg, int card) noexcept nogil:
    """Play one card (§5). Action: the card leaves the hand for the trick; after N cards the
    winner takes the trick and leads the next; at 3 tricks for a team (or after 5 tricks when
    stop_at_three is off) the deal is scored."""
    cdef KNState* s = <KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef int p = s.turn, w, team
    cdef int8_t cards[6]
    s.hand[p] &= ~bit(card)
    s.played[p] |= bit(card)
    s.card_trick[card] = s.tricks_done
    trick_add(&s.cur, p, card)
    if not trick_done(&s.cur):
        p += 1
        s.turn = 0 if p == N else p
        return
    trick_cards(&s.cur, cards)
    trick_set_winner(&s.cur, kn_trick_winner(cards, N, s.chosen))
    w = s.cur.winner
    team = team_of(w)
    s.team_tricks[team] += 1
    s.trick_winner[s.tricks_done] = w
    s.tricks_done += 1
    trick_start(&s.cur, w, N)
    s.turn = w
    if (c.stop_at_three and s.team_tricks[team] >= 3) or s.tricks_done == KN_TRICKS:
        finish_deal(s, c, 0 if s.team_tricks[0] >= 3 else 1)
    else:
        s.trick_leader[s.tricks_done] = w

cdef void kn_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int p
    for p in range(c.nplayers):
        out[p] = <double>(c.ante * (s.score[p & 1] - s.score[1 - (p & 1)]))

cdef void kn_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    out[0] = s.deal_winner
    out[1] = s.team_tricks[0]
    out[2] = s.team_tricks[1]
    out[3] = s.tricks_done
    out[4] = s.chosen
    out[5] = s.dealer
    out[6] = s.score[0]
    out[7] = s.score[1]
    out[8] = s.deal_no


# ---------------------------------------------------------------------------------------------
# observation and resampling
# ---------------------------------------------------------------------------------------------
cdef void kn_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int q, i, k = 0
    put_bits(o + k, s.hand[p]); k += 48
    for q in range(6):
        if s.up[q] >= 0:
            o[k + s.up[q]] = 1.0
        k += 48
    for q in range(6):
        put_bits(o + k, s.played[q]); k += 48
    k += put_card_tricks(o + k, s.card_trick, 48, 5.0)
    k += put_trick_cards(o + k, &s.cur, 6, 48)
    for i in range(5):
        if s.trick_leader[i] >= 0:
            o[k + 6 * i + s.trick_leader[i]] = 1.0
    k += 30
    for i in range(5):
        if s.trick_winner[i] >= 0:
            o[k + 6 * i + s.trick_winner[i]] = 1.0
    k += 30
    o[k + s.chosen] = 1.0; k += 4
    o[k] = s.team_tricks[0] / 3.0
    o[k + 1] = s.team_tricks[1] / 3.0
    k += 2
    o[k + s.phase] = 1.0; k += 2
    if s.phase != KN_PH_END:
        o[k + s.turn] = 1.0
    k += 6
    o[k + s.dealer] = 1.0; k += 6
    o[k + p] = 1.0; k += 6
    o[k] = s.score[0] / <float>c.match_target
    o[k + 1] = s.score[1] / <float>c.match_target
    k += 2
    o[k] = s.deal_no / (2.0 * c.match_target); k += 1

cdef int kn_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy: the face-down cards of the other
    seats and the stock. Each seat keeps its hand size and its own face-up card if still held
    (public, D5); there is no follow duty, so play reveals no voids, every zone may take every
    hidden card and the policy's first exact try (a uniform shuffle split seat by seat, then the
    stock) is exactly uniform over the consistent deals. The deal stream is replaced too (later
    deals of a match must not leak)."""
    cdef KNState* s = <KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef uint64_t unknown = s.stock, known
    cdef uint64_t newh[7]
    cdef int room[7]
    cdef int q
    for q in range(N):
        room[q] = 0
        if q == p:
            continue
        known = bit(s.up[q]) & s.hand[q]
        unknown |= s.hand[q] & ~known
        room[q] = cs_popcount(s.hand[q] & ~known)
        s.hand[q] = known
    room[N] = cs_popcount(s.stock)
    if not resample_masks(unknown, room, NULL, N + 1, newh, rng, NULL, NULL, 1, 0):
        return 0
    s.stock = newh[N]
    for q in range(N):
        s.hand[q] |= newh[q]
    s.rng = rng[0]
    rng_next(&s.rng)
    return 1


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef int card_value(int c, int chosen) noexcept nogil:
    """How much a card is worth keeping (higher = stronger); the greedy agent spends the
    cheapest card that does the job."""
    cdef int r = card_rank(c)
    if card_suit(c) == chosen:
        if r == RJ:
            return 100
        if r == R6:
            return 90
        if r == R2:
            return 85
        if r == R3:
            return 70
        if r == R4:
            return 62
        if r == R7:
            return 60
        if r == R5:
            return 58
    if r == RK:
        return 50
    if r == RQ:
        return 45
    if r == RJ:
        return 40
    return r

cdef int cheapest(uint64_t m, int chosen) noexcept nogil:
    """The card of m (non-empty) with the lowest value."""
    cdef int best = -1, bv = 1000, c, v
    while m:
        c = bit_low(m)
        m &= m - 1
        v = card_value(c, chosen)
        if v < bv:
            bv = v
            best = c
    return best

cdef bint holds_against(int8_t* cards, int n, int wi, uint64_t threats, int chosen) noexcept nogil:
    """True if cards[wi] stays the winner of the n-card trick cards[0..n-1] when any single
    card of threats is played after it (a pairwise look-ahead that ignores who holds the card;
    cards has room for n+1 entries)."""
    cdef int y
    while threats:
        y = bit_low(threats)
        threats &= threats - 1
        cards[n] = y
        if kn_trick_winner(cards, n + 1, chosen) != wi:
            return False
    return True

cdef int kn_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                   Rng* rng) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef int p = s.turn, n = s.cur.n, i, x, w, chosen = s.chosen
    cdef uint64_t m = legal.w[0], gone = 0, threats, tmp, sure = 0, winners = 0
    cdef int8_t cards[7]
    if n_legal == 1:
        return as_first(legal, 1)
    for i in range(N):
        gone |= s.played[i]
    threats = kn_full & ~gone & ~s.hand[p]
    if n == 0:
        tmp = m
        while tmp:
            x = bit_low(tmp)
            tmp &= tmp - 1
            cards[0] = x
            if holds_against(cards, 1, 0, threats, chosen):
                sure |= bit(x)
        if sure:
            return cheapest(sure, chosen)
        x = chosen * 12 + R7
        if m & bit(x):
            return x
        return cheapest(m, chosen)
    trick_cards(&s.cur, cards)
    w = trick_seat_of(&s.cur, kn_trick_winner(cards, n, chosen))
    if ((w ^ p) & 1) == 0:
        if n == N - 1:
            return cheapest(m, chosen)
        # partner wins now: discard if its card is safe against one more card
        i = kn_trick_winner(cards, n, chosen)
        if holds_against(cards, n, i, threats, chosen):
            return cheapest(m, chosen)
    tmp = m
    while tmp:
        x = bit_low(tmp)
        tmp &= tmp - 1
        cards[n] = x
        if kn_trick_winner(cards, n + 1, chosen) == n:
            winners |= bit(x)
            if n == N - 1 or holds_against(cards, n + 1, n, threats, chosen):
                sure |= bit(x)
    if sure:
        return cheapest(sure, chosen)
    if winners and ((w ^ p) & 1) == 1:
        return cheapest(winners, chosen)
    return cheapest(m, chosen)

# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
cdef class KarnoffelSpec(GameSpec):
    cdef KNConfig c

    def __init__(self, dict opts):
        self.c.nplayers = opts["players"]
        self.c.stop_at_three = opts["stop_at_three"]
        self.c.match_target = opts["match_target"]
        self.c.match = opts["scope"] == "match"
        self.c.ante = opts["ante"] if opts["stakes"] == "ante" else 1
        self.vt.init = kn_init
        self.vt.current_player = kn_current_player
        self.vt.legal = kn_legal
        self.vt.apply = kn_apply
        self.vt.is_terminal = kn_is_terminal
        self.vt.returns = kn_returns
        self.vt.observe = kn_observe
        self.vt.resample = kn_resample
        self.vt.greedy = kn_greedy
        self.vt.metrics = kn_metrics
        self.install("karnoffel", &self.c, self.c.nplayers, KN_NUM_ACTIONS, sizeof(KNState), OBS_SIZE,
                     METRICS, "zero", opts)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        return card_str(a)

    def _parse_action(self, State s, str text):
        try:
            return parse_card(text)
        except ParseError as e:
            raise ParseError(f"karnoffel: cannot parse action {short(text)}; an action is the card to play, "
                             f"e.g. 'KS', '10H', '7D'") from e

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<KNState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("play", "end")[(<KNState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return 48

    def _card_total(self, State s):
        """Cards in hands + cards played this deal + the undealt stock."""
        cdef KNState* st = <KNState*>self._data(s)
        cdef uint64_t allm = st.stock
        cdef int n = cs_popcount(st.stock)
        for p in range(self.c.nplayers):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.played[p])
            allm |= st.hand[p] | st.played[p]
        return n if allm == kn_full else -n

    def _view(self, State s):
        """A dict of the public and private facts (for tests and display)."""
        cdef KNState* st = <KNState*>self._data(s)
        N = self.c.nplayers
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "leader": st.cur.leader, "chosen": SUITS[st.chosen],
            "up": [card_str(st.up[p]) for p in range(N)],
            "trick": [None if st.cur.card[p] < 0 else card_str(st.cur.card[p]) for p in range(N)],
            "team_tricks": [st.team_tricks[0], st.team_tricks[1]], "tricks_done": st.tricks_done,
            "trick_winners": [st.trick_winner[i] for i in range(st.tricks_done)],
            "score": [st.score[0], st.score[1]], "deal_no": st.deal_no,
            "deal_winner": None if st.deal_winner < 0 else st.deal_winner,
            "played": [mask_to_cards(st.played[p]) for p in range(N)],
            "stock": mask_to_cards(st.stock),
        }

    def _render(self, State s):
        v = self.view(s)
        N = self.c.nplayers
        lines = [f"Karnöffel  {N} players  phase={v['phase']}  dealer={v['dealer']}  chosen suit "
                 f"{v['chosen']}  tricks team0 {v['team_tricks'][0]} team1 {v['team_tricks'][1]}  "
                 f"points {v['score'][0]}-{v['score'][1]}"]
        for p in range(N):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p} (team {p & 1}, up {v['up'][p]}): {' '.join(self.hand_strings(s, p))}")
        if v["phase"] == "play":
            lines.append("trick: " + "  ".join(f"{p}:{c}" for p, c in enumerate(v["trick"]) if c))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, dealer=0, up=None):
        """A fresh deal at the start of play (nothing played, match score 0-0) with these hands:
        hands[q] is seat q's 5 cards (card strings); `dealer` (a seat) deals, so seat
        next(dealer) leads; up[q] is seat q's face-up card (default: the first card of each
        hand), which fixes the chosen suit (§3.4, dealing order from next(dealer)). Undealt
        cards form the stock. The state is not replayable (State.replayable is False).
        Raises ConfigError (or ParseError for a card that does not parse) before building."""
        cdef State s
        cdef KNState* st
        cdef int8_t upo[6]
        N = self.c.nplayers
        masks, allm = disjoint_hands("karnoffel", hands, N, cards_to_mask, 5)
        d = check_int(dealer, "karnoffel: dealer", 0, N - 1, ConfigError)
        if up is None:
            ups = [parse_card(h[0]) for h in hands]
        else:
            if not isinstance(up, (list, tuple)) or len(up) != N:
                raise ConfigError(f"karnoffel: up must list {N} face-up cards, one per seat")
            ups = [parse_card(u) for u in up]
        if any(not (masks[q] >> ups[q]) & 1 for q in range(N)):
            raise ConfigError("karnoffel: up[q] must be a card of hand q")
        s = self._scenario_state()
        st = <KNState*>self._data(s)
        st.dealer = d
        deal_cards(st, N)
        for q in range(N):
            st.hand[q] = masks[q]
            st.up[q] = ups[q]
        for i in range(N):
            upo[i] = ups[(d + 1 + i) % N]
        st.chosen = kn_chosen_suit(upo, N)
        st.stock = kn_full & ~allm
        return s
