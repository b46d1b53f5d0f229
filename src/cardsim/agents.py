"""Python-side agents: objects with `act(state) -> action`.

The batch kernel runs the C agents by name ("random", "greedy", "first") with no Python in the
loop; these classes give the same policies to code that drives states itself (search, RL
baselines, tests) and show the interface a custom agent implements for `cardsim.simulate`
(slow path: one Python call per decision).
"""
from __future__ import annotations

import numpy as np


class RandomAgent:
    """Uniform over the legal actions, from its own numpy generator."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

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
        self.seed = seed
        self.calls = 0

    def act(self, state) -> int:
        self.calls += 1
        return int(state.spec.greedy_action(state, self.seed + self.calls))


def from_name(name: str, seed: int | None = None):
    """'random' | 'greedy' | 'first' -> an agent object."""
    from cardsim.errors import ConfigError

    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed or 0)
    if name == "first":
        return FirstAgent()
    raise ConfigError(f"unknown agent {name!r}; agents: ['first', 'greedy', 'random']")
