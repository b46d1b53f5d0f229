"""Zhao Pengyou: every worked example of docs/rules/zhao_pengyou.md §9 (Z-01..Z-37), scenarios
for the deal procedure, calls, scoring and the variants, a property test of the factored follow
actions, and greedy vs random.

Notation: the spec's `SA` is the engine's 'AS', `H10` is '10H', the spec's `SJ` (jack of spades)
is 'JS', `BJK`/`SJK` are 'BJ'/'SJ'."""
import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cardsim
from cardsim import ConfigError, IllegalActionError, ParseError
from cardsim.games import zhao_pengyou as zp

legal_follows = zp.legal_follows
trick_winner = zp.trick_winner
lead_format = zp.lead_format


def ms(cards):
    return tuple(sorted(Counter(cards).items()))


def as_set(plays):
    return {ms(p) for p in plays}


def follows_are(hand, lead, t, r, expected):
    got = legal_follows(hand, lead, t, r)
    assert len(got) == len(as_set(got)), "each multiset once"
    assert as_set(got) == as_set(expected)
    return got


def wins(lead, play, t, r):
    return trick_winner([lead, play], t, r) == 1


# ---- §9.1 trump order and identities -----------------------------------------------------------
def test_z01_trump_order_h8():
    order = ["BJ", "SJ", "8H", "8S", "AH", "KH", "QH", "JH", "10H", "9H", "7H", "6H", "5H", "4H", "3H", "2H"]
    strengths = [zp.card_order(c, "H", "8") for c in order]
    assert all(s == "T" for s, _ in strengths)
    vals = [v for _, v in strengths]
    assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
    assert zp.card_order("8S", "H", "8") == zp.card_order("8D", "H", "8") == zp.card_order("8C", "H", "8")
    assert zp.card_order("8S", "H", "8")[0] == "T"            # a trump, not a spade
    assert trick_winner([["8S"], ["8D"]], "H", "8") == 0        # equal strength: the earlier wins
    assert trick_winner([["8D"], ["8S"], ["8H"]], "H", "8") == 2
    assert trick_winner([["AS"], ["8S"]], "H", "8") == 1        # the rank-8 spade trumps a spade lead


def test_z02_declaration():
    g = cardsim.make("zhao_pengyou", players=6)
    for seed in range(20):
        st = g.spec.scenario(None, seed=seed, ranks=["5"] * 6, active=range(6), starter=0)
        while st.phase == "draw":
            texts = [st.action_to_string(a) for a in st.legal_actions()]
            if "DECLARE S" in texts:
                p = st.current_player
                assert "5S" in st.hand(p)
                st.apply_string("DECLARE S")
                v = g.spec.view(st)
                assert (v["trump_suit"], v["trump_rank"], v["declarer"]) == ("S", "5", p)
                assert v["exposed"][p] == ["5S"]
                return
            st.apply_string("PASS")
    pytest.fail("no deal offered DECLARE S")


# ---- §9.2 set leads: trump C/9, lead JH JH ---------------------------------------------------------
L2 = ["JH", "JH"]


def test_z03():
    got = follows_are(["AH", "10H", "10H", "6H", "3S", "4D"], L2, "C", "9", [["10H", "10H"]])
    assert not wins(L2, got[0], "C", "9")


def test_z04_triple_must_be_broken():
    got = follows_are(["AH", "10H", "10H", "10H", "3S", "4D"], L2, "C", "9", [["10H", "10H"]])
    assert not wins(L2, got[0], "C", "9")


def test_z05():
    follows_are(["KH", "KH", "10H", "10H", "3S"], L2, "C", "9", [["KH", "KH"], ["10H", "10H"]])
    assert wins(L2, ["KH", "KH"], "C", "9") and not wins(L2, ["10H", "10H"], "C", "9")


def test_z06():
    hearts = ["AH", "KH", "10H", "6H"]
    got = follows_are(hearts + ["3S", "4D"], L2, "C", "9", [list(c) for c in itertools.combinations(hearts, 2)])
    assert len(got) == 6 and not any(wins(L2, p, "C", "9") for p in got)


def test_z07():
    got = follows_are(["AH", "3S", "7C", "4D"], L2, "C", "9", [["AH", "3S"], ["AH", "7C"], ["AH", "4D"]])
    assert not any(wins(L2, p, "C", "9") for p in got)


def test_z08():
    got = follows_are(["AS", "QS", "QS", "7C", "7C"], L2, "C", "9",
                      [["AS", "QS"], ["AS", "7C"], ["QS", "QS"], ["QS", "7C"], ["7C", "7C"]])
    assert not wins(L2, ["QS", "QS"], "C", "9")
    assert wins(L2, ["7C", "7C"], "C", "9")
    assert [p for p in got if wins(L2, p, "C", "9")] == [["7C", "7C"]]


# ---- §9.3 set-sequence shapes ------------------------------------------------------------------------
def test_z09_valid_sequences():
    for lead in (["9H"] * 3 + ["8H"] * 3, ["AD", "AD", "KD", "KD", "QD", "QD"],
                 ["6H", "6H", "5H", "5H", "3H", "3H"], ["5S", "5S", "3S", "3S"]):
        assert lead_format(lead, "S", "4") == "sequence", lead


def test_z10_not_sequences():
    with pytest.raises(IllegalActionError, match="one suit"):
        lead_format(["9H", "9H", "8D", "8D"], "S", "4")
    with pytest.raises(IllegalActionError, match="different sizes"):
        lead_format(["3D"] * 3 + ["2D"] * 2, "S", "4")
    for lead in (["JS"] * 3 + ["9S"] * 3, ["5S", "5S", "4D", "4D"], ["5S", "5S", "4S", "4S"],
                 ["SJ"] * 3 + ["AS"] * 3):
        assert lead_format(lead, "S", "4") == "throw", lead


def test_z11_trump_rank_skipped():
    assert lead_format(["6S"] * 3 + ["8S"] * 3, "C", "7") == "sequence"
    assert lead_format(["6C", "6C", "7C", "7C"], "C", "7") == "throw"
    assert lead_format(["6C", "6C", "8C", "8C"], "C", "7") == "sequence"


# ---- §9.4 set-sequence follows: trump S/4, lead QH QH JH JH ------------------------------------------
L4 = ["QH", "QH", "JH", "JH"]


def test_z12():
    got = follows_are(["AH", "AH", "KH", "8H", "5H", "2D"], L4, "S", "4",
                      [["AH", "AH"] + list(c) for c in itertools.combinations(["KH", "8H", "5H"], 2)])
    assert not any(wins(L4, p, "S", "4") for p in got)


def test_z13():
    got = follows_are(["AH", "AH", "KH", "QH", "QH", "8H"], L4, "S", "4", [["AH", "AH", "QH", "QH"]])
    assert not wins(L4, got[0], "S", "4")


def test_z14():
    got = follows_are(["AH", "AH", "KH", "KH", "8H", "5H", "5H"], L4, "S", "4",
                      [["AH", "AH", "KH", "KH"], ["AH", "AH", "5H", "5H"], ["KH", "KH", "5H", "5H"]])
    assert [p for p in got if wins(L4, p, "S", "4")] == [["AH", "AH", "KH", "KH"]]


def test_z15():
    got = follows_are(["AH"] * 4 + ["7H", "2H"], L4, "S", "4", [["AH"] * 4])
    assert not wins(L4, got[0], "S", "4")


def test_z16():
    got = follows_are(["KH", "KH", "7H", "2C", "9D", "6S"], L4, "S", "4",
                      [["KH", "KH", "7H", x] for x in ("2C", "9D", "6S")])
    assert not any(wins(L4, p, "S", "4") for p in got)


def test_z17():
    hand = ["5S", "5S", "3S", "3S", "2D", "9C"]
    expected = {ms(c) for c in itertools.combinations(hand, 4)}
    assert as_set(legal_follows(hand, L4, "S", "4")) == expected
    assert wins(L4, ["5S", "5S", "3S", "3S"], "S", "4")


# ---- §9.5 top cards and throw shapes -------------------------------------------------------------------
def _six(hands, trump="H", rank="5", leader=0, **kw):
    g = cardsim.make("zhao_pengyou", players=6, **kw)
    return g, g.spec.scenario(hands, trump_suit=trump, trump_rank=rank, declarer=leader)


def test_z18_top_cards():
    others = [["2D", "3D", "4D", "6D", "10D"], ["QS", "7D", "8D", "9D", "JD"], ["2C", "3C", "4C", "6C", "QD"],
              ["7C", "8C", "9C", "10C", "KD"], ["JC", "QC", "KC", "AC", "AD"]]
    # the other AS and KS copies are gone; seat 2 holds QS
    for attempt, stands in ((["AS", "KS", "QS"], True), (["AS", "KS", "QS", "JS"], False)):
        g, s = _six([["AS", "AS", "KS", "QS", "JS"]] + others)
        zp.play(s, attempt)
        v = g.spec.view(s)
        if stands:
            assert v["trick"][0] == ["AS", "KS", "QS"] and v["fails"][0] == 0
        else:
            assert v["trick"][0] == ["JS"] and v["fails"][0] == 1
            assert sorted(v["exposed"][0]) == sorted(["AS", "KS", "QS"])


def test_z19_throw_shapes():
    assert lead_format(["AC", "AC", "QC", "QC"], "D", "J") == "throw"
    assert lead_format(["KH", "QH"], "D", "J") == "throw"
    assert lead_format(["BJ", "BJ", "AD", "AD", "JC", "JC"], "D", "J") == "throw"


def test_z20_illegal_shapes():
    for lead in (["AC", "AC", "AH", "AH"], ["AS"] * 3 + ["KS"] * 2):
        with pytest.raises(IllegalActionError):
            lead_format(lead, "D", "J")


# ---- §9.6 THROW(1,3) follows: trump S/5, lead AH KH QH ---------------------------------------------------
L3 = ["AH", "KH", "QH"]


def test_z21():
    hearts = ["QH", "8H", "7H", "3H"]
    got = follows_are(hearts + ["2D"], L3, "S", "5", [list(c) for c in itertools.combinations(hearts, 3)])
    assert not any(trick_winner([L3, p], "S", "5") for p in got)


def test_z22():
    got = follows_are(["9H", "AS", "2S", "3D"], L3, "S", "5",
                      [["9H"] + list(c) for c in itertools.combinations(["AS", "2S", "3D"], 2)])
    assert not any(trick_winner([L3, p], "S", "5") for p in got)


def test_z23_seed_typo_corrected():
    got = legal_follows(["8S", "7S", "6S", "2D"], L3, "S", "5")
    assert ms(["8S", "7S", "6S"]) in as_set(got)
    assert wins(L3, ["8S", "7S", "6S"], "S", "5")


def test_z24():
    assert trick_winner([L3, ["8S", "7S", "6S"], ["JS", "4S", "3S"]], "S", "5") == 2


# ---- §9.7 THROW(2,3) follows: trump S/5, lead AC AC KC KC JC JC -------------------------------------------
L6 = ["AC", "AC", "KC", "KC", "JC", "JC"]


def test_z25():
    follows_are(["9C", "9C", "7C", "6C", "6C", "4C", "2C"], L6, "S", "5",
                [["9C", "9C", "6C", "6C"] + list(c) for c in itertools.combinations(["7C", "4C", "2C"], 2)])


def test_z26():
    got = follows_are(["9C", "9C", "4C", "2D", "3H", "6S", "KS"], L6, "S", "5",
                      [["9C", "9C", "4C"] + list(c) for c in itertools.combinations(["2D", "3H", "6S", "KS"], 3)])
    assert not any(trick_winner([L6, p], "S", "5") for p in got)


def test_z27():
    hand = ["9S", "9S", "7S", "6S", "4S", "2S"]
    follows_are(hand, L6, "S", "5", [hand])
    assert trick_winner([L6, hand], "S", "5") == 0


def test_z28():
    plays = [L6, ["9S", "9S", "8S", "8S", "7S", "7S"], ["10S", "10S", "9S", "9S", "6S", "6S"]]
    assert trick_winner(plays, "S", "5") == 2


# ---- §9.8 engine vectors --------------------------------------------------------------------------------
def test_z29_failed_throw():
    hands = [["AS", "KS", "QS", "2D"], ["3D", "4D", "5D", "6D"], ["7D", "8D", "9D", "10D"],
             ["KS", "JD", "QD", "KD"], ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]]
    g = cardsim.make("zhao_pengyou", players=6)
    s = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=0, played=[["AS"], [], [], [], [], []])
    zp.play(s, ["AS", "KS", "QS"])
    v = g.spec.view(s)
    assert v["lead_format"] == "single" and v["trick"][0] == ["QS"]
    assert sorted(s.hand(0)) == sorted(["AS", "KS", "2D"])
    assert sorted(v["exposed"][0]) == ["AS", "KS"]          # all three were shown; QS is on the table
    assert v["fails"][0] == 1 and v["blocker"] == 3
    # the blocker stays hidden in the observation by default
    assert s.current_player == 1


def test_z29_reveal_blocker_and_penalty_and_reject():
    hands = [["AS", "KS", "QS", "2D"], ["3D", "4D", "5D", "6D"], ["7D", "8D", "9D", "10D"],
             ["KS", "JD", "QD", "KD"], ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]]
    obs = {}
    for ft in ("force_lowest_group", "reveal_blocker"):
        g = cardsim.make("zhao_pengyou", players=6, failed_throw=ft)
        s = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=0)
        zp.play(s, ["AS", "KS", "QS"])
        obs[ft] = s.observation(1)
    assert not np.array_equal(obs["force_lowest_group"], obs["reveal_blocker"])
    g = cardsim.make("zhao_pengyou", players=6, failed_throw="reject")
    s = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=0)
    for c in ("AS", "KS"):
        s.apply_string(c)
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    assert "COMMIT" in texts and "QS" not in texts            # AS KS stands, AS KS QS would not
    s2 = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=0)
    s2.apply_string("KS")
    assert "QS" not in [s2.action_to_string(a) for a in s2.legal_actions()]  # K+Q can never be a legal lead now


def _friend_game(players=6, **kw):
    return cardsim.make("zhao_pengyou", players=players, **kw)


def test_z30_friend_by_second_copy_and_declarer_consumes():
    hands = [["AH", "KC"], ["AH", "3S"], ["4S", "5S"], ["6S", "7S"], ["8S", "9S"], ["10S", "JS"]]
    g = _friend_game()
    s = g.spec.scenario(hands, trump_suit="D", trump_rank="2", declarer=0, calls=[("AH", 2), ("KC", 1)])
    zp.play(s, ["AH"])
    zp.play(s, ["AH"])
    v = g.spec.view(s)
    assert v["decl"] == [0, 1] and v["calls"][0] == ("AH", 2, 1)
    for p in (2, 3, 4, 5):
        zp.play(s, [s.hand(p)[0]])
    assert g.spec.view(s)["last_winner"] == 0                 # equal aces: the earlier wins
    zp.play(s, ["KC"])
    for p in range(1, 6):
        zp.play(s, [s.hand(p)[0]])
    v = g.spec.view(s)
    assert s.is_terminal()
    assert v["calls"][1] == ("KC", 1, 0) and v["decl"] == [0, 1]
    # P_opp: the 10S/5S captured by nobody in OPP? seat 0 won both tricks -> 0 -> DECL wins 2 + 2*short
    assert v["opp_points"] == 0 and v["decl_won"]
    assert v["gained"] == [4, 4, 0, 0, 0, 0]                  # A = 2, M = 3, short = 1


def test_z31_friend_by_pair_lead():
    hands = [["2S", "3S"], ["4S", "5S"], ["6S", "7S"], ["8S", "9S"], ["QD", "QD"], ["10S", "JS"]]
    g = _friend_game()
    s = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=0, leader=4, calls=[("QD", 2), ("AC", 1)])
    zp.play(s, ["QD", "QD"])
    assert g.spec.view(s)["decl"] == [0, 4]


def test_friend_points_discarded_and_called_card_removed():
    # seat 1 captures 10 points in trick 1, then reveals itself with the 2nd KD (10 points)
    hands = [["2S", "9D"], ["AS", "KD"], ["10S", "3D"], ["4S", "4D"], ["6S", "KD"], ["7S", "8D"]]
    for mode, expect_removed in (("removed", True), ("to_trick_winner", False)):
        g = _friend_game(called_card_points=mode)
        s = g.spec.scenario(hands, trump_suit="H", trump_rank="5", declarer=0, calls=[("KD", 2), ("AC", 1)])
        for p in range(6):
            zp.play(s, [next(c for c in s.hand(p) if c.endswith("S"))])
        assert g.spec.view(s)["captured"][1] == 10            # AS wins the 10S
        # trick 2: seat 1 leads; seat 4 plays KD #1, nobody joins; seat 1 led KD... order: 1,2,3,4,5,0
        zp.play(s, ["KD"])                                    # copy 1 by seat 1
        for p in (2, 3, 4, 5, 0):
            zp.play(s, s.hand(p))
        v = g.spec.view(s)
        assert v["decl"] == [0, 4]                            # seat 4 played copy #2
        assert s.is_terminal()
        # trick 2 is won by seat 1 (KD first, equal with seat 4's KD): points KD+KD(+0) = 20
        assert v["captured"][1] == 10 + (10 if expect_removed else 20)
        # P_opp = seats 1,2,3,5 captured (no kitty)
        assert v["opp_points"] == sum(v["captured"][q] for q in (1, 2, 3, 5))


def test_friend_self_consume_option():
    hands = [["AH", "2S"], ["AH", "3S"], ["4S", "5S"], ["6S", "7S"], ["8S", "9S"], ["10S", "JS"]]
    for consume, decl in ((True, [0]), (False, [0, 1])):
        g = _friend_game(friend_self_consume=consume)
        s = g.spec.scenario(hands, trump_suit="D", trump_rank="2", declarer=0, calls=[("AH", 1), ("KC", 1)])
        zp.play(s, ["AH"])     # copy 1 by the declarer
        zp.play(s, ["AH"])     # copy 2 by seat 1
        assert g.spec.view(s)["decl"] == decl


def test_z32_z33_z34_scores():
    g = _friend_game()
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=0, captured=[0, 0, 0, 30, 45, 0],
                          last_winner=3, decl=[0, 1, 2], kitty=["KD", "5S", "2C", "3C", "4C", "6C"], finished=True)
    v = g.spec.view(s)
    assert v["opp_points"] == 105 and not v["decl_won"] and v["gained"] == [0, 0, 0, 1, 1, 1]
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=0, captured=[0] * 6,
                          last_winner=0, decl=[0, 3], kitty=["KD", "5S"], finished=True)
    v = g.spec.view(s)
    assert v["opp_points"] == 0 and v["gained"] == [4, 0, 0, 4, 0, 0]
    g7 = _friend_game(7)
    s = g7.spec.scenario([[]] * 7, trump_suit="H", trump_rank="2", declarer=0, captured=[0, 0, 0, 35, 0, 0, 0],
                          last_winner=0, decl=[0, 1, 2], kitty=[], finished=True)
    v = g7.spec.view(s)
    assert v["opp_points"] == 35 and v["gained"] == [1, 1, 1, 0, 0, 0, 0]


@pytest.mark.parametrize("players,p,winner", [(6, 0, "decl"), (6, 79, "decl"), (6, 80, "opp1"), (6, 159, "opp1"),
                                              (6, 160, "opp2"), (6, 199, "opp2"), (6, 200, "opp3"),
                                              (8, 119, "decl"), (8, 120, "opp1"), (8, 240, "opp2"), (8, 300, "opp3"),
                                              (12, 159, "decl"), (12, 160, "opp1"), (12, 400, "opp3")])
def test_score_thresholds(players, p, winner):
    g = _friend_game(players)
    s = g.spec.scenario([[]] * players, trump_suit="H", trump_rank="2", declarer=0, captured=[0, p] + [0] * (players - 2),
                          last_winner=0, decl=[0], kitty=[], finished=True)
    v = g.spec.view(s)
    M = 1 + zp.TABLE[players]["calls"]
    if winner == "decl":
        assert v["gained"][0] == ((2 + 2 * (M - 1)) if p == 0 else (1 + (M - 1)))
    else:
        assert v["gained"][1] == int(winner[-1]) and v["gained"][0] == 0


def test_kitty_multiplier_option():
    for mult, expect in (("x2", 2 * 15), ("largest_component", 2 * 2 * 15)):
        g = _friend_game(kitty_multiplier=mult)
        hands = [["2S", "2S"], ["AS", "AS"], ["3D", "4D"], ["6D", "7D"], ["8D", "9D"], ["JD", "QD"]]
        s = g.spec.scenario(hands, trump_suit="H", trump_rank="5", declarer=0, kitty=["KC", "5C"])
        zp.play(s, ["2S", "2S"])
        for p in range(1, 6):
            zp.play(s, s.hand(p))
        v = g.spec.view(s)
        assert v["last_winner"] == 1 and v["opp_points"] == expect


def test_throw_penalty_option():
    hands = [["AS", "KS", "QS", "2D"], ["3D", "4D", "5D", "6D"], ["7D", "8D", "9D", "10D"],
             ["KS", "JD", "QD", "KD"], ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]]
    res = {}
    for ft in ("force_lowest_group", "penalty"):
        g = _friend_game(failed_throw=ft)
        s = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=0)
        zp.play(s, ["AS", "KS", "QS"])
        while not s.is_terminal():
            s.apply(int(s.legal_actions()[0]))
        v = g.spec.view(s)
        res[ft] = v["opp_points"]
        adj = sum(10 * f * (1 if q in v["decl"] else -1) for q, f in enumerate(v["fails"]))
    assert v["fails"][0] == 1 and 0 in v["decl"]                # the declarer's attempt: +10 for OPP
    assert res["penalty"] == res["force_lowest_group"] + adj


def test_z35_rank_advancement():
    g = cardsim.make("zhao_pengyou", players=6, scope="match")
    # DECL = {0} alone, P_opp 10 -> 1 + short 2 = 3 game points; seat 0 active at 9 -> Q
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="9", declarer=0, captured=[0, 10, 0, 0, 0, 0],
                          last_winner=0, decl=[0], kitty=[], ranks=["9", "3", "3", "2", "2", "2"], active=[0, 3], finished=True)
    v = g.spec.view(s)
    assert v["ranks"][0] == "Q" and not s.is_terminal()
    # OPP wins with 160 (2 points): passive 3 -> 4; with 100 (1 point): passive 3 stays 3
    for p_opp, new in ((160, "4"), (100, "3")):
        s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="9", declarer=0, captured=[0, p_opp, 0, 0, 0, 0],
                              last_winner=0, decl=[0], kitty=[], ranks=["9", "3", "3", "2", "2", "2"], active=[0], finished=True)
        v = g.spec.view(s)
        assert v["ranks"][1] == new and v["active"] == [1, 2, 3, 4, 5]
    # active K + 2 -> A (capped): the match is over, that player wins
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="K", declarer=0, captured=[0] * 6,
                          last_winner=0, decl=[0, 1, 2], kitty=[], ranks=["K", "3", "3", "2", "2", "2"], active=[0, 1, 2], finished=True)
    v = g.spec.view(s)
    assert v["ranks"][0] == "A" and v["match_winners"] == [0] and s.is_terminal()
    assert s.returns()[0] == 12


def test_z36_next_starter():
    g = cardsim.make("zhao_pengyou", players=6, scope="match")
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=2, captured=[0, 0, 0, 0, 0, 170],
                          last_winner=5, decl=[2, 3, 4], kitty=[], finished=True)
    v = g.spec.view(s)
    assert v["starter"] == 5 and v["phase"] in ("draw", "kitty")
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=2, captured=[0, 0, 0, 0, 0, 10],
                          last_winner=2, decl=[2, 3, 4], kitty=[], finished=True)
    v = g.spec.view(s)
    assert v["starter"] == 2                                   # DECL won: the declarer starts


def test_z37_equal_trump_pairs():
    assert trick_winner([["8S", "8S"], ["8D", "8D"]], "H", "8") == 0
    assert trick_winner([["8S", "8S"], ["8D", "8D"], ["8H", "8H"]], "H", "8") == 2


# ---- deal procedure, phases ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", zp.INFO.players)
def test_deck_table_of_the_kernel_is_the_declared_one(players):
    """The kernel's static §2.1 table (_rules.zp_deck_row) and info.TABLE (the bounds) agree."""
    row = zp.TABLE[players]
    assert cardsim.make("zhao_pengyou", players=players).spec.config == {
        "players": players, "decks": row["decks"], "big_jokers": row["big"], "small_jokers": row["small"],
        "cards_per_player": row["cards"], "kitty": row["kitty"], "calls": row["calls"],
        "total": 52 * row["decks"] + row["big"] + row["small"]}


@pytest.mark.parametrize("players", zp.INFO.players)
def test_deck_table_conservation_points(players):
    row = zp.TABLE[players]
    g = cardsim.make("zhao_pengyou", players=players, called_card_points="to_trick_winner")
    assert g.spec.deck_size == 52 * row["decks"] + row["big"] + row["small"]
    rng = np.random.default_rng(players)
    for seed in range(3):
        s = g.new_state(seed=seed)
        saw_kitty = False
        while not s.is_terminal():
            if s.phase == "kitty" and not saw_kitty:
                saw_kitty = True
                decl = g.spec.view(s)["declarer"]
                assert len(s.hand(decl)) == row["cards"] + row["kitty"]
                assert all(len(s.hand(q)) == row["cards"] for q in range(players) if q != decl)
            if s.phase == "play" and g.spec.view(s)["tricks_done"] == 0 and not g.spec.view(s)["building"] \
                    and not any(g.spec.view(s)["trick"]):
                assert all(len(s.hand(q)) == row["cards"] for q in range(players))
                assert len(g.spec.view(s)["calls"]) == row["calls"]
            assert g.spec.card_total(s) == g.spec.deck_size
            la = s.legal_actions()
            s.apply(int(la[rng.integers(len(la))]))
        v = g.spec.view(s)
        assert sum(v["captured"]) + v["kitty_points"] == 100 * row["decks"]
        assert len(v["kitty"]) == row["kitty"]


def test_first_window_goes_to_drawer_then_counterclockwise():
    g = cardsim.make("zhao_pengyou", players=6)
    for seed in range(10):
        s = g.new_state(seed=seed)
        v = g.spec.view(s)
        drawn = v["drawn"]
        drawer = (v["starter"] + drawn - 1) % 6
        p = s.current_player
        # every seat between the drawer and p (in play order) was not eligible
        assert (p - drawer) % 6 < 6
        assert any("2" == c[:-1] for c in s.hand(p))


def test_own_draw_only_windows():
    g = cardsim.make("zhao_pengyou", players=6, declaration_windows="own_draw_only")
    for seed in range(10):
        s = g.new_state(seed=seed)
        v = g.spec.view(s)
        assert s.current_player == (v["starter"] + v["drawn"] - 1) % 6


def test_redeal_when_nobody_declares():
    g = cardsim.make("zhao_pengyou", players=6, scope="match")
    s = g.spec.scenario(None, seed=3, ranks=["5", "2", "2", "2", "2", "2"], active=[1, 2], starter=4)
    starter = g.spec.view(s)["starter"]
    assert starter == 4
    while s.phase == "draw" and g.spec.view(s)["redeals"] == 0:
        s.apply_string("PASS")
    v = g.spec.view(s)
    assert v["redeals"] == 1 and v["starter"] == 4 and v["active"] == list(range(6))


def test_kitty_and_calls_rules():
    g = cardsim.make("zhao_pengyou", players=6)
    s = g.new_state(seed=1)
    while s.phase == "draw":
        la = [s.action_to_string(a) for a in s.legal_actions()]
        s.apply_string(next((t for t in la if t.startswith("DECLARE")), "PASS"))
    assert s.phase == "kitty"
    v = g.spec.view(s)
    decl = v["declarer"]
    for _ in range(6):
        assert all(s.action_to_string(a).startswith("DISCARD") for a in s.legal_actions())
        s.apply(int(s.legal_actions()[-1]))
    assert s.phase == "call" and len(s.hand(decl)) == 17
    texts = [s.action_to_string(a) for a in s.legal_actions()]
    T, R = v["trump_suit"], v["trump_rank"]
    for t in texts:
        _, card, nth = t.split()
        assert not card.endswith(T) and card[:-1] != R and card not in ("BJ", "SJ") and nth in ("1", "2")
    assert len(texts) == 3 * 12 * 2
    s.apply_string(texts[0])
    assert texts[0] not in [s.action_to_string(a) for a in s.legal_actions()]   # no duplicate calls (D15)
    s.apply_string(texts[1])
    assert s.phase == "play" and s.current_player == decl


def _fillers(seats, size, used=()):
    """Hands of pointless plain diamonds and clubs (never a trump in these tests: trump H, rank 5),
    within the two copies of a 6-player pack."""
    used = Counter(used)
    pool = [r + su for su in "DC" for r in ("2", "3", "4", "6", "7", "8", "9", "J", "Q", "A")
            for _ in range(2 - used[r + su])]
    assert len(pool) >= seats * size
    return [pool[i * size:(i + 1) * size] for i in range(seats)]


def test_lead_building_actions():
    g = _friend_game()
    hands = [["AS", "AS", "KS", "KS", "QS", "5H", "BJ"]] + _fillers(5, 7)
    s = g.spec.scenario(hands, trump_suit="H", trump_rank="5", declarer=0)
    texts = lambda: sorted(s.action_to_string(a) for a in s.legal_actions())
    assert texts() == sorted(["AS", "KS", "QS", "5H", "BJ"])
    s.apply_string("AS")
    assert texts() == ["AS", "COMMIT", "KS", "QS"]
    s.apply_string("AS")
    assert texts() == ["COMMIT", "KS"]                       # QS is single: no pair of queens
    s.apply_string("KS")
    assert texts() == ["KS"]                                 # groups must be equal
    s.apply_string("KS")
    assert texts() == ["COMMIT"]
    s.apply_string("COMMIT")
    assert g.spec.view(s)["lead_format"] == "sequence"


def test_play_helper_and_errors():
    g = _friend_game()
    hands = [["AS", "KS"], ["2D", "3D"], ["4D", "5D"], ["6D", "7D"], ["8D", "9D"], ["10D", "JD"]]
    s = g.spec.scenario(hands, trump_suit="H", trump_rank="5", declarer=0)
    assert zp.play_to_actions(s, ["AS"]) == [s.string_to_action("AS"), s.string_to_action("COMMIT")]
    before = s.state_bytes()
    with pytest.raises(IllegalActionError):
        zp.play(s, ["AS", "2D"])
    assert s.state_bytes() == before
    with pytest.raises(ParseError):
        zp.play(s, ["XX"])
    with pytest.raises(ParseError):
        lead_format(["1Z"], "H", "5")
    with pytest.raises(ParseError):
        lead_format(["AS"], "X", "5")
    with pytest.raises(IllegalActionError):
        lead_format([], "H", "5")
    with pytest.raises(IllegalActionError):
        trick_winner([["AS", "KH"], ["2S", "3S"]], "H", "5")
    with pytest.raises(ConfigError):
        cardsim.make("zhao_pengyou", players=4)
    with pytest.raises(ConfigError):
        cardsim.make("zhao_pengyou", failed_throw="explode")
    with pytest.raises(ConfigError):
        cardsim.make("zhao_pengyou", nonsense=1)


def test_partial_set_obligation_option():
    lead = ["JH"] * 3
    hand = ["QH", "QH", "5H", "4H", "2S"]
    default = as_set(legal_follows(hand, lead, "C", "9"))
    v7 = as_set(zp.legal_follows(hand, lead, "C", "9", partial_set_obligation=True))
    assert len(default) == 3                               # any 3 of the hearts
    assert v7 == {ms(["QH", "QH", "5H"]), ms(["QH", "QH", "4H"])}


def test_component_throw_validity():
    # a pair of queens is top by component if nobody holds a higher pair, although a single KS is out
    hands = [["AS", "AS", "QS", "QS", "2D"], ["KS", "3D", "4D", "5D", "6D"]]
    hands += _fillers(4, 5, used=hands[0] + hands[1])
    for validity, stands in (("card", False), ("component", True)):
        g = cardsim.make("zhao_pengyou", players=6, throw_validity=validity)
        s = g.spec.scenario(hands, trump_suit="H", trump_rank="5", declarer=0)
        zp.play(s, ["AS", "AS", "QS", "QS"])
        assert (g.spec.view(s)["lead_format"] == "throw") == stands


def test_match_scope_reaches_A():
    g = cardsim.make("zhao_pengyou", players=6, scope="match")
    r = g.spec.run_batch(5, 0, 20, [0] * 6)
    assert (r["returns"].max(axis=1) == 12).all()
    assert (r["metrics"][:, g.metric_names.index("deals")] >= 2).all()


def test_defend_A_match():
    g = cardsim.make("zhao_pengyou", players=6, scope="match", game_end="defend_A")
    r = g.spec.run_batch(5, 0, 5, [0] * 6)
    for row, m in zip(r["returns"], r["metrics"]):
        assert row.max() == 12 and m[g.metric_names.index("trump_rank")] == 14


# ---- property test: factored actions == brute force == legal_follows --------------------------------------
def _profile(counts, k, m):
    chunks = []
    for c in counts:
        chunks += [k] * (c // k) + ([c % k] if c % k else [])
    return sorted(chunks, reverse=True)[:m]


def brute_force_follows(hand, lead, T, R, partial=False):
    """Independent Python reading of §5.4 (and of V7 when partial) for a legal lead."""
    def eff(c):
        if c in ("BJ", "SJ") or c[:-1] == R or c[-1] == T:
            return "T"
        return c[-1]
    suit = eff(lead[0])
    cnt = Counter(lead)
    k = len(lead) // len(cnt)
    m = len(cnt)
    L = len(lead)
    S = [c for c in hand if eff(c) == suit]
    out = set()
    for combo in set(itertools.combinations(sorted(hand), L)):
        if len(S) >= L:
            if any(eff(c) != suit for c in combo):
                continue
            if k >= 2 and partial:
                if _profile(Counter(S).values(), k, m) != _profile(Counter(combo).values(), k, m):
                    continue
            elif k >= 2:
                avail = sum(v // k for v in Counter(S).values())
                have = sum(v // k for v in Counter(combo).values())
                if have < min(m, avail):
                    continue
        else:
            if Counter(c for c in combo if eff(c) == suit) != Counter(S):
                continue
        out.add(ms(combo))
    return out


def factored_follows(hand, lead, T, R, partial=False):
    """Whole follows reachable through the engine's action space: a 6-player table where seat 0
    leads `lead` (a stand-alone throw: the other seats hold nothing of its suit that could block)
    and seat 1 holds `hand`; explore every ADD sequence."""
    g = cardsim.make("zhao_pengyou", players=9, partial_set_obligation=partial)   # 3 packs, 3 big jokers
    copies = lambda c: 0 if c == "SJ" else 3
    L, h = len(lead), len(hand)
    lead_suit = zp.card_order(lead[0], T, R)[0]
    used = Counter(lead) + Counter(hand)
    if any(n > copies(c) for c, n in used.items()):
        return None
    pool = [c for c in [r + su for su in "SHDC" for r in RANKS] + ["BJ"]
            if zp.card_order(c, T, R)[0] != lead_suit for _ in range(copies(c) - used[c])]
    pads = [pool[i * h:(i + 1) * h] for i in range(8)]          # every seat holds h cards (no dead ends)
    hands = [list(lead) + pads[7][:h - L], list(hand)] + pads[:7]
    s0 = g.spec.scenario(hands, trump_suit=T, trump_rank=R, declarer=0)
    zp.play(s0, lead)
    if g.spec.view(s0)["lead_format"] is None or g.spec.view(s0)["trick"][0] != sorted_play(lead, s0):
        return None
    results, seen = set(), set()

    def rec(s, taken):
        if s.current_player != 1:
            results.add(ms(taken))
            return
        if ms(taken) in seen:                   # the same partial follow reached in another order
            return
        seen.add(ms(taken))
        la = s.legal_actions()
        assert len(la) > 0, ("dead end", hand, lead, T, R, taken)     # every ADD offered can be completed
        for a in la:
            c = s.action_to_string(int(a))
            t = s.clone()
            t.apply(int(a))
            rec(t, taken + [c])

    rec(s0, [])
    return results


def sorted_play(cards, s):
    order = s.game.view(s)["trick"][0]
    return order if Counter(order) == Counter(cards) else None


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CARD_POOL = ["AH", "KH", "QH", "10H", "5H", "2H", "AS", "QS", "7C", "5C", "9D", "BJ"]


TRUMPS = [("C", "5"), ("H", "9"), ("S", "Q"), ("D", "J")]
LEADS = [["JH"], ["JH", "JH"], ["JH", "JH", "9H", "9H"], ["JH", "JH", "8H", "8H"], ["AH", "KH"], ["JD", "JD"],
         ["6C", "6C"], ["9S", "9S", "8S", "8S"], ["QH", "QH", "QH"], ["AH", "AH", "KH", "KH", "QH", "QH"]]


def follow_case(hand, lead, T, R, copies):
    """A usable property case: a legal lead, no card more than `copies` times in hand and lead
    together, and at least as many cards in hand as in the lead."""
    try:
        lead_format(lead, T, R)
    except IllegalActionError:
        return False
    return all(v <= copies for v in (Counter(hand) + Counter(lead)).values()) and len(hand) >= len(lead)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(CARD_POOL), min_size=2, max_size=9), st.sampled_from(LEADS),
       st.sampled_from(TRUMPS), st.booleans())
def test_property_factored_equals_brute_force(hand, lead, trump, partial):
    T, R = trump
    if not follow_case(hand, lead, T, R, 4):
        return
    expected = brute_force_follows(hand, lead, T, R, partial)
    oracle = as_set(zp.legal_follows(hand, lead, T, R, partial_set_obligation=partial))
    assert oracle == expected, (hand, lead, trump, partial)
    for play in expected:
        flat = [c for c, n in play for _ in range(n)]
        assert zp.is_legal_follow(hand, lead, flat, T, R, partial_set_obligation=partial)
    if len(hand) <= 7:
        fact = factored_follows(hand, lead, T, R, partial)
        if fact is not None:
            assert fact == expected, (hand, lead, trump, partial)


# Hands rich in copies of the led suits (hearts, trumps), so that the set obligation binds: the
# factored follow decides it for all candidates from one evaluation of its cost unless every card
# still to add must serve it (zp_follow_set_adds); both branches, with and without V7, are checked
# against the brute force, and no ADD offered may lead into a dead end.
SET_POOL = ["AH", "AH", "KH", "KH", "QH", "JH", "10H", "10H", "9H", "5H", "5H", "2H", "2H", "QS", "9S", "7C", "BJ"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SET_POOL), min_size=3, max_size=9), st.sampled_from(LEADS[1:]),
       st.sampled_from(TRUMPS), st.booleans())
@example(["AH", "AH", "KH", "KH", "5H", "5H", "2H"], ["JH", "JH", "9H", "9H"], ("C", "5"), False)
@example(["AH", "AH", "AH", "KH", "KH", "5H", "2H", "2H"], ["QH", "QH", "QH"], ("C", "5"), True)
@example(["JH", "JH", "10H", "10H", "9H", "8H", "8H", "2H", "QS"], ["AH", "AH", "KH", "KH", "QH", "QH"], ("C", "5"), False)
def test_property_factored_set_follows_equal_brute_force(hand, lead, trump, partial):
    T, R = trump
    if not follow_case(hand, lead, T, R, 3):
        return
    fact = factored_follows(hand, lead, T, R, partial)
    if fact is not None:
        assert fact == brute_force_follows(hand, lead, T, R, partial), (hand, lead, trump, partial)


def brute_force_leads(hand, T, R):
    """Independent reading of §5.2 for a lead built card by card (failed_throw not 'reject'): every
    non-empty part of the hand whose cards share one effective suit and whose identities all
    appear equally often."""
    def eff(c):
        return "T" if c in ("BJ", "SJ") or c[:-1] == R or c[-1] == T else c[-1]
    held = sorted(Counter(hand).items())
    out = set()
    for counts in itertools.product(*[range(n + 1) for _, n in held]):
        part = [(c, n) for (c, _), n in zip(held, counts) if n]
        if part and len({eff(c) for c, _ in part}) == 1 and len({n for _, n in part}) == 1:
            out.add(tuple(part))
    return out


def factored_leads(hand, T, R):
    """Every lead the engine's action space commits (seat 0 of a 9-player table leads from `hand`)
    and the brute force's leads; each partial lead offered must extend to one of the latter."""
    g = cardsim.make("zhao_pengyou", players=9)                   # 3 packs, 3 big jokers
    used = Counter(hand)
    pool = [r + su for su in "DC" for r in RANKS if r != R for _ in range(3 - used[r + su])]
    h = len(hand)
    s0 = g.spec.scenario([list(hand)] + [pool[i * h:(i + 1) * h] for i in range(8)], trump_suit=T,
                         trump_rank=R, declarer=0)
    valid = brute_force_leads(hand, T, R)
    extends = lambda key: any(all(dict(v).get(c, 0) >= n for c, n in key) for v in valid)
    return committed_leads(s0, extends), valid


def committed_leads(s0, extends=None):
    """The leads the seat to lead in s0 can commit, exploring every ADD sequence (each partial
    lead once); every partial lead reached must offer an action and, if `extends` is given,
    satisfy it (no dead ends)."""
    commit = s0.string_to_action("COMMIT")
    seen, reached = set(), set()

    def rec(s, taken):
        key = ms(taken)
        if key in seen:
            return
        seen.add(key)
        la = [int(a) for a in s.legal_actions()]
        assert la and (extends is None or extends(key)), ("dead end", taken)
        for a in la:
            if a == commit:
                reached.add(key)
                continue
            t = s.clone()
            t.apply(a)
            rec(t, taken + [s.action_to_string(a)])

    rec(s0, [])
    return reached


LEAD_POOL = ["AS", "AS", "KS", "KS", "QS", "2S", "5H", "5H", "9H", "AH", "AH", "JH", "BJ", "7D"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LEAD_POOL), min_size=1, max_size=7), st.sampled_from(TRUMPS))
@example(["AS", "AS", "KS", "KS", "QS", "5H", "BJ"], ("H", "5"))
def test_property_factored_leads_equal_brute_force(hand, trump):
    """Default rules: the leads the factored lead can commit are exactly the brute force's, and
    no partial lead it offers is a dead end (zp_lead_candidates, zp_lead_whole)."""
    T, R = trump
    if any(v > 3 for v in Counter(hand).values()):
        return
    got, valid = factored_leads(hand, T, R)
    assert got == valid, (hand, trump)


# ---- greedy beats random ---------------------------------------------------------------------------------
def test_greedy_beats_random():
    n = 6
    g = cardsim.make("zhao_pengyou", players=n)
    per = 10_002 // n
    diffs = []
    for seat in range(n):
        codes = [0] * n
        codes[seat] = 1
        r = g.spec.run_batch(2024, seat * per, per, codes)["returns"]
        others = (r.sum(axis=1) - r[:, seat]) / (n - 1)
        diffs.append(r[:, seat] - others)
    d = np.concatenate(diffs)
    assert len(d) >= 10_000
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - half > 0, (d.mean(), half)


def test_kitty_multiplier_throw_with_tractor_component():
    hands = [["AS", "AS", "KS", "KS", "9S", "9S"], ["2H", "2H", "3H", "3H", "4H", "4H"]] + _fillers(4, 6)
    for mult, expect in (("x2", 20 + 2 * 15), ("largest_component", 20 + 2 * 4 * 15)):
        g = _friend_game(kitty_multiplier=mult)
        s = g.spec.scenario(hands, trump_suit="H", trump_rank="5", declarer=0, kitty=["KC", "5C"])
        zp.play(s, hands[0])
        assert g.spec.view(s)["lead_format"] == "throw"
        for p in range(1, 6):
            zp.play(s, s.hand(p))
        v = g.spec.view(s)
        assert v["last_winner"] == 1 and v["opp_points"] == expect


def test_score_table_options():
    g = cardsim.make("zhao_pengyou", players=6, thresholds=(30, 60, 90), game_points=(3, 1, 1, 0, 2, 3, 4))
    for p_opp, gained in ((0, [5, 0, 0, 0, 0, 0]), (50, [1, 0, 0, 0, 0, 0]), (60, [0, 2, 2, 2, 2, 2]),
                          (120, [0, 3, 3, 3, 3, 3]), (180, [0, 4, 4, 4, 4, 4])):
        s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=0, captured=[0, p_opp, 0, 0, 0, 0],
                              last_winner=0, decl=[0], kitty=[], finished=True)
        v = g.spec.view(s)
        assert v["gained"] == gained, p_opp
    with pytest.raises(ConfigError):
        cardsim.make("zhao_pengyou", thresholds=(80, 40, 100))
    with pytest.raises(ConfigError):
        cardsim.make("zhao_pengyou", game_points=(1, 2))


def test_resample_never_breaks_a_shown_void_late_in_the_deal():
    """Late in a deal many effective suits are shown void; the redeal must still honour every one
    (uniform rejection first, then a constrained assignment)."""
    import numpy as np

    from cardsim.games import zhao_pengyou as zp

    g = cardsim.make("zhao_pengyou", players=6)
    checked = 0
    for deal in range(4):
        st = g.new_state(seed=5, deal=deal)
        rng = np.random.default_rng(deal)
        while not st.is_terminal() and sum(len(v) for v in g.spec.view(st)["void"]) < 8:
            la = st.legal_actions()
            st.apply(int(la[rng.integers(len(la))]))
        if st.is_terminal():
            continue
        v = g.spec.view(st)
        ts, tr = v["trump_suit"], v["trump_rank"]
        for p in range(6):
            for seed in range(10):
                r = st.resample(p, seed=seed)
                for q in range(6):
                    if q == p:
                        continue
                    suits = {zp.card_order(c, ts, tr)[0] for c in r.hand(q)}
                    assert not suits & set(v["void"][q]), (deal, p, q, v["void"][q], r.hand(q))
                checked += 1
    assert checked > 0


# ---- issue 14: hardening ---------------------------------------------------------------------------------
def _declared_deal(seed):
    """A 6-player deal played up to the kitty: the first seat that may declares. Returns the state,
    the declarer and the declared card (None if the declarer holds two copies of it)."""
    g = cardsim.make("zhao_pengyou", players=6)
    s = g.new_state(seed=seed)
    while s.phase == "draw":
        la = [s.action_to_string(a) for a in s.legal_actions()]
        s.apply_string(next((t for t in la if t.startswith("DECLARE")), "PASS"))
    v = g.spec.view(s)
    card = v["trump_rank"] + v["trump_suit"]
    return g, s, v["declarer"], (card if s.hand(v["declarer"]).count(card) == 1 else None)


def test_buried_declared_card_is_not_leaked_by_resample():
    """The card shown at declaration, once the declarer has discarded face down, is only known to
    be in his hand or the kitty: another seat's observation and its resampled worlds must be the
    same whether he buried it or kept it."""
    for seed in range(50):
        g, s, decl, card = _declared_deal(seed)
        if card is not None and decl != 2:
            break
    hand = s.hand(decl)
    others = [c for c in dict.fromkeys(hand) if c != card and hand.count(c) == 1][:6]
    cases = {"buried": [card] + others[:5], "kept": others[:6]}
    worlds = {}
    obs = {}
    for name, discards in cases.items():
        t = s.clone()
        for c in discards:
            t.apply_string("DISCARD " + c)
        while t.phase == "call":
            t.apply(int(t.legal_actions()[0]))
        obs[name] = t.observation(2)
        held = [card in t.resample(2, seed=k).hand(decl) for k in range(400)]
        worlds[name] = sum(held)
    assert np.array_equal(obs["buried"], obs["kept"])
    p1, p2 = worlds["buried"] / 400, worlds["kept"] / 400
    pool = (worlds["buried"] + worlds["kept"]) / 800
    z = (p1 - p2) / np.sqrt(pool * (1 - pool) * 2 / 400)
    assert abs(z) < 4, (worlds, z)                  # the old code pinned the kept card: 400 vs about 290
    assert 0 < worlds["buried"] < 400


def test_reject_mode_resample_keeps_the_lead_in_progress_legal():
    """failed_throw='reject': legality of a lead being built depends on the other hands, so the
    resampled worlds must keep the seat's legal set (the old resample gave dead states)."""
    g = cardsim.make("zhao_pengyou", players=6, failed_throw="reject")
    hands = [["AS", "KS", "4C", "6C"], ["2D", "3D", "4D", "6D"], ["7D", "8D", "9D", "JD"],
             ["QD", "AD", "2C", "3C"], ["7C", "8C", "9C", "JC"], ["QC", "AC", "3H", "4H"]]
    s = g.spec.scenario(hands, trump_suit="H", trump_rank="2", declarer=1, leader=0,
                        kitty=["AS", "6H", "7H", "8H", "9H", "JH"])
    s.apply_string("AS")
    s.apply_string("KS")
    legal = list(s.legal_actions())
    assert [s.action_to_string(a) for a in legal] == ["COMMIT"]
    for k in range(200):
        r = s.resample(0, seed=k)
        assert list(r.legal_actions()) == legal, k


def test_throw_penalty_total_does_not_depend_on_seats():
    """V4 'penalty': one DECL attempt (+10 for OPP) and one OPP attempt (-10) cancel wherever the
    declarer sits (the old seat-by-seat clamp gave 0 or 10)."""
    g = cardsim.make("zhao_pengyou", players=6, failed_throw="penalty")
    got = []
    for decl, opp in ((0, 1), (1, 0), (5, 2)):
        fails = [0] * 6
        fails[decl] = fails[opp] = 1
        s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=decl, captured=[0] * 6,
                            fails=fails, last_winner=decl, finished=True)
        got.append(g.spec.view(s)["opp_points"])
    assert got == [0, 0, 0]
    s = g.spec.scenario([[]] * 6, trump_suit="H", trump_rank="2", declarer=1, captured=[0, 0, 30, 0, 0, 0],
                        fails=[3, 1, 0, 0, 0, 0], last_winner=1, finished=True)
    assert g.spec.view(s)["opp_points"] == 30 + 10 * (1 - 3)          # one total, clamped at 0 once


def test_trick_winner_refuses_impossible_copies():
    with pytest.raises(ConfigError, match="copies of AS"):
        trick_winner([["AS"]] * 12, "H", "5")
    assert trick_winner([["AS"]] * 4, "H", "5") == 0


def test_legal_follows_has_a_documented_limit():
    lead = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "4H"]      # a 10-card throw (trump S/5)
    hand = [c for c in lead for _ in range(2)]                                 # 20 cards, 2 copies each
    with pytest.raises(ConfigError, match="MAX_FOLLOWS"):
        legal_follows(hand + ["3H", "2H"], lead, "S", "5")
    big = [r + su for su in "SDC" for r in RANKS for _ in range(4)] + ["2H"] * 4 + ["BJ"] * 4     # 164 cards
    assert len(big) == 164
    with pytest.raises(ConfigError, match="MAX_FOLLOWS"):
        legal_follows(big, lead, "S", "5")
    assert zp.MAX_FOLLOWS == 10_000
    small = legal_follows(hand[:12], lead[:6], "S", "5")                  # below the limit: all of them
    assert as_set(small) == {ms(c) for c in itertools.combinations(sorted(hand[:12]), 6)} and len(small) == 141
    with pytest.raises(ParseError, match="216"):
        legal_follows(["AS"] * 217, ["AS"], "S", "5")


@pytest.mark.parametrize("bad", [None, 5, 1.5, "AS", [None], [5], ["AS", None]])
def test_oracles_refuse_non_card_lists(bad):
    with pytest.raises(ParseError):
        legal_follows(bad, ["AS"], "H", "5")
    with pytest.raises(ParseError):
        legal_follows(["AS", "KS"], bad, "H", "5")
    with pytest.raises(ParseError):
        trick_winner([["AS"], bad], "H", "5")
    with pytest.raises(ParseError):
        lead_format(bad, "H", "5")
    with pytest.raises(ParseError):
        zp.is_legal_follow(["AS", "KS"], ("AS",), bad, "H", "5")


@pytest.mark.parametrize("bad", [None, 5, 1.5, [], ["AS"]])
def test_oracles_refuse_non_card_strings(bad):
    with pytest.raises(ParseError):
        zp.card_order(bad, "H", "5")
    if bad is not None:                                             # None is a no-trump game
        with pytest.raises(ParseError):
            lead_format(["AS"], bad, "5")
    with pytest.raises(ParseError):
        lead_format(["AS"], "H", 15 if bad == 5 else bad)           # ranks: '2'..'A' or the ints 2..14
    assert zp.is_legal_follow(["AS", "KS"], ("QS",), ("KS",), "H", "5")      # tuples are card lists too


def test_scenario_validates_every_fact():
    g = cardsim.make("zhao_pengyou", players=6)
    ok = [["2S"], ["3S"], ["4S"], ["6S"], ["7S"], ["8S"]]
    kw = dict(trump_suit="H", trump_rank="2")
    g.spec.scenario(ok, **kw)
    bad_cases = [
        ([["AS"] * 216] + [[]] * 5, kw),                        # one 216-card hand: a dead state before
        ([[]] * 6, kw),                                         # all hands empty: a dead state before
        ([["2S", "3S"]] + ok[1:], kw),                          # unequal hands: a follower could not follow
        ([["2S"] * 3] + ok[1:], kw),                            # 3 copies in a 2-pack game
        (ok[:5], kw),                                           # wrong number of hands
        (ok, dict(kw, declarer=6)), (ok, dict(kw, declarer=1.5)), (ok, dict(kw, declarer=True)),
        (ok, dict(kw, leader=-1)), (ok, dict(kw, calls=[("AH", 3)])), (ok, dict(kw, calls=[("5H", 1)])),
        (ok, dict(kw, calls=[("AC", 1), ("AC", 1)])), (ok, dict(kw, captured=[0] * 5)),
        (ok, dict(kw, captured=[500, 0, 0, 0, 0, 0])), (ok, dict(kw, kitty=["AD"] * 7)),
        (ok, dict(kw, ranks=["2"] * 5)), (ok, dict(kw, decl=[0, 0])), (ok, dict(kw, nonsense=1)),
        (ok, dict(trump_suit="H")), (ok, dict(kw, last_winner=0)), (ok, dict(kw, finished=True)),
        (ok, dict(kw, played=[["2S", "2S"], [], [], [], [], []])),
    ]
    for hands, facts in bad_cases:
        with pytest.raises((ConfigError, ParseError)):
            g.spec.scenario(hands, **facts)
    s = g.spec.scenario(ok, **kw)
    assert not s.replayable and s.history() == []


# ---- issue 17 (first piece): no-trump games in the oracles ------------------------------------------------
def test_no_trump_oracles():
    """trump_suit=None (shengji's NoTrump): only the jokers and the trump rank are trumps, every
    trump-rank card is equal (the earlier play wins), and every suit is plain."""
    assert zp.card_order("AS", None, "4") == ("S", 12)
    assert zp.card_order("4S", None, "4")[0] == zp.card_order("4H", None, "4")[0] == "T"
    assert zp.card_order("4S", None, "4")[1] == zp.card_order("4H", None, "4")[1]
    assert zp.card_order("BJ", None, "4")[1] > zp.card_order("SJ", None, "4")[1] > zp.card_order("4D", None, "4")[1]
    assert trick_winner([["4S", "4S"], ["4H", "4H"]], None, "4") == 0          # equal trump pairs
    assert trick_winner([["AS"], ["2S"], ["4C"]], None, "4") == 2              # any trump-rank card trumps
    assert trick_winner([["4C"], ["SJ"], ["BJ"]], None, "4") == 2
    assert lead_format(["5S", "5S", "3S", "3S"], None, "4") == "sequence"     # the trump rank is skipped
    assert lead_format(["4S", "4H"], None, "4") == "throw"                     # two trumps, not a pair
    follows_are(["4D", "SJ", "AS", "2C"], ["4H"], None, "4", [["4D"], ["SJ"]])


# ---- shengji's rules (issue 17): the options, the preset, play, property tests ---------------------------
SHENGJI_POLICIES = ("no_protections", "longer_tuples_protected", "only_draw_tractor_on_tractor",
                    "longer_tuples_protected_and_only_draw_tractor_on_tractor", "no_format_based_draw")


def test_shengji_preset_is_shengjis_defaults():
    g = cardsim.make("zhao_pengyou", variant="shengji")
    o = g.options
    assert o["throw_units"] == "mixed" and o["tractor_adjacency"] == "shengji"
    assert (o["tractor_min_count"], o["tractor_min_length"]) == (2, 2)          # TractorRequirements::default
    assert o["draw_policy"] == "no_protections" and o["throw_evaluation"] == "all"
    assert o["bomb_policy"] == "no_bombs" and o["rainbows"] == 0
    assert o["failed_throw"] == "reveal_blocker"            # ThrowPenalty::None, halting player shown
    assert o["kitty_multiplier"] == "largest_component"     # KittyPenalty::Times
    assert o["notrump_declaration"] is True                 # JokerBidPolicy::BothTwoOrMore
    assert cardsim.make("zhao_pengyou").options["throw_units"] == "uniform"      # the seed stays the default


def test_shengji_options_are_validated():
    with pytest.raises(ConfigError, match="throw_units='mixed'"):
        cardsim.make("zhao_pengyou", draw_policy="no_protections")
    with pytest.raises(ConfigError, match="needs a shengji draw_policy"):
        cardsim.make("zhao_pengyou", throw_units="mixed")
    with pytest.raises(ConfigError, match="reject"):
        cardsim.make("zhao_pengyou", variant="shengji", failed_throw="reject")
    with pytest.raises(ConfigError, match="must be one of"):
        cardsim.make("zhao_pengyou", variant="shengji", draw_policy="nope")
    with pytest.raises(ConfigError, match="must be >= 2"):
        cardsim.make("zhao_pengyou", variant="shengji", tractor_min_count=1)
    for bad in ({"drawpolicy": "no_protections"}, {"rainbows": -1}, {"rainbows": 1.5}, {"bomb_policy": True},
                {"throw_evaluation": None}):
        with pytest.raises(ConfigError):
            lead_format(["AS"], "H", "5", variant="shengji", **bad)
        with pytest.raises(ConfigError):
            zp.legal_follows(["AS"], ["KS"], "H", "5", variant="shengji", **bad)
    with pytest.raises(ConfigError, match="unknown variant"):
        lead_format(["AS"], "H", "5", variant="tractor")
    with pytest.raises(ParseError):
        zp.lead_units(["AS", "XX"], "H", "5", variant="shengji")
    with pytest.raises(ParseError):
        zp.throw_outcome(["AS"], [["ZZ"]], "H", "5", variant="shengji")
    with pytest.raises(ConfigError):
        zp.throw_outcome(["AS"], "KS", "H", "5", variant="shengji")
    with pytest.raises(ConfigError, match="throw_units='mixed'"):
        zp.follow_matches(["AS"], ["KS"], "H", "5")
    with pytest.raises(IllegalActionError):
        zp.lead_units(["AS", "KH"], "C", "5", variant="shengji")


def test_shengji_leads_units_and_adjacency():
    V = "shengji"
    assert zp.lead_units(["8H", "8H", "7H", "2H"], "S", "4", variant=V) == [(2, ["8H"]), (1, ["7H"]), (1, ["2H"])]
    assert zp.lead_units(["QS", "QS", "KS", "KS", "AS"], "H", "4", variant=V) == [(2, ["QS", "KS"]), (1, ["AS"])]
    assert zp.lead_units(["4H", "4H", "4S", "4S"], "S", "4", variant=V) == [(2, ["4H", "4S"])]
    assert zp.lead_units(["4H", "4H", "AS", "AS"], "S", "4", variant=V) == [(2, ["AS", "4H"])]
    assert zp.lead_units(["4S", "4S", "SJ", "SJ", "BJ", "BJ"], "S", "4", variant=V) == [(2, ["4S", "SJ", "BJ"])]
    assert sorted(zp.lead_units(["4H", "4H", "4D", "4D"], "S", "4", variant=V)) == [(2, ["4D"]), (2, ["4H"])]
    assert lead_format(["4H", "4H", "AS", "AS"], "S", "4", variant=V) == "sequence"
    assert lead_format(["4H", "4H", "AS", "AS"], "S", "4", variant=V, tractor_adjacency="standard") == "throw"
    assert lead_format(["8H", "8H", "7H", "2H"], "S", "4", variant=V) == "throw"
    assert lead_format(["7S", "7H", "7D", "7C"], "S", "4", variant=V, rainbows=4) == "rainbow"
    assert lead_format(["7H"] * 4, "S", "4", variant=V, bomb_policy="allow_bombs") == "bomb"
    assert lead_format(["7H"] * 4, "S", "4", variant=V) == "set"
    # tractor requirements: three pairs needed for a tractor, or triples
    assert lead_format(["2H", "2H", "3H", "3H"], "S", "4", variant=V, tractor_min_length=3) == "throw"
    assert lead_format(["2H", "2H", "3H", "3H"], "S", "4", variant=V, tractor_min_count=3) == "throw"
    with pytest.raises(IllegalActionError):
        lead_format(["8H", "8H", "7H", "2H"], "S", "4")                # the seed: groups of one size


def test_shengji_draw_policy_examples():
    V = "shengji"
    hand = ["2S", "2S", "2S", "3S", "5S", "5S", "3S", "3S"]
    lead = ["8S", "8S", "9S", "9S"]                                      # a trump tractor (trump S/4)
    assert not zp.is_legal_follow(hand, lead, ["2S", "2S", "5S", "5S"], "S", "4", variant=V)
    assert zp.is_legal_follow(hand, lead, ["2S", "2S", "3S", "3S"], "S", "4", variant=V)
    assert zp.is_legal_follow(hand, lead, ["2S", "2S", "5S", "5S"], "S", "4", variant=V,
                              draw_policy="no_format_based_draw")
    # a pair led, a triple held: no_protections draws it, longer_tuples_protected does not
    assert not zp.is_legal_follow(["2S", "2S", "2S", "3S", "5S"], ["3S", "3S"], ["3S", "5S"], "S", "4", variant=V)
    assert zp.is_legal_follow(["2S", "2S", "2S", "3S", "5S"], ["3S", "3S"], ["3S", "5S"], "S", "4", variant=V,
                              draw_policy="longer_tuples_protected")


def test_shengji_throw_evaluation_and_bombs():
    V = "shengji"
    lead = ["AH", "AH", "KH"]                                            # a pair and a single of hearts
    # trumps: a pair of 3S and the big joker; a second trumper with a higher pair but a lower single
    t1, t2 = ["3S", "3S", "BJ"], ["6S", "6S", "5S"]
    assert trick_winner([lead, t1], "S", "2", variant=V) == 1
    assert trick_winner([lead, t1, t2], "S", "2", variant=V, throw_evaluation="all") == 1
    assert trick_winner([lead, t1, t2], "S", "2", variant=V, throw_evaluation="highest") == 1
    assert trick_winner([lead, t1, t2], "S", "2", variant=V, throw_evaluation="trick_unit_length") == 2
    four = ["8D"] * 4
    assert trick_winner([["AH", "KH", "QH", "JH"], four], "S", "2", variant=V, players=12) == 0
    assert trick_winner([["AH", "KH", "QH", "JH"], four], "S", "2", variant=V, bomb_policy="allow_bombs") == 1
    assert zp.is_legal_follow(four + ["3H"], ["AH", "KH", "QH", "JH"], four, "S", "2", variant=V,
                              bomb_policy="allow_bombs")
    assert not zp.is_legal_follow(four + ["3H"], ["AH", "KH", "QH", "JH"], four, "S", "2", variant=V,
                                  bomb_policy="allow_bombs_suit_following")


def test_shengji_failed_throw_forces_the_beaten_unit_in_play():
    g = cardsim.make("zhao_pengyou", variant="shengji")
    hands = [["8H", "8H", "7H", "2H"], ["9H", "3C", "4C", "5C"], ["6D", "7D", "8D", "9D"],
             ["6C", "7C", "8C", "9C"], ["JD", "QD", "KD", "AD"], ["JC", "QC", "KC", "AC"]]
    s = g.spec.scenario(hands, trump_suit="S", trump_rank="4", declarer=0)
    zp.play(s, ["8H", "8H", "7H", "2H"])
    v = g.spec.view(s)
    assert v["trick"][0] == ["2H"] and v["lead_format"] == "single"         # the single 2H is beaten by 9H
    assert sorted(v["exposed"][0]) == ["7H", "8H", "8H"] and v["fails"][0] == 1 and v["blocker"] == 1
    assert sorted(s.hand(0)) == ["7H", "8H", "8H"]


def test_notrump_declaration():
    g = cardsim.make("zhao_pengyou", variant="shengji")
    for seed in range(200):
        s = g.new_state(seed=seed)
        while s.phase == "draw":
            la = [s.action_to_string(int(a)) for a in s.legal_actions()]
            if "DECLARE NT" in la:
                q = s.current_player
                s.apply(s.string_to_action("DECLARE NT"))
                v = g.spec.view(s)
                assert v["declarer"] == q and v["trump_suit"] == "NT"
                assert Counter(v["exposed"][q]) in (Counter({"BJ": 2}), Counter({"SJ": 2}))
                assert zp.card_order("AS", None, v["trump_rank"])[0] == "S"
                k = 54 + 54 + 3 * 12 * 54 + 54 + 60                 # the trump-suit block (docs: observation)
                o = np.asarray(s.observation(q))
                assert not o[k:k + 4].any() and o[k + 4 + RANKS.index(v["trump_rank"])] == 1.0
                assert s.metrics()["trump_suit"] == 4                # metric: 4 = no trump
                return
            s.apply(s.string_to_action("PASS") if "PASS" in la else int(s.legal_actions()[0]))
    pytest.fail("no no-trump declaration offered in 200 deals")


@pytest.mark.parametrize("cfg", [{"variant": "shengji"},
                                 {"variant": "shengji", "players": 12, "bomb_policy": "allow_bombs", "rainbows": 4},
                                 {"variant": "shengji", "players": 5, "draw_policy": "longer_tuples_protected"},
                                 {"players": 6, "notrump_declaration": True}])
def test_shengji_playout_invariants(cfg):
    """Cards and points conserved, never a state without a legal action, over random playouts."""
    g = cardsim.make("zhao_pengyou", called_card_points="to_trick_winner", **cfg)
    row = zp.TABLE[g.spec.config["players"]]
    rng = np.random.default_rng(7)
    for seed in range(6):
        s = g.new_state(seed=seed)
        while not s.is_terminal():
            assert g.spec.card_total(s) == g.spec.deck_size
            la = s.legal_actions()
            assert len(la) > 0
            s.apply(int(la[rng.integers(len(la))]))
        v = g.spec.view(s)
        assert sum(v["captured"]) + v["kitty_points"] == 100 * row["decks"]


SJ_POOL = ["AH", "KH", "QH", "10H", "9H", "8H", "5H", "2H", "AS", "9S", "QS", "7C", "9D", "BJ"]
SJ_LEADS = [["JH"], ["JH", "JH"], ["JH", "JH", "10H", "10H"], ["JH", "JH", "8H", "8H"], ["KH", "KH", "QH"],
            ["AH", "AH", "KH", "KH", "3H"], ["QH", "QH", "QH"], ["6C", "6C", "3C"], ["7H", "7H", "7H", "7H"],
            ["AH", "AH", "9S", "9S"], ["6S", "6S", "4S", "3S"], ["8H", "8H", "AH", "AH"]]


def sj_factored_follows(hand, lead, T, R, opts):
    """Whole follows reachable through the engine's action space under shengji's rules (a
    12-player table, 4 packs: seat 0 leads `lead` standing, seat 1 holds `hand`)."""
    g = cardsim.make("zhao_pengyou", players=12, variant="shengji", **opts)
    copies = lambda c: 0 if c == "SJ" else (2 if c == "BJ" else 4)
    L, h = len(lead), len(hand)
    lead_suit = zp.card_order(lead[0], T, R)[0]
    used = Counter(lead) + Counter(hand)
    if any(n > copies(c) for c, n in used.items()):
        return None
    pool = [c for c in [r + su for su in "SHDC" for r in RANKS] + ["BJ"]
            if zp.card_order(c, T, R)[0] != lead_suit for _ in range(copies(c) - used[c])]
    pads = [pool[i * h:(i + 1) * h] for i in range(11)]
    if any(len(p) < h for p in pads):
        return None
    hands = [list(lead) + pads[10][:h - L], list(hand)] + pads[:10]
    s0 = g.spec.scenario(hands, trump_suit=T, trump_rank=R, declarer=0)
    zp.play(s0, lead)
    if Counter(g.spec.view(s0)["trick"][0]) != Counter(lead):
        return None
    results = set()

    def rec(s, taken):
        if s.current_player != 1:
            results.add(ms(taken))
            return
        for a in s.legal_actions():
            t = s.clone()
            t.apply(int(a))
            rec(t, taken + [s.action_to_string(int(a))])

    rec(s0, [])
    return results


@pytest.mark.parametrize("opts", [{}] + [{"draw_policy": p} for p in SHENGJI_POLICIES[1:]]
                         + [{"bomb_policy": "allow_bombs"}, {"bomb_policy": "allow_bombs_suit_following"},
                            {"tractor_min_length": 3}])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.lists(st.sampled_from(SJ_POOL), min_size=2, max_size=8), lead=st.sampled_from(SJ_LEADS),
       trump=st.sampled_from([("S", "4"), ("H", "9"), ("C", "5"), ("D", "J")]))
def test_property_shengji_factored_equals_brute_force(opts, hand, lead, trump):
    """Under shengji's rules (the preset, each draw policy, bombs): the engine's factored follow
    actions reach exactly the plays the whole-play kernel accepts (no dead ends, nothing missed),
    and legal_follows lists exactly those."""
    T, R = trump
    V = "shengji"
    try:
        lead_format(lead, T, R, variant=V, **opts)
    except IllegalActionError:
        return
    if len(hand) < len(lead) or any(v > 4 for v in Counter(hand).values()):
        return
    expected = {ms(c) for c in set(itertools.combinations(sorted(hand), len(lead)))
                if zp.is_legal_follow(hand, lead, list(c), T, R, variant=V, **opts)}
    assert expected, (hand, lead, trump, opts)                       # some follow is always legal
    assert as_set(zp.legal_follows(hand, lead, T, R, variant=V, **opts)) == expected
    if len(hand) <= 7:
        fact = sj_factored_follows(hand, lead, T, R, opts)
        if fact is not None:
            assert fact == expected, (hand, lead, trump, opts)


RB_POOL = ["7S", "7H", "7D", "7C", "8S", "8H", "8D", "8C", "9H", "AH", "4S", "BJ"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(hand=["7S", "7H", "7D", "7C", "8H", "8D", "7H"], rainbows=4, trump=("H", "9"))
@example(hand=["7S", "7H", "7D", "7C", "8S", "8H", "8D"], rainbows=3, trump=(None, "4"))
@given(hand=st.lists(st.sampled_from(RB_POOL), min_size=1, max_size=7), rainbows=st.sampled_from([0, 3, 4]),
       trump=st.sampled_from([("S", "4"), ("H", "9"), (None, "4")]))
def test_property_shengji_factored_leads(hand, rainbows, trump):
    """Under shengji's rules the factored lead reaches exactly the leads lead_format accepts (any
    set of one suit, rainbows when enabled): every ADD can be completed, no lead is missed."""
    T, R = trump
    if any(v > 4 for v in Counter(hand).values()) or hand.count("BJ") > 2:   # 12 players: 2 big jokers
        return
    opts = {"variant": "shengji", "rainbows": rainbows}
    expected = set()
    for n in range(1, len(hand) + 1):
        for c in set(itertools.combinations(sorted(hand), n)):
            try:
                lead_format(list(c), T, R, **opts)
            except IllegalActionError:
                continue
            expected.add(ms(c))
    g = cardsim.make("zhao_pengyou", players=12, **opts)
    h = len(hand)
    pool = [r + su for su in "CDH" for r in ("2", "3", "5", "6", "10", "J", "Q", "K") for _ in range(4)]
    others = [pool[i * h:(i + 1) * h] for i in range(11)]
    s0 = g.spec.scenario([list(hand)] + others, trump_suit=T, trump_rank=R, declarer=0)
    reached = committed_leads(s0)
    assert reached == expected, (hand, rainbows, trump)
    if rainbows and Counter(c[-1] for c in hand if c.startswith("7")) == Counter("SHDC"):
        assert ms(c for c in hand if c.startswith("7")) in reached              # the rainbow of 7s


def test_notation_constants_match_the_kernel():
    """notation.py (pure Python) restates the kernel's card and action constants; they must equal
    the values the compiled glue exports, and every action text round-trips (break one constant in
    notation.py and this fails)."""
    from cardsim.games.zhao_pengyou import _spec, notation
    assert notation.CONSTANTS == _spec.CONSTANTS
    for a in range(notation.NUM_ACTIONS + 1):
        assert notation.parse_action(notation.action_str(a)) == a
    for k in range(notation.NID):
        assert notation.parse_card(notation.card_str(k)) == k
