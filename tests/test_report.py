"""The HTML report end to end: from a small run, the page exists, embeds its PNG plots and states
the same numbers as summary()."""
import base64
import re

import pytest

import cardsim
from cardsim.report import fmt, fmt_ci, write_report

pytest.importorskip("matplotlib")


def _pngs(text):
    return re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", text)


@pytest.mark.parametrize("name", cardsim.GAMES)
def test_report_end_to_end(name, tmp_path):
    g = cardsim.make(name)
    agents = ["greedy"] + ["random"] * (g.num_players - 1)
    res = cardsim.simulate(g, deals=300, seed=7, agents=agents, workers=2)
    res.save(tmp_path / "run.parquet")
    out = write_report(str(tmp_path / "run.parquet"), tmp_path / "report.html")
    text = (tmp_path / "report.html").read_text()
    assert out.endswith("report.html")
    pngs = _pngs(text)
    assert len(pngs) == 4
    for p in pngs:
        assert base64.b64decode(p)[:8] == b"\x89PNG\r\n\x1a\n"
    for key in ("distributions", "win_rates", "running_means", "metrics"):
        assert f"id='{key}'" in text
    s = res.summary()
    assert f"{s['deals']:,} deals" in text
    for x in s["seats"]:
        for v in (fmt(x["mean"]), fmt_ci(x["ci95"]), fmt(x["win_rate"]), fmt_ci(x["win_ci95"]), fmt(x["advantage"])):
            assert v in text
    assert fmt(s["draws"]["rate"]) in text
    assert fmt(s["duration"]["actions"]["mean"]) in text
    assert fmt_ci(s["branching_factor"]["ci95"]) in text
    assert fmt(s["decision_share"]["value"]) in text
    if s["first_player"]:
        assert fmt(s["first_player"]["advantage"]) in text
    for k, v in s["metrics"].items():
        assert f"<td>{k}</td><td>{fmt(v['mean'])}</td><td>{fmt_ci(v['ci95'])}</td>" in text


def test_report_from_summary_json_states_the_same_numbers(tmp_path):
    g = cardsim.GAMES[0]
    res = cardsim.simulate(g, deals=200, seed=1, keep_table=False)
    res.save(tmp_path / "s.json")
    write_report(tmp_path / "s.json", tmp_path / "a.html")
    write_report(res, tmp_path / "b.html")
    strip = lambda t: re.sub(r"src='data:image/png;base64,[^']+'", "", t)  # noqa: E731
    assert strip((tmp_path / "a.html").read_text()) == strip((tmp_path / "b.html").read_text())
    sk = cardsim.skill(g, deals=100, seed=1)
    write_report(res, tmp_path / "c.html", skill=sk)
    text = (tmp_path / "c.html").read_text()
    assert "Skill: greedy over random" in text and fmt(sk["seats"][0]["gain"]) in text


def test_report_of_a_match_run_with_lead_changes(tmp_path):
    g = cardsim.GAMES[0]
    if "scope" not in cardsim.make(g).options:
        pytest.skip("no match scope")
    res = cardsim.simulate(g, matches=20, seed=1, lead_changes=True)
    write_report(res, tmp_path / "m.html")
    text = (tmp_path / "m.html").read_text()
    assert "lead changes per match" in text and fmt(res.summary()["lead_changes"]["mean"]) in text
