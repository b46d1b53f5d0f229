"""Samba: the initial-meld search's shortcut before its constructive meld builder
(_opening.groups_fit, reached through cardsim.games.samba._testing.best_value_shortcut) says yes
only where the builder (_units.sb_best_value) reaches the target: on random count vectors of the
kinds (three decks' copies, up to six jokers) with every budget and target, for standard and
Dutch groups, and on worked examples. A wrong yes would offer an ADD whose batch the search
never found."""
import numpy as np
import pytest

import cardsim
from cardsim.games.samba._testing import best_value_shortcut

RANKS = "23456789TJQKA"
SUITS = "SHDC"


def counts(cards):
    """The 53-kind count vector of cards written like 'KS' (kind = suit * 13 + rank; 'JK')."""
    c = [0] * 53
    for x in cards:
        c[52 if x == "JK" else SUITS.index(x[-1]) * 13 + RANKS.index(x[:-1])] += 1
    return c


@pytest.mark.parametrize("dutch", [False, True])
def test_shortcut_never_says_yes_where_the_builder_says_no(dutch):
    rng = np.random.default_rng(7 + dutch)
    fired = 0
    for _ in range(20000):
        density = rng.random()
        c = [int(x) if rng.random() < density else 0 for x in rng.integers(0, 4, 53)]
        c[52] = int(rng.integers(0, 7)) if rng.random() < 0.3 else 0
        budget = int(rng.integers(0, 25))
        target = int(rng.integers(1, 250))
        fit, best = best_value_shortcut(c, budget, target, dutch)
        if fit:
            fired += 1
            assert best >= target, (c, budget, target, best)
    assert fired > 400           # the shortcut is exercised, not vacuous


def test_worked_examples():
    # three kings and three queens (60), a 5 and a 9 that meld with nothing: six meldable cards
    hand = counts(["KS", "KH", "KD", "QS", "QH", "QC", "5D", "9C"])
    assert best_value_shortcut(hand, 6, 60) == (True, 60)
    assert best_value_shortcut(hand, 6, 61)[0] is False        # the GROUPs are worth 60
    assert best_value_shortcut(hand, 5, 50)[0] is False        # six meldable cards, budget 5
    # a pair with a wild counts among the meldable cards but not in the GROUPs' value
    hand = counts(["AS", "AH", "AD", "7S", "7H", "2C"])
    assert best_value_shortcut(hand, 6, 60) == (True, 90)
    assert best_value_shortcut(hand, 5, 60)[0] is False
    # a run of spades is meldable too: it must fit in the budget
    hand = counts(["AS", "AH", "AD", "4S", "5S", "6S"])
    assert best_value_shortcut(hand, 6, 60)[0] is True
    assert best_value_shortcut(hand, 5, 60)[0] is False


@pytest.mark.parametrize("bad", [[0] * 52, [0] * 52 + [7], [0] * 52 + [-1], "KS"])
def test_hook_refuses_bad_counts(bad):
    with pytest.raises(cardsim.ConfigError):
        best_value_shortcut(bad, 5, 10)
