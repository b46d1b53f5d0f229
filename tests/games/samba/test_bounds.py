"""Samba: the shared protocol's episode and return bounds (docs/rules/samba.md "Bounds", S-D23,
S-D24): max_game_length holds for random, always-first, always-last and always-"pass" policies
over the conformance configurations (deal and match scope), return_bounds holds for random and
greedy deals, constructed positions reach or come near the extremes, and the caps end what could
go on forever (a FAIL loop under penalize, a match nobody wins)."""
import random

import numpy as np
import pytest

import cardsim
from cardsim import CardsimError
from cardsim.games import samba
from cardsim.games.samba import INFO, max_game_length, return_bounds, score_side

CONFORMANCE_CONFIGS = INFO.conformance_configs
PRESETS = INFO.presets

PASS_WORDS = ("decline", "no")            # Samba has no pass: declining the pile, answering no


def policy_action(st, policy, rng):
    legal = st.legal_actions()
    if policy == "first":
        return int(legal[0])
    if policy == "last":
        return int(legal[-1])
    if policy == "pass":
        for a in legal:
            if st.action_to_string(int(a)) in PASS_WORDS:
                return int(a)
        return int(legal[0])
    return int(legal[rng.randrange(len(legal))])


def play(g, seed, deal, policy, cap):
    st = g.new_state(seed=seed, deal=deal)
    rng = random.Random(seed * 1000 + deal)
    n = 0
    while not st.is_terminal():
        assert st.legal_actions().size, "dead end"
        st.apply(policy_action(st, policy, rng))
        n += 1
        assert n <= cap, f"{policy}: more than max_game_length = {cap} actions"
    return n, st.returns()


@pytest.mark.parametrize("cfg", CONFORMANCE_CONFIGS, ids=[str(c) for c in CONFORMANCE_CONFIGS])
def test_max_game_length_holds_for_simple_policies(cfg):
    g = cardsim.make("samba", **cfg)
    cap = max_game_length(g.options)
    lo, hi = return_bounds(g.options)
    deals = 1 if cfg.get("scope") == "match" else 2
    for policy in ("random", "first", "last", "pass"):
        for deal in range(deals):
            n, ret = play(g, 7, deal, policy, cap)
            assert lo <= ret.min() and ret.max() <= hi
    # the batch kernel: random and greedy agents, many deals
    out = g.spec.run_batch(11, 0, 8 if cfg.get("scope") == "match" else 60, [p % 2 for p in range(g.num_players)])
    assert out["actions"].max() <= cap
    assert lo <= out["returns"].min() and out["returns"].max() <= hi


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bounds_every_preset_and_player_count(preset, players):
    for scope in ("deal", "match"):
        g = cardsim.make("samba", variant=preset, players=players, scope=scope)
        lo, hi = return_bounds(g.options)
        cap = max_game_length(g.options)
        assert lo < 0 < hi and isinstance(cap, int) and cap > 0
        if scope == "deal":
            out = g.spec.run_batch(3, 0, 20, [0] * players)
            assert out["actions"].max() <= cap
            assert lo <= out["returns"].min() and out["returns"].max() <= hi


def test_documented_default_values():
    g = cardsim.make("samba")
    assert return_bounds(g.options) == (-2770.0, 25470.0)
    assert max_game_length(g.options) == 1506
    d = cardsim.make("samba", variant="dutch")
    assert return_bounds(d.options)[0] == -1770 - 1900       # 4 exposed (-400) + two hands with one (-1500)
    assert return_bounds(cardsim.make("samba", players=2, variant="dutch").options)[0] == -1770 - 1250
    m = cardsim.make("samba", scope="match", target_score=600)
    assert return_bounds(m.options) == (100 * -2770.0, 599 + 25470.0)
    assert max_game_length(m.options) == 100 * 1506
    p = cardsim.make("samba", insufficient_initial_meld="penalize")
    assert max_game_length(p.options) == 4 * 258 + 3 * 156 * 21 + 20 + 6
    with pytest.raises(CardsimError):
        return_bounds({"players": 9})
    with pytest.raises(CardsimError):
        max_game_length(5)                      # (None: INFO resolves it as {}, the defaults)


def test_return_bounds_are_reached_or_nearly():
    """The low bound is reached exactly by a side holding every card but the red threes with six
    exposed red threes and no canasta; the high bound is approached by 12 sambas, natural canastas
    and six red threes (within 12%)."""
    allcards = [r + s for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
                for s in "SHDC" for _ in range(3) if not (r == "3" and s in "HD")] + ["JK"] * 6
    assert score_side([], [allcards], 6, False) == return_bounds(cardsim.make("samba").options)[0]
    sambas = [[r + s for r in run] for s in "SHDC" for run in (
        ["4", "5", "6", "7", "8", "9", "10"], ["6", "7", "8", "9", "10", "J", "Q"],
        ["8", "9", "10", "J", "Q", "K", "A"])]
    canastas = [[r + s for s in "SHDC" for _ in range(2)] for r in ("4", "5", "K", "A")]
    groups = [[r + s for s in "SHDC"] + w for r, w in zip(("6", "7", "J", "Q"), (["2S", "2H"], ["2D", "2C"]) * 2)]
    top = score_side(sambas + canastas + groups, [[]], 6, True)
    hi = return_bounds(cardsim.make("samba").options)[1]
    assert top == 22560 and 0.88 * hi <= top <= hi


def test_penalize_fail_loop_is_capped():
    """S-D23: a player who melds a short batch and fails again and again: after max_failed_melds
    failures its batch must reach the requirement (FAIL and a short MELD are no longer offered)."""
    g = cardsim.make("samba", players=2, insufficient_initial_meld="penalize", max_failed_melds=3)
    st = samba.scenario(g, [["KH", "KS", "KD", "4C", "7H", "9D"], ["4H", "5H", "9C"]], pile=["5S"],
                        cum=[1600, 0], turn=0, dealer=1, phase="meld")
    for k in range(3):
        for a in ("+KH", "+KS", "+KD", "meld", "fail"):
            st.apply_string(a)
        assert g.spec.view(st)["requirement"][0] == 90 + 100 * (k + 1)
    acts = {st.action_to_string(int(a)) for a in st.legal_actions()}
    assert not any(a.startswith("+K") for a in acts), "K K K (30) cannot reach 390: no short batch any more"
    assert "discard KH" in acts
    # the cap bounds a whole deal of FAIL-happy play
    g = cardsim.make("samba", players=2, insufficient_initial_meld="penalize")
    cap = max_game_length(g.options)
    for deal in range(3):
        st = g.new_state(seed=9, deal=deal)
        n = 0
        while not st.is_terminal():
            names = {st.action_to_string(int(a)): int(a) for a in st.legal_actions()}
            pick = names.get("fail") or names.get("meld") or next((a for s, a in names.items() if s[0] == "+"),
                                                                     None) or min(names.values())
            st.apply(pick)
            n += 1
            assert n <= cap


def test_match_ends_after_max_deals():
    """S-D24: a match of first-legal play that no side wins (target 1,000,000) ends after max_deals
    deals, each seat's return its side's cumulative score."""
    g = cardsim.make("samba", players=2, scope="match", target_score=1_000_000, max_deals=3)
    st = g.new_state(5, 0)
    n = 0
    while not st.is_terminal():
        st.apply(int(st.legal_actions()[0]))
        n += 1
    v = g.spec.view(st)
    assert v["deal_no"] == 3 and n <= max_game_length(g.options)
    assert list(st.returns()) == v["cum_scores"] and max(v["cum_scores"]) < 1_000_000
