"""Costs that search and RL users pay per call, for every game (informational, no targets):
clone, observation(p), resample(p) in the Python API, and the generic ISMCTS agent's playouts per
second inside the batch kernel. Run: pytest bench/bench_search.py --benchmark-only -s"""
import time

import numpy as np
import pytest

import cardsim

from .conftest import smoke_mode


def _mid_game(name):
    g = cardsim.make(name)
    st = g.new_state(seed=1, deal=0)
    rng = np.random.default_rng(0)
    for _ in range(12):
        if st.is_terminal():
            break
        la = st.legal_actions()
        st.apply(int(la[rng.integers(len(la))]))
    return g, st


@pytest.mark.parametrize("name", cardsim.GAMES)
def bench_clone_observation_resample(benchmark, name, request):
    g, st = _mid_game(name)
    reps = 5 if smoke_mode(request) else 20_000
    p = max(st.current_player, 0)

    def calls():
        for _ in range(reps):
            st.clone()
            st.observation(p)
            st.resample(p, 3)

    benchmark.pedantic(calls, rounds=1 if smoke_mode(request) else 5)
    if smoke_mode(request):
        return
    per = {}
    for label, fn in (("clone", st.clone), ("observation", lambda: st.observation(p)),
                      ("resample", lambda: st.resample(p, 3))):
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        per[label] = (time.perf_counter() - t) / reps * 1e6
    benchmark.extra_info.update({f"{k}_us": v for k, v in per.items()})
    print(f"\n{name}: clone {per['clone']:.3f} us, observation {per['observation']:.3f} us "
          f"({g.observation_size} floats), resample {per['resample']:.3f} us")


@pytest.mark.parametrize("name", cardsim.GAMES)
def bench_ismcts_playouts_per_second(benchmark, name, request):
    g = cardsim.make(name)
    iters = 8 if smoke_mode(request) else 200
    deals = 1 if smoke_mode(request) else 3
    codes = [3] + [0] * (g.num_players - 1)
    res = benchmark.pedantic(g.spec.run_batch, args=(1, 0, deals, codes), kwargs={"ismcts_iterations": iters},
                             rounds=1 if smoke_mode(request) else 3)
    if smoke_mode(request):
        return
    # decisions of seat 0 with more than one legal action run `iters` playouts each
    acts = [cardsim.core._engine.kernel_actions(g.spec, 1, d, codes, ismcts_iterations=iters) for d in range(deals)]
    searched = 0
    for d, seq in enumerate(acts):
        st = g.new_state(1, d)
        for a in seq:
            if st.current_player == 0 and len(st.legal_actions()) > 1:
                searched += 1
            st.apply(a)
    rate = searched * iters / benchmark.stats.stats.median
    benchmark.extra_info.update(playouts_per_s=rate, searched_decisions=searched)
    print(f"\n{name}: ISMCTS {rate:,.0f} playouts/s ({searched} searched decisions x {iters} iterations)")
