"""The runner: a run cut into chunks, one task per chunk, each task one nogil kernel call.

Determinism. Deal i of seed s is keyed only by (s, i), and each seat's agent by (s, i, seat), so a
deal's row never depends on the worker count, the chunk size, the executor or the machine. A task
is a plain tuple (game name, options, seed, deal range, agent codes, ...): picklable, so it runs
on a thread, a process or a Dask worker alike. When a chunk is made of whole canonical blocks
(cardsim.stats.BLOCK) the task also computes each block's statistics where it runs, so the
driver merges small block records instead of rows.

Tasks are generated lazily (`plan`): memory does not depend on the number of deals.

Python agents (objects with `act(state)`) take the slow path (`python_task`): every step goes
through the State API; the C agents in the same line-up choose through core._play.SeatAgents,
with the streams and the choice function of the batch kernel, so they play exactly as there.
"""
from __future__ import annotations

import json

import numpy as np

from cardsim import stats
from cardsim.agents import AGENT_CODES, AGENT_NAMES, AgentSpec, kernel_args, parse_agent, split_agents
from cardsim.core._engine import check_int, kernel_actions
from cardsim.core._play import LeadTracker, SeatAgents
from cardsim.errors import CardsimError, ConfigError
from cardsim.game import Game, make
from cardsim.results_io import jsonable

DEFAULT_DEALS = 10_000        # deals of a run when none are given: simulate(), skill(), sweep() and the CLI
MAX_COUNT = 2**62             # most deals (or matches, workers, rows per chunk) of one run: the kernel's bound
DEFAULT_CHUNK = 20_000
CHUNK_BLOCKS = {"threads": 2, "dask": 4}   # default chunk, in canonical blocks, for big runs
MAX_PY_STEPS = 1_000_000      # as the kernel's DEFAULT_MAX_STEPS: a deal that never ends is an error
DEFAULT_AGENT = "greedy"      # the documented heuristic: random bidding misleads (docs/glossary.md)
_GAMES: dict = {}


def _game_key(name: str, options: dict) -> str:
    return json.dumps([name, jsonable({k: v for k, v in options.items() if k != "variant"})], sort_keys=True)


def get_game(name: str, options: dict) -> Game:
    """The Game for (name, resolved options), built once per process (workers cache it)."""
    key = _game_key(name, options)
    g = _GAMES.get(key)
    if g is None:
        g = make(name, **{k: v for k, v in options.items() if k != "variant" or v is not None})
        _GAMES[key] = g
    return g


def remember_game(g: Game):
    """Let tasks on this process reuse `g` instead of building it again."""
    _GAMES.setdefault(_game_key(g.name, dict(g.options)), g)


# ---------------------------------------------------------------------------------------------
# argument checks shared by simulate() and skill(): the engine's one integer validator
# (cardsim.core._engine.check_int: lo <= v <= hi, both inclusive)
# ---------------------------------------------------------------------------------------------
def check_count(name: str, v, lo: int, hi: int = MAX_COUNT) -> int:
    """v as a Python int in lo..hi (inclusive), else ConfigError naming the range."""
    return check_int(v, name, lo, hi, ConfigError)


def resolve_game(game, matches=None, options=None) -> Game:
    """A Game from a name and options (or a Game as given); matches= rebuilds it with scope='match'."""
    options = options or {}
    if isinstance(game, Game):
        if options:
            raise ConfigError("pass options to make(), not to simulate(), when giving a Game")
        g = game
        if matches is not None and g.options.get("scope") != "match":
            if "scope" not in g.options:
                raise ConfigError(f"{g.name} has no scope option: it cannot play matches")
            g = make(g.name, **{**{k: v for k, v in g.options.items() if k != "variant" or v is not None},
                                "scope": "match"})
        return g
    if matches is not None:
        if options.get("scope", "match") != "match":
            raise ConfigError("matches= plays whole matches: scope must be 'match' (or use deals=)")
        options = {**options, "scope": "match"}
    return make(game, **options)


def agent_codes(game: Game, agents) -> tuple[list, list]:
    """(codes, names): one per seat; C agents as kernel codes, Python agents as themselves."""
    n = game.num_players
    if agents is None:
        agents = [DEFAULT_AGENT] * n
    if isinstance(agents, str):
        agents = split_agents(agents)
        if len(agents) == 1:
            agents = agents * n
    try:
        agents = list(agents)
    except TypeError:
        raise ConfigError(f"agents must be a name, a list of names or agent objects, got {str(agents)[:60]}") from None
    if len(agents) != n:
        raise ConfigError(f"{game.name}: need {n} agents (one per seat), got {len(agents)}")
    out = []
    for a in agents:
        if isinstance(a, (str, AgentSpec)):
            spec = parse_agent(a)
            out.append(spec.code if spec.params is None else spec)
        elif callable(getattr(a, "act", None)):
            out.append(a)
        else:
            raise ConfigError(f"agent {str(a)[:40]} is neither an agent spec ({', '.join(AGENT_NAMES)}, e.g. "
                              "'ismcts:iterations=2000') nor an object with act(state)")
    names = [parse_agent(a).text if isinstance(a, (str, AgentSpec)) else repr(a) for a in agents]
    return out, names


def default_chunk(count: int, workers: int, backend: str, own_executor: bool) -> int:
    """About 4 tasks per worker: whole canonical blocks for big runs, at most DEFAULT_CHUNK rows."""
    block = stats.BLOCK
    per = -(-count // (4 * workers)) if count else 1
    if per >= block:
        nblk = CHUNK_BLOCKS["threads" if backend == "threads" and own_executor else "dask"]
        return block * min(nblk, max(1, round(per / block)))
    return max(1, min(DEFAULT_CHUNK, per))


def plan(count: int, chunk_size: int, make_task):
    """The tasks of a run, generated lazily: make_task(start, size) for each chunk in deal order."""
    return (make_task(s, min(chunk_size, count - s)) for s in range(0, count, chunk_size))


def num_tasks(count: int, chunk_size: int) -> int:
    return -(-count // chunk_size)


# ---------------------------------------------------------------------------------------------
# lead changes: the kernel's one counter (core._play.LeadTracker wraps the lead_see that
# play_one runs after every action)
# ---------------------------------------------------------------------------------------------
def lead_changes_of(game: Game, seed: int, deal: int, codes) -> int:
    """Lead changes in deal (seed, deal) played by C agents `codes`: the kernel's action sequence
    is replayed through the State API and the running standing() (each game's provisional score,
    the returns at the end: its info.py STANDING) watched after every action (see LeadTracker).
    The batch kernel counts the same thing natively (run_batch(lead_changes=True)); this replay is
    the independent reference the tests compare it with. See lead_track_of for lead_from too."""
    return lead_track_of(game, seed, deal, codes)[0]


def lead_track_of(game: Game, seed: int, deal: int, codes) -> tuple[int, int]:
    """(lead_changes, lead_from) of deal (seed, deal) played by C agents `codes`, replayed through
    the State API as lead_changes_of does: the reference for run_batch(lead_changes=True)."""
    st = game.new_state(seed, deal)
    lt = LeadTracker()
    ints, search = kernel_args(codes)
    for a in kernel_actions(game.spec, seed, deal, ints, search=search):
        st.apply(a)
        lt.see(st.standing())
    return lt.changes, lt.lead_from


# ---------------------------------------------------------------------------------------------
# chunk tasks (top-level and picklable: they run on threads, processes or Dask workers)
# ---------------------------------------------------------------------------------------------
def _finish_cols(g: Game, start: int, part: dict, want_fp: bool) -> dict:
    R = part["returns"]
    count = len(R)
    cols = {"deal": np.arange(start, start + count, dtype=np.int64)}
    # a (count, k) array's columns as the rows of one transposed copy (contiguous views): one
    # blocked pass, 4x faster than a strided copy per column (Karnoffel's 9 metric columns, 2026-12-04:
    # 15.6 against 57 ns per deal)
    RT = np.ascontiguousarray(R.T)
    for p in range(g.num_players):
        cols[f"return_{p}"] = RT[p]
    cols["winners"] = stats.winners_of_columns(RT)
    if want_fp:
        cols["first_player"] = np.asarray(part["first_player"], np.int8)
    cols["actions"] = part["actions"].astype(np.int32)
    cols["decisions"] = part["decisions"].astype(np.int32)
    cols["legal_sum"] = part["legal_sum"].astype(np.int64)
    if "lead_changes" in part:
        cols["lead_changes"] = part["lead_changes"].astype(np.int32)
        cols["lead_from"] = part["lead_from"].astype(np.int32)
    MT = np.ascontiguousarray(part["metrics"].T)
    for i, m in enumerate(g.metric_names):
        cols[m] = MT[i]
    return cols


def _with_blocks(g: Game, cols: dict, start: int, block: int, want_fp: bool, want_lc: bool, want_rows: bool):
    """A task's answer: its rows, or (when `block` is set: the chunk is made of whole canonical
    blocks) the statistics of each block, computed here on the worker, plus the rows if the
    caller keeps or writes them. Shipping block statistics instead of rows keeps the driver idle
    and the Dask traffic small."""
    if not block:
        return {"rows": cols}
    extra = stats.extra_columns(want_lc, want_lc, g.metric_names)
    n = len(cols["actions"])
    blocks = [stats.block_stats({k: v[lo:lo + block] for k, v in cols.items()}, start + lo, g.num_players, extra,
                                want_fp)
              for lo in range(0, n, block)]
    return {"rows": cols if want_rows else None, "blocks": blocks, "n": n}


def kernel_task(name, options, seed, start, count, codes, want_fp=True, want_lc=False, block=0, want_rows=True):
    """One chunk on the batch kernel: deals start..start+count-1 of seed, as table columns."""
    g = get_game(name, options)
    ints, search = kernel_args(codes)
    part = g.spec.run_batch(seed, start, count, ints, lead_changes=bool(want_lc), search=search)
    return _with_blocks(g, _finish_cols(g, start, part, want_fp), start, block, want_fp, want_lc, want_rows)


def python_task(name, options, seed, start, count, agents, want_fp=True, want_lc=False, block=0, want_rows=True):
    """Slow path: some seat is a Python agent (an object with act(state)), asked at every turn.
    The C agents of the other seats play exactly as in the batch kernel (core._play.SeatAgents:
    each seat's own stream seeded as play_one seeds it, the same choice function, forced moves
    taken without a draw), so a Python agent joining never changes how they play."""
    g = get_game(name, options)
    P = g.num_players
    M = len(g.metric_names)
    py = [not isinstance(a, (int, AgentSpec)) for a in agents]
    ints, search = kernel_args([AGENT_CODES["first"] if p else a for a, p in zip(agents, py)])
    table = SeatAgents(g.spec, ints, search=search)
    rets = np.zeros((count, P))
    acts = np.zeros(count, np.int64)
    decs = np.zeros(count, np.int64)
    lsum = np.zeros(count, np.int64)
    mets = np.zeros((count, M))
    fps = np.zeros(count, np.int8)
    lcs = np.zeros(count, np.int32)
    lfs = np.zeros(count, np.int32)
    for d in range(count):
        st = g.new_state(seed, start + d)
        table.deal(seed, start + d)
        fps[d] = st.current_player
        k = 0
        lt = LeadTracker()
        while not st.is_terminal():
            if k >= MAX_PY_STEPS:
                raise CardsimError(f"{name}: deal {start + d} of seed {seed} did not end within {MAX_PY_STEPS} actions")
            p = st.current_player
            n = len(st.legal_actions())
            if n > 1:
                decs[d] += 1
                lsum[d] += n
            st.apply(agents[p].act(st) if py[p] else table.choose(st))
            k += 1
            if want_lc:
                lt.see(st.standing())
        rets[d] = st.returns()
        acts[d] = k
        lcs[d] = lt.changes
        lfs[d] = lt.lead_from
        mm = st.metrics()
        mets[d] = [mm[n] for n in g.metric_names]
    part = {"returns": rets, "actions": acts, "decisions": decs, "legal_sum": lsum, "metrics": mets,
            "first_player": fps}
    if want_lc:
        part["lead_changes"] = lcs
        part["lead_from"] = lfs
    return _with_blocks(g, _finish_cols(g, start, part, want_fp), start, block, want_fp, want_lc, want_rows)


def skill_task(name, options, seed, start, count, weak, strong):
    """One chunk of skill(): the weak line-up, then `strong` at each seat in turn, same deals."""
    g = get_game(name, options)
    P = g.num_players
    base = g.spec.run_batch(seed, start, count, [weak] * P)["returns"]
    bw = stats.winners_mask(base)
    out = {"actions": np.zeros(count)}
    for p in range(P):
        codes = [weak] * P
        codes[p] = strong
        r = g.spec.run_batch(seed, start, count, codes)["returns"]
        w = stats.winners_mask(r)
        out[f"gain_{p}"] = r[:, p] - base[:, p]
        out[f"wgain_{p}"] = ((w >> p) & 1).astype(np.float64) - ((bw >> p) & 1)
        out[f"base_{p}"] = base[:, p]
    return out
