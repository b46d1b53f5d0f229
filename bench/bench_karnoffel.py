"""Karnöffel speed: deals/s with random agents in the batch kernel, one thread, compared with the
reference loop (shared/reference/trick_limit.c, mode 1) measured in the same session.

Target (issue): at least 0.27x the reference's deals/s (4 players, deal scope).
Run: python -m pytest bench/bench_karnoffel.py --benchmark-only
Smoke (CI): python -m pytest bench/bench_karnoffel.py --benchmark-disable
"""
import pytest

import cardsim

from .conftest import deals_per_second

TARGET_RATIO = 0.27


def _deals(benchmark):
    return 200 if benchmark.disabled else 200_000


@pytest.mark.parametrize("players", [4, 6])
def test_karnoffel_random_batch(benchmark, trick_limit, players):
    g = cardsim.make("karnoffel", players=players)
    n = _deals(benchmark)
    agents = [0] * players
    smoke = benchmark.disabled
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, n, agents), rounds=1 if smoke else 7, iterations=1,
                       warmup_rounds=0 if smoke else 1)
    ref = trick_limit("1")
    if ref is None:                      # smoke mode: numbers mean nothing
        return
    rate = deals_per_second(benchmark, n)
    ratio = rate / ref
    benchmark.extra_info.update({"deals_per_s": rate, "reference_deals_per_s": ref, "ratio": ratio,
                                 "target_ratio": TARGET_RATIO})
    print(f"\nkarnoffel {players}p: {rate:,.0f} deals/s; reference {ref:,.0f} deals/s; ratio {ratio:.3f}")
    if players == 4:
        assert ratio >= TARGET_RATIO, f"{rate:,.0f} deals/s is {ratio:.3f}x the reference (< {TARGET_RATIO})"


def test_karnoffel_greedy_batch(benchmark):
    g = cardsim.make("karnoffel")
    n = 200 if benchmark.disabled else 50_000
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, n, [1, 0, 1, 0]), rounds=1 if benchmark.disabled else 5,
                       iterations=1)
    if not benchmark.disabled:
        print(f"\nkarnoffel greedy/random 4p: {deals_per_second(benchmark, n):,.0f} deals/s")
