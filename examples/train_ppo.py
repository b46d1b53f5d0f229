"""Masked PPO on cardsim's opponents-in-kernel VectorEnv, in one file (CleanRL style), numpy only.

    python examples/train_ppo.py --game karnoffel --opponents greedy --minutes 18 \
        --save policies/karnoffel_ppo.npz --curve docs/img/ppo_karnoffel.png

The learner plays one seat of every environment (the seats are spread over the environments:
environment i's learner is seat i mod players); every other seat is played by `--opponents`
inside the kernel, so each `env.step` is one learner decision in every environment. Illegal
actions are masked out of the policy's softmax. The network (two tanh layers, a policy head and a
value head) and Adam are written out in numpy: nothing to install beyond cardsim (`pip install
'cardsim[train]'` adds gymnasium for the env's spaces and matplotlib for the curve), no compile
step, and on a 2-core CPU a small MLP in numpy is as fast as the frameworks.

Rewards are the game's returns divided by the game's largest |return| (`normalize_rewards=True`:
every episode's return lies in [-1, 1]), terminal only (undiscounted, gamma = 1 by default).
The saved policy (`.npz`: weights, the game, its options) plays as an agent by name:
`cardsim.agents.from_name("policy:policies/karnoffel_ppo.npz")`, or in the tournament:
`cardsim tournament karnoffel --agents policy:policies/karnoffel_ppo.npz`.
"""
from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import cardsim


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="karnoffel")
    p.add_argument("--options", default="{}", help="game options as JSON, e.g. '{\"players\": 4}'")
    p.add_argument("--opponents", default="greedy", help="agent spec of every other seat")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--num-steps", type=int, default=32, help="learner steps per environment per update")
    p.add_argument("--minutes", type=float, default=18.0, help="wall-time budget of the training")
    p.add_argument("--max-updates", type=int, default=10**9)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--update-epochs", type=int, default=3)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--warm-start", type=int, default=0, metavar="STEPS",
                   help="first imitate the game's greedy agent on this many learner decisions per environment "
                        "(behaviour cloning, cross-entropy), then run PPO from there (default 0: from scratch)")
    p.add_argument("--warm-epochs", type=int, default=8)
    p.add_argument("--save", default=None, help="where to write the policy (.npz)")
    p.add_argument("--curve", default=None, help="where to write the learning curve (.png)")
    p.add_argument("--log", default=None, help="where to write the learning curve's points (.json)")
    return p.parse_args(argv)


# ---- the network: x -> tanh -> tanh -> (logits, value) ----------------------------------------------
def init_params(rng, n_in, n_hidden, n_actions):
    def lin(a, b, scale):
        return (rng.standard_normal((a, b)) * scale / np.sqrt(a)).astype(np.float32), np.zeros(b, np.float32)
    W1, b1 = lin(n_in, n_hidden, np.sqrt(2))
    W2, b2 = lin(n_hidden, n_hidden, np.sqrt(2))
    Wp, bp = lin(n_hidden, n_actions, 0.01)
    Wv, bv = lin(n_hidden, 1, 1.0)
    return {"W1": W1, "b1": b1, "W2": W2, "b2": b2, "Wp": Wp, "bp": bp, "Wv": Wv, "bv": bv}


def forward(P, x, mask):
    """(logp over actions with illegal ones at -inf-like, value, cache for backward)."""
    h1 = np.tanh(x @ P["W1"] + P["b1"])
    h2 = np.tanh(h1 @ P["W2"] + P["b2"])
    logits = h2 @ P["Wp"] + P["bp"]
    logits = np.where(mask, logits, -1e9)
    logits = logits - logits.max(1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    v = (h2 @ P["Wv"] + P["bv"])[:, 0]
    return logp, v, (x, h1, h2)


def backward(P, cache, dlogits, dv):
    x, h1, h2 = cache
    g = {"Wp": h2.T @ dlogits, "bp": dlogits.sum(0), "Wv": h2.T @ dv[:, None], "bv": np.array([dv.sum()], np.float32)}
    dh2 = dlogits @ P["Wp"].T + dv[:, None] @ P["Wv"].T
    dz2 = dh2 * (1 - h2 * h2)
    g["W2"], g["b2"] = h1.T @ dz2, dz2.sum(0)
    dz1 = (dz2 @ P["W2"].T) * (1 - h1 * h1)
    g["W1"], g["b1"] = x.T @ dz1, dz1.sum(0)
    return g


def ppo_loss(logp, v, mask, actions, old_logp, adv, ret, args):
    """The clipped PPO loss of a minibatch (policy + vf_coef * value - ent_coef * entropy, means
    over the rows) and its gradients with respect to the logits and the values."""
    mb = len(actions)
    ar = np.arange(mb)
    new = logp[ar, actions]
    ratio = np.exp(new - old_logp)
    unclipped = -adv * ratio
    clipped = -adv * np.clip(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
    p = np.exp(logp) * mask
    lp = np.where(mask, logp, 0.0)
    H = -(p * lp).sum(1)
    loss = np.maximum(unclipped, clipped).mean() + args.vf_coef * 0.5 * ((v - ret) ** 2).mean() - args.ent_coef * H.mean()
    dnew = np.where(unclipped >= clipped, -adv * ratio, 0.0) / mb          # d loss / d logp(a)
    dlogits = -dnew[:, None] * p                                            # d logp(a) / d logits = 1[a] - p
    dlogits[ar, actions] += dnew
    dlogits += args.ent_coef * p * (lp + H[:, None]) / mb                   # d(-ent_coef * mean H)
    dv = args.vf_coef * (v - ret) / mb
    return float(loss), dlogits.astype(np.float32), dv.astype(np.float32)


class Adam:
    def __init__(self, params, lr):
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params, grads, max_norm):
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, max_norm / (norm + 1e-8))
        self.t += 1
        for k in params:
            g = grads[k] * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            params[k] -= (self.lr * mh / (np.sqrt(vh) + 1e-5)).astype(np.float32)


def warm_start(args, envs, params, opt, rng):
    """Behaviour cloning of the game's greedy agent: play `args.warm_start` learner decisions per
    environment with the greedy choice (asked of a copy of each position, so slow: a Python call per
    environment and step), then fit the policy head to those choices by cross-entropy. Returns the
    agreement of the fitted policy's argmax with greedy on the collected positions."""
    X, M, Y = [], [], []
    for t in range(args.warm_start):
        for e in envs:
            acts = np.array([e.game.spec.greedy_action(e.state(i), int(rng.integers(2**63)))
                             for i in range(e.num_envs)])
            X.append(e.obs.copy()), M.append(e.legal_mask.copy()), Y.append(acts)
            e.step(acts)
    X, M, Y = np.concatenate(X), np.concatenate(M), np.concatenate(Y)
    B = len(Y)
    mb = max(256, B // 16)
    for _ in range(args.warm_epochs):
        perm = rng.permutation(B)
        for s in range(0, B, mb):
            idx = perm[s:s + mb]
            logp, v, cache = forward(params, X[idx], M[idx])
            n = len(idx)
            dl = np.exp(logp) * M[idx]
            dl[np.arange(n), Y[idx]] -= 1.0                    # d(-log p(greedy's action)) / d logits
            grads = backward(params, cache, (dl / n).astype(np.float32), np.zeros(n, np.float32))
            opt.step(params, grads, args.max_grad_norm)
    return float((np.argmax(forward(params, X, M)[0], 1) == Y).mean())


def save_policy(path, params, game, options):
    """Write the policy atomically (temporary file, renamed on success)."""
    tmp = path + ".part.npz"
    np.savez(tmp, **params, meta=np.array(json.dumps({"game": game, "options": options, "kind": "mlp_tanh2"})))
    os.replace(tmp, path)


def make_envs(args, options):
    game = cardsim.make(args.game, **options)
    P = game.num_players
    per = [args.num_envs // P + (1 if s < args.num_envs % P else 0) for s in range(P)]
    return [cardsim.VectorEnv(args.game, n, seed=args.seed * 1000 + s, learner_seats=[s], opponents=args.opponents,
                              normalize_rewards=True, copy=False, **options) for s, n in enumerate(per) if n]


def train(args) -> dict:
    options = json.loads(args.options)
    rng = np.random.default_rng(args.seed)
    envs = make_envs(args, options)
    N = sum(e.num_envs for e in envs)
    O, A = envs[0].observation_size, envs[0].num_actions
    params = init_params(rng, O, args.hidden, A)
    opt = Adam(params, args.lr)
    T = args.num_steps
    obs_b = np.zeros((T, N, O), np.float32)
    mask_b = np.zeros((T, N, A), bool)
    act_b = np.zeros((T, N), np.int64)
    logp_b = np.zeros((T, N), np.float32)
    val_b = np.zeros((T, N), np.float32)
    rew_b = np.zeros((T, N), np.float32)
    done_b = np.zeros((T, N), np.float32)
    for k, e in enumerate(envs):
        e.reset(seed=args.seed * 1000 + k)
    t_start = time.perf_counter()
    if args.warm_start:
        agree = warm_start(args, envs, params, opt, rng)
        opt = Adam(params, args.lr)
        print(f"warm start: imitated greedy on {args.warm_start * N} decisions in "
              f"{time.perf_counter() - t_start:.0f}s; argmax agrees with greedy on {agree:.1%}", flush=True)
    ep_ret = np.zeros(N)
    finished: list[float] = []
    curve = []
    t0 = t_start                       # the time budget includes the warm start
    steps = 0
    update = 0
    while update < args.max_updates and time.perf_counter() - t0 < args.minutes * 60:
        update += 1
        for t in range(T):
            obs = np.concatenate([e.obs for e in envs])
            mask = np.concatenate([e.legal_mask for e in envs])
            logp, v, _ = forward(params, obs, mask)
            g = rng.gumbel(size=logp.shape)
            a = np.argmax(np.where(mask, logp + g, -np.inf), 1)
            obs_b[t], mask_b[t], act_b[t], val_b[t] = obs, mask, a, v
            logp_b[t] = logp[np.arange(N), a]
            off, r, d = 0, np.empty(N), np.empty(N)
            for e in envs:
                n = e.num_envs
                _, rr, term, trunc, _ = e.step(a[off:off + n])
                r[off:off + n], d[off:off + n] = rr, term | trunc
                off += n
            rew_b[t], done_b[t] = r, d
            ep_ret += r
            for i in np.flatnonzero(d):
                finished.append(ep_ret[i])
                ep_ret[i] = 0.0
        steps += T * N
        # GAE: a done step's next state is a new deal (no bootstrap across it)
        obs = np.concatenate([e.obs for e in envs])
        mask = np.concatenate([e.legal_mask for e in envs])
        next_v = forward(params, obs, mask)[1]
        adv = np.zeros((T, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in reversed(range(T)):
            nv = next_v if t == T - 1 else val_b[t + 1]
            nonterm = 1.0 - done_b[t]
            delta = rew_b[t] + args.gamma * nv * nonterm - val_b[t]
            last = delta + args.gamma * args.gae_lambda * nonterm * last
            adv[t] = last
        ret = adv + val_b
        B = T * N
        fo, fm, fa = obs_b.reshape(B, O), mask_b.reshape(B, A), act_b.reshape(B)
        flp, fadv, fret = logp_b.reshape(B), adv.reshape(B), ret.reshape(B)
        mb = B // args.num_minibatches
        for _ in range(args.update_epochs):
            perm = rng.permutation(B)
            for s in range(0, B - mb + 1, mb):
                idx = perm[s:s + mb]
                logp, v, cache = forward(params, fo[idx], fm[idx])
                ad = fadv[idx]
                ad = (ad - ad.mean()) / (ad.std() + 1e-8)
                _, dlogits, dv = ppo_loss(logp, v, fm[idx], fa[idx], flp[idx], ad, fret[idx], args)
                grads = backward(params, cache, dlogits, dv)
                opt.step(params, grads, args.max_grad_norm)
        mean_ret = float(np.mean(finished[-2000:])) if finished else float("nan")
        curve.append({"update": update, "env_steps": steps, "seconds": time.perf_counter() - t0,
                      "episodes": len(finished), "mean_return": mean_ret})
        if update % 10 == 0 or update == 1:
            print(f"update {update:4d}  steps {steps:9d}  {time.perf_counter() - t0:7.1f}s  "
                  f"episodes {len(finished):7d}  mean return (normalized, last 2000) {mean_ret:+.4f}", flush=True)
        if args.save and update % 20 == 0:
            save_policy(args.save, params, args.game, options)
    if args.save:
        save_policy(args.save, params, args.game, options)
    if args.log:
        tmp = args.log + ".part"
        with open(tmp, "w") as f:
            json.dump({"game": args.game, "opponents": args.opponents, "curve": curve}, f)
        os.replace(tmp, args.log)
    if args.curve:
        plot_curve(curve, args.curve, f"PPO on {args.game} vs {args.opponents}")
    return {"params": params, "curve": curve, "seconds": time.perf_counter() - t0, "env_steps": steps}


def plot_curve(curve, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([c["seconds"] / 60 for c in curve], [c["mean_return"] for c in curve])
    ax.set_xlabel("minutes (2-core CPU)")
    ax.set_ylabel("mean episode return (normalized)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    tmp = path + ".part.png"
    fig.savefig(tmp, dpi=90)
    plt.close(fig)
    os.replace(tmp, path)


if __name__ == "__main__":
    train(parse_args())
