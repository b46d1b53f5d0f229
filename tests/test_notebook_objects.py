"""Issue 30: one notebook view per object. Summary, SimResult, SweepResult, compare()'s result and
State each have `_repr_html_`; cardsim.views delegates to them (no second, cruder view); and the
small CLI additions: `cardsim --version`, `cardsim games GAME`."""
import html
import json
import re

import pytest

import cardsim
from cardsim import views
from cardsim.analysis.summary import fmt_p, pct
from cardsim.cli import main


def _text(h: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", h)))


@pytest.fixture(scope="module")
def run():
    return cardsim.simulate("karnoffel", deals=300, seed=4, workers=1, agents=["greedy", "random"] * 2)


def test_summary_view_is_the_summary_repr(run):
    s = run.summary()
    h = views.summary_html(s)
    assert h == s._repr_html_()
    assert views.summary_html(dict(s)) == h                      # a plain dict (e.g. from JSON) too
    t = _text(h)
    assert "Verdict:" in t and "Holm" in t and "Agents:" in t and "greedy, random, greedy, random" in t
    assert "seats 0 & 2" in t and "['greedy'" not in t            # sides, agents as text
    for x in s.sides():
        assert pct(x["win_rate"]) in t and fmt_p(x["p_holm"]) in t


def test_result_sweep_compare_state_views(run):
    h = run._repr_html_()
    assert run.summary()._repr_html_() in h and "table of 300 rows" in h
    assert views.result_html(run) == h
    sw = cardsim.sweep("exposure", option="points_per_trick", values=[2, 3], deals=100, workers=1)
    hs = sw._repr_html_()
    assert views.sweep_html(sw) == hs and "<table class='sweep'>" in hs and "Agents:" in hs
    c = cardsim.compare(run, cardsim.simulate("karnoffel", deals=300, seed=4, workers=1))
    hc = c._repr_html_()
    assert views.compare_html(c) == hc and html.escape(c["verdict"]) in hc
    assert "Holm p" in hc and "seats 0 &amp; 2 mean return" in hc
    assert views.compare_html(json.loads(json.dumps(c))) == hc   # the JSON of a comparison shows the same
    assert str(c).startswith("A: karnoffel")
    st = cardsim.make("karnoffel").new_state(1, 0)
    assert st._repr_html_() == views.state_html(st)


def test_views_refuse_other_objects(run):
    for f in (views.result_html, views.sweep_html, views.compare_html):
        for bad in (None, 3, "x", run.summary() if f is not views.result_html else {}):
            with pytest.raises(cardsim.ConfigError, match="needs a"):
                f(bad)


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r"cardsim \d+\.\d+\.\d+\S*", out)


def test_games_game_shows_one_game(capsys):
    assert main(["games", "basra"]) == 0
    out = capsys.readouterr().out
    info = cardsim.game.game_info("basra")
    assert out.startswith(f"{info.title} (basra)") and info.rules_doc in out
    for o in info.options:
        assert f"  {o.name}: " in out and o.doc in out
    assert "  target: int (checked by the game; see the doc), default 101  [only when scope is 'match']" in out
    assert "deck: int (checked by the game; see the doc), default 52" in out
    assert "majority_points: int in 0..10000, default 30" in out
    for k in info.presets:
        assert f"\n  {k}: " in out
    assert main(["games", "nosuch"]) == 2
    assert "unknown game 'nosuch'" in capsys.readouterr().err
