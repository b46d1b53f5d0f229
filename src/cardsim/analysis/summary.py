"""The Summary object: a run's summary dict that reads well.

`print(summary)` gives readable text (a verdict first, then the seats or sides, the first-player
frame, the game measures, numeric metrics with their units and category metrics as labelled
frequency tables); Jupyter shows the same as HTML (`_repr_html_`); `.to_dict()` and `.to_json()`
give the data. A Summary *is* the summary dict (a dict subclass), so code that indexes it keeps
working. Every term is defined in docs/glossary.md (cardsim.analysis.glossary).

What the presentation needs from a game, it reads from the game's GameInfo (cardsim.info):
  unit                 the unit of the returns ("points", "chips", "game points", "rank levels"),
                       or a function of the resolved options;
  categorical metrics  {metric: labels}: labels is "seat", "team", "bool", or a sequence of names
                       indexed by the value (a value of -1 reads "none").
"""
from __future__ import annotations

import html as _html
import json
import math

from cardsim.analysis.glossary import anchor
from cardsim.stats import count_of, wilson

Z80 = 0.8416212335729143      # power 80%
Z975 = 1.959963984540054
ALPHA = 0.05                  # the verdict's family-wise level


def win_gap_p(a, b, n) -> float | None:
    """Two-sided p-value of H0: two win rates a, b of the same n deals are equal, when the two
    never win the same deal (two sides, or two seats): the per-deal difference of the win
    indicators is -1, 0 or 1 with mean a - b and variance a + b - (a - b)^2 (t test)."""
    if a is None or b is None or n < 2:
        return None
    from scipy import stats as _st

    d = a - b
    var = (a + b - d * d) * n / (n - 1)
    if var <= 0:
        return 1.0 if d == 0 else 0.0
    return float(2 * _st.t.sf(abs(d) / math.sqrt(var / n), n - 1))


def holm(ps) -> list:
    """Holm's step-down adjusted p-values (family-wise error control under any dependence), in
    the order given; None stays None and is not counted in the family."""
    idx = sorted((i for i, p in enumerate(ps) if p is not None), key=lambda i: ps[i])
    m = len(idx)
    out = [None] * len(ps)
    run = 0.0
    for r, i in enumerate(idx):
        run = max(run, min(1.0, (m - r) * ps[i]))
        out[i] = run
    return out

def game_facts(game: str, options: dict | None = None) -> dict:
    """{"unit": ..., "categories": {...}, "defaults": resolved default options or None,
    "default_players": ...}, read from the game's GameInfo (cardsim.info)."""
    options = options or {}
    try:
        from cardsim.game import game_info

        info = game_info(game)
    except Exception:  # noqa: BLE001 - an unknown game (a file from elsewhere): generic presentation
        return {"unit": "points", "categories": {}, "defaults": None, "default_players": None}
    kw = {"variant": options["variant"]} if options.get("variant") is not None else {}
    try:
        defaults = info.resolve(kw)
    except Exception:  # noqa: BLE001 - options from another version: show them all
        defaults = None
    try:
        resolved = info.resolve(options)
    except Exception:  # noqa: BLE001 - options from another version: the defaults' facts
        resolved = defaults or info.defaults()
    unit, cats = info.unit_for(resolved), info.categories(resolved)
    return {"unit": unit, "categories": dict(cats), "defaults": defaults,
            "default_players": info.default_players}


def _plain(v):
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def differing_options(game: str, options: dict, facts: dict | None = None) -> dict:
    """The options of a run that differ from the defaults of its variant (players included)."""
    facts = facts or game_facts(game, options)
    d = facts["defaults"]
    out = {}
    for k, v in (options or {}).items():
        if k in ("variant",) or k.startswith("_"):
            continue
        if d is None or k not in d or _plain(d[k]) != _plain(v):
            if k == "players" and d is None and v == facts.get("default_players"):
                continue
            out[k] = v
    return out


# ---------------------------------------------------------------------------------------------
# number formatting
# ---------------------------------------------------------------------------------------------
def fmt(x, digits: int = 4) -> str:
    """How the report prints a number (tests use it to find summary() values in the page)."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (hasattr(x, "dtype") and getattr(x.dtype, "kind", "") in "iu"):
        return f"{int(x):,}"
    x = float(x)
    if not math.isfinite(x):
        return "n/a"
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e7):
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}f}"


def fmt_ci(ci) -> str:
    if ci is None or ci[0] is None:
        return "n/a"
    return f"[{fmt(ci[0])}, {fmt(ci[1])}]"


def fmt_p(p) -> str:
    """A p-value: 3 significant digits, "< 1e-300" below that (a float would print 0)."""
    if p is None:
        return "n/a"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.3g}"


def p_text(p) -> str:
    """'p = 0.012' or 'p < 1e-300'."""
    s = fmt_p(p)
    return f"p {s}" if s.startswith("<") else f"p = {s}"


def pct(x, digits: int = 1) -> str:
    return "n/a" if x is None else f"{100 * x:.{digits}f}%"


def pct_ci(ci, digits: int = 1) -> str:
    if ci is None or ci[0] is None:
        return "n/a"
    return f"[{100 * ci[0]:.{digits}f}%, {100 * ci[1]:.{digits}f}%]"


def signed(x, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:+.{digits}g}"


def plural(unit: str) -> str:
    """'deal' -> 'deals', 'match' -> 'matches'."""
    return unit + ("es" if unit.endswith(("ch", "sh", "s", "x")) else "s")


def title(game: str) -> str:
    return str(game).replace("_", " ").title()


def agents_text(agents) -> str:
    agents = [str(a) for a in agents or []]
    if agents and all(a == agents[0] for a in agents):
        return f"{agents[0]} x{len(agents)}"
    return ", ".join(agents)


# ---------------------------------------------------------------------------------------------
# the Summary
# ---------------------------------------------------------------------------------------------
class Summary(dict):
    """A run's summary (the dict of cardsim.stats.Accumulator.summary) with a readable face."""

    # -- data ------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A plain JSON-friendly dict (a deep copy)."""
        return json.loads(json.dumps(self, allow_nan=False))

    def to_json(self, path=None, indent: int = 2) -> str:
        text = json.dumps(self, indent=indent, allow_nan=False)
        if path is not None:
            from cardsim.results_io import write_text_atomic

            write_text_atomic(path, text)
        return text

    @property
    def n(self) -> int:
        return count_of(self)

    @property
    def unit_row(self) -> str:
        """'deal' or 'match'."""
        return self.get("unit", "deal")

    @property
    def facts(self) -> dict:
        f = self.__dict__.get("_facts")
        if f is None:
            f = self.__dict__["_facts"] = game_facts(self.get("game"), self.get("options") or {})
        return f

    @property
    def unit(self) -> str:
        """The unit of the returns (points, chips, ...)."""
        return self.facts["unit"]

    def options_differing(self) -> dict:
        return differing_options(self.get("game"), self.get("options") or {}, self.facts)

    def _sides_raw(self) -> list:
        seats = self["seats"]
        groups = self.get("teams") or [[x["seat"]] for x in seats]
        out = []
        for g in groups:
            x = seats[g[0]]
            out.append({"seats": list(g), "label": ("seats " + " & ".join(map(str, g))) if len(g) > 1 else f"seat {g[0]}",
                        "mean": x["mean"], "ci95": x["ci95"], "sd": x["sd"], "wins": x["wins"],
                        "win_rate": x["win_rate"], "win_ci95": x["win_ci95"], "advantage": x["advantage"],
                        "advantage_ci95": x["advantage_ci95"], "advantage_p": x["advantage_p"]})
        return out

    def _positions_raw(self) -> list:
        fp = self.get("first_player")
        if not fp:
            return []
        out = []
        teams = self.get("teams")
        P = len(fp["positions"])
        # partners sit at the same offsets from any seat when the sides are rotation-invariant
        # ({0,2} {1,3}; {0,3} {1,4} {2,5}): offsets k and k' are one side iff seats k and k' are
        rot = bool(teams) and {tuple(sorted((q + 1) % P for q in g)) for g in teams} == {tuple(sorted(g)) for g in teams}
        side = {q: i for i, g in enumerate(teams or []) for q in g}
        for x in fp["positions"]:
            for g in out:
                y = g["first"]
                if (rot and side.get(y["offset"]) == side.get(x["offset"])) or (
                        teams and not rot and (y["mean"], y["wins"]) == (x["mean"], x["wins"])):
                    g["offsets"].append(x["offset"])
                    break
            else:
                out.append({"first": x, "offsets": [x["offset"]]})
        res = []
        for g in out:
            offs = g["offsets"]
            if offs == [0]:
                lab = "first player"
            elif 0 in offs:
                lab = "first player's side (" + ", ".join("first" if k == 0 else f"+{k}" for k in offs) + ")"
            elif len(offs) > 1:
                lab = "other side (" + ", ".join(f"+{k}" for k in offs) + ")"
            else:
                lab = f"first + {offs[0]}"
            res.append({**g["first"], "offsets": offs, "label": lab})
        return res

    def _family(self) -> tuple[list, list]:
        """(sides, positions), each record with `p_holm`: its advantage p-value adjusted by Holm's
        step-down correction over every test of the verdict (one per side or seat, one per
        position group after the first player)."""
        f = self.__dict__.get("_family_cache")
        if f is None:
            sides, pos = self._sides_raw(), self._positions_raw()
            # with two sides (or seats, or position groups) the two rows are one test: their
            # advantages are +a and -a; the family counts it once. Such a two-way split also gets
            # a test of its win-rate gap (exact: the two never win the same deal)
            fam = []            # (record, key of its p-value, key of its Holm p)
            for g in (sides, pos):
                for x in (g[:1] if len(g) == 2 else g):
                    fam.append((x, "advantage_p", "p_holm"))
                if len(g) == 2:
                    g[0]["win_p"] = g[1]["win_p"] = win_gap_p(g[0]["win_rate"], g[1]["win_rate"], self.n)
                    fam.append((g[0], "win_p", "win_p_holm"))
            adj = holm([x[k] for x, k, _ in fam])
            for (x, _, kh), q in zip(fam, adj):
                x[kh] = q
            for g in (sides, pos):
                if len(g) == 2:
                    g[1]["p_holm"] = g[0]["p_holm"]
                    g[1]["win_p_holm"] = g[0]["win_p_holm"]
            self.__dict__["_n_tests"] = sum(1 for x, k, _ in fam if x[k] is not None)
            for group in (sides, pos):
                for x in group:
                    others = [y["win_rate"] for y in group if y is not x and y["win_rate"] is not None]
                    x["others_win_rate"] = sum(others) / len(others) if others else None
            f = self.__dict__["_family_cache"] = (sides, pos)
        return f

    def sides(self) -> list:
        """One record per side (partners grouped) or per seat: seats, mean, ci95, win rate,
        advantage with its t-test p-value and its Holm-adjusted `p_holm` (the verdict's test)."""
        return [dict(x) for x in self._family()[0]]

    def positions(self) -> list:
        """The first-player frame, positions with identical results grouped (in a partnership
        game the first player's partners sit at the same team offsets): dicts with a label and
        `p_holm` (as sides())."""
        return [dict(x) for x in self._family()[1]]

    def _team_of(self, seat: int):
        for g in self.get("teams") or []:
            if seat in g:
                return g
        return None

    def metric_groups(self) -> tuple[dict, dict, dict]:
        """(numeric, categorical, constant) metrics: numeric {name: stats}, categorical
        {name: [(label, count, share, ci)]}, constant {name: value}."""
        numeric, cats, const = {}, {}, {}
        n = self.n
        P = len(self["seats"])
        for name, v in (self.get("metrics") or {}).items():
            if n and v.get("min") is not None and v.get("min") == v.get("max"):
                const[name] = v["min"]
                continue
            labels = self.facts["categories"].get(name)
            h = v.get("hist") or {}
            if labels is not None and not h.get("width"):
                rows = []
                for val, c in zip(h.get("values", []), h.get("counts", [])):
                    rows.append((_label(labels, val, P), int(c), c / n if n else None, wilson(int(c), n)))
                cats[name] = rows
            else:
                numeric[name] = v
        return numeric, cats, const

    # -- the verdict -----------------------------------------------------------------------
    def effects(self) -> list:
        """Every effect the verdict tests: one per side (seat when there are no partners) and one
        per position group after the first player; dicts with kind, label, advantage, ci95, p
        (two-sided t test of the mean advantage), p_holm (Holm-adjusted over the whole family),
        win_rate, win_ci95, others_win_rate (the mean win rate of the other sides/positions) and,
        for a two-way split, win_p / win_p_holm (the t test of the win-rate gap)."""
        sides, pos = self._family()

        def rec(x, kind, index):
            return {"kind": kind, "index": index, "label": x["label"], "advantage": x["advantage"],
                    "ci95": x["advantage_ci95"], "p": x["advantage_p"], "p_holm": x["p_holm"],
                    "win_rate": x["win_rate"], "win_ci95": x["win_ci95"], "others_win_rate": x["others_win_rate"],
                    "win_p": x.get("win_p"), "win_p_holm": x.get("win_p_holm")}

        out = [rec(x, "side" if len(x["seats"]) > 1 else "seat", x["seats"][0]) for x in sides]
        out += [{**rec(x, "position", x["offsets"][0]), "offsets": x["offsets"]} for x in pos]
        return out

    def n_tests(self) -> int:
        """How many tests the verdict's Holm correction counts (two mirror rows count once)."""
        self._family()
        return self.__dict__["_n_tests"]

    def test_text(self) -> str:
        """Which tests and correction the verdict uses, in words."""
        who = "side" if self.get("teams") else "seat"
        k = self.n_tests()
        frame = " and each position after the first player" if self.get("first_player") else ""
        sides, pos = self._family()
        two = [w for w, g in ((f"{who}s", sides), ("position groups", pos)) if len(g) == 2]
        wins = (f" and of the win-rate gap between the two {' and between the two '.join(two)}" if two else "")
        return (f"two-sided t tests of the mean advantage of each {who}{frame} against the table average{wins}, "
                f"Holm correction over the {k} tests, 5% family-wise level")

    def _who(self, e) -> tuple[str, str, str]:
        """(subject, verb 'is'/'are', the others it is compared with) for an effect."""
        teams = self.get("teams")
        what = "side" if teams else "seat"
        k = e["index"]
        if e["kind"] == "position":
            offs = e["offsets"]
            if len(offs) > 1:
                who = "The first player's side" if 0 in offs else "The side after the first player"
            else:
                who = ("The first player" if k == 0 else
                       f"The player {k} seat{'s' if k > 1 else ''} after the first player")
            two = len(self._family()[1]) == 2
            others = ("the other side" if two and len(offs) > 1 else "the other position" if two
                      else "the other positions on average")
            return who, "is", others
        who = f"Seats {' & '.join(map(str, self._team_of(k)))} (a side)" if teams else f"Seat {k}"
        others = f"the other {what}" if len(self._family()[0]) == 2 else f"the other {what}s on average"
        return who, "are" if teams else "is", others

    def verdict(self, with_test: bool = True) -> str:
        """One or two sentences: the largest effect significant after the Holm correction (an
        advantage in points, else a win-rate gap), or none with the detectable size; naming the
        tests and the correction (`with_test=False` leaves that out, for a page that states it
        once for several verdicts), and agreeing with the table (p, Holm p, the win rates and
        their gap tests)."""
        n = self.n
        per = f"per {self.unit_row}"
        if n < 2:
            return f"Too few {plural(self.unit_row)} ({n}) to say anything."
        eff = [e for e in self.effects() if e["advantage"] is not None and e["p"] is not None]
        what = "side" if self.get("teams") else "seat"
        how = f" ({self.test_text()})" if with_test else ""
        sig = [e for e in eff if e["p_holm"] < ALPHA]
        wsig = [e for e in eff if e["win_p_holm"] is not None and e["win_p_holm"] < ALPHA
                and e["win_rate"] > e["others_win_rate"]]
        if sig:
            e = max(sig, key=lambda e: (abs(e["advantage"]), e["kind"] == "position"))
            who, verb, others = self._who(e)
            good = e["advantage"] > 0
            w, ow = e["win_rate"], e["others_win_rate"]
            gap = (f" (win-rate gap {p_text(e['win_p'])}, {fmt_p(e['win_p_holm'])} after the correction)"
                   if e["win_p"] is not None else "")
            wins_txt = (f"wins {pct(w)} {pct_ci(e['win_ci95'])}" + (f" against {pct(ow)} for {others}{gap}"
                                                                    if ow is not None else ""))
            stat = (f"{signed(e['advantage'])} {self.unit} {per} against the table average {fmt_ci(e['ci95'])} "
                    f"({p_text(e['p'])}, {fmt_p(e['p_holm'])} after the Holm correction)")
            if w is None or ow is None or (w - ow) * e["advantage"] > 0:
                return f"{who} {verb} {'favoured' if good else 'disadvantaged'}: {stat}; {wins_txt}{how}."
            more, less = ("more", "less") if good else ("less", "more")
            return (f"{who} {'score' if verb == 'are' else 'scores'} {more} than the table average but "
                    + ("wins as often as" if w == ow else f"{'win' if verb == 'are' else 'wins'} {less} often than")
                    + f" {others}: {stat}; {wins_txt} (points and wins disagree: read both){how}.")
        if wsig:
            e = max(wsig, key=lambda e: (e["win_rate"] - e["others_win_rate"], e["kind"] == "position"))
            who, verb, others = self._who(e)
            return (f"{who} {'win' if verb == 'are' else 'wins'} more often: {pct(e['win_rate'])} "
                    f"{pct_ci(e['win_ci95'])} against {pct(e['others_win_rate'])} for {others} (win-rate gap "
                    f"{p_text(e['win_p'])}, {fmt_p(e['win_p_holm'])} after the Holm correction), though "
                    f"{'their' if verb == 'are' else 'its'} points do not differ significantly from the table "
                    f"average ({signed(e['advantage'])} {self.unit} {per}, {p_text(e['p'])}, {fmt_p(e['p_holm'])} "
                    f"after the correction){how}.")
        hw = [(e["ci95"][1] - e["ci95"][0]) / 2 for e in eff if e["ci95"] and e["ci95"][0] is not None]
        mde = (Z975 + Z80) / Z975 * max(hw) if hw else None
        wse = [math.sqrt(max(e["win_rate"] * (1 - e["win_rate"]), 0) / n) for e in eff if e["win_rate"] is not None]
        wmde = (Z975 + Z80) * max(wse) if wse else None
        tests = [(e["p"], e["p_holm"], e["label"]) for e in eff]
        tests += [(e["win_p"], e["win_p_holm"], f"win-rate gap, {e['label']}") for e in eff if e["win_p"] is not None]
        low = min(tests) if tests else None
        smallest = (f"; the smallest p is {fmt_p(low[0])} ({low[2]}), {fmt_p(low[1])} after the correction"
                    if low else "")
        size = ""
        if mde is not None:
            size = (f" These {n:,} {plural(self.unit_row)} would detect (80% power, 5% level) an advantage of "
                    f"about {mde:.3g} {self.unit} {per}" + (f" or {100 * wmde:.1f} points of win rate" if wmde
                                                              else "") + "; anything smaller may still be there.")
        joint = ""
        b = self.get("seat_balance") or {}
        if b.get("p_value") is not None and b["p_value"] < ALPHA:
            joint = (f" The joint test that every {what} scores the same (Hotelling T2) gives "
                     f"{p_text(b['p_value'])}: the {what}s differ jointly, though no single one stands out.")
        return f"No significant {what} or first-player effect at this sample size{how}{smallest}.{size}{joint}"

    # -- header ----------------------------------------------------------------------------
    def header(self) -> str:
        opts = self.get("options") or {}
        parts = [f"{title(self.get('game'))}: {self.n:,} {plural(self.unit_row)}", f"seed {self.get('seed')}",
                 f"agents {agents_text(self.get('agents'))}",
                 f"variant {opts.get('variant')}" if opts.get("variant") else "default rules"]
        diff = self.options_differing()
        if diff:
            parts.append("options " + ", ".join(f"{k}={v}" for k, v in diff.items()))
        text = ", ".join(parts)
        if self.get("complete") is False:
            text += f"  [INCOMPLETE: {self.n:,} of {self.get('planned')} planned]"
        return text

    def _gap_lines(self, rows) -> list:
        """The win-rate gap test of a two-way split, as a table line ([] otherwise)."""
        if len(rows) != 2 or rows[0].get("win_p") is None:
            return []
        a, b = rows
        return [f"  win-rate gap {a['label']} - {b['label']}: {100 * (a['win_rate'] - b['win_rate']):+.1f} points, "
                f"p = {fmt_p(a['win_p'])}, Holm p = {fmt_p(a['win_p_holm'])}"]

    def scope_note(self) -> str:
        """What the balance figures measure: play between this run's agents, nowhere else."""
        return (f"Balance is measured between the agents of this run ({agents_text(self.get('agents'))}): every "
                f"figure says how these agents fare against each other, not how the game plays at every level "
                f"(an agent's habits, e.g. never doubling, show up as the game's). For other levels of play see "
                f"`cardsim skill {self.get('game')}` (what a stronger agent gains at each seat) and docs/strength.md "
                f"(search agents against greedy).")

    def caveats(self) -> list:
        out = []
        if any(str(a) == "random" for a in self.get("agents") or []):
            out.append("Random agents bid and play at random: contracts, seat and skill figures describe random "
                       "play, not the game as people play it (the default is the greedy agent).")
        return out

    # -- text ------------------------------------------------------------------------------
    def text(self) -> str:
        u, per = self.unit, self.unit_row
        L = [self.header(), "", "Verdict: " + self.verdict()]
        L += ["Note: " + c for c in self.caveats()]
        L.append("Agents: " + self.scope_note())
        L.append("")
        sides = self.sides()
        teams = self.get("teams")
        L.append(("Sides (partners score the same every " + per + ")") if teams else "Seats")
        w = max(len(x["label"]) for x in sides + self.positions()) + 2
        L.append(f"  {'':<{w}}{f'mean {u}/{per}':>18}  {'95% CI':<22}{'win rate':>9}  {'95% CI':<17}"
                 f"{'advantage':>10}  {'p':<9} Holm p")
        for s in sides:
            L.append(f"  {s['label']:<{w}}{fmt(s['mean']):>18}  {fmt_ci(s['ci95']):<22}{pct(s['win_rate']):>9}  "
                     f"{pct_ci(s['win_ci95']):<17}{signed(s['advantage']):>10}  {fmt_p(s['advantage_p']):<9} "
                     f"{fmt_p(s['p_holm'])}")
        L += self._gap_lines(sides)
        b = self.get("seat_balance") or {}
        L.append(f"  seat balance (Hotelling T2, joint test that every seat scores the same): "
                 f"{p_text(b.get('p_value'))}; win-rate gap {pct(b.get('win_rate_gap'))}")
        if self.get("first_player"):
            L.append("")
            L.append("By position after the first player")
            for x in self.positions():
                lab = x["label"]
                L.append(f"  {lab:<{w}}{fmt(x['mean']):>18}  {fmt_ci(x['ci95']):<22}{pct(x['win_rate']):>9}  "
                         f"{pct_ci(x['win_ci95']):<17}{signed(x['advantage']):>10}  {fmt_p(x['advantage_p']):<9} "
                         f"{fmt_p(x['p_holm'])}")
            L += self._gap_lines(self.positions())
        L.append(f"  p: two-sided t test of the advantage (or of the win-rate gap); Holm p: adjusted over the "
                 f"{self.n_tests()} tests above (two mirror rows, +a and -a, are one test); the verdict's test")
        d = self["duration"]
        L += ["", "Game measures",
              f"  draws {pct(self['draws']['rate'], 2)} {pct_ci(self['draws']['ci95'], 2)};  "
              f"actions per {per} {fmt(d['actions']['mean'], 2)};  decisions per {per} {fmt(d['decisions']['mean'], 2)}",
              f"  branching factor {fmt(self['branching_factor']['value'], 2)};  branching at decisions "
              f"{fmt(self['branching_at_decisions']['value'], 2)};  decision share "
              f"{pct(self['decision_share']['value'])}"]
        if self.get("lead_changes"):
            L.append(f"  lead changes per {per} {fmt(self['lead_changes']['mean'], 2)} "
                     f"{fmt_ci(self['lead_changes']['ci95'])}")
        dd = self.get("decided")
        if dd:
            L.append(f"  decided before the last round {pct(dd['early_rate'])} {pct_ci(dd['early_ci95'])};  "
                     f"decided at {pct(dd['at']['mean'])} of the {per}" if dd["measured"] else
                     "  decided before the last round: not measured (the running standing stayed level until the end)")
        numeric, cats, const = self.metric_groups()
        if numeric:
            L += ["", "Metrics"]
            for k, v in numeric.items():
                L.append(f"  {k:<20} mean {fmt(v['mean'], 3)} {fmt_ci(v['ci95'])}  sd {fmt(v['sd'], 3)}  "
                         f"range {fmt(v.get('min'), 3)}..{fmt(v.get('max'), 3)}")
        for k, rows in cats.items():
            L += ["", f"{k} (share of {plural(per)})"]
            L.append("  " + "   ".join(f"{lab} {pct(sh)} {pct_ci(ci)}" for lab, _, sh, ci in rows))
        if const:
            L += ["", "Constant in every " + per + " (left out): " + ", ".join(f"{k}={fmt(v, 3)}" for k, v in const.items())]
        L += ["", "Definitions: cardsim glossary"]
        return "\n".join(L)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return self.text()

    def _repr_pretty_(self, p, cycle):  # IPython's plain-text display
        p.text(self.text())

    # -- HTML ------------------------------------------------------------------------------
    def html_tables(self) -> str:
        """The summary's tables as HTML (the report puts them under its plots)."""
        u, per = self.unit, self.unit_row
        e = _html.escape
        out = []
        teams = self.get("teams")
        out.append(f"<h3>{'Sides' if teams else 'Seats'}</h3><table class='seats'>")
        out.append(_row(["", f"mean {u} per {per}", "95% CI", "win rate", "95% CI", "advantage", "95% CI", "p",
                         "Holm p"], "th"))
        for s in self.sides():
            out.append(_row([s["label"], fmt(s["mean"]), fmt_ci(s["ci95"]), pct(s["win_rate"]), pct_ci(s["win_ci95"]),
                             fmt(s["advantage"]), fmt_ci(s["advantage_ci95"]), fmt_p(s["advantage_p"]),
                             fmt_p(s["p_holm"])]))
        out.append("</table>")
        out += [f"<p>{e(t.strip())}</p>" for t in self._gap_lines(self.sides())]
        b = self.get("seat_balance") or {}
        out.append(f"<p>Seat balance (<a href='#{anchor('seat balance')}'>Hotelling T&sup2;</a>, joint test that every "
                   f"seat scores the same): "
                   f"{e(p_text(b.get('p_value')))}; win-rate gap {e(pct(b.get('win_rate_gap')))}; balance "
                   f"{fmt(b.get('balance'))}.</p>")
        fp = self.get("first_player")
        if fp:
            out.append("<h3>By position after the first player</h3><table class='positions'>")
            out.append(_row(["position", f"mean {u} per {per}", "95% CI", "win rate", "95% CI", "advantage", "95% CI",
                             "p", "Holm p"], "th"))
            for x in self.positions():
                out.append(_row([x["label"], fmt(x["mean"]),
                                 fmt_ci(x["ci95"]), pct(x["win_rate"]), pct_ci(x["win_ci95"]), fmt(x["advantage"]),
                                 fmt_ci(x["advantage_ci95"]), fmt_p(x["advantage_p"]), fmt_p(x["p_holm"])]))
            out.append("</table>")
            out += [f"<p>{e(t.strip())}</p>" for t in self._gap_lines(self.positions())]
        out.append(f"<p>p: two-sided t test of the advantage (or of the win-rate gap); Holm p: adjusted over the "
                   f"{self.n_tests()} tests of the "
                   "side or seat and position rows (two mirror rows, +a and -a, are one test; the verdict's test, 5% "
                   "family-wise level).</p>")
        d = self["duration"]
        rows = [("draws (drawishness)", pct(self["draws"]["rate"], 2), pct_ci(self["draws"]["ci95"], 2)),
                (f"actions per {per}", fmt(d["actions"]["mean"]), fmt_ci(d["actions"]["ci95"])),
                (f"decisions per {per}", fmt(d["decisions"]["mean"]), fmt_ci(d["decisions"]["ci95"])),
                ("branching factor", fmt(self["branching_factor"]["value"]), fmt_ci(self["branching_factor"]["ci95"])),
                ("branching at decisions", fmt(self["branching_at_decisions"]["value"]),
                 fmt_ci(self["branching_at_decisions"]["ci95"])),
                ("decision share", fmt(self["decision_share"]["value"]), fmt_ci(self["decision_share"]["ci95"]))]
        if self.get("lead_changes"):
            rows.append((f"lead changes per {per}", fmt(self["lead_changes"]["mean"]),
                         fmt_ci(self["lead_changes"]["ci95"])))
        dd = self.get("decided")
        if dd and dd["measured"]:
            rows.append(("decided before the last round", pct(dd["early_rate"]), pct_ci(dd["early_ci95"])))
            rows.append((f"decided at (fraction of the {per})", pct(dd["at"]["mean"]), pct_ci(dd["at"]["ci95"])))
        elif dd:
            rows.append(("decided before the last round", "not measured (the standing stayed level until the end)", ""))
        out.append("<h3>Game measures</h3><table class='measures'>")
        out.append(_row(["measure", "value", "95% CI"], "th"))
        out += [_row(r) for r in rows]
        out.append("</table>")
        numeric, cats, const = self.metric_groups()
        if numeric:
            out.append("<h3>Metrics</h3><table class='metrics'>")
            out.append(_row(["metric", "mean", "95% CI", "sd", "min", "max"], "th"))
            for k, v in numeric.items():
                out.append(_row([k, fmt(v["mean"]), fmt_ci(v["ci95"]), fmt(v["sd"]), fmt(v.get("min")),
                                 fmt(v.get("max"))]))
            out.append("</table>")
        for k, rows in cats.items():
            out.append(f"<h3>{e(k)} (share of {plural(per)})</h3><table class='category'>")
            out.append(_row([k, plural(per), "share", "95% CI"], "th"))
            out += [_row([lab, fmt(c), pct(sh), pct_ci(ci)]) for lab, c, sh, ci in rows]
            out.append("</table>")
        if const:
            out.append("<p>Constant in every " + e(per) + " (left out): "
                       + e(", ".join(f"{k}={fmt(v, 3)}" for k, v in const.items())) + ".</p>")
        return "\n".join(out)

    def _repr_html_(self) -> str:
        e = _html.escape
        cav = "".join(f"<p><i>Note: {e(c)}</i></p>" for c in self.caveats())
        return (f"<div class='cardsim-summary'><p><b>{e(self.header())}</b></p>"
                f"<p class='verdict'><b>Verdict:</b> {e(self.verdict())}</p>{cav}"
                f"<p class='agents'><b>Agents:</b> {e(self.scope_note())}</p>{self.html_tables()}"
                f"<p>Definitions: <code>cardsim glossary</code></p></div>")


def _row(cells, tag="td") -> str:
    return "<tr>" + "".join(f"<{tag}>{_html.escape(str(c))}</{tag}>" for c in cells) + "</tr>"


def _label(labels, value, P) -> str:
    v = float(value)
    iv = int(v) if v == int(v) else None
    if iv is not None and iv < 0:
        return "none"
    if labels == "seat":
        return f"seat {iv}" if iv is not None else fmt(v)
    if labels == "team":
        return f"team {iv}" if iv is not None else fmt(v)
    if labels == "bool":
        return {0: "no", 1: "yes"}.get(iv, fmt(v))
    if isinstance(labels, (tuple, list, str)) and iv is not None and iv < len(labels):
        return str(labels[iv])
    if isinstance(labels, dict):
        return str(labels.get(iv, labels.get(v, fmt(v))))
    return fmt(v) if iv is None else str(iv)


def as_summary(s) -> Summary:
    return s if isinstance(s, Summary) else Summary(s)
