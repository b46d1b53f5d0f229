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
from cardsim.errors import CardsimError, ConfigError
from cardsim.game import game_info, game_module
from cardsim.games import basra, exposure, gleek, karnoffel

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


# ---- Basra, Gleek, Karnöffel, Exposure: arguments across games, options, compiled helpers ----


def test_float_ints_are_refused_in_options():
    for game, kw in (("basra", {"deck": 44.0}), ("basra", {"hand_size": 4.0}), ("basra", {"basra_floor_max": 1.0}),
                     ("basra", {"deck": True}), ("basra", {"max_deals": 10.0}), ("gleek", {"tiddy_turnup_pay": 4.0}),
                     ("exposure", {"min_hand_cards_per_meld": 2.0}), ("exposure", {"max_deals": True}),
                     ("karnoffel", {"match_target": 5.0})):
        with pytest.raises(ConfigError) as e:
            cardsim.make(game, **kw)
        assert "must be" in str(e.value)
    assert cardsim.make("basra", deck=np.int64(44), players=2).options["deck"] == 44
    assert type(cardsim.make("basra", deck=np.int64(44), players=2).options["deck"]) is int


def test_game_and_state_arguments_must_be_of_their_game():
    kg, gg = cardsim.make("karnoffel"), cardsim.make("gleek")
    kst = kg.new_state(1, 1)
    hands12 = [["AS"] * 12] * 3
    for call in (lambda: basra.scenario(gg, hands12, turnup="4S"), lambda: basra.position(kg, [], []),
                 lambda: basra.deal_pack(kg, []), lambda: basra.legal_plays(kst), lambda: basra.legal_plays(None),
                 lambda: basra.play_to_actions(kst, "AS", []), lambda: basra.actions_to_play(kst, [0]),
                 lambda: gleek.scenario(kg, [["2S"] * 5] * 4), lambda: gleek.deal_hands(None, [], "4S"),
                 lambda: karnoffel.scenario(gg, []), lambda: exposure.scenario(kg, []),
                 lambda: exposure.deal_hands(gg, [], [])):
        with pytest.raises(CardsimError):
            call()


def test_gleek_exposure_karnoffel_spec_extras_check_their_arguments():
    gg, eg, kg = cardsim.make("gleek"), cardsim.make("exposure"), cardsim.make("karnoffel")
    gdeck = [gleek.card_str(c) for c in range(44)]
    edeck = [exposure.card_str(c) for c in range(24)]
    kdeck = [karnoffel.card_str(c) for c in range(48)]
    gh = [gdeck[0:12], gdeck[12:24], gdeck[24:36]]
    eh = [edeck[0:9], edeck[9:18]]
    kh = [kdeck[5 * q:5 * q + 5] for q in range(4)]
    assert gg.spec.scenario(gh, turnup=gdeck[40]).phase
    assert eg.spec.scenario(eh, table=edeck[18:21]).phase
    assert kg.spec.scenario(kh).phase
    bad = [
        lambda: gg.spec.scenario(gh, turnup=None), lambda: gg.spec.scenario(gh, turnup=gdeck[0]),
        lambda: gg.spec.scenario(gh, turnup=gdeck[40], dealer=3), lambda: gg.spec.scenario(gh, turnup=gdeck[40], dead=1.0),
        lambda: gg.spec.scenario(gh, turnup=gdeck[40], dead=10 ** 30),
        lambda: gg.spec.scenario(gh, turnup=gdeck[40], chips=[1, 2]),
        lambda: gg.spec.scenario(gh, turnup=gdeck[40], chips=[1.0, 2, 3]),
        lambda: gg.spec.scenario(gh, turnup=gdeck[40], chips=[10 ** 30, 2, 3]),
        lambda: gg.spec.scenario(gh[:2], turnup=gdeck[40]), lambda: gg.spec.scenario([gdeck[0:13]] + gh[1:], turnup=gdeck[40]),
        lambda: gg.spec.scenario([gh[0], gh[0], gh[2]], turnup=gdeck[40]),
        lambda: gg.spec.deal_hands(gh, gdeck[40], dealer=None), lambda: gg.spec.deal_hands(None, gdeck[40]),
        lambda: eg.spec.scenario(eh, table=None), lambda: eg.spec.scenario(eh, table=edeck[18:20]),
        lambda: eg.spec.scenario(eh, table=[edeck[18]] * 3), lambda: eg.spec.scenario(eh, table=edeck[18:21], dealer=2),
        lambda: eg.spec.scenario(eh, table=edeck[18:21], scores=[1.0, 2]),
        lambda: eg.spec.scenario(eh, table=edeck[18:21], scores=[10 ** 30, 2]),
        lambda: eg.spec.scenario([eh[0], eh[0]], table=edeck[18:21]),
        lambda: eg.spec.scenario([edeck[0:8] + [edeck[0]], eh[1]], table=edeck[18:21]),
        lambda: eg.spec.deal_hands(eh, edeck[18:21], dealer=True),
        lambda: kg.spec.scenario(kh, dealer=4), lambda: kg.spec.scenario(kh, dealer=0.0),
        lambda: kg.spec.scenario(kh, up=[kdeck[40]] * 4), lambda: kg.spec.scenario(kh, up=[k[0] for k in kh][:3]),
        lambda: kg.spec.scenario(kh[:3]), lambda: kg.spec.scenario([kdeck[0:6]] + kh[1:]),
        lambda: kg.spec.scenario([kh[0], kh[0], kh[2], kh[3]]),
    ]
    for call in bad:
        with pytest.raises(CardsimError):
            call()


def test_compiled_helpers_reachable_from_python_check_their_ids():
    """The compiled kernel modules are importable: their oracle entry points refuse card ids out
    of range, tricks of more cards than the kernel's buffer, a dealer outside the table (a
    ValueError: kernels import nothing of the Python package, so not a CardsimError; the public
    faces check first and raise the typed errors). Before issue 23: card_str(10**5) read past
    the rank table; gleek's trick winner wrote past a 3-card buffer; gleek's trick settlement
    wrote score[dealer] for any dealer; exposure's deal order read past a short list."""
    from cardsim.games.basra import _rules as basra_rules
    from cardsim.games.exposure import _rules as exposure_rules
    from cardsim.games.gleek import _rules as gleek_rules

    for fn, n in ((basra.card_str, 52), (gleek.card_str, 44), (exposure.card_str, 24)):
        assert fn(n - 1) and fn(0)
        for c in (n, -1, 10 ** 5):
            with pytest.raises(ValueError):
                fn(c)
    for bad in (lambda: gleek_rules.oracle_trick_winner([0, 1, 2, 3, 4, 5, 6], 0),
                lambda: gleek_rules.oracle_trick_winner([0, 99], 0),
                lambda: exposure_rules.oracle_deal_order([0, 1, 2], 0),
                lambda: exposure_rules.oracle_deal_order(list(range(24)), 5)):
        with pytest.raises(ValueError):
            bad()
