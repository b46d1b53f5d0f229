"""Tien Gow speed (issue: Tien Gow). Release build: pytest bench/bench_tien_gow.py --benchmark-only
Target: random agents, batch kernel, one thread, at least 0.3 x the deals/s of the reference loop
(bench/reference/trick_limit.c, mode 1) measured in the same run. The contest: `sort_tiles` on a
shuffled full set (the public oracle, parsing included, and the kernel alone), reported as the time
per sort beside the best human time of the seed's contest (60 s)."""
import cardsim
from cardsim.games.tien_gow import _rules as _r
from cardsim.games import tien_gow as tg

from .conftest import smoke_mode

HUMAN_RECORD_S = 60.0


def bench_tien_gow_random_batch(kernel_speed):
    kernel_speed(cardsim.make("tien_gow"), [0] * 4, 200_000, "tien_gow random kernel", target=0.3)


def bench_tien_gow_greedy_batch(kernel_speed):
    kernel_speed(cardsim.make("tien_gow"), [1, 0, 1, 0], 50_000, "tien_gow greedy/random kernel", rounds=5)


def bench_tien_gow_match_random(kernel_speed):
    kernel_speed(cardsim.make("tien_gow", scope="match"), [0] * 4, 10_000, "tien_gow 16-deal matches, random",
                 rounds=5)


def _report(benchmark, label):
    st = benchmark.stats.stats if hasattr(benchmark.stats, "stats") else benchmark.stats
    per = st.median
    benchmark.extra_info.update(seconds_per_sort=per, human_record_s=HUMAN_RECORD_S, speedup=HUMAN_RECORD_S / per)
    print(f"\n{label}: {per * 1e6:.2f} µs per sort; the contest's best human time is {HUMAN_RECORD_S:.0f} s "
          f"({HUMAN_RECORD_S / per:,.0f} x slower)")


def bench_sort_tiles_oracle(benchmark, request):
    tiles = tg.shuffled_set(1)
    rows = benchmark(tg.sort_tiles, tiles)
    assert len(rows["civil"]) == 22 and len(rows["military"]) == 10
    if not smoke_mode(request):
        _report(benchmark, "sort_tiles (strings in, strings out)")


def bench_sort_tiles_kernel(benchmark, request):
    ids = [tg.TILES.index(t) for t in tg.shuffled_set(1)]
    civil, military = benchmark(_r.oracle_sort, ids)
    assert len(civil) == 22 and len(military) == 10
    if not smoke_mode(request):
        _report(benchmark, "sort kernel (tile ids)")
