"""Zhao Pengyou speed (issue: Zhao Pengyou). Release build:
    pytest bench/bench_zhao_pengyou.py --benchmark-only
Random agents, batch kernel, one thread, default options; target: a ratio to the reference loop
(bench/reference/trick_limit.c, '2deck' mode) measured in the same run, >= 0.064 with 6 players
and >= 0.017 with 12."""
import pytest

import cardsim

TARGETS = {6: 0.064, 12: 0.017}
N_KERNEL = {6: 20_000, 12: 8_000}


@pytest.mark.parametrize("players", [6, 12])
def bench_kernel_random_one_thread(kernel_speed, players):
    kernel_speed(cardsim.make("zhao_pengyou", players=players), [0] * players, N_KERNEL[players],
                 f"zhao_pengyou {players}p random kernel", target=TARGETS[players], mode="2deck", smoke_deals=20)


@pytest.mark.parametrize("players", [6, 12])
def bench_kernel_greedy_one_thread(kernel_speed, players):
    kernel_speed(cardsim.make("zhao_pengyou", players=players), [1] * players, N_KERNEL[players] // 4,
                 f"zhao_pengyou {players}p greedy kernel", smoke_deals=10, rounds=5)


@pytest.mark.parametrize("players", [6, 12])
def bench_kernel_random_shengji(kernel_speed, players):
    """The shengji preset (issue 17: mixed throws, format-based follows): reported, no target."""
    kernel_speed(cardsim.make("zhao_pengyou", players=players, variant="shengji"), [0] * players,
                 N_KERNEL[players] // 2, f"zhao_pengyou {players}p shengji random kernel", smoke_deals=10)
