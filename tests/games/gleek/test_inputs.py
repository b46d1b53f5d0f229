"""Bad input to Gleek never crashes and never corrupts (issue 23): every public function of
cardsim.games.gleek (oracles, scenario builders, score helpers) answers None, wrong types, floats,
bools, huge ints, NaN, oversized, duplicated and malformed card lists with a typed error (a
cardsim.CardsimError) that echoes little of the input; scenarios refuse what a real deal cannot
reach where it would be a dead end (random playouts from random accepted scenarios end)."""
import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError, ConfigError
from cardsim.games import gleek
from tests.hostile import LONG, echo_ok, fuzz_call, playouts, uncovered


def _calls():
    """(function, args, kwargs) of a valid call of every public function."""
    gg = cardsim.make("gleek")
    gdeck = [gleek.card_str(c) for c in range(44)]
    return [
        (gleek.deal_hands, (gg, [gdeck[0:12], gdeck[12:24], gdeck[24:36]], gdeck[40]), {"dealer": 1, "dead": 0}),
        (gleek.scenario, (gg, [gdeck[0:12], gdeck[12:24], gdeck[24:36]]), {"turnup": gdeck[40]}),
        (gleek.card_str, (3,), {}),
        (gleek.parse_suit, ("H",), {}),
        (gleek.parse_card, ("AS",), {}),
        (gleek.mask_to_cards, (7,), {}),
        (gleek.cards_to_mask, (["AS", "4H"],), {}),
        (gleek.trick_winner, (["AS", "KS", "4H"], "H"), {}),
        (gleek.legal_follows, (["AS", "4H"], "KS"), {}),
        (gleek.ruff_value, (["AS", "KS", "4H"],), {}),
        (gleek.gleek_value, (["AS", "AH", "AD"],), {}),
        (gleek.gleek_settlement, ([["AS", "AH", "AD"], ["KS"], []],), {}),
        (gleek.trick_settlement, ([4, 4, 4], [["AH"], [], []], "5H"), {"dealer": 0, "discards": []}),
        (gleek.return_bounds, (gg.options,), {}),
        (gleek.max_game_length, (gg.options,), {}),
    ]


CALL_IDS = [f.__name__ for f, _, _ in _calls()]


@pytest.mark.parametrize("i", range(len(CALL_IDS)), ids=CALL_IDS)
def test_every_public_function_answers_bad_input_with_typed_errors(i):
    fuzz_call(*_calls()[i])


def test_the_calls_cover_every_public_function():
    assert uncovered(gleek, _calls()) == []


@pytest.mark.parametrize("cfg", [{}, {"scope": "match", "num_deals": 2},
                                 {"gleek_declaration": "optional", "exchange_order": "take_first"}])
def test_gleek_random_accepted_scenarios_have_no_dead_end(cfg):
    g = cardsim.make("gleek", **cfg)
    limit = gleek.max_game_length(g.options) + 100
    rng = np.random.default_rng(5)
    deck = [gleek.card_str(c) for c in range(44)]
    for _ in range(40):
        perm = [deck[i] for i in rng.permutation(44)]
        chips = [int(x) for x in rng.integers(-5, 60, 3)]
        st = g.spec.scenario([perm[0:12], perm[12:24], perm[24:36]], turnup=perm[36], dealer=int(rng.integers(3)),
                             dead=int(rng.integers(0, 4)), chips=chips)
        playouts(st, rng, limit, 2)
