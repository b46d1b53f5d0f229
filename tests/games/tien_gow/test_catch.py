"""Tien Gow hk_bonuses catch (docs/rules/tien_gow.md §6, T10, T13, worked examples G-17, G-18): a
final single trick led with the 2-1 and won by the 4-2 is a catch whoever beat the 2-1 in between;
a later beat of the 4-2 lifts it. Written with tile strings through tien_gow.scenario / play."""
import pytest

import cardsim
from cardsim.games import tien_gow as tg

HK = dict(hk_bonuses=True)


def final_trick(hands, plays, banker, tricks, **opts):
    """Scenario with one tile per hand (seat 0 leads), then the plays (tile, face_up) in turn."""
    g = cardsim.make("tien_gow", **{**HK, **opts})
    st = tg.scenario(g, hands, banker=banker, leader=0, tricks=tricks)
    for tile, up in plays:
        tg.play(st, [tile], face_up=up)
    assert st.is_terminal()
    return st


def test_g17_catch_after_a_third_players_beat():
    # 2-1 led, 4-1 beats it, 4-2 beats the 4-1, 4-4 discarded: the 4-2 wins the trick the 2-1 led
    g = cardsim.make("tien_gow", **HK)
    st = tg.scenario(g, [["2-1"], ["4-1"], ["4-2"], ["4-4"]], banker=3, leader=0, tricks=[4, 1, 1, 1])
    acts = [20, 18, 17, 23]
    assert [st.action_to_string(a) for a in acts] == ["up 2-1", "up 4-1", "up 4-2", "down 4-4"]
    for a in acts:
        st.apply(a)
    v = g.spec.view(st)
    assert v["tricks"] == [4, 1, 2, 1] and v["deal_winner"] == 2
    # dues 0, 3 and 3 x 2 (banker), doubled and all paid by the caught leader
    assert list(st.returns()) == [-18, 0, 18, 0]


def test_g17_without_hk_each_loser_pays_his_own_due():
    st = final_trick([["2-1"], ["4-1"], ["4-2"], ["4-4"]], [("2-1", True), ("4-1", True), ("4-2", True),
                                                             ("4-4", False)], 3, [4, 1, 1, 1], hk_bonuses=False)
    assert list(st.returns()) == [0, -3, 9, -6]


def test_g18_seeded_deal():
    g = cardsim.make("tien_gow", **HK)
    st = g.new_state(seed=6807, deal=0)
    hist = [2, 42, 0, 29, 36, 4, 3, 1, 26, 3, 1, 31, 25, 16, 42, 11, 26, 33, 9, 0, 27, 29, 7, 28, 2, 34, 10, 40,
            35, 30, 20, 18, 17, 27]
    for a in hist:
        st.apply(a)
    assert st.is_terminal()
    last = g.spec.view(st)["trick_log"][-1]
    assert last["leader"] == 0 and last["winner"] == 2
    assert [last["plays"][q]["tiles"] for q in range(3)] == [["2-1"], ["4-1"], ["4-2"]]
    assert [last["plays"][q]["face_up"] for q in range(4)] == [True, True, True, False]
    assert list(st.returns()) == [-14, 0, 14, 0]


def test_direct_catch_still_applies():
    # 4-2 straight on the 2-1 (the case the engine always caught)
    st = final_trick([["2-1"], ["4-2"], ["5-5"], ["3-3"]], [("2-1", True), ("4-2", True), ("5-5", False),
                                                            ("3-3", False)], 1, [2, 3, 1, 1])
    assert list(st.returns()) == [-(2 + 3 + 3) * 4, (2 + 3 + 3) * 4, 0, 0]


def test_a_later_beat_of_the_4_2_lifts_the_catch():
    # 2-1 led, 4-2 beats it, 5-2 (a seven) beats the 4-2 and wins: no catch, ordinary settlement
    st = final_trick([["2-1"], ["4-2"], ["5-2"], ["3-3"]], [("2-1", True), ("4-2", True), ("5-2", True),
                                                            ("3-3", False)], 3, [4, 1, 1, 1])
    # winner seat 2 (2 tricks): seat 0 owes 0, seat 1 owes 3, banker seat 3 owes 3 x 2
    assert list(st.returns()) == [0, -3, 9, -6]


@pytest.mark.parametrize("lead", ["4-1", "3-2"])
def test_no_catch_without_a_2_1_lead(lead):
    # a five led and beaten by the 4-2: the leader is not caught
    st = final_trick([[lead], ["2-1"], ["4-2"], ["4-4"]], [(lead, True), ("2-1", False), ("4-2", True),
                                                          ("4-4", False)], 3, [4, 1, 1, 1])
    assert list(st.returns()) == [0, -3, 9, -6]


def test_no_catch_in_an_earlier_trick():
    # 2-1 led and won by the 4-2 before the final trick: nothing special; the final trick decides
    g = cardsim.make("tien_gow", **HK)
    st = tg.scenario(g, [["2-1", "6-6"], ["4-2", "1-1"], ["5-5", "3-3"], ["4-4", "2-2"]], banker=3, leader=0,
                     tricks=[3, 1, 1, 1])
    tg.play(st, ["2-1"])
    tg.play(st, ["4-2"])
    tg.play(st, ["5-5"], face_up=False)
    tg.play(st, ["4-4"], face_up=False)
    assert g.spec.view(st)["tricks"] == [3, 2, 1, 1]
    tg.play(st, ["1-1"])                      # seat 1 leads the final trick
    tg.play(st, ["3-3"], face_up=False)
    tg.play(st, ["2-2"], face_up=False)
    tg.play(st, ["6-6"])                      # seat 0 takes it with Heaven
    assert st.is_terminal()
    # winner seat 0 (4 tricks): seat 1 (2 tricks) owes 2, seat 2 owes 3, banker seat 3 owes 3 x 2
    assert list(st.returns()) == [11, -2, -3, -6]
