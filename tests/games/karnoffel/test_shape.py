"""Karnöffel in the one game shape (issue 24): the kernel modules import nothing from the Python
package, the face checks every argument before the struct setter and the compiled oracles see it,
and those still refuse what the face would never pass (a guard for their fixed-size buffers)."""
import pathlib
import re

import pytest

import cardsim
from cardsim.games import karnoffel as kn
from cardsim.games.karnoffel import _rules

ROOT = pathlib.Path(__file__).resolve().parents[3]
KERNEL = ("_rules", "_state", "_agent", "_observe")
HANDS = [["KC", "QC", "10C", "3S", "4S"], ["2H", "JH", "6H", "8C", "9C"],
         ["KS", "QS", "10S", "9S", "8S"], ["KD", "QD", "10D", "9D", "8D"]]


@pytest.mark.parametrize("module", KERNEL)
def test_kernel_modules_import_no_python_module(module):
    text = (ROOT / "ext" / "cardsim" / "games" / "karnoffel" / f"{module}.pyx").read_text(encoding="utf-8")
    imports = [ln for ln in text.splitlines() if re.match(r"\s*(import|from\s+\S+\s+import)\b", ln)]
    assert imports == [], imports


def test_face_scenario_and_spec_scenario_build_the_same_state():
    g = cardsim.make("karnoffel")
    a = kn.scenario(g, HANDS, dealer=2, up=["3S", "2H", "8S", "8D"])
    b = g.spec.scenario(HANDS, dealer=2, up=["3S", "2H", "8S", "8D"])
    assert a.state_bytes() == b.state_bytes() and not a.replayable
    assert g.spec.view(a)["chosen"] == "H"


def test_struct_setter_and_oracles_refuse_unchecked_arguments():
    g = cardsim.make("karnoffel")
    m = kn.cards_to_mask
    ok = [m(h) for h in HANDS]
    ups = [kn.parse_card(h[0]) for h in HANDS]
    g.spec._set_deal(ok, 0, ups)
    for hands, dealer, up in ((ok[:3], 0, ups), (ok, 4, ups), (ok, 0, ups[:3]), (ok, 0, [47] * 4),
                              (ok, 0, [-1] * 4), ([1 << 50] * 4, 0, [50] * 4)):
        with pytest.raises((ValueError, OverflowError)):
            g.spec._set_deal(hands, dealer, up)
    for cards, chosen in (([], 0), (list(range(7)), 0), ([48], 0), ([-1], 0), ([0, 1, 2, 3], 4)):
        with pytest.raises(ValueError):
            _rules.oracle_trick_winner(cards, chosen)
    with pytest.raises(ValueError):
        _rules.oracle_chosen_suit(list(range(7)))
