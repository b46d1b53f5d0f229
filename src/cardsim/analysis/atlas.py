"""The balance atlas: every registered game x preset x player count x agent line-up, measured once,
cached cell by cell, and summarised in words a designer reads at a glance.

    atlas = cardsim.analysis.atlas.build_atlas(["basra", "karnoffel"], results="atlas-cells")
    atlas.rows                      # one record per configuration: fairness, skill, verdicts, ...
    # the site (Markdown + HTML + PNG) is written by the report layer: cardsim.atlas_site.write_site
    # or: cardsim atlas basra karnoffel --out docs/balance

What is measured (definitions: docs/balance.md and docs/glossary.md). A *configuration* is a game,
one of its presets (or its default rules) and a supported player count; configurations whose
options the game refuses (a preset's hand sizes, a deck that does not split) are listed as skipped
with the game's reason. Each configuration has *cells*, each one simulate() call or a few:

- play/random, play/greedy: every seat played by that agent (`simulate(..., lead_changes=True)`):
  seat, side and first-player advantage, drawishness, duration, branching, lead changes,
  decisiveness (the share of deals decided before the last round of play, from the kernel's
  lead_from over the game's running standing, its provisional score mid-deal: `standing_definition`;
  see `decisiveness`) and the game's own metrics, straight from the summary
  cardsim.stats computes;
- gap/random->greedy, gap/greedy->search: the stronger agent at one seat, the weaker everywhere
  else, seats rotated, paired deal by deal against the weaker line-up on the same deals (the
  restricted-play design of cardsim.analysis.skill, averaged over seats as cardsim.tournament
  does): how much a better player gains per deal, in the game's points and in win rate.

Caching. A cell is stored as JSON under `results/<game>/<kind>-<digest>.json`, the digest being
a hash of (game, resolved options, agents, seed, deals, engine version, the kind's CELL_FORMAT); the engine
version is the package version plus a behaviour fingerprint of the game (a hash of the rows of a
few seeded deals played by every agent the atlas uses), so a rule or agent change makes that
game's cells outdated; a play cell's also carries a fingerprint of its lead tracking (lead_version:
the running standing), so a changed standing outdates only the play cells. A rerun computes only the cells whose file is missing; every file is written
atomically, so an interrupt loses at most the cell in progress. Cells run one after the other, each
on all cores (threads by default; `backend="dask"` runs the same chunks on a Dask cluster, and the
numbers are identical, as simulate() guarantees).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cardsim import results_io
from cardsim.errors import ConfigError
from cardsim.game import GAMES, game_info, make
from cardsim.result import cardsim_version
from cardsim.results_io import jsonable
from cardsim.simulate import simulate
from cardsim.stats import Z95, count_of, t_interval, t_test, wilson

# bump a kind's format when its record's content changes (only that kind's cells are recomputed):
# play 2 = the summary has `decided` (lead_from); play 3 = lead changes and lead_from follow each game's
# running standing (State.standing), no longer the running returns
CELL_FORMAT = {"play": 3, "gap": 1}
WIN_HALF_WIDTH = 0.005            # target: win-rate intervals narrower than +/- 0.5 percentage points
Z80 = 0.8416212335729143          # 80% power: detectable effect = (Z95 + Z80) standard errors
SEARCH_SPEC = "ismcts:iterations=200,rollout=greedy,reward=points"   # docs/strength.md's cheapest winner
# Options a search agent needs to finish every deal (as cardsim.tournament.GAME_OPTIONS): a Joffre
# Whist deal of passes is thrown in forever unless the dealer must bid.
SEARCH_OPTIONS = {"joffre_whist": {"all_pass": "dealer_bids"}}


def deals_for_half_width(half: float = WIN_HALF_WIDTH, p: float = 0.5) -> int:
    """Deals for a 95% interval of half-width `half` on a win rate near p (normal approximation)."""
    return math.ceil(Z95 * Z95 * p * (1 - p) / (half * half))


@dataclass(frozen=True)
class Budget:
    """Deals per cell. `play`: per all-random and all-greedy cell (40,000 gives win-rate intervals
    of at most +/-0.49 points); `gap`: per random->greedy skill cell (run P+1 times); `search`:
    per greedy->search cell (run P+1 times, the search agent at one seat) in each game's default
    configuration, `search_other` in its other configurations (None: as `search`; 0: none there),
    and in which configurations (`search_scope`: "default" = each game's default rules and player
    count only, "all", or "none"). `per_game` overrides any of them for one game
    ({"samba": {"play": 4000}})."""

    play: int = 40_000
    gap: int = 10_000
    search: int = 100
    search_scope: str = "default"
    per_game: dict = field(default_factory=dict)
    search_other: int | None = None

    def get(self, game: str, what: str):
        if what == "search_other":
            v = self.per_game.get(game, {}).get(what, self.search_other)
            return self.get(game, "search") if v is None else v
        return self.per_game.get(game, {}).get(what, getattr(self, what))

    def search_deals(self, game: str, default: bool) -> int:
        """Deals of the greedy->search cell of a configuration (0: none), by search_scope."""
        if self.search_scope == "none" or (self.search_scope == "default" and not default):
            return 0
        return self.get(game, "search" if default else "search_other")

    def to_dict(self) -> dict:
        out = {"play": self.play, "gap": self.gap, "search": self.search, "search_scope": self.search_scope,
               "per_game": self.per_game}
        if self.search_other is not None:
            out["search_other"] = self.search_other
        return out


# What the committed atlas (docs/balance) uses: 40,000 deals per play cell in every game (win-rate
# intervals at most +/-0.49 points), 10,000 per random->greedy cell, and the search agent in every
# configuration, at what the shared 2-core machine affords (a deal with one search seat costs
# 0.02-3 s: docs/balance.md): 400 deals in each game's default configuration (fewer in the dearest
# games) and in the other configurations of the cheap games; in the other configurations of Basra
# (21) 100, of Zhao Pengyou (15, up to 12 players) 20 and of Samba (24) 10, their widths stated.
DEFAULT_BUDGET = Budget(search=400, search_scope="all", per_game={
    "basra": {"search": 300, "search_other": 100},
    "tien_gow": {"search": 200},
    "zhao_pengyou": {"search": 150, "search_other": 20},
    "samba": {"search": 40, "search_other": 10},
})


# ---------------------------------------------------------------------------------------------
# configurations and cells
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Config:
    """A game, a preset (None: the default rules) and a player count."""

    game: str
    variant: str | None
    players: int
    same_as: str | None = None        # the preset these default rules are identical to, if any

    @property
    def options(self) -> dict:
        out = {"players": self.players}
        if self.variant is not None:
            out["variant"] = self.variant
        return out

    @property
    def rules(self) -> str:
        if self.variant is None:
            return "default rules" + (f" (= {self.same_as})" if self.same_as else "")
        return self.variant

    @property
    def label(self) -> str:
        return f"{game_info(self.game).title}, {self.rules}, {self.players} players"

    @property
    def ident(self) -> str:
        """A short stable name for files and anchors: basra-default-4p, basra-yemeni-3p."""
        return f"{self.game}-{self.variant or 'default'}-{self.players}p"


def configurations(game: str) -> tuple[list, list]:
    """(configs, skipped): every preset (and the default rules) x every supported player count
    the game accepts; skipped = [(game, variant, players, reason)] for the refused combinations.
    A preset whose resolved options equal the default rules' is folded into them."""
    info = game_info(game)
    out, skipped = [], []
    for n in info.players:
        try:
            base = info.resolve({"players": n})
        except ConfigError as e:
            skipped.append((game, None, n, str(e)))
            base = None
        same = None
        presets = []
        for v in info.presets:
            try:
                r = info.resolve({"players": n, "variant": v})
            except ConfigError as e:
                skipped.append((game, v, n, str(e)))
                continue
            if base is not None and {k: x for k, x in r.items() if k != "variant"} == \
                    {k: x for k, x in base.items() if k != "variant"}:
                same = v
                continue
            presets.append(v)
        if base is not None:
            out.append(Config(game, None, n, same))
        out += [Config(game, v, n) for v in presets]
    return out, skipped


@dataclass(frozen=True)
class Cell:
    """One unit of work and of caching. kind "play": agents = (agent,) at every seat; kind "gap":
    agents = (weaker, stronger)."""

    kind: str
    config: Config
    agents: tuple
    seed: int
    deals: int
    extra: tuple = ()                 # extra options (sorted (name, value) pairs), e.g. search needs

    @property
    def options(self) -> dict:
        return {**self.config.options, **dict(self.extra)}

    @property
    def name(self) -> str:
        return f"{self.kind}:{'->'.join(_short_agent(a) for a in self.agents)}"

    def key(self, engine: str) -> dict:
        resolved = game_info(self.config.game).resolve(self.options)
        return {"kind": self.kind, "game": self.config.game, "options": jsonable(resolved), "agents": list(self.agents),
                "seed": self.seed, "deals": self.deals, "engine": engine, "format": CELL_FORMAT[self.kind]}

    def path(self, results: Path, engine: str) -> Path:
        digest = hashlib.sha256(json.dumps(self.key(engine), sort_keys=True).encode()).hexdigest()[:20]
        return Path(results) / self.config.game / f"{self.kind}-{digest}.json"


def _short_agent(a: str) -> str:
    if a.startswith("ismcts") or a.startswith("pimc"):
        it = [x for x in a.split(":", 1)[-1].split(",") if x.startswith("iterations=")]
        return a.split(":")[0] + (f"{it[0].split('=')[1]}" if it else "")
    return a


def plan(games=None, *, budget: Budget = DEFAULT_BUDGET, seed: int = 0) -> tuple[list, list, list]:
    """(configs, cells, skipped) of an atlas of `games` (default: every registered game)."""
    games = list(GAMES) if games is None else list(games)
    bad = [g for g in games if g not in GAMES]
    if bad:
        raise ConfigError(f"unknown game(s) {str(bad)[:200]}; games: {list(GAMES)}")
    if budget.search_scope not in ("default", "all", "none"):
        raise ConfigError(f"search_scope must be 'default', 'all' or 'none', got {str(budget.search_scope)[:40]!r}")
    configs, cells, skipped = [], [], []
    for game in games:
        cs, sk = configurations(game)
        configs += cs
        skipped += sk
        info = game_info(game)
        for c in cs:
            n_play, n_gap = (budget.get(game, w) for w in ("play", "gap"))
            for a in ("random", "greedy"):
                if n_play:
                    cells.append(Cell("play", c, (a,), seed, n_play))
            if n_gap:
                cells.append(Cell("gap", c, ("random", "greedy"), seed, n_gap))
            n_search = budget.search_deals(game, c.variant is None and c.players == info.default_players)
            if n_search:
                extra = tuple(sorted(SEARCH_OPTIONS.get(game, {}).items()))
                cells.append(Cell("gap", c, ("greedy", SEARCH_SPEC), seed, n_search, extra))
    return configs, cells, skipped


# ---------------------------------------------------------------------------------------------
# the engine version of a game: package version + a behaviour fingerprint
# ---------------------------------------------------------------------------------------------
FINGERPRINT_DEALS = 16           # deals per cheap agent (random, greedy)
FINGERPRINT_SEARCH_DEALS = 2     # deals with a search agent (at seat 0, greedy elsewhere)


def engine_version(game: str, agents=("random", "greedy")) -> str:
    """cardsim's version and a hash of the rows of a few seeded deals of `game` (default rules)
    played by each of `agents` (FINGERPRINT_DEALS at every seat; a search agent
    FINGERPRINT_SEARCH_DEALS at seat 0 among greedy ones): any change to the game's rules or to
    these agents changes it."""
    g = make(game, **SEARCH_OPTIONS.get(game, {})) if any(":" in a for a in agents) else make(game)
    h = hashlib.sha256()
    for a in agents:
        if ":" in a:
            line = [a] + ["greedy"] * (g.num_players - 1)
            r = simulate(g, deals=FINGERPRINT_SEARCH_DEALS, seed=12345, agents=line, workers=1)
        else:
            r = simulate(g, deals=FINGERPRINT_DEALS, seed=12345, agents=[a] * g.num_players, workers=1)
        for name in r.table.dtype.names:
            h.update(name.encode())
            h.update(np.ascontiguousarray(r.table[name]).tobytes())
    return f"{cardsim_version()}+{h.hexdigest()[:12]}"


def lead_version(game: str) -> str:
    """A hash of what lead tracking records (lead changes and lead_from over the game's running
    standing, State.standing) in a few seeded deals of `game` (default rules) played by random and
    by greedy agents: it changes when the standing does, which engine_version (lead columns are
    not in its rows) does not see. Part of the play cells' key only."""
    g = make(game)
    h = hashlib.sha256()
    for code in (0, 1):
        r = g.spec.run_batch(12345, 0, FINGERPRINT_DEALS, [code] * g.num_players, lead_changes=True)
        for k in ("lead_changes", "lead_from"):
            h.update(k.encode())
            h.update(np.ascontiguousarray(r[k]).tobytes())
    return h.hexdigest()[:12]


# ---------------------------------------------------------------------------------------------
# computing a cell
# ---------------------------------------------------------------------------------------------
def _compact(summary: dict) -> dict:
    """The summary without what the atlas never shows (histograms of returns, running means)."""
    s = json.loads(json.dumps(summary, default=jsonable))
    s.pop("histograms", None)
    s.pop("running", None)
    return s


def run_cell(cell: Cell, **run) -> dict:
    """The record of one cell (JSON-friendly). `run`: simulate()'s execution arguments (workers,
    backend, address, chunk_size): they change where the deals run, never the numbers."""
    g = make(cell.config.game, **cell.options)
    P = g.num_players
    t0 = time.perf_counter()
    if cell.kind == "play":
        r = simulate(g, deals=cell.deals, seed=cell.seed, agents=[cell.agents[0]] * P, keep_table=False,
                     lead_changes=True, **run)
        rec = {"summary": _compact(r.summary())}
    elif cell.kind == "gap":
        rec = {"gap": gap(g, cell.agents[0], cell.agents[1], deals=cell.deals, seed=cell.seed, **run)}
    else:  # pragma: no cover - plan() makes only these kinds
        raise ConfigError(f"unknown cell kind {cell.kind!r}")
    rec["seconds"] = time.perf_counter() - t0
    return rec


def gap_rows(game, weak: str, strong: str, *, deals: int, seed: int = 0, **run) -> tuple:
    """(gain, win_gain, base_sd): per deal, the return and win-indicator gain of `strong` over
    `weak` averaged over the seats (see gap), and the weaker line-up's mean per-seat return sd."""
    g = game if not isinstance(game, str) else make(game)
    P = g.num_players
    base = simulate(g, deals=deals, seed=seed, agents=[weak] * P, first_player=False, **run)
    n = len(base.table)
    gain = np.zeros(n)
    wgain = np.zeros(n)
    w0 = base.table["winners"].astype(np.int64)
    for p in range(P):
        agents = [weak] * P
        agents[p] = strong
        r = simulate(g, deals=deals, seed=seed, agents=agents, first_player=False, **run)
        gain += r.table[f"return_{p}"] - base.table[f"return_{p}"]
        wgain += ((r.table["winners"].astype(np.int64) >> p) & 1) - ((w0 >> p) & 1)
    bsd = float(np.mean([base.table[f"return_{p}"].std(ddof=1) for p in range(P)])) if n > 1 else float("nan")
    return gain / P, wgain / P, bsd


def gap(game, weak: str, strong: str, *, deals: int, seed: int = 0, **run) -> dict:
    """How much `strong` gains over `weak` per deal: for every seat p, the deals are played with
    `strong` at p and `weak` elsewhere, and with `weak` everywhere; each deal's gain is seat p's
    return (and win indicator) difference, averaged over the seats, so deals are the independent
    units (Student t interval over deals). `gain_sd` divides the return gain by the standard
    deviation of a seat's return in the weaker line-up (comparable across games)."""
    gain, wgain, bsd = gap_rows(game, weak, strong, deals=deals, seed=seed, **run)
    n = len(gain)
    out = {"weak": weak, "strong": strong, "deals": n}
    for key, v in (("gain", gain), ("win_gain", wgain)):
        m = float(v.mean()) if n else float("nan")
        sd = float(v.std(ddof=1)) if n > 1 else float("nan")
        out[key] = m if n else None
        out[key + "_ci95"] = t_interval(m, sd, n)
        out[key + "_p"] = t_test(m, sd, n)
    out["base_sd"] = bsd if math.isfinite(bsd) else None
    out["gain_sd"] = out["gain"] / bsd if out["gain"] is not None and bsd and math.isfinite(bsd) else None
    return out


# ---------------------------------------------------------------------------------------------
# the cache
# ---------------------------------------------------------------------------------------------
def read_cell(path: Path, key: dict) -> dict | None:
    """The stored record of a cell, or None if missing, unreadable or for another key."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != json.loads(json.dumps(key)):
        return None
    return data.get("record")


def write_cell(path: Path, key: dict, record: dict) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    results_io.write_text_atomic(path, json.dumps({"key": key, "record": record}, indent=1, sort_keys=True,
                                                  allow_nan=False, default=jsonable))


# ---------------------------------------------------------------------------------------------
# building
# ---------------------------------------------------------------------------------------------
@dataclass
class Atlas:
    """The measured atlas: configurations with their cells' records, the per-configuration rows
    (cardsim.analysis.atlas.config_row) and what the build did (computed / cached counts)."""

    games: list
    configs: list
    skipped: list
    records: dict                     # {(config ident, cell name): record}
    cells: list
    budget: Budget
    seed: int
    engines: dict
    computed: int = 0
    cached: int = 0
    seconds: float = 0.0
    compute_seconds: float = 0.0

    @property
    def rows(self) -> list:
        return [config_row(c, self) for c in self.configs]

    def record(self, config: Config, name: str):
        return self.records.get((config.ident, name))


def build_atlas(games=None, *, results="atlas-cells", budget: Budget = DEFAULT_BUDGET, seed: int = 0,
                backend: str = "threads", address=None, workers: int | None = None, progress=None,
                prune: bool = True) -> Atlas:
    """Measure every cell of the atlas of `games` (default: all registered games), reading each
    from `results` when it is there and current, computing (and storing, atomically) the others.

    progress: None = a tqdm bar over cells on stderr when it is a terminal; True/False forces it.
    prune: remove the stored cells of these games that the plan no longer uses (outdated ones).
    backend/address/workers: as simulate(); with backend="dask" and no address one LocalCluster
    serves the whole build. Returns an Atlas (atlas.rows: the per-configuration records)."""
    from tqdm import tqdm

    t0 = time.perf_counter()
    configs, cells, skipped = plan(games, budget=budget, seed=seed)
    games = list(GAMES) if games is None else list(games)
    results = Path(results)
    results.mkdir(parents=True, exist_ok=True)
    engines = {}
    for g in games:
        ags = ["random", "greedy"]
        if any(c.config.game == g and SEARCH_SPEC in c.agents for c in cells):
            ags.append(SEARCH_SPEC)
        engines[g] = engine_version(g, ags)
    # a play cell also records lead tracking, which follows the running standing: its key adds the
    # standing's fingerprint, so a changed standing outdates the play cells and nothing else
    leads = {g: lead_version(g) for g in games}

    def ekey(c):
        return engines[c.config.game] + (f"+lead-{leads[c.config.game]}" if c.kind == "play" else "")

    todo = []
    records = {}
    used = set()
    for c in cells:
        path = c.path(results, ekey(c))
        used.add(path.resolve())
        rec = read_cell(path, c.key(ekey(c)))
        if rec is None:
            todo.append((c, path))
        else:
            records[(c.config.ident, c.name)] = rec
    atlas = Atlas(games, configs, skipped, records, cells, budget, seed, engines, cached=len(cells) - len(todo))
    if progress is None:
        progress = sys.stderr.isatty()
    run = {"workers": workers, "backend": backend}
    close = None
    if backend == "dask" and todo:
        if address is None:
            from cardsim.executors import local_cluster

            client, cluster = local_cluster(workers)
            address = client

            def close():
                client.close()
                cluster.close()
        run["address"] = address
    bar = tqdm(total=len(todo), unit=" cells", disable=not progress, file=sys.stderr, dynamic_ncols=True)
    try:
        for c, path in todo:
            bar.set_postfix_str(f"{c.config.ident} {c.name}", refresh=False)
            rec = run_cell(c, **run)
            write_cell(path, c.key(ekey(c)), rec)
            records[(c.config.ident, c.name)] = rec
            atlas.computed += 1
            atlas.compute_seconds += rec["seconds"]
            bar.update(1)
    except KeyboardInterrupt as e:        # Ctrl-C or SIGTERM: every finished cell is on disk
        from cardsim.results_io import RunInterrupted

        text = str(e) or "interrupted"
        stop = RunInterrupted(f"{text}; the atlas kept {atlas.computed + atlas.cached} of {len(cells)} cells in "
                              f"{results} (a rerun computes the {len(cells) - atlas.computed - atlas.cached} others)")
        stop.signal = getattr(e, "signal", "SIGINT")
        raise stop from None
    finally:
        bar.close()
        if close is not None:
            close()
    if prune:
        for g in games:
            d = results / g
            for f in d.glob("*.json") if d.is_dir() else ():
                if f.resolve() not in used:
                    f.unlink()
    atlas.seconds = time.perf_counter() - t0
    return atlas


# ---------------------------------------------------------------------------------------------
# reading a configuration: fairness, skill and the verdicts in words
# ---------------------------------------------------------------------------------------------
def _pp(x) -> str:
    return "n/a" if x is None else f"{100 * x:+.1f} pp"


def _detectable(ci) -> float | None:
    """The effect a test at the 5% level detects with 80% power, from a 95% interval."""
    if not ci or ci[0] is None:
        return None
    return (Z95 + Z80) * (ci[1] - ci[0]) / (2 * Z95)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth")


def _position_label(label: str) -> str:
    """Summary.positions' 'first + k' as the player's place in the order of play ('second player')."""
    if label.startswith("first + "):
        k = int(label.split("+")[1])
        return f"{ORDINALS[k]} player" if k < len(ORDINALS) else f"player {k + 1} in turn order"
    return label


def fairness(s: dict) -> dict:
    """Seat, side and first-player measures of one play cell's summary. Win-rate edges are a
    seat's (position's) win rate minus the average over seats (positions) in percentage points,
    with the Wilson interval of the win rate shifted by that average; `imbalance` is the largest
    absolute edge, `detectable` the smallest edge the sample would detect (80% power, 5% level)."""
    from cardsim.analysis.summary import as_summary

    S = as_summary(s)
    n = S.n
    sides = S.sides()
    avg_side = float(np.mean([x["win_rate"] for x in sides]))
    side_edges = [{"label": x["label"], "seats": x["seats"], "win_rate": x["win_rate"],
                   "edge": x["win_rate"] - avg_side,
                   "edge_ci95": tuple(v - avg_side for v in x["win_ci95"]),
                   "advantage": x["advantage"], "advantage_ci95": x["advantage_ci95"], "p": x["advantage_p"]}
                  for x in sides]
    pos = S.positions()
    avg_pos = float(np.mean([x["win_rate"] for x in s["first_player"]["positions"]])) if pos else None
    pos_edges = [{"label": _position_label(x["label"]), "offsets": x["offsets"], "win_rate": x["win_rate"],
                  "edge": x["win_rate"] - avg_pos, "edge_ci95": tuple(v - avg_pos for v in x["win_ci95"]),
                  "advantage": x["advantage"], "advantage_ci95": x["advantage_ci95"], "p": x["advantage_p"]}
                 for x in pos]
    fp = pos_edges[0] if pos_edges else None

    def size(e):          # the largest edge; on a tie (two sides) the favoured one, a position first
        return (round(abs(e["edge"]), 9), e["edge"] > 0, "offsets" in e)

    worst_side = max(side_edges, key=size)
    all_edges = side_edges + pos_edges
    worst = max(all_edges, key=size)
    # significance: the worst edge's win-rate interval at the Bonferroni level over every seat
    # (side) and position excludes 0
    alpha = 0.05 / max(len(all_edges), 1)
    from scipy.stats import norm

    z = float(norm.isf(alpha / 2))
    k = round(worst["win_rate"] * n)
    lo, hi = wilson(k, n, z)
    avg = avg_pos if "offsets" in worst else avg_side
    worst = {**worst, "adj_ci": (lo - avg, hi - avg)}
    significant = not (lo - avg <= 0 <= hi - avg)
    se = math.sqrt(0.25 / n) if n else float("nan")
    det = (Z95 + Z80) * se
    return {"deals": n, "sides": side_edges, "positions": pos_edges, "first_player": fp, "worst_side": worst_side,
            "worst": worst, "imbalance": abs(worst["edge"]), "significant": significant,
            "alpha": alpha, "detectable": det, "win_half_width": Z95 * se,
            "fp_detectable_points": _detectable(fp["advantage_ci95"]) if fp else None,
            "seat_balance_p": s["seat_balance"].get("p_value"), "balance": s["seat_balance"].get("balance"),
            "teams": s.get("teams")}


def fairness_verdict(f: dict) -> str:
    """One line: who is favoured and by how much, or that nothing is."""
    if not f["significant"]:
        return (f"Fair: no seat or position is detectably favoured (largest edge {_pp(f['worst']['edge'])}; "
                f"{f['deals']:,} deals detect {100 * f['detectable']:.1f} pp).")
    w = f["worst"]
    size = abs(w["edge"])
    how = "slightly" if size < 0.02 else "clearly" if size < 0.06 else "strongly"
    who = w["label"]
    who = who[0].upper() + who[1:]
    fav = "favoured" if w["edge"] > 0 else "disadvantaged"
    return f"{who} {how} {fav}: wins {100 * w['win_rate']:.1f}% of deals, {_pp(w['edge'])} against the average."


def skill_verdict(g1: dict | None, g2: dict | None) -> str:
    """One line on the return gap random -> greedy (and greedy -> search)."""
    if not g1:
        return "Skill not measured."
    wg = g1["win_gain"]
    lo, hi = g1["win_gain_ci95"]
    if lo is not None and lo <= 0 <= hi:
        text = f"Luck dominates: greedy play wins no detectably more often than random ({_pp(wg)})"
    else:
        how = "a lot" if wg >= 0.15 else "clearly" if wg >= 0.05 else "a little" if wg > 0 else "negatively"
        text = f"Skill pays {how}: one greedy player among random ones wins {_pp(wg)} more often"
    if g2:
        lo2, hi2 = g2["gain_ci95"]
        if lo2 is not None and lo2 > 0:
            text += f"; search ({_short_agent(g2['strong'])}) adds {g2['gain']:+.3g} points per deal over greedy"
        elif hi2 is not None and hi2 < 0:
            text += f"; search ({_short_agent(g2['strong'])}) does worse than greedy ({g2['gain']:+.3g} points per deal)"
        else:
            text += f"; search ({_short_agent(g2['strong'])}) shows no detectable gain over greedy at {g2['deals']} deals"
        wlo, whi = g2["win_gain_ci95"]
        if wlo is not None and (wlo > 0 or whi < 0):
            text += f" (and wins {abs(100 * g2['win_gain']):.1f} pp {'more' if wlo > 0 else 'less'} often)"
    return text + "."


def standing_definition(game: str) -> str:
    """What "ahead" means mid-deal in `game`: its running standing (info.py STANDING; the
    kernel's vt.standing, State.standing), which lead tracking watches; "" if the game has none."""
    import importlib
    return getattr(importlib.import_module(f"cardsim.games.{game}.info"), "STANDING", "")


def decisiveness(summaries: dict) -> dict | None:
    """How early a configuration's deals are decided, from its play cells' summaries
    ({agent: summary}; each summary's `decided`, cardsim.stats): per agent, the share of deals
    whose final leaders (the winners) already led before the last round of play (lead_from <=
    actions - seats: before each seat's last action, in a trick game before the last trick) with
    its Wilson 95% interval, and the mean fraction of the deal's actions after which they led for
    good (t interval). Who leads is read from the game's running standing (its provisional score:
    standing_definition), the returns at the end. `measured` is False when no deal of any play
    cell showed its final leaders before the last action (live = 0): the standing stayed level
    until the deal ended, so it says nothing about when it was decided. None when no cell
    recorded lead_from."""
    per = {a: s["decided"] for a, s in summaries.items() if s and s.get("decided")}
    if not per:
        return None
    measured = any(d["live"] > 0 for d in per.values())
    out = {"measured": measured, "deals": {a: count_of(summaries[a]) for a in per}}
    for a, d in per.items():
        out[a] = {"early": d["early_rate"], "early_ci95": tuple(d["early_ci95"]), "at": d["at"]["mean"],
                  "at_ci95": tuple(d["at"]["ci95"]), "live": d["live"]}
    return out


def decisiveness_verdict(d: dict | None, agent: str = "greedy") -> str:
    """One line: how often the outcome is known before the last round of play."""
    if not d:
        return "Decisiveness not measured."
    if not d["measured"]:
        return ("Decisiveness not measured: the running standing never showed the winner before the last action "
                f"in {sum(d['deals'].values()):,} deals.")
    x = d.get(agent) or next(v for k, v in d.items() if isinstance(v, dict) and "early" in v)
    e = x["early"]
    how = ("usually decided before the last round" if e >= 2 / 3 else "often decided before the last round"
           if e >= 1 / 3 else "usually open until the last round")
    return (f"Outcome {how}: the final leaders already led before it in {100 * e:.1f}% of deals "
            f"[{100 * x['early_ci95'][0]:.1f}, {100 * x['early_ci95'][1]:.1f}], and took the lead for good "
            f"{100 * x['at']:.0f}% of the way through the deal on average.")


def config_row(c: Config, atlas: Atlas) -> dict:
    """Everything the site shows about a configuration (None where a cell is not in the plan)."""
    info = game_info(c.game)
    opts = info.resolve(c.options)
    play = {a: atlas.record(c, f"play:{a}") for a in ("random", "greedy")}
    g1 = atlas.record(c, "gap:random->greedy")
    g2 = next((v for (ident, name), v in atlas.records.items() if ident == c.ident and name.startswith("gap:greedy->")),
              None)
    fair = {a: fairness(r["summary"]) for a, r in play.items() if r}
    gs = (play.get("greedy") or play.get("random") or {}).get("summary")
    row = {"config": c, "ident": c.ident, "label": c.label, "unit": info.unit_for(opts), "fair": fair,
           "gap": g1["gap"] if g1 else None, "search_gap": g2["gap"] if g2 else None,
           "summaries": {a: r["summary"] for a, r in play.items() if r}}
    f = fair.get("greedy") or fair.get("random")
    row["fairness_verdict"] = fairness_verdict(f) if f else "Not measured."
    row["imbalance"] = f["imbalance"] if f else None
    row["skill_verdict"] = skill_verdict(row["gap"], row["search_gap"])
    row["skill"] = row["gap"]["win_gain"] if row["gap"] else None
    row["decided"] = decisiveness(row["summaries"])
    row["standing"] = standing_definition(c.game)
    row["decisiveness_verdict"] = decisiveness_verdict(row["decided"])
    d = row["decided"]
    row["decided_early"] = (d.get("greedy") or d.get("random") or {}).get("early") if d and d["measured"] else None
    if gs:
        metrics = {m.name: m for m in info.metrics_for(opts)}
        tricks = gs["metrics"].get("tricks_played")
        row["duration"] = {"actions": gs["duration"]["actions"], "decisions": gs["duration"]["decisions"],
                           "tricks": tricks}
        row["branching"] = {"all": gs["branching_factor"], "decisions": gs["branching_at_decisions"],
                            "decision_share": gs["decision_share"]}
        row["draws"] = gs["draws"]
        row["lead_changes"] = gs["lead_changes"]
        row["metric_labels"] = {k: (m.label, m.categories) for k, m in metrics.items()}
    return row


def ranked(rows: list, by: str) -> list:
    """Rows ranked: by "fairness" (smallest imbalance first), "skill" (largest win gain first) or
    "decisiveness" (largest share decided before the last round first); rows without the measure
    go last."""
    if by == "fairness":
        return sorted(rows, key=lambda r: (r["imbalance"] is None, r["imbalance"] or 0, r["ident"]))
    if by == "skill":
        return sorted(rows, key=lambda r: (r["skill"] is None, -(r["skill"] or 0), r["ident"]))
    if by == "decisiveness":          # decided earliest first; not measured last
        return sorted(rows, key=lambda r: (r["decided_early"] is None, -(r["decided_early"] or 0), r["ident"]))
    raise ConfigError(f"rank by 'fairness', 'skill' or 'decisiveness', got {str(by)[:40]!r}")


def environment() -> dict:
    return {"cores": os.cpu_count(), "python": sys.version.split()[0], "cardsim": cardsim_version()}
