"""Strength of search agents: each agent against a baseline (greedy by default), seats rotated,
paired deal by deal with the baseline playing the same seat.

    cardsim tournament joffre_whist --agents ismcts:iterations=200,rollout=greedy \\
        ismcts:iterations=2000,rollout=greedy --deals 400
    cardsim tournament --all --out docs/strength.md      # the table in docs/strength.md

How a row is measured: for every seat p and every deal d of the seed, the agent plays seat p with
the baseline at every other seat; the baseline-only run of the same deal gives seat p's return
without the agent. The row's figure is the mean over (d, p) of the difference (agent's return at
seat p minus the baseline's return at seat p in the same deal), with a 95% t interval over deals
(each deal's differences averaged over seats first, so rows are independent). In partnership games
the agent's partner is the baseline. Units are the game's own points (see docs/rules/<game>.md).
Verdict: "stronger" when the whole interval is above 0, "weaker" below, else "no difference
detected".
"""
from __future__ import annotations

import math
import time

import numpy as np
from scipy import stats as _st

from cardsim.agents import parse_agent
from cardsim.errors import ConfigError
from cardsim.game import GAMES, make
from cardsim.simulate import simulate

DEFAULT_BUDGETS = ("ismcts:iterations=200,rollout=greedy,reward=points",
                   "ismcts:iterations=2000,rollout=greedy,reward=points",
                   "pimc:iterations=2000,worlds=20,rollout=greedy,reward=points")
# Options the tournament plays a game with unless the caller gives others (said in the table's game
# column): Joffre Whist with the dealer bidding, so that deals of passing agents are played out
# rather than thrown in (up to max_redeals times) and passed out with no score.
GAME_OPTIONS = {"joffre_whist": {"all_pass": "dealer_bids"}}


class _BatchPolicyAgent:
    """A batch policy `policy(obs, action_mask, seat) -> actions` (as VectorEnv opponents take it)
    played through act(state), one decision at a time (the slow Python path)."""

    def __init__(self, policy):
        self.policy = policy
        self.name = getattr(policy, "__name__", type(policy).__name__)

    def act(self, state) -> int:
        p = state.current_player
        mask = np.zeros(state.spec.num_actions, dtype=bool)
        mask[state.legal_actions()] = True
        out = np.asarray(self.policy(state.observation(p)[None], mask[None], np.array([p], np.int32)))
        if out.shape != (1,) or not np.issubdtype(out.dtype, np.integer):
            raise ConfigError(f"batch policy {self.name} must return one int action per row, got {out.dtype} {out.shape}")
        return int(out[0])

    def __repr__(self):
        return f"batch:{self.name}"


def _contender(agent):
    """(what simulate takes for the seat, the row's name): a C agent spec, a Python agent
    ("policy:<path>" or an object with act(state); it must not keep state across deals), or a batch policy."""
    from cardsim.agents import from_name, is_python_agent_name

    if is_python_agent_name(agent):
        obj = from_name(agent)
        return obj, obj.name
    if isinstance(agent, str):
        spec = parse_agent(agent)
        if spec.python_only:                 # e.g. greedy_in: the Python-side SearchAgent plays it
            from cardsim.agents import SearchAgent

            obj = SearchAgent(spec)
            return obj, spec.text
        return spec.text, spec.text
    if callable(getattr(agent, "act", None)):
        return agent, getattr(agent, "name", repr(agent))
    if callable(agent):
        obj = _BatchPolicyAgent(agent)
        return obj, repr(obj)
    raise ConfigError(f"an agent is a spec ('greedy', 'ismcts:...'), 'policy:<path>', an object with act(state) "
                      f"or a batch policy callable, got {str(agent)[:60]}")


def strength(game: str, agent, *, baseline: str = "greedy", deals: int = 200, seed: int = 0,
             workers: int | None = None, bar=None, **options) -> dict:
    """One row: `agent` against `baseline` in `game` (see the module docstring). `agent` is a C
    agent spec or a Python agent (see _contender); Python agents play on the slow path, in deal
    order, paired with the baseline exactly as C agents are (the C seats' streams do not depend
    on the other seats' agents). `bar`: a progress bar the row's deals advance (each of its
    players + 1 runs of `deals` deals)."""
    a_seat, a_name = _contender(agent)
    if callable(getattr(a_seat, "check_game", None)):
        a_seat.check_game(game)              # before any deal is played
    b = parse_agent(baseline)
    opts = {**GAME_OPTIONS.get(game, {}), **options}
    g = make(game, **opts)
    P = g.num_players
    t0 = time.perf_counter()
    base = simulate(g, deals=deals, seed=seed, agents=[b.text] * P, workers=workers, progress=bar)
    diffs = np.zeros(deals)
    for p in range(P):
        agents = [b.text] * P
        agents[p] = a_seat
        r = simulate(g, deals=deals, seed=seed, agents=agents, workers=workers, progress=bar)
        diffs += r.table[f"return_{p}"] - base.table[f"return_{p}"]
    diffs /= P
    mean = float(diffs.mean())
    sd = float(diffs.std(ddof=1)) if deals > 1 else float("nan")
    half = float(_st.t.ppf(0.975, deals - 1) * sd / math.sqrt(deals)) if deals > 1 else float("nan")
    lo, hi = mean - half, mean + half
    verdict = "stronger" if lo > 0 else "weaker" if hi < 0 else "no difference detected"
    return {"game": game, "agent": a_name, "baseline": b.text, "deals": deals, "seats": P, "seed": seed,
            "mean_diff": mean, "ci95": (lo, hi), "verdict": verdict, "options": opts,
            "seconds": time.perf_counter() - t0}


def table(rows: list[dict]) -> str:
    """The rows as a Markdown table."""
    out = ["| game | agent | vs | deals x seats | mean return difference [95% CI] | verdict |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["ci95"]
        forced = GAME_OPTIONS.get(r["game"], {})
        name = r["game"] + "".join(f" ({k}={v})" for k, v in forced.items() if r.get("options", {}).get(k) == v)
        out.append(f"| {name} | `{r['agent']}` | {r['baseline']} | {r['deals']} x {r['seats']} | "
                   f"{r['mean_diff']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {r['verdict']} |")
    return "\n".join(out)


def run(games=None, agents=DEFAULT_BUDGETS, *, baseline="greedy", deals=200, seed=0, workers=None,
        progress=None, bar: bool = False) -> list[dict]:
    """Rows for every game in `games` (default: all) and every agent spec in `agents`; `progress`
    is called with each row; `bar=True` (or "auto": after 2 s) shows one progress bar over every
    deal of every row, with an overall ETA."""
    games = list(GAMES) if games is None else list(games)
    bad = [x for x in games if x not in GAMES]
    if bad:
        shown = repr(bad) if len(repr(bad)) <= 200 else repr(bad)[:197] + "..."
        raise ConfigError(f"unknown game(s) {shown}; games: {list(GAMES)}")
    from cardsim.simulate import progress_bar, progress_flag

    total = sum((make(g, **GAME_OPTIONS.get(g, {})).num_players + 1) * deals * len(agents) for g in games)
    rows = []
    pb = progress_bar(total, "deal", progress_flag(bar), desc="tournament")
    try:
        for game in games:
            for ag in agents:
                row = strength(game, ag, baseline=baseline, deals=deals, seed=seed, workers=workers, bar=pb)
                rows.append(row)
                if progress:
                    pb.clear()
                    progress(row)
    finally:
        pb.close()
    return rows
