"""Hakka Six Tigers: the worked examples X-01..X-15 of docs/rules/six_tigers.md, the decisions
X1-X14 (X15 concerns only the seed's duplicated text, see the rules doc), the public oracles, the
factored actions against a brute-force enumeration of §5, hidden information, and the greedy
agent against random play."""
import numpy as np
import pytest

import cardsim
from cardsim import ConfigError, IllegalActionError, ParseError
from cardsim.games import six_tigers as st6
from cardsim.games.six_tigers import legal_leads, old_cards, pattern, play, play_actions, scenario, trick_winner

from . import six_tigers_reference as ref

DECK = ref.DECK
COMMIT, DECLARE, PASS, CLAIM, CONTINUE = 74, 75, 76, 77, 78


def view(state):
    return state.spec.view(state)


def rest_of(*groups):
    used = {c for g in groups for c in g}
    return [c for c in DECK if c not in used]


def whole_plays(state):
    """Every whole play reachable through the factored actions from a position where the seat
    to act starts a play: {(frozenset(cards), face_down)} (DFS over clones)."""
    out = set()
    seat = state.current_player

    def dfs(s, cards, down):
        for a in s.legal_actions():
            a = int(a)
            c = s.clone()
            c.apply(a)
            if a == COMMIT:
                out.add((frozenset(cards), False))
                continue
            nc = cards + [DECK_IDS[a % 37]]
            nd = a >= 37
            if c.current_player == seat and view(c)["staged"]:
                dfs(c, nc, nd)
            else:
                out.add((frozenset(nc), nd))
    dfs(state, [], False)
    return out


DECK_IDS = [st6.card_str(i) for i in range(37)]


# ---- X-01 deck and deal, X2 direction -----------------------------------------------------------
def test_x01_deal_and_roles():
    g = cardsim.make("six_tigers")
    dealers = set()
    for d in range(40):
        s = g.new_state(seed=1, deal=d)
        v = view(s)
        D = v["dealer"]
        dealers.add(D)
        assert v["dreamer"] == (D + 2) % 4
        assert v["order"] == [D, (D + 1) % 4, (D + 3) % 4]
        assert len(s.hand(v["dreamer"])) == 1
        assert all(len(s.hand(q)) == 12 for q in v["order"])
        assert sorted(c for q in range(4) for c in s.hand(q)) == sorted(DECK)
        assert s.phase == "declare" and s.current_player == D
        assert set(v["old"]) == {"SHI9", "GUAN9", "SUO9", "XIAN9", "SHI1", "XIAN1", "CLOUD"}
    assert dealers == {0, 1, 2, 3}


def test_x2_direction_ccw_and_three_players():
    s = cardsim.make("six_tigers", direction="ccw").new_state(seed=2, deal=0)
    v = view(s)
    D = v["dealer"]
    assert v["order"] == [D, (D + 3) % 4, (D + 1) % 4] and v["dreamer"] == (D + 2) % 4
    s3 = cardsim.make("six_tigers", players=3).new_state(seed=2, deal=0)
    v3 = view(s3)
    assert v3["dreamer"] is None and len(v3["aside"]) == 1
    assert all(len(s3.hand(q)) == 12 for q in range(3))


# ---- X-13 declarations, X5 void round -----------------------------------------------------------
def test_x13_declarations_and_rotation():
    g = cardsim.make("six_tigers")
    s = g.new_state(seed=3, deal=1)
    D = view(s)["dealer"]
    s.apply(PASS)
    assert s.current_player == (D + 1) % 4
    s.apply(DECLARE)
    v = view(s)
    assert v["special"] == (D + 1) % 4 and v["next_dealer"] == (D + 1) % 4
    s = g.new_state(seed=3, deal=1)
    s.apply(DECLARE)
    v = view(s)
    assert v["special"] is None and v["next_dealer"] == D and v["declarer"] == D


def test_x5_all_pass_void_round_redeal():
    g = cardsim.make("six_tigers", scope="match", rounds=1)
    s = g.new_state(seed=3, deal=2)
    D = view(s)["dealer"]
    before = [s.hand(q) for q in range(4)]
    for _ in range(3):
        s.apply(PASS)
    v = view(s)
    if v["voids"] == 1:            # (a Five Tigers hand would have ended the round instead)
        assert v["dealer"] == (D + 1) % 4 and v["round_no"] == 0 and s.phase == "declare"
        assert [s.hand(q) for q in range(4)] != before
        assert list(s.returns()) == [0, 0, 0, 0]


# ---- leads in the engine, X8 following is unrestricted ------------------------------
X02 = ["SHI9", "SHI1", "GUAN7", "GUAN2", "SUO3", "SUO4", "SUO5", "XIAN6", "XIAN7", "XIAN8", "XIAN1", "CLOUD"]


def x02_state(declarer):
    g = cardsim.make("six_tigers")
    others = rest_of(X02)
    hands = [X02, others[:12], others[12:13], others[13:25]]
    return scenario(g, hands, dealer=0, declarer=declarer)


def test_x02_x03_leads_through_the_factored_actions():
    s = x02_state(0)
    while s.phase == "claim":
        s.apply(CONTINUE)
    assert view(s)["counts"][0] == 4
    got = {cards for cards, down in whole_plays(s)}
    assert got == {frozenset({"GUAN7"}), frozenset({"GUAN2"}), frozenset({"SUO3", "SUO4", "SUO5"}),
                   frozenset({"XIAN6", "XIAN7", "XIAN8"})}
    # seat 1 declares: seat 1 is special, seat 0 (dealer, normal) leads the same way
    g = cardsim.make("six_tigers")
    others = rest_of(X02)
    s = scenario(g, [others[:12], X02, others[12:13], others[13:25]], dealer=0, declarer=1, leader=1)
    while s.phase == "claim":
        s.apply(CONTINUE)
    assert s.current_player == 1 and view(s)["special"] == 1
    got = {cards for cards, down in whole_plays(s)}
    singles = {next(iter(c)) for c in got if len(c) == 1}
    assert singles == {"GUAN7", "GUAN2", "SHI9", "SHI1", "XIAN1", "CLOUD"}


def test_lead_commit_needed_only_when_extendable():
    s = x02_state(0)
    while s.phase == "claim":
        s.apply(CONTINUE)
    assert play_actions(s, ["GUAN7"]) == [DECK_IDS.index("GUAN7")]
    acts = play_actions(s, ["SUO3", "SUO4", "SUO5"])
    assert acts == [DECK_IDS.index("SUO3"), DECK_IDS.index("SUO4"), DECK_IDS.index("SUO5")]
    with pytest.raises(IllegalActionError):
        play_actions(s, ["SHI9"])
    with pytest.raises(IllegalActionError):
        play_actions(s, ["SUO3", "SUO4"])


# ---- tricks ------------------------------------------------------------
def three_hands(h0, h1, h3, dreamer="SHI5"):
    """Seats 0 (dealer), 1, 3 hold these equal-size hands, seat 2 dreams; the rest is played."""
    g = cardsim.make("six_tigers")
    played_rest = rest_of(h0, h1, h3, [dreamer])
    return g, [h0, h1, [dreamer], h3], [played_rest, [], [], []]


def test_x05_single_follow_must_beat():
    g, hands, played = three_hands(["GUAN5", "SUO2"], ["GUAN7", "GUAN3"], ["GUAN4", "GUAN2"])
    s = scenario(g, hands, dealer=0, declarer=0, played=played)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["GUAN5"])
    assert whole_plays(s) == {(frozenset({"GUAN7"}), False)}          # hand A: only GUAN7
    play(s, ["GUAN7"])
    assert whole_plays(s) == {(frozenset({"GUAN4"}), True), (frozenset({"GUAN2"}), True)}   # hand B
    play(s, ["GUAN2"], face_down=True)
    assert view(s)["tricks"] == [0, 1, 0, 0]


def test_x7_must_beat_option_off():
    g = cardsim.make("six_tigers", must_beat_if_able=False)
    _, hands, played = three_hands(["GUAN5", "SUO2"], ["GUAN7", "GUAN3"], ["GUAN4", "GUAN2"])
    s = scenario(g, hands, dealer=0, declarer=0, played=played)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["GUAN5"])
    assert whole_plays(s) == {(frozenset({"GUAN7"}), False), (frozenset({"GUAN7"}), True),
                              (frozenset({"GUAN3"}), True)}


@pytest.mark.parametrize("lead", ["XIAN1", "SHI1", "CLOUD"])
def test_x06_fixed_old_lead_wins(lead):
    g, hands, played = three_hands([lead], ["SHI9"], ["XIAN9"])
    s = scenario(g, hands, dealer=0, declarer=0, played=played, tricks=[0, 0, 0, 0])
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, [lead])
    assert all(down for _, down in whole_plays(s))
    s.apply(s.legal_actions()[0])
    assert all(down for _, down in whole_plays(s))
    s.apply(s.legal_actions()[0])
    assert view(s)["tricks"][0] == 1 and view(s)["trick_winners"] == [0]


def test_x07_run_trick_and_x14_credit():
    g, hands, played = three_hands(["SUO3", "SUO4", "SUO5", "GUAN9"], ["GUAN1", "GUAN2", "GUAN3", "XIAN2"],
                                   ["SHI4", "SHI5", "SHI6", "XIAN3"], dreamer="SHI2")
    s = scenario(g, hands, dealer=0, declarer=0, played=played)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["SUO3", "SUO4", "SUO5"])
    beats = {c for c, down in whole_plays(s) if not down}
    assert beats == {frozenset({"GUAN1", "GUAN2", "GUAN3"})}
    play(s, ["GUAN1", "GUAN2", "GUAN3"])
    play(s, ["SHI4", "SHI5", "SHI6"])
    v = view(s)
    assert v["tricks"] == [0, 0, 0, 3] and v["trick_winners"] == [3]
    # a 4-card run credits 4 tricks
    g, hands, played = three_hands(["GUAN2", "GUAN3", "GUAN4", "GUAN5"], ["SUO1", "SUO3", "SUO5", "SUO7"],
                                   ["XIAN2", "XIAN4", "XIAN6", "XIAN8"])
    s = scenario(g, hands, dealer=0, declarer=0, played=played)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["GUAN2", "GUAN3", "GUAN4", "GUAN5"])
    play(s, ["SUO1", "SUO3", "SUO5", "SUO7"], face_down=True)
    play(s, ["XIAN2", "XIAN4", "XIAN6", "XIAN8"], face_down=True)
    assert view(s)["tricks"][0] == 4


def test_x08_sets_oracle():
    lead = ["SHI7", "SUO7", "XIAN7"]
    assert trick_winner([lead, ["SHI8", "GUAN8", "SUO8"], ["GUAN2", "SUO2", "XIAN2"]]) == 1
    assert trick_winner([lead, ["SHI1", "GUAN1", "SUO1"], ["GUAN9", "SUO9", "XIAN9"]]) == 2
    assert trick_winner([lead, ["SHI1", "GUAN1", "SUO1"], ["GUAN8", "SUO8", "XIAN8"]]) == 1
    assert trick_winner([lead, ["SHI1", "GUAN1", "SUO1"], ["GUAN8", "SUO8", "XIAN8"]], set_order="natural") == 2


def test_x8_follow_not_restricted_by_old_status():
    # the follower may beat with an old card (GUAN9 is the top of GUAN)
    g, hands, played = three_hands(["GUAN5", "SUO2"], ["GUAN9", "SUO3"], ["XIAN4", "XIAN2"])
    s = scenario(g, hands, dealer=0, declarer=0, played=played)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["GUAN5"])
    assert whole_plays(s) == {(frozenset({"GUAN9"}), False)}


# ---- X9 old tracking ------------------------------------------------------------------------------
@pytest.mark.parametrize("tracking,old8", [("all_played", True), ("public", False)])
def test_x9_face_down_discard_and_old_tracking(tracking, old8):
    g = cardsim.make("six_tigers", old_tracking=tracking)
    hands = [["SUO9", "GUAN2"], ["SUO8", "SHI9"], ["SUO1"], ["GUAN3", "SHI8"]]
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []])
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["GUAN2"])
    play(s, ["SHI9"], face_down=True)           # seat 1 cannot beat GUAN2 ... it discards SHI9
    assert ("SHI8" in view(s)["old"]) == old8


# ---- claims: X-09, X10, X-10, X-11, X13, X14 ----------------------------------------------------
def claim_state(**opts):
    """Seat 1 has 4 tricks and holds GUAN9 (old) and CLOUD: count 6 before the next lead."""
    g = cardsim.make("six_tigers", **opts)
    hands = [["SHI2", "SHI3"], ["GUAN9", "CLOUD"], ["GUAN7"], ["SUO2", "SUO3"]]
    played = [rest_of(*hands), [], [], []]
    return g, scenario(g, hands, dealer=0, declarer=0, played=played, tricks=[2, 4, 0, 0], leader=1)


def test_x09_claim_and_payment():
    g, s = claim_state()
    assert s.phase == "claim" and s.current_player == 1
    assert set(s.legal_actions().tolist()) == {CLAIM, CONTINUE}
    s.apply(CLAIM)
    v = view(s)
    assert s.is_terminal() and v["winner"] == 1 and v["t"] == 6
    assert list(s.returns()) == [-1, 2, 0, -1]
    assert set(v["shown"]) == {"GUAN9", "CLOUD", "GUAN7"}       # claimed old cards, dreamer's card
    assert v["t_dream"] == 5


def test_claim_not_offered_below_six():
    g = cardsim.make("six_tigers")
    hands = [["SHI2", "SHI3"], ["GUAN8", "CLOUD"], ["GUAN7"], ["SUO2", "SUO3"]]
    played = [rest_of(*hands), [], [], []]
    s = scenario(g, hands, dealer=0, declarer=0, played=played, tricks=[2, 4, 0, 0], leader=1)
    # GUAN8 is the top of GUAN (GUAN9 played) -> count 6 again; with GUAN9 unplayed in hand 0 not
    assert view(s)["counts"][1] == 6
    hands = [["SHI2", "GUAN9"], ["GUAN8", "CLOUD"], ["GUAN7"], ["SUO2", "SUO3"]]
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []], tricks=[2, 4, 0, 0], leader=1)
    assert view(s)["counts"][1] == 5
    assert CLAIM not in s.legal_actions().tolist()


def test_x10_auto_claim():
    g, s = claim_state(auto_claim=True)
    assert s.is_terminal() and view(s)["winner"] == 1 and view(s)["claimed"]


def test_x10_special_liability():
    # seat 1 is special and loses; seat 3 claims with t = 7 -> P = 2; seat 1 pays 4, seat 0 nothing
    g = cardsim.make("six_tigers")
    hands = [["SHI2", "SHI3"], ["SUO2", "SUO3"], ["GUAN7"], ["GUAN9", "CLOUD"]]
    played = [rest_of(*hands), [], [], []]
    s = scenario(g, hands, dealer=0, declarer=1, played=played, tricks=[2, 1, 0, 5], leader=3)
    assert view(s)["special"] == 1
    while s.current_player != 3:
        s.apply(CONTINUE)
    s.apply(CLAIM)
    assert view(s)["t"] == 7
    assert list(s.returns()) == [0, -4, 0, 4]


def test_x11_x13_x14_dreamer_matches_with_special_liability():
    # dreamer (seat 2) holds GUAN7; seat 3 won with SHI7 SUO7 XIAN7 -> t_dream = 8 -> P(8) = 4
    g = cardsim.make("six_tigers")
    hands = [["SHI2", "SHI3", "SHI4"], ["SUO2", "SUO3", "SUO4"], ["GUAN7"], ["SHI7", "SUO7", "XIAN7"]]
    played = [rest_of(*hands), [], [], []]
    s = scenario(g, hands, dealer=0, declarer=1, played=played, tricks=[0, 0, 0, 3], leader=3)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["SHI7", "SUO7", "XIAN7"])
    play(s, ["SHI2", "SHI3", "SHI4"], face_down=True)
    play(s, ["SUO2", "SUO3", "SUO4"], face_down=True)
    assert s.phase == "claim" and s.current_player == 3       # the window after the last trick (X16)
    s.apply(CONTINUE)                                           # nobody claims: X11 gives the same
    v = view(s)
    assert s.is_terminal() and v["winner"] == 3 and v["t"] == 6 and v["t_dream"] == 8
    # winner: P(6) = 1 from each loser, dreamer P(8) = 4 from each loser; special seat 1 pays it all
    assert list(s.returns()) == [0, -10, 8, 2]


def test_x13_claimed_old_cards_match_the_dreamer():
    g = cardsim.make("six_tigers")
    hands = [["SHI2", "SHI3"], ["SHI9", "CLOUD"], ["XIAN9"], ["SUO2", "SUO3"]]
    # SHI9 and CLOUD are old; CLOUD counts as a 1: the dreamer's XIAN9 matches SHI9 only
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []], tricks=[2, 4, 0, 0], leader=1)
    s.apply(CLAIM)
    assert view(s)["t_dream"] == 6 and list(s.returns()) == [-2, 2, 2, -2]


# ---- X-12 Five Tigers, X6 ------------------------------------------------------------------------------
@pytest.mark.parametrize("declare", [True, False])
def test_x12_x6_five_tigers(declare):
    g = cardsim.make("six_tigers")
    tigers = ["SHI1", "GUAN1", "SUO1", "XIAN1", "CLOUD"]
    others = rest_of(tigers)
    hands = [others[:12], tigers + others[12:19], others[19:20], others[20:32]]
    s = scenario(g, hands, dealer=0)
    s.apply(DECLARE if declare else PASS)
    if not declare:
        s.apply(PASS)
        s.apply(PASS)
    v = view(s)
    assert s.is_terminal() and v["five_tigers"] and v["winner"] == 1 and v["t"] == 8
    assert list(s.returns()) == [-4, 8, 0, -4] and v["t_dream"] == 5
    assert v["voids"] == 0


# ---- X-15 / X11 end without a claim ----------------------------------------------------------------
@pytest.mark.parametrize("last", [True, False])
@pytest.mark.parametrize("tricks,winner,pay", [([5, 4, 0, 2], 0, [2, -1, 0, -1]), ([3, 4, 0, 4], None, [0, 0, 0, 0])])
def test_x15_no_claim(tricks, winner, pay, last):
    g = cardsim.make("six_tigers", claim_after_last_trick=last)
    hands = [["SHI9"], ["GUAN2"], ["SUO5"], ["XIAN2"]]
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []], tricks=tricks)
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["SHI9"])
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    if last and winner is not None:
        assert s.phase == "claim" and s.current_player == 0     # X16: 6 tricks, asked after the last trick
    while s.phase == "claim":
        s.apply(CONTINUE)
    v = view(s)
    assert s.is_terminal() and not v["claimed"] and v["winner"] == winner
    assert list(s.returns()) == pay


def test_x11_first_to_six_wins_a_tie():
    # seat 1 has had 6 tricks since before this position; seat 0 reaches 6 with the last trick:
    # 6 and 6, the one who reached 6 first (seat 1) wins with t = 6 (no window after the last
    # trick here; with the default X16 window see tests/games/six_tigers/test_last_trick.py)
    g = cardsim.make("six_tigers", claim_after_last_trick=False)
    hands = [["SHI9"], ["GUAN2"], ["SUO5"], ["XIAN2"]]
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest_of(*hands), [], [], []], tricks=[5, 6, 0, 0])
    while s.phase == "claim":
        s.apply(CONTINUE)
    play(s, ["SHI9"])
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    v = view(s)
    assert v["tricks"] == [6, 6, 0, 0] and v["winner"] == 1 and v["t"] == 6
    assert list(s.returns()) == [-1, 2, 0, -1]


def test_match_of_counted_rounds_and_dealer_rotation():
    g = cardsim.make("six_tigers", scope="match", rounds=2)
    s = g.new_state(seed=8, deal=3)
    D = view(s)["dealer"]
    s.apply(DECLARE)                                 # the dealer declares: he deals again
    rng = np.random.default_rng(1)
    while view(s)["round_no"] == 0:
        la = s.legal_actions()
        s.apply(int(la[rng.integers(len(la))]))
    v = view(s)
    assert v["dealer"] == D and v["phase"] == "declare" and not s.is_terminal()
    first = list(v["score"])
    assert sum(first) == 0
    while not s.is_terminal():
        la = s.legal_actions()
        s.apply(int(la[rng.integers(len(la))]))
    v = view(s)
    assert v["round_no"] == 2 and list(s.returns()) == v["score"] and sum(v["score"]) == 0
    assert list(s.returns()) == [a + b for a, b in zip(first, v["last"])]


# ---- X12 point table, Sung scoring ---------------------------------------------------------------
def test_x12_point_table_and_custom_table():
    assert cardsim.make("six_tigers").options["point_table"] == (1, 2, 4, 8, 16, 32, 128)
    g, s = claim_state(point_table=(3, 5, 7, 9, 11, 13, 15))
    s.apply(CLAIM)
    assert list(s.returns()) == [-3, 6, 0, -3]
    with pytest.raises(ConfigError):
        cardsim.make("six_tigers", point_table=(1, 2, 3))
    with pytest.raises(ConfigError):
        cardsim.make("six_tigers", point_table=(1, 2, 3, 4, 5, 6, True))


def test_sung_scoring():
    g, s = claim_state(scoring="sung")
    s.apply(CLAIM)
    # t = 6 -> 1, plus the red cards among the winning cards: GUAN9, CLOUD -> 3 from each
    assert list(s.returns()) == [-3, 6, 0, -3]


# ---- oracles --------------------------------------------------------------------------------------
def test_oracles():
    assert pattern(["SHI9"]) == "single"
    assert pattern(["SUO3", "SUO5", "SUO4"]) == "run"
    assert pattern(["SHI7", "SUO7", "XIAN7"]) == "set"
    for bad, why in ((["SHI1", "SHI2"], "two cards"), (["SHI1", "SHI2", "SHI4"], "consecutive"),
                     (["SHI1", "GUAN1", "CLOUD"], "CLOUD"), (["SHI1", "GUAN2", "SUO3"], "neither"), ([], "empty")):
        with pytest.raises(ParseError, match=why):
            pattern(bad)
    with pytest.raises(ParseError):
        pattern(["SHI1", "SHI1"])
    with pytest.raises(ParseError):
        pattern("SHI1")
    assert old_cards([]) == ["SHI9", "SHI1", "GUAN9", "SUO9", "XIAN9", "XIAN1", "CLOUD"]
    assert "SHI8" in old_cards(["SHI9"])
    ls = legal_leads(X02, [])
    assert ["GUAN7"] in ls and ["SUO5", "SUO4", "SUO3"] in ls and len(ls) == 4
    assert len(legal_leads(X02, [], special=True)) == 8
    with pytest.raises(ConfigError):
        legal_leads(X02, [], auto_claim=True)
    with pytest.raises(ConfigError):
        legal_leads(X02, [], special=1)
    with pytest.raises(ParseError):
        legal_leads(X02, ["SHI9"])
    with pytest.raises(ParseError):
        trick_winner([["SHI1", "SHI2"], ["GUAN1", "GUAN2"]])
    with pytest.raises(ParseError):
        trick_winner([["SHI1"], ["GUAN1", "GUAN2"]])
    with pytest.raises(ParseError):
        trick_winner([["SHI1"], ["SHI1"]])


def test_action_strings_and_aliases():
    s = cardsim.make("six_tigers").new_state(seed=1, deal=0)
    assert s.action_to_string(DECLARE) == "DECLARE"
    assert s.string_to_action("discard sup9") == 37 + 8
    assert s.string_to_action("WANSIN") == 36
    with pytest.raises(ParseError):
        s.string_to_action("DISCARD")


def test_scenario_validation():
    g = cardsim.make("six_tigers")
    hands = [DECK[:12], DECK[12:24], DECK[24:25], DECK[25:37]]
    for bad in (dict(hands=hands[:3]), dict(hands=[DECK[:12], DECK[12:24], DECK[24:26], DECK[26:37]]),
                dict(hands=hands, dealer=4), dict(hands=hands, dealer=True), dict(hands=hands, declarer=2),
                dict(hands=[DECK[:12], DECK[:12], DECK[24:25], DECK[25:37]]),
                dict(hands=[DECK[:11], DECK[12:23], DECK[24:25], DECK[25:36]])):
        with pytest.raises((ConfigError, ParseError)):
            scenario(g, **bad)
    s = scenario(g, hands)
    assert not s.replayable


# ---- property: factored actions = brute force of §5 ---------------------------------------------------
@pytest.mark.parametrize("opts", [{}, {"must_beat_if_able": False}, {"set_order": "natural", "cloud_in_sets": True},
                                  {"old_tracking": "public"}])
def test_factored_plays_equal_brute_force(opts):
    g = cardsim.make("six_tigers", **opts)
    natural = opts.get("set_order") == "natural"
    cis = opts.get("cloud_in_sets", False)
    must = opts.get("must_beat_if_able", True)
    rng = np.random.default_rng(7)
    checked = 0
    for d in range(60):
        s = g.new_state(seed=9, deal=d)
        stop = int(rng.integers(0, 40))
        steps = 0
        while not s.is_terminal():
            v = view(s)
            if s.phase == "play" and not v["staged"] and steps >= stop:
                break
            la = s.legal_actions()
            s.apply(int(la[rng.integers(len(la))]))
            steps += 1
        if s.is_terminal():
            continue
        v = view(s)
        p = s.current_player
        hand = s.hand(p)
        got = whole_plays(s)
        played = [c for q in range(4) for c in v["up"][q]]
        if opts.get("old_tracking") != "public":
            played += [c for q in range(4) for c in v["down"][q]]
        if not any(v["trick"]):
            want = {(x, False) for x in ref.legal_leads(hand, played, p == v["special"], natural, cis)}
            rule_opts = {k: opts[k] for k in opts if k in ("set_order", "cloud_in_sets")}
            oracle = legal_leads(hand, played, p == v["special"], **rule_opts)
            assert {frozenset(x) for x in oracle} == {x for x, _ in want}
        else:
            bts, dis = ref.legal_follows(hand, v["high"], v["k"], must, natural, cis)
            want = {(x, False) for x in bts} | {(x, True) for x in dis}
        assert got == want, (hand, v)
        checked += 1
    assert checked >= 30


# ---- hidden information --------------------------------------------------------------------------------
def test_observation_and_resample_hide_dreamer_and_discards():
    g = cardsim.make("six_tigers")
    rng = np.random.default_rng(3)
    for d in range(8):
        s = g.new_state(seed=4, deal=d)
        while not s.is_terminal() and not any(view(s)["down"]):
            la = s.legal_actions()
            s.apply(int(la[rng.integers(len(la))]))
        if s.is_terminal():
            continue
        v = view(s)
        dreamer = v["dreamer"]
        q = next(i for i in range(4) if v["down"][i])
        p = next(i for i in v["order"] if i != q)
        dream_cards, downs = set(), set()
        for k in range(20):
            r = s.resample(p, seed=k)
            assert np.array_equal(r.observation(p), s.observation(p))
            dream_cards.add(tuple(r.hand(dreamer)))
            downs.add(tuple(view(r)["down"][q]))
        assert len(dream_cards) > 1 and len(downs) > 1, "hidden cards are redrawn"
        # the dreamer's card and the discards are not in another seat's observation
        o = s.observation(p)
        assert o[:37].sum() == len(s.hand(p))
        return
    pytest.fail("no deal reached a face-down discard")


# ---- greedy agent ---------------------------------------------------------------------------------------------
def test_greedy_beats_random_seats_rotated():
    g = cardsim.make("six_tigers")
    diffs = []
    for seat in range(4):
        agents = [0, 0, 0, 0]
        agents[seat] = 1
        out = g.spec.run_batch(100 + seat, 0, 2500, agents)
        r = out["returns"]
        assert np.allclose(r.sum(axis=1), 0)
        others = np.delete(r, seat, axis=1).mean(axis=1)
        diffs.append(r[:, seat] - others)
    d = np.concatenate(diffs)
    assert len(d) >= 10_000
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - half > 0, (d.mean(), half)


def test_zero_sum_many_deals_every_option():
    for cfg in st6.INFO.conformance_configs:
        g = cardsim.make("six_tigers", **cfg)
        out = g.spec.run_batch(5, 0, 300, [0] * g.num_players)
        assert np.allclose(out["returns"].sum(axis=1), 0)


@pytest.mark.parametrize("opts", [{}, {"must_beat_if_able": False}, {"auto_claim": True}, {"players": 3},
                                  {"old_tracking": "public"}])
def test_truth_is_consistent_and_resample_always_succeeds(opts):
    """The replay check accepts the true world for every observer at every step (else it would
    reject consistent worlds), and resample finds a consistent world every time."""
    from cardsim.games.six_tigers import _testing
    g = cardsim.make("six_tigers", **opts)
    rng = np.random.default_rng(11)
    n = 0
    for d in range(12):
        s = g.new_state(seed=21, deal=d)
        while not s.is_terminal():
            for p in range(g.num_players):
                assert _testing._true_world_ok(s, p)
                if n % 3 == 0:
                    r = s.resample(p, seed=n)
                    assert np.array_equal(r.observation(p), s.observation(p))
                    for q in range(g.num_players):
                        assert _testing._true_world_ok(r, q) or q != p
                n += 1
            la = s.legal_actions()
            s.apply(int(la[rng.integers(len(la))]))
