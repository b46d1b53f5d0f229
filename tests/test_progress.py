"""Issue 30: every command that may run longer than about 2 s shows a tqdm bar with its rate and
ETA (simulate, search agents included; sweep; skill; tournament; compare), only once it has run
2 s, and none when stderr is not a terminal or with --quiet."""
import importlib
import sys

import pytest

import cardsim
from cardsim.cli import main

SIM = importlib.import_module("cardsim.simulate")


class Counter:
    """A tqdm-like bar that records the updates a run makes."""

    def __init__(self):
        self.updates = []

    def update(self, n):
        self.updates.append(n)


@pytest.fixture
def no_delay(monkeypatch):
    monkeypatch.setattr(SIM, "PROGRESS_DELAY", 0.0)


def _bar_lines(err: str) -> list:
    return [x for x in err.replace("\r", "\n").splitlines() if "|" in x and "<" in x]


def test_simulate_bar_has_rate_and_eta(capsys, no_delay):
    cardsim.simulate("exposure", deals=3000, seed=1, workers=1, chunk_size=500, progress=True)
    bars = _bar_lines(capsys.readouterr().err)
    assert bars and "3000/3000" in bars[-1] and "deals/s" in bars[-1]     # count, rate, elapsed<remaining
    cardsim.simulate("exposure", deals=300, seed=1, workers=1, progress=False)
    assert capsys.readouterr().err == ""


def test_a_short_run_prints_no_bar_on_auto(capsys):
    assert SIM.PROGRESS_DELAY == 2.0
    cardsim.simulate("exposure", deals=200, seed=1, workers=1, progress="auto")
    assert capsys.readouterr().err == ""
    with pytest.raises(cardsim.ConfigError, match="progress must be"):
        cardsim.simulate("exposure", deals=2, workers=1, progress="yes")


def test_search_agents_move_the_bar_in_small_steps():
    bar = Counter()
    r = cardsim.simulate("karnoffel", deals=50, seed=1, workers=1, agents="ismcts:iterations=4", progress=bar)
    assert sum(bar.updates) == 50 and len(bar.updates) >= 25        # ~25 chunks per worker: the ETA comes early
    same = cardsim.simulate("karnoffel", deals=50, seed=1, workers=1, agents="ismcts:iterations=4", chunk_size=50)
    assert (r.table == same.table).all()                            # chunking never changes a result


def test_sweep_skill_compare_tournament_bars(capsys, no_delay):
    cardsim.sweep("exposure", option="points_per_trick", values=[2, 3], deals=400, workers=1, progress=True)
    bars = _bar_lines(capsys.readouterr().err)
    assert bars and bars[-1].startswith("sweep exposure") and "800/800" in bars[-1]
    cardsim.skill("exposure", deals=300, workers=1, progress=True)
    assert _bar_lines(capsys.readouterr().err)[-1].startswith("skill exposure")
    a = cardsim.simulate("exposure", deals=100, seed=1, workers=1)
    cardsim.compare(a, a, progress=True)
    assert _bar_lines(capsys.readouterr().err)[-1].startswith("compare")
    from cardsim import tournament

    rows = tournament.run(["exposure"], ["random"], deals=10, workers=1, bar=True)
    assert len(rows) == 1
    last = _bar_lines(capsys.readouterr().err)[-1]
    assert last.startswith("tournament") and "30/30" in last      # (2 seats + baseline) x 10 deals


def test_cli_bar_only_on_a_terminal_and_not_with_quiet(capsys, monkeypatch, no_delay):
    args = ["simulate", "exposure", "--deals", "2000", "--workers", "1", "--chunk-size", "500"]
    assert main(args) == 0
    assert not _bar_lines(capsys.readouterr().err)            # stderr is not a terminal here
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(args) == 0
    assert _bar_lines(capsys.readouterr().err)
    assert main(args + ["--quiet"]) == 0
    assert not _bar_lines(capsys.readouterr().err)
    for cmd in (["sweep", "exposure", "--values", "points_per_trick=2,3", "--deals", "300", "--workers", "1"],
                ["skill", "exposure", "--deals", "300", "--workers", "1"]):
        assert main(cmd) == 0
        assert _bar_lines(capsys.readouterr().err), cmd
        assert main(cmd + ["-q"]) == 0
        assert not _bar_lines(capsys.readouterr().err), cmd
