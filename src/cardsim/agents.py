"""Agents: the names and parameters of the C agents, and Python-side agents (`act(state)`).

The batch kernel runs the C agents with no Python in the loop. They are named by an *agent spec*,
wherever agents are named (`simulate(agents=...)`, the CLI's `--agents`, `from_name`):

    random | greedy | first                       no parameters
    ismcts[:key=value,...]                        information-set MCTS
        iterations=200      playouts per decision (1..10,000,000)
        c=0.7               UCB exploration constant (> 0)
        rollout=random      playout policy: random | greedy (the game's greedy agent)
        reward=rank         what a playout is worth to a seat: rank (the share of other seats
                            whose return it beats; wins) | points (its own return, normalized by
                            the range seen in the search; mean points)
    pimc[:key=value,...]                          perfect-information Monte Carlo (determinized)
        iterations=1000     playouts per decision, all sampled worlds together (1..10,000,000)
        worlds=10           worlds sampled with resample per decision (1..100,000)
        rollout=random      playout policy: random | greedy
        reward=rank         rank | points, as for ismcts
    both search agents also take
        greedy_in=none      phases left to the game's greedy agent: in a state whose `state.phase`
                            (a public fact) is one of these names, joined by '+' (greedy_in=vie,
                            greedy_in=auction+vie), the seat plays greedy instead of searching;
                            the names are the game's GameInfo.phases (another is refused).
                            Played on the Python path (SearchAgent, `cardsim tournament`); the
                            batch kernel does not take it.

e.g. ``"ismcts:iterations=2000,c=0.7,rollout=greedy"``. In a comma-separated list of agents (one
per seat) a ``key=value`` item belongs to the spec before it: ``"ismcts:iterations=500,c=1,greedy,
random"`` is two agents. Every search agent sees only what its seat may know (its worlds come from
`state.resample`), runs nogil inside the batch kernel and is deterministic per (seed, deal, seat).

The classes below give the same policies to code that drives states itself (search, RL
baselines, tests) and show the interface a custom agent implements for `cardsim.simulate`
(slow path: one Python call per decision).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from cardsim.core._engine import AGENT_CODES as ENGINE_AGENT_CODES, SEARCH_DEFAULTS
from cardsim.errors import ConfigError, short

# The kernel's agent codes and the search agents' defaults are declared once, in the engine
# (core._engine.AGENT_CODES, SEARCH_DEFAULTS); PIMC is the search agent's other kind (same code).
AGENT_CODES = dict(ENGINE_AGENT_CODES)
_CODES = {**AGENT_CODES, "pimc": AGENT_CODES["ismcts"]}
AGENT_NAMES = tuple(_CODES)
_PARAMS = SEARCH_DEFAULTS
# Search settings the Python-side SearchAgent plays itself (never passed to the kernel), with their
# defaults: every search spec takes them.
PY_PARAMS = {"greedy_in": "none"}


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec: `name`, its kernel `code`, and for search agents the full `params`
    (defaults filled in) passed to the kernel."""
    name: str
    code: int
    params: dict | None = field(default=None, hash=False, compare=True)

    @property
    def text(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params.items() if k != "kind")

    @property
    def python_only(self) -> bool:
        """True when a setting only the Python-side SearchAgent plays is set (see PY_PARAMS)."""
        return bool(self.params) and any(self.params.get(k, v) != v for k, v in PY_PARAMS.items())

    def greedy_in(self) -> frozenset:
        """The phases in which this agent plays greedy instead of searching (empty: never)."""
        v = self.params.get("greedy_in", "none") if self.params else "none"
        return frozenset() if v == "none" else frozenset(v.split("+"))

    def kernel_params(self) -> dict | None:
        """The settings the kernel takes (ConfigError if the spec needs the Python path)."""
        if self.params is None:
            return None
        if self.python_only:
            raise ConfigError(f"agent {_cut(self.text)}: greedy_in is played by the Python-side SearchAgent "
                              "(cardsim.agents.SearchAgent, `cardsim tournament`), not by the batch kernel")
        return {"kind": self.name, **{k: v for k, v in self.params.items() if k not in PY_PARAMS}}


_U64 = 2**64 - 1


def _agent_seed(seed) -> int:
    """An agent's seed: an integer in 0..2**64-1 (like every seed of the engine)."""
    from cardsim.game import check_seed

    return check_seed(seed, "agent seed")


def _draw(seed: int, calls: int) -> int:
    """The seed of an agent's calls-th decision, wrapped into 0..2**64-1."""
    return (seed + calls) & _U64


_INT_RE = re.compile(r"[0-9]+")
_NUM_RE = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _cut(text, limit: int = 60) -> str:
    """repr of text cut to `limit` characters (an error message never echoes a long spec)."""
    r = repr(text)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def _num(kind, key, value, text, conv, lo, hi):
    """An int (ASCII digits only: no sign, underscore, space or other script's digits) or a
    number (ASCII decimal, optional exponent) in [lo, hi]."""
    what = "an integer (ASCII digits 0-9)" if conv is int else "a decimal number (ASCII, e.g. 0.7 or 1e-3)"
    v = None
    if (_INT_RE if conv is int else _NUM_RE).fullmatch(value):
        v = conv(value)
    if v is None or (isinstance(v, float) and not math.isfinite(v)) or not lo <= v <= hi:
        raise ConfigError(f"agent {_cut(text)}: {key} must be {what} in [{lo}, {hi}], got {_cut(value, 24)}")
    return v


_PHASES_RE = re.compile(r"[a-z][a-z0-9_]*(\+[a-z][a-z0-9_]*)*")


def parse_agent(text) -> AgentSpec:
    """'greedy', 'ismcts:iterations=2000,c=0.7,rollout=greedy', 'pimc:worlds=20' -> AgentSpec.
    Unknown names, unknown or repeated keys, items that are not key=value and bad values raise
    ConfigError naming what is allowed (numbers in ASCII digits only)."""
    if isinstance(text, AgentSpec):
        return text
    if not isinstance(text, str):
        raise ConfigError(f"an agent spec is a str such as 'greedy' or 'ismcts:iterations=2000', got "
                          f"{_cut(text, 40)}")
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if name not in AGENT_NAMES:
        raise ConfigError(f"unknown agent {_cut(name, 40)}; agents: {', '.join(AGENT_NAMES)} "
                          f"(search agents take parameters, e.g. 'ismcts:iterations=2000,rollout=greedy')")
    if name not in _PARAMS:
        if rest.strip():
            raise ConfigError(f"agent {short(name)} takes no parameters, got {_cut(rest, 40)}")
        return AgentSpec(name, _CODES[name])
    params = dict(_PARAMS[name])   # a copy: the engine's defaults are never changed
    allowed = ", ".join(f"{k} (default {v})" for k, v in {**_PARAMS[name], **PY_PARAMS}.items())
    seen = set()
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq:
            raise ConfigError(f"agent {_cut(text)}: parameter {_cut(item, 24)} is not key=value; {name} takes "
                              + allowed)
        if key not in params and key not in PY_PARAMS:
            raise ConfigError(f"agent {_cut(text)}: unknown parameter {_cut(key, 24)}; {name} takes " + allowed)
        if key in seen:
            raise ConfigError(f"agent {_cut(text)}: parameter {short(key)} given twice; give each of {allowed} "
                              "at most once")
        seen.add(key)
        if key in ("iterations",):
            params[key] = _num(name, key, value, text, int, 1, 10_000_000)
        elif key == "worlds":
            params[key] = _num(name, key, value, text, int, 1, 100_000)
        elif key == "c":
            params[key] = _num(name, key, value, text, float, 1e-9, 1e9)
        elif key == "rollout":
            if value.lower() not in ("random", "greedy"):
                raise ConfigError(f"agent {_cut(text)}: rollout must be random or greedy, got {_cut(value, 24)}")
            params[key] = value.lower()
        elif key == "reward":
            if value.lower() not in ("rank", "points"):
                raise ConfigError(f"agent {_cut(text)}: reward must be rank or points, got {_cut(value, 24)}")
            params[key] = value.lower()
        elif key == "greedy_in":
            v = value.lower()
            if not (_PHASES_RE.fullmatch(v) and len(v) <= 200) or ("none" in v.split("+") and v != "none"):
                raise ConfigError(f"agent {_cut(text)}: greedy_in must be none or phase names (as state.phase gives "
                                  f"them) joined by '+', e.g. vie or auction+vie, got {_cut(value, 24)}")
            if v != "none":
                params[key] = "+".join(sorted(set(v.split("+"))))
    return AgentSpec(name, _CODES[name], params)


def split_agents(text: str) -> list[str]:
    """Split a comma-separated list of agent specs: 'ismcts:iterations=9,c=1,random' ->
    ['ismcts:iterations=9,c=1', 'random'] (a key=value item belongs to the spec before it)."""
    out: list[str] = []
    for item in (x.strip() for x in text.split(",")):
        if "=" in item and ":" not in item and out and ":" in out[-1]:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def resolve_agents(num_players: int, agents, game: str = "game") -> list[AgentSpec]:
    """One AgentSpec per seat from a spec, a comma-separated list of specs or a list of specs; a
    single spec serves every seat. Errors name the unknown agent or the wrong count."""
    if isinstance(agents, (str, AgentSpec)):
        items = split_agents(agents) if isinstance(agents, str) else [agents]
    else:
        try:
            items = list(agents)
        except TypeError:
            raise ConfigError(f"agents must be a spec, a comma-separated list or a list of specs, got "
                              f"{_cut(agents, 40)}") from None
    specs = [parse_agent(a) for a in items]
    if len(specs) == 1:
        specs = specs * num_players
    if len(specs) != num_players:
        raise ConfigError(f"{game}: {len(specs)} agents given for {num_players} seats; give one per seat or "
                          "a single one for all")
    return specs


def kernel_args(codes) -> tuple[list, list | None]:
    """Per-seat kernel arguments from a list of ints and AgentSpecs: (codes, search) for
    `spec.run_batch(..., codes, search=search)`; search is None when no seat has parameters."""
    ints, search = [], []
    for c in codes:
        if isinstance(c, AgentSpec):
            ints.append(c.code)
            search.append(c.kernel_params())
        else:
            ints.append(int(c))
            search.append(None)
    if all(x is None for x in search):
        return ints, None
    return ints, search


class RandomAgent:
    """Uniform over the legal actions, from its own numpy generator."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(None if seed is None else _agent_seed(seed))

    def act(self, state) -> int:
        la = state.legal_actions()
        return int(la[self.rng.integers(len(la))])


class FirstAgent:
    """Always the lowest legal action (a deterministic baseline)."""

    def act(self, state) -> int:
        return int(state.legal_actions()[0])


class GreedyAgent:
    """The game's documented C heuristic (the same function the batch kernel's "greedy" runs)."""

    def __init__(self, seed: int = 0):
        self.seed = _agent_seed(seed)
        self.calls = 0

    def act(self, state) -> int:
        self.calls += 1
        return int(state.spec.greedy_action(state, _draw(self.seed, self.calls)))


class SearchAgent:
    """A C search agent (ISMCTS or PIMC, see the module docstring) called from Python: it searches
    a private copy of the state, from the acting seat's view only."""

    def __init__(self, spec="ismcts", seed: int = 0):
        self.spec = parse_agent(spec)
        if self.spec.params is None:
            raise ConfigError(f"{self.spec.name} is not a search agent")
        self.seed = _agent_seed(seed)
        self.calls = 0
        self.name = self.spec.text
        self._greedy_in = self.spec.greedy_in()
        self._kernel = {"kind": self.spec.name,
                        **{k: v for k, v in self.spec.params.items() if k not in PY_PARAMS}}
        self._checked = None             # the game whose phases greedy_in was checked against

    def check_game(self, game: str) -> None:
        """ConfigError unless every phase greedy_in names is one of `game`'s (GameInfo.phases): a
        misspelt phase would otherwise never match, and the agent would search everywhere."""
        if not self._greedy_in or game == self._checked:
            return
        from cardsim.game import game_info

        phases = game_info(game).phases
        unknown = sorted(self._greedy_in - set(phases))
        if unknown:
            raise ConfigError(f"agent {_cut(self.spec.text)}: greedy_in names {', '.join(map(repr, unknown))}, "
                              f"not a phase of {game}; its phases are {'+'.join(phases)}")
        self._checked = game

    def act(self, state) -> int:
        """The search agent's action; with greedy_in, the game's greedy agent's in those phases
        (state.phase is public: what the seat sees decides, never a hidden card)."""
        if self._greedy_in and state.spec.name != self._checked:
            self.check_game(state.spec.name)
        self.calls += 1
        sd = _draw(self.seed, self.calls)
        if self._greedy_in and state.phase in self._greedy_in:
            return int(state.spec.greedy_action(state, sd))
        return int(state.spec.search_action(state, self._kernel, sd))


class ISMCTSAgent:
    """Single-observer information-set MCTS (the engine's generic search, core/_search.pyx):
    each iteration redraws the hidden cards with state.resample from the acting seat's view,
    so it never sees other seats' cards. `iterations` playouts per decision."""

    def __init__(self, iterations: int = 200, seed: int = 0, c: float = 0.7):
        self.iterations = iterations
        self.seed = _agent_seed(seed)
        self.c = c
        self.calls = 0

    def act(self, state) -> int:
        self.calls += 1
        return int(state.spec.ismcts_action(state, self.iterations, _draw(self.seed, self.calls), self.c))


class PolicyAgent:
    """A learned policy saved as numpy weights (`.npz`, as examples/train_ppo.py writes it: a
    two-tanh-layer MLP over `state.observation(p)` with a masked policy head), playing the legal
    action of highest probability. Named `"policy:<path>"` wherever a Python agent is accepted
    (`from_name`, `cardsim tournament --agents`). `act_batch(obs, mask)` is the same policy on a
    batch (a VectorEnv opponent policy: `VectorEnv(..., opponents=agent.batch_policy)`)."""

    KEYS = ("W1", "b1", "W2", "b2", "Wp", "bp")

    def __init__(self, path):
        import json
        import os

        if not isinstance(path, (str, os.PathLike)):
            raise ConfigError(f"a policy is loaded from a path to an .npz file, got {short(path)}")
        self.path = os.fspath(path)
        try:
            with np.load(self.path, allow_pickle=False) as z:
                self.params = {k: np.asarray(z[k], dtype=np.float32) for k in self.KEYS}
                self.meta = json.loads(str(z["meta"])) if "meta" in z.files else {}
        except (OSError, KeyError, ValueError) as e:
            raise ConfigError(f"policy {_cut(self.path)}: cannot load an .npz with arrays {', '.join(self.KEYS)} "
                              f"({type(e).__name__}: {short(str(e), 80)})") from None
        P = self.params
        if not (P["W1"].ndim == 2 and P["W2"].shape == (P["W1"].shape[1],) * 2
                and P["Wp"].shape[0] == P["W1"].shape[1]):
            raise ConfigError(f"policy {_cut(self.path)}: weight shapes do not chain "
                              f"({P['W1'].shape}, {P['W2'].shape}, {P['Wp'].shape})")
        self.name = "policy:" + self.path

    def logits(self, obs):
        P = self.params
        h = np.tanh(np.asarray(obs, np.float32) @ P["W1"] + P["b1"])
        h = np.tanh(h @ P["W2"] + P["b2"])
        return h @ P["Wp"] + P["bp"]

    def act_batch(self, obs, mask) -> np.ndarray:
        return np.argmax(np.where(mask, self.logits(obs), -np.inf), axis=1)

    def batch_policy(self, obs, mask, seat):
        return self.act_batch(obs, mask)

    def act(self, state) -> int:
        p = state.current_player
        obs = state.observation(p)
        if obs.shape[0] != self.params["W1"].shape[0]:
            raise ConfigError(f"policy {_cut(self.path)} takes observations of {self.params['W1'].shape[0]} floats; "
                              f"{state.spec.name} gives {obs.shape[0]} (trained for {self.meta.get('game', '?')})")
        mask = np.zeros(self.params["Wp"].shape[1], dtype=bool)
        mask[state.legal_actions()] = True
        return int(self.act_batch(obs[None], mask[None])[0])

    def __repr__(self):
        return f"<PolicyAgent {self.path}>"


def is_python_agent_name(name) -> bool:
    """True for the names of Python agents ("policy:<path>")."""
    return isinstance(name, str) and name.strip().lower().startswith("policy:")


def from_name(name: str, seed: int | None = None):
    """An agent spec ('random', 'greedy', 'first', 'ismcts:...', 'pimc:...', 'policy:<path>') ->
    an agent object."""
    if is_python_agent_name(name):
        return PolicyAgent(name.strip()[len("policy:"):])
    spec = parse_agent(name)
    if spec.name == "random":
        return RandomAgent(seed)
    if spec.name == "greedy":
        return GreedyAgent(seed or 0)
    if spec.name == "first":
        return FirstAgent()
    return SearchAgent(spec, seed=seed or 0)
