"""tune(): search a game's option space for the rules that minimise an imbalance (or maximise skill).

    t = cardsim.analysis.tune.tune("basra", "first_player",
                                   over={"majority_points": [0, 3, 6], "sweep_bonus": [True, False]},
                                   deals=40_000)
    print(t)                  # best configurations with intervals, and how sure the ranking is
    # or: cardsim tune basra --objective first_player --over majority_points=0,3,6 --over sweep_bonus=True,False

Objectives (each a per-deal quantity, so configurations are compared deal by deal):

- first_player: the first player's win indicator minus the average win indicator of all positions
  (partners share a win): its mean is the first player's win-rate edge in percentage points;
  the loss is its absolute value.
- seat: the same for every seat; the loss is the largest absolute seat edge.
- skill: the win-rate gain of one greedy seat among random ones (cardsim.analysis.atlas.gap's
  design, per deal averaged over seats); maximised.

Win rates rather than points: an option that rescales the points (a card table, a bonus) would
otherwise change the advantage by changing the unit.

Common random numbers. Every configuration plays deals 0..n-1 of the same seed with the same
agents, so differences between configurations are paired deal by deal.

Search. `method="grid"` plays every configuration at `deals`. `method="halving"` (successive
halving, Jamieson & Talwalkar 2016, on common random numbers): every configuration plays
deals/eta^(R) deals, the best 1/eta by loss go on to eta times more deals, until `deals` is reached;
the current rules are always carried to the last round as the reference. "auto" (default): grid up
to GRID_MAX configurations, halving beyond.

Multiple comparisons. Each configuration's change against the current rules (a paired per-deal
difference) gets a Bonferroni-adjusted interval (level 1 - 0.05/m over the m configurations
compared) and a Holm-adjusted p-value (family-wise error 5%). How sure the ranking is: the share
of B bootstrap resamples of the deals (the same resampled deals for every configuration) in
which each configuration has the smallest loss.
"""
from __future__ import annotations

import ast
import itertools
import math

import numpy as np

from cardsim.errors import ConfigError
from cardsim.game import game_info, make
from cardsim.runner import check_count
from cardsim.simulate import simulate
from cardsim.stats import Z95, t_interval, t_test

OBJECTIVES = ("first_player", "seat", "skill")
METHODS = ("auto", "grid", "halving")
GRID_MAX = 12
ETA = 3


def holm(pvalues) -> list:
    """Holm's step-down adjustment of p-values (family-wise error), in the input order."""
    p = np.asarray([1.0 if x is None else x for x in pvalues], dtype=float)
    m = len(p)
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    run = 0.0
    for i, j in enumerate(order):
        run = max(run, min(1.0, (m - i) * p[j]))
        adj[j] = run
    return adj.tolist()


def _popcount(w: np.ndarray) -> np.ndarray:
    w = w.astype(np.int64)
    out = np.zeros(len(w), np.int64)
    for b in range(16):
        out += (w >> b) & 1
    return out


def per_deal(game, objective: str, *, deals: int, seed: int, agents: str, run: dict) -> np.ndarray:
    """(k, deals) per-deal contrasts of one configuration: k = 1 for first_player and skill, the
    number of seats for seat (see the module docstring)."""
    g = game
    P = g.num_players
    if objective == "skill":
        from cardsim.analysis.atlas import gap_rows

        return gap_rows(g, "random", "greedy", deals=deals, seed=seed, **run)[1][None, :]
    r = simulate(g, deals=deals, seed=seed, agents=[agents] * P, **run)
    w = r.table["winners"].astype(np.int64)
    avg = _popcount(w) / P
    if objective == "first_player":
        fp = r.table["first_player"].astype(np.int64)
        return (((w >> fp) & 1) - avg)[None, :]
    return np.stack([((w >> p) & 1) - avg for p in range(P)])


def _loss(objective: str, means: np.ndarray) -> np.ndarray:
    """Loss from per-deal means (..., k): |edge|, max |seat edge|, or -gain."""
    if objective == "skill":
        return -means[..., 0]
    return np.abs(means).max(axis=-1)


def _parse(v: str):
    t = v.strip()
    try:
        return ast.literal_eval(t)
    except (ValueError, SyntaxError):
        return t


def parse_over(items) -> dict:
    """["NAME=V1,V2", ...] (the --over arguments) as {name: [values]} (values read as Python
    literals where they are, else as text)."""
    out = {}
    for it in items or []:
        name, eq, vals = str(it).partition("=")
        values = [_parse(v) for v in vals.split(",") if v.strip()]
        if not eq or not name.strip() or not values:
            raise ConfigError(f"--over takes NAME=V1,V2,..., got {str(it)[:60]!r}")
        out[name.strip()] = values
    return out


class TuneResult(dict):
    """tune()'s result: a JSON-friendly dict with a readable text face (print it)."""

    def text(self) -> str:
        obj = self["objective"]
        what = {"first_player": "first player's win-rate edge", "seat": "largest seat win-rate edge",
                "skill": "win-rate gain of greedy over random play"}[obj]
        L = [f"{self['title']} tune: {what} over {self['n_configs']} configurations "
             f"({self['method']}; {self['deals']:,} deals per finalist, seed {self['seed']}, "
             f"{'one greedy seat among random ones' if obj == 'skill' else 'agents ' + str(self['agents'])}, "
             f"common random numbers)", "", "Verdict: " + self["verdict"], ""]
        L.append(f"{'rank':<5}{'options':<50}{'deals':>8}  {'value [95% CI]':<28}{'change vs current [adj. CI]':<32}"
                 f"{'Holm p':>9}{'P(best)':>9}")
        for i, c in enumerate(self["ranking"][:self.get("show", 10)]):
            e = c["value"]
            ci = c["ci95"]
            d = c.get("change")
            dtxt = ("(current rules)" if c["current"] else
                    f"{100 * d['diff']:+.2f} pp [{100 * d['ci_adj'][0]:+.2f}, {100 * d['ci_adj'][1]:+.2f}]" if d else "n/a")
            p = "" if c["current"] or not d else f"{d['p_holm']:.2g}"
            val = f"{100 * e:+.2f} pp [{100 * ci[0]:+.2f}, {100 * ci[1]:+.2f}]"
            L.append(f"{i + 1:<5}{c['label'][:49]:<50}{c['deals']:>8,}  {val:<28}{dtxt:<32}{p:>9}"
                     f"{100 * c['p_best']:>8.0f}%")
        L += ["", self["method_text"]]
        return "\n".join(L)

    __str__ = text

    def __repr__(self):
        return self.text()


def tune(game: str, objective: str = "first_player", over: dict | None = None, *, deals: int = 20_000, seed: int = 0,
         agents: str = "greedy", method: str = "auto", bootstrap: int = 400, base: dict | None = None,
         workers: int | None = None, backend: str = "threads", address=None) -> TuneResult:
    """Search the grid `over` ({option: [values]}) of `game` (other options: `base`) for the
    configuration with the smallest loss of `objective` (see the module docstring), on the same
    deals of `seed`. Returns a TuneResult: every configuration's objective with a 95% interval,
    its paired change against the current rules (Bonferroni-adjusted interval, Holm p-value), the
    bootstrap probability of being best, and a one-line verdict."""
    if objective not in OBJECTIVES:
        raise ConfigError(f"objective must be one of {list(OBJECTIVES)}, got {str(objective)[:40]!r}")
    if method not in METHODS:
        raise ConfigError(f"method must be one of {list(METHODS)}, got {str(method)[:40]!r}")
    if not isinstance(over, dict) or not over:
        raise ConfigError("over= needs at least one option with values: {'name': [v1, v2, ...]}")
    deals = check_count("deals", deals, 10)
    seed = check_count("seed", seed, 0, 2**64 - 1)
    bootstrap = check_count("bootstrap", bootstrap, 0, 100_000)
    info = game_info(game)
    base = dict(base or {})
    names = {o.name for o in info.options} | {"players", "variant"}
    for k, vals in over.items():
        if k not in names:
            raise ConfigError(f"{game}: no option {str(k)[:40]!r}; options: {sorted(names)}")
        if not isinstance(vals, (list, tuple)) or not vals:
            raise ConfigError(f"over[{k!r}] must be a non-empty list of values")
    current = info.resolve(base)
    cands, skipped = [], []
    seen = set()
    for combo in itertools.product(*over.values()):
        opts = {**base, **dict(zip(over, combo))}
        try:
            resolved = info.resolve(opts)
        except ConfigError as e:
            skipped.append({"options": opts, "reason": str(e)})
            continue
        key = repr(sorted((k, repr(v)) for k, v in resolved.items()))
        if key in seen:
            continue
        seen.add(key)
        label = ", ".join(f"{k}={v}" for k, v in zip(over, combo))
        cands.append({"options": opts, "label": label, "current": resolved == current})
    if not any(c["current"] for c in cands):
        cands.insert(0, {"options": base, "label": "current rules", "current": True})
    if len(cands) < 2:
        raise ConfigError(f"tune needs at least two valid configurations, got {len(cands)}"
                          + (f" ({skipped[0]['reason']})" if skipped else ""))
    if method == "auto":
        method = "grid" if len(cands) <= GRID_MAX else "halving"
    run = {"workers": workers, "backend": backend, "address": address}
    games = {i: make(game, **c["options"]) for i, c in enumerate(cands)}
    data: dict = {}
    rounds = []
    alive = list(range(len(cands)))
    cur = next(i for i, c in enumerate(cands) if c["current"])
    if method == "grid":
        sizes = [deals]
    else:
        R = max(0, math.ceil(math.log(len(cands) / 2, ETA)))
        sizes = [max(1_000, deals // ETA ** (R - r)) for r in range(R + 1)]
        sizes[-1] = deals
    for r, n in enumerate(sizes):
        for i in alive:
            data[i] = per_deal(games[i], objective, deals=n, seed=seed, agents=agents, run=run)
        loss = {i: float(_loss(objective, data[i].mean(axis=1))) for i in alive}
        rounds.append({"deals": n, "configs": len(alive)})
        if r < len(sizes) - 1:
            keep = max(2, math.ceil(len(alive) / ETA))
            best = sorted(alive, key=lambda i: loss[i])[:keep]
            alive = sorted(set(best) | {cur})
    final = alive
    n = deals
    X = {i: data[i] for i in final}
    # each configuration's objective and interval (the loss-defining component)
    recs = []
    for i in final:
        x = X[i]
        means = x.mean(axis=1)
        k = 0 if objective != "seat" else int(np.argmax(np.abs(means)))
        v = x[k]
        m, sd = float(v.mean()), float(v.std(ddof=1))
        recs.append({"index": i, "label": cands[i]["label"], "options": cands[i]["options"], "current": cands[i]["current"],
                     "deals": n, "component": k, "value": m, "ci95": t_interval(m, sd, n), "p_value": t_test(m, sd, n),
                     "loss": float(_loss(objective, means))})
    # paired change against the current rules: each configuration's loss-defining component, signed
    # so that its mean is the absolute edge (first_player, seat) or the gain (skill); the per-deal
    # difference of these against the current rules has mean = the change in that figure
    def signed(r):
        v = X[r["index"]][r["component"]]
        return v if objective == "skill" or r["value"] >= 0 else -v

    ref = next(r for r in recs if r["current"])
    others = [r for r in recs if not r["current"]]
    m_cmp = max(len(others), 1)
    level = 1 - 0.05 / m_cmp
    from scipy import stats as _st

    y_ref = signed(ref)
    for r in others:
        d = signed(r) - y_ref
        md, sdd = float(d.mean()), float(d.std(ddof=1))
        # one-sided p of an improvement: a smaller absolute edge, or a larger skill gain
        t = md / (sdd / math.sqrt(n)) if sdd > 0 else (0.0 if md == 0 else math.copysign(math.inf, md))
        p_impr = float(_st.t.sf(t, n - 1)) if objective == "skill" else float(_st.t.cdf(t, n - 1))
        r["change"] = {"diff": md, "ci95": t_interval(md, sdd, n), "ci_adj": t_interval(md, sdd, n, level=level),
                       "p_two_sided": t_test(md, sdd, n), "p_improvement": p_impr}
    adj = holm([r["change"]["p_improvement"] for r in others])
    for r, a in zip(others, adj):
        r["change"]["p_holm"] = a
    # how sure the ranking is: bootstrap over deals (the same resampled deals for every configuration)
    counts = np.zeros(len(recs))
    if bootstrap:
        rng = np.random.default_rng(seed)
        for _ in range(bootstrap):
            idx = rng.integers(0, n, n)
            losses = [float(_loss(objective, X[r["index"]][:, idx].mean(axis=1))) for r in recs]
            counts[int(np.argmin(losses))] += 1
    for r, c in zip(recs, counts):
        r["p_best"] = float(c / bootstrap) if bootstrap else None
    ranking = sorted(recs, key=lambda r: r["loss"])
    best = ranking[0]
    out = TuneResult(game=game, title=info.title, objective=objective, over={k: list(v) for k, v in over.items()},
                     base=base, deals=deals, seed=seed, agents=agents, method=method, rounds=rounds,
                     n_configs=len(cands), skipped=skipped, ranking=ranking, bootstrap=bootstrap,
                     correction=f"Bonferroni intervals over {m_cmp} comparisons with the current rules; Holm p-values")
    out["verdict"] = _verdict(out, best, ref, objective)
    out["method_text"] = _method_text(out)
    return out


def _fmt_ci(ci) -> str:
    return f"[{100 * ci[0]:+.2f}, {100 * ci[1]:+.2f}]"


def _verdict(out: dict, best: dict, ref: dict, objective: str) -> str:
    what = {"first_player": "the first player's win-rate edge", "seat": "the largest seat win-rate edge",
            "skill": "the win-rate gain of greedy over random play"}[objective]
    change = "change in the gain" if objective == "skill" else "change in the absolute edge"
    if best["current"]:
        return (f"No configuration beats the current rules on {what} ({100 * ref['value']:+.2f} pp "
                f"{_fmt_ci(ref['ci95'])}); it ranks first in {100 * best['p_best']:.0f}% of bootstrap resamples.")
    d = best["change"]
    sure = "significant" if d["p_holm"] < 0.05 else "not significant"
    return (f"Best: {best['label']}: {what} {100 * best['value']:+.2f} pp {_fmt_ci(best['ci95'])} against "
            f"{100 * ref['value']:+.2f} pp {_fmt_ci(ref['ci95'])} under the current rules; {change} "
            f"{100 * d['diff']:+.2f} pp {_fmt_ci(d['ci_adj'])} (Bonferroni-adjusted 95%), Holm p = {d['p_holm']:.2g} "
            f"({sure} at 5% family-wise); it ranks first in {100 * best['p_best']:.0f}% of "
            f"{out['bootstrap']} bootstrap resamples of the deals.")


def _method_text(out: dict) -> str:
    if out["method"] == "grid":
        how = f"Grid: all {out['n_configs']} configurations at {out['deals']:,} deals."
    else:
        how = ("Successive halving (eta = 3): " + "; ".join(f"{r['configs']} configurations at {r['deals']:,} deals"
                                                          for r in out["rounds"]) + " (the current rules always kept).")
    sk = f" Skipped (refused by the game): {len(out['skipped'])}." if out["skipped"] else ""
    return (how + f" Same deals for every configuration (seed {out['seed']}). {out['correction']}; P(best) from "
            f"{out['bootstrap']} bootstrap resamples of the deals." + sk)
