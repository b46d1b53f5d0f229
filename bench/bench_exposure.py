"""Exposure speed: deals/s with random agents in the batch kernel, one thread, against the
reference loop (shared/reference/trick_limit.c, mode 1) measured in the same run.

Target (issue): at least 0.27x the reference's deals/s. Run:
    python -m pytest bench/bench_exposure.py --benchmark-only
The smoke run (--benchmark-disable) plays a few deals and asserts nothing about speed."""
import pytest

import cardsim

from .conftest import deals_per_second

RATIO = 0.27


def test_exposure_random_deals_per_second(benchmark, trick_limit):
    g = cardsim.make("exposure")
    ref = trick_limit("1")
    smoke = ref is None
    deals = 200 if smoke else 100_000
    result = benchmark.pedantic(g.spec.run_batch, args=(1, 0, deals, [0, 0]),
                                rounds=1 if smoke else 7, iterations=1, warmup_rounds=0 if smoke else 1)
    assert result["returns"].shape == (deals, 2)
    if smoke:
        return
    rate = deals_per_second(benchmark, deals)
    ratio = rate / ref
    benchmark.extra_info.update(deals_per_s=rate, reference_deals_per_s=ref, ratio=ratio)
    print(f"\nexposure: {rate:,.0f} deals/s, reference {ref:,.0f} deals/s, ratio {ratio:.3f} (target {RATIO})")
    assert ratio >= RATIO, f"exposure {rate:,.0f} deals/s is {ratio:.3f}x the reference {ref:,.0f} (< {RATIO})"


def test_exposure_greedy_deals_per_second(benchmark, trick_limit):
    """Informational: greedy agents on both seats (no target)."""
    g = cardsim.make("exposure")
    smoke = trick_limit("1") is None
    deals = 100 if smoke else 20_000
    benchmark.pedantic(g.spec.run_batch, args=(1, 0, deals, [1, 1]), rounds=1 if smoke else 5,
                       iterations=1)
    if not smoke:
        print(f"\nexposure greedy: {deals_per_second(benchmark, deals):,.0f} deals/s")
