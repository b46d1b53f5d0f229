"""Exposure in the one game shape (issue 24): the kernel modules import nothing from the Python
package, the face checks every argument before the struct setter and the compiled oracles see it,
and those still refuse what the face would never pass."""
import pathlib
import re

import pytest

import cardsim
from cardsim.games import exposure as ex
from cardsim.games.exposure import _rules

ROOT = pathlib.Path(__file__).resolve().parents[3]
KERNEL = ("_rules", "_state", "_agent", "_observe")
DECK = ex.mask_to_cards((1 << 24) - 1)


@pytest.mark.parametrize("module", KERNEL)
def test_kernel_modules_import_no_python_module(module):
    text = (ROOT / "ext" / "cardsim" / "games" / "exposure" / f"{module}.pyx").read_text(encoding="utf-8")
    imports = [ln for ln in text.splitlines() if re.match(r"\s*(import|from\s+\S+\s+import)\b", ln)]
    assert imports == [], imports


def test_face_scenario_and_spec_scenario_build_the_same_state():
    g = cardsim.make("exposure", scope="match")
    hands, table = [DECK[0:9], DECK[9:18]], DECK[18:21]
    a = ex.scenario(g, hands, table=table, dealer=0, scores=[10, 20])
    b = g.spec.scenario(hands, table=table, dealer=0, scores=[10, 20])
    c = ex.deal_hands(g, hands, table, dealer=0, scores=[10, 20])
    assert a.state_bytes() == b.state_bytes() == c.state_bytes() and not a.replayable
    assert g.spec.view(a)["score"] == [10, 20]


def test_struct_setter_and_oracles_refuse_unchecked_arguments():
    g = cardsim.make("exposure")
    g.spec._set_deal(list(range(24)), 1, None)
    for perm, dealer in ((list(range(23)), 0), ([0] * 24, 0), (list(range(24)), 2)):
        with pytest.raises(ValueError):
            g.spec._set_deal(perm, dealer, None)
    for args in ((24, 0, 0, 0), (0, -1, 0, 0), (0, 1, 4, 0), (0, 1, 0, 6)):
        with pytest.raises(ValueError):
            _rules.oracle_trick_winner(*args)
    with pytest.raises(ValueError):
        _rules.oracle_follow(1, 24)
    with pytest.raises(ValueError):
        _rules.oracle_deal_order(list(range(23)), 0)
    assert _rules.oracle_deal_points(2, 5, [5, 4], [1, 0], 5) == (2 * 5 + 1 + 5, 2 * 4)
