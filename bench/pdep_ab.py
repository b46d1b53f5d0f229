"""Wall-clock effect of the PDEP pick: random deals/s with PDEP and with the portable loop, same machine.

    python bench/pdep_ab.py                               # the games of docs/performance.md, 7 pairs
    python bench/pdep_ab.py hearts gleek --pairs 11

A random agent's pick (the n-th legal action, core/_bits.pxd bit_nth) is one PDEP instruction where
the CPU runs it fast; CARDSIM_NO_PDEP=1, set before the package loads, keeps the portable loop,
which picks the same action (the deals are the same). For each game the tool runs pairs of fresh
processes, one with PDEP and one without, in turn (so a drift in the machine's speed biases neither
side); each process times one `game.spec.run_batch` thread of random deals after a warm-up batch.
It prints, per game, the median deals/s of each side and the median of the per-pair ratios (PDEP
over the loop) with their range. On a machine where build_info()["pdep"] is false both sides run
the loop and it says so.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

GAMES = {"hearts": 200_000, "joffre_whist": 200_000, "gleek": 200_000, "exposure": 200_000,
         "zhao_pengyou": 30_000, "karnoffel": 300_000}

_SCRIPT = """
import json, sys, time, cardsim
from cardsim.core._engine import build_info
g = cardsim.make(sys.argv[1]); P = g.spec.num_players; n = int(sys.argv[2])
g.spec.run_batch(1, 10**9, max(1, n // 100), [0] * P)
t = time.perf_counter(); g.spec.run_batch(1, 0, n, [0] * P); dt = time.perf_counter() - t
print(json.dumps({"deals_per_s": n / dt, "pdep": build_info()["pdep"]}))
"""


def one_run(game, deals, pdep):
    env = dict(os.environ, CARDSIM_NO_PDEP="0" if pdep else "1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", _SCRIPT, game, str(deals)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def compare(game, deals, pairs):
    """{game, deals, pairs, pdep_used, pdep / loop deals/s (medians), ratio (median per pair), lo, hi}."""
    on, off, used = [], [], True
    for _ in range(pairs):
        a = one_run(game, deals, True)
        b = one_run(game, deals, False)
        if b["pdep"]:
            raise RuntimeError("CARDSIM_NO_PDEP=1 did not turn PDEP off")
        used = used and a["pdep"]
        on.append(a["deals_per_s"])
        off.append(b["deals_per_s"])
    ratios = [x / y for x, y in zip(on, off)]
    return {"game": game, "deals": deals, "pairs": pairs, "pdep_used": used,
            "pdep_deals_per_s": statistics.median(on), "loop_deals_per_s": statistics.median(off),
            "ratio": statistics.median(ratios), "lo": min(ratios), "hi": max(ratios)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help=f"games (default: {', '.join(GAMES)})")
    ap.add_argument("--pairs", type=int, default=7, help="process pairs per game (default 7)")
    ap.add_argument("--deals", type=int, help="deals per run (default: per game, 30,000 to 300,000)")
    args = ap.parse_args(argv)
    import cardsim
    games = args.games or list(GAMES)
    bad = [g for g in games if g not in cardsim.GAMES]
    if bad:
        ap.error(f"unknown game {bad[0]!r}; games: {', '.join(cardsim.GAMES)}")
    if args.pairs < 1 or (args.deals is not None and args.deals < 1):
        ap.error("--pairs and --deals must be positive")
    rows = []
    print("random deals/s of one run_batch thread, PDEP pick vs portable loop (CARDSIM_NO_PDEP=1), "
          f"alternating processes, {args.pairs} pairs; ratio = median of the per-pair ratios (range)")
    for g in games:
        r = compare(g, args.deals or GAMES.get(g, 100_000), args.pairs)
        rows.append(r)
        note = "" if r["pdep_used"] else "  (this CPU has no fast PDEP: both sides ran the loop)"
        print(f"{g:<14} {r['deals']:>8,} deals  PDEP {r['pdep_deals_per_s']:>11,.0f}/s  loop "
              f"{r['loop_deals_per_s']:>11,.0f}/s  ratio {r['ratio']:.2f} ({r['lo']:.2f}-{r['hi']:.2f}){note}")
    return rows


if __name__ == "__main__":
    main()
