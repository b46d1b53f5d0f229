"""Statistics for balance analysis: a streaming, mergeable accumulator and the summary it gives.

Everything here is generic over games: it sees a game only through its number of seats, its
metric names and the per-deal columns the batch kernel returns.

Determinism. The runner feeds rows to `Accumulator.add` strictly in deal order, and the
accumulator cuts that stream into *canonical blocks* of `BLOCK` rows (aligned on the deal index,
whatever the chunks were). Every statistic is computed per block and merged block after block in
the same order, so the summary is bit-identical for any worker count, chunk size or backend, and
equal to the summary rebuilt from a saved table.

Statistics (all with 95% intervals):

- per seat: mean return (Student t interval), win rate (Wilson interval); a deal's winners are
  the seats with the highest return, and a deal where every seat has the same return is a draw;
- seat advantage: for each seat, the mean of (its return - the mean return of all seats) per deal
  with a t test, and a joint test that all seats have the same mean (Hotelling T^2 on the P-1
  contrasts, pseudo-inverse for partnership games whose seats are perfectly correlated);
- first-player advantage: the same, with seats relabelled by their offset from the deal's first
  player (the seat to act in the initial state);
- balance (1 - the gap between the highest and the lowest win rate, Ludii's "Balance"),
  drawishness (share of draws), duration in actions and in decisions, branching factor (legal
  actions per turn, forced turns counting 1), branching at decisions, decision share (turns with
  more than one legal action; Ludii's "DecisionMoves"), lead changes when recorded, and with them
  decisiveness (from the kernel's lead_from over the running standing: the share of deals whose
  final leaders already led before the last round of play, i.e. lead_from <= actions - seats, and the mean fraction of the
  deal's actions after which they led for good);
- every game metric: mean, sd, interval, min, max and a histogram;
- running means of each seat's return at log-spaced deal counts (for convergence plots);
- two-sample tests for comparing runs: Welch, Newcombe's interval for two proportions, paired t.

This module is pure statistics: it imports nothing from cardsim but its compiled co-moments
(cardsim.core._blockstats, which import nothing; the import graph is acyclic, tests/test_layers.py).
Definitions of every statistic: docs/glossary.md.
"""
from __future__ import annotations

import math
import threading

import numpy as np

from cardsim.core._blockstats import comoments, seat_block

BLOCK = 16_384          # canonical block: statistics are computed per block of this many deals, merged in order
HIST_MAX_BINS = 512     # a histogram keeps exact values up to this many distinct values, then bins
Z95 = 1.959963984540054


# ---------------------------------------------------------------------------------------------
# small interval helpers
# ---------------------------------------------------------------------------------------------
def _f(x) -> float | None:
    """A JSON-friendly float: NaN and infinities become None."""
    x = float(x)
    return x if math.isfinite(x) else None


def t_interval(mean: float, sd: float, n: int, level: float = 0.95) -> tuple:
    """Student t interval for a mean (None bounds when n < 2)."""
    if n < 2 or not math.isfinite(sd):
        return (None, None)
    from scipy import stats

    h = float(stats.t.ppf(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    return (_f(mean - h), _f(mean + h))


def t_test(mean: float, sd: float, n: int) -> float | None:
    """Two-sided p-value of H0: true mean = 0 (None when undefined)."""
    if n < 2 or not math.isfinite(sd):
        return None
    from scipy import stats

    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    t = mean / (sd / math.sqrt(n))
    return float(2 * stats.t.sf(abs(t), n - 1))


def wilson(k: int, n: int, z: float = Z95) -> tuple:
    """Wilson score interval for a proportion k/n (the formula scipy.stats.binomtest(k, n)
    .proportion_ci(method="wilson") evaluates, written out for speed and any z)."""
    if n <= 0:
        return (None, None)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


# ---------------------------------------------------------------------------------------------
# histograms that merge deterministically
# ---------------------------------------------------------------------------------------------
def value_counts(v: np.ndarray):
    """Exact distinct finite values of v (float64, ascending) and their counts (int64)."""
    v = np.asarray(v, dtype=np.float64)
    fin = np.isfinite(v)
    if not fin.all():                       # (a copy only when something is not finite)
        v = v[fin]
    if not len(v):
        return np.zeros(0), np.zeros(0, np.int64)
    lo, hi = float(v.min()), float(v.max())
    # integers within a span of 100,000 are counted by bincount; beyond +-2**62 the offsets would not
    # fit int64 (1e300 raised OverflowError here), so such values take np.unique like any others
    if hi - lo < 100_000 and -2.0 ** 62 < lo and hi < 2.0 ** 62 and np.all(v == np.floor(v)):
        base = int(lo)
        bc = np.bincount((v - base).astype(np.int64))
        nz = np.nonzero(bc)[0]
        return (nz + base).astype(np.float64), bc[nz].astype(np.int64)
    keys, cnt = np.unique(v, return_counts=True)
    return keys, cnt.astype(np.int64)


class Hist:
    """Counts of values: exact while there are at most HIST_MAX_BINS distinct values, then bins of
    width 2^k aligned on multiples of the width (the width doubles as the range grows). Since rows
    arrive in canonical blocks, the result depends only on the data."""

    __slots__ = ("width", "counts")

    def __init__(self):
        self.width = 0.0        # 0: exact values
        self.counts: dict = {}

    def add(self, v: np.ndarray):
        self.merge(*value_counts(v))

    def merge(self, keys: np.ndarray, cnt: np.ndarray):
        """Add exact (value, count) pairs (from value_counts); binned at the current width."""
        if not len(keys):
            return
        if self.width:
            keys = np.floor(keys / self.width) * self.width
            keys, inv = np.unique(keys, return_inverse=True)
            cnt = np.bincount(inv.ravel(), weights=cnt).astype(np.int64)
        c = self.counts
        for k, n in zip(keys.tolist(), cnt.tolist()):
            c[k] = c.get(k, 0) + n
        while len(self.counts) > HIST_MAX_BINS:
            self._coarsen()

    def _coarsen(self):
        if not self.width:
            hi, lo = max(self.counts), min(self.counts)
            span = hi - lo
            # values beyond +-9e307 can span more than the largest float: the same scale from halves
            # (math.ceil(inf) raised OverflowError)
            scale = (max(span, 1e-300) / HIST_MAX_BINS * 2 if math.isfinite(span)
                     else (hi / 2 - lo / 2) / HIST_MAX_BINS * 4)
            w = 2.0 ** math.ceil(math.log2(scale))
        else:
            w = self.width * 2
        out: dict = {}
        for k, n in self.counts.items():
            b = math.floor(k / w) * w
            out[b] = out.get(b, 0) + n
        self.width, self.counts = w, out

    def to_dict(self) -> dict:
        ks = sorted(self.counts)
        return {"width": self.width, "values": ks, "counts": [self.counts[k] for k in ks]}


# ---------------------------------------------------------------------------------------------
# moments (Chan et al. merge, block after block)
# ---------------------------------------------------------------------------------------------
def moments_of_block(xt: np.ndarray, kf: int) -> tuple:
    """One block's count, means, co-moment matrix of the first kf rows, centred sums of squares
    of the others, minima and maxima (no BLAS: a fixed floating-point order anywhere). The
    co-moments come from the compiled `comoments` (cardsim.core._blockstats: one nogil pass, no
    large temporary), bit for bit numpy's products and pairwise sums (tests/test_stats.py keeps
    the numpy computation as its reference)."""
    nb = xt.shape[1]
    k = xt.shape[0]
    if nb == 0:
        return (0, np.zeros(k), np.zeros((kf, kf)), np.zeros(k - kf), np.full(k, np.inf), np.full(k, -np.inf))
    xt = np.ascontiguousarray(xt, dtype=np.float64)
    mn, mx = xt.min(axis=1), xt.max(axis=1)
    mb = xt.sum(axis=1) / nb
    cb, m2b = comoments(xt, mb, kf)
    return (nb, mb, cb, m2b, mn, mx)


class Moments:
    """Count, means and co-moment matrix of a vector of columns; `full` columns get the whole
    covariance matrix among themselves, the others only their variance. Merged with Chan's
    pairwise formulas in block order (no BLAS, so the floating-point order is fixed)."""

    def __init__(self, k_full: int, k_diag: int):
        self.kf, self.kd = k_full, k_diag
        self.n = 0
        self.mean = np.zeros(k_full + k_diag)
        self.cov = np.zeros((k_full, k_full))     # co-moment (sum of centred products)
        self.m2 = np.zeros(k_diag)
        self.min = np.full(k_full + k_diag, np.inf)
        self.max = np.full(k_full + k_diag, -np.inf)

    def add_block(self, xt: np.ndarray):
        """xt: (k, nb) C-contiguous, one row per column."""
        self.merge(moments_of_block(xt, self.kf))

    def merge(self, bs: tuple):
        """Merge one block's (n, mean, co-moment, m2, min, max) (Chan et al.)."""
        nb, mb, cb, m2b, mnb, mxb = bs
        if nb == 0:
            return
        kf = self.kf
        na, n = self.n, self.n + nb
        d = mb - self.mean
        self.mean = self.mean + d * (nb / n)
        f = na * nb / n
        self.cov = self.cov + cb + np.outer(d[:kf], d[:kf]) * f
        self.m2 = self.m2 + m2b + d[kf:] * d[kf:] * f
        self.n = n
        self.min = np.minimum(self.min, mnb)
        self.max = np.maximum(self.max, mxb)

    def var(self, i: int) -> float:
        if self.n < 2:
            return float("nan")
        c = self.cov[i, i] if i < self.kf else self.m2[i - self.kf]
        return float(max(c, 0.0) / (self.n - 1))

    def covmat(self) -> np.ndarray:
        return self.cov / max(self.n - 1, 1)

    def state(self) -> dict:
        return {"n": self.n, "mean": self.mean.tolist(), "cov": self.cov.tolist(), "m2": self.m2.tolist()}


def _mean_stats(mean: float, var: float, n: int, mn=None, mx=None) -> dict:
    sd = math.sqrt(var) if math.isfinite(var) else float("nan")
    out = {"mean": _f(mean) if n else None, "sd": _f(sd), "ci95": t_interval(mean, sd, n)}
    if mn is not None and n:
        out["min"], out["max"] = _f(mn), _f(mx)
    return out


def _ratio_stats(m: Moments, iy: int, ix: int) -> dict:
    """Ratio of totals sum(y)/sum(x) with a delta-method 95% interval."""
    n = m.n
    mx, my = m.mean[ix], m.mean[iy]
    if n == 0 or mx == 0:
        return {"value": None, "ci95": (None, None)}
    r = my / mx
    if n < 2:
        return {"value": _f(r), "ci95": (None, None)}
    c = m.covmat()
    v = (c[iy, iy] - 2 * r * c[ix, iy] + r * r * c[ix, ix]) / (n * mx * mx)
    h = Z95 * math.sqrt(max(v, 0.0))
    return {"value": _f(r), "ci95": (_f(r - h), _f(r + h))}


def _contrast(m: Moments, cvec: np.ndarray) -> dict:
    """Mean of the linear combination cvec . x over deals, its interval and t test."""
    k = len(cvec)
    mean = float(cvec @ m.mean[:k])
    var = float(cvec @ m.covmat()[:k, :k] @ cvec) if m.n > 1 else float("nan")
    sd = math.sqrt(max(var, 0.0)) if math.isfinite(var) else float("nan")
    return {"mean": _f(mean) if m.n else None, "ci95": t_interval(mean, sd, m.n), "p_value": t_test(mean, sd, m.n)}


def _hotelling(m: Moments, offset: int, P: int) -> dict:
    """Joint test that the P means at columns offset..offset+P-1 are equal (Hotelling T^2 on the
    contrasts x_p - x_{P-1}; covariance by pseudo-inverse, its rank as the degrees of freedom)."""
    from scipy import stats

    n = m.n
    if P < 2 or n < 3:
        return {"test": "hotelling_t2", "statistic": None, "df": None, "p_value": None}
    C = np.zeros((P - 1, P))
    for p in range(P - 1):
        C[p, p], C[p, P - 1] = 1.0, -1.0
    mu = C @ m.mean[offset:offset + P]
    S = C @ m.covmat()[offset:offset + P, offset:offset + P] @ C.T
    scale = max(float(np.abs(S).max()), 1e-300)
    rank = int(np.linalg.matrix_rank(S / scale, tol=1e-9))
    if rank == 0:
        same = bool(np.allclose(mu, 0))
        return {"test": "hotelling_t2", "statistic": 0.0 if same else None, "df": (0, n - 1),
                "p_value": 1.0 if same else 0.0}
    t2 = float(n * mu @ np.linalg.pinv(S, rcond=1e-9) @ mu)
    if n - rank < 1:
        return {"test": "hotelling_t2", "statistic": _f(t2), "df": None, "p_value": None}
    F = t2 * (n - rank) / (rank * (n - 1))
    return {"test": "hotelling_t2", "statistic": _f(t2), "F": _f(F), "df": (rank, n - rank),
            "p_value": _f(stats.f.sf(F, rank, n - rank))}


def identical_groups(m: Moments, P: int) -> list | None:
    """Seats whose returns (the first P columns of `m`) are identical in every row so far, as
    groups of seats (partners in a partnership game), or None when no two seats are identical
    or all are. Identical means equal means and zero variance of the difference, up to rounding
    (the co-moments of identical columns are computed identically)."""
    if m.n < 2 or P < 2:
        return None
    c = m.cov
    scale = max(float(np.abs(c[:P, :P]).max()), 1e-300)
    mscale = max(float(np.abs(m.mean[:P]).max()), 1e-300)
    group = list(range(P))
    for p in range(P):
        for q in range(p + 1, P):
            if group[q] != q:
                continue
            if (abs(c[p, p] + c[q, q] - 2 * c[p, q]) <= 1e-9 * scale
                    and abs(m.mean[p] - m.mean[q]) <= 1e-9 * mscale
                    and m.min[p] == m.min[q] and m.max[p] == m.max[q]):
                group[q] = group[p]
    groups: dict = {}
    for p in range(P):
        groups.setdefault(group[p], []).append(p)
    out = list(groups.values())
    if len(out) == P or len(out) == 1:
        return None
    return out


def count_key(unit: str) -> str:
    """The key a summary counts its rows under: "deals", or "matches" for a match run."""
    return "matches" if unit == "match" else "deals"


def count_of(s: dict) -> int:
    """How many deals (or matches) a summary covers."""
    return s["deals"] if "deals" in s else s["matches"]


# ---------------------------------------------------------------------------------------------
# the accumulator
# ---------------------------------------------------------------------------------------------
DECIDED = ("decided_early", "decided_at")   # per-deal columns derived from lead_from (see decided_columns)


def extra_columns(has_lc: bool, has_lf: bool, metric_names) -> list:
    """The variance-only columns of the moments, in order: lead_changes, the two decisiveness
    columns derived from lead_from, then the game's metrics."""
    return (["lead_changes"] if has_lc else []) + (list(DECIDED) if has_lf else []) + list(metric_names)


def decided_columns(lead_from, actions, P: int) -> dict:
    """Per deal, from the kernel's lead_from (actions after which the final leaders held the lead
    for good): decided_early = 1 when they already led before the last round of play
    (lead_from <= actions - P: before each seat's last action; in a trick game, before the last
    trick), decided_at = lead_from / actions (the fraction of the deal played when it was
    decided), and live = 1 when the running standing (the kernel watches each game's provisional
    score, State.standing; the returns at the end) showed the final leaders before the last
    action (0 < lead_from < actions; never when the standing stays level until the end)."""
    lf = np.asarray(lead_from, np.int64)
    a = np.asarray(actions, np.int64)
    return {"decided_early": (lf <= a - P).astype(np.float64),
            "decided_at": np.where(a > 0, lf / np.maximum(a, 1), 0.0),
            "live": (lf > 0) & (lf < a)}


def checkpoints_upto(n: int) -> np.ndarray:
    """Deal counts at which running means are recorded: 10 per decade, log-spaced."""
    out = sorted({int(round(10 ** (k / 10))) for k in range(0, 10 * (len(str(max(n, 1))) + 1))})
    return np.array([c for c in out if c <= n], dtype=np.int64)


class Accumulator:
    """Streaming summary of a run. Feed per-deal column dicts in deal order with `add`, call
    `finish`, then `summary`. Memory is O(seats + metrics + histogram bins), whatever the number
    of deals. Columns: return_<p>, winners, first_player (optional), actions, decisions,
    legal_sum, lead_changes and lead_from (optional), then the game's metrics. lead_from (default:
    present with lead_changes) gives the decisiveness columns (decided_columns)."""

    def __init__(self, num_players: int, metric_names, first_player: bool = True, lead_changes: bool = False,
                 lead_from: bool | None = None):
        self.P = P = num_players
        self.metric_names = tuple(metric_names)
        self.has_fp = bool(first_player)
        self.has_lc = bool(lead_changes)
        self.has_lf = self.has_lc if lead_from is None else bool(lead_from)
        self.extra = extra_columns(self.has_lc, self.has_lf, self.metric_names)
        self.decided = np.zeros(2, np.int64)       # deals decided early, deals with a live running standing
        # full-covariance columns: returns, returns by offset from the first player, and the
        # three duration counters (for ratio intervals); variance only: lead changes, metrics
        self.k_full = 2 * P + 3
        self.mom = Moments(self.k_full, len(self.extra))
        self.wins = np.zeros(P, np.int64)
        self.rel_wins = np.zeros(P, np.int64)
        self.draws = 0
        self.hists = {name: Hist() for name in [f"return_{p}" for p in range(P)] + ["actions", "decisions"] + self.extra
                      if name not in DECIDED}
        self.run_n: list = []
        self.run_mean: list = []
        self.run_sd: list = []
        self._cum = np.zeros(P)
        self._cum2 = np.zeros(P)
        self._buf: list = []
        self._buffered = 0
        self._done = False

    @property
    def n(self) -> int:
        return self.mom.n

    def add(self, cols: dict):
        """Append rows (a dict of equal-length arrays, the next deals in order)."""
        k = len(cols["actions"])
        if not k:
            return
        self._buf.append(cols)
        self._buffered += k
        while self._buffered >= BLOCK:
            self._flush(BLOCK)

    def finish(self):
        if self._buffered:
            self._flush(self._buffered)
        self._done = True
        return self

    def _take(self, k: int) -> dict:
        out, need, rest = [], k, []
        for i, c in enumerate(self._buf):
            m = len(c["actions"])
            if need >= m:
                out.append(c)
                need -= m
            else:
                if need:
                    out.append({n: v[:need] for n, v in c.items()})
                rest.append({n: v[need:] for n, v in c.items()})
                rest.extend(self._buf[i + 1:])
                need = 0
                break
        else:
            rest = []
        self._buf = rest
        self._buffered -= k
        return {n: np.concatenate([c[n] for c in out]) for n in out[0]}

    def _flush(self, k: int):
        self.merge_block(block_stats(self._take(k), self.mom.n, self.P, self.extra, self.has_fp))

    def merge_blocks(self, blocks: list):
        """Merge whole canonical blocks computed elsewhere (no rows may be pending)."""
        if self._buffered:
            raise RuntimeError("rows pending: blocks computed on workers must not interleave with add()")
        for bs in blocks:
            self.merge_block(bs)

    def merge_block(self, bs: dict):
        """Merge the statistics of the next canonical block (from block_stats), in order."""
        if bs["n0"] != self.mom.n:
            raise RuntimeError(f"block at {bs['n0']} merged out of order (have {self.mom.n} rows)")
        self.mom.merge(bs["moments"])
        self.draws += bs["draws"]
        self.wins += bs["wins"]
        self.rel_wins += bs["rel_wins"]
        if "decided" in bs:
            self.decided += bs["decided"]
        for name, (keys, cnt) in bs["hists"].items():
            self.hists[name].merge(keys, cnt)
        for c, cs, cs2 in bs["checkpoints"]:
            self._record(c, self._cum + cs, self._cum2 + cs2)
        self._cum = self._cum + bs["sum"]
        self._cum2 = self._cum2 + bs["sum2"]

    def _record(self, c, s, s2):
        mean = s / c
        var = np.maximum(s2 / c - mean * mean, 0.0) * (c / max(c - 1, 1))
        self.run_n.append(int(c))
        self.run_mean.append([_f(v) for v in mean])
        self.run_sd.append([_f(v) for v in np.sqrt(var)])

    # -----------------------------------------------------------------------------------------
    def summary(self, meta: dict | None = None) -> dict:
        """The summary as a JSON-friendly dict (see the module docstring)."""
        if not self._done:
            raise RuntimeError("Accumulator.finish() first")
        m, P, n = self.mom, self.P, self.mom.n
        out = dict(meta or {})
        out[count_key(out.get("unit", "deal"))] = n
        seats = []
        for p in range(P):
            st = _mean_stats(m.mean[p], m.var(p), n, m.min[p], m.max[p])
            c = np.full(P, -1.0 / P)
            c[p] += 1.0
            adv = _contrast(m, np.concatenate([c, np.zeros(P)]))
            seats.append({"seat": p, **st, "wins": int(self.wins[p]),
                          "win_rate": _f(self.wins[p] / n) if n else None, "win_ci95": wilson(int(self.wins[p]), n),
                          "advantage": adv["mean"], "advantage_ci95": adv["ci95"], "advantage_p": adv["p_value"]})
        out["seats"] = seats
        out["teams"] = identical_groups(m, P)
        rates = [s["win_rate"] for s in seats if s["win_rate"] is not None]
        out["seat_balance"] = {**_hotelling(m, 0, P),
                               "win_rate_gap": _f(max(rates) - min(rates)) if rates else None,
                               "balance": _f(1 - (max(rates) - min(rates))) if rates else None}
        if self.has_fp:
            pos = []
            for k in range(P):
                st = _mean_stats(m.mean[P + k], m.var(P + k), n)
                c = np.full(P, -1.0 / P)
                c[k] += 1.0
                adv = _contrast(m, np.concatenate([np.zeros(P), c]))
                pos.append({"offset": k, "mean": st["mean"], "ci95": st["ci95"], "wins": int(self.rel_wins[k]),
                            "win_rate": _f(self.rel_wins[k] / n) if n else None,
                            "win_ci95": wilson(int(self.rel_wins[k]), n),
                            "advantage": adv["mean"], "advantage_ci95": adv["ci95"], "advantage_p": adv["p_value"]})
            out["first_player"] = {"positions": pos, "advantage": pos[0]["advantage"],
                                   "advantage_ci95": pos[0]["advantage_ci95"], "p_value": pos[0]["advantage_p"],
                                   "position_balance": _hotelling(m, P, P)}
        else:
            out["first_player"] = None
        out["draws"] = {"count": self.draws, "rate": _f(self.draws / n) if n else None, "ci95": wilson(self.draws, n)}
        out["drawishness"] = out["draws"]["rate"]
        ia, idc, il = 2 * P, 2 * P + 1, 2 * P + 2
        out["duration"] = {"actions": _mean_stats(m.mean[ia], m.var(ia), n, m.min[ia], m.max[ia]),
                           "decisions": _mean_stats(m.mean[idc], m.var(idc), n, m.min[idc], m.max[idc])}
        # branching factor over all turns: (legal_sum + forced turns) / actions
        mm = Moments(3, 0)
        mm.n, mm.mean = n, np.array([m.mean[ia], m.mean[idc], m.mean[il] + m.mean[ia] - m.mean[idc]])
        cv = m.cov[np.ix_([ia, idc, il], [ia, idc, il])]
        T = np.array([[1, 0, 0], [0, 1, 0], [1, -1, 1.0]])
        mm.cov = T @ cv @ T.T
        out["branching_factor"] = _ratio_stats(mm, 2, 0)
        out["branching_at_decisions"] = _ratio_stats(m, il, idc)
        out["decision_share"] = _ratio_stats(m, idc, ia)
        off = self.k_full
        if self.has_lc:
            out["lead_changes"] = _mean_stats(m.mean[off], m.var(off + 0), n, m.min[off], m.max[off])
        else:
            out["lead_changes"] = None
        if self.has_lf:
            j = off + self.extra.index("decided_at")
            early, live = (int(x) for x in self.decided)
            out["decided"] = {"early": early, "early_rate": _f(early / n) if n else None, "early_ci95": wilson(early, n),
                              "at": _mean_stats(m.mean[j], m.var(j), n, m.min[j], m.max[j]),
                              "live": live, "measured": live > 0}
        else:
            out["decided"] = None
        mets = {}
        for i, name in enumerate(self.metric_names):
            j = off + len(self.extra) - len(self.metric_names) + i
            mets[name] = {**_mean_stats(m.mean[j], m.var(j), n, m.min[j], m.max[j]),
                          "hist": self.hists[name].to_dict()}
        out["metrics"] = mets
        out["histograms"] = {k: self.hists[k].to_dict() for k in [f"return_{p}" for p in range(P)] + ["actions", "decisions"]}
        out["running"] = {"n": list(self.run_n), "mean": list(self.run_mean), "sd": list(self.run_sd)}
        return out


_WORK = threading.local()       # per thread: the block matrix block_stats fills anew for every block


def _block_matrix(k: int, nb: int) -> np.ndarray:
    """A (k, nb) float64 matrix for block_stats, reused by the thread's next blocks of that shape:
    nothing block_stats returns refers to it (tests/test_stats.py), and a fresh matrix per block
    (2.6 MB for a 4-seat game) got fresh pages from the system each time, worst where the
    allocator returns memory eagerly (Dask workers run with a low MALLOC_TRIM_THRESHOLD_)."""
    X = getattr(_WORK, "X", None)
    if X is None or X.shape != (k, nb):
        X = _WORK.X = np.empty((k, nb))
    return X


def block_stats(b: dict, n0: int, P: int, extra, has_fp: bool) -> dict:
    """Statistics of one canonical block of rows (columns dict) starting at stream position n0
    (= the deal index of its first row). Pure: computed on the driver or on a worker, it gives
    the same numbers, which Accumulator.merge_block then merges in block order. The seat
    statistics come from the compiled `seat_block` (cardsim.core._blockstats), the numbers of
    `_seat_block_numpy` (tests/test_stats.py compares them)."""
    nb = len(b["actions"])
    kf = 2 * P + 3
    X = _block_matrix(kf + len(extra), nb)
    R = X[:P]
    for p in range(P):
        R[p] = b[f"return_{p}"]
    fp = b["first_player"].astype(np.int64) if has_fp else np.zeros(nb, np.int64)
    w = b["winners"].astype(np.int64)
    cps = checkpoints_upto(n0 + nb)
    cps = cps[cps > n0]
    at = cps - n0 - 1                       # the checkpoints' positions in the block
    seats = seat_block(X, P, fp, w, at)
    if seats is None:                       # a first player that is not a seat (a table from elsewhere)
        seats = _seat_block_numpy(X, P, fp, w, at)
    wins, rel_wins, draws, cs, cs2 = seats
    X[2 * P] = b["actions"]
    X[2 * P + 1] = b["decisions"]
    X[2 * P + 2] = b["legal_sum"]
    dec = decided_columns(b["lead_from"], b["actions"], P) if "decided_at" in extra else None
    for i, name in enumerate(extra):
        X[kf + i] = dec[name] if name in DECIDED else b[name]
    hists = {f"return_{p}": value_counts(R[p]) for p in range(P)}
    hists["actions"] = value_counts(X[2 * P])
    hists["decisions"] = value_counts(X[2 * P + 1])
    for i, name in enumerate(extra):
        if name not in DECIDED:
            hists[name] = value_counts(X[kf + i])
    checkpoints = [(c, cs[i].copy(), cs2[i].copy()) for i, c in enumerate(cps.tolist())]
    out = {"n0": n0, "n": nb, "moments": moments_of_block(X, kf), "draws": draws, "wins": wins,
           "rel_wins": rel_wins, "hists": hists, "checkpoints": checkpoints, "sum": R.sum(axis=1),
           "sum2": (R * R).sum(axis=1)}
    if dec is not None:
        out["decided"] = np.array([int(dec["decided_early"].sum()), int(dec["live"].sum())], np.int64)
    return out


def _seat_block_numpy(X: np.ndarray, P: int, fp: np.ndarray, w: np.ndarray, cols: np.ndarray) -> tuple:
    """seat_block in numpy: the reference it is tested against, and the path for first players
    that are not seats (np.take's indexing: -P .. -1 count from the end, others raise)."""
    nb = X.shape[1]
    R = X[:P]
    # idx[q, j] = (fp[j] + q) % P, the seat q places after deal j's first player, gathered from a
    # P x P table by np.take (C order; a modulo over P x nb int64 cost 9x more, 2026-12-04)
    idx = np.take((np.arange(P)[:, None] + np.arange(P)[None, :]) % P, fp, axis=1)
    # rel[q, j] = R[idx[q, j], j]: one flat take
    X[P:2 * P] = np.take(R.ravel(), idx * nb + np.arange(nb))
    wins = np.array([int(((w >> p) & 1).sum()) for p in range(P)], np.int64)
    rel_wins = ((w[None, :] >> idx) & 1).sum(axis=1).astype(np.int64)
    cs = np.zeros((len(cols), P))
    cs2 = np.zeros((len(cols), P))
    if len(cols):
        cs = np.ascontiguousarray(np.cumsum(R, axis=1)[:, cols].T)
        cs2 = np.ascontiguousarray(np.cumsum(R * R, axis=1)[:, cols].T)
    return wins, rel_wins, int((w == 0).sum()), cs, cs2


def winners_mask(R: np.ndarray) -> np.ndarray:
    """(count, P) returns -> int32 bitmask of the seats with the highest return (0: a draw, every
    seat equal)."""
    if R.shape[0] == 0:
        return np.zeros(0, np.int32)
    return winners_of_columns(np.ascontiguousarray(R.T))


def winners_of_columns(cols: np.ndarray) -> np.ndarray:
    """winners_mask of the returns given as P contiguous rows of count values (R.T: the runner
    has that copy already)."""
    P, n = cols.shape
    if n == 0:
        return np.zeros(0, np.int32)
    # column by column (a reduction along a row of P values costs numpy a loop per row: 12x slower)
    best = cols[0].copy()
    for c in cols[1:]:
        np.maximum(best, c, out=best)           # NaN anywhere in a row: best is NaN, no seat equals it
    mask = np.zeros(n, np.int32)
    for p in range(P):
        mask |= (cols[p] == best).astype(np.int32) << p
    mask[mask == (1 << P) - 1] = 0              # every seat equal: a draw
    return mask


# ---------------------------------------------------------------------------------------------
# two-sample tests (compare() in cardsim.analysis.compare uses them)
# ---------------------------------------------------------------------------------------------
def welch(ma, sa, na, mb, sb, nb) -> dict:
    """Difference mb - ma of two independent means (Welch's t interval and test)."""
    from scipy import stats

    d = (mb - ma) if (ma is not None and mb is not None) else None
    if d is None or na < 2 or nb < 2 or sa is None or sb is None:
        return {"a": ma, "b": mb, "diff": d, "ci95": (None, None), "p_value": None}
    va, vb = sa * sa / na, sb * sb / nb
    se = math.sqrt(va + vb)
    if se == 0:
        return {"a": ma, "b": mb, "diff": d, "ci95": (d, d), "p_value": 1.0 if d == 0 else 0.0}
    df = (va + vb) ** 2 / ((va * va / (na - 1) if na > 1 else 0) + (vb * vb / (nb - 1) if nb > 1 else 0) or 1e-300)
    h = float(stats.t.ppf(0.975, df)) * se
    p = stats.ttest_ind_from_stats(mb, sb, nb, ma, sa, na, equal_var=False).pvalue
    return {"a": ma, "b": mb, "diff": d, "ci95": (d - h, d + h), "p_value": float(p)}


def two_proportions(ka, na, kb, nb) -> dict:
    """Difference of two independent proportions: Newcombe's hybrid (Wilson) interval, z test."""
    from scipy import stats

    if na == 0 or nb == 0:
        return {"a": None, "b": None, "diff": None, "ci95": (None, None), "p_value": None}
    pa, pb = ka / na, kb / nb
    la, ua = wilson(ka, na)
    lb, ub = wilson(kb, nb)
    d = pb - pa
    lo = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    hi = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    pool = (ka + kb) / (na + nb)
    se = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
    p = 1.0 if se == 0 and d == 0 else (0.0 if se == 0 else float(2 * stats.norm.sf(abs(d) / se)))
    return {"a": pa, "b": pb, "diff": d, "ci95": (lo, hi), "p_value": p}


def paired_difference(x: np.ndarray, y: np.ndarray) -> dict:
    """Mean of y - x over paired rows (the same deals), t interval and test."""
    d = y - x
    n = len(d)
    m = float(d.mean()) if n else float("nan")
    sd = float(d.std(ddof=1)) if n > 1 else float("nan")
    return {"a": _f(x.mean()) if n else None, "b": _f(y.mean()) if n else None, "diff": _f(m),
            "ci95": t_interval(m, sd, n), "p_value": t_test(m, sd, n)}
