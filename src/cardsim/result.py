"""SimResult (what simulate() returns) and load() (a saved run back as a SimResult or a summary)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from cardsim import results_io
from cardsim.errors import ConfigError
from cardsim.results_io import jsonable
from cardsim.stats import Accumulator

# The class a summary dict is wrapped in: cardsim.analysis.summary.Summary (readable text and
# HTML), registered on `import cardsim` (set_summary_type). This data layer imports nothing from
# the presentation above it (tests/test_layers.py).
_SUMMARY_TYPE: type = dict


def set_summary_type(cls: type) -> None:
    """Register the dict subclass that SimResult.summary() and load(*.json) return."""
    global _SUMMARY_TYPE
    if not (isinstance(cls, type) and issubclass(cls, dict)):
        raise ConfigError(f"set_summary_type needs a dict subclass, got {str(cls)[:60]}")
    _SUMMARY_TYPE = cls


def cardsim_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardsim")
    except PackageNotFoundError:  # pragma: no cover - a source tree on sys.path
        return "unknown"


@dataclass
class SimResult:
    """Result of simulate(): metadata, the table (numpy structured array, one row per deal or
    match; None when keep_table=False) and the streaming summary.

    Columns: deal (int64: the deal or match index in the seed's stream), return_0..return_{n-1}
    (float64, the game's own points), winners (int32 bitmask of the seats with the highest
    return, 0 for a draw), first_player (int8: seat to act in the initial state), actions,
    decisions (turns with more than one legal action), legal_sum (legal actions summed over
    decisions), lead_changes and lead_from (only with lead_changes=True; lead_from: the actions
    after which the final leaders held the lead for good, see run_batch), then the game's metrics
    (float64)."""

    game: str
    options: dict
    seed: int
    agents: list
    table: np.ndarray | None
    metric_names: tuple = field(default=())
    unit: str = "deal"
    meta: dict = field(default_factory=dict)
    _acc: Accumulator | None = field(default=None, repr=False)
    _summary: dict | None = field(default=None, repr=False)

    @property
    def num_players(self) -> int:
        return int(self.meta.get("num_players") or sum(1 for n in self.table.dtype.names if n.startswith("return_")))

    @property
    def deals(self) -> int:
        if self.table is not None and self.meta.get("complete") is False:
            return len(self.table)
        return int(self.meta.get("deals", 0 if self.table is None else len(self.table)))

    @property
    def complete(self) -> bool:
        """False for the rows of an interrupted run (load(path, partial=True))."""
        return self.meta.get("complete", True) is not False

    def returns(self) -> np.ndarray:
        self._need_table()
        return np.stack([self.table[f"return_{p}"] for p in range(self.num_players)], axis=1)

    def _need_table(self):
        if self.table is None:
            raise ConfigError("this result kept no table (keep_table=False); only summary() is available")

    def summary(self) -> dict:
        """Per-seat mean return with 95% CIs, win rates with Wilson intervals, seat and
        first-player advantage with significance tests, drawishness, duration, branching
        factor, decision share, lead changes, metric distributions and running means
        (see cardsim.stats), with a verdict. A Summary (cardsim.analysis.summary): a JSON-friendly dict that prints as
        readable text (`print(s)`), shows as HTML in Jupyter and gives `.to_dict()` /
        `.to_json()`; identical for any workers/chunking/backend and when rebuilt from a saved
        table. Terms: docs/glossary.md."""
        if self._summary is None:
            if self._acc is None:
                self._need_table()
                self._acc = accumulate_table(self.table, self.num_players, self.metric_names,
                                             "first_player" in self.table.dtype.names,
                                             "lead_changes" in self.table.dtype.names,
                                             "lead_from" in self.table.dtype.names)
            self._summary = _SUMMARY_TYPE(self._acc.summary(self._meta_for_summary()))
        return self._summary

    def _meta_for_summary(self) -> dict:
        out = {"game": self.game, "options": jsonable(self.options), "seed": self.seed,
               "agents": [str(a) for a in self.agents], "unit": self.unit,
               "cardsim_version": self.meta.get("cardsim_version", cardsim_version()),
               "num_players": self.num_players, "metric_names": list(self.metric_names)}
        if not self.complete:
            out["complete"] = False
            out["planned"] = self.meta.get("deals")
        return out

    def to_json(self, path=None, indent=2) -> str:
        """The summary as JSON (written atomically to `path` if given)."""
        text = json.dumps(self.summary(), indent=indent, allow_nan=False, default=jsonable)
        if path is not None:
            results_io.write_text_atomic(path, text)
        return text

    def save(self, path) -> None:
        """Save as .parquet or .csv (the table, with the run's metadata) or .json (the summary),
        atomically (a temporary file renamed onto `path`)."""
        fmt = results_io.format_of(str(path))
        if fmt == "json":
            self.to_json(path)
            return
        self._need_table()
        names = self.table.dtype.names
        dt = results_io.table_dtype(self.num_players, self.metric_names, "first_player" in names, "lead_changes" in names,
                                    "lead_from" in names)
        w = results_io.TableWriter(path, self._file_meta(), dt)
        try:
            w.write({n: self.table[n] for n in names})
        except BaseException:
            with results_io.further_interrupts_ignored():
                w.abort("failed", keep=False)
            raise
        w.commit()

    def _file_meta(self) -> dict:
        return {**self._meta_for_summary(), "deals": self.deals, "columns": list(self.table.dtype.names)
                if self.table is not None else self.meta.get("columns")}

    def __len__(self):
        return self.deals

    def _repr_html_(self) -> str:
        """The notebook view: what the result holds, then its summary's view (verdict, agents,
        sides or seats, measures) — the same view `cardsim.views.summary_html` gives."""
        import html

        s = self.summary()
        body = s._repr_html_() if hasattr(s, "_repr_html_") else f"<pre>{html.escape(str(s))}</pre>"
        kept = "no table (keep_table=False)" if self.table is None else f"table of {len(self.table):,} rows (.table)"
        return (f"<div class='cardsim-result'><p><code>SimResult</code>: {kept}"
                f"{'' if self.complete else ', INCOMPLETE'}; <code>.summary()</code> below</p>{body}</div>")

    def __repr__(self):
        kept = "no table" if self.table is None else f"table of {len(self.table):,} rows"
        return (f"<SimResult {self.game}: {self.deals:,} {self.unit}{'es' if self.unit == 'match' else 's'}, seed {self.seed}, agents {self.agents}, "
                f"{kept}{'' if self.complete else ', INCOMPLETE'}>")


def accumulate_table(table: np.ndarray, P: int, metric_names, has_fp: bool, has_lc: bool,
                     has_lf: bool | None = None) -> Accumulator:
    """Feed a whole table to a fresh Accumulator (the same canonical blocks as a live run)."""
    acc = Accumulator(P, metric_names, first_player=has_fp, lead_changes=has_lc, lead_from=has_lf)
    acc.add({n: table[n] for n in table.dtype.names})
    return acc.finish()


def load(path, partial: bool = False) -> SimResult | dict:
    """Load a saved run: .parquet / .csv give a SimResult (table and metadata, summary rebuilt
    exactly), .json gives the summary dict. Unreadable, foreign, truncated or inconsistent files
    raise ResultsFileError (a ConfigError) saying what is wrong; so does the rows of an
    interrupted run (`run.partial.parquet`) unless `partial=True` (then `result.complete` is
    False and the summary says so)."""
    fmt = results_io.format_of(str(path))
    if fmt == "json":
        return _SUMMARY_TYPE(results_io.read_summary(path))
    meta, table = results_io.read_table(path, partial=partial)
    return SimResult(meta["game"], meta.get("options") or {}, meta["seed"], meta.get("agents") or [], table,
                     tuple(meta["metric_names"]), meta.get("unit", "deal"), meta)


def as_result(x, partial: bool = False):
    """A SimResult or summary dict from a SimResult, a summary dict or the path of a saved run."""
    if isinstance(x, (str, bytes)) or hasattr(x, "__fspath__"):
        return load(x, partial=partial)
    return x
