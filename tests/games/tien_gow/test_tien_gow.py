"""Tien Gow (docs/rules/tien_gow.md): the worked examples G-01..G-16, the decisions T1..T12, the
oracles against a brute-force reading of §2.2 and §5.2, invariants over many deals."""
import itertools
import random

import numpy as np
import pytest

import cardsim
from cardsim import ConfigError, IllegalActionError, ParseError
from cardsim.core._testing import rng_known_answers
from cardsim.games import tien_gow as tg

TILES = tg.TILES
FULL_SET = [t for k, t in enumerate(TILES) for _ in range(2 if k < 11 else 1)]


def game(**opts):
    return cardsim.make("tien_gow", **opts)


# ---- an independent reading of §2.1/§2.2 (brute force for the property tests) ----------------------
CIVIL = ["6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1"]
MIL_ROWS = [["6-3", "5-4"], ["6-2", "5-3"], ["5-2", "4-3"], ["4-2"], ["4-1", "3-2"], ["2-1"]]
MATCH = {"6-6": 0, "1-1": 1, "4-4": 2, "3-1": 3}          # civil tile -> military row it matches
ROW_OF = {t: r for r, row in enumerate(MIL_ROWS) for t in row}


def bf_single(t, fives_equal=True):
    if t in CIVIL:
        return ("single_civil", 11 - CIVIL.index(t))
    s = 2 * (6 - ROW_OF[t])
    if t == "4-1" and not fives_equal:
        s += 1
    return ("single_military", s)


def bf_classify(tiles, fives_equal=True, mixed=True):
    """(category, strength) per §2.2, or None."""
    ts = sorted(tiles)
    civ = [t for t in ts if t in CIVIL]
    mil = [t for t in ts if t not in CIVIL]
    n = len(ts)
    if n == 1:
        return bf_single(ts[0], fives_equal)
    mil_pair_row = None
    if len(mil) == 2 and ROW_OF[mil[0]] == ROW_OF[mil[1]] and mil[0] != mil[1] and ROW_OF[mil[0]] in (0, 1, 2, 4):
        mil_pair_row = ROW_OF[mil[0]]
    grp = {0: 0, 1: 1, 2: 2, 4: 3}
    if n == 2:
        if len(civ) == 2 and civ[0] == civ[1]:
            return ("pair_civil", 11 - CIVIL.index(civ[0]))
        if mil_pair_row is not None:
            return ("pair_military", 4 - grp[mil_pair_row])
        if sorted(mil) == ["2-1", "4-2"]:
            return ("supreme", 1)
        if mixed and len(civ) == 1 and civ[0] in MATCH and len(mil) == 1 and ROW_OF[mil[0]] == [0, 1, 2, 4][MATCH[civ[0]]]:
            return ("pair_mixed", 4 - MATCH[civ[0]])
        return None
    if not mixed:
        return None
    if n == 3:
        if len(civ) == 2 and civ[0] == civ[1] and civ[0] in MATCH and len(mil) == 1 \
                and ROW_OF[mil[0]] == [0, 1, 2, 4][MATCH[civ[0]]]:
            return ("triple_2c1m", 4 - MATCH[civ[0]])
        if len(civ) == 1 and civ[0] in MATCH and mil_pair_row == [0, 1, 2, 4][MATCH[civ[0]]]:
            return ("triple_1c2m", 4 - MATCH[civ[0]])
        return None
    if n == 4 and len(civ) == 2 and civ[0] == civ[1] and civ[0] in MATCH and mil_pair_row == [0, 1, 2, 4][MATCH[civ[0]]]:
        return ("quad", 4 - MATCH[civ[0]])
    return None


def bf_beats(play, high):
    """True if the tiles `play` beat the current high `high` (both classified by bf_classify)."""
    a, h = bf_classify(play), bf_classify(high)
    if a is None or h is None or h[0] == "supreme":
        return False
    return a[0] == h[0] and a[1] > h[1]


def bf_trick_winner(plays):
    hi = 0
    for i in range(1, len(plays)):
        if bf_beats(plays[i], plays[hi]):
            hi = i
    return hi


def random_tiles(rng, n):
    return rng.sample(FULL_SET, n)


# ---- G-01, G-02: the contest ---------------------------------------------------------------------
G01 = "6-6 6-6 | 1-1 1-1 | 4-4 4-4 | 1-3 1-3 | 5-5 5-5 | 3-3 3-3 | 2-2 2-2 | 5-6 5-6 | 4-6 4-6 | 1-6 1-6 | 1-5 1-5"
G02 = "6-3 5-4 | 6-2 5-3 | 5-2 4-3 | 4-2 | 4-1 3-2 | 2-1"


def levels(text):
    return [[tg.parse_tile(t) for t in lvl.split()] for lvl in text.split("|")]


def test_g01_g02_contest_rows():
    rows = tg.sort_tiles(tg.shuffled_set(7))
    for row, spec in ((rows["civil"], G01), (rows["military"], G02)):
        lv = levels(spec)
        assert len(row) == sum(map(len, lv))
        i = 0
        for level in lv:
            assert sorted(row[i:i + len(level)]) == sorted(level)
            i += len(level)
    assert len(rows["civil"]) == 22 and len(rows["military"]) == 10


def test_contest_order_is_strength_order_any_multiset():
    rng = random.Random(5)
    for _ in range(200):
        tiles = random_tiles(rng, rng.randint(0, 32))
        rows = tg.sort_tiles(tiles)
        assert sorted(rows["civil"] + rows["military"]) == sorted(tg.parse_tile(t) for t in tiles)
        assert all(t in CIVIL for t in rows["civil"]) and not any(t in CIVIL for t in rows["military"])
        for row in rows.values():
            for a, b in zip(row, row[1:]):
                # a left of b: b cannot beat a (a is at least as strong), and equal tiles are adjacent
                assert tg.trick_winner([[a], [b]]) == 0
            strengths = [bf_single(t)[1] for t in row]
            assert strengths == sorted(strengths, reverse=True)


def test_g02_wrong_entry_detected_by_the_order():
    # 4-2 right of 4-1 is wrong: 4-2 beats 4-1; swapping 6-3 and 5-4 is fine (equal)
    assert tg.trick_winner([["4-1"], ["4-2"]]) == 1
    assert tg.trick_winner([["6-3"], ["5-4"]]) == 0 and tg.trick_winner([["5-4"], ["6-3"]]) == 0


def test_sort_tiles_bad_input():
    with pytest.raises(ParseError):
        tg.sort_tiles(["6-6", "6-6", "6-6"])
    with pytest.raises(ParseError):
        tg.sort_tiles(["6-3", "3-6"])
    with pytest.raises(ParseError):
        tg.sort_tiles(["7-1"])
    with pytest.raises(ParseError):
        tg.sort_tiles("6-6")
    with pytest.raises(ParseError):
        tg.sort_tiles([6])
    assert tg.sort_tiles([]) == {"civil": [], "military": []}


def test_notation_and_names():
    assert tg.parse_tile("1-3") == "3-1" and tg.parse_tile("3-1") == "3-1"
    assert tg.parse_tile("Heaven") == "6-6" and tg.parse_tile("天") == "6-6"
    assert tg.parse_tile("goose") == "3-1" and tg.parse_tile("和") == "3-1"
    assert tg.parse_tile("二四") == "4-2" and tg.parse_tile("Six") == "4-2"
    assert tg.parse_tile("丁三") == "2-1" and tg.parse_tile("幺二") == "2-1"
    assert tg.parse_tile("銅錘六") == "5-1" and tg.parse_tile("Axe") == "6-5"
    with pytest.raises(ParseError, match="two tiles"):
        tg.parse_tile("Nines")
    for bad in ("", "6", "6-7", "0-0", "66", None, 3):
        with pytest.raises(ParseError):
            tg.parse_tile(bad)
    assert all(tg.parse_tile(t) == t for t in TILES)


# ---- combinations (§2.2, G-06, G-09, G-11) -------------------------------------------------------
@pytest.mark.parametrize("tiles,cat", [
    (["6-6"], "single_civil"), (["2-1"], "single_military"), (["5-1", "1-5"], "pair_civil"),
    (["6-3", "5-4"], "pair_military"), (["4-1", "3-2"], "pair_military"), (["6-6", "6-3"], "pair_mixed"),
    (["1-3", "4-1"], "pair_mixed"), (["4-2", "2-1"], "supreme"), (["1-1", "1-1", "6-2"], "triple_2c1m"),
    (["6-6", "6-3", "5-4"], "triple_1c2m"), (["4-4", "4-4", "5-2", "4-3"], "quad"),
])
def test_combination_categories(tiles, cat):
    assert tg.combination(tiles) == cat


@pytest.mark.parametrize("tiles", [["6-6", "5-5"], ["6-3", "6-2"], ["4-2", "4-1"], ["1-1", "1-1", "6-3"],
                                   ["6-6", "6-2"], ["5-5", "6-3"], ["6-6", "6-6", "6-3", "6-2"], [],
                                   ["6-6", "6-6", "1-1", "1-1", "4-4"]])
def test_g11_illegal_combinations(tiles):
    with pytest.raises(tg.CombinationError) as e:
        tg.combination(tiles)
    assert isinstance(e.value, ValueError) and "combination" in str(e.value)


def test_combination_options():
    with pytest.raises(tg.CombinationError):
        tg.combination(["6-6", "6-3"], mixed_combinations="pure_pairs_only")
    assert tg.combination(["6-6", "6-6"], mixed_combinations="pure_pairs_only") == "pair_civil"
    assert tg.combination(["6-6", "6-6", "2-2", "2-2"], two_pair_lead=True) == "two_pairs_civil"
    assert tg.combination(["6-3", "5-4", "4-1", "3-2"], two_pair_lead=True) == "two_pairs_military"
    with pytest.raises(tg.CombinationError):
        tg.combination(["6-6", "6-6", "2-2", "2-2"])
    with pytest.raises(ConfigError):
        tg.combination(["6-6"], early_death="off")
    with pytest.raises(ConfigError):
        tg.combination(["6-6"], mixed_combinations="maybe")


def test_combination_and_trick_winner_match_brute_force():
    rng = random.Random(11)
    table = [c for c in itertools.chain.from_iterable(itertools.combinations_with_replacement(range(21), n)
                                                      for n in (1, 2, 3, 4))]
    for ids in table:
        tiles = [TILES[k] for k in ids]
        if any(tiles.count(t) > (2 if t in CIVIL else 1) for t in tiles):
            continue
        exp = bf_classify(tiles)
        if exp is None:
            with pytest.raises(tg.CombinationError):
                tg.combination(tiles)
        else:
            assert tg.combination(tiles) == exp[0], tiles
    # random tricks whose lead is a legal combination
    leads = [list(c) for c in (TILES[k:k + 1] for k in range(21))]
    for ids in table:
        tiles = [TILES[k] for k in ids]
        if bf_classify(tiles) and all(tiles.count(t) <= (2 if t in CIVIL else 1) for t in tiles):
            leads.append(tiles)
    n_checked = 0
    for _ in range(4000):
        lead = rng.choice(leads)
        pool = list(FULL_SET)
        for t in lead:
            pool.remove(t)
        plays = [lead]
        for _ in range(3):
            if rng.random() < 0.5:
                # a same-category candidate drawn from the remaining tiles, when one exists
                cands = [c for c in leads if len(c) == len(lead) and all(c.count(t) <= pool.count(t) for t in c)
                         and bf_classify(c)[0] == bf_classify(lead)[0]]
                p = rng.choice(cands) if cands else rng.sample(pool, len(lead))
            else:
                p = rng.sample(pool, len(lead))
            for t in p:
                pool.remove(t)
            plays.append(list(p))
        assert tg.trick_winner(plays) == bf_trick_winner(plays), plays
        n_checked += 1
    assert n_checked == 4000


# ---- trick winner: G-03..G-10, T9, T12 ----------------------------------------------------------------
def test_g03_single_military():
    assert tg.trick_winner([["5-3"], ["6-6"], ["6-2"], ["6-3"]]) == 3


def test_g04_the_six():
    assert tg.trick_winner([["4-2"], ["2-1"], ["4-1"], ["5-2"]]) == 3
    assert tg.trick_winner([["4-2"], ["2-1"], ["4-1"], ["3-2"]]) == 0


def test_g05_single_civil():
    assert tg.trick_winner([["1-3"], ["4-4"], ["5-5"], ["6-6"]]) == 3
    assert tg.trick_winner([["1-3"], ["5-5"]]) == 0


def test_g06_civil_pair_t12():
    lead = ["1-1", "1-1"]
    assert tg.trick_winner([lead, ["6-6", "6-6"]]) == 1
    assert tg.trick_winner([lead, ["6-6", "6-3"]]) == 0     # mixed pair: another category (T12)
    assert tg.trick_winner([lead, ["6-3", "5-4"]]) == 0     # military pair: another category


def test_g07_mixed_pair():
    assert tg.trick_winner([["1-3", "4-1"], ["4-4", "4-3"], ["6-6", "5-4"], ["6-2", "5-3"]]) == 2


def test_g08_supreme():
    assert tg.trick_winner([["4-2", "2-1"], ["6-6", "6-6"], ["1-1", "1-1"], ["6-3", "5-4"]]) == 0
    assert tg.trick_winner([["6-6", "6-6"], ["5-5", "3-3"], ["4-2", "2-1"], ["1-1", "1-1"]]) == 0
    assert tg.trick_winner([["1-1", "1-1"], ["5-5", "3-3"], ["4-2", "2-1"], ["6-6", "6-6"]],
                           supreme_follow="highest_pair") == 2


def test_g09_triple_structure():
    assert tg.trick_winner([["1-1", "1-1", "6-2"], ["6-6", "6-6", "5-4"]]) == 1
    assert tg.trick_winner([["1-1", "1-1", "6-2"], ["6-6", "6-3", "5-4"]]) == 0


def test_g10_quadruple():
    assert tg.trick_winner([["4-4", "4-4", "5-2", "4-3"], ["6-6", "6-6", "6-3", "5-4"]]) == 1


def test_t9_ties_go_to_the_earlier_play():
    assert tg.trick_winner([["6-3"], ["5-4"]]) == 0
    assert tg.trick_winner([["5-5", "5-5"], ["6-6", "6-6"]]) == 1
    assert tg.trick_winner([["6-6", "6-3"], ["6-6", "5-4"]]) == 0
    assert tg.trick_winner([["2-2"], ["5-4"], ["2-2"]]) == 0


def test_t1_military_rows_equal_option():
    assert tg.trick_winner([["3-2"], ["4-1"]]) == 0
    assert tg.trick_winner([["3-2"], ["4-1"]], military_fives_equal=False) == 1
    assert tg.trick_winner([["4-1"], ["3-2"]], military_fives_equal=False) == 0


def test_two_pair_lead_comparison():
    kw = {"two_pair_lead": True}
    led = ["1-1", "1-1", "5-5", "5-5"]
    assert tg.trick_winner([led, ["6-6", "6-6", "5-1", "5-1"]], **kw) == 1     # Heaven pair outranks both led
    assert tg.trick_winner([led, ["4-4", "4-4", "3-3", "3-3"]], **kw) == 0     # Man pair does not
    assert tg.trick_winner([["6-2", "5-3", "4-1", "3-2"], ["6-3", "5-4", "5-2", "4-3"]], **kw) == 1


def test_trick_winner_bad_input():
    with pytest.raises(ParseError):
        tg.trick_winner([["6-6"], ["6-6", "1-1"]])
    with pytest.raises(tg.CombinationError):
        tg.trick_winner([["6-6", "5-5"], ["1-1", "1-1"]])
    with pytest.raises(ParseError):
        tg.trick_winner([["6-6", "6-6"], ["6-6", "1-1"]])      # a third 6-6
    with pytest.raises(ParseError):
        tg.trick_winner([])
    with pytest.raises(ParseError):
        tg.trick_winner("6-6")


# ---- settlement: G-14, G-15, T7 ---------------------------------------------------------------------
def test_g14_settlement_non_banker_winner():
    # banker B = 0, W = 1: tricks W 3, B 0, P 5, Q 0
    assert tg.score_deal([0, 3, 5, 0], banker=0, winner=1) == [-10, 14, 1, -5]


def test_g15_settlement_banker_wins():
    assert tg.score_deal([2, 4, 1, 1], banker=0, winner=0) == [12, 0, -6, -6]


def test_t7_banker_doubling_both_directions_and_increasing():
    # a losing banker with 5 tricks is paid double by the winner (fixed) ...
    pay = tg.score_deal([5, 1, 1, 1], banker=0, winner=1)
    assert pay == [2, 4, -3, -3]
    # ... but unmultiplied with the increasing multiplier (navpil)
    assert tg.score_deal([5, 1, 1, 1], banker=0, winner=1, banker_multiplier="increasing") == [1, 5, -3, -3]
    # increasing: x(2 + streak) on a banker win
    assert tg.score_deal([2, 4, 1, 1], banker=0, winner=0, banker_multiplier="increasing", streak=2) == [24, 0, -12, -12]
    assert tg.score_deal([8, 0, 0, 0], banker=1, winner=0, shutout_bonus=True) == [40, -20, -10, -10]
    for bad in ([1, 1, 1], [9, 0, 0, -1], [2, 2, 2, 1]):
        with pytest.raises(ConfigError):
            tg.score_deal(bad, 0, 0)
    with pytest.raises(ConfigError):
        tg.score_deal([0, 8, 0, 0], 0, 0)
    with pytest.raises(ConfigError):
        tg.score_deal([8, 0, 0, 0], 0, 0, streak=1)


# ---- the engine: scenarios ---------------------------------------------------------------------------
def test_g03_in_the_engine():
    g = game()
    st = tg.scenario(g, [["5-3", "1-1"], ["6-6", "5-5"], ["6-2", "3-3"], ["6-3", "2-2"]], banker=0,
                     tricks=[6, 0, 0, 0])
    tg.play(st, ["5-3"])
    with pytest.raises(IllegalActionError):
        tg.play_to_actions(st, ["6-6"])                      # not military: only a discard
    tg.play(st, ["6-6"], face_up=False)
    with pytest.raises(IllegalActionError):
        tg.play_to_actions(st, ["6-2"])                      # equal eight: not stronger
    tg.play(st, ["6-2"], face_up=False)
    tg.play(st, ["6-3"])
    v = g.spec.view(st)
    assert v["tricks"] == [6, 0, 0, 1] and v["turn"] == 3 and v["trick_log"][-1]["winner"] == 3


def test_g07_g10_tricks_credited_by_size():
    g = game()
    st = tg.scenario(g, [["3-1", "4-1", "5-5", "5-1"], ["4-4", "4-3", "2-2", "6-1"], ["6-6", "5-4", "3-3", "6-4"],
                         ["6-2", "5-3", "1-1", "6-5"]], tricks=[4, 0, 0, 0])
    tg.play(st, ["1-3", "4-1"])
    tg.play(st, ["4-4", "4-3"])
    tg.play(st, ["6-6", "5-4"])
    with pytest.raises(IllegalActionError):
        tg.play_to_actions(st, ["6-2", "5-3"])
    tg.play(st, ["6-2", "5-3"], face_up=False)
    assert g.spec.view(st)["tricks"] == [4, 0, 2, 0] and st.current_player == 2
    # G-10: a quadruple beaten, the winner credited 4 tricks
    st = tg.scenario(g, [["4-4", "4-4", "5-2", "4-3"], ["6-6", "6-6", "6-3", "5-4"], ["1-1", "2-2", "3-3", "5-5"],
                         ["1-1", "2-2", "3-3", "5-5"]], tricks=[4, 0, 0, 0])
    tg.play(st, ["4-4", "4-4", "5-2", "4-3"])
    tg.play(st, ["6-6", "6-6", "6-3", "5-4"])
    tg.play(st, ["1-1", "2-2", "3-3", "5-5"], face_up=False)
    tg.play(st, ["1-1", "2-2", "3-3", "5-5"], face_up=False)
    assert st.is_terminal() and g.spec.view(st)["tricks"] == [4, 4, 0, 0]


def test_g08_supreme_follow_in_the_engine():
    g = game()
    hands = [["6-6", "6-6"], ["1-1", "3-3"], ["4-2", "2-1"], ["5-5", "2-2"]]
    st = tg.scenario(g, hands, tricks=[6, 0, 0, 0])
    tg.play(st, ["6-6", "6-6"])
    tg.play(st, ["1-1", "3-3"], face_up=False)
    assert tg.legal_plays(st) == [(False, ["4-2", "2-1"])]
    st = tg.scenario(game(supreme_follow="highest_pair"), [["1-1", "1-1"], ["6-6", "3-3"], ["4-2", "2-1"],
                                                           ["5-5", "2-2"]], tricks=[6, 0, 0, 0])
    tg.play(st, ["1-1", "1-1"])
    tg.play(st, ["6-6", "3-3"], face_up=False)
    assert (True, ["4-2", "2-1"]) in tg.legal_plays(st)
    # led, the Supreme is unbeatable and wins 2 tricks
    st = tg.scenario(g, [["4-2", "2-1"], ["6-6", "6-6"], ["1-1", "1-1"], ["6-3", "5-4"]], tricks=[6, 0, 0, 0])
    tg.play(st, ["4-2", "2-1"])
    assert all(not up for up, _ in tg.legal_plays(st))


def test_g12_early_death_single_final_trick():
    g = game()
    st = tg.scenario(g, [["5-5"], ["2-2"], ["6-6"], ["3-3"]], tricks=[5, 2, 0, 0])
    tg.play(st, ["5-5"])
    tg.play(st, ["2-2"], face_up=False)
    assert tg.legal_plays(st) == [(False, ["6-6"])]          # P2 has no trick: must discard
    tg.play(st, ["6-6"], face_up=False)
    tg.play(st, ["3-3"], face_up=False)
    assert st.is_terminal() and g.spec.view(st)["deal_winner"] == 0
    # option off: P2 may beat; two_tricks: a seat with 1 trick may not
    st = tg.scenario(game(early_death="off"), [["5-5"], ["2-2"], ["6-6"], ["3-3"]], tricks=[5, 2, 0, 0])
    tg.play(st, ["5-5"])
    tg.play(st, ["2-2"], face_up=False)
    assert (True, ["6-6"]) in tg.legal_plays(st)
    st = tg.scenario(game(early_death="two_tricks"), [["5-5"], ["6-6"], ["1-1"], ["3-3"]], tricks=[5, 1, 1, 0])
    tg.play(st, ["5-5"])
    assert tg.legal_plays(st) == [(False, ["6-6"])]
    st = tg.scenario(game(early_death="two_tricks"), [["5-5"], ["6-6"], ["1-1"], ["3-3"]], tricks=[4, 2, 1, 0])
    tg.play(st, ["5-5"])
    assert (True, ["6-6"]) in tg.legal_plays(st)


def test_g13_early_death_not_for_multi_tile_final_trick():
    g = game()
    st = tg.scenario(g, [["2-2", "2-2"], ["5-1", "6-1"], ["6-6", "6-6"], ["3-3", "6-4"]], tricks=[4, 2, 0, 0])
    tg.play(st, ["2-2", "2-2"])
    tg.play(st, ["5-1", "6-1"], face_up=False)
    tg.play(st, ["6-6", "6-6"])
    tg.play(st, ["3-3", "6-4"], face_up=False)
    v = g.spec.view(st)
    assert st.is_terminal() and v["deal_winner"] == 2 and v["tricks"] == [4, 2, 2, 0]
    # settlement with banker 0 losing: due 4-4=0 (x2), seat 1 owes 2, seat 3 owes 5
    assert list(st.returns()) == [0, -2, 7, -5]


def test_g14_g16_settlement_and_next_banker_in_a_match():
    # G-14 through the engine: banker 0; seat 1 wins the final single trick with 3 tricks, B 0, P 5, Q 0
    st = tg.scenario(game(), [["5-1"], ["6-6"], ["6-1"], ["3-3"]], banker=0, leader=1, tricks=[0, 2, 5, 0])
    tg.play(st, ["6-6"])
    tg.play(st, ["6-1"], face_up=False)
    tg.play(st, ["3-3"], face_up=False)
    tg.play(st, ["5-1"], face_up=False)
    assert st.is_terminal() and list(st.returns()) == [-10, 14, 1, -5]
    # G-16: in a match the final trick's winner is the next banker and leads the next deal
    g = game(scope="match", num_deals=2)
    st = tg.scenario(g, [["5-1"], ["6-6"], ["2-1"], ["6-1"]], banker=0, leader=2, tricks=[0, 2, 5, 0])
    tg.play(st, ["2-1"])
    tg.play(st, ["6-1"], face_up=False)
    tg.play(st, ["5-1"], face_up=False)
    assert (True, ["6-6"]) not in tg.legal_plays(st)         # civil 6-6 cannot beat a military lead
    tg.play(st, ["6-6"], face_up=False)
    v = g.spec.view(st)
    assert v["deal_winner"] == 2 and v["deal_no"] == 1 and v["balance"] == [-10, -2, 17, -5]
    assert v["banker"] == 2 and st.current_player == 2 and not st.is_terminal()
    assert v["tricks"] == [0, 0, 0, 0] and all(len(st.hand(p)) == 8 for p in range(4))


def test_t2_beating_optional_and_must_beat_option():
    hands = [["5-3", "1-1"], ["6-3", "5-5"], ["6-2", "3-3"], ["6-6", "2-2"]]
    st = tg.scenario(game(), hands, tricks=[6, 0, 0, 0])
    tg.play(st, ["5-3"])
    plays = tg.legal_plays(st)
    assert (True, ["6-3"]) in plays and (False, ["6-3"]) in plays and (False, ["5-5"]) in plays
    st = tg.scenario(game(must_beat_if_able=True), hands, tricks=[6, 0, 0, 0])
    tg.play(st, ["5-3"])
    assert tg.legal_plays(st) == [(True, ["6-3"])]
    tg.play(st, ["6-3"])
    assert sorted(tg.legal_plays(st)) == [(False, ["3-3"]), (False, ["6-2"])]


def test_t4_deal_order_reimplemented():
    """Deal 0 of seed s: the banker is rng_below(4), then a Fisher-Yates of the 32 tiles (identity
    order, copies adjacent); the seat at offset j from the banker gets tiles 8j..8j+7."""
    def below(words, n):
        while True:
            x = next(words)
            m = (x >> 32) * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= (2**32 - n) % n:
                return m >> 32

    for seed in (1, 2, 99):
        words = iter(rng_known_answers(seed, 0, 0, 200))
        banker = below(words, 4)
        t = [k for k in range(21) for _ in range(2 if k < 11 else 1)]
        for i in range(31, 0, -1):
            j = below(words, i + 1)
            t[i], t[j] = t[j], t[i]
        st = game().new_state(seed=seed)
        assert st.current_player == banker and st.game.view(st)["banker"] == banker
        for j in range(4):
            assert st.hand((banker + j) % 4) == [TILES[k] for k in sorted(t[8 * j:8 * j + 8])]


def test_t5_match_length_and_bankroll():
    g = game(scope="match")
    assert g.options["num_deals"] == 16
    r = g.spec.run_batch(3, 0, 20, [0, 0, 0, 0])
    assert np.all(r["metrics"][:, g.metric_names.index("deals")] == 16)
    assert np.allclose(r["returns"].sum(axis=1), 0)
    g = game(scope="match", num_deals=200, bankroll=5)
    r = g.spec.run_batch(3, 0, 50, [0, 0, 0, 0])
    deals = r["metrics"][:, g.metric_names.index("deals")]
    assert np.all(deals < 200)
    assert np.all(r["returns"].min(axis=1) < -5)
    with pytest.raises(ConfigError):
        game(bankroll=0)
    with pytest.raises(ConfigError):
        game(num_deals=0)


def test_t8_discards_hidden_from_others():
    g = game()
    base = [["5-3", "1-1"], ["6-6", "5-5"], ["6-2", "3-3"], ["6-3", "2-2"]]
    a = tg.scenario(g, base, tricks=[6, 0, 0, 0])
    b = tg.scenario(g, base, tricks=[6, 0, 0, 0])
    tg.play(a, ["5-3"])
    tg.play(b, ["5-3"])
    tg.play(a, ["6-6"], face_up=False)
    tg.play(b, ["5-5"], face_up=False)
    # the discarder sees what it discarded (its hand differs too); the others see the same
    assert not np.array_equal(a.observation(1), b.observation(1))
    for p in (0, 2, 3):
        assert np.array_equal(a.observation(p), b.observation(p))
    for p in (0, 2, 3):
        r = a.resample(p, seed=4)
        assert np.array_equal(r.observation(p), a.observation(p))
    seen = set()
    for s in range(40):
        r = a.resample(0, seed=s)
        seen.add(tuple(g.spec.view(r)["trick_log"][-1]["plays"][1]["tiles"]))
    assert len(seen) > 1                                     # the discard is redrawn, never kept


def test_t6_t12_categories_in_the_engine():
    g = game()
    st = tg.scenario(g, [["1-1", "1-1"], ["6-6", "6-3"], ["5-4", "6-2"], ["6-6", "5-3"]],
                     tricks=[6, 0, 0, 0])
    tg.play(st, ["1-1", "1-1"])
    assert all(not up for up, _ in tg.legal_plays(st))       # mixed 6-6+6-3 on a civil pair: discard


def test_t10_hk_bonuses():
    g = game(hk_bonuses=True)
    st = tg.scenario(g, [["4-2", "2-1", "5-5"], ["6-6", "6-6", "1-1"], ["1-1", "3-3", "3-3"], ["6-3", "5-4", "2-2"]],
                     tricks=[5, 0, 0, 0])
    tg.play(st, ["4-2", "2-1"])
    assert list(st.returns()) == [6, -2, -2, -2]
    # the catch: a final single 2-1 lead won by 4-2; the leader pays double for everyone
    st = tg.scenario(g, [["2-1"], ["4-2"], ["5-5"], ["3-3"]], banker=1, leader=0, tricks=[2, 3, 1, 1])
    tg.play(st, ["2-1"])
    tg.play(st, ["4-2"])
    tg.play(st, ["5-5"], face_up=False)
    tg.play(st, ["3-3"], face_up=False)
    # winner 1 is the banker: dues x2 (banker) x2 (catch): seat 0 owes 2, seat 2 3, seat 3 3 -> all from 0
    assert list(st.returns()) == [-(2 + 3 + 3) * 4, (2 + 3 + 3) * 4, 0, 0]


def test_t11_no_bidding_banker_leads():
    g = game()
    for seed in range(5):
        st = g.new_state(seed=seed)
        assert st.phase == "play" and st.current_player == g.spec.view(st)["banker"]


# ---- factored actions vs a brute-force enumeration of §5.2 ------------------------------------------
def bf_legal_plays(st, g):
    v = g.spec.view(st)
    p = st.current_player
    hand = st.hand(p)
    out = set()
    if not v["trick_log"] or v["trick_log"][-1]["winner"] is not None or v["high"] is None:
        for n in range(1, 5):
            for c in set(itertools.combinations(hand, n)):
                if bf_classify(list(c)):
                    out.add((True, tuple(sorted(c, key=TILES.index))))
        return sorted(out)
    high = v["high"]
    k = len(high)
    final = len(hand) == k
    blocked = g.options["early_death"] != "off" and k == 1 and final and \
        v["tricks"][p] < (2 if g.options["early_death"] == "two_tricks" else 1)
    beats = set()
    if not blocked:
        for c in set(itertools.combinations(hand, k)):
            if bf_beats(list(c), high):
                beats.add((True, tuple(sorted(c, key=TILES.index))))
    out |= beats
    if not (g.options["must_beat_if_able"] and beats):
        for c in set(itertools.combinations(hand, k)):
            out.add((False, tuple(sorted(c, key=TILES.index))))
    return sorted(out)


@pytest.mark.parametrize("opts", [{}, {"must_beat_if_able": True}, {"early_death": "two_tricks"}])
def test_factored_actions_equal_brute_force(opts):
    g = game(**opts)
    rng = np.random.default_rng(8)
    checked = 0
    for d in range(25):
        st = g.new_state(seed=2, deal=d)
        while not st.is_terminal():
            if not g.spec.view(st)["stage"]:
                got = sorted((up, tuple(t)) for up, t in tg.legal_plays(st))
                assert got == bf_legal_plays(st, g)
                checked += 1
            la = st.legal_actions()
            st.apply(int(la[rng.integers(len(la))]))
    assert checked > 500


def test_play_helpers_round_trip():
    g = game()
    st = g.new_state(seed=4)
    for up, tiles in tg.legal_plays(st):
        acts = tg.play_to_actions(st, tiles, up)
        assert tg.actions_to_play(st, acts) == (up, tiles)
    with pytest.raises(IllegalActionError):
        tg.play_to_actions(st, ["6-6", "5-5"])
    with pytest.raises(IllegalActionError):
        tg.play_to_actions(st, ["6-6"], face_up="yes")
    with pytest.raises(ParseError):
        tg.play_to_actions(st, ["9-9"])
    with pytest.raises(ConfigError):
        tg.legal_plays(cardsim.make("karnoffel").new_state())
    with pytest.raises(ConfigError):
        tg.play_to_actions(None, ["6-6"])
    for text, a in (("up 6-6", 0), ("6-6", 0), ("lead heaven", 0), ("down 1-6", 21 + 9), ("commit", 42)):
        assert st.string_to_action(text) == a


def test_scenario_bad_input():
    g = game()
    with pytest.raises(ParseError):
        tg.scenario(g, [["6-6"], ["6-6"], ["6-6"], ["1-1"]])
    with pytest.raises(ParseError):
        tg.scenario(g, [["6-6", "6-6", "6-6"], ["1-1"] * 1, ["2-2"], ["3-3"]])
    with pytest.raises(ConfigError):
        tg.scenario(g, [["6-6"], ["1-1", "2-2"], ["3-3"], ["4-4"]])
    with pytest.raises(ConfigError):
        tg.scenario(g, [["6-6"], ["1-1"], ["3-3"], ["4-4"]], tricks=[7, 0, 0, 1], leader=2)
    with pytest.raises(ConfigError):
        tg.scenario(g, [["6-6"], ["1-1"], ["3-3"], ["4-4"]], banker=4)


# ---- invariants and the greedy agent -----------------------------------------------------------------
@pytest.mark.parametrize("cfg", tg.INFO.conformance_configs)
def test_zero_sum_tricks_and_tiles_over_many_deals(cfg):
    g = game(**cfg)
    r = g.spec.run_batch(17, 0, 3000, [0, 1, 0, 1])
    assert np.all(r["returns"].sum(axis=1) == 0)
    if cfg.get("scope", "deal") == "deal":
        tricks = r["metrics"][:, 3:7]
        assert np.all(tricks.sum(axis=1) == 8)
        assert np.all(tricks[np.arange(len(tricks)), r["metrics"][:, 0].astype(int)] >= 1)


@pytest.mark.parametrize("flags", list(itertools.product((False, True), repeat=4)))
def test_each_category_is_listed_strongest_first(flags):
    """The greedy agent's scans rely on it (is_sure, the follower's scan: the combinations that
    beat one of a category are a prefix of that category's list): in the table order of every
    configuration, strengths never rise within a category, and the Supreme's category holds it
    alone."""
    from cardsim.games.tien_gow import _rules as R

    by_cat = {}
    for counts, cat, strength in R.oracle_combos(flags):
        by_cat.setdefault(cat, []).append(strength)
    assert all(a >= b for xs in by_cat.values() for a, b in zip(xs, xs[1:])), by_cat
    assert len(by_cat[tg.CATEGORIES.index("supreme")]) == 1


def test_greedy_beats_random_seats_rotated():
    g = game()
    gains = []
    for seat in range(4):
        agents = [0] * 4
        agents[seat] = 1
        r = g.spec.run_batch(123, seat * 2500, 2500, agents)
        gains.append(r["returns"][:, seat])
    x = np.concatenate(gains)
    assert len(x) >= 10_000
    mean, half = x.mean(), 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    assert mean - half > 0, (mean, half)


def test_cli_sort_tiles(capsys):
    from cardsim.cli import main

    assert main(["sort-tiles", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    shuffled = out[0].split(": ", 1)[1].split()
    assert sorted(shuffled) == sorted(FULL_SET) and shuffled == tg.shuffled_set(3)
    assert out[1].split() == ["civil:"] + G01.replace("1-3", "3-1").replace("5-6", "6-5").replace("4-6", "6-4") \
        .replace("1-6", "6-1").replace("1-5", "5-1").split()
    assert out[2].split() == ["military:"] + G02.split()
    assert "µs" in out[3] and "60 s" in out[3]
    assert main(["tien-gow-sort", "--seed", "4"]) == 0


def test_resample_keeps_must_beat_discards_consistent():
    """With must_beat_if_able a discard tells the table the seat held no BEAT then: every
    resampled world keeps that true (the core policy's world check)."""
    g = game(must_beat_if_able=True)
    rng = np.random.default_rng(3)
    checked = 0
    for d in range(30):
        st = g.new_state(seed=5, deal=d)
        while not st.is_terminal() and checked < 400:
            v = g.spec.view(st)
            if not v["stage"] and v["trick_log"]:
                p = st.current_player
                r = st.resample(p, seed=d)
                rv = g.spec.view(r)
                # rebuild each other seat's holding trick by trick, newest first
                for q in range(4):
                    if q == p:
                        continue
                    held = list(r.hand(q))
                    for t in range(len(rv["trick_log"]) - 1, -1, -1):
                        tr = rv["trick_log"][t]
                        if q not in tr["plays"]:
                            continue
                        held += tr["plays"][q]["tiles"]
                        if not tr["plays"][q]["face_up"] and tr["leader"] != q:
                            # the high play q faced: the last face-up play before q's turn
                            order = [(tr["leader"] + i) % 4 for i in range(4)]
                            before = order[:order.index(q)]
                            high = [tr["plays"][x]["tiles"] for x in before if tr["plays"][x]["face_up"]][-1]
                            final = t == 7 or (len(held) == tr["size"])
                            if not (tr["size"] == 1 and final and rv["tricks"][q] == 0):
                                k = tr["size"]
                                assert not any(bf_beats(list(c), high) for c in itertools.combinations(held, k))
                                checked += 1
            la = st.legal_actions()
            st.apply(int(la[rng.integers(len(la))]))
    assert checked > 50
