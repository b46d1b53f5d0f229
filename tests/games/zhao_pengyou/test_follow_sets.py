"""The factored follow under the set obligation (zp_follow_set_adds) against the plain rule: a
candidate is legal when adding it leaves set_obligation_cost below the cards still to add; and
the packed-layer cost of a follow to pairs (zp_pair_cost) against set_obligation_cost on counts."""
import itertools
import random

import pytest

from cardsim.errors import ConfigError
from cardsim.games.zhao_pengyou import _testing

CLASSES = [(p, s) for s in range(5) for p in range(s + 1)]   # (copies in the follow, copies held)


def _profile(rnd, few_pairs):
    """13 (rest, play) counts: any holding, or (few_pairs) mostly singles and odd counts, where a
    lead of several pairs outruns the pairs held and the lower levels decide."""
    rest, play = [0] * 13, [0] * 13
    for i in rnd.sample(range(13), rnd.randint(1, 13)):
        held = rnd.choice([1, 1, 1, 3, 2]) if few_pairs else rnd.randint(0, 4)
        play[i] = rnd.randint(0, held)
        rest[i] = held - play[i]
    return rest, play


def _profiles(seed, count):
    rnd = random.Random(seed)
    while count:
        k = rnd.choice([2, 2, 3, 4])
        m = rnd.randint(1, 7)
        min_size = rnd.choice([1, k])
        rest, play = _profile(rnd, rnd.random() < 0.4)
        if sum(rest) == 0:
            continue
        count -= 1
        yield rest, play, k, m, min_size, rnd.randint(1, min(sum(rest), 2 * m + 2))


def test_the_engine_equals_every_candidate_evaluated():
    tight_full = tight_partial = 0
    for rest, play, k, m, min_size, left in _profiles(2604, 60_000):
        engine, plain, cost = _testing.follow_set_adds(rest, play, k, m, min_size, left)
        assert engine == plain, (rest, play, k, m, min_size, left)
        if cost == left:        # the branch that tests each candidate
            full_sets = sum((r + p) // k for r, p in zip(rest, play))
            tight_full += full_sets >= m
            tight_partial += full_sets < m
    # both of its forms were exercised (the full-set level by sums, the lower levels by search)
    assert tight_full > 1_000 and tight_partial > 1_000, (tight_full, tight_partial)


def test_the_pair_cost_equals_the_obligation_counted():
    # every suit of up to three identities in every (follow, held) class, then random full suits
    for m in range(1, 8):
        for min_size in (1, 2):
            for n in (1, 2, 3):
                for combo in itertools.product(CLASSES, repeat=n):
                    play = [p for p, _ in combo] + [0] * (13 - n)
                    rest = [s - p for p, s in combo] + [0] * (13 - n)
                    engine, plain = _testing.pair_cost(rest, play, m, min_size)
                    assert engine == plain, (rest, play, m, min_size)
    rnd = random.Random(7)
    for _ in range(20_000):
        rest, play = _profile(rnd, rnd.random() < 0.5)
        m, min_size = rnd.randint(1, 9), rnd.choice([1, 2])
        engine, plain = _testing.pair_cost(rest, play, m, min_size)
        assert engine == plain, (rest, play, m, min_size)


@pytest.mark.parametrize("args", [
    ([0] * 12, [0] * 13, 2, 1, 2, 1),                       # 12 counts
    ([5] + [0] * 12, [0] * 13, 2, 1, 2, 1),                 # five copies
    ([2] + [0] * 12, [3] + [0] * 12, 2, 1, 2, 1),           # five copies with the play
    ([2] + [0] * 12, [0] * 13, 1, 1, 1, 1),                 # k = 1
    ([2] + [0] * 12, [0] * 13, 2, 1, 2, 3),                 # more to add than held
    ([2] + [0] * 12, [0] * 13, 3, 1, 2, 1),                 # min_size neither 1 nor k
    ([1.0] + [0] * 12, [0] * 13, 2, 1, 2, 1),               # a float count
    ([True] + [0] * 12, [0] * 13, 2, 1, 2, 1),              # a bool count
])
def test_the_hook_refuses_what_the_kernel_cannot_take(args):
    with pytest.raises(ConfigError):
        _testing.follow_set_adds(*args)


@pytest.mark.parametrize("args", [([0] * 13, [0] * 12, 1, 1), ([0] * 13, [0] * 13, 0, 1),
                                  ([0] * 13, [0] * 13, 1, 3), ([-1] + [0] * 12, [0] * 13, 1, 1),
                                  ([0] * 13, [0.5] + [0] * 12, 1, 1)])
def test_the_pair_hook_refuses_what_the_kernel_cannot_take(args):
    with pytest.raises(ConfigError):
        _testing.pair_cost(*args)
