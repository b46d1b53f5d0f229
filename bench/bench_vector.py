"""VectorEnv throughput for RL: env-steps per second on one thread, at 1, 64 and 1,024 environments.

Two settings (report, not assert: the machine is shared):
- every seat decided by the caller (self-play shape): Joffre Whist with the default options
  (all_pass="throw_in": deals end, thrown in at most max_redeals times), one step = one action;
- opponents in the kernel: one learner seat, every other seat played by the greedy agent inside the
  same nogil call; one step = one *learner* decision (the opponents' actions in between are not
  counted). Joffre Whist and Karnoeffel. Target >= 500,000 learner env-steps/s at 1,024 envs.
The observation of the seat to act and the legal mask are written for every environment at every
step; the policy is the cheapest possible (the first legal action, one numpy argmax over the
mask), and its cost is included. `copy=False` (zero-copy arrays; copying a 1,024 x 1,668 float32
observation batch alone costs about 1 ms). Where pgx (JAX) is installed, its CPU figure for its
nearest card game is printed beside ours.
Run: pytest bench/bench_vector.py --benchmark-only -s"""
import time

import numpy as np
import pytest

from cardsim.vector import VectorEnv

from .conftest import smoke_mode, target

TARGET_LEARNER_1024 = 500_000

CASES = [("joffre_whist", None), ("joffre_whist", "greedy"), ("karnoffel", None), ("karnoffel", "greedy")]


def _env(game, opponents, num_envs):
    if opponents is None:
        return VectorEnv(game, num_envs, seed=0, copy=False)
    return VectorEnv(game, num_envs, seed=0, learner_seats=[0], opponents=opponents, copy=False)


def measure(game, opponents, num_envs, steps, rounds=5):
    """Median env-steps/s over `rounds` runs of `steps` steps (after one warm-up run)."""
    env = _env(game, opponents, num_envs)
    env.reset()
    rates = []
    for r in range(rounds + 1):
        t = time.perf_counter()
        for _ in range(steps):
            env.step(env.legal_mask.argmax(1))
        if r:
            rates.append(steps * num_envs / (time.perf_counter() - t))
    return float(np.median(rates))


@pytest.mark.parametrize("num_envs", [1, 64, 1024])
@pytest.mark.parametrize("game,opponents", CASES)
def bench_vector_env_steps(benchmark, game, opponents, num_envs, request):
    smoke = smoke_mode(request)
    env = _env(game, opponents, num_envs)
    env.reset()
    steps = 3 if smoke else max(100, 100_000 // num_envs)

    def run():
        for _ in range(steps):
            env.step(env.legal_mask.argmax(1))

    benchmark.pedantic(run, rounds=1 if smoke else 5, iterations=1, warmup_rounds=0 if smoke else 1)
    if smoke:
        return
    rate = steps * num_envs / benchmark.stats.stats.median
    what = "env-steps/s (every seat)" if opponents is None else f"learner env-steps/s ({opponents} opponents in kernel)"
    benchmark.extra_info.update(env_steps_per_s=rate, num_envs=num_envs, opponents=str(opponents),
                                obs_floats=env.observation_size, actions=env.num_actions)
    print(f"\nVectorEnv {game} x{num_envs}: {rate:,.0f} {what}")
    if opponents is not None and num_envs == 1024:
        target(benchmark, f"VectorEnv {game} x1024 learner env-steps/s", rate, TARGET_LEARNER_1024)


def bench_pgx_reference(request):
    """pgx's CPU step rate on its nearest card game (only where pgx is installed)."""
    pgx = pytest.importorskip("pgx")
    jax = pytest.importorskip("jax")
    if smoke_mode(request):
        return
    env = pgx.make("leduc_holdem")
    n = 1024
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    keys = jax.random.split(jax.random.PRNGKey(0), n)
    st = init(keys)
    act = jax.numpy.argmax(st.legal_action_mask, axis=1)
    st = step(st, act)
    jax.block_until_ready(st)
    t = time.perf_counter()
    for _ in range(100):
        st = step(st, jax.numpy.argmax(st.legal_action_mask, axis=1))
    jax.block_until_ready(st)
    print(f"\npgx leduc_holdem x{n} (CPU): {100 * n / (time.perf_counter() - t):,.0f} env-steps/s")


if __name__ == "__main__":            # the table of docs/rl.md: python -m bench.bench_vector
    print("| game | opponents | 1 env | 64 envs | 1,024 envs |\n|---|---|---|---|---|")
    for game, opp in CASES:
        cells = [f"{measure(game, opp, n, max(100, 100_000 // n)):,.0f}" for n in (1, 64, 1024)]
        print(f"| {game} | {opp or 'none (every seat stepped)'} | " + " | ".join(cells) + " |", flush=True)
