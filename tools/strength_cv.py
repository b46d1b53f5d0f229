"""A search agent against greedy with a control variate: the strength row of cardsim.tournament
(paired deals, seats rotated) measured with less variance, resumably, for long games (Samba).

    python tools/strength_cv.py run samba --agent ismcts:iterations=200,c=0.7,rollout=greedy,reward=points \\
        --deals 400 --big 20000 --json docs/strength_cv_samba.json       # resumable: rerun to continue
    python tools/strength_cv.py report docs/strength_cv_samba.json

Method. Deal d of the seed is played P + 1 times as in the tournament: greedy at every seat
(returns X[d, p]) and the agent at seat p with greedy elsewhere (the agent's return Y[d, p]). The
tournament's figure is mean_d D_d with D_d = mean_p (Y[d, p] - X[d, p]): the greedy-vs-greedy return
of the same deal is a control variate with coefficient 1. Here the coefficients are fitted: with
Ybar_d = mean_p Y[d, p] and the P controls X[d, .] whose means m_p are estimated on `--big` other
deals of greedy-only play (cheap: no search; deals 10**9 onwards of the same seed, disjoint from the
measured ones),

    theta = mean_d(Ybar_d - beta . (X[d] - m)) - mean_p m_p,   beta = OLS of Ybar on X,

an unbiased estimate (up to O(1/N) for the fitted beta) of the same quantity, E[agent's return]
minus E[greedy's return] at a rotated seat. Its standard error adds the residual variance over N
deals and the variance of m over the big sample; the variance reduction factor is the paired
estimate's variance over this one's. With beta = 1/P at every seat it is the tournament's figure.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

BIG_START = 10**9


def _game(name):
    from cardsim import tournament
    from cardsim.game import make

    return make(name, **tournament.GAME_OPTIONS.get(name, {}))


def _kernel(g, agents):
    from cardsim.agents import kernel_args, resolve_agents

    return kernel_args(resolve_agents(g.num_players, agents, g.name))


def run(game: str, agent: str, deals: int, path: str, seed: int = 0, big: int = 20000, chunk: int = 10,
        log=print) -> dict:
    """Measure (or continue measuring) deals 0..deals-1 of `seed`, saving after every chunk."""
    from cardsim.agents import parse_agent

    g = _game(game)
    P = g.num_players
    spec = parse_agent(agent).text
    data = json.load(open(path)) if os.path.exists(path) else None
    if data is None or data["agent"] != spec or data["seed"] != seed or data["game"] != game:
        data = {"game": game, "agent": spec, "baseline": "greedy", "seed": seed, "options": dict(g.options),
                "X": [], "Y": [], "big": None, "seconds": 0.0}
    greedy_codes, _ = _kernel(g, ["greedy"] * P)
    if data["big"] is None or data["big"]["deals"] != big:
        t0 = time.perf_counter()
        r = g.spec.run_batch(seed, BIG_START, big, greedy_codes)["returns"]
        data["big"] = {"deals": big, "start": BIG_START, "mean": r.mean(0).tolist(),
                       "cov": np.atleast_2d(np.cov(r.T)).tolist()}
        data["seconds"] += time.perf_counter() - t0
        _save(data, path)
    while len(data["X"]) < deals:
        t0 = time.perf_counter()
        s = len(data["X"])
        k = min(chunk, deals - s)
        X = g.spec.run_batch(seed, s, k, greedy_codes)["returns"]
        Y = np.zeros((k, P))
        for p in range(P):
            agents = ["greedy"] * P
            agents[p] = spec
            codes, search = _kernel(g, agents)
            Y[:, p] = g.spec.run_batch(seed, s, k, codes, search=search)["returns"][:, p]
        data["X"] += X.tolist()
        data["Y"] += Y.tolist()
        data["seconds"] += time.perf_counter() - t0
        _save(data, path)
        if len(data["X"]) < P + 3:
            continue
        e = estimate(data)
        log(f"{len(data['X'])} deals, {data['seconds']:.0f} s: paired {e['paired']['mean']:+.1f} "
            f"[{e['paired']['ci95'][0]:+.1f}, {e['paired']['ci95'][1]:+.1f}], cv {e['cv']['mean']:+.1f} "
            f"[{e['cv']['ci95'][0]:+.1f}, {e['cv']['ci95'][1]:+.1f}], variance reduction x{e['vrf']:.2f}")
    return data


def _save(data, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
        f.write("\n")
    os.replace(tmp, path)


def estimate(data: dict) -> dict:
    """The paired (tournament) estimate and the control-variate one, with 95% intervals, the
    variance reduction factor and the deals the cv estimate would need for its interval to
    exclude 0 at the measured mean and spread (z = 1.96)."""
    from scipy import stats as st

    X = np.asarray(data["X"], float)
    Y = np.asarray(data["Y"], float)
    N, P = X.shape
    if N < P + 3:
        raise ValueError(f"the control-variate estimate needs at least {P + 3} deals, got {N}")
    D = (Y - X).mean(1)
    Yb = Y.mean(1)
    se_p = D.std(ddof=1) / math.sqrt(N)
    tq = st.t.ppf(0.975, N - 1)
    m = np.asarray(data["big"]["mean"])
    S = np.asarray(data["big"]["cov"]).reshape(P, P)
    M = data["big"]["deals"]
    Xc = X - X.mean(0)
    beta, *_ = np.linalg.lstsq(Xc, Yb - Yb.mean(), rcond=None)
    resid = Yb - Yb.mean() - Xc @ beta
    theta = Yb.mean() - beta @ (X.mean(0) - m) - m.mean()
    w = beta - 1.0 / P
    var_cv = resid.var(ddof=P + 1) / N + w @ S @ w / M
    se_c = math.sqrt(var_cv)
    tq_c = st.t.ppf(0.975, max(N - P - 1, 1))
    need = math.ceil((1.96 * se_c * math.sqrt(N) / abs(theta)) ** 2) if theta else None
    need_p = math.ceil((1.96 * se_p * math.sqrt(N) / abs(D.mean())) ** 2) if D.mean() else None
    return {"deals": N, "seats": P,
            "paired": {"mean": float(D.mean()), "ci95": [float(D.mean() - tq * se_p), float(D.mean() + tq * se_p)],
                       "se": float(se_p), "deals_needed": need_p},
            "cv": {"mean": float(theta), "ci95": [float(theta - tq_c * se_c), float(theta + tq_c * se_c)],
                   "se": float(se_c), "beta": beta.tolist(), "deals_needed": need},
            "vrf": float(se_p ** 2 / var_cv)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("game")
    r.add_argument("--agent", required=True)
    r.add_argument("--deals", type=int, default=100)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--big", type=int, default=20000)
    r.add_argument("--chunk", type=int, default=10)
    r.add_argument("--json", required=True)
    q = sub.add_parser("report")
    q.add_argument("json")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        run(a.game, a.agent, a.deals, a.json, seed=a.seed, big=a.big, chunk=a.chunk,
            log=lambda s: print(s, flush=True))
        return 0
    data = json.load(open(a.json))
    print(json.dumps({"game": data["game"], "agent": data["agent"], "seconds": round(data["seconds"]),
                      **estimate(data)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
