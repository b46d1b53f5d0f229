"""Samba: the worked examples of docs/rules/samba.md (EX-S1..EX-S17) through the public oracles
and engine scenarios, with card strings (rank then suit, 'JK' = joker; '♣9' = '9C')."""
import numpy as np
import pytest

import cardsim
from cardsim import ConfigError, IllegalActionError, ParseError
from cardsim.games.samba import (can_take_pile, classify_meld, initial_meld_requirement, scenario,
                                 score_side)


def acts(st):
    return {st.action_to_string(int(a)) for a in st.legal_actions()}


def play(st, *moves):
    for m in moves:
        st.apply_string(m)
    return st


# ---- EX-S1 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cum,req,hoyle", [(-200, 15, 15), (0, 50, 50), (1495, 50, 50), (1500, 90, 90),
                                           (2995, 90, 90), (3000, 120, 120), (4995, 120, 120),
                                           (5000, 150, 120), (7000, 150, 160)])
def test_ex_s1_requirement(cum, req, hoyle):
    assert initial_meld_requirement(cum) == req
    assert initial_meld_requirement(cum, "hoyle") == hoyle


def test_ex_s1_engine_requirement_from_cum():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["4S", "5S", "9D"], ["4H", "5H", "9C"]], pile=["KD"], cum=[1600, -5])
    assert g.spec.view(st)["requirement"] == [90, 15]


# ---- EX-S2 / EX-S3: frozen pickups that open --------------------------------------------------
PILE9 = ["5S", "2H", "6D", "7D", "8D", "9D", "10D", "JD", "KC"]


def test_ex_s2_frozen_pickup_opens():
    hand = ["KH", "KS", "AD", "AC", "AS", "4C", "6H"]
    assert can_take_pile(hand, PILE9, [], False, 1600)
    assert not can_take_pile(["KH", "KS", "AD", "4C", "6H"], PILE9, [], False, 1600)


def test_ex_s3_buried_cards_do_not_count():
    pile = ["5S", "KD", "KC"]
    assert can_take_pile(["KH", "KS", "QD", "QC", "QS", "JK", "6C"], pile, [], False, 1600)
    assert not can_take_pile(["KH", "KS", "QD", "QC", "QS", "6C", "7C"], pile, [], False, 1600)


def test_ex_s3_engine_batch():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["KH", "KS", "QD", "QC", "QS", "JK", "6C"], ["4H", "5H", "9C"]], pile=["5S", "KD", "KC"],
                  cum=[1600, 0], turn=0, dealer=1)
    assert "take pair" in acts(st)
    play(st, "take pair", "+KH", "+KS")
    # the group K K K (30) may be melded: Q Q Q + JK (80) can still reach 90
    assert {"meld", "+JK"} <= acts(st)
    play(st, "meld", "+QD", "+QC", "+QS")
    assert "meld" not in acts(st), "Q Q Q brings the batch to 60 < 90 and leaves only JK 6C"
    play(st, "+JK", "meld")
    v = g.spec.view(st)
    assert v["opened"][0] and v["pile_take"] == 0
    assert sorted(st.hand(0)) == sorted(["6C", "5S", "KD"]), "the rest of the pile joins the hand"
    assert [m["cards"] for m in v["melds"][0]] == [["KS", "KH", "KC"], ["JK", "QS", "QD", "QC"]]


def test_ex_s3_penalize_raises_requirement():
    g = cardsim.make("samba", players=2, insufficient_initial_meld="penalize")
    st = scenario(g, [["KH", "KS", "KD", "QD", "QC", "QS", "6C", "7H"], ["4H", "5H", "9C"]], pile=["5S"],
                  cum=[1600, 0], turn=0, dealer=1, phase="meld")
    play(st, "+KH", "+KS", "+KD", "meld", "+QD", "+QC", "+QS", "meld")
    assert "fail" in acts(st) and not any(a.startswith("discard") for a in acts(st))
    play(st, "fail")
    v = g.spec.view(st)
    assert v["requirement"][0] == 190 and not v["opened"][0] and v["melds"][0] == []
    assert len(st.hand(0)) == 8
    rej = cardsim.make("samba", players=2)
    st = scenario(rej, [["KH", "KS", "KD", "QD", "QC", "QS", "6C", "7H"], ["4H", "5H", "9C"]], pile=["5S"],
                  cum=[1600, 0], turn=0, dealer=1, phase="meld")
    assert not any(a.startswith("+") for a in acts(st)), "reject: 60 can never reach 90"


# ---- EX-S4 / EX-S5: lay-off pickup, canastas ---------------------------------------------------
def test_ex_s4_unfrozen_layoff_pickup():
    melds = [["8D", "8S", "8H", "8C"]]
    pile = ["5S", "6D", "8C"]
    assert can_take_pile(["8H", "JK", "4C"], pile, melds, True)
    assert not can_take_pile(["8H", "JK", "4C"], ["5S", "2S", "8C"], melds, True)
    g = cardsim.make("samba")
    st = scenario(g, [["8H", "JK", "4C", "5D"], ["4H"], ["4D"], ["4S"]], pile=pile, melds=[melds, []], turn=0,
                  dealer=3)
    assert acts(st) == {"draw", "take layoff 0"}
    play(st, "take layoff 0")
    v = g.spec.view(st)
    assert len(v["melds"][0][0]["cards"]) == 5 and sorted(st.hand(0)) == sorted(["8H", "JK", "4C", "5D", "5S", "6D"])
    assert v["known"][0] == ["6D", "5S"] or sorted(v["known"][0]) == ["5S", "6D"]


def test_ex_s5_canasta_cannot_take_but_pair_can():
    canasta = ["9S", "9S", "9S", "9H", "9H", "9D", "9D"]
    pile = ["5S", "9H"]
    assert not can_take_pile(["9C", "4C", "5C"], pile, [canasta], True)
    assert can_take_pile(["9C", "9D", "5C"], pile, [canasta], True)
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["9C", "9D", "5C", "6C"], ["4H"]], pile=pile, melds=[[canasta], []], turn=0, dealer=1)
    play(st, "take pair", "+9C", "+9D", "meld")
    assert "merge 0" in acts(st)
    play(st, "merge 0", "into 1")
    m = g.spec.view(st)["melds"][0]
    assert len(m) == 1 and len(m[0]["cards"]) == 10 and "JK" not in m[0]["cards"]


# ---- EX-S6 / EX-S7: sequence pickups, blocked piles -------------------------------------------
SEQ = [["5H", "6H", "7H", "8H"]]


@pytest.mark.parametrize("top,hand,melds,ok", [
    ("9H", [], SEQ, True), ("4H", [], SEQ, True), ("10H", ["9H"], SEQ, False), ("9S", [], SEQ, False),
    ("JH", [], [["4H", "5H", "6H", "7H", "8H", "9H", "10H"]], False), ("6C", ["7C", "8C"], SEQ, False)])
def test_ex_s6_sequence_pickups(top, hand, melds, ok):
    assert can_take_pile(hand + ["4C", "KD"], ["5S", top], melds, True) is ok


@pytest.mark.parametrize("top", ["3S", "JK", "2D"])
def test_ex_s7_blocked(top):
    assert not can_take_pile(["3S", "3C", "JK", "2D", "KS", "KH"], ["5S", top], [["KD", "KD", "KC"]], True)


# ---- EX-S8 / EX-S9: validity ------------------------------------------------------------------
@pytest.mark.parametrize("cards,default,dutch", [
    (["7S", "7H", "2C"], True, True), (["7S", "2C", "JK"], False, False),
    (["7S", "7H", "7D", "2C", "2D"], True, False), (["7S", "7H", "7D", "7C", "2C", "2D"], True, True),
    (["7S", "7H", "7D", "7C", "7S", "2C", "2D", "JK"], False, False), (["2S", "2C", "JK"], False, False)])
def test_ex_s8_group_validity(cards, default, dutch):
    for variant, ok in (("standard", default), ("dutch", dutch)):
        if ok:
            assert classify_meld(cards, variant=variant) in ("rank", "canasta_mixed")
        else:
            with pytest.raises(ValueError):
                classify_meld(cards, variant=variant)


@pytest.mark.parametrize("cards,kind", [
    (["4S", "5S", "6S"], "sequence"), (["QS", "KS", "AS"], "sequence"), (["KS", "AS", "4S"], None),
    (["2S", "4S", "5S"], None), (["5S", "6S", "JK"], None), (["8S", "9S", "10S", "JS", "QS", "KS", "AS"], "samba"),
    (["4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"], None)])
def test_ex_s9_sequence_validity(cards, kind):
    if kind:
        assert classify_meld(cards) == kind
    else:
        with pytest.raises(ValueError):
            classify_meld(cards)


def test_classify_canastas_and_black_threes():
    assert classify_meld(["KS"] * 3 + ["KH"] * 3 + ["KD"]) == "canasta_natural"
    assert classify_meld(["KS"] * 3 + ["KH"] * 3 + ["JK"]) == "canasta_mixed"
    assert classify_meld(["3S", "3C", "3S"], going_out=True) == "black3"
    with pytest.raises(ValueError, match="going out"):
        classify_meld(["3S", "3C", "3S"])
    for bad in (["3H", "3D", "3H"], ["3S", "3S", "4S"], ["KS"], "KS KH KD", ["KS", "KS", "KS", "KS"]):
        with pytest.raises(ValueError):
            classify_meld(bad)
    with pytest.raises(ConfigError):
        classify_meld(["KS", "KH", "KD"], variant="nope")
    with pytest.raises(ConfigError):
        classify_meld(["KS", "KH", "KD"], wild_onto_canasta="sometimes")


# ---- EX-S10: merge -----------------------------------------------------------------------------
def merge_state(melds, **opts):
    g = cardsim.make("samba", players=2, **opts)
    return g, scenario(g, [["4C", "5C", "6D", "9H"], ["4H"]], pile=["5S"], melds=[melds, []], turn=0, dealer=1,
                       phase="meld")


def test_ex_s10_merge():
    g, st = merge_state([["KS", "KH", "2H"], ["KS", "KH", "KD", "JK"]])
    assert {"merge 0", "merge 1"} <= acts(st)
    play(st, "merge 0")
    assert acts(st) == {"into 1"}
    play(st, "into 1")
    m = g.spec.view(st)["melds"][0]
    assert len(m) == 1 and len(m[0]["cards"]) == 7 and g.spec.view(st)["canastas"] == [1, 0]
    g, st = merge_state([["KS", "KH", "2H", "2C"], ["KS", "KH", "KD", "JK"]])
    assert not any(a.startswith("merge") for a in acts(st))
    nat = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]
    g, st = merge_state([nat, ["KC", "KC", "JK"]], wild_onto_canasta="not_onto_natural")
    assert not any(a.startswith("merge") for a in acts(st))
    g, st = merge_state([nat, ["KC", "KC", "KS"]], wild_onto_canasta="not_onto_natural")
    assert "merge 0" in acts(st)


# ---- EX-S11: hand guard and going out ----------------------------------------------------------
CAN_Q = ["AS", "AS", "AH", "AH", "AD", "AD", "AC"]
CAN_K = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]


def test_ex_s11_hand_guard_one_canasta():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["QS", "QH", "QD", "8C"], ["4H"]], pile=["5S"], melds=[[CAN_Q], []], turn=0, dealer=1,
                  phase="meld")
    assert acts(st) == {"discard QS", "discard QH", "discard QD", "discard 8C"}


def test_ex_s11_going_out_with_two_canastas():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["QS", "QH", "QD", "8C"], ["4H", "5H"]], pile=["5S"], melds=[[CAN_Q, CAN_K], []], turn=0,
                  dealer=1, phase="meld")
    play(st, "+QS", "+QH", "+QD", "meld", "discard 8C")
    assert st.is_terminal() and g.spec.view(st)["end_type"] == "went_out"
    score = g.spec.view(st)["deal_scores"][0]
    assert score == 140 + 70 + 30 + 500 + 500 + 200     # aces, kings, Q Q Q, two canastas, out
    st = scenario(g, [["QS", "QH", "QD", "8C"], ["4H", "5H"]], pile=["5S"],
                  melds=[[CAN_Q, CAN_K, ["8S", "8H", "8D"]], []], turn=0, dealer=1, phase="meld")
    play(st, "+QS", "+QH", "+QD", "meld", "+8C", "layoff 2")
    assert st.is_terminal() and g.spec.view(st)["out_seat"] == 0


def test_ex_s11_black_threes_only_going_out():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["3S", "3C", "3S", "KD"], ["4H", "5H"]], pile=["5S"], melds=[[CAN_Q, CAN_K], []], turn=0,
                  dealer=1, phase="meld")
    play(st, "+3S", "+3C", "+3S", "meld", "discard KD")
    assert st.is_terminal() and g.spec.view(st)["end_type"] == "went_out"
    st = scenario(g, [["3S", "3C", "3S", "KD"], ["4H", "5H"]], pile=["5S"], melds=[[CAN_Q], []], turn=0,
                  dealer=1, phase="meld")
    assert not any(a.startswith("+3") for a in acts(st))


# ---- EX-S12 / EX-S13: scoring -------------------------------------------------------------------
SIDE_A = [["KS", "KS", "KS", "KH", "KH", "KH", "KD", "KD"], ["4H", "5H", "6H", "7H", "8H", "9H", "10H"],
          ["AS", "AS", "AH", "AH", "AD", "2S", "JK"], ["6S", "6H", "6D"]]
SIDE_B = [["QS", "QS", "QH", "QH", "QD", "QD", "QC"], ["5S", "5H", "5D", "2D"], ["9S", "10S", "JS"]]


def test_ex_s12_deal_score():
    assert score_side(SIDE_A, [[], ["4C", "9H", "JK"]], 2, True) == 2950
    assert score_side(SIDE_B, [["7D", "7C", "3S", "AH"], ["2H", "KD"]], 3, False) == 270
    assert 1450 + 2950 == 4400 and initial_meld_requirement(4400) == 120
    assert initial_meld_requirement(1450 + 270) == 90


def test_ex_s12_engine_scores_a_finished_deal():
    g = cardsim.make("samba")
    st = scenario(g, [["9D"], ["7D", "7C", "3S", "AH"], ["4C", "9H", "JK"], ["2H", "KD"]], pile=["5C"],
                  melds=[SIDE_A, SIDE_B], red3=[["3H", "3D"], ["3H", "3D", "3H"]], turn=0, dealer=3, phase="meld")
    play(st, "discard 9D")
    v = g.spec.view(st)
    assert v["end_type"] == "went_out" and v["deal_scores"] == [2950, 270]
    assert list(st.returns()) == [2950, 270, 2950, 270]


def test_ex_s13_red_three_extremes():
    two = [CAN_Q, CAN_K]
    base2 = score_side(two, [[]], 0, False)
    assert score_side(two, [[]], 6, False) - base2 == 1000
    one = [CAN_Q]
    base1 = score_side(one, [[]], 0, False)
    assert score_side(one, [[]], 6, False) - base1 == -1000
    assert score_side(one, [[]], 6, False, variant="dutch") - base1 == -600
    assert score_side(one, [["3H", "3D"]], 0, False, variant="dutch") - base1 == -750
    assert score_side(one, [["3H"], ["3D"]], 0, False, variant="dutch") - base1 == -1500
    assert score_side(one, [["3H", "3D"]], 0, False) - base1 == -200


# ---- EX-S14 / EX-S15: end of stock --------------------------------------------------------------
def test_ex_s14_forced_take():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["4D", "5D"], ["9H", "4C", "KD"]], pile=["6S", "9C"], melds=[[], [["9S", "9S", "9H", "9D"]]],
                  turn=1, dealer=0, stock=[])
    assert acts(st) == {"take layoff 0"}
    can9 = ["9S", "9S", "9S", "9H", "9D", "9D", "9D"]
    st = scenario(g, [["4D", "5D"], ["9H", "4C", "KD"]], pile=["6S", "9C"], melds=[[], [can9]], turn=1, dealer=0,
                  stock=[])
    assert st.is_terminal() and g.spec.view(st)["end_type"] == "stock_out"
    st = scenario(g, [["4D", "5D"], ["9H", "9H", "KD"]], pile=["6S", "9C"], melds=[[], [can9]], turn=1,
                  dealer=0, stock=[])
    assert acts(st) == {"take pair", "decline"}
    play(st, "decline")
    assert st.is_terminal() and g.spec.view(st)["end_type"] == "stock_out"


def test_ex_s15_last_draw_red_threes():
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["4D", "5D", "6D"], ["4C", "KD", "QD"]], pile=["6S"], turn=0, dealer=1, stock=["3D", "3H"])
    play(st, "draw")
    v = g.spec.view(st)
    assert st.is_terminal() and v["end_type"] == "red_threes_last" and sorted(v["red3"][0]) == ["3D", "3H"]
    st = scenario(g, [["4D", "5D", "6D"], ["4C", "KD", "QD"]], pile=["6S"], turn=0, dealer=1,
                  stock=["3D", "9S", "3H"])
    play(st, "draw")
    v = g.spec.view(st)
    assert not st.is_terminal() and st.phase == "meld" and "9S" in st.hand(0) and len(v["red3"][0]) == 2


# ---- EX-S16: Dutch sequence pickup --------------------------------------------------------------
def test_ex_s16_dutch_top_card_take():
    g = cardsim.make("samba", players=2, variant="dutch")
    pile = ["4S", "5S", "6S", "7S", "8S", "10S", "JS", "QS", "KS", "4D", "5D", "9C"]
    st = scenario(g, [["KD", "QD"], ["AD", "AH"]], pile=pile, melds=[[["6C", "7C", "8C"]], []], turn=0, dealer=1)
    assert acts(st) == {"draw", "take seq 0"}
    n_stock = len(g.spec.view(st)["stock"])
    play(st, "take seq 0")
    v = g.spec.view(st)
    assert v["melds"][0][0]["cards"] == ["9C", "8C", "7C", "6C"] and len(v["pile"]) == 11
    assert len(st.hand(0)) == 3 and len(v["stock"]) == n_stock - 1
    st = scenario(g, [["9D", "QD"], ["AD", "AH"]], pile=pile, melds=[[["9S", "9S", "9H"]], []], turn=0, dealer=1)
    assert acts(st) == {"draw"}


# ---- EX-S17: deal shape ---------------------------------------------------------------------------
@pytest.mark.parametrize("N,size", [(2, 15), (3, 15), (4, 15), (5, 15), (6, 13)])
def test_ex_s17_deal_shape(N, size):
    g = cardsim.make("samba", players=N)
    dealers = set()
    for d in range(40):
        st = g.new_state(seed=5, deal=d)
        v = g.spec.view(st)
        first = (v["dealer"] + 1) % N
        assert v["mover"] == first
        dealers.add(v["dealer"])
        r3 = sum(len(x) for x in v["red3"])
        # the first player exposed and replaced its dealt red threes already (T0)
        assert sum(len(st.hand(q)) for q in range(N)) == N * size
        assert len(v["stock"]) + len(v["pile"]) + r3 == 162 - N * size
        assert len(v["pile"]) >= 1 and not any(c in ("3H", "3D", "JK") or c.startswith("2") for c in v["pile"][-1:])
    assert dealers == set(range(N))
    if N == 6:
        st = g.new_state(seed=5, deal=0)
        assert [q % 3 for q in range(6)] == [0, 1, 2, 0, 1, 2]


# ---- errors and scenarios -------------------------------------------------------------------------
def test_bad_input_raises_typed_errors():
    g = cardsim.make("samba")
    with pytest.raises(ConfigError):
        cardsim.make("samba", players=7)
    with pytest.raises(ConfigError):
        scenario(g, [["KS"]] * 3)
    with pytest.raises(ConfigError):
        scenario(g, [["KS", "KS"], ["KS", "KS"], [], []])
    with pytest.raises(ParseError):
        scenario(g, [["XX"], [], [], []])
    with pytest.raises(ParseError):
        can_take_pile(["KS"], [], [], True)
    with pytest.raises(ParseError):
        can_take_pile(["KS"], ["KD"], [], 1)
    with pytest.raises(ParseError):
        score_side([], [[]], 7, False)
    with pytest.raises(ValueError):
        score_side([["KS", "QS"]], [[]], 0, False)
    st = g.new_state(1, 1)
    with pytest.raises(IllegalActionError):
        st.apply_string("meld")
    with pytest.raises(ParseError):
        st.string_to_action("layoff 99")


# ---- whole moves in cards <-> actions ----------------------------------------------------------------
def test_move_helpers_ex_s3_batch():
    from cardsim.games.samba import actions_to_moves, move_to_actions
    g = cardsim.make("samba", players=2)
    st = scenario(g, [["KH", "KS", "QD", "QC", "QS", "JK", "6C"], ["4H", "5H", "9C"]], pile=["5S", "KD", "KC"],
                  cum=[1600, 0], turn=0, dealer=1)
    move = {"take": "pair", "group": ["JK", "KH", "KS"], "batch": [["QD", "QC", "QS"]]}
    acts = move_to_actions(st, move)
    assert [st.action_to_string(a) for a in acts][:3] == ["take pair", "+KH", "+KS"], "the pair first"
    back = actions_to_moves(st, acts)
    assert back == [{"take": "pair", "group": ["KH", "KS", "JK"], "batch": [["QD", "QC", "QS"]]}]
    with pytest.raises(IllegalActionError):
        move_to_actions(st, {"take": "pair", "group": ["KH", "KS"], "batch": [["QD", "QC", "QS"]]})
    with pytest.raises(ParseError):
        move_to_actions(st, {"nonsense": 1})


def test_move_helpers_round_trip_random_deals():
    from cardsim.games.samba import actions_to_moves, move_to_actions
    g = cardsim.make("samba")
    rng = np.random.default_rng(3)
    for deal in range(3):
        st = g.new_state(seed=4, deal=deal)
        start = st.clone()
        while not st.is_terminal():
            la = st.legal_actions()
            st.apply(int(la[rng.integers(len(la))]))
        moves = actions_to_moves(start, st.history())
        replay = start.clone()
        for m in moves:
            for a in move_to_actions(replay, m):
                replay.apply(a)
        assert replay == st


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("preset", ["standard", "dutch", "hoyle", "official", "no_wild_on_natural"])
def test_kept_records_equal_a_rebuild_every_step(preset, players):
    """apply keeps each meld's record (type, key, naturals, wilds, ends) and each side's meld index
    up to date incrementally: after every action of random and greedy playouts they equal what the
    melds' cards give when classified and indexed from scratch."""
    from cardsim.games.samba._testing import records_consistent
    g = cardsim.make("samba", variant=preset, players=players)
    rng = np.random.default_rng(100 + players)
    checked = melds_seen = 0
    for deal in range(3):
        s = g.new_state(seed=5, deal=deal)
        while not s.is_terminal():
            la = s.legal_actions()
            # deal 1 greedy (builds and grows melds), the others random
            s.apply(int(g.spec.greedy_action(s, checked)) if deal == 1 else int(la[rng.integers(len(la))]))
            assert records_consistent(g.spec, s), f"deal {deal}, {s.history()[-1:]}"
            checked += 1
        melds_seen += sum(len(side) for side in g.spec.view(s)["melds"])
    assert checked > 100 and melds_seen > 0


@pytest.mark.parametrize("players,opts", [(4, {}), (2, {"scope": "match", "target_score": 3000}),
                                          (6, {"variant": "dutch"}),
                                          (4, {"insufficient_initial_meld": "penalize"}),
                                          (3, {"variant": "hoyle", "scope": "match", "target_score": 2000})])
def test_kept_index_equals_a_rebuild_mixed_resample_scenario(players, opts):
    """The meld index apply keeps (canastas placed and pending: the standing's red-three sign and
    the initial batch's canastas read them) equals a rebuild from the melds after every action of
    mixed random / greedy playouts (a match too: the next deal's reset; penalize: the failed
    batches given back), after resampling the state for the seat to act (the standing unchanged),
    and on a scenario state, whose standing is worked out by hand."""
    from cardsim.games.samba._testing import records_consistent
    opts = dict(opts)
    variant = opts.pop("variant", None)
    g = cardsim.make("samba", variant=variant, players=players, **opts)
    rng = np.random.default_rng(7 + players)
    checked = 0
    for deal in range(2):
        s = g.new_state(seed=11, deal=deal)
        greedy = rng.integers(2, size=players)
        while not s.is_terminal() and checked < 4000:
            la = s.legal_actions()
            p = s.current_player
            a = int(g.spec.greedy_action(s, checked)) if greedy[p] else int(la[rng.integers(len(la))])
            s.apply(a)
            assert records_consistent(g.spec, s), f"deal {deal}, {s.history()[-1:]}"
            if checked % 25 == 0 and not s.is_terminal():
                r = s.resample(s.current_player, seed=checked)
                assert records_consistent(g.spec, r)
                assert np.array_equal(np.asarray(r.standing()), np.asarray(s.standing()))
            checked += 1
    assert checked > 100
    if players == 4 and not opts:
        can = ["QS", "QH", "QD", "QC", "QS", "QH", "JK"]
        st = scenario(g, [["QS", "QH", "QD", "8C"], ["4H", "5H"], ["4D"], ["4C"]], pile=["5S"],
                      melds=[[can, ["KS", "KH", "KD"], ["4S", "5S", "6S"]], [["9D", "9C", "2H"]]], turn=0,
                      dealer=1)
        assert records_consistent(g.spec, st)
        # table points: Q canasta 7 x 10 - 10 + 50 + mixed bonus 300, three kings 30, 4-5-6 of spades 15;
        # the other side 9 9 2: 40 (fewer than two canastas: no red threes to count either way)
        assert list(st.standing()) == [70 - 10 + 50 + 300 + 30 + 15, 40] * 2


def test_no_identity_held_four_times():
    """Three decks: a packed Samba hand never holds an identity four times, the jokers included
    (add_kind keeps identity 52 at <= 3 copies, the rest on 53), so its layer 3 stays empty (the
    engine counts cards on three layers: sb_size). Six jokers and three copies of a card in one
    hand, then staged, melded and laid off."""
    from cardsim.games.samba._testing import records_consistent
    g = cardsim.make("samba", players=2)
    hand = ["JK"] * 6 + ["KS"] * 3 + ["KH", "KD", "9C", "4D"]
    st = scenario(g, [hand, ["4H", "5H"]], melds=[[["QS", "QH", "QD"]], []], opened=[True, False],
                  pile=["5S"], stock=["7C", "8D"], turn=0, dealer=1, phase="meld")
    assert records_consistent(g.spec, st)
    assert len(g.spec.view(st)["hands"][0]) == 13
    for move in ["+KS", "+KS", "+KS", "+JK", "+JK", "meld", "+JK", "+JK"]:
        st.apply_string(move)
        assert records_consistent(g.spec, st), move
    assert len(g.spec.view(st)["hands"][0]) == 6


def test_state_stays_under_8_kib():
    """The state struct (state_bytes is its bytes) stays under 8 KiB: gcc clears a struct that
    size inline at every deal (sb_init); past it the clear is a libc call, which the instruction
    measure of docs/performance.md counts byte by byte (about 5,000 instructions a deal more)."""
    g = cardsim.make("samba")
    assert len(g.new_state(seed=1, deal=0).state_bytes()) <= 8192
