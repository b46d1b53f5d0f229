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
Legal sets are enumerated exactly by the pure rules module `_rules` (capture_sets, with
its bounds documented there).

Layout (ext/cardsim/games/basra/): `_rules` holds the config and the pure rules on cards and
config (capture sets, basra points, deal scoring, the game-end check) and the compiled oracle
entry points; this module the state struct and the state machine (deal, legal, apply, returns,
metrics); `_agent` the greedy agent; `_observe` the observation and the resample of the hidden
cards; `_spec` the thin glue (BasraSpec: config from the resolved options, the vtable, the
struct read/write hooks). The Python face `cardsim.games.basra` holds the options (INFO),
validation, card notation, the scenario builders and the public oracles. Core mechanisms used:
the core shuffle (deal, floor burial), staged moves (the capture choice: target = the card
played, adds = TAKE, completable = still inside some legal set), the resample policy,
GameSpec.install_game and _scenario_state. Scenario states: cardsim.games.basra.scenario(game,
hands, floor=, stock=, dealer=, turn=, last_capturer=, piles=, carry=) or scenario(game, None,
pack=, dealer=); every argument is validated before the state is touched.

Returns: per seat, its side's points minus the mean of the other sides' points (zero-sum), for
the deal (scope "deal") or summed over every deal of the game / match (scope "match"). Points
are real points (Syrian halves as .5); the kernel keeps half points. With two sides this is
"own minus opponents". A best-of-5 match (scope "match", match "best_of_5_150") is decided by
games won, so its returns are games won minus the mean of the other sides' games won: they rank
the sides as the match result does (total points could name the loser; they stay in the
metrics). Metrics: points_s, cards_s, basras_s per side (last deal; points are the
whole state's), majority_side (-1 none), carry, winner (scope match: side, -1 draw/none), deals.

Observation: the named blocks of INFO.observation (cardsim.games.basra.info), whose offsets are
the OBS_<BLOCK> constants of the generated `_layout.pxd`; written by `_observe`.

Greedy agent: for every card in hand and every legal capture set of it, scores the play as
card points taken + 0.75 per card taken (majority) + basra points + 2 for leaving an empty
floor - 3 for leaving a single floor card (an easy basra for the next player) - 4 for spending
a J or ♦7 sweeper; a trail costs the trailed card's points + 0.5 and 3 more if it leaves a lone
card. Plays the best (lowest card id on ties); in the choose phase it steers to its best set. (In `_agent`.)
"""
from libc.string cimport memset, memmove, memcpy
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._actions cimport ActionSet, as_add
from cardsim.core._hand cimport Hand
from cardsim.core._deal cimport shuffle, cs_identity_pack64
from cardsim.core._staged cimport Staged, staged_clear, staged_start, staged_add, staged_commit, staged_legal_adds
from cardsim.games.basra._rules cimport (
    BasraConfig, BA_MAXSETS, BA_D7, ba_jacks, side_of, face_doubles, capture_sets, capture_quick_found, capture_sets_summed,
    basra_points, score_deal, game_end)


cdef inline int next_seat(const BasraConfig* c, int p) noexcept nogil:
    """The seat after p (counter-clockwise), without a division."""
    p += 1
    return 0 if p == c.nplayers else p

cdef inline bint hands_left(const BasraState* s) noexcept nogil:
    """Some seat still holds cards (seats past nplayers always hold nothing)."""
    return (s.hand[0] | s.hand[1] | s.hand[2] | s.hand[3]) != 0


# ---------------------------------------------------------------------------------------------
# deal
# ---------------------------------------------------------------------------------------------
cdef inline int draw(BasraState* s) noexcept nogil:
    s.nstock -= 1
    return s.stock[s.nstock]

cdef void shuffle_stock(BasraState* s, const BasraConfig* c) noexcept nogil:
    """A fresh pack shuffled on the deal stream (the core shuffle); stock[0] is the bottom card."""
    memcpy(s.stock, cs_identity_pack64, c.deck)     # shuffled_pack: a fresh pack, shuffled
    shuffle(s.stock, c.deck, &s.rng)
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
    cdef int i, j, p = s.dealer, n = s.nstock
    cdef uint64_t h
    for i in range(c.nplayers):
        p += 1
        if p == c.nplayers:
            p = 0
        h = 0
        if k == 4:                          # the usual hand size, unrolled
            h = (card_bit(s.stock[n - 1]) | card_bit(s.stock[n - 2]) | card_bit(s.stock[n - 3])
                 | card_bit(s.stock[n - 4]))
            n -= 4
        else:
            for j in range(k):              # draw() with the stock count in a register
                n -= 1
                h |= card_bit(s.stock[n])
        s.hand[p] |= h
    s.nstock = n

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
        s.floor |= card_bit(draw(s))
    bad = ba_jacks | (card_bit(BA_D7) if c.d7_sweep else 0)
    guard = 0
    while s.floor & bad and guard < 200:
        f = bit_low(s.floor & bad)
        s.floor &= ~card_bit(f)
        bury(s, c, f)
        s.buried |= card_bit(f)
        s.floor |= card_bit(draw(s))
        guard += 1
    s.turn = next_seat(c, s.dealer)
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
    s.dealer = next_seat(c, s.dealer)
    new_deal(s, c)

cdef void clear_floor(BasraState* s, const BasraConfig* c, int card, uint64_t F, int side, bint last) noexcept nogil:
    """A capture took the whole floor F (§4.3): basra points, Syrian face doubling."""
    cdef int pts = basra_points(c, card, F, last)
    if pts:
        s.basra_half[side] += 2 * pts
        s.nbasra[side] += 1
    if face_doubles(c, card, F):
        s.doubled[side] |= F | card_bit(card)

cdef void hands_out(BasraState* s, const BasraConfig* c) noexcept nogil:
    """Every hand is empty: re-deal from the stock, or finish the deal."""
    cdef int i
    if s.nstock > 0:                               # re-deal, no floor cards (§3.7, B-D24)
        i = s.nstock // c.nplayers
        deal_hands(s, c, c.hand_size if c.hand_size < i else i)
        s.turn = next_seat(c, s.dealer)
        return
    finish_deal(s, c)

# The rare steps of a play, called through pointers: the compiler then keeps them out of
# resolve_play, whose common path (a card trailed or a partial capture, hands left) stays a
# small leaf without the register saves the deal's end would need.
ctypedef void (*clear_floor_fn)(BasraState* s, const BasraConfig* c, int card, uint64_t F, int side,
                                bint last) noexcept nogil
ctypedef void (*hands_out_fn)(BasraState* s, const BasraConfig* c) noexcept nogil
cdef clear_floor_fn clear_floor_p = clear_floor
cdef hands_out_fn hands_out_p = hands_out

cdef void resolve_play(BasraState* s, const BasraConfig* c, int card, uint64_t S) noexcept nogil:
    """Put `card` with capture set S (empty = trail) into effect (§4.1), then move on. The
    stage must be clear (the choose phase clears it before)."""
    resolve_play_inline(s, c, card, S)

cdef inline void resolve_play_inline(BasraState* s, const BasraConfig* c, int card, uint64_t S) noexcept nogil:
    """resolve_play, inline in the common step of a play (one legal set)."""
    cdef int side, nxt = next_seat(c, s.turn)
    cdef uint64_t F = s.floor
    # hands_left, asked of the next seat's hand first (seats past nplayers hold nothing)
    cdef bint held = s.hand[nxt] != 0 or hands_left(s)
    if S == 0:
        s.floor = F | card_bit(card)
    else:
        side = side_of(c, s.turn)
        s.pile[side] |= S | card_bit(card)
        s.floor = F & ~S
        s.last_capturer = side
        if S == F:
            clear_floor_p(s, c, card, F, side, s.nstock == 0 and not held)
    s.phase = BA_PH_PLAY
    if held:
        s.turn = nxt
        return
    hands_out_p(s, c)

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
    return _ba_legal_impl(st, cfg, out)

cdef inline int _ba_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    """Play phase: any card in hand. Choose phase (a staged capture, core/_staged): TAKE k for
    every floor card k that keeps the choice inside some legal capture set, DONE iff the cards
    chosen form a legal set."""
    cdef const BasraState* s = <const BasraState*>st
    cdef uint64_t h
    out.w[1] = 0
    if s.phase == BA_PH_PLAY:
        h = s.hand[s.turn]
        out.w[0] = h
        return cs_popcount(h)
    out.w[0] = 0
    if s.phase != BA_PH_CHOOSE:
        return 0
    return choose_legal(s, <const BasraConfig*>cfg, out)

cdef int choose_legal(const BasraState* s, const BasraConfig* c, ActionSet* out) noexcept nogil:
    """ba_legal in the choose phase (its own frame: the set list stays off the play path)."""
    cdef uint64_t sets[BA_MAXSETS]
    cdef uint64_t chosen = chosen_of(s)
    cdef SetsCtx x
    cdef int i, cnt = 0
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
    narrow_sets(s, c, sets, capture_sets(s.floor, s.choice.target, c, sets))

cdef inline void narrow_sets(BasraState* s, const BasraConfig* c, const uint64_t* sets, int n) noexcept nogil:
    """narrow, given the n capture sets of the card being played on the floor."""
    cdef uint64_t inter = ~(<uint64_t>0), one = 0, chosen = chosen_of(s)
    cdef int i, cnt = 0
    for i in range(n):
        if (sets[i] & chosen) == chosen:
            inter &= sets[i]
            one = sets[i]
            cnt += 1
    if cnt == 1:
        i = s.choice.target
        staged_clear(&s.choice)
        resolve_play(s, c, i, one)
        return
    inter &= ~chosen
    while inter:
        staged_add(&s.choice, bit_low(inter))
        inter &= inter - 1

cdef void play_searched(BasraState* s, const BasraConfig* c, int a, int found) noexcept nogil:
    """ba_apply of a play whose capture sets need the sum search, `found` sum groups (its own
    frame: the set list stays off the common path)."""
    cdef uint64_t sets[BA_MAXSETS]
    cdef int n = capture_sets_summed(s.floor, a, c, found, sets)
    if n == 1:
        resolve_play(s, c, a, sets[0])
        return
    s.phase = BA_PH_CHOOSE
    staged_start(&s.choice, BA_STAGE_CAPTURE, a)
    narrow_sets(s, c, sets, n)                     # the floor is the same: the same sets

cdef void ba_apply(void* st, const void* cfg, int a) noexcept nogil:
    _ba_apply_impl(st, cfg, a)

cdef inline void _ba_apply_impl(void* st, const void* cfg, int a) noexcept nogil:
    cdef BasraState* s = <BasraState*>st
    cdef const BasraConfig* c = <const BasraConfig*>cfg
    cdef Hand taken
    cdef uint64_t one, b
    cdef int n, card, p, found
    if s.phase == BA_PH_PLAY:
        b = card_bit(a)          # only here: a choose-phase action is no card (>= 64 would be UB)
        p = s.turn
        s.hand[p] &= ~b
        s.played[p] |= b
        n = capture_quick_found(s.floor, a, c, &one, &found)
        if n == 1:
            resolve_play_inline(s, c, a, one)
        elif n == 0:
            play_searched(s, c, a, found)
        else:
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
            out[p] = ba_versus(own, tot, c.nsides)
        return
    for sd in range(c.nsides):
        tot += s.total_half[sd]
    for p in range(c.nplayers):
        own = s.total_half[side_of(c, p)]
        out[p] = ba_versus(own, tot, c.nsides) / 2.0

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


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _ba_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return ba_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _ba_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (BA_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
