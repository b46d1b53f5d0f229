"""The fuzzer runs clean on every game for a short budget, and it does catch a broken contract."""
import json

import pytest

import cardsim
from cardsim import fuzz
from cardsim.core._fuzz import fuzz_batch


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_kernel_and_api_passes_clean(game):
    r = fuzz.fuzz_kernel(game, actions=3000, seed=1)
    assert r["actions"] >= 3000 and r["resamples"] > 0
    s = fuzz.fuzz_game(game, seconds=0.5, seed=1)
    assert s["deals"] >= 1


def test_main_reports_and_exits_zero(capsys):
    assert fuzz.main(["--games", "karnoffel", "--seconds", "0.5", "--actions", "2000"]) == 0
    out = capsys.readouterr().out
    assert "karnoffel (kernel)" in out and "no violation" in out


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        fuzz.main(["--games", "chess"])
    with pytest.raises(SystemExit):
        fuzz.main(["--seconds", "-1"])


def test_a_violation_is_reported_with_a_reproducer(monkeypatch):
    """A game whose card count drifts is caught, with game, options, seed, deal and history."""
    class Spec:                     # the real spec, but one card goes missing after 3 actions
        def __init__(self, spec):
            self._s = spec

        def __getattr__(self, k):
            return getattr(self._s, k)

        def card_total(self, st):
            return self._s.card_total(st) - (len(st.history()) == 3)

    class Game:
        def __init__(self, g):
            self._g, self.spec = g, Spec(g.spec)

        def __getattr__(self, k):
            return getattr(self._g, k)

    monkeypatch.setattr(fuzz, "make", lambda name, **o: Game(cardsim.make(name, **o)))
    with pytest.raises(fuzz.Violation) as e:
        fuzz.fuzz_game("karnoffel", seconds=2, seed=0)
    info = json.loads(str(e.value))
    assert info["game"] == "karnoffel" and info["step"] == 3 and len(info["history"]) == 3
    assert "cards not conserved" in info["error"]


def test_kernel_fuzz_validates_and_counts():
    g = cardsim.make("basra")
    r = fuzz_batch(g.spec, 0, 0, 20, greedy_mask=0b1010)
    assert r["deals"] == 20 and r["actions"] > 20 * 10
