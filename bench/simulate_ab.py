"""simulate() throughput of two builds on one machine: the installed (or editable) cardsim against
another installed copy of the package, in alternating processes.

    pip install --no-deps --target /tmp/old-cardsim <a wheel or checkout of the other build>
    python bench/simulate_ab.py --old /tmp/old-cardsim karnoffel --deals 400000 --rounds 3

Each round runs one fresh process per build, the old one first: a warm-up run of 2,000 deals, then
one timed `cardsim.simulate(game, deals=N, agents="random", workers=W, keep_table=K)`. It prints,
for each (workers, keep_table) of the grid, the median deals/s of each build over the rounds and
their ratio (new over old). The old process imports the package from --old: the directory goes
first on sys.path, and an editable install's import hook is left out so that it cannot take the
import back. docs/performance.md ("simulate() and its statistics") has the figures this measured.
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import subprocess
import sys

_SCRIPT = r"""
import sys
old = sys.argv[1]
if old:
    sys.meta_path[:] = [f for f in sys.meta_path
                        if "editable" not in type(f).__module__.lower() and "redirect" not in type(f).__name__.lower()]
    sys.path.insert(0, old)
import time, cardsim
where = cardsim.__file__
if bool(old) != where.startswith(old or "\0"):
    sys.exit(f"imported cardsim from {where}, not from the build asked for")
game, n, w, kt = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
cardsim.simulate(game, deals=2000, agents="random", workers=w, seed=1, keep_table=kt)
t = time.perf_counter()
cardsim.simulate(game, deals=n, agents="random", workers=w, seed=1, keep_table=kt)
print(n / (time.perf_counter() - t))
"""


def rate(old: str, game: str, deals: int, workers: int, keep: bool) -> float:
    out = subprocess.run([sys.executable, "-c", _SCRIPT, old, game, str(deals), str(workers), str(int(keep))],
                         capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"simulate_ab: the {'old' if old else 'new'} build failed: {out.stderr.strip()[-400:]}")
    return float(out.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--old", required=True, help="directory holding the other build's cardsim package")
    ap.add_argument("--deals", type=int, default=200_000, help="deals per timed run (default: 200000)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default: 3)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="thread counts (default: 1 2)")
    args = ap.parse_args(argv)
    if not (pathlib.Path(args.old) / "cardsim" / "__init__.py").is_file():
        ap.error(f"--old {args.old}: no cardsim package there (install one with pip install --no-deps --target DIR)")
    if args.deals < 1 or args.rounds < 1 or min(args.workers) < 1:
        ap.error("--deals, --rounds and --workers must be positive")
    rows = []
    for keep in (False, True):
        for w in args.workers:
            r = {"old": [], "new": []}
            for _ in range(args.rounds):
                r["old"].append(rate(args.old, args.game, args.deals, w, keep))
                r["new"].append(rate("", args.game, args.deals, w, keep))
            o, n = statistics.median(r["old"]), statistics.median(r["new"])
            print(f"{args.game} workers={w} keep_table={keep}: old {o:,.0f}  new {n:,.0f} deals/s  new/old {n / o:.2f}")
            rows.append({"workers": w, "keep_table": keep, "old": o, "new": n, "ratio": n / o})
    return rows


if __name__ == "__main__":
    main()
