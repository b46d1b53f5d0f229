"""Exposure speed (issue: Exposure). Release build: pytest bench/bench_exposure.py --benchmark-only
Target: random agents, batch kernel, one thread, at least 0.27 x the deals/s of the reference loop
(bench/reference/trick_limit.c, mode 1) measured in the same run."""
import cardsim


def bench_exposure_random_deals_per_second(kernel_speed):
    kernel_speed(cardsim.make("exposure"), [0, 0], 100_000, "exposure random kernel", target=0.27)


def bench_exposure_greedy_deals_per_second(kernel_speed):
    kernel_speed(cardsim.make("exposure"), [1, 1], 20_000, "exposure greedy kernel", rounds=5)
