"""Basra speed (issue: Basra). Release build; run with
    pytest bench/bench_basra.py --benchmark-only
Target: full Egyptian 4-player deals with random agents in the batch kernel, one thread, at least
0.18 x the deals/s of shared/reference/trick_limit.c (mode 1) measured in the same run.
Under --benchmark-disable (CI smoke mode) each body runs once on a few deals, no ratio asserted."""
import pytest

import cardsim

from .conftest import deals_per_second

N_KERNEL = 50_000
TARGET_RATIO = 0.18


def _smoke(request):
    return request.config.getoption("benchmark_disable", False)


@pytest.fixture(scope="module")
def game():
    return cardsim.make("basra", players=4)


def bench_basra_kernel_random_one_thread(benchmark, game, trick_limit, request):
    n = 200 if _smoke(request) else N_KERNEL
    benchmark.pedantic(game.spec.run_batch, args=(1, 0, n, [0, 0, 0, 0]), rounds=1 if _smoke(request) else 7,
                       warmup_rounds=0 if _smoke(request) else 1)
    ref = trick_limit("1")
    if ref is None:
        return
    ours = deals_per_second(benchmark, n)
    benchmark.extra_info.update(deals_per_s=ours, reference_deals_per_s=ref, ratio=ours / ref)
    print(f"\nbasra egyptian 4p random kernel: {ours:,.0f} deals/s; reference {ref:,.0f}; "
          f"ratio {ours / ref:.3f} (target >= {TARGET_RATIO})")
    assert ours / ref >= TARGET_RATIO


def bench_basra_kernel_greedy_one_thread(benchmark, game, request):
    n = 200 if _smoke(request) else N_KERNEL // 2
    benchmark.pedantic(game.spec.run_batch, args=(1, 0, n, [1, 1, 1, 1]), rounds=1 if _smoke(request) else 5)
    if not _smoke(request):
        print(f"\nbasra egyptian 4p greedy kernel: {deals_per_second(benchmark, n):,.0f} deals/s")


@pytest.mark.parametrize("variant", ["yemeni", "lebanese_a", "syrian"])
def bench_basra_presets_random(benchmark, variant, request):
    g = cardsim.make("basra", players=4, variant=variant)
    n = 100 if _smoke(request) else N_KERNEL // 2
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, n, [0, 0, 0, 0]), rounds=1 if _smoke(request) else 5)
    if not _smoke(request):
        print(f"\nbasra {variant} 4p random kernel: {deals_per_second(benchmark, n):,.0f} deals/s")
