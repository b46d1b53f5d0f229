"""Hearts' episode and return bounds (docs/rules/hearts.md "Bounds"): the worked numbers, pyspiel's
utilities for the openspiel preset, and the extremes reached by constructed deals (score_deal).
The generic checks (every policy within every configuration's bounds) are
tests/test_episode_bounds.py."""
import pytest

import cardsim
from cardsim.games import hearts

H = [r + "H" for r in hearts.RANKS]


def test_hearts_bounds_worked_numbers():
    g = cardsim.make("hearts")
    assert hearts.return_bounds(g.options) == pytest.approx((-74 / 3, 26.0))
    assert hearts.max_game_length(g.options) == 64
    assert hearts.return_bounds(cardsim.make("hearts", variant="openspiel").options) == (0.0, 26.0)
    assert hearts.return_bounds(cardsim.make("hearts", variant="openspiel", jd_bonus=True).options) == (0.0, 36.0)
    assert hearts.max_game_length(cardsim.make("hearts", pass_rotation="hold").options) == 64
    assert hearts.max_game_length(cardsim.make("hearts", players=6).options) == 48 + 18
    m = cardsim.make("hearts", scope="match", max_deals=10).options
    lo, hi = hearts.return_bounds(m)
    assert (lo, hi) == pytest.approx((-740 / 3, 260.0)) and hearts.max_game_length(m) == 640


def _split(points_cards):
    """A full 4-player taken split: point cards per seat, padded with the other cards so every seat
    with cards takes whole tricks."""
    rest = [c for c in hearts.mask_to_cards(hearts.deck_mask(4))
            if not c.endswith("H") and c != "QS" and all(c not in pc for pc in points_cards)]
    out = [list(pc) for pc in points_cards]
    for q in range(4):
        while out[q] and len(out[q]) % 4:
            out[q].append(rest.pop())
    next(o for o in out if o).extend(rest)
    return out


def test_hearts_bound_extremes_are_reached():
    lo, hi = hearts.return_bounds(cardsim.make("hearts").options)
    r = hearts.score_deal(_split([H[:12] + ["QS"], [H[12]], [], []]))
    assert r[0] == pytest.approx(lo)
    r = hearts.score_deal(_split([H + ["QS"], [], [], []]))
    assert r[0] == pytest.approx(hi)
    opts = dict(jd_bonus=True, avoid_all_tricks_bonus=True, moon="subtract")
    lo, hi = hearts.return_bounds(cardsim.make("hearts", **opts).options)
    got = [hearts.score_deal(_split(s), **opts)[0] for s in (
        [H + ["QS", "JD"], [], [], []], [H[:12] + ["QS"], [H[12], "JD"], [], []])]
    assert max(got) == pytest.approx(hi) and min(got) == pytest.approx(lo)
