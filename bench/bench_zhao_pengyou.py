"""Zhao Pengyou speed (issue: Zhao Pengyou). Release build; run with
    pytest bench/bench_zhao_pengyou.py --benchmark-only
Random agents, batch kernel, one thread, default options; the target is a ratio to the reference
C loop (shared/reference/trick_limit.c, '2deck' mode) measured in the same run: >= 0.064 with 6
players and >= 0.017 with 12. Under --benchmark-disable (CI smoke mode) each body runs once on a
few deals and no ratio is asserted."""
import pytest

import cardsim

from .conftest import deals_per_second

TARGETS = {6: 0.064, 12: 0.017}
N_KERNEL = {6: 20_000, 12: 8_000}


def _smoke(request):
    return request.config.getoption("benchmark_disable", False)


@pytest.mark.parametrize("players", [6, 12])
def bench_kernel_random_one_thread(benchmark, players, trick_limit, request):
    g = cardsim.make("zhao_pengyou", players=players)
    n = 20 if _smoke(request) else N_KERNEL[players]
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, n, [0] * players), rounds=1 if _smoke(request) else 7,
                       warmup_rounds=0 if _smoke(request) else 1)
    ref = trick_limit("2deck")
    if ref is None:
        return
    ours = deals_per_second(benchmark, n)
    target = TARGETS[players]
    benchmark.extra_info.update(deals_per_s=ours, reference_deals_per_s=ref, ratio=ours / ref)
    print(f"\nzhao_pengyou {players}p random kernel: {ours:,.0f} deals/s; reference 2deck {ref:,.0f}; "
          f"ratio {ours / ref:.4f} (target >= {target})")
    assert ours / ref >= target


@pytest.mark.parametrize("players", [6, 12])
def bench_kernel_greedy_one_thread(benchmark, players, request):
    g = cardsim.make("zhao_pengyou", players=players)
    n = 10 if _smoke(request) else N_KERNEL[players] // 4
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, n, [1] * players), rounds=1 if _smoke(request) else 5)
    if not _smoke(request):
        print(f"\nzhao_pengyou {players}p greedy kernel: {deals_per_second(benchmark, n):,.0f} deals/s")
