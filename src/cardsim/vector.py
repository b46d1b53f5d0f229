"""`VectorEnv`: many states of one game stepped at once in one nogil call, for RL, shaped as
gymnasium 1.x's vector API (`gymnasium.vector.VectorEnv`).

    env = cardsim.VectorEnv("karnoffel", num_envs=1024, seed=0, learner_seats=[0], opponents="greedy")
    obs, info = env.reset(seed=0)
    while training:
        actions = policy(obs, info["action_mask"])            # one int per environment
        obs, reward, terminated, truncated, info = env.step(actions)

**Seats.** `learner_seats` (default: every seat) are the seats whose decisions the caller makes;
every other seat is played by `opponents`: a C agent spec ("greedy", "random", "first",
"ismcts:...", "pimc:...", one for all or a list with one per seat, learner seats' entries
ignored), played *inside the kernel* in the same nogil call (the learner sees only its own
decisions: a single-agent environment at C speed), or a Python batch policy
`policy(obs, action_mask, seat) -> actions` (arrays over the environments where such a seat is to
act; called until a learner seat is to act in every environment). In-kernel opponents play
exactly as in `cardsim.simulate` (each seat's own stream keyed by (seed, deal, seat), forced
moves played without a draw).

**Spaces.** `single_action_space` is `Discrete(num_actions)`; `single_observation_space` is a
`Box(-inf, inf, (observation_size,), float32)` or, with `mask_in_obs=True`, a `Dict` with
`observation` (that Box) and `action_mask` (`MultiBinary(num_actions)`, int8);
`observation_space` / `action_space` are their batched forms. The legal mask is always also in
`info["action_mask"]` (bool). Spaces need gymnasium (`pip install 'cardsim[rl]'`).

**Step.** `step(actions)` returns `(obs, reward, terminated, truncated, info)`:
- `reward[i]` (float64): what the step paid the seat that acted in environment i, summed over
  every action the step applied there (its own and the in-kernel opponents' up to its next
  decision; with one learner seat, all the learner's rewards). `info["rewards"]` has every
  seat's (num_envs, num_players). Rewards are the change of the game's returns (so an episode's
  rewards add up to its final returns, in the game's points), divided by `reward_scale` when
  `normalize_rewards=True` (`reward_scale` = the largest |return| a seat can end a deal with,
  from `GameInfo.return_bounds`: every episode's return then lies in [-1, 1]).
- `terminated[i]`: the deal ended; `truncated[i]`: it reached `max_episode_steps` actions (every
  seat's; default `GameInfo.max_game_length`, a bound no legal deal exceeds) without ending.
- **Autoreset: `AutoresetMode.SAME_STEP`** (`metadata["autoreset_mode"]`): an environment whose
  deal ended is dealt its next deal in the same step; the returned observation is the new
  deal's first decision, and `info["final_obs"][i]` (with `info["_final_obs"][i]` True) is the
  final position's observation for the seat that made the deal's last learner decision.
- `info["current_player"]` (int32): the seat to act.

`reset(seed=None, options=None)`: with a seed, environment i restarts at deal `(i << 32) | 0`
of that seed; without one, every environment moves on to its next deal (the first reset of an
environment built with `seed=s` starts at deal 0 of s). Environment i plays deals
`(i << 32) | k`, k = 0, 1, ..., so its deal sequence depends only on (seed, i).

**Canonical observations** (`canonical=True`): every observation (`obs`, `final_obs`, what a
Python opponent policy gets) is written relative to the seat it is for: that seat is seat 0 of
every block the game's layout declares per seat, the next seat is seat 1, and so on, and its side
is side 0 (see `canonical_permutation`; `canonical_observation(state, p)` gives the same from the
State API; docs/observations.md says what happens to each block).

**Zero-copy.** With `copy=False`, `reset`/`step` return the preallocated arrays themselves
(rewritten in place by the next call): `obs`, `legal_mask`, `current_player`, `rewards` (per
seat), `reward`, `terminated`, `truncated`, `final_obs`, `final` are attributes. With
`copy=True` (default, as gymnasium's SyncVectorEnv) they are copies.

Every action is checked before any is applied: an illegal one raises
``cardsim.IllegalActionError`` naming the environment and leaves every environment unchanged.
"""
from __future__ import annotations

import numpy as np

from cardsim.agents import AgentSpec, parse_agent
from cardsim.core._engine import State, check_int
from cardsim.core._vector import VectorKernel
from cardsim.core._vector import observe_into as _observe_into
from cardsim.errors import ConfigError, short
from cardsim.game import make

try:                                      # the optional extra cardsim[rl]
    import gymnasium as _gym
    from gymnasium.vector import AutoresetMode as _AutoresetMode
    _Base = _gym.vector.VectorEnv
except ImportError:                       # pragma: no cover - exercised only without the extra
    _gym = None
    _AutoresetMode = None
    _Base = object

__all__ = ["VectorEnv", "observe_into", "canonical_permutation", "canonical_observation", "reward_scale_table"]


def _int(name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= int(v) <= hi:
        raise ConfigError(f"{name} must be an int in [{lo}, {hi}], got {_short(v)}")
    return int(v)


_short = short          # cardsim.errors.short: what a message may quote of an input


def observe_into(state, p, out) -> None:
    """Write `state.observation(p)` into `out` without allocating (for RL loops that reuse one
    buffer). `out` must be a writeable, C-contiguous, one-dimensional numpy float32 array of
    length `game.observation_size` (e.g. ``np.empty(game.observation_size, np.float32)`` or a
    row of a 2-D float32 array); anything else, a `state` that is not a State or a `p` that is
    not one of its seats raises ConfigError saying what is needed (nothing is written)."""
    if not isinstance(state, State):
        raise ConfigError(f"observe_into needs a cardsim State, got {type(state).__name__} {_short(state)}")
    n, size = state.num_players, state.spec.obs_size
    p = check_int(p, f"{state.spec.name}: observe_into seat p", 0, n - 1, ConfigError)
    need = (f"out must be a writeable, C-contiguous 1-D numpy float32 array of length {size} "
            f"(np.empty({size}, np.float32))")
    if not isinstance(out, np.ndarray):
        raise ConfigError(f"{state.spec.name}: {need}, got {type(out).__name__} {_short(out)}")
    if out.dtype != np.float32 or out.shape != (size,) or not out.flags.c_contiguous or not out.flags.writeable:
        what = (f"dtype {out.dtype}, shape {out.shape}, "
                f"{'C-contiguous' if out.flags.c_contiguous else 'not contiguous'}, "
                f"{'writeable' if out.flags.writeable else 'read-only'}")
        raise ConfigError(f"{state.spec.name}: {need}, got {what}")
    _observe_into(state, p, out)


def canonical_permutation(game) -> np.ndarray:
    """(num_players, observation_size) int32: row p maps seat p's observation to its canonical
    form (out[j] = observation(p)[perm[p, j]]), in which seat p appears as seat 0, seat p + 1 as
    seat 1 and so on (mod players), and p's side as side 0. Built from the game's declared layout
    (`GameInfo.canonical_source`, from the blocks' `ObsBlock.seats` / `about_seat`): every
    record of a per-seat field (`cardsim.info.SeatField`: the groups of a per-seat block, the
    one-hots of a seat) has its first `players` slots rotated so that slot j holds what plain slot
    (p + j) mod players held; side fields are rotated by p mod sides; blocks about one seat are
    exchanged with their counterparts; everything else is copied. Only the observation's own
    floats move: the canonical form reveals nothing the seat does not see. A layout that declares
    no per-seat field raises ConfigError (canonical observations are then not available)."""
    g = game if not isinstance(game, str) else make(game)
    return _permutation(g.name, g.info, dict(getattr(g, "options", {}) or {}), g.num_players, g.observation_size)


def _permutation(name, info, options, P, size) -> np.ndarray:
    blocks = info.observation
    if sum(b.size for b in blocks) != size:
        raise ConfigError(f"{name}: declared layout has {sum(b.size for b in blocks)} floats, observation {size}")
    if not any(getattr(b, "seat_fields", ()) or getattr(b, "about_seat", None) is not None for b in blocks):
        raise ConfigError(f"{name}: its observation layout (INFO.observation) declares no per-seat "
                          "block (ObsBlock.seats), so canonical=True is not available for it")
    options = {k: v for k, v in options.items() if not str(k).startswith("_")}
    options["players"] = P
    return np.array([info.canonical_source(options, p) for p in range(P)], dtype=np.int32)


def canonical_observation(state, p, out=None) -> np.ndarray:
    """Seat p's observation of `state` in canonical form (seat p as seat 0): what
    `VectorEnv(..., canonical=True)` gives for p, computed from `state.observation(p)` and
    `canonical_permutation` (ConfigError for a state that is not a State or a p that is not one
    of its seats). With `out` (as for `observe_into`) it is written there and returned."""
    if not isinstance(state, State):
        raise ConfigError(f"canonical_observation needs a cardsim State, got {type(state).__name__} {_short(state)}")
    perm = _perm_of(state)
    p = check_int(p, f"{state.spec.name}: canonical_observation seat p", 0, state.num_players - 1, ConfigError)
    if out is None:
        return np.asarray(state.observation(p), dtype=np.float32)[perm[p]]
    observe_into(state, p, out)          # validates out as observe_into does, writes the plain form
    out[:] = out[perm[p]]                # (the gather copies before the write)
    return out


_PERMS: dict = {}


def _perm_of(state) -> np.ndarray:
    """canonical_permutation of a state's configuration, cached by (game, options)."""
    from cardsim.game import game_info

    spec = state.spec
    opts = dict(spec.options)
    key = (spec.name, repr(sorted(opts.items(), key=lambda kv: str(kv[0]))))
    perm = _PERMS.get(key)
    if perm is None:
        perm = _PERMS[key] = _permutation(spec.name, game_info(spec.name), opts, spec.num_players, spec.obs_size)
    return perm


def reward_scale_table() -> str:
    """The Markdown table of docs/rl.md: every game's return bounds per deal (default options,
    from GameInfo.return_bounds) and the `reward_scale` that `normalize_rewards=True` divides by."""
    from cardsim.game import GAMES

    rows = ["| game | unit | return bounds per deal (default options) | reward_scale |", "|---|---|---|---|"]
    for name in GAMES:
        g = make(name)
        lo, hi = g.info.return_bounds(dict(g.options))
        unit = g.info.unit(dict(g.options)) if callable(g.info.unit) else g.info.unit
        rows.append(f"| {name} | {unit} | [{float(lo):g}, {float(hi):g}] | {max(abs(float(lo)), abs(float(hi))) or 1.0:g} |")
    return "\n".join(rows)


class VectorEnv(_Base):
    """`num_envs` states of `game` (configured with `options` as in `cardsim.make`); see the
    module docstring."""

    def __init__(self, game: str, num_envs: int, seed: int = 0, *, learner_seats=None, opponents="greedy",
                 max_episode_steps: int | None = None, mask_in_obs: bool = False, copy: bool = True,
                 canonical: bool = False, normalize_rewards: bool = False, **options):
        num_envs = _int("num_envs", num_envs, 1, 1 << 24)
        seed = _int("seed", seed, 0, 2**64 - 1)
        self.game = make(game, **options)
        P = self.game.num_players
        self.num_envs = num_envs
        self.seed = seed
        self.num_players = P
        self.num_actions = self.game.num_actions
        self.observation_size = self.game.observation_size
        self.learner_seats = self._learners(learner_seats)
        codes, search, self._py_policy, self.opponents = self._opponents(opponents)
        bound = int(self.game.info.max_game_length(dict(self.game.options)))
        self.max_episode_steps = bound if max_episode_steps is None else \
            _int("max_episode_steps", max_episode_steps, 1, 2**62)
        lo, hi = self.game.info.return_bounds(dict(self.game.options))
        self.return_bounds = (float(lo), float(hi))
        self.reward_scale = max(abs(float(lo)), abs(float(hi))) or 1.0
        self.normalize_rewards = bool(normalize_rewards)
        self.mask_in_obs = bool(mask_in_obs)
        self.copy = bool(copy)
        if not isinstance(canonical, (bool, np.bool_)):
            raise ConfigError(f"canonical must be True or False, got {_short(canonical)}")
        self.canonical = bool(canonical)
        stop = [p in self.learner_seats or self._py_policy is not None for p in range(P)]
        self._k = VectorKernel(self.game.spec, num_envs, seed, stop, codes, search, self.max_episode_steps)
        if self.canonical:
            self._k.set_obs_perm(canonical_permutation(self.game))
        N = num_envs
        self.obs = np.zeros((N, self.observation_size), dtype=np.float32)
        self.legal_mask = np.zeros((N, self.num_actions), dtype=np.bool_)
        self.rewards = np.zeros((N, P), dtype=np.float64)
        self.reward = np.zeros(N, dtype=np.float64)
        self.terminated = np.zeros(N, dtype=np.bool_)
        self.truncated = np.zeros(N, dtype=np.bool_)
        self.final = np.zeros(N, dtype=np.bool_)
        self.final_obs = np.zeros((N, self.observation_size), dtype=np.float32)
        self.current_player = np.zeros(N, dtype=np.int32)
        self._actor = np.zeros(N, dtype=np.int64)
        self._arange = np.arange(N)
        self._mask_u8 = self.legal_mask.view(np.uint8)
        self._term_u8 = self.terminated.view(np.uint8)
        self._trunc_u8 = self.truncated.view(np.uint8)
        self._final_u8 = self.final.view(np.uint8)
        self._started = False
        self._first_reset = True
        self.closed = False
        self.metadata = {"autoreset_mode": _AutoresetMode.SAME_STEP if _AutoresetMode else "SameStep"}
        self.render_mode = None
        self.spec = None
        if _gym is not None:
            self._spaces()

    # ---- configuration -------------------------------------------------------------------------
    def _learners(self, learner_seats):
        P = self.num_players
        if learner_seats is None:
            return tuple(range(P))
        if isinstance(learner_seats, (int, np.integer)) and not isinstance(learner_seats, bool):
            learner_seats = [learner_seats]
        try:
            seats = [_int("learner seat", s, 0, P - 1) for s in learner_seats]
        except TypeError:
            raise ConfigError(f"learner_seats must be a list of seats in 0..{P - 1}, got {_short(learner_seats)}") from None
        if not seats or len(set(seats)) != len(seats):
            raise ConfigError(f"learner_seats must name distinct seats in 0..{P - 1}, at least one, got {_short(learner_seats)}")
        return tuple(sorted(seats))

    def _opponents(self, opponents):
        """(codes, search, python policy or None, description) for the non-learner seats."""
        P = self.num_players
        if callable(opponents) and not isinstance(opponents, (str, AgentSpec)):
            return [0] * P, None, opponents, getattr(opponents, "__name__", "policy")
        if isinstance(opponents, (str, AgentSpec)):
            specs = [parse_agent(opponents)] * P
        else:
            try:
                specs = [parse_agent(x) for x in opponents]
            except TypeError:
                raise ConfigError("opponents must be an agent spec ('greedy', 'random', 'ismcts:...'), a list of "
                                  f"one per seat, or a batch policy callable; got {_short(opponents)}") from None
            if len(specs) != P:
                raise ConfigError(f"{self.game.name}: opponents needs one agent spec per seat ({P}), got {len(specs)}")
        codes = [s.code for s in specs]
        search = [s.kernel_params() for s in specs]
        if all(x is None for p, x in enumerate(search) if p not in self.learner_seats):
            search = None
        desc = [None if p in self.learner_seats else specs[p].text for p in range(P)]
        return codes, search, None, desc

    def _spaces(self):
        from gymnasium import spaces
        from gymnasium.vector.utils import batch_space
        box = spaces.Box(-np.inf, np.inf, (self.observation_size,), np.float32)
        if self.mask_in_obs:
            self.single_observation_space = spaces.Dict(
                {"observation": box, "action_mask": spaces.MultiBinary(self.num_actions)})
        else:
            self.single_observation_space = box
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    # ---- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal every environment a deal (see the module docstring); returns (obs, info)."""
        if options is not None and (not isinstance(options, dict) or options):
            raise ConfigError(f"reset takes no options (None or {{}}), got {_short(options)}")
        restart = self._first_reset
        if seed is not None:
            from cardsim.game import check_seed
            self.seed = check_seed(seed)
            self._k.reseed(self.seed)
            restart = True
        self._k.reset(self.obs, self._mask_u8, self.rewards, self._term_u8, self._trunc_u8, self._final_u8,
                      self.final_obs, self.current_player, restart)
        self._first_reset = False
        self._started = True
        self._play_python_opponents(first=True)
        self.reward[:] = 0.0
        return self._out_obs(), self._info()

    def step(self, actions):
        """One action per environment (ints, shape (num_envs,)); returns (obs, reward, terminated,
        truncated, info)."""
        if not self._started:
            raise ConfigError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ConfigError(f"actions must be an int array of shape ({self.num_envs},), got "
                              f"{a.dtype} {a.shape}")
        actor = self._actor
        actor[:] = self.current_player
        self._k.step(np.ascontiguousarray(a, dtype=np.int64), self.obs, self._mask_u8, self.rewards,
                     self._term_u8, self._trunc_u8, self._final_u8, self.final_obs, self.current_player)
        self._play_python_opponents()
        self.reward[:] = self.rewards[self._arange, actor]
        if self.normalize_rewards:
            self.reward /= self.reward_scale
        c = np.copy if self.copy else (lambda x: x)
        return self._out_obs(), c(self.reward), c(self.terminated), c(self.truncated), self._info()

    def _play_python_opponents(self, first=False):
        """Python batch policy opponents: act wherever such a seat is to act, until a learner seat
        is to act in every environment (rewards and flags accumulate into this step's)."""
        if self._py_policy is None:
            return
        learner = np.zeros(self.num_players, dtype=bool)
        learner[list(self.learner_seats)] = True
        for _ in range(1_000_000):
            todo = ~learner[self.current_player]
            if not todo.any():
                return
            idx = np.flatnonzero(todo)
            acts = np.asarray(self._py_policy(self.obs[idx].copy(), self.legal_mask[idx].copy(),
                                              self.current_player[idx].copy()))
            if acts.shape != (len(idx),) or not np.issubdtype(acts.dtype, np.integer):
                raise ConfigError(f"opponent policy must return one int action per environment it is given "
                                  f"({len(idx)}), got {acts.dtype} {acts.shape}")
            full = np.zeros(self.num_envs, dtype=np.int64)
            full[idx] = acts
            active = todo.view(np.uint8)
            self._k.step(full, self.obs, self._mask_u8, self.rewards, self._term_u8, self._trunc_u8,
                         self._final_u8, self.final_obs, self.current_player, np.ascontiguousarray(active), True)
        raise ConfigError("opponent policy: no learner decision reached")   # pragma: no cover

    def _out_obs(self):
        o = self.obs.copy() if self.copy else self.obs
        if self.mask_in_obs:
            m = self._mask_u8.view(np.int8)
            return {"observation": o, "action_mask": m.copy() if self.copy else m}
        return o

    def _info(self):
        c = np.copy if self.copy else (lambda x: x)
        info = {"action_mask": c(self.legal_mask), "current_player": c(self.current_player),
                "rewards": c(self.rewards) / (self.reward_scale if self.normalize_rewards else 1.0)}
        if self.final.any():
            info["final_obs"] = c(self.final_obs)
            info["_final_obs"] = c(self.final)
        return info

    def close(self, **kwargs):
        """Release the kernel's states (the object cannot be stepped afterwards)."""
        self._started = False
        self.closed = True

    # ---- inspection ----------------------------------------------------------------------------
    def state(self, i: int):
        """A copy of environment i's current position as a `State` (for inspection)."""
        return self._k.state(_int("i", i, 0, self.num_envs - 1))

    def deal_of(self, i: int) -> int:
        """The deal index environment i is playing."""
        return self._k.deal_of(_int("i", i, 0, self.num_envs - 1))

    def __repr__(self):
        opp = "" if self._py_policy is None and len(self.learner_seats) == self.num_players else \
            f" learner_seats={list(self.learner_seats)} opponents={self.opponents}"
        return f"<cardsim.VectorEnv {self.game.name} num_envs={self.num_envs} seed={self.seed}{opp}>"
