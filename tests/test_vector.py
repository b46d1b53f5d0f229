"""VectorEnv: every environment agrees move by move with the Python State API, auto reset deals
(seed, i<<32 | k), rewards add up to the returns, and bad input changes nothing."""
import numpy as np
import pytest

import cardsim
from cardsim.vector import VectorEnv, observe_into

CONFIGS = [("joffre_whist", {"all_pass": "dealer_bids"})] + [(g, {}) for g in cardsim.GAMES]


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


# ---- gymnasium's vector API, opponents in the kernel, truncation (issue 27) -------------------------

FIRST, RANDOM, GREEDY = 2, 0, 1        # kernel agent codes (cardsim.core._engine.AGENT_CODES)


def test_gymnasium_spaces_reset_step_shapes():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import data_equivalence

    env = VectorEnv("karnoffel", 4, seed=2, learner_seats=[0], opponents="greedy")
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    assert env.single_action_space == gym.spaces.Discrete(env.num_actions)
    assert env.action_space == gym.spaces.MultiDiscrete([env.num_actions] * 4)
    obs, info = env.reset(seed=123)
    assert obs in env.observation_space and obs.shape == (4, env.observation_size)
    obs2, info2 = env.reset(seed=123)
    assert data_equivalence(obs, obs2) and data_equivalence(info, info2)
    assert (info["current_player"] == 0).all()
    out = env.step(info["action_mask"].argmax(1))
    assert len(out) == 5
    o, r, term, trunc, info = out
    assert o in env.observation_space and r.shape == (4,) and r.dtype == np.float64
    assert term.dtype == np.bool_ and trunc.dtype == np.bool_ and isinstance(info, dict)
    assert o is not env.obs                        # copy=True: the caller's arrays are its own
    env.close()
    assert env.closed


def test_dict_observation_with_action_mask():
    gym = pytest.importorskip("gymnasium")
    env = VectorEnv("exposure", 3, seed=1, learner_seats=[1], opponents="random", mask_in_obs=True, copy=False)
    assert isinstance(env.single_observation_space, gym.spaces.Dict)
    obs, info = env.reset()
    assert obs in env.observation_space
    np.testing.assert_array_equal(obs["action_mask"].astype(bool), info["action_mask"])
    assert obs["observation"] is env.obs            # copy=False: the preallocated buffers themselves


@pytest.mark.parametrize("game,opp", [("karnoffel", GREEDY), ("exposure", RANDOM), ("tien_gow", GREEDY),
                                      ("joffre_whist", GREEDY), ("basra", RANDOM)])
def test_in_kernel_opponents_play_as_the_batch_kernel(game, opp):
    """Learner seat s plays the first legal action, the other seats a C agent inside the step: every
    finished episode's per-seat returns equal the batch kernel's for the same deal with agents
    (first at s, the C agent elsewhere): the opponents play exactly as in cardsim.simulate."""
    g = cardsim.make(game)
    P, N = g.num_players, 3
    s = P - 1
    env = VectorEnv(game, N, seed=5, learner_seats=[s], opponents=["greedy" if opp == GREEDY else "random"] * P)
    obs, info = env.reset()
    acc = env.rewards.copy()
    episode = np.zeros(N, int)
    checked = 0
    for _ in range(300):
        assert (info["current_player"] == s).all()
        obs, r, term, trunc, info = env.step(info["action_mask"].argmax(1))
        np.testing.assert_array_equal(r, info["rewards"][:, s])
        assert not trunc.any()
        acc += info["rewards"] * ~term[:, None]
        for i in np.flatnonzero(term):
            deal = (i << 32) | int(episode[i])
            codes = [opp] * P
            codes[s] = FIRST
            ref = g.spec.run_batch(5, deal, 1, codes)
            # the terminating step's rewards end this episode; the next deal's opening moves (if the
            # opponents act first) are credited to the same step
            first = g.new_state(5, deal).returns()
            nxt = env.state(i)
            opening = nxt.returns() - g.new_state(5, env.deal_of(i)).returns()
            total = acc[i] + info["rewards"][i] - opening
            np.testing.assert_allclose(total, ref["returns"][0] - first, atol=1e-9)
            acc[i] = opening
            episode[i] += 1
            checked += 1
    assert checked >= N


def test_python_batch_policy_opponents_equal_c_first():
    c = VectorEnv("karnoffel", 5, seed=3, learner_seats=[2], opponents="first", copy=False)
    calls = []

    def first(obs, mask, seat):
        calls.append(len(seat))
        assert (seat != 2).all() and obs.shape[0] == mask.shape[0] == len(seat)
        return mask.argmax(1)

    py = VectorEnv("karnoffel", 5, seed=3, learner_seats=[2], opponents=first, copy=False)
    for e in (c, py):
        e.reset()
    np.testing.assert_array_equal(c.obs, py.obs)
    rng = np.random.default_rng(1)
    for _ in range(80):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in c.legal_mask])
        r1 = c.step(a)
        r2 = py.step(a)
        for x, y in zip(r1[:4], r2[:4]):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(c.rewards, py.rewards)
    assert calls


def test_truncation_and_final_observation():
    env = VectorEnv("karnoffel", 4, seed=1, max_episode_steps=6, copy=False)
    obs, info = env.reset()
    seen = 0
    for _ in range(30):
        before = [env.deal_of(i) for i in range(4)]
        _, _, term, trunc, info = env.step(env.legal_mask.argmax(1))
        assert not term.any()                          # 6 actions never end a Karnoeffel deal
        for i in np.flatnonzero(trunc):
            seen += 1
            assert info["_final_obs"][i] and env.deal_of(i) == before[i] + 1
            assert info["final_obs"][i].any()
    assert seen > 0
    with pytest.raises(cardsim.ConfigError):
        VectorEnv("karnoffel", 2, max_episode_steps=0)


def test_default_joffre_whist_deals_end_under_always_pass():
    """Default Joffre Whist (all_pass='throw_in'): always passing ends every deal (thrown in at most
    max_redeals times, then passed out), within max_game_length, and nothing is truncated."""
    g = cardsim.make("joffre_whist")
    assert g.options["all_pass"] == "throw_in"
    pass_a = g.new_state(0, 0).string_to_action("PASS")
    env = VectorEnv("joffre_whist", 8, seed=0, copy=False)
    env.reset()
    ended = 0
    for _ in range(env.max_episode_steps + 1):
        a = np.where(env.legal_mask[:, pass_a], pass_a, env.legal_mask.argmax(1))
        _, _, term, trunc, _ = env.step(a)
        assert not trunc.any()
        ended += int(term.sum())
    assert ended >= 8


def test_rewards_normalized_by_the_declared_bound():
    env = VectorEnv("tien_gow", 16, seed=4, learner_seats=[0], opponents="random", normalize_rewards=True)
    lo, hi = env.return_bounds
    assert env.reward_scale == max(abs(lo), abs(hi))
    obs, info = env.reset()
    ret = np.zeros(16)
    done = []
    for _ in range(400):
        obs, r, term, trunc, info = env.step(info["action_mask"].argmax(1))
        np.testing.assert_allclose(r, env.rewards[:, 0] / env.reward_scale)
        ret += r
        done.extend(ret[term | trunc])
        ret[term | trunc] = 0
    assert done and np.all(np.abs(done) <= 1 + 1e-9)


def test_reset_without_seed_moves_on_and_with_seed_restarts():
    env = VectorEnv("exposure", 2, seed=7)
    env.reset()
    assert [env.deal_of(i) for i in range(2)] == [0, 1 << 32]
    env.reset()
    assert [env.deal_of(i) for i in range(2)] == [1, (1 << 32) | 1]
    env.reset(seed=7)
    assert [env.deal_of(i) for i in range(2)] == [0, 1 << 32]
    for bad in ({"x": 1}, "abc"):
        with pytest.raises(cardsim.ConfigError):
            env.reset(options=bad)


def test_gymnasium_vector_wrappers_run():
    gym = pytest.importorskip("gymnasium")
    from gymnasium.wrappers.vector import NormalizeReward, RecordEpisodeStatistics

    env = RecordEpisodeStatistics(NormalizeReward(VectorEnv("karnoffel", 8, seed=0, learner_seats=[0])))
    obs, info = env.reset(seed=0)
    episodes = 0
    for _ in range(60):
        obs, r, term, trunc, info = env.step(info["action_mask"].argmax(1))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0


def test_observation_permutation_is_applied_in_the_kernel():
    env = VectorEnv("karnoffel", 3, seed=2, copy=False)
    env.reset()
    plain = env.obs.copy()
    rng = np.random.default_rng(0)
    perm = np.stack([rng.permutation(env.observation_size) for _ in range(env.num_players)]).astype(np.int32)
    env2 = VectorEnv("karnoffel", 3, seed=2, copy=False)
    env2._k.set_obs_perm(perm)
    env2.reset()
    for i in range(3):
        np.testing.assert_array_equal(env2.obs[i], plain[i][perm[env.current_player[i]]])


def test_bad_configuration_raises_config_error():
    for kw in ({"learner_seats": [4]}, {"learner_seats": []}, {"learner_seats": [0, 0]}, {"learner_seats": "x"},
               {"opponents": "nobody"}, {"opponents": ["greedy"] * 3}, {"opponents": 5}):
        with pytest.raises(cardsim.ConfigError):
            VectorEnv("karnoffel", 2, **kw)


def test_canonical_permutation_rotates_declared_seat_blocks():
    """canonical_permutation from a layout that declares per-seat blocks (ObsBlock.seats): seat p's
    slot moves to slot 0, the others follow in seat order; undeclared blocks stay. Every game
    declares its per-seat blocks, so canonical=True builds in every game (tests/test_canonical.py
    checks what it gives)."""
    from types import SimpleNamespace

    from cardsim.info import GameInfo, ObsBlock, one_hot_seat, per_seat
    from cardsim.vector import canonical_permutation

    blocks = (ObsBlock("hand", 3, "own hand"), ObsBlock("played", 6, "played by each seat", seats=per_seat(3)),
              ObsBlock("to_act", 3, "seat to act", seats=one_hot_seat(3)))
    info = GameInfo(name="fake", title="Fake", players=(3,), default_players=3, teams="none", unit="points",
                    returns_sum="zero", options=(), presets={}, metrics=(), observation=blocks,
                    return_bounds=lambda o: (-1, 1), max_game_length=lambda o: 10)
    fake = SimpleNamespace(name="fake", num_players=3, observation_size=12, options={}, info=info)
    perm = canonical_permutation(fake)
    x = np.arange(12)
    np.testing.assert_array_equal(x[perm[0]], x)
    np.testing.assert_array_equal(x[perm[1]], [0, 1, 2, 5, 6, 7, 8, 3, 4, 10, 11, 9])
    np.testing.assert_array_equal(x[perm[2]], [0, 1, 2, 7, 8, 3, 4, 5, 6, 11, 9, 10])
    for g in cardsim.GAMES:
        env = VectorEnv(g, 1, canonical=True)
        assert env.canonical
        env.reset()
        assert env.obs[0, env.game.info.obs_offsets()["observer"]] == 1.0


def test_reward_scale_table_in_docs_is_current():
    from pathlib import Path

    from cardsim.vector import reward_scale_table

    doc = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text()
    assert reward_scale_table() in doc, "docs/rl.md: regenerate the reward table (cardsim.vector.reward_scale_table())"
