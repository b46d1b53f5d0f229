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
from cardsim import runner
from cardsim.runner import DEFAULT_DEALS
from cardsim.simulate import simulate


class SweepResult:
    """The runs of a sweep (`runs`: [(label, SimResult)]) and their comparisons with the first."""

    def __init__(self, game: str, runs: list, comparisons: list):
        self.game, self.runs, self.comparisons = game, runs, comparisons

    def rows(self) -> list:
        """(measure, [value per configuration]) for the side-by-side table."""
        sums = [r.summary() for _, r in self.runs]
        out = [("verdict", [s.verdict(with_test=False) for s in sums])]
        fp = [s.get("first_player") for s in sums]
        if all(fp):
            out.append(("first player wins", [f"{pct(f['positions'][0]['win_rate'])} "
                                              f"{pct_ci(f['positions'][0]['win_ci95'])}" for f in fp]))
            out.append(("first-player advantage", [f"{fmt(f['advantage'], 3)} (p {fmt_p(f['p_value'])}, Holm "
                                                   f"{fmt_p(s.positions()[0]['p_holm'])})" for f, s in zip(fp, sums)]))
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
        L = [head, "", "Agents: " + s0.scope_note(), "Verdicts (each configuration): " + s0.test_text(), ""]
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
        """The notebook view: header, what the verdicts assume, the side-by-side table."""
        e = html.escape
        s0 = self.runs[0][1].summary()
        return (f"<div class='cardsim-sweep'><p><b>{e(title(self.game))} sweep: {len(self.runs)} configurations on "
                f"the same {s0.n:,} {plural(s0.unit_row)}</b> (seed {s0.get('seed')}, differences paired against "
                f"the first)</p><p><b>Agents:</b> {e(s0.scope_note())}</p><p>Verdicts: {e(s0.test_text())}.</p>"
                f"{self.html_table()}</div>")

    def html_table(self) -> str:
        e = html.escape
        out = ["<table class='sweep'><tr><th>measure</th>" + "".join(f"<th>{e(lab)}</th>" for lab, _ in self.runs)
               + "</tr>"]
        for name, vals in self.rows():
            out.append(f"<tr><td>{e(name)}</td>" + "".join(f"<td>{e(str(v))}</td>" for v in vals) + "</tr>")
        out.append("</table>")
        return "\n".join(out)

def sweep(game: str, *, variants=None, option: str | None = None, values=None, deals: int = DEFAULT_DEALS, seed: int = 0,
          agents=None, progress=False, **options) -> SweepResult:
    """Run `game` once per variant (`variants=[...]`) or per value of one option
    (`option="majority_points", values=[0, 30]`), all on deals 0..deals-1 of `seed` with the same
    agents and the other `options`, and compare each with the first (paired). simulate()'s
    execution arguments (workers, backend, chunk_size, ...) pass through **options too.
    An option that has no effect in the sweep's configuration (e.g. Basra's `target` outside
    scope="match": `option="target", values=[51, 101], scope="match"` sweeps it) is refused with
    ConfigError saying why, instead of giving identical columns. progress: one bar (deals of every
    configuration, with ETA) on stderr."""
    if not isinstance(game, str):
        raise ConfigError(f"sweep() takes a game name, got {str(game)[:60]}")
    if (variants is None) == (option is None):
        raise ConfigError("give variants=[...] or option=NAME with values=[...] (one of the two)")
    if option is not None:
        if not isinstance(option, str) or values is None or isinstance(values, (str, bytes)):
            raise ConfigError("option= needs a list of values=")
        configs = [(f"{option}={v}", {option: v}) for v in values]
        _check_effect(game, option, values, options)
    else:
        if isinstance(variants, str):
            variants = [v for v in variants.split(",") if v]
        configs = [(f"variant {v}", {"variant": v}) for v in variants]
    if len(configs) < 2:
        raise ConfigError(f"a sweep needs at least two configurations, got {len(configs)}")
    from cardsim.simulate import progress_bar, progress_flag as _flag

    runs = []
    count = runner.check_count("deals", deals, 0)
    bar = progress_bar(count * len(configs), "deal", _flag(progress), desc=f"sweep {game}")
    try:
        for label, cfg in configs:
            runs.append((label, simulate(game, deals=deals, seed=seed, agents=agents, progress=bar, **options, **cfg)))
    finally:
        bar.close()
    comparisons = [compare(runs[0][1], r) for _, r in runs[1:]]
    return SweepResult(game, runs, comparisons)


EXEC_ARGS = ("workers", "executor", "backend", "address", "chunk_size", "keep_table", "out", "first_player",
             "lead_changes")


def _check_effect(game: str, option: str, values, options: dict):
    """Refuse a sweep over an option that changes nothing in this configuration (its Option's
    applies_when is not met): every column would be the same run."""
    from cardsim.game import game_info

    try:
        info = game_info(game)
    except Exception:  # noqa: BLE001 - an unknown game: simulate() names the games
        return
    rules = {k: v for k, v in options.items() if k not in EXEC_ARGS}
    for v in values:
        try:
            bad = info.without_effect({**rules, option: v}, [option])
        except ConfigError:
            return                       # a bad value or option: simulate() says which
        if bad:
            need = ", ".join(f"{k}={a[0]!r}" for k, a in _need(info, option).items())
            raise ConfigError(f"sweep: {game}: {bad[0][1]}, so every configuration would give the same result; "
                              f"sweep it with {need} (CLI: -o {need.replace(chr(39), '')})")


def _need(info, option: str) -> dict:
    return dict(next(o for o in info.options if o.name == option).applies_when or {})
