"""Batch runner: seeded deals in chunks, each chunk one nogil kernel call, on an executor.

Deal i of seed s is keyed only by (s, i) (and agents by (s, i, seat)), so results are identical
for any worker count, chunk size and executor.
"""
from __future__ import annotations

import os
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from cardsim.core._engine import AGENT_CODES
from cardsim.errors import ConfigError
from cardsim.game import Game, make

DEFAULT_CHUNK = 20_000


def _agent_codes(game: Game, agents) -> list:
    n = game.num_players
    if agents is None:
        agents = ["random"] * n
    if isinstance(agents, str):
        agents = [agents] * n
    agents = list(agents)
    if len(agents) != n:
        raise ConfigError(f"{game.name}: need {n} agents (one per seat), got {len(agents)}")
    out = []
    for a in agents:
        if isinstance(a, str):
            if a not in AGENT_CODES:
                raise ConfigError(f"unknown agent {a!r}; agents: {sorted(AGENT_CODES)} or an object with act(state)")
            out.append(AGENT_CODES[a])
        elif callable(getattr(a, "act", None)):
            out.append(a)
        else:
            raise ConfigError(f"agent {a!r} is neither a name ({sorted(AGENT_CODES)}) nor an object with act(state)")
    return out


def _run_python_chunk(game: Game, seed: int, start: int, count: int, agents: list, codes_fallback) -> dict:
    """Slow path: some seat is a Python agent; C agents are emulated through the same API."""
    P = game.num_players
    M = len(game.metric_names)
    rets = np.zeros((count, P))
    acts = np.zeros(count, np.int64)
    decs = np.zeros(count, np.int64)
    lsum = np.zeros(count, np.int64)
    mets = np.zeros((count, M))
    for d in range(count):
        st = game.new_state(seed, start + d)
        rngs = [np.random.default_rng([seed, start + d, p]) for p in range(P)]
        k = 0
        while not st.is_terminal():
            la = st.legal_actions()
            p = st.current_player
            if len(la) > 1:
                decs[d] += 1
                lsum[d] += len(la)
            ag = agents[p]
            if not isinstance(ag, int):
                a = ag.act(st)
            elif ag == AGENT_CODES["random"]:
                a = la[rngs[p].integers(len(la))]
            elif ag == AGENT_CODES["first"]:
                a = la[0]
            else:
                a = game.spec.greedy_action(st, int(rngs[p].integers(2**63)))
            st.apply(a)
            k += 1
        rets[d] = st.returns()
        acts[d] = k
        m = st.metrics()
        mets[d] = [m[n] for n in game.metric_names]
    return {"returns": rets, "actions": acts, "decisions": decs, "legal_sum": lsum, "metrics": mets}


def _run_chunk(spec, seed, start, count, codes):
    return spec.run_batch(seed, start, count, codes)


@dataclass
class SimResult:
    """Result of simulate(): a numpy structured table, one row per deal (or match)."""

    game: str
    options: dict
    seed: int
    agents: list
    table: np.ndarray
    metric_names: tuple = field(default=())

    @property
    def num_players(self) -> int:
        return sum(1 for n in self.table.dtype.names if n.startswith("return_"))

    def returns(self) -> np.ndarray:
        return np.stack([self.table[f"return_{p}"] for p in range(self.num_players)], axis=1)

    def summary(self) -> dict:
        """Per-seat mean return with a 95% confidence interval, win rates, metric means."""
        from scipy import stats

        r = self.returns()
        n = len(r)
        out = {"game": self.game, "deals": n, "seed": self.seed, "agents": [str(a) for a in self.agents], "seats": []}
        best = r.max(axis=1, keepdims=True)
        winners = (r == best)
        for p in range(r.shape[1]):
            x = r[:, p]
            m = float(x.mean()) if n else float("nan")
            se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
            h = float(stats.t.ppf(0.975, n - 1) * se) if n > 1 else float("nan")
            out["seats"].append({"seat": p, "mean": m, "ci95": (m - h, m + h),
                                 "win_rate": float(winners[:, p].mean()) if n else float("nan")})
        out["actions_mean"] = float(self.table["actions"].mean()) if n else float("nan")
        out["metrics"] = {k: float(self.table[k].mean()) for k in self.metric_names} if n else {}
        return out

    def __len__(self):
        return len(self.table)


def simulate(game, deals: int = 1000, seed: int = 0, agents=None, workers: int | None = None,
             executor: Executor | None = None, chunk_size: int | None = None, **options) -> SimResult:
    """Play `deals` seeded deals (deal i of seed s identical everywhere) and return a SimResult.

    game: a name (options go in **options) or a Game from make(). agents: one per seat, by name
    ('random', 'greedy', 'first') or objects with act(state) (slow Python path). workers: threads
    (default: all cores); executor: any concurrent.futures.Executor instead."""
    g = game if isinstance(game, Game) else make(game, **options)
    if isinstance(game, Game) and options:
        raise ConfigError("pass options to make(), not to simulate(), when giving a Game")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
        raise ConfigError(f"deals must be an int >= 0, got {deals!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be an int in [0, 2**64), got {seed!r}")
    codes = _agent_codes(g, agents)
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be an int >= 1, got {workers!r}")
    if chunk_size is None:
        chunk_size = max(1, min(DEFAULT_CHUNK, -(-deals // (4 * workers)) if deals else 1))
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    chunks = [(s, min(chunk_size, deals - s)) for s in range(0, deals, chunk_size)]
    python_path = any(not isinstance(c, int) for c in codes)
    if python_path:
        fn = lambda c: _run_python_chunk(g, seed, c[0], c[1], codes, None)
    else:
        fn = lambda c: _run_chunk(g.spec, seed, c[0], c[1], codes)
    if executor is not None:
        parts = list(executor.map(fn, chunks))
    elif workers == 1 or len(chunks) <= 1:
        parts = [fn(c) for c in chunks]
    else:
        with ThreadPoolExecutor(max_workers=workers) as ex:
            parts = list(ex.map(fn, chunks))
    table = _make_table(g, deals, parts)
    return SimResult(g.name, dict(g.options), seed, [a if isinstance(a, str) else repr(a) for a in
                                                     (agents if isinstance(agents, (list, tuple)) else [agents] * g.num_players)],
                     table, tuple(g.metric_names))


def _make_table(g: Game, deals: int, parts: list) -> np.ndarray:
    P = g.num_players
    names = list(g.metric_names)
    dtype = ([("deal", np.int64)] + [(f"return_{p}", np.float64) for p in range(P)]
             + [("actions", np.int32), ("decisions", np.int32), ("legal_sum", np.int64)]
             + [(m, np.float64) for m in names])
    table = np.zeros(deals, dtype=dtype)
    table["deal"] = np.arange(deals, dtype=np.int64)
    if not parts:
        return table
    rets = np.concatenate([p["returns"] for p in parts])
    mets = np.concatenate([p["metrics"] for p in parts])
    for p in range(P):
        table[f"return_{p}"] = rets[:, p]
    table["actions"] = np.concatenate([p["actions"] for p in parts])
    table["decisions"] = np.concatenate([p["decisions"] for p in parts])
    table["legal_sum"] = np.concatenate([p["legal_sum"] for p in parts])
    for i, m in enumerate(names):
        table[m] = mets[:, i]
    return table
