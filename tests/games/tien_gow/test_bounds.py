"""Tien Gow: the shared protocol's bounds (docs/rules/tien_gow.md "Bounds"): max_game_length
holds for random, greedy, always-first, always-last and always-discard policies in every
configuration of CONFORMANCE_CONFIGS; returns lie within return_bounds, and constructed
positions reach both extremes (default, hk_bonuses, hk_bonuses with shutout_bonus)."""
import numpy as np
import pytest

import cardsim
from cardsim.games import tien_gow as tg


@pytest.mark.parametrize("cfg", tg.INFO.conformance_configs, ids=str)
def test_length_and_return_bounds_hold_in_the_batch_kernel(cfg):
    g = cardsim.make("tien_gow", **cfg)
    limit = tg.max_game_length(g.options)
    lo, hi = tg.return_bounds(g.options)
    n = 40 if cfg.get("scope") == "match" else 500
    for agents in ([0] * 4, [1] * 4, [2] * 4, [1, 0, 1, 0]):
        r = g.spec.run_batch(13, 0, n, agents, max_steps=limit)
        assert r["actions"].max() <= limit
        assert r["returns"].min() >= lo and r["returns"].max() <= hi


@pytest.mark.parametrize("cfg", tg.INFO.conformance_configs, ids=str)
def test_length_bound_for_last_and_discard_policies(cfg):
    g = cardsim.make("tien_gow", **cfg)
    limit = tg.max_game_length(g.options)
    lo, hi = tg.return_bounds(g.options)
    for policy in ("last", "discard"):
        for deal in range(3):
            s = g.new_state(seed=4, deal=deal)
            steps = 0
            while not s.is_terminal():
                la = s.legal_actions().tolist()
                down = [a for a in la if 21 <= a < 42]
                s.apply(la[-1] if policy == "last" else (down or la)[0])
                steps += 1
            assert steps <= limit and all(lo <= x <= hi for x in s.returns())


def test_documented_values():
    b = lambda **o: tg.return_bounds(cardsim.make("tien_gow", **o).options)      # noqa: E731
    assert b() == (-10.0, 30.0)
    assert b(shutout_bonus=True) == (-20.0, 60.0)
    assert b(hk_bonuses=True) == (-54.0, 132.0)
    assert b(hk_bonuses=True, shutout_bonus=True) == (-84.0, 252.0)
    assert b(scope="match", num_deals=3) == (-30.0, 90.0)
    # increasing: the multiplier before deal d is at most 2 + d
    assert b(scope="match", num_deals=3, banker_multiplier="increasing") == (-(10 + 15 + 20), 30 + 45 + 60)
    L = lambda **o: tg.max_game_length(cardsim.make("tien_gow", **o).options)    # noqa: E731
    assert L() == 39 and L(scope="match") == 16 * 39 and L(scope="match", num_deals=3, bankroll=5) == 117


def test_the_length_bound_is_nearly_reached():
    # the banker holds the Heaven and the Earth groups and leads them one tile at a time, each
    # lead that could still grow needing a COMMIT: 6-3, 5-4, 6-6 (each can grow) then 6-6 (alone:
    # commits itself), the same for the Earth group: 32 tile actions + 6 commits = 38 <= 39
    g = cardsim.make("tien_gow")
    banker = ["6-3", "5-4", "6-6", "6-6", "6-2", "5-3", "1-1", "1-1"]
    rest = tg.shuffled_set(3)
    for t in banker:
        rest.remove(t)
    st = tg.scenario(g, [banker, rest[0:8], rest[8:16], rest[16:24]], banker=0)
    steps = 0
    for tile in banker:
        for a in tg.play_to_actions(st, [tile]):
            st.apply(a)
            steps += 1
        for _ in range(3):
            down = [a for a in st.legal_actions().tolist() if 21 <= a < 42]
            st.apply(down[0])
            steps += 1
    assert st.is_terminal() and list(st.returns()) == [30, -10, -10, -10]
    assert steps == 38 and steps <= tg.max_game_length(g.options)


def sweep(g, hands, banker, leads):
    """Scenario with banker 0 leading each play of `leads` in turn; the others discard."""
    st = tg.scenario(g, hands, banker=banker)
    for lead in leads:
        tg.play(st, lead)
        for _ in range(3):
            down = [(up, t) for up, t in tg.legal_plays(st) if not up]
            tg.play(st, down[0][1], face_up=False)
    assert st.is_terminal()
    return list(st.returns())


def test_default_extremes():
    # the banker leads 6-6 6-6, 1-1 1-1, ... and takes all 8 tricks: +30, each other seat -10
    g = cardsim.make("tien_gow")
    banker = ["6-6", "6-6", "1-1", "1-1", "4-4", "4-4", "3-1", "3-1"]
    rest = [t for t in tg.shuffled_set(3)]
    for t in banker:
        rest.remove(t)
    hands = [banker, rest[0:8], rest[8:16], rest[16:24]]
    r = sweep(g, hands, 0, [["6-6", "6-6"], ["1-1", "1-1"], ["4-4", "4-4"], ["3-1", "3-1"]])
    assert r == [30, -10, -10, -10] and (min(r), max(r)) == tg.return_bounds(g.options)


@pytest.mark.parametrize("shutout", [False, True])
def test_hk_extremes(shutout):
    # the banker shows the Supreme and the 5-1 pair (2 chips from each opponent each time), then
    # takes the final trick with the Heaven quad: every due x2 (banker) x4 (quad) [x2 shutout]
    g = cardsim.make("tien_gow", hk_bonuses=True, shutout_bonus=shutout)
    banker = ["4-2", "2-1", "5-1", "5-1", "6-6", "6-6", "6-3", "5-4"]
    rest = tg.shuffled_set(5)
    for t in banker:
        rest.remove(t)
    hands = [banker, rest[0:8], rest[8:16], rest[16:24]]
    r = sweep(g, hands, 0, [["4-2", "2-1"], ["5-1", "5-1"], ["6-6", "6-6", "6-3", "5-4"]])
    S = 2 if shutout else 1
    assert r == [3 * 40 * S + 12] + [-(40 * S + 4)] * 3
    lo, hi = tg.return_bounds(g.options)
    assert max(r) == hi
    if shutout:
        assert min(r) == lo == -84 and hi == 252


def test_hk_catch_extreme():
    # the catch at its worst: the banker (seat 0) shows the 5-1 pair, then lets seat 1 win a
    # single; seat 1 (1 trick) leads the 2-1 in the final trick, seats 2 and 3 (no trick) may not
    # beat (early death), the banker takes it with the 4-2: seat 1 pays double for itself (3) and
    # the two seats without a trick (5 each), all x2 (the winner is the banker), + 2 for the show
    g = cardsim.make("tien_gow", hk_bonuses=True)
    st = tg.scenario(g, [["5-1", "5-1", "5-5", "4-2"], ["3-3", "3-3", "6-6", "2-1"], ["1-1", "1-1", "2-2", "2-2"],
                         ["4-4", "4-4", "6-5", "6-5"]], banker=0, leader=0, tricks=[4, 0, 0, 0])
    tg.play(st, ["5-1", "5-1"])
    tg.play(st, ["3-3", "3-3"], face_up=False)
    tg.play(st, ["1-1", "1-1"], face_up=False)
    tg.play(st, ["4-4", "4-4"], face_up=False)
    tg.play(st, ["5-5"])
    tg.play(st, ["6-6"])                            # seat 1 takes the trick
    tg.play(st, ["2-2"], face_up=False)
    tg.play(st, ["6-5"], face_up=False)
    tg.play(st, ["2-1"])                            # seat 1 leads the final trick
    tg.play(st, ["2-2"], face_up=False)
    tg.play(st, ["6-5"], face_up=False)
    tg.play(st, ["4-2"])                            # the banker's Six catches the Three
    assert st.is_terminal() and st.spec.view(st)["tricks"] == [7, 1, 0, 0]
    r = list(st.returns())
    assert r == [2 * (3 + 5 + 5) * 2 + 6, -(2 * (3 + 5 + 5) * 2 + 2), -2, -2]
    assert min(r) == tg.return_bounds(g.options)[0] == -54
