"""Every public function and method, given generated bad arguments, answers with the project's own
error types (CardsimError: ConfigError, ParseError, IllegalActionError, all ValueErrors) and leaves
the state unchanged: never a TypeError, OverflowError, IndexError, KeyError, AttributeError or a
crash (issue 14)."""
import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import cardsim
from cardsim.errors import CardsimError
from cardsim.game import game_info, game_module

# values where an int, a card list, a string or an option is meant
JUNK = hs.one_of(
    hs.none(), hs.booleans(), hs.floats(allow_nan=True, allow_infinity=True),
    hs.integers(min_value=-(2**70), max_value=2**70),
    hs.sampled_from([2**63, -1, 2**31, 2**64 - 1, 10**6, np.uint64(2**64 - 1), np.int64(-5), np.float32(1.5)]),
    hs.text(max_size=12), hs.sampled_from(["", "AS", "ZZ", "10X", "٣NT", "0", "'0'", "6-6", "SHI9", "JK"]),
    hs.lists(hs.one_of(hs.none(), hs.integers(-3, 300), hs.text(max_size=4)), max_size=6),
    hs.lists(hs.sampled_from(["AS", "AS", "KH", "2C", "10D", "BJ", "SJ"]), max_size=8),
    hs.dictionaries(hs.text(max_size=4), hs.integers(), max_size=2),
    hs.sampled_from([[["AS"]], [[]], [["AS", "AS", "AS", "AS", "AS"]], ((1,),), (), [[None]]]),
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


def _ok_or_ours(fn, *args, **kw):
    """Call fn; any exception must be one of ours."""
    try:
        fn(*args, **kw)
    except CardsimError:
        pass
    except Exception as e:  # noqa: BLE001 - the point of the test
        raise AssertionError(f"{getattr(fn, '__qualname__', fn)}{args!r:.200} raised {type(e).__name__}: {e}") from e


def _mid_state(name):
    g = cardsim.make(name)
    st = g.new_state(1, 0)
    rng = np.random.default_rng(0)
    for _ in range(6):
        if st.is_terminal():
            break
        la = st.legal_actions()
        st.apply(int(la[rng.integers(len(la))]))
    return st


@pytest.mark.parametrize("game", cardsim.GAMES)
@SETTINGS
@given(junk=JUNK, junk2=JUNK)
def test_state_methods(game, junk, junk2):
    st = _mid_state(game)
    before, hist = st.state_bytes(), st.history()
    for meth, args in (("apply", (junk,)), ("is_legal", (junk,)), ("hand", (junk,)), ("observation", (junk,)),
                       ("resample", (junk,)), ("resample", (0, junk)), ("action_to_string", (junk,)),
                       ("string_to_action", (junk,)), ("apply_string", (junk,))):
        _ok_or_ours(getattr(st, meth), *args)
        if meth in ("apply", "apply_string"):
            # only a legal action may change the state; restore for the next call
            if st.state_bytes() != before:
                assert isinstance(junk, (int, np.integer, str)) and not isinstance(junk, bool)
                st = _mid_state(game)
        assert st.state_bytes() == before and st.history() == hist, f"{meth}({junk!r}) changed the state"


@pytest.mark.parametrize("game", cardsim.GAMES)
@SETTINGS
@given(junk=JUNK, key=hs.sampled_from(["players", "scope", "variant", "seed", "deal", "option"]))
def test_make_and_new_state(game, junk, key):
    mod = game_module(game)
    info = game_info(game)
    if key == "option":
        for opt in info.options:
            _ok_or_ours(cardsim.make, game, **{opt.name: junk})
    elif key in ("seed", "deal"):
        _ok_or_ours(cardsim.make(game).new_state, **{key: junk})
    else:
        _ok_or_ours(cardsim.make, game, **{key: junk})


def _oracles(game):
    mod = game_module(game)
    info = game_info(game)
    for name, fn in vars(mod).items():
        if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != mod.__name__ or name == "build":
            continue
        yield name, fn


@pytest.mark.parametrize("game", cardsim.GAMES)
@SETTINGS
@given(args=hs.lists(JUNK, min_size=1, max_size=5))
def test_rule_oracles(game, args):
    for name, fn in _oracles(game):
        sig = inspect.signature(fn)
        pos = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        need = [p for p in pos if p.default is p.empty]
        call = (args * len(pos))[:max(len(need), 1)] if pos else []
        _ok_or_ours(fn, *call)


@SETTINGS
@given(junk=JUNK, which=hs.sampled_from(["deals", "seed", "agents", "workers", "chunk_size", "matches"]))
def test_simulate_arguments(junk, which):
    kw = {"deals": 3, "seed": 0, "workers": 1}
    if which == "matches":
        kw.pop("deals")
    kw[which] = junk
    if which in ("deals", "matches") and isinstance(junk, (int, np.integer)) and not isinstance(junk, bool) \
            and junk > 1000:
        return  # a valid huge run; the refusal of bad values is what is tested here
    _ok_or_ours(cardsim.simulate, "karnoffel", **kw)
