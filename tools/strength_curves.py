"""Budget-strength curves: a search agent's mean return difference against greedy (paired deals,
seats rotated, 95% t interval: cardsim.tournament.strength) at several iteration budgets, per game.

    python tools/strength_curves.py run karnoffel --budgets 50,200,1000 --deals 100   # measure, add to the JSON
    python tools/strength_curves.py plot                                               # PNGs from the JSON
    python tools/strength_curves.py check                                              # JSON, PNGs and doc agree

The measurements live in docs/strength_curves.json (one point per game, spec, deals and seed; a
point measured again replaces the old one), the figures in docs/img/strength_<game>.png, which
`plot` regenerates from the JSON alone. A point's agent is SPEC with {b} replaced by the budget:
by default `ismcts:iterations={b},c=0.7,rollout=greedy,reward=points`, the spec of the ISMCTS rows
of docs/strength.md (whose 200 and 2,000 rows are the same measurement and are entered as such).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JSON_PATH = os.path.join(ROOT, "docs", "strength_curves.json")
IMG_DIR = os.path.join(ROOT, "docs", "img")
ABOUT = ("Budget-strength curves (tools/strength_curves.py): a search agent's mean return difference "
         "against greedy, paired deals, seats rotated, 95% t interval; mean_diff and ci95 in the game's points.")
SPEC = "ismcts:iterations={b},c=0.7,rollout=greedy,reward=points"


def png_path(game: str, out_dir: str | None = None) -> str:
    return os.path.join(out_dir or IMG_DIR, f"strength_{game}.png")


def load(path: str = JSON_PATH) -> dict:
    if not os.path.exists(path):
        return {"about": ABOUT, "points": []}
    with open(path) as f:
        return json.load(f)


def save(data: dict, path: str = JSON_PATH) -> None:
    data["points"].sort(key=lambda r: (r["game"], r["spec_template"], r["budget"], r["deals"], r["seed"]))
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def _key(r):
    return (r["game"], r["spec_template"], r["budget"], r["deals"], r["seed"])


def add_point(data: dict, point: dict) -> None:
    data["points"] = [r for r in data["points"] if _key(r) != _key(point)] + [point]


def measure(game: str, budget: int, deals: int, seed: int = 0, template: str = SPEC, workers: int = 1) -> dict:
    from cardsim import tournament

    spec = template.format(b=budget)
    r = tournament.strength(game, spec, deals=deals, seed=seed, workers=workers)
    lo, hi = r["ci95"]
    return {"game": game, "spec_template": template, "budget": budget, "agent": r["agent"], "deals": deals,
            "seats": r["seats"], "seed": seed, "mean_diff": r["mean_diff"], "ci95": [lo, hi],
            "verdict": r["verdict"], "seconds": round(r["seconds"], 1), "source": "tools/strength_curves.py run",
            "measured": time.strftime("%Y-%m-%d")}


def point_from_cv(path: str, template: str = SPEC) -> dict:
    """The paired (tournament) figure of a tools/strength_cv.py run as a curve point: deals 0..N-1
    of its seed, the same measurement `cardsim tournament GAME --deals N` makes."""
    import importlib.util

    from cardsim.agents import parse_agent

    spec = importlib.util.spec_from_file_location("strength_cv", os.path.join(ROOT, "tools", "strength_cv.py"))
    cv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cv)
    data = json.load(open(path))
    budget = parse_agent(data["agent"]).params["iterations"]
    if parse_agent(template.format(b=budget)).text != data["agent"]:
        raise SystemExit(f"{path}: agent {data['agent']} is not {template} at {budget}")
    e = cv.estimate(data)
    lo, hi = e["paired"]["ci95"]
    v = "stronger" if lo > 0 else "weaker" if hi < 0 else "no difference detected"
    return {"game": data["game"], "spec_template": template, "budget": budget, "agent": data["agent"],
            "deals": e["deals"], "seats": e["seats"], "seed": data["seed"], "mean_diff": e["paired"]["mean"],
            "ci95": [lo, hi], "verdict": v, "seconds": round(data["seconds"], 1),
            "source": "tools/strength_cv.py run (its paired figure)", "measured": time.strftime("%Y-%m-%d")}


def curves(data: dict) -> dict:
    """{game: {template: [points sorted by budget]}} (for each budget, the point with most deals)."""
    out: dict = {}
    for r in data["points"]:
        out.setdefault(r["game"], {}).setdefault(r["spec_template"], {})
        cur = out[r["game"]][r["spec_template"]].get(r["budget"])
        if cur is None or r["deals"] > cur["deals"]:
            out[r["game"]][r["spec_template"]][r["budget"]] = r
    return {g: {t: [v[b] for b in sorted(v)] for t, v in ts.items()} for g, ts in out.items()}


def _label(template: str) -> str:
    return template.replace("{b}", "N")


def curve_digest(data: dict, game: str) -> str:
    """A digest of the points a game's PNG draws; plot() writes it into the PNG's Description, so
    check() can tell a stale PNG from the JSON whatever matplotlib version drew it."""
    pts = [p for ts in curves(data).get(game, {}).values() for p in ts]
    return hashlib.sha256(json.dumps(pts, sort_keys=True).encode()).hexdigest()[:16]


def png_digest(path: str) -> str | None:
    """The data digest a PNG written by plot() carries, or None."""
    from PIL import Image

    with Image.open(path) as im:
        text = im.info.get("Description", "")
    return text.rsplit("data ", 1)[1] if "data " in text else None


def _unit(game: str) -> str:
    """The game's unit of returns under the tournament's options (GameInfo.unit_for)."""
    from cardsim.game import game_info
    from cardsim.tournament import GAME_OPTIONS

    return game_info(game).unit_for(GAME_OPTIONS.get(game, {}))


def plot(data: dict, games=None, out_dir: str | None = None) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = out_dir or IMG_DIR
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for game, ts in sorted(curves(data).items()):
        if games and game not in games:
            continue
        fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
        for i, (t, pts) in enumerate(sorted(ts.items())):
            x = [p["budget"] for p in pts]
            y = [p["mean_diff"] for p in pts]
            lo = [p["mean_diff"] - p["ci95"][0] for p in pts]
            hi = [p["ci95"][1] - p["mean_diff"] for p in pts]
            deals = sorted({p["deals"] for p in pts})
            ax.errorbar([v * (1 + 0.04 * i) for v in x], y, yerr=[lo, hi], marker="o", capsize=3,
                        label=f"{_label(t)} ({'/'.join(map(str, deals))} deals x {pts[0]['seats']} seats)")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("iterations per decision (N)")
        ax.set_ylabel(f"mean return difference vs greedy\n({_unit(game)} per deal)", fontsize=9)
        ax.set_title(f"{game}: search strength by budget (95% CI)")
        ax.legend(fontsize=6, loc="best")
        fig.tight_layout()
        path = png_path(game, out_dir)
        # no software version; the Description names the data drawn (check() compares it)
        fig.savefig(path, metadata={"Software": None,
                                    "Description": f"cardsim strength curve, data {curve_digest(data, game)}"})
        plt.close(fig)
        written.append(path)
    return written


def _fmt(x: float) -> str:
    a = abs(x)
    return f"{x:+.3f}" if a < 10 else f"{x:+.2f}" if a < 100 else f"{x:+.1f}" if a < 1000 else f"{x:+.0f}"


def table(data: dict) -> str:
    """The points as the Markdown table of docs/strength.md (between its curve-table markers)."""
    out = ["| game | agent (N = budget) | N | deals x seats | mean return difference vs greedy [95% CI] | verdict |",
           "|---|---|---|---|---|---|"]
    for game, ts in sorted(curves(data).items()):
        for t, pts in sorted(ts.items()):
            for r in pts:
                lo, hi = r["ci95"]
                out.append(f"| {game} | `{_label(t)}` | {r['budget']} | {r['deals']} x {r['seats']} | "
                           f"{_fmt(r['mean_diff'])} [{_fmt(lo)}, {_fmt(hi)}] | {r['verdict']} |")
    return "\n".join(out)


TABLE_BEGIN = "<!-- strength_curves table: python tools/strength_curves.py table -->"
TABLE_END = "<!-- end strength_curves table -->"


def check(data: dict, doc_path: str = os.path.join(ROOT, "docs", "strength.md")) -> list[str]:
    """Problems: a game with points but no PNG, a PNG with no points, a PNG not linked from the
    doc, a point whose agent is not its template at its budget or whose interval misses its mean."""
    bad = []
    games = set(curves(data))
    for g in sorted(games):
        if not os.path.exists(png_path(g)):
            bad.append(f"{g}: no {os.path.relpath(png_path(g), ROOT)} (run: python tools/strength_curves.py plot)")
        elif png_digest(png_path(g)) != curve_digest(data, g):
            bad.append(f"{g}: {os.path.relpath(png_path(g), ROOT)} does not draw the JSON's points "
                       f"(run: python tools/strength_curves.py plot)")
    if os.path.isdir(IMG_DIR):
        for f in sorted(os.listdir(IMG_DIR)):
            if f.startswith("strength_") and f.endswith(".png") and f[len("strength_"):-4] not in games:
                bad.append(f"docs/img/{f}: no points in the JSON")
    doc = open(doc_path).read() if os.path.exists(doc_path) else ""
    if TABLE_BEGIN in doc and TABLE_END in doc:
        if doc.split(TABLE_BEGIN)[1].split(TABLE_END)[0].strip() != table(data):
            bad.append("docs/strength.md: the curve table is not the JSON's (python tools/strength_curves.py table)")
    else:
        bad.append("docs/strength.md: no curve table markers")
    for g in sorted(games):
        if f"img/strength_{g}.png" not in doc:
            bad.append(f"{g}: docs/strength.md does not link img/strength_{g}.png")
    for r in data["points"]:
        from cardsim.agents import parse_agent

        if parse_agent(r["spec_template"].format(b=r["budget"])).text != r["agent"]:
            bad.append(f"{_key(r)}: agent {r['agent']} is not the template at budget {r['budget']}")
        if not r["ci95"][0] <= r["mean_diff"] <= r["ci95"][1]:
            bad.append(f"{_key(r)}: mean outside its interval")
        v = "stronger" if r["ci95"][0] > 0 else "weaker" if r["ci95"][1] < 0 else "no difference detected"
        if v != r["verdict"]:
            bad.append(f"{_key(r)}: verdict {r['verdict']} but the interval says {v}")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="measure points and add them to the JSON (then plot)")
    r.add_argument("games", nargs="+")
    r.add_argument("--budgets", default="50,200,1000,2000")
    r.add_argument("--deals", type=int, default=100)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--spec", default=SPEC, help="agent spec with {b} for the budget (default: %(default)s)")
    r.add_argument("--json", default=JSON_PATH)
    p = sub.add_parser("plot", help="write docs/img/strength_<game>.png from the JSON")
    p.add_argument("games", nargs="*")
    p.add_argument("--json", default=JSON_PATH)
    f = sub.add_parser("from-cv", help="add a tools/strength_cv.py run's paired figure as a point")
    f.add_argument("cv_json")
    f.add_argument("--json", default=JSON_PATH)
    t = sub.add_parser("table", help="print the points as docs/strength.md's Markdown table")
    t.add_argument("--json", default=JSON_PATH)
    t.add_argument("--write", action="store_true", help="put it into docs/strength.md between its markers")
    c = sub.add_parser("check", help="the JSON, the PNGs and docs/strength.md agree")
    c.add_argument("--json", default=JSON_PATH)
    a = ap.parse_args(argv)
    data = load(a.json)
    if a.cmd == "run":
        budgets = [int(x) for x in a.budgets.split(",") if x.strip()]
        for g in a.games:
            for b in budgets:
                pt = measure(g, b, a.deals, a.seed, a.spec)
                add_point(data, pt)
                save(data, a.json)          # after every point: a long run keeps what it measured
                lo, hi = pt["ci95"]
                print(f"{g} {pt['agent']} {a.deals}x{pt['seats']}: {pt['mean_diff']:+.3f} [{lo:+.3f}, {hi:+.3f}] "
                      f"{pt['verdict']} ({pt['seconds']:.0f} s)", flush=True)
        plot(data, a.games)
        return 0
    if a.cmd == "plot":
        for path in plot(data, a.games or None):
            print(os.path.relpath(path, ROOT))
        return 0
    if a.cmd == "from-cv":
        pt = point_from_cv(a.cv_json)
        add_point(data, pt)
        save(data, a.json)
        print(f"{pt['game']} {pt['agent']} {pt['deals']}x{pt['seats']}: {pt['mean_diff']:+.1f}")
        return 0
    if a.cmd == "table":
        if not a.write:
            print(table(data))
            return 0
        doc = os.path.join(ROOT, "docs", "strength.md")
        text = open(doc, encoding="utf-8").read()
        head, rest = text.split(TABLE_BEGIN)
        _, tail = rest.split(TABLE_END)
        with open(doc, "w", encoding="utf-8") as f:
            f.write(head + TABLE_BEGIN + "\n" + table(data) + "\n" + TABLE_END + tail)
        return 0
    bad = check(data)
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
