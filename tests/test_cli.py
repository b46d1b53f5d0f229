"""The `cardsim` command line: games, simulate (summary, --out, --matches, --json), report,
compare, skill and clean errors."""
import json

import pytest

import cardsim
from cardsim.cli import main

G = cardsim.GAMES[0]


def test_games(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for name in cardsim.GAMES:
        assert name in out


def test_simulate_prints_a_summary(capsys):
    assert main(["simulate", G, "--deals", "200", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    s = cardsim.simulate(G, deals=200, seed=3).summary()
    assert str(s) in out and out.index("Verdict: ") < out.index("branching factor")


def test_simulate_out_report_compare(tmp_path, capsys):
    a, b, h = tmp_path / "a.parquet", tmp_path / "b.csv", tmp_path / "r.html"
    P = cardsim.make(G).num_players
    assert main(["simulate", G, "--deals", "300", "--seed", "1", "--out", str(a), "--workers", "2",
                 "--chunk-size", "37", "--progress"]) == 0
    assert "300/300" in capsys.readouterr().err
    agents = ",".join(["greedy"] + ["random"] * (P - 1))
    assert main(["simulate", G, "--deals", "300", "--seed", "1", "--agents", agents, "--out", str(b),
                 "--summary-json", str(tmp_path / "b.json")]) == 0
    capsys.readouterr()
    ra = cardsim.load(a)
    ref = cardsim.simulate(G, deals=300, seed=1)
    assert (ra.table == ref.table).all()
    assert json.dumps(ra.summary(), sort_keys=True) == json.dumps(ref.summary(), sort_keys=True)
    assert json.load(open(tmp_path / "b.json"))["deals"] == 300
    assert main(["report", str(a), "--out", str(h)]) == 0
    assert h.exists() and "data:image/png;base64," in h.read_text()
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--json"]) == 0
    c = json.loads(capsys.readouterr().out)
    assert c["method"] == "paired" and len(c["seats"]) == P
    assert main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "Verdict: " in out and ": mean return" in out


def test_simulate_json_matches_and_skill(capsys):
    mod = cardsim.game.game_module(G)
    extra = ["-o", "num_deals=2"] if any(o.name == "num_deals" for o in mod.OPTIONS) else []
    if any(o.name == "scope" for o in mod.OPTIONS):
        assert main(["simulate", G, "--matches", "10", "--json", "--lead-changes"] + extra) == 0
        s = json.loads(capsys.readouterr().out)
        assert s["unit"] == "match" and s["matches"] == 10 and "deals" not in s and s["lead_changes"] is not None
    assert main(["skill", G, "--deals", "200", "--json"]) == 0
    sk = json.loads(capsys.readouterr().out)
    assert sk == json.loads(json.dumps(cardsim.skill(G, deals=200)))
    assert main(["skill", G, "--deals", "100"]) == 0
    assert "seat 0: return gain" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["simulate", "no_such_game"], ["simulate", G, "-o", "nope=1"],
                                  ["simulate", G, "--deals", "-3"], ["simulate", G, "--agents", "clever"],
                                  ["simulate", G, "--out", "x.txt", "--deals", "5"], ["report", "missing.parquet"],
                                  ["compare", "missing.parquet", "other.parquet"]])
def test_errors_are_clean(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert "cardsim: error:" in capsys.readouterr().err


def test_report_rejects_a_foreign_parquet(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"x": [1, 2]}), tmp_path / "f.parquet")
    assert main(["report", str(tmp_path / "f.parquet"), "--out", str(tmp_path / "r.html")]) == 2
    assert "not a cardsim results file" in capsys.readouterr().err


def test_no_silent_overwrites(tmp_path, capsys):
    out, page = tmp_path / "s.json", tmp_path / "r.html"
    assert main(["simulate", G, "--deals", "50", "--out", str(out)]) == 0
    before = out.read_text()
    assert main(["simulate", G, "--deals", "60", "--out", str(out)]) == 2
    assert "exists; pass --force" in capsys.readouterr().err
    assert out.read_text() == before
    assert main(["simulate", G, "--deals", "60", "--out", str(out), "--force"]) == 0
    assert out.read_text() != before
    page.write_text("mine")
    assert main(["report", str(out), "--out", str(page)]) == 2
    assert "exists; pass --force" in capsys.readouterr().err and page.read_text() == "mine"


def test_unknown_agent_is_named(capsys):
    P = cardsim.make(G).num_players
    assert main(["simulate", G, "--deals", "10", "--agents", "greedy,smart"]) == 2
    err = capsys.readouterr().err
    assert "'smart'" in err and "greedy" in err.split("agents:")[1]
    assert main(["simulate", G, "--deals", "10", "--agents", ",".join(["greedy"] * (P + 1))]) == 2
    assert f"{P + 1} agents given for {P} seats" in capsys.readouterr().err


def test_every_flag_has_a_description_and_every_subcommand_examples(capsys):
    from cardsim.cli import build_parser

    ap = build_parser()
    sub = next(a for a in ap._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, sp in sub.choices.items():
        assert sp.epilog and "examples:" in sp.epilog and f"cardsim {name}" in sp.epilog, name
        for a in sp._actions:
            if a.dest == "help":
                continue
            assert a.help, f"{name} {a.option_strings or a.dest} has no description"
            if a.option_strings and a.nargs != 0 and a.default is not None:
                assert "default" in a.help, f"{name} {a.option_strings} does not state its default"


def test_errors_point_to_the_rules_and_do_not_contradict(capsys):
    mod = cardsim.game.game_module(G)
    assert main(["simulate", G, "-o", "nope=1", "--deals", "5"]) == 2
    err = capsys.readouterr().err
    assert "'nope'" in err and f"docs/rules/{G}.md" in err
    if any(o.name == "scope" for o in mod.OPTIONS):
        assert main(["simulate", G, "--matches", "3", "-o", "scope=deal"]) == 2
        assert "--matches plays whole matches" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["games"], ["replay", "basra", "--seed", "3"], ["--help"], ["simulate", "--help"]])
def test_a_reader_that_closes_early_stops_it_quietly(argv):
    """`cardsim ... | head -1`: when the reader has gone, the command stops without a traceback or
    an error line and exits 141 (128 + SIGPIPE), as the Python docs' "Note on SIGPIPE" advises.
    The pipe's read end is closed before the command starts, so every write meets EPIPE."""
    import os
    import subprocess
    import sys

    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "cardsim", *argv], stdout=w, stderr=subprocess.PIPE,
                           text=True, timeout=300)
    finally:
        os.close(w)
    ok = (0, 141) if "--help" in argv else (141,)   # argparse itself drops a help text it cannot write
    assert p.returncode in ok and p.stderr == "", (p.returncode, p.stderr)


def test_head_1_prints_one_line_and_nothing_else():
    import subprocess
    import sys

    p = subprocess.run(f'"{sys.executable}" -m cardsim games | head -1', shell=True, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0 and p.stderr == "" and p.stdout.count("\n") == 1
    assert p.stdout.split()[0] == cardsim.GAMES[0]
