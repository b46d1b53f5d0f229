"""Exposure's episode and return bounds (docs/rules/exposure.md "Bounds"): worked numbers, the
extremes reached by constructed or random episodes, and the deal caps. The generic checks (every
policy within every configuration's bounds) are tests/test_episode_bounds.py."""
import random

import numpy as np

import cardsim
from tests.policies import play_out


def test_exposure_deal_cap_ends_a_match_that_cannot_end():
    """D6: no points for tricks, melds or the contract: nobody reaches the target, and max_deals
    ends the match; equal scores draw."""
    from cardsim.games import exposure

    g = cardsim.make("exposure", scope="match", points_per_trick=0, contract_bonus=0,
                     meld_points=(0, 0, 0, 0, 0), max_deals=4)
    L = exposure.max_game_length(g.options)
    play_out(g.new_state(3, 0), "random", random.Random(3), L)
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


def test_random_deals_come_near_the_return_bounds():
    """The bounds are safe but not absurdly loose: 3000 random deals reach more than 60% of
    them at both ends (measured: Gleek [-78, 90] of [-102, 140]; Exposure [-23, 24] of ±35)."""
    from cardsim.games import exposure as mod

    g = cardsim.make("exposure")
    lo, hi = mod.return_bounds(g.options)
    t = cardsim.simulate(g, deals=3000, seed=1, agents="random", workers=1).table
    r = np.concatenate([t[f"return_{p}"] for p in range(g.num_players)])
    assert lo <= r.min() <= 0.6 * lo and 0.6 * hi <= r.max() <= hi
