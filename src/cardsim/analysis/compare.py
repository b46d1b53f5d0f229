"""compare(): the difference between two runs of one game, with intervals and p-values.

Runs of different games, or with different seat counts, are refused with ConfigError (their
seats, units and metrics do not correspond). Runs are paired deal by deal only when they share the game, the seed and the
deal indices and both kept their tables; otherwise they are compared as independent samples and
the result says why (`warnings`). Headers name each run's variant, the options that differ
from the defaults and the agents (`label`)."""
from __future__ import annotations

import html

import numpy as np

from cardsim.analysis.summary import ALPHA, agents_text, as_summary, differing_options, fmt_p, holm, p_text, pct
from cardsim.errors import ConfigError
from cardsim.result import SimResult, as_result
from cardsim.stats import count_of, paired_difference, two_proportions, welch


class Comparison(dict):
    """compare()'s result: a JSON-friendly dict that prints as readable text (compare_text) and
    shows as an HTML table in notebooks (`_repr_html_`)."""

    def text(self) -> str:
        return compare_text(self)

    __str__ = __repr__ = text

    def _repr_pretty_(self, p, cycle):
        p.text(self.text())

    def _repr_html_(self) -> str:
        from cardsim.analysis.summary import _row, fmt, fmt_ci

        e = html.escape
        out = ["<div class='cardsim-compare'>", f"<p><b>A:</b> {e(self['a']['label'])} ({self['a']['deals']:,}, seed "
               f"{self['a']['seed']})<br><b>B:</b> {e(self['b']['label'])} ({self['b']['deals']:,}, seed "
               f"{self['b']['seed']})</p>"]
        out += [f"<p><i>Warning: {e(w)}</i></p>" for w in self.get("warnings", [])]
        out.append(f"<p class='verdict'><b>Verdict:</b> {e(self['verdict'])}</p>")
        out.append(f"<p class='agents'><b>Agents:</b> {e(agents_note(self))}</p>")
        out.append(f"<table class='compare'>{_row(['B - A (' + self['method'] + ')', 'A', 'B', 'difference', '95% CI', 'p', 'Holm p'], 'th')}")
        rows = [(f"{lab} {what}", x[k]) for lab, x in side_rows(self) for k, what in (("mean", "mean return"),
                                                                                     ("win_rate", "win rate"))]
        if "first_player_win_rate" in self:
            rows.append(("first player win rate", self["first_player_win_rate"]))
        rows += [("draws", self["draws"])] + list(self["duration"].items()) + list(self["metrics"].items())
        for name, v in rows:
            out.append(_row([name, fmt(v.get("a")), fmt(v.get("b")), fmt(v.get("diff")), fmt_ci(v.get("ci95")),
                             fmt_p(v.get("p_value")), fmt_p(v.get("p_holm"))]))
        out.append("</table></div>")
        return "\n".join(out)


def run_label(s: dict, other: dict | None = None) -> str:
    """'basra, variant yemeni, target=151, agents greedy x4' (agents only when they differ from the other run's)."""
    opts = s.get("options") or {}
    parts = [str(s.get("game")), f"variant {opts['variant']}" if opts.get("variant") else "default rules"]
    diff = differing_options(s.get("game"), opts)
    if diff:
        parts.append(", ".join(f"{k}={v}" for k, v in diff.items()))
    if other is None or other.get("agents") != s.get("agents"):
        parts.append("agents " + agents_text(s.get("agents")))
    if other is not None and other.get("seed") != s.get("seed"):
        parts.append(f"seed {s.get('seed')}")
    return ", ".join(parts)


def _check_comparable(sa: dict, sb: dict):
    if len(sa["seats"]) != len(sb["seats"]):
        raise ConfigError(f"cannot compare runs with different numbers of seats ({len(sa['seats'])} and "
                          f"{len(sb['seats'])}): their seats do not correspond")
    if sa.get("unit", "deal") != sb.get("unit", "deal"):
        raise ConfigError("cannot compare a run of deals with a run of matches")


def _tests(out: dict) -> list:
    """Every difference the verdict tests: (kind, who, what, record); side/seat rows first."""
    cands = []
    for label, x in side_rows(out):
        for k, lab in (("win_rate", "win rate"), ("mean", "mean return")):
            cands.append((k, label, lab, x[k]))
    if "first_player_win_rate" in out:
        cands.append(("fp", "the first player", "win rate", out["first_player_win_rate"]))
    for k, v in [("draws", out["draws"])] + list(out["duration"].items()) + list(out["metrics"].items()):
        cands.append(("other", k, k, v))
    return [c for c in cands if c[3].get("p_value") is not None and c[3].get("diff") is not None]


def test_text(out: dict) -> str:
    k = len(_tests(out))
    how = ("paired t tests on the per-deal differences" if out["method"] == "paired"
           else "Welch t tests") + " for means, two-proportion z tests for rates"
    return f"{how}; Holm correction over the {k} tests, 5% family-wise level"


def _verdict(out: dict) -> str:
    tests = _tests(out)
    adj = holm([c[3]["p_value"] for c in tests])
    for c, q in zip(tests, adj):
        c[3]["p_holm"] = q
    how = f"({test_text(out)})"
    sig = [c for c in tests if c[0] != "other" and c[3]["p_holm"] < ALPHA]
    rest = sorted((c for c in tests if c[0] == "other" and c[3]["p_holm"] < ALPHA), key=lambda c: c[3]["p_value"])[:3]
    also = ""
    if rest:
        also = "; significant changes elsewhere: " + ", ".join(
            f"{c[1]} {_diff_text(c[1], c[3])} ({p_text(c[3]['p_value'])}, Holm {fmt_p(c[3]['p_holm'])})" for c in rest)
    what = "side" if out.get("teams") else "seat"
    if not sig:
        low = min((c for c in tests if c[0] != "other"), key=lambda c: c[3]["p_value"], default=None)
        smallest = (f"; the smallest p is {fmt_p(low[3]['p_value'])} ({low[1]}'s {low[2]}), "
                    f"{fmt_p(low[3]['p_holm'])} after the correction") if low else ""
        return (f"No significant difference in {what} results between B and A at this sample size {how}"
                f"{smallest}{also}.")
    wins = [c for c in sig if c[0] in ("win_rate", "fp")]
    k, who, lab, v = max(wins, key=lambda c: abs(c[3]["diff"])) if wins else min(sig, key=lambda c: c[3]["p_value"])
    if k in ("win_rate", "fp"):
        what = (f"{who}'s win rate goes from {pct(v['a'])} to {pct(v['b'])} ({100 * v['diff']:+.1f} points, "
                f"95% CI {100 * v['ci95'][0]:+.1f} to {100 * v['ci95'][1]:+.1f})")
    else:
        what = f"{who}'s {lab} changes by {v['diff']:+.3g} ({v['ci95'][0]:.3g} to {v['ci95'][1]:.3g})"
    return (f"B differs from A: {what}, {p_text(v['p_value'])}, {fmt_p(v['p_holm'])} after the Holm correction"
            f"{also} {how}.")


def _diff_text(k: str, v: dict) -> str:
    if k in ("draws", "win rate") or k.endswith("win rate"):
        return f"{100 * v['diff']:+.2f} points of rate"
    return f"{v['diff']:+.3g}"


def compare(a, b, *, same_game: bool = False, progress: bool = False) -> dict:
    """The difference b - a between two runs of one game (two variants, option values, agent
    line-ups or seeds), with
    95% intervals and p-values, per seat (mean return, win rate), for draws, duration and every
    metric the two runs share.

    a, b: SimResult objects, summary dicts, or paths of saved results (.parquet, .csv, .json).
    When both runs kept their tables over the same seed and deal indices (the same deals under
    two rule sets or line-ups), return differences are *paired* deal by deal (common random
    numbers: much tighter intervals); otherwise Welch's t test on the two summaries, and
    Newcombe/z for win and draw rates (runs treated as independent).

    Runs of different games are refused with ConfigError (`same_game` is accepted for
    compatibility; runs must always be of one game).
    progress: a bar over the steps (read and summarise A, then B) on stderr once it has lasted 2 s."""
    from cardsim.simulate import progress_bar, progress_flag as _flag

    with progress_bar(2, "run", _flag(progress), desc="compare") as bar:
        ra = as_result(a)
        sa = ra.summary() if isinstance(ra, SimResult) else as_summary(ra)
        bar.update(1)
        rb = as_result(b)
        sb = rb.summary() if isinstance(rb, SimResult) else as_summary(rb)
        bar.update(1)
    if sa.get("game") != sb.get("game"):
        raise ConfigError(f"A is a run of {str(sa.get('game'))[:40]}, B of {str(sb.get('game'))[:40]}: runs of "
                          "different games are refused (their seats, units and metrics do not correspond); "
                          "compare two runs of one game (variants, options, agents or seeds)")
    _check_comparable(sa, sb)
    warnings = []
    same_game = True
    tables = isinstance(ra, SimResult) and isinstance(rb, SimResult) and ra.table is not None and rb.table is not None
    same_deals = sa.get("seed") == sb.get("seed") and count_of(sa) == count_of(sb)
    paired = (same_game and tables and same_deals and len(ra.table) == len(rb.table)
              and np.array_equal(ra.table["deal"], rb.table["deal"]))
    if not paired and same_game:
        if not same_deals:
            warnings.append(f"A and B do not play the same deals (seed {sa.get('seed')} x {count_of(sa):,} vs seed "
                            f"{sb.get('seed')} x {count_of(sb):,}): compared as independent samples (wider intervals)."
                            f" Run both with the same --seed and --deals for a paired comparison.")
        else:
            warnings.append("A and B play the same deals but a table is missing (a summary-only run): compared as "
                            "independent samples (wider intervals); save the tables (.parquet) to pair them.")
    na, nb = count_of(sa), count_of(sb)
    out = {"a": {**{k: sa.get(k) for k in ("game", "options", "agents", "seed", "unit")}, "deals": na,
                 "label": run_label(sa, sb)},
           "b": {**{k: sb.get(k) for k in ("game", "options", "agents", "seed", "unit")}, "deals": nb,
                 "label": run_label(sb, sa)},
           "method": "paired" if paired else "independent", "warnings": warnings, "seats": []}
    P = min(len(sa["seats"]), len(sb["seats"]))
    for p in range(P):
        A, B = sa["seats"][p], sb["seats"][p]
        if paired:
            ret = paired_difference(ra.table[f"return_{p}"], rb.table[f"return_{p}"])
        else:
            ret = welch(A["mean"], A["sd"], na, B["mean"], B["sd"], nb)
        win = two_proportions(A["wins"], na, B["wins"], nb)
        adv = welch(A["advantage"], None, na, B["advantage"], None, nb)
        out["seats"].append({"seat": p, "mean": ret, "win_rate": win,
                             "advantage": {"a": adv["a"], "b": adv["b"], "diff": adv["diff"]}})
    out["draws"] = two_proportions(sa["draws"]["count"], na, sb["draws"]["count"], nb)
    out["duration"] = {}
    for k in ("actions", "decisions"):
        if paired:
            out["duration"][k] = paired_difference(ra.table[k].astype(float), rb.table[k].astype(float))
        else:
            A, B = sa["duration"][k], sb["duration"][k]
            out["duration"][k] = welch(A["mean"], A["sd"], na, B["mean"], B["sd"], nb)
    out["metrics"] = {}
    # numeric metrics only: category codes are not averaged, constants have nothing to compare
    num_b = as_summary(sb).metric_groups()[0] if same_game else {}
    for k in as_summary(sa).metric_groups()[0]:
        if k in num_b:
            if paired:
                out["metrics"][k] = paired_difference(ra.table[k], rb.table[k])
            else:
                A, B = sa["metrics"][k], sb["metrics"][k]
                out["metrics"][k] = welch(A["mean"], A["sd"], na, B["mean"], B["sd"], nb)
    fa, fb = sa.get("first_player"), sb.get("first_player")
    if fa and fb:
        out["first_player_win_rate"] = two_proportions(fa["positions"][0]["wins"], na, fb["positions"][0]["wins"], nb)
    # partners (identical returns in both runs) are one side: one row per side in text and plots
    out["teams"] = sa.get("teams") if sa.get("teams") == sb.get("teams") else None
    out["verdict"] = _verdict(out)
    return Comparison(out)


def side_rows(c: dict) -> list:
    """(label, seat record) per side (partners grouped when both runs have the same teams) or seat."""
    groups = c.get("teams") or [[x["seat"]] for x in c["seats"]]
    return [(("seats " + " & ".join(map(str, g))) if len(g) > 1 else f"seat {g[0]}", c["seats"][g[0]])
            for g in groups]


def compare_text(c: dict) -> str:
    """compare()'s result as readable text: the runs, any warning, the verdict, then B - A."""
    from cardsim.analysis.summary import fmt, fmt_ci

    L = [f"A: {c['a']['label']} ({c['a']['deals']:,} {c['a'].get('unit') or 'deal'}s, seed {c['a']['seed']})",
         f"B: {c['b']['label']} ({c['b']['deals']:,} {c['b'].get('unit') or 'deal'}s, seed {c['b']['seed']})"]
    L += ["Warning: " + w for w in c.get("warnings", [])]
    L += ["", "Verdict: " + c["verdict"], "", "Agents: " + agents_note(c), "", f"B - A ({c['method']} comparison)"]
    for label, x in side_rows(c):
        m, w = x["mean"], x["win_rate"]
        L.append(f"  {label}: mean return {fmt(m['diff'])} {fmt_ci(m['ci95'])} {_p(m)}   "
                 f"win rate {_pts(w)} {_p(w)}")
    if "first_player_win_rate" in c:
        v = c["first_player_win_rate"]
        L.append(f"  first player's win rate: {_pts(v)} {_p(v)}")
    d = c["draws"]
    L.append(f"  draws: {_pts(d)} {_p(d)}")
    for k, v in list(c["duration"].items()) + list(c["metrics"].items()):
        L.append(f"  {k}: {fmt(v['diff'])} {fmt_ci(v['ci95'])} {_p(v)}")
    L.append(f"  (p: each test alone; Holm: adjusted over the {len(_tests(c))} tests, the verdict's correction)")
    return "\n".join(L)


def agents_note(c: dict) -> str:
    """Who played: balance and its differences are measured between these agents only."""
    a, b = agents_text(c["a"].get("agents")), agents_text(c["b"].get("agents"))
    who = a if a == b else f"A {a}; B {b}"
    return (f"{who}. The differences are measured between these agents, not at every level of play; for other "
            f"levels see `cardsim skill` and docs/strength.md.")


def _p(v: dict) -> str:
    """'p = 0.012, Holm 0.09'."""
    h = v.get("p_holm")
    return p_text(v.get("p_value")) + ("" if h is None else f", Holm {fmt_p(h)}")


def _pts(v: dict) -> str:
    """A difference of rates in percentage points with its interval."""
    if v.get("diff") is None:
        return "n/a"
    ci = v.get("ci95") or (None, None)
    lo = "n/a" if ci[0] is None else f"[{100 * ci[0]:+.2f}, {100 * ci[1]:+.2f}]"
    return f"{100 * v['diff']:+.2f} points {lo}"
