"""docs/performance.md: one section per game (`## <game>`, a game of cardsim.GAMES), each with the
one table shape (measure, cardsim, the C reference loop, the ratio to it, the peer, the ratio to
the peer, the issue's target) and a "random deals/s, one thread" row whose ratios are the
quotients of its own figures (so a figure edited by hand without its ratio fails)."""
import pathlib
import re

import pytest

import cardsim

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "performance.md"
HEADER = "| measure | cardsim | C reference loop | ratio to the C loop | peer | ratio to the peer | issue target |"
DEALS_ROW = "random deals/s, one thread"


def _sections(text=None):
    text = DOC.read_text(encoding="utf-8") if text is None else text
    parts = re.split(r"^## (\S+)\s*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _num(cell):
    m = re.search(r"[-+]?\d[\d,]*(?:\.\d+)?", cell)
    return float(m.group(0).replace(",", "")) if m else None


def test_sections_are_games_with_the_one_table():
    secs = _sections()
    assert "hearts" in secs
    for game, body in secs.items():
        assert game in cardsim.GAMES, f"docs/performance.md: section {game!r} is not a game"
        assert HEADER in body, f"{game}: the table header must be {HEADER}"


@pytest.mark.parametrize("game", sorted(_sections()))
def test_the_deals_row_ratios_follow_from_its_figures(game):
    body = _sections()[game]
    rows = [ln for ln in body.splitlines() if ln.startswith(f"| {DEALS_ROW} |")]
    assert len(rows) == 1, f"{game}: one '{DEALS_ROW}' row"
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    assert len(cells) == 7
    ours, ref, ratio_ref, peer, ratio_peer = (_num(c) for c in cells[1:6])
    assert ours and ref and ratio_ref == pytest.approx(ours / ref, rel=0.01, abs=0.006)
    if peer is not None:
        assert ratio_peer == pytest.approx(ours / peer, rel=0.01, abs=0.06)


def _instructions_tool():
    import importlib.util
    path = DOC.parent.parent / "bench" / "instructions.py"
    spec = importlib.util.spec_from_file_location("cardsim_bench_instructions", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_callgrind_rows_are_the_measured_ones():
    """docs/instructions.json is bench/instructions.py's last full measurement (--json), and the
    callgrind rows of every section are what --write-doc makes of it: no row edited by hand, none
    missing, every game of the issue-26 table measured with random and greedy agents."""
    import json
    tool = _instructions_tool()
    rows = json.loads((DOC.parent / "instructions.json").read_text(encoding="utf-8"))
    assert {(r["label"], r["agent"]) for r in rows} == {(c[0], a) for c in tool.CONFIGS for a in ("random", "greedy")}
    for r in rows:
        if r["c_loop_instructions_per_deal"]:
            assert r["ratio_to_c_loop"] == pytest.approx(r["instructions_per_deal"] / r["c_loop_instructions_per_deal"], abs=0.006)
        if r["target"]:
            assert r["met"] == (r["instructions_per_deal"] <= r["target"])
        # a random row of a game with a floor by hand in C carries it, with its ratios
        assert bool(r.get("floor")) == (r["agent"] == "random" and r["label"] in tool.FLOORS), r["label"]
        if r.get("floor"):
            assert r["floor"] == tool.FLOORS[r["label"]]
            assert r["ratio_to_floor"] == pytest.approx(r["instructions_per_deal"] / r["floor_instructions_per_deal"], abs=0.006)
            if r["target"]:
                assert r["target_to_floor"] == pytest.approx(r["target"] / r["floor_instructions_per_deal"], abs=0.006)
    secs = _sections()
    for game, lines in tool.doc_rows(rows).items():
        body = secs[game].splitlines()
        have = [ln for ln in body if ln.startswith(f"| {tool.ROW_PREFIX}")]
        assert have == lines, f"{game}: the callgrind rows differ from docs/instructions.json; rerun bench/instructions.py --write-doc"


def test_every_row_carries_its_profile_and_the_doc_shows_the_random_ones():
    """Each row of docs/instructions.json carries where its instructions go (callgrind self cost
    by function, from the same two runs): the figures add up to the row's total, largest first
    with "everything else" last; each game's section ends with the generated block of its
    random-agent profiles, as --write-doc makes it from the JSON."""
    import json
    tool = _instructions_tool()
    rows = json.loads((DOC.parent / "instructions.json").read_text(encoding="utf-8"))
    for r in rows:
        assert r["counted"] == "run_batch", f"{r['label']}: measure with a build that keeps its symbols"
        assert isinstance(r["pdep"], bool), f"{r['label']}: the row says how the random pick was made"
        prof = r["profile"]
        assert prof[-1][0] == "everything else" and len(prof) >= 2, r["label"]
        named = [v for _k, v in prof[:-1]]
        assert named == sorted(named, reverse=True), r["label"]
        assert sum(v for _k, v in prof) == pytest.approx(r["instructions_per_deal"], abs=0.05 * len(prof) + 0.1)
    blocks = tool.doc_profiles(rows)
    secs = _sections()
    assert set(blocks) == {c[1] for c in tool.CONFIGS}
    for game, block in blocks.items():
        assert secs[game].rstrip("\n").endswith(block), \
            f"{game}: the profile block differs from docs/instructions.json; rerun bench/instructions.py --write-doc"


def test_the_profile_parser_reads_callgrind_annotate_listings():
    """bench/instructions.py's reading of callgrind_annotate: Cython names as module.function,
    other functions by name and library, recursion suffixes merged, percentages optional, the
    total line skipped; the per-deal profile is the difference of two runs divided by N."""
    tool = _instructions_tool()
    listing = """--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
1,500 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                 file:function
--------------------------------------------------------------------------------
900 (60.00%)  /b/ext/cardsim/games/hearts/_state.c:__pyx_f_7cardsim_5games_6hearts_6_state_play_loop [/x/_state.so]
300  /b/ext/cardsim/core/_engine.c:__pyx_pf_7cardsim_4core_7_engine_8GameSpec_40run_batch [/x/_engine.so]
200 ( 13.33%)  ./string/memset.S:__memset_avx2_unaligned_erms [/usr/lib/libc.so.6]
60 ( 4.00%)  Python/ceval.c:_PyEval_EvalFrameDefault'2 [/usr/lib/libpython3.11.so.1.0]
40 ( 2.67%)  Python/ceval.c:_PyEval_EvalFrameDefault [/usr/lib/libpython3.11.so.1.0]
"""
    got = tool.parse_annotate(listing)
    assert got == {"hearts._state.play_loop": 900, "core._engine.GameSpec.run_batch": 300,
                   "__memset_avx2_unaligned_erms (libc.so.6)": 200,
                   "_PyEval_EvalFrameDefault (libpython3.11.so.1.0)": 100}
    assert tool.demangle("__pyx_f_7cardsim_5games_5samba_10_going_out_x_groups") == "samba._going_out.x_groups"
    assert tool.demangle("main") == "main"
    a = {"f": 1000, "g": 500, "h": 10}
    b = {"f": 3000, "g": 1500, "h": 12, "new": 1}
    prof = tool._profile(a, b, 10, (sum(b.values()) - sum(a.values())) / 10)
    assert prof == [["f", 200.0], ["g", 100.0], ["everything else", 0.3]]


def test_the_summary_comes_first_and_is_the_measured_one(tmp_path):
    """The block at the top of docs/performance.md (the verdict on issue 26's targets, then every
    configuration's random and greedy figures) is what --write-doc makes of docs/instructions.json,
    before the first game's section; its verdict counts and names the targets the JSON says are
    missed. A partial set of rows leaves it alone, and a doc without one gets it under the title."""
    import json
    tool = _instructions_tool()
    rows = json.loads((DOC.parent / "instructions.json").read_text(encoding="utf-8"))
    text = DOC.read_text(encoding="utf-8")
    block = tool.doc_summary(rows)
    assert block and block in text
    assert text.index(block) < text.index("\n## ")
    assert text.splitlines()[0] == "# Performance" and text.splitlines()[2] == tool.SUMMARY_START
    targets = [r for r in rows if r["target"]]
    missed = [r for r in targets if not r["met"]]
    assert f"{len(targets) - len(missed)} of {len(targets)} met." in block
    for r in missed:
        assert f"{r['label']}, {r['instructions_per_deal']:,.0f} against a target of {r['target']:,}" in block
    assert tool.doc_summary(rows[:-1]) is None
    doc = tmp_path / "performance.md"
    doc.write_text(text.replace(block + "\n\n", ""), encoding="utf-8")
    tool.write_doc(rows[:3], doc)
    assert tool.SUMMARY_START not in doc.read_text(encoding="utf-8")
    tool.write_doc(rows, doc)
    assert doc.read_text(encoding="utf-8") == text


def test_a_partial_run_updates_only_what_it_measured(tmp_path):
    """bench/instructions.py with some games or one agent: --update merges its rows into the JSON
    of the last full run (same configuration and agent replaced, the rest kept, in the table's
    order) and --write-doc replaces only the doc rows it has; writing every row again gives the
    doc back byte for byte."""
    import copy
    import json
    tool = _instructions_tool()
    rows = json.loads((DOC.parent / "instructions.json").read_text(encoding="utf-8"))
    doc = tmp_path / "performance.md"
    original = DOC.read_text(encoding="utf-8")
    doc.write_text(original, encoding="utf-8")
    hearts = next(r for r in rows if r["game"] == "hearts" and r["agent"] == "random")
    changed = copy.deepcopy(hearts)
    changed["instructions_per_deal"] += 1000
    changed["profile"][0][1] += 1000
    tool.write_doc([changed], doc)
    text = doc.read_text(encoding="utf-8")
    before, after = original.splitlines(), text.splitlines()
    diff = [(a, b) for a, b in zip(before, after) if a != b]
    assert len(before) == len(after)
    old_row = tool.doc_rows([hearts])["hearts"][0]
    assert diff[0] == (old_row, tool.doc_rows([changed])["hearts"][0])
    # the rest: the row against the same deals by hand in C (the same figure against the floor)
    # and the hearts profile block (its heading names the total, its lines the shares)
    floor_row = tool.doc_rows([changed])["hearts"][1]
    assert "by hand in C" in floor_row and floor_row in after and floor_row not in before
    block = tool.doc_profiles([changed])["hearts"].splitlines() + [floor_row]
    assert diff[1:] and all(b in block for _a, b in diff[1:])
    greedy = tool.doc_rows([r for r in rows if r["game"] == "hearts" and r["agent"] == "greedy"])["hearts"][0]
    assert greedy in after                                       # the row not measured stays
    others = {g: b for g, b in _sections(text).items() if g != "hearts"}
    assert others == {g: b for g, b in _sections().items() if g != "hearts"}
    merged = tool.merge_rows(rows, [changed])
    assert [(r["label"], r["agent"]) for r in merged] == [(r["label"], r["agent"]) for r in rows]
    assert [r for r in merged if r is not changed] == [r for r in rows if r is not hearts]
    tool.write_doc(rows, doc)
    assert doc.read_text(encoding="utf-8") == original


def test_calloc_is_left_out_of_the_count():
    """run_batch's result arrays come from calloc, whose cost (clearing a heap chunk, or none for
    fresh pages) depends on the heap's history: bench/instructions.py takes calloc's inclusive
    cost out of the total, and what calloc called (memset) out of those functions' self costs."""
    tool = _instructions_tool()
    tree = """--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
   230,298 ( 0.41%)  < ???:PyDataMem_UserNEW_ZEROED (17x) [/x/_multiarray_umath.so]
   230,298 ( 0.41%)  *  ???:default_calloc [/x/_multiarray_umath.so]

   224,189 ( 0.39%)  < ???:default_calloc (13x) [/x/_multiarray_umath.so]
   224,189 ( 0.39%)  *  ./malloc/./malloc/malloc.c:calloc [/usr/lib/x86_64-linux-gnu/libc.so.6]

   219,307 ( 0.39%)  < ./malloc/./malloc/malloc.c:calloc (6,245x) [/usr/lib/x86_64-linux-gnu/libc.so.6]
       699 ( 0.00%)  < Objects/typeobject.c:PyType_GenericAlloc (29,818x) [/usr/lib/libpython3.11.so.1.0]
   220,006 ( 0.39%)  *  ./string/memset-vec-unaligned-erms.S:__memset_avx2_unaligned_erms [/usr/lib/x86_64-linux-gnu/libc.so.6]

   142,600 ( 0.25%)  < /b/ext/cardsim/core/_engine.c:__pyx_pf_7cardsim_4core_7_engine_8GameSpec_40run_batch (6,200x) [/x/_engine.so]
   142,600 ( 0.25%)  *  /b/ext/cardsim/games/gleek/_state.c:__pyx_f_7cardsim_5games_5gleek_6_state_gl_returns [/x/_state.so]

        22 ( 0.00%)  *  ./malloc/./malloc/arena.c:calloc

     4,088 ( 0.01%)  < ./malloc/./malloc/malloc.c:calloc (6,381x) [/usr/lib/x86_64-linux-gnu/libc.so.6]
     4,900 ( 0.01%)  *  ./malloc/./malloc/malloc.c:_int_malloc [/usr/lib/x86_64-linux-gnu/libc.so.6]
"""
    memset = "__memset_avx2_unaligned_erms (libc.so.6)"
    selfs = {memset: 220_006, "_int_malloc (libc.so.6)": 3_000}   # _int_malloc calls others: not a leaf
    total, cleared = tool.calloc_cost(tree, selfs)
    assert total == 224_189 + 22
    assert cleared == {memset: 219_307}
    assert tool.calloc_cost("no listing here", {}) == (0, {})


def test_the_pdep_comparison_runs_and_reports_both_sides(capsys):
    """bench/pdep_ab.py, the command behind the doc's PDEP-vs-loop wall-clock ratios: each pair runs
    one process with PDEP (where the CPU has it) and one with CARDSIM_NO_PDEP=1, which must report
    the loop; it prints a row per game; an unknown game is refused naming the games."""
    import importlib.util
    path = DOC.parent.parent / "bench" / "pdep_ab.py"
    spec = importlib.util.spec_from_file_location("cardsim_bench_pdep_ab", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    from cardsim.core._engine import build_info
    (row,) = tool.main(["hearts", "--pairs", "2", "--deals", "300"])
    assert row["pairs"] == 2 and row["pdep_used"] is build_info()["pdep"]
    assert row["pdep_deals_per_s"] > 0 and row["loop_deals_per_s"] > 0
    assert row["lo"] <= row["ratio"] <= row["hi"]
    assert "hearts" in capsys.readouterr().out
    assert "bench/pdep_ab.py" in DOC.read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        tool.main(["no_such_game"])
    assert "unknown game 'no_such_game'" in capsys.readouterr().err


def test_the_simulate_comparison_runs_both_builds(capsys, tmp_path):
    """bench/simulate_ab.py, the command behind the doc's simulate() before/after table: pointed at
    the installed package as the 'old' build (a non-editable install; an editable one keeps its
    compiled modules elsewhere), it times both sides and prints a row per setting; a directory
    without a cardsim package is refused."""
    import importlib.util
    import pathlib
    import cardsim
    path = DOC.parent.parent / "bench" / "simulate_ab.py"
    spec = importlib.util.spec_from_file_location("cardsim_bench_simulate_ab", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert "bench/simulate_ab.py" in DOC.read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        tool.main(["karnoffel", "--old", str(tmp_path)])
    assert "no cardsim package there" in capsys.readouterr().err
    site = pathlib.Path(cardsim.__file__).parent.parent
    if not list((site / "cardsim" / "core").glob("_engine*.so")):
        pytest.skip("an editable install: its compiled modules are not beside the package")
    rows = tool.main(["karnoffel", "--old", str(site), "--deals", "500", "--rounds", "1", "--workers", "1"])
    assert [(r["workers"], r["keep_table"]) for r in rows] == [(1, False), (1, True)]
    assert all(r["old"] > 0 and r["new"] > 0 for r in rows)
    assert capsys.readouterr().out.count("karnoffel workers=1") == 2


def test_the_simulate_table_ratios_follow_from_its_figures():
    """docs/performance.md's simulate() before/after table: each row's ratio is its after / before,
    and it covers both thread counts with and without the table for each game it names."""
    text = DOC.read_text(encoding="utf-8")
    sec = text[text.index("### simulate() and its statistics"):text.index("\n## ")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in sec.splitlines()
            if line.startswith("| ") and not line.startswith("| game")]
    assert len(rows) >= 4
    seen = {}
    for game, workers, keep, before, after, ratio in rows:
        b, a = float(before.replace(",", "")), float(after.replace(",", ""))
        assert f"{a / b:.2f}" == ratio, (game, workers, keep)
        seen.setdefault(game, set()).add((workers, keep))
    assert all(v == {(w, k) for w in ("1", "2") for k in ("False", "True")} for v in seen.values()), seen
