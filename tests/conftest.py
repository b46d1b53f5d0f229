import pytest

import cardsim
from cardsim.game import game_module


def game_configs():
    """(game, options) pairs: every registered game with each of its CONFORMANCE_CONFIGS."""
    out = []
    for name in cardsim.GAMES:
        mod = game_module(name)
        for cfg in getattr(mod, "CONFORMANCE_CONFIGS", ({},)):
            out.append(pytest.param(name, dict(cfg), id=f"{name}-{'-'.join(f'{k}={v}' for k, v in cfg.items()) or 'default'}"))
    return out
