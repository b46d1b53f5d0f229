"""Results are never silently lost or misreported: atomic output, interrupted runs (Ctrl-C and
SIGKILL in a real subprocess), bad output directories, lazy tasks, and unreadable, truncated,
foreign or self-contradicting files refused with one line."""
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pytest

import cardsim
from cardsim import results_io
from cardsim.cli import main

G = "joffre_whist" if "joffre_whist" in cardsim.GAMES else cardsim.GAMES[0]


class Boom(Exception):
    pass


class StopAfter:
    """A Python agent that plays the greedy action and raises after `n` calls."""

    def __init__(self, n):
        self.n, self.calls = n, 0

    def act(self, state):
        self.calls += 1
        if self.calls > self.n:
            raise Boom("agent gave up")
        return state.spec.greedy_action(state, self.calls)


def _bytes(p):
    return open(p, "rb").read()


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_a_failed_rerun_leaves_the_old_file_and_keeps_partial_rows_under_a_partial_name(tmp_path, ext):
    out = tmp_path / f"run.{ext}"
    good = cardsim.simulate(G, deals=40, seed=1, out=str(out), workers=1)
    before = _bytes(out)
    P = cardsim.make(G).num_players
    with pytest.raises(Boom):
        cardsim.simulate(G, deals=1000, seed=2, agents=[StopAfter(20_000)] * P, out=str(out), chunk_size=10, workers=1)
    assert _bytes(out) == before                        # the old file is untouched
    assert np.array_equal(cardsim.load(out).table, good.table)
    part = tmp_path / f"run.partial.{ext}"
    assert part.exists()
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".part")]      # no temporary file left
    with pytest.raises(cardsim.ConfigError, match="incomplete run"):
        cardsim.load(part)
    back = cardsim.load(part, partial=True)
    assert not back.complete and 0 < len(back.table) < 1000 and len(back.table) % 10 == 0
    assert back.meta["rows"] == len(back.table) and back.meta["complete"] is False and back.meta["deals"] == 1000
    s = back.summary()
    assert s["complete"] is False and s["deals"] == len(back.table)


def test_csv_is_a_header_and_rows_with_metadata_beside_it(tmp_path):
    out = tmp_path / "r.csv"
    res = cardsim.simulate(G, deals=30, seed=3, out=str(out), workers=1)
    lines = out.read_text().splitlines()
    assert lines[0].split(",") == list(res.table.dtype.names)       # header row only, no comment line
    assert len(lines) == 31
    side = json.loads((tmp_path / "r.csv.meta.json").read_text())
    assert side["game"] == G and side["rows"] == 30 and side["complete"] is True
    assert np.array_equal(cardsim.load(out).table, res.table)


def _readonly_dir(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    try:
        open(d / "probe", "w").close()
    except OSError:
        return d
    os.unlink(d / "probe")             # root ignores permissions: a read-only file system then
    for cand in ("/sys", "/proc"):
        try:
            open(os.path.join(cand, "cardsim-probe.parquet"), "w").close()
        except OSError:
            return cand
    pytest.skip("no read-only directory available")


@pytest.mark.parametrize("ext", ["parquet", "csv", "json"])
def test_out_into_a_missing_or_read_only_directory_fails_before_the_first_deal(tmp_path, ext):
    P = cardsim.make(G).num_players
    for d in (tmp_path / "missing", tmp_path / "afile", _readonly_dir(tmp_path)):
        if str(d).endswith("afile"):
            d.write_text("x")
        agent = StopAfter(10**9)
        with pytest.raises(cardsim.ConfigError, match="cannot write"):
            cardsim.simulate(G, deals=5, seed=1, agents=[agent] * P, out=os.path.join(str(d), f"x.{ext}"))
        assert agent.calls == 0


def test_tasks_are_lazy_memory_does_not_grow_with_deals():
    P = cardsim.make(G).num_players
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(Boom):
            cardsim.simulate(G, deals=10**12, seed=1, agents=[StopAfter(50)] * P, chunk_size=1, keep_table=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20 and time.perf_counter() - t0 < 20
    from cardsim import runner

    tasks = runner.plan(10**12, 1, lambda s, k: (s, k))
    assert next(tasks) == (0, 1) and next(tasks) == (1, 1)


# ---------------------------------------------------------------------------------------------
# a real interrupted process
# ---------------------------------------------------------------------------------------------
def _start(tmp_path, out):
    # a terminal's process: Python's own SIGINT handler, even when this test runs in a background
    # job (which starts its children with SIGINT ignored)
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from cardsim.cli import main; sys.exit(main(sys.argv[1:]))")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-c", code, "simulate", G, "--deals", str(10**10), "--workers", "1",
                             "--chunk-size", "2000", "--out", str(out), "--no-progress", "--force"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _wait_for_rows(tmp_path, out, proc, min_bytes=20_000):
    deadline = time.time() + 120
    while time.time() < deadline:
        parts = [f for f in os.listdir(tmp_path) if f.startswith(out.name + ".") and f.endswith(".part")]
        if parts and os.path.getsize(tmp_path / parts[0]) > min_bytes:
            return tmp_path / parts[0]
        if proc.poll() is not None:
            pytest.fail(f"the run ended early: {proc.stderr.read().decode()[:500]}")
        time.sleep(0.1)
    proc.kill()
    pytest.fail("no rows written within 120 s")


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_ctrl_c_keeps_the_old_file_and_the_partial_rows_with_one_line(tmp_path, ext):
    out = tmp_path / f"run.{ext}"
    cardsim.simulate(G, deals=20, seed=9, out=str(out), workers=1)
    before = _bytes(out)
    proc = _start(tmp_path, out)
    _wait_for_rows(tmp_path, out, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    err = err.decode()
    assert proc.returncode == 130
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "interrupted" in err and f"run.partial.{ext}" in err
    assert _bytes(out) == before
    part = tmp_path / f"run.partial.{ext}"
    back = cardsim.load(part, partial=True)
    assert back.meta["rows"] == len(back.table) > 0 and back.meta["deals"] == 10**10
    assert np.array_equal(back.table["deal"], np.arange(len(back.table)))
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".part")]
    # report refuses the partial file by default, with one line; --partial reads it, flagged
    assert main(["report", str(part), "--out", str(tmp_path / "r.html")]) == 2
    assert main(["report", str(part), "--out", str(tmp_path / "r.html"), "--partial"]) == 0
    assert "INCOMPLETE" in (tmp_path / "r.html").read_text()


def test_sigkill_leaves_the_old_file_untouched(tmp_path):
    out = tmp_path / "run.parquet"
    good = cardsim.simulate(G, deals=20, seed=9, out=str(out), workers=1)
    before = _bytes(out)
    proc = _start(tmp_path, out)
    tmp = _wait_for_rows(tmp_path, out, proc)
    proc.kill()
    proc.wait(timeout=60)
    assert _bytes(out) == before
    assert np.array_equal(cardsim.load(out).table, good.table)
    assert tmp.name.endswith(".part")         # what a killed run leaves is named as such


# ---------------------------------------------------------------------------------------------
# bad files: one line each
# ---------------------------------------------------------------------------------------------
def _bad_files(tmp_path):
    res = cardsim.simulate(G, deals=60, seed=4, workers=1)
    pq_path, csv_path, js_path = tmp_path / "ok.parquet", tmp_path / "ok.csv", tmp_path / "ok.json"
    res.save(pq_path)
    res.save(csv_path)
    res.save(js_path)
    data = _bytes(pq_path)
    files = {}

    def put(name, content, mode="wb"):
        p = tmp_path / name
        with open(p, mode) as f:
            f.write(content)
        files[name] = p
        return p

    put("truncated.parquet", data[: len(data) // 2])
    put("garbage.parquet", os.urandom(3000))
    put("empty.parquet", b"")
    put("tail.parquet", data[:-9])
    text = csv_path.read_text()
    side = (tmp_path / "ok.csv.meta.json").read_text()
    put("truncated.csv", text[: len(text) * 2 // 3].rsplit(",", 1)[0], "w")
    (tmp_path / "truncated.csv.meta.json").write_text(side)
    put("garbage.csv", "a,b\n1,zz\n", "w")
    (tmp_path / "garbage.csv.meta.json").write_text(side)
    put("nometa.csv", text, "w")
    put("badmeta.csv", text, "w")
    (tmp_path / "badmeta.csv.meta.json").write_text("{not json")
    put("truncated.json", js_path.read_text()[:500], "w")
    put("garbage.json", "[1, 2, 3]", "w")
    put("binary.json", os.urandom(200))
    # metadata contradicting the table
    import pyarrow.parquet as pq

    t = pq.read_table(pq_path)
    meta = json.loads(pq.ParquetFile(pq_path).metadata.metadata[b"cardsim"])
    for name, change in (("seats.parquet", {"num_players": meta["num_players"] + 1}),
                         ("rows.parquet", {"deals": 61, "rows": 61}),
                         ("metrics.parquet", {"metric_names": meta["metric_names"][:-1]})):
        p = tmp_path / name
        w = pq.ParquetWriter(p, t.schema)
        w.write_table(t)
        w.add_key_value_metadata({"cardsim": json.dumps({**meta, **change})})
        w.close()
        files[name] = p
    t2 = t.slice(10)        # deals 10..59 relabelled as a complete run of 50
    p = tmp_path / "shifted.parquet"
    w = pq.ParquetWriter(p, t2.schema)
    w.write_table(t2)
    w.add_key_value_metadata({"cardsim": json.dumps({**meta, "deals": 50, "rows": 50})})
    w.close()
    files["shifted.parquet"] = p
    s = json.loads(js_path.read_text())
    put("wins.json", json.dumps({**s, "seats": [{**s["seats"][0], "wins": 10**6}] + s["seats"][1:]}), "w")
    return files


def test_report_and_load_refuse_bad_files_with_one_line(tmp_path, capsys):
    files = _bad_files(tmp_path)
    for name, p in files.items():
        assert main(["report", str(p), "--out", str(tmp_path / "r.html")]) == 2, name
        err = capsys.readouterr().err
        assert err.startswith("cardsim: error: ") and len(err.strip().splitlines()) == 1, (name, err)
        assert "Traceback" not in err
        with pytest.raises(cardsim.ConfigError):
            cardsim.load(p)
    assert not (tmp_path / "r.html").exists()


def test_matches_json_counts_matches(tmp_path):
    info = cardsim.game.game_info(G)
    if not any(o.name == "scope" for o in info.options):
        pytest.skip("no match scope")
    res = cardsim.simulate(G, matches=3, seed=1, out=str(tmp_path / "m.json"))
    s = json.loads((tmp_path / "m.json").read_text())
    assert s["matches"] == 3 and "deals" not in s and s["unit"] == "match"
    assert cardsim.load(tmp_path / "m.json")["matches"] == res.summary()["matches"]


def test_partial_name():
    assert results_io.partial_name("/a/run.parquet").name == "run.partial.parquet"
    assert results_io.partial_name("x.csv").name == "x.partial.csv"


@pytest.mark.parametrize("sizes", [[], [0], [5], [3, 0, 20_000, 1], [8_192, 8_193]])
def test_a_table_filled_chunk_by_chunk_is_the_columns_record_by_record(sizes):
    from cardsim import results_io, runner
    g = cardsim.make("gleek")
    parts, start = [], 0
    for m in sizes:
        parts.append(runner._finish_cols(g, start, g.spec.run_batch(7, start, m, [0] * 3, lead_changes=True), True))
        start += m
    t = results_io.new_table(sum(sizes), 3, g.metric_names, True, True)
    lo = 0
    for c in parts:
        lo = results_io.fill_table(t, lo, c)
    assert lo == sum(sizes)
    assert t.dtype == np.dtype(results_io.table_dtype(3, g.metric_names, True, True)) and len(t) == sum(sizes)
    for name in t.dtype.names:
        want = np.concatenate([p[name] for p in parts]) if parts else np.zeros(0)
        assert np.array_equal(t[name], want), name
    if parts:
        one = {n: np.concatenate([p[n] for p in parts]) for n in parts[0]}
        assert results_io.table_from_cols(one, 3, g.metric_names).tobytes() == t.tobytes()


def test_fill_table_refuses_records_past_the_end():
    from cardsim import results_io, runner
    g = cardsim.make("karnoffel")
    cols = runner._finish_cols(g, 0, g.spec.run_batch(1, 0, 10, [0] * 4), True)
    t = results_io.new_table(15, 4, g.metric_names, True, False)
    assert results_io.fill_table(t, 0, cols) == 10
    before = t.tobytes()
    with pytest.raises(ValueError, match="records 10..19 do not fit a table of 15"):
        results_io.fill_table(t, 10, cols)
    assert t.tobytes() == before
