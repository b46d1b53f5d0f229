"""Dask scale-out: a real LocalCluster (worker processes) gives bit-identical tables and summaries
to the thread pool, through backend="dask" (own cluster or a given address/Client) and through
client.get_executor(). Workers need only the installed package."""
import json

import numpy as np
import pytest

import cardsim

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    from cardsim.executors import local_cluster

    c, cluster = local_cluster(2)
    assert all(env["MALLOC_TRIM_THRESHOLD_"] == str(1 << 27) for env in c.run(lambda: dict(__import__("os").environ)).values())
    yield c
    c.close()
    cluster.close()


def _same(a, b):
    assert np.array_equal(a.table, b.table)
    assert json.dumps(a.summary(), sort_keys=True) == json.dumps(b.summary(), sort_keys=True)


@pytest.mark.parametrize("name", cardsim.GAMES)
def test_dask_cluster_identical_to_threads(client, name):
    g = cardsim.make(name)
    agents = ["greedy"] + ["random"] * (g.num_players - 1)
    ref = cardsim.simulate(g, deals=500, seed=21, agents=agents, workers=2)
    viaddr = cardsim.simulate(g, deals=500, seed=21, agents=agents, backend="dask", address=client.scheduler.address,
                              chunk_size=64)
    _same(ref, viaddr)
    viaclient = cardsim.simulate(g, deals=500, seed=21, agents=agents, backend="dask", address=client, chunk_size=99)
    _same(ref, viaclient)
    viaexec = cardsim.simulate(g, deals=500, seed=21, agents=agents, executor=client.get_executor(), chunk_size=500)
    _same(ref, viaexec)
    sk = cardsim.skill(g, deals=200, seed=2, backend="dask", address=client)
    assert sk == cardsim.skill(g, deals=200, seed=2, workers=1)


def test_dask_block_statistics_on_workers(client, monkeypatch):
    from cardsim import stats

    monkeypatch.setattr(stats, "BLOCK", 64)      # travels with the tasks: workers cut the same blocks
    g = cardsim.GAMES[0]
    ref = cardsim.simulate(g, deals=700, seed=6, workers=1, chunk_size=7)
    res = cardsim.simulate(g, deals=700, seed=6, backend="dask", address=client, chunk_size=128, keep_table=False)
    assert json.dumps(ref.summary(), sort_keys=True) == json.dumps(res.summary(), sort_keys=True)


def test_dask_local_cluster_started_by_simulate():
    g = cardsim.GAMES[0]
    ref = cardsim.simulate(g, deals=300, seed=4, workers=1, keep_table=False)
    res = cardsim.simulate(g, deals=300, seed=4, backend="dask", workers=2, chunk_size=50, keep_table=False)
    assert json.dumps(ref.summary(), sort_keys=True) == json.dumps(res.summary(), sort_keys=True)
