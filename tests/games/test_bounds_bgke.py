"""Episode and return bounds of Basra, Gleek, Karnöffel and Exposure (the shared protocol:
`return_bounds(opts)` and `max_game_length(opts)` in each game module, docs/rules/<game>.md
"Bounds"): random, always-first, always-last and always-PASS policies never exceed the length
bound in any conformance configuration, returns stay within the return bounds, constructed or
random episodes come near the extremes, and the deal caps (Basra B-D26, Exposure D6) end a
match that could otherwise go on forever."""
import numpy as np
import pytest

import cardsim
from cardsim.errors import CardsimError, ConfigError
from cardsim.game import game_module

GAMES = ("basra", "gleek", "karnoffel", "exposure")
# the action a "pass" policy takes whenever it is legal (Gleek PASS, Exposure DONE)
PASS = {"gleek": 44, "exposure": 49}
CONFIGS = [pytest.param(game, cfg, id=f"{game}-{i}")
           for game in GAMES for i, cfg in enumerate(game_module(game).CONFORMANCE_CONFIGS)]


def _policy(name, game):
    if name == "first":
        return lambda la, rng: int(la[0])
    if name == "last":
        return lambda la, rng: int(la[-1])
    if name == "pass":
        p = PASS.get(game)
        return lambda la, rng: p if p is not None and p in la else int(la[0])
    return lambda la, rng: int(la[rng.integers(len(la))])


def _play(g, seed, policy, limit):
    """Play one episode from new_state(seed, 0); returns (actions, returns)."""
    st = g.new_state(seed, 0)
    rng = np.random.default_rng(seed)
    n = 0
    while not st.is_terminal():
        la = st.legal_actions()
        assert len(la), "a live state with no legal action"
        st.apply(policy(la, rng))
        n += 1
        assert n <= limit, f"{n} actions > max_game_length {limit}"
    return n, st.returns()


@pytest.mark.parametrize("game,cfg", CONFIGS)
def test_policies_stay_within_the_bounds(game, cfg):
    g = cardsim.make(game, **cfg)
    mod = game_module(game)
    limit = mod.max_game_length(g.options)
    lo, hi = mod.return_bounds(g.options)
    assert isinstance(limit, int) and limit > 0 and lo < 0 < hi
    match = g.options["scope"] == "match"
    for policy in ("random", "first", "last", "pass"):
        for seed in range(3 if match else 6):
            n, ret = _play(g, seed, _policy(policy, game), limit)
            assert np.all(ret >= lo - 1e-9) and np.all(ret <= hi + 1e-9), (policy, seed, ret, lo, hi)


@pytest.mark.parametrize("game,cfg", CONFIGS)
def test_many_batch_deals_within_the_bounds(game, cfg):
    g = cardsim.make(game, **cfg)
    mod = game_module(game)
    limit = mod.max_game_length(g.options)
    lo, hi = mod.return_bounds(g.options)
    deals = 60 if g.options["scope"] == "match" else 400
    for agents in ("random", "greedy"):
        t = cardsim.simulate(g, deals=deals, seed=23, agents=agents, workers=1).table
        assert t["actions"].max() <= limit
        for p in range(g.num_players):
            r = t[f"return_{p}"]
            assert r.min() >= lo - 1e-9 and r.max() <= hi + 1e-9, (agents, p, r.min(), r.max(), lo, hi)


@pytest.mark.parametrize("game", GAMES)
def test_bounds_take_the_resolved_options_and_refuse_garbage(game):
    mod = game_module(game)
    g = cardsim.make(game)
    assert mod.return_bounds(g.options) == mod.return_bounds(dict(g.options))
    for bad in (None, 3, "deal", [1, 2]):
        with pytest.raises(ConfigError):
            mod.return_bounds(bad)
        with pytest.raises(ConfigError):
            mod.max_game_length(bad)
    with pytest.raises(CardsimError):
        mod.max_game_length({**g.options, "scope": "forever"})


def test_every_basra_preset_and_player_count_has_finite_bounds():
    from cardsim.games import basra

    for variant, sizes in basra.PRESET_HAND_SIZES.items():
        for n in basra.PLAYERS:
            for scope in ("deal", "match"):
                try:
                    g = cardsim.make("basra", variant=variant, players=n, hand_size=sizes[-1], scope=scope)
                except ConfigError:
                    continue                          # deck=44 with 3 players
                lo, hi = basra.return_bounds(g.options)
                L = basra.max_game_length(g.options)
                assert np.isfinite(lo) and np.isfinite(hi) and lo < 0 < hi and L >= 3 * g.spec.deck_size - 8
                if scope == "deal":
                    assert L == 3 * g.spec.deck_size - 8


def test_basra_worked_numbers():
    """Egyptian, 2 players: C = 13 card points, 24 basras of 10 at most, majority 30: a deal's
    returns lie in [-283, 283], 148 actions; a match to 101 needs at most 16 deals; best of 5
    is exact (games won)."""
    from cardsim.games import basra

    g = cardsim.make("basra", players=2)
    assert basra.return_bounds(g.options) == (-283.0, 283.0)
    assert basra.max_game_length(g.options) == 148
    g = cardsim.make("basra", players=2, scope="match")
    assert basra.max_game_length(g.options) == 16 * 148
    g = cardsim.make("basra", players=4, partnership=False, scope="match", match="best_of_5_150")
    assert basra.return_bounds(g.options) == (-7 / 3, 3.0)
    g = cardsim.make("basra", players=2, scope="match", match="best_of_5_150")
    assert basra.return_bounds(g.options) == (-3.0, 3.0)
    # sudden death can tie forever: only the cap bounds the match
    g = cardsim.make("basra", players=2, scope="match", variant="lebanese_b", max_deals=40)
    assert basra.max_game_length(g.options) == 40 * 148


def test_basra_best_of_5_reaches_its_exact_bounds():
    from cardsim.games import basra

    g = cardsim.make("basra", players=2, scope="match", match="best_of_5_150")
    lo, hi = basra.return_bounds(g.options)
    t = cardsim.simulate(g, deals=40, seed=5, agents="random", workers=1).table
    assert t["return_0"].max() == hi and t["return_0"].min() == lo        # 3-0 matches both ways


def test_basra_deal_cap_ends_a_match_that_cannot_end():
    """B-D26: a card table worth nothing, no majority bonus, no sweep bonus: nobody ever scores,
    so only max_deals ends the match, with no winner."""
    from cardsim.games import basra

    g = cardsim.make("basra", players=2, scope="match", card_points={"A": 0}, majority_points=0,
                     sweep_bonus=False, max_deals=3)
    L = basra.max_game_length(g.options)
    assert L == 3 * 148
    n, ret = _play(g, 1, _policy("random", "basra"), L)
    st = g.new_state(1, 0)
    while not st.is_terminal():
        st.apply(int(st.legal_actions()[0]))
    v = g.spec.view(st)
    assert v["deals"] == 3 and v["winner"] is None and list(st.returns()) == [0.0, 0.0]


def test_basra_default_cap_never_changes_a_match():
    """The default cap (5000 deals) is the engine's old safety net, so every result is the same;
    a real match to 101 ends long before it (<= 16 deals for 2 sides)."""
    t = cardsim.simulate("basra", deals=200, seed=7, agents="random", workers=1, players=2, scope="match")
    assert t.table["deals"].max() <= 16


def test_exposure_deal_cap_ends_a_match_that_cannot_end():
    """D6: no points for tricks, melds or the contract: nobody reaches the target, and max_deals
    ends the match; equal scores draw."""
    from cardsim.games import exposure

    g = cardsim.make("exposure", scope="match", points_per_trick=0, contract_bonus=0,
                     meld_points=(0, 0, 0, 0, 0), max_deals=4)
    L = exposure.max_game_length(g.options)
    n, ret = _play(g, 3, _policy("random", "exposure"), L)
    st = g.new_state(3, 0)
    while not st.is_terminal():
        st.apply(int(st.legal_actions()[-1]))
    v = g.spec.view(st)
    assert v["deal_no"] == 4 and v["winner"] is None and list(st.returns()) == [0.0, 0.0]
    # with only the contract bonus the higher score wins at the cap
    g = cardsim.make("exposure", scope="match", points_per_trick=0, target_score=10_000, max_deals=5)
    t = cardsim.simulate(g, deals=50, seed=1, agents="random", workers=1).table
    assert (t["deals"] == 5).all()
    assert ((t["winner"] == -1) == (t["return_0"] == 0)).all()
    assert ((t["winner"] == 0) == (t["return_0"] > 0)).all()


def test_exposure_default_cap_never_changes_a_match():
    from cardsim.games import exposure

    g = cardsim.make("exposure", scope="match")
    assert exposure.max_game_length(g.options) == 6 * 52          # ceil(2 x 49 / 18) + ... = 6 deals
    t = cardsim.simulate(g, deals=300, seed=2, agents="random", workers=1).table
    assert t["deals"].max() <= 6


def test_exposure_worked_numbers():
    """Default: a player makes at most 9 x 2 + 4 melds x 3 + 5 = 35 in a deal; a match to 50
    at most 49 + 35."""
    from cardsim.games import exposure

    assert exposure.return_bounds(cardsim.make("exposure").options) == (-35.0, 35.0)
    assert exposure.return_bounds(cardsim.make("exposure", scope="match").options) == (-84.0, 84.0)
    assert exposure.max_game_length(cardsim.make("exposure").options) == 52
    g = cardsim.make("exposure", variant="pagat")                  # 9 melds, table cards reusable
    assert exposure.return_bounds(g.options) == (-50.0, 50.0)
    assert exposure.max_game_length(g.options) == 18 + 2 * (9 + 27 + 9 + 1)


def test_karnoffel_bounds_are_exact_and_reached():
    from cardsim.games import karnoffel

    for n in (4, 6):
        g = cardsim.make("karnoffel", players=n)
        assert karnoffel.return_bounds(g.options) == (-1.0, 1.0)
        assert karnoffel.max_game_length(g.options) == 5 * n
    g = cardsim.make("karnoffel", players=6, scope="match", match_target=3, stakes="ante", ante=2)
    lo, hi = karnoffel.return_bounds(g.options)
    assert (lo, hi) == (-6.0, 6.0) and karnoffel.max_game_length(g.options) == 5 * 30
    t = cardsim.simulate(g, deals=100, seed=3, agents="random", workers=1).table
    assert t["return_0"].max() == hi and t["return_0"].min() == lo      # 3-0 both ways
    assert t["actions"].max() <= 150


def test_gleek_worked_numbers():
    """Default deal: turn-up 2 x 4, stock ceil(40/2) = 20 in / 40 out, ruff stake 2 x 2^3 = 16
    (won twice over, 32), gleeks 2 x 18 (three mournivals A K Q in 12 cards) in / 20 (every
    rank's mournival) out, tricks T = 36 + 30 = 66: 2T/3 = 44 in, 22 out."""
    from cardsim.games import gleek

    g = cardsim.make("gleek")
    assert gleek.return_bounds(g.options) == (-(4 + 40 + 16 + 20 + 22), 8 + 20 + 32 + 36 + 44)
    assert gleek.max_game_length(g.options) == (40 - 12 + 2) + 7 + (3 + 8) + 36
    g = cardsim.make("gleek", scope="match", num_deals=3, starting_chips=40)
    lo, hi = gleek.return_bounds(g.options)
    assert lo == 1 - 40 + gleek._deal_range(g.options, 2)[0]
    assert hi == 2 * 39 + gleek._deal_range(g.options, 2)[1]


def test_gleek_always_pass_is_a_dead_ruff_every_deal():
    """Always-PASS: eldest's forced 12 buys the stock, every ruff is dead, the base stake grows
    2, 4, 6 ... (D4) and the match still ends after num_deals."""
    from cardsim.games import gleek

    g = cardsim.make("gleek", scope="match", num_deals=5)
    L = gleek.max_game_length(g.options)
    st = g.new_state(4, 0)
    n = 0
    while not st.is_terminal():
        la = st.legal_actions()
        st.apply(44 if 44 in la else int(la[0]))
        n += 1
    v = g.spec.view(st)
    assert n <= L and v["dead"] == 5


def test_basra_constructed_deal_comes_near_the_return_bound():
    """A stacked 2-player deal: seat 0 clears the first floor (10♠ on A 2 3 4♠), then takes every
    card seat 1 trails with one of its rank (a basra each time; a J on the odd ones out): 20
    basras, every card and the majority bonus, 243 of the bound's 283 (24 basras is the most
    the rules allow; 52 cards hold no more than 20 same-rank pairs here)."""
    from cardsim.games import basra

    g = cardsim.make("basra", players=2)
    pairs = [("AH", "AD"), ("2H", "2D"), ("3H", "3D"), ("4H", "4D"), ("5S", "5H"), ("5D", "5C"), ("6S", "6H"),
             ("6D", "6C"), ("7S", "7H"), ("7D", "7C"), ("8S", "8H"), ("8D", "8C"), ("9S", "9H"), ("9D", "9C"),
             ("10H", "10D"), ("QS", "QH"), ("QD", "QC"), ("KS", "KH"), ("KD", "KC"),
             ("AC", "JS"), ("2C", "JH"), ("3C", "JD"), ("4C", "JC")]
    seq0 = ["10S"] + [y for _, y in pairs]                   # seat 0 plays first (dealer 1)
    seq1 = [x for x, _ in pairs] + ["10C"]
    stock = []
    for r in range(1, 6):
        stock += seq0[4 * r:4 * r + 4] + seq1[4 * r:4 * r + 4]
    st = basra.position(g, [seq0[:4], seq1[:4]], ["AS", "2S", "3S", "4S"], stock=stock, dealer=1)
    i = [0, 0]
    while not st.is_terminal():
        p = st.current_player
        st.apply(st.string_to_action((seq0, seq1)[p][i[p]]))
        i[p] += 1
        assert st.phase in ("play", "end")
    v = g.spec.view(st)
    lo, hi = basra.return_bounds(g.options)
    assert v["basras"] == [20, 0] and list(st.returns()) == [243.0, -243.0]
    assert 243 <= hi == 283 and lo == -283


@pytest.mark.parametrize("game", ["gleek", "exposure"])
def test_random_deals_come_near_the_return_bounds(game):
    """The bounds are safe but not absurdly loose: 3000 random deals reach more than 60% of
    them at both ends (measured: Gleek [-78, 90] of [-102, 140]; Exposure [-23, 24] of ±35)."""
    mod = __import__(f"cardsim.games.{game}", fromlist=["x"])
    g = cardsim.make(game)
    lo, hi = mod.return_bounds(g.options)
    t = cardsim.simulate(g, deals=3000, seed=1, agents="random", workers=1).table
    r = np.concatenate([t[f"return_{p}"] for p in range(g.num_players)])
    assert lo <= r.min() <= 0.6 * lo and 0.6 * hi <= r.max() <= hi
