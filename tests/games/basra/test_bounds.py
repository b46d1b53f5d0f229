"""Basra's episode and return bounds (docs/rules/basra.md "Bounds"): worked numbers, the extremes
reached by constructed or random episodes, and the deal caps. The generic checks (every policy
within every configuration's bounds) are tests/test_episode_bounds.py."""
import random

import numpy as np

import cardsim
from cardsim.errors import ConfigError
from tests.policies import play_out


def test_every_basra_preset_and_player_count_has_finite_bounds():
    from cardsim.games import basra

    for variant, sizes in basra.PRESET_HAND_SIZES.items():
        for n in basra.INFO.players:
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
    play_out(g.new_state(1, 0), "random", random.Random(1), L)
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
