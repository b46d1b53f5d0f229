"""sweep(): several variants or option values of one game on the same seeded deals, side by side.

    s = cardsim.sweep("basra", variants=["egyptian", "yemeni", "syrian"], deals=100_000, seed=1)
    print(s)                     # one column per configuration, paired differences against the first
    cardsim.report.write_sweep_report(s, "sweep.html")   # the same, with a plot of each
                                 # configuration's seat effects (the report layer draws it)
    # or: cardsim sweep basra --variant egyptian,yemeni,syrian --deals 100000 --out sweep.html

Every configuration plays deals 0..deals-1 of the same seed with the same agents, so the
differences against the first configuration are paired deal by deal (cardsim.analysis.compare).
"""
from __future__ import annotations

import html
import json

from cardsim.analysis.compare import compare
from cardsim.analysis.summary import agents_text, fmt, fmt_p, pct, pct_ci, plural, title
from cardsim.errors import ConfigError
from cardsim.runner import DEFAULT_DEALS
from cardsim.simulate import simulate


class SweepResult:
    """The runs of a sweep (`runs`: [(label, SimResult)]) and their comparisons with the first."""

    def __init__(self, game: str, runs: list, comparisons: list):
        self.game, self.runs, self.comparisons = game, runs, comparisons

    def rows(self) -> list:
        """(measure, [value per configuration]) for the side-by-side table."""
        sums = [r.summary() for _, r in self.runs]
        out = [("verdict", [s.verdict() for s in sums])]
        fp = [s.get("first_player") for s in sums]
        if all(fp):
            out.append(("first player wins", [f"{pct(f['positions'][0]['win_rate'])} "
                                              f"{pct_ci(f['positions'][0]['win_ci95'])}" for f in fp]))
            out.append(("first-player advantage", [f"{fmt(f['advantage'], 3)} (p {fmt_p(f['p_value'])})" for f in fp]))
        for i, side in enumerate(sums[0].sides()):
            vals = []
            for s in sums:
                sd = s.sides()
                vals.append(f"{pct(sd[i]['win_rate'])} {pct_ci(sd[i]['win_ci95'])}" if i < len(sd) else "n/a")
            out.append((f"{side['label']} wins", vals))
        out.append(("draws", [pct(s["draws"]["rate"], 2) for s in sums]))
        out.append((f"actions per {sums[0].unit_row}", [fmt(s["duration"]["actions"]["mean"], 2) for s in sums]))
        out.append(("seat balance p", [fmt_p(s["seat_balance"].get("p_value")) for s in sums]))
        out.append(("vs first: verdict", ["(reference)"] + [c["verdict"] for c in self.comparisons]))
        return out

    def to_dict(self) -> dict:
        return {"game": self.game, "configurations": [lab for lab, _ in self.runs],
                "summaries": [r.summary().to_dict() for _, r in self.runs],
                "comparisons_with_first": json.loads(json.dumps(self.comparisons))}

    def text(self) -> str:
        s0 = self.runs[0][1].summary()
        head = (f"{title(self.game)} sweep: {len(self.runs)} configurations on the same {s0.n:,} "
                f"{plural(s0.unit_row)} (seed {s0.get('seed')}, agents {agents_text(s0.get('agents'))}); "
                f"differences paired against the first")
        L = [head, ""]
        for i, (lab, _) in enumerate(self.runs):
            L.append(f"  [{i}] {lab}")
        L.append("")
        for name, vals in self.rows():
            if name.endswith("verdict"):
                L.append(f"{name}:")
                L += [f"  [{i}] {v}" for i, v in enumerate(vals)]
            else:
                L.append(f"{name:<24}" + "".join(f"{v:<26}" for v in vals))
        return "\n".join(L)

    __str__ = __repr__ = text

    def _repr_html_(self) -> str:
        return self.html_table()

    def html_table(self) -> str:
        e = html.escape
        out = ["<table class='sweep'><tr><th>measure</th>" + "".join(f"<th>{e(lab)}</th>" for lab, _ in self.runs)
               + "</tr>"]
        for name, vals in self.rows():
            out.append(f"<tr><td>{e(name)}</td>" + "".join(f"<td>{e(str(v))}</td>" for v in vals) + "</tr>")
        out.append("</table>")
        return "\n".join(out)

def sweep(game: str, *, variants=None, option: str | None = None, values=None, deals: int = DEFAULT_DEALS, seed: int = 0,
          agents=None, **options) -> SweepResult:
    """Run `game` once per variant (`variants=[...]`) or per value of one option
    (`option="target", values=[101, 151]`), all on deals 0..deals-1 of `seed` with the same
    agents and the other `options`, and compare each with the first (paired). simulate()'s
    execution arguments (workers, backend, chunk_size, ...) pass through **options too."""
    if not isinstance(game, str):
        raise ConfigError(f"sweep() takes a game name, got {str(game)[:60]}")
    if (variants is None) == (option is None):
        raise ConfigError("give variants=[...] or option=NAME with values=[...] (one of the two)")
    if option is not None:
        if not isinstance(option, str) or values is None or isinstance(values, (str, bytes)):
            raise ConfigError("option= needs a list of values=")
        configs = [(f"{option}={v}", {option: v}) for v in values]
    else:
        if isinstance(variants, str):
            variants = [v for v in variants.split(",") if v]
        configs = [(f"variant {v}", {"variant": v}) for v in variants]
    if len(configs) < 2:
        raise ConfigError(f"a sweep needs at least two configurations, got {len(configs)}")
    runs = []
    for label, cfg in configs:
        runs.append((label, simulate(game, deals=deals, seed=seed, agents=agents, **options, **cfg)))
    comparisons = [compare(runs[0][1], r) for _, r in runs[1:]]
    return SweepResult(game, runs, comparisons)
