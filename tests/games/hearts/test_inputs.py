"""Bad input to Hearts never crashes and never corrupts: every public function of
cardsim.games.hearts (oracles, scenario builder, bounds) answers None, wrong types, floats, bools,
huge ints, NaN, oversized, duplicated and malformed card lists with a typed error (a
cardsim.CardsimError) that echoes little of the input; random playouts from random accepted
scenarios end (no dead end)."""
import numpy as np
import pytest

import cardsim
from cardsim.games import hearts
from tests.hostile import fuzz_call, playouts, uncovered


def _taken():
    deck = [hearts.card_str(c) for c in range(52)]
    return [deck[13 * q:13 * q + 12] if q < 3 else deck[39:] + [deck[12], deck[25], deck[38]]
            for q in range(4)]


def _calls():
    """(function, args, kwargs) of a valid call of every public function."""
    g = cardsim.make("hearts")
    deck = [hearts.card_str(c) for c in range(52)]
    return [
        (hearts.scenario, (g, [deck[13 * q:13 * q + 13] for q in range(4)]), {"dealer": 1, "pass_dir": "left"}),
        (hearts.trick_winner, (["7S", "8S", "9S", "10S"],), {}),
        (hearts.legal_plays, (["7S", "8H"], ["2S"], False, False), {}),
        (hearts.score_deal, (_taken(),), {}),
        (hearts.return_bounds, (g.options,), {}),
        (hearts.max_game_length, (g.options,), {}),
        (hearts.deck_size, (4,), {}),
        (hearts.deck_mask, (4,), {}),
    ]


CALL_IDS = [f.__name__ for f, _, _ in _calls()]


@pytest.mark.parametrize("i", range(len(CALL_IDS)), ids=CALL_IDS)
def test_every_public_function_answers_bad_input_with_typed_errors(i):
    fuzz_call(*_calls()[i])


def test_the_calls_cover_every_public_function():
    assert uncovered(hearts, _calls()) == []


@pytest.mark.parametrize("cfg", [{}, {"players": 3, "scope": "match", "match_target": 20},
                                 {"players": 6, "pass_rotation": "hold"}, {"variant": "openspiel"}])
def test_hearts_random_accepted_scenarios_have_no_dead_end(cfg):
    g = cardsim.make("hearts", **cfg)
    n = g.num_players
    limit = hearts.max_game_length(g.options)
    rng = np.random.default_rng(7)
    deck = hearts.mask_to_cards(hearts.deck_mask(n))
    k = len(deck) // n
    for _ in range(30):
        perm = [deck[i] for i in rng.permutation(len(deck))]
        hands = [perm[k * q:k * q + k] for q in range(n)]
        dirs = ["hold", "left", "right"] + (["across"] if n == 4 else [])
        st = g.spec.scenario(hands, dealer=int(rng.integers(n)), pass_dir=dirs[int(rng.integers(len(dirs)))])
        playouts(st, rng, limit, 2)
