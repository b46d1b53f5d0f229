"""Bad input to Karnöffel never crashes and never corrupts (issue 23): every public function of
cardsim.games.karnoffel (oracles, scenario builders, score helpers) answers None, wrong types, floats,
bools, huge ints, NaN, oversized, duplicated and malformed card lists with a typed error (a
cardsim.CardsimError) that echoes little of the input; scenarios refuse what a real deal cannot
reach where it would be a dead end (random playouts from random accepted scenarios end)."""
import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError, ConfigError
from cardsim.games import karnoffel
from tests.hostile import LONG, echo_ok, fuzz_call, playouts, uncovered


def _calls():
    """(function, args, kwargs) of a valid call of every public function."""
    kg = cardsim.make("karnoffel")
    kdeck = [karnoffel.card_str(c) for c in range(48)]
    return [
        (karnoffel.scenario, (kg, [kdeck[5 * q:5 * q + 5] for q in range(4)]), {"dealer": 1}),
        (karnoffel.trick_winner, (["7S", "8S", "9S", "10S"], "H"), {}),
        (karnoffel.current_winner, (["7S", "8S"], "H"), {}),
        (karnoffel.chosen_suit, (["7S", "8H", "9D", "10C"],), {}),
        (karnoffel.legal_plays, (["7S", "8H"],), {}),
        (karnoffel.return_bounds, (kg.options,), {}),
        (karnoffel.max_game_length, (kg.options,), {}),
    ]


CALL_IDS = [f.__name__ for f, _, _ in _calls()]


@pytest.mark.parametrize("i", range(len(CALL_IDS)), ids=CALL_IDS)
def test_every_public_function_answers_bad_input_with_typed_errors(i):
    fuzz_call(*_calls()[i])


def test_the_calls_cover_every_public_function():
    assert uncovered(karnoffel, _calls()) == []


@pytest.mark.parametrize("cfg", [{}, {"players": 6, "scope": "match", "match_target": 2}, {"stop_at_three": False}])
def test_karnoffel_random_accepted_scenarios_have_no_dead_end(cfg):
    g = cardsim.make("karnoffel", **cfg)
    N = g.num_players
    limit = karnoffel.max_game_length(g.options)
    rng = np.random.default_rng(7)
    deck = [karnoffel.card_str(c) for c in range(48)]
    for _ in range(60):
        perm = [deck[i] for i in rng.permutation(48)]
        hands = [perm[5 * q:5 * q + 5] for q in range(N)]
        up = [h[int(rng.integers(5))] for h in hands]
        st = g.spec.scenario(hands, dealer=int(rng.integers(N)), up=up)
        playouts(st, rng, limit, 2)
