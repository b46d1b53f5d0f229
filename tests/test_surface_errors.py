"""Issue 23, the Python surface: bad input to the adapters, views, vector helpers, options, seeds and
agent specs raises a typed cardsim error (a CardsimError, also a ValueError) that names what is
allowed, changes nothing, and never echoes more than ~200 characters of the input."""
import numpy as np
import pytest

import cardsim
from cardsim.agents import parse_agent, resolve_agents
from cardsim.vector import VectorEnv, observe_into
from cardsim.views import state_html, summary_html

LONG = "\u00a7" * 10_000                  # a character no message uses by itself


def _short_message(e, limit=200):
    """The message quotes at most `limit` characters of the 10,000-character input."""
    assert str(e.value).count("\u00a7") <= limit, len(str(e.value))


# ---------------------------------------------------------------------------------------------
# PettingZoo

def test_pettingzoo_step_before_reset_and_unknown_agents():
    pytest.importorskip("pettingzoo")
    from cardsim.pettingzoo import env

    e = env("karnoffel")
    with pytest.raises(cardsim.ConfigError, match=r"call reset\(\) before step\(\)"):
        e.step(0)
    with pytest.raises(cardsim.ConfigError, match=r"reset\(\)"):
        e.last()
    for bad in ("x", None, 3, LONG, ["player_0"]):
        for fn in (e.action_space, e.observation_space, e.observe):
            with pytest.raises(cardsim.ConfigError, match="agents: player_0, player_1") as err:
                fn(bad)
            _short_message(err)
    assert e.action_space("player_1").n == e.game.num_actions       # the real agents still work
    e.reset(seed=1)
    e.close()
    with pytest.raises(cardsim.ConfigError, match=r"reset\(\)"):    # closed: no deal any more
        e.step(0)


def test_pettingzoo_seeds_take_the_whole_range():
    pytest.importorskip("pettingzoo")
    from cardsim.pettingzoo import env

    e = env("karnoffel")
    for seed in (2**64 - 1, np.uint64(2**64 - 1)):
        e.reset(seed=seed)
        assert e.state == cardsim.make("karnoffel").new_state(2**64 - 1, 0)
    for bad in (2**64, -1, 1.0, True, "3"):
        with pytest.raises(cardsim.ConfigError, match=r"0\.\.18446744073709551615"):
            e.reset(seed=bad)


# ---------------------------------------------------------------------------------------------
# cardsim.vector.observe_into and VectorEnv.state(i).replayable

def test_observe_into_refuses_every_wrong_buffer():
    g = cardsim.make("basra")
    st = g.new_state(1, 2)
    n = g.observation_size
    good = np.empty(n, np.float32)
    observe_into(st, 0, good)
    np.testing.assert_array_equal(good, st.observation(0))
    two_d = np.zeros((2, n), np.float32)
    observe_into(st, 1, two_d[1])                                # a row of a 2-D buffer is fine
    np.testing.assert_array_equal(two_d[1], st.observation(1))
    readonly = np.zeros(n, np.float32)
    readonly.flags.writeable = False
    bad_buffers = {
        "None": None, "a list": [0.0] * n, "float64": np.zeros(n, np.float64), "int32": np.zeros(n, np.int32),
        "too short": np.zeros(n - 1, np.float32), "too long": np.zeros(n + 1, np.float32),
        "2-D": np.zeros((1, n), np.float32), "strided": np.zeros(2 * n, np.float32)[::2],
        "read-only": readonly, "a str": LONG,
    }
    for what, buf in bad_buffers.items():
        before = None if not isinstance(buf, np.ndarray) else buf.copy()
        with pytest.raises(cardsim.ConfigError, match=f"float32 array of length {n}") as e:
            observe_into(st, 0, buf)
        _short_message(e)
        if before is not None:
            np.testing.assert_array_equal(buf, before)         # nothing written
    for bad_state in (None, g, "state", 5):
        with pytest.raises(cardsim.ConfigError, match="needs a cardsim State"):
            observe_into(bad_state, 0, good)
    for bad_p in (-1, g.num_players, 1.0, True, None, 2**70):
        with pytest.raises(cardsim.ConfigError, match=rf"seat p must be .*0\.\.{g.num_players - 1}"):
            observe_into(st, bad_p, good)


def test_vector_state_is_replayable_only_when_its_empty_history_leads_to_it():
    env = VectorEnv("karnoffel", 2, seed=4)
    env.reset()
    g = env.game
    s0 = env.state(0)
    assert s0.history() == [] and s0.replayable          # the deal's first position: replay is trivial
    assert s0 == g.new_state(4, env.deal_of(0))
    env.step(env.legal_mask.argmax(1))
    s1 = env.state(0)
    assert s1.history() == [] and not s1.replayable      # mid-deal, no history: says so
    assert s1 != g.new_state(4, env.deal_of(0))
    # play environment 0 to the end: after the automatic reset it is the next deal's first position
    first_deal = env.deal_of(0)
    while env.deal_of(0) == first_deal:
        env.step(env.legal_mask.argmax(1))
        assert env.state(0).replayable == (env.state(0) == g.new_state(4, env.deal_of(0)))
    after = env.state(0)
    assert after.replayable and after == g.new_state(4, env.deal_of(0))
    env.step(env.legal_mask.argmax(1))
    assert not env.state(0).replayable
    c = env.state(0).clone()                              # the flag travels with copies and pickles
    assert not c.replayable
    import pickle

    assert not pickle.loads(pickle.dumps(env.state(0))).replayable
    # a state copied mid-deal still plays on correctly (no stale legal set from the fresh deal)
    st = env.state(0)
    np.testing.assert_array_equal(st.legal_mask(), env.legal_mask[0])


# ---------------------------------------------------------------------------------------------
# cardsim.views

def test_views_refuse_what_is_not_a_state_or_a_summary():
    st = cardsim.make("karnoffel").new_state(1, 1)
    for bad in (None, "state", 3, cardsim.make("karnoffel"), [st], LONG):
        with pytest.raises(cardsim.ConfigError, match="needs a cardsim State") as e:
            state_html(bad)
        _short_message(e)
    for seat in (-1, 4, 1.0, True, "0", 2**70):
        with pytest.raises(cardsim.ConfigError, match=r"seat must be .*0\.\.3"):
            state_html(st, seat=seat)
    assert "seat 0" in state_html(st, seat=np.int64(0))
    for bad in (None, {}, {"seats": []}, "summary", [1, 2], {"game": "x", "seats": [{"seat": 0}]}, LONG):
        with pytest.raises(cardsim.ConfigError, match="needs a run's summary") as e:
            summary_html(bad)
        _short_message(e)
    assert "seat 0" in summary_html(cardsim.simulate("karnoffel", deals=20, seed=1).summary())


# ---------------------------------------------------------------------------------------------
# numbers: options, seeds

def test_options_refuse_floats_and_bools_where_integers_are_meant():
    """Through the shared Option machinery: a choice of ints (basra deck 52|44) and every
    kind=int option refuse 44.0 and True; numpy integers stand for their value."""
    with pytest.raises(cardsim.ConfigError, match=r"deck' must be one of \[52, 44\], got 44\.0"):
        cardsim.make("basra", deck=44.0)
    with pytest.raises(cardsim.ConfigError, match="deck"):
        cardsim.make("basra", deck=True)
    g = cardsim.make("basra", deck=np.int64(44))
    assert g.options["deck"] == 44 and type(g.options["deck"]) is int
    assert cardsim.make("basra", players=np.int8(2)).num_players == 2
    for bad in (4.0, True, "4"):
        with pytest.raises(cardsim.ConfigError, match="players must be one of"):
            cardsim.make("basra", players=bad)
    checked = 0
    for name in cardsim.GAMES:
        info = cardsim.game.game_info(name)
        for o in info.options:
            ints = o.kind is int or (o.choices and all(type(c) is int for c in o.choices))
            if not ints or o.validate is not None or type(o.default) is not int:
                continue
            for bad in (float(o.default), True, np.float64(o.default)):
                with pytest.raises(cardsim.ConfigError, match=o.name):
                    cardsim.make(name, **{o.name: bad})
            checked += 1
    assert checked >= 5


def test_option_errors_do_not_echo_long_input():
    with pytest.raises(cardsim.ConfigError) as e:
        cardsim.make("basra", deck=LONG)
    _short_message(e)
    with pytest.raises(cardsim.ConfigError) as e:
        cardsim.make(LONG)
    _short_message(e)
    with pytest.raises(cardsim.ConfigError) as e:
        cardsim.make("basra", **{LONG: 1})
    _short_message(e)


def test_seeds_are_any_integer_in_0_to_2_64_minus_1_everywhere():
    g = cardsim.make("karnoffel")
    top = 2**64 - 1
    ref = g.new_state(top, 3)
    for seed in (top, np.uint64(top)):
        assert g.new_state(seed, np.uint64(3)) == ref
    for seed in (np.uint8(7), np.int64(7), np.uint32(7), 7):
        assert g.new_state(seed, 0) == g.new_state(7, 0)
    r1 = cardsim.simulate(g, deals=5, seed=np.uint64(top))
    r2 = cardsim.simulate(g, deals=5, seed=top)
    assert (r1.table == r2.table).all() and r1.seed == top
    for bad in (2**64, -1, 1.0, np.float64(1), True, np.bool_(True), "1", None):
        for fn in (lambda s: g.new_state(s, 0), lambda s: g.new_state(0, s), lambda s: cardsim.simulate(g, deals=2, seed=s)):
            with pytest.raises(cardsim.ConfigError):
                fn(bad)


# ---------------------------------------------------------------------------------------------
# agent specs

@pytest.mark.parametrize("spec,match", [
    ("ismcts:iterations=\u0665", "ASCII digits"),                 # Arabic-Indic five
    ("ismcts:iterations=\uff15", "ASCII digits"),                 # fullwidth five
    ("ismcts:iterations=1_0", "ASCII digits"),
    ("ismcts:iterations=+5", "ASCII digits"),
    ("ismcts:iterations= 5 0", "ASCII digits"),
    ("ismcts:iterations=5.0", "ASCII digits"),
    ("ismcts:c=0\u0667", "decimal number"),
    ("ismcts:c=1_0", "decimal number"),
    ("ismcts:c=nan", "decimal number"),
    ("ismcts:c=inf", "decimal number"),
    ("pimc:worlds=\u0663", "ASCII digits"),
    ("ismcts:iterations=5,iterations=6", "given twice"),
    ("ismcts:rollout=greedy,ROLLOUT=random", "given twice"),
    ("ismcts:depth=3", "unknown parameter 'depth'; ismcts takes iterations .*, c .*, rollout .*, reward"),
    ("pimc:c=1", "unknown parameter 'c'; pimc takes iterations .*, worlds .*"),
    ("ismcts:iterations", "is not key=value"),
])
def test_agent_specs_refuse_unclear_numbers_repeats_and_unknown_keys(spec, match):
    with pytest.raises(cardsim.ConfigError, match=match):
        parse_agent(spec)


def test_agent_specs_still_parse_what_they_should():
    a = parse_agent("ismcts:iterations=50,c=1e-1,rollout=greedy,reward=points")
    assert a.params == {"iterations": 50, "c": 0.1, "rollout": "greedy", "reward": "points"}
    assert parse_agent("pimc:worlds=3,iterations=9").params["worlds"] == 3
    assert parse_agent(" ismcts : iterations = 7 ").params["iterations"] == 7
    assert [s.name for s in resolve_agents(4, "ismcts:iterations=9,c=1,random,greedy,first")] == \
        ["ismcts", "random", "greedy", "first"]


def test_agent_spec_errors_do_not_echo_long_input():
    for spec in ("ismcts:" + LONG, "ismcts:iterations=" + LONG, LONG, "ismcts:" + LONG + "=1",
                 "greedy:" + LONG, "ismcts:rollout=" + LONG):
        with pytest.raises(cardsim.ConfigError) as e:
            parse_agent(spec)
        _short_message(e)
    with pytest.raises(cardsim.ConfigError) as e:
        resolve_agents(4, [LONG])
    _short_message(e)


def test_agent_objects_take_the_whole_seed_range():
    from cardsim.agents import GreedyAgent, RandomAgent, from_name

    st = cardsim.make("karnoffel").new_state(1, 1)
    for seed in (2**64 - 1, np.uint64(2**64 - 1)):
        for agent in (GreedyAgent(seed), RandomAgent(seed), from_name("ismcts:iterations=5", seed)):
            for _ in range(3):                      # seed + calls wraps around 2**64
                assert agent.act(st) in st.legal_actions()
    for bad in (-1, 2**64, 1.5, True):
        with pytest.raises(cardsim.ConfigError):
            GreedyAgent(bad)


def test_other_surface_errors_do_not_echo_long_input():
    from cardsim import executors, tournament
    from cardsim.play import parse_line
    from cardsim.vector import VectorEnv

    st = cardsim.make("karnoffel").new_state(1, 1)
    for line in (LONG, "AS " + LONG, LONG + " AS"):
        with pytest.raises(cardsim.CardsimError) as e:
            parse_line(st, line)
        _short_message(e)
    calls = [lambda: tournament.run([LONG], ["greedy"]),
             lambda: executors.open_executor(LONG, "threads", None, 1, 1),
             lambda: executors.open_executor(None, LONG, None, 1, 1),
             lambda: VectorEnv("karnoffel", LONG),
             lambda: cardsim.simulate("karnoffel", deals=2, seed=LONG),
             lambda: cardsim.simulate("karnoffel", deals=2, agents=LONG),
             lambda: cardsim.compare(LONG, LONG)]
    pz = None
    try:
        from cardsim.pettingzoo import env as pz
    except ImportError:
        pass
    if pz is not None:
        calls.append(lambda: pz("karnoffel", render_mode=LONG))
    for call in calls:
        with pytest.raises(cardsim.CardsimError) as e:
            call()
        _short_message(e)
