"""The balance atlas (cardsim.analysis.atlas, cardsim.atlas_site) and `cardsim tune`
(cardsim.analysis.tune): a small atlas's numbers equal direct simulate() calls on the same seeds,
a cached rerun computes nothing, an interrupt keeps every finished cell, Dask gives the same
numbers, and tune's comparisons are the paired differences they claim to be."""
import json

import numpy as np
import pytest

import cardsim
from cardsim.analysis import atlas as A
from cardsim.analysis import tune as T
from cardsim.errors import ConfigError
from cardsim.game import game_info

GAMES = ["karnoffel", "exposure"]
SMALL = A.Budget(play=300, gap=80, search=0, search_scope="none")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("atlas")
    atlas = A.build_atlas(GAMES, results=d / "cells", budget=SMALL, seed=3, progress=False, workers=2)
    return d, atlas


def test_plan_covers_every_preset_and_player_count_the_games_accept():
    configs, cells, skipped = A.plan(GAMES, budget=SMALL)
    for g in GAMES:
        info = game_info(g)
        seen = {(c.variant, c.players) for c in configs if c.game == g}
        refused = {(v, n) for gg, v, n, _ in skipped if gg == g}
        for n in info.players:
            for v in [None, *info.presets]:
                folded = any(c.same_as == v and c.players == n for c in configs if c.game == g)
                assert (v, n) in seen or (v, n) in refused or folded, (g, v, n)
    # every configuration has a random and a greedy play cell and a skill cell
    for c in configs:
        names = sorted(x.name for x in cells if x.config == c)
        assert names == ["gap:random->greedy", "play:greedy", "play:random"]


def test_refused_configurations_are_listed_with_the_games_reason():
    configs, skipped = A.configurations("basra")
    assert skipped and all(reason for *_, reason in skipped)
    # Basra's 44-card presets do not split into 3 hands
    assert any(n == 3 and "deck=44" in reason for _, _, n, reason in skipped)
    assert all(c.players in game_info("basra").players for c in configs)


def test_atlas_numbers_equal_direct_simulate_calls(built):
    _, atlas = built
    for c in atlas.configs[:3] + atlas.configs[-2:]:
        g = cardsim.make(c.game, **c.options)
        P = g.num_players
        for agent in ("random", "greedy"):
            rec = atlas.record(c, f"play:{agent}")["summary"]
            ref = cardsim.simulate(g, deals=300, seed=3, agents=[agent] * P, lead_changes=True, workers=1).summary()
            assert rec["seats"] == json.loads(json.dumps(ref["seats"]))
            assert rec["first_player"] == json.loads(json.dumps(ref["first_player"]))
            assert rec["duration"] == json.loads(json.dumps(ref["duration"]))
            assert rec["lead_changes"] == json.loads(json.dumps(ref["lead_changes"]))
            assert rec["metrics"] == json.loads(json.dumps(ref["metrics"]))
        # the skill cell: one greedy seat among random ones, seats rotated, paired by deal
        gap = atlas.record(c, "gap:random->greedy")["gap"]
        base = cardsim.simulate(g, deals=80, seed=3, agents=["random"] * P)
        diffs = np.zeros(80)
        wins = np.zeros(80)
        for p in range(P):
            ag = ["random"] * P
            ag[p] = "greedy"
            r = cardsim.simulate(g, deals=80, seed=3, agents=ag)
            diffs += r.table[f"return_{p}"] - base.table[f"return_{p}"]
            wins += ((r.table["winners"] >> p) & 1).astype(float) - ((base.table["winners"] >> p) & 1)
        assert gap["gain"] == pytest.approx(diffs.mean() / P, rel=1e-12, abs=1e-12)
        assert gap["win_gain"] == pytest.approx(wins.mean() / P, rel=1e-12, abs=1e-12)
        lo, hi = gap["win_gain_ci95"]
        assert lo <= gap["win_gain"] <= hi


def test_atlas_decisiveness_equals_run_batch(built):
    """Decided before the last round = lead_from <= actions - players, straight from run_batch's
    lead_from on the same seed and deals; decided at = the mean of lead_from / actions."""
    _, atlas = built
    for c in atlas.configs:
        g = cardsim.make(c.game, **c.options)
        P = g.num_players
        row = A.config_row(c, atlas)
        lives = 0
        for agent, code in (("random", 0), ("greedy", 1)):
            r = g.spec.run_batch(3, 0, 300, [code] * P, lead_changes=True)
            lf, acts = r["lead_from"].astype(np.int64), r["actions"].astype(np.int64)
            early = int((lf <= acts - P).sum())
            live = int(((lf > 0) & (lf < acts)).sum())
            lives += live
            rec = atlas.record(c, f"play:{agent}")["summary"]["decided"]
            assert rec["early"] == early and rec["live"] == live
            assert rec["at"]["mean"] == pytest.approx(float((lf / acts).mean()), rel=1e-12)
            x = row["decided"][agent]
            assert x["early"] == pytest.approx(early / 300) and x["early_ci95"][0] - 1e-12 <= x["early"] <= x["early_ci95"][1] + 1e-12
        assert row["decided"]["measured"] == (lives > 0)
        # both games keep a running standing (tricks won, the deal's points so far): measured
        assert lives > 0 and row["standing"] == A.standing_definition(c.game) != ""
        if lives:
            assert row["decided_early"] == row["decided"]["greedy"]["early"]
            assert f"{100 * row['decided_early']:.1f}% of deals" in row["decisiveness_verdict"]


def test_a_game_scoring_only_at_the_end_is_not_measured():
    """No deal whose running standing showed the winner before the last action: the measure says
    nothing, and the atlas says so instead of reporting 'decided at the last action'."""
    def summ(early, live):
        return {"deals": 100, "decided": {"early": early, "early_rate": early / 100, "early_ci95": (0.0, 0.1),
                                          "at": {"mean": 1.0, "ci95": (1.0, 1.0)}, "live": live, "measured": live > 0}}

    d = A.decisiveness({"greedy": summ(3, 0), "random": summ(2, 0)})
    assert d["measured"] is False
    assert "not measured: the running standing never showed the winner" in A.decisiveness_verdict(d)
    d = A.decisiveness({"greedy": summ(70, 40), "random": summ(2, 0)})
    assert d["measured"] is True and "70.0% of deals" in A.decisiveness_verdict(d)
    assert A.decisiveness({"greedy": {"deals": 5, "decided": None}}) is None


def test_search_cells_in_every_configuration_where_the_budget_allows():
    b = A.Budget(play=10, gap=10, search=7, search_other=3, search_scope="all", per_game={"basra": {"search_other": 0}})
    configs, cells, _ = A.plan(["karnoffel", "basra"], budget=b)
    for c in configs:
        info = game_info(c.game)
        default = c.variant is None and c.players == info.default_players
        srch = [x for x in cells if x.config == c and x.agents == ("greedy", A.SEARCH_SPEC)]
        want = 7 if default else (0 if c.game == "basra" else 3)
        assert [x.deals for x in srch] == ([want] if want else [])
    # the committed budget searches every configuration, but for the games whose other
    # configurations it states it cannot afford (search_other = 0: Zhao Pengyou, Samba)
    configs, cells, _ = A.plan(None)
    searched = {x.config for x in cells if A.SEARCH_SPEC in x.agents}
    B = A.DEFAULT_BUDGET
    assert B.search_scope == "all"
    for c in configs:
        default = c.variant is None and c.players == game_info(c.game).default_players
        assert (c in searched) == (default or B.get(c.game, "search_other") > 0), c
    assert sum(1 for c in configs if c not in searched) <= 40


def test_cached_rerun_computes_nothing_and_gives_the_same_rows(built):
    d, atlas = built
    again = A.build_atlas(GAMES, results=d / "cells", budget=SMALL, seed=3, progress=False)
    assert again.computed == 0 and again.cached == len(again.cells) == len(atlas.cells)
    assert [r["fairness_verdict"] for r in again.rows] == [r["fairness_verdict"] for r in atlas.rows]


def test_changed_deals_make_cells_outdated_and_old_ones_are_pruned(tmp_path):
    b1 = A.Budget(play=100, gap=0, search=0, search_scope="none")
    a1 = A.build_atlas(["karnoffel"], results=tmp_path, budget=b1, progress=False, workers=1)
    files1 = set((tmp_path / "karnoffel").glob("*.json"))
    assert a1.computed == len(files1) == len(a1.cells)
    b2 = A.Budget(play=120, gap=0, search=0, search_scope="none")
    a2 = A.build_atlas(["karnoffel"], results=tmp_path, budget=b2, progress=False, workers=1)
    files2 = set((tmp_path / "karnoffel").glob("*.json"))
    assert a2.computed == len(a2.cells) and not (files1 & files2)


def test_a_changed_standing_outdates_only_the_play_cells(tmp_path, monkeypatch):
    """Lead tracking follows each game's running standing, which the engine fingerprint (rows
    without lead columns) does not see: the play cells' key carries lead_version, the skill cells'
    does not, so a changed standing recomputes the play cells and nothing else."""
    b = A.Budget(play=40, gap=10, search=0, search_scope="none")
    first = A.build_atlas(["karnoffel"], results=tmp_path, budget=b, progress=False, workers=1)
    assert first.computed == len(first.cells) and A.lead_version("karnoffel") == A.lead_version("karnoffel")
    monkeypatch.setattr(A, "lead_version", lambda game: "changed")
    again = A.build_atlas(["karnoffel"], results=tmp_path, budget=b, progress=False, workers=1)
    assert again.computed == sum(c.kind == "play" for c in again.cells) > 0
    assert again.cached == sum(c.kind == "gap" for c in again.cells) > 0
    assert len(list((tmp_path / "karnoffel").glob("*.json"))) == len(again.cells)     # the old ones pruned


def test_an_interrupt_keeps_every_finished_cell(tmp_path, monkeypatch):
    b = A.Budget(play=100, gap=0, search=0, search_scope="none")
    real = A.run_cell
    calls = []

    def flaky(cell, **run):
        calls.append(cell)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(cell, **run)

    monkeypatch.setattr(A, "run_cell", flaky)
    with pytest.raises(KeyboardInterrupt):
        A.build_atlas(["karnoffel"], results=tmp_path, budget=b, progress=False, workers=1)
    assert len(list((tmp_path / "karnoffel").glob("*.json"))) == 2
    assert not list((tmp_path / "karnoffel").glob("*.part"))
    monkeypatch.setattr(A, "run_cell", real)
    a = A.build_atlas(["karnoffel"], results=tmp_path, budget=b, progress=False, workers=1)
    assert a.cached == 2 and a.computed == len(a.cells) - 2


def test_a_corrupt_cell_file_is_recomputed(tmp_path):
    b = A.Budget(play=50, gap=0, search=0, search_scope="none")
    a = A.build_atlas(["exposure"], results=tmp_path, budget=b, progress=False, workers=1)
    f = sorted((tmp_path / "exposure").glob("*.json"))[0]
    f.write_text("{not json", encoding="utf-8")
    a2 = A.build_atlas(["exposure"], results=tmp_path, budget=b, progress=False, workers=1)
    assert a2.computed == 1 and a2.cached == len(a.cells) - 1


def test_dask_backend_gives_identical_cells(tmp_path):
    pytest.importorskip("distributed")
    from cardsim.executors import local_cluster

    b = A.Budget(play=200, gap=40, search=0, search_scope="none")
    client, cluster = local_cluster(1)
    try:
        ad = A.build_atlas(["exposure"], results=tmp_path / "d", budget=b, progress=False, backend="dask",
                           address=client)
    finally:
        client.close()
        cluster.close()
    at = A.build_atlas(["exposure"], results=tmp_path / "t", budget=b, progress=False, workers=2)
    for k, rec in at.records.items():
        other = dict(ad.records[k])
        assert {**rec, "seconds": 0} == {**other, "seconds": 0}


def test_site_pages_name_every_configuration_with_verdicts(built, tmp_path):
    from cardsim.atlas_site import write_site

    _, atlas = built
    written = write_site(atlas, tmp_path / "site")
    names = {p.name for p in written}
    assert {"index.md", "index.html", "karnoffel.md", "exposure.html", "atlas.json"} <= names
    index = (tmp_path / "site" / "index.md").read_text(encoding="utf-8")
    for c in atlas.configs:
        assert c.label in index
        page = (tmp_path / "site" / f"{c.game}.html").read_text(encoding="utf-8")
        assert f"id='{c.ident}'" in page
    assert (tmp_path / "site" / "img" / "overview.png").stat().st_size > 1000
    rows = json.loads((tmp_path / "site" / "atlas.json").read_text())["configurations"]
    assert len(rows) == len(atlas.configs)
    ranked = A.ranked(atlas.rows, "fairness")
    assert all(a["imbalance"] <= b["imbalance"] for a, b in zip(ranked, ranked[1:]))
    assert all(r["fairness_verdict"].endswith(".") and r["skill_verdict"].endswith(".") for r in atlas.rows)
    assert all(r["decisiveness_verdict"].endswith(".") for r in atlas.rows)
    assert "decided before the last round" in index
    for r in rows:
        assert "decided_early" in r and r["decisiveness_verdict"]


def test_fairness_reads_the_summary():
    r = cardsim.simulate("karnoffel", deals=2000, seed=1, agents="greedy", workers=1)
    f = A.fairness(r.summary())
    s = r.summary()
    wr = [x["win_rate"] for x in s["first_player"]["positions"]]
    assert f["first_player"]["edge"] == pytest.approx(wr[0] - np.mean(wr))
    assert f["imbalance"] == pytest.approx(max(abs(e["edge"]) for e in f["sides"] + f["positions"]), abs=1e-12)
    assert f["win_half_width"] == pytest.approx(1.959963984540054 * 0.5 / np.sqrt(2000))


def test_deals_for_the_stated_precision():
    n = A.deals_for_half_width(0.005)
    assert 38_000 < n < 39_000 and A.DEFAULT_BUDGET.play >= n


def test_atlas_refuses_bad_input():
    with pytest.raises(ConfigError, match="unknown game"):
        A.plan(["nope"])
    with pytest.raises(ConfigError, match="search_scope"):
        A.plan(["karnoffel"], budget=A.Budget(search_scope="some"))


# ---------------------------------------------------------------------------------------------
# tune
# ---------------------------------------------------------------------------------------------
def test_holm_adjustment():
    # textbook example: p = 0.01, 0.04, 0.03, 0.005 -> 0.03, 0.06, 0.06, 0.02
    assert T.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert T.holm([0.5]) == [0.5]


def test_tune_ranks_configurations_on_common_deals():
    t = T.tune("karnoffel", "first_player", {"players": [4, 5, 6], "stop_at_three": [True, False]}, deals=1500,
               seed=2, bootstrap=100, workers=1)
    # Karnoeffel is played by 4 or 6: the two 5-player configurations are refused and listed
    assert t["method"] == "grid" and t["n_configs"] == 4 and len(t["skipped"]) == 2
    assert abs(sum(r["p_best"] for r in t["ranking"]) - 1) < 1e-9
    losses = [r["loss"] for r in t["ranking"]]
    assert losses == sorted(losses)
    # each value is the first player's win edge of a direct simulate() on the same deals
    for r in t["ranking"]:
        res = cardsim.simulate("karnoffel", deals=1500, seed=2, agents="greedy", workers=1, **r["options"])
        pos = res.summary()["first_player"]["positions"]
        assert r["value"] == pytest.approx(pos[0]["win_rate"] - np.mean([x["win_rate"] for x in pos]), abs=1e-12)
    ref = next(r for r in t["ranking"] if r["current"])
    for r in t["ranking"]:
        if not r["current"]:
            # the paired change in the absolute edge
            assert r["change"]["diff"] == pytest.approx(abs(r["value"]) - abs(ref["value"]), abs=1e-12)
            lo, hi = r["change"]["ci_adj"]
            lo1, hi1 = r["change"]["ci95"]
            assert lo <= lo1 <= hi1 <= hi          # the Bonferroni interval is the wider one
    assert "Holm" in t.text() and t["verdict"] in t.text()


def test_tune_halving_keeps_the_current_rules_to_the_end():
    t = T.tune("karnoffel", "seat", {"players": [4, 6], "stop_at_three": [True, False]}, deals=2000,
               method="halving", bootstrap=50, workers=1)
    assert t["method"] == "halving" and len(t["rounds"]) >= 2
    assert t["rounds"][0]["configs"] == t["n_configs"] and t["rounds"][-1]["deals"] == 2000
    assert any(r["current"] for r in t["ranking"])


def test_tune_refuses_bad_input():
    with pytest.raises(ConfigError, match="objective"):
        T.tune("basra", "luck", {"majority_points": [0, 3]})
    with pytest.raises(ConfigError, match="no option"):
        T.tune("basra", "first_player", {"nonsense": [0, 3]})
    with pytest.raises(ConfigError, match="NAME=V1"):
        T.parse_over(["majority_points"])
    assert T.parse_over(["a=1,2", "b=x,True"]) == {"a": [1, 2], "b": ["x", True]}


def test_cli_atlas_and_tune(tmp_path, capsys):
    from cardsim.cli import main

    out = tmp_path / "site"
    assert main(["atlas", "exposure", "--out", str(out), "--deals", "100", "--gap-deals", "20", "--search-deals", "0",
                 "--quiet", "--workers", "1"]) == 0
    assert "cells computed" in capsys.readouterr().out and (out / "exposure.html").exists()
    assert main(["tune", "karnoffel", "--over", "players=4,6", "--deals", "300", "--bootstrap", "20",
                 "--workers", "1"]) == 0
    assert "Verdict:" in capsys.readouterr().out
    assert main(["tune", "karnoffel", "--over", "players"]) == 2


def test_cli_budget_overrides():
    import argparse

    from cardsim.atlas_site import _budget

    def ns(**kw):
        return argparse.Namespace(**{"deals": None, "gap_deals": None, "search_deals": None,
                                     "search_other_deals": None, **kw})

    assert _budget(ns()) == A.DEFAULT_BUDGET
    b = _budget(ns(search_deals=0))
    assert b.search_scope == "none" and not [c for c in A.plan(["karnoffel"], budget=b)[1] if A.SEARCH_SPEC in c.agents]
    b = _budget(ns(search_other_deals=0))
    _, cells, _ = A.plan(["basra"], budget=b)
    assert [c.config.ident for c in cells if A.SEARCH_SPEC in c.agents] == ["basra-default-4p"]
    b = _budget(ns(search_deals=5, search_other_deals=2))
    assert b.search_deals("basra", True) == 5 and b.search_deals("samba", False) == 2
    with pytest.raises(ConfigError, match="--search-other-deals"):
        _budget(ns(search_other_deals=-1))


def test_analysis_modules_stay_below_the_presentation_layer():
    from tests.test_layers import PRESENTATION, import_graph, layer_violations

    graph = import_graph()
    for m in ("cardsim.analysis.atlas", "cardsim.analysis.tune"):
        assert layer_violations(graph, m, {*PRESENTATION, "cardsim.atlas_site"}) == []


def test_basra_majority_bonus_drives_the_two_player_first_player_edge():
    """The docs/balance.md example: without the 30-point bonus for most cards, two-player Basra's
    first player loses the edge the bonus gives him (paired on the same deals, Holm-adjusted)."""
    t = T.tune("basra", "first_player", {"majority_points": [0, 30]}, base={"players": 2}, deals=4000,
               bootstrap=100, workers=1)
    best, = [r for r in t["ranking"] if r["options"]["majority_points"] == 0]
    cur, = [r for r in t["ranking"] if r["current"]]
    assert t["ranking"][0] is best and cur["ci95"][0] > 0.02          # the edge is there with the bonus
    assert best["change"]["p_holm"] < 0.01 and best["change"]["ci_adj"][1] < 0
    assert best["ci95"][0] < 0 < best["ci95"][1]                      # and gone without it


def test_the_committed_atlas_covers_every_configuration():
    """docs/balance is regenerated when a game, preset or player count is added (cardsim atlas
    --out docs/balance): its atlas.json lists exactly the configurations plan() makes."""
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[1] / "docs" / "balance" / "atlas.json").read_text())
    configs, _, _ = A.plan(None)
    assert [c["ident"] for c in data["configurations"]] == [c.ident for c in configs]
    assert data["budget"] == A.DEFAULT_BUDGET.to_dict()


def test_the_committed_atlas_measures_decisiveness_in_every_game():
    """Every configuration of every game has its share of deals decided before the last round,
    read on the game's running standing, whose definition each game's page states."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "docs" / "balance"
    data = json.loads((root / "atlas.json").read_text())
    for c in data["configurations"]:
        assert c["decided_early"] is not None and 0 <= c["decided_early"] <= 1, c["ident"]
        assert "not measured" not in c["decisiveness_verdict"], c["ident"]
    index = (root / "index.md").read_text()
    for g in cardsim.GAMES:
        text = A.standing_definition(g)
        assert text and text in (root / f"{g}.md").read_text() and text in index, g
