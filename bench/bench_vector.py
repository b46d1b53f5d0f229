"""VectorEnv throughput for RL: env-steps per second on one thread for Joffre Whist, with the
observation of the seat to act and the legal mask written for every environment at every step,
at 1, 64 and 1,024 environments (target >= 300,000 env-steps/s at 1,024). The policy is the
cheapest possible (the first legal action, one numpy argmax over the mask), and its cost is
included. Joffre Whist uses all_pass="dealer_bids" so that deals end under that policy.
Where pgx (JAX) is installed, its CPU figure for its nearest card game is printed beside ours.
Run: pytest bench/bench_vector.py --benchmark-only -s"""
import time

import numpy as np
import pytest

from cardsim.vector import VectorEnv

from .conftest import smoke_mode, target

TARGET_1024 = 300_000


@pytest.mark.parametrize("num_envs", [1, 64, 1024])
def bench_vector_env_steps(benchmark, num_envs, request):
    smoke = smoke_mode(request)
    env = VectorEnv("joffre_whist", num_envs, seed=0, all_pass="dealer_bids")
    env.reset()
    steps = 3 if smoke else max(200, 200_000 // num_envs)

    def run():
        for _ in range(steps):
            env.step(env.legal_mask.argmax(1))

    benchmark.pedantic(run, rounds=1 if smoke else 5, iterations=1, warmup_rounds=0 if smoke else 1)
    if smoke:
        return
    rate = steps * num_envs / benchmark.stats.stats.median
    benchmark.extra_info.update(env_steps_per_s=rate, num_envs=num_envs,
                                obs_floats=env.observation_size, actions=env.num_actions)
    print(f"\nVectorEnv joffre_whist x{num_envs}: {rate:,.0f} env-steps/s "
          f"(obs {env.observation_size} floats + mask {env.num_actions} written per step)")
    if num_envs == 1024:
        target(benchmark, "VectorEnv x1024 env-steps/s", rate, TARGET_1024)


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
