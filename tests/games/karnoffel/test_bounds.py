"""Karnöffel's episode and return bounds (docs/rules/karnoffel.md "Bounds"): worked numbers, the
extremes reached by constructed or random episodes, and the deal caps. The generic checks (every
policy within every configuration's bounds) are tests/test_episode_bounds.py."""
import cardsim


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
