"""Self-play through the PettingZoo AEC adapter: one shared policy plays every seat, and each seat
learns from its own rewards (REINFORCE on a linear softmax policy over the observation, masked to
the legal actions). Small and slow on purpose: the point is the loop a multi-agent learner writes
against ``cardsim.pettingzoo`` (agent_iter, last(), per-agent rewards, the action mask).

    python examples/pettingzoo_selfplay.py --game exposure --episodes 200
"""
from __future__ import annotations

import argparse

import numpy as np

from cardsim.pettingzoo import env as make_env


def run(game="exposure", episodes=200, lr=0.01, seed=0, log_every=50):
    e = make_env(game)
    rng = np.random.default_rng(seed)
    O = e.observation_space(e.possible_agents[0])["observation"].shape[0]
    A = e.action_space(e.possible_agents[0]).n
    W = np.zeros((O, A))
    returns = []
    e.reset(seed=seed)
    for ep in range(episodes):
        if ep:
            e.reset()                                  # the next deal of the same seed
        trace = {a: [] for a in e.possible_agents}     # (obs, mask, action) per seat
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            if term or trunc:
                e.step(None)
                continue
            x, mask = obs["observation"], obs["action_mask"].astype(bool)
            logits = np.where(mask, x @ W, -np.inf)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(rng.choice(A, p=p))
            trace[agent].append((x, p, a))
            e.step(a)
        for agent, steps in trace.items():             # REINFORCE, each seat with its own return
            G = total[agent]
            for x, p, a in steps:
                g = -p
                g[a] += 1.0
                W += lr * G * np.outer(x, g)
        returns.append([total[a] for a in e.possible_agents])
        if log_every and (ep + 1) % log_every == 0:
            print(f"episode {ep + 1}: mean returns per seat (last {log_every}) "
                  f"{np.mean(returns[-log_every:], axis=0).round(2).tolist()}", flush=True)
    e.close()
    return np.array(returns), W


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="exposure")
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    run(a.game, a.episodes, seed=a.seed)
