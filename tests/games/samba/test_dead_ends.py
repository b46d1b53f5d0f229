"""Samba: no position the engine reaches is a dead end (docs/rules/samba.md S-D10, S-D22, S-D23).

The legal generator never offers an action after which no legal action exists: the MERGE repro of
issue 23 (one card in hand, exactly the minimum canastas, two canastas of one rank) and property
tests over random and greedy playouts, from new deals under every preset at 2/4/6 players and from
random scenarios drawn from a shuffled deck. Scenarios refuse what a real deal cannot produce
where that would create a dead end (red threes left in a hand in auto mode, a meld-phase hand the
hand guard forbids), and malformed scenario arguments give a typed error, never a crash."""
import random
from collections import Counter

import numpy as np
import pytest

import cardsim
from cardsim import CardsimError, ConfigError, ParseError
from cardsim.games.samba import INFO, scenario

PRESETS = INFO.presets

RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHDC"
DECK = [r + s for r in ["2", "3"] + RANKS for s in SUITS for _ in range(3)] + ["JK"] * 6
PLAYERS = (2, 4, 6)

REPRO_HANDS = [["5C"], ["4S", "4S"], ["5S", "5S"], ["6S", "6S"]]
REPRO_MELDS = [[["QS", "QS", "QH", "QH", "QD", "QD", "2C"], ["QS", "QH", "QC", "QC", "QD", "QC", "JK"],
                ["8S", "8H", "8D"]], []]


def acts(st):
    return {st.action_to_string(int(a)) for a in st.legal_actions()}


def repro(g):
    return scenario(g, REPRO_HANDS, dealer=3, pile=["4C"], phase="meld", melds=REPRO_MELDS)


def dead(st):
    return f"dead end after {[st.action_to_string(a) for a in st.history()[-6:]]}:\n{st}"


def playout(g, st, rng, greedy=0.0, max_steps=4000):
    """Random (with probability `greedy` per step the greedy agent's) actions to the end; asserts
    that every non-terminal state on the way has a legal action. Returns the steps taken."""
    for step in range(max_steps):
        if st.is_terminal():
            return step
        legal = st.legal_actions()
        assert len(legal) > 0, dead(st)
        if greedy and rng.random() < greedy:
            a = int(g.spec.greedy_action(st, rng.randrange(1 << 30)))
        else:
            a = int(legal[rng.randrange(len(legal))])
        st.apply(a)
    raise AssertionError(f"no end within {max_steps} actions")


# ---- 1. the MERGE repro ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [4])
@pytest.mark.parametrize("preset", ["standard", "hoyle", "dutch", "no_wild_on_natural"])
def test_merge_that_drops_below_the_canastas_to_go_out_is_not_offered(preset, players):
    """Issue 23: merging the two Q canastas leaves one canasta (fewer than going_out_min_canastas =
    2) with one card in hand, which then can be neither melded nor discarded (HG, S-D10): MERGE is
    no longer offered; discarding the last card (going out with two canastas) still is."""
    g = cardsim.make("samba", players=players, variant=preset)
    st = repro(g)
    assert acts(st) == {"discard 5C"}
    # the greedy agent now goes out instead of merging into a dead end
    st.apply(int(g.spec.greedy_action(st, 0)))
    assert st.is_terminal() and g.spec.view(st)["end_type"] == "went_out"


def test_merge_that_keeps_the_canastas_is_offered_with_one_card():
    """The hand guard on MERGE forbids only what it must: merging two non-canasta groups into a
    canasta, or merging into a side that keeps its minimum, stays legal with one card in hand."""
    g = cardsim.make("samba", players=4)
    melds = [[["QS", "QS", "QH", "QH", "QD", "QD", "2C"], ["KS", "KH", "KC", "KC", "KD", "KC", "JK"],
              ["8S", "8H", "8D"], ["8C", "8C", "8D", "2D"]], []]
    st = scenario(g, REPRO_HANDS, dealer=3, pile=["4C"], phase="meld", melds=melds)
    assert {"merge 2", "merge 3", "discard 5C"} <= acts(st)
    st.apply_string("merge 2")
    assert acts(st) == {"into 3"}
    st.apply_string("into 3")
    assert g.spec.view(st)["canastas"][0] == 3 and acts(st) == {"discard 5C"}
    # one canasta and a 4-card group of its rank: merging keeps one canasta (below 2): refused too
    melds = [[["QS", "QS", "QH", "QH", "QD", "QD", "2C"], ["QC", "QC", "QH"]], []]
    st = scenario(g, [["5C", "6C"], ["4S", "4S"], ["5S", "5S"], ["6S", "6S"]], dealer=3, pile=["4C"],
                         phase="meld", melds=melds)
    assert "merge 0" in acts(st), "two cards in hand: the merge is fine (a discard keeps one)"
    # with going_out_min_canastas=1 the repro's merge is fine: one canasta is enough to go out
    g1 = cardsim.make("samba", players=4, going_out_min_canastas=1)
    st = repro(g1)
    assert {"merge 0", "merge 1", "discard 5C"} <= acts(st)
    st.apply_string("merge 0")
    st.apply_string("into 1")
    assert acts(st) == {"discard 5C"}


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_merge_repro_other_player_counts(players):
    """The repro's shape (seat 0's side: two Q canastas and an 8 group; one card) at 2-6 players."""
    g = cardsim.make("samba", players=players)
    S = g.spec.view(g.new_state(1, 0))["cum_scores"].__len__()
    hands = [["5C"]] + [["4S", "9S"], ["5S", "9H"], ["6S", "9D"], ["7S", "9C"], ["KS", "KH"]][:players - 1]
    st = scenario(g, hands, dealer=players - 1, pile=["4C"], phase="meld",
                         melds=REPRO_MELDS[:1] + [[] for _ in range(S - 1)])
    assert acts(st) == {"discard 5C"}


# ---- property: no dead ends from new deals -----------------------------------------------------
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_batch_playouts_never_stop_on_a_live_state(preset, players):
    """The batch kernel stops when the legal set is empty: end_type (metric 0) is 0 only if it
    stopped on a live state. Random and greedy agents, every preset, 2/4/6 players."""
    g = cardsim.make("samba", players=players, variant=preset)
    for agents in ([0] * players, [1] * players, [p % 2 for p in range(players)]):
        out = g.spec.run_batch(23, 0, 100, agents)
        assert (out["metrics"][:, 0] > 0).all(), f"dead end in deals {np.nonzero(out['metrics'][:, 0] == 0)[0]}"


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_playouts_from_random_states_and_the_repro(preset, players):
    """Random and greedy playouts through the Python API (every state on the way checked), from new
    deals advanced at random (random states), and from the repro's position."""
    opts = {"players": players, "variant": preset}
    if preset == "hoyle":
        opts["insufficient_initial_meld"] = "penalize"
    if preset == "official" and players in (4, 6):
        opts["allow_go_out_query"] = True
    g = cardsim.make("samba", **opts)
    rng = random.Random(f"{preset}{players}")
    for deal in range(6):
        st = g.new_state(seed=23, deal=deal)
        for _ in range(rng.randrange(40)):              # a random state: the deal advanced at random
            if st.is_terminal():
                break
            st.apply(int(rng.choice(list(st.legal_actions()))))
        playout(g, st, rng, greedy=(0.0, 0.5, 1.0)[deal % 3])
    if players == 4:
        playout(g, repro(g), rng, greedy=0.5)


# ---- 2. scenarios: refusals, malformed arguments, random accepted ones -----------------------------
def test_auto_red_threes_left_in_a_hand_are_refused():
    g = cardsim.make("samba", players=2)
    hands = [["3H", "4S", "5S"], ["9C", "KD", "QD"]]
    with pytest.raises(ConfigError, match="red three"):
        scenario(g, hands, pile=["6S"], turn=0, dealer=1)
    with pytest.raises(ConfigError, match="red three"):
        scenario(g, hands, pile=["6S"], turn=0, dealer=1, phase="meld", first_turn_done=False)
    # dealt red threes (first_turn_done=False): the seat to act exposes and replaces them at once (T0)
    st = scenario(g, hands, pile=["6S"], turn=0, dealer=1, first_turn_done=False, stock=["9S", "7D"])
    v = g.spec.view(st)
    assert v["red3"][0] == ["3H"] and sorted(st.hand(0)) == ["4S", "5S", "7D"] and v["stock"] == ["9S"]
    # ... and another seat's dealt red three waits for its first turn
    st = scenario(g, [["4S", "5S", "6D"], ["3D", "KD", "QD"]], pile=["6S"], turn=0, dealer=1,
                         first_turn_done=False)
    assert g.spec.view(st)["red3"] == [[], []] and "3D" in st.hand(1)
    # manual red threes (Dutch) stay in hands
    d = cardsim.make("samba", players=2, variant="dutch")
    st = scenario(d, hands, pile=["6S"], turn=0, dealer=1, phase="meld")
    assert "red3 3H" in acts(st) and "discard 3H" in acts(st)


def test_meld_phase_hands_the_hand_guard_forbids_are_refused():
    g = cardsim.make("samba", players=4)
    with pytest.raises(ConfigError, match="hand guard"):
        scenario(g, REPRO_HANDS, dealer=3, pile=["4C"], phase="meld", melds=[REPRO_MELDS[0][:1], []])
    with pytest.raises(ConfigError, match="no card"):
        scenario(g, [[]] + REPRO_HANDS[1:], dealer=3, pile=["4C"], phase="meld", melds=REPRO_MELDS)
    with pytest.raises(ConfigError, match="opened"):
        scenario(g, REPRO_HANDS, dealer=3, pile=["4C"], melds=REPRO_MELDS, opened=[False, False])
    # the draw phase keeps one card fine (the draw brings the hand to three)
    st = scenario(g, REPRO_HANDS, dealer=3, pile=["4C"], melds=[REPRO_MELDS[0][:1], []])
    assert "draw" in acts(st)


def test_fewer_red_three_lists_than_sides_is_a_typed_error_every_time():
    """Issue 23: red3=[["3H"]] for a 2-side game read past the list (the second call crashed)."""
    g = cardsim.make("samba", players=2)
    hands = [["4S", "5S", "9D"], ["4H", "5H", "9C"]]
    for _ in range(3):
        with pytest.raises(ConfigError, match="one entry per side"):
            scenario(g, hands, pile=["KD"], red3=[["3H"]])
        with pytest.raises(ConfigError, match="one entry per side"):
            scenario(g, hands, pile=["KD"], melds=[[]])
        with pytest.raises(ConfigError, match="one entry per side"):
            scenario(g, hands, pile=["KD"], cum=[0, 0, 0])
    st = scenario(g, hands, pile=["KD"], red3=[["3H"], []])
    assert g.spec.view(st)["red3"] == [["3H"], []]


GOOD = dict(hands=[["4S", "5S", "9D"], ["4H", "5H", "9C"]], pile=["KD"], melds=[[["QS", "QH", "QD"]], []],
            red3=[["3H"], []], cum=[0, 100], stock=["7C", "8C"], dealer=1, turn=0, phase="draw",
            first_turn_done=True, opened=[True, False])
JUNK = [None, 1.5, -1, 2**70, True, "KS", b"KS", ["KS"], [["KS"]], [[["KS"]]], [None], {"a": 1}, np.int64(1),
        np.float64(1.0), [["3H"]], [[]] * 40, [["XX"]], [[["QS"] * 40]], ["KS"] * 500, "A" * 10000,
        [["A" * 10000]], (), [[], [], []], [0, 0, 0], [True, 2], [[1, 2], []], np.array([1, 2]), float("nan"),
        [[["2S", "2H", "JK"]], []], [[["QS", "QH"]], []], [[["3S", "3C", "3S"]] * 33, []]]


def test_malformed_scenario_arguments_give_typed_errors():
    """Every argument replaced by junk (None, floats, huge ints, strings, oversized and nested lists,
    numpy values): a typed error (CardsimError: ConfigError or ParseError), or a state that plays."""
    g = cardsim.make("samba", players=2)
    assert scenario(g, GOOD["hands"], **{k: v for k, v in GOOD.items() if k != "hands"}).legal_actions().size
    errors = 0
    for key in GOOD:
        for junk in JUNK:
            kw = dict(GOOD)
            kw[key] = junk
            hands = kw.pop("hands")
            try:
                st = scenario(g, hands, **kw)
            except CardsimError as e:
                assert len(str(e)) < 600, str(e)
                errors += 1
                continue
            assert st.is_terminal() or st.legal_actions().size, (key, junk)
    assert errors >= len(GOOD) * len(JUNK) - 20
    with pytest.raises(ConfigError, match="Samba game"):
        scenario(cardsim.make("basra"), GOOD["hands"])
    with pytest.raises(ConfigError):
        scenario(g, GOOD["hands"], nonsense=1)


def random_facts(rng, g):
    """Random scenario facts drawn from a shuffled 162-card deck: melds (groups, often two of a
    rank and canastas; sequences) for sides that opened, exposed red threes, hands of 1-9 cards,
    a pile, a stock of 0-20 cards (or the rest), the seat to act and its phase, scores."""
    o = g.options
    N = g.num_players
    S = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[N]
    manual = o["red_three_mode"] == "manual"
    pool = Counter(DECK)

    def grab(cards):
        need = Counter(cards)
        if any(pool[c] < n for c, n in need.items()):
            return False
        pool.subtract(need)
        return True

    turn = rng.randrange(N)
    near_out = rng.random() < 0.35         # the mover close to going out: canastas of one rank, 1-3 cards
    melds = []
    for side in range(S):
        ms = []
        if near_out and side == turn % S:
            r = rng.choice(RANKS)
            for n in (7, 7, rng.choice([3, 4, 7]))[:rng.choice([2, 3])]:
                cards = [r + su for su in SUITS for _ in range(3)][:12]
                rng.shuffle(cards)
                cards = cards[:n - 1] + [rng.choice(["2S", "2H", "2D", "2C", "JK", r + "S"])]
                if grab(cards):
                    ms.append(cards)
        if rng.random() < 0.7:
            last = None
            for _ in range(rng.randint(1, 6)):
                if rng.random() < 0.75:
                    r = last if last and rng.random() < 0.5 else rng.choice(RANKS)
                    last = r
                    nat = rng.choice([2, 3, 4, 5, 5, 6, 7, 7, 8])
                    w = rng.choice([0, 0, 1, 2])
                    if o["group_wild_rule"] == "dutch":
                        w = min(w, nat // 2)
                    if nat + w < 3:
                        nat = 3 - w
                    cards = [r + rng.choice(SUITS) for _ in range(nat)]
                    cards += [rng.choice(["2S", "2H", "2D", "2C", "JK"]) for _ in range(w)]
                else:
                    su, n = rng.choice(SUITS), rng.randint(3, 7)
                    lo = rng.randint(0, len(RANKS) - n)
                    cards = [RANKS[i] + su for i in range(lo, lo + n)]
                if grab(cards):
                    ms.append(cards)
        melds.append(ms)
    red3 = []
    for side in range(S):
        r = [c for c in rng.sample(["3H", "3D", "3H"], rng.randint(0, 2)) if grab([c])]
        red3.append(r)
    rest = [c for c, n in pool.items() for _ in range(n)]
    rng.shuffle(rest)
    if not manual:
        rest = [c for c in rest if c not in ("3H", "3D")] + [c for c in rest if c in ("3H", "3D")]
    hands = [[rest.pop(0) for _ in range(rng.randint(1, 3) if near_out and q == turn else rng.randint(1, 9))]
             for q in range(N)]
    pile = [rest.pop(0) for _ in range(rng.randint(0, 5))]
    rng.shuffle(rest)
    stock = None if rng.random() < 0.4 else rest[:rng.randint(0, 20)]
    phase = "meld" if near_out else rng.choice(["draw", "meld"])
    cum = [rng.choice([-200, 0, 1600, 3500, 6000]) for _ in range(S)]
    return dict(hands=hands, melds=melds, red3=red3, pile=pile, stock=stock, turn=turn,
                dealer=(turn - 1) % N, phase=phase, cum=cum)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_accepted_scenarios_never_reach_a_dead_state(preset, players):
    opts = {"players": players, "variant": preset}
    if preset == "hoyle":
        opts["insufficient_initial_meld"] = "penalize"
    if preset == "official" and players in (4, 6):
        opts["allow_go_out_query"] = True
    g = cardsim.make("samba", **opts)
    rng = random.Random(f"scen{preset}{players}")
    accepted = refused = 0
    while accepted < 60:
        f = random_facts(rng, g)
        hands = f.pop("hands")
        try:
            st = scenario(g, hands, **f)
        except (ConfigError, ParseError):
            refused += 1
            assert refused < 400
            continue
        accepted += 1
        playout(g, st, rng, greedy=rng.choice([0.0, 0.5]))


# ---- 3. S-D22: manual red threes on the last draw ---------------------------------------------------
def test_s_d22_manual_red_three_last_draw():
    """S-D22 worked example. Auto: the last draw yields only a red three: exposed, the deal ends
    (E3, S-D13). Manual (Dutch): the red three is a card in hand and the deal goes on: the player
    may place it (PLACE_RED3), meld, or discard it; a red three on top blocks the pile, so with the
    stock empty the next player cannot take it and the deal ends (E2)."""
    hands = [["4D", "5D", "6D"], ["4C", "KD", "QD"]]
    g = cardsim.make("samba", players=2)
    st = scenario(g, hands, pile=["6S"], turn=0, dealer=1, stock=["3H"])
    st.apply_string("draw")
    v = g.spec.view(st)
    assert st.is_terminal() and v["end_type"] == "red_threes_last" and v["red3"][0] == ["3H"]
    d = cardsim.make("samba", players=2, variant="dutch")
    st = scenario(d, hands, pile=["6S"], turn=0, dealer=1, stock=["3H"])
    st.apply_string("draw")
    assert not st.is_terminal() and st.phase == "meld" and sorted(st.hand(0)) == ["3H", "4D", "5D", "6D"]
    assert acts(st) == {"red3 3H", "discard 3H", "discard 4D", "discard 5D", "discard 6D"}
    alt = st.clone()
    st.apply_string("discard 3H")
    v = d.spec.view(st)
    assert st.is_terminal() and v["end_type"] == "stock_out" and v["red3"] == [[], []]
    # placing it instead: exposed (+100 with the canastas, -100 without), then a discard
    alt.apply_string("red3 3H")
    alt.apply_string("discard 4D")
    v = d.spec.view(alt)
    assert v["red3"][0] == ["3H"] and alt.is_terminal() and v["end_type"] == "stock_out"
