"""The batch runner: determinism over workers/chunks/executors, columns, streaming, files, matches,
Python agents, lead changes and argument checks. Generic over every registered game."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import cardsim
from cardsim import stats
from cardsim.core._engine import AGENT_CODES
from cardsim.result import accumulate_table
from cardsim.runner import LeadTracker, lead_changes_of

GAMES = list(cardsim.GAMES)


def _summary_eq(a, b):
    import json

    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.fixture
def small_block(monkeypatch):
    """Canonical blocks of 64 deals, so that small runs cross many block boundaries."""
    monkeypatch.setattr(stats, "BLOCK", 64)


@pytest.mark.parametrize("name", GAMES)
def test_identical_for_any_workers_chunks_executor(name, small_block):
    g = cardsim.make(name)
    agents = ["greedy"] + ["random"] * (g.num_players - 1)
    base = cardsim.simulate(g, deals=300, seed=5, agents=agents, workers=1)
    s0 = base.summary()
    for kw in ({"workers": 2, "chunk_size": 7}, {"workers": 2, "chunk_size": 64}, {"workers": 1, "chunk_size": 1},
               {"workers": 2, "chunk_size": 299}):
        other = cardsim.simulate(g, deals=300, seed=5, agents=agents, **kw)
        assert np.array_equal(base.table, other.table)
        assert _summary_eq(s0, other.summary())
    with ThreadPoolExecutor(3) as ex:
        other = cardsim.simulate(g, deals=300, seed=5, agents=agents, executor=ex, chunk_size=13)
    assert np.array_equal(base.table, other.table)
    for chunk in (11, 128):     # rows merged on the driver / block statistics from the workers
        streamed = cardsim.simulate(g, deals=300, seed=5, agents=agents, workers=2, chunk_size=chunk, keep_table=False)
        assert streamed.table is None
        assert _summary_eq(s0, streamed.summary())
    # the summary rebuilt from the table alone is the same, bit for bit
    rebuilt = accumulate_table(base.table, g.num_players, g.metric_names, True, False).summary(base._meta_for_summary())
    assert _summary_eq(s0, rebuilt)


@pytest.mark.parametrize("name", GAMES)
def test_columns_match_the_kernel(name):
    g = cardsim.make(name)
    P = g.num_players
    res = cardsim.simulate(g, deals=40, seed=11, agents="random", workers=1)
    t = res.table
    names = t.dtype.names
    assert names[:1 + P] == ("deal",) + tuple(f"return_{p}" for p in range(P))
    assert {"winners", "first_player", "actions", "decisions", "legal_sum"} <= set(names)
    assert names[-len(g.metric_names):] == tuple(g.metric_names) if g.metric_names else True
    raw = g.spec.run_batch(11, 0, 40, [0] * P)
    assert np.array_equal(t["deal"], np.arange(40))
    assert np.array_equal(res.returns(), raw["returns"])
    assert np.array_equal(t["actions"], raw["actions"])
    assert np.array_equal(t["decisions"], raw["decisions"])
    assert np.array_equal(t["legal_sum"], raw["legal_sum"])
    for i, m in enumerate(g.metric_names):
        assert np.array_equal(t[m], raw["metrics"][:, i])
    for d in range(40):
        assert t["first_player"][d] == g.new_state(11, d).current_player
        r = raw["returns"][d]
        want = 0 if r.max() == r.min() else sum(1 << p for p in range(P) if r[p] == r.max())
        assert t["winners"][d] == want
    assert (t["decisions"] <= t["actions"]).all()
    assert (t["legal_sum"] >= 2 * t["decisions"]).all()


def test_summary_numbers_against_numpy():
    g = cardsim.make(GAMES[0])
    P = g.num_players
    res = cardsim.simulate(g, deals=500, seed=2, agents="random", workers=2)
    s, t = res.summary(), res.table
    assert s["deals"] == 500 and s["game"] == g.name and s["unit"] == "deal"
    from scipy import stats as sst

    for p in range(P):
        x = t[f"return_{p}"]
        assert s["seats"][p]["mean"] == pytest.approx(x.mean())
        assert s["seats"][p]["sd"] == pytest.approx(x.std(ddof=1))
        lo, hi = sst.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=x.std(ddof=1) / np.sqrt(len(x)))
        assert s["seats"][p]["ci95"] == pytest.approx((lo, hi))
        wins = int(((t["winners"] >> p) & 1).sum())
        assert s["seats"][p]["wins"] == wins
        assert s["seats"][p]["win_rate"] == pytest.approx(wins / 500)
        adv = x - res.returns().mean(axis=1)
        assert s["seats"][p]["advantage"] == pytest.approx(adv.mean(), abs=1e-9)
    assert s["draws"]["count"] == int((t["winners"] == 0).sum())
    assert s["duration"]["actions"]["mean"] == pytest.approx(t["actions"].mean())
    assert s["duration"]["decisions"]["mean"] == pytest.approx(t["decisions"].mean())
    forced = t["actions"] - t["decisions"]
    assert s["branching_factor"]["value"] == pytest.approx((t["legal_sum"].sum() + forced.sum()) / t["actions"].sum())
    assert s["branching_at_decisions"]["value"] == pytest.approx(t["legal_sum"].sum() / t["decisions"].sum())
    assert s["decision_share"]["value"] == pytest.approx(t["decisions"].sum() / t["actions"].sum())
    lo, hi = s["decision_share"]["ci95"]
    assert lo <= s["decision_share"]["value"] <= hi
    # first-player frame: offset 0 is the first player's return
    fp = t["first_player"].astype(int)
    first = res.returns()[np.arange(500), fp]
    assert s["first_player"]["positions"][0]["mean"] == pytest.approx(first.mean())
    for m in g.metric_names:
        assert s["metrics"][m]["mean"] == pytest.approx(t[m].mean())
        h = s["metrics"][m]["hist"]
        assert sum(h["counts"]) == 500
    assert s["running"]["n"][-1] <= 500 and s["running"]["n"][0] == 1
    assert s["running"]["mean"][0] == pytest.approx(list(res.returns()[0]))


@pytest.mark.parametrize("name", GAMES)
def test_files_roundtrip_and_streaming_out(name, tmp_path, small_block):
    g = cardsim.make(name)
    res = cardsim.simulate(g, deals=150, seed=8, agents="random", workers=2, chunk_size=17)
    for ext in ("parquet", "csv"):
        path = tmp_path / f"r.{ext}"
        res.save(path)
        back = cardsim.load(path)
        assert np.array_equal(back.table, res.table)
        assert back.game == g.name and back.seed == 8 and back.metric_names == tuple(g.metric_names)
        assert _summary_eq(back.summary(), res.summary())
        # streamed while running, without keeping the table
        path2 = tmp_path / f"s.{ext}"
        st = cardsim.simulate(g, deals=150, seed=8, agents="random", workers=2, chunk_size=23, keep_table=False,
                              out=str(path2))
        back2 = cardsim.load(path2)
        assert np.array_equal(back2.table, res.table)
        assert _summary_eq(back2.summary(), st.summary())
    res.save(tmp_path / "s.json")
    js = cardsim.load(tmp_path / "s.json")
    assert js["deals"] == 150 and js["seats"][0]["mean"] == res.summary()["seats"][0]["mean"]


def test_zero_deals_and_empty_files(tmp_path):
    res = cardsim.simulate(GAMES[0], deals=0, seed=1, out=str(tmp_path / "e.parquet"))
    assert len(res.table) == 0 and res.summary()["deals"] == 0
    assert len(cardsim.load(tmp_path / "e.parquet").table) == 0


@pytest.mark.parametrize("name", GAMES)
def test_matches(name):
    info = cardsim.game.game_info(name)
    if not any(o.name == "scope" for o in info.options):
        pytest.skip("no match scope")
    opts = {"num_deals": 2} if any(o.name == "num_deals" for o in info.options) else {}
    res = cardsim.simulate(name, matches=12, seed=3, workers=2, chunk_size=5, lead_changes=True, **opts)
    assert res.unit == "match" and len(res.table) == 12 and res.options["scope"] == "match"
    g = cardsim.make(name, scope="match", **opts)
    greedy = [AGENT_CODES["greedy"]] * g.num_players        # the default agents
    assert np.array_equal(res.returns(), g.spec.run_batch(3, 0, 12, greedy)["returns"])
    s = res.summary()
    assert s["unit"] == "match" and s["lead_changes"]["mean"] >= 0
    for d in range(12):
        assert res.table["lead_changes"][d] == lead_changes_of(g, 3, d, greedy)
    # a Game built with scope="deal" is rebuilt for matches
    again = cardsim.simulate(cardsim.make(name, **opts), matches=12, seed=3, workers=1, lead_changes=True)
    assert np.array_equal(again.table, res.table)
    with pytest.raises(cardsim.ConfigError):
        cardsim.simulate(name, matches=3, scope="deal")


def test_lead_tracker_rule():
    lt = LeadTracker()
    for r in ([0, 0, 0, 0], [5, 0, 5, 0], [5, 0, 5, 0], [5, 6, 5, 6], [7, 6, 7, 6], [7, 7, 7, 7], [7, 8, 7, 8],
              [9, 9, 9, 9], [9, 10, 9, 10]):
        lt.see(np.array(r, float))
    # leaders: {0,2} -> {1,3} (1) -> {0,2} (2) -> all tied (ignored) -> {1,3} (3) -> tie -> {1,3} (no change)
    assert lt.changes == 3
    lt = LeadTracker()
    for r in ([1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 1, 2]):
        lt.see(np.array(r, float))
    # {0} -> {0,1} (shares 0: no change) -> {1} (shares 1 with {0,1}: no change) -> {2} (1)
    assert lt.changes == 1


class LastLegal:
    """A Python agent: always the highest legal action."""

    def act(self, state):
        return state.legal_actions()[-1]


def _manual(g, seed, deals):
    out = []
    for d in range(deals):
        st = g.new_state(seed, d)
        lt = LeadTracker()
        while not st.is_terminal():
            if len(st.history()) > 20_000:
                pytest.skip("always playing the highest action does not end a deal of this game")
            st.apply(st.legal_actions()[-1])
            lt.see(st.standing())
        out.append((st.returns(), len(st.history()), lt.changes, lt.lead_from))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_python_agents_slow_path(name):
    g = cardsim.make(name)
    P = g.num_players
    expected = _manual(g, 4, 6)
    slow = cardsim.simulate(g, deals=6, seed=4, agents=[LastLegal()] * P, workers=2, chunk_size=4, lead_changes=True)
    for d, (r, n, lc, lf) in enumerate(expected):
        assert np.array_equal(slow.returns()[d], r)
        assert slow.table["actions"][d] == n
        assert slow.table["lead_changes"][d] == lc
        assert slow.table["lead_from"][d] == lf
    again = cardsim.simulate(g, deals=6, seed=4, agents=[LastLegal()] * P, workers=1, chunk_size=1, lead_changes=True)
    assert np.array_equal(again.table, slow.table)
    mixed1 = cardsim.simulate(g, deals=5, seed=4, agents=[LastLegal()] + ["random"] * (P - 1), workers=2, chunk_size=2)
    mixed2 = cardsim.simulate(g, deals=5, seed=4, agents=[LastLegal()] + ["greedy"] * (P - 1), workers=1)
    mixed3 = cardsim.simulate(g, deals=5, seed=4, agents=[LastLegal()] + ["random"] * (P - 1), workers=1)
    assert np.array_equal(mixed1.table, mixed3.table)
    assert len(mixed2.table) == 5


def test_skill_is_deterministic_and_paired():
    g = cardsim.make(GAMES[0])
    a = cardsim.skill(g.name, deals=400, seed=1, workers=1)
    b = cardsim.skill(g.name, deals=400, seed=1, workers=2, chunk_size=33)
    assert a == b
    assert len(a["seats"]) == g.num_players and a["deals"] == 400
    P = g.num_players
    base = g.spec.run_batch(1, 0, 400, [0] * P)["returns"]
    alt = g.spec.run_batch(1, 0, 400, [1] + [0] * (P - 1))["returns"]
    assert a["seats"][0]["gain"] == pytest.approx((alt[:, 0] - base[:, 0]).mean())
    lo, hi = a["seats"][0]["ci95"]
    assert lo <= a["seats"][0]["gain"] <= hi


@pytest.mark.parametrize("kw", [{"deals": -1}, {"deals": 1.5}, {"deals": True}, {"seed": -1}, {"workers": 0},
                                {"chunk_size": 0}, {"backend": "ray"}, {"agents": "nobody"}, {"agents": ["random"]},
                                {"agents": [object()] * 4}, {"deals": 3, "matches": 3}, {"no_such_option": 1}])
def test_bad_arguments(kw):
    with pytest.raises(cardsim.ConfigError):
        cardsim.simulate(GAMES[0], **kw)


def test_options_go_to_make_not_simulate_with_a_game():
    with pytest.raises(cardsim.ConfigError):
        cardsim.simulate(cardsim.make(GAMES[0]), deals=2, scope="match")


def test_progress_bar(capsys):
    cardsim.simulate(GAMES[0], deals=50, seed=1, workers=1, chunk_size=10, progress=True)
    err = capsys.readouterr().err
    assert "50/50" in err


def test_cli_and_api_default_to_the_same_deal_count():
    """One constant (runner.DEFAULT_DEALS) for simulate(), skill(), sweep() and the CLI."""
    import inspect

    from cardsim import cli, runner
    from cardsim.analysis import skill, sweep

    assert runner.DEFAULT_DEALS == 10_000
    assert inspect.signature(skill.skill).parameters["deals"].default == runner.DEFAULT_DEALS
    assert inspect.signature(sweep.sweep).parameters["deals"].default == runner.DEFAULT_DEALS
    assert len(cardsim.simulate("karnoffel", agents="random", workers=1).table) == runner.DEFAULT_DEALS
    src = inspect.getsource(cli)
    import re

    assert not re.search(r"(default=|default: |else )10_?000\b", src) and src.count("DEFAULT_DEALS") >= 4


def test_counts_use_the_one_inclusive_validator():
    from cardsim import runner
    from cardsim.core._engine import check_int

    assert not hasattr(runner, "check_int") or runner.check_int is check_int
    assert runner.check_count("deals", 5, 0, 5) == 5          # inclusive upper bound
    with pytest.raises(cardsim.ConfigError, match="deals"):
        runner.check_count("deals", 6, 0, 5)
    with pytest.raises(cardsim.ConfigError, match="seed"):
        cardsim.simulate("karnoffel", deals=1, seed=2**64)
    assert len(cardsim.simulate("karnoffel", deals=1, seed=2**64 - 1, workers=1).table) == 1
