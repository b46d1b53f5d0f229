"""Batch-runner benchmarks: thread scaling (pytest-benchmark), and by hand the big ones.

    python -m pytest bench/bench_runner.py --benchmark-only        # 1 vs 2 threads (reports the ratio; target 1.8x)
    python bench/bench_runner.py scaling [DEALS]                    # the same, printed
    python bench/bench_runner.py dask [DEALS]                       # threads vs Dask LocalCluster (1 M)
    python bench/bench_runner.py rss                                # peak RSS, 1 M vs 10 M streaming deals

Issue targets: two threads >= 1.8x one thread on a game's batch benchmark; the Dask LocalCluster
run of 1 M Joffre Whist deals within 15% of the thread pool's time (cluster start-up excluded);
peak RSS of a streaming run of 10 M deals <= that of 1 M deals + 50 MB.
Machine: 2 cores shared with other engineers; numbers are noisy, so every ratio compares runs
interleaved in the same session and reports medians.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from .conftest import target

GAME = "joffre_whist"


def _run(deals, workers, seed=1, **kw):
    import cardsim

    t0 = time.perf_counter()
    kw.setdefault("agents", "random")      # the kernel's cheapest agent: the runner's overhead shows
    res = cardsim.simulate(GAME, deals=deals, seed=seed, workers=workers, keep_table=False, **kw)
    return time.perf_counter() - t0, res


def scaling(deals=400_000, rounds=3, **kw):
    """Median wall time of 1 and 2 threads, interleaved; returns (t1, t2, ratio)."""
    _run(min(deals, 20_000), 2, **kw)      # warm-up
    t1s, t2s = [], []
    for _ in range(rounds):
        t1s.append(_run(deals, 1, **kw)[0])
        t2s.append(_run(deals, 2, **kw)[0])
    t1, t2 = statistics.median(t1s), statistics.median(t2s)
    return t1, t2, t1 / t2


def bench_thread_scaling(benchmark, request):
    """simulate() of Joffre Whist, random agents, streaming summary: 2 threads vs 1 thread (with
    and without the first-player column, which the kernel reports)."""
    smoke = request.config.getoption("benchmark_disable", False)
    deals = 2_000 if smoke else 400_000
    benchmark.pedantic(_run, args=(deals, 2), rounds=1 if smoke else 3, iterations=1)
    if smoke:
        return
    t1, t2, ratio = scaling(deals)
    n1, n2, nratio = scaling(deals, first_player=False)
    benchmark.extra_info.update({"deals": deals, "t1": t1, "t2": t2, "ratio": ratio, "deals_per_s_1": deals / t1,
                                 "deals_per_s_2": deals / t2, "ratio_without_first_player": nratio})
    print(f"\nsimulate: 1 thread {deals / t1:,.0f} deals/s, 2 threads {deals / t2:,.0f} deals/s, ratio {ratio:.2f}; "
          f"without the first-player column: {deals / n1:,.0f} / {deals / n2:,.0f} deals/s, ratio {nratio:.2f}")
    target(benchmark, "simulate: 2 threads / 1 thread", ratio, 1.8)


def bench_kernel_scaling(benchmark, request):
    """The bare batch kernel (run_batch over a thread pool, no statistics): the ceiling."""
    from concurrent.futures import ThreadPoolExecutor

    import cardsim

    smoke = request.config.getoption("benchmark_disable", False)
    g = cardsim.make(GAME)
    n, chunk = (2_000, 1_000) if smoke else (400_000, 20_000)

    def run(workers):
        with ThreadPoolExecutor(workers) as ex:
            list(ex.map(lambda s: g.spec.run_batch(1, s, chunk, [0] * 4), range(0, n, chunk)))

    benchmark.pedantic(run, args=(2,), rounds=1 if smoke else 3, iterations=1)
    if smoke:
        return
    t1s, t2s = [], []
    for _ in range(3):
        t0 = time.perf_counter(); run(1); t1s.append(time.perf_counter() - t0)
        t0 = time.perf_counter(); run(2); t2s.append(time.perf_counter() - t0)
    ratio = statistics.median(t1s) / statistics.median(t2s)
    benchmark.extra_info.update({"ratio": ratio})
    print(f"\nkernel: 1 thread {n / statistics.median(t1s):,.0f} deals/s, 2 threads "
          f"{n / statistics.median(t2s):,.0f} deals/s, ratio {ratio:.2f}")
    target(benchmark, "kernel: 2 threads / 1 thread", ratio, 1.8)


def dask_vs_threads(deals=1_000_000, rounds=3):
    from cardsim.executors import local_cluster

    t0 = time.perf_counter()
    client, cluster = local_cluster(2)
    start = time.perf_counter() - t0
    try:
        _run(20_000, 2, backend="dask", address=client)    # warm-up: workers import cardsim, build the game
        _run(20_000, 2)
        td, tt = [], []
        for _ in range(rounds):
            t, rt = _run(deals, 2)
            tt.append(t)
            t, rd = _run(deals, 2, backend="dask", address=client)
            td.append(t)
            same = json.dumps(rt.summary(), sort_keys=True) == json.dumps(rd.summary(), sort_keys=True)
            assert same, "Dask and threads disagree"
        t_t, t_d = statistics.median(tt), statistics.median(td)
        return {"deals": deals, "cluster_start_s": start, "threads_s": t_t, "dask_s": t_d, "dask_over_threads": t_d / t_t,
                "threads_runs": tt, "dask_runs": td, "identical": True}
    finally:
        client.close()
        cluster.close()


_RSS_CHILD = """
import resource, sys, time, cardsim
n = int(sys.argv[1])
t0 = time.perf_counter()
res = cardsim.simulate("joffre_whist", deals=n, seed=1, workers=2, keep_table=False)
s = res.summary()
print(n, time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, s["seats"][0]["mean"])
"""


def rss():
    out = {}
    for n in (1_000_000, 10_000_000):
        r = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(n)], capture_output=True, text=True, check=True)
        _, secs, kb, mean = r.stdout.split()
        out[n] = {"seconds": float(secs), "peak_rss_mb": int(kb) / 1024, "seat0_mean": float(mean)}
    out["difference_mb"] = out[10_000_000]["peak_rss_mb"] - out[1_000_000]["peak_rss_mb"]
    return out


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "scaling"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else None
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if what == "scaling":
        t1, t2, ratio = scaling(n or 400_000)
        d = n or 400_000
        print(f"{GAME}: 1 thread {t1:.2f} s ({d / t1:,.0f} deals/s), 2 threads {t2:.2f} s ({d / t2:,.0f} deals/s), "
              f"ratio {ratio:.2f}")
        t1, t2, ratio = scaling(n or 400_000, first_player=False)
        print(f"  without first_player: 1 thread {d / t1:,.0f} deals/s, 2 threads {d / t2:,.0f} deals/s, ratio {ratio:.2f}")
    elif what == "dask":
        print(json.dumps(dask_vs_threads(n or 1_000_000), indent=2))
    elif what == "rss":
        print(json.dumps(rss(), indent=2))
    else:
        sys.exit(__doc__)
