"""Hakka Six Tigers speed (issue: Hakka Six Tigers, complete). Release build:
pytest bench/bench_six_tigers.py --benchmark-only
Target: random agents, batch kernel, one thread, at least 0.3 x the deals/s of the reference loop
(the trick_limit fixture of bench/conftest.py, mode 1) measured in the same run."""
import cardsim


def bench_six_tigers_random_batch(kernel_speed):
    kernel_speed(cardsim.make("six_tigers"), [0, 0, 0, 0], 50_000, "six_tigers random kernel", target=0.3)


def bench_six_tigers_greedy_batch(kernel_speed):
    kernel_speed(cardsim.make("six_tigers"), [1, 0, 1, 0], 20_000, "six_tigers greedy/random kernel", rounds=5)
