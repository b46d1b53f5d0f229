"""Hakka Six Tigers pure rules (docs/rules/six_tigers.md §2-§6): the worked examples on patterns,
old cards, leads, beating and payments, and brute-force cross-checks against an independent
reading of the rules (six_tigers_reference.py)."""
import random

import pytest

from cardsim import ParseError
from cardsim.games.six_tigers import _rules as R
from cardsim.games.six_tigers import notation as N

from . import six_tigers_reference as ref

DEFAULT = (False, False)        # the rules config of the oracles: (set_natural, cloud_in_sets)
NATURAL = (True, False)
CLOUDSETS = (False, True)


def m(*cards):
    return N.cards_to_mask(list(cards))


def cs(mask):
    return N.mask_to_cards(mask)


def leads(hand, played=(), special=False, rules=DEFAULT):
    return {frozenset(cs(x)) for x in R.oracle_leads(m(*hand), m(*played), special, *rules)}


# ---- notation (X1) -----------------------------------------------------------------------------
def test_x1_notation_and_aliases():
    assert [N.card_str(c) for c in (0, 8, 9, 18, 27, 35, 36)] == ["SHI1", "SHI9", "GUAN1", "SUO1", "XIAN1", "XIAN9", "CLOUD"]
    for text, card in (("SUP9", "SHI9"), ("gon7", "GUAN7"), ("ZOK1", "SUO1"), ("SIN3", "XIAN3"),
                       ("WANSIN", "CLOUD"), ("cloud", "CLOUD"), ("拾9", "SHI9"), ("雲綫", "CLOUD")):
        assert N.card_str(N.parse_card(text)) == card
    for bad in ("SHI0", "SHI10", "FOO1", "", "9SHI", None, 5):
        with pytest.raises(ParseError):
            N.parse_card(bad)
    with pytest.raises(ParseError):
        N.cards_to_mask(["SHI9", "SUP9"])


# ---- X-01 deck and initial old cards -------------------------------------------------------------
def test_x01_deck_and_initial_old():
    assert len(N.DISPLAY_ORDER) == 37 and len(set(N.DISPLAY_ORDER)) == 37
    assert set(cs(R.oracle_old_mask(0))) == {"SHI9", "GUAN9", "SUO9", "XIAN9", "SHI1", "XIAN1", "CLOUD"}


# ---- lead legality -------------------------------------------------------------------
X02_HAND = ["SHI9", "SHI1", "GUAN7", "GUAN2", "SUO3", "SUO4", "SUO5", "XIAN6", "XIAN7", "XIAN8", "XIAN1", "CLOUD"]


def test_x02_lead_legality_normal_player():
    got = leads(X02_HAND)
    singles = {next(iter(x)) for x in got if len(x) == 1}
    multi = {tuple(sorted(x)) for x in got if len(x) > 1}
    assert singles == {"GUAN7", "GUAN2"}
    assert multi == {("SUO3", "SUO4", "SUO5"), ("XIAN6", "XIAN7", "XIAN8")}
    old_in_hand = set(cs(R.oracle_old_mask(0) & m(*X02_HAND)))
    assert old_in_hand == {"SHI9", "SHI1", "XIAN1", "CLOUD"}     # count before play = 0 + 4


def test_x03_lead_legality_special_player():
    got = leads(X02_HAND, special=True)
    singles = {next(iter(x)) for x in got if len(x) == 1}
    assert singles == {"GUAN7", "GUAN2", "SHI9", "SHI1", "XIAN1", "CLOUD"}
    assert {x for x in got if len(x) > 1} == {x for x in leads(X02_HAND) if len(x) > 1}


def test_lead_with_only_old_cards_any_card():
    hand = ["SHI9", "SHI1", "XIAN1", "CLOUD", "GUAN9"]
    assert {next(iter(x)) for x in leads(hand)} == set(hand)


# ---- X-04 old update -----------------------------------------------------------------------------
def test_x04_old_update():
    assert "SHI8" in cs(R.oracle_old_mask(m("SHI9")))
    assert "SHI8" not in cs(R.oracle_old_mask(0))
    # SHI8 is the dreamer's card: it is the top card (unplayed) but in no active hand
    active_hand = m("SHI7", "SHI1", "GUAN3")
    assert set(cs(R.oracle_old_mask(m("SHI9")) & active_hand)) == {"SHI1"}
    # all SHI above 1 played: SHI1 is old anyway; GUAN1 becomes old as the top of GUAN
    played = m(*[f"GUAN{n}" for n in range(2, 10)])
    assert "GUAN1" in cs(R.oracle_old_mask(played))


# ---- single follows and fixed old leads ---------------------------------------------
def beats_of(hand, high, rules=DEFAULT):
    return {frozenset(cs(x)) for x in R.oracle_beats(m(*hand), m(*high), *rules)}


def test_x05_single_follow_must_beat():
    assert beats_of(["GUAN7", "GUAN3", "SHI9", "XIAN2"], ["GUAN5"]) == {frozenset({"GUAN7"})}
    assert beats_of(["GUAN4", "GUAN2", "SUO9"], ["GUAN5"]) == set()


@pytest.mark.parametrize("lead", ["XIAN1", "SHI1", "CLOUD"])
def test_x06_fixed_old_lead_unbeatable(lead):
    others = [c for c in ref.DECK if c != lead]
    assert beats_of(others, [lead]) == set()
    rest = random.Random(6).sample(others, 2)
    assert R.oracle_trick_winner([m(lead), m(rest[0]), m(rest[1])], *DEFAULT) == 0


# ---- X-07 runs / X-08 sets / X-14 -----------------------------------------------------------------
def test_x07_runs():
    high = ["SUO3", "SUO4", "SUO5"]
    assert R.oracle_pattern(m(*high), *DEFAULT)[0] == 2
    bt = beats_of(["SUO6", "SUO7", "SUO8", "GUAN1", "GUAN2", "GUAN3", "XIAN7", "XIAN8", "XIAN9", "SUO2"], high)
    assert frozenset({"SUO6", "SUO7", "SUO8"}) in bt
    assert frozenset({"GUAN1", "GUAN2", "GUAN3"}) in bt
    assert frozenset({"XIAN7", "XIAN8", "XIAN9"}) not in bt
    assert not any(len(x) != 3 for x in bt)
    # P1 GUAN1-2-3, P2 SHI4-5-6 -> P2 wins the 3-card trick
    plays = [m(*high), m("GUAN1", "GUAN2", "GUAN3"), m("SHI4", "SHI5", "SHI6")]
    assert R.oracle_trick_winner(plays, *DEFAULT) == 2


def test_x08_sets():
    high = ["SHI7", "SUO7", "XIAN7"]
    hand = ["SHI8", "GUAN8", "SUO8", "SHI1", "GUAN1", "SUO1", "GUAN9", "SUO9", "XIAN9",
            "SHI2", "GUAN2", "SUO2"]
    bt = beats_of(hand, high)
    assert frozenset({"SHI8", "GUAN8", "SUO8"}) in bt
    assert frozenset({"SHI1", "GUAN1", "SUO1"}) in bt
    assert frozenset({"GUAN9", "SUO9", "XIAN9"}) in bt
    assert frozenset({"SHI2", "GUAN2", "SUO2"}) not in bt
    # three 9s beat three 1s; three 1s beat three 8s (X4); natural order puts 1s lowest
    assert beats_of(["GUAN9", "SUO9", "XIAN9"], ["SHI1", "GUAN1", "SUO1"]) == {frozenset({"GUAN9", "SUO9", "XIAN9"})}
    assert beats_of(["SHI1", "GUAN1", "SUO1"], ["GUAN8", "SUO8", "XIAN8"]) == {frozenset({"SHI1", "GUAN1", "SUO1"})}
    assert beats_of(["SHI1", "GUAN1", "SUO1"], ["GUAN8", "SUO8", "XIAN8"], NATURAL) == set()
    # a 4-card set cannot answer a 3-card set
    assert beats_of(["SHI8", "GUAN8", "SUO8", "XIAN8"], high) == {
        frozenset(x) for x in (("SHI8", "GUAN8", "SUO8"), ("SHI8", "GUAN8", "XIAN8"),
                               ("SHI8", "SUO8", "XIAN8"), ("GUAN8", "SUO8", "XIAN8"))}


def test_x3_cloud_only_in_sets_with_the_option():
    three = m("SHI1", "GUAN1", "CLOUD")
    assert R.oracle_pattern(three, *DEFAULT)[0] == 0
    assert R.oracle_pattern(three, *CLOUDSETS)[0] == 3
    assert R.oracle_pattern(m("SHI1", "SHI2", "CLOUD"), *CLOUDSETS)[0] == 0
    assert R.oracle_pattern(m("SHI1", "GUAN1", "SUO1", "XIAN1", "CLOUD"), *CLOUDSETS)[0] == 0   # sets have 3-4 cards


def test_x14_multi_card_credit_is_the_play_size():
    assert R.oracle_pattern(m("GUAN2", "GUAN3", "GUAN4", "GUAN5"), *DEFAULT)[:2] == (2, 4)


# ---- scoring pieces: X-09..X-12 ------------------------------------------------------------------
def test_x11_dreamer_matches():
    win = m("SHI7", "SUO7", "XIAN7", "GUAN9")
    assert R.oracle_dream_matches(win, N.parse_card("GUAN7")) == 3
    assert R.oracle_dream_matches(m("SHI1", "GUAN1"), N.parse_card("CLOUD")) == 2
    assert R.oracle_dream_matches(m("CLOUD", "XIAN2"), N.parse_card("SUO1")) == 1


def test_x10_special_liability_and_x14_dreamer_share():
    active = [True, True, False, True]                  # seat 2 dreams
    # W = 0 wins with P = 2; special 1 pays both shares; 3 pays nothing
    assert R.oracle_payments(4, active, 0, 1, 2, 2, 0) == [4, -4, 0, 0]
    # X-11 with a special loser: dreamer gets 4 from each loser, the special pays 8
    assert R.oracle_payments(4, active, 0, 1, 2, 1, 4) == [2, -10, 8, 0]
    # no special: each loser pays
    assert R.oracle_payments(4, active, 0, -1, 2, 1, 4) == [2, -5, 8, -5]
    # the special player wins: ordinary payments
    assert R.oracle_payments(4, active, 1, 1, 2, 2, 0) == [-2, 4, 0, -2]
    assert R.oracle_payments(4, active, -1, 1, 2, 2, 0) == [0, 0, 0, 0]
    assert R.oracle_payments(3, [True] * 3, 2, -1, -1, 4, 0) == [-4, -4, 8]


def test_sung_points():
    assert R.oracle_sung_points(6, m("GUAN2", "GUAN3", "GUAN4", "SUO5", "SUO6", "SUO7"), False) == 1
    assert R.oracle_sung_points(7, m("SHI9", "SHI8", "SHI1", "GUAN2", "GUAN3", "GUAN4", "SUO5"), False) == 2 + 3
    allred = m("SHI9", "GUAN9", "SUO9", "XIAN9", "SHI1", "XIAN1", "SHI8", "CLOUD", "GUAN2", "GUAN3", "GUAN4", "SUO5")
    assert R.oracle_sung_points(12, allred, False) == 30
    assert R.oracle_sung_points(8, 0, True) == 6


# ---- brute force cross-checks -------------------------------------------------------------------
def random_position(rng, played_max=20):
    deck = list(ref.DECK)
    rng.shuffle(deck)
    played = deck[:rng.randint(0, played_max)]
    rest = deck[len(played):]
    hand = rest[:rng.randint(1, 12)]
    return hand, played


@pytest.mark.parametrize("rules,kw", [(DEFAULT, {}), (NATURAL, {"natural": True}), (CLOUDSETS, {"cloud_in_sets": True})])
def test_leads_and_beats_match_brute_force(rules, kw):
    rng = random.Random(12)
    for _ in range(120):
        hand, played = random_position(rng)
        for special in (False, True):
            assert leads(hand, played, special, rules) == ref.legal_leads(hand, played, special, **kw), (hand, played)
        # every legal lead of another random hand as the high play
        other, _ = random_position(rng, 0)
        for lead in ref.legal_leads(other, [], False, **kw):
            lead = sorted(lead)
            if set(lead) & set(hand):
                continue
            want, _ = ref.legal_follows(hand, lead, len(lead), **kw)
            assert beats_of(hand, lead, rules) == want, (hand, lead)


def test_pattern_and_trick_winner_match_brute_force():
    rng = random.Random(5)
    for _ in range(3000):
        k = rng.choice([1, 1, 2, 3, 3, 4, 5])
        cards = rng.sample(ref.DECK, k)
        got = R.oracle_pattern(m(*cards), *DEFAULT)
        want = ref.pattern(cards)
        assert (got[0] != 0) == (want is not None), cards
        if want:
            assert got[0] == {"single": 1, "run": 2, "set": 3}[want[0]]
    for _ in range(150):
        hand, _ = random_position(rng, 0)
        ls = sorted(ref.legal_leads(hand, []), key=sorted)
        lead = sorted(rng.choice(ls))
        k = len(lead)
        rest = [c for c in ref.DECK if c not in lead]
        rng.shuffle(rest)
        plays = [lead]
        for i in range(2):
            if rng.random() < 0.5:
                bt = sorted((sorted(x) for x in ref.legal_leads(rest[:12], []) if len(x) == k), key=str)
                plays.append(rng.choice(bt) if bt else rest[:k])
            else:
                plays.append(rest[:k])
            rest = [c for c in rest if c not in plays[-1]]
        assert R.oracle_trick_winner([m(*p) for p in plays], *DEFAULT) == ref.trick_winner(plays), plays
