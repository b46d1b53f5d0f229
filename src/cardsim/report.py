"""HTML pages that tell a run's story (and a comparison's), with embedded PNG plots (matplotlib).

    cardsim.report.write_report(cardsim.load("run.parquet"), "report.html")
    # or: cardsim report run.parquet --out report.html; cardsim compare A B --out compare.html

A report opens with the verdict (the largest significant seat or first-player effect in plain
words, or that there is none and what the sample could have detected), the run's header (agents,
variant, every option that differs from the defaults) and a link to the glossary; then the plots:
who is favoured (each position's and seat's advantage with 95% intervals, on an axis scaled to the
intervals so the gap shows), win rates by side or seat (partners are one side: their returns are
identical), the return distributions and running means with the game's unit, category metrics as
labelled bars with intervals, numeric metrics as histograms; then the tables, the options table
and the glossary (docs/glossary.md, embedded). The page is self-contained and built from the
summary alone, so a summary-only run (keep_table=False, saved as .json) gives the same page.
"""
from __future__ import annotations

import base64
import html
import io

import numpy as np

from cardsim.analysis import glossary
from cardsim.analysis.summary import (Summary, agents_text, as_summary, differing_options, fmt, fmt_ci,  # noqa: F401
                                      fmt_p, p_text, pct, pct_ci, plural, title)
from cardsim.result import SimResult, as_result
from cardsim.results_io import check_destination, write_text_atomic



def summary_of(x) -> Summary:
    """The Summary of a SimResult, or a summary dict as a Summary."""
    return x.summary() if isinstance(x, SimResult) else (x if isinstance(x, Summary) else Summary(x))


CSS = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:1.5em auto;padding:0 1em;color:#222}"
       "table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}"
       "th{background:#eee}td:first-child{text-align:left}.verdict{font-size:1.25em;background:#eef5ff;"
       "border-left:6px solid #2a6fdb;padding:.7em 1em;margin:1em 0}.warn{background:#fff3e0;border-left:6px solid "
       "#e08a00;padding:.5em 1em}.diff{font-weight:bold}img{max-width:100%}dt{font-weight:bold;margin-top:.5em}"
       ".cols{display:flex;gap:1em;flex-wrap:wrap}")


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> str:
    plt = _plt()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _err(ci, v):
    if ci is None or ci[0] is None or v is None:
        return 0.0, 0.0
    return max(v - ci[0], 0.0), max(ci[1] - v, 0.0)


def _interval_plot(ax, labels, values, cis, colors, ref=None, xlabel=""):
    """Horizontal points with 95% intervals; the axis spans the intervals (and `ref`), so a small
    gap is visible instead of lost on a 0..1 axis."""
    y = np.arange(len(labels))[::-1]
    for yi, v, ci, c in zip(y, values, cis, colors):
        if v is None:
            continue
        lo, hi = _err(ci, v)
        ax.errorbar([v], [yi], xerr=[[lo], [hi]], fmt="o", color=c, capsize=5, ms=7)
    if ref is not None:
        ax.axvline(ref, color="#555", ls="--", lw=1)
    pts = [v for v in values if v is not None] + [c for ci in cis if ci and ci[0] is not None for c in ci]
    pts += [ref] if ref is not None else []
    span = _span(pts)
    if span:
        ax.set_xlim(*span)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    return pts


def _percent_axes(axes):
    """Rates as percentages, at most 5 ticks (a zoomed axis otherwise crowds its labels)."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    for ax in axes:
        ax.xaxis.set_major_locator(MaxNLocator(5))
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))


def _span(pts):
    """An axis range around the points with a margin (None without points)."""
    if not pts:
        return None
    lo, hi = min(pts), max(pts)
    pad = (hi - lo) * 0.15 or max(abs(hi), 1e-3) * 0.1
    return lo - pad, hi + pad


def _hist(ax, h, n, color="C0", bins=31):
    vals, cnts = np.array(h["values"], float), np.array(h["counts"], float) / max(n, 1)
    if len(vals) and not h["width"] and len(vals) <= 25:
        ax.bar(vals, cnts, width=0.8 * _min_gap(vals), color=color)
    elif len(vals):
        hi = vals[-1] + (h["width"] or 0)
        ax.hist(vals, bins=np.linspace(vals[0], hi if hi > vals[0] else vals[0] + 1, bins), weights=cnts, color=color)


def _min_gap(values) -> float:
    if len(values) < 2:
        return 1.0
    return float(np.min(np.diff(values))) or 1.0


def _figures(s: Summary) -> dict:
    plt = _plt()
    figs = {}
    unit, row = s.unit, s.unit_row
    n = s.n
    sides = s.sides()
    teams = bool(s.get("teams"))
    who = "side" if teams else "seat"
    colors = [f"C{i}" for i in range(len(sides))]
    # who is favoured: advantage with intervals, by position after the first player and by seat/side
    positions = [(x["label"], x) for x in s.positions()]
    panels = [("by position", positions)] if positions else []
    panels.append((f"by {who}", [(d["label"], d) for d in sides]))
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 0.45 * max(len(p[1]) for p in panels) + 1.6),
                             squeeze=False)
    for ax, (name, items) in zip(axes[0], panels):
        _interval_plot(ax, [k for k, _ in items], [x["advantage"] for _, x in items],
                       [x["advantage_ci95"] for _, x in items], [f"C{i}" for i in range(len(items))], ref=0.0,
                       xlabel=f"advantage ({unit} per {row}, 95% CI)")
        ax.set_title(f"Advantage {name}")
    fig.tight_layout(w_pad=3)
    figs["advantage"] = _png(fig)
    # win rates with intervals, axis on the data; dashed: an equal share
    items = positions if len(positions) > 1 else []
    fig, axes = plt.subplots(1, 2 if items else 1, figsize=(10.4 if items else 5.2, 0.45 * len(sides) + 1.8),
                             squeeze=False)
    draws = s["draws"]["rate"] or 0.0
    _interval_plot(axes[0][0], [d["label"] for d in sides], [d["win_rate"] for d in sides],
                   [d["win_ci95"] for d in sides], colors, ref=(1 - draws) / len(sides) if teams else None,
                   xlabel=f"win rate (share of {plural(row)}, 95% Wilson)")
    axes[0][0].set_title(f"Win rate by {who}")
    if items:
        _interval_plot(axes[0][1], [k for k, _ in items], [x["win_rate"] for _, x in items],
                       [x["win_ci95"] for _, x in items], [f"C{i}" for i in range(len(items))],
                       xlabel=f"win rate (share of {plural(row)}, 95% Wilson)")
        axes[0][1].set_title("Win rate by position after the first player")
    _percent_axes(axes[0])
    fig.tight_layout(w_pad=3)
    figs["win_rates"] = _png(fig)
    # return distribution per side/seat, with the unit
    k = len(sides)
    fig, axes = plt.subplots(1, k, figsize=(3.2 * k, 2.8), sharey=True, squeeze=False)
    for i, d in enumerate(sides):
        ax = axes[0][i]
        _hist(ax, s["histograms"][f"return_{d['seats'][0]}"], n, colors[i], 41)
        ax.set_title(d["label"])
        ax.set_xlabel(f"return ({unit})")
    axes[0][0].set_ylabel("share of " + plural(row))
    fig.suptitle(f"Return distribution per {who}", y=1.04)
    figs["distributions"] = _png(fig)
    # running means, one line per side
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    run = s["running"]
    rn = np.array(run["n"], dtype=float)
    if len(rn):
        mean = np.array([[np.nan if v is None else v for v in r] for r in run["mean"]])
        sd = np.array([[np.nan if v is None else v for v in r] for r in run["sd"]])
        for i, d in enumerate(sides):
            p = d["seats"][0]
            ax.plot(rn, mean[:, p], label=d["label"], color=colors[i])
            h = 1.96 * sd[:, p] / np.sqrt(rn)
            ax.fill_between(rn, mean[:, p] - h, mean[:, p] + h, color=colors[i], alpha=0.15)
        ax.set_xscale("log")
        ax.legend(fontsize=8)
    ax.set_xlabel(plural(row))
    ax.set_ylabel(f"running mean return ({unit})")
    ax.set_title("Running mean return (95% band)")
    figs["running_means"] = _png(fig)
    numeric, cats, _ = s.metric_groups()
    # category metrics as labelled bars with intervals
    if cats:
        cols = min(3, len(cats))
        rows = -(-len(cats) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 2.8 * rows), squeeze=False)
        for i, (name, rs) in enumerate(cats.items()):
            ax = axes[i // cols][i % cols]
            labels = [r[0] for r in rs]
            sh = [r[2] or 0 for r in rs]
            err = np.array([_err(r[3], r[2]) for r in rs]).T
            ax.bar(range(len(rs)), sh, yerr=err, capsize=4, color="C0")
            ax.set_xticks(range(len(rs)), labels, rotation=30 if len(rs) > 5 else 0, fontsize=8)
            ax.set_title(name, fontsize=10)
            ax.set_ylabel("share of " + plural(row), fontsize=8)
        for j in range(len(cats), rows * cols):
            axes[j // cols][j % cols].axis("off")
        fig.tight_layout()
        figs["categories"] = _png(fig)
    # numeric metrics (and the duration) as histograms
    hists = [(k, v["hist"]) for k, v in numeric.items()]
    hists += [(f"{k} per {row}", s["histograms"][k]) for k in ("actions", "decisions") if k in s.get("histograms", {})]
    if hists:
        cols = min(4, len(hists))
        rows = -(-len(hists) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.5 * rows), squeeze=False)
        for i, (name, h) in enumerate(hists):
            ax = axes[i // cols][i % cols]
            _hist(ax, h, n)
            ax.set_title(name, fontsize=9)
            ax.set_xlabel(name, fontsize=8)
        for j in range(len(hists), rows * cols):
            axes[j // cols][j % cols].axis("off")
        fig.suptitle("Numeric metrics: distributions (share of " + plural(row) + ")", y=1.02)
        fig.tight_layout()
        figs["metrics"] = _png(fig)
    return figs


def _row(cells, tag="td", cls=None) -> str:
    c = f" class='{cls}'" if cls else ""
    return f"<tr{c}>" + "".join(f"<{tag}>{html.escape(str(x))}</{tag}>" for x in cells) + "</tr>"


def options_table(s: Summary) -> str:
    opts = s.get("options") or {}
    d = s.facts["defaults"] or {}
    diff = s.options_differing()
    out = ["<table class='options'>", _row(["option", "value", "default" + (" of the variant" if opts.get("variant")
                                                                              else "")], "th")]
    for k, v in opts.items():
        if k.startswith("_"):
            continue
        out.append(_row([k, v, d.get(k, "n/a")], cls="diff" if k in diff else None))
    out.append("</table>")
    return "\n".join(out)


def _head(title_text: str) -> list:
    return ["<!DOCTYPE html><html><head><meta charset='utf-8'>", f"<title>{html.escape(title_text)}</title>",
            f"<style>{CSS}</style></head><body>"]


def _glossary_section() -> str:
    return ("<h2 id='glossary'>Glossary</h2><p>Also printed by <code>cardsim glossary</code>.</p>" + glossary.html())


def render_html(s: dict, skill: dict | None = None) -> str:
    """The report page for summary `s` (and an optional skill() result)."""
    s = as_summary(s)
    figs = _figures(s)
    e = html.escape
    out = _head(f"cardsim report: {s.get('game')}")
    out.append(f"<h1>{e(title(s.get('game')))}: balance report</h1>")
    if s.get("complete") is False:
        out.append(f"<p class='warn'><b>INCOMPLETE RUN</b>: {s.n:,} of {s.get('planned')} planned "
                   f"{plural(s.unit_row)} (the run was interrupted); every figure below covers only these.</p>")
    out.append(f"<p class='verdict' id='verdict'><b>Verdict.</b> {html.escape(s.verdict(), quote=False)}</p>")
    out += [f"<p class='warn'>{e(c)}</p>" for c in s.caveats()]
    out.append(f"<p class='agents' id='agents'><b>Agents.</b> {e(s.scope_note())}</p>")
    out.append(f"<p>{e(s.header())}; returns in {e(s.unit)}; cardsim {e(str(s.get('cardsim_version')))}. "
               f"Every term is defined in the <a href='#glossary'>glossary</a>.</p>")
    out.append("<h2>Who is favoured</h2>")
    out.append(f"<img id='advantage' alt='Advantage with 95% intervals' src='{figs['advantage']}'>")
    out.append(f"<img id='win_rates' alt='Win rates with 95% intervals' src='{figs['win_rates']}'>")
    out.append(s.html_tables())
    if skill:
        out.append(f"<h2>Skill: {e(skill['strong'])} over {e(skill['weak'])}</h2><table>")
        out.append(_row(["seat", f"return gain ({s.unit})", "95% CI", "p", "gain / sd", "win-rate gain", "95% CI"], "th"))
        for x in skill["seats"]:
            out.append(_row([x["seat"], fmt(x["gain"]), fmt_ci(x["ci95"]), fmt_p(x["p_value"]), fmt(x["gain_sd"]),
                             fmt(x["win_gain"]), fmt_ci(x["win_ci95"])]))
        out.append("</table>")
    out.append("<h2>Distributions</h2>")
    for key, alt in (("distributions", "Return distribution"), ("running_means", "Running mean return"),
                     ("categories", "Category metrics"), ("metrics", "Numeric metrics")):
        if key in figs:
            out.append(f"<h3>{alt}</h3><img id='{key}' alt='{alt}' src='{figs[key]}'>")
    out.append("<h2>Options</h2>" + options_table(s))
    out.append(_glossary_section())
    out.append("</body></html>")
    return "\n".join(out)


def write_report(result, path, skill: dict | None = None, partial: bool = False) -> str:
    """Write the HTML report of `result` (a SimResult, a summary dict, or the path of a saved
    run; `partial=True` accepts an interrupted run's rows, flagged on the page) to `path`
    (atomically); returns the path. The destination is checked first: a missing or read-only
    folder fails before anything is read or rendered."""
    check_destination(path)
    s = summary_of(as_result(result, partial=partial))
    write_text_atomic(path, render_html(s, skill))
    return str(path)


# ---------------------------------------------------------------------------------------------
# comparison page
# ---------------------------------------------------------------------------------------------
def _compare_figures(c: dict, sa: Summary, sb: Summary) -> dict:
    from cardsim.analysis.compare import side_rows

    plt = _plt()
    figs = {}
    # side by side, on one axis: win rate by side or seat, and by position after the first player
    rows = max(len(sa.sides()) + len(sa.positions()), len(sb.sides()) + len(sb.positions()))
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.42 * rows + 1.8), squeeze=False)
    pts = []
    for ax, s, tag in ((axes[0][0], sa, "A"), (axes[0][1], sb, "B")):
        items = [(d["label"], d) for d in s.sides()] + [(x["label"], x) for x in s.positions()]
        pts += _interval_plot(ax, [k for k, _ in items], [x["win_rate"] for _, x in items],
                              [x["win_ci95"] for _, x in items], [f"C{i}" for i in range(len(items))],
                              xlabel="win rate (95% Wilson)")
        ax.set_title(f"{tag}: {c[tag.lower()]['label']}", fontsize=9)
    for ax in axes[0]:
        if _span(pts):
            ax.set_xlim(*_span(pts))             # one scale for both runs
    _percent_axes(axes[0])
    fig.tight_layout(w_pad=3)
    figs["side_by_side"] = _png(fig)
    # the differences B - A with intervals: rates in points, returns in the game's unit
    rates = [(f"{label} win rate", x["win_rate"]) for label, x in side_rows(c)]
    if "first_player_win_rate" in c:
        rates.append(("first player's win rate", c["first_player_win_rate"]))
    rates.append(("draws", c["draws"]))
    means = [(f"{label} mean return", x["mean"]) for label, x in side_rows(c)]
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.42 * max(len(rates), len(means)) + 1.8), squeeze=False)
    for ax, items, scale, xl in ((axes[0][0], rates, 100.0, "difference B - A, points of rate (95% CI)"),
                                 (axes[0][1], means, 1.0, f"difference B - A, {sa.unit} per {sa.unit_row} (95% CI)")):
        vals = [None if v.get("diff") is None else scale * v["diff"] for _, v in items]
        cis = [None if v.get("ci95") is None or v["ci95"][0] is None else (scale * v["ci95"][0], scale * v["ci95"][1])
               for _, v in items]
        cols = ["C3" if v.get("p_value") is not None and v["p_value"] < 0.05 else "C0" for _, v in items]
        _interval_plot(ax, [k for k, _ in items], vals, cis, cols, ref=0.0, xlabel=xl)
    axes[0][0].set_title(f"Differences in rates ({c['method']}; red: p < 0.05)", fontsize=9)
    axes[0][1].set_title(f"Differences in mean return ({c['method']})", fontsize=9)
    fig.tight_layout(w_pad=3)
    figs["differences"] = _png(fig)
    return figs


def render_compare_html(c: dict, sa: dict, sb: dict) -> str:
    sa, sb = as_summary(sa), as_summary(sb)
    figs = _compare_figures(c, sa, sb)
    e = html.escape
    out = _head("cardsim comparison")
    out.append(f"<h1>Comparison: {e(c['b']['label'])} minus {e(c['a']['label'])}</h1>")
    out.append(f"<p class='verdict' id='verdict'><b>Verdict.</b> {e(c['verdict'])}</p>")
    out += [f"<p class='warn'>{e(w)}</p>" for w in c.get("warnings", [])]
    from cardsim.analysis.compare import agents_note, side_rows, test_text

    out.append(f"<p class='agents' id='agents'><b>Agents.</b> {e(agents_note(c))}</p>")
    out.append(f"<p>Method: {e(c['method'])}; {e(test_text(c))} (see the <a href='#glossary'>glossary</a>).</p>")
    out.append("<div class='cols'>")
    for tag, s in (("A", sa), ("B", sb)):
        out.append(f"<div><h2>{tag}</h2><p>{e(s.header())}</p><p><i>{e(s.verdict())}</i></p></div>")
    out.append("</div>")
    out.append(f"<img id='side_by_side' alt='Win rates side by side' src='{figs['side_by_side']}'>")
    out.append(f"<img id='differences' alt='Differences with intervals' src='{figs['differences']}'>")
    out.append("<h2>Differences B - A</h2><table>")
    out.append(_row(["measure", "A", "B", "B - A", "95% CI", "p", "Holm p"], "th"))
    for label, x in side_rows(c):
        for k, lab in (("mean", "mean return"), ("win_rate", "win rate")):
            v = x[k]
            out.append(_row([f"{label} {lab}", fmt(v["a"]), fmt(v["b"]), fmt(v["diff"]), fmt_ci(v["ci95"]),
                             fmt_p(v["p_value"]), fmt_p(v.get("p_holm"))]))
    if "first_player_win_rate" in c:
        v = c["first_player_win_rate"]
        out.append(_row(["first player win rate", fmt(v.get("a")), fmt(v.get("b")), fmt(v.get("diff")),
                         fmt_ci(v.get("ci95")), fmt_p(v.get("p_value")), fmt_p(v.get("p_holm"))]))
    for k, v in [("draws", c["draws"])] + list(c["duration"].items()) + list(c["metrics"].items()):
        out.append(_row([k, fmt(v.get("a")), fmt(v.get("b")), fmt(v.get("diff")), fmt_ci(v.get("ci95")),
                         fmt_p(v.get("p_value")), fmt_p(v.get("p_holm"))]))
    out.append("</table>")
    out.append(_glossary_section())
    out.append("</body></html>")
    return "\n".join(out)


def write_compare_report(c: dict, a, b, path) -> str:
    """Write the comparison page of compare() result `c` for runs a and b (SimResults, summaries
    or paths) to `path` (its folder checked first)."""
    check_destination(path)
    sa, sb = summary_of(as_result(a)), summary_of(as_result(b))
    write_text_atomic(path, render_compare_html(c, sa, sb))
    return str(path)


# ---------------------------------------------------------------------------------------------
# sweep page
# ---------------------------------------------------------------------------------------------
def write_sweep_report(sw, path) -> str:
    """Write the page of a sweep (sweep_html) atomically to `path`; returns the path."""
    check_destination(path)
    write_text_atomic(path, sweep_html(sw))
    return str(path)


def sweep_html(sw) -> str:
    """The page of a cardsim.analysis.sweep.SweepResult: each configuration's advantage by
    position and by side with intervals, side by side on one axis, then the table."""
    plt = _plt()
    e = html.escape
    sums = [r.summary() for _, r in sw.runs]
    s0 = sums[0]
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(sums) * len(s0.sides()) + 1.6))
    labels, vals, cis, cols = [], [], [], []
    for i, ((lab, _), s) in enumerate(zip(sw.runs, sums)):
        for d in s.sides():
            labels.append(f"{lab}: {d['label']}")
            vals.append(d["win_rate"])
            cis.append(d["win_ci95"])
            cols.append(f"C{i}")
    _interval_plot(ax, labels, vals, cis, cols, xlabel=f"win rate (share of {plural(s0.unit_row)}, 95% Wilson)")
    ax.set_title("Win rate by side or seat, per configuration")
    _percent_axes([ax])
    img = _png(fig)
    out = _head(f"cardsim sweep: {sw.game}")
    out.append(f"<h1>{e(title(sw.game))}: {len(sw.runs)} configurations on the same deals</h1>")
    out.append("<p class='verdict' id='verdict'><b>Verdict.</b> " + "<br>".join(
        e(f"[{i}] {lab}: {s.verdict(with_test=False)}") for i, ((lab, _), s) in enumerate(zip(sw.runs, sums))) + "</p>")
    out.append(f"<p class='agents' id='agents'><b>Agents.</b> {e(s0.scope_note())}</p>")
    out.append(f"<p>{e(s0.header())}. Each verdict: {e(s0.test_text())}. Differences are paired against [0] "
               f"{e(sw.runs[0][0])}; terms in the <a href='#glossary'>glossary</a>.</p>")
    out.append(f"<img id='sweep' alt='Win rates per configuration' src='{img}'>")
    out.append(sw.html_table())
    out.append(_glossary_section())
    out.append("</body></html>")
    return "\n".join(out)
