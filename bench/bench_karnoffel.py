"""Karnöffel speed (issue: Karnöffel). Release build: pytest bench/bench_karnoffel.py --benchmark-only
Target: random agents, batch kernel, one thread, at least 0.27 x the deals/s of the reference loop
(the trick_limit fixture of bench/conftest.py, mode 1) measured in the same run (4 and 6 players)."""
import pytest

import cardsim


@pytest.mark.parametrize("players", [4, 6])
def bench_karnoffel_random_batch(kernel_speed, players):
    kernel_speed(cardsim.make("karnoffel", players=players), [0] * players, 200_000,
                 f"karnoffel {players}p random kernel", target=0.27)


def bench_karnoffel_greedy_batch(kernel_speed):
    kernel_speed(cardsim.make("karnoffel"), [1, 0, 1, 0], 50_000, "karnoffel greedy/random 4p kernel", rounds=5)
