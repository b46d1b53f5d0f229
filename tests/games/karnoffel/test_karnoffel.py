"""Karnöffel: the worked examples of docs/rules/karnoffel.md §10 (K1-K10) and scenarios, with
card strings (engine notation: rank then suit, e.g. '9C' = ♣9, '10D' = ♦10)."""
import numpy as np
import pytest

import cardsim
from cardsim import ConfigError, IllegalActionError, ParseError
from cardsim.games import karnoffel as kn
from cardsim.games.karnoffel import chosen_suit, scenario, trick_winner


def play(state, *cards):
    for c in cards:
        state.apply_string(c)
    return state


# ---- K1: chosen suit -------------------------------------------------------------------------
def test_k1_chosen_suit_oracle():
    # deal order 1, 2, 3, 0: ♣9, ♥4, ♠4, ♦K -> lowest 4, ♥4 dealt before ♠4
    assert chosen_suit(["9C", "4H", "4S", "KD"]) == "H"


def test_k1_chosen_suit_in_a_deal():
    g = cardsim.make("karnoffel")
    hands = [["KD", "2S", "3S", "5S", "6S"],        # seat 0 (dealer), up ♦K
             ["9C", "7S", "8S", "9S", "10S"],       # seat 1, up ♣9
             ["4H", "JS", "QS", "KS", "2C"],        # seat 2, up ♥4
             ["4S", "3C", "4C", "5C", "6C"]]        # seat 3, up ♠4
    st = scenario(g, hands, dealer=0)
    v = g.spec.view(st)
    assert v["chosen"] == "H"
    assert v["up"] == ["KD", "9C", "4H", "4S"]
    assert st.current_player == 1                   # leader of trick 1 = next(dealer)
    assert st.phase == "play"
    # the tie goes to the card dealt first: with dealer 2 the order is 3, 0, 1, 2 -> ♠4 first
    assert g.spec.view(scenario(g, hands, dealer=2))["chosen"] == "S"


def test_engine_deal_chosen_suit_and_up_cards():
    """Every engine deal: 5 cards each, stock of 48-5N, chosen suit = the §3.4 rule applied to
    the up-cards in dealing order, first leader next(dealer)."""
    for N in (4, 6):
        g = cardsim.make("karnoffel", players=N)
        dealers = set()
        for d in range(60):
            st = g.new_state(seed=3, deal=d)
            v = g.spec.view(st)
            order = [(v["dealer"] + 1 + i) % N for i in range(N)]
            assert v["chosen"] == chosen_suit([v["up"][q] for q in order])
            assert all(len(st.hand(p)) == 5 for p in range(N))
            assert all(v["up"][p] in st.hand(p) for p in range(N))
            assert len(v["stock"]) == 48 - 5 * N
            assert st.current_player == (v["dealer"] + 1) % N
            dealers.add(v["dealer"])
        assert dealers == set(range(N)), "first dealer random"


# ---- K2: no follow duty ----------------------------------------------------------------------
def test_k2_no_follow_duty():
    g = cardsim.make("karnoffel")
    hands = [["2S", "3S", "5S", "6S", "8D"],
             ["10D", "7S", "8S", "9D", "10S"],
             ["9S", "2H", "KD", "5C", "JC"],
             ["4S", "3C", "4C", "6C", "7C"]]
    st = scenario(g, hands, dealer=0)
    play(st, "10D")
    assert st.current_player == 2
    assert sorted(st.action_to_string(int(a)) for a in st.legal_actions()) == sorted(hands[2])
    assert kn.legal_plays(hands[2]) == ["9S", "2H", "KD", "JC", "5C"]
    with pytest.raises(IllegalActionError):
        st.apply_string("3C")                       # not in hand


# ---- K3-K8: trick winners --------------------------------------------------------------------
@pytest.mark.parametrize("plays,chosen,winner", [
    (["9C", "3H", "KS", "8C"], "H", 1),             # K3: 3 of c vs an off-suit King
    (["QC", "3H", "KC", "2D"], "H", 2),             # K4: blocked by the led-suit King
    (["QC", "3H", "KC", "6H"], "H", 3),             # K4: the Pope is never blocked
    (["7H", "6H", "2H", "KS"], "H", 0),             # K5: led Devil
    (["7H", "6H", "JH", "KS"], "H", 2),             # K5: the Karnöffel beats the led Devil
    (["8C", "7H", "2C", "3C"], "H", 0),             # K5: a Devil not led is powerless
    (["JD", "5S", "4S", "10D"], "S", 2),            # K6: 5 blocked by ♦J, 4 not
    (["QD", "5S", "4S", "10D"], "S", 0),            # K6: both blocked by ♦Q
    (["QD", "5S", "4S", "3S"], "S", 3),             # K6: the 3 is not blocked by a Queen
    (["KC", "3C", "QC", "2H"], "C", 0),             # K7: 3 cannot beat the led-suit King
    (["10C", "5C", "9C", "KD"], "C", 1),            # K7: 5 of the chosen suit led by an ordinary card
    (["4H", "QH", "KC", "2S"], "H", 1),             # K8: led privileged card blocked by P = ♥Q
])
def test_k3_to_k8_trick_winner(plays, chosen, winner):
    assert trick_winner(plays, chosen) == winner
    # suit symbols and lower case are accepted too
    sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert trick_winner([c.lower() for c in plays], sym[chosen]) == winner


def test_k4_in_engine_play():
    """K4 played through the state machine: chosen ♥, ♣Q led by seat 1, ♥3, ♣K, ♦2 -> seat 3
    (the ♣K) wins and leads."""
    g = cardsim.make("karnoffel")
    hands = [["2D", "7S", "8S", "9S", "10S"],       # seat 0, up ♦2 (dealt last)
             ["QC", "2S", "3S", "5S", "6S"],        # seat 1, up ♣Q
             ["2H", "3H", "JS", "QS", "KS"],        # seat 2, up ♥2 (lowest, dealt 2nd)
             ["KC", "3C", "4C", "5C", "6C"]]        # seat 3, up ♣K
    st = scenario(g, hands, dealer=0)
    assert g.spec.view(st)["chosen"] == "H"
    play(st, "QC", "3H", "KC", "2D")
    v = g.spec.view(st)
    assert v["trick_winners"] == [3] and v["team_tricks"] == [0, 1]
    assert st.current_player == 3


def test_sequential_comparison_example():
    """§5 (Parlett [S5]): Q led, the 3 of c beats it, the K of the led suit beats the 3, the 6 of
    c beats all."""
    assert kn.current_winner(["QS", "3H"], "H") == 1
    assert kn.current_winner(["QS", "3H", "KS"], "H") == 2
    assert trick_winner(["QS", "3H", "KS", "6H"], "H") == 3


def test_privileged_order():
    """J > (7 led) > 6 > 2 > 3 > 4 > 5 of the chosen suit, and off-suit cards never win."""
    c = "D"
    order = ["JD", "6D", "2D", "3D", "4D", "5D"]
    for i, hi in enumerate(order):
        for lo in order[i + 1:]:
            assert trick_winner([lo, hi, "9S", "8S"], c) == 1
            assert trick_winner([hi, lo, "9S", "8S"], c) == 0
    assert trick_winner(["8S", "KH", "QC", "KD"], c) == 0     # ♦K is ordinary: off-suit, loses
    assert trick_winner(["8S", "9S", "10S", "7S"], c) == 2    # plain suit: natural order
    assert trick_winner(["KD", "QD", "10D", "9D"], c) == 0    # ordinary chosen-suit cards


def test_summary_order_of_the_chosen_suit():
    """§2 summary, the chosen suit led: J, (7 if led), 6, 2, K, 3, Q, 4, 5, 10, 9, 8, (7 not led)."""
    order = ["JH", "6H", "2H", "KH", "3H", "QH", "4H", "5H", "10H", "9H", "8H"]
    for i, hi in enumerate(order):
        for lo in order[i + 1:]:
            assert trick_winner([lo, hi, "9S", "8S"], "H") == 1, (lo, hi)
            assert trick_winner([hi, lo, "9S", "8S"], "H") == 0, (hi, lo)
    for x in order[1:]:
        assert trick_winner(["7H", x, "9S", "8S"], "H") == 0      # led Devil: second only to J
        assert trick_winner([x, "7H", "9S", "8S"], "H") == 0      # Devil not led: never wins
    assert trick_winner(["7H", "JH", "9S", "8S"], "H") == 1


def _beats(x, y, x_led, led, c):
    """Sequential form of §5: does card y, played later, beat the current winner x?"""
    priv = {"6": 0, "2": 1, "3": 2, "4": 3, "5": 4}
    block = {"3": ("K",), "4": ("K", "Q"), "5": ("K", "Q", "J")}
    nat = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    rx, sx, ry, sy = x[:-1], x[-1], y[:-1], y[-1]
    if sy == c and ry == "J":
        return True
    if sx == c and rx == "J":
        return False
    if sx == c and rx == "7" and x_led:
        return False
    if sy == c and ry == "7":
        return False
    px = sx == c and rx in priv
    py = sy == c and ry in priv
    if px and py:
        return priv[ry] < priv[rx]
    if py:
        return rx not in block.get(ry, ())          # x is ordinary of the led suit
    if px:
        return sy == led and ry in block.get(rx, ())
    return sy == led and nat.index(ry) > nat.index(rx)


@pytest.mark.parametrize("n", [4, 6])
def test_winner_equals_sequential_comparison(n):
    """The engine's scan rule (§5 steps 1-4) agrees with the sequential comparison the spec
    states as equivalent, on 20,000 random tricks per table size and chosen suit."""
    deck = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    rng = np.random.default_rng(n)
    for k in range(20_000):
        c = "SHDC"[k % 4]
        plays = [deck[i] for i in rng.choice(48, n, replace=False)]
        if k % 3 == 0:                                # many chosen-suit cards
            pool = [d for d in deck if d[-1] == c]
            plays = [pool[i] for i in rng.choice(12, 3, replace=False)] + plays[3:]
            plays = [plays[i] for i in rng.permutation(n)]
            if len(set(plays)) < n:
                continue
        w = 0
        for i in range(1, n):
            if _beats(plays[w], plays[i], w == 0, plays[0][-1], c):
                w = i
        assert trick_winner(plays, c) == w, (plays, c)


def test_six_card_tricks():
    assert trick_winner(["9S", "10S", "3H", "KS", "4H", "8C"], "H") == 3
    assert trick_winner(["9S", "10S", "3H", "KS", "4H", "2H"], "H") == 5
    assert trick_winner(["7C", "6C", "2C", "3C", "4C", "5C"], "C") == 0
    assert trick_winner(["7C", "6C", "2C", "3C", "JC", "5C"], "C") == 4


def test_oracle_errors():
    with pytest.raises(ParseError):
        trick_winner(["9C", "3H", "KS"], "H")        # 3 cards
    with pytest.raises(ParseError):
        trick_winner(["9C", "3H", "KS", "AS"], "H")  # no Aces in the deck
    with pytest.raises(ParseError):
        trick_winner(["9C", "3H", "KS", "9C"], "H")  # duplicate
    with pytest.raises(ParseError):
        trick_winner(["9C", "3H", "KS", "ZZ"], "H")
    with pytest.raises(ParseError):
        trick_winner(["9C", "3H", "KS", "8C"], "X")
    with pytest.raises(ParseError):
        trick_winner("9C 3H KS 8C", "H")
    with pytest.raises(ParseError):
        chosen_suit(["9C", "4H", "4S"])


# ---- K9: deal end ----------------------------------------------------------------------------
K9_HANDS = [["KC", "QC", "10C", "3S", "4S"],        # seat 0, up ♣K
            ["2H", "JH", "6H", "8C", "9C"],         # seat 1, up ♥2 -> chosen ♥
            ["KS", "QS", "10S", "9S", "8S"],        # seat 2
            ["KD", "QD", "10D", "9D", "8D"]]        # seat 3


def k9_first_four_tricks(st):
    play(st, "JH", "8S", "8D", "4S")               # trick 1: the Karnöffel, seat 1
    play(st, "6H", "9S", "9D", "3S")               # trick 2: the Pope, seat 1
    play(st, "8C", "10S", "10D", "KC")             # trick 3: ♣K of the led suit, seat 0
    play(st, "QC", "2H", "QS", "QD")               # trick 4: the Kaiser, seat 1


def test_k9_deal_ends_at_three_tricks():
    g = cardsim.make("karnoffel")
    st = scenario(g, K9_HANDS, dealer=0)
    assert g.spec.view(st)["chosen"] == "H"
    k9_first_four_tricks(st)
    v = g.spec.view(st)
    assert v["trick_winners"] == [1, 1, 0, 1]
    assert v["team_tricks"] == [1, 3]
    assert st.is_terminal() and st.phase == "end" and st.current_player == -1
    assert list(st.returns()) == [-1, 1, -1, 1]
    assert all(len(st.hand(p)) == 1 for p in range(4))   # trick 5 not played
    assert st.metrics()["winner_team"] == 1
    assert g.spec.card_total(st) == 48


def test_k9_stop_at_three_off_plays_all_five():
    g = cardsim.make("karnoffel", stop_at_three=False)
    st = scenario(g, K9_HANDS, dealer=0)
    k9_first_four_tricks(st)
    assert not st.is_terminal() and st.current_player == 1
    play(st, "9C", "KS", "KD", "10C")               # ♣10 beats the led ♣9
    v = g.spec.view(st)
    assert v["trick_winners"] == [1, 1, 0, 1, 0] and v["team_tricks"] == [2, 3]
    assert st.is_terminal() and list(st.returns()) == [-1, 1, -1, 1]


def test_stakes_ante():
    g = cardsim.make("karnoffel", stakes="ante", ante=4)
    st = scenario(g, K9_HANDS, dealer=0)
    k9_first_four_tricks(st)
    assert list(st.returns()) == [-4, 4, -4, 4]


# ---- K10: six players ------------------------------------------------------------------------
def test_k10_six_players_chosen_suit():
    assert chosen_suit(["KS", "7D", "7C", "9H", "8S", "QD"]) == "D"
    g = cardsim.make("karnoffel", players=6)
    ups = ["QD", "KS", "7D", "7C", "9H", "8S"]      # seats 0..5; deal order 1..5, 0
    rest = [["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"], ["2D", "3D", "4D", "5D"],
            ["2C", "3C", "4C", "5C"], ["6S", "6H", "6D", "6C"], ["10S", "10H", "10D", "10C"]]
    st = scenario(g, [[u] + r for u, r in zip(ups, rest)], dealer=0)
    v = g.spec.view(st)
    assert v["chosen"] == "D" and st.current_player == 1
    assert len(v["stock"]) == 18
    # teams alternate: {1,3,5} vs {0,2,4}; seat 1 leads ♠K, seat 2's ♦2 (Kaiser) wins
    play(st, "KS", "2D", "2C", "6S", "8S", "QD")
    assert g.spec.view(st)["trick_winners"] == [2]
    assert g.spec.view(st)["team_tricks"] == [1, 0]
    assert st.current_player == 2


# ---- match, options, errors ------------------------------------------------------------------
def test_match_first_to_target():
    g = cardsim.make("karnoffel", scope="match")
    for d in range(5):
        st = g.new_state(seed=2, deal=d)
        rng = np.random.default_rng(d)
        dealers = [g.spec.view(st)["dealer"]]
        while not st.is_terminal():
            before = g.spec.view(st)["deal_no"]
            la = st.legal_actions()
            st.apply(int(la[rng.integers(len(la))]))
            v = g.spec.view(st)
            if v["deal_no"] != before and not st.is_terminal():
                dealers.append(v["dealer"])
                assert v["tricks_done"] == 0 and all(len(st.hand(p)) == 5 for p in range(4))
        v = g.spec.view(st)
        assert max(v["score"]) == 5 and min(v["score"]) < 5
        assert v["deal_no"] == sum(v["score"])
        w = v["deal_winner"]
        assert v["score"][w] == 5
        r = st.returns()
        assert r[w] == 5 - v["score"][1 - w] and r[1 - w] == -r[w]
        # the deal passes to the dealer's right: next(dealer)
        assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:]))


def test_options_validated():
    with pytest.raises(ConfigError):
        cardsim.make("karnoffel", players=5)
    with pytest.raises(ConfigError, match="Banner"):
        cardsim.make("karnoffel", kaiser_banners=True)
    with pytest.raises(ConfigError):
        cardsim.make("karnoffel", match_target=0)
    with pytest.raises(ConfigError):
        cardsim.make("karnoffel", stakes="pot")
    with pytest.raises(ConfigError):
        cardsim.make("karnoffel", no_such_option=1)
    g = cardsim.make("karnoffel")
    assert g.options["kaiser_banners"] is False and g.options["match_target"] == 5
    assert g.num_actions == 48 and g.returns_sum == "zero"
    with pytest.raises(ConfigError):
        scenario(g, K9_HANDS[:3])
    with pytest.raises(ConfigError):
        scenario(g, [h[:4] for h in K9_HANDS])
    with pytest.raises(ParseError):
        scenario(g, [["AS", "2S", "3S", "4S", "5S"]] + K9_HANDS[1:])


def test_action_strings():
    g = cardsim.make("karnoffel")
    st = scenario(g, K9_HANDS, dealer=0)
    assert st.string_to_action("JH") == st.string_to_action("j♥") == st.string_to_action(" jh ")
    assert st.string_to_action("10C") == st.string_to_action("TC")
    with pytest.raises(ParseError):
        st.string_to_action("AH")
    with pytest.raises(ParseError):
        st.string_to_action("11H")


def test_resample_keeps_public_up_cards():
    g = cardsim.make("karnoffel", players=6)
    st = g.new_state(seed=8, deal=3)
    v = g.spec.view(st)
    for p in range(6):
        r = st.resample(p, seed=1)
        rv = g.spec.view(r)
        assert r.hand(p) == st.hand(p)
        for q in range(6):
            assert v["up"][q] in r.hand(q)
        assert np.array_equal(r.observation(p), st.observation(p))
    # hidden cards do move
    moved = sum(st.resample(0, seed=s).hand(1) != st.hand(1) for s in range(10))
    assert moved >= 8


def test_observation_hides_other_hands():
    g = cardsim.make("karnoffel")
    st = g.new_state(seed=1, deal=1)
    o0 = st.observation(0)
    assert o0.shape == (1049,)
    r = st.resample(0, seed=5)
    assert np.array_equal(r.observation(0), o0)
    assert not np.array_equal(r.observation(1), st.observation(1)) or r.hand(1) == st.hand(1)


# ---- greedy agent ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [4, 6])
def test_greedy_beats_random(players):
    """One greedy seat among random ones, rotated over every seat, >= 10,000 deals: the greedy
    seat's return minus the mean return of the random seats, per deal, has a 95% CI above 0."""
    g = cardsim.make("karnoffel", players=players)
    per_seat = -(-10_000 // players)
    diffs = []
    for seat in range(players):
        agents = [0] * players
        agents[seat] = 1
        ret = g.spec.run_batch(20240, seat * per_seat, per_seat, agents)["returns"]
        diffs.append(ret[:, seat] - np.delete(ret, seat, axis=1).mean(axis=1))
    d = np.concatenate(diffs)
    assert len(d) >= 10_000
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - half > 0, (d.mean(), half)


# ---- scenario states (core: GameSpec._scenario_state) ----------------------------------------
def test_scenario_builds_a_fresh_non_replayable_deal():
    import pickle
    g = cardsim.make("karnoffel")
    st = g.spec.scenario(K9_HANDS, dealer=3)
    assert not st.replayable and st.history() == [] and st.phase == "play"
    assert g.spec.view(st)["dealer"] == 3 and st.current_player == 0
    assert [set(st.hand(p)) for p in range(4)] == [set(h) for h in K9_HANDS]
    assert not pickle.loads(pickle.dumps(st)).replayable and not st.clone().replayable
    assert g.new_state(1, 1).replayable and g.spec.action_words == 1
    assert scenario(g, K9_HANDS, dealer=np.int64(1)).current_player == 2


@pytest.mark.parametrize("bad", [
    dict(dealer=True), dict(dealer=1.0), dict(dealer=-1), dict(dealer=4), dict(dealer="0"),
    dict(dealer=None), dict(up=["KC"]), dict(up=["3S", "KD", "JD", "2H"]),
    dict(hands="KC QC 10C 3S 4S"), dict(hands=[["KC", "QC", "10C", "3S", "4S"]] * 4),
    dict(hands=[h + ["2C"] for h in K9_HANDS]), dict(hands=[" ".join(h) for h in K9_HANDS]),
])
def test_scenario_refuses_bad_input(bad):
    g = cardsim.make("karnoffel")
    args = dict(hands=K9_HANDS, dealer=0, up=None) | bad
    with pytest.raises((ConfigError, ParseError)):
        g.spec.scenario(args.pop("hands"), **args)


def test_resample_is_uniform_over_the_hidden_cards():
    """Late position (one card each, all five tricks played out): the card a resample gives an
    opponent whose up-card is gone is uniform over every card the observer cannot see."""
    from scipy.stats import chisquare
    g = cardsim.make("karnoffel", stop_at_three=False)
    st = g.spec.scenario(K9_HANDS, dealer=0)
    rng = np.random.default_rng(2)
    for _ in range(16):
        la = st.legal_actions()
        st.apply(int(la[rng.integers(len(la))]))
    v = g.spec.view(st)
    played = {c for p in range(4) for c in v["played"][p]}
    q = next(q for q in (1, 2, 3) if v["up"][q] not in st.hand(q))
    known_up = {v["up"][r] for r in range(4) if v["up"][r] in st.hand(r)}
    hidden = sorted(set(DECK48) - set(st.hand(0)) - played - known_up)
    counts = {c: 0 for c in hidden}
    for seed in range(len(hidden) * 100):
        (c,) = st.resample(0, seed=seed).hand(q)
        counts[c] += 1
    assert chisquare(list(counts.values())).pvalue > 1e-4


DECK48 = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
