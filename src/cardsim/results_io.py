"""Results on disk: the per-deal table as Parquet or CSV, the summary as JSON, written atomically
and read back with every check a results file deserves.

Atomic. A table is written to a temporary file beside the target (`run.parquet.<pid>.part`) and
renamed onto the target only when the run completes, so a run that is interrupted or fails never
touches an existing file of that name. An interrupted run (Ctrl-C, an error) keeps the rows it
wrote under a name that says so (`run.partial.parquet`), its metadata recording the rows actually
written (`"complete": false, "rows": ...`); a killed run (SIGKILL) can only leave its `.part`
file. The temporary file is created before the first deal, so a missing or read-only directory
fails at once.

Formats.
- Parquet: the run's metadata (JSON) in the file's key-value metadata under "cardsim".
- CSV: one header row, then one row per deal (pyarrow's CSV writer and reader); the metadata in
  a sidecar JSON file `<name>.meta.json` beside it (`run.csv` -> `run.csv.meta.json`).
- JSON: the summary of a run (`SimResult.to_json`).

Reading (`read_table`, `read_summary`) refuses, with one line saying what is wrong: files that
are not cardsim results, truncated or corrupt files, incomplete runs (unless asked for), and
metadata that contradicts the table (row count, seats, metric columns, deal indices).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from cardsim.errors import ConfigError, short

META_KEY = b"cardsim"
SIDECAR = ".meta.json"
FORMATS = ("parquet", "csv", "json")


class ResultsFileError(ConfigError):
    """A results file that cannot be used: unreadable, not cardsim's, incomplete or inconsistent."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or, under the CLI, SIGTERM) during simulate(): the message says how many rows were
    kept and where; `signal` is "SIGINT" or "SIGTERM"."""

    signal = "SIGINT"


class Terminated(KeyboardInterrupt):
    """SIGTERM turned into an exception (by the `cardsim` command, over the default handler that
    would kill the process mid-write): raised like Ctrl-C's KeyboardInterrupt so that every write in
    progress cleans up its temporary file on the way out."""

    signal = "SIGTERM"


def check_destination(path) -> Path:
    """Before any work is done for it: `path` can be created or replaced (its folder exists, is a
    folder and is writable; `path` itself is not a folder). ResultsFileError otherwise."""
    p = Path(path)
    shown = str(path) if len(str(path)) <= 200 else str(path)[:197] + "..."
    if p.is_dir():
        raise ResultsFileError(f"cannot write {shown}: it is a directory; name a file in it")
    d = p.parent
    if not d.exists():
        raise ResultsFileError(f"cannot write {shown}: directory {str(d)[:200]!r} does not exist (create it first)")
    if not d.is_dir():
        raise ResultsFileError(f"cannot write {shown}: {str(d)[:200]!r} is not a directory")
    if not os.access(d, os.W_OK | os.X_OK):
        raise ResultsFileError(f"cannot write {shown}: directory {str(d)[:200]!r} is not writable")
    return p


def format_of(path) -> str:
    p = str(path).lower()
    if p.endswith(".parquet") or p.endswith(".pq"):
        return "parquet"
    if p.endswith(".csv"):
        return "csv"
    if p.endswith(".json"):
        return "json"
    raise ConfigError(f"unknown file type {str(path)[:200]!r}: use .parquet, .csv or .json")


def partial_name(path) -> Path:
    """Where an interrupted run keeps its rows: run.parquet -> run.partial.parquet."""
    p = Path(path)
    return p.with_name(f"{p.stem}.partial{p.suffix}")


def sidecar_of(path) -> Path:
    p = Path(path)
    return p.with_name(p.name + SIDECAR)


def jsonable(v):
    """Options and numpy scalars as plain JSON values."""
    if isinstance(v, (tuple, list)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


# ---------------------------------------------------------------------------------------------
# table layout
# ---------------------------------------------------------------------------------------------
def table_dtype(P: int, metric_names, has_fp: bool, has_lc: bool, has_lf: bool | None = None):
    """The columns of a run's table, in order (see SimResult). A run with lead changes also has
    lead_from (has_lf defaults to has_lc; False reads a table saved before lead_from existed)."""
    has_lf = has_lc if has_lf is None else has_lf
    return ([("deal", np.int64)] + [(f"return_{p}", np.float64) for p in range(P)] + [("winners", np.int32)]
            + ([("first_player", np.int8)] if has_fp else [])
            + [("actions", np.int32), ("decisions", np.int32), ("legal_sum", np.int64)]
            + ([("lead_changes", np.int32)] if has_lc else []) + ([("lead_from", np.int32)] if has_lc and has_lf else [])
            + [(m, np.float64) for m in metric_names])


TABLE_ROWS = 8_192     # fill_table writes this many records at a time, every field, while they are in cache


def table_from_cols(cols: dict, P: int, metric_names) -> np.ndarray:
    """The run's table (one record per deal, table_dtype) from one dict of columns."""
    table = new_table(len(cols["deal"]), P, metric_names, "first_player" in cols, "lead_changes" in cols,
                      "lead_from" in cols)
    fill_table(table, 0, cols)
    return table


def new_table(n: int, P: int, metric_names, has_fp: bool, has_lc: bool, has_lf: bool | None = None) -> np.ndarray:
    """A table of n records (table_dtype) to be filled by fill_table (its records are not set)."""
    return np.empty(n, dtype=table_dtype(P, metric_names, has_fp, has_lc, has_lf))


def fill_table(table: np.ndarray, lo: int, cols: dict) -> int:
    """Write a chunk's columns (a dict with every field of the table) into records lo, lo + 1, ...
    of the table; returns the record after the last written. TABLE_ROWS records at a time, each
    field of them in turn: a record is ~130 bytes wide, and each column written down the whole
    table (then the next) streamed the table through memory once per field (800,000 Karnoffel
    records built from 25 chunks: 0.25-0.30 s against 0.045 s, 2026-12-04)."""
    names = table.dtype.names
    src = [cols[name] for name in names]
    m = len(src[0])
    if lo + m > len(table):
        raise ValueError(f"fill_table: records {lo}..{lo + m - 1} do not fit a table of {len(table)}")
    fields = [table[name] for name in names]
    for a in range(0, m, TABLE_ROWS):
        b = min(a + TABLE_ROWS, m)
        for f, col in zip(fields, src):
            f[lo + a:lo + b] = col[a:b]
    return lo + m


# ---------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------
def _temp_beside(path: Path) -> Path:
    """Create (exclusively) the temporary file beside `path`; fails now on a missing or read-only
    directory."""
    d = path.parent
    if not d.is_dir():
        raise ResultsFileError(f"cannot write {str(path)[:200]}: directory {str(d)[:200]!r} does not exist")
    for k in range(100):
        tmp = d / f"{path.name}.{os.getpid()}{'' if not k else f'-{k}'}.part"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        except OSError as e:
            raise ResultsFileError(f"cannot write {str(path)[:200]}: {e.strerror or e}") from None
        os.close(fd)
        return tmp
    raise ResultsFileError(f"cannot write {str(path)[:200]}: too many temporary files beside it")


def write_text_atomic(path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename."""
    path = Path(path)
    tmp = _temp_beside(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise


class further_interrupts_ignored:
    """While an interrupted run cleans up (keeps its rows as NAME.partial.EXT or deletes its
    temporary file), a further Ctrl-C is ignored, so it cannot stop the cleanup halfway and leave
    a stray .part file (main thread only: signal handlers live there)."""

    def __enter__(self):
        import signal
        import threading

        self.old = None
        if threading.current_thread() is threading.main_thread():
            try:
                self.old = signal.signal(signal.SIGINT, signal.SIG_IGN)
            except (ValueError, OSError):
                self.old = None
        return self

    def __exit__(self, *exc):
        import signal

        if self.old is not None:
            try:
                signal.signal(signal.SIGINT, self.old)
            except (ValueError, OSError):
                pass
        return False


def _unlink(p):
    try:
        os.unlink(p)
    except OSError:
        pass


class TextReservation:
    """A JSON output reserved before the run (so a bad directory fails at once), filled at the
    end with `commit(text)`, or dropped with `abort()`."""

    def __init__(self, path):
        self.path = Path(path)
        self.tmp = _temp_beside(self.path)

    def commit(self, text: str):
        try:
            with open(self.tmp, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(self.tmp, self.path)
        except BaseException:
            _unlink(self.tmp)
            raise

    def abort(self):
        _unlink(self.tmp)


def _csv_options(pcsv):
    """Plain CSV: numbers unquoted, a bare header row (quoting_header needs pyarrow >= 19)."""
    try:
        return pcsv.WriteOptions(quoting_style="none", quoting_header="none")
    except TypeError:  # pragma: no cover - older pyarrow: quoted header names, still valid CSV
        return pcsv.WriteOptions(quoting_style="none")


class TableWriter:
    """Streams table rows to a temporary file beside `path`; `commit()` renames it onto `path`,
    `abort()` keeps the rows written so far as `partial_name(path)` (or drops them)."""

    def __init__(self, path, meta: dict, dtype):
        self.path = Path(path)
        self.fmt = format_of(self.path)
        if self.fmt == "json":
            raise ConfigError("a table is written as .parquet or .csv (.json holds a summary)")
        self.meta = dict(meta)
        self.dtype = dtype
        self.rows = 0
        self._w = None
        self.committed = False
        self.tmp = _temp_beside(self.path)
        try:
            if self.fmt == "parquet":
                import pyarrow as pa
                import pyarrow.parquet as pq

                self._schema = pa.schema([(n, pa.from_numpy_dtype(np.dtype(t))) for n, t in dtype])
                self._w = pq.ParquetWriter(str(self.tmp), self._schema)
            else:
                import pyarrow as pa
                import pyarrow.csv as pcsv

                self._schema = pa.schema([(n, pa.from_numpy_dtype(np.dtype(t))) for n, t in dtype])
                self._w = pcsv.CSVWriter(str(self.tmp), self._schema, write_options=_csv_options(pcsv))
        except BaseException:           # an error or a signal: no temporary file is left behind
            _unlink(self.tmp)
            raise

    def write(self, cols: dict):
        import pyarrow as pa

        n = len(cols["deal"])
        if not n:
            return
        t = pa.table({name: np.asarray(cols[name], dtype=t) for name, t in self.dtype}, schema=self._schema)
        self._w.write_table(t)
        self.rows += n

    def _final_meta(self, complete: bool, **extra) -> dict:
        return {**self.meta, "rows": self.rows, "complete": complete, **extra}

    def _close(self, meta: dict):
        if self.fmt == "parquet":
            self._w.add_key_value_metadata({META_KEY.decode(): json.dumps(meta)})
        self._w.close()
        self._w = None

    def commit(self) -> Path:
        """The run completed: metadata final, file renamed onto the target."""
        meta = self._final_meta(True)
        try:
            self._close(meta)
            if self.fmt == "csv":
                write_text_atomic(sidecar_of(self.path), json.dumps(meta))
            os.replace(self.tmp, self.path)
        except BaseException:
            _unlink(self.tmp)
            raise
        self.committed = True
        return self.path

    def abort(self, reason: str, keep: bool = True) -> Path | None:
        """The run stopped early: keep the rows written so far under a name that says so
        (metadata: complete false, the rows actually written), or delete them. Returns the path
        kept (None when nothing is). After commit() it does nothing (the file is complete)."""
        if self.committed:
            return None
        meta = self._final_meta(False, interrupted=reason)
        try:
            if self._w is not None:
                self._close(meta)
        except Exception:  # noqa: BLE001 - the run already failed; don't mask its error
            _unlink(self.tmp)
            return None
        except BaseException:           # a further signal while closing: still no stray file
            self._w = None
            _unlink(self.tmp)
            raise
        if not keep or not self.rows:
            _unlink(self.tmp)
            return None
        dest = partial_name(self.path)
        try:
            if self.fmt == "csv":
                write_text_atomic(sidecar_of(dest), json.dumps(meta))
            os.replace(self.tmp, dest)
        except OSError:
            _unlink(self.tmp)
            return None
        except BaseException:
            _unlink(self.tmp)
            raise
        return dest


# ---------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------
def _short(e: BaseException) -> str:
    s = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return s[:160]


def _open_check(path: str):
    if not os.path.exists(path):
        raise ResultsFileError(f"{path[:200]}: no such file")
    if os.path.isdir(path):
        raise ResultsFileError(f"{path[:200]}: is a directory, not a results file")


def read_table(path, partial: bool = False) -> tuple[dict, np.ndarray]:
    """(metadata, table) of a saved .parquet/.csv run, checked: see the module docstring.
    `partial=True` reads an interrupted run's rows (metadata complete: false) instead of refusing."""
    path = str(path)
    fmt = format_of(path)
    if fmt == "json":
        raise ConfigError(f"{path[:200]}: a .json file holds a summary, not a table")
    _open_check(path)
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            pf = pq.ParquetFile(path)
            raw = (pf.metadata.metadata or {}).get(META_KEY)
            if raw is None:
                raw = (pf.schema_arrow.metadata or {}).get(META_KEY)      # files of cardsim <= 0.1
            if raw is None:
                raise ResultsFileError(f"{path[:200]}: not a cardsim results file (no cardsim metadata)")
            t = pf.read()
        except ResultsFileError:
            raise
        except Exception as e:  # noqa: BLE001 - pyarrow raises several types for a bad file
            raise ResultsFileError(f"{path[:200]}: not a readable Parquet file (truncated or corrupt: {_short(e)})") from None
        meta = _parse_meta(raw, path)
    else:
        side = sidecar_of(path)
        if not side.exists():
            raise ResultsFileError(f"{path[:200]}: not a cardsim results file (no metadata file {side.name})")
        try:
            meta = _parse_meta(side.read_bytes(), str(side))
        except OSError as e:
            raise ResultsFileError(f"{side}: cannot read ({_short(e)})") from None
        import pyarrow as pa
        import pyarrow.csv as pcsv

        cols = meta.get("columns")
        if not isinstance(cols, list) or not all(isinstance(c, str) for c in cols):
            raise ResultsFileError(f"{side}: metadata has no column list")
        try:
            P, mets = _meta_shape(meta, str(side))
            dt = dict(table_dtype(P, mets, "first_player" in cols, "lead_changes" in cols, "lead_from" in cols))
            types = {c: pa.from_numpy_dtype(np.dtype(dt[c])) for c in cols if c in dt}
            t = pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(column_types=types, strings_can_be_null=False))
        except ResultsFileError:
            raise
        except Exception as e:  # noqa: BLE001 - pyarrow raises several types for a bad file
            raise ResultsFileError(f"{path[:200]}: not a readable CSV table (truncated or corrupt: {_short(e)})") from None
    P, mets = _meta_shape(meta, path)
    names = list(t.column_names)
    want = [n for n, _ in table_dtype(P, mets, "first_player" in names, "lead_changes" in names, "lead_from" in names)]
    if names != want:
        raise ResultsFileError(f"{path[:200]}: the columns contradict the metadata ({len(names)} columns, "
                               f"expected {len(want)} for {P} seats and metrics {mets})")
    if isinstance(meta.get("columns"), list) and meta["columns"] != names:
        raise ResultsFileError(f"{path[:200]}: the metadata's column list contradicts the table")
    try:
        cols = {n: t.column(n).to_numpy() for n in names}
    except Exception as e:  # noqa: BLE001 - e.g. nulls in a column
        raise ResultsFileError(f"{path[:200]}: bad values in the table ({_short(e)})") from None
    table = table_from_cols(cols, P, mets)
    _check_consistent(meta, table, path, partial)
    return meta, table


def _parse_meta(raw, where: str) -> dict:
    try:
        meta = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ResultsFileError(f"{where[:200]}: cardsim metadata is not valid JSON ({_short(e)})") from None
    if not isinstance(meta, dict):
        raise ResultsFileError(f"{where[:200]}: cardsim metadata is not a JSON object")
    for k in ("game", "seed", "num_players", "metric_names"):
        if k not in meta:
            raise ResultsFileError(f"{where[:200]}: cardsim metadata lacks {short(k)}")
    return meta


def _meta_shape(meta: dict, where: str):
    P, mets = meta.get("num_players"), meta.get("metric_names")
    if isinstance(P, bool) or not isinstance(P, int) or not 1 <= P <= 64:
        raise ResultsFileError(f"{where[:200]}: metadata num_players is not a seat count: {str(P)[:40]}")
    if not isinstance(mets, list) or not all(isinstance(m, str) for m in mets):
        raise ResultsFileError(f"{where[:200]}: metadata metric_names is not a list of names")
    return P, mets


def _check_consistent(meta: dict, table: np.ndarray, path: str, partial: bool):
    n = len(table)
    complete = meta.get("complete", True)
    if complete is False:
        if not partial:
            raise ResultsFileError(f"{path[:200]}: an incomplete run ({meta.get('rows', n):,} of {meta.get('deals', '?'):,} "
                                   f"{'matches' if meta.get('unit') == 'match' else 'deals'} written before it was "
                                   f"{meta.get('interrupted', 'stopped')}); load(path, partial=True) or "
                                   f"`cardsim report --partial` reads it as such")
    elif "deals" in meta and meta["deals"] != n:
        raise ResultsFileError(f"{path[:200]}: the metadata says {meta['deals']} rows, the table has {n}")
    if "rows" in meta and meta["rows"] != n:
        raise ResultsFileError(f"{path[:200]}: the metadata says {meta['rows']} rows were written, the table has {n}")
    if n and not np.array_equal(table["deal"], np.arange(n, dtype=np.int64)):
        raise ResultsFileError(f"{path[:200]}: the deal column is not 0, 1, 2, ... (a truncated, edited or merged table)")


def read_summary(path) -> dict:
    """A saved summary (.json), checked for the keys a summary has."""
    path = str(path)
    _open_check(path)
    try:
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        raise ResultsFileError(f"{path[:200]}: not valid JSON (truncated or corrupt: {_short(e)})") from None
    if isinstance(s, dict) and s.get("sidecar_of"):
        raise ResultsFileError(f"{path[:200]}: the metadata of the table {s['sidecar_of']}; load that file")
    if not isinstance(s, dict) or not {"game", "seats"} <= set(s) or not ({"deals", "matches"} & set(s)):
        raise ResultsFileError(f"{path[:200]}: not a cardsim summary (needs game, deals or matches, seats)")
    seats = s["seats"]
    if not isinstance(seats, list) or not seats or not all(isinstance(x, dict) for x in seats):
        raise ResultsFileError(f"{path[:200]}: the summary's seats are not a list of seat records")
    if "num_players" in s and s["num_players"] != len(seats):
        raise ResultsFileError(f"{path[:200]}: the summary says {s['num_players']} seats but lists {len(seats)}")
    n = s["deals"] if "deals" in s else s["matches"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ResultsFileError(f"{path[:200]}: the summary's deal count is not a count: {str(n)[:40]}")
    for x in seats:
        w = x.get("wins")
        if isinstance(w, int) and not 0 <= w <= n:
            raise ResultsFileError(f"{path[:200]}: seat {x.get('seat')} has {w} wins in {n} deals")
    return s
