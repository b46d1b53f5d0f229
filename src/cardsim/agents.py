"""Python-side agents: objects with `act(state) -> action`.

The batch kernel runs the C agents by name ("random", "greedy", "first", "ismcts") with no Python in the
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


class ISMCTSAgent:
    """Single-observer information-set MCTS (the engine's generic search, core/_search.pyx):
    each iteration redraws the hidden cards with state.resample from the acting seat's view,
    so it never sees other seats' cards. `iterations` playouts per decision."""

    def __init__(self, iterations: int = 200, seed: int = 0, c: float = 0.7):
        self.iterations = iterations
        self.seed = seed
        self.c = c
        self.calls = 0

    def act(self, state) -> int:
        self.calls += 1
        return int(state.spec.ismcts_action(state, self.iterations, self.seed + self.calls, self.c))


def from_name(name: str, seed: int | None = None):
    """'random' | 'greedy' | 'first' | 'ismcts' -> an agent object."""
    from cardsim.errors import ConfigError

    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed or 0)
    if name == "first":
        return FirstAgent()
    if name == "ismcts":
        return ISMCTSAgent(seed=seed or 0)
    raise ConfigError(f"unknown agent {name!r}; agents: ['first', 'greedy', 'ismcts', 'random']")
