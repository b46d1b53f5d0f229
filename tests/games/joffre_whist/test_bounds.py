"""Joffre Whist, issue 23: endless throw-ins capped (max_redeals, D14), the episode and return
bounds of the shared protocol (return_bounds, max_game_length), typed errors from every public
function of cardsim.games.joffre_whist, and random playouts from random accepted scenarios."""
import random

import numpy as np
import pytest
from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as hs

import cardsim
from cardsim import CardsimError, ConfigError
from cardsim.games import joffre_whist as jw

from ...policies import play_out as _play_out
from ...policies import policy_action as _policy_action

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in "SHDC" for r in RANKS]
PASS = 52

# the module's conformance configurations plus the cap's corners
CONFIGS = list(jw.INFO.conformance_configs) + [
    {"max_redeals": 0},
    {"scope": "match", "num_deals": 3, "max_redeals": 1, "failed_jta_double": False,
     "slam_value": "row_plus_bonus", "ta_length_rule": "any_suit"},
]


def policy_action(st, policy, rng):
    return _policy_action(st, policy, rng, PASS)


def play_out(st, policy, rng, bound):
    return _play_out(st, policy, rng, bound, PASS)


# ---- 1. the endless-redeal repro: always PASS now ends, within the bound -----------------------
def test_always_pass_passes_the_deal_out_after_max_redeals():
    g = cardsim.make("joffre_whist")
    st = g.new_state(seed=1, deal=0)
    n = play_out(st, "pass", random.Random(0), jw.max_game_length(g.options))
    assert n == 4 * (10 + 1)                      # 10 throw-ins, then the deal is passed out (D14)
    assert st.returns().tolist() == [0.0, 0.0, 0.0, 0.0]
    v = g.spec.view(st)
    assert v["phase"] == "end" and v["declarer"] is None and v["throw_ins"] == 10 and v["redeals"] == 10
    assert v["made"] is None and v["deal_points"] == [0, 0]


@pytest.mark.parametrize("cap", [0, 1, 3])
def test_max_redeals_option(cap):
    g = cardsim.make("joffre_whist", max_redeals=cap)
    st = g.new_state(seed=4, deal=2)
    assert play_out(st, "pass", random.Random(0), jw.max_game_length(g.options)) == 4 * (cap + 1)
    assert st.is_terminal() and not st.returns().any()


def test_a_passed_out_deal_counts_as_a_deal_of_the_match():
    g = cardsim.make("joffre_whist", scope="match", num_deals=3, max_redeals=2)
    st = g.new_state(seed=2, deal=0)
    assert play_out(st, "pass", random.Random(0), jw.max_game_length(g.options)) == 3 * 4 * 3
    assert g.spec.view(st)["deal_no"] == 3 and g.spec.view(st)["throw_ins"] == 6
    assert not st.returns().any()


def test_the_deal_after_a_pass_out_starts_with_no_throw_ins_and_the_observation_shows_them():
    g = cardsim.make("joffre_whist", scope="match", num_deals=2, max_redeals=1)
    st = g.new_state(seed=3, deal=0)
    for _ in range(4):
        st.apply(PASS)                            # one throw-in
    assert g.spec.view(st)["redeals"] == 1
    assert st.observation(0)[-1] == pytest.approx(0.1) and st.observation(0)[-2] == pytest.approx(0.1)
    for _ in range(4):
        st.apply(PASS)                            # passed out: the next deal of the match
    v = g.spec.view(st)
    assert v["phase"] == "auction" and v["deal_no"] == 1 and v["redeals"] == 0 and v["throw_ins"] == 1
    assert st.observation(1)[-1] == 0.0 and st.observation(1)[-2] == pytest.approx(0.1)
    assert len(st.observation(0)) == g.observation_size


def test_dealer_bids_never_throws_in():
    g = cardsim.make("joffre_whist", all_pass="dealer_bids")
    st = g.new_state(seed=5, deal=1)
    play_out(st, "pass", random.Random(1), jw.max_game_length(g.options))
    assert g.spec.view(st)["declarer"] is not None


def test_default_cap_is_never_reached_by_the_agents_and_changes_nothing():
    """The default (10) leaves every agent deal as it was: the greedy and random agents' deals are
    identical with a cap nobody can reach (1000), and no deal comes near 10 throw-ins."""
    for agents in ([1, 1, 1, 1], [0, 0, 0, 0], [1, 0, 1, 0]):
        a = cardsim.make("joffre_whist").spec.run_batch(7, 0, 1500, agents)
        b = cardsim.make("joffre_whist", max_redeals=1000).spec.run_batch(7, 0, 1500, agents)
        assert np.array_equal(a["returns"], b["returns"]) and np.array_equal(a["actions"], b["actions"])
        assert a["metrics"][:, list(cardsim.make("joffre_whist").metric_names).index("throw_ins")].max() < 5


# ---- 5. the shared protocol ---------------------------------------------------------------------
@pytest.mark.parametrize("cfg", CONFIGS, ids=repr)
@pytest.mark.parametrize("policy", ["random", "first", "last", "pass"])
def test_episodes_end_within_max_game_length_and_returns_within_bounds(cfg, policy):
    g = cardsim.make("joffre_whist", **cfg)
    bound = jw.max_game_length(g.options)
    lo, hi = jw.return_bounds(g.options)
    rng = random.Random(len(repr(cfg)) * 7 + len(policy))
    for deal in range(4 if cfg.get("scope") != "match" else 1):
        st = g.new_state(seed=11, deal=deal)
        play_out(st, policy, rng, bound)
        r = st.returns()
        assert lo <= r.min() and r.max() <= hi


@pytest.mark.parametrize("cfg", CONFIGS, ids=repr)
def test_kernel_deals_lie_within_the_bounds(cfg):
    g = cardsim.make("joffre_whist", **cfg)
    lo, hi = jw.return_bounds(g.options)
    for agents in ([1, 0, 1, 0], [0, 0, 0, 0], [1, 1, 1, 1]):
        res = g.spec.run_batch(3, 0, 300 if cfg.get("scope") != "match" else 60, agents)
        assert res["returns"].min() >= lo and res["returns"].max() <= hi
        assert res["actions"].max() <= jw.max_game_length(g.options)


def test_return_bound_is_reached():
    """A doubled 7JTA made with all 13 tricks, one player holding both Joffre cards: 28 x 20 + 50
    (JTA Joffre) + 2 (honours) + 8 (royal) = 620, the default bound; the other team 0."""
    assert jw.return_bounds({}) == (-620.0, 620.0)
    assert jw.score_deal("7JTA-H", 0, [DECK, [], [], []], doubled=True) == (620, 0, True)
    # a failed doubled 7JTA lost by all 13 tricks gives the defenders the same
    assert jw.score_deal("7JTA-H", 1, [DECK, [], [], []], doubled=True) == (620, 0, False)
    assert jw.deal_max_points({"failed_jta_double": False}) == 2 * 7 * 20 * 2 + 60
    opts = cardsim.make("joffre_whist", slam_value="row_plus_bonus", slam_bonus=500, honours_mode="per_card").options
    hi = jw.return_bounds(opts)[1]
    ns, ew, made = jw.score_deal("7JTA-S", 2, [[], [], DECK, []], doubled=True, slam_value="row_plus_bonus",
                                 slam_bonus=500, honours_mode="per_card")
    assert made and ns == hi == 2 * (140 + 500) + 50 + 8 + 8 and ew == 0
    assert jw.return_bounds({"scope": "match", "num_deals": 3}) == (-1860.0, 1860.0)


def test_max_game_length_values():
    assert jw.max_game_length({}) == 4 * 10 + 56 + 52
    assert jw.max_game_length({"all_pass": "dealer_bids"}) == 108
    assert jw.max_game_length({"scope": "match", "num_deals": 8, "max_redeals": 2}) == 8 * (8 + 108)


def test_longest_auction_is_reached():
    """49 rising bid ranks, 4 doubles, 3 passes: the auction bound of 56 is exact."""
    g = cardsim.make("joffre_whist", ta_length_rule="any_suit")
    st = g.new_state(seed=1, deal=0)
    n = 0
    doubled = set()
    while g.spec.view(st)["phase"] == "auction":
        legal = set(int(a) for a in st.legal_actions())
        p = st.current_player
        if 53 in legal and p not in doubled:
            a = 53
            doubled.add(p)
        else:
            bids = sorted(a for a in legal if a >= 54)
            a = bids[0] if bids else PASS                        # the next bid rank, while any
        st.apply(a)
        n += 1
    assert n == jw.AUCTION_MAX == 56


@pytest.mark.parametrize("bad", [3, "x", [("scope", "deal")], {"scope": "deals"}, {"max_redeals": 2.0},
                                 {"max_redeals": -1}, {"num_deals": True}, {"nope": 1}])
def test_bounds_refuse_bad_opts(bad):
    for fn in (jw.return_bounds, jw.max_game_length):
        with pytest.raises(ConfigError):
            fn(bad)


def test_bounds_of_no_options_are_the_defaults():
    """INFO.return_bounds / max_game_length resolve None as {} (cardsim.info.GameInfo.resolve)."""
    assert jw.return_bounds(None) == jw.return_bounds({}) == (-620.0, 620.0)
    assert jw.max_game_length(None) == jw.max_game_length({})


# ---- 2. the oracles: typed errors, never a crash ------------------------------------------------
def test_score_deal_refuses_a_duplicated_and_a_missing_card():
    won = [DECK[:12], DECK[12:24], DECK[24:40], DECK[40:]]
    assert jw.score_deal("1NT", 0, won)[2] in (True, False)
    dup = [DECK[:12], DECK[12:24], DECK[24:40], DECK[40:51] + ["AS"]]      # AC missing, AS twice
    with pytest.raises(ConfigError, match="also in an earlier won list"):
        jw.score_deal("1NT", 0, dup)
    with pytest.raises(ConfigError, match="missing"):
        jw.score_deal("1NT", 0, [DECK[:12], DECK[12:24], DECK[24:40], DECK[40:48]])
    with pytest.raises(CardsimError, match="twice"):
        jw.score_deal("1NT", 0, [DECK[:11] + ["2S"], DECK[12:24], DECK[24:40], DECK[40:]])


@pytest.mark.parametrize("declarer", [1.0, True, False, np.float64(1), 2 ** 70, -1, 4, "1", None, np.bool_(True)])
def test_score_deal_refuses_non_seat_declarers(declarer):
    won = [DECK[:12], DECK[12:24], DECK[24:40], DECK[40:]]
    with pytest.raises(ConfigError, match="declarer"):
        jw.score_deal("1NT", declarer, won)
    assert jw.score_deal("1NT", np.int64(1), won) == jw.score_deal("1NT", 1, won)


@pytest.mark.parametrize("doubled", [1.0, 1, "yes", None, [True]])
def test_score_deal_refuses_non_bool_doubled(doubled):
    won = [DECK[:12], DECK[12:24], DECK[24:40], DECK[40:]]
    with pytest.raises(ConfigError, match="doubled"):
        jw.score_deal("1NT", 0, won, doubled=doubled)


def test_oracles_refuse_duplicates_oversize_and_cards_on_the_table():
    with pytest.raises(CardsimError):
        jw.trick_winner(["AS", "AS"], "S")
    with pytest.raises(CardsimError):
        jw.trick_winner(["AS", "KS", "QS", "JS", "10S"], None)
    with pytest.raises(CardsimError):
        jw.legal_follows(DECK[:14], None, None)
    with pytest.raises(CardsimError):
        jw.legal_follows(["AS", "AS"], "KH", "S")
    with pytest.raises(CardsimError):
        jw.legal_follows(["AS", "KH"], "KH", "S")
    with pytest.raises(CardsimError):
        jw.trick_winner(["AS"], "X" * 10_000)
    assert jw.legal_follows(["AS", "2H"], "KH", "S") == ["2H"]


JUNK = hs.one_of(
    hs.none(), hs.booleans(), hs.integers(min_value=-2 ** 80, max_value=2 ** 80), hs.floats(allow_nan=True),
    hs.text(max_size=12), hs.sampled_from(DECK + ["BJ", "10", "S", "NT", "7JTA-S", "A" * 5000]),
    hs.lists(hs.sampled_from(DECK), max_size=60), hs.lists(hs.lists(hs.sampled_from(DECK), max_size=20), max_size=6),
    hs.just(DECK * 2), hs.dictionaries(hs.text(max_size=3), hs.integers(), max_size=2),
)


def _typed_or_ok(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except CardsimError as e:
        assert len(str(e)) < 700, f"{fn.__name__}: error message of {len(str(e))} characters (echoes the input?)"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(hs.tuples(JUNK, JUNK, JUNK, JUNK))
def test_fuzz_every_oracle(args):
    a, b, c, d = args
    _typed_or_ok(jw.trick_winner, a, b)
    _typed_or_ok(jw.legal_follows, a, b, c)
    _typed_or_ok(jw.score_deal, a, b, c, d)
    _typed_or_ok(jw.score_deal, "2D", b, c)
    _typed_or_ok(jw.score_deal, "2D", 0, [DECK[:12], DECK[12:24], DECK[24:40], a])
    _typed_or_ok(jw.return_bounds, a)
    _typed_or_ok(jw.max_game_length, a)
    _typed_or_ok(jw.deal_max_points, a)
    _typed_or_ok(jw.scenario, a, b, c)
    _typed_or_ok(jw.scenario, cardsim.make("joffre_whist"), a, b)


def test_scenario_refuses_another_game_and_bad_dealers():
    hands = [DECK[:13], DECK[13:26], DECK[26:39], DECK[39:]]
    for game in (None, cardsim.make("karnoffel"), "joffre_whist"):
        with pytest.raises(ConfigError):
            jw.scenario(game, hands)
    for dealer in (1.0, True, 2 ** 70, -1, 4, None):
        with pytest.raises(ConfigError):
            jw.scenario(cardsim.make("joffre_whist"), hands, dealer=dealer)


# ---- 4. random playouts from random accepted scenarios: no dead state, no endless game ------------
@pytest.mark.parametrize("cfg", CONFIGS, ids=repr)
def test_random_scenarios_play_out_without_dead_states(cfg):
    g = cardsim.make("joffre_whist", **cfg)
    bound = jw.max_game_length(g.options)
    rng = random.Random(23)
    for i in range(12):
        cards = DECK[:]
        rng.shuffle(cards)
        st = jw.scenario(g, [cards[13 * q:13 * q + 13] for q in range(4)], dealer=rng.randrange(4))
        play_out(st, ("random", "first", "last", "pass")[i % 4], rng, bound)
        r = st.returns()
        lo, hi = jw.return_bounds(g.options)
        assert lo <= r.min() and r.max() <= hi
