import os

import pytest

try:                    # property tests draw the same examples on every run and machine (CI is
    from hypothesis import settings   # reproducible); HYPOTHESIS_PROFILE=explore draws fresh ones
    settings.register_profile("ci", derandomize=True, database=None)
    settings.register_profile("explore", derandomize=False)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
except ImportError:     # hypothesis is a test extra; the tests that need it skip without it
    pass

import cardsim
from cardsim.game import game_info


def game_configs():
    """(game, options) pairs: every registered game with each of its CONFORMANCE_CONFIGS."""
    out = []
    for name in cardsim.GAMES:
        for cfg in game_info(name).conformance_configs:
            out.append(pytest.param(name, dict(cfg), id=f"{name}-{'-'.join(f'{k}={v}' for k, v in cfg.items()) or 'default'}"))
    return out
