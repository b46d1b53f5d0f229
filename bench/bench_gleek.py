"""Gleek speed (issue: Gleek). Release build; run with
    pytest bench/bench_gleek.py --benchmark-only
The target is a ratio to the reference C loop (shared/reference/trick_limit.c, mode 1) measured
in the same run. Under --benchmark-disable (CI smoke mode) each body runs once on a few deals
and no ratio is asserted."""
import pytest

import cardsim

from .conftest import deals_per_second

N_KERNEL = 100_000
TARGET = 0.27


def _smoke(request):
    return request.config.getoption("benchmark_disable", False)


@pytest.fixture(scope="module")
def game():
    return cardsim.make("gleek")


def bench_gleek_kernel_random_one_thread(benchmark, game, trick_limit, request):
    """Random agents on all three seats, the batch kernel, one thread."""
    n = 200 if _smoke(request) else N_KERNEL
    benchmark.pedantic(game.spec.run_batch, args=(1, 0, n, [0, 0, 0]), rounds=1 if _smoke(request) else 7,
                       warmup_rounds=0 if _smoke(request) else 1)
    ref = trick_limit("1")
    if ref is None:
        return
    ours = deals_per_second(benchmark, n)
    benchmark.extra_info.update(deals_per_s=ours, reference_deals_per_s=ref, ratio=ours / ref)
    print(f"\ngleek random kernel: {ours:,.0f} deals/s; reference {ref:,.0f}; ratio {ours / ref:.3f} (target >= {TARGET})")
    assert ours / ref >= TARGET


def bench_gleek_kernel_greedy_one_thread(benchmark, game, request):
    n = 200 if _smoke(request) else N_KERNEL // 2
    benchmark.pedantic(game.spec.run_batch, args=(1, 0, n, [1, 1, 1]), rounds=1 if _smoke(request) else 5)
    if not _smoke(request):
        print(f"\ngleek greedy kernel: {deals_per_second(benchmark, n):,.0f} deals/s")


def bench_gleek_match_random_one_thread(benchmark, request):
    g = cardsim.make("gleek", scope="match")
    n = 20 if _smoke(request) else 10_000
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, n, [0, 0, 0]), rounds=1 if _smoke(request) else 5)
    if not _smoke(request):
        print(f"\ngleek random matches: {deals_per_second(benchmark, n):,.0f} matches/s")
