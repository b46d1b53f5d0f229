"""Samba: the meld phase's dedicated legal-set generators (_legal.meld_rules: an opened side's
GROUP-shaped stage or one wild staged, group_stage_legal; one natural staged, single_stage_legal; naturals of one suit staged, seq_stage_legal; nothing
staged with five cards or more, empty_stage_legal, or fewer, short_stage_legal; the group on a taken top card,
pile_stage_legal) give exactly the sets of the generic generator they stand in
for (meld_rules_generic, reached through cardsim.games.samba._testing.legal_generic): the same
actions and the same count, in

- every state of random playouts of every preset at 2..6 players (the states deals reach);
- every state of a whole turn (a DFS over the legal actions) from random small positions of
  tests/games/samba/test_moves.py (every situation of the meld phase);
- every state of a whole turn from positions built for the dedicated generators, with 0-3 other
  canastas and going_out_min_canastas 0-3, so that the hand guard, the canasta counts, the wild
  limits and wild_onto_canasta all decide somewhere: an opened side whose hand is mostly one rank
  and wilds, GROUPs of that rank on the table (short, long, canastas with and without wilds)
  (group_stage_legal); an opened side with SEQUENCEs of one suit on the table (3-7 cards) and a
  hand of cards of that suit around them, pairs and wilds, or only the ranks just above a run
  (single_stage_legal, seq_stage_legal, lay-offs that make a samba); both start with
  nothing staged, often with five cards or more and two GROUPs of one rank (empty_stage_legal,
  the merges); an opened side at its draw with a pile whose top its hand pairs, short hands, the
  pile below the top empty, plain or frozen, GROUPs of the top's rank or not
  (pile_stage_legal), and that group taken to go out with the side a canasta short;
- a SEQUENCE of 3-6 cards and only the two ranks past one end in hand, the farther one at the
  edge of a run of 7 (or past it): the meld index's window of lay-offs further out (seq_far);
- every state of a whole turn of an unopened side building its initial batch (pairs and triples
  of a few ranks, a run of one suit through them, wilds), and pinned positions where a joker
  opens and a deuce does not: legal_adds' classes (opening_classes) and the naturals no SEQUENCE
  can take (seq_dead) against the generic reference, which checks every candidate on its own.

The generic generator itself is checked against brute force by test_moves.py.
"""
import numpy as np
import pytest

import cardsim
from cardsim.games.samba import scenario
from cardsim.games.samba._testing import legal_generic

from . import samba_reference as ref
from .test_moves import FILLERS, PRESETS, fits, positions, refusable

hyp = pytest.importorskip("hypothesis")
st = hyp.strategies


def same(state):
    """state.legal_actions() (and the count the generator returned) equals the generic set."""
    want, n = legal_generic(state.spec, state)
    got = [int(a) for a in state.legal_actions()]
    assert n == len(want), f"the generic generator counted {n} for {len(want)} actions"
    assert got == want, (f"\n{state}\ndedicated: {[state.action_to_string(a) for a in got]}"
                         f"\ngeneric:   {[state.action_to_string(a) for a in want]}")
    return len(got)


def walk_turn(state, limit=4000):
    """same() at every state of the seat's turn reachable through its legal actions (states met
    twice checked once); returns the number of states checked."""
    spec = state.spec
    mover = spec.view(state)["mover"]
    seen = set()
    todo = [state]
    while todo and len(seen) < limit:
        s = todo.pop()
        v = spec.view(s)
        key = repr(sorted((k, v[k]) for k in v if k != "known"))
        if key in seen:
            continue
        seen.add(key)
        if s.is_terminal():
            continue
        assert same(s), f"dead end (S-D10)\n{s}"
        if v["mover"] != mover:
            continue
        for a in s.legal_actions():
            c = s.clone()
            c.apply(int(a))
            todo.append(c)
    return len(seen)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset", PRESETS)
def test_random_playouts(preset, players):
    g = cardsim.make("samba", variant=preset, players=players)
    rng = np.random.default_rng(players * 31 + PRESETS.index(preset))
    checked = 0
    for deal in range(40):
        s = g.new_state(seed=19, deal=deal)
        while not s.is_terminal():
            n = same(s)
            s.apply(int(s.legal_actions()[rng.integers(n)]))
            checked += 1
    assert checked > 2000


@hyp.settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=positions())
def test_whole_turns_from_small_positions(case):
    g, rules, state, facts = case
    assert walk_turn(state) >= 1


GROUP_WILDS = ["2S", "2H", "2D", "2C", "JK", "JK"]
OTHER_CANASTAS = [["QS", "QS", "QH", "QH", "QD", "QD", "QC"], ["JH", "JH", "JD", "JD", "JC", "JC", "2S"],
                  ["8H", "9H", "10H", "JH", "QH", "KH", "AH"]]


# the settings of the position families' whole-turn walks
WALKS = hyp.settings(max_examples=300, deadline=None, derandomize=True,
                     suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])


def drawn_game(draw, woc=False):
    """A Samba game of a drawn preset, 2 or 4 players and going_out_min_canastas 0-3 (woc: the
    standard preset's wild_onto_canasta drawn too), and its reference rules."""
    preset = draw(st.sampled_from(PRESETS))
    opts = {"variant": preset, "players": draw(st.sampled_from([2, 4])),
            "going_out_min_canastas": draw(st.integers(0, 3))}
    if woc and preset == "standard":
        opts["wild_onto_canasta"] = draw(st.sampled_from(["allowed", "not_onto_natural", "never"]))
    g = cardsim.make("samba", **opts)
    return g, ref.Rules.of(g.options)


def opened_seat(g, rules, hand, melds, pile, stock, phase="meld"):
    """Seat 0 of an opened side (holding `melds`) in the meld phase (or `phase`) with `hand`; the
    other seats hold two filler cards; positions the deck or the hand guard refuse are
    rejected."""
    players = g.spec.num_players
    fillers = FILLERS[:players - 1]
    hyp.assume(fits(hand, *melds, *fillers, pile, stock))
    return refusable(g, [hand] + fillers, melds=[melds] + [[] for _ in range(rules.sides - 1)],
                     opened=[True] + [False] * (rules.sides - 1), pile=pile, stock=stock, turn=0,
                     dealer=players - 1, phase=phase)


@st.composite
def group_positions(draw):
    """Seat 0 of an opened side in the meld phase, with a hand of n naturals of rank r (0-7),
    wilds (0-3) and 0-2 other cards, and GROUPs of rank r on the table."""
    g, rules = drawn_game(draw, woc=True)
    r = draw(st.sampled_from(ref.RANKS))
    suits = draw(st.permutations(ref.SUITS))
    nats = [r + suits[i % 4] for i in range(12)]
    hand = nats[:draw(st.integers(0, 7))]
    hand += draw(st.lists(st.sampled_from(GROUP_WILDS), max_size=3))
    hand += draw(st.lists(st.sampled_from(["9D", "5C", "KH", "3S"]), max_size=2))
    hyp.assume(hand)
    groups = []
    used = len([c for c in hand if c[:-1] == r])
    for _ in range(draw(st.integers(0, 2))):
        k = draw(st.integers(2, 8))                  # naturals of the GROUP
        w = draw(st.integers(0, 2 if k >= 2 else 0))
        hyp.assume(used + k <= 12)
        groups.append(nats[used:used + k] + GROUP_WILDS[2:2 + w])
        used += k
    melds = groups + OTHER_CANASTAS[:draw(st.integers(0, 3))]
    if not melds:
        melds = [OTHER_CANASTAS[0][:3]]
    hyp.assume(fits(hand, *melds) and all(ref.meld_kind(m, rules) for m in melds))
    pile, stock = [c for c in ("6H", "5S") if c[:-1] != r][:1], [c for c in ("7C", "8D", "9S") if c[:-1] != r][:2]
    return opened_seat(g, rules, hand, melds, pile, stock)


@WALKS
@hyp.given(state=group_positions())
def test_whole_turns_with_group_stages(state):
    assert walk_turn(state, limit=500) >= 1


@st.composite
def sequence_positions(draw):
    """Seat 0 of an opened side in the meld phase, with 1-2 SEQUENCEs of one suit on the table and
    a hand of cards of that suit (next to the runs, in the gaps, further out), a pair or two of
    other ranks, wilds."""
    g, rules = drawn_game(draw)
    su = draw(st.sampled_from(ref.SUITS))
    lo = draw(st.integers(0, 8))
    n = draw(st.integers(3, min(7, 11 - lo)))
    seqs = [[ref.RANKS[i] + su for i in range(lo, lo + n)]]
    if draw(st.booleans()):
        lo2 = draw(st.integers(0, 8))
        seqs.append([ref.RANKS[i] + su for i in range(lo2, min(11, lo2 + draw(st.integers(3, 7))))])
    hand = [ref.RANKS[i] + su for i in draw(st.lists(st.integers(0, 10), max_size=6))]
    for r in draw(st.lists(st.sampled_from(ref.RANKS), max_size=2)):
        hand += [r + s for s in draw(st.lists(st.sampled_from(ref.SUITS), min_size=1, max_size=3))]
    hand += draw(st.lists(st.sampled_from(GROUP_WILDS), max_size=2))
    if draw(st.booleans()):
        # a short hand of the ranks just above the first run (lay-offs that leave 0-1 cards,
        # sambas made by a lay-off) and perhaps one other card
        hand = [ref.RANKS[i] + su for i in range(lo + n, min(11, lo + n + draw(st.integers(1, 3))))]
        hand += draw(st.lists(st.sampled_from(["9D", "KH", "2S"]), max_size=1))
    hyp.assume(hand)
    melds = [m for m in seqs if len(m) >= 3] + OTHER_CANASTAS[:draw(st.integers(0, 3))]
    hyp.assume(fits(hand, *melds) and all(ref.meld_kind(m, rules) for m in melds))
    return opened_seat(g, rules, hand, melds, ["6H"], ["7C", "8D"])


@WALKS
@hyp.given(state=sequence_positions())
def test_whole_turns_with_sequences_on_the_table(state):
    assert walk_turn(state, limit=500) >= 1


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("side", ["above", "below"])
def test_lay_off_two_ranks_past_a_run(n, side):
    """A SEQUENCE of n cards and, of its suit, only the rank next to one end and the rank past
    that (nothing staged, fillers of other suits, no run in hand): the farther card can be laid
    off with the nearer one when the run then spans <= 7 ranks (n <= 5), and n = 5 puts it
    exactly at the edge of the meld index's seq_far window (lo + 6 above, hi - 6 below), where
    opened_empty_adds must still look; n = 6 puts it past the edge."""
    g = cardsim.make("samba", players=2)
    checked = 0
    for lo in range(0, 11 - n + 1):
        hi = lo + n - 1
        near, far = (hi + 1, hi + 2) if side == "above" else (lo - 1, lo - 2)
        if not (0 <= far <= 10):
            continue
        run = [ref.RANKS[i] + "H" for i in range(lo, hi + 1)]
        hand = [ref.RANKS[near] + "H", ref.RANKS[far] + "H", "9C", "KS", "5D", "7S"]
        state = scenario(g, [hand, FILLERS[0]], melds=[[run], []], opened=[True, False], pile=["6D"],
                         stock=["7C", "8D"], turn=0, dealer=1, phase="meld")
        assert same(state) >= 1
        legal = [state.action_to_string(int(a)) for a in state.legal_actions()]
        assert ("+" + ref.RANKS[far] + "H" in legal) == (n <= 5), (run, hand, legal)
        checked += 1
    assert checked >= 3


@st.composite
def pile_positions(draw):
    """Seat 0 of an opened side at the start of its turn (the draw), a pile whose top is of rank r
    and a hand holding 0-4 naturals of r, 0-3 wilds and 0-3 other cards (short hands: the hand
    guard decides, with the rest of the pile counted or not), the pile below the top empty or
    holding wilds and red threes (frozen: the rest counted card by card), a GROUP of r on the
    table or not: the TAKE_PAIR and then the group on the taken top card (pile_stage_legal)."""
    g, rules = drawn_game(draw)
    r = draw(st.sampled_from([x for x in ref.RANKS if x not in ("2", "3")]))
    suits = draw(st.permutations(ref.SUITS))
    nats = [r + suits[i % 4] for i in range(12)]
    n = draw(st.integers(0, 4))
    hand = nats[1:1 + n] + draw(st.lists(st.sampled_from(GROUP_WILDS), max_size=3))
    hand += draw(st.lists(st.sampled_from(["9D", "5C", "KH", "7S", "AC"]), max_size=3))
    hyp.assume(hand)
    below = draw(st.lists(st.sampled_from(["6H", "5S", "2D", "JK", "3H", "3D", "8C"]), max_size=5))
    melds = OTHER_CANASTAS[:draw(st.integers(0, 3))]
    if draw(st.booleans()):
        melds = [nats[1 + n:1 + n + draw(st.integers(3, 6))]] + melds
    if not melds:
        melds = [OTHER_CANASTAS[0][:3]]
    hyp.assume(fits(hand, *melds, below, [nats[0]]) and all(ref.meld_kind(m, rules) for m in melds))
    return opened_seat(g, rules, hand, melds, below + [nats[0]], ["7C", "8D"], phase="draw")


@WALKS
@hyp.given(state=pile_positions())
def test_whole_turns_taking_the_pile(state):
    assert walk_turn(state, limit=500) >= 1


@pytest.mark.parametrize("below", [[], ["8C"], ["8C", "5S"], ["JK", "8C"], ["3H", "8C"]])
@pytest.mark.parametrize("canastas", [0, 1, 2])
def test_taking_the_pile_to_go_out(canastas, below):
    """The group on a taken top card that empties the hand (four naturals and two wilds staged
    on the top: a canasta) or leaves one card, with the rest of the pile joining the hand or not
    and the side one canasta short of going out without it."""
    g = cardsim.make("samba", players=2, going_out_min_canastas=canastas + 1)
    rules = ref.Rules.of(g.options)
    hand = ["QS", "QH", "QD", "QC", "2S", "JK"]
    melds = OTHER_CANASTAS[1:1 + canastas] or [["5S", "5H", "5D"]]
    assert fits(hand, *melds, FILLERS[0], below + ["QS"]) and all(ref.meld_kind(m, rules) for m in melds)
    state = scenario(g, [hand, FILLERS[0]], melds=[melds, []], opened=[True, False], pile=below + ["QS"],
                     stock=["7C", "8D"], turn=0, dealer=1, phase="draw")
    assert walk_turn(state) >= 1


@st.composite
def unopened_positions(draw):
    """Seat 0 of a side that has not opened, in the meld phase (the initial batch to build), with
    a hand of 1-4 naturals of each of 2-3 ranks (suits drawn, repeats allowed), 2-4 naturals in a
    row of one suit (often sharing a rank and a suit with those: runs through the ranks' cards),
    0-3 wilds and 0-3 other cards, the side's score drawn so that the requirement is 50 to 150, in
    the meld phase or at the draw with a pile's top of one of the ranks (the group on the top card):
    the unopened side's ADDs decided by class (deuces, a rank's naturals outside the runs) and
    the naturals no SEQUENCE can take, which the generic reference checks one by one."""
    g, rules = drawn_game(draw)
    ranks = draw(st.lists(st.sampled_from(ref.RANKS), min_size=2, max_size=3, unique=True))
    hand = []
    for r in ranks:
        hand += [r + s for s in draw(st.lists(st.sampled_from(ref.SUITS), min_size=1, max_size=4))]
    su = draw(st.sampled_from(ref.SUITS))
    lo = draw(st.integers(0, len(ref.RANKS) - 2))
    hand += [ref.RANKS[i] + su for i in range(lo, min(len(ref.RANKS), lo + draw(st.integers(2, 4))))]
    hand += draw(st.lists(st.sampled_from(GROUP_WILDS), max_size=3))
    hand += draw(st.lists(st.sampled_from(["9D", "5C", "KH", "7S", "3S"]), max_size=3))
    players = g.spec.num_players
    fillers = FILLERS[:players - 1]
    # or at the draw, the pile's top of one of the ranks (taking it: the group on the top card)
    pile = [draw(st.sampled_from([r + s for r in ranks for s in ref.SUITS]))] if draw(st.booleans()) else ["6H"]
    hyp.assume(fits(hand, *fillers, pile, ["7C", "8D"]))
    cum = [draw(st.sampled_from([0, 1500, 3000, 6000]))] + [0] * (rules.sides - 1)
    return refusable(g, [hand] + fillers, opened=[False] * rules.sides, cum=cum, pile=pile,
                     stock=["7C", "8D"], turn=0, dealer=players - 1, phase="meld" if pile == ["6H"] else "draw")


@WALKS
@hyp.given(state=unopened_positions())
def test_whole_turns_building_the_initial_batch(state):
    assert walk_turn(state, limit=500) >= 1


@pytest.mark.parametrize("hand, staged, adds", [
    # five cards keep two: three go to the batch, so KK + JK (70) opens and KK + 2S (40) does not;
    # the joker is no deuce (its own class), staged first or after a king
    (["KS", "KH", "JK", "2S", "9D"], [], ["+KS", "+KH", "+JK"]),
    (["KS", "KH", "JK", "2S", "9D"], ["+KS"], ["+KH", "+JK"]),
    # six cards: KK + 2S + 2D (80); the two deuces one class, both offered
    (["KS", "KH", "JK", "2S", "2D", "9D"], [], ["+2S", "+KS", "+KH", "+2D", "+JK"]),
    (["KS", "KH", "JK", "2S", "2D", "9D"], ["+KS"], ["+2S", "+KH", "+2D", "+JK"]),
])
def test_initial_batch_wild_classes(hand, staged, adds):
    """The unopened side's ADDs (requirement 50), pinned and equal to the generic reference's
    one-by-one checks."""
    g = cardsim.make("samba", players=2)
    state = scenario(g, [hand, FILLERS[0]], opened=[False, False], pile=["6H"], stock=["7C", "8D"], turn=0,
                     dealer=1, phase="meld")
    for a in staged:
        state.apply_string(a)
    same(state)
    assert [a for a in map(state.action_to_string, state.legal_actions()) if a.startswith("+")] == adds
