"""Tien Gow: bad input never crashes the process (issue 23) and no accepted scenario is a dead end.

1. Every public oracle of cardsim.games.tien_gow (and the spec's entry points combo_tiles and
   the scenario glue) is called with None, wrong types, floats, huge ints, oversized and
   duplicated lists and a State of another game in each argument: it answers or raises a typed
   error (a CardsimError) with a short message, and a State argument is left unchanged. The
   compiled oracle entry points (`_rules.oracle_*`, called by the face with checked arguments)
   refuse what would overrun a kernel buffer with a built-in error instead of crashing.
2. Random accepted scenarios (random hands from a shuffled set, random banker, leader and trick
   counts) of every configuration are played out at random: no state is non-terminal with an
   empty legal set, every playout ends within max_game_length and its returns lie within
   return_bounds.
"""
import numpy as np
import pytest

import cardsim
from cardsim import CardsimError, ConfigError
from cardsim.games import tien_gow as tg
from cardsim.games.tien_gow import _rules as R
from cardsim.games.tien_gow import notation

FULL_SET = [t for k, t in enumerate(tg.TILES) for _ in range(2 if k < 11 else 1)]
OTHER_STATE = cardsim.make("six_tigers").new_state(seed=1, deal=0)
BAD = [None, 1.5, float("nan"), 10**30, -1, 99, True, "6-6", "x" * 10_000, b"6-6", {}, {"a": 1}, [None],
       [1.5], [[["6-6"]]], ["6-6"] * 3, ["2-1", "2-1"], FULL_SET, FULL_SET + ["6-6"], ["6-6"] * 40,
       list(range(40)), [-1] * 4, [10**30] * 4, ["y" * 10_000], np.int64(3), np.float64(2.0), OTHER_STATE,
       object()]


def calls(state):
    g = cardsim.make("tien_gow")
    hands = [FULL_SET[0:2], FULL_SET[2:4], FULL_SET[4:6], FULL_SET[6:8]]
    return [
        ("parse_tile", tg.parse_tile, ["6-6"]),
        ("sort_tiles", tg.sort_tiles, [FULL_SET[:10]]),
        ("combination", tg.combination, [["6-6", "6-3"]]),
        ("trick_winner", tg.trick_winner, [[["4-2"], ["2-1"], ["5-2"], ["6-6"]]]),
        ("score_deal", tg.score_deal, [[3, 0, 5, 0], 1, 0]),
        ("timed_sort", tg.timed_sort, [FULL_SET[:5]]),
        ("shuffled_set", tg.shuffled_set, [7]),
        ("legal_plays", tg.legal_plays, [state]),
        ("play_to_actions", tg.play_to_actions, [state, ["6-6"], True]),
        ("play", tg.play, [state.clone(), ["6-6"]]),
        ("actions_to_play", tg.actions_to_play, [state, [0]]),
        ("scenario", tg.scenario, [g, hands, 0, None, None]),
        ("return_bounds", tg.return_bounds, [dict(g.options)]),
        ("max_game_length", tg.max_game_length, [dict(g.options)]),
        ("notation.parse_tile", notation.parse_tile, ["4-2"]),
        ("notation.tiles_to_ids", notation.tiles_to_ids, [["4-2"]]),
        ("combo_tiles", g.spec.combo_tiles, [30]),
        ("spec._scenario", g.spec._scenario, [0, [[0], [1], [2], [3]], [], [], 0]),
    ]


def check_call(name, fn, args):
    try:
        fn(*args)
    except CardsimError as e:
        assert len(str(e)) < 700, f"{name}: an error message of {len(str(e))} characters"
    except Exception as e:                                    # noqa: BLE001
        pytest.fail(f"{name}{tuple(type(a).__name__ for a in args)}: untyped {type(e).__name__}: {str(e)[:200]}")


def test_every_oracle_with_every_bad_argument():
    state = cardsim.make("tien_gow").new_state(seed=3, deal=1)
    before = (state.history(), state.spec.view(state))
    for name, fn, args in calls(state):
        check_call(name, fn, args)
        for i in range(len(args)):
            for bad in BAD:
                a = list(args)
                a[i] = bad
                check_call(name, fn, a)
    assert (state.history(), state.spec.view(state)) == before


@pytest.mark.parametrize("call", [
    lambda: cardsim.make("tien_gow").spec.combo_tiles(-1),
    lambda: tg.legal_plays(None),
    lambda: tg.legal_plays(OTHER_STATE),
    lambda: tg.sort_tiles(FULL_SET * 2),
    lambda: tg.trick_winner([["6-6"]] * 5),
    lambda: tg.score_deal([0, 0, 0, 8], 7, 9),
])
def test_unchecked_sizes_are_refused(call):
    with pytest.raises(CardsimError):
        call()


FLAGS = (True, True, False, False)
COUNTS = [1] + [0] * 20


@pytest.mark.parametrize("call", [
    lambda: R.oracle_trick_winner(FLAGS, [COUNTS] * 7),                 # a 4-play buffer
    lambda: R.oracle_trick_winner(FLAGS, [[0] * 21, COUNTS]),           # the lead forms no combination
    lambda: R.oracle_classify(FLAGS, [1] * 40),                         # 21 identities
    lambda: R.oracle_classify(FLAGS, [9] + [0] * 20),                   # at most 2 copies
    lambda: R.oracle_classify((True,), COUNTS),                         # the table's 4 flags
    lambda: R.oracle_settle([0, 0, 0, 8], 7, 9, 2, False, False, 1, -1),  # seats index a 4-seat array
    lambda: R.oracle_settle([0, 0, 0, 80], 0, 1, 2, False, False, 1, -1),
    lambda: R.oracle_sort(list(range(21)) * 3),                         # a 32-tile buffer
    lambda: R.oracle_sort([200]),                                       # a 21-identity count array
])
def test_kernel_entry_points_refuse_overruns(call):
    with pytest.raises((IndexError, TypeError, OverflowError, CardsimError)):
        call()


def test_kernel_entry_points_answer_like_the_face():
    assert R.oracle_sort([0, 5, 20]) == ([0, 5], [20])
    assert R.oracle_settle([3, 0, 5, 0], 1, 0, 2, False, False, 1, -1) == tg.score_deal([3, 0, 5, 0], 1, 0)
    ci, cat = R.oracle_classify(FLAGS, COUNTS)
    assert ci == 0 and tg.CATEGORIES[cat] == "single_civil"
    table = R.oracle_combos(FLAGS)
    assert table[0][0] == tuple(COUNTS) and all(len(row[0]) == 21 for row in table)


# ---- random accepted scenarios: no dead state, no endless game -------------------------------------
def random_scenario(g, rng):
    tiles = [FULL_SET[i] for i in rng.permutation(32)]
    n = int(rng.integers(1, 9))
    hands = [tiles[n * q:n * q + n] for q in range(4)]
    banker = int(rng.integers(4))
    leader = int(rng.integers(4))
    m = 8 - n
    tricks = None
    if m and rng.random() < 0.8:
        tricks = [0, 0, 0, 0]
        tricks[leader] = 1
        for _ in range(m - 1):
            tricks[int(rng.integers(4))] += 1
    if rng.random() < 0.1:                                      # refused facts, sometimes
        tricks = [int(x) for x in rng.integers(0, 3, 4)]
    try:
        return tg.scenario(g, hands, banker=banker, leader=leader if m else banker, tricks=tricks)
    except CardsimError:
        return None


@pytest.mark.parametrize("cfg", tg.INFO.conformance_configs, ids=str)
def test_random_scenarios_have_no_dead_state(cfg):
    g = cardsim.make("tien_gow", **cfg)
    limit = tg.max_game_length(g.options)
    lo, hi = tg.return_bounds(g.options)
    rng = np.random.default_rng(6807)
    accepted = 0
    for _ in range(120):
        s = random_scenario(g, rng)
        if s is None:
            continue
        accepted += 1
        steps = 0
        while not s.is_terminal():
            la = s.legal_actions()
            assert len(la) > 0, f"dead state: {s.spec.view(s)}"
            s.apply(int(la[rng.integers(len(la))]))
            steps += 1
            assert steps <= limit
        r = s.returns()
        assert abs(sum(r)) < 1e-9 and all(lo <= x <= hi for x in r)
    assert accepted >= 60


def test_scenario_refuses_other_games_and_bad_facts():
    with pytest.raises(ConfigError):
        tg.scenario(cardsim.make("six_tigers"), [["6-6"], ["1-1"], ["3-3"], ["4-4"]])
    g = cardsim.make("tien_gow")
    for kw in (dict(banker=1.0), dict(leader=10**30), dict(tricks=[7.0, 0, 0, 0]), dict(tricks="7000"),
               dict(tricks=[7, 0, 0, 0, 0])):
        with pytest.raises(CardsimError):
            tg.scenario(g, [["6-6"], ["1-1"], ["3-3"], ["4-4"]], **kw)
