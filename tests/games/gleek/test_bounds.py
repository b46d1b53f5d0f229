"""Gleek's episode and return bounds (docs/rules/gleek.md "Bounds"): worked numbers, the extremes
reached by constructed or random episodes, and the deal caps. The generic checks (every policy
within every configuration's bounds) are tests/test_episode_bounds.py."""
import numpy as np

import cardsim


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
    assert lo == 1 - 40 + gleek.info._deal_range(g.options, 2)[0]
    assert hi == 2 * 39 + gleek.info._deal_range(g.options, 2)[1]


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


def test_random_deals_come_near_the_return_bounds():
    """The bounds are safe but not absurdly loose: 3000 random deals reach more than 60% of
    them at both ends (measured: Gleek [-78, 90] of [-102, 140]; Exposure [-23, 24] of ±35)."""
    from cardsim.games import gleek as mod

    g = cardsim.make("gleek")
    lo, hi = mod.return_bounds(g.options)
    t = cardsim.simulate(g, deals=3000, seed=1, agents="random", workers=1).table
    r = np.concatenate([t[f"return_{p}"] for p in range(g.num_players)])
    assert lo <= r.min() <= 0.6 * lo and 0.6 * hi <= r.max() <= hi
