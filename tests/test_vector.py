"""VectorEnv: every environment agrees move by move with the Python State API, auto reset deals
(seed, i<<32 | k), rewards add up to the returns, and bad input changes nothing."""
import numpy as np
import pytest

import cardsim
from cardsim.vector import VectorEnv, observe_into

CONFIGS = [("joffre_whist", {"all_pass": "dealer_bids"})] + [(g, {}) for g in cardsim.GAMES if g != "joffre_whist"]


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_matches_python_api(game, opts):
    N, seed = 5, 3
    env = VectorEnv(game, N, seed=seed, **opts)
    env.reset()
    g = cardsim.make(game, **opts)
    ref = [g.new_state(seed, i << 32) for i in range(N)]
    episode = [0] * N
    acc = np.zeros((N, g.num_players))
    rng = np.random.default_rng(7)
    finished = 0
    for _ in range(400):
        for i in range(N):
            p = ref[i].current_player
            assert env.current_player[i] == p
            np.testing.assert_array_equal(env.obs[i], ref[i].observation(p))
            np.testing.assert_array_equal(env.legal_mask[i], ref[i].legal_mask())
        acts = np.array([rng.choice(np.flatnonzero(env.legal_mask[i])) for i in range(N)])
        env.step(acts)
        for i in range(N):
            before = ref[i].returns()
            ref[i].apply(int(acts[i]))
            np.testing.assert_allclose(env.rewards[i], ref[i].returns() - before)
            acc[i] += env.rewards[i]
            assert env.terminated[i] == ref[i].is_terminal()
            if ref[i].is_terminal():
                np.testing.assert_allclose(acc[i], ref[i].returns() - g.new_state(seed, (i << 32) | episode[i]).returns())
                acc[i] = 0
                episode[i] += 1
                finished += 1
                ref[i] = g.new_state(seed, (i << 32) | episode[i])
                assert env.deal_of(i) == (i << 32) | episode[i]
            assert env.state(i) == ref[i]
    assert finished > 0 or game == "zhao_pengyou"


def test_deal_sequence_independent_of_num_envs():
    a, b = VectorEnv("karnoffel", 2, seed=9), VectorEnv("karnoffel", 6, seed=9)
    a.reset(), b.reset()
    for _ in range(60):
        acts = a.legal_mask.argmax(1)
        a.step(acts)
        b.step(np.concatenate([acts, b.legal_mask[2:].argmax(1)]))
        np.testing.assert_array_equal(a.obs, b.obs[:2])
        np.testing.assert_array_equal(a.rewards, b.rewards[:2])


def test_bad_input_changes_nothing():
    env = VectorEnv("karnoffel", 3, seed=1)
    with pytest.raises(cardsim.ConfigError):
        env.step([0, 0, 0])                      # before reset
    env.reset()
    snap = [env.state(i) for i in range(3)], env.obs.copy()
    legal0 = np.flatnonzero(env.legal_mask[0])
    illegal1 = np.flatnonzero(~env.legal_mask[1])[0]
    for bad in ([legal0[0], illegal1, 0], [legal0[0], -1, 0], [legal0[0], 10**6, 0]):
        with pytest.raises(cardsim.IllegalActionError, match="environment 1"):
            env.step(np.array(bad))
        assert [env.state(i) for i in range(3)] == snap[0]
        np.testing.assert_array_equal(env.obs, snap[1])
    for bad in ([1.5, 2, 3], [0, 0], "abc", [[0, 0, 0]]):
        with pytest.raises(cardsim.ConfigError):
            env.step(bad)
    for kw in ({"num_envs": 0}, {"num_envs": 2.0}, {"num_envs": True}, {"num_envs": 2, "seed": -1}):
        with pytest.raises(cardsim.ConfigError):
            VectorEnv("karnoffel", **kw)


def test_observe_into_writes_the_observation_in_place():
    st = cardsim.make("basra").new_state(4, 2)
    buf = np.full(st.game.obs_size, 7.0, dtype=np.float32)
    observe_into(st, 1, buf)
    np.testing.assert_array_equal(buf, st.observation(1))
    with pytest.raises(cardsim.CardsimError):
        observe_into(st, 9, buf)
    with pytest.raises(cardsim.CardsimError):
        observe_into(st, 0, np.zeros(3, np.float32))
