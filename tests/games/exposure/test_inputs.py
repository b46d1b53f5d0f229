"""Bad input to Exposure never crashes and never corrupts (issue 23): every public function of
cardsim.games.exposure (oracles, scenario builders, score helpers) answers None, wrong types, floats,
bools, huge ints, NaN, oversized, duplicated and malformed card lists with a typed error (a
cardsim.CardsimError) that echoes little of the input; scenarios refuse what a real deal cannot
reach where it would be a dead end (random playouts from random accepted scenarios end)."""
import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError, ConfigError
from cardsim.games import exposure
from tests.hostile import LONG, echo_ok, fuzz_call, playouts, uncovered


def _calls():
    """(function, args, kwargs) of a valid call of every public function."""
    eg = cardsim.make("exposure")
    edeck = [exposure.card_str(c) for c in range(24)]
    return [
        (exposure.deal_hands, (eg, [edeck[0:9], edeck[9:18]], edeck[18:21]), {"dealer": 0, "scores": [3, 4]}),
        (exposure.scenario, (eg, [edeck[0:9], edeck[9:18]]), {"table": edeck[18:21]}),
        (exposure.deal_order, (edeck, 1), {}),
        (exposure.declare_melds, (["QS", "QH", "QD", "9S", "9H", "10S", "10H", "JS", "AS"], ["KS", "KH", "AH"],
                                  [["QS", "QH", "QD"]]), {}),
        (exposure.trick_winner, (["QS", "KS"], "H", "Q"), {}),
        (exposure.legal_follows, (["QS", "KH"], "AS"), {"exposed": ["9D"]}),
        (exposure.contract_target, ("QC",), {}),
        (exposure.score_deal, ([5, 4], [1, 0], 5), {}),
        (exposure.match_outcome, ([50, 20],), {"target_score": 50}),
        (exposure.declaration_actions, ([["QS", "QH", "QD"]],), {}),
        (exposure.return_bounds, (eg.options,), {}),
        (exposure.max_game_length, (eg.options,), {}),
    ]


CALL_IDS = [f.__name__ for f, _, _ in _calls()]


@pytest.mark.parametrize("i", range(len(CALL_IDS)), ids=CALL_IDS)
def test_every_public_function_answers_bad_input_with_typed_errors(i):
    fuzz_call(*_calls()[i])


def test_the_calls_cover_every_public_function():
    assert uncovered(exposure, _calls()) == []


@pytest.mark.parametrize("cfg", [{}, {"scope": "match"}, {"variant": "pagat", "declaration_order": "simultaneous"}])
def test_exposure_random_accepted_scenarios_have_no_dead_end(cfg):
    g = cardsim.make("exposure", **cfg)
    limit = exposure.max_game_length(g.options)
    rng = np.random.default_rng(9)
    deck = [exposure.card_str(c) for c in range(24)]
    for _ in range(60):
        perm = [deck[i] for i in rng.permutation(24)]
        scores = [int(x) for x in rng.integers(0, 49, 2)]
        st = g.spec.scenario([perm[0:9], perm[9:18]], table=perm[18:21], dealer=int(rng.integers(2)), scores=scores)
        playouts(st, rng, limit, 2)
