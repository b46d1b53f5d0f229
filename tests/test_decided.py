"""Decisiveness: the kernel's lead_from carried through the runner, the table, saved files and the
summary (cardsim.stats: `decided`), checked against a direct computation from run_batch on the
same seeds; a run without lead_changes has neither; a table saved before lead_from existed still
loads."""
import numpy as np
import pytest

import cardsim
from cardsim import stats
from cardsim.result import SimResult, load
from cardsim.stats import wilson


def direct(g, seed, n, code):
    """(early, at, live, lead_from) straight from run_batch: the reference."""
    P = g.num_players
    r = g.spec.run_batch(seed, 0, n, [code] * P, lead_changes=True)
    lf = r["lead_from"].astype(np.int64)
    a = r["actions"].astype(np.int64)
    return int((lf <= a - P).sum()), lf / a, int(((lf > 0) & (lf < a)).sum()), r["lead_from"]


@pytest.mark.parametrize("game", ["karnoffel", "basra", "hearts"])
def test_simulate_summary_equals_run_batch(game):
    g = cardsim.make(game)
    n = 700
    early, at, live, lf = direct(g, 5, n, 1)
    res = cardsim.simulate(g, deals=n, seed=5, agents="greedy", lead_changes=True, workers=2, chunk_size=150)
    assert res.table["lead_from"].dtype == np.int32
    assert np.array_equal(res.table["lead_from"], lf)
    d = res.summary()["decided"]
    assert d["early"] == early and d["early_rate"] == pytest.approx(early / n)
    assert tuple(d["early_ci95"]) == wilson(early, n)
    assert d["at"]["mean"] == pytest.approx(at.mean(), rel=1e-12)
    lo, hi = d["at"]["ci95"]
    assert lo <= d["at"]["mean"] <= hi
    assert d["live"] == live and d["measured"] == (live > 0)


def test_decided_before_the_last_trick_in_a_trick_game():
    """Karnöffel: lead_from <= actions - players means the winners led before the last trick, on the
    running standing (the tricks each team has won), and some deals are decided that early."""
    g = cardsim.make("karnoffel")
    P = g.num_players
    r = g.spec.run_batch(2, 0, 40, [1] * P, lead_changes=True)
    early = np.flatnonzero(r["lead_from"] <= r["actions"] - P)
    assert 0 < len(early) < 40
    for d in early[:5]:
        st = g.new_state(2, int(d))
        acts = cardsim.runner.kernel_actions(g.spec, 2, int(d), [1] * P)
        for a in acts[:len(acts) - P]:                  # everything but the last trick
            st.apply(a)
        before = np.asarray(st.standing(), float)
        for a in acts[len(acts) - P:]:
            st.apply(a)
        final = np.asarray(st.returns(), float)
        winners = set(np.flatnonzero(final == final.max()))
        assert winners == set(np.flatnonzero(before == before.max())) and before.max() > before.min()


def test_block_and_row_paths_give_the_same_summary():
    g = cardsim.make("karnoffel")
    n = stats.BLOCK + 300
    a = cardsim.simulate(g, deals=n, seed=1, agents="random", lead_changes=True, workers=2,
                         chunk_size=stats.BLOCK, keep_table=False).summary()
    b = cardsim.simulate(g, deals=n, seed=1, agents="random", lead_changes=True, workers=1, chunk_size=777).summary()
    assert a["decided"] == b["decided"] and a["lead_changes"] == b["lead_changes"]
    assert a["metrics"] == b["metrics"]


def test_no_lead_from_without_lead_changes():
    res = cardsim.simulate("exposure", deals=50, seed=1, workers=1)
    assert "lead_from" not in res.table.dtype.names and res.summary()["decided"] is None


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_saved_tables_keep_lead_from(tmp_path, ext):
    res = cardsim.simulate("exposure", deals=200, seed=4, lead_changes=True, workers=1)
    path = tmp_path / f"run.{ext}"
    res.save(path)
    back = load(path)
    assert np.array_equal(back.table, res.table)
    assert back.summary()["decided"] == res.summary()["decided"]


def test_a_table_saved_before_lead_from_still_loads(tmp_path):
    from numpy.lib import recfunctions as rfn

    res = cardsim.simulate("karnoffel", deals=120, seed=4, lead_changes=True, workers=1)
    old = rfn.drop_fields(res.table, "lead_from", usemask=False)
    r0 = SimResult(res.game, res.options, res.seed, res.agents, old, res.metric_names, res.unit, dict(res.meta))
    path = tmp_path / "old.parquet"
    r0.save(path)
    back = load(path)
    assert "lead_from" not in back.table.dtype.names
    s = back.summary()
    assert s["decided"] is None and s["lead_changes"] == res.summary()["lead_changes"]
    assert s["metrics"] == res.summary()["metrics"]


def test_summary_text_names_the_measure():
    text = str(cardsim.simulate("karnoffel", deals=300, seed=1, lead_changes=True, workers=1).summary())
    assert "decided before the last round" in text
