"""`cardsim bench`: the standard table, with the C reference loop from the repository compiled and
measured in the same run (tiny sizes here: this checks the plumbing, not speed)."""
import json
import pathlib
import platform
import shutil

import pytest

import cardsim
from cardsim.bench import REFERENCE, find_reference, parse_rate, reference_cflags, run
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
    # the loop is compiled as the engine is (reference_cflags), and the table and the JSON say how
    assert js["reference_cflags"] == reference_cflags() and f"gcc {' '.join(reference_cflags())} as the engine" in text


def test_the_reference_is_compiled_with_the_engines_flags():
    """-O2 as CMake's Release; -mpopcnt exactly when the engine's C was compiled with it (the
    __POPCNT__ macro, build_info()["popcnt"]): on x86-64 the default build has it, so the loop's bit
    counts are single instructions too; bench/conftest.py and bench/instructions.py take the same
    flags from this function."""
    from cardsim.core._engine import build_info

    flags = reference_cflags()
    assert flags[0] == "-O2" and ("-mpopcnt" in flags) is build_info()["popcnt"]
    if platform.machine() in ("x86_64", "AMD64"):
        assert build_info()["popcnt"], "CMake's CARDSIM_POPCNT is on by default on x86-64"
    root = pathlib.Path(__file__).resolve().parents[1]
    for f in ("bench/conftest.py", "bench/instructions.py"):
        assert "reference_cflags" in (root / f).read_text(), f


def test_bench_errors(capsys):
    assert main(["bench", "no_such_game", "--deals", "10"]) == 2
    assert "'no_such_game'" in capsys.readouterr().err
    assert main(["bench", "karnoffel", "--deals", "0"]) == 2
    assert "--deals" in capsys.readouterr().err
    assert main(["bench", "karnoffel", "--agents", "smart", "--deals", "10"]) == 2
    assert "'smart'" in capsys.readouterr().err


def test_bench_with_one_worker(capsys):
    """--workers 1 (also the default on a 1-core machine): the 1-core column is the kernel, the
    all-cores column has nothing more to measure ('-'), and nothing is overwritten."""
    lines = []
    res = run(["karnoffel"], deals=200, rounds=1, workers=1, out=lines.append, reference=None)
    row = res["rows"][0]
    assert row["deals_per_s_1"] > 0 and row["deals_per_s_all"] is None and row["workers"] == 1
    table = next(x for x in lines if x.startswith("karnoffel"))
    assert table.split()[3] == "-" and table.split()[4] == "-"
    assert main(["bench", "karnoffel", "--deals", "200", "--rounds", "1", "--workers", "1", "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["workers"] == 1 and js["rows"][0]["deals_per_s_1"] > 0


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not available")
def test_a_reference_that_is_not_the_c_loop_is_a_clear_error(tmp_path, capsys):
    py = tmp_path / "ref.py"
    py.write_text("print('hello')\n" * 50)
    other = tmp_path / "other.c"
    other.write_text("#include <stdio.h>\nint main(void) { puts(\"no figures here\"); return 0; }\n")
    cases = [(py, "cannot compile it as C"), (other, "is not the reference loop"),
             (tmp_path / "missing.c", "no such file"), (tmp_path, "no such file")]
    for path, msg in cases:
        assert main(["bench", "karnoffel", "--deals", "100", "--rounds", "1", "--workers", "1",
                     "--reference", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardsim: error: --reference ") and msg in err, err
        assert "Traceback" not in err and len(err) < 800
    assert not list(tmp_path.glob("cardsim-bench-*"))


def test_the_reference_and_the_kernel_take_turns():
    """One warm-up of the kernel, then reference round, kernel round, ... (so a drift in the
    machine's speed biases neither side of the ratio); the figures are the medians."""
    from cardsim.bench import _alternating_rates

    calls, ref_figures = [], iter([5.0, 1.0, 3.0])

    def ref():
        calls.append("ref")
        return next(ref_figures)

    rate, ref_rate = _alternating_rates(lambda: calls.append("fn"), 10, 3, ref)
    assert calls == ["fn", "ref", "fn", "ref", "fn", "ref", "fn"]
    assert ref_rate == 3.0 and rate > 0
    calls.clear()
    assert _alternating_rates(lambda: calls.append("fn"), 10, 2)[1] is None and calls == ["fn"] * 3
