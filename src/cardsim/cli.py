"""The `cardsim` command line: list games, run a seeded simulation and print its summary."""
from __future__ import annotations

import argparse
import ast
import json
import sys
import time

import cardsim
from cardsim.errors import CardsimError


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


def _print_summary(s: dict, elapsed: float):
    print(f"{s['game']}: {s['deals']} deals, seed {s['seed']}, agents {s['agents']}  ({elapsed:.2f} s)")
    for seat in s["seats"]:
        lo, hi = seat["ci95"]
        print(f"  seat {seat['seat']}: mean return {seat['mean']:+.3f}  95% CI [{lo:+.3f}, {hi:+.3f}]  "
              f"win rate {seat['win_rate']:.3f}")
    print(f"  actions per deal: {s['actions_mean']:.1f}")
    for k, v in s.get("metrics", {}).items():
        print(f"  mean {k}: {v:.3f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cardsim", description=cardsim.__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("games", help="list the registered games and their options")
    sp = sub.add_parser("simulate", help="run seeded deals and print a summary")
    sp.add_argument("game")
    sp.add_argument("--deals", type=int, default=10_000)
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--agents", default="random", help="comma-separated, one per seat, or one for all")
    sp.add_argument("--workers", type=int, default=None)
    sp.add_argument("--players", type=int, default=None)
    sp.add_argument("--variant", default=None)
    sp.add_argument("--option", "-o", action="append", help="NAME=VALUE (repeatable)")
    sp.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "games":
            for name in cardsim.GAMES:
                mod = cardsim.game.game_module(name)
                print(f"{name}  (players {', '.join(map(str, mod.PLAYERS))})")
                for o in mod.OPTIONS:
                    allowed = f" one of {list(o.choices)}" if o.choices else ""
                    print(f"    {o.name} = {o.default!r}{allowed}  {o.doc}")
                if mod.PRESETS:
                    print(f"    variants: {', '.join(mod.PRESETS)}")
            return 0
        opts = _options(args.option)
        if args.players is not None:
            opts["players"] = args.players
        if args.variant is not None:
            opts["variant"] = args.variant
        game = cardsim.make(args.game, **opts)
        agents = args.agents.split(",")
        if len(agents) == 1:
            agents = agents * game.num_players
        t0 = time.perf_counter()
        res = cardsim.simulate(game, deals=args.deals, seed=args.seed, agents=agents, workers=args.workers)
        elapsed = time.perf_counter() - t0
        s = res.summary()
        if args.json:
            print(json.dumps(s, indent=2, default=float))
        else:
            _print_summary(s, elapsed)
        return 0
    except CardsimError as e:
        print(f"cardsim: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
