"""skill(): restricted-play balance analysis (Jaffe et al., AIIDE 2012)."""
from __future__ import annotations

import os
from concurrent.futures import Executor

import numpy as np

from cardsim import executors, runner, stats
from cardsim.agents import AGENT_CODES
from cardsim.errors import ConfigError
from cardsim.results_io import jsonable
from cardsim.runner import DEFAULT_DEALS
from cardsim.stats import Moments, _f, t_interval, t_test


def skill(game, deals: int = DEFAULT_DEALS, *, seed: int = 0, strong: str = "greedy", weak: str = "random",
          workers: int | None = None, executor: Executor | None = None, backend: str = "threads", address=None,
          chunk_size: int | None = None, progress=False, **options) -> dict:
    """How much a stronger agent gains over a weaker one, per seat (restricted-play balance
    analysis, Jaffe et al. AIIDE 2012): for each seat p, the same deals are played with `strong`
    at seat p and `weak` everywhere else, and with `weak` everywhere; the gain is the paired
    per-deal difference of seat p's return (and of its win indicator), with 95% t intervals and
    p-values. `gain_sd` is the gain in units of the baseline return's standard deviation (a
    game-independent skill measure). A large gain means a game rewards skill; a gain near 0
    means luck dominates. Bit-identical for any workers/chunking/backend, like simulate().
    progress: a progress bar (deals, with ETA) on stderr once the run has lasted 2 s."""
    g = runner.resolve_game(game, None, options)
    P = g.num_players
    count = runner.check_count("deals", deals, 0)
    seed = runner.check_count("seed", seed, 0, 2**64 - 1)
    for a in (strong, weak):
        if not isinstance(a, str) or a not in AGENT_CODES:
            raise ConfigError(f"unknown agent {str(a)[:40]!r}; agents: {sorted(AGENT_CODES)}")
    workers = runner.check_count("workers", os.cpu_count() or 1 if workers is None else workers, 1)
    if chunk_size is None:
        chunk_size = max(1, min(runner.DEFAULT_CHUNK // (P + 1), -(-count // (4 * workers)) or 1))
    chunk_size = runner.check_count("chunk_size", chunk_size, 1)
    name, opts = g.name, dict(g.options)
    runner.remember_game(g)
    tasks = runner.plan(count, chunk_size, lambda s, k: (name, opts, seed, s, k, AGENT_CODES[weak], AGENT_CODES[strong]))
    block = stats.BLOCK
    mom = Moments(0, 3 * P)
    buf: list = []
    nbuf = 0

    def flush(k):
        nonlocal buf, nbuf
        allc = {n: np.concatenate([b[n] for b in buf]) for n in buf[0]}
        X = np.empty((3 * P, k))
        for p in range(P):
            X[p], X[P + p], X[2 * P + p] = allc[f"gain_{p}"][:k], allc[f"wgain_{p}"][:k], allc[f"base_{p}"][:k]
        mom.add_block(X)
        rest = {n: v[k:] for n, v in allc.items()}
        buf = [rest] if len(rest["actions"]) else []
        nbuf -= k

    from cardsim.simulate import progress_bar, progress_flag as _flag

    executor, close = executors.open_executor(executor, backend, address, workers, runner.num_tasks(count, chunk_size))
    bar = progress_bar(count, "deal", _flag(progress), desc=f"skill {name}")
    try:
        for part in executors.ordered(executor, runner.skill_task, tasks, inflight=max(4, 4 * workers)):
            buf.append(part)
            nbuf += len(part["actions"])
            bar.update(len(part["actions"]))
            while nbuf >= block:
                flush(block)
    finally:
        bar.close()
        if close is not None:
            close()
    if nbuf:
        flush(nbuf)
    n = mom.n
    seats = []
    for p in range(P):
        m, sd = float(mom.mean[p]), float(np.sqrt(mom.var(p))) if n > 1 else float("nan")
        wm, wsd = float(mom.mean[P + p]), float(np.sqrt(mom.var(P + p))) if n > 1 else float("nan")
        bsd = float(np.sqrt(mom.var(2 * P + p))) if n > 1 else float("nan")
        seats.append({"seat": p, "gain": _f(m), "ci95": t_interval(m, sd, n), "p_value": t_test(m, sd, n),
                      "gain_sd": _f(m / bsd) if bsd and np.isfinite(bsd) else None,
                      "win_gain": _f(wm), "win_ci95": t_interval(wm, wsd, n), "win_p_value": t_test(wm, wsd, n)})
    gains = [s["gain_sd"] for s in seats if s["gain_sd"] is not None]
    return {"game": name, "options": jsonable(opts), "seed": seed, "deals": n, "strong": strong, "weak": weak,
            "seats": seats, "mean_gain_sd": _f(np.mean(gains)) if gains else None,
            "seat_skill_gap": _f(max(gains) - min(gains)) if gains else None}
