"""The balance atlas as a static site: Markdown and HTML pages with PNG plots, written from an
Atlas that cardsim.analysis.atlas measured (this module renders; it computes nothing).

    atlas = cardsim.analysis.atlas.build_atlas(results="docs/balance/cells")
    cardsim.atlas_site.write_site(atlas, "docs/balance")
    # or: cardsim atlas --out docs/balance

Pages: index.md / index.html (every configuration of every game ranked by fairness and by skill,
one-line verdicts), <game>.md / <game>.html (its configurations ranked, then one section per
configuration with every measure), img/*.png. Every file is written atomically. The CLI handlers
of `cardsim atlas` and `cardsim tune` live here too (cli.py registers them).
"""
from __future__ import annotations

import html
import io
import json
import re
import sys
import time
from pathlib import Path

from cardsim.analysis import atlas as A
from cardsim.analysis.summary import as_summary, fmt
from cardsim.game import game_info
from cardsim.results_io import write_text_atomic

CSS = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:1.5em auto;padding:0 1em;color:#222;"
       "line-height:1.45}table{border-collapse:collapse;margin:.6em 0;font-size:.92em}td,th{border:1px solid #ccc;"
       "padding:.25em .5em;text-align:left;vertical-align:top}th{background:#f0f0f0}"
       ".verdict{background:#eef5ff;border-left:6px solid #2a6fdb;padding:.6em 1em;margin:1em 0;font-size:1.05em}"
       "img{max-width:100%}code{background:#f4f4f4;padding:0 .2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}"
       "h3{margin-top:1.3em}.note{color:#555;font-size:.92em}")


# ---------------------------------------------------------------------------------------------
# a tiny document model rendered to Markdown and to HTML
# ---------------------------------------------------------------------------------------------
_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def _marks(escaped: str) -> str:
    return _CODE.sub(r"<code>\1</code>", _BOLD.sub(r"<b>\1</b>", escaped))


def _target(t: str, ext: str) -> str:
    """'basra#x' -> 'basra.md#x' / 'basra.html#x'; targets with an extension or a scheme as given."""
    page, _, frag = t.partition("#")
    if not page or "." in page or ":" in page or "/" in page:
        return t
    return f"{page}.{ext}" + (f"#{frag}" if frag else "")


def _md_inline(s: str) -> str:
    return _LINK.sub(lambda m: f"[{m.group(1)}]({_target(m.group(2), 'md')})", s)


def _html_inline(s: str) -> str:
    out, pos = [], 0
    for m in _LINK.finditer(s):
        out.append(_marks(html.escape(s[pos:m.start()])))
        out.append(f"<a href='{html.escape(_target(m.group(2), 'html'))}'>{html.escape(m.group(1))}</a>")
        pos = m.end()
    out.append(_marks(html.escape(s[pos:])))
    return "".join(out)


class Doc:
    def __init__(self, title: str):
        self.title = title
        self.blocks: list = []

    def h(self, level: int, text: str, anchor: str | None = None):
        self.blocks.append(("h", level, text, anchor))

    def p(self, text: str, cls: str | None = None):
        self.blocks.append(("p", text, cls))

    def ul(self, items):
        self.blocks.append(("ul", list(items)))

    def table(self, header, rows):
        self.blocks.append(("table", list(header), [list(r) for r in rows]))

    def img(self, src: str, alt: str):
        self.blocks.append(("img", src, alt))

    def markdown(self) -> str:
        L = [f"# {self.title}", ""]
        for b in self.blocks:
            if b[0] == "h":
                if b[3]:
                    L.append(f"<a id=\"{b[3]}\"></a>")
                L += ["#" * b[1] + " " + _md_inline(b[2]), ""]
            elif b[0] == "p":
                L += [("> " if b[2] == "verdict" else "") + _md_inline(b[1]), ""]
            elif b[0] == "ul":
                L += ["- " + _md_inline(x) for x in b[1]] + [""]
            elif b[0] == "table":
                L.append("| " + " | ".join(b[1]) + " |")
                L.append("|" + "---|" * len(b[1]))
                L += ["| " + " | ".join(_md_inline(str(c)).replace("|", "\\|") for c in r) + " |" for r in b[2]]
                L.append("")
            elif b[0] == "img":
                L += [f"![{b[2]}]({b[1]})", ""]
        return "\n".join(L).rstrip() + "\n"

    def html(self) -> str:
        e = html.escape
        L = ["<!DOCTYPE html><html><head><meta charset='utf-8'>", f"<title>{e(self.title)}</title>",
             f"<style>{CSS}</style></head><body>", f"<h1>{e(self.title)}</h1>"]
        for b in self.blocks:
            if b[0] == "h":
                ident = f" id='{e(b[3])}'" if b[3] else ""
                L.append(f"<h{b[1]}{ident}>{_html_inline(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                cls = f" class='{b[2]}'" if b[2] else ""
                L.append(f"<p{cls}>{_html_inline(b[1])}</p>")
            elif b[0] == "ul":
                L.append("<ul>" + "".join(f"<li>{_html_inline(x)}</li>" for x in b[1]) + "</ul>")
            elif b[0] == "table":
                L.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in b[1]) + "</tr>")
                L += ["<tr>" + "".join(f"<td>{_html_inline(str(c))}</td>" for c in r) + "</tr>" for r in b[2]]
                L.append("</table>")
            elif b[0] == "img":
                L.append(f"<p><img src='{e(b[1])}' alt='{e(b[2])}'></p>")
        L.append("</body></html>")
        return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------------------------
def _pct(x, d=1) -> str:
    return "n/a" if x is None else f"{100 * x:.{d}f}%"


def _pp(x, d=1) -> str:
    return "n/a" if x is None else f"{100 * x:+.{d}f} pp"


def _ppci(ci, d=1) -> str:
    if not ci or ci[0] is None:
        return ""
    return f"[{100 * ci[0]:+.{d}f}, {100 * ci[1]:+.{d}f}]"


def _num(x, d=3) -> str:
    return "n/a" if x is None else fmt(x, d)


def _decimals(ci) -> int:
    """Decimals that show a 95% interval's half-width to two significant digits (0..4)."""
    import math

    if not ci or ci[0] is None or ci[1] == ci[0]:
        return 3
    h = (ci[1] - ci[0]) / 2
    return max(0, min(4, 1 - math.floor(math.log10(h))))


def _vci(v, ci, sign: bool = False) -> str:
    """A value and its interval with the same decimals: '6.27 [1.92, 10.62]'."""
    if v is None:
        return "n/a"
    d = _decimals(ci)
    f = f"{{:{'+' if sign else ''}.{d}f}}"
    if not ci or ci[0] is None:
        return f.format(v)
    return f"{f.format(v)} [{f.format(ci[0])}, {f.format(ci[1])}]"


def _game_link(row) -> str:
    c = row["config"]
    return f"[{c.label}]({c.game}#{c.ident})"


# ---------------------------------------------------------------------------------------------
# plots
# ---------------------------------------------------------------------------------------------
def _plt():
    from cardsim.report import _plt as plt

    return plt()


def _latin(text: str) -> str:
    """Text for a plot: matplotlib's default font has no CJK glyphs (Zhao Pengyou 找朋友 -> Zhao Pengyou)."""
    return re.sub(r"\s+", " ", re.sub(r"[^\x00-\u024f]+", "", text)).replace("( ", "(").strip()


def _save(fig, path: Path):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight", metadata={"Software": None})
    _plt().close(fig)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


def _forest(rows, path: Path, title: str):
    """First-player win-rate edge (greedy and random play) per configuration, with 95% intervals."""
    plt = _plt()
    rows = [r for r in rows if r["fair"]]
    h = max(2.2, 0.32 * len(rows) + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, h))
    for k, (agent, color, dy) in enumerate((("greedy", "C0", -0.15), ("random", "C1", 0.15))):
        ys, xs, lo, hi = [], [], [], []
        for i, r in enumerate(rows):
            f = r["fair"].get(agent)
            if not f or not f["first_player"]:
                continue
            fp = f["first_player"]
            ys.append(i + dy)
            xs.append(100 * fp["edge"])
            lo.append(100 * (fp["edge"] - fp["edge_ci95"][0]))
            hi.append(100 * (fp["edge_ci95"][1] - fp["edge"]))
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", color=color, ms=4, capsize=2, label=f"{agent} play")
    ax.axvline(0, color="#888", lw=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r["config"].label.split(", ", 1)[1] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("first player's win rate minus the average position's (percentage points, 95% CI)")
    ax.set_title(_latin(title), fontsize=10)
    ax.legend(fontsize=8, loc="best")
    _save(fig, path)


def _skill_plot(rows, path: Path, title: str):
    plt = _plt()
    rows = [r for r in rows if r["gap"]]
    if not rows:
        return False
    h = max(2.2, 0.3 * len(rows) + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, h))
    xs = [100 * r["gap"]["win_gain"] for r in rows]
    lo = [100 * (r["gap"]["win_gain"] - r["gap"]["win_gain_ci95"][0]) for r in rows]
    hi = [100 * (r["gap"]["win_gain_ci95"][1] - r["gap"]["win_gain"]) for r in rows]
    ax.errorbar(xs, range(len(rows)), xerr=[lo, hi], fmt="s", color="C2", ms=4, capsize=2)
    ax.axvline(0, color="#888", lw=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r["config"].label.split(", ", 1)[1] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("win rate gained by one greedy player among random ones (percentage points, 95% CI)")
    ax.set_title(_latin(title), fontsize=10)
    _save(fig, path)
    return True


def _overview_plot(rows, path: Path):
    """Every configuration: imbalance (x) against skill (y), one colour per game."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    games = sorted({r["config"].game for r in rows})
    for k, g in enumerate(games):
        rs = [r for r in rows if r["config"].game == g and r["imbalance"] is not None and r["skill"] is not None]
        ax.scatter([100 * r["imbalance"] for r in rs], [100 * r["skill"] for r in rs], s=22, color=f"C{k % 10}",
                   label=_latin(game_info(g).title), alpha=.8, marker="os^Dv<>ph*"[k % 10])
    ax.set_xlabel("imbalance under greedy play: largest seat or position win-rate edge (pp)")
    ax.set_ylabel("skill: win-rate gain of greedy over random (pp)")
    ax.set_title("Every configuration: fairness against skill (lower right = unfair and luck-driven)", fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=.3)
    _save(fig, path)


# ---------------------------------------------------------------------------------------------
# pages
# ---------------------------------------------------------------------------------------------
DEFINITIONS = [
    "**pp** = percentage points (a win rate of 27.0% against an average of 25.0% is an edge of +2.0 pp).",
    "**Win-rate edge** of a seat, side or position: its win rate minus the average win rate of all seats "
    "(positions), under the stated agents; a deal's winners are the seats with the highest return, partners "
    "share a win, a deal where all returns are equal is a draw.",
    "**First player**: the seat that acts first in the deal (the positions are counted from it), so the first-"
    "player edge separates moving first from sitting in a fixed seat.",
    "**Imbalance**: the largest absolute win-rate edge of any seat (side) or position, under greedy play. "
    "**Fair** means the largest edge's win-rate interval at the Bonferroni-adjusted level (95% jointly over every "
    "seat and position; Wilson, the average taken as known, which is conservative) contains 0.",
    "**Detectable effect**: the edge the sample would detect with 80% power at the 5% level "
    "(2.8 standard errors).",
    "**Skill (random → greedy)**: one greedy player among random ones, seats rotated, against all-random play on "
    "the same deals: the gain in win rate (pp) and in the game's points per deal, 95% t intervals over deals. "
    "**Search**: the same with the search agent among greedy ones (docs/strength.md).",
    "**Duration**: actions (every move, forced ones included) and decisions (turns with more than one legal "
    "action) per deal; tricks where the game records them. **Branching**: legal actions per turn (forced turns "
    "count 1) and per decision. **Lead changes**: how often the leading seat or side changes during a deal, "
    "on the game's running standing (below).",
    "**Decided before the last round**: the share of deals whose final leaders (the winners) already led, for "
    "good, before the last round of play: before each seat's last action, in a trick game before the last trick "
    "(the kernel's `lead_from` <= actions − players), with its 95% Wilson interval; **decided at**: the mean "
    "fraction of the deal's actions after which they led for good. Who leads mid-deal is read from each game's "
    "**running standing**, its provisional score (the returns once the deal ends; each game's page and the list "
    "below say what it is). A configuration whose standing never showed the winner before the last action would "
    "be **not measured**.",
]


def _precision(atlas) -> list:
    out = []
    for g in atlas.games:
        b = atlas.budget
        n = b.get(g, "play")
        hw = A.Z95 * 0.5 / n ** 0.5 if n else None
        txt = (f"**{game_info(g).title}**: {n:,} deals per play cell (win rates ±{100 * hw:.2f} pp at most), "
               f"{b.get(g, 'gap'):,} deals per random → greedy cell")
        searched = [c for c in atlas.cells if c.config.game == g and A.SEARCH_SPEC in c.agents]
        if searched:
            nd, no = b.search_deals(g, True), b.search_deals(g, False)
            if len(searched) == 1:
                txt += f", {nd:,} deals x every seat for search (`{A.SEARCH_SPEC}`, default rules only"
            elif nd == no:
                txt += f", {nd:,} deals x every seat for search (`{A.SEARCH_SPEC}`, all {len(searched)} configurations"
            else:
                txt += (f", search (`{A.SEARCH_SPEC}`) with {nd:,} deals x every seat in the default configuration "
                        f"and {no:,} in the {len(searched) - 1} others")
            extra = A.SEARCH_OPTIONS.get(g)
            if extra:
                txt += ", with " + ", ".join(f"{k}={v}" for k, v in extra.items()) + " so that every deal ends"
            recs = [(c, atlas.record(c.config, c.name)) for c in searched]
            recs = [(c, r["gap"]) for c, r in recs if r and r["gap"]["gain_ci95"][0] is not None]
            if recs:
                unit = game_info(g).unit_for(recs[0][0].options)
                hw = [(gp["gain_ci95"][1] - gp["gain_ci95"][0]) / 2 for _, gp in recs]
                ww = [50 * (gp["win_gain_ci95"][1] - gp["win_gain_ci95"][0]) for _, gp in recs]
                def g3(x):
                    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"

                def rng(v, f):
                    return f(v[0]) if len(v) == 1 or f(min(v)) == f(max(v)) else f(min(v)) + " to ±" + f(max(v))

                txt += (f"; its interval is ±{rng(hw, g3)} {unit} per deal, "
                        f"±{rng(ww, lambda x: f'{x:.1f}')} pp of win rate")
            txt += ")"
        elif b.search_scope != "none":
            txt += ", search not measured (a deal with a search agent costs too much here: docs/strength.md)"
        out.append(txt + ".")
    return out


def _not_measured(atlas, rows) -> list:
    """What the atlas does not measure, and why (from the plan and the cells' data)."""
    out = []
    late = sorted({r["config"].game for r in rows if r.get("decided") and not r["decided"]["measured"]})
    if late:
        flat = all(not (r.get("lead_changes") or {}).get("max") for r in rows
                   if r["config"].game in late and r.get("decided"))
        out.append("**Decided before the last round** in " + ", ".join(f"[{game_info(g).title}]({g})" for g in late)
                   + ": the running standing stayed level until the deal ended, so it cannot tell when a deal "
                   "was decided" + ("; lead changes are 0 there for the same reason." if flat else "."))
    nosearch = [r for r in rows if r["gap"] and not r["search_gap"]]
    if nosearch and atlas.budget.search_scope != "none":
        games = sorted({r["config"].game for r in nosearch})
        out.append("**Search skill** in " + ", ".join(
            f"{game_info(g).title} ({sum(1 for r in nosearch if r['config'].game == g)} configurations)"
            for g in games) + ": a deal with a search seat costs too much there for this build "
            "(docs/balance.md); the default configuration of each game is measured.")
    return out


def _fair_cell(row, agent="greedy") -> str:
    f = row["fair"].get(agent)
    if not f:
        return "n/a"
    w = f["worst"]
    return f"{100 * f['imbalance']:.1f} ({w['label']} {_pp(w['edge'])} {_ppci(w['edge_ci95'])})"


def _fp_cell(row, agent="greedy") -> str:
    f = row["fair"].get(agent)
    if not f or not f["first_player"]:
        return "n/a"
    fp = f["first_player"]
    return f"{_pp(fp['edge'])} {_ppci(fp['edge_ci95'])}"


def _skill_cell(row) -> str:
    g = row["gap"]
    if not g:
        return "n/a"
    return f"{_pp(g['win_gain'])} {_ppci(g['win_gain_ci95'])}"


def _decided_cell(row, agent="greedy") -> str:
    d = row.get("decided")
    if not d:
        return "n/a"
    if not d["measured"]:
        return "not measured (standing level until the end)"
    x = d.get(agent)
    if not x:
        return "n/a"
    return f"{_pct(x['early'])} [{_pct(x['early_ci95'][0])}, {_pct(x['early_ci95'][1])}]"


def _search_cell(row) -> str:
    g = row["search_gap"]
    if not g:
        return "—"
    return f"{_vci(g['gain'], g['gain_ci95'], True)} {row['unit']} ({g['deals']} deals)"


def _game_link_name(game: str) -> str:
    return f"[{game_info(game).title}]({game})"


def _decided_lead(rows) -> str:
    """A sentence: where the outcome is known earliest and latest, and which games are not measured."""
    rd = [r for r in A.ranked(rows, "decisiveness") if r["decided_early"] is not None]
    out = ""
    if len(rd) > 1:
        out += (f" Outcomes are known before the last round most often in {_game_link(rd[0])} "
                f"({_pct(rd[0]['decided_early'])} of deals) and least often in {_game_link(rd[-1])} "
                f"({_pct(rd[-1]['decided_early'])}).")
    elif rd:
        out += f" {rd[0]['decisiveness_verdict']}"
    late = sorted({game_info(r["config"].game).title for r in rows if r.get("decided") and not r["decided"]["measured"]})
    if late:
        out += (f" Not measured in {', '.join(late)}: the running standing stayed level until the end of the "
                "deal.")
    return out


def index_page(atlas, rows, img: str) -> Doc:
    d = Doc("Balance atlas")
    fair = [r for r in rows if r["fair"].get("greedy") and not r["fair"]["greedy"]["significant"]]
    rf = A.ranked(rows, "fairness")
    rs = A.ranked(rows, "skill")
    worst = [r for r in rf if r["imbalance"] is not None][-1] if rf else None
    games = len({r["config"].game for r in rows})
    lead = (f"**{len(rows)} configurations of {games} games. {len(fair)} show no detectable seat or first-player "
            f"edge under greedy play.**")
    if worst:
        lead += f" Least balanced: {_game_link(worst)}: {worst['fairness_verdict']}"
    if rs and rs[0]["skill"] is not None:
        lead += (f" Skill matters most in {_game_link(rs[0])} (greedy wins {_pp(rs[0]['skill'])} more often than "
                 f"random) and least in {_game_link([r for r in rs if r['skill'] is not None][-1])}.")
    lead += _decided_lead(rows)
    d.p(lead, "verdict")
    d.p("Each game's page ranks its own configurations and shows every measure: "
        + ", ".join(f"[{game_info(g).title}]({g})" for g in atlas.games) + ".")
    d.h(2, "Reading the tables")
    d.ul(DEFINITIONS)
    d.p("**Who is ahead mid-deal**, per game (the running standing):", "note")
    d.ul([f"{_game_link_name(g)}: {A.standing_definition(g)}." for g in atlas.games if A.standing_definition(g)])
    d.h(2, "Every configuration ranked by fairness (greedy play)")
    d.p("Fairest first, by the estimated imbalance (pp), with the seat, side or position that has the largest "
        "edge and its 95% interval; the first-player column is the first player's own edge. Configurations whose "
        "intervals overlap are not distinguishable at this precision: read the verdicts, not the rank.")
    d.table(["rank", "configuration", "imbalance (pp)", "first player's edge", "decided before the last round",
             "verdict"],
            [(i + 1, _game_link(r), _fair_cell(r), _fp_cell(r), _decided_cell(r), r["fairness_verdict"])
             for i, r in enumerate(rf)])
    d.h(2, "Every configuration ranked by skill")
    d.p("Most skill first: the win rate one greedy player gains among random ones, and what a search agent adds "
        "over greedy where measured (in the game's points per deal).")
    d.table(["rank", "configuration", "greedy vs random: win-rate gain", "search vs greedy", "verdict"],
            [(i + 1, _game_link(r), _skill_cell(r), _search_cell(r), r["skill_verdict"]) for i, r in enumerate(rs)])
    d.img(f"{img}/overview.png", "fairness against skill, every configuration")
    d.h(2, "Precision")
    d.p(f"Win-rate intervals of ±{A.WIN_HALF_WIDTH * 100:.1f} pp need {A.deals_for_half_width():,} deals; the play "
        "cells of every game have more. The skill cells and the search cells have fewer (a search deal costs "
        "hundreds of greedy deals); their widths:")
    d.ul(_precision(atlas))
    if atlas.skipped:
        d.h(2, "Configurations the games refuse")
        d.table(["game", "preset", "players", "reason"],
                [(game_info(g).title, v or "default rules", n, why) for g, v, n, why in atlas.skipped])
    missing = _not_measured(atlas, rows)
    if missing:
        d.h(2, "Not measured")
        d.ul(missing)
    d.h(2, "Regenerating")
    d.p("`cardsim atlas --out docs/balance` (add game names to rebuild only those). Cells are cached in "
        "`docs/balance/cells/` by game, options, agents, seed, deals and engine version: a rerun computes only "
        "missing or outdated cells. Definitions and method: [docs/balance.md](../balance.md).")
    total = sum(r.get("seconds", 0) for r in atlas.records.values())
    d.p(f"Seed {atlas.seed}; {len(atlas.records)} cells, {total / 60:,.0f} minutes of simulation when computed (wall "
        f"time, all cores, on a shared machine); engine versions: "
        + ", ".join(f"{g} {v}" for g, v in atlas.engines.items()) + ".", "note")
    return d


def game_page(atlas, game: str, rows, img: str) -> Doc:
    info = game_info(game)
    d = Doc(f"{info.title}: balance atlas")
    rf = A.ranked(rows, "fairness")
    rs = A.ranked(rows, "skill")
    unit = rows[0]["unit"] if rows else "points"
    f0 = rf[0]["fair"].get("greedy") or rf[0]["fair"].get("random")
    best = "Fairest" if f0 and not f0["significant"] else "Least unbalanced (none is fair)"
    lead = (f"**{len(rows)} configuration{'s' if len(rows) != 1 else ''}.** {best}: {_game_link(rf[0])}: "
            f"{rf[0]['fairness_verdict']}")
    if len(rf) > 1:
        lead += f" Least fair: {_game_link(rf[-1])}: {rf[-1]['fairness_verdict']}"
    if rs and rs[0]["skill"] is not None:
        lead += f" Most skill: {_game_link(rs[0])}: {rs[0]['skill_verdict']}"
    lead += _decided_lead(rows)
    d.p(lead, "verdict")
    d.p(f"Returns are in {unit}; rules: [{info.rules_doc}](../../{info.rules_doc}). Back to the "
        f"[atlas index](index). Definitions: [index](index) and [docs/glossary.md](../glossary.md).", "note")
    sd = A.standing_definition(game)
    if sd:
        d.p(f"**Who is ahead mid-deal** (the running standing that \"decided before the last round\" and lead "
            f"changes follow): {sd}.", "note")
    d.h(2, "Configurations ranked by fairness (greedy play)")
    d.table(["rank", "configuration", "imbalance (pp)", "first player's edge (greedy)", "(random)",
             "decided before the last round (greedy)", "verdict"],
            [(i + 1, _game_link(r), _fair_cell(r), _fp_cell(r), _fp_cell(r, "random"), _decided_cell(r),
              r["fairness_verdict"]) for i, r in enumerate(rf)])
    d.img(f"{img}/{game}-first-player.png", "first player's win-rate edge per configuration")
    d.h(2, "Configurations ranked by skill")
    d.table(["rank", "configuration", "greedy vs random: win-rate gain", f"return gain ({unit} per deal)",
             "in sd of a return", "search vs greedy", "verdict"],
            [(i + 1, _game_link(r), _skill_cell(r),
              (_vci(r["gap"]["gain"], r["gap"]["gain_ci95"], True) if r["gap"] else "n/a"),
              (_num(r["gap"]["gain_sd"], 2) if r["gap"] else "n/a"), _search_cell(r), r["skill_verdict"])
             for i, r in enumerate(rs)])
    nosearch = [r for r in rows if r["gap"] and not r["search_gap"]]
    if nosearch and atlas.budget.search_scope != "none":
        done = [r for r in rows if r["search_gap"]]
        d.p(f"Search vs greedy is measured in {len(done)} of {len(rows)} configurations"
            + (f" ({', '.join(_game_link(r) for r in done)})" if len(done) <= 3 else "")
            + f": a deal with a search seat costs too much here for the other {len(nosearch)} (docs/balance.md); "
            "the measured cells state their widths above.", "note")
    if _skill_plot(rows, Path(atlas._site_dir) / img / f"{game}-skill.png", f"{info.title}: skill"):
        d.img(f"{img}/{game}-skill.png", "skill per configuration")
    d.h(2, "Every configuration in detail")
    for r in rows:
        _config_section(d, r)
    return d


def _config_section(d: Doc, r):
    c = r["config"]
    d.h(3, c.label, anchor=c.ident)
    d.p(f"**Fairness:** {r['fairness_verdict']} **Skill:** {r['skill_verdict']} "
        f"**Decisiveness:** {r['decisiveness_verdict']}")
    unit = r["unit"]
    rows = []
    for agent in ("greedy", "random"):
        f = r["fair"].get(agent)
        if not f:
            continue
        fp = f["first_player"]
        if fp:
            rows.append((f"{agent} play", "first player", f"{_pct(fp['win_rate'])}", f"{_pp(fp['edge'])} "
                         f"{_ppci(fp['edge_ci95'])}", _vci(fp["advantage"], fp["advantage_ci95"], True),
                         f"{_num(f['fp_detectable_points'], 2)} {unit}"))
        for s in f["sides"]:
            rows.append((f"{agent} play", s["label"], _pct(s["win_rate"]), f"{_pp(s['edge'])} {_ppci(s['edge_ci95'])}",
                         _vci(s["advantage"], s["advantage_ci95"], True), ""))
        rows.append((f"{agent} play", "precision", f"±{100 * f['win_half_width']:.2f} pp",
                     f"detects {100 * f['detectable']:.1f} pp", f"seat balance p {_num(f['seat_balance_p'], 2)}",
                     f"{f['deals']:,} deals"))
    d.table(["agents", "seat / side / position", "win rate", "edge vs average [95% CI]",
             f"mean advantage ({unit} per deal) [95% CI]", "detectable advantage"], rows)
    if "duration" in r:
        du, br = r["duration"], r["branching"]
        dr = r["draws"]
        m = [("draws", f"{_pct(dr['rate'], 2)} [{_pct(dr['ci95'][0], 2)}, {_pct(dr['ci95'][1], 2)}]"),
             ("actions per deal", _vci(du["actions"]["mean"], du["actions"]["ci95"])),
             ("decisions per deal", _vci(du["decisions"]["mean"], du["decisions"]["ci95"]))]
        if du.get("tricks"):
            m.append(("tricks per deal", _vci(du["tricks"]["mean"], du["tricks"]["ci95"])))
        m += [("legal actions per turn", _vci(br["all"]["value"], br["all"]["ci95"])),
              ("legal actions per decision", _vci(br["decisions"]["value"], br["decisions"]["ci95"])),
              ("share of turns that are decisions", _pct(br["decision_share"]["value"]))]
        lc = r.get("lead_changes")
        if lc:
            m.append(("lead changes per deal", _vci(lc["mean"], lc["ci95"]) if lc.get("max") else
                      "none (the running score does not move before the end of the deal)"))
        dd = r.get("decided")
        if dd and not dd["measured"]:
            m.append(("decided before the last round", "not measured: the running standing stayed level until the end"))
        elif dd:
            for agent in ("greedy", "random"):
                x = dd.get(agent)
                if x:
                    m.append((f"decided before the last round ({agent} play)", _decided_cell(r, agent)))
                    m.append((f"decided at, fraction of the deal ({agent} play)",
                              f"{_pct(x['at'])} [{_pct(x['at_ci95'][0])}, {_pct(x['at_ci95'][1])}]"))
        if r["gap"]:
            g = r["gap"]
            m.append(("skill: greedy vs random, win rate", f"{_pp(g['win_gain'])} {_ppci(g['win_gain_ci95'])}"))
            m.append((f"skill: greedy vs random, {unit} per deal",
                      f"{_vci(g['gain'], g['gain_ci95'], True)} ({_num(g['gain_sd'], 2)} sd; {g['deals']:,} deals)"))
        if r["search_gap"]:
            g = r["search_gap"]
            m.append((f"skill: search vs greedy, {unit} per deal",
                      f"{_vci(g['gain'], g['gain_ci95'], True)} (win rate {_pp(g['win_gain'])} "
                      f"{_ppci(g['win_gain_ci95'])}; {g['deals']:,} deals x every seat; `{g['strong']}`)"))
        d.table(["measure (greedy play)", "value [95% CI]"], m)
        S = as_summary(r["summaries"].get("greedy") or r["summaries"]["random"])
        numeric, cats, const = S.metric_groups()
        labels = r["metric_labels"]
        mrows = [(labels.get(k, (k,))[0], _vci(v["mean"], v["ci95"])) for k, v in numeric.items()]
        for k, vals in cats.items():
            mrows.append((labels.get(k, (k,))[0], "; ".join(f"{lab} {_pct(share)}" for lab, _, share, _ in vals)))
        for k, v in const.items():
            mrows.append((labels.get(k, (k,))[0], f"always {int(v) if float(v).is_integer() else v}"))
        if mrows:
            d.table(["game measure (greedy play)", "mean [95% CI] or shares"], mrows)


def write_site(atlas, out, wall: float | None = None) -> list:
    """Write the site of `atlas` into folder `out`: index.md/.html, <game>.md/.html, img/*.png.
    Returns the paths written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    atlas._site_dir = str(out)
    rows = atlas.rows
    written = []
    img = "img"
    for g in atlas.games:
        grows = [r for r in rows if r["config"].game == g]
        if not grows:
            continue
        _forest(grows, out / img / f"{g}-first-player.png", f"{game_info(g).title}: first-player edge")
        doc = game_page(atlas, g, grows, img)
        for ext, text in (("md", doc.markdown()), ("html", doc.html())):
            write_text_atomic(out / f"{g}.{ext}", text)
            written.append(out / f"{g}.{ext}")
    _overview_plot(rows, out / img / "overview.png")
    doc = index_page(atlas, rows, img)
    for ext, text in (("md", doc.markdown()), ("html", doc.html())):
        write_text_atomic(out / f"index.{ext}", text)
        written.append(out / f"index.{ext}")
    data = {"budget": atlas.budget.to_dict(), "seed": atlas.seed, "engines": atlas.engines,
            "configurations": [{"ident": r["ident"], "label": r["label"], "imbalance": r["imbalance"],
                                "skill": r["skill"], "decided_early": r["decided_early"],
                                "search_gain": r["search_gap"]["gain"] if r["search_gap"] else None,
                                "fairness_verdict": r["fairness_verdict"], "skill_verdict": r["skill_verdict"],
                                "decisiveness_verdict": r["decisiveness_verdict"]} for r in rows]}
    write_text_atomic(out / "atlas.json", json.dumps(data, indent=1, allow_nan=False))
    written.append(out / "atlas.json")
    return written


# ---------------------------------------------------------------------------------------------
# the command line: `cardsim atlas` and `cardsim tune` (cli.py registers these two builders)
# ---------------------------------------------------------------------------------------------
def atlas_parser(sub):
    import argparse

    sp = sub.add_parser(
        "atlas", help="the balance atlas: every game, preset, player count and agent line-up, as a web site",
        description="Measure every configuration of the given games (default: all) and write the balance "
                    "atlas (Markdown, HTML, PNG) into --out. Cells are cached in --results (default: OUT/cells); "
                    "a rerun computes only missing or outdated cells.",
        epilog="examples:\n  cardsim atlas --out docs/balance\n  cardsim atlas basra karnoffel --out /tmp/atlas "
               "--deals 2000 --gap-deals 500 --search-deals 0",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("games", nargs="*", help="games to include (default: every registered game)")
    sp.add_argument("--out", required=True, help="folder of the site (created if missing)")
    sp.add_argument("--results", default=None, help="folder of the cached cells (default: OUT/cells)")
    sp.add_argument("--seed", type=int, default=0, help="seed of every cell (default: 0)")
    sp.add_argument("--deals", type=int, default=None,
                    help="deals per play cell, every game (default: the committed budget, 40,000 where cheap)")
    sp.add_argument("--gap-deals", type=int, default=None, help="deals per random->greedy skill cell")
    sp.add_argument("--search-deals", type=int, default=None,
                    help="deals per greedy->search cell in each game's default configuration (0: no search agent)")
    sp.add_argument("--search-other-deals", type=int, default=None,
                    help="deals per greedy->search cell in the other configurations (0: default configurations only)")
    sp.add_argument("--workers", type=int, default=None, help="threads or Dask workers (default: all cores)")
    sp.add_argument("--backend", choices=("threads", "dask"), default="threads",
                    help="where deals run (default: threads)")
    sp.add_argument("--address", default=None, help="Dask scheduler address (default: a LocalCluster)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.set_defaults(func=cmd_atlas)


def _budget(args) -> "A.Budget":
    """The committed budget with the command line's overrides (each drops that figure's per-game
    values); --search-deals 0 means no search agent at all."""
    b = A.DEFAULT_BUDGET
    over = {k: v for k, v in (("play", args.deals), ("gap", args.gap_deals), ("search", args.search_deals),
                              ("search_other", getattr(args, "search_other_deals", None))) if v is not None}
    flags = {"play": "--deals", "gap": "--gap-deals", "search": "--search-deals", "search_other": "--search-other-deals"}
    for k, v in over.items():
        if v < 0:
            raise A.ConfigError(f"{flags[k]} must be >= 0, got {v}")
    if not over:
        return b
    per = {g: {k: v for k, v in d.items() if k not in over} for g, d in b.per_game.items()}
    scope = "none" if over.get("search") == 0 else b.search_scope
    return A.Budget(**{**{"play": b.play, "gap": b.gap, "search": b.search, "search_other": b.search_other}, **over},
                    search_scope=scope, per_game={g: d for g, d in per.items() if d})


def cmd_atlas(args) -> int:
    t0 = time.perf_counter()
    results = args.results or str(Path(args.out) / "cells")
    atlas = A.build_atlas(args.games or None, results=results, budget=_budget(args), seed=args.seed,
                          backend=args.backend, address=args.address, workers=args.workers,
                          progress=False if args.quiet else None)
    write_site(atlas, args.out)
    print(f"atlas: {len(atlas.configs)} configurations, {atlas.computed} cells computed, {atlas.cached} cached, "
          f"{time.perf_counter() - t0:.1f} s; site: {Path(args.out) / 'index.html'}")
    return 0


def tune_parser(sub):
    import argparse

    sp = sub.add_parser(
        "tune", help="search option values for the fairest rules (or the most skill), with intervals",
        description="Play every configuration of the --over grid on the same deals and rank them by the objective; "
                    "successive halving for large grids; Bonferroni intervals and Holm p-values against the "
                    "current rules; bootstrap probability of being best.",
        epilog="examples:\n  cardsim tune basra --objective first_player --over majority_points=0,3,6 "
               "--over sweep_bonus=True,False\n  cardsim tune karnoffel --objective seat --over players=4,5,6",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("game", help="a registered game (cardsim games)")
    sp.add_argument("--objective", choices=("first_player", "seat", "skill"), default="first_player",
                    help="what to minimise (first_player, seat: the win-rate edge) or maximise (skill) (default: first_player)")
    sp.add_argument("--over", action="append", required=True, metavar="NAME=V1,V2,...",
                    help="an option and the values to try (repeatable: the grid is their product)")
    sp.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a fixed rule option (repeatable)")
    sp.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
    sp.add_argument("--variant", default=None, help="a preset the search starts from (default: none)")
    sp.add_argument("--deals", type=int, default=20_000, help="deals per finalist configuration (default: 20000)")
    sp.add_argument("--seed", type=int, default=0, help="seed of the shared deals (default: 0)")
    sp.add_argument("--agents", default="greedy", help="agent at every seat (default: greedy)")
    sp.add_argument("--method", choices=("auto", "grid", "halving"), default="auto",
                    help="grid, successive halving, or auto (default: auto = grid up to 12 configurations)")
    sp.add_argument("--bootstrap", type=int, default=400, help="bootstrap resamples for P(best) (default: 400)")
    sp.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    sp.add_argument("--backend", choices=("threads", "dask"), default="threads",
                    help="where deals run (default: threads)")
    sp.add_argument("--json", action="store_true", help="print the result as JSON")
    sp.set_defaults(func=cmd_tune)


def cmd_tune(args) -> int:
    from cardsim.analysis.tune import _parse, parse_over, tune

    base = {}
    for kv in args.option or []:
        k, eq, v = kv.partition("=")
        if not eq:
            raise A.ConfigError(f"--option takes NAME=VALUE, got {kv[:60]!r}")
        base[k.strip()] = _parse(v)
    if args.players is not None:
        base["players"] = args.players
    if args.variant is not None:
        base["variant"] = args.variant
    t = tune(args.game, args.objective, parse_over(args.over), deals=args.deals, seed=args.seed, agents=args.agents,
             method=args.method, bootstrap=args.bootstrap, base=base, workers=args.workers, backend=args.backend)
    if args.json:
        print(json.dumps(t, indent=2, default=str))
    else:
        print(t.text())
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(0)
