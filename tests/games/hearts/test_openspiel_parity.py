"""Hearts against OpenSpiel's `hearts` on the same deals (issue 25): random pyspiel games — the
pass direction and the deal drawn in pyspiel, the same deal built in cardsim with
hearts.scenario(hands, dealer=3, pass_dir=...), every pass and play replayed — must agree on the
seat to act and the legal set at every decision and on the final returns. 2,000 games with the
default parameters (the `openspiel` preset), then 150 per non-default parameter set. A quarter
of the games use a policy that makes one seat take tricks (highest card), so that moons occur.
Skips where pyspiel is absent (it is in the [test] extra)."""
import numpy as np
import pytest

import cardsim
from cardsim.games import hearts as ht

pyspiel = pytest.importorskip("pyspiel")

DIRS = ("hold", "left", "across", "right")       # OpenSpiel's pass direction actions 0..3
# OpenSpiel parameter -> cardsim option (value map)
PARAM = {
    "pass_cards": ("pass_rotation", {True: "random", False: "hold"}),
    "no_pts_on_first_trick": ("no_points_first_trick", None),
    "can_lead_any_club": ("first_lead", {True: "any_club", False: "two_clubs"}),
    "jd_bonus": ("jd_bonus", None),
    "avoid_all_tricks_bonus": ("avoid_all_tricks_bonus", None),
    "must_break_hearts": ("must_break_hearts", None),
    "qs_breaks_hearts": ("queen_breaks_hearts", None),
    "can_lead_hearts_instead_of_qs": ("lead_hearts_over_queen", None),
}


def ours(c: int) -> int:
    """OpenSpiel card id (rank * 4 + suit, suits C D H S) -> cardsim's (suit * 13 + rank, S H D C)."""
    return (3 - c % 4) * 13 + c // 4


def options_of(params: dict) -> dict:
    out = {}
    for k, v in params.items():
        name, vmap = PARAM[k]
        out[name] = vmap[v] if vmap else v
    return out


def replay(os_game, game, rng, greedy_seat=None):
    """One pyspiel game replayed in cardsim; returns (pyspiel returns, cardsim returns)."""
    s = os_game.new_initial_state()
    dirs = s.legal_actions()
    pd = int(dirs[rng.integers(len(dirs))])
    s.apply_action(pd)
    hands = [[] for _ in range(4)]
    for i, c in enumerate(rng.permutation(52)):
        s.apply_action(int(c))
        hands[i % 4].append(ht.card_str(ours(int(c))))
    st = game.spec.scenario(hands, dealer=3, pass_dir=DIRS[pd])
    while not s.is_terminal():
        p = s.current_player()
        assert st.current_player == p
        la = s.legal_actions()
        assert sorted(ours(a) for a in la) == sorted(int(a) for a in st.legal_actions()), \
            (s.history(), sorted(ours(a) for a in la), st.legal_actions().tolist())
        if greedy_seat is not None and st.phase == "play":
            key = (lambda a: a // 4) if p == greedy_seat else (lambda a: -(a // 4))
            a = max(la, key=key)
        else:
            a = int(la[rng.integers(len(la))])
        s.apply_action(a)
        st.apply(ours(a))
    assert st.is_terminal()
    return list(s.returns()), st.returns().tolist()


def run(params, games, seed):
    os_game = pyspiel.load_game("hearts", params)
    game = cardsim.make("hearts", variant="openspiel", **options_of(params))
    rng = np.random.default_rng(seed)
    moons = 0
    for i in range(games):
        r_os, r_cs = replay(os_game, game, rng, greedy_seat=int(rng.integers(4)) if i % 4 == 3 else None)
        assert r_cs == r_os, (params, i, r_os, r_cs)
        moons += max(r_os) >= 26 and sorted(r_os)[-2] <= 10
    return moons


def test_openspiel_preset_is_pyspiels_default_hearts():
    g = pyspiel.load_game("hearts")
    params = {k: v for k, v in g.get_parameters().items()}
    assert set(params) == set(PARAM)
    preset = cardsim.make("hearts", variant="openspiel").options
    for k, v in options_of(params).items():
        assert preset[k] == v, k
    assert preset["returns"] == "openspiel" and preset["moon"] == "add"
    lo, hi = ht.return_bounds(preset)
    assert (lo, hi) == (0.0, 26.0) and g.min_utility() <= lo and hi <= g.max_utility()   # ours exact
    assert ht.max_game_length(preset) == g.max_game_length()
    assert ht.return_bounds(dict(preset, jd_bonus=True)) == (
        pyspiel.load_game("hearts", {"jd_bonus": True}).min_utility(),
        pyspiel.load_game("hearts", {"jd_bonus": True}).max_utility())


def test_two_thousand_default_games_agree():
    assert run({}, 2000, seed=25) > 0, "no moon was shot: the moon scoring went untested"


@pytest.mark.parametrize("params", [
    {"can_lead_any_club": True},
    {"jd_bonus": True},
    {"avoid_all_tricks_bonus": True},
    {"must_break_hearts": False},
    {"qs_breaks_hearts": False},
    {"can_lead_hearts_instead_of_qs": True},
    {"no_pts_on_first_trick": False},
    {"pass_cards": False},
    {"jd_bonus": True, "avoid_all_tricks_bonus": True, "can_lead_any_club": True,
     "can_lead_hearts_instead_of_qs": True, "qs_breaks_hearts": False},
], ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_non_default_parameters_agree(params):
    run(params, 150, seed=len(params) + sum(map(len, params)))
