"""Batch runner: seeded deals in chunks, each chunk one nogil kernel call, on an executor.

    result = cardsim.simulate("joffre_whist", deals=1_000_000, seed=1,
                              agents=["greedy", "random", "random", "random"])
    result.summary()                    # per-seat means and win rates with intervals, balance, ...
    result.save("run.parquet")          # metadata travels with the file; cardsim.load() reads it

Determinism. Deal i of seed s is keyed only by (s, i), and each seat's agent by (s, i, seat), so
a deal's row never depends on the worker count, the chunk size, the executor or the machine.
Chunk results are consumed strictly in deal order (a bounded window of chunks in flight), and the
statistics are accumulated in canonical blocks aligned on the deal index (cardsim.stats), so the
table *and* the summary are bit-identical for any workers, chunk_size and backend.

Executors. By default a thread pool over the local cores: the kernels release the GIL, so threads
scale without processes. Any concurrent.futures.Executor can be passed (`executor=`), and
`backend="dask"` runs the chunks on a Dask cluster: `address="tcp://head:8786"` connects to a
running scheduler, no address starts a LocalCluster (one single-threaded worker process per core).
`pip install 'cardsim[dask]'` brings what it needs; every node (scheduler included) needs cardsim
installed, nothing else: a task carries only (game name, options, seed, deal range, agent codes).
A script that lets simulate() start a LocalCluster (worker processes) must keep its top-level
code under `if __name__ == "__main__":`, as with multiprocessing. Cluster start-up takes 0.5-2 s:
to run several simulations, start one `distributed.Client` and pass it as `address=`.

    dask scheduler --port 8786                          # head node
    dask worker tcp://HEAD:8786 --nworkers 8 --nthreads 1   # each worker node
    cardsim.simulate("joffre_whist", deals=10**8, backend="dask", address="tcp://HEAD:8786",
                     keep_table=False)

Streaming. `keep_table=False` keeps only the running summary (means, co-moments, win counts,
histograms, running means): memory stays flat for any number of deals. `out="x.parquet"` (or
.csv) writes the rows to disk as they arrive, so a 100 M-deal table never has to fit in memory.

Agents. One per seat, by name ("random", "greedy", "first", "ismcts"), or any object with
`act(state) -> action` (the slow path: every step goes through the Python State API, so expect
about 100x fewer deals per second; C agents in the same line-up are then emulated through the API
with their own seeded numpy streams, so their choices differ from the kernel's, deterministically).
Without an explicit executor, Python agents run on the calling thread in deal order, so an agent
with internal state sees the same calls whatever the chunking; with an executor (threads,
processes, Dask) each task gets the agents as they are sent (pickled for processes), so keep
agents stateless (or seeded per deal) there.

Matches. `matches=N` plays N whole matches (the game built with scope="match"); one row is one
match. Lead changes (how often the leading seat or side changes during a match) need the running
score inside a match: `lead_changes=True` has the batch kernel watch the running returns after
every action (run_batch(lead_changes=True); `lead_changes_of` is the slow reference).
"""
from __future__ import annotations

import collections
import json
import os
import sys
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from cardsim.core._engine import AGENT_CODES, kernel_actions
from cardsim.errors import CardsimError, ConfigError
from cardsim.game import Game, make
from cardsim import stats as _stats
from cardsim.stats import Accumulator, block_stats, winners_mask

DEFAULT_CHUNK = 20_000
CHUNK_BLOCKS = {"threads": 2, "dask": 4}   # default chunk, in canonical blocks, for big runs
MAX_PY_STEPS = 1_000_000      # as the kernel's DEFAULT_MAX_STEPS: a deal that never ends is an error
_GAMES: dict = {}


# ---------------------------------------------------------------------------------------------
# chunk tasks (top-level and picklable: they run on threads, processes or Dask workers)
# ---------------------------------------------------------------------------------------------
def _jsonable(v):
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


def _game_key(name: str, options: dict) -> str:
    return json.dumps([name, _jsonable({k: v for k, v in options.items() if k != "variant"})], sort_keys=True)


def _get_game(name: str, options: dict) -> Game:
    """The Game for (name, resolved options), built once per process (workers cache it)."""
    key = _game_key(name, options)
    g = _GAMES.get(key)
    if g is None:
        g = make(name, **{k: v for k, v in options.items() if k != "variant" or v is not None})
        _GAMES[key] = g
    return g


class LeadTracker:
    """Counts lead changes over a sequence of running returns: the leaders are the seats with the
    highest running return (none while all are equal); a lead change is a new set of leaders that
    shares no seat with the previous one (so a partnership taking the lead from the other counts
    once, and a tie that keeps the old leader among the leaders counts nothing)."""

    __slots__ = ("prev", "changes", "last")

    def __init__(self):
        self.prev, self.changes, self.last = 0, 0, None

    def see(self, r: np.ndarray):
        if self.last is not None and np.array_equal(r, self.last):
            return
        self.last = r
        if r.max() == r.min():
            return
        m = int(((r == r.max()) * (1 << np.arange(len(r)))).sum())
        if self.prev and not (m & self.prev):
            self.changes += 1
        self.prev = m


def lead_changes_of(game: Game, seed: int, deal: int, codes) -> int:
    """Lead changes in deal (seed, deal) played by C agents `codes`: the kernel's action sequence
    is replayed through the State API and the running returns() watched after every action (see
    LeadTracker). Games whose returns() stay 0 until the end count 0 by construction. The batch
    kernel counts the same thing natively (run_batch(lead_changes=True)); this replay is the
    independent reference the tests compare it with."""
    st = game.new_state(seed, deal)
    lt = LeadTracker()
    for a in kernel_actions(game.spec, seed, deal, list(codes)):
        st.apply(a)
        lt.see(st.returns())
    return lt.changes


def _finish_cols(g: Game, seed: int, start: int, part: dict, want_fp: bool) -> dict:
    R = part["returns"]
    count = len(R)
    cols = {"deal": np.arange(start, start + count, dtype=np.int64)}
    for p in range(g.num_players):
        cols[f"return_{p}"] = np.ascontiguousarray(R[:, p])
    cols["winners"] = winners_mask(R)
    if want_fp:
        cols["first_player"] = np.asarray(part["first_player"], np.int8)
    cols["actions"] = part["actions"].astype(np.int32)
    cols["decisions"] = part["decisions"].astype(np.int32)
    cols["legal_sum"] = part["legal_sum"].astype(np.int64)
    if "lead_changes" in part:
        cols["lead_changes"] = part["lead_changes"].astype(np.int32)
    M = part["metrics"]
    for i, m in enumerate(g.metric_names):
        cols[m] = np.ascontiguousarray(M[:, i])
    return cols


def _with_blocks(g: Game, cols: dict, start: int, block: int, want_fp: bool, want_lc: bool, want_rows: bool):
    """A task's answer: its rows, or (when `block` is set: the chunk is made of whole canonical
    blocks) the statistics of each block, computed here on the worker, plus the rows if the
    caller keeps or writes them. Shipping block statistics instead of rows keeps the driver idle
    and the Dask traffic small."""
    if not block:
        return {"rows": cols}
    extra = (["lead_changes"] if want_lc else []) + list(g.metric_names)
    n = len(cols["actions"])
    blocks = [block_stats({k: v[lo:lo + block] for k, v in cols.items()}, start + lo, g.num_players, extra, want_fp)
              for lo in range(0, n, block)]
    return {"rows": cols if want_rows else None, "blocks": blocks, "n": n}


def _kernel_task(name, options, seed, start, count, codes, want_fp=True, want_lc=False, block=0, want_rows=True):
    """One chunk on the batch kernel: deals start..start+count-1 of seed, as table columns."""
    g = _get_game(name, options)
    part = g.spec.run_batch(seed, start, count, list(codes), lead_changes=bool(want_lc))
    return _with_blocks(g, _finish_cols(g, seed, start, part, want_fp), start, block, want_fp, want_lc, want_rows)


def _python_task(name, options, seed, start, count, agents, want_fp=True, want_lc=False, block=0, want_rows=True):
    """Slow path: some seat is a Python agent; C agents are emulated through the same API."""
    g = _get_game(name, options)
    P = g.num_players
    M = len(g.metric_names)
    rets = np.zeros((count, P))
    acts = np.zeros(count, np.int64)
    decs = np.zeros(count, np.int64)
    lsum = np.zeros(count, np.int64)
    mets = np.zeros((count, M))
    fps = np.zeros(count, np.int8)
    lcs = np.zeros(count, np.int32)
    for d in range(count):
        st = g.new_state(seed, start + d)
        fps[d] = st.current_player
        rngs = [np.random.default_rng([seed, start + d, p]) for p in range(P)]
        k = 0
        lt = LeadTracker()
        while not st.is_terminal():
            if k >= MAX_PY_STEPS:
                raise CardsimError(f"{name}: deal {start + d} of seed {seed} did not end within {MAX_PY_STEPS} actions")
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
            elif ag == AGENT_CODES.get("ismcts", -1):
                a = g.spec.ismcts_action(st, seed=int(rngs[p].integers(2**63)))
            else:
                a = g.spec.greedy_action(st, int(rngs[p].integers(2**63)))
            st.apply(a)
            k += 1
            if want_lc:
                lt.see(st.returns())
        rets[d] = st.returns()
        acts[d] = k
        lcs[d] = lt.changes
        mm = st.metrics()
        mets[d] = [mm[n] for n in g.metric_names]
    part = {"returns": rets, "actions": acts, "decisions": decs, "legal_sum": lsum, "metrics": mets,
            "first_player": fps}
    if want_lc:
        part["lead_changes"] = lcs
    return _with_blocks(g, _finish_cols(g, seed, start, part, want_fp), start, block, want_fp, want_lc, want_rows)


# ---------------------------------------------------------------------------------------------
# executors and ordered streaming
# ---------------------------------------------------------------------------------------------
class _Inline(Executor):
    """Runs each task on submit (workers=1: no thread at all)."""

    def submit(self, fn, *args, **kwargs):
        from concurrent.futures import Future

        f = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            f.set_exception(e)
        return f


def _ordered(executor, fn, tasks, inflight: int):
    """Submit tasks with at most `inflight` pending and yield their results in task order."""
    q: collections.deque = collections.deque()
    it = iter(tasks)
    for t in it:
        q.append(executor.submit(fn, *t))
        if len(q) >= inflight:
            break
    while q:
        res = q.popleft().result()
        for t in it:
            q.append(executor.submit(fn, *t))
            break
        yield res


# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also freezes glibc's mmap
# threshold: every temporary array above 128 kB then costs fresh pages, and the per-block
# statistics ran 3.7x slower on workers than in-process (measured: 0.15 s vs 0.04 s per 131k
# deals). Workers that only run cardsim chunks return small results, so keep the heap instead.
WORKER_ENV = {"MALLOC_TRIM_THRESHOLD_": 1 << 27, "MALLOC_MMAP_THRESHOLD_": 1 << 25, "OMP_NUM_THREADS": 1}


def local_cluster(workers: int | None = None, **kwargs):
    """Start a Dask LocalCluster for cardsim (one single-threaded worker process per core, no
    fixed dashboard port, WORKER_ENV in the workers) and a Client on it: returns (client,
    cluster). Reuse the client across simulate() calls with `address=client`. For a cluster
    started by hand, give the workers the same environment (e.g. `MALLOC_TRIM_THRESHOLD_=134217728
    MALLOC_MMAP_THRESHOLD_=33554432 dask worker ...`)."""
    import dask
    from distributed import Client, LocalCluster

    n = workers or os.cpu_count() or 1
    env = {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in WORKER_ENV.items()}
    opts = {"n_workers": n, "threads_per_worker": 1, "processes": True, "dashboard_address": ":0", **kwargs}
    with dask.config.set(env):
        cluster = LocalCluster(**opts)
    return Client(cluster), cluster


def _dask_executor(address, workers):
    """A concurrent.futures.Executor on a Dask cluster, and a closer for what we started."""
    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ConfigError("backend='dask' needs dask.distributed: pip install 'cardsim[dask]'") from e
    if address is not None:
        if hasattr(address, "get_executor"):          # a Client
            return address.get_executor(), lambda: None
        client = Client(address)
        return client.get_executor(), client.close
    client, cluster = local_cluster(workers)

    def close():
        client.close()
        cluster.close()
    return client.get_executor(), close


class _Progress:
    """A plain progress bar on stderr (no dependency)."""

    def __init__(self, total: int, unit: str, enabled: bool):
        from cardsim.report import plural

        self.total, self.unit, self.enabled = total, plural(unit), enabled
        self.done = 0
        self.t0 = time.perf_counter()
        self.last = 0.0

    def update(self, k: int):
        self.done += k
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.2 and self.done < self.total:
            return
        self.last = now
        el = now - self.t0
        rate = self.done / el if el > 0 else 0.0
        frac = self.done / self.total if self.total else 1.0
        eta = (self.total - self.done) / rate if rate > 0 else float("nan")
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r[{bar:<30}] {self.done:,}/{self.total:,} {self.unit}  {rate:,.0f}/s  "
                         f"eta {eta:,.0f} s ")
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


# ---------------------------------------------------------------------------------------------
# table writers (Parquet via pyarrow, CSV) with metadata
# ---------------------------------------------------------------------------------------------
META_KEY = b"cardsim"


class _Writer:
    def __init__(self, path: str, meta: dict):
        self.path = str(path)
        self.meta = meta
        self.fmt = _format_of(self.path)
        self.w = None
        self.fh = None
        self.cols = None

    def write(self, cols: dict):
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            t = pa.table({k: v for k, v in cols.items()})
            if self.w is None:
                schema = t.schema.with_metadata({META_KEY: json.dumps(self.meta).encode()})
                self.w = pq.ParquetWriter(self.path, schema)
            self.w.write_table(t.replace_schema_metadata(self.w.schema.metadata))
        else:
            if self.fh is None:
                self.fh = open(self.path, "w", encoding="utf-8", newline="")
                self.fh.write("# cardsim " + json.dumps(self.meta) + "\n")
                self.cols = list(cols)
                self.fh.write(",".join(self.cols) + "\n")
            arrs = [cols[c] for c in self.cols]
            fmts = ["%.17g" if a.dtype.kind == "f" else "%d" for a in arrs]
            n = len(arrs[0])
            if n:
                buf = np.empty((n, len(arrs)), dtype=object)
                for j, a in enumerate(arrs):
                    buf[:, j] = a
                np.savetxt(self.fh, buf, fmt=fmts, delimiter=",")

    def close(self, empty_cols: dict | None = None):
        if self.fmt == "parquet":
            if self.w is None and empty_cols is not None:
                self.write(empty_cols)
            if self.w is not None:
                self.w.close()
        else:
            if self.fh is None and empty_cols is not None:
                self.write(empty_cols)
            if self.fh is not None:
                self.fh.close()


def _format_of(path: str) -> str:
    p = str(path).lower()
    if p.endswith(".parquet") or p.endswith(".pq"):
        return "parquet"
    if p.endswith(".csv"):
        return "csv"
    if p.endswith(".json"):
        return "json"
    raise ConfigError(f"unknown file type {path!r}: use .parquet, .csv or .json")


# ---------------------------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------------------------
@dataclass
class SimResult:
    """Result of simulate(): metadata, the table (numpy structured array, one row per deal or
    match; None when keep_table=False) and the streaming summary.

    Columns: deal (int64: the deal or match index in the seed's stream), return_0..return_{n-1}
    (float64, the game's own points), winners (int32 bitmask of the seats with the highest
    return, 0 for a draw), first_player (int8: seat to act in the initial state), actions,
    decisions (turns with more than one legal action), legal_sum (legal actions summed over
    decisions), lead_changes (only with lead_changes=True), then the game's metrics (float64)."""

    game: str
    options: dict
    seed: int
    agents: list
    table: np.ndarray | None
    metric_names: tuple = field(default=())
    unit: str = "deal"
    meta: dict = field(default_factory=dict)
    _acc: Accumulator | None = field(default=None, repr=False)
    _summary: dict | None = field(default=None, repr=False)

    @property
    def num_players(self) -> int:
        return int(self.meta.get("num_players") or sum(1 for n in self.table.dtype.names if n.startswith("return_")))

    @property
    def deals(self) -> int:
        return int(self.meta.get("deals", 0 if self.table is None else len(self.table)))

    def returns(self) -> np.ndarray:
        self._need_table()
        return np.stack([self.table[f"return_{p}"] for p in range(self.num_players)], axis=1)

    def _need_table(self):
        if self.table is None:
            raise ConfigError("this result kept no table (keep_table=False); only summary() is available")

    def summary(self) -> dict:
        """Per-seat mean return with 95% CIs, win rates with Wilson intervals, seat and
        first-player advantage with significance tests, drawishness, duration, branching
        factor, decision share, lead changes, metric distributions and running means
        (see cardsim.stats). A JSON-friendly dict; identical for any workers/chunking/backend and
        when rebuilt from a saved table."""
        if self._summary is None:
            if self._acc is None:
                self._need_table()
                self._acc = accumulate_table(self.table, self.num_players, self.metric_names,
                                             "first_player" in self.table.dtype.names,
                                             "lead_changes" in self.table.dtype.names)
            self._summary = self._acc.summary(self._meta_for_summary())
        return self._summary

    def _meta_for_summary(self) -> dict:
        return {"game": self.game, "options": _jsonable(self.options), "seed": self.seed,
                "agents": [str(a) for a in self.agents], "unit": self.unit,
                "cardsim_version": self.meta.get("cardsim_version", _version()),
                "num_players": self.num_players, "metric_names": list(self.metric_names)}

    def to_json(self, path=None, indent=2) -> str:
        """The summary as JSON (written to `path` if given)."""
        text = json.dumps(self.summary(), indent=indent, allow_nan=False, default=_jsonable)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def save(self, path) -> None:
        """Save as .parquet or .csv (the table, with the run's metadata) or .json (the summary)."""
        fmt = _format_of(str(path))
        if fmt == "json":
            self.to_json(path)
            return
        self._need_table()
        w = _Writer(str(path), self._file_meta())
        w.write({n: self.table[n] for n in self.table.dtype.names})
        w.close()

    def _file_meta(self) -> dict:
        return {**self._meta_for_summary(), "deals": self.deals, "columns": list(self.table.dtype.names)
                if self.table is not None else self.meta.get("columns")}

    def __len__(self):
        return self.deals


def _version() -> str:
    import cardsim

    return getattr(cardsim, "__version__", "unknown")


def accumulate_table(table: np.ndarray, P: int, metric_names, has_fp: bool, has_lc: bool) -> Accumulator:
    """Feed a whole table to a fresh Accumulator (the same canonical blocks as a live run)."""
    acc = Accumulator(P, metric_names, first_player=has_fp, lead_changes=has_lc)
    acc.add({n: table[n] for n in table.dtype.names})
    return acc.finish()


def load(path) -> SimResult | dict:
    """Load a saved run: .parquet / .csv give a SimResult (table and metadata, summary rebuilt
    exactly), .json gives the summary dict."""
    path = str(path)
    fmt = _format_of(path)
    if fmt == "json":
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        t = pq.read_table(path)
        raw = (t.schema.metadata or {}).get(META_KEY)
        if raw is None:
            raise ConfigError(f"{path}: not a cardsim results file (no cardsim metadata)")
        meta = json.loads(raw)
        cols = {n: t.column(n).to_numpy() for n in t.column_names}
    else:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
            if not first.startswith("# cardsim "):
                raise ConfigError(f"{path}: not a cardsim results file (no cardsim metadata line)")
            meta = json.loads(first[len("# cardsim "):])
            header = f.readline().strip().split(",")
            data = np.loadtxt(f, delimiter=",", ndmin=2, dtype=np.float64) if True else None
        cols = {n: data[:, j] if data.size else np.zeros(0) for j, n in enumerate(header)}
    table = _table_from_cols(cols, meta["num_players"], meta["metric_names"])
    return SimResult(meta["game"], meta["options"], meta["seed"], meta["agents"], table,
                     tuple(meta["metric_names"]), meta.get("unit", "deal"), meta)


def _dtype(P: int, metric_names, has_fp: bool, has_lc: bool):
    return ([("deal", np.int64)] + [(f"return_{p}", np.float64) for p in range(P)] + [("winners", np.int32)]
            + ([("first_player", np.int8)] if has_fp else [])
            + [("actions", np.int32), ("decisions", np.int32), ("legal_sum", np.int64)]
            + ([("lead_changes", np.int32)] if has_lc else []) + [(m, np.float64) for m in metric_names])


def _table_from_cols(cols: dict, P: int, metric_names) -> np.ndarray:
    dt = _dtype(P, metric_names, "first_player" in cols, "lead_changes" in cols)
    n = len(cols["deal"])
    table = np.zeros(n, dtype=dt)
    for name, _ in dt:
        table[name] = cols[name]
    return table


# ---------------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------------
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


def _check_int(name, v, lo, hi=None):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo or (hi is not None and v >= hi):
        rng = f"[{lo}, {hi})" if hi is not None else f">= {lo}"
        raise ConfigError(f"{name} must be an int {rng}, got {v!r}")
    return int(v)


def _resolve_game(game, matches, options) -> Game:
    if isinstance(game, Game):
        if options:
            raise ConfigError("pass options to make(), not to simulate(), when giving a Game")
        g = game
        if matches is not None and g.options.get("scope") != "match":
            if "scope" not in g.options:
                raise ConfigError(f"{g.name} has no scope option: it cannot play matches")
            g = make(g.name, **{**{k: v for k, v in g.options.items() if k != "variant" or v is not None},
                                "scope": "match"})
        return g
    if matches is not None:
        if options.get("scope", "match") != "match":
            raise ConfigError("matches= plays whole matches: scope must be 'match' (or use deals=)")
        options = {**options, "scope": "match"}
    return make(game, **options)


def simulate(game, deals: int | None = None, *, matches: int | None = None, seed: int = 0, agents=None,
             workers: int | None = None, executor: Executor | None = None, backend: str = "threads",
             address=None, chunk_size: int | None = None, progress: bool = False, keep_table: bool = True,
             out=None, first_player: bool = True, lead_changes: bool = False, **options) -> SimResult:
    """Play seeded deals (or matches) and return a SimResult (table, summary).

    game: a registered name (its options and `variant=` in **options) or a Game from make().
    deals: how many deals (default 1000); matches: how many whole matches instead (the game is
      built with scope="match"; one row per match). Give one of the two.
    seed: deal i of seed s is the same everywhere; agents: one per seat (a single name for all):
      C agents by name ("random", "greedy", "first", "ismcts": cardsim.core._engine.AGENT_CODES),
      or objects with act(state) (slow Python path).
    workers: threads (default: all cores), or Dask LocalCluster worker processes.
    executor: any concurrent.futures.Executor (e.g. a ProcessPoolExecutor, or
      `dask.distributed.Client(...).get_executor()`); overrides backend.
    backend: "threads" (default) or "dask" (address: a scheduler address or Client; none starts a
      LocalCluster, closed at the end).
    chunk_size: deals per task (default: about 4 tasks per worker, at most 20,000).
    progress: a progress bar on stderr. keep_table: keep the table in memory (False: summary
      only, memory flat). out: also stream the rows to this .parquet/.csv file as they arrive.
    first_player: record each deal's first player (for the first-player advantage).
    lead_changes: count lead changes per row (replays each deal through the State API: slow).

    Results (table and summary) are bit-identical for any workers, chunk_size, executor and
    backend."""
    g = _resolve_game(game, matches, options)
    if deals is not None and matches is not None:
        raise ConfigError("give deals= or matches=, not both")
    count = matches if matches is not None else (1000 if deals is None else deals)
    count = _check_int("matches" if matches is not None else "deals", count, 0)
    seed = _check_int("seed", seed, 0, 2**64)
    codes = _agent_codes(g, agents)
    if backend not in ("threads", "dask"):
        raise ConfigError(f"backend must be 'threads' or 'dask', got {backend!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    workers = _check_int("workers", workers, 1)
    block = _stats.BLOCK
    if chunk_size is None:
        per = -(-count // (4 * workers)) if count else 1
        if per >= block:
            nblk = CHUNK_BLOCKS["threads" if backend == "threads" and executor is None else "dask"]
            chunk_size = block * min(nblk, max(1, round(per / block)))
        else:
            chunk_size = max(1, min(DEFAULT_CHUNK, per))
    chunk_size = _check_int("chunk_size", chunk_size, 1)
    aligned = chunk_size % block == 0
    unit = "match" if g.options.get("scope") == "match" else "deal"
    python_path = any(not isinstance(c, int) for c in codes)
    name, opts = g.name, dict(g.options)
    _GAMES.setdefault(_game_key(name, opts), g)
    fn = _python_task if python_path else _kernel_task
    want_rows = keep_table or out is not None
    tasks = [(name, opts, seed, s, min(chunk_size, count - s), codes, bool(first_player), bool(lead_changes),
              block if aligned else 0, want_rows) for s in range(0, count, chunk_size)]
    agent_names = [a if isinstance(a, str) else repr(a) for a in
                   (agents if isinstance(agents, (list, tuple)) else [agents or "random"] * g.num_players)]
    meta = {"game": name, "options": _jsonable(opts), "seed": seed, "agents": agent_names, "unit": unit,
            "num_players": g.num_players, "metric_names": list(g.metric_names), "cardsim_version": _version(),
            "deals": count, "backend": "executor" if executor is not None else backend}
    acc = Accumulator(g.num_players, g.metric_names, first_player=bool(first_player), lead_changes=bool(lead_changes))
    close = None
    if executor is None:
        if backend == "dask":
            executor, close = _dask_executor(address, workers)
        elif workers == 1 or len(tasks) <= 1 or python_path:
            # Python agents run in deal order on this thread: an agent with internal state then
            # sees the same sequence of calls whatever the chunking
            executor = _Inline()
        else:
            executor = ThreadPoolExecutor(max_workers=workers)
            close = executor.shutdown
    elif hasattr(executor, "get_executor") and not isinstance(executor, Executor):
        executor = executor.get_executor()      # a dask Client
    writer = _Writer(out, {**meta, "columns": [n for n, _ in _dtype(g.num_players, g.metric_names,
                                                                          bool(first_player), bool(lead_changes))]}) \
        if out is not None else None
    parts = [] if keep_table else None
    bar = _Progress(count, unit, bool(progress))
    try:
        for res in _ordered(executor, fn, tasks, inflight=max(4, 4 * workers)):
            cols = res["rows"]
            if "blocks" in res:
                acc.merge_blocks(res["blocks"])
            else:
                acc.add(cols)
            if parts is not None:
                parts.append(cols)
            if writer is not None:
                writer.write(cols)
            bar.update(res["n"] if "n" in res else len(cols["deal"]))
    finally:
        bar.close()
        if close is not None:
            close()
    acc.finish()
    empty = None
    if parts is not None or writer is not None:
        dt = _dtype(g.num_players, g.metric_names, bool(first_player), bool(lead_changes))
        empty = {n: np.zeros(0, t) for n, t in dt}
    if writer is not None:
        writer.close(empty)
    table = None
    if parts is not None:
        table = _table_from_cols({n: np.concatenate([p[n] for p in parts]) if parts else empty[n] for n in empty},
                                 g.num_players, g.metric_names)
    return SimResult(name, opts, seed, agent_names, table, tuple(g.metric_names), unit, meta, acc)


# ---------------------------------------------------------------------------------------------
# skill: restricted-play balance analysis (Jaffe et al., AIIDE 2012)
# ---------------------------------------------------------------------------------------------
def _skill_task(name, options, seed, start, count, weak, strong):
    g = _get_game(name, options)
    P = g.num_players
    base = g.spec.run_batch(seed, start, count, [weak] * P)["returns"]
    bw = winners_mask(base)
    out = {"actions": np.zeros(count)}
    for p in range(P):
        codes = [weak] * P
        codes[p] = strong
        r = g.spec.run_batch(seed, start, count, codes)["returns"]
        w = winners_mask(r)
        out[f"gain_{p}"] = r[:, p] - base[:, p]
        out[f"wgain_{p}"] = ((w >> p) & 1).astype(np.float64) - ((bw >> p) & 1)
        out[f"base_{p}"] = base[:, p]
    return out


def skill(game, deals: int = 10_000, *, seed: int = 0, strong: str = "greedy", weak: str = "random",
          workers: int | None = None, executor: Executor | None = None, backend: str = "threads", address=None,
          chunk_size: int | None = None, **options) -> dict:
    """How much a stronger agent gains over a weaker one, per seat (restricted-play balance
    analysis, Jaffe et al. AIIDE 2012): for each seat p, the same deals are played with `strong`
    at seat p and `weak` everywhere else, and with `weak` everywhere; the gain is the paired
    per-deal difference of seat p's return (and of its win indicator), with 95% t intervals and
    p-values. `gain_sd` is the gain in units of the baseline return's standard deviation (a
    game-independent skill measure). A large gain means a game rewards skill; a gain near 0
    means luck dominates. Bit-identical for any workers/chunking/backend, like simulate()."""
    from cardsim.stats import Moments, _f, t_interval, t_test

    g = _resolve_game(game, None, options)
    P = g.num_players
    count = _check_int("deals", deals, 0)
    seed = _check_int("seed", seed, 0, 2**64)
    for a in (strong, weak):
        if a not in AGENT_CODES:
            raise ConfigError(f"unknown agent {a!r}; agents: {sorted(AGENT_CODES)}")
    workers = _check_int("workers", workers or os.cpu_count() or 1, 1)
    chunk_size = _check_int("chunk_size", chunk_size or max(1, min(DEFAULT_CHUNK // (P + 1), -(-count // (4 * workers)) or 1)), 1)
    name, opts = g.name, dict(g.options)
    _GAMES.setdefault(_game_key(name, opts), g)
    tasks = [(name, opts, seed, s, min(chunk_size, count - s), AGENT_CODES[weak], AGENT_CODES[strong])
             for s in range(0, count, chunk_size)]
    close = None
    if executor is None:
        if backend == "dask":
            executor, close = _dask_executor(address, workers)
        elif workers == 1 or len(tasks) <= 1:
            executor = _Inline()
        else:
            executor = ThreadPoolExecutor(max_workers=workers)
            close = executor.shutdown
    from cardsim.stats import BLOCK

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

    try:
        for part in _ordered(executor, _skill_task, tasks, inflight=max(4, 4 * workers)):
            buf.append(part)
            nbuf += len(part["actions"])
            while nbuf >= BLOCK:
                flush(BLOCK)
    finally:
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
    return {"game": name, "options": _jsonable(opts), "seed": seed, "deals": n, "strong": strong, "weak": weak,
            "seats": seats, "mean_gain_sd": _f(np.mean(gains)) if gains else None,
            "seat_skill_gap": _f(max(gains) - min(gains)) if gains else None}
