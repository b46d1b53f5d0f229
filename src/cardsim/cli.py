"""The `cardsim` command line.

    cardsim games                                     list games, options and variants
    cardsim simulate GAME [--deals N | --matches N] [--seed S] [--agents greedy,random,...]
                     [--variant V] [--players P] [-o NAME=VALUE ...] [--workers W]
                     [--backend threads|dask] [--address tcp://host:8786] [--chunk-size C]
                     [--out results.parquet|.csv|.json] [--summary-json s.json] [--lead-changes]
                     [--progress | --no-progress] [--json]
    cardsim report RESULTS --out report.html          HTML page with PNG plots (from .parquet/.csv/.json)
    cardsim compare A B [--json]                      difference B - A of two saved runs
    cardsim skill GAME [--deals N] [--strong greedy] [--weak random] ...

`simulate --out x.parquet` streams the rows to disk as they arrive (the table is not kept in
memory) with the run's metadata, so `cardsim report x.parquet` rebuilds exactly the same summary.

Each subcommand is one `_<name>_parser(sub)` function that builds its parser and binds its
`cmd_<name>(args)` handler (`set_defaults(func=...)`); `COMMANDS` lists the parser builders in
the order `--help` shows them. A new subcommand is one such pair plus one line in `COMMANDS`.
"""
from __future__ import annotations

import argparse
import ast
import json
import sys
import time

import cardsim
from cardsim.errors import CardsimError


# ---------------------------------------------------------------------------------------------
# shared helpers

def _parse_value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _options(pairs):
    out = {}
    for kv in pairs or []:
        if "=" not in kv:
            raise CardsimError(f"--option takes NAME=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        out[k.strip()] = _parse_value(v.strip())
    return out


def _ci(ci) -> str:
    from cardsim.report import fmt_ci

    return fmt_ci(ci)


def print_summary(s: dict, elapsed: float | None = None, file=None):
    from cardsim.report import fmt, fmt_p

    file = file or sys.stdout
    unit = s.get("unit", "deal")
    took = f"  ({elapsed:.2f} s)" if elapsed is not None else ""
    from cardsim.report import plural

    print(f"{s['game']}: {s['deals']} {plural(unit)}, seed {s['seed']}, agents {s['agents']}{took}", file=file)
    for x in s["seats"]:
        print(f"  seat {x['seat']}: mean return {fmt(x['mean'])}  95% CI {_ci(x['ci95'])}  "
              f"win rate {fmt(x['win_rate'])} {_ci(x['win_ci95'])}  advantage p={fmt_p(x['advantage_p'])}", file=file)
    b = s["seat_balance"]
    print(f"  seat balance: p={fmt_p(b.get('p_value'))}  win-rate gap {fmt(b.get('win_rate_gap'))}", file=file)
    fp = s.get("first_player")
    if fp:
        print(f"  first-player advantage: {fmt(fp['advantage'])} {_ci(fp['advantage_ci95'])}  p={fmt_p(fp['p_value'])}",
              file=file)
    d = s["duration"]
    print(f"  draws: {fmt(s['draws']['rate'])}   actions per {unit}: {fmt(d['actions']['mean'])}   "
          f"decisions: {fmt(d['decisions']['mean'])}   branching: {fmt(s['branching_factor']['value'])}   "
          f"decision share: {fmt(s['decision_share']['value'])}", file=file)
    if s.get("lead_changes"):
        print(f"  lead changes per {unit}: {fmt(s['lead_changes']['mean'])} {_ci(s['lead_changes']['ci95'])}", file=file)
    for k, v in s.get("metrics", {}).items():
        print(f"  mean {k}: {fmt(v['mean'])} {_ci(v['ci95'])}", file=file)


def _add_game_args(sp):
    sp.add_argument("game")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--workers", type=int, default=None, help="threads, or Dask LocalCluster workers")
    sp.add_argument("--players", type=int, default=None)
    sp.add_argument("--variant", default=None)
    sp.add_argument("--option", "-o", action="append", help="NAME=VALUE (repeatable)")
    sp.add_argument("--backend", choices=("threads", "dask"), default="threads")
    sp.add_argument("--address", default=None, help="Dask scheduler address (default: a LocalCluster)")
    sp.add_argument("--chunk-size", type=int, default=None)
    sp.add_argument("--json", action="store_true", help="print the result as JSON")


def _game_opts(args) -> dict:
    opts = _options(args.option)
    if args.players is not None:
        opts["players"] = args.players
    if args.variant is not None:
        opts["variant"] = args.variant
    return opts


# ---------------------------------------------------------------------------------------------
# cardsim games

def _games_parser(sub):
    sp = sub.add_parser("games", help="list the registered games and their options")
    sp.set_defaults(func=cmd_games)


def cmd_games(args) -> int:
    for name in cardsim.GAMES:
        mod = cardsim.game.game_module(name)
        print(f"{name}  (players {', '.join(map(str, mod.PLAYERS))})")
        for o in mod.OPTIONS:
            allowed = f" one of {list(o.choices)}" if o.choices else ""
            print(f"    {o.name} = {o.default!r}{allowed}  {o.doc}")
        if mod.PRESETS:
            print(f"    variants: {', '.join(mod.PRESETS)}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim simulate

def _simulate_parser(sub):
    sp = sub.add_parser("simulate", help="run seeded deals and print a summary")
    _add_game_args(sp)
    n = sp.add_mutually_exclusive_group()
    n.add_argument("--deals", type=int, default=None, help="number of deals (default 10000)")
    n.add_argument("--matches", type=int, default=None, help="number of whole matches (scope='match')")
    sp.add_argument("--agents", default="random", help="comma-separated, one per seat, or one for all")
    sp.add_argument("--out", default=None, help="write the table (.parquet/.csv, streamed) or the summary (.json)")
    sp.add_argument("--summary-json", default=None, help="also write the summary as JSON")
    sp.add_argument("--lead-changes", action="store_true", help="count lead changes of the running returns (kernel-side)")
    sp.add_argument("--progress", dest="progress", action="store_true", default=None)
    sp.add_argument("--no-progress", dest="progress", action="store_false")
    sp.set_defaults(func=cmd_simulate)


def cmd_simulate(args) -> int:
    game = cardsim.make(args.game, **_game_opts(args))
    agents = args.agents.split(",")
    if len(agents) == 1:
        agents = agents * game.num_players
    count = args.matches if args.matches is not None else (args.deals if args.deals is not None else 10_000)
    progress = args.progress if args.progress is not None else (sys.stderr.isatty() and count >= 200_000)
    out = args.out
    table_out = out if out and not out.lower().endswith(".json") else None
    kw = {"matches": count} if args.matches is not None else {"deals": count}
    t0 = time.perf_counter()
    res = cardsim.simulate(game, seed=args.seed, agents=agents, workers=args.workers, backend=args.backend,
                           address=args.address, chunk_size=args.chunk_size, progress=progress,
                           keep_table=False, out=table_out, lead_changes=args.lead_changes, **kw)
    elapsed = time.perf_counter() - t0
    if out and out.lower().endswith(".json"):
        res.to_json(out)
    if args.summary_json:
        res.to_json(args.summary_json)
    s = res.summary()
    if args.json:
        print(json.dumps(s, indent=2))
    else:
        print_summary(s, elapsed)
        if out:
            print(f"  written: {out}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim report

def _report_parser(sub):
    rp = sub.add_parser("report", help="HTML report with PNG plots from a saved run")
    rp.add_argument("results", help=".parquet, .csv or .json (summary) file")
    rp.add_argument("--out", default="report.html")
    rp.set_defaults(func=cmd_report)


def cmd_report(args) -> int:
    from cardsim.report import write_report

    path = write_report(args.results, args.out)
    print(f"report written: {path}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim compare

def _compare_parser(sub):
    cp = sub.add_parser("compare", help="difference between two saved runs, with CIs and p-values")
    cp.add_argument("a")
    cp.add_argument("b")
    cp.add_argument("--json", action="store_true")
    cp.set_defaults(func=cmd_compare)


def _print_compare(c: dict):
    from cardsim.report import fmt, fmt_p, plural

    print(f"compare ({c['method']}): B - A", )
    for side in ("a", "b"):
        x = c[side]
        print(f"  {side.upper()}: {x.get('game')} {x.get('deals')} {plural(x.get('unit') or 'deal')} seed {x.get('seed')} "
              f"agents {x.get('agents')}")
    for x in c["seats"]:
        m, w = x["mean"], x["win_rate"]
        print(f"  seat {x['seat']}: mean return {fmt(m['diff'])} {_ci(m['ci95'])} p={fmt_p(m['p_value'])}   "
              f"win rate {fmt(w['diff'])} {_ci(w['ci95'])} p={fmt_p(w['p_value'])}")
    d = c["draws"]
    print(f"  draws: {fmt(d['diff'])} {_ci(d['ci95'])} p={fmt_p(d['p_value'])}")
    for k, v in list(c["duration"].items()) + list(c["metrics"].items()):
        print(f"  {k}: {fmt(v['diff'])} {_ci(v['ci95'])} p={fmt_p(v['p_value'])}")


def cmd_compare(args) -> int:
    c = cardsim.compare(args.a, args.b)
    if args.json:
        print(json.dumps(c, indent=2))
    else:
        _print_compare(c)
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim skill

def _skill_parser(sub):
    kp = sub.add_parser("skill", help="gain of a stronger agent over a weaker one, per seat")
    _add_game_args(kp)
    kp.add_argument("--deals", type=int, default=10_000)
    kp.add_argument("--strong", default="greedy")
    kp.add_argument("--weak", default="random")
    kp.set_defaults(func=cmd_skill)


def cmd_skill(args) -> int:
    sk = cardsim.skill(args.game, deals=args.deals, seed=args.seed, strong=args.strong, weak=args.weak,
                       workers=args.workers, backend=args.backend, address=args.address,
                       chunk_size=args.chunk_size, **_game_opts(args))
    if args.json:
        print(json.dumps(sk, indent=2))
    else:
        from cardsim.report import fmt, fmt_p

        print(f"{sk['game']}: skill of {sk['strong']} over {sk['weak']}, {sk['deals']} deals, seed {sk['seed']}")
        for x in sk["seats"]:
            print(f"  seat {x['seat']}: return gain {fmt(x['gain'])} {_ci(x['ci95'])} p={fmt_p(x['p_value'])}"
                  f"  ({fmt(x['gain_sd'])} sd)   win-rate gain {fmt(x['win_gain'])} {_ci(x['win_ci95'])}")
        print(f"  mean gain {fmt(sk['mean_gain_sd'])} sd; gap between seats {fmt(sk['seat_skill_gap'])} sd")
    return 0


# ---------------------------------------------------------------------------------------------
# the command table and entry point: one line per subcommand, in --help order

COMMANDS = (
    _games_parser,
    _simulate_parser,
    _report_parser,
    _compare_parser,
    _skill_parser,
)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="cardsim", description=cardsim.__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for add in COMMANDS:
        add(sub)
    return ap


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CardsimError as e:
        print(f"cardsim: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"cardsim: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
