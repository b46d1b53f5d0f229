"""Issue 30: no silent no-ops. Each game declares, on its options (cardsim.options.Option
`applies_when`), when an option has an effect at all; an option given explicitly where it has none
draws a NoEffectWarning with the reason (make, simulate, the CLI), and a sweep over it is refused.
Every declaration is checked against the engine: outside its condition, two values of the option
play exactly the same deals."""
import warnings

import numpy as np
import pytest

import cardsim
from cardsim.cli import main
from cardsim.game import game_info
from cardsim.options import NoEffectWarning, Option

# alternatives for options validated by a function (the others are derived from the schema)
ALTERNATIVE = {("basra", "target"): 151, ("six_tigers", "point_table"): (2, 3, 5, 9, 17, 33, 129), ("tien_gow", "bankroll"): 50}


def _declared():
    for name in cardsim.GAMES:
        for o in game_info(name).options:
            if o.applies_when:
                yield name, o


def _other_value(name, o: Option):
    if (name, o.name) in ALTERNATIVE:
        return ALTERNATIVE[(name, o.name)]
    if o.choices:
        return next(c for c in o.choices if c != o.default)
    if o.kind is bool:
        return not o.default
    if o.kind in (int, float):
        v = o.default + 3
        return v if o.max is None or v <= o.max else o.default - 1
    return None


def _off_config(info, o: Option) -> dict:
    """Options under which `o` has no effect: the defaults, or another value of its condition."""
    d = info.defaults()
    cfg = {}
    for k, allowed in o.applies_when.items():
        if d[k] in allowed:
            opt = next(x for x in info.options if x.name == k)
            cfg[k] = next(c for c in opt.choices if c not in allowed)
    return cfg


def test_every_game_declares_its_match_only_options():
    found = {(n, o.name) for n, o in _declared()}
    for want in [("basra", "target"), ("basra", "max_deals"), ("exposure", "target_score"), ("gleek", "num_deals"),
                 ("joffre_whist", "num_deals"), ("joffre_whist", "slam_bonus"), ("karnoffel", "match_target"),
                 ("karnoffel", "ante"), ("samba", "target_score"), ("six_tigers", "rounds"), ("tien_gow", "num_deals"),
                 ("zhao_pengyou", "max_deals")]:
        if want[0] in cardsim.GAMES:
            assert want in found


@pytest.mark.parametrize("name, opt", [(n, o) for n, o in _declared()], ids=lambda x: getattr(x, "name", x))
def test_a_declared_no_effect_is_really_none(name, opt):
    """Outside its condition, the option's default and another value play identical deals."""
    info = game_info(name)
    other = _other_value(name, opt)
    if other is None:
        pytest.skip(f"no simple alternative value for {opt.name}")
    base = _off_config(info, opt)
    assert info.without_effect(base, [opt.name]), (name, opt.name, base)
    tables = []
    for v in (opt.default, other):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NoEffectWarning)
            g = cardsim.make(name, **base, **{opt.name: v})
        for agents in ("greedy", "random"):
            tables.append(cardsim.simulate(g, deals=40, seed=5, workers=1, agents=agents).table)
    for a, b in ((tables[0], tables[2]), (tables[1], tables[3])):
        for col in a.dtype.names:
            np.testing.assert_array_equal(a[col], b[col], err_msg=f"{name}.{opt.name}: column {col} differs")


def test_make_and_simulate_warn_with_the_reason():
    with pytest.warns(NoEffectWarning, match=r"option 'target' has no effect here: it only matters when scope is "
                                             r"'match' \(here scope='deal'\)"):
        cardsim.make("basra", target=151)
    with pytest.warns(NoEffectWarning, match="slam_bonus"):
        cardsim.simulate("joffre_whist", deals=5, seed=1, workers=1, slam_bonus=60)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NoEffectWarning)
        g = cardsim.make("basra", target=151, scope="match")          # applies: silent
        cardsim.make("basra", **g.options)                            # a complete copy of a Game: silent
        cardsim.make("zhao_pengyou", game_end="reach_A", max_deals=1000)   # the values it has anyway (adapters)
        cardsim.simulate("basra", matches=2, seed=1, workers=1, target=51)   # matches= sets the scope
        cardsim.make("basra", variant="syrian")                       # a preset is not a choice of the user
        cardsim.make("joffre_whist", slam_value="row_plus_bonus", slam_bonus=60)


def test_sweep_refuses_an_option_without_effect():
    with pytest.raises(cardsim.ConfigError, match=r"option 'target' has no effect here: it only matters when scope "
                                                 r"is 'match'.*same result; sweep it with scope='match'"):
        cardsim.sweep("basra", option="target", values=[51, 101, 151], deals=10, workers=1)
    sw = cardsim.sweep("basra", option="target", values=[51, 151], deals=5, workers=1, scope="match")
    assert len(sw.runs) == 2 and sw.runs[0][1].unit == "match"


def test_cli_warns_and_refuses_in_one_line(capsys):
    assert main(["sweep", "basra", "--values", "target=51,101,151", "--deals", "10", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "cardsim: error: sweep: basra: option 'target' has no effect here" in err and "-o scope=match" in err
    assert main(["simulate", "basra", "--deals", "10", "--workers", "1", "-o", "target=151"]) == 0
    err = capsys.readouterr().err
    assert err.count("cardsim: warning: basra: option 'target' has no effect here") == 1 and "Warning" not in err


def test_sweep_help_examples_have_an_effect(capsys):
    from cardsim.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["sweep", "--help"])
    out = capsys.readouterr().out
    assert "--values target=51,101,151 -o scope=match" in out
    assert "--values target=51,101,151 --deals" not in out


def test_applies_when_is_checked():
    with pytest.raises(cardsim.ConfigError, match="applies_when"):
        Option("x", 1, kind=int, applies_when={"scope": "match"})       # a value, not a tuple of values
    from cardsim.info import GameInfo

    info = game_info("exposure")
    bad = Option("y", 1, kind=int, applies_when={"nonexistent": (1,)})
    with pytest.raises(cardsim.ConfigError, match="applies_when names an unknown option 'nonexistent'"):
        GameInfo(name="t", title="T", players=(2,), default_players=2, teams="none", unit="points",
                 returns_sum="zero", options=(bad,), presets={}, metrics=(), observation=info.observation,
                 return_bounds=lambda o: (0, 1), max_game_length=lambda o: 1)
