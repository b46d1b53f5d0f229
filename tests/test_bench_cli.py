"""`cardsim bench`: the standard table, with the C reference loop from the repository compiled and
measured in the same run (tiny sizes here: this checks the plumbing, not speed)."""
import json
import shutil

import pytest

import cardsim
from cardsim.bench import REFERENCE, find_reference, parse_rate, run
from cardsim.cli import main


def test_the_reference_loop_is_in_the_repository():
    src = find_reference()
    assert src is not None and src.as_posix().endswith(REFERENCE.as_posix())
    assert (src.parent / "README.md").is_file()


def test_parse_rate():
    out = ("1: 1000000 deals/run, 7 runs, seed 42\n"
           "median 1093221 deals/s (min 1001, max 2002); 914.7 ns per deal; 17.59 ns per card played (deal included)\n")
    assert parse_rate(out) == 1093221.0
    with pytest.raises(RuntimeError):
        parse_rate("nothing here")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not available")
def test_bench_table_with_same_run_ratio(capsys):
    lines = []
    res = run(["karnoffel", "basra"], deals=300, rounds=1, workers=2, out=lines.append)
    assert res["reference_deals_per_s"] > 0
    for row in res["rows"]:
        assert row["deals_per_s_1"] > 0 and row["deals_per_s_2"] > 0
    text = "\n".join(lines)
    assert "ratio to ref" in text and "karnoffel" in text and "measured in this run" in text
    for row in res["rows"]:
        ratio = row["deals_per_s_1"] / row["reference_deals_per_s"]
        assert row["ratio"] == ratio and f"{ratio:.3f}" in text
    assert main(["bench", "exposure", "--deals", "200", "--rounds", "1", "--workers", "2", "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["rows"][0]["game"] == "exposure" and js["workers"] == 2


def test_bench_errors(capsys):
    assert main(["bench", "no_such_game", "--deals", "10"]) == 2
    assert "'no_such_game'" in capsys.readouterr().err
    assert main(["bench", "karnoffel", "--deals", "0"]) == 2
    assert "--deals" in capsys.readouterr().err
    assert main(["bench", "karnoffel", "--agents", "smart", "--deals", "10"]) == 2
    assert "'smart'" in capsys.readouterr().err
