"""PettingZoo adapter: pettingzoo's own api_test and seed_test for every game (skipped without pettingzoo)."""
import numpy as np
import pytest

import cardsim

pz = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardsim.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_api(game):
    api_test(env(game), num_cycles=300)


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_seed(game):
    seed_test(lambda: env(game), num_cycles=100)


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_rewards_sum_to_returns(game):
    """Each agent's rewards over an episode add up to the engine's final returns; only the agent
    to act has a non-zero action mask."""
    e = env(game)
    e.reset(seed=5)
    got = dict.fromkeys(e.possible_agents, 0.0)
    start = e.state.returns()
    rng = np.random.default_rng(1)
    while e.agents:
        agent = e.agent_selection
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        for other in e.possible_agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.state.is_terminal()
    np.testing.assert_allclose([got[a] for a in e.possible_agents], e.state.returns() - start)


def test_next_reset_plays_the_next_deal():
    e = env("karnoffel")
    e.reset(seed=9)
    first = e.state.state_bytes()
    e.reset()
    assert e.state == cardsim.make("karnoffel").new_state(9, 1)
    e.reset(seed=9)
    assert e.state.state_bytes() == first


def test_errors():
    with pytest.raises(cardsim.ConfigError):
        env("no_such_game")
    e = env("karnoffel")
    e.reset(seed=1)
    legal = set(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist())
    bad = next(a for a in range(48) if a not in legal)
    before = e.state.state_bytes()
    with pytest.raises(cardsim.IllegalActionError):
        e.step(bad)
    assert e.state.state_bytes() == before
    with pytest.raises(cardsim.ConfigError):
        e.reset(seed=-1)


def test_max_cycles_truncates_every_agent():
    """max_cycles: a deal reaching that many actions unfinished is truncated for every agent (and
    the episode loop ends); the default is the game's declared max_game_length."""
    e = env("karnoffel", max_cycles=5)
    assert env("karnoffel").max_cycles == cardsim.make("karnoffel").info.max_game_length(
        dict(cardsim.make("karnoffel").options))
    e.reset(seed=2)
    actions = 0
    truncated = set()
    for agent in e.agent_iter(max_iter=100):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term
            truncated.add(agent)
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        actions += 1
    assert actions == 5 and truncated == set(e.possible_agents) and not e.agents
    api_test(env("exposure", max_cycles=7), num_cycles=50)
    for bad in (0, -1, 2.5, True, "x"):
        with pytest.raises(cardsim.ConfigError):
            env("karnoffel", max_cycles=bad)
