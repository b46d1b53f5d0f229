"""The class of crashes from issue 23: every public spec method and every rule oracle of every game,
given None, a State of another game (or of the same game with other options), out-of-range or
non-integer numbers, huge strings and oversized card lists, answers with one of the project's own
errors (cardsim.CardsimError and its subclasses) or a normal result, never crashes the process,
never echoes a huge input back, and leaves the state it was given unchanged.

The spec methods are found by introspection (every public callable of `game.spec`), so a method
added later is covered without touching this file. The State check itself is written once, in
GameSpec._data (ext/cardsim/core/_engine.pyx), which every spec method and game hook passes
through before a kernel reads the struct."""
import inspect
import itertools
import math

import numpy as np
import pytest

import cardsim
from cardsim.core._engine import State
from cardsim.errors import CardsimError
from cardsim.game import game_module

GAMES = cardsim.GAMES
HUGE_TEXT = "A" * 5000


def _mid_state(game, seed=1, steps=6):
    st = game.new_state(seed, 0)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        la = st.legal_actions()
        st.apply(int(la[rng.integers(len(la))]))
    return st


def _other(name):
    return GAMES[(GAMES.index(name) + 1) % len(GAMES)]


def _card_pool(game):
    """Every card (tile) string dealt in a few fresh states of the game, with repeats."""
    cards = []
    for seed in range(3):
        st = game.new_state(seed, 0)
        for p in range(game.num_players):
            cards += st.hand(p)
    return cards


def _public_methods(spec):
    for name in sorted(dir(spec)):
        if name.startswith("_"):
            continue
        fn = getattr(spec, name)
        if callable(fn):
            yield name, fn


def _params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _ours(fn, *args, states=(), **kw):
    """Call fn; any exception must be a CardsimError with a short message; `states` unchanged."""
    before = [(s.state_bytes(), s.history()) for s in states]
    try:
        fn(*args, **kw)
        err = None
    except CardsimError as e:
        err = e
    except Exception as e:  # noqa: BLE001 - the point of the test
        raise AssertionError(f"{getattr(fn, '__qualname__', fn)}{_shown(args)} raised "
                             f"{type(e).__name__}: {str(e)[:300]}") from e
    if err is not None:
        msg = str(err)
        assert HUGE_TEXT[:300] not in msg and len(msg) < 3000, \
            f"{getattr(fn, '__qualname__', fn)}: an error message echoes its input ({len(msg)} characters)"
    for s, (b, h) in zip(states, before):
        assert s.state_bytes() == b and s.history() == h, f"{getattr(fn, '__qualname__', fn)} changed the state"
    return err


def _shown(args):
    return repr(args)[:200]


# ---- 1. spec methods: the State argument -----------------------------------------------------

STATE_METHODS = ("action_string", "parse_action", "hand_strings", "render", "phase_name", "card_total", "view",
                 "greedy_action", "ismcts_action", "search_action", "check_state")


@pytest.mark.parametrize("name", GAMES)
def test_every_spec_method_refuses_a_foreign_state(name):
    """None, a non-State, a State of another game: a typed error naming the game expected, for
    every public method of the spec that takes a state (found by its first parameter's name)."""
    g = cardsim.make(name)
    other = cardsim.make(_other(name))
    foreign = [None, 42, "state", object(), other.new_state(1, 0), _mid_state(other), other]
    own = _mid_state(g)
    checked = set()
    for mname, fn in _public_methods(g.spec):
        params = _params(fn)
        if not params or params[0].name not in ("s", "state"):
            continue
        checked.add(mname)
        rest = _valid_rest(g, own, mname, len(params) - 1)
        for bad in foreign:
            err = _ours(fn, bad, *rest, states=[own] + [x for x in foreign if isinstance(x, State)])
            assert err is not None, f"{name}: spec.{mname}({bad!r:.60}) was accepted"
            if isinstance(bad, State):
                assert name in str(err), f"{name}: spec.{mname}: the error does not name the game: {err}"
    assert set(STATE_METHODS) <= checked, f"{name}: methods not found: {set(STATE_METHODS) - checked}"


@pytest.mark.parametrize("name", [n for n in GAMES if any(
    o.name == "players" or o.name == "scope" for o in getattr(game_module(n), "OPTIONS", ()))] + ["basra"])
def test_a_state_with_other_options_is_refused(name):
    """The same game with other options has another config: its states are refused too."""
    a = cardsim.make(name)
    b = cardsim.make(name, scope="match") if a.options.get("scope") == "deal" else None
    if b is None or b.options == a.options:
        pytest.skip("no second configuration")
    st = b.new_state(1, 0)
    for mname in ("render", "view", "phase_name", "card_total", "check_state"):
        err = _ours(getattr(a.spec, mname), st, states=[st])
        assert err is not None and "other options" in str(err)


def _valid_rest(game, st, mname, n):
    """Valid arguments after the state for the known methods (so that one bad argument is tested
    at a time); zeros otherwise."""
    la = st.legal_actions()
    table = {
        "action_string": [int(la[0])],
        "parse_action": [st.action_to_string(int(la[0]))],
        "hand_strings": [0],
        "greedy_action": [0],
        "ismcts_action": [5, 0, 0.7],
        "search_action": [{"kind": "ismcts", "iterations": 5}, 0],
    }
    return (table.get(mname, []) + [0] * n)[:n]


# ---- 2. spec methods: numbers, strings and lists -----------------------------------------------

BAD_NUMBERS = [-1, -(2**63), 2**31, 2**64, 2**70, 1.0, 1.5, float("nan"), float("inf"), True, np.uint64(2**64 - 1),
               np.float64(2.0), "1", None]


@pytest.mark.parametrize("name", GAMES)
def test_spec_methods_numbers_out_of_range(name):
    """Every integer argument of the state methods, out of range or not an integer: a typed
    error and an unchanged state (action_string(state, -1) used to read out of bounds)."""
    g = cardsim.make(name)
    st = _mid_state(g)
    spec = g.spec
    for mname in ("action_string", "hand_strings", "greedy_action", "ismcts_action", "search_action"):
        fn = getattr(spec, mname)
        n = len(_params(fn)) - 1
        base = _valid_rest(g, st, mname, n)
        for i in range(n):
            for bad in BAD_NUMBERS + [spec.num_actions, spec.num_players]:
                args = list(base)
                args[i] = bad
                if mname == "hand_strings" and bad is spec.num_actions and spec.num_actions < spec.num_players:
                    continue
                if isinstance(bad, bool) or not isinstance(bad, (int, np.integer)) or bad < 0 or bad >= 2**64:
                    want_error = i == 0 or mname in ("ismcts_action", "search_action", "greedy_action")
                else:
                    want_error = False
                if mname == "ismcts_action" and i == 2 and isinstance(bad, (int, float, np.floating)) \
                        and not isinstance(bad, bool) and math.isfinite(float(bad)) and bad >= 0:
                    want_error = False        # c: any finite number >= 0 is a valid exploration constant
                if mname == "ismcts_action" and i == 0 and isinstance(bad, (int, np.integer)) and \
                        not isinstance(bad, bool) and 1 <= bad <= 64:
                    want_error = False
                err = _ours(fn, st, *args, states=[st])
                if want_error:
                    assert err is not None, f"{name}: spec.{mname}(state, {args!r:.80}) was accepted"
    # the largest integers in range still work; one past them is refused
    assert spec.action_string(st, int(st.legal_actions()[-1]))
    assert _ours(spec.action_string, st, spec.num_actions, states=[st]) is not None
    assert _ours(spec.hand_strings, st, spec.num_players, states=[st]) is not None
    assert spec.hand_strings(st, spec.num_players - 1) == st.hand(spec.num_players - 1)


@pytest.mark.parametrize("name", GAMES)
def test_search_settings_are_checked(name):
    g = cardsim.make(name)
    st = _mid_state(g)
    for params in ({"kind": "ismcts", "iterations": 5, "iteratons": 9}, {"kind": "mcts"}, [("kind", "ismcts")],
                   {"kind": "pimc", "worlds": 0}, {"iterations": 1.5}, {"c": -1}, {"rollout": None}):
        assert _ours(g.spec.search_action, st, params, states=[st]) is not None, params
    assert 0 <= g.spec.search_action(st, {"kind": "pimc", "iterations": 4, "worlds": 2}) < g.num_actions


@pytest.mark.parametrize("name", GAMES)
def test_long_action_text(name):
    """A 5,000-character action text: a ParseError that quotes at most a short part of it."""
    g = cardsim.make(name)
    st = _mid_state(g)
    for text in (HUGE_TEXT, "AS " * 2000, "\x00" * 3000, "♠" * 4000):
        err = _ours(st.string_to_action, text, states=[st])
        assert isinstance(err, cardsim.ParseError) and len(str(err)) < 400
        err = _ours(g.spec.parse_action, st, text, states=[st])
        assert isinstance(err, cardsim.ParseError) and len(str(err)) < 400


def _hostile_pool(g, own, other):
    cards = _card_pool(g)
    big = (cards * (200 // max(len(cards), 1) + 1))
    return [
        None, -1, 0, 2**70, 1.5, float("nan"), True, "ZZ", HUGE_TEXT, (), [], {}, {"x": 1},
        cards[:3], cards[:13], big[:37], big[:64], big[:200],
        [cards[:3]] * g.num_players, [big[:40]] * g.num_players, [[c] for c in big[:60]], [cards[:2]] * 40,
        [None] * g.num_players, [[None]] * g.num_players, [[0, 1]] * g.num_players,
        own, other.new_state(1, 0), other, g,
    ]


@pytest.mark.parametrize("name", GAMES)
def test_every_spec_method_with_hostile_arguments(name):
    """Every public spec method (scenario builders, set_scores, side_of, ... included), each
    positional argument replaced by hostile values in turn (the others valid where known): only
    typed errors, and the state given is unchanged."""
    g = cardsim.make(name, players=2) if name == "basra" else cardsim.make(name)
    other = cardsim.make(_other(name))
    own = _mid_state(g)
    pool = _hostile_pool(g, own, other)
    calls = 0
    for mname, fn in _public_methods(g.spec):
        if mname in ("run_batch", "new_state"):
            continue                   # tested with junk in test_bad_input / test_core
        params = _params(fn)
        if params is None:
            continue
        n = len(params)
        base = ([own] + _valid_rest(g, own, mname, n - 1)) if params and params[0].name in ("s", "state") \
            else [None] * n
        for i in range(n):
            for bad in pool:
                args = list(base)
                args[i] = bad
                _ours(fn, *args, states=[own])
                calls += 1
        # two hostile arguments at once for the first two slots
        for a, b in itertools.islice(itertools.product(pool, repeat=2), 0, None, 7) if n >= 2 else ():
            _ours(fn, a, b, *base[2:], states=[own])
            calls += 1
    assert calls > 0


# ---- 3. rule oracles: oversized and malformed card lists ---------------------------------------

def _oracles(name):
    mod = game_module(name)
    for fname, fn in vars(mod).items():
        if fname.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != mod.__name__ or fname == "build":
            continue
        yield fname, fn


@pytest.mark.parametrize("name", GAMES)
def test_every_oracle_with_oversized_and_hostile_arguments(name):
    """Every public function of cardsim.games.<game> (rule oracles, scoring helpers, scenario
    helpers), each positional argument replaced by hostile values — oversized card lists among
    them, e.g. six_tigers.legal_leads(<36 cards>, []) used to overflow a 12-card buffer — with the
    others set to an empty list, a few valid cards, or the hostile value too: only typed errors."""
    g = cardsim.make(name)
    other = cardsim.make(_other(name))
    own = _mid_state(g)
    pool = _hostile_pool(g, own, other)
    cards = _card_pool(g)
    fillers = ([], cards[:2], [cards[:2]] * g.num_players, own, g, None)
    calls = 0
    for fname, fn in _oracles(name):
        params = _params(fn)
        if not params:
            continue
        need = [p for p in params if p.default is p.empty] or params[:1]
        n = len(need)
        for i in range(n):
            for bad in pool:
                for fill in fillers:
                    args = [fill] * n
                    args[i] = bad
                    _ours(fn, *args, states=[own])
                    calls += 1
    assert calls > 0
