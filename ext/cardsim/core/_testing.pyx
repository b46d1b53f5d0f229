"""Test-only hooks into the core's inline C mechanisms (bits, action sets, hands, dealing, trick
record, resample policy, staged moves, the batch loop's copies). Not part of the public API:
tests/test_core.py and tests/test_play_paths.py drive them; production modules never import this
one."""
from libc.string cimport memcpy
from cardsim.core._types cimport card_t, uint8_t, int8_t, uint32_t, uint64_t, MAX_ACTION_WORDS, MAX_PLAYERS
from cardsim.core._bits cimport bit_nth, bit_nth_portable, cs_popcount, cs_fast_pdep, cs_pdep_nth
from cardsim.core._rng cimport Rng, rng_seed, rng_next, rng_below
from cardsim.core._actions cimport ActionSet, as_clear, as_has, as_count, as_add_range
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size, put_counts, hand_within
from cardsim.core._deal cimport (shuffle, shuffle_prefix, fill_identity, assign_zones, shuffled_pack,
                                 deal_round_robin, shuffle_deal_four, deal_down, draw_down, deal_up,
                                 draw_up, DEAL_MAX_SEATS, cs_identity_pack64)
from cardsim.core._suited cimport (suit_cards, follow_mask, lowest_by_rank, master_card, longest_side_suit,
                                   long_suit_lead, plain_beaters)
from cardsim.core._trick cimport (TrickRecord, trick_reset, trick_start, trick_add, trick_add_seat,
                                  trick_seat_of, trick_card_at, trick_cards, trick_index_of,
                                  trick_done, trick_empty, trick_set_winner, put_trick_cards,
                                  put_card_tricks, trick_add_positional, trick_reopen,
                                  trick_positional_seat, trick_positional_card_at)
from cardsim.core._resample cimport resample_zones, resample_masks, world_check_fn
from cardsim.core._staged cimport (Staged, staged_clear, staged_start, staged_add, staged_remove,
                                   staged_commit, staged_active, staged_legal_adds, completable_fn)
from cpython.bytearray cimport PyByteArray_AS_STRING
from cardsim.core._rng cimport rng_deal_key, rng_seed_keyed, STREAM_SEAT0
from cardsim.core._actions cimport as_first, as_nth
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport GameSpec, State, seat_choose, check_int, AGENT_RANDOM

# the generic copy of the batch loop (through the vtable), as core/_engine.pyx compiles it: what
# _play_paths plays a state by, beside the game's own copy
include "cardsim/core/_play_loop_generic.pxi"


def _test_bit_nth(uint64_t x, int n):
    return bit_nth(x, n)


def _test_bit_nth_paths(uint64_t x, int n):
    """bit_nth's portable path and, where this CPU runs it (else None), its PDEP path."""
    return bit_nth_portable(x, n), (cs_pdep_nth(x, n) if cs_fast_pdep else None)


def _test_fast_pdep():
    return bool(cs_fast_pdep)


def _test_add_range(int lo, int hi):
    cdef ActionSet s
    as_clear(&s, MAX_ACTION_WORDS)
    as_add_range(&s, lo, hi)
    return [a for a in range(MAX_ACTION_WORDS * 64) if as_has(&s, a)] if as_count(&s, MAX_ACTION_WORDS) == hi - lo else None


def _test_hand(ops, query):
    cdef Hand h
    hand_clear(&h)
    for op, k in ops:
        if op == "add":
            hand_add(&h, k)
        else:
            hand_remove(&h, k)
    return [h.layer[i] for i in range(4)], [hand_count(&h, k) for k in query], hand_size(&h)


cdef int _fill(card_t* dst, list src, int cap) except -1:
    if len(src) > cap:
        raise ValueError(f"at most {cap} entries")
    for i in range(len(src)):
        dst[i] = src[i]
    return len(src)


def _test_assign_zones(list cards, list allowed, list room, uint64_t seed):
    cdef card_t cs[256]
    cdef uint8_t dest[256]
    cdef uint32_t al[256]
    cdef int rm[32]
    cdef Rng r
    cdef int i, ok, n = _fill(cs, cards, 256)
    for i in range(len(allowed)):
        al[i] = allowed[i]
    for i in range(len(room)):
        rm[i] = room[i]
    rng_seed(&r, seed, 0, 0)
    ok = assign_zones(cs, n, al, rm, len(room), dest, &r)
    return [dest[i] for i in range(n)] if ok else None


def _test_shuffle(int n, uint64_t seed, uint64_t deal=0, uint64_t stream=0):
    """shuffle() of 0..n-1 on the (seed, deal, stream) generator."""
    cdef card_t a[256]
    cdef Rng r
    fill_identity(a, n)
    rng_seed(&r, seed, deal, stream)
    shuffle(a, n, &r)
    return [a[i] for i in range(n)]


def _test_shuffle_deal_four(int n, int first, uint64_t seed, uint64_t deal=0):
    """(hands, next draw) of shuffle_deal_four, and of shuffled_pack + deal_round_robin(batch 1) on
    the same stream: the fused deal must equal the two calls, and leave the stream where they do."""
    if n % 4 or not 4 <= n <= 64 or not 0 <= first < 4:
        raise ValueError("n a multiple of 4 in 4..64, first in 0..3")
    cdef uint64_t h1[4]
    cdef uint64_t h2[4]
    cdef card_t a[64]
    cdef Rng r1, r2
    cdef int i
    rng_seed(&r1, seed, deal, 0)
    r2 = r1
    shuffle_deal_four(h1, n, first, &r1)
    for i in range(4):
        h2[i] = 0
    shuffled_pack(a, n, &r2)
    deal_round_robin(a, n, h2, 4, first, 1)
    return ([h1[i] for i in range(4)], rng_next(&r1)), ([h2[i] for i in range(4)], rng_next(&r2))


def _test_deal_as_drawn(int n, list runs, uint64_t seed, bint up=False):
    """The deal as drawn of a fresh pack of n cards (1..64) on the (seed, 0, 0) stream: runs
    [(count, nseats), ...] from the first position drawn (n-1 downwards by deal_down /
    draw_down, or 0 upwards by deal_up / draw_up with `up`); nseats 1..6 deals `count` positions
    round the table, nseats 0 makes `count` single draws. Returns (per run: its nseats masks or
    its cards drawn, the stream's next draw), then (the pack and the stream's next draw) of
    shuffled_pack (or fill_identity + shuffle_prefix(n, total)) on the same stream."""
    cdef card_t a[64]
    cdef card_t ref[64]
    cdef uint64_t h[DEAL_MAX_SEATS]
    cdef Rng r, r2
    cdef int count, ns, k, pos = 0 if up else n - 1, total = 0
    for count, ns in runs:
        if count < 1 or not 0 <= ns <= DEAL_MAX_SEATS:
            raise ValueError("runs of count >= 1 and nseats 0..6")
        total += count
    if not 1 <= n <= 64 or total > n:
        raise ValueError("n in 1..64, at most n positions drawn")
    rng_seed(&r, seed, 0, 0)
    r2 = r
    memcpy(a, cs_identity_pack64, n)
    out = []
    for count, ns in runs:
        if ns == 0:
            cards = []
            for k in range(count):
                cards.append(draw_up(a, n, pos + k, &r) if up else draw_down(a, pos - k, &r))
            out.append(cards)
        else:
            for k in range(DEAL_MAX_SEATS):
                h[k] = 0
            if up:
                deal_up(h, a, n, pos, pos + count, ns, &r)
            else:
                deal_down(h, a, pos, pos - count + 1, ns, &r)
            out.append([h[k] for k in range(ns)])
        pos += count if up else -count
    if up:
        fill_identity(ref, n)
        shuffle_prefix(ref, n, total, &r2)
    else:
        shuffled_pack(ref, n, &r2)
    return (out, rng_next(&r)), ([ref[k] for k in range(n)], rng_next(&r2))


def _test_shuffle_prefix(int n, int k, uint64_t seed, uint64_t deal=0, uint64_t stream=0):
    """shuffle_prefix() of 0..n-1: the whole array afterwards (first k = the drawn prefix)."""
    cdef card_t a[256]
    cdef Rng r
    fill_identity(a, n)
    rng_seed(&r, seed, deal, stream)
    shuffle_prefix(a, n, k, &r)
    return [a[i] for i in range(n)]


def _test_trick(int leader, int size, list plays, int winner_pos=-1):
    """Open a trick, add (seat, card) plays (card None = trick_add_seat), optionally set the
    winner by position; returns a dict of everything the helpers report."""
    cdef TrickRecord t
    cdef int8_t cards[MAX_PLAYERS]
    trick_reset(&t)
    out = {"empty_before_start": bool(trick_empty(&t)), "leader_before": t.leader}
    trick_start(&t, leader, size)
    for seat, card in plays:
        if card is None:
            trick_add_seat(&t, seat)
        else:
            trick_add(&t, seat, card)
    if winner_pos >= 0:
        trick_set_winner(&t, winner_pos)
    n = trick_cards(&t, cards)
    out.update(leader=t.leader, n=t.n, done=bool(trick_done(&t)), empty=bool(trick_empty(&t)),
               winner=t.winner, seats=[trick_seat_of(&t, i) for i in range(n + 1)],
               cards=[cards[i] for i in range(n)],
               card_at=[trick_card_at(&t, i) for i in range(n)],
               index_of=[trick_index_of(&t, q) for q in range(MAX_PLAYERS)],
               by_seat=[t.card[q] for q in range(MAX_PLAYERS)], size_bytes=sizeof(TrickRecord))
    return out


def _test_trick_positional(int players, int leader, list tricks):
    """Play tricks in core's positional mode beside an ordered record (trick_add). Each trick is
    (cards, winner_pos): the cards played round the table from the current leader, and the
    position (0 = lead) of the play that wins. For every play, returns what the positional
    helpers report beside the ordered ones; after each trick_reopen, whether the record's bytes
    equal a fresh trick_start(winner, players)."""
    cdef TrickRecord pos, ordd, fresh
    cdef int i, k, w, seat
    if not 1 <= players <= MAX_PLAYERS or not 0 <= leader < players:
        raise ValueError("players 1..MAX_PLAYERS, leader 0..players-1")
    trick_reset(&pos)
    trick_start(&pos, leader, players)
    out = []
    for plays, winner_pos in tricks:
        trick_start(&ordd, pos.leader, players)
        steps = []
        for k, card in enumerate(plays):
            seat = (pos.leader + k) % players
            trick_add_positional(&pos, seat, card)
            trick_add(&ordd, seat, card)
            steps.append(dict(
                n=pos.n, done=bool(trick_done(&pos)), done_ordered=bool(trick_done(&ordd)),
                seats=[trick_positional_seat(&pos, i, players) for i in range(players + 1)],
                seats_ordered=[trick_seat_of(&ordd, i) for i in range(players + 1)],
                cards=[trick_positional_card_at(&pos, i, players) for i in range(pos.n)],
                cards_ordered=[trick_card_at(&ordd, i) for i in range(ordd.n)],
                by_seat=[pos.card[i] for i in range(MAX_PLAYERS)],
                by_seat_ordered=[ordd.card[i] for i in range(MAX_PLAYERS)],
                order=[pos.order[i] for i in range(MAX_PLAYERS)]))
        w = (pos.leader + winner_pos) % players
        trick_reopen(&pos, w)
        trick_start(&fresh, w, players)
        out.append(dict(steps=steps, winner=w, leader=pos.leader, n=pos.n, winner_field=pos.winner,
                        reopened_equals_start=(<bytes>(<char*>&pos)[:sizeof(TrickRecord)])
                        == (<bytes>(<char*>&fresh)[:sizeof(TrickRecord)])))
    return out

# ---- resample policy: a test callback "zone z holds at least m cards of the set S" ---------------
ctypedef struct _MinCtx:
    int zone
    int m
    uint64_t cards
    int calls

cdef bint _min_check(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    cdef _MinCtx* c = <_MinCtx*>ctx
    cdef int i, got = 0
    c.calls += 1
    for i in range(n):
        if dest[i] == c.zone and (c.cards >> cards[i]) & 1:
            got += 1
    return got >= c.m


def _test_resample_zones(list cards, list allowed, list room, uint64_t seed, int exact_tries=64,
                         int constrained_tries=2000, min_rule=None):
    """resample_zones() on these hidden cards; min_rule = (zone, m, card list): the callback
    requires zone to hold >= m of those cards. Returns (zones per card in the given order, or
    None when no consistent world was found, callback calls)."""
    cdef card_t cs[256]
    cdef uint8_t dest[256]
    cdef uint32_t al[256]
    cdef int rm[32]
    cdef Rng r
    cdef _MinCtx ctx
    cdef world_check_fn chk = NULL
    cdef int i, ok, n = _fill(cs, cards, 256)
    for i in range(256):
        al[i] = 0
    for i in range(len(allowed)):
        al[i] = allowed[i]
    for i in range(len(room)):
        rm[i] = room[i]
    ctx.calls = 0
    if min_rule is not None:
        ctx.zone, ctx.m = min_rule[0], min_rule[1]
        ctx.cards = 0
        for c in min_rule[2]:
            ctx.cards |= (<uint64_t>1) << c
        chk = _min_check
    rng_seed(&r, seed, 0, 0)
    ok = resample_zones(cs, n, al, rm, len(room), dest, &r, chk, &ctx, exact_tries, constrained_tries)
    if not ok:
        return None, ctx.calls
    zone_of = {}
    for i in range(n):
        zone_of.setdefault(cs[i], []).append(dest[i])
    return [zone_of[c].pop() for c in cards], ctx.calls


def _test_resample_masks(uint64_t hidden, list room, list forbid, uint64_t seed, int exact_tries=64,
                         int constrained_tries=2000):
    """resample_masks() of the cards in `hidden` (forbid: one mask per zone, or None): the
    masks per zone, or None when no consistent world was found."""
    cdef uint64_t fb[32]
    cdef uint64_t out[32]
    cdef int rm[32]
    cdef Rng r
    cdef int i, nz = len(room)
    for i in range(nz):
        rm[i] = room[i]
        if forbid is not None:
            fb[i] = forbid[i]
    rng_seed(&r, seed, 0, 0)
    if not resample_masks(hidden, rm, fb if forbid is not None else NULL, nz, out, &r, NULL, NULL,
                          exact_tries, constrained_tries):
        return None
    return [out[i] for i in range(nz)]


def _test_deal(int n, int nseats, int first, int batch, uint64_t seed):
    """shuffled_pack(n) then deal_round_robin: (the pack order, the masks per seat)."""
    cdef card_t a[64]
    cdef uint64_t h[MAX_PLAYERS]
    cdef Rng r
    cdef int i
    rng_seed(&r, seed, 0, 0)
    shuffled_pack(a, n, &r)
    for i in range(MAX_PLAYERS):
        h[i] = 0
    deal_round_robin(a, n, h, nseats, first, batch)
    return [a[i] for i in range(n)], [h[i] for i in range(nseats)]


def _test_hand_within(sub, sup):
    """hand_within() of the hands built by adding these identities (0..63, at most 4 copies)."""
    cdef Hand a, b
    hand_clear(&a)
    hand_clear(&b)
    for k in sub:
        hand_add(&a, k)
    for k in sup:
        hand_add(&b, k)
    return bool(hand_within(&a, &b))


def _test_put_counts(ops, float per_copy, int size=64):
    """put_counts() of the hand built by adding these identities, into a zero block of `size`."""
    cdef Hand h
    cdef float o[64]
    cdef int i
    hand_clear(&h)
    for k in ops:
        hand_add(&h, k)
    for i in range(64):
        o[i] = 0.0
    put_counts(o, &h, per_copy)
    return [o[i] for i in range(size)]


def _test_suited(str op, uint64_t m, int nranks=13, int trump=-1, uint64_t other=0):
    """The suit-major pack helpers: op in suit_cards (m = the suit), follow (other = led suit
    mask; trump's cards must be played when void iff trump >= 0), lowest, master (other =
    unseen cards), longest, lead, beaters (other = the trick's winning card)."""
    if op == "suit_cards":
        return suit_cards(<int>m, nranks)
    if op == "follow":
        return follow_mask(m, other, suit_cards(trump, nranks))
    if op == "lowest":
        return lowest_by_rank(m, nranks, trump)
    if op == "master":
        return master_card(m, other, nranks, trump)
    if op == "longest":
        return longest_side_suit(m, nranks, trump)
    if op == "lead":
        return long_suit_lead(m, nranks, trump)
    if op == "beaters":
        return plain_beaters(m, <int>other, nranks, trump)
    raise ValueError(op)


def _test_put_trick(int nseats, int ncards, list plays, list card_trick, double ntricks):
    """put_trick_cards() of a trick with these (seat, card) plays, then put_card_tricks() of
    card_trick: (the floats written, the two returned sizes)."""
    cdef TrickRecord tr
    cdef float o[1024]
    cdef int8_t ct[64]
    cdef int i, a, b
    for i in range(1024):
        o[i] = 0.0
    trick_start(&tr, plays[0][0] if plays else 0, nseats)
    for seat, card in plays:
        trick_add(&tr, seat, card)
    for i in range(len(card_trick)):
        ct[i] = card_trick[i]
    a = put_trick_cards(o, &tr, nseats, ncards)
    b = put_card_tricks(o + a, ct, len(card_trick), ntricks)
    return [o[i] for i in range(a + b)], a, b


# ---- staged moves: "the play must be a subset of one of these sets" (Basra's capture choice) ----
ctypedef struct _SetsCtx:
    int n
    uint64_t sets[64]

cdef bint _subset_of_some(const void* ctx, const Staged* play) noexcept nogil:
    cdef const _SetsCtx* c = <const _SetsCtx*>ctx
    cdef int i
    if play.cards.layer[1]:
        return False
    for i in range(c.n):
        if (play.cards.layer[0] & c.sets[i]) == play.cards.layer[0]:
            return True
    return False


def _test_staged(list adds, uint64_t candidates, list sets, int base=0, int kind=1, int target=-1,
                 list removes=None):
    """Stage `adds` (identities) after staged_start(kind, target), take back `removes`, then list
    the legal adds among `candidates` when a play must stay a subset of one of `sets` (sets=None:
    no completability callback). Returns a dict of the stage and the actions."""
    cdef Staged s
    cdef ActionSet out
    cdef _SetsCtx ctx
    cdef completable_fn fn = NULL
    cdef Hand done
    staged_clear(&s)
    active0 = bool(staged_active(&s))
    staged_start(&s, kind, target)
    for k in adds:
        staged_add(&s, k)
    for k in removes or []:
        staged_remove(&s, k)
    if sets is not None:
        if len(sets) > 64:
            raise ValueError("at most 64 sets")
        ctx.n = len(sets)
        for i, m in enumerate(sets):
            ctx.sets[i] = m
        fn = _subset_of_some
    as_clear(&out, MAX_ACTION_WORDS)
    cnt = staged_legal_adds(&s, candidates, base, fn, &ctx, &out)
    acts = [a for a in range(MAX_ACTION_WORDS * 64) if as_has(&out, a)]
    info = {"active_before": active0, "active": bool(staged_active(&s)), "n": s.n, "kind": s.kind,
            "target": s.target, "cards": [hand_count(&s.cards, k) for k in range(64)],
            "count": cnt, "actions": acts}
    ncommit = staged_commit(&s, &done)
    info.update(committed=ncommit, committed_layer0=done.layer[0], active_after=bool(staged_active(&s)),
                n_after=s.n, kind_after=s.kind, target_after=s.target)
    return info


# ---- spec installation: a one-seat dummy game whose vtable the test fills partly ------------------
from cardsim.core._engine cimport GameSpec
from cardsim.core._actions cimport as_add
from cardsim.core._game cimport GameVTable

ctypedef struct _DummyState:
    int done

cdef void _d_init(void* st, const void* cfg, Rng* rng) noexcept nogil:
    (<_DummyState*>st).done = 0
cdef int _d_player(const void* st, const void* cfg) noexcept nogil:
    return -1 if (<const _DummyState*>st).done else 0
cdef int _d_legal(const void* st, const void* cfg, ActionSet* out) noexcept nogil:
    out.w[0] = 0
    if (<const _DummyState*>st).done:
        return 0
    as_add(out, 0)
    return 1
cdef void _d_apply(void* st, const void* cfg, int a) noexcept nogil:
    (<_DummyState*>st).done = 1
cdef bint _d_terminal(const void* st, const void* cfg) noexcept nogil:
    return (<const _DummyState*>st).done
cdef void _d_returns(const void* st, const void* cfg, double* out) noexcept nogil:
    out[0] = 0.0
cdef void _d_observe(const void* st, const void* cfg, int p, float* out) noexcept nogil:
    pass
cdef int _d_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    return 1
cdef int _d_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    return 0
cdef void _d_metrics(const void* st, const void* cfg, double* out) noexcept nogil:
    out[0] = 1.0


cdef class _DummySpec(GameSpec):
    """A one-action game used to test GameSpec.install (and the scenario-state helper)."""
    cdef int c

    def __init__(self, name="dummy", int players=1, int num_actions=1, int obs_size=0,
                 metric_names=("m",), returns_sum="constant", options=None, skip=(), null_cfg=False):
        if "init" not in skip:
            self.vt.init = _d_init
        if "current_player" not in skip:
            self.vt.current_player = _d_player
        if "legal" not in skip:
            self.vt.legal = _d_legal
        if "apply" not in skip:
            self.vt.apply = _d_apply
        if "is_terminal" not in skip:
            self.vt.is_terminal = _d_terminal
        if "returns" not in skip:
            self.vt.returns = _d_returns
        if "observe" not in skip:
            self.vt.observe = _d_observe
        if "resample" not in skip:
            self.vt.resample = _d_resample
        if "greedy" not in skip:
            self.vt.greedy = _d_greedy
        if "metrics" not in skip:
            self.vt.metrics = _d_metrics
        self.install(name, NULL if null_cfg else &self.c, players, num_actions, sizeof(_DummyState),
                     obs_size, metric_names, returns_sum, options or {})

    def scenario(self):
        return self._scenario_state()


def rng_known_answers(uint64_t seed, uint64_t deal, uint64_t stream, int n, uint32_t bound=0):
    """First n outputs of the (seed, deal, stream) generator: raw 64-bit words (bound=0) or
    rng_below(bound) draws. For the known-answer tests that freeze the stream."""
    cdef Rng r
    cdef int i
    rng_seed(&r, seed, deal, stream)
    out = []
    for i in range(n):
        out.append(rng_next(&r) if bound == 0 else rng_below(&r, bound))
    return out


def _play_paths(State state not None, seed, deal, max_steps=100_000):
    """Test hook: play copies of `state` to the end with random agents at every seat (seat p's
    stream keyed (seed, deal, STREAM_SEAT0 + p), as play_one keys them) twice: by the generic
    loop (through the vtable) and by the game's own copy of it (vt.play: its inlined functions
    and, with random seats, its fused random play). Returns, for each, (the state's bytes at the
    end, the actions applied or -1 past max_steps, decisions, sum of legal counts, the seats'
    streams' bytes at the end): equal when the game's copy plays as the loop does. The state
    given is not changed."""
    cdef GameSpec spec = state.spec
    cdef uint64_t sd = check_int(seed, "seed", 0, 2**64 - 1)
    cdef uint64_t dl = check_int(deal, "deal", 0, 2**64 - 1)
    cdef long cap = check_int(max_steps, "max_steps", 1, 100_000_000)
    cdef int codes[MAX_PLAYERS]
    cdef Rng ar[MAX_PLAYERS]
    cdef long cnt[2]
    cdef long k
    cdef int p, P = spec.num_players
    cdef uint64_t key = rng_deal_key(sd, dl)
    cdef bytearray buf
    out = []
    for p in range(P):
        codes[p] = AGENT_RANDOM
    for own in (False, True):
        if own and spec.vt.play == NULL:
            out.append(None)
            continue
        buf = bytearray(state.data[:spec.state_size])
        for p in range(P):
            rng_seed_keyed(&ar[p], key, STREAM_SEAT0 + p)
        cnt[0] = 0
        cnt[1] = 0
        if own:
            k = spec.vt.play(&spec.vt, spec.cfg, PyByteArray_AS_STRING(buf), spec.action_words, codes, ar,
                             NULL, cap, cnt)
        else:
            k = play_loop(&spec.vt, spec.cfg, PyByteArray_AS_STRING(buf), spec.action_words, codes, ar, NULL,
                          cap, cnt)
        out.append((bytes(buf), k, cnt[0], cnt[1], bytes((<char*>&ar[0])[:P * sizeof(Rng)])))
    return tuple(out)
