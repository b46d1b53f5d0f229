"""Basra / Bastra, the Middle-Eastern fishing game: Egyptian rules and the regional presets
(Jordanian, Yemeni, Ethiopian, Lebanese A, Lebanese B "Ashush", Palestinian, Syrian).

Implements docs/rules/basra.md §1-§8: 2, 3 or 4 players (4 = partnerships {0,2} v {1,3} by
default), seats counter-clockwise (next player = seat+1), first dealer random, the deal with
its bottom-card peek, floor cleaning (J and ♦7 buried: bottom10 / bottom / random), hands in
batches of hand_size, re-deals without floor cards, captures by matching and summing (§4.2),
basras (§4.3), the end-of-deal sweep (§5), deal scoring with majority carry and Syrian half
points (§6), game end with targets, the 51/61/71 ladder, draws, sudden death and the best-of-5
match (§7). Decisions followed as written: B-D1 .. B-D25 (maximal captures B-D3, one same-rank
card B-D4, forced sweeps B-D5, leftovers to the last capturer or the dealer's side B-D10, basra
with the last card B-D11, majority carry 30 x (1 + ties) B-D12/B-D13, ladder re-check B-D15,
flat 20 lone basras B-D16, Syrian 44 cards B-D18, no Syrian sweep bonus B-D19, Yemeni partition
B-D20, Lebanese ♦7 also needs the Egyptian condition B-D21, re-deal sizes B-D24), the deal cap of a
match (max_deals, B-D26) and the scenario hand shapes of a real deal (B-D27).

Card identity: rank*4 + suit; rank 0 = A, 1 = 2 .. 9 = 10, 10 = J, 11 = Q, 12 = K; suits S H D C.

Actions (105): 0..51 play that card from hand. If the card has exactly one legal capture set
(a trail is the empty set), it resolves at once. Otherwise the phase becomes "choose": the
cards common to every legal set are pre-chosen, then 52+k "TAKE k" adds floor card k (legal iff
some legal set contains the chosen cards and k), and 104 "DONE" captures exactly the chosen
cards (legal iff they form a legal set); the play resolves by itself as soon as only one legal
set remains compatible. Every legal action can be completed into a legal whole play.
Legal sets are enumerated exactly by the pure rules module `_basra_rules` (capture_sets, with
its bounds documented there).

Layout: `_basra_rules` holds the pure rules on cards and config (capture sets, basra points,
deal scoring, the game-end check, card notation); this module the state machine (deal, legal,
apply, scoring), the greedy agent and the Python face (BasraSpec:
strings, view, spec.scenario, oracle entry points); `_basra_view` the observation and the
resample of the hidden cards. Core mechanisms used: the core shuffle
(deal, floor burial), staged moves (the capture choice: target = the card played, adds = TAKE,
completable = still inside some legal set), the resample policy, GameSpec.install and
_scenario_state. Scenario states: spec.scenario(hands, floor=, stock=, dealer=, turn=,
last_capturer=, piles=, carry=) or spec.scenario(None, pack=, dealer=); every argument is
validated before the state is touched.

Returns: per seat, its side's points minus the mean of the other sides' points (zero-sum), for
the deal (scope "deal") or summed over every deal of the game / match (scope "match"). Points
are real points (Syrian halves as .5); the kernel keeps half points. With two sides this is
"own minus opponents". A best-of-5 match (scope "match", match "best_of_5_150") is decided by
games won, so its returns are games won minus the mean of the other sides' games won: they rank
the sides as the match result does (total points could name the loser; they stay in the
metrics). Metrics: points_s, cards_s, basras_s per side (last deal; points are the
whole state's), majority_side (-1 none), carry, winner (scope match: side, -1 draw/none), deals.

Observation (float32, length OBS_SIZE), blocks in order: own hand (52); floor (52); cards played
by each seat this deal (4x52); cards captured by each side (4x52); cards buried in the stock
during floor cleaning (52); the peeked bottom card if this seat saw it (52); the card being
played in the choose phase (52); floor cards chosen so far (52); doubled cards (52); hand sizes
per seat /6 (4); stock size /52 (1); basra points per side this deal /20 (4); basras per side /5
(4); game points per side /100 (4); total points per side /100 (4); games won /3 (4); majority
carry /3 (1); last capturer side (5, slot 4 = none); dealer (4); seat to act (4); observer (4);
phase (3); ladder target 51/61/71 (3); deals done /10 (1); last deal's points per side /100 (4).

Greedy agent: for every card in hand and every legal capture set of it, scores the play as
card points taken + 0.75 per card taken (majority) + basra points + 2 for leaving an empty
floor - 3 for leaving a single floor card (an easy basra for the next player) - 4 for spending
a J or ♦7 sweeper; a trail costs the trailed card's points + 0.5 and 3 more if it leaves a lone
card. Plays the best (lowest card id on ties); in the choose phase it steers to its best set.
"""
from libc.string cimport memset, memmove
from cardsim.core._types cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, put_bits
from cardsim.core._rng cimport Rng, rng_below, rng_next
from cardsim.core._actions cimport ActionSet, as_clear, as_add, as_add_mask, as_has
from cardsim.core._types cimport card_t, uint32_t
from cardsim.core._hand cimport Hand
from cardsim.core._deal cimport shuffled_pack, shuffle
from cardsim.core._staged cimport Staged, staged_clear, staged_start, staged_add, staged_commit, staged_legal_adds
from cardsim.core._resample cimport resample_zones, RESAMPLE_EXACT_TRIES, RESAMPLE_CONSTRAINED_TRIES
from cardsim.core._game cimport GameVTable
from cardsim.core._engine cimport GameSpec, State, check_int
from cardsim.games._basra_rules cimport (
    BasraConfig, BA_MAXSETS, BA_D7, ba_jacks, bit, side_of, is_sweeper, face_doubles, capture_sets,
    basra_points, score_deal, game_end)

from cardsim.errors import ConfigError, ParseError, short
from cardsim.games._basra_view cimport ba_observe, ba_resample

from cardsim.games._basra_rules import SUITS, RANKS, card_str, parse_card, mask_to_cards, cards_to_mask


# ---------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------
cdef inline int draw(BasraState* s) noexcept nogil:
    s.nstock -= 1
    return s.stock[s.nstock]

cdef void shuffle_stock(BasraState* s, const BasraConfig* c) noexcept nogil:
    """A fresh pack shuffled on the deal stream (the core shuffle); stock[0] is the bottom card."""
    shuffled_pack(s.stock, c.deck, &s.rng)
    s.nstock = c.deck

cdef void bury(BasraState* s, const BasraConfig* c, int card) noexcept nogil:
    """Bury a floor J/♦7 in the stock (§3.5, B-D7): bottom10 mixes it into the bottom
    min(10, |stock|) cards, bottom puts it at the very bottom, random anywhere."""
    cdef int pos = 0, m
    if c.floor_bury == 2:
        pos = rng_below(&s.rng, s.nstock + 1)
    memmove(&s.stock[pos + 1], &s.stock[pos], s.nstock - pos)
    s.stock[pos] = card
    s.nstock += 1
    if c.floor_bury == 0:
        m = s.nstock - 1
        if m > 10:
            m = 10
        shuffle(s.stock, m + 1, &s.rng)               # the bottom m + 1 cards

cdef void deal_hands(BasraState* s, const BasraConfig* c, int k) noexcept nogil:
    """k cards to each seat, one batch per seat, from dealer+1 round to the dealer (§3.3)."""
    cdef int i, j, p
    for i in range(c.nplayers):
        p = (s.dealer + 1 + i) % c.nplayers
        for j in range(k):
            s.hand[p] |= bit(draw(s))

cdef void deal_from_stock(BasraState* s, const BasraConfig* c) noexcept nogil:
    """Deal a new deal from the ordered stock (§3): peek, hands, 4 floor cards, floor cleaning
    (J, and ♦7 as a sweeper, buried and replaced from the top until none is left)."""
    cdef int i, f, guard
    cdef uint64_t bad
    for i in range(4):
        s.hand[i] = 0
        s.pile[i] = 0
        s.doubled[i] = 0
        s.played[i] = 0
        s.nbasra[i] = 0
        s.basra_half[i] = 0
    s.floor = 0
    s.buried = 0
    staged_clear(&s.choice)
    s.last_capturer = -1
    s.peek = s.stock[0]
    deal_hands(s, c, c.hand_size)
    for i in range(4):
        s.floor |= bit(draw(s))
    bad = ba_jacks | (bit(BA_D7) if c.d7_sweep else 0)
    guard = 0
    while s.floor & bad and guard < 200:
        f = bit_low(s.floor & bad)
        s.floor &= ~bit(f)
        bury(s, c, f)
        s.buried |= bit(f)
        s.floor |= bit(draw(s))
        guard += 1
    s.turn = (s.dealer + 1) % c.nplayers
    s.phase = BA_PH_PLAY

cdef void new_deal(BasraState* s, const BasraConfig* c) noexcept nogil:
    shuffle_stock(s, c)
    deal_from_stock(s, c)

cdef void ba_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef BasraState* s = <BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    memset(s, 0, sizeof(BasraState))
    s.rng = rng[0]
    s.dealer = rng_below(&s.rng, c.nplayers)
    s.winner = -1
    s.majority_side = -1
    new_deal(s, c)


# ---------------------------------------------------------------------------------------------
# state machine
# ---------------------------------------------------------------------------------------------
cdef void finish_deal(BasraState* s, const BasraConfig* c) noexcept nogil:
    """§5-§7: leftovers to the last capturer (else the dealer's side, B-D10), score, check."""
    cdef int i, res, side
    if s.floor:
        side = s.last_capturer if s.last_capturer >= 0 else side_of(c, s.dealer)
        s.pile[side] |= s.floor
        s.floor = 0
    score_deal(c, s.pile, s.doubled, s.basra_half, &s.carry, s.deal_half, &s.majority_side)
    for i in range(c.nsides):
        s.cum_half[i] += s.deal_half[i]
        s.total_half[i] += s.deal_half[i]
    s.deal_no += 1
    if not c.match:
        s.phase = BA_PH_END
        return
    res = game_end(c, s.cum_half, &s.last_target)
    if res != -2:
        if not c.best_of_5:
            s.winner = res
            s.phase = BA_PH_END
            return
        s.game_no += 1
        if res >= 0:
            s.games_won[res] += 1
            if s.games_won[res] >= 3:
                s.winner = res
                s.phase = BA_PH_END
                return
        for i in range(4):
            s.cum_half[i] = 0
        s.carry = 0                                # the carry resets with each game (B-D12)
        s.last_target = 0
    if s.deal_no >= c.max_deals:                   # the deal cap (B-D26): no winner
        s.winner = -1
        s.phase = BA_PH_END
        return
    s.dealer = (s.dealer + 1) % c.nplayers
    new_deal(s, c)

cdef void resolve_play(BasraState* s, const BasraConfig* c, int card, uint64_t S) noexcept nogil:
    """Put `card` with capture set S (empty = trail) into effect (§4.1), then move on."""
    cdef int side = side_of(c, s.turn), pts, i
    cdef uint64_t F = s.floor
    cdef bint last = s.nstock == 0
    for i in range(c.nplayers):
        if s.hand[i]:
            last = False
    if S == 0:
        s.floor |= bit(card)
    else:
        s.pile[side] |= S | bit(card)
        s.floor &= ~S
        s.last_capturer = side
        if S == F:
            pts = basra_points(c, card, F, last)
            if pts:
                s.basra_half[side] += 2 * pts
                s.nbasra[side] += 1
            if face_doubles(c, card, F):
                s.doubled[side] |= F | bit(card)
    s.phase = BA_PH_PLAY
    staged_clear(&s.choice)
    for i in range(c.nplayers):
        if s.hand[i]:
            s.turn = (s.turn + 1) % c.nplayers
            return
    if s.nstock > 0:                               # re-deal, no floor cards (§3.7, B-D24)
        i = s.nstock // c.nplayers
        deal_hands(s, c, c.hand_size if c.hand_size < i else i)
        s.turn = (s.dealer + 1) % c.nplayers
        return
    finish_deal(s, c)

cdef int ba_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const BasraState* s = <const BasraState*>st
    return -1 if s.phase == BA_PH_END else s.turn

ctypedef struct SetsCtx:
    const uint64_t* sets     # the legal capture sets of the card being played
    int n

cdef bint inside_some_set(const void* ctx, const Staged* play) noexcept nogil:
    """Completability of a staged capture: the chosen floor cards lie inside some legal set."""
    cdef const SetsCtx* x = <const SetsCtx*>ctx
    cdef uint64_t chosen = play.cards.layer[0]
    cdef int i
    for i in range(x.n):
        if (x.sets[i] & chosen) == chosen:
            return True
    return False

cdef int ba_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Play phase: any card in hand. Choose phase (a staged capture, core/_staged): TAKE k for
    every floor card k that keeps the choice inside some legal capture set, DONE iff the cards
    chosen form a legal set."""
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef uint64_t sets[BA_MAXSETS]
    cdef uint64_t chosen = chosen_of(s)
    cdef SetsCtx x
    cdef int i, cnt = 0
    out.w[0] = 0
    out.w[1] = 0
    if s.phase == BA_PH_PLAY:
        out.w[0] = s.hand[s.turn]
        return cs_popcount(s.hand[s.turn])
    if s.phase != BA_PH_CHOOSE:
        return 0
    x.sets = sets
    x.n = capture_sets(s.floor, s.choice.target, c, sets)
    for i in range(x.n):
        if sets[i] == chosen:
            as_add(out, BA_COMMIT)
            cnt = 1
            break
    return cnt + staged_legal_adds(&s.choice, s.floor & ~chosen, BA_TAKE0, inside_some_set, &x, out)

cdef void narrow(BasraState* s, const BasraConfig* c) noexcept nogil:
    """Choose phase: pre-choose the cards common to every compatible set; resolve the play
    when one compatible set is left."""
    cdef uint64_t sets[BA_MAXSETS]
    cdef uint64_t inter = ~(<uint64_t>0), one = 0, chosen = chosen_of(s)
    cdef int n, i, cnt = 0
    n = capture_sets(s.floor, s.choice.target, c, sets)
    for i in range(n):
        if (sets[i] & chosen) == chosen:
            inter &= sets[i]
            one = sets[i]
            cnt += 1
    if cnt == 1:
        resolve_play(s, c, s.choice.target, one)
        return
    inter &= ~chosen
    while inter:
        staged_add(&s.choice, bit_low(inter))
        inter &= inter - 1

cdef void ba_apply(void* st, const void* cfg, int a) noexcept nogil:
    cdef BasraState* s = <BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef uint64_t sets[BA_MAXSETS]
    cdef Hand taken
    cdef int n, card
    if s.phase == BA_PH_PLAY:
        s.hand[s.turn] &= ~bit(a)
        s.played[s.turn] |= bit(a)
        n = capture_sets(s.floor, a, c, sets)
        if n == 1:
            resolve_play(s, c, a, sets[0])
            return
        s.phase = BA_PH_CHOOSE
        staged_start(&s.choice, BA_STAGE_CAPTURE, a)
        narrow(s, c)
    elif s.phase == BA_PH_CHOOSE:
        if a == BA_COMMIT:
            card = s.choice.target
            staged_commit(&s.choice, &taken)
            resolve_play(s, c, card, taken.layer[0])
        else:
            staged_add(&s.choice, a - BA_TAKE0)
            narrow(s, c)

cdef bint ba_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const BasraState*>st).phase == BA_PH_END

cdef void ba_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef int p, sd
    cdef double tot = 0.0, own
    if c.match and c.best_of_5:                    # the match result is games won, not points
        for sd in range(c.nsides):
            tot += s.games_won[sd]
        for p in range(c.nplayers):
            own = s.games_won[side_of(c, p)]
            out[p] = own - (tot - own) / (c.nsides - 1)
        return
    for sd in range(c.nsides):
        tot += s.total_half[sd]
    for p in range(c.nplayers):
        own = s.total_half[side_of(c, p)]
        out[p] = (own - (tot - own) / (c.nsides - 1)) / 2.0

cdef void ba_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef int sd, k = 0
    for sd in range(c.nsides):
        out[k] = s.total_half[sd] / 2.0
        out[k + 1] = cs_popcount(s.pile[sd])
        out[k + 2] = s.nbasra[sd]
        k += 3
    out[k] = s.majority_side
    out[k + 1] = s.carry
    out[k + 2] = s.winner
    out[k + 3] = s.deal_no


# ---------------------------------------------------------------------------------------------
# greedy agent
# ---------------------------------------------------------------------------------------------
cdef double play_value(const BasraState* s, const BasraConfig* c, int card, uint64_t S) noexcept nogil:
    cdef double v = 0.0
    cdef uint64_t taken, m, rest
    cdef int k
    if S:
        taken = S | bit(card)
        m = taken
        while m:
            k = bit_low(m)
            m &= m - 1
            v += c.card_half[k] * 0.5 + 0.75
        if S == s.floor:
            v += basra_points(c, card, s.floor, False) + 2.0
        else:
            rest = s.floor & ~S
            if cs_popcount(rest) == 1:
                v -= 3.0
        if is_sweeper(c, card):
            v -= 4.0
    else:
        v -= c.card_half[card] * 0.5 + 0.5
        if s.floor == 0:
            v -= 3.0
    return v

cdef int ba_greedy(const void* st, const void* cfg, const ActionSet* legal, int n_legal, Rng* rng) noexcept nogil:
    cdef const BasraState* s = <const BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef uint64_t sets[BA_MAXSETS]
    cdef uint64_t m, bestset = 0, chosen
    cdef int card, n, i, best = -1
    cdef double v, bv = -1e18
    if s.phase == BA_PH_PLAY:
        m = s.hand[s.turn]
        while m:
            card = bit_low(m)
            m &= m - 1
            n = capture_sets(s.floor, card, c, sets)
            for i in range(n):
                v = play_value(s, c, card, sets[i])
                if v > bv:
                    bv = v
                    best = card
        return best
    chosen = chosen_of(s)
    n = capture_sets(s.floor, s.choice.target, c, sets)
    for i in range(n):
        if (sets[i] & chosen) == chosen:
            v = play_value(s, c, s.choice.target, sets[i])
            if v > bv:
                bv = v
                bestset = sets[i]
    if bestset == chosen:
        return BA_COMMIT
    return BA_TAKE0 + bit_low(bestset & ~chosen)


# ---------------------------------------------------------------------------------------------
# Python face
# ---------------------------------------------------------------------------------------------
BA_TAKE0_ACTION = BA_TAKE0
BA_COMMIT_ACTION = BA_COMMIT
OBS_SIZE = 52 * 2 + 52 * 8 + 52 * 5 + 4 + 1 + 20 + 1 + 5 + 4 + 4 + 4 + 3 + 3 + 1 + 4

cdef class BasraSpec(GameSpec):
    cdef BasraConfig c

    def __init__(self, dict opts):
        n = opts["players"]
        self.c.nplayers = n
        self.c.nsides = 2 if (n == 4 and opts["partnership"]) else n
        self.c.deck = opts["deck"]
        self.c.hand_size = opts["hand_size"]
        self.c.cut_peek = ("dealer", "both", "none").index(opts["cut_peek"])
        self.c.floor_bury = ("bottom10", "bottom", "random").index(opts["floor_bury"])
        self.c.d7_sweep = opts["seven_diamonds"] == "sweep"
        self.c.rank_all = opts["same_rank_take"] == "all"
        self.c.cap_maximum = opts["capture_mode"] == "maximum"
        self.c.sweep_bonus = opts["sweep_bonus"]
        self.c.floor_max = 0 if opts["basra_floor_max"] == "none" else opts["basra_floor_max"]
        self.c.lone_rule = opts["lone_rule"]
        self.c.lone_double = opts["lone_value"] == "double_value"
        self.c.face_basra_value = opts["face_value_for_basra"]
        self.c.d7_yemeni = opts["seven_d_rule"] == "yemeni"
        self.c.jack_lone_jack = opts["jack_on_lone_jack"]
        self.c.queen_lone_queen = opts["queen_on_lone_queen"]
        self.c.face_doubling = {"off": 0, "QKJ": 1, "J_only": 2}[opts["face_doubling"]]
        table = opts["_card_half"]
        for k in range(52):
            self.c.card_half[k] = table[k]
        self.c.majority_half = 2 * opts["majority_points"]
        self.c.majority_carry = opts["majority_tie"] == "carry"
        self.c.basra_last = opts["basra_on_last_play"]
        self.c.ladder = opts["target"] == "ladder"
        self.c.target = 51 if self.c.ladder else opts["target"]
        self.c.sudden_death = opts["tie_rule"] == "sudden_death"
        self.c.best_of_5 = opts["match"] == "best_of_5_150"
        self.c.match = opts["scope"] == "match"
        self.c.max_deals = opts["max_deals"]
        self.vt.init = ba_init
        self.vt.current_player = ba_current_player
        self.vt.legal = ba_legal
        self.vt.apply = ba_apply
        self.vt.is_terminal = ba_is_terminal
        self.vt.returns = ba_returns
        self.vt.observe = ba_observe
        self.vt.resample = ba_resample
        self.vt.greedy = ba_greedy
        self.vt.metrics = ba_metrics
        names = []
        for sd in range(self.c.nsides):
            names += [f"points_{sd}", f"cards_{sd}", f"basras_{sd}"]
        self.install("basra", &self.c, n, BA_NUM_ACTIONS, sizeof(BasraState), OBS_SIZE,
                     tuple(names) + ("majority_side", "carry", "winner", "deals"), "zero",
                     {k: v for k, v in opts.items() if not k.startswith("_")})

    @property
    def num_sides(self):
        return self.c.nsides

    def side_of(self, p):
        """The side of seat p (0..players-1): partners opposite with 4 players in partnership."""
        p = check_int(p, "basra: seat", 0, self.c.nplayers - 1, ConfigError)
        return side_of(&self.c, p)

    # ---- strings --------------------------------------------------------------------------
    def _action_string(self, State s, int a):
        if a < 52:
            return card_str(a)
        if a == BA_COMMIT:
            return "DONE"
        return "TAKE " + card_str(a - BA_TAKE0)

    def _parse_action(self, State s, str text):
        t = text.strip().upper()
        if t in ("DONE", "COMMIT", "CAPTURE"):
            return BA_COMMIT
        take = False
        if t.startswith("TAKE"):
            t = t[4:].strip()
            take = True
        elif t.startswith("+"):
            t = t[1:].strip()
            take = True
        elif (<BasraState*>self._data(s)).phase == BA_PH_CHOOSE:
            take = True
        try:
            k = parse_card(t)
        except ParseError:
            raise ParseError(f"basra: cannot parse action {short(text)}; expected a card to play ('7D', "
                             f"'10H'), 'TAKE <card>' to pick a floor card, or 'DONE'") from None
        return BA_TAKE0 + k if take else k

    def _hand_strings(self, State s, int p):
        return mask_to_cards((<BasraState*>self._data(s)).hand[p])

    def _phase_name(self, State s):
        return ("play", "choose", "end")[(<BasraState*>self._data(s)).phase]

    @property
    def deck_size(self):
        return self.c.deck

    def _card_total(self, State s):
        """Cards in hands + floor + captured piles + stock + the card being played."""
        cdef BasraState* st = <BasraState*>self._data(s)
        cdef uint64_t allm = st.floor
        cdef int n = cs_popcount(st.floor) + st.nstock
        for p in range(4):
            n += cs_popcount(st.hand[p]) + cs_popcount(st.pile[p])
            allm |= st.hand[p] | st.pile[p]
        for i in range(st.nstock):
            allm |= bit(st.stock[i])
        if st.phase == BA_PH_CHOOSE:
            n += 1
            allm |= bit(st.choice.target)
        return n if allm == bit(self.c.deck) - 1 else -n

    def _view(self, State s):
        """A dict of the facts of the state (for tests and display; includes hidden ones)."""
        cdef BasraState* st = <BasraState*>self._data(s)
        S = self.c.nsides
        return {
            "phase": self.phase_name(s), "dealer": st.dealer, "turn": st.turn,
            "cutter": (st.dealer - 1) % self.c.nplayers,          # the dealer's left cuts (§3.1)
            "floor": mask_to_cards(st.floor),
            "hands": [mask_to_cards(st.hand[p]) for p in range(self.c.nplayers)],
            "stock": [card_str(st.stock[i]) for i in range(st.nstock - 1, -1, -1)],   # top first
            "piles": [mask_to_cards(st.pile[i]) for i in range(S)],
            "doubled": [mask_to_cards(st.doubled[i]) for i in range(S)],
            "buried": mask_to_cards(st.buried),
            "peek": card_str(st.peek) if st.peek >= 0 else None,
            "pending": card_str(st.choice.target) if st.phase == BA_PH_CHOOSE else None,
            "chosen": mask_to_cards(chosen_of(st)),
            "last_capturer": None if st.last_capturer < 0 else st.last_capturer,
            "basras": [st.nbasra[i] for i in range(S)],
            "basra_points": [st.basra_half[i] / 2.0 for i in range(S)],
            "deal_points": [st.deal_half[i] / 2.0 for i in range(S)],
            "game_points": [st.cum_half[i] / 2.0 for i in range(S)],
            "total_points": [st.total_half[i] / 2.0 for i in range(S)],
            "games_won": [st.games_won[i] for i in range(S)],
            "carry": st.carry, "majority_side": None if st.majority_side < 0 else st.majority_side,
            "target": (51 + 10 * st.last_target) if self.c.ladder else (150 if self.c.best_of_5 else self.c.target),
            "deals": st.deal_no, "games": st.game_no,
            "winner": None if st.winner < 0 else st.winner,
        }

    def _render(self, State s):
        v = self.view(s)
        lines = [f"Basra  phase={v['phase']}  dealer={v['dealer']}  deal {v['deals'] + (v['phase'] != 'end')}"
                 f"  game points {v['game_points']}  carry {v['carry']}  stock {len(v['stock'])}"]
        lines.append("floor: " + (" ".join(v["floor"]) or "-"))
        for p, h in enumerate(v["hands"]):
            mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
            lines.append(f"{mark}{p}: {' '.join(h)}")
        if v["pending"]:
            lines.append(f"playing {v['pending']}, chosen: {' '.join(v['chosen']) or '-'}")
        lines.append("captured: " + "  ".join(f"side {i}: {len(pl)} cards, {b} basras"
                                              for i, (pl, b) in enumerate(zip(v["piles"], v["basras"]))))
        return "\n".join(lines)

    # ---- scenario set-up --------------------------------------------------------------------
    def scenario(self, hands, **facts):
        """A state built from card strings, for scenario tests and analysis; every argument is
        validated before the state is touched (ConfigError / ParseError).

        hands: one card list per seat (at most hand_size cards each), with the public facts
        floor, stock (top card first), piles (cards captured per side so far), dealer, turn
        (default: dealer's right, dealer + 1), last_capturer (a side or None) and carry
        (majority ties carried in). Cards listed nowhere are out of play (the pack is then
        incomplete, which scenarios allow). Or hands=None and pack=[52 or 44 cards, top first]
        (with dealer): a fresh deal dealt from that pack exactly as the engine deals (§3)."""
        unknown = sorted(set(facts) - {"floor", "stock", "dealer", "turn", "last_capturer", "piles", "carry",
                                       "pack"})
        if unknown:
            raise ConfigError(f"basra: unknown scenario facts {unknown}; known: floor, stock, dealer, turn, "
                              f"last_capturer, piles, carry (or pack with dealer)")
        if facts.get("pack") is not None:
            if hands is not None or set(facts) - {"pack", "dealer"}:
                raise ConfigError("basra: a scenario from a pack takes only pack= and dealer= (hands=None)")
            return self._from_pack(facts["pack"], facts.get("dealer", 0))
        facts.pop("pack", None)
        return self._position(hands, **facts)

    def deal_pack(self, pack, dealer=0):
        """Same as scenario(None, pack=pack, dealer=dealer)."""
        return self._from_pack(pack, dealer)

    def position(self, hands, floor, stock=(), dealer=0, turn=None, last_capturer=None, piles=None, carry=0):
        """Same as scenario(hands, floor=..., ...)."""
        return self._position(hands, floor, stock, dealer, turn, last_capturer, piles, carry)

    def _from_pack(self, pack, dealer):
        cdef State s
        cdef BasraState* st
        cdef int i
        m = cards_to_mask(pack, self.c.deck)
        if len(pack) != self.c.deck:
            raise ConfigError(f"basra: the pack must hold all {self.c.deck} cards, got {len(pack)}")
        dealer = check_int(dealer, "basra: dealer", 0, self.c.nplayers - 1, ConfigError)
        ids = [parse_card(t) for t in pack]
        s = self._scenario_state()
        st = <BasraState*>self._data(s)
        for i, k in enumerate(reversed(ids)):
            st.stock[i] = k
        st.nstock = self.c.deck
        st.dealer = dealer
        deal_from_stock(st, &self.c)
        return s

    def _position(self, hands, floor=(), stock=(), dealer=0, turn=None, last_capturer=None, piles=None, carry=0):
        cdef State s
        cdef BasraState* st
        cdef int p, i
        N = self.c.nplayers
        if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)):
            raise ParseError(f"basra: hands must be a list of {N} card lists, got {hands!r:.60}")
        if len(hands) != N:
            raise ConfigError(f"basra: need {N} hands, got {len(hands)}")
        hm = [cards_to_mask(h, self.c.deck) for h in hands]
        for p, h in enumerate(hands):
            if len(h) > self.c.hand_size:
                raise ConfigError(f"basra: hand {p} holds {len(h)} cards; a hand holds at most "
                                  f"hand_size = {self.c.hand_size}")
        fm = cards_to_mask(floor, self.c.deck)
        sm = cards_to_mask(stock, self.c.deck)
        if piles is None:
            piles = ()
        if isinstance(piles, (str, bytes)) or not isinstance(piles, (list, tuple)) or len(piles) > self.c.nsides:
            raise ConfigError(f"basra: piles must be a list of at most {self.c.nsides} card lists (one per "
                              f"side), got {piles!r:.60}")
        pm = [cards_to_mask(pl, self.c.deck) for pl in piles]
        dealer = check_int(dealer, "basra: dealer", 0, N - 1, ConfigError)
        turn = (dealer + 1) % N if turn is None else check_int(turn, "basra: turn", 0, N - 1, ConfigError)
        last_capturer = -1 if last_capturer is None else check_int(last_capturer, "basra: last_capturer (a side)", 0,
                                                                   self.c.nsides - 1, ConfigError)
        carry = check_int(carry, "basra: carry", 0, MAX_CARRY, ConfigError)
        used = 0
        for m in hm + [fm, sm] + pm:
            if used & m:
                raise ConfigError("basra: a card appears twice in the position")
            used |= m
        if hm[turn] == 0:
            raise ConfigError(f"basra: the seat to act ({turn}) must hold a card")
        # Play goes round from the seat to act, one card per seat (§4.1): a real deal has the
        # seats from `turn` on holding m cards, those that already played this round m - 1 (B-D27).
        # Other shapes end in a seat to act with no card while others still hold some (a dead end).
        sizes = [len(hands[(turn + j) % N]) for j in range(N)]
        if any(sizes[j] < sizes[j + 1] for j in range(N - 1)) or sizes[N - 1] < sizes[0] - 1:
            raise ConfigError(f"basra: hand sizes {[len(h) for h in hands]} cannot occur with seat {turn} to act: "
                              f"going round the table from the seat to act, hand sizes never grow and differ "
                              f"by at most one (the seats that already played this round hold one fewer)")
        if len(stock) % N:
            raise ConfigError(f"basra: the stock holds {len(stock)} cards; a real deal leaves a multiple of "
                              f"the {N} players (every re-deal gives each seat the same number)")
        s = self._scenario_state()
        st = <BasraState*>self._data(s)
        for p in range(4):
            st.hand[p] = hm[p] if p < N else 0
            st.pile[p] = pm[p] if p < len(pm) else 0
            st.played[p] = 0
            st.doubled[p] = 0
            st.nbasra[p] = 0
            st.basra_half[p] = 0
        st.floor = fm
        ids = [parse_card(t) for t in stock]
        for i, k in enumerate(reversed(ids)):
            st.stock[i] = k
        st.nstock = len(ids)
        st.dealer = dealer
        st.turn = turn
        st.last_capturer = last_capturer
        st.buried = 0
        staged_clear(&st.choice)
        st.peek = -1
        st.carry = carry
        st.phase = BA_PH_PLAY
        return s

    def set_scores(self, s, game_points, carry=None, ladder_step=0):
        """Set the current game's points per side (real points, multiples of 0.5) and the carry."""
        cdef BasraState* st = <BasraState*>self._data(s)
        cdef int i
        S = self.c.nsides
        if isinstance(game_points, (str, bytes)) or not isinstance(game_points, (list, tuple)) or len(game_points) != S:
            raise ConfigError(f"basra: game_points must be {S} numbers (one per side), got {game_points!r:.60}")
        halves = [half_points("game_points", v, MAX_POINTS) for v in game_points]
        carry = None if carry is None else check_int(carry, "basra: carry", 0, MAX_CARRY, ConfigError)
        ladder_step = check_int(ladder_step, "basra: ladder_step", 0, 2, ConfigError)
        for i in range(S):
            st.cum_half[i] = halves[i]
            st.total_half[i] = halves[i]
        if carry is not None:
            st.carry = carry
        st.last_target = ladder_step
        return s

    def game_end(self, s):
        """Run the §7 end-of-game check on the current points (-2 play on, -1 draw, else side);
        it may raise the ladder target, as the engine does."""
        cdef BasraState* st = <BasraState*>self._data(s)
        return game_end(&self.c, st.cum_half, &st.last_target)


MAX_CARRY = 10_000            # majority ties carried over: far beyond play, keeps the bonus in range
MAX_POINTS = 1_000_000        # points per side given to set_scores / score_deal

def half_points(name, value, limit):
    """A number of points (a multiple of 0.5, 0..limit, not a bool) -> half points."""
    import numbers
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= limit
            or 2 * value != int(2 * value)):
        raise ConfigError(f"basra: {name} must be multiples of 0.5 in 0..{limit}, got {value!r:.60}")
    return int(2 * value)


# ---- oracles' kernels --------------------------------------------------------------------------
def _oracle_cards(BasraSpec spec, uint64_t floor, int card):
    """The oracle kernels' arguments: a card id and a floor mask of the spec's pack."""
    if not 0 <= card < spec.c.deck or floor >> spec.c.deck or (floor >> card) & 1:
        raise ConfigError(f"basra: card id {card} and floor mask must lie in the {spec.c.deck}-card pack, "
                          f"the card not on the floor")

def oracle_capture_sets(BasraSpec spec, uint64_t floor, int card):
    cdef uint64_t sets[BA_MAXSETS]
    cdef int n
    _oracle_cards(spec, floor, card)
    with nogil:
        n = capture_sets(floor, card, &spec.c, sets)
    return [sets[i] for i in range(n)]

def oracle_basra_points(BasraSpec spec, int card, uint64_t floor, bint last=False):
    _oracle_cards(spec, floor, card)
    return basra_points(&spec.c, card, floor, last)

def oracle_doubles(BasraSpec spec, int card, uint64_t floor):
    """True when this capture of the whole floor doubles the two cards (face_doubling)."""
    _oracle_cards(spec, floor, card)
    return face_doubles(&spec.c, card, floor)

def oracle_score(BasraSpec spec, list piles, list doubled, list basra_points, int carry=0):
    """Score a deal: piles / doubled as masks per side, basra points per side (real points).
    Returns (points per side as real points, new carry, majority side or -1)."""
    cdef uint64_t p[4]
    cdef uint64_t d[4]
    cdef int32_t b[4]
    cdef int32_t out[4]
    cdef int32_t cr = carry
    cdef int8_t ms = -1
    for i in range(4):
        p[i] = piles[i] if i < len(piles) else 0
        d[i] = doubled[i] if i < len(doubled) else 0
        b[i] = int(round(2 * basra_points[i])) if i < len(basra_points) else 0
        out[i] = 0
    score_deal(&spec.c, p, d, b, &cr, out, &ms)
    return [out[i] / 2.0 for i in range(spec.c.nsides)], cr, ms
