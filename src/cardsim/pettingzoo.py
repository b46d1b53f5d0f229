"""PettingZoo AEC environments for every cardsim game (optional extra: ``pip install 'cardsim[rl]'``).

    from cardsim.pettingzoo import env
    e = env("joffre_whist")                     # any game of cardsim.GAMES, any of its options
    e.reset(seed=3)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` (seat p is ``player_p``). The seat to act is the game's
``current_player``; there is no chance node (the deal comes from the seed). Each observation is a
dict: ``observation`` (the engine's ``state.observation(p)``, float32, everything p may know and
nothing hidden; layouts in docs/observations.md) and ``action_mask`` (int8 over the game's fixed
action space, non-zero only for the agent to act). Rewards: after every step each agent is paid
the change of its ``state.returns()``, so the cumulative reward of an episode equals the game's
final returns (its own points; see the game's docs). An illegal action raises
``cardsim.IllegalActionError`` and leaves the game unchanged.

Canonical observations: ``env(game, canonical=True)`` writes each agent's observation relative to
its own seat (the agent is seat 0, the next seat 1, ...; its side is side 0), as
``cardsim.VectorEnv(..., canonical=True)`` does (``cardsim.vector.canonical_observation``; what
each block does is in docs/observations.md). Default: absolute seats.

Truncation: ``max_cycles`` (default: the game's ``GameInfo.max_game_length``, a bound no legal deal
exceeds) is the most actions a deal may take; a deal that reaches it unfinished is truncated
(every agent's ``truncated`` is True, as in PettingZoo's classic environments).

Seeding: ``reset(seed=s)`` starts deal 0 of seed s; each later ``reset()`` without a seed plays the
next deal of the same seed, so an episode sequence is a pure function of the first seed.
"""
from __future__ import annotations

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("cardsim.pettingzoo needs pettingzoo and gymnasium: pip install 'cardsim[rl]'") from e

import numpy as np

from cardsim.errors import ConfigError, short
from cardsim.game import check_seed, make

__all__ = ["env", "CardsimAECEnv"]


_short = short          # cardsim.errors.short: what a message may quote of an input


def env(game: str, render_mode: str | None = None, max_cycles: int | None = None, canonical: bool = False,
        **options) -> "CardsimAECEnv":
    """An AEC environment for `game` configured with `options` (as ``cardsim.make``)."""
    return CardsimAECEnv(game, render_mode=render_mode, max_cycles=max_cycles, canonical=canonical, **options)


class CardsimAECEnv(AECEnv):
    """One cardsim game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(self, game: str, render_mode: str | None = None, max_cycles: int | None = None,
                 canonical: bool = False, **options):
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', got {_short(render_mode)}")
        self.game = make(game, **options)
        bound = int(self.game.info.max_game_length(dict(self.game.options)))
        if max_cycles is None:
            max_cycles = bound
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1:
            raise ConfigError(f"max_cycles must be an int >= 1 (default {bound}), got {_short(max_cycles)}")
        self.max_cycles = int(max_cycles)
        if not isinstance(canonical, (bool, np.bool_)):
            raise ConfigError(f"canonical must be True or False, got {_short(canonical)}")
        self.canonical = bool(canonical)
        self._perm = None
        if self.canonical:
            from cardsim.vector import canonical_permutation

            self._perm = canonical_permutation(self.game)
        self._cycles = 0
        self.render_mode = render_mode
        n = self.game.num_players
        self.metadata = {"name": f"cardsim_{self.game.name}", "render_modes": ["ansi", "human"],
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.agents = []
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape=(self.game.observation_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.game.num_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(self.game.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seed = 0
        self._deal = -1
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent):
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent) -> int:
        try:
            return self.possible_agents.index(agent)
        except (ValueError, TypeError):
            shown = repr(agent) if len(repr(agent)) <= 60 else repr(agent)[:57] + "..."
            raise ConfigError(f"unknown agent {shown}; agents: {', '.join(self.possible_agents)}") from None

    def _started(self, what: str):
        if self.state is None:
            raise ConfigError(f"call reset() before {what} (the environment has no deal yet)")

    def observe(self, agent):
        p = self._seat(agent)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.state is not None and not self.state.is_terminal() and self.state.current_player == p:
            mask[self.state.legal_actions()] = 1
        obs = self.state.observation(p) if self.state is not None else np.zeros(self.game.observation_size, np.float32)
        if self._perm is not None:
            obs = obs[self._perm[p]]
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed = check_seed(seed, "seed")
            self._deal = -1
        self._deal += 1
        self.state = self.game.new_state(self._seed, self._deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._last_returns = self.state.returns()
        self._cycles = 0
        self._select()

    def _select(self):
        if self.state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]

    def step(self, action):
        self._started("step()")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ConfigError(f"{self.agent_selection} must act (the game is not over); got None")
        self.state.apply(int(action) if isinstance(action, np.integer) else action)
        ret = self.state.returns()
        delta = ret - self._last_returns
        self._last_returns = ret
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = float(delta[p])
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._accumulate_rewards()
        self._cycles += 1
        self._select()
        if self._cycles >= self.max_cycles and not self.state.is_terminal():
            self.truncations = dict.fromkeys(self.agents, True)
        if self.render_mode == "human":
            print(self.render())

    def last(self, observe: bool = True):
        self._started("last()")
        return super().last(observe)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode ('ansi' or 'human')")
            return None
        if self.state is None:
            return "no deal yet: call reset()"
        return str(self.state)

    def close(self):
        self.state = None
