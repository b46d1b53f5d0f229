"""The `cardsim` command line.

    cardsim games [GAME]                              list games; one game's options, variants and rules page
    cardsim simulate GAME [--deals N | --matches N] [--seed S] [--agents greedy,random,...]
                     [--variant V] [--players P] [-o NAME=VALUE ...] [--workers W]
                     [--backend threads|dask] [--address tcp://host:8786] [--chunk-size C]
                     [--out results.parquet|.csv|.json] [--summary-json s.json] [--lead-changes]
                     [--progress | --no-progress] [--json]
    cardsim report RESULTS --out report.html          HTML page with PNG plots (from .parquet/.csv/.json)
    cardsim compare A B [--json] [--out compare.html] difference B - A of two saved runs of one game
    cardsim sweep GAME --variant V1,V2,... | --values NAME=V1,V2,...   configurations on the same deals
    cardsim skill GAME [--deals N] [--strong greedy] [--weak random] ...
    cardsim replay GAME [--seed S] [--deal D] [--agents ...] [--seat P] [--html FILE]
                                                      a seeded deal move by move
    cardsim play GAME [--seat P] [--agents ...] [--seed S]   play one seat in the terminal
    cardsim bench [GAME ...] [--deals N]              deals/s on 1 and all cores, ratio to the C reference
    cardsim glossary / cardsim rules GAME             the glossary / a game's rules page (installed with cardsim)

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
import os
import re
import signal
import sys
import time

import cardsim
from cardsim import docpages
from cardsim.errors import CardsimError, short
from cardsim.results_io import Terminated
from cardsim.runner import DEFAULT_DEALS


# ---------------------------------------------------------------------------------------------
# shared helpers

def _parse_value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


U64_MAX = 2**64 - 1


def _u64(what: str):
    """An argparse type: a whole number in 0..2**64-1 written in ASCII digits (every seed and
    deal index of the engine; no sign, underscore, exponent or other script's digits)."""
    def parse(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[0-9]+", t) or int(t) > U64_MAX:
            shown = t if len(t) <= 40 else t[:37] + "..."
            raise argparse.ArgumentTypeError(f"{what} must be a whole number in 0..{U64_MAX} (2**64-1), "
                                             f"got {short(shown)}")
        return int(t)

    parse.__name__ = what          # argparse names the type in its messages
    return parse


SEED = _u64("seed")
DEAL = _u64("deal")


def _options(pairs):
    out = {}
    for kv in pairs or []:
        if "=" not in kv:
            raise CardsimError(f"--option takes NAME=VALUE, got {_cut(kv)}")
        k, v = kv.split("=", 1)
        out[k.strip()] = _parse_value(v.strip())
    return out


def _cut(text, limit: int = 200) -> str:
    """repr of text cut to `limit` characters: an error message never echoes a long input."""
    r = repr(text)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def _ci(ci) -> str:
    from cardsim.report import fmt_ci

    return fmt_ci(ci)


def print_summary(s: dict, elapsed: float | None = None, file=None):
    """The run's Summary as text (verdict first; see cardsim.analysis.summary)."""
    from cardsim.analysis.summary import as_summary

    file = file or sys.stdout
    print(as_summary(s), file=file)
    if elapsed is not None:
        print(f"({elapsed:.2f} s)", file=file)


class _Help(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples in each subcommand's epilog as written."""


def _sub(sub, name, help, examples, description=None):
    """A subparser with its one-line help, a description and an 'examples' epilog."""
    return sub.add_parser(name, help=help, description=description or help[0].upper() + help[1:] + ".",
                          epilog="examples:\n" + "\n".join("  " + e for e in examples),
                          formatter_class=_Help)


def _add_game_arg(sp):
    sp.add_argument("game", help="a registered game (list: cardsim games; rules: cardsim rules GAME)")


def _add_options_args(sp):
    sp.add_argument("--players", type=int, default=None, help="number of players (default: the game's default)")
    sp.add_argument("--variant", default=None, help="a preset rule set, e.g. basra's yemeni (default: none)")
    sp.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                    help="set a rule option, repeatable (default: the game's defaults; see cardsim games)")


def _add_game_args(sp):
    _add_game_arg(sp)
    sp.add_argument("--seed", type=SEED, default=0, help="seed of the deal stream, 0..2**64-1 (default: 0)")
    sp.add_argument("--workers", type=int, default=None,
                    help="threads, or Dask LocalCluster workers (default: all cores)")
    _add_options_args(sp)
    sp.add_argument("--backend", choices=("threads", "dask"), default="threads",
                    help="where deals run (default: threads)")
    sp.add_argument("--address", default=None, help="Dask scheduler address (default: a LocalCluster)")
    sp.add_argument("--chunk-size", type=int, default=None, help="deals per task (default: chosen from the run size)")
    sp.add_argument("--json", action="store_true", help="print the result as JSON (default: a readable summary)")


def _add_quiet(sp):
    sp.add_argument("--quiet", "-q", action="store_true",
                    help="no progress bar (default: a bar with ETA on a terminal once the run has lasted 2 s)")


def _show_progress(args):
    """"auto" (a bar once the command has run 2 s) on a terminal unless --quiet; else False."""
    return "auto" if not getattr(args, "quiet", False) and sys.stderr.isatty() else False


def _check_new_file(path, force: bool):
    """Before any work: refuse to replace an existing file unless --force was given, and refuse a
    destination that cannot be written (missing or read-only folder, a folder as the file)."""
    from cardsim.results_io import check_destination

    if not path:
        return
    if os.path.exists(path) and not os.path.isdir(path) and not force:
        raise CardsimError(f"{_cut(str(path))} exists; pass --force to replace it, or choose another file name")
    check_destination(path)


def _agent_names(game, text: str) -> list[str]:
    """--agents: one spec for every seat or one per seat (grammar in cardsim.agents); unknown
    names or parameters are named in the error."""
    from cardsim.agents import resolve_agents

    return [a.text for a in resolve_agents(game.num_players, text, game.name)]


def rules_doc(game: str) -> str:
    """How to read a game's rules page: the command that prints the copy installed with the package
    (docs/rules/<game>.md in the repository; cardsim.docpages)."""
    cardsim.game.game_info(game)           # an unknown game raises ConfigError
    return f"cardsim rules {game}"


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
    sp = _sub(sub, "games", "list the registered games, or one game's options, variants and rules page",
              ["cardsim games", "cardsim games basra"])
    sp.add_argument("game", nargs="?", default=None, help="one game to describe in full (default: list them all)")
    sp.set_defaults(func=cmd_games)


def cmd_games(args) -> int:
    if getattr(args, "game", None) is not None:
        print(cardsim.game.game_info(args.game).describe())
        return 0
    for name in cardsim.GAMES:
        info = cardsim.game.game_info(name)
        print(f"{name}  (players {', '.join(map(str, info.players))})  rules: {rules_doc(name)}")
        for o in info.options:
            allowed = f" one of {list(o.choices)}" if o.choices else ""
            print(f"    {o.name} = {o.default!r}{allowed}  {o.doc}")
        if info.presets:
            print(f"    variants: {', '.join(info.presets)}")
    print("(one game in full: cardsim games GAME)")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim simulate

def _simulate_parser(sub):
    sp = _sub(sub, "simulate", "run seeded deals and print a summary",
              ["cardsim simulate joffre_whist --deals 100000 --seed 1",
               "cardsim simulate basra --variant yemeni --deals 1000000 --out y.parquet",
               "cardsim simulate joffre_whist --agents greedy,random,greedy,random --out g.parquet",
               "cardsim simulate zhao_pengyou --players 8 --matches 2000 --lead-changes --json",
               "cardsim simulate gleek -o stock_raise=plus_one --deals 50000"])
    _add_game_args(sp)
    n = sp.add_mutually_exclusive_group()
    n.add_argument("--deals", type=int, default=None, help=f"number of deals (default: {DEFAULT_DEALS})")
    n.add_argument("--matches", type=int, default=None,
                   help="number of whole matches instead of deals (scope='match'; default: deals)")
    sp.add_argument("--agents", default=None,
                    help="comma-separated agent per seat, or one for all: random, greedy, first, "
                         "ismcts[:iterations=N,c=X,rollout=random|greedy,reward=rank|points], "
                         "pimc[:iterations=N,worlds=K,rollout=...,reward=...] (default: greedy, the "
                         "documented heuristic, at every seat)")
    sp.add_argument("--out", default=None,
                    help="write the table (.parquet/.csv, streamed) or the summary (.json) (default: nothing written)")
    sp.add_argument("--summary-json", default=None, help="also write the summary as JSON (default: no)")
    sp.add_argument("--force", action="store_true",
                    help="replace --out / --summary-json files that exist (default: refuse)")
    sp.add_argument("--lead-changes", action="store_true",
                    help="count lead changes of the game's running standing (State.standing), kernel-side (default: off)")
    sp.add_argument("--progress", dest="progress", action="store_true", default=None,
                    help="show a progress bar even when stderr is not a terminal (default: on a terminal, once "
                         "the run has lasted 2 s)")
    sp.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")
    _add_quiet(sp)
    sp.set_defaults(func=cmd_simulate)


def cmd_simulate(args) -> int:
    if args.matches is not None and _options(args.option).get("scope", "match") != "match":
        raise CardsimError("--matches plays whole matches, but -o scope=deal asks for single deals: "
                           "drop -o scope=deal, or use --deals")
    game = cardsim.make(args.game, **_game_opts(args))
    agents = _agent_names(game, args.agents) if args.agents is not None else None
    for path in (args.out, args.summary_json):
        _check_new_file(path, args.force)
    count = args.matches if args.matches is not None else (args.deals if args.deals is not None else DEFAULT_DEALS)
    progress = args.progress if args.progress is not None else _show_progress(args)
    out = args.out
    kw = {"matches": count} if args.matches is not None else {"deals": count}
    t0 = time.perf_counter()
    # --out is reserved before the first deal and renamed into place when the run completes (a
    # .json --out is the summary); Ctrl-C keeps the rows as NAME.partial.EXT (main prints one line)
    res = cardsim.simulate(game, seed=args.seed, agents=agents, workers=args.workers, backend=args.backend,
                           address=args.address, chunk_size=args.chunk_size, progress=progress,
                           keep_table=False, out=out, lead_changes=args.lead_changes, **kw)
    elapsed = time.perf_counter() - t0
    if args.summary_json:
        res.to_json(args.summary_json)
    s = res.summary()
    if args.json:
        print(s.to_json())
    else:
        print_summary(s, elapsed)
        if out:
            print(f"written: {out}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim report

def _report_parser(sub):
    rp = _sub(sub, "report", "HTML report with PNG plots from a saved run",
              ["cardsim report y.parquet --out report.html",
               "cardsim report y.parquet --out report.html --force     # replace an existing report"])
    rp.add_argument("results", help="a saved run: .parquet, .csv or .json (summary) file")
    rp.add_argument("--out", default="report.html", help="the HTML file to write (default: report.html)")
    rp.add_argument("--force", action="store_true", help="replace --out if it exists (default: refuse)")
    rp.add_argument("--partial", action="store_true",
                    help="report the rows of an interrupted run (NAME.partial.EXT), flagged as incomplete "
                         "(default: refuse them)")
    rp.set_defaults(func=cmd_report)


def cmd_report(args) -> int:
    from cardsim.report import write_report

    _check_new_file(args.out, args.force)
    path = write_report(args.results, args.out, partial=args.partial)
    print(f"report written: {path}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim compare

def _compare_parser(sub):
    cp = _sub(sub, "compare", "difference B - A between two saved runs of one game, with CIs and p-values",
              ["cardsim compare egyptian.parquet yemeni.parquet --out compare.html",
               "cardsim compare a.parquet b.parquet --json"],
              description="Difference B - A between two saved runs of one game (variants, options, agents). "
                          "Runs of the same seed and deals are paired deal by deal; others are compared as "
                          "independent samples, with a warning; runs of different games are refused.")
    cp.add_argument("a", help="run A: a .parquet, .csv or .json file written by simulate --out")
    cp.add_argument("b", help="run B: same kinds as A")
    cp.add_argument("--json", action="store_true", help="print the comparison as JSON (default: readable lines)")
    cp.add_argument("--out", default=None, help="also write an HTML page with side-by-side plots (default: none)")
    cp.add_argument("--force", action="store_true", help="replace --out if it exists (default: refuse)")
    _add_quiet(cp)
    cp.set_defaults(func=cmd_compare)


def cmd_compare(args) -> int:
    from cardsim.analysis.compare import compare_text

    _check_new_file(args.out, args.force)
    c = cardsim.compare(args.a, args.b, progress=_show_progress(args))
    if args.out:
        from cardsim.report import write_compare_report

        write_compare_report(c, args.a, args.b, args.out)
    if args.json:
        print(json.dumps(c, indent=2))
    else:
        print(compare_text(c))
        if args.out:
            print(f"comparison page written: {args.out}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim sweep

def _sweep_parser(sub):
    wp = _sub(sub, "sweep", "several variants or values of one option on the same deals, side by side",
              ["cardsim sweep basra --variant egyptian,yemeni,syrian --deals 100000 --out sweep.html",
               "cardsim sweep basra --values majority_points=0,30,60 --deals 50000",
               "cardsim sweep basra --values target=51,101,151 -o scope=match --deals 2000   # matches"])
    _add_game_args(wp)
    wp.add_argument("--deals", type=int, default=DEFAULT_DEALS, help=f"deals per configuration (default: {DEFAULT_DEALS})")
    wp.add_argument("--agents", default=None, help="comma-separated agent per seat, or one for all (default: greedy)")
    wp.add_argument("--values", default=None, metavar="NAME=V1,V2,...",
                    help="sweep one option over these values (instead of --variant V1,V2,...)")
    wp.add_argument("--out", default=None, help="also write an HTML page (default: none)")
    wp.add_argument("--force", action="store_true", help="replace --out if it exists (default: refuse)")
    _add_quiet(wp)
    wp.set_defaults(func=cmd_sweep)


def cmd_sweep(args) -> int:
    _check_new_file(args.out, args.force)
    opts = _options(args.option)
    if args.players is not None:
        opts["players"] = args.players
    if (args.variant is None) == (args.values is None):
        raise CardsimError("sweep: give --variant V1,V2,... or --values NAME=V1,V2,... (one of the two)")
    if args.values is not None:
        name, eq, vals = args.values.partition("=")
        if not eq or not name.strip():
            raise CardsimError(f"--values takes NAME=V1,V2,..., got {_cut(args.values, 60)}")
        kw = {"option": name.strip(), "values": [_parse_value(v.strip()) for v in vals.split(",") if v.strip()]}
    else:
        kw = {"variants": [v.strip() for v in args.variant.split(",") if v.strip()]}
    agents = _agent_names(cardsim.make(args.game, **opts), args.agents) if args.agents is not None else None
    sw = cardsim.sweep(args.game, deals=args.deals, seed=args.seed, agents=agents, workers=args.workers,
                       backend=args.backend, address=args.address, chunk_size=args.chunk_size,
                       progress=_show_progress(args), **kw, **opts)
    if args.out:
        from cardsim.report import write_sweep_report

        write_sweep_report(sw, args.out)
    if args.json:
        print(json.dumps(sw.to_dict(), indent=2))
    else:
        print(sw)
        if args.out:
            print(f"sweep page written: {args.out}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim skill

def _skill_parser(sub):
    kp = _sub(sub, "skill", "gain of a stronger agent over a weaker one, per seat",
              ["cardsim skill gleek --deals 100000 --strong greedy --weak random",
               "cardsim skill karnoffel --players 6 --json"])
    _add_game_args(kp)
    kp.add_argument("--deals", type=int, default=DEFAULT_DEALS, help=f"deals per comparison (default: {DEFAULT_DEALS})")
    kp.add_argument("--strong", default="greedy", help="the stronger agent (default: greedy)")
    kp.add_argument("--weak", default="random", help="the weaker agent (default: random)")
    _add_quiet(kp)
    kp.set_defaults(func=cmd_skill)


def cmd_skill(args) -> int:
    sk = cardsim.skill(args.game, deals=args.deals, seed=args.seed, strong=args.strong, weak=args.weak,
                       workers=args.workers, backend=args.backend, address=args.address,
                       chunk_size=args.chunk_size, progress=_show_progress(args), **_game_opts(args))
    if args.json:
        print(json.dumps(sk, indent=2))
    else:
        from cardsim.analysis.summary import fmt, p_text

        print(f"{sk['game']}: skill of {sk['strong']} over {sk['weak']}, {sk['deals']} deals, seed {sk['seed']}")
        for x in sk["seats"]:
            print(f"  seat {x['seat']}: return gain {fmt(x['gain'])} {_ci(x['ci95'])} {p_text(x['p_value'])}"
                  f"  ({fmt(x['gain_sd'])} sd)   win-rate gain {fmt(x['win_gain'])} {_ci(x['win_ci95'])}")
        print(f"  mean gain {fmt(sk['mean_gain_sd'])} sd; gap between seats {fmt(sk['seat_skill_gap'])} sd")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim replay

def _replay_parser(sub):
    sp = _sub(sub, "replay", "follow one seeded deal move by move: hands, auction, tricks or captures, score",
              ["cardsim replay joffre_whist --seed 1 --deal 0",
               "cardsim replay basra --seed 1 --deal 0 --seat 0      # only what seat 0 sees",
               "cardsim replay zhao_pengyou --players 7 --agents random --deal 3",
               "cardsim replay gleek --seed 2 --deal 5 --html deal.html"],
              description="Print deal D of seed S as a person at the table would follow it. The moves are "
                          "exactly those `cardsim simulate` plays in that deal with the same agents.")
    _add_game_arg(sp)
    sp.add_argument("--seed", type=SEED, default=0, help="seed of the deal stream, 0..2**64-1 (default: 0)")
    sp.add_argument("--deal", type=DEAL, default=0, help="which deal of the seed, 0..2**64-1 (default: 0)")
    sp.add_argument("--agents", default="greedy",
                    help="comma-separated agent per seat, or one for all: random, greedy, first, ismcts[:iterations=N,c=X,rollout=random|greedy], pimc[:iterations=N,worlds=K,rollout=...] (default: greedy)")
    sp.add_argument("--seat", type=int, default=None,
                    help="show only what this seat sees: its own hand and the public moves (default: everything)")
    _add_options_args(sp)
    sp.add_argument("--html", default=None, metavar="FILE", help="also write the deal as a web page: the table step by step, buttons and arrow keys, "
                         "self-contained (default: no)")
    sp.add_argument("--force", action="store_true", help="replace the --html file if it exists (default: refuse)")
    sp.add_argument("--ascii", action="store_true",
                    help="suit letters instead of the symbols ♠♥♦♣ (default: symbols when the terminal can show them)")
    sp.set_defaults(func=cmd_replay)


def cmd_replay(args) -> int:
    from cardsim.replay import replay_lines, symbols_supported
    from cardsim.replay_html import render
    from cardsim.results_io import write_text_atomic

    game = cardsim.make(args.game, **_game_opts(args))
    _check_new_file(args.html, args.force)
    sym = not args.ascii and symbols_supported(sys.stdout)
    lines = replay_lines(game, seed=args.seed, deal=args.deal, agents=args.agents, seat=args.seat, symbols=sym)
    for line in lines:
        print(line)
    if args.html:
        write_text_atomic(args.html, render(game, seed=args.seed, deal=args.deal, agents=args.agents, seat=args.seat))
        print(f"written: {args.html}")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim play

def _play_parser(sub):
    sp = _sub(sub, "play", "play one seat of a deal in the terminal against the engine's agents",
              ["cardsim play karnoffel", "cardsim play joffre_whist --seat 2 --agents greedy",
               "cardsim play zhao_pengyou --players 5 --seed 7     # type a pair as: AS AS"],
              description="You play one seat; the other seats are played by agents. At the prompt type a "
                          "listed move (AS, 10H, PASS, BID 3D, TAKE 7C, ...), several cards for one play "
                          "(AS AS KS), or: hint, undo, moves, help, quit.")
    _add_game_arg(sp)
    sp.add_argument("--seat", type=int, default=0, help="the seat you play (default: 0)")
    sp.add_argument("--agents", default="greedy",
                    help="the other seats' agents, one for all or one per seat (your own entry is ignored): "
                         "random, greedy, first, ismcts[:...], pimc[:...] (default: greedy)")
    sp.add_argument("--seed", type=SEED, default=None,
                    help="seed of the deal, 0..2**64-1 (default: a new random seed, printed)")
    sp.add_argument("--deal", type=DEAL, default=0, help="which deal of the seed, 0..2**64-1 (default: 0)")
    _add_options_args(sp)
    sp.add_argument("--ascii", action="store_true",
                    help="suit letters instead of the symbols ♠♥♦♣ (default: symbols when the terminal can show them)")
    sp.set_defaults(func=cmd_play)


def cmd_play(args) -> int:
    import random

    from cardsim.play import Session
    from cardsim.replay import symbols_supported

    game = cardsim.make(args.game, **_game_opts(args))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    sess = Session(game, seat=args.seat, agents=args.agents, seed=seed, deal=args.deal,
                   symbols=not args.ascii and symbols_supported(sys.stdout))
    sess.run()
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim bench

def _bench_parser(sub):
    sp = _sub(sub, "bench", "deals/s per game on 1 core and all cores, with the ratio to the C reference loop",
              ["cardsim bench", "cardsim bench joffre_whist karnoffel --deals 50000",
               "cardsim bench basra --agents greedy --json"],
              description="A standard table for comparing machines and builds: deals/s of each game's batch "
                          "kernel on one core and of simulate() on all cores, and the ratio to the C reference "
                          "loop (bench/reference/trick_limit.c, gcc -O2, with -mpopcnt where the engine was "
                          "built with it) measured in the same run.")
    sp.add_argument("games", nargs="*", metavar="GAME", help="games to measure (default: all)")
    sp.add_argument("--deals", type=int, default=20_000, help="deals per timed round and core (default: 20000)")
    sp.add_argument("--rounds", type=int, default=3, help="timed rounds, the median is shown (default: 3)")
    sp.add_argument("--workers", type=int, default=None, help="threads for the all-cores column (default: all cores)")
    sp.add_argument("--agents", default="random", help="the agent on every seat (default: random)")
    sp.add_argument("--reference", default=None, metavar="FILE",
                    help="the reference C source (default: bench/reference/trick_limit.c of the checkout)")
    sp.add_argument("--json", action="store_true", help="print the figures as JSON (default: a table)")
    sp.set_defaults(func=cmd_bench)


def cmd_bench(args) -> int:
    from cardsim.bench import run

    if args.json:
        res = run(args.games, deals=args.deals, rounds=args.rounds, workers=args.workers, agents=args.agents,
                  reference=args.reference, out=lambda *_: None)
        print(json.dumps(res, indent=2))
    else:
        run(args.games, deals=args.deals, rounds=args.rounds, workers=args.workers, agents=args.agents,
            reference=args.reference)
    return 0


def _tournament_parser(sub):
    sp = sub.add_parser(
        "tournament", help="strength table: search agents against greedy, seats rotated, paired by deal",
        description="Each agent plays every seat in turn against the baseline at the other seats; the "
                    "figure is its mean return minus the baseline's at the same seat in the same deal, "
                    "with a 95%% confidence interval over deals (game points; see docs/strength.md).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  cardsim tournament karnoffel --deals 300\n"
               "  cardsim tournament basra gleek --agents ismcts:iterations=500,rollout=greedy pimc:worlds=20\n"
               "  cardsim tournament gleek --agents ismcts:iterations=2000,rollout=greedy,reward=points,greedy_in=auction+vie\n"
               "  cardsim tournament --all --out strength.md")
    sp.add_argument("games", nargs="*", metavar="GAME", help="games to measure (default with --all: every game)")
    sp.add_argument("--all", action="store_true", help="every game (default: only the games named)")
    sp.add_argument("--agents", nargs="+", default=None, metavar="SPEC",
                    help="agent specs to measure, or policy:PATH.npz for a learned policy (a Python agent; "
                         "examples/train_ppo.py); a search spec may add greedy_in=PHASE+PHASE to play the "
                         "game's greedy move in those phases (e.g. gleek: greedy_in=auction+vie) "
                         "(default: ismcts:iterations=200 and ismcts:iterations=2000 "
                         "and pimc:iterations=2000,worlds=20, all with rollout=greedy,reward=points)")
    sp.add_argument("--baseline", default="greedy", help="the opponents' agent (default: greedy)")
    sp.add_argument("--deals", type=int, default=200, help="deals per seat rotation (default: 200)")
    sp.add_argument("--seed", type=SEED, default=0, help="seed of the deals, 0..2**64-1 (default: 0)")
    sp.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    sp.add_argument("--out", default=None, metavar="FILE.md", help="also write the table to this Markdown file")
    sp.add_argument("--force", action="store_true", help="replace --out if it exists (default: refuse)")
    _add_quiet(sp)
    sp.set_defaults(func=cmd_tournament)


def cmd_tournament(args) -> int:
    from cardsim import tournament
    from cardsim.results_io import write_text_atomic

    if not args.games and not args.all:
        raise CardsimError("name one or more games, or pass --all")
    if args.deals < 2:
        raise CardsimError(f"--deals must be at least 2, got {args.deals}")
    _check_new_file(args.out, args.force)
    agents = args.agents or list(tournament.DEFAULT_BUDGETS)
    rows = tournament.run(None if args.all else args.games, agents, baseline=args.baseline, deals=args.deals,
                          seed=args.seed, workers=args.workers, bar=_show_progress(args),
                          progress=lambda r: print(f"{r['game']:>13}  {r['agent']:<40} {r['mean_diff']:+.3f} "
                                                   f"[{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]  {r['verdict']} "
                                                   f"({r['seconds']:.0f} s)", flush=True))
    text = tournament.table(rows)
    print(text)
    if args.out:
        write_text_atomic(args.out, f"Command: `cardsim tournament {' '.join(args.games) or '--all'} --deals {args.deals} "
                                    f"--seed {args.seed} --agents {' '.join(agents)}`\n\n{text}\n")
    return 0


# ---------------------------------------------------------------------------------------------
# cardsim sort-tiles (alias tien-gow-sort)

def _sort_tiles_parser(sub):
    sp = sub.add_parser("sort-tiles", aliases=["tien-gow-sort"], formatter_class=_Help,
                        help="the Tien Gow tile-sorting contest, timed",
                        description="Deal a shuffled 32-tile Tien Gow set from --seed, print it, then the civil and "
                                    "military rows sorted by the engine (strongest first, equal tiles adjacent, '|' "
                                    "between strength levels) and the time the engine took.",
                        epilog="examples:\n  cardsim sort-tiles --seed 7\n  cardsim tien-gow-sort")
    sp.add_argument("--seed", type=SEED, default=0, help="seed of the shuffle, 0..2**64-1 (default: 0)")
    sp.set_defaults(func=cmd_sort_tiles)


def cmd_sort_tiles(args) -> int:
    from cardsim.games import tien_gow as tg

    tiles = tg.shuffled_set(args.seed)
    rows, took = tg.timed_sort(tiles)
    print(f"shuffled (seed {args.seed}): {' '.join(tiles)}")
    for name in ("civil", "military"):
        row, out = rows[name], []
        for i, t in enumerate(row):
            if i and tg.trick_winner([[t], [row[i - 1]]]) == 1:   # the previous tile is stronger
                out.append("|")
            out.append(t)
        print(f"{name + ':':10}{' '.join(out)}")
    print(f"sorted by the engine in {took * 1e6:.1f} µs (the contest's best human time: 60 s)")
    return 0


# ---------------------------------------------------------------------------------------------
# the command table and entry point: one line per subcommand, in --help order

from cardsim.atlas_site import atlas_parser as _atlas_parser, tune_parser as _tune_parser  # noqa: E402 - atlas, tune

COMMANDS = (
    _games_parser,
    _simulate_parser,
    _report_parser,
    _compare_parser,
    _sweep_parser,
    _skill_parser,
    _replay_parser,
    _play_parser,
    _bench_parser,
    _sort_tiles_parser,
    _tournament_parser,
    docpages.glossary_parser,
    docpages.rules_parser,
    _atlas_parser,
    _tune_parser,
)


def _version() -> str:
    from cardsim.result import cardsim_version

    v = cardsim_version()
    return cardsim.__version__ if v == "unknown" else v


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="cardsim", description=cardsim.__doc__)
    ap.add_argument("--version", action="version", version=f"cardsim {_version()}")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for add in COMMANDS:
        add(sub)
    return ap


def _stdout_closed() -> int:
    """The reader of stdout went away (`cardsim ... | head -1`): stop quietly, as a command killed
    by SIGPIPE does (Python docs, "Note on SIGPIPE"): point stdout at devnull so the flush at exit
    cannot fail again, and exit 141 (128 + SIGPIPE, what the shell reports for such a command)."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):     # stdout replaced by an object without a file
        pass
    return 141


def _on_sigterm(signum, frame):
    """SIGTERM (`kill PID`, a job scheduler's stop) raises Terminated, a KeyboardInterrupt, so
    every write in progress is cleaned up on the way out (temporary files removed; simulate keeps
    the rows of an interrupted run as NAME.partial.EXT, as for Ctrl-C); the command exits 143."""
    raise Terminated("terminated (SIGTERM)")


_on_sigterm.cardsim_deferrable = True    # simulate() may defer it to the end of a chunk, as Ctrl-C


def _install_sigterm():
    """SIGTERM raises Terminated in the main thread (over the default handler only, which would
    kill the process without cleaning up); returns the previous handler, or None if unchanged."""
    import threading

    if not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return None
    return signal.signal(signal.SIGTERM, _on_sigterm)


def _interrupted(e: BaseException, exiting: bool = False) -> int:
    """One clear line for Ctrl-C or SIGTERM at any moment (even before the command started, or a
    second Ctrl-C while the first is handled), and the exit status a shell expects: 130 for
    SIGINT, 143 for SIGTERM. `exiting` (the process runs as the `cardsim` program): further
    Ctrl-Cs stay ignored until the process has exited, so a second one arriving while the
    interpreter shuts down cannot turn the exit status 130 into a death by SIGINT."""
    old = None
    try:                                  # a further Ctrl-C while this line is printed is ignored
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ValueError, OSError, AttributeError):
        pass
    term = isinstance(e, Terminated) or getattr(e, "signal", None) == "SIGTERM"
    text = str(e).strip() or ("terminated (SIGTERM)" if term else "interrupted")
    if not term and not text.startswith("interrupted"):
        text = f"interrupted: {text}"
    try:
        print(f"cardsim: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    finally:
        if old is not None and not exiting:
            try:
                signal.signal(signal.SIGINT, old)
            except (ValueError, OSError):
                pass
    return 143 if term else 130


def main(argv=None) -> int:
    old_term = None
    try:
        old_term = _install_sigterm()
        return _main(argv)
    except KeyboardInterrupt as e:        # before or after the command ran, or a second Ctrl-C
        return _interrupted(e, exiting=argv is None)
    finally:
        if old_term is not None:
            try:
                signal.signal(signal.SIGTERM, old_term)
            except (ValueError, OSError):
                pass


def _warnings_as_lines():
    """cardsim's warnings (an option with no effect, ...) as one `cardsim: warning: ...` line on
    stderr each, instead of Python's file:line form."""
    import contextlib
    import warnings

    @contextlib.contextmanager
    def ctx():
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            warnings.showwarning = lambda message, category, *a, **k: print(f"cardsim: warning: {message}",
                                                                            file=sys.stderr)
            yield

    return ctx()


def _main(argv=None) -> int:
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit:                       # --help and --version write to stdout, then exit
            sys.stdout.flush()
            raise
    except BrokenPipeError:
        return _stdout_closed()
    try:
        with _warnings_as_lines():
            code = args.func(args)
        sys.stdout.flush()              # a closed pipe shows up here, not in the flush at exit
        return code
    except BrokenPipeError:
        return _stdout_closed()
    except CardsimError as e:
        game = getattr(args, "game", None)
        hint = ""
        if isinstance(e, cardsim.ConfigError) and game in cardsim.GAMES and "unknown agent" not in str(e):
            hint = f" (options and rules: cardsim games, {rules_doc(game)})"
        print(f"cardsim: error: {e}{hint}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"cardsim: error: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:      # one line (simulate says how many rows it kept, and where)
        return _interrupted(e, exiting=argv is None)


if __name__ == "__main__":
    sys.exit(main())
