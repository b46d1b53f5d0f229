"""The factored follow under the set obligation (zp_follow_set_adds) against the plain rule: a
candidate is legal when adding it leaves set_obligation_cost below the cards still to add."""
import random

import pytest

from cardsim.errors import ConfigError
from cardsim.games.zhao_pengyou import _testing


def _profiles(seed, count):
    rnd = random.Random(seed)
    while count:
        k = rnd.choice([2, 2, 3, 4])
        m = rnd.randint(1, 4)
        min_size = rnd.choice([1, k])
        rest, play = [0] * 13, [0] * 13
        for i in rnd.sample(range(13), rnd.randint(1, 13)):
            held = rnd.randint(0, 4)
            play[i] = rnd.randint(0, held)
            rest[i] = held - play[i]
        if sum(rest) == 0:
            continue
        count -= 1
        yield rest, play, k, m, min_size, rnd.randint(1, sum(rest))


def test_the_engine_equals_every_candidate_evaluated():
    tight_full = tight_partial = 0
    for rest, play, k, m, min_size, left in _profiles(2604, 40_000):
        engine, plain, cost = _testing.follow_set_adds(rest, play, k, m, min_size, left)
        assert engine == plain, (rest, play, k, m, min_size, left)
        if cost == left:        # the branch that tests each candidate
            full_sets = sum((r + p) // k for r, p in zip(rest, play))
            tight_full += full_sets >= m
            tight_partial += full_sets < m
    # both of its forms were exercised (the full-set level by sums, the lower levels by search)
    assert tight_full > 1_000 and tight_partial > 1_000, (tight_full, tight_partial)


@pytest.mark.parametrize("args", [
    ([0] * 12, [0] * 13, 2, 1, 2, 1),                       # 12 counts
    ([5] + [0] * 12, [0] * 13, 2, 1, 2, 1),                 # five copies
    ([2] + [0] * 12, [3] + [0] * 12, 2, 1, 2, 1),           # five copies with the play
    ([2] + [0] * 12, [0] * 13, 1, 1, 1, 1),                 # k = 1
    ([2] + [0] * 12, [0] * 13, 2, 1, 2, 3),                 # more to add than held
    ([2] + [0] * 12, [0] * 13, 3, 1, 2, 1),                 # min_size neither 1 nor k
])
def test_the_hook_refuses_what_the_kernel_cannot_take(args):
    with pytest.raises(ConfigError):
        _testing.follow_set_adds(*args)
