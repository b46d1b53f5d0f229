"""simulate(): seeded deals in chunks on an executor, streamed into a summary and a table.

The layers below: cardsim.runner (chunks, tasks, the kernel call), cardsim.executors (threads,
Dask, any Executor), cardsim.results_io (Parquet, CSV, JSON), cardsim.stats (the streaming
summary); cardsim.result holds SimResult and load(); skill, compare and sweep live in
cardsim.analysis, above this module.

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
histograms, running means): memory stays flat for any number of deals (tasks are generated
lazily too). `out="x.parquet"` (or .csv) writes the rows to disk as they arrive, so a 100 M-deal
table never has to fit in memory; the file appears under its name only when the run completes
(see cardsim.results_io: an interrupted run keeps its rows as `x.partial.parquet`).

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
score inside a match: `lead_changes=True` has the batch kernel watch the game's running standing
(State.standing: who is ahead mid-deal, equal to the returns at the end) after every action (run_batch(lead_changes=True); `lead_changes_of` is the slow reference).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from concurrent.futures import Executor

from cardsim.agents import AgentSpec
from cardsim import executors, results_io, runner, stats
from cardsim.errors import ConfigError
from cardsim.executors import local_cluster  # noqa: F401 - public: cardsim.simulate.local_cluster
from cardsim.result import SimResult, cardsim_version, load  # noqa: F401 - public re-exports
from cardsim.results_io import RunInterrupted, Terminated, jsonable
from cardsim.runner import LeadTracker, lead_changes_of  # noqa: F401 - public re-exports


class _DeferSigint:
    """Ctrl-C during a run stops it between chunks, so the rows written and the metadata that
    counts them always agree: the first SIGINT sets a flag the run loop checks after each chunk;
    a second one interrupts at once. Only on the main thread, and only over Python's default
    handler (a handler the caller installed is left alone). SIGTERM is deferred the same way where
    the `cardsim` command turned it into an exception (its handler is marked deferrable); it then
    surfaces as results_io.Terminated."""

    def __init__(self):
        self.hit = None
        self.old = {}

    def __enter__(self):
        if threading.current_thread() is not threading.main_thread():
            return self
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.old[signal.SIGINT] = signal.signal(signal.SIGINT, self._handler)
        term = getattr(signal, "SIGTERM", None)
        if term is not None and getattr(signal.getsignal(term), "cardsim_deferrable", False):
            self.old[term] = signal.signal(term, self._handler)
        return self

    def _raise(self, signum):
        if signum == getattr(signal, "SIGTERM", None):
            raise Terminated("terminated (SIGTERM)")
        raise KeyboardInterrupt

    def _handler(self, signum, frame):
        if self.hit is not None:
            self._raise(signum)
        self.hit = signum

    def check(self):
        if self.hit is not None:
            self._raise(self.hit)

    def __exit__(self, *exc):
        for sig, old in self.old.items():
            signal.signal(sig, old)
        self.old = {}
        return False


PROGRESS_DELAY = 2.0     # seconds: a progress bar appears only once a run has lasted this long


def progress_bar(total: int, unit: str, enabled, desc: str | None = None):
    """A tqdm bar on stderr with rate and ETA. `enabled`: True shows it at once, "auto" only once
    the run has lasted PROGRESS_DELAY seconds (a short run prints nothing: what the CLI does on a
    terminal), False never. Every long command uses it."""
    from tqdm import tqdm

    if enabled not in (True, False, "auto"):
        raise ConfigError(f"progress must be True, False or 'auto', got {str(enabled)[:40]!r}")
    return tqdm(total=total, unit=f" {unit}s" if not unit.endswith("ch") else f" {unit}es", disable=not enabled,
                file=sys.stderr, dynamic_ncols=True, mininterval=0.2,
                delay=PROGRESS_DELAY if enabled == "auto" else 0, desc=desc)


def progress_flag(progress):
    """A command's `progress` argument as progress_bar takes it: True, False or "auto"."""
    if isinstance(progress, str):
        if progress != "auto":
            raise ConfigError(f"progress must be True, False or 'auto', got {progress[:40]!r}")
        return progress
    return bool(progress)


class _Shared:
    """An outer bar several runs advance (sweep, tournament): closing is the owner's job."""

    def __init__(self, bar):
        self.bar = bar

    def update(self, n):
        self.bar.update(n)

    def close(self):
        pass


def _progress(total: int, unit: str, progress):
    if progress is not None and not isinstance(progress, (bool, str)) and hasattr(progress, "update"):
        return _Shared(progress)
    return progress_bar(total, unit, progress_flag(progress))


def _search_chunk(count: int, workers: int, codes) -> int | None:
    """Chunks for search agents (ISMCTS, PIMC: milliseconds per deal): about 25 per worker, so the
    progress bar moves and its ETA appears within seconds (results do not depend on chunking)."""
    if any(isinstance(c, AgentSpec) and c.params for c in codes):
        return max(1, -(-count // (25 * workers)))
    return None


def simulate(game, deals: int | None = None, *, matches: int | None = None, seed: int = 0, agents=None,
             workers: int | None = None, executor: Executor | None = None, backend: str = "threads",
             address=None, chunk_size: int | None = None, progress: bool = False, keep_table: bool = True,
             out=None, first_player: bool = True, lead_changes: bool = False, **options) -> SimResult:
    """Play seeded deals (or matches) and return a SimResult (table, summary).

    game: a registered name (its options and `variant=` in **options) or a Game from make().
    deals: how many deals (default 10,000: runner.DEFAULT_DEALS, as the CLI); matches: how many
      whole matches instead (the game is built with scope="match"; one row per match). Give one
      of the two.
    seed: deal i of seed s is the same everywhere; agents: one per seat (a single name for all;
      default: the game's documented greedy agent at every seat): C agents by spec ("random",
      "greedy", "first", "ismcts:iterations=2000,c=0.7,rollout=greedy", "pimc:worlds=10";
      grammar in cardsim.agents), run nogil in the batch kernel, or objects with act(state)
      (slow Python path).
    workers: threads (default: all cores), or Dask LocalCluster worker processes.
    executor: any concurrent.futures.Executor (e.g. a ProcessPoolExecutor, or
      `dask.distributed.Client(...).get_executor()`); overrides backend.
    backend: "threads" (default) or "dask" (address: a scheduler address or Client; none starts a
      LocalCluster, closed at the end).
    chunk_size: deals per task (default: about 4 tasks per worker, at most 20,000).
    progress: a progress bar on stderr (tqdm, with rate and ETA): True at once, "auto" once the run
      has lasted 2 s (what the CLI does on a terminal), or a tqdm-like object with update(n) that
      the run advances (an outer bar shared by several runs). keep_table: keep the table in memory (False:
      summary only, memory flat). out: also stream the rows to this .parquet/.csv file as they
      arrive (written beside it and renamed on success; a missing or read-only directory fails
      before the first deal; Ctrl-C keeps the rows as `<name>.partial.<ext>` and raises
      cardsim.results_io.RunInterrupted, a KeyboardInterrupt, saying so).
    first_player: record each deal's first player (for the first-player advantage).
    lead_changes: count lead changes per row (the kernel watches the game's running standing, State.standing), and record
      lead_from (the actions after which the row's final leaders held the lead for good); the
      summary then has `lead_changes` and `decided` (decisiveness: cardsim.stats).

    Results (table and summary) are bit-identical for any workers, chunk_size, executor and
    backend."""
    g = runner.resolve_game(game, matches, options)
    if deals is not None and matches is not None:
        raise ConfigError("give deals= or matches=, not both")
    count = matches if matches is not None else (runner.DEFAULT_DEALS if deals is None else deals)
    count = runner.check_count("matches" if matches is not None else "deals", count, 0)
    seed = runner.check_count("seed", seed, 0, 2**64 - 1)
    codes, agent_names = runner.agent_codes(g, agents)
    if backend not in executors.BACKENDS:
        raise ConfigError(f"backend must be one of {list(executors.BACKENDS)}, got {str(backend)[:40]!r}")
    workers = runner.check_count("workers", os.cpu_count() or 1 if workers is None else workers, 1)
    block = stats.BLOCK
    if chunk_size is None:
        chunk_size = runner.default_chunk(count, workers, backend, executor is None)
        small = _search_chunk(count, workers, codes)
        if small is not None:
            chunk_size = min(chunk_size, small)
    chunk_size = runner.check_count("chunk_size", chunk_size, 1)
    if out is not None:
        results_io.format_of(out)
    aligned = chunk_size % block == 0
    unit = "match" if g.options.get("scope") == "match" else "deal"
    python_path = any(not isinstance(c, (int, AgentSpec)) for c in codes)
    name, opts = g.name, dict(g.options)
    runner.remember_game(g)
    fn = runner.python_task if python_path else runner.kernel_task
    table_out = out is not None and results_io.format_of(out) != "json"
    want_rows = keep_table or table_out
    fp, lc = bool(first_player), bool(lead_changes)
    tasks = runner.plan(count, chunk_size, lambda s, k: (name, opts, seed, s, k, codes, fp, lc, block if aligned else 0,
                                                          want_rows))
    meta = {"game": name, "options": jsonable(opts), "seed": seed, "agents": agent_names, "unit": unit,
            "num_players": g.num_players, "metric_names": list(g.metric_names), "cardsim_version": cardsim_version(),
            "deals": count, "backend": "executor" if executor is not None else backend}
    dt = results_io.table_dtype(g.num_players, g.metric_names, fp, lc)
    acc = stats.Accumulator(g.num_players, g.metric_names, first_player=fp, lead_changes=lc)
    # the table is filled as the chunks arrive (in order), so no chunk is held until the end
    table = results_io.new_table(count, g.num_players, g.metric_names, fp, lc) if keep_table else None
    filled = 0
    close = None
    bar = None
    writer = json_out = None
    sigint = _DeferSigint()
    try:
        sigint.__enter__()
        # the output file is reserved before the first deal: a bad directory fails now (inside
        # this try, so that a signal at any moment from here on removes the temporary file)
        if table_out:
            writer = results_io.TableWriter(out, {**meta, "columns": [n for n, _ in dt]}, dt)
        elif out is not None:
            json_out = results_io.TextReservation(out)
        # Python agents run in deal order on this thread: an agent with internal state then sees
        # the same sequence of calls whatever the chunking
        executor, close = executors.open_executor(executor, backend, address, workers,
                                                  runner.num_tasks(count, chunk_size), inline=python_path)
        bar = _progress(count, unit, progress)
        for res in executors.ordered(executor, fn, tasks, inflight=max(4, 4 * workers)):
            sigint.check()
            cols = res["rows"]
            if "blocks" in res:
                acc.merge_blocks(res["blocks"])
            else:
                acc.add(cols)
            if table is not None:
                filled = results_io.fill_table(table, filled, cols)
            if writer is not None:
                writer.write(cols)
            bar.update(res["n"] if "n" in res else len(cols["deal"]))
            sigint.check()
        # finishing inside this try too: a signal or an error up to the rename leaves no stray file
        acc.finish()
        if writer is not None:
            writer.commit()
        if table is not None and filled != count:
            raise RuntimeError(f"simulate: {filled:,} of {count:,} records were filled")
        result = SimResult(name, opts, seed, agent_names, table, tuple(g.metric_names), unit, meta, acc)
        if json_out is not None:
            json_out.commit(result.to_json())
    except KeyboardInterrupt as e:
        term = isinstance(e, Terminated)
        how = "terminated (SIGTERM)" if term else "interrupted"
        with results_io.further_interrupts_ignored():
            kept = writer.abort(how) if writer is not None else None
            if json_out is not None:
                json_out.abort()
        done = writer.rows if writer is not None else acc.n
        where = f"; {done:,} {unit}s kept in {kept}" if kept else ""
        stop = RunInterrupted(f"{how} after {done:,} of {count:,} {unit}s{where}")
        stop.signal = "SIGTERM" if term else "SIGINT"
        raise stop from None
    except BaseException as e:
        with results_io.further_interrupts_ignored():
            if writer is not None:
                writer.abort(f"stopped by {type(e).__name__}")
            if json_out is not None:
                json_out.abort()
        raise
    finally:
        sigint.__exit__()
        if bar is not None:
            bar.close()
        if close is not None:
            close()
    return result
