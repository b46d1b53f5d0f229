"""OpenSpiel adapter: every cardsim game as a ``pyspiel`` Python game (optional extra ``cardsim[rl]``).

    from cardsim.openspiel import load_game
    game = load_game("karnoffel", players=6)     # a pyspiel.Game; any option of cardsim.make
    state = game.new_initial_state()             # a chance node: which deal
    state.apply_action(state.chance_outcomes()[0][0])
    ...                                          # then the engine's own actions, seats, returns

The game is registered once per cardsim game as ``cardsim_<game>`` (so ``pyspiel.load_game(
"cardsim_karnoffel(players=6)")`` works for options of plain types too).

Chance is handled by the engine's deal: the initial state is a chance node whose ``deals``
outcomes (a game parameter, default 1024) are deal indices 0..deals-1 of the seed ``seed``
(default 0), each with probability 1/deals; the chosen deal is dealt by the engine exactly as
``cardsim.make(game, **options).new_state(seed, deal)``. After it every node is a decision of
``state.current_player`` with the engine's fixed action space and legal actions.

Imperfect information: ``observation_tensor(p)`` is the engine's ``state.observation(p)``
(everything p may know, nothing hidden; layouts in docs/observations.md). The games' observations
record every public fact of the deal so far (cards played by seat, tricks, bids), so the
information-state tensor is the same vector; the information-state string names the seat, its
hand and a digest of that vector (equal strings iff equal information). ``resample_from_infostate``
uses the engine's ``resample`` (hidden cards redrawn consistently, never copied), so OpenSpiel's
ISMCTS runs on every game.

Rewards are terminal (OpenSpiel's MCTS needs that): ``returns()`` and ``rewards()`` are zeros
until the deal (or match) ends, then the game's returns. Utilities are the games' returns (their
own points; see docs/rules/<game>.md). ``min_utility`` / ``max_utility`` and ``max_game_length``
are what the game's module declares from its rules for this configuration:
``cardsim.games.<game>.return_bounds(options)`` (the lowest and highest return any seat can end
with) and ``max_game_length(options)`` (the most decisions any legal play can take from the deal
to the end; the chance node that picks the deal is not a decision). Nothing is measured or
guessed: a game module that declares no bounds cannot be loaded (ConfigError).

Bad input raises cardsim's typed errors (all ``ValueError``): a chance outcome outside
``0..deals-1``, an illegal action, or an unknown option.
"""
from __future__ import annotations

import hashlib

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("cardsim.openspiel needs open_spiel: pip install 'cardsim[rl]'") from e

import numpy as np

from cardsim.core._engine import check_int
from cardsim.errors import ConfigError, IllegalActionError
from cardsim.game import GAMES, game_info, game_module, make

__all__ = ["load_game", "CardsimGame", "CardsimState"]

DEFAULT_DEALS = 1024
MAX_DEALS = 1 << 20     # chance_outcomes() lists every deal: a longer list only costs memory
_REGISTERED: set[str] = set()
_BOUNDS: dict = {}
_FACTORIES: dict = {}


def _plain_options(name: str) -> dict:
    """The options of a game whose defaults are plain pyspiel parameter types."""
    out = {}
    for opt in game_info(name).options:
        d = opt.default
        if isinstance(d, (bool, int, float, str)):
            out[opt.name] = d
    return out


def _param_spec(name: str) -> dict:
    """pyspiel parameters of a cardsim game: deals, seed, players, variant ("" = none) and every
    option whose default is a plain bool/int/float/str."""
    spec = {"deals": DEFAULT_DEALS, "seed": 0, "players": game_info(name).default_players,
            **_plain_options(name)}
    spec.setdefault("variant", "")
    return spec


def _game_type(name: str, params: dict, zero_sum: bool = False) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=f"cardsim_{name}",
        long_name=f"cardsim {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=12,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def bounds(g) -> tuple[float, float, int]:
    """(min_utility, max_utility, max_game_length) of a configured cardsim game, as its GameInfo
    declares them from the rules (`return_bounds(options)`, `max_game_length(options)`)."""
    key = (g.name, repr(sorted(g.options.items(), key=lambda kv: kv[0])))
    if key not in _BOUNDS:
        lo, hi = g.info.return_bounds(dict(g.options))
        length = g.info.max_game_length(dict(g.options))
        lo, hi = float(lo), float(hi)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo <= hi):
            raise ConfigError(f"{g.name}: return_bounds gave ({lo}, {hi}); expected finite lo <= hi")
        if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or int(length) < 1:
            raise ConfigError(f"{g.name}: max_game_length gave {str(length)[:40]}; expected an int >= 1")
        if lo == hi:                    # OpenSpiel needs min < max; a constant return is within either
            hi = lo + 1.0
        _BOUNDS[key] = (lo, hi, int(length))
    return _BOUNDS[key]


_NUM_PREFIX = {int: "int_", float: "float_"}


def _encode(v) -> str:
    """A number held by an option whose default is a string (basra_floor_max: "none" | 2 | 1), as
    a pyspiel string parameter ("int_2"): pyspiel types parameters by the default's type, and a
    serialized game must load back as the same configuration."""
    return _NUM_PREFIX[type(v)] + repr(v)


def _decode(v):
    """The inverse of _encode; any other value unchanged."""
    if isinstance(v, str):
        for typ, prefix in _NUM_PREFIX.items():
            if v.startswith(prefix):
                try:
                    return typ(v[len(prefix):])
                except ValueError:
                    return v
    return v


class CardsimGame(pyspiel.Game):
    """A configured cardsim game as a pyspiel.Game (see the module docstring)."""

    def __init__(self, params=None, *, _name: str | None = None, _extra: dict | None = None):
        name = _name or getattr(self, "_NAME", None)
        params = dict(params or {})
        if name is None:
            raise ConfigError("use cardsim.openspiel.load_game(game, **options)")
        self._deals = check_int(params.pop("deals", DEFAULT_DEALS), "deals", 1, MAX_DEALS, ConfigError)
        self._seed = check_int(params.pop("seed", 0), "seed", 0, 2**63 - 1, ConfigError)
        options = {k: _decode(v) for k, v in params.items() if not (k == "variant" and v == "")}
        options.update(_extra or {})
        self.cardsim = make(name, **options)
        mn, mx, length = bounds(self.cardsim)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cardsim.num_actions,
            max_chance_outcomes=self._deals,
            num_players=self.cardsim.num_players,
            min_utility=mn,
            max_utility=mx,
            utility_sum=0.0 if self.cardsim.returns_sum == "zero" else None,
            max_game_length=length,
        )
        spec = _param_spec(name)
        zero = self.cardsim.returns_sum == "zero"
        super().__init__(_game_type(name, spec, zero), info, self._canonical_params(spec))

    def _canonical_params(self, spec: dict) -> dict:
        """Every parameter of the game's pyspiel spec with this game's resolved value, so that
        game.ToString() names the configuration completely and OpenSpiel's serialization
        (pyspiel.serialize_game_and_state) loads the same game back. An option whose resolved
        value is not of its default's plain type (e.g. a scoring table) cannot be named there."""
        opts = self.cardsim.options
        out = {"deals": self._deals, "seed": self._seed}
        for k, default in spec.items():
            if k in out:
                continue
            if k == "variant":
                v = opts.get("variant") or ""
            elif k == "players":
                v = self.cardsim.num_players
            else:
                v = opts.get(k, default)
            if type(v) is type(default):
                out[k] = v
            elif isinstance(default, str) and type(v) in (int, float):
                out[k] = _encode(v)     # e.g. a preset's basra_floor_max=2 where the default is "none"
        return out

    def new_initial_state(self):
        return CardsimState(self)

    def __deepcopy__(self, memo):
        # pyspiel clones a Python state by deep-copying each of its attributes: the game is
        # immutable and shared (a copy would be a bare pyspiel.Game without the cardsim game)
        return self

    def __copy__(self):
        return self

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self, iig_obs_type, params)

    def observation_tensor_shape(self):
        return [self.cardsim.observation_size]

    def information_state_tensor_shape(self):
        return [self.cardsim.observation_size]


class CardsimState(pyspiel.State):
    """A pyspiel state over a cardsim State; the first node is the chance node choosing the deal."""

    def __init__(self, game: CardsimGame):
        super().__init__(game)
        self._g = game
        self.inner = None

    def current_player(self):
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self.inner.current_player)

    def _legal_actions(self, player):
        if self.inner is None or self.inner.is_terminal() or player != self.inner.current_player:
            return []
        return self.inner.legal_actions().tolist()

    def chance_outcomes(self):
        p = 1.0 / self._g._deals
        return [(i, p) for i in range(self._g._deals)]

    def _check_action(self, action) -> int:
        """The action as an int if it may be applied here: a deal index 0..deals-1 at the chance
        node (IllegalActionError otherwise, naming the range); at a decision node the engine's
        State.apply checks legality itself (IllegalActionError listing the legal actions)."""
        if self.inner is None:
            return check_int(action, f"{self._g.cardsim.name}: the chance outcome (deal index)", 0,
                             self._g._deals - 1, IllegalActionError)
        if self.inner.is_terminal():
            raise IllegalActionError(f"{self._g.cardsim.name}: the game is over; no action applies")
        return check_int(action, f"{self._g.cardsim.name}: action", 0, self._g.cardsim.num_actions - 1,
                         IllegalActionError)

    def apply_action(self, action):
        """pyspiel's apply_action with cardsim's typed errors first (pyspiel would refuse some
        actions itself, e.g. -1, with its own SpielError, and pass others through unchecked)."""
        self._check_action(action)
        if self.inner is not None:
            a = int(action)
            if a not in self.inner.legal_actions():
                self.inner.apply(a)          # raises IllegalActionError listing the legal actions
        return super().apply_action(int(action))

    def _apply_action(self, action):
        a = self._check_action(action)
        if self.inner is None:
            self.inner = self._g.cardsim.new_state(self._g._seed, a)
        else:
            self.inner.apply(a)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or self.inner is None:
            return f"deal {action}"
        return self.inner.action_to_string(int(action))

    def is_terminal(self):
        return self.inner is not None and self.inner.is_terminal()

    def returns(self):
        """The game's returns once the deal (or match) is over, zeros before (terminal rewards)."""
        if self.inner is None or not self.inner.is_terminal():
            return [0.0] * self._g.cardsim.num_players
        return self.inner.returns().tolist()

    def rewards(self):
        return self.returns()

    def __deepcopy__(self, memo):
        # pyspiel's State.clone() deep-copies Python states: share the (immutable) game, copy
        # the engine state by memcpy
        c = CardsimState(self._g)
        c.inner = None if self.inner is None else self.inner.clone()
        return c

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with everything `player_id` knows (the engine's resample; the
        sampler's draw keys the resample stream, so OpenSpiel's seeding drives it)."""
        clone = self.clone()
        if self.inner is not None:
            seed = int(probability_sampler() * 2**53) if callable(probability_sampler) else 0
            clone.inner = self.inner.resample(int(player_id), seed)
        return clone

    def __str__(self):
        return "chance: deal not chosen yet" if self.inner is None else str(self.inner)


class _Observer:
    """PyObserver: the engine's observation vector, for information state and observation alike."""

    def __init__(self, game: CardsimGame, iig_obs_type, params):
        if params:
            raise ConfigError(f"cardsim observers take no parameters, got {str(params)[:100]}")
        self._g = game
        self.tensor = np.zeros(game.cardsim.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardsimState, player: int):
        if state.inner is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.inner.observation(int(player))

    def string_from(self, state: CardsimState, player: int):
        if state.inner is None:
            return f"seat {player} | no deal yet"
        obs = state.inner.observation(int(player))
        digest = hashlib.blake2b(obs.tobytes(), digest_size=12).hexdigest()
        return f"seat {player} | hand {' '.join(state.inner.hand(int(player)))} | {digest}"


def _register(name: str):
    if name in _REGISTERED:
        return
    gt = _game_type(name, _param_spec(name))
    # a class per game, kept alive by this module (pyspiel keeps the factory until exit)
    cls = type(f"CardsimGame_{name}", (CardsimGame,), {"_NAME": name})
    _FACTORIES[name] = cls
    pyspiel.register_game(gt, cls)
    _REGISTERED.add(name)


def load_game(game: str, *, deals: int = DEFAULT_DEALS, seed: int = 0, **options) -> CardsimGame:
    """`game` (a name of cardsim.GAMES) configured with `options` as a pyspiel.Game whose chance
    node picks one of `deals` deals of `seed`. Bad names or options raise cardsim.ConfigError."""
    game_module(game)                      # unknown names: ConfigError naming the games
    deals = check_int(deals, "deals", 1, MAX_DEALS, ConfigError)
    # pyspiel's integer parameters are signed 64-bit: seeds 0..2**63-1 here
    seed = check_int(seed, "seed", 0, 2**63 - 1, ConfigError)
    _register(game)
    plain = _param_spec(game)
    simple = {k: v for k, v in options.items() if k in plain and type(v) is type(plain[k])}
    if "variant" in options and isinstance(options["variant"], str):
        simple["variant"] = options["variant"]
    extra = {k: v for k, v in options.items() if k not in simple}
    return CardsimGame({"deals": int(deals), "seed": int(seed), **simple}, _name=game, _extra=extra)
