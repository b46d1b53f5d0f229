"""Zhao Pengyou, issue 23: endless redeals capped (max_redeals, D24) and the match cap (max_deals,
D23), the episode and return bounds of the shared protocol (return_bounds, max_game_length),
typed errors from every public function of cardsim.games.zhao_pengyou, the decomposition table
checked before it is written, and random playouts from random accepted scenarios."""
import importlib.util
import pathlib
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import cardsim
from cardsim import CardsimError, ConfigError
from cardsim.games import zhao_pengyou as zp

from ...policies import play_out as _play_out
from ...policies import policy_action as _policy_action

PASS = 55
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PLAIN = [r + s for s in "SHDC" for r in RANKS]

# Protocol runs: every conformance configuration; the long always-PASS episodes (every window of
# max_redeals + 1 draws) run with a small cap except in the default configuration.
CONFIGS = list(zp.INFO.conformance_configs) + [{"max_redeals": 0}, {"players": 12, "scope": "match", "max_deals": 2}]


def policy_action(st, policy, rng):
    return _policy_action(st, policy, rng, PASS)


def play_out(st, policy, rng, bound):
    return _play_out(st, policy, rng, bound, PASS)


def pack(n):
    row = zp.TABLE[n]
    return PLAIN * row["decks"] + ["BJ"] * row["big"] + ["SJ"] * row["small"]


# ---- 1. the endless-redeal repro: always PASS now ends, within the bound -----------------------
def test_always_pass_voids_the_deal_after_max_redeals():
    g = cardsim.make("zhao_pengyou")
    st = g.new_state(seed=1, deal=0)
    play_out(st, "pass", random.Random(0), zp.max_game_length(g.options))
    v = g.spec.view(st)
    assert v["phase"] == "end" and v["declarer"] is None and v["redeals"] == 10
    assert v["decl_won"] is None and v["winners"] == [] and not st.returns().any()
    res = g.spec.run_batch(1, 0, 1, [0] * 6)
    assert res["returns"].shape == (1, 6)


@pytest.mark.parametrize("cap", [0, 2])
def test_max_redeals_option(cap):
    g = cardsim.make("zhao_pengyou", players=7, max_redeals=cap)
    st = g.new_state(seed=3, deal=1)
    play_out(st, "pass", random.Random(0), zp.max_game_length(g.options))
    assert g.spec.view(st)["redeals"] == cap and not st.returns().any()


def test_a_void_deal_counts_as_a_deal_of_the_match_and_the_redeals_restart():
    g = cardsim.make("zhao_pengyou", scope="match", max_deals=3, max_redeals=1)
    st = g.new_state(seed=2, deal=0)
    # void the first deal, then check the second starts afresh: same starter, everyone active
    starter = g.spec.view(st)["starter"]
    while g.spec.view(st)["deal_no"] == 0:
        st.apply(PASS)
    v = g.spec.view(st)
    assert v["deal_no"] == 1 and v["redeals"] == 0 and v["starter"] == starter and v["active"] == list(range(6))
    assert v["ranks"] == ["2"] * 6 and st.observation(0)[-54 - 3] == 0.0
    play_out(st, "pass", random.Random(0), zp.max_game_length(g.options))
    assert g.spec.view(st)["deal_no"] == 3 and not st.returns().any()


def test_redeals_are_in_the_observation():
    g = cardsim.make("zhao_pengyou", declaration_windows="own_draw_only")
    st = g.new_state(seed=5, deal=0)
    while g.spec.view(st)["redeals"] == 0:
        st.apply(PASS)
    assert st.observation(st.current_player)[-54 - 3] == pytest.approx(0.1)


def test_default_caps_are_never_reached_by_the_agents_and_change_nothing():
    """The default max_redeals (10) leaves every agent deal as it was: identical with a cap nobody
    can reach (1000)."""
    for agents in ([1] * 6, [0] * 6, [1, 0] * 3):
        a = cardsim.make("zhao_pengyou").spec.run_batch(7, 0, 150, agents)
        b = cardsim.make("zhao_pengyou", max_redeals=1000).spec.run_batch(7, 0, 150, agents)
        assert np.array_equal(a["returns"], b["returns"]) and np.array_equal(a["actions"], b["actions"])


# ---- 5. the shared protocol ---------------------------------------------------------------------
def _protocol_game(cfg, policy):
    cfg = dict(cfg)
    if policy == "pass" and cfg != {}:
        cfg.setdefault("max_redeals", 1)          # keeps the always-PASS episodes short
    return cardsim.make("zhao_pengyou", **cfg)


@pytest.mark.parametrize("cfg", CONFIGS, ids=repr)
@pytest.mark.parametrize("policy", ["random", "first", "last", "pass"])
def test_episodes_end_within_max_game_length_and_returns_within_bounds(cfg, policy):
    g = _protocol_game(cfg, policy)
    bound = zp.max_game_length(g.options)
    lo, hi = zp.return_bounds(g.options)
    rng = random.Random(len(repr(cfg)) * 7 + len(policy))
    for deal in range(3 if policy != "pass" and g.options["scope"] == "deal" else 1):
        st = g.new_state(seed=13, deal=deal)
        play_out(st, policy, rng, bound)
        r = st.returns()
        assert lo <= r.min() and r.max() <= hi


@pytest.mark.parametrize("cfg", CONFIGS, ids=repr)
def test_kernel_deals_lie_within_the_bounds(cfg):
    g = cardsim.make("zhao_pengyou", **cfg)
    lo, hi = zp.return_bounds(g.options)
    for agents in ([1, 0] * 6, [0] * 12, [1] * 12):
        res = g.spec.run_batch(3, 0, 25, agents[:g.num_players])
        assert res["returns"].min() >= lo and res["returns"].max() <= hi
        assert res["actions"].max() <= zp.max_game_length(g.options)


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10, 11, 12])
def test_return_bound_is_reached_by_a_lone_declarer_whose_opponents_capture_nothing(players):
    g = cardsim.make("zhao_pengyou", players=players)
    lo, hi = zp.return_bounds(g.options)
    f = zp.TABLE[players]["calls"]
    assert (lo, hi) == (0.0, 2.0 + 2 * f)
    st = zp.scenario(g, [[] for _ in range(players)], finished=True, trump_suit="S", trump_rank="2",
                     declarer=0, last_winner=0)
    assert st.returns().max() == hi and st.returns().min() == lo
    assert zp.return_bounds({"players": players, "scope": "match"}) == (0.0, 12.0)
    assert zp.return_bounds({"players": players, "scope": "match", "max_deals": 1}) == (0.0, min(12.0, hi))


def test_max_game_length_values():
    # 6 players: 102 draws, windows 102 * 6 - 15 = 597; 11 draws; kitty 6, calls 2; play 102 + 17 + 136
    assert zp.max_game_length({}) == 11 * 597 + 6 + 2 + 102 + 17 + 136
    assert zp.max_game_length({"declaration_windows": "own_draw_only", "max_redeals": 0}) == 102 + 6 + 2 + 255
    assert zp.max_game_length({"scope": "match", "max_deals": 4}) == 4 * zp.max_game_length({})


@pytest.mark.parametrize("bad", [None, 3, "x", [("scope", "deal")], {"players": 13}, {"max_redeals": 2.0},
                                 {"max_redeals": -1}, {"max_deals": True}, {"nope": 1},
                                 {"throw_units": "mixed"}])
def test_bounds_refuse_bad_opts(bad):
    for fn in (zp.return_bounds, zp.max_game_length, zp.deal_max_game_points):
        with pytest.raises(ConfigError):
            fn(bad)


def test_match_cap_ends_the_match_with_no_winner():
    g = cardsim.make("zhao_pengyou", scope="match", max_deals=1)
    st = g.new_state(seed=1, deal=0)
    play_out(st, "random", random.Random(4), zp.max_game_length(g.options))
    v = g.spec.view(st)
    assert v["deal_no"] == 1 and v["match_winners"] == []


# ---- 3. the decomposition table: a static C table generated from the Python port, checked first --
def _dectable_tool():
    """tools/gen_zpy_dectable.py (a developer tool of the repository, not part of the package)."""
    root = pathlib.Path(__file__).resolve().parents[3]
    spec = importlib.util.spec_from_file_location("gen_zpy_dectable", root / "tools" / "gen_zpy_dectable.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("bad", [None, 3, {}, {1: [[[1]]]}, {n: [[[1] * 20000]] for n in range(1, 13)},
                                 {n: [[["x"]]] for n in range(1, 13)}, {n: [[[1.5]]] for n in range(1, 13)},
                                 {n: [[[2 ** 40]]] for n in range(1, 13)}, {n: [[[1]] * 100] for n in range(1, 13)},
                                 {n: "abc" for n in range(1, 13)}, {n: [[]] for n in range(1, 13)}])
def test_decomposition_table_refuses_bad_tables_before_writing(bad):
    dec = _dectable_tool()
    with pytest.raises(ValueError):
        dec._flatten(bad)
    dec._flatten(dec.table())                    # the real table is accepted


def test_decomposition_table_is_generated_and_up_to_date():
    dec = _dectable_tool()
    committed = dec.path()                       # the repository's table
    assert committed.read_text() == dec.render(), "run python tools/gen_zpy_dectable.py"
    assert dec.main(["--check"]) == 0
    assert "DEC_NREQ = 1414" in dec.render() and "DEC_NSHAPE = 4292" in dec.render()
    # and the engine plays shengji's rules on it
    g = cardsim.make("zhao_pengyou", variant="shengji")
    assert g.num_actions == 323
    assert zp.lead_units(["AS", "AS", "KS", "KS"], "H", "2", variant="shengji") == [(2, ["KS", "AS"])]
    assert g.spec.run_batch(1, 0, 2, [1] * 6)["actions"].min() > 0


# ---- 2. the oracles: typed errors, never a crash ------------------------------------------------
JUNK = hs.one_of(
    hs.none(), hs.booleans(), hs.integers(min_value=-2 ** 80, max_value=2 ** 80), hs.floats(allow_nan=True),
    hs.text(max_size=10), hs.sampled_from(PLAIN + ["BJ", "SJ", "10", "S", "NT", "A" * 5000]),
    hs.lists(hs.sampled_from(PLAIN + ["BJ", "SJ"]), max_size=30),
    hs.lists(hs.lists(hs.sampled_from(PLAIN[:8]), max_size=6), max_size=14),
    hs.just(["AS"] * 9), hs.just(PLAIN * 5), hs.dictionaries(hs.text(max_size=3), hs.integers(), max_size=2),
)
SUIT = hs.one_of(hs.sampled_from(["S", "H", None]), JUNK)
RANK = hs.one_of(hs.sampled_from(["2", "10", "A", 5]), JUNK)
VARIANT = hs.sampled_from([None, "shengji"])


def _typed_or_ok(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except CardsimError as e:
        assert len(str(e)) < 700, f"{fn.__name__}: error message of {len(str(e))} characters (echoes the input?)"


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(JUNK, JUNK, JUNK, SUIT, RANK, VARIANT)
def test_fuzz_every_oracle(a, b, c, suit, rank, variant):
    _typed_or_ok(zp.lead_format, a, suit, rank, variant)
    _typed_or_ok(zp.lead_units, a, suit, rank, variant)
    _typed_or_ok(zp.legal_follows, a, b, suit, rank, variant)
    _typed_or_ok(zp.is_legal_follow, a, b, c, suit, rank, variant)
    _typed_or_ok(zp.trick_winner, a, suit, rank, variant)
    _typed_or_ok(zp.throw_outcome, a, b, suit, rank, "shengji")
    _typed_or_ok(zp.follow_matches, a, b, suit, rank, "shengji")
    _typed_or_ok(zp.card_order, a, suit, rank)
    _typed_or_ok(zp.return_bounds, a)
    _typed_or_ok(zp.max_game_length, a)
    _typed_or_ok(zp.scenario, a, b)
    _typed_or_ok(zp.lead_format, ["AS"], "S", "2", a)
    try:                              # option values are checked by the shared cardsim.options
        zp.lead_format(["AS"], "S", "2", None, max_redeals=a)
    except CardsimError:
        pass


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(JUNK, JUNK, JUNK, JUNK)
def test_fuzz_scenario_facts_and_play_helpers(a, b, c, d):
    g = cardsim.make("zhao_pengyou")
    _typed_or_ok(zp.scenario, g, a, trump_suit=b, trump_rank=c, declarer=d)
    _typed_or_ok(zp.scenario, g, None, starter=a, ranks=b, active=c, seed=d)
    hands = [PLAIN[3 * q:3 * q + 3] for q in range(6)]
    _typed_or_ok(zp.scenario, g, hands, trump_suit="S", trump_rank="2", calls=a, kitty=b, played=c, captured=d)
    _typed_or_ok(zp.scenario, g, hands, trump_suit="S", trump_rank="2", decl=a, fails=b, leader=c, ranks=d)
    _typed_or_ok(zp.scenario, g, [[]] * 6, trump_suit="S", trump_rank="2", finished=True, last_winner=a)
    st = g.new_state(1, 0)
    before = st.history()
    _typed_or_ok(zp.play_to_actions, st, a)
    _typed_or_ok(zp.play, st, a)
    _typed_or_ok(zp.play, a, ["AS"])
    assert st.history() == before


def test_specific_bad_inputs():
    with pytest.raises(CardsimError):
        zp.trick_winner([["AS"]] * 13, "S", "2")
    with pytest.raises(CardsimError):
        zp.card_order("AS", "S", 2.0)
    with pytest.raises(CardsimError):
        zp.card_order("AS", "S", True)
    with pytest.raises(CardsimError):
        zp.card_order("AS", "S", 2 ** 70)
    with pytest.raises(CardsimError):
        zp.legal_follows(["AS"] * 5, ["KS"], "H", "2")
    with pytest.raises(CardsimError):
        zp.throw_outcome(["AS", "KS"], [["QS"]] * 12, "H", "2", variant="shengji")
    with pytest.raises(ConfigError):
        zp.scenario(None, None)
    with pytest.raises(ConfigError):
        zp.scenario(cardsim.make("joffre_whist"), None)


# ---- 4. scenarios: refuse what no deal reaches where it would be a dead end; random playouts ------
def test_scenario_refuses_a_table_with_no_active_seat():
    g = cardsim.make("zhao_pengyou")
    with pytest.raises(ConfigError, match="active"):
        zp.scenario(g, None, active=[])
    with pytest.raises(ConfigError, match="active"):
        zp.scenario(g, [PLAIN[3 * q:3 * q + 3] for q in range(6)], trump_suit="S", trump_rank="2", active=[])


def _random_play_scenario(g, rng):
    n = g.num_players
    row = zp.TABLE[n]
    cards = pack(n)
    rng.shuffle(cards)
    size = rng.randint(1, row["cards"])
    hands = [cards[size * q:size * q + size] for q in range(n)]
    rest = cards[size * n:]
    tsuit = rng.choice(["S", "H", "D", "C"] + ([None] if g.options["notrump_declaration"] else []))
    trank = rng.choice(RANKS[:-1])
    declarer = rng.randrange(n)
    kitty = rest[:rng.randint(0, row["kitty"])]
    rest = rest[len(kitty):]
    played = [[] for _ in range(n)]
    for k in rest[:rng.randint(0, len(rest))]:
        played[rng.randrange(n)].append(k)
    trumps = {s + trank for s in "SHDC"} if tsuit is None else None
    plain = [k for k in PLAIN if k[-1] != tsuit and k[:-1] != trank]
    calls = []
    for _ in range(rng.randint(0, row["calls"])):
        c = (rng.choice(plain), rng.randint(1, row["decks"]))
        if c not in calls:
            calls.append(c)
    facts = dict(trump_suit=tsuit, trump_rank=trank, declarer=declarer, leader=rng.randrange(n), calls=calls,
                 kitty=kitty, played=played, decl=rng.sample([q for q in range(n) if q != declarer],
                                                             rng.randint(0, min(len(calls), n - 1))),
                 ranks=[rng.choice(RANKS) for _ in range(n)], active=rng.sample(range(n), rng.randint(1, n)))
    if g.options["scope"] != "match":
        facts["fails"] = [rng.randint(0, 2) for _ in range(n)]
    del trumps
    return zp.scenario(g, hands, **facts)


@pytest.mark.parametrize("cfg", CONFIGS, ids=repr)
def test_random_scenarios_play_out_without_dead_states(cfg):
    g = cardsim.make("zhao_pengyou", **dict(cfg, max_redeals=min(cfg.get("max_redeals", 1), 1)))
    bound = zp.max_game_length(g.options)
    lo, hi = zp.return_bounds(g.options)
    rng = random.Random(len(repr(cfg)))
    for i in range(6):
        st = _random_play_scenario(g, rng)
        play_out(st, ("random", "first", "last", "pass")[i % 4], rng, bound)
        if g.options["scope"] == "deal":
            assert lo <= st.returns().min() and st.returns().max() <= hi
    for i in range(2):                              # fresh draws with random ranks, starter, active seats
        n = g.num_players
        st = zp.scenario(g, None, seed=i, deal=3, starter=rng.randrange(n),
                         ranks=[rng.choice(RANKS[:-1]) for _ in range(n)],
                         active=rng.sample(range(n), rng.randint(1, n)))
        play_out(st, ("pass", "random")[i], rng, bound)
