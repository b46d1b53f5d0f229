"""Hakka Six Tigers: bad input never crashes the process (issue 23) and no accepted scenario is a
dead end.

1. Every public oracle of cardsim.games.six_tigers (and its card notation) is called with None,
   wrong types, floats, huge ints, oversized and duplicated lists and a State of another game in
   each argument: it answers or raises a typed error (a CardsimError) whose message stays short,
   and a State argument is left unchanged. The old repro: legal_leads(<36 or 37 cards>, [])
   overflowed a 12-card buffer. The compiled oracle entry points (`_rules.oracle_*`, typed, for
   the face and the tests) answer or refuse (TypeError / OverflowError / ValueError): never a
   read or write outside their buffers.
2. Random accepted scenarios (random hands from a shuffled pack, random public facts: dealer,
   declarer, cards played, tricks, leader) of every configuration are played out at random: no
   state is non-terminal with an empty legal set, and every playout ends within
   max_game_length.
"""
import numpy as np
import pytest

import cardsim
from cardsim import CardsimError, ConfigError
from cardsim.games.six_tigers import _rules as R
from cardsim.games.six_tigers import notation as N
from cardsim.games import six_tigers as st6

from . import six_tigers_reference as ref

DECK = ref.DECK
X02 = ["SHI9", "SHI1", "GUAN7", "GUAN2", "SUO3", "SUO4", "SUO5", "XIAN6", "XIAN7", "XIAN8", "XIAN1", "CLOUD"]
OTHER_STATE = cardsim.make("tien_gow").new_state(seed=1, deal=0)
BAD = [None, 1.5, float("nan"), 10**30, -1, True, "SHI9", "x" * 10_000, b"SHI9", {}, {"a": 1}, [None],
       [1.5], [[["SHI9"]]], ["SHI9", "SHI9"], DECK, DECK + ["CLOUD"], DECK[:36], ["SHI9"] * 40,
       ["y" * 10_000], np.int64(3), np.float64(2.0), OTHER_STATE, object()]


def calls(state):
    """(name, function, valid positional args) of every public oracle."""
    g = cardsim.make("six_tigers")
    hands = [DECK[:12], DECK[12:24], DECK[24:25], DECK[25:37]]
    return [
        ("pattern", st6.pattern, [["SUO3", "SUO4", "SUO5"]]),
        ("trick_winner", st6.trick_winner, [[["SUO3", "SUO4", "SUO5"], ["SHI1", "SHI2", "SHI3"]]]),
        ("legal_leads", st6.legal_leads, [X02, []]),
        ("old_cards", st6.old_cards, [["SHI9"]]),
        ("play_actions", st6.play_actions, [state, ["DECLARE"]]),
        ("play", st6.play, [state.clone(), ["SHI9"]]),
        ("scenario", st6.scenario, [g, hands]),
        ("return_bounds", st6.return_bounds, [dict(g.options)]),
        ("max_game_length", st6.max_game_length, [dict(g.options)]),
        ("card_str", N.card_str, [3]),
        ("parse_card", N.parse_card, ["SHI9"]),
        ("mask_to_cards", N.mask_to_cards, [5]),
        ("cards_to_mask", N.cards_to_mask, [["SHI9"]]),
    ]


def compiled_calls():
    """(name, function, valid positional args) of every compiled oracle entry point."""
    return [
        ("oracle_pattern", R.oracle_pattern, [7, False, False]),
        ("oracle_trick_winner", R.oracle_trick_winner, [[7, 7 << 9], False, False]),
        ("oracle_old_mask", R.oracle_old_mask, [1]),
        ("oracle_leads", R.oracle_leads, [4095, 0, False, False, False]),
        ("oracle_beats", R.oracle_beats, [4095, 1, False, False]),
        ("oracle_dream_matches", R.oracle_dream_matches, [511, 3]),
        ("oracle_sung_points", R.oracle_sung_points, [7, 511, False]),
        ("oracle_payments", R.oracle_payments, [4, [1, 1, 0, 1], 0, -1, 2, 1, 0]),
    ]


def check_call(fn, args, kwargs=None):
    try:
        fn(*args, **(kwargs or {}))
    except CardsimError as e:
        assert len(str(e)) < 700, f"{fn.__name__}: an error message of {len(str(e))} characters"
    except Exception as e:                                    # noqa: BLE001
        pytest.fail(f"{fn.__name__}{tuple(type(a).__name__ for a in args)}: untyped {type(e).__name__}: "
                    f"{str(e)[:200]}")


def test_every_oracle_with_every_bad_argument():
    state = cardsim.make("six_tigers").new_state(seed=3, deal=1)
    before = (state.history(), state.spec.view(state))
    for name, fn, args in calls(state):
        check_call(fn, args)                                  # the valid call works
        for i in range(len(args)):
            for bad in BAD:
                a = list(args)
                a[i] = bad
                check_call(fn, a)
    assert (state.history(), state.spec.view(state)) == before


def test_every_compiled_oracle_with_every_bad_argument():
    extra = [1 << 37, (1 << 64) - 1, [1 << 40], [7] * 5, [], [1] * 3, [0, 0, 0, 0, 0], 99, -2]
    for name, fn, args in compiled_calls():
        fn(*args)                                             # the valid call works
        for i in range(len(args)):
            for bad in BAD + extra:
                a = list(args)
                a[i] = bad
                try:
                    fn(*a)
                except (CardsimError, TypeError, OverflowError, ValueError):
                    pass


@pytest.mark.parametrize("n", [13, 36, 37])
def test_legal_leads_of_an_oversized_hand_is_refused(n):
    hand = DECK[:n]
    with pytest.raises(CardsimError, match="at most 12"):
        st6.legal_leads(hand, [])


def test_the_kernel_buffer_holds_every_play_of_the_whole_pack():
    # the enumeration buffer (ST_MAX_PLAYS = 208) fits every lead of any mask (at most 37 singles,
    # 4 x 28 runs, 8 x 5 sets and C(5,3) + C(5,4) sets of ones with CLOUD: 204). The whole pack,
    # special, nothing played: singles SHI2..SHI8 (the highest suit of the non-old cards) and the
    # 7 old cards, 112 runs, sets: 8 x 5 + 15 with CLOUD (9 x 5 without)
    full = (1 << 37) - 1
    assert len(R.oracle_leads(full, 0, True, False, True)) == 14 + 112 + 40 + 15
    assert len(R.oracle_leads(full, 0, True, False, False)) == 14 + 112 + 45
    assert len(R.oracle_beats(full, 7 << 27, False, False)) == 28 - 1     # runs of 3 above XIAN1-2-3


def test_scenario_and_options_refuse_bad_sizes():
    g = cardsim.make("six_tigers")
    hands = [DECK[:12], DECK[12:24], DECK[24:25], DECK[25:37]]
    for bad in (dict(hands=[DECK[:13], DECK[13:24], DECK[24:25], DECK[25:37]]),
                dict(hands=hands, tricks=[0] * 40), dict(hands=hands, played=[DECK] * 4),
                dict(hands=hands, dealer=2.0), dict(hands=hands, declarer=10**20), dict(hands=hands, leader=[1]),
                dict(hands=[hands[0] * 4, [], [], []])):
        with pytest.raises(CardsimError):
            st6.scenario(g, **bad)
    with pytest.raises(ConfigError):
        st6.scenario(cardsim.make("tien_gow"), hands)
    for opts in ("x", [], {"scope": "forever"}, {"players": 5}, {"point_table": (1, 2)}):
        with pytest.raises(ConfigError):
            st6.return_bounds(opts)
        with pytest.raises(ConfigError):
            st6.max_game_length(opts)
    # None: the defaults (GameInfo.resolve, as for every game)
    assert st6.return_bounds(None) == st6.return_bounds(dict(g.options))
    assert st6.max_game_length(None) == st6.max_game_length(dict(g.options))


# ---- random accepted scenarios: no dead state, no endless game -------------------------------------
def random_scenario(g, rng):
    """Random hands from a shuffled pack and random public facts; None if refused."""
    N = g.num_players
    cards = [DECK[i] for i in rng.permutation(37)]
    dealer = int(rng.integers(N))
    dreamer = (dealer + 2) % 4 if N == 4 else -1
    n = int(rng.integers(1, 13))
    hands, i = [], 0
    for q in range(N):
        k = 1 if q == dreamer else n
        hands.append(cards[i:i + k])
        i += k
    active = [q for q in range(N) if q != dreamer]
    rest = cards[i:len(cards) - (1 if N == 3 else 0)]
    played = [[] for _ in range(N)]
    for j, c in enumerate(rest):
        played[active[j % len(active)]].append(c)
    budget = 12 - n
    tricks = [0] * N
    for _ in range(int(rng.integers(0, budget + 1))):
        tricks[active[int(rng.integers(len(active)))]] += 1
    if rng.random() < 0.15:                                     # an unreachable fact, sometimes
        tricks[int(rng.integers(N))] += int(rng.integers(1, 4))
    declarer = [None, -1, *range(N)][int(rng.integers(N + 2))]
    leader = None if rng.random() < 0.3 else int(rng.integers(N))
    kw = dict(dealer=dealer, declarer=declarer, leader=leader)
    if declarer is not None or n < 12:
        kw.update(played=played, tricks=tricks)
    try:
        return st6.scenario(g, hands, **kw)
    except CardsimError:
        return None


def play_out(s, rng, limit):
    steps = 0
    while not s.is_terminal():
        la = s.legal_actions()
        assert len(la) > 0, f"dead state: phase {s.phase}, view {s.spec.view(s)}"
        s.apply(int(la[rng.integers(len(la))]))
        steps += 1
        assert steps <= limit, "a playout exceeded max_game_length"
    assert abs(sum(s.returns())) < 1e-9
    lo, hi = st6.return_bounds(s.spec.options)
    assert all(lo <= r <= hi for r in s.returns())


@pytest.mark.parametrize("cfg", st6.INFO.conformance_configs, ids=str)
def test_random_scenarios_have_no_dead_state(cfg):
    g = cardsim.make("six_tigers", **cfg)
    limit = st6.max_game_length(g.options)
    rng = np.random.default_rng(23)
    accepted = 0
    for _ in range(150):
        s = random_scenario(g, rng)
        if s is None:
            continue
        accepted += 1
        play_out(s, rng, limit)
    assert accepted >= 40
