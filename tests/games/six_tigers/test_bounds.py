"""Hakka Six Tigers: the shared protocol's bounds (docs/rules/six_tigers.md "Bounds"):
max_game_length holds for random, greedy, always-first, always-last and always-PASS policies in
every configuration of INFO.conformance_configs; returns lie within return_bounds, and constructed
positions reach both extremes of the default table (so the bound is exact, not merely safe).
The old OpenSpiel failure: a return of -258 below a guessed bound of -128."""
import numpy as np
import pytest

import cardsim
from cardsim.games import six_tigers as st6
from cardsim.games.six_tigers import scenario

from . import six_tigers_reference as ref

PASS, CLAIM, CONTINUE = 76, 77, 78
AGENTS = {"random": 0, "greedy": 1, "first": 2}


def rest_of(*groups):
    used = {c for g in groups for c in g}
    return [c for c in ref.DECK if c not in used]


@pytest.mark.parametrize("cfg", st6.INFO.conformance_configs, ids=str)
def test_length_and_return_bounds_hold_in_the_batch_kernel(cfg):
    g = cardsim.make("six_tigers", **cfg)
    limit = st6.max_game_length(g.options)
    lo, hi = st6.return_bounds(g.options)
    P = g.num_players
    for agents in ([0] * P, [1] * P, [2] * P, [1 if p % 2 else 0 for p in range(P)]):
        r = g.spec.run_batch(11, 0, 400, agents, max_steps=limit)      # raises beyond the bound
        assert r["actions"].max() <= limit
        assert r["returns"].min() >= lo and r["returns"].max() <= hi


def play(g, seed, deal, policy, rng):
    s = g.new_state(seed=seed, deal=deal)
    n = 0
    while not s.is_terminal():
        la = s.legal_actions().tolist()
        if policy == "last":
            a = la[-1]
        elif policy == "pass":
            a = PASS if PASS in la else (CONTINUE if CONTINUE in la else la[0])
        else:
            a = la[int(rng.integers(len(la)))]
        s.apply(a)
        n += 1
    return n, s.returns()


@pytest.mark.parametrize("cfg", st6.INFO.conformance_configs, ids=str)
def test_length_bound_for_last_and_pass_policies(cfg):
    g = cardsim.make("six_tigers", **cfg)
    limit = st6.max_game_length(g.options)
    lo, hi = st6.return_bounds(g.options)
    rng = np.random.default_rng(5)
    for policy in ("last", "pass"):
        for deal in range(6):
            n, ret = play(g, 2, deal, policy, rng)
            assert n <= limit and all(lo <= x <= hi for x in ret)


def test_always_pass_reaches_the_redeal_part_of_the_bound():
    g = cardsim.make("six_tigers")
    n, ret = play(g, 3, 0, "pass", None)
    assert n == 3 * 11 and list(ret) == [0, 0, 0, 0]


def test_documented_values():
    assert st6.return_bounds(cardsim.make("six_tigers").options) == (-272.0, 256.0)
    assert st6.return_bounds(cardsim.make("six_tigers", players=3).options) == (-256.0, 256.0)
    assert st6.return_bounds(cardsim.make("six_tigers", scoring="sung").options) == (-68.0, 60.0)
    assert st6.return_bounds(cardsim.make("six_tigers", scope="match").options) == (-4 * 272.0, 4 * 256.0)
    table = (0, 0, 0, 50, 0, 0, 7)                 # t_dream 9 pays 50, more than any winner's t
    assert st6.return_bounds(cardsim.make("six_tigers", point_table=table).options) == (-200.0, 100.0)
    assert st6.max_game_length(cardsim.make("six_tigers").options) == 3 * 10 + 90
    assert st6.max_game_length(cardsim.make("six_tigers", claim_after_last_trick=False).options) == 30 + 87
    assert st6.max_game_length(cardsim.make("six_tigers", auto_claim=True, max_redeals=0).options) == 51
    assert st6.max_game_length(cardsim.make("six_tigers", scope="match", rounds=3).options) == 3 * 120


def test_the_extremes_are_reached():
    # seat 3 claims with a count of 12: 8 tricks + SHI1, XIAN1, CLOUD (fixed old) and GUAN1 (the
    # top of GUAN once GUAN2..9 are played). The dreamer holds SUO1: the claimed old cards hold
    # the other three 1s and CLOUD -> 4 matches, t_dream = 9. Seat 1 declared (special) and loses:
    # it pays 2 x P(12) + 2 x P(9) = 272; seat 3 wins 2 x 128 = 256
    g = cardsim.make("six_tigers")
    win = ["SHI1", "XIAN1", "CLOUD", "GUAN1"]
    guan = [f"GUAN{n}" for n in range(2, 10)]
    others = [c for c in rest_of(win, ["SUO1"], guan)]
    hands = [others[:4], others[4:8], ["SUO1"], win]
    played = [guan + others[8:], [], [], []]
    s = scenario(g, hands, dealer=0, declarer=1, played=played, tricks=[0, 0, 0, 8], leader=3)
    assert s.spec.view(s)["counts"][3] == 12 and s.current_player == 3
    s.apply(CLAIM)
    v = s.spec.view(s)
    assert v["t"] == 12 and v["t_dream"] == 9
    assert list(s.returns()) == [0, -272, 16, 256]
    assert st6.return_bounds(g.options) == (min(s.returns()), max(s.returns()))
