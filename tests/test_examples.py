"""examples/: the PPO trainer (its gradients against finite differences, a few seconds of training,
the saved policy as an agent by name, in the tournament), the PettingZoo self-play loop and the
OpenSpiel ISMCTS example, each run small."""
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import cardsim

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"_example_{name}", EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_ppo_gradients_match_finite_differences():
    ppo = _load("train_ppo")
    args = ppo.parse_args(["--ent-coef", "0.05"])
    rng = np.random.default_rng(0)
    B, O, A = 6, 5, 4
    P = {k: v.astype(np.float64) for k, v in ppo.init_params(rng, O, 7, A).items()}
    P["Wp"] = rng.standard_normal(P["Wp"].shape)            # away from the near-zero init
    x = rng.standard_normal((B, O))
    mask = rng.random((B, A)) < 0.7
    mask[:, 0] = True
    acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    old = ppo.forward(P, x, mask)[0][np.arange(B), acts] + rng.normal(0, 0.3, B)   # some ratios clip
    adv, ret = rng.standard_normal(B), rng.standard_normal(B)

    def loss(params):
        logp, v, _ = ppo.forward(params, x, mask)
        return ppo.ppo_loss(logp, v, mask, acts, old, adv, ret, args)[0]

    logp, v, cache = ppo.forward(P, x, mask)
    _, dl, dv = ppo.ppo_loss(logp, v, mask, acts, old, adv, ret, args)
    grads = ppo.backward(P, cache, dl.astype(np.float64), dv.astype(np.float64))
    for k in ("W1", "b2", "Wp", "bp", "Wv"):
        num = np.zeros_like(P[k])
        for idx in np.ndindex(*P[k].shape):
            for sgn in (1, -1):
                Q = {kk: vv.copy() for kk, vv in P.items()}
                Q[k][idx] += sgn * 1e-6
                num[idx] += sgn * loss(Q) / 2e-6
        np.testing.assert_allclose(grads[k], num, rtol=1e-3, atol=1e-6, err_msg=k)


def test_ppo_smoke_trains_saves_and_plays_as_a_named_agent(tmp_path):
    pytest.importorskip("gymnasium")
    ppo = _load("train_ppo")
    out = tmp_path / "p.npz"
    args = ppo.parse_args(["--game", "exposure", "--num-envs", "16", "--num-steps", "8", "--max-updates", "3",
                           "--minutes", "1", "--save", str(out), "--log", str(tmp_path / "c.json"),
                           "--curve", str(tmp_path / "c.png")])
    res = ppo.train(args)
    assert res["env_steps"] == 3 * 8 * 16 and len(res["curve"]) == 3
    assert out.exists() and (tmp_path / "c.png").stat().st_size > 0
    from cardsim.agents import PolicyAgent, from_name

    agent = from_name(f"policy:{out}")
    assert isinstance(agent, PolicyAgent) and agent.meta["game"] == "exposure"
    st = cardsim.make("exposure").new_state(3, 0)
    while not st.is_terminal():                              # always a legal action, the trained argmax
        a = agent.act(st)
        obs = st.observation(st.current_player)
        logp = ppo.forward(res["params"], obs[None], st.legal_mask()[None])[0][0]
        assert a == int(np.argmax(logp)) and a in st.legal_actions()
        st.apply(a)
    from cardsim import tournament

    row = tournament.strength("exposure", f"policy:{out}", baseline="random", deals=4, seed=1)
    assert row["agent"] == f"policy:{out}" and np.isfinite(row["mean_diff"])
    lo, hi = row["ci95"]
    assert lo <= row["mean_diff"] <= hi
    with pytest.raises(cardsim.ConfigError):
        from_name(f"policy:{tmp_path / 'missing.npz'}")
    with pytest.raises(cardsim.ConfigError):                 # trained for another game's observation
        agent.act(cardsim.make("karnoffel").new_state(0, 0))


def test_ppo_warm_start_imitates_greedy():
    """--warm-start: behaviour cloning of the greedy agent fits its choices (agreement well above
    what a uniform choice among the legal actions gets) before PPO starts."""
    ppo = _load("train_ppo")
    args = ppo.parse_args(["--game", "exposure", "--num-envs", "8", "--warm-start", "40", "--warm-epochs", "30",
                           "--hidden", "32", "--lr", "3e-3"])
    rng = np.random.default_rng(0)
    envs = ppo.make_envs(args, {})
    for k, e in enumerate(envs):
        e.reset(seed=k)
    params = ppo.init_params(rng, envs[0].observation_size, 32, envs[0].num_actions)
    agree = ppo.warm_start(args, envs, params, ppo.Adam(params, args.lr), rng)
    assert agree > 0.6


def test_tournament_accepts_a_batch_policy_and_an_act_object():
    from cardsim import tournament

    def first_legal(obs, mask, seat):
        return mask.argmax(1)

    a = tournament.strength("karnoffel", first_legal, baseline="first", deals=5, seed=0)
    assert a["mean_diff"] == 0.0                              # the same policy as the baseline, deal by deal

    class First:
        def act(self, state):
            return int(state.legal_actions()[0])

    b = tournament.strength("karnoffel", First(), baseline="first", deals=5, seed=0)
    assert b["mean_diff"] == 0.0
    c = tournament.strength("karnoffel", First(), baseline="random", deals=30, seed=0)
    ref = tournament.strength("karnoffel", "first", baseline="random", deals=30, seed=0)
    assert c["mean_diff"] == ref["mean_diff"] and c["ci95"] == ref["ci95"]    # Python and C paths paired alike
    with pytest.raises(cardsim.ConfigError):
        tournament.strength("karnoffel", 42, deals=3)


def test_pettingzoo_selfplay_example_runs():
    pytest.importorskip("pettingzoo")
    returns, W = _load("pettingzoo_selfplay").run("exposure", episodes=4, log_every=0)
    assert returns.shape == (4, 2) and np.abs(W).sum() > 0


def test_openspiel_ismcts_example_runs():
    pytest.importorskip("pyspiel")
    diffs = _load("openspiel_ismcts").run("exposure", games=2, simulations=5)
    assert diffs.shape == (2,) and np.all(np.isfinite(diffs))


@pytest.mark.parametrize("path", sorted((EXAMPLES.parent / "policies").glob("*_ppo.npz")), ids=lambda p: p.name)
def test_shipped_policies_load_by_name_and_play_legally(path):
    from cardsim.agents import from_name

    agent = from_name(f"policy:{path}")
    g = cardsim.make(agent.meta["game"], **agent.meta["options"])
    st = g.new_state(11, 0)
    while not st.is_terminal():
        st.apply(agent.act(st))              # apply raises IllegalActionError on an illegal choice
    assert path.stat().st_size < 400_000     # small numpy weight files


def test_cli_tournament_takes_a_learned_policy(capsys):
    from cardsim.cli import main

    path = EXAMPLES.parent / "policies" / "tien_gow_ppo.npz"
    assert main(["tournament", "tien_gow", "--agents", f"policy:{path}", "--deals", "6", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert f"`policy:{path}` | greedy | 6 x 4 |" in out
