"""The budget-strength curves (tools/strength_curves.py) and the control-variate strength tool
(tools/strength_cv.py): the JSON, the PNGs and docs/strength.md agree, and the tools compute
what they claim."""
import importlib.util
import json
import pathlib
import re

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


sc = _tool("strength_curves")
cv = _tool("strength_cv")


def test_curves_json_pngs_and_doc_agree():
    data = sc.load()
    assert sc.check(data) == []
    games = set(sc.curves(data))
    import cardsim

    assert games == set(cardsim.GAMES), "a curve per game"
    for g, ts in sc.curves(data).items():
        assert any(len(pts) >= 3 for pts in ts.values()), f"{g}: a curve has 3 budgets or more"


def test_pngs_regenerate_from_the_json(tmp_path):
    """Each committed PNG carries the digest of the points it draws (check() compares it with the
    JSON), and plotting the JSON again gives a PNG of the same size with the same digest. Bytes
    are not compared: another matplotlib or FreeType version renders the same data differently."""
    pytest.importorskip("matplotlib")
    from PIL import Image

    data = sc.load()
    for path in sc.plot(data, out_dir=str(tmp_path)):
        name = pathlib.Path(path).name
        game = name[len("strength_"):-len(".png")]
        committed = ROOT / "docs" / "img" / name
        assert sc.png_digest(str(committed)) == sc.curve_digest(data, game) == sc.png_digest(path), name
        with Image.open(committed) as a, Image.open(path) as b:
            assert a.size == b.size, name


def test_check_catches_a_png_drawn_from_other_points(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    data = sc.load()
    moved = json.loads(json.dumps(data))
    moved["points"][0]["mean_diff"] += 1.0
    monkeypatch.setattr(sc, "IMG_DIR", str(tmp_path))
    sc.plot(moved, out_dir=str(tmp_path))
    game = moved["points"][0]["game"]
    assert any(p.startswith(f"{game}:") and "does not draw" in p for p in sc.check(data)), sc.check(data)


def test_check_catches_a_missing_png_and_a_wrong_verdict(tmp_path, monkeypatch):
    data = json.loads(json.dumps(sc.load()))
    monkeypatch.setattr(sc, "IMG_DIR", str(tmp_path))
    assert any("no docs" in b or "no " in b for b in sc.check(data))
    data["points"][0]["verdict"] = "stronger" if data["points"][0]["verdict"] != "stronger" else "weaker"
    assert any("verdict" in b for b in sc.check(data))


def test_table_rows_are_the_curves_points():
    """The ISMCTS rows of docs/strength.md and the curve points of the same spec, deals and seed
    are one measurement: the same figures."""
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    specs = dict(re.findall(r"^- (\w+ \d+): `([^`]+)`$", text, re.M))
    pts = {(r["game"], r["agent"], r["deals"], r["seed"]): r for r in sc.load()["points"]}
    n = 0
    for m in re.finditer(r"^\| (\w+) \| (\w+ \d+) \| (\d+) x (\d+) \| ([+-][\d.]+) \[([+-][\d.]+), ([+-][\d.]+)\]",
                         text, re.M):
        game, short, deals = m.group(1), m.group(2), int(m.group(3))
        r = pts.get((game, specs[short], deals, 0))
        if r is None:
            continue
        n += 1
        for shown, x in zip(m.group(5, 6, 7), (r["mean_diff"], *r["ci95"])):
            d = len(shown.split(".")[1]) if "." in shown else 0
            assert round(float(shown), d) == round(x, d), (game, short, shown, x)
    assert n >= 18


def test_cv_estimate_is_the_paired_figure_at_beta_one_over_p_and_reduces_variance():
    rng = np.random.default_rng(0)
    N, P = 400, 4
    luck = rng.normal(0, 100, (N, 1))
    X = luck + rng.normal(0, 10, (N, P))
    Y = 0.5 * X + 3.0 + rng.normal(0, 5, (N, P))          # agent's return: half-correlated with the deal
    big = rng.normal(0, 100, (20000, 1)) + rng.normal(0, 10, (20000, P))
    data = {"X": X.tolist(), "Y": Y.tolist(),
            "big": {"deals": 20000, "mean": big.mean(0).tolist(), "cov": np.cov(big.T).tolist()}}
    e = cv.estimate(data)
    D = (Y - X).mean(1)
    assert e["paired"]["mean"] == pytest.approx(D.mean())
    assert e["vrf"] > 2 and e["cv"]["ci95"][0] < e["cv"]["mean"] < e["cv"]["ci95"][1]
    # the truth: E[Y] - E[X] = 3 - 0.5 E[X] with E[X] = 0
    assert e["cv"]["ci95"][0] < 3.0 < e["cv"]["ci95"][1]


def test_cv_run_is_resumable_and_matches_the_tournament(tmp_path):
    from cardsim import tournament

    spec = "ismcts:iterations=20,c=0.7,rollout=greedy,reward=points"
    path = str(tmp_path / "k.json")
    cv.run("six_tigers", spec, 6, path, big=200, chunk=4, log=lambda s: None)
    first = json.load(open(path))
    cv.run("six_tigers", spec, 10, path, big=200, chunk=4, log=lambda s: None)     # continues
    data = json.load(open(path))
    assert data["X"][:6] == first["X"] and len(data["X"]) == 10
    r = tournament.strength("six_tigers", spec, deals=10, seed=0)
    assert cv.estimate(data)["paired"]["mean"] == pytest.approx(r["mean_diff"])


def test_samba_figures_in_the_doc_are_the_jsons():
    """docs/strength.md's Samba sentence is tools/strength_cv.py's estimate of the committed data."""
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    text = " ".join(text.split())                 # the sentence may wrap
    m = re.search(r"strength_cv_samba\.json`: (\d+) deals x (\d+) seats; paired \(the tournament's figure\) "
                  r"([+-]\d+) \[([+-]\d+), ([+-]\d+)\]; control variate ([+-]\d+) \[([+-]\d+), ([+-]\d+)\], "
                  r"variance reduction factor ([\d.]+)", text)
    assert m, "the Samba sentence"
    data = json.loads((ROOT / "docs" / "strength_cv_samba.json").read_text())
    e = cv.estimate(data)
    assert (int(m.group(1)), int(m.group(2))) == (e["deals"], e["seats"])
    shown = [float(x) for x in m.group(3, 4, 5, 6, 7, 8)]
    want = [e["paired"]["mean"], *e["paired"]["ci95"], e["cv"]["mean"], *e["cv"]["ci95"]]
    assert [round(x) for x in want] == shown
    assert float(m.group(9)) == round(e["vrf"], 2)
    # the samba curve's 1,000-iteration point is the same measurement's paired figure
    pt = [r for r in sc.load()["points"] if r["game"] == "samba" and r["budget"] == 1000]
    assert len(pt) == 1 and pt[0]["deals"] == e["deals"] and pt[0]["mean_diff"] == pytest.approx(e["paired"]["mean"])
