"""`cardsim bench`: a standard table of deals/s per game on 1 core and on all cores, with the ratio
to the C reference loop (`bench/reference/trick_limit.c`: the simplest trick game, random legal
cards, hands as bitsets) compiled as the engine is (`gcc -O2`, and `-mpopcnt` when the engine was
built with it: reference_cflags) and measured in the same run on the same machine — so the ratio,
unlike the raw figure, compares across machines and builds.

1 core: the game's batch kernel (`spec.run_batch`, one thread, no Python inside a deal); all
cores: `cardsim.simulate(..., workers=W, keep_table=False)`, the path users run. Each figure is
the median of `rounds` timed runs after one warm-up. The reference and the game's kernel take
turns, one round each (reference, game, reference, game, ...), so that a drift in the machine's
speed over the seconds of a game's measurement biases neither side of the ratio. On a shared
virtual machine single rounds can still vary by +-20% (measured 2026-12-03): compare the ratios
of repeated runs before reading a small difference.
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import statistics
import subprocess
import tempfile
import time

import cardsim
from cardsim.errors import ConfigError

REFERENCE = pathlib.Path("bench") / "reference" / "trick_limit.c"


def reference_cflags() -> list[str]:
    """The C compiler flags for the reference loop: the engine's own code generation, read off this
    build (cardsim.core._engine.build_info): -O2 (CMake's Release), and -mpopcnt where the engine
    was compiled with it (x86-64 by default), so that a bit count is one instruction on both sides
    of a ratio. Without -mpopcnt gcc calls a library routine for each count, which made the loop
    about 19% slower than the engine's code generation allows (2026-12-03). Neither side gets
    -mbmi2: the engine decides at load whether to pick by PDEP (build_info()["pdep"]), the loop
    picks by its portable loop. bench/conftest.py and bench/instructions.py use these flags too."""
    from cardsim.core._engine import build_info
    return ["-O2"] + (["-mpopcnt"] if build_info().get("popcnt") else [])


def find_reference(path=None) -> pathlib.Path | None:
    """The reference C source: `path`, else $CARDSIM_REFERENCE, else bench/reference/trick_limit.c
    in the current directory or in the checkout this package was installed from (editable). A
    `path` given explicitly must be a readable file (ConfigError otherwise, never a silent
    fallback to another source)."""
    if path is not None:
        p = pathlib.Path(path)
        if not p.is_file():
            raise ConfigError(f"--reference {_cut(str(path))}: no such file (give the reference C source, e.g. "
                              f"{REFERENCE})")
        return p
    here = pathlib.Path(__file__).resolve()
    cands = [path, os.environ.get("CARDSIM_REFERENCE"), pathlib.Path.cwd() / REFERENCE,
             here.parents[2] / REFERENCE]
    for c in cands:
        if c and pathlib.Path(c).is_file():
            return pathlib.Path(c)
    return None


def _cut(text: str, limit: int = 200) -> str:
    """text cut to `limit` characters (an error message never quotes a long input)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def parse_rate(out: str) -> float:
    """Median deals/s from the reference's output ('median 1093221 deals/s ...')."""
    m = re.search(r"median\s+([0-9.]+)\s*deals/s", out)
    if not m:
        raise RuntimeError(f"cannot read the reference output: {_cut(repr(out))}")
    return float(m.group(1))


def _first_lines(text, n: int = 3) -> str:
    lines = [x for x in (text or "").strip().splitlines() if x.strip()][:n]
    return _cut(" | ".join(lines)) or "no message"


class Reference:
    """The compiled reference loop (a temporary executable, removed by close()). A source that is
    not C the compiler accepts, or a program that does not print the reference's line, raises
    ConfigError naming the file and the compiler's first lines."""

    def __init__(self, source: pathlib.Path, compiler: str = "gcc"):
        self.source = source
        self.tmp = tempfile.mkdtemp(prefix="cardsim-bench-")
        self.exe = os.path.join(self.tmp, "trick_limit")
        self.cflags = reference_cflags()
        try:
            subprocess.run([compiler, *self.cflags, "-x", "c", "-o", self.exe, str(source)], check=True,
                           capture_output=True, text=True, errors="replace")
        except subprocess.CalledProcessError as e:
            self.close()
            raise ConfigError(f"--reference {_cut(str(source))}: {compiler} cannot compile it as C (it must be the "
                              f"reference loop's C source, e.g. {REFERENCE}): {_first_lines(e.stderr)}") from None
        except OSError as e:
            self.close()
            raise ConfigError(f"--reference {_cut(str(source))}: cannot run {compiler}: {e.strerror or e}") from None

    def rate(self, deals: int, rounds: int, mode: str = "1") -> float:
        try:
            out = subprocess.run([self.exe, mode, str(deals), str(rounds), "42"], check=True, capture_output=True,
                                 text=True, errors="replace", timeout=max(600, deals * rounds / 1e5)).stdout
            return parse_rate(out)
        except (subprocess.SubprocessError, RuntimeError, OSError) as e:
            detail = _first_lines(getattr(e, "stderr", None) or str(e))
            raise ConfigError(f"--reference {_cut(str(self.source))}: the compiled program is not the reference "
                              f"loop (expected a line 'median N deals/s', e.g. from {REFERENCE}): {detail}") from None

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def _alternating_rates(fn, deals: int, rounds: int, between=None) -> tuple[float, float | None]:
    """(median deals/s of fn, median of `between`'s figures): one warm-up of fn, then `rounds`
    rounds of between() (untimed here: it measures itself) followed by one timed fn()."""
    fn()                                                    # warm-up (page faults, thread pool)
    times, other = [], []
    for _ in range(rounds):
        if between is not None:
            other.append(between())
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return deals / statistics.median(times), (statistics.median(other) if other else None)


def measure(game: str, deals: int, rounds: int, workers: int, agents: str = "random", seed: int = 1,
            reference=None) -> dict:
    """deals/s of one game: the kernel on one thread and simulate() on `workers` threads.
    reference: None, or a callable returning the reference loop's deals/s for one round, run
    before each of the kernel's rounds (the row then has reference_deals_per_s and ratio)."""
    from cardsim.core._engine import AGENT_CODES

    g = cardsim.make(game)
    if agents not in AGENT_CODES:
        raise ConfigError(f"unknown agent {_cut(repr(agents), 60)}; agents: {', '.join(sorted(AGENT_CODES))}")
    codes = [AGENT_CODES[agents]] * g.num_players
    one, ref_rate = _alternating_rates(lambda: g.spec.run_batch(seed, 0, deals, codes), deals, rounds, reference)
    many = None
    if workers > 1:
        many = _alternating_rates(lambda: cardsim.simulate(g, deals=deals * workers, seed=seed, agents=agents,
                                                           workers=workers, keep_table=False),
                                  deals * workers, rounds)[0]
    # deals_per_s_1 is always the kernel on one core; the all-cores figure is deals_per_s_all (None
    # with one worker: nothing more to measure), also under deals_per_s_<workers> when workers > 1
    row = {"game": game, "players": g.num_players, "agents": agents, "deals_per_s_1": one,
           "deals_per_s_all": many, "workers": workers}
    if workers > 1:
        row[f"deals_per_s_{workers}"] = many
    if reference is not None:
        row["reference_deals_per_s"] = ref_rate
        row["ratio"] = one / ref_rate
    return row


def run(games=None, deals: int = 20_000, rounds: int = 3, workers: int | None = None, agents: str = "random",
        reference=None, out=print) -> dict:
    """Measure every game named (default: all) and print the table; returns the figures."""
    games = list(games or cardsim.GAMES)
    for g in games:
        if g not in cardsim.GAMES:
            raise ConfigError(f"unknown game {_cut(repr(g), 60)}; games: {', '.join(cardsim.GAMES)}")
    for k, v in (("deals", deals), ("rounds", rounds)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigError(f"--{k} must be a positive int, got {_cut(repr(v), 60)}")
    from cardsim.core._engine import AGENT_CODES

    if agents not in AGENT_CODES:
        raise ConfigError(f"unknown agent {_cut(repr(agents), 60)}; agents: {', '.join(sorted(AGENT_CODES))}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ConfigError(f"--workers must be a positive int, got {_cut(repr(workers), 60)}")
    workers = workers or os.cpu_count() or 1
    src = find_reference(reference)
    ref, why = None, None
    if src is None:
        why = f"reference loop not found ({REFERENCE}; run from the repository or pass --reference)"
    elif shutil.which("gcc") is None:
        why = "gcc not found: no reference loop"
    else:
        ref = Reference(src)
    ref_deals = max(deals * 5, 50_000)
    rows = []
    try:
        for g in games:
            # the reference takes turns with the game's kernel, one round each, so a change in the
            # machine's speed biases neither side of the ratio
            row = measure(g, deals, rounds, workers, agents,
                          reference=(lambda: ref.rate(ref_deals, 1)) if ref is not None else None)
            row.setdefault("reference_deals_per_s", None)
            row.setdefault("ratio", None)
            rows.append(row)
    finally:
        if ref is not None:
            ref.close()
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    w = f"{workers} cores"
    out(f"cardsim {cardsim.__version__} bench: {deals} deals per round, median of {rounds} rounds, agents {agents}, "
        f"{os.cpu_count()} cores on this machine{load}")
    out(f"{'game':<14} {'players':>7} {'deals/s 1 core':>15} {('deals/s ' + w):>16} {'scaling':>8} "
        f"{'reference':>11} {'ratio to ref':>13}")
    for r in rows:
        many = r["deals_per_s_all"]
        many_s = f"{many:,.0f}" if many else "-"
        scale = f"{many / r['deals_per_s_1']:.2f}x" if many else "-"
        refs = f"{r['reference_deals_per_s']:,.0f}" if r["reference_deals_per_s"] else "-"
        ratio = f"{r['ratio']:.3f}" if r["ratio"] else "-"
        out(f"{r['game']:<14} {r['players']:>7} {r['deals_per_s_1']:>15,.0f} {many_s:>16} {scale:>8} {refs:>11} {ratio:>13}")
    if ref is not None:
        out(f"reference: {src} (gcc {' '.join(ref.cflags)} as the engine, 1 core, {ref_deals} deals per round), "
            "measured in this run in rounds "
            "alternating with each game's; ratio = the game's deals/s on 1 core / the reference's (medians)")
    else:
        out(why)
    ref_rates = [r["reference_deals_per_s"] for r in rows if r["reference_deals_per_s"]]
    ref_rate = statistics.median(ref_rates) if ref_rates else None
    return {"rows": rows, "reference_deals_per_s": ref_rate, "workers": workers,
            "reference_cflags": ref.cflags if ref is not None else None}
