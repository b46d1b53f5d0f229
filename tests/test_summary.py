"""The Summary a game designer reads: default greedy agents, header (agents, variant, differing
options), verdict first, units, teams as sides, category metrics as labelled frequency tables,
constant metrics left out, p-values below 1e-300, text/HTML/dict/JSON faces, the glossary."""
import json
from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.analysis import glossary
from cardsim.analysis.summary import Summary, fmt_p, game_facts
from cardsim.core._engine import AGENT_CODES
from cardsim.stats import Accumulator

ROOT = Path(__file__).resolve().parents[1]


def test_default_agents_are_greedy_at_every_seat():
    g = cardsim.make(cardsim.GAMES[0])
    res = cardsim.simulate(g, deals=50, seed=2, workers=1)
    assert res.agents == ["greedy"] * g.num_players
    raw = g.spec.run_batch(2, 0, 50, [AGENT_CODES["greedy"]] * g.num_players)
    assert np.array_equal(res.returns(), raw["returns"])
    assert "random" in AGENT_CODES     # random stays available by name
    rnd = cardsim.simulate(g, deals=50, seed=2, workers=1, agents="random")
    assert "Random agents" in str(rnd.summary()) and "Random agents" not in str(res.summary())


def test_summary_faces():
    res = cardsim.simulate("basra", deals=300, seed=1, workers=1, variant="yemeni", target=51)
    s = res.summary()
    assert isinstance(s, Summary) and isinstance(s, dict)
    text = str(s)
    first = text.splitlines()[0]
    assert first.startswith("Basra: 300 deals") and "variant yemeni" in first and "target=51" in first
    assert "agents greedy x4" in first
    assert text.splitlines()[2].startswith("Verdict: ")
    assert "cardsim glossary" in text and "{" not in text
    h = s._repr_html_()
    assert "Verdict:" in h and "<table" in h
    d = s.to_dict()
    assert type(d) is dict and json.loads(s.to_json()) == d and d == json.loads(json.dumps(dict(s)))
    assert s.unit == "points"


def test_header_lists_only_options_differing_from_the_variant_defaults():
    s = cardsim.simulate("basra", deals=20, seed=1, workers=1, variant="syrian").summary()
    assert s.options_differing() == {}
    s = cardsim.simulate("basra", deals=20, seed=1, workers=1, variant="syrian", deck=52).summary()
    assert s.options_differing() == {"deck": 52}


@pytest.mark.parametrize("name, teams", [("joffre_whist", [[0, 2], [1, 3]]), ("basra", [[0, 2], [1, 3]]),
                                         ("karnoffel", [[0, 2], [1, 3]]), ("exposure", None)])
def test_partners_are_shown_as_sides(name, teams):
    if name not in cardsim.GAMES:
        pytest.skip("game not built")
    res = cardsim.simulate(name, deals=200, seed=3, workers=1)
    s = res.summary()
    assert s["teams"] == teams
    R = res.returns()
    for g in teams or []:
        assert all(np.array_equal(R[:, g[0]], R[:, q]) for q in g)
    text = str(s)
    if teams:
        assert "Sides" in text and "seats 0 & 2" in text and "\n  seat 1 " not in text
        assert [d["seats"] for d in s.sides()] == teams
    else:
        assert "\n  seat 1 " in text


def test_a_non_fixed_partnership_is_not_a_side():
    if "zhao_pengyou" not in cardsim.GAMES:
        pytest.skip("game not built")
    s = cardsim.simulate("zhao_pengyou", deals=100, seed=1, workers=1).summary()
    assert s["teams"] is None


def test_category_metrics_are_labelled_frequency_tables_and_constants_left_out():
    res = cardsim.simulate("joffre_whist", deals=400, seed=5, workers=1)
    s = res.summary()
    numeric, cats, const = s.metric_groups()
    assert "strain" in cats and "declarer" in cats and "strain" not in numeric
    labels = [r[0] for r in cats["strain"]]
    assert set(labels) <= {"NT", "S", "D", "C", "H", "TA", "JTA", "none"}
    assert sum(r[1] for r in cats["strain"]) == 400
    t = res.table["strain"]
    for lab, count, share, (lo, hi) in cats["strain"]:
        code = ("NT", "S", "D", "C", "H", "TA", "JTA").index(lab) if lab != "none" else -1
        assert count == int((t == code).sum()) and lo <= share <= hi
    assert {r[0] for r in cats["declarer"]} <= {"seat 0", "seat 1", "seat 2", "seat 3", "none"}
    text = str(s)
    assert "mean strain" not in text and "strain (share of deals)" in text
    for k, v in const.items():
        assert (res.table[k] == v).all() and k not in numeric
    assert const and "Constant in every deal" in text          # greedy agents never double


def test_p_values_below_1e_300():
    assert fmt_p(0.0) == "< 1e-300" and fmt_p(1e-301) == "< 1e-300"
    assert fmt_p(7.8e-57) == "7.8e-57" and fmt_p(0.5) == "0.5"


def _synthetic_summary(n, effect, seed=0):
    rng = np.random.default_rng(seed)
    P = 2
    fp = rng.integers(0, P, n).astype(np.int8)
    x = rng.normal(0, 1, n) + effect * np.where(fp == 0, 1.0, -1.0)
    R = np.stack([x, -x], axis=1)
    w = np.where(R[:, 0] > R[:, 1], 1, 2).astype(np.int32)
    cols = {"return_0": R[:, 0], "return_1": R[:, 1], "winners": w, "first_player": fp,
            "actions": np.full(n, 10, np.int32), "decisions": np.full(n, 5, np.int32),
            "legal_sum": np.full(n, 12, np.int64)}
    acc = Accumulator(P, ())
    acc.add(cols)
    return Summary(acc.finish().summary({"game": "synthetic", "options": {}, "seed": 0, "agents": ["a", "b"],
                                         "unit": "deal"}))


def test_verdict_names_the_effect_or_the_detectable_size():
    s = _synthetic_summary(20_000, 0.3)
    v = s.verdict()
    assert v.startswith("The first player is favoured") and "p < 1e-300" in v
    assert str(s).splitlines()[2] == "Verdict: " + v
    s = _synthetic_summary(2_000, 0.0, seed=3)
    v = s.verdict()
    assert v.startswith("No significant seat or first-player effect at this sample size")
    assert "an advantage of about" in v
    # the detectable size shrinks like 1/sqrt(n)
    big = _synthetic_summary(8_000, 0.0, seed=3).verdict()
    size = lambda t: float(t.split("about ")[1].split(" ")[0])  # noqa: E731
    assert size(big) == pytest.approx(size(v) / 2, rel=0.1)


def test_units_per_game():
    want = {"joffre_whist": "points", "gleek": "chips", "zhao_pengyou": "rank levels", "basra": "points",
            "exposure": "points", "karnoffel": "game points"}
    for name, unit in want.items():
        if name in cardsim.GAMES:
            assert game_facts(name, cardsim.make(name).options)["unit"] == unit
    if "karnoffel" in cardsim.GAMES:
        assert game_facts("karnoffel", {"stakes": "ante"})["unit"] == "chips"


def test_glossary_doc_is_generated_from_the_terms():
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") == glossary.markdown()
    terms = {t for t, _, _ in glossary.TERMS}
    for t in ("verdict", "advantage", "first-player advantage", "seat balance", "branching factor",
              "decision share", "win rate", "side", "category metric", "paired comparison"):
        assert t in terms
