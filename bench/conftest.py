"""Shared benchmark fixtures. The reference speed-of-light loop (bench/reference/trick_limit.c, see
bench/reference/README.md) is compiled with gcc -O2 and run in the same session, so every speed
target is a ratio measured on the same machine at the same time."""
import os
import pathlib
import shutil
import subprocess
import tempfile

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def _reference_source():
    # CARDSIM_REFERENCE (another copy), else the one in the repository
    for cand in (os.environ.get("CARDSIM_REFERENCE"), HERE / "reference" / "trick_limit.c"):
        if cand and pathlib.Path(cand).is_file():
            return pathlib.Path(cand)
    return None


@pytest.fixture(scope="session")
def trick_limit(request):
    """Function mode -> median deals/s of the reference C loop ('1' or '2deck'), measured now.
    Skips when the reference or gcc is missing; returns None in smoke mode (--benchmark-disable)."""
    src = _reference_source()
    if src is None or shutil.which("gcc") is None:
        pytest.skip("bench/reference/trick_limit.c or gcc not available")
    disabled = request.config.getoption("benchmark_disable", False)
    tmp = tempfile.mkdtemp()
    exe = os.path.join(tmp, "trick_limit")
    subprocess.run(["gcc", "-O2", "-o", exe, str(src)], check=True)
    cache = {}

    def run(mode="1", deals=None, runs=5):
        if disabled:
            return None
        key = (mode, deals, runs)
        if key not in cache:
            deals = deals or (1_000_000 if mode == "1" else 500_000)
            out = subprocess.run([exe, mode, str(deals), str(runs), "42"], check=True, capture_output=True,
                                 text=True).stdout
            cache[key] = _parse_rate(out)
        return cache[key]

    yield run
    shutil.rmtree(tmp, ignore_errors=True)


def _parse_rate(out: str) -> float:
    from cardsim.bench import parse_rate

    return parse_rate(out)


def deals_per_second(benchmark, deals):
    """Median deals/s of a finished pytest-benchmark run of `deals` deals per round."""
    st = benchmark.stats.stats if hasattr(benchmark.stats, "stats") else benchmark.stats
    return deals / st.median


def smoke_mode(request) -> bool:
    """True under --benchmark-disable (CI smoke run: each body once, no speed asserted)."""
    return request.config.getoption("benchmark_disable", False)


@pytest.fixture
def kernel_speed(benchmark, request):
    """run(game, agents, deals, label, target=None, mode="1"): time `deals` deals of the game's
    batch kernel (one thread, agent codes per seat) with pytest-benchmark; with a target, also
    run the reference loop in `mode` and assert deals/s >= target x the reference's. Prints the
    figures and stores them in the benchmark's extra_info. Returns deals/s (None in smoke mode)."""
    smoke = smoke_mode(request)

    def run(game, agents, deals, label, target=None, mode="1", smoke_deals=200, rounds=7):
        n = smoke_deals if smoke else deals
        benchmark.pedantic(game.spec.run_batch, args=(1, 0, n, list(agents)), rounds=1 if smoke else rounds,
                           iterations=1, warmup_rounds=0 if smoke else 1)
        if smoke:
            return None
        ours = deals_per_second(benchmark, n)
        benchmark.extra_info["deals_per_s"] = ours
        msg = f"\n{label}: {ours:,.0f} deals/s"
        if target is not None:
            ref = request.getfixturevalue("trick_limit")(mode)
            ratio = ours / ref
            benchmark.extra_info.update(reference_deals_per_s=ref, ratio=ratio, target_ratio=target)
            msg += f"; reference ({mode}) {ref:,.0f} deals/s; ratio {ratio:.3f} (target >= {target})"
        print(msg)
        if target is not None:
            assert ratio >= target, msg
        return ours

    return run
