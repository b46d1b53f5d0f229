"""`VectorEnv`: many states of one game stepped at once in one nogil call, for RL.

    env = cardsim.VectorEnv("joffre_whist", num_envs=1024, seed=0)
    env.reset()
    while training:
        actions = policy(env.obs, env.legal_mask, env.current_player)   # one int per environment
        env.step(actions)
        learn(env.rewards, env.terminated)

After `reset()` and every `step()`, these preallocated arrays (attributes, rewritten in place)
describe every environment i:

- ``obs[i]`` (float32, ``observation_size``): the observation of the seat to act, exactly
  ``state.observation(current_player[i])`` (nothing hidden from that seat);
- ``legal_mask[i]`` (bool, ``num_actions``): its legal actions;
- ``current_player[i]`` (int32): the seat to act;
- ``rewards[i, p]`` (float64, one column per seat): what the last step paid seat p, the change of
  the game's returns (so an episode's rewards add up to the game's final returns, in its own
  points); zeros after ``reset()``;
- ``terminated[i]`` (bool): the last step ended a deal. The environment was then dealt its next
  deal at once (automatic reset): ``obs``, ``legal_mask`` and ``current_player`` already show
  the new deal's first position.

Determinism: environment i plays deals ``(i << 32) | k`` (k = 0, 1, ...) of the seed, so each
environment's deal sequence depends only on (seed, i). Every action is checked before any is
applied: an illegal one raises ``cardsim.IllegalActionError`` naming the environment and leaves
every environment unchanged.
"""
from __future__ import annotations

import numpy as np

from cardsim.core._engine import State, check_int
from cardsim.core._vector import VectorKernel
from cardsim.core._vector import observe_into as _observe_into
from cardsim.errors import ConfigError, short
from cardsim.game import make

__all__ = ["VectorEnv", "observe_into"]


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


class VectorEnv:
    """`num_envs` states of `game` (configured with `options` as in `cardsim.make`)."""

    def __init__(self, game: str, num_envs: int, seed: int = 0, **options):
        num_envs = _int("num_envs", num_envs, 1, 1 << 24)
        seed = _int("seed", seed, 0, 2**64 - 1)
        self.game = make(game, **options)
        self.num_envs = num_envs
        self.seed = seed
        self.num_players = self.game.num_players
        self.num_actions = self.game.num_actions
        self.observation_size = self.game.observation_size
        self._k = VectorKernel(self.game.spec, num_envs, seed)
        self.obs = np.zeros((num_envs, self.observation_size), dtype=np.float32)
        self.legal_mask = np.zeros((num_envs, self.num_actions), dtype=np.bool_)
        self.rewards = np.zeros((num_envs, self.num_players), dtype=np.float64)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.current_player = np.zeros(num_envs, dtype=np.int32)
        self._mask_u8 = self.legal_mask.view(np.uint8)
        self._term_u8 = self.terminated.view(np.uint8)
        self._started = False

    def reset(self):
        """Deal every environment its first deal; returns `obs`."""
        self._k.reset(self.obs, self._mask_u8, self.rewards, self._term_u8, self.current_player)
        self._started = True
        return self.obs

    def step(self, actions):
        """One action per environment (an int array of length num_envs); returns `obs`."""
        if not self._started:
            raise ConfigError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not (np.issubdtype(a.dtype, np.integer)):
            raise ConfigError(f"actions must be an int array of shape ({self.num_envs},), got "
                              f"{a.dtype} {a.shape}")
        self._k.step(np.ascontiguousarray(a, dtype=np.int64), self.obs, self._mask_u8, self.rewards,
                     self._term_u8, self.current_player)
        return self.obs

    def state(self, i: int):
        """A copy of environment i's current position as a `State` (for inspection)."""
        return self._k.state(_int("i", i, 0, self.num_envs - 1))

    def deal_of(self, i: int) -> int:
        """The deal index environment i is playing."""
        return self._k.deal_of(_int("i", i, 0, self.num_envs - 1))

    def __repr__(self):
        return f"<cardsim.VectorEnv {self.game.name} num_envs={self.num_envs} seed={self.seed}>"
