"""Hearts: the worked examples of docs/rules/hearts.md §10 (H1-H10), the deal, the pass, play
invariants over random deals, scenarios and resampling, with card strings (engine notation: rank
then suit, e.g. 'QS' = ♠Q, '10H' = ♥10)."""
import numpy as np
import pytest

import cardsim
from cardsim import ConfigError, IllegalActionError
from cardsim.games import hearts as ht
from cardsim.games.hearts import legal_plays, scenario, score_deal, trick_winner

DECK = [ht.card_str(c) for c in range(52)]


def legal_strings(st):
    return sorted(st.action_to_string(int(a)) for a in st.legal_actions())


def deal_hands(seed=0, n=4):
    """n hands of the n-player pack, from a seeded permutation."""
    rng = np.random.default_rng(seed)
    deck = ht.mask_to_cards(ht.deck_mask(n))
    perm = [deck[i] for i in rng.permutation(len(deck))]
    k = len(deck) // n
    return [perm[k * q:k * q + k] for q in range(n)]


# ---- H1: trick winner ---------------------------------------------------------------------------
def test_h1_trick_winner():
    assert trick_winner(["10C", "AC", "KH", "2C"]) == 1
    assert trick_winner(["5D", "KS", "2D"]) == 0
    assert trick_winner(["2H"]) == 0
    assert trick_winner(["4S", "6S", "AS", "KS", "QS", "5S"], players=6) == 2


# ---- H2-H4: legal plays -------------------------------------------------------------------------
def test_h2_first_lead():
    assert legal_plays(["2C", "9C", "KD", "AH"], [], False, True) == ["2C"]
    assert legal_plays(["2C", "9C", "KD", "AH"], [], False, True, first_lead="any_club") == ["9C", "2C"]
    with pytest.raises(ConfigError):
        legal_plays(["9C", "KD"], [], False, True)          # the first lead is the 2C holder's


def test_h3_first_trick_void():
    assert legal_plays(["QS", "5H", "KD"], ["2C"], False, True) == ["KD"]
    assert legal_plays(["QS", "5H"], ["2C"], False, True) == ["QS", "5H"]
    assert legal_plays(["QS", "5H", "KD"], ["2C"], False, True, no_points_first_trick=False) == ["QS", "5H", "KD"]
    assert legal_plays(["QS", "5H", "KD", "3C"], ["2C"], False, True) == ["3C"]    # follow first


def test_h4_leading_before_broken():
    assert legal_plays(["AH", "3D"], [], False, False) == ["3D"]
    assert legal_plays(["AH", "3D"], [], True, False) == ["AH", "3D"]
    assert legal_plays(["AH", "2H"], [], False, False) == ["AH", "2H"]
    assert legal_plays(["QS", "AH"], [], False, False) == ["QS"]
    assert legal_plays(["QS", "AH"], [], False, False, lead_hearts_over_queen=True) == ["QS", "AH"]
    assert legal_plays(["AH", "3D"], [], False, False, must_break_hearts=False) == ["AH", "3D"]
    assert legal_plays(["QS", "AH"], [], False, False, variant="openspiel") == ["QS"]


def _play_to_end(st, rng):
    while not st.is_terminal():
        acts = st.legal_actions()
        st.apply(int(acts[rng.integers(len(acts))]))
    return st


# ---- H5: the queen of spades breaks hearts ----------------------------------------------------
def _h5_state(**opts):
    """A held deal in which seat 2 wins trick 1 (9C), leads trick 2 in diamonds, seat 3 (only
    spades) discards QS on it and seat 0 wins it with AD, then leads trick 3."""
    g = cardsim.make("hearts", pass_rotation="hold", **opts)
    spades = [r + "S" for r in ht.RANKS]
    hearts = [r + "H" for r in ht.RANKS]
    diamonds = [r + "D" for r in ht.RANKS]
    clubs = [r + "C" for r in ht.RANKS]
    hands = [clubs[:1] + ["AD", "KD"] + hearts[:10],                    # 2C, AD KD, 2H..JH
             clubs[1:7] + diamonds[:7],                                    # 3C..8C, 2D..8D
             clubs[7:] + diamonds[7:11] + ["QH", "KH", "AH"],              # 9C..AC, 9D..QD, QH KH AH
             spades]
    return g, scenario(g, hands, dealer=3)


def test_h5_queen_breaks_hearts():
    for breaks in (True, False):
        g, st = _h5_state(queen_breaks_hearts=breaks)
        assert st.current_player == 0 and legal_strings(st) == ["2C"]
        for c in ("2C", "3C", "9C"):
            st.apply_string(c)
        assert legal_strings(st) == sorted(r + "S" for r in ht.RANKS if r != "Q")   # no QS on trick 1
        st.apply_string("2S")
        assert st.current_player == 2                          # 9C wins
        st.apply_string("9D")
        st.apply_string("QS")                                  # seat 3: void in diamonds
        st.apply_string("AD")                                  # seat 0 wins with AD
        st.apply_string("2D")
        assert st.current_player == 0 and not g.spec.view(st)["points"][0] == 0
        assert g.spec.view(st)["hearts_broken"] is breaks
        lead = legal_strings(st)
        assert ("2H" in lead) is breaks and "KD" in lead


# ---- H6-H9: scoring ---------------------------------------------------------------------------------
def _deal_taken(points_cards, n=4):
    """A full taken split: points_cards[q] (point cards per seat) padded with non-point cards so
    that every seat takes whole tricks of n cards (a seat with no cards takes none)."""
    rest = [c for c in ht.mask_to_cards(ht.deck_mask(n))
            if not c.endswith("H") and c != "QS" and all(c not in pc for pc in points_cards)]
    out = [list(pc) for pc in points_cards]
    for q in range(n):
        while out[q] and len(out[q]) % n:
            out[q].append(rest.pop())
    k = next(q for q in range(n) if out[q])
    out[k] += rest
    return out


H = [r + "H" for r in ht.RANKS]


def test_h6_scoring():
    taken = _deal_taken([[], ["QS"], H[:10], H[10:]])
    assert score_deal(taken) == pytest.approx([26 / 3, 13 / 3 - 13, 16 / 3 - 10, 23 / 3 - 3])
    assert sum(score_deal(taken)) == pytest.approx(0)
    assert score_deal(taken, returns="openspiel") == [26, 13, 16, 23]


def test_h7_h8_moon_both_scorings():
    taken = _deal_taken([[], [], H + ["QS"], []])
    rel = [-26 / 3, -26 / 3, 26, -26 / 3]
    assert score_deal(taken) == pytest.approx(rel)
    assert score_deal(taken, moon="subtract") == pytest.approx(rel)
    assert score_deal(taken, variant="openspiel") == [0, 0, 26, 0]
    assert score_deal(taken, returns="openspiel", moon="subtract") == [26, 26, 52, 26]
    # one heart elsewhere: no moon
    taken = _deal_taken([["2H"], [], H[1:] + ["QS"], []])
    assert score_deal(taken, variant="openspiel") == [25, 26, 1, 26]


def test_h9_jd_bonus():
    taken = _deal_taken([H[:9] + ["QS"], H[9:] + ["JD"], [], []])
    assert score_deal(taken, variant="openspiel", jd_bonus=True) == [4, 32, 26, 26]
    assert score_deal(taken, variant="openspiel") == [4, 22, 26, 26]
    taken = _deal_taken([[], H + ["QS", "JD"], [], []])
    assert score_deal(taken, variant="openspiel", jd_bonus=True) == [0, 36, 0, 0]
    # the no-trick bonus: seats 2 and 3 took nothing
    taken = _deal_taken([H[:9] + ["QS"], H[9:], [], []])
    assert score_deal(taken, variant="openspiel", avoid_all_tricks_bonus=True) == [4, 22, 31, 31]


# ---- H10: the pass --------------------------------------------------------------------------------
@pytest.mark.parametrize("direction,offset", [("left", 1), ("right", 3), ("across", 2)])
def test_h10_pass(direction, offset):
    g = cardsim.make("hearts")
    hands = deal_hands(3)
    st = scenario(g, hands, dealer=3, pass_dir=direction)
    assert st.phase == "pass" and st.current_player == 0
    chosen = {}
    for q in range(4):
        assert st.current_player == q
        chosen[q] = []
        for k in range(3):
            assert legal_strings(st) == sorted(set(hands[q]) - set(chosen[q]))
            c = sorted(set(hands[q]) - set(chosen[q]))[k]
            st.apply_string(c)
            chosen[q].append(c)
        if q < 3:
            assert g.spec.view(st)["received"] == [[], [], [], []]     # nothing received yet
    assert st.phase == "play"
    for q in range(4):
        r = (q + offset) % 4
        assert set(chosen[q]) <= set(st.hand(r))
        assert sorted(g.spec.view(st)["received"][r]) == sorted(chosen[q])
    assert "2C" in st.hand(st.current_player)


def test_pass_directions_cycle_by_deal_number():
    for n, cycle in ((4, ["left", "right", "across", "hold"]), (3, ["left", "right", "hold"]),
                     (5, ["left", "right", "hold"])):
        g = cardsim.make("hearts", players=n, scope="match", match_target=10_000, max_deals=7)
        st = g.new_state(seed=4, deal=0)
        seen = []
        rng = np.random.default_rng(0)
        while not st.is_terminal():
            v = g.spec.view(st)
            if v["deal_no"] == len(seen):
                seen.append(v["pass_dir"])
                assert st.phase == ("play" if v["pass_dir"] == "hold" else "pass")
            acts = st.legal_actions()
            st.apply(int(acts[rng.integers(len(acts))]))
        assert seen == [cycle[k % len(cycle)] for k in range(7)]


def test_random_rotation_draws_every_direction():
    for n, dirs in ((4, {"hold", "left", "across", "right"}), (5, {"hold", "left", "right"})):
        g = cardsim.make("hearts", players=n, pass_rotation="random")
        seen = {g.spec.view(g.new_state(seed=1, deal=d))["pass_dir"] for d in range(60)}
        assert seen == dirs


# ---- the deal and random play --------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_engine_deal_and_random_play_invariants(n):
    g = cardsim.make("hearts", players=n)
    rng = np.random.default_rng(n)
    size = ht.deck_size(n)
    for d in range(25):
        st = g.new_state(seed=2, deal=d)
        v = g.spec.view(st)
        assert all(len(st.hand(p)) == size // n for p in range(n))
        assert sorted(c for p in range(n) for c in st.hand(p)) == sorted(ht.mask_to_cards(ht.deck_mask(n)))
        assert st.current_player == (v["dealer"] + 1) % n and v["pass_dir"] == "left"
        first_lead_seen = False
        while not st.is_terminal():
            v = g.spec.view(st)
            if st.phase == "play":
                p = st.current_player
                hand = st.hand(p)
                trick = [v["trick"][(v["leader"] + i) % n] for i in range(n)]
                trick = [c for c in trick if c is not None]
                broken = v["hearts_broken"]
                expect = legal_plays(hand, trick, broken, v["tricks_done"] == 0, players=n)
                assert legal_strings(st) == sorted(expect)
                if not first_lead_seen:
                    assert legal_strings(st) == ["2C"]
                    first_lead_seen = True
            acts = st.legal_actions()
            st.apply(int(acts[rng.integers(len(acts))]))
        v = g.spec.view(st)
        taken = v["taken"]
        assert sum(len(t) for t in taken) == size
        assert st.returns().tolist() == pytest.approx(score_deal(taken, players=n))
        assert sum(st.returns()) == pytest.approx(0)
        assert sum(v["points"]) == 26


def test_match_ends_at_target_and_scores_add_up():
    g = cardsim.make("hearts", scope="match")
    rng = np.random.default_rng(1)
    st = g.new_state(seed=5, deal=0)
    deals, totals = 0, np.zeros(4)
    while not st.is_terminal():
        v = g.spec.view(st)
        acts = st.legal_actions()
        st.apply(int(acts[rng.integers(len(acts))]))
        w = g.spec.view(st)
        if w["deal_no"] > v["deal_no"] or st.is_terminal():
            totals += np.array(w["deal_points"])
            deals += 1
            assert sum(w["deal_points"]) in (26, 78)
    v = g.spec.view(st)
    assert v["score"] == totals.tolist() and max(v["score"]) >= 100 and deals == v["deal_no"]
    r = st.returns()
    s = np.array(v["score"], float)
    assert r.tolist() == pytest.approx([(s.sum() - s[p]) / 3 - s[p] for p in range(4)])


def test_scenario_hold_starts_play_with_two_clubs_holder():
    g = cardsim.make("hearts")
    hands = deal_hands(11)
    st = scenario(g, hands, pass_dir="hold")
    holder = next(q for q in range(4) if "2C" in hands[q])
    assert st.phase == "play" and st.current_player == holder and not st.replayable
    assert g.spec.scenario(hands, pass_dir="hold").state_bytes() == st.state_bytes()
    with pytest.raises(IllegalActionError):
        st.apply_string("3C" if "3C" in hands[holder] else "AS")
    with pytest.raises(ConfigError):
        scenario(g, hands[:3])
    with pytest.raises(ConfigError):
        scenario(cardsim.make("hearts", players=3), deal_hands(1, 3), pass_dir="across")
    with pytest.raises(ConfigError):
        scenario(g, [h[:12] for h in hands])


def test_three_players_remove_two_of_diamonds():
    assert "2D" not in ht.mask_to_cards(ht.deck_mask(3))
    with pytest.raises(ConfigError):
        legal_plays(["2D", "3D"], [], False, False, players=3)
    assert ht.deck_size(6) == 48 and "2C" in ht.mask_to_cards(ht.deck_mask(6))


# ---- resampling -----------------------------------------------------------------------------------
def test_resample_keeps_public_facts_and_forbids():
    """Random playouts: after every action, every seat's resample keeps its observation and hand,
    never deals a seat a card of a suit it showed void in, and keeps what the observer passed in
    its receiver's hand."""
    g = cardsim.make("hearts")
    rng = np.random.default_rng(3)
    for d in range(6):
        st = g.new_state(seed=9, deal=d)
        voids = [set() for _ in range(4)]
        k = 0
        while not st.is_terminal():
            v = g.spec.view(st)
            p = st.current_player
            acts = st.legal_actions()
            a = int(acts[rng.integers(len(acts))])
            if st.phase == "play" and v["trick"][v["leader"]] is not None and p != v["leader"]:
                led = v["trick"][v["leader"]][-1]
                if st.action_to_string(a)[-1] != led:
                    voids[p].add(led)
            st.apply(a)
            k += 1
            if k % 5:
                continue
            for q in range(4):
                w = st.resample(q, seed=k)
                assert np.array_equal(w.observation(q), st.observation(q))
                assert w.hand(q) == st.hand(q)
                for s in range(4):
                    if s != q:
                        assert not any(c[-1] in voids[s] for c in w.hand(s))
                vv = g.spec.view(w)
                if st.phase == "play" and vv["pass_dir"] != "hold":
                    off = {"left": 1, "right": 3, "across": 2}[vv["pass_dir"]]
                    r = (q + off) % 4
                    kept = set(g.spec.view(st)["passed"][q]) & set(st.hand(r))
                    assert kept <= set(w.hand(r))
