"""Bad input to Basra never crashes and never corrupts (issue 23): every public function of
cardsim.games.basra (oracles, scenario builders, score helpers) answers None, wrong types, floats,
bools, huge ints, NaN, oversized, duplicated and malformed card lists with a typed error (a
cardsim.CardsimError) that echoes little of the input; scenarios refuse what a real deal cannot
reach where it would be a dead end (random playouts from random accepted scenarios end)."""
import math

import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError, ConfigError
from cardsim.games import basra
from tests.hostile import LONG, echo_ok, fuzz_call, playouts, uncovered


def _calls():
    """(function, args, kwargs) of a valid call of every public function."""
    bg = cardsim.make("basra", players=2)
    bst = basra.position(bg, [["5D", "QC"], ["2S", "9C"]], ["5C", "2H", "3S"], dealer=1)
    bpack = [basra.card_str(c) for c in range(52)]
    return [
        (basra.deal_pack, (bg, bpack), {"dealer": 1}),
        (basra.capture_options, (["5C", "2H", "3S"], "5D"), {}),
        (basra.basra_points, (["4C"], "4D"), {"last_play": False}),
        (basra.score_deal, ([["AS", "2C"], ["3H"]],), {"basras": [10, 0], "doubled": [[], []], "carry": 1}),
        (basra.position, (bg, [["5D", "QC"], ["2S", "9C"]], ["5C"]), {"dealer": 1}),
        (basra.scenario, (bg, [["5D"], ["2S"]]), {"floor": ["5C"], "dealer": 1}),
        (basra.legal_plays, (bst,), {}),
        (basra.play_to_actions, (bst, "5D", ["2H", "3S", "5C"]), {}),
        (basra.actions_to_play, (bst, [basra.parse_card("QC")]), {}),
        (basra.side_of, (bg, 1), {}),
        (basra.set_scores, (bst, [10.5, 3]), {"carry": 1, "ladder_step": 0}),
        (basra.game_end, (bst,), {}),
        (basra.return_bounds, (bg.options,), {}),
        (basra.max_game_length, (bg.options,), {}),
    ]


CALL_IDS = [f.__name__ for f, _, _ in _calls()]


@pytest.mark.parametrize("i", range(len(CALL_IDS)), ids=CALL_IDS)
def test_every_public_function_answers_bad_input_with_typed_errors(i):
    fuzz_call(*_calls()[i])


def test_the_calls_cover_every_public_function():
    assert uncovered(basra, _calls()) == []


def test_basra_spec_arguments_are_checked_before_any_write():
    """Regression (issue 23): set_scores and the other Basra spec methods validate every
    argument (lengths the kernel reads, ints in range, finite numbers) before writing."""
    g = cardsim.make("basra", players=2)
    spec = g.spec
    st = g.new_state(3, 0)
    before = spec.view(st)
    bad_calls = [
        lambda: basra.set_scores(st, [100.5, 3, 7]), lambda: basra.set_scores(st, [100.5]),
        lambda: basra.set_scores(st, [math.nan, 3]), lambda: basra.set_scores(st, [math.inf, 3]),
        lambda: basra.set_scores(st, [10 ** 30, 3]), lambda: basra.set_scores(st, [True, 3]),
        lambda: basra.set_scores(st, [100.25, 3]), lambda: basra.set_scores(st, [-1, 3]),
        lambda: basra.set_scores(st, "ab"), lambda: basra.set_scores(st, None),
        lambda: basra.set_scores(st, [1, 2], carry=1.0), lambda: basra.set_scores(st, [1, 2], carry=-1),
        lambda: basra.set_scores(st, [1, 2], ladder_step=3), lambda: basra.set_scores(st, [1, 2], ladder_step=None),
        lambda: basra.set_scores(st, [LONG, 2]),
        lambda: basra.side_of(g, 2), lambda: basra.side_of(g, -1), lambda: basra.side_of(g, 1.0), lambda: basra.side_of(g, None),
        lambda: basra.side_of(g, 10 ** 30),
        lambda: basra.deal_pack(g, ["AS"] * 52), lambda: basra.deal_pack(g, None), lambda: basra.deal_pack(g, LONG),
        lambda: basra.deal_pack(g, basra.mask_to_cards((1 << 52) - 1), dealer=2),
        lambda: basra.deal_pack(g, basra.mask_to_cards((1 << 52) - 1), dealer=1.0),
        lambda: basra.position(g, [["AS"], ["2S"]], ["AS"]), lambda: basra.position(g, [["AS"]], []),
        lambda: basra.position(g, [["AS"], ["2S"]], [], dealer=5), lambda: basra.position(g, [["AS"], ["2S"]], [], turn=1.0),
        lambda: basra.position(g, [["AS"], ["2S"]], [], piles=[["3S"], ["4S"], ["5S"]]),
        lambda: basra.position(g, [["AS"], ["2S"]], [], carry=10 ** 30),
        lambda: basra.position(g, [["AS"], ["2S"]], [], last_capturer=2),
        lambda: basra.position(g, [["AS"] * 5, ["2S"]], []), lambda: basra.position(g, [[LONG], ["2S"]], []),
        lambda: basra.scenario(g, [["AS"], ["2S"]], floor=None), lambda: basra.scenario(g, [["AS"], ["2S"]], colour=1),
        lambda: basra.scenario(g, None, pack=["AS"]),
    ]
    for call in bad_calls:
        with pytest.raises(CardsimError) as e:
            call()
        assert echo_ok(e.value)
    assert spec.view(st) == before
    assert [basra.side_of(g, p) for p in (0, 1)] == [0, 1]
    assert basra.side_of(cardsim.make("basra", players=4), np.int64(3)) == 1
    basra.set_scores(st, [100.5, 3], carry=2, ladder_step=1)
    v = spec.view(st)
    assert v["game_points"] == [100.5, 3.0] and v["carry"] == 2


@pytest.mark.parametrize("cfg", [{"players": 2}, {"players": 3, "hand_size": 6}, {"players": 4},
                                 {"players": 4, "partnership": False, "scope": "match", "target": 51},
                                 {"players": 2, "variant": "palestinian"}])
def test_basra_random_accepted_scenarios_have_no_dead_end(cfg):
    """Random hand sizes, floors, stocks and piles: what spec.scenario accepts plays out to the
    end without a dead state (B-D27); the real-deal shapes are all accepted."""
    g = cardsim.make("basra", **cfg)
    N, deck, hs = g.num_players, g.spec.deck_size, g.options["hand_size"]
    limit = basra.max_game_length(g.options)
    rng = np.random.default_rng(23)
    cards = [basra.card_str(c) for c in range(deck)]
    accepted = refused = 0
    for _ in range(300):
        perm = [cards[i] for i in rng.permutation(deck)]
        real = rng.random() < 0.5
        dealer, turn = int(rng.integers(N)), int(rng.integers(N))
        if real:                                          # a shape a real deal has
            m = int(rng.integers(1, hs + 1))
            played = (turn - dealer - 1) % N              # seats that already played this round
            sizes = [0] * N
            for j in range(N):
                sizes[(dealer + 1 + j) % N] = m - 1 if j < played else m
            ns = N * int(rng.integers(0, (deck - sum(sizes) - 6) // N + 1))
        else:
            sizes = [int(rng.integers(0, hs + 1)) for _ in range(N)]
            ns = int(rng.integers(0, 9))
        hands, k = [], 0
        for q in range(N):
            hands.append(perm[k:k + sizes[q]])
            k += sizes[q]
        nf = int(rng.integers(0, 5))
        floor, stock = perm[k:k + nf], perm[k + nf:k + nf + ns]
        k += nf + ns
        piles = [perm[k:k + 3]] + [[] for _ in range(g.spec.num_sides - 1)]
        try:
            st = g.spec.scenario(hands, floor=floor, stock=stock, dealer=dealer, turn=turn, piles=piles)
        except ConfigError:
            assert not real or len(stock) > len(perm) - k, (hands, stock)
            refused += 1
            continue
        accepted += 1
        playouts(st, rng, limit)
    assert accepted > 100 and refused > 30


def test_basra_scenario_refuses_the_dead_end_shapes():
    g = cardsim.make("basra", players=2)
    for hands, kw in (([["5D", "QC", "JS", "8H"], ["2S"]], {}),          # 4 v 1: seat 1 runs dry first
                      ([["5D"], ["2S", "3S"]], {}),                         # seat 1 (after the turn) holds more
                      ([["5D"], ["2S"]], {"stock": ["3H"]})):                # 1 stock card for 2 seats
        with pytest.raises(ConfigError):
            g.spec.scenario(hands, floor=["KD"], dealer=1, **kw)
    g.spec.scenario([["5D"], ["2S", "QC"]], floor=["KD"], dealer=1, turn=1)  # seat 0 has played this round
    with pytest.raises(ConfigError):
        g.spec.scenario([["5D", "QC"], ["2S"]], floor=["KD"], dealer=1, turn=1)  # ... and holds more: no
    with pytest.raises(ConfigError):
        g.spec.scenario([["5D", "QC"], ["2S"]], floor=["KD"], dealer=0, turn=1)  # round starts at 1: equal sizes
