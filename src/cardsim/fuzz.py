"""Invariant fuzzer: play every game and configuration with random and greedy agents and check the
engine's contracts at every step. Finds the next defects before users do.

Two passes per game: the kernel pass (`cardsim.core._fuzz.fuzz_batch`: one nogil loop over the
vtable, millions of actions per second, for volume) and the API pass (the Python State API, every
check below, for depth).

    python -m cardsim.fuzz                         # every game, 60 s in all
    python -m cardsim.fuzz --games basra gleek --seconds 600 --seed 3
    python -m cardsim.fuzz --actions 10000000      # kernel pass: 10^7 actions per game

Configurations: for every game, each of its module's CONFORMANCE_CONFIGS (every preset, player
count and option the conformance suite covers). Deals cycle through the configurations; each seat
is played by `random` or `greedy` (the C agent's choice via `spec.greedy_action`), drawn per deal.

The contracts are those of `cardsim.contracts` (the conformance suite checks the same ones).
Checked at every step (cheap, `contracts.step`): the legal set is non-empty, ascending, unique and
inside the action space until the end; the seat to act is a seat; cards are conserved.
Checked on a sample of steps (every `--deep-every`, default 8; `contracts.deep`): the legal mask
agrees; action strings parse back; clone equality and independence; the observation's shape and
dtype for every seat; `resample(p)` for the seat to act keeps its observation, its hand and its
legal set, and the resampled world plays on to a terminal state; pickling; illegal actions raise
IllegalActionError and leave the state unchanged.
Checked at the end of every deal (`contracts.terminal`, `contracts.replay`): no seat to act,
returns finite, zero-sum where the game declares it, replaying the history on a fresh state
reproduces the final state byte for byte. The kernel pass checks the subset listed in
`contracts.KERNEL` in C.

On the first violation it prints one JSON line naming the game, options, seed, deal, the step and
the actions so far (a reproducer) and exits with status 1; otherwise it prints one summary line
per game (deals, actions, actions/s) and exits 0. In a checks build (`CARDSIM_CHECKS=ON`) bounds
checks and C asserts are on as well.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time

import numpy as np

from cardsim import contracts
from cardsim.core._fuzz import fuzz_batch
from cardsim.core._engine import check_int
from cardsim.errors import CardsimError, ConfigError
from cardsim.game import GAMES, check_seed, make


class Violation(Exception):
    pass


def _configs(name):
    return contracts.conformance_configs(name)


def fuzz_game(name, *, seconds=None, actions=None, seed=0, deep_every=8, max_steps=200_000, out=None):
    """Fuzz one game until `seconds` elapse or `actions` actions are played (whichever is given;
    both: the first reached). Returns a summary dict; raises Violation with a reproducer."""
    out = out or sys.stdout
    if seconds is None and actions is None:
        raise ConfigError("fuzz_game needs a budget: seconds= and/or actions=")
    seconds = None if seconds is None else check_seconds(seconds)
    actions = None if actions is None else check_actions(actions)
    seed = check_seed(seed)
    deep_every = check_int(deep_every, "deep_every", 1, 1_000_000, ConfigError)
    cfgs = _configs(name)
    games = [make(name, **c) for c in cfgs]
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    n_actions = n_deals = 0
    deal = 0
    while True:
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        if actions is not None and n_actions >= actions:
            break
        ci = deal % len(games)
        g, opts = games[ci], cfgs[ci]
        greedy = rng.random(g.num_players) < 0.5
        st = g.new_state(seed, deal)
        step = 0
        try:
            while not st.is_terminal():
                la = st.legal_actions()
                contracts.step(g, st, la)
                if step % deep_every == 0:
                    contracts.deep(g, st, la, rng, (seed + step) & U64_MAX)
                p = st.current_player
                a = g.spec.greedy_action(st, (seed + step) & U64_MAX) if greedy[p] else int(la[rng.integers(len(la))])
                st.apply(a)
                step += 1
                contracts.check(step < max_steps, f"deal did not end within {max_steps} actions")
            contracts.terminal(g, st)
            contracts.replay(g, st)
        except (CardsimError, AssertionError) as e:
            kind = "violation" if isinstance(e, contracts.ContractViolation) else type(e).__name__
            raise Violation(json.dumps({"game": name, "options": opts, "seed": seed, "deal": deal, "step": step,
                                        "error": f"{kind}: {e}", "history": st.history()})) from e
        n_actions += step
        n_deals += 1
        deal += 1
    dt = time.perf_counter() - t0
    summary = {"game": name, "configs": len(cfgs), "deals": n_deals, "actions": n_actions,
               "seconds": round(dt, 2), "actions_per_s": round(n_actions / dt) if dt > 0 else None}
    print(f"{name}: {n_deals:,} deals, {n_actions:,} actions in {dt:.1f} s "
          f"({summary['actions_per_s']:,} actions/s) over {len(cfgs)} configurations: no violation", file=out)
    return summary


def fuzz_kernel(name, *, actions, seed=0, deep_every=8, out=None):
    """Kernel pass: deals of every configuration, seats random or greedy by deal, until `actions`
    actions are played. Raises Violation naming the first broken contract."""
    out = out or sys.stdout
    actions = check_actions(actions)
    seed = check_seed(seed)
    deep_every = check_int(deep_every, "deep_every", 1, 1_000_000, ConfigError)
    cfgs = _configs(name)
    games = [make(name, **c) for c in cfgs]
    t0 = time.perf_counter()
    done = deals = resamples = rfail = 0
    chunk = 0
    while done < actions:
        ci = chunk % len(games)
        g = games[ci]
        mask = (chunk * 0x9E3779B1) & ((1 << g.num_players) - 1)
        r = fuzz_batch(g.spec, seed, chunk * 256, 256, greedy_mask=mask, deep_every=deep_every)
        if r["violation"]:
            raise Violation(json.dumps({"game": name, "options": cfgs[ci], "seed": seed, "deal": r["deal"],
                                        "step": r["step"], "greedy_mask": mask,
                                        "error": f"violation: {contracts.KERNEL[r['violation']]}",
                                        "history": r["history"]}))
        done += r["actions"]
        deals += r["deals"]
        resamples += r["resamples"]
        rfail += r["resample_failures"]
        chunk += 1
    dt = time.perf_counter() - t0
    print(f"{name} (kernel): {deals:,} deals, {done:,} actions in {dt:.1f} s ({done / dt:,.0f} actions/s), "
          f"{resamples:,} resamples ({rfail:,} reported no consistent world), {len(cfgs)} configurations: "
          f"no violation", file=out)
    return {"game": name, "deals": deals, "actions": done, "seconds": dt, "resamples": resamples,
            "resample_failures": rfail}


U64_MAX = 2**64 - 1
MAX_SECONDS = 7 * 24 * 3600          # a week: more is a typo, and nan/inf would never stop
MAX_ACTIONS = 10**12


def check_seconds(v, what: str = "seconds") -> float:
    """A time budget: a finite number of seconds in (0, MAX_SECONDS] (nan, inf, 0, negatives,
    bools and strings refused with ConfigError)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) \
            or not math.isfinite(v) or not 0 < v <= MAX_SECONDS:
        shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
        raise ConfigError(f"{what} must be a finite number of seconds in (0, {MAX_SECONDS}] (a week), got {shown}")
    return float(v)


def check_actions(v, what: str = "actions") -> int:
    """An action budget: an integer in 1..MAX_ACTIONS."""
    return check_int(v, what, 1, MAX_ACTIONS, ConfigError)


def _arg(check, what):
    """An argparse type from a validator: ConfigError -> argparse's own one-line error."""
    def parse(text):
        t = text.strip()
        try:
            if check is check_seconds:
                v = float(t) if re.fullmatch(r"[0-9]*\.?[0-9]+([eE][+-]?[0-9]+)?|[0-9]+\.", t) else t
            else:
                v = int(t) if re.fullmatch(r"[0-9]+", t) else t
            return check(v, what)
        except ConfigError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    parse.__name__ = what
    return parse


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m cardsim.fuzz", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="examples:\n  python -m cardsim.fuzz --seconds 120\n"
                                        "  python -m cardsim.fuzz --games basra --actions 10000000")
    ap.add_argument("--games", nargs="+", default=list(GAMES), metavar="GAME",
                    help=f"games to fuzz (default: all: {', '.join(GAMES)})")
    ap.add_argument("--seconds", type=_arg(check_seconds, "--seconds"), default=None,
                    help=f"time budget of the API pass for all games together, split evenly; a finite number "
                         f"in (0, {MAX_SECONDS}] (default: 60)")
    ap.add_argument("--actions", type=_arg(check_actions, "--actions"), default=100_000,
                    help=f"actions per game in the kernel pass, 1..{MAX_ACTIONS} (default: 100000)")
    ap.add_argument("--seed", type=_arg(lambda v, w: check_seed(v, w), "--seed"), default=0,
                    help="seed of the deals and agents, 0..2**64-1 (default: 0)")
    ap.add_argument("--deep-every", type=_arg(lambda v, w: check_int(v, w, 1, 1_000_000, ConfigError),
                                              "--deep-every"), default=8,
                    help="run the expensive checks every N steps, 1..1000000 (default: 8)")
    a = ap.parse_args(argv)
    unknown = [g for g in a.games if g not in GAMES]
    if unknown:
        ap.error(f"unknown game(s) {unknown}; games: {list(GAMES)}")
    if a.seconds is None:
        a.seconds = 60.0
    per = a.seconds / len(a.games)
    try:
        for name in a.games:
            fuzz_kernel(name, actions=a.actions, seed=a.seed, deep_every=a.deep_every)
            fuzz_game(name, seconds=per, seed=a.seed, deep_every=a.deep_every)
    except Violation as e:
        print(f"VIOLATION {e}")
        return 1
    except KeyboardInterrupt:
        print("interrupted")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
