"""Hakka Six Tigers, the engine decisions X16-X18 of docs/rules/six_tigers.md, as worked examples
with card strings: the claim window after the last trick (X16, option claim_after_last_trick), the
cap on void redeals (X17, option max_redeals) and the positions a scenario refuses (X18)."""
import numpy as np
import pytest

import cardsim
from cardsim import ConfigError
from cardsim.games.six_tigers import play, scenario

from . import six_tigers_reference as ref

DECLARE, PASS, CLAIM, CONTINUE = 75, 76, 77, 78


def view(s):
    return s.spec.view(s)


def rest_of(*groups):
    used = {c for g in groups for c in g}
    return [c for c in ref.DECK if c not in used]


# ---- X16: "after every trick" includes the last one ----------------------------------------------
def tie_position(**opts):
    """X-16 worked example: seat 1 has had 6 tricks since before this position, seat 0 has 5 and
    leads SHI9, the last card: seat 0 reaches 6 with the last trick (6 and 6)."""
    g = cardsim.make("six_tigers", **opts)
    hands = [["SHI9"], ["GUAN2"], ["SUO5"], ["XIAN2"]]
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []], tricks=[5, 6, 0, 0])
    while s.phase == "claim":                       # the window before the lead: everybody plays on
        s.apply(CONTINUE)
    play(s, ["SHI9"])
    play(s, ["GUAN2"], face_down=True)
    play(s, ["XIAN2"], face_down=True)
    return s


def test_x16_the_last_tricks_winner_is_asked_first_and_wins_the_tie():
    s = tie_position()
    v = view(s)
    assert v["tricks"] == [6, 6, 0, 0] and s.phase == "claim" and s.current_player == 0
    assert set(s.legal_actions().tolist()) == {CLAIM, CONTINUE}
    s.apply(CLAIM)
    v = view(s)
    assert s.is_terminal() and v["winner"] == 0 and v["claimed"] and v["t"] == 6
    assert list(s.returns()) == [2, -1, 0, -1]


def test_x16_if_the_last_tricks_winner_plays_on_the_other_may_claim():
    s = tie_position()
    s.apply(CONTINUE)
    assert s.phase == "claim" and s.current_player == 1      # seat 3 (no trick) is never asked
    s.apply(CLAIM)
    assert view(s)["winner"] == 1 and list(s.returns()) == [-1, 2, 0, -1]


def test_x16_nobody_claims_then_x11_first_to_six():
    s = tie_position()
    s.apply(CONTINUE)
    s.apply(CONTINUE)
    v = view(s)
    assert s.is_terminal() and not v["claimed"] and v["winner"] == 1
    assert list(s.returns()) == [-1, 2, 0, -1]


def test_x16_option_off_x11_settles_at_once():
    s = tie_position(claim_after_last_trick=False)
    v = view(s)
    assert s.is_terminal() and not v["claimed"] and v["winner"] == 1
    assert list(s.returns()) == [-1, 2, 0, -1]


@pytest.mark.parametrize("last", [True, False])
def test_x16_auto_claim_in_the_window_after_the_last_trick(last):
    # auto_claim: nobody can sit on 6 (he would have claimed), so the window after the last trick
    # changes no winner, only how the round ends: a claim (X16) or X11
    g = cardsim.make("six_tigers", auto_claim=True, claim_after_last_trick=last)
    hands = [["SUO2"], ["GUAN2"], ["SUO9"], ["GUAN3"]]       # SUO9 stays unplayed: SUO2 is not old
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []], tricks=[5, 4, 0, 2])
    assert view(s)["counts"] == [5, 4, 1, 3] and s.phase == "play"
    play(s, ["SUO2"])
    play(s, ["GUAN2"], face_down=True)
    play(s, ["GUAN3"], face_down=True)
    v = view(s)
    assert s.is_terminal() and v["claimed"] == last and v["winner"] == 0 and v["t"] == 6
    assert list(s.returns()) == [2, -1, 0, -1]


def test_x16_window_asks_only_players_with_six_tricks():
    # after the last trick nobody holds a card: the window asks exactly the players with >= 6
    g = cardsim.make("six_tigers")
    for seed in range(20):
        s = g.new_state(seed=seed, deal=0)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            v = view(s)
            if s.phase == "claim" and v["ntricks"] > 0 and not any(view(s)["staged"]) and all(
                    len(s.spec.hand_strings(s, q)) == 0 for q in v["order"]):
                assert v["tricks"][s.current_player] >= 6
            la = s.legal_actions()
            a = CONTINUE if CONTINUE in la.tolist() else int(la[rng.integers(len(la))])
            s.apply(a)


# ---- X17: a cap on void redeals ------------------------------------------------------------------------
def always_pass(s):
    n = 0
    while not s.is_terminal():
        la = s.legal_actions().tolist()
        s.apply(PASS if PASS in la else la[0])
        n += 1
    return n


@pytest.mark.parametrize("cap", [0, 1, 10])
def test_x17_always_pass_ends_the_round_with_no_winner(cap):
    g = cardsim.make("six_tigers", max_redeals=cap)
    for deal in range(5):
        s = g.new_state(seed=4, deal=deal)
        n = always_pass(s)
        v = view(s)
        if v["five_tigers"]:
            continue
        assert n == 3 * (cap + 1) and v["voids"] == cap and v["winner"] is None and v["round_no"] == 1
        assert list(s.returns()) == [0, 0, 0, 0]


def test_x17_abandoned_rounds_count_in_a_match_and_rotate_the_deal():
    g = cardsim.make("six_tigers", scope="match", rounds=3, max_redeals=2)
    for deal in range(4):
        s = g.new_state(seed=5, deal=deal)
        dealers = []
        while not s.is_terminal():
            v = view(s)
            if v["phase"] == "declare" and v["turn"] == v["dealer"]:
                dealers.append(v["dealer"])
            la = s.legal_actions().tolist()
            s.apply(PASS if PASS in la else la[0])
        v = view(s)
        if v["five_tigers"] or len(dealers) != 9:
            continue                       # a Five Tigers hand won a round on the spot
        assert v["round_no"] == 3 and v["voids"] == 6 and list(s.returns()) == [0, 0, 0, 0]
        # every void deal passes the deal to next(D), the abandoned ones too (§4.1, X5)
        assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:]))
        return
    pytest.fail("every deal had a Five Tigers hand")


def test_x17_default_and_validation():
    g = cardsim.make("six_tigers")
    assert g.options["max_redeals"] == 10 and g.options["claim_after_last_trick"] is True
    for bad in (-1, 1001, 2.0, True, "3", None):
        with pytest.raises(ConfigError):
            cardsim.make("six_tigers", max_redeals=bad)
    with pytest.raises(ConfigError):
        cardsim.make("six_tigers", claim_after_last_trick=1)


# ---- X18: scenarios refuse what no deal reaches where it could break the round ------------------
HANDS2 = [["SHI2", "SHI3"], ["GUAN9", "CLOUD"], ["GUAN7"], ["SUO2", "SUO3"]]


@pytest.mark.parametrize("kw", [
    dict(tricks=[11, 0, 0, 0]),            # more than 12 - n for one seat: a count above 12
    dict(tricks=[6, 5, 0, 0]),             # more tricks than cards played (10 each)
    dict(tricks=[2, 4, 1, 0]),             # the dreamer never has tricks
    dict(tricks=[2.0, 4, 0, 0]),
    dict(tricks="2400"),
    dict(declarer=None),                   # cards played before the declaration
    dict(declarer=-1, leader=1),           # a leader without a declarer
    dict(leader=2),                        # the dreamer never leads
])
def test_x18_refused_positions(kw):
    g = cardsim.make("six_tigers")
    args = dict(dealer=0, declarer=0, played=[rest_of(*HANDS2), [], [], []], tricks=[2, 4, 0, 0], leader=1)
    args.update(kw)
    with pytest.raises(ConfigError):
        scenario(g, HANDS2, **args)


def test_x18_accepted_position_counts_never_exceed_12():
    g = cardsim.make("six_tigers")
    s = scenario(g, HANDS2, dealer=0, declarer=0, played=[rest_of(*HANDS2), [], [], []], tricks=[0, 10, 0, 0],
                 leader=1)
    assert view(s)["counts"][1] == 12
    s.apply(CLAIM)
    assert view(s)["t"] == 12 and list(s.returns()) == [-128, 256, 0, -128]
