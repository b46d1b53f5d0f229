"""Basra speed (issue: Basra). Release build: pytest bench/bench_basra.py --benchmark-only
Target: full Egyptian 4-player deals, random agents, batch kernel, one thread, at least 0.18 x the
deals/s of bench/reference/trick_limit.c (mode 1) measured in the same run."""
import pytest

import cardsim


def bench_basra_kernel_random_one_thread(kernel_speed):
    kernel_speed(cardsim.make("basra", players=4), [0] * 4, 50_000, "basra egyptian 4p random kernel", target=0.18)


def bench_basra_kernel_greedy_one_thread(kernel_speed):
    kernel_speed(cardsim.make("basra", players=4), [1] * 4, 25_000, "basra egyptian 4p greedy kernel", rounds=5)


@pytest.mark.parametrize("variant", ["yemeni", "lebanese_a", "syrian"])
def bench_basra_presets_random(kernel_speed, variant):
    kernel_speed(cardsim.make("basra", players=4, variant=variant), [0] * 4, 50_000,
                 f"basra {variant} 4p random kernel", rounds=5)
