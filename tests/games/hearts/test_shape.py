"""Hearts in the one game shape: the kernel modules import nothing from the Python package, the
face's scenario and the spec's build the same state, and the struct setter and the compiled
oracles refuse what the face would never pass (a guard for their fixed-size buffers)."""
import pathlib
import re

import pytest

import cardsim
from cardsim.games import hearts as ht
from cardsim.games.hearts import _rules

ROOT = pathlib.Path(__file__).resolve().parents[3]
KERNEL = ("_rules", "_state", "_agent", "_observe")
DECK = [ht.card_str(c) for c in range(52)]
HANDS = [DECK[13 * q:13 * q + 13] for q in range(4)]


@pytest.mark.parametrize("module", KERNEL)
def test_kernel_modules_import_no_python_module(module):
    text = (ROOT / "ext" / "cardsim" / "games" / "hearts" / f"{module}.pyx").read_text(encoding="utf-8")
    imports = [ln for ln in text.splitlines() if re.match(r"\s*(import|from\s+\S+\s+import)\b", ln)]
    assert imports == [], imports


def test_face_scenario_and_spec_scenario_build_the_same_state():
    g = cardsim.make("hearts")
    a = ht.scenario(g, HANDS, dealer=2, pass_dir="across")
    b = g.spec.scenario(HANDS, dealer=2, pass_dir="across")
    assert a.state_bytes() == b.state_bytes() and not a.replayable
    assert g.spec.view(a)["pass_dir"] == "across" and a.current_player == 3


def test_struct_setter_and_oracles_refuse_unchecked_arguments():
    g = cardsim.make("hearts")
    ok = [ht.cards_to_mask(h) for h in HANDS]
    g.spec._set_deal(ok, 0, 1)
    for hands, dealer, pd in ((ok[:3], 0, 1), (ok, 4, 1), (ok, 0, 4), (ok, 0, -2), ([ok[0]] * 4, 0, 1),
                              ([1 << 52] + ok[1:], 0, 1)):
        with pytest.raises((ValueError, OverflowError)):
            g.spec._set_deal(hands, dealer, pd)
    for cards in ([], list(range(7)), [52], [-1]):
        with pytest.raises((ValueError, OverflowError)):
            _rules.oracle_trick_winner(cards)
    opts = g.options
    with pytest.raises(ValueError):
        _rules.oracle_legal(dict(opts), 1 << 55, -1, False, False)
    with pytest.raises(ValueError):
        _rules.oracle_score(dict(opts), [0, 0, 0])
    with pytest.raises(ValueError):
        _rules.oracle_deck(7)
