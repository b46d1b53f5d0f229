"""Where a run's chunk tasks execute: one factory, `open_executor`, for the calling thread, a
thread pool, any concurrent.futures.Executor, or a Dask cluster; and `ordered`, which streams
their results back in task order with a bounded number in flight.

The kernels release the GIL, so threads scale without processes. `backend="dask"` runs the chunks
on a Dask cluster: `address="tcp://head:8786"` (or a `distributed.Client`) connects to a running
scheduler, no address starts a LocalCluster (one single-threaded worker process per core, see
`local_cluster`). `pip install 'cardsim[dask]'` brings what it needs; every node needs cardsim
installed, nothing else: a task carries only (game name, options, seed, deal range, agent codes).
"""
from __future__ import annotations

import collections
import os
from concurrent.futures import Executor, Future, ThreadPoolExecutor

from cardsim.errors import ConfigError

BACKENDS = ("threads", "dask")


class Inline(Executor):
    """Runs each task on submit, on the calling thread (one worker, or Python agents that must see
    their calls in deal order)."""

    def submit(self, fn, *args, **kwargs):
        f = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            f.set_exception(e)
        return f


def ordered(executor, fn, tasks, inflight: int):
    """Submit `fn(*t)` for each t of the iterable `tasks` (consumed lazily: at most `inflight`
    pending) and yield the results in task order. Pending futures are cancelled if the consumer
    stops early (an error, Ctrl-C)."""
    q: collections.deque = collections.deque()
    it = iter(tasks)
    try:
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
    finally:
        for f in q:
            f.cancel()


# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also freezes glibc's mmap
# threshold: every temporary array above 128 kB then costs fresh pages, and the per-block
# statistics ran 3.7x slower on workers than in-process (measured: 0.15 s vs 0.04 s per 131k
# deals). Workers that only run cardsim chunks return small results, so keep the heap instead.
WORKER_ENV = {"MALLOC_TRIM_THRESHOLD_": 1 << 27, "MALLOC_MMAP_THRESHOLD_": 1 << 25, "OMP_NUM_THREADS": 1}

_DASK_MISSING = "backend='dask' needs dask.distributed: pip install 'cardsim[dask]'"


def local_cluster(workers: int | None = None, **kwargs):
    """Start a Dask LocalCluster for cardsim (one single-threaded worker process per core, no
    fixed dashboard port, WORKER_ENV in the workers) and a Client on it: returns (client,
    cluster). Reuse the client across simulate() calls with `address=client`. For a cluster
    started by hand, give the workers the same environment (e.g. `MALLOC_TRIM_THRESHOLD_=134217728
    MALLOC_MMAP_THRESHOLD_=33554432 dask worker ...`)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ConfigError(_DASK_MISSING) from e

    n = workers or os.cpu_count() or 1
    env = {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in WORKER_ENV.items()}
    opts = {"n_workers": n, "threads_per_worker": 1, "processes": True, "dashboard_address": ":0", **kwargs}
    with dask.config.set(env):
        cluster = LocalCluster(**opts)
    return Client(cluster), cluster


def _dask_executor(address, workers):
    """A concurrent.futures.Executor on a Dask cluster, and a closer for what we started."""
    if address is not None and hasattr(address, "get_executor"):          # a Client
        return address.get_executor(), lambda: None
    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ConfigError(_DASK_MISSING) from e
    if address is not None:
        client = Client(address)
        return client.get_executor(), client.close
    client, cluster = local_cluster(workers)

    def close():
        client.close()
        cluster.close()
    return client.get_executor(), close


def open_executor(executor=None, backend: str = "threads", address=None, workers: int = 1,
                  tasks: int = 2, inline: bool = False):
    """The executor for a run and a closer (None when the caller owns it).

    executor: any concurrent.futures.Executor (or a distributed.Client) overrides the rest.
    backend: "threads" (a pool of `workers` threads; the calling thread itself when workers == 1,
      there is at most one task, or `inline` asks for deal order on this thread) or "dask".
    """
    if executor is not None:
        if hasattr(executor, "get_executor") and not isinstance(executor, Executor):
            return executor.get_executor(), None         # a dask Client
        if not isinstance(executor, Executor):
            raise ConfigError(f"executor must be a concurrent.futures.Executor or a distributed.Client, got {type(executor).__name__}")
        return executor, None
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {list(BACKENDS)}, got {str(backend)[:40]!r}")
    if backend == "dask":
        return _dask_executor(address, workers)
    if workers == 1 or tasks <= 1 or inline:
        return Inline(), None
    pool = ThreadPoolExecutor(max_workers=workers)
    return pool, lambda: pool.shutdown(wait=True, cancel_futures=True)
