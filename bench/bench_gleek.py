"""Gleek speed (issue: Gleek). Release build: pytest bench/bench_gleek.py --benchmark-only
Target: random agents, batch kernel, one thread, at least 0.27 x the deals/s of the reference loop
(bench/reference/trick_limit.c, mode 1) measured in the same run."""
import cardsim


def bench_gleek_kernel_random_one_thread(kernel_speed):
    kernel_speed(cardsim.make("gleek"), [0] * 3, 100_000, "gleek random kernel", target=0.27)


def bench_gleek_kernel_greedy_one_thread(kernel_speed):
    kernel_speed(cardsim.make("gleek"), [1] * 3, 50_000, "gleek greedy kernel", rounds=5)


def bench_gleek_match_random_one_thread(kernel_speed):
    kernel_speed(cardsim.make("gleek", scope="match"), [0] * 3, 10_000, "gleek random matches (per match)",
                 smoke_deals=20, rounds=5)
