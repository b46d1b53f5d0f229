"""Karnöffel (Nördlingen, 1426): 4 or 6 players in two teams, a chosen suit fixed by the lowest
face-up card, privileged cards whose power depends on the led suit and on being led, no duty to
follow, first team to three tricks wins the deal.

Implements docs/rules/karnoffel.md §1-§8 and follows its decisions D1-D7 as written: the
Dummett/Parlett ranking of the privileged cards (D1); the deal stops as soon as a team holds 3
tricks (D2, option stop_at_three); one game point per deal, a match to match_target = 5 (D3);
partial beaters blocked only by a King/Queen/Jack of the led suit (D4); up-cards stay public
until played (D5); the lowest of N up-cards chooses the suit, ties to the earliest dealt (D6);
the Devil may lead any trick (D7). KAISER_BANNERS is not implemented (the spec gives no rank for
a declared Banner); the option's check in INFO (info.py) rejects it with a ConfigError.

Layout (the template for every game, docs/ADDING_A_GAME.md; ext/cardsim/games/karnoffel/):
`_rules` the pure rules on cards and config (chosen suit, trick winner) and the compiled oracles;
this module the state struct and the state machine (deal, legal, apply, scoring); `_agent` the
greedy agent; `_observe` observation and resampling; `_layout.pxd` the observation offsets
(generated from INFO.observation); `_spec` the thin glue (KarnoffelSpec: config, vtable, the
struct's string and scenario hooks). The Python face cardsim.games.karnoffel holds INFO
(info.py: options, metrics, observation blocks, bounds), the card notation, the public oracles
and scenario(). Core mechanisms used: draw_up and deal_up (deal: shuffle_prefix's draws, each card
dealt as it is drawn), TrickRecord (current trick), resample_masks and resample_rekey (resample),
card_bit, GameSpec.install_game, _scenario_state (scenario).

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

Observation: the blocks (own hand, up-cards, cards played, tricks, chosen suit, scores, ...)
are declared once in INFO.observation (src/cardsim/games/karnoffel/info.py, printed by
INFO.layout_doc() and in docs/observations.md); `_layout.pxd` holds their generated offsets and
`_observe` writes each block at its OBS_<BLOCK> offset.

Greedy agent: see `_agent` (cheapest sure card on lead, else the Devil, else the cheapest card;
cheapest winning card when following unless the partner holds the trick).
"""
from libc.string cimport memset, memcpy
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.core._bits cimport cs_popcount, card_bit
from cardsim.core._types cimport card_t
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._deal cimport cs_identity_pack64, draw_up, deal_up
from cardsim.core._trick cimport trick_start, trick_add, trick_done
from cardsim.core._actions cimport ActionSet
from cardsim.games.karnoffel._rules cimport (KNConfig, KN_DECK, KN_HAND, KN_TRICKS, kn_full, team_of,
                                             card_suit, card_rank, kn_trick_winner_card, kn_chosen_suit)

cdef void deal_cards(KNState* s, int N) noexcept nogil:
    """Shuffle and deal (§3) as drawn (core draw_up / deal_up): the partial Fisher-Yates on the
    deal stream (core shuffle_prefix's draws) draws the 5N dealt cards in dealing order, each
    card going to its seat as it is drawn (the rest is the unused stock, whose order never
    matters): pack position i to seat (first + i) % N. Round 1 (one face-up card each) and
    rounds 2-5 go to next(dealer), ..., dealer; the lowest up-card (the earliest on a tie)
    chooses the suit (§3.4, _rules.kn_chosen_suit). Resets the deal."""
    cdef card_t perm[KN_DECK]
    cdef uint64_t h[6]                      # rounds 2-5: seat first + k
    cdef int i, q, x, first = s.dealer + 1, low = KN_DECK
    cdef Rng r = s.rng                      # local copy of the stream (see core shuffle_prefix)
    if first == N:
        first = 0
    memcpy(perm, cs_identity_pack64, KN_DECK)
    memset(s.played, 0, sizeof(s.played))
    memset(s.up, -1, sizeof(s.up))
    memset(h, 0, sizeof(h))
    q = first
    for i in range(N):                      # round 1, positions 0..N-1: the face-up cards
        x = draw_up(perm, KN_DECK, i, &r)
        h[i] = card_bit(x)
        s.up[q] = x
        if card_rank(x) < low:              # strictly lower: a tie stays with the earlier card
            low = card_rank(x)
            s.chosen = card_suit(x)
        q += 1
        if q == N:
            q = 0
    if N == 4:                              # rounds 2-5, positions N..5N-1 (N a constant in
        deal_up(h, perm, KN_DECK, 4, 20, 4, &r)     # each call: the round is specialised)
    else:
        deal_up(h, perm, KN_DECK, 6, 30, 6, &r)
    s.rng = r
    memset(s.hand, 0, sizeof(s.hand))
    for i in range(N):                      # h[k] is seat first + k's
        s.hand[q] = h[i]
        q += 1
        if q == N:
            q = 0
    s.stock = kn_full & ~(s.hand[0] | s.hand[1] | s.hand[2] | s.hand[3] | s.hand[4] | s.hand[5])
    memset(s.card_trick, -1, 48)
    memset(s.trick_leader, -1, 5)
    memset(s.trick_winner, -1, 5)
    s.team_tricks[0] = 0
    s.team_tricks[1] = 0
    s.tricks_done = 0
    s.tmask = 0
    trick_start(&s.cur, first, N)
    s.turn = s.cur.leader
    s.trick_leader[0] = s.cur.leader
    s.phase = KN_PH_PLAY

cdef void kn_set_deal(KNState* s, int N, int dealer, const uint64_t* hands, const int8_t* up) noexcept nogil:
    """The scenario setter: a fresh deal by `dealer` (the deal reset as deal_cards does it, which
    also advances the deal stream) with these hands (disjoint masks of 5 cards) and up-cards
    (up[q] a card of hands[q]); the chosen suit follows from the up-cards in dealing order
    (§3.4) and the undealt cards form the stock. Checked arguments only (the face checks them)."""
    cdef int8_t upo[6]
    cdef uint64_t allm = 0
    cdef int q, i
    s.dealer = dealer
    deal_cards(s, N)
    for q in range(N):
        s.hand[q] = hands[q]
        s.up[q] = up[q]
        allm |= hands[q]
    for i in range(N):
        upo[i] = up[(dealer + 1 + i) % N]
    s.chosen = kn_chosen_suit(upo, N)
    s.stock = kn_full & ~allm

cdef void kn_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    cdef KNState* s = <KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    # every byte of the struct gets set (State equality compares the bytes) without a memset of
    # it all: deal_cards sets the deal's fields, this the match's: rng, dealer, deal_winner, and
    # deal_no, the padding after it and score as one block (they end where tmask starts)
    s.rng = rng[0]
    s.dealer = <int8_t>rng_below(&s.rng, c.nplayers)   # first dealer at random (§1)
    s.deal_winner = -1
    memset(&s.deal_no, 0, <size_t>(<char*>&s.tmask - <char*>&s.deal_no))
    deal_cards(s, c.nplayers)

cdef int kn_current_player(const void* st, const void* cfg) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    return -1 if s.phase == KN_PH_END else s.turn

cdef bint kn_is_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const KNState*>st).phase == KN_PH_END

cdef int kn_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _kn_legal_impl(st, cfg, out)

cdef inline int _kn_legal_impl(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
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
    _kn_apply_impl(st, cfg, card)

cdef inline void _kn_apply_impl(void* st, const void* cfg, int card) noexcept nogil:
    """Play one card (§5). Action: the card leaves the hand for the trick; after N cards the
    winner takes the trick and leads the next; at 3 tricks for a team (or after 5 tricks when
    stop_at_three is off) the deal is scored."""
    cdef KNState* s = <KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef int p = s.turn, w, team
    cdef uint64_t b = card_bit(card)
    s.hand[p] &= ~b
    s.played[p] |= b
    s.tmask |= b
    s.card_trick[card] = s.tricks_done
    trick_add(&s.cur, p, card)
    if not trick_done(&s.cur):
        p += 1
        s.turn = 0 if p == N else p
        return
    # the winner (kn_trick_winner on the trick's cards, as a mask) leads the next trick
    card = kn_trick_winner_card(s.tmask, s.cur.card[s.cur.leader], s.chosen)
    w = 0
    while s.cur.card[w] != card:
        w += 1
    trick_start(&s.cur, w, N)
    s.tmask = 0
    team = team_of(w)
    s.team_tricks[team] += 1
    s.trick_winner[s.tricks_done] = w
    s.tricks_done += 1
    s.turn = w
    if (c.stop_at_three and s.team_tricks[team] >= 3) or s.tricks_done == KN_TRICKS:
        finish_deal(s, c, 0 if s.team_tricks[0] >= 3 else 1)
    else:
        s.trick_leader[s.tricks_done] = w

cdef void kn_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int d = c.ante * (s.score[0] - s.score[1])      # team 0's; N is even
    cdef double d0 = <double>d, d1 = <double>(-d)      # (-d as an int: a draw gives +0.0)
    cdef int p
    for p in range(0, c.nplayers, 2):
        out[p] = d0
        out[p + 1] = d1

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


# ---- the batch kernel's hot loop, compiled here with this game's own functions inlined ----------
# (core/_play_loop.pxi: play_one runs it through vt.play for every deal it records nothing of)
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport seat_choose, AGENT_RANDOM
from cardsim.core._actions cimport as_first, as_nth

cdef inline int _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    return _kn_legal_impl(st, cfg, out)

cdef inline int _pl_player(const GameVTable* vt, const void* st, const void* cfg) noexcept nogil:
    return kn_current_player(st, cfg)

cdef inline void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a) noexcept nogil:
    _kn_apply_impl(st, cfg, a)

cdef inline int _pl_words(int nw) noexcept nogil:
    return (KN_NUM_ACTIONS + 63) >> 6             # >= nw: the pick stops inside the legal set's words

cdef inline bint _pl_word0(const void* st) noexcept nogil:
    return _pl_words(0) == 1                      # every action in one word: the pick is in w[0]

include "cardsim/core/_play_loop_unfused.pxi"   # no fused random play: every step through the loop
include "cardsim/core/_play_loop.pxi"
