"""Issue 30: a verdict a designer can trust. Every verdict names its test and its correction and
agrees with every number printed beside it (p, Holm p, advantage, win rates), on many runs and on
runs built to sit just below and just above the 5% threshold; partnership games get side
verdicts; every summary, sweep, comparison and report says which agents balance is measured
between."""
import numpy as np
import pytest

import cardsim
from cardsim.analysis.summary import ALPHA, Summary, fmt, fmt_p, holm, pct, signed
from cardsim.stats import Accumulator, winners_mask


def _summary(R: np.ndarray, fp: np.ndarray, agents=None) -> Summary:
    n, P = R.shape
    cols = {f"return_{p}": R[:, p].astype(float) for p in range(P)}
    cols.update({"winners": winners_mask(R), "first_player": fp.astype(np.int8),
                 "actions": np.full(n, 10, np.int32), "decisions": np.full(n, 5, np.int32),
                 "legal_sum": np.full(n, 12, np.int64)})
    acc = Accumulator(P, ())
    acc.add(cols)
    return Summary(acc.finish().summary({"game": "synthetic", "options": {}, "seed": 0,
                                         "agents": agents or ["greedy"] * P, "unit": "deal"}))


def two_player(n, effect, seed=0, skew=False):
    """Two seats, the first player gaining `effect` per deal (zero-sum)."""
    rng = np.random.default_rng(seed)
    fp = rng.integers(0, 2, n)
    x = rng.normal(0, 1, n) + effect * np.where(fp == 0, 1.0, -1.0)
    return _summary(np.stack([x, -x], axis=1), fp)


def partners(n, effect, seed=0):
    """Four seats in two sides ({0,2} v {1,3}); seat 0's side gains `effect` per deal."""
    rng = np.random.default_rng(seed)
    fp = rng.integers(0, 4, n)
    x = rng.normal(0, 1, n) + effect
    return _summary(np.stack([x, -x, x, -x], axis=1), fp)


def three_player(n, effect, seed=0):
    """Three seats each for himself; the first player gains 2*effect, the others lose effect each."""
    rng = np.random.default_rng(seed)
    fp = rng.integers(0, 3, n)
    R = rng.normal(0, 1, (n, 3))
    R -= R.mean(axis=1, keepdims=True)
    R[np.arange(n), fp] += 3 * effect
    R -= effect
    return _summary(R, fp)


def holm_rejects(ps, alpha=ALPHA):
    """Holm's step-down procedure written out: reject the smallest p-values while
    p_(i) < alpha / (m - i) (an independent check of `holm`)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out = set()
    for r, i in enumerate(order):
        if ps[i] < alpha / (len(ps) - r):
            out.add(i)
        else:
            break
    return out


def check_agrees(s: Summary):
    """The verdict against the table printed beside it."""
    text, v = str(s), s.verdict()
    assert text.splitlines()[2] == "Verdict: " + v
    assert "t test" in v and "Holm correction" in v and f"over the {s.n_tests()} tests" in v
    rows = s.sides() + s.positions()
    eff = s.effects()
    # every row of the table prints the p and the Holm p the verdict used
    for x in rows:
        line = next(ln for ln in text.splitlines() if ln.startswith(f"  {x['label']} "))
        assert f"{fmt_p(x['advantage_p'])}" in line and line.rstrip().endswith(fmt_p(x["p_holm"]))
        assert pct(x["win_rate"]) in line and signed(x["advantage"]) in line
    # the family: one advantage test per row (the two rows of a two-way split, +a and -a, once)
    # plus the win-rate gap of each two-way split, checked against Holm's procedure written out
    fam = []
    for kind in (("seat", "side"), ("position",)):
        idx = [i for i, e in enumerate(eff) if e["kind"] in kind]
        fam += [("adv", i) for i in (idx[:1] if len(idx) == 2 else idx)]
        if len(idx) == 2:
            fam.append(("win", idx[0]))
            a, b = eff[idx[0]], eff[idx[1]]
            gap = f"win-rate gap {a['label']} - {b['label']}: {100 * (a['win_rate'] - b['win_rate']):+.1f} points"
            assert f"{gap}, p = {fmt_p(a['win_p'])}, Holm p = {fmt_p(a['win_p_holm'])}" in text
    assert s.n_tests() == len(fam)
    ps = [eff[i]["p"] if t == "adv" else eff[i]["win_p"] for t, i in fam]
    rej = [fam[j] for j in holm_rejects(ps)]

    def mirror(i):
        kind = ("seat", "side") if eff[i]["kind"] != "position" else ("position",)
        idx = [j for j, e in enumerate(eff) if e["kind"] in kind]
        return set(idx) if len(idx) == 2 else {i}

    adv_rej = set().union(*[mirror(i) for t, i in rej if t == "adv"]) if rej else set()
    win_rej = set().union(*[mirror(i) for t, i in rej if t == "win"]) if rej else set()
    assert {i for i, e in enumerate(eff) if e["p_holm"] < ALPHA} == adv_rej
    assert {i for i, e in enumerate(eff) if e["win_p_holm"] is not None and e["win_p_holm"] < ALPHA} == win_rej
    if not adv_rej and not win_rej:
        assert v.startswith("No significant")
        cands = [(e["p"], e["p_holm"], e["label"]) for e in eff]
        cands += [(e["win_p"], e["win_p_holm"], f"win-rate gap, {e['label']}") for e in eff if e["win_p"] is not None]
        low = min(cands)
        assert f"the smallest p is {fmt_p(low[0])} ({low[2]}), {fmt_p(low[1])} after" in v
        assert "favoured" not in v and "disadvantaged" not in v and "more often" not in v
        return "none"
    assert not v.startswith("No significant")
    if not adv_rej:                      # only a win-rate gap: the side that wins more, said as such
        top = max((eff[i] for i in win_rej if eff[i]["win_rate"] > eff[i]["others_win_rate"]),
                  key=lambda e: e["win_rate"] - e["others_win_rate"])
        assert " more often: " in v and pct(top["win_rate"]) in v and fmt_p(top["win_p_holm"]) in v
        assert "points do not differ significantly" in v and fmt_p(top["p_holm"]) in v
        assert "favoured" not in v and "disadvantaged" not in v
        return "wins"
    top = max((eff[i] for i in adv_rej), key=lambda e: abs(e["advantage"]))
    assert signed(top["advantage"]) in v and fmt_p(top["p_holm"]) in v
    assert pct(top["win_rate"]) in v and pct(top["others_win_rate"]) in v
    if top["win_p"] is not None:
        assert fmt_p(top["win_p_holm"]) in v
    agree = (top["win_rate"] - top["others_win_rate"]) * top["advantage"] > 0
    if agree:
        assert ("favoured" if top["advantage"] > 0 else "disadvantaged") in v
        assert "disagree" not in v
    else:
        assert "favoured" not in v and "disadvantaged" not in v and "points and wins disagree" in v
    return "sig"


def _minq(s):
    return min([x["p_holm"] for x in s.effects()] + [x["win_p_holm"] for x in s.effects() if x["win_p_holm"]])


def _bisect_effect(make, target_holm, seed, lo=0.0, hi=1.0, n=300):
    """The effect at which the smallest Holm p of make(n, effect, seed) crosses target_holm."""
    def q(e):
        return _minq(make(n, e, seed))
    for _ in range(50):
        mid = (lo + hi) / 2
        if q(mid) > target_holm:
            lo = mid
        else:
            hi = mid
    return lo, hi


def test_holm_matches_the_step_down_procedure():
    rng = np.random.default_rng(5)
    for _ in range(300):
        ps = list(rng.uniform(0, 0.1, rng.integers(1, 9)))
        adj = holm(ps)
        assert {i for i, q in enumerate(adj) if q < ALPHA} == holm_rejects(ps)
        assert all(q >= p for p, q in zip(ps, adj)) and all(q <= 1 for q in adj)
    assert holm([0.01, None, 0.04]) == [0.02, None, 0.04]


@pytest.mark.parametrize("make", [two_player, partners, three_player])
def test_verdict_agrees_with_the_table_on_many_runs(make):
    kinds = set()
    for seed in range(12):
        for effect in (0.0, 0.05, 0.1, 0.15, 0.3):
            kinds.add(check_agrees(make(400, effect, seed)))
    assert {"none", "sig"} <= kinds


@pytest.mark.parametrize("make", [two_player, partners, three_player])
def test_verdict_agrees_just_below_and_just_above_the_threshold(make):
    done = 0
    for seed in range(12):
        if _minq(make(300, 0.0, seed)) < ALPHA:
            continue                  # already significant without the effect (a seat by chance): no crossing
        done += 1
        if done > 4:
            break
        lo, hi = _bisect_effect(make, ALPHA, seed)
        below, above = make(300, hi, seed), make(300, lo, seed)   # hi: Holm p just under 5%
        qb, qa = _minq(below), _minq(above)
        assert qb < ALPHA <= qa and hi - lo < 1e-9     # one step apart (a win count may jump there)
        assert check_agrees(below) in ("sig", "wins") and check_agrees(above) == "none"
        # the raw p of the "no" case is below 5%: the verdict must say the correction removed it
        raw = min([x["p"] for x in above.effects()] + [x["win_p"] for x in above.effects() if x["win_p"]])
        assert raw < ALPHA and f"the smallest p is {fmt_p(raw)}" in above.verdict()
    assert done >= 4


def test_a_win_rate_gap_without_a_points_gap_is_said():
    # the Syrian case: the first player wins more often, yet scores no more on average
    rng = np.random.default_rng(3)
    n = 20000
    fp = rng.integers(0, 2, n)
    first_wins = rng.random(n) < 0.53
    margin = np.where(first_wins, 1.0, 1.13)            # wins small, loses big: same mean
    x = np.where(first_wins, margin, -margin) * np.where(fp == 0, 1, -1)
    s = _summary(np.stack([x, -x], axis=1), fp)
    assert check_agrees(s) == "wins"
    assert s.verdict().startswith("The first player wins more often: 52.8%")


def test_points_and_wins_in_opposite_directions_are_said():
    # the first player wins rarely but big: more points, fewer wins
    rng = np.random.default_rng(1)
    n = 4000
    fp = rng.integers(0, 2, n)
    big = rng.random(n) < 0.3
    gain = np.where(big, 10.0, -1.0)
    x = np.where(fp == 0, gain, -gain)
    s = _summary(np.stack([x, -x], axis=1), fp)
    assert check_agrees(s) == "sig"
    v = s.verdict()
    assert v.startswith("The first player scores more than the table average but wins less often than")
    assert "points and wins disagree" in v


def test_partnership_verdicts_name_sides_not_seats():
    s = partners(3000, 0.3, seed=2)
    assert s["teams"] == [[0, 2], [1, 3]]
    v = s.verdict()
    assert check_agrees(s) == "sig"
    assert "side" in v and "Seat 0 " not in v and "Seat 2 " not in v
    assert [x["label"] for x in s.sides()] == ["seats 0 & 2", "seats 1 & 3"]
    assert len(s.effects()) == 4          # two sides, two position groups: 4 rows,
    assert s.n_tests() == 4 and "over the 4 tests" in v    # each pair (+a, -a) one test, plus its win gap


@pytest.mark.parametrize("name", ["basra", "karnoffel", "joffre_whist"])
def test_real_partnership_games_get_side_verdicts(name):
    s = cardsim.simulate(name, deals=400, seed=3, workers=1).summary()
    assert s["teams"] and all(len(g) > 1 for g in s["teams"])
    check_agrees(s)
    v = s.verdict()
    assert "Seat " not in v and ("side" in v or "first player" in v.lower())
    assert all(e["kind"] in ("side", "position") for e in s.effects())


def test_every_summary_states_its_agents_and_where_else_to_look():
    s = cardsim.simulate("exposure", deals=200, seed=1, workers=1, agents=["greedy", "random"]).summary()
    text = str(s)
    line = next(ln for ln in text.splitlines() if ln.startswith("Agents: "))
    assert "greedy, random" in line and "measured between the agents" in line
    assert "cardsim skill exposure" in line and "docs/strength.md" in line
    assert "measured between the agents" in s._repr_html_()
    check_agrees(s)


def test_sweep_and_compare_verdicts_state_test_correction_and_agents():
    sw = cardsim.sweep("basra", variants=["egyptian", "syrian"], deals=300, seed=1, workers=1)
    text = str(sw)
    assert "Agents: Balance is measured between the agents of this run (greedy x4)" in text
    assert "Holm correction" in text and "t tests" in text
    for _, r in sw.runs:
        assert check_agrees(r.summary()) in ("none", "sig")
    c = sw.comparisons[0]
    assert "Holm correction" in c["verdict"] and ("paired t tests" in c["verdict"])
    ct = str(c)
    assert "Holm" in ct and "Agents: greedy x4" in ct and "seats 0 & 2" in ct and "seat 2:" not in ct
    # the compare verdict agrees with its printed Holm p-values
    from cardsim.analysis.compare import _tests

    sig = any(t[3]["p_holm"] < ALPHA for t in _tests(c) if t[0] != "other")
    assert c["verdict"].startswith("B differs") == sig
    assert c["verdict"].startswith("No significant") == (not sig)


def test_compare_refuses_runs_of_different_games():
    a = cardsim.simulate("karnoffel", deals=50, seed=1, workers=1)
    b = cardsim.simulate("joffre_whist", deals=50, seed=1, workers=1)
    with pytest.raises(cardsim.ConfigError, match="runs of different games are refused"):
        cardsim.compare(a, b)


def test_report_states_agents_and_test(tmp_path):
    from cardsim.report import render_html

    s = cardsim.simulate("karnoffel", deals=300, seed=1, workers=1).summary()
    page = render_html(s)
    assert "id='agents'" in page and "measured between the agents" in page
    assert "Holm p" in page and "Holm correction" in page
    assert page.index("id='verdict'") < page.index("id='agents'") < page.index("<img")
    assert fmt(s.sides()[0]["mean"]) in page
