"""The fuzzer runs clean on every game for a short budget, and it does catch a broken contract."""
import json

import pytest

import cardsim
from cardsim import contracts, fuzz
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
    assert r["deals"] == 20 and r["actions"] > 20 * 10 and r["violation"] == 0


def test_a_kernel_violation_is_reported_with_the_contracts_text(monkeypatch):
    """The kernel pass reports a code; the driver names the contract (cardsim.contracts.KERNEL,
    the one list) with a reproducer."""
    def broken(spec, seed, start, count, **kw):
        return {"deals": 0, "actions": 5, "resamples": 0, "resample_failures": 0, "violation": 10,
                "deal": start + 3, "step": 5, "history": [1, 2, 3, 4, 5]}

    monkeypatch.setattr(fuzz, "fuzz_batch", broken)
    with pytest.raises(fuzz.Violation) as e:
        fuzz.fuzz_kernel("karnoffel", actions=100, seed=4)
    info = json.loads(str(e.value))
    assert info["game"] == "karnoffel" and info["deal"] == 3 and info["seed"] == 4 and info["history"] == [1, 2, 3, 4, 5]
    assert contracts.KERNEL[10] in info["error"]


def test_conformance_and_fuzz_share_one_set_of_contracts():
    """Both call cardsim.contracts: a broken contract there fails both (the same check)."""
    import inspect

    from tests.conformance import test_conformance
    for mod in (fuzz, test_conformance):
        assert "contracts." in inspect.getsource(mod)
    g = cardsim.make("karnoffel")
    st = g.new_state(0, 0)
    with pytest.raises(contracts.ContractViolation, match="not a seat"):
        contracts.step(type("G", (), {"num_actions": g.num_actions, "num_players": 0, "spec": g.spec})(),
                       st, st.legal_actions())


@pytest.mark.parametrize("argv", [["--seconds", "nan"], ["--seconds", "inf"], ["--seconds", "-inf"],
                                  ["--seconds", "0"], ["--seconds", "-1"], ["--seconds", "1e9"],
                                  ["--seconds", "NaN"], ["--seconds", "abc"], ["--actions", "0"],
                                  ["--actions", "1.5"], ["--actions", "nan"], ["--actions", str(10**13)],
                                  ["--actions", "1_000"], ["--seed", "-1"], ["--seed", str(2**64)],
                                  ["--deep-every", "0"]])
def test_budgets_must_be_finite_positive_and_bounded(argv, capsys):
    with pytest.raises(SystemExit) as e:
        fuzz.main(["--games", "karnoffel", f"{argv[0]}={argv[1]}"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert argv[0] in err and "must be" in err


def test_python_api_budgets_are_validated_too():
    for bad in (float("nan"), float("inf"), 0, -1.0, True, "1", 10**9):
        with pytest.raises(cardsim.ConfigError, match="seconds"):
            fuzz.fuzz_game("karnoffel", seconds=bad)
    for bad in (0, 1.5, float("nan"), True, 10**13):
        with pytest.raises(cardsim.ConfigError, match="actions"):
            fuzz.fuzz_kernel("karnoffel", actions=bad)
    with pytest.raises(cardsim.ConfigError, match="budget"):
        fuzz.fuzz_game("karnoffel")
    s = fuzz.fuzz_game("karnoffel", actions=200, seed=2**64 - 1)     # the whole seed range works
    assert s["actions"] >= 200
