"""Gleek: every worked example of docs/rules/gleek.md §10 (G1-G13) as a scenario with card
strings, the options of §8, the chip invariants and greedy vs random."""
import math

import numpy as np
import pytest

import cardsim
from cardsim import ConfigError, IllegalActionError, ParseError
from cardsim.games import gleek
from cardsim.games.gleek import (deal_hands, gleek_settlement, gleek_value, legal_follows, ruff_value,
                                 trick_settlement, trick_winner)

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
DECK = [r + s for s in "SHDC" for r in RANKS]


def game(**opts):
    return cardsim.make("gleek", **opts)


def view(st):
    return st.game.view(st)


def act(st, *texts):
    for t in texts:
        st.apply(st.string_to_action(t))
    return st


def legal_strings(st):
    return [st.action_to_string(int(a)) for a in st.legal_actions()]


def filled_hands(fixed, turnup, stock=()):
    """Three 12-card hands holding `fixed[p]`, the rest filled in deck order, leaving `stock`
    (and the turn-up) out."""
    used = {c for h in fixed.values() for c in h} | set(stock) | {turnup}
    rest = [c for c in DECK if c not in used]
    hands = []
    for p in range(3):
        h = list(fixed.get(p, []))
        while len(h) < 12:
            h.append(rest.pop(0))
        hands.append(h)
    assert len(rest) == 7 - len(stock)
    return hands


# Ruff scenario (G5-G9): dealer P0, eldest P1, middle P2. P1 buys the stock at 12 (both others
# pass), discards QS QC JC 10C 9C 8C 4C and takes JS 10S 8S AD 7D KC 5C, so that he holds the G4
# hand (ruff 44). P2's diamonds make ruff 44 (tie) or 39; P0's best suits are worth 30.
P1_DEALT = "AH KH QH 9H 4H QS QC JC 10C 9C 8C 4C".split()
P1_DISCARDS = "QS QC JC 10C 9C 8C 4C".split()
P1_AFTER = "AH KH QH 9H 4H JS 10S 8S AD 7D KC 5C".split()
P0_HAND = "AS KS 9S JH 10H 8H 9D 8D 6D AC 7C 6C".split()
P2_LOW = "7S 6S 5S 4S 7H 6H 5H".split()


def ruff_deal(p2_ruff=39, **opts):
    if p2_ruff == 44:
        p2, turnup = "KD QD JD 10D 4D".split() + P2_LOW, "5D"
    else:
        p2, turnup = "KD QD JD 5D 4D".split() + P2_LOW, "10D"
    g = game(**opts)
    st = deal_hands(g, [P0_HAND, P1_DEALT, p2], turnup, dealer=0)
    act(st, "PASS", "PASS")                               # P2, P0 pass: P1 buys at 12
    assert view(st)["buyer"] == 1 and st.phase == "exchange"
    act(st, *("DISCARD " + c for c in P1_DISCARDS))
    assert sorted(st.hand(1)) == sorted(P1_AFTER)
    assert st.phase == "vie" and st.current_player == 1
    return st


# ---- rule oracles ---------------------------------------------------------------------------
def test_g11_trick_legality_and_winner():
    assert legal_follows(["KC", "4C", "AH", "7S"], "9C") == ["KC", "4C"]
    assert sorted(legal_follows(["5H", "AS"], "9C")) == ["5H", "AS"]
    # P2 leads 9C, P0 plays 4C, P1 plays 5H (trump) or AS
    assert trick_winner(["9C", "4C", "5H"], "H") == 2
    assert trick_winner(["9C", "4C", "AS"], "H") == 0
    assert trick_winner(["♣9", "♣4", "♥5"], "♥") == 2
    assert trick_winner(["4H", "AS", "5H"], "H") == 2
    assert legal_follows(["KC", "AH"], None) == ["AH", "KC"]


def test_g4_ruff_values():
    assert ruff_value("AH KH QH 9H 4H JS 10S 8S AD 7D KC 5C".split()) == 44
    assert ruff_value("JS 10S 8S".split()) == 28
    assert ruff_value("AD 7D".split()) == 18
    assert ruff_value("KC 5C".split()) == 15
    full_suit = [r + "S" for r in RANKS]
    assert ruff_value(full_suit) == 90
    four_aces = ruff_value("AS AH AD AC".split())
    assert four_aces == math.inf and four_aces > ruff_value(full_suit)


def test_g10_gleeks_and_mournivals_oracle():
    p0 = "AS AH AD AC QS QH QD".split()
    p1 = "KS KH KC".split()
    assert gleek_value(p0) == 10 and gleek_value(p1) == 3 and gleek_value(["JS", "JH"]) == 0
    assert gleek_settlement([p0, p1, ["4S"]]) == [17, -4, -13]
    assert gleek_value("JS JH JD JC KS KH KD".split()) == 2 + 3
    assert gleek_value("JS JH JD".split(), gleek_values={"J": 5}) == 5


def test_g12_settlement_no_discard():
    scores, total, delta = trick_settlement([5, 4, 3], [["AH", "QH"], ["JH"], ["KH"]], "7H", dealer=0)
    assert scores == [33, 21, 12] and total == 66 and delta == [11, -1, -10]


def test_g13_settlement_discard_and_honour_turnup():
    scores, total, delta = trick_settlement([4, 5, 3], [[], ["JS"], ["KS"]], "AS", dealer=0, discards=["QS"])
    assert scores == [27, 24, 12] and total == 63 and delta == [6, 3, -9]
    assert sum(delta) == 0


def test_oracle_errors():
    with pytest.raises(ParseError):
        trick_winner(["2S", "AS"], "S")                  # no 2s in the Gleek pack
    with pytest.raises(ParseError):
        trick_winner(["AS", "AS"], "S")
    with pytest.raises(ParseError):
        trick_winner(["AS", "KS"], "X")
    with pytest.raises(ParseError):
        legal_follows(["ZZ"], None)
    with pytest.raises(ConfigError):
        trick_settlement([5, 5, 5], [[], [], []], "7H")


# ---- G1 turn-up --------------------------------------------------------------------------------
@pytest.mark.parametrize("turnup,opts,expected", [
    ("4C", {}, [8, -4, -4]),
    ("4C", {"tiddy_turnup_pay": 2}, [4, -2, -2]),
    ("4C", {"variant": "cotgrave"}, [4, -2, -2]),
    ("5C", {}, [0, 0, 0]),
    ("5C", {"towser_tumbler": True}, [10, -5, -5]),
    ("6H", {"towser_tumbler": True}, [12, -6, -6]),
    ("7H", {"towser_tumbler": True}, [0, 0, 0]),
])
def test_g1_tiddy(turnup, opts, expected):
    st = deal_hands(game(**opts), filled_hands({}, turnup), turnup, dealer=0)
    v = view(st)
    assert v["trump"] == turnup[-1] and v["turnup"] == turnup
    assert v["parts"]["turnup"] == expected
    assert st.returns().tolist() == expected


def test_tiddy_other_dealer():
    st = deal_hands(game(), filled_hands({}, "4S"), "4S", dealer=2)
    assert view(st)["parts"]["turnup"] == [-4, -4, 8]
    assert view(st)["eldest"] == 0 and st.current_player == 1


# ---- G2/G3 auction -----------------------------------------------------------------------------
def test_g2_auction_odd_price():
    st = deal_hands(game(), filled_hands({}, "7H"), "7H", dealer=0)
    v = view(st)
    assert v["high"] == 12 and v["high_bidder"] == 1 and st.current_player == 2
    act(st, "BID 13")
    assert st.current_player == 0
    assert legal_strings(st) == ["PASS"] + [f"BID {n}" for n in range(14, 41)]
    act(st, "PASS")
    assert st.current_player == 1 and "BID 14" in legal_strings(st) and "BID 13" not in legal_strings(st)
    act(st, "PASS")
    v = view(st)
    assert v["buyer"] == 2 and v["price"] == 13 and v["last_passer"] == 1
    assert v["parts"]["stock"] == [6, 7, -13]
    assert st.phase == "exchange" and st.current_player == 2


def test_g3_auction_uncontested():
    st = deal_hands(game(), filled_hands({}, "7H"), "7H", dealer=0)
    act(st, "PASS", "PASS")
    v = view(st)
    assert v["buyer"] == 1 and v["price"] == 12
    assert v["parts"]["stock"] == [6, -12, 6]


def test_auction_pass_is_permanent_and_eldest_may_raise():
    st = deal_hands(game(), filled_hands({}, "7H"), "7H", dealer=0)
    act(st, "PASS", "BID 20")                            # P2 passes, P0 outbids eldest's 12
    assert st.current_player == 1                        # eldest acts again (P2 is out)
    act(st, "BID 25")
    assert st.current_player == 0
    act(st, "PASS")
    assert view(st)["buyer"] == 1 and view(st)["parts"]["stock"] == [13, -25, 12]   # odd to P0 (last)


@pytest.mark.parametrize("opts,expected", [
    ({}, [-15, 7, 8]),                                   # odd chip to the last passer P2
    ({"stock_odd_chip": "eldest"}, [-15, 8, 7]),         # Cotton: to eldest P1
    ({"stock_payment": "full_each"}, [-30, 15, 15]),
])
def test_stock_payment_options(opts, expected):
    st = deal_hands(game(**opts), filled_hands({}, "7H"), "7H", dealer=0)
    act(st, "BID 13", "BID 15", "PASS", "PASS")          # P2 13, P0 15, P1 passes, P2 passes
    assert view(st)["buyer"] == 0
    assert view(st)["parts"]["stock"] == expected


def test_odd_chip_eldest_buyer_goes_to_last_passer():
    st = deal_hands(game(stock_odd_chip="eldest"), filled_hands({}, "7H"), "7H", dealer=0)
    act(st, "BID 13", "PASS", "BID 15", "PASS")          # P2 13, P0 pass, P1 15, P2 pass
    assert view(st)["buyer"] == 1 and view(st)["parts"]["stock"] == [7, -15, 8]


def test_stock_raise_plus_one_and_opening_13():
    st = deal_hands(game(stock_raise="plus_one"), filled_hands({}, "7H"), "7H", dealer=0)
    assert legal_strings(st) == ["PASS", "BID 13"]
    st = deal_hands(game(variant="cotgrave"), filled_hands({}, "7H"), "7H", dealer=0)
    assert view(st)["high"] == 13 and legal_strings(st)[:2] == ["PASS", "BID 14"]
    st = deal_hands(game(max_stock_bid=12), filled_hands({}, "7H"), "7H", dealer=0)
    assert legal_strings(st) == ["PASS"]


# ---- exchange --------------------------------------------------------------------------------
def test_exchange_discard_then_take():
    st = ruff_deal()
    v = view(st)
    assert sorted(v["discards"]) == sorted(P1_DISCARDS)
    assert v["stock"] == [] and sorted(v["kept"][1]) == sorted(P1_AFTER)
    assert st.game.card_total(st) == 44


def test_exchange_discard_only_own_dealt_cards():
    g = game()
    st = deal_hands(g, [P0_HAND, P1_DEALT, "KD QD JD 5D 4D".split() + P2_LOW], "10D", dealer=0)
    act(st, "PASS", "PASS")
    assert sorted(legal_strings(st)) == sorted("DISCARD " + c for c in P1_DEALT)
    with pytest.raises(IllegalActionError):
        act(st, "DISCARD JS")                              # a stock card: not yet in hand


def test_exchange_take_first():
    g = game(exchange_order="take_first")
    st = deal_hands(g, [P0_HAND, P1_DEALT, "KD QD JD 5D 4D".split() + P2_LOW], "10D", dealer=0)
    act(st, "PASS", "PASS")
    assert len(st.hand(1)) == 19 and len(st.legal_actions()) == 19
    act(st, "DISCARD JS", "DISCARD QS", "DISCARD QC", "DISCARD JC", "DISCARD 10C", "DISCARD 9C", "DISCARD 8C")
    assert len(st.hand(1)) == 12 and "JS" not in st.hand(1) and "4C" in st.hand(1)
    assert st.phase == "vie"


# ---- G5-G9 vying the ruff ----------------------------------------------------------------------
def test_g5_vie_revie_see():
    st = ruff_deal(39)
    assert view(st)["base"] == 2
    act(st, "VIE")
    assert view(st)["stake"] == 2 and st.current_player == 2
    act(st, "REVIE")
    assert view(st)["stake"] == 4 and st.current_player == 0
    assert legal_strings(st) == ["PASS", "SEE", "REVIE"]
    act(st, "PASS", "SEE")                               # P0 folds (owes 0), P1 sees
    v = view(st)
    assert v["committed"] == [0, 4, 4] and v["folded"] == [0]
    assert v["showdown"] and v["ruff"] == [None, 44, 39] and v["ruff_suit"] == [None, "H", "D"]
    assert v["parts"]["ruff"] == [0, 4, -4]
    assert set(v["shown"][1]) >= {"AH", "KH", "QH", "9H", "4H"}


def test_g5_fold_pays_stake_option():
    st = ruff_deal(39, fold_pays="stake")
    act(st, "VIE", "REVIE", "PASS", "SEE")
    assert view(st)["parts"]["ruff"] == [-4, 8, -4]


def test_g6_fold_after_vie():
    st = ruff_deal(39)
    act(st, "VIE", "REVIE", "PASS", "PASS")              # P0 folds, then P1 folds
    v = view(st)
    assert v["parts"]["ruff"] == [0, -2, 2]
    assert not v["showdown"] and v["ruff"] == [None, None, None]
    assert st.phase == "play"


def test_g7_tie():
    st = ruff_deal(44)
    act(st, "VIE", "SEE", "SEE")                         # P1 vies, P2 sees, P0 sees
    v = view(st)
    assert v["ruff"] == [30, 44, 44]
    assert v["parts"]["ruff"] == [-2, 1, 1]


def test_dead_ruff_moves_nothing():
    st = ruff_deal(44)
    act(st, "PASS", "PASS", "PASS")
    assert view(st)["parts"]["ruff"] == [0, 0, 0] and not view(st)["vied"]


def test_g8_dead_ruffs_in_a_match():
    g = game(scope="match", num_deals=5)
    st = g.new_state(seed=3, deal=0)
    bases = []
    for d in range(4):
        while st.phase != "vie":
            st.apply(int(st.legal_actions()[0]))
        bases.append(view(st)["base"])
        if d < 2:
            act(st, "PASS", "PASS", "PASS")             # dead: no chips
            assert view(st)["parts"]["ruff"] == [0, 0, 0]
        elif d == 2:
            act(st, "VIE")
            assert view(st)["stake"] == 6
        while st.phase == "vie":
            st.apply(int(st.legal_actions()[0]))
        while st.phase not in ("vie", "end") and view(st)["deal_no"] == d:
            st.apply(int(st.legal_actions()[0]))
    assert bases == [2, 4, 6, 2]


def test_g8_base_from_dead_count():
    st = deal_hands(game(), filled_hands({}, "7H"), "7H", dealer=0, dead=2)
    assert view(st)["base"] == 6


def test_g9_check_then_respond():
    st = ruff_deal(39)
    act(st, "PASS")                                      # P1 checks
    assert st.current_player == 2 and legal_strings(st) == ["PASS", "VIE"]
    act(st, "VIE")
    assert view(st)["pending"] == [0, 1]
    act(st, "PASS")                                      # P0 folds (owes 0)
    assert st.current_player == 1 and legal_strings(st) == ["PASS", "SEE", "REVIE"]
    act(st, "SEE")
    v = view(st)
    assert v["showdown"] and v["ruff"] == [None, 44, 39]
    assert v["parts"]["ruff"] == [0, 2, -2]


def test_max_revies():
    st = ruff_deal(39, max_revies=1)
    act(st, "VIE", "REVIE")
    assert "REVIE" not in legal_strings(st)
    st = ruff_deal(39)
    act(st, "VIE", "REVIE", "REVIE", "REVIE")           # P1 vie 2, P2 4, P0 8, P1 16
    assert view(st)["stake"] == 16 and "REVIE" not in legal_strings(st)
    act(st, "SEE", "SEE")                                # P2 and P0 see 16
    assert view(st)["parts"]["ruff"] == [-16, 32, -16]


def test_four_aces_beat_any_ruff():
    aces = "AS AH AD AC 4S 5S 4H 5H 4D 5D 4C 5C".split()
    spades = [r + "S" for r in RANKS if r not in ("A", "4", "5")]        # K..6 of spades: 8 cards
    p2 = spades + "KH QH JH 10H".split()
    hands = filled_hands({0: aces, 2: p2}, "9C")
    st = deal_hands(game(), hands, "9C", dealer=1)      # eldest P2, middle P0, dealer P1
    act(st, "PASS", "PASS")                              # P0, P1 pass: P2 (eldest) buys at 12
    act(st, *("DISCARD " + c for c in "KH QH JH 10H 6S 7S 8S".split()))
    v_before = ruff_value(st.hand(2))
    act(st, "VIE", "SEE", "SEE")
    v = view(st)
    assert v["ruff"][0] == 1000 and v["ruff_suit"][0] == "A" and v["ruff"][2] == v_before
    assert v["parts"]["ruff"] == [4, -2, -2]


# ---- G10 gleeks in a deal --------------------------------------------------------------------
G10_P0 = "AS AH AD AC QS QH QD JD JC 10S 9S 8S".split()
G10_P1 = "KS KH KC 7S 6S 5S 4S 10H 9H 8H 7H 6H".split()
G10_P2 = "KD QC JS JH 5H 4H 10D 9D 8D 7D 6D 5D".split()


def g10_deal(**opts):
    st = deal_hands(game(**opts), [G10_P0, G10_P1, G10_P2], "4D", dealer=0)
    act(st, "PASS", "PASS")                              # P1 buys
    act(st, *("DISCARD " + c for c in "7S 6S 5S 4S 10H 9H 8H".split()))
    act(st, "PASS", "PASS", "PASS")                      # dead ruff
    return st


def test_g10_gleeks_in_a_deal():
    st = g10_deal()
    v = view(st)
    assert v["declared"] == [["A", "Q"], ["K"], []]
    assert v["gleek_value"] == [10, 3, 0]
    assert v["parts"]["gleeks"] == [17, -4, -13]
    assert {"AS", "AH", "AD", "AC", "QS", "QH", "QD"} <= set(v["shown"][0])
    assert st.phase == "play" and st.current_player == 1


def test_g10_optional_declarations():
    st = g10_deal(gleek_declaration="optional")
    assert st.phase == "declare" and st.current_player == 1      # eldest first; P2 has no set
    assert legal_strings(st) == ["DECLARE K", "DONE"]
    act(st, "DECLARE K")
    assert legal_strings(st) == ["DONE"]
    act(st, "DONE")
    assert st.current_player == 0
    assert legal_strings(st) == ["DECLARE A", "DECLARE Q", "DONE"]
    act(st, "DECLARE A", "DONE")                         # P0 keeps his queens secret
    v = view(st)
    assert st.phase == "play" and v["declared"] == [["A"], ["K"], []]
    assert v["parts"]["gleeks"] == [16 - 3, 6 - 8, -11]
    assert "QS" not in v["shown"][0]


# ---- trick play and settlement in a deal --------------------------------------------------------
def play_out(st, rng=None):
    while not st.is_terminal():
        la = st.legal_actions()
        st.apply(int(la[0] if rng is None else la[rng.integers(len(la))]))
    return st


def test_play_follow_suit_in_engine():
    st = g10_deal()
    lead = st.hand(1)[0]
    act(st, lead)
    follower = st.hand(2)
    led_suit = lead[-1]
    expect = [c for c in follower if c[-1] == led_suit] or follower
    assert sorted(legal_strings(st)) == sorted(expect)


@pytest.mark.parametrize("opts", [{}, {"honour_scoring": "won"}, {"variant": "parlett"}])
def test_settlement_totals_random_deals(opts):
    """Zero-sum chips; scores total T = 66 less the discarded trump honours (§6.5)."""
    g = game(**opts)
    rng = np.random.default_rng(5)
    honour = {"A": 15, "K": 3, "Q": 3, "J": 9}
    for d in range(60):
        st = play_out(g.new_state(seed=8, deal=d), rng)
        v = view(st)
        trump = v["trump"]
        disc = sum(honour[c[:-1]] for c in v["discards"] if c[-1] == trump and c[:-1] in honour)
        assert v["points_total"] == 66 - disc
        assert sum(v["score"]) == v["points_total"]
        assert sum(v["tricks"]) == 12
        for k, part in v["parts"].items():
            assert sum(part) == 0, k
        assert v["parts"]["tricks"] == [s - v["points_total"] // 3 for s in v["score"]]
        src = v["won"] if opts.get("honour_scoring") == "won" else v["played"]
        for p in range(3):
            hon = sum(honour[c[:-1]] for c in src[p] if c[-1] == trump and c[:-1] in honour)
            turn = honour.get(v["turnup"][:-1], 0) if p == v["dealer"] else 0
            assert v["score"][p] == 3 * v["tricks"][p] + hon + turn
        assert st.returns().tolist() == v["deal_chips"]
        assert abs(st.returns().sum()) < 1e-9


def test_match_end_conditions():
    g = game(scope="match", num_deals=6, starting_chips=100)
    res = g.spec.run_batch(7, 0, 400, [0, 0, 0])
    chips = res["returns"] + 100
    deals = res["metrics"][:, g.metric_names.index("deals")]
    assert np.allclose(res["returns"].sum(axis=1), 0)
    for c, d in zip(chips, deals):
        assert 1 <= d <= 6
        if d < 6:
            assert c.min() <= 0
    assert (deals < 6).any() and (deals == 6).any()


def test_match_dealer_rotates():
    g = game(scope="match", num_deals=3)
    st = g.new_state(seed=1, deal=0)
    dealers = []
    while not st.is_terminal():
        v = view(st)
        if not dealers or dealers[-1][0] != v["deal_no"]:
            dealers.append((v["deal_no"], v["dealer"]))
        st.apply(int(st.legal_actions()[0]))
    seq = [d for _, d in dealers]
    assert len(seq) == 3 and seq[1] == (seq[0] + 1) % 3 and seq[2] == (seq[1] + 1) % 3
    assert view(st)["deal_no"] == 3


# ---- configuration and input errors ---------------------------------------------------------------
def test_config_errors():
    with pytest.raises(ConfigError):
        game(players=4)
    with pytest.raises(ConfigError):
        game(tiddy_turnup_pay=3)
    with pytest.raises(ConfigError):
        game(honour_values=(15, 3, 3, 10))               # not a multiple of 3
    with pytest.raises(ConfigError):
        game(stock_opening_bid=50)                       # above max_stock_bid 40
    with pytest.raises(ConfigError):
        game(max_stock_bid=5000)
    with pytest.raises(ConfigError):
        game(variant="nope")
    with pytest.raises(ConfigError):
        game(bogus=1)
    assert game(max_stock_bid=960).num_actions <= 1024


def test_action_strings_and_illegal():
    st = deal_hands(game(), filled_hands({}, "7H"), "7H", dealer=0)
    assert st.string_to_action("bid 13") == st.string_to_action("13")
    with pytest.raises(ParseError):
        st.string_to_action("BID")
    with pytest.raises(IllegalActionError):
        act(st, "BID 12")                                # not above the forced 12
    with pytest.raises(IllegalActionError):
        act(st, "VIE")
    with pytest.raises(ConfigError):
        deal_hands(game(), filled_hands({}, "7H"), "AS", dealer=0)   # turn-up in a hand


def test_observation_hides_stock_and_discards():
    st = ruff_deal(39)
    o0, o1 = st.observation(0), st.observation(1)
    assert o1[44:88].sum() == 7                          # the buyer sees his own discards
    assert o0[44:88].sum() == 0


# ---- greedy agent ------------------------------------------------------------------------------
def test_greedy_beats_random_rotated():
    """Greedy on one seat, random on the others, seats rotated: 3 x 3,400 deals."""
    g = game()
    gains = []
    for seat in range(3):
        codes = [0, 0, 0]
        codes[seat] = 1
        res = g.spec.run_batch(12345, seat * 100_000, 3400, codes)
        gains.append(res["returns"][:, seat])
    x = np.concatenate(gains)
    assert len(x) >= 10_000
    mean, half = x.mean(), 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    assert mean - half > 0, (mean, half)


def test_resample_keeps_public_facts():
    """From P2's view after the G10 declarations: P0 keeps his shown mournival and gleek, P1 his
    kings; nobody gets the fourth queen or king (their sets were declared as gleeks), and with
    automatic declarations nobody gets a set that was not declared."""
    st = g10_deal()
    act(st, st.hand(1)[0])
    for seed in range(20):
        r = st.resample(2, seed=seed)
        v = view(r)
        assert r.hand(2) == st.hand(2)
        assert {"AS", "AH", "AD", "AC", "QS", "QH", "QD"} <= set(r.hand(0))
        assert {"KS", "KH", "KC"} <= set(r.hand(1) + v["played"][1])
        assert "QC" not in r.hand(0) and "KD" not in r.hand(1)
        full = [set(r.hand(p)) | set(v["played"][p]) for p in range(3)]
        for p in (0, 1):
            for rank in "AKQJ":
                n = sum(1 for c in full[p] if c[:-1] == rank)
                assert (n >= 3) == (rank in v["declared"][p]), (p, rank, n)
        assert np.array_equal(r.observation(2), st.observation(2))


def test_resample_keeps_showdown_suit():
    st = ruff_deal(39)
    act(st, "VIE", "REVIE", "PASS", "SEE")               # showdown: P1 hearts 44, P2 diamonds 39
    for seed in range(10):
        r = st.resample(0, seed=seed)
        v = view(r)
        assert [c for c in r.hand(1) if c[-1] == "H"] == ["AH", "KH", "QH", "9H", "4H"]
        assert sorted(c for c in r.hand(2) if c[-1] == "D") == sorted("KD QD JD 5D 4D".split())
        assert ruff_value(r.hand(1)) == 44 and ruff_value(r.hand(2)) == 39
        assert r.hand(0) == st.hand(0)


# ---- bad input never crashes, never scores (issue: hardening) ----------------------------------
@pytest.mark.parametrize("kw", [
    {"chips": []}, {"chips": [1]}, {"chips": (1,)}, {"chips": [1, 2, 3.5]}, {"chips": [1, 2, 2**40]},
    {"chips": "abc"}, {"dead": 10**6}, {"dead": -1}, {"dead": 1.5}, {"dealer": 3}, {"dealer": True},
])
def test_scenario_validates_every_argument(kw):
    """spec.deal_hands / spec.scenario check every argument before touching the state (before:
    make("gleek").spec.deal_hands(hands, turnup, 0, 0, []) segfaulted, dead=10**6 wrapped the stake)."""
    g = game(scope="match")
    args = {"dealer": 0, "dead": 0, "chips": None} | kw
    with pytest.raises(cardsim.CardsimError):
        g.spec.deal_hands(filled_hands({}, "7H"), "7H", args["dealer"], args["dead"], args["chips"])
    with pytest.raises(cardsim.CardsimError):
        g.spec.scenario(filled_hands({}, "7H"), turnup="7H", **args)


def test_scenario_bad_hands_and_the_one_name():
    g = game()
    for bad in (None, 5, "AS", [["AS"]] * 3, filled_hands({}, "7H")[:2]):
        with pytest.raises(cardsim.CardsimError):
            g.spec.scenario(bad, turnup="7H")
    with pytest.raises(cardsim.CardsimError):
        g.spec.scenario(filled_hands({}, "7H"), turnup=None)
    with pytest.raises(ConfigError):
        g.spec.scenario(filled_hands({}, "7H"), turnup="7H", colour="red")
    a = g.spec.scenario(filled_hands({}, "7H"), turnup="7H", dealer=1, dead=2)
    b = deal_hands(g, filled_hands({}, "7H"), "7H", dealer=1, dead=2)
    assert str(a) == str(b) and view(a)["base"] == 6
    assert not a.replayable and a.history() == [] and gleek.scenario(g, filled_hands({}, "7H"), turnup="7H",
                                                                     dealer=1, dead=2) == a


def test_a_large_dead_count_does_not_wrap_the_stake():
    g = game()
    st = g.spec.scenario(filled_hands({}, "7H"), turnup="7H", dealer=0, dead=100_000)
    act(st, "PASS", "PASS")
    act(st, *("DISCARD " + c for c in st.hand(1)[:7]))
    act(st, "VIE")
    assert view(st)["base"] == 200_002 and view(st)["stake"] == 200_002
    act(st, "REVIE")
    assert view(st)["stake"] == 400_004


def test_resample_never_breaks_a_showdown_constraint():
    """P2 shows spades worth 15 with 12 cards: his other nine cards can only be the 4-5-6 of each
    other suit. Resample either finds such a world or says it found none; it never returns a
    world that breaks the showdown (before: after 1,900 failed tries it accepted one)."""
    p2 = "4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C 6C".split()
    st = deal_hands(game(), filled_hands({2: p2}, "7H"), "7H", dealer=0)
    act(st, "PASS", "PASS")
    act(st, *("DISCARD " + c for c in st.hand(1)[:7]))
    act(st, "VIE", "SEE", "PASS")
    v = view(st)
    assert v["showdown"] and v["ruff"][2] == 15 and v["ruff_suit"][2] == "S"
    for seed in range(6):
        try:
            r = st.resample(0, seed=seed)
        except cardsim.CardsimError:
            continue
        assert sorted(r.hand(2)) == sorted(p2)
        assert ruff_value(r.hand(1)) == v["ruff"][1]
        assert np.array_equal(r.observation(0), st.observation(0))


@pytest.mark.parametrize("args", [
    ([5, 4, 3], [["AH"], ["AH"], []], "7H", 0, ()),               # the same honour in two seats
    ([5.0, 4, 3], [[], [], []], "7H", 0, ()),                       # float trick counts
    ([5, 4, 3.5], [[], [], []], "7H", 0, ()),
    ([True, 8, 3], [[], [], []], "7H", 0, ()),
    ([5, 4, 3], [["7H"], [], []], "7H", 0, ()),                    # the turn-up held by a seat
    ([5, 4, 3], [["AH"], [], []], "7H", 0, ["AH"]),                # an honour both held and discarded
    ([5, 4, 3], [[], [], []], "7H", 0, ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S"]),   # 8 discards
    ([5, 4, 3], [[], [], []], "7H", 1.0, ()),
    ([5, 4, 3], None, "7H", 0, ()), ([5, 4, 3], [None, [], []], "7H", 0, ()), ([5, 4, 3], [5, [], []], "7H", 0, ()),
    ([5, 4, 3], [[], [], []], None, 0, ()), ([5, 4, 3], [[], [], []], "7H", 0, None), (None, [[], [], []], "7H", 0, ()),
])
def test_trick_settlement_refuses_inconsistent_inputs(args):
    tricks, honours, turnup, dealer, discards = args
    with pytest.raises(cardsim.CardsimError):
        trick_settlement(tricks, honours, turnup, dealer=dealer, discards=discards)


@pytest.mark.parametrize("call", [
    lambda: gleek_settlement([["AS", "AH", "AD"], ["AS"], []]),     # one card in two hands
    lambda: gleek_settlement(None), lambda: gleek_settlement([None, [], []]), lambda: gleek_settlement([5, [], []]),
    lambda: gleek_value(None), lambda: gleek_value(7), lambda: ruff_value(None), lambda: ruff_value(3),
    lambda: trick_winner(None, "S"), lambda: trick_winner(5, "S"), lambda: trick_winner(["AS", "KS"], None),
    lambda: legal_follows(None, None), lambda: legal_follows(5, None), lambda: legal_follows(["AS"], 5),
    lambda: deal_hands(game(), None, "7H"), lambda: deal_hands(game(), 5, "7H"),
])
def test_oracles_refuse_bad_card_lists(call):
    with pytest.raises(cardsim.CardsimError):
        call()


def test_ruff_value_matches_a_brute_force_sum():
    """The kernel's bit-sliced suit value against the §4.3 table (A 11, K Q J 10, else face)."""
    value = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4}
    rng = np.random.default_rng(5)
    for _ in range(400):
        hand = list(rng.choice(DECK, size=int(rng.integers(1, 20)), replace=False))
        suits = {s: sum(value[c[:-1]] for c in hand if c[-1] == s) for s in "SHDC"}
        expect = math.inf if all(("A" + s) in hand for s in "SHDC") else max(suits.values())
        assert ruff_value(hand) == expect


def test_resample_is_uniform_over_the_consistent_worlds():
    """Late in trick play, seen by the buyer (who knows his discards): the two other seats'
    unseen cards are redealt. Every split that keeps the hand sizes, the suits each seat showed
    void in and the declared gleeks/mournivals comes up (brute force), about equally often
    (chi-square), and no other split does."""
    import itertools

    from scipy.stats import chisquare

    g = game()
    for seed in range(200):
        st = g.new_state(seed=seed)
        while not st.is_terminal() and (st.phase != "play" or view(st)["tricks_done"] < 9):
            st.apply(g.spec.greedy_action(st))
        v = view(st)
        if st.is_terminal() or v["showdown"] or v["trick"] != [None, None, None]:
            continue
        p = v["buyer"]
        others = [q for q in range(3) if q != p]
        pool = sorted(c for q in others for c in st.hand(q) if c not in v["shown"][q])
        if len(pool) >= 4:
            break
    else:
        pytest.skip("no suitable late position")
    counts = {}
    for s2 in range(1500):
        r = st.resample(p, seed=s2)
        assert r.hand(p) == st.hand(p) and np.array_equal(r.observation(p), st.observation(p))
        key = tuple(sorted(c for c in r.hand(others[0]) if c not in v["shown"][others[0]]))
        counts[key] = counts.get(key, 0) + 1
    a = others[0]
    k = len([c for c in st.hand(a) if c not in v["shown"][a]])
    given = [{c[-1] for key in counts for c in key},
             {c[-1] for key in counts for c in pool if c not in key}]

    def sets_ok(q, cards):
        full = set(cards) | set(v["shown"][q]) | set(v["played"][q])
        held = [r for r in "AKQJ" if sum(c[:-1] == r for c in full) >= 3]
        return sorted(held) == sorted(v["declared"][q])

    worlds = [w for w in itertools.combinations(pool, k)
              if all(c[-1] in given[0] for c in w) and all(c[-1] in given[1] for c in pool if c not in w)
              and sets_ok(a, w) and sets_ok(others[1], [c for c in pool if c not in w])]
    assert set(counts) == set(worlds)
    assert chisquare(list(counts.values())).pvalue > 1e-3
