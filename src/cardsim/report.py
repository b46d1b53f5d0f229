"""HTML balance report with embedded PNG plots (matplotlib), from a run or a saved file.

    cardsim.report.write_report(cardsim.load("run.parquet"), "report.html")
    # or: cardsim report run.parquet --out report.html

The page is self-contained (plots embedded as data: URIs) and states exactly the numbers of
`summary()`: it is built from the summary alone, so a summary-only run (keep_table=False, saved
as .json) gives the same page. Plots: the return distribution of every seat, win rates with
their Wilson intervals, each seat's running mean return converging over the deals (with a
95% band), and the distributions of the game's metrics and of the duration.
"""
from __future__ import annotations

import base64
import html
import io
import math

import numpy as np

from cardsim.result import as_result, summary_of
from cardsim.results_io import write_text_atomic
from cardsim.stats import count_of


def fmt(x, digits: int = 4) -> str:
    """How the report prints a number (tests use it to find summary() values in the page)."""
    if x is None:
        return "n/a"
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    x = float(x)
    if not math.isfinite(x):
        return "n/a"
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e7):
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}f}"


def plural(unit: str) -> str:
    """'deal' -> 'deals', 'match' -> 'matches'."""
    return unit + ("es" if unit.endswith(("ch", "sh", "s", "x")) else "s")


def fmt_ci(ci) -> str:
    if ci is None or ci[0] is None:
        return "n/a"
    return f"[{fmt(ci[0])}, {fmt(ci[1])}]"


def fmt_p(p) -> str:
    if p is None:
        return "n/a"
    return f"{p:.3g}"


def _png(fig) -> str:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figures(s: dict) -> dict:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    figs = {}
    unit = s.get("unit", "deal")
    P = len(s["seats"])
    # score distributions per seat
    fig, axes = plt.subplots(1, P, figsize=(3.2 * P, 2.8), sharey=True, squeeze=False)
    for p in range(P):
        h = s["histograms"][f"return_{p}"]
        ax = axes[0][p]
        vals, cnts = np.array(h["values"], float), np.array(h["counts"], float) / max(count_of(s), 1)
        if len(vals) and not h["width"] and len(vals) <= 25:
            ax.bar(vals, cnts, width=0.8 * _min_gap(vals), color=f"C{p}")
        elif len(vals):
            hi = vals[-1] + (h["width"] or 0)
            ax.hist(vals, bins=np.linspace(vals[0], hi if hi > vals[0] else vals[0] + 1, 41), weights=cnts,
                    color=f"C{p}")
        ax.set_title(f"seat {p}")
        ax.set_xlabel("return")
    axes[0][0].set_ylabel("share of " + plural(unit))
    fig.suptitle("Return distribution per seat", y=1.04)
    figs["distributions"] = _png(fig)
    # win rates with error bars
    fig, ax = plt.subplots(figsize=(max(3.5, 1.1 * P + 1), 3))
    rates = [x["win_rate"] or 0 for x in s["seats"]]
    lo = [r - (x["win_ci95"][0] if x["win_ci95"][0] is not None else r) for r, x in zip(rates, s["seats"])]
    hi = [(x["win_ci95"][1] if x["win_ci95"][1] is not None else r) - r for r, x in zip(rates, s["seats"])]
    ax.bar(range(P), rates, yerr=[lo, hi], capsize=6, color=[f"C{p}" for p in range(P)])
    ax.set_xticks(range(P), [f"seat {p}" for p in range(P)])
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.set_title("Win rates")
    figs["win_rates"] = _png(fig)
    # running means
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    run = s["running"]
    n = np.array(run["n"], dtype=float)
    if len(n):
        mean = np.array([[np.nan if v is None else v for v in row] for row in run["mean"]])
        sd = np.array([[np.nan if v is None else v for v in row] for row in run["sd"]])
        for p in range(P):
            ax.plot(n, mean[:, p], label=f"seat {p}", color=f"C{p}")
            h = 1.96 * sd[:, p] / np.sqrt(n)
            ax.fill_between(n, mean[:, p] - h, mean[:, p] + h, color=f"C{p}", alpha=0.15)
        ax.set_xscale("log")
        ax.legend(fontsize=8)
    ax.set_xlabel(plural(unit))
    ax.set_ylabel("running mean return")
    ax.set_title("Running mean return (95% band)")
    figs["running_means"] = _png(fig)
    # distributions of the game's metrics (and of the duration)
    hists = [(k, v["hist"]) for k, v in (s.get("metrics") or {}).items()]
    hists += [(f"{k} per {unit}", s["histograms"][k]) for k in ("actions", "decisions") if k in s.get("histograms", {})]
    if hists:
        cols = min(4, len(hists))
        rows = -(-len(hists) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.4 * rows), squeeze=False)
        for i, (name, h) in enumerate(hists):
            ax = axes[i // cols][i % cols]
            vals, cnts = np.array(h["values"], float), np.array(h["counts"], float) / max(count_of(s), 1)
            if len(vals) and not h["width"] and len(vals) <= 25:
                ax.bar(vals, cnts, width=0.8 * _min_gap(vals), color="C0")
            elif len(vals):
                hi = vals[-1] + (h["width"] or 0)
                ax.hist(vals, bins=np.linspace(vals[0], hi if hi > vals[0] else vals[0] + 1, 31), weights=cnts,
                        color="C0")
            ax.set_title(name, fontsize=9)
        for j in range(len(hists), rows * cols):
            axes[j // cols][j % cols].axis("off")
        fig.suptitle("Game metrics: distributions (share of " + plural(unit) + ")", y=1.02)
        fig.tight_layout()
        figs["metrics"] = _png(fig)
    return figs


def _min_gap(values) -> float:
    if len(values) < 2:
        return 1.0
    return float(np.min(np.diff(values))) or 1.0


def _row(cells, tag="td") -> str:
    return "<tr>" + "".join(f"<{tag}>{html.escape(str(c))}</{tag}>" for c in cells) + "</tr>"


def render_html(s: dict, skill: dict | None = None) -> str:
    """The report page for summary `s` (and an optional skill() result)."""
    figs = _figures(s)
    unit = s.get("unit", "deal")
    opts = s.get("options") or {}
    shown_opts = ", ".join(f"{k}={v}" for k, v in opts.items() if v is not None)
    out = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
           f"<title>cardsim report: {html.escape(str(s.get('game')))}</title>",
           "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
           "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;"
           "text-align:right}th{background:#eee}</style></head><body>",
           f"<h1>{html.escape(str(s.get('game')))}: balance report</h1>",
           f"<p>{fmt(count_of(s))} {plural(unit)}, seed {s.get('seed')}, agents {html.escape(', '.join(map(str, s.get('agents', []))))}, "
           f"cardsim {html.escape(str(s.get('cardsim_version')))}.<br>Options: {html.escape(shown_opts)}</p>",
           "<h2>Seats</h2><table>",
           _row(["seat", "mean return", "95% CI", "sd", "win rate", "95% Wilson", "advantage", "advantage 95% CI",
                 "p"], "th")]
    for x in s["seats"]:
        out.append(_row([x["seat"], fmt(x["mean"]), fmt_ci(x["ci95"]), fmt(x["sd"]), fmt(x["win_rate"]),
                         fmt_ci(x["win_ci95"]), fmt(x["advantage"]), fmt_ci(x["advantage_ci95"]),
                         fmt_p(x["advantage_p"])]))
    out.append("</table>")
    b = s["seat_balance"]
    out.append(f"<p>Seat balance: all seats equal? Hotelling T&sup2; = {fmt(b.get('statistic'))}, "
               f"p = {fmt_p(b.get('p_value'))}; win-rate gap {fmt(b.get('win_rate_gap'))}, "
               f"balance {fmt(b.get('balance'))}.</p>")
    fp = s.get("first_player")
    if fp:
        out.append("<h2>Position relative to the first player</h2><table>")
        out.append(_row(["offset", "mean return", "95% CI", "win rate", "95% Wilson", "advantage", "p"], "th"))
        for x in fp["positions"]:
            out.append(_row([x["offset"], fmt(x["mean"]), fmt_ci(x["ci95"]), fmt(x["win_rate"]),
                             fmt_ci(x["win_ci95"]), fmt(x["advantage"]), fmt_p(x["advantage_p"])]))
        out.append("</table>")
        out.append(f"<p>First-player advantage: {fmt(fp['advantage'])} {fmt_ci(fp['advantage_ci95'])}, "
                   f"p = {fmt_p(fp['p_value'])}.</p>")
    out.append("<h2>Game measures</h2><table>")
    out.append(_row(["measure", "value", "95% CI"], "th"))
    d = s["duration"]
    rows = [("draws (drawishness)", s["draws"]["rate"], s["draws"]["ci95"]),
            (f"actions per {unit}", d["actions"]["mean"], d["actions"]["ci95"]),
            (f"decisions per {unit}", d["decisions"]["mean"], d["decisions"]["ci95"]),
            ("branching factor", s["branching_factor"]["value"], s["branching_factor"]["ci95"]),
            ("branching at decisions", s["branching_at_decisions"]["value"], s["branching_at_decisions"]["ci95"]),
            ("decision share", s["decision_share"]["value"], s["decision_share"]["ci95"])]
    if s.get("lead_changes"):
        rows.append((f"lead changes per {unit}", s["lead_changes"]["mean"], s["lead_changes"]["ci95"]))
    for name, v, ci in rows:
        out.append(_row([name, fmt(v), fmt_ci(ci)]))
    out.append("</table>")
    if s.get("metrics"):
        out.append("<h2>Game metrics</h2><table>")
        out.append(_row(["metric", "mean", "95% CI", "sd", "min", "max"], "th"))
        for k, v in s["metrics"].items():
            out.append(_row([k, fmt(v["mean"]), fmt_ci(v["ci95"]), fmt(v["sd"]), fmt(v.get("min")), fmt(v.get("max"))]))
        out.append("</table>")
    if skill:
        out.append(f"<h2>Skill: {html.escape(skill['strong'])} over {html.escape(skill['weak'])}</h2><table>")
        out.append(_row(["seat", "return gain", "95% CI", "p", "gain / sd", "win-rate gain", "95% CI"], "th"))
        for x in skill["seats"]:
            out.append(_row([x["seat"], fmt(x["gain"]), fmt_ci(x["ci95"]), fmt_p(x["p_value"]), fmt(x["gain_sd"]),
                             fmt(x["win_gain"]), fmt_ci(x["win_ci95"])]))
        out.append("</table>")
    out.append("<h2>Plots</h2>")
    for key, title in (("distributions", "Return distribution per seat"), ("win_rates", "Win rates"),
                       ("running_means", "Running mean return"), ("metrics", "Game metrics")):
        if key in figs:
            out.append(f"<h3>{title}</h3><img id='{key}' alt='{title}' src='{figs[key]}'>")
    out.append("</body></html>")
    return "\n".join(out)


def write_report(result, path, skill: dict | None = None) -> str:
    """Write the HTML report of `result` (a SimResult, a summary dict, or the path of a saved
    run) to `path`; returns the path."""
    s = summary_of(as_result(result))
    text = render_html(s, skill)
    write_text_atomic(path, text)
    return str(path)
