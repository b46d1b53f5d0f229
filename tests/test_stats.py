"""cardsim.stats: intervals, deterministic histograms and moments, the accumulator on synthetic
tables with known answers, and compare()."""
import json
import math
import pickle

import numpy as np
import pytest
from scipy import stats as sst

import cardsim
from cardsim import compare, stats
from cardsim.core._blockstats import comoments
from cardsim.stats import Accumulator, Hist, Moments, t_interval, value_counts, wilson, winners_mask, winners_of_columns


def test_wilson_known_values():
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (None, None)


def test_t_interval_matches_scipy():
    lo, hi = t_interval(2.0, 3.0, 25)
    want = sst.t.interval(0.95, 24, loc=2.0, scale=3.0 / 5)
    assert (lo, hi) == pytest.approx(want)
    assert t_interval(1.0, 1.0, 1) == (None, None)


def test_winners_mask():
    R = np.array([[1, 2, 2, 0], [3, 3, 3, 3], [-1, 0, -1, 0], [5, 1, 1, 1]], float)
    assert winners_mask(R).tolist() == [0b0110, 0, 0b1010, 0b0001]


def test_winners_mask_matches_a_row_by_row_reference():
    """winners_mask works column by column; a plain loop over the rows gives the same masks, ties,
    all-equal rows (0: a draw), NaN rows (0: no seat equals the maximum) and 1 to 12 seats included."""
    rng = np.random.default_rng(26)
    for P in (1, 2, 3, 4, 6, 12):
        R = rng.integers(-3, 4, size=(500, P)).astype(np.float64)
        R[::7] = 2.0                                          # every seat equal
        R[3::11, rng.integers(0, P)] = np.nan
        want = []
        for row in R:
            if np.isnan(row).any():
                want.append(0)
                continue
            top = [p for p in range(P) if row[p] == row.max()]
            want.append(0 if len(top) == P else sum(1 << p for p in top))
        got = winners_mask(R)
        assert got.dtype == np.int32 and got.tolist() == want, P
        assert winners_of_columns(np.ascontiguousarray(R.T)).tolist() == want, P   # the runner's entry
    assert winners_mask(np.zeros((0, 4))).shape == (0,)
    assert winners_of_columns(np.zeros((4, 0))).shape == (0,)


def test_hist_exact_and_coarsened_independent_of_splits():
    rng = np.random.default_rng(1)
    small = rng.integers(-5, 6, 1000).astype(float)
    h = Hist()
    h.add(small)
    d = h.to_dict()
    assert d["width"] == 0.0 and sum(d["counts"]) == 1000
    assert dict(zip(d["values"], d["counts"])) == {float(k): int(v) for k, v in zip(*np.unique(small, return_counts=True))}
    wide = rng.normal(0, 1000, 5000)
    a, b = Hist(), Hist()
    a.add(wide)
    assert a.to_dict()["width"] > 0 and len(a.to_dict()["values"]) <= stats.HIST_MAX_BINS
    assert sum(a.to_dict()["counts"]) == 5000
    for part in np.array_split(wide, 7):
        b.add(part)
    # coarsening may happen at a different moment, but each value lands in a bin of the final width
    w = max(a.width, b.width)
    aa = {}
    for k, n in a.counts.items():
        aa[math.floor(k / w) * w] = aa.get(math.floor(k / w) * w, 0) + n
    bb = {}
    for k, n in b.counts.items():
        bb[math.floor(k / w) * w] = bb.get(math.floor(k / w) * w, 0) + n
    assert aa == bb


def test_moments_merge_matches_numpy():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 1000)) + np.arange(5)[:, None]
    m = Moments(3, 2)
    for lo in range(0, 1000, 137):
        m.add_block(np.ascontiguousarray(X[:, lo:lo + 137]))
    assert m.n == 1000
    assert np.allclose(m.mean, X.mean(axis=1))
    assert np.allclose(m.covmat(), np.cov(X[:3]))
    assert m.var(4) == pytest.approx(X[4].var(ddof=1))
    assert np.array_equal(m.min, X.min(axis=1))


def _synthetic(n, P, seed, bias=0.0, draws=0.0):
    rng = np.random.default_rng(seed)
    R = rng.normal(size=(n, P))
    R[:, 0] += bias
    d = rng.random(n) < draws
    R[d] = 0.0
    actions = rng.integers(10, 20, n)
    decisions = np.minimum(actions, rng.integers(5, 15, n))
    cols = {"deal": np.arange(n), "winners": winners_mask(R), "first_player": rng.integers(0, P, n).astype(np.int8),
            "actions": actions.astype(np.int32), "decisions": decisions.astype(np.int32),
            "legal_sum": (decisions * 3).astype(np.int64), "m": rng.integers(0, 3, n).astype(float)}
    for p in range(P):
        cols[f"return_{p}"] = R[:, p].copy()
    return cols, R


def test_accumulator_known_answers():
    cols, R = _synthetic(3000, 3, 5, bias=0.3, draws=0.1)
    acc = Accumulator(3, ("m",))
    acc.add(cols)
    s = acc.finish().summary({"game": "synthetic"})
    assert s["game"] == "synthetic" and s["deals"] == 3000
    assert s["seats"][0]["mean"] == pytest.approx(R[:, 0].mean())
    # seat 0 has a real advantage: significant; seat balance rejected
    assert s["seats"][0]["advantage_p"] < 1e-6 and s["seats"][0]["advantage"] > 0.15
    assert s["seat_balance"]["p_value"] < 1e-6
    assert s["draws"]["count"] == int((cols["winners"] == 0).sum())
    lo, hi = s["draws"]["ci95"]
    assert lo < 0.1 < hi
    assert s["branching_at_decisions"]["value"] == pytest.approx(3.0)
    assert s["metrics"]["m"]["mean"] == pytest.approx(cols["m"].mean())
    assert s["metrics"]["m"]["hist"]["values"] == [0.0, 1.0, 2.0]
    # first player frame: position offsets are independent of the (random) first player: no advantage
    assert s["first_player"]["p_value"] > 1e-4
    json.dumps(s, allow_nan=False)


def test_balanced_synthetic_is_not_rejected():
    ps = []
    for seed in range(20):
        cols, _ = _synthetic(400, 4, 100 + seed)
        acc = Accumulator(4, ("m",))
        acc.add(cols)
        ps.append(acc.finish().summary()["seat_balance"]["p_value"])
    # under H0 p-values are uniform: far from all small
    assert np.mean(np.array(ps) < 0.05) <= 0.3
    assert np.median(ps) > 0.15


def test_partnership_singular_covariance():
    # seats 0 and 2, 1 and 3 always equal, zero-sum (as in a partnership game)
    rng = np.random.default_rng(3)
    x = rng.normal(0.2, 1, 2000)
    R = np.stack([x, -x, x, -x], axis=1)
    cols = {"deal": np.arange(2000), "winners": winners_mask(R), "first_player": np.zeros(2000, np.int8),
            "actions": np.ones(2000, np.int32), "decisions": np.ones(2000, np.int32),
            "legal_sum": np.full(2000, 2, np.int64)}
    for p in range(4):
        cols[f"return_{p}"] = R[:, p].copy()
    acc = Accumulator(4, ())
    acc.add(cols)
    s = acc.finish().summary()
    assert s["seat_balance"]["df"][0] == 1
    assert s["seat_balance"]["p_value"] < 1e-3
    assert s["seats"][0]["win_rate"] + s["seats"][1]["win_rate"] == pytest.approx(1.0)


def test_accumulator_same_for_any_feeding(monkeypatch):
    monkeypatch.setattr(stats, "BLOCK", 100)
    cols, _ = _synthetic(1234, 2, 9)
    outs = []
    for step in (1234, 7, 100, 333):
        acc = Accumulator(2, ("m",))
        for lo in range(0, 1234, step):
            acc.add({k: v[lo:lo + step] for k, v in cols.items()})
        outs.append(json.dumps(acc.finish().summary(), sort_keys=True))
    assert len(set(outs)) == 1


def test_compare_paired_and_independent(tmp_path):
    g = cardsim.GAMES[0]
    P = cardsim.make(g).num_players
    a = cardsim.simulate(g, deals=600, seed=1, agents="random", workers=2)
    b = cardsim.simulate(g, deals=600, seed=1, agents=["greedy"] + ["random"] * (P - 1), workers=2)
    c = compare(a, a)
    assert c["method"] == "paired"
    assert all(x["mean"]["diff"] == 0 for x in c["seats"])
    c = compare(a, b)
    d = b.returns()[:, 0] - a.returns()[:, 0]
    assert c["seats"][0]["mean"]["diff"] == pytest.approx(d.mean())
    lo, hi = c["seats"][0]["mean"]["ci95"]
    assert lo < d.mean() < hi
    assert 0 <= c["seats"][0]["mean"]["p_value"] <= 1
    assert c["seats"][0]["win_rate"]["diff"] == pytest.approx(b.summary()["seats"][0]["win_rate"] - a.summary()["seats"][0]["win_rate"])
    # independent: different seeds, or summaries only
    b2 = cardsim.simulate(g, deals=600, seed=2, agents=["greedy"] + ["random"] * (P - 1), workers=2)
    ci = compare(a, b2)
    assert ci["method"] == "independent"
    w = sst.ttest_ind(b2.returns()[:, 0], a.returns()[:, 0], equal_var=False)
    assert ci["seats"][0]["mean"]["p_value"] == pytest.approx(w.pvalue, rel=1e-6)
    a.save(tmp_path / "a.json")
    b.save(tmp_path / "b.parquet")
    cf = compare(str(tmp_path / "a.json"), tmp_path / "b.parquet")
    assert cf["method"] == "independent"
    assert cf["seats"][0]["mean"]["diff"] == pytest.approx(c["seats"][0]["mean"]["diff"])
    json.dumps(cf, allow_nan=False)


def test_hist_takes_any_finite_values():
    """A histogram of values spread over the whole float range (their span overflows to inf) or
    packed into subnormal magnitudes coarsens to at most HIST_MAX_BINS finite bins and keeps every
    count (the span once raised OverflowError)."""
    rng = np.random.default_rng(9)
    for v in (rng.uniform(-1, 1, 3000) * 1.7e308, rng.uniform(0, 1, 3000) * 1e-300,
              np.concatenate([np.full(10, -1.7e308), np.arange(600.0), np.full(5, 1.7e308)])):
        h = Hist()
        h.add(v)
        d = h.to_dict()
        assert 0 < len(d["values"]) <= stats.HIST_MAX_BINS and np.isfinite(d["width"]) and d["width"] > 0
        assert sum(d["counts"]) == len(v) and all(np.isfinite(d["values"]))


def test_value_counts_is_exact_for_any_finite_values():
    """value_counts (every histogram of a run) against np.unique: integers in a small span (counted
    by bincount), fractions, non-finite values dropped, and integral values far beyond int64
    (1e300 once raised OverflowError)."""
    rng = np.random.default_rng(5)
    cases = [rng.integers(-40, 40, 3000).astype(np.float64), rng.normal(size=500), np.array([1e300, 1e300, -1e300]),
             np.array([2.0 ** 62, 2.0 ** 62, 2.0 ** 62 + 1024]), np.array([np.nan, np.inf, -np.inf, 3.0, 3.0]),
             np.array([-0.0, 0.0, 1.0]), np.array([]), np.array([np.nan])]
    for v in cases:
        keys, cnt = value_counts(v)
        fin = v[np.isfinite(v)]
        k2, c2 = np.unique(fin, return_counts=True)
        assert keys.dtype == np.float64 and cnt.dtype == np.int64
        assert keys.tolist() == k2.tolist() and cnt.tolist() == c2.tolist(), v


def _block_cases():
    """Blocks of every length class of numpy's pairwise summation (below 8, one leaf of <= 128,
    splits at n / 2 rounded down to a multiple of 8, BLOCK and beyond), of integers, of large and
    tiny magnitudes, with infinities, NaNs and -0.0, with kf from 0 to k."""
    rng = np.random.default_rng(26)
    lengths = [1, 2, 7, 8, 9, 15, 16, 127, 128, 129, 136, 255, 256, 257, 1000, 8191, 8192, 8193,
               stats.BLOCK - 1, stats.BLOCK, 40_000]
    for i, nb in enumerate(lengths * 3):
        k = int(rng.integers(1, 22))
        kf = [0, k, int(rng.integers(0, k + 1))][i % 3]
        X = rng.standard_normal((k, nb)) * 10.0 ** int(rng.integers(-6, 9))
        if i % 2:
            X = np.round(X * 7)
        if i % 5 == 0:
            X[rng.integers(k), rng.integers(nb)] = [np.inf, -np.inf, np.nan, -0.0, 1e300][i % 25 // 5]
        yield X, kf


def _moments_numpy(xt: np.ndarray, kf: int) -> tuple:
    """stats.moments_of_block as numpy alone computed it before the co-moments were compiled (the
    reference they must equal bit for bit): a centred copy, then each pair's products summed."""
    nb = xt.shape[1]
    k = xt.shape[0]
    mn, mx = xt.min(axis=1), xt.max(axis=1)
    mb = xt.sum(axis=1) / nb
    xc = np.subtract(xt, mb[:, None])
    tmp = np.empty((max(kf, k - kf), nb))
    cb = np.empty((kf, kf))
    for i in range(kf):
        t = tmp[:kf - i]
        np.multiply(xc[i:kf], xc[i], out=t)
        cb[i, i:] = t.sum(axis=1)
        cb[i:, i] = cb[i, i:]
    t = tmp[:k - kf]
    np.multiply(xc[kf:], xc[kf:], out=t)
    m2b = t.sum(axis=1)
    return (nb, mb, cb, m2b, mn, mx)


def test_compiled_comoments_are_numpys_bit_for_bit():
    # the block statistics must not depend on which implementation ran: the compiled co-moments
    # are numpy's products and pairwise sums (a numpy that changed its summation fails here)
    n = 0
    with np.errstate(all="ignore"):
        for X, kf in _block_cases():
            got, want = stats.moments_of_block(X, kf), _moments_numpy(X, kf)
            assert got[0] == want[0] == X.shape[1]
            for a, b in zip(got[1:], want[1:]):
                assert a.shape == b.shape and a.tobytes() == b.tobytes(), (X.shape, kf)
            n += 1
    assert n == 63


def test_comoments_are_the_centred_products():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(6, 500)) * [[1], [2], [3], [4], [5], [6]]
    mb = X.sum(axis=1) / 500
    cb, m2b = comoments(X, mb, 4)
    xc = X - mb[:, None]
    assert np.allclose(cb, xc[:4] @ xc[:4].T) and np.array_equal(cb, cb.T)
    assert np.allclose(m2b, (xc[4:] ** 2).sum(axis=1))
    assert cb.shape == (4, 4) and m2b.shape == (2,)


@pytest.mark.parametrize("args, match", [
    ((np.zeros((3, 10)), np.zeros(2), 1), "mean has 2 values, the block 3 rows"),
    ((np.zeros((3, 10)), np.zeros(3), 4), "kf must be in 0..3, got 4"),
    ((np.zeros((3, 10)), np.zeros(3), -1), "kf must be in 0..3, got -1"),
    ((np.zeros((3, 0)), np.zeros(3), 1), "the block has no column"),
    ((np.zeros((3, 10))[:, ::2], np.zeros(3), 1), "contiguous"),
])
def test_comoments_rejects_what_it_cannot_read(args, match):
    with pytest.raises(ValueError, match=match):
        comoments(*args)


@pytest.mark.parametrize("P", [2, 3, 4, 5, 6, 12])
def test_compiled_seat_statistics_are_numpys(P):
    # the seat-relative returns, the win counts and the running sums at the checkpoints: the
    # compiled pass gives numpy's numbers, bit for bit (the running sums are in deal order, as np.cumsum)
    rng = np.random.default_rng(P)
    for nb in (1, 7, 300, stats.BLOCK):
        R = rng.normal(size=(P, nb)) * 10.0 ** int(rng.integers(-3, 6))
        if nb > 7:
            R[0, 3] = -0.0
            R[:, 5] = 2.5
        fp = rng.integers(0, P, nb).astype(np.int64)
        w = stats.winners_of_columns(R).astype(np.int64)
        cols = np.unique(rng.integers(0, nb, 9)).astype(np.int64)
        X1 = np.zeros((2 * P + 3, nb))
        X1[:P] = R
        X2 = X1.copy()
        got = stats.seat_block(X1, P, fp, w, cols)
        want = stats._seat_block_numpy(X2, P, fp, w, cols)
        assert X1.tobytes() == X2.tobytes()
        assert got[2] == want[2] == int((w == 0).sum())
        for a, b in zip(got[:2] + got[3:], want[:2] + want[3:]):
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        # and what they mean
        assert np.array_equal(got[0], [((w >> p) & 1).sum() for p in range(P)])
        assert np.array_equal(X1[P:2 * P][:, 0], np.roll(R[:, 0], -int(fp[0])))


def test_seat_statistics_leave_odd_first_players_to_numpy():
    # a first player that is not a seat (a table from elsewhere): the compiled pass declines and
    # block_stats keeps numpy's meaning (np.take: -1 is the last seat; P is out of range)
    X = np.zeros((7, 4))
    assert stats.seat_block(X, 2, np.array([0, 1, -1, 0]), np.zeros(4, np.int64), np.zeros(0, np.int64)) is None
    cols, _ = _synthetic(50, 3, 1)
    cols["first_player"][7] = -1
    b = stats.block_stats(cols, 0, 3, ["m"], True)
    cols["first_player"][7] = 2
    assert stats.block_stats(cols, 0, 3, ["m"], True)["rel_wins"].tolist() == b["rel_wins"].tolist()
    cols["first_player"][7] = 3
    with pytest.raises(IndexError):
        stats.block_stats(cols, 0, 3, ["m"], True)


@pytest.mark.parametrize("args, match", [
    ((np.zeros((3, 4)), 2, np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(0, np.int64)), "2 \\* P rows"),
    ((np.zeros((4, 4)), 0, np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(0, np.int64)), "1 <= P <= 64"),
    ((np.zeros((4, 4)), 2, np.zeros(3, np.int64), np.zeros(4, np.int64), np.zeros(0, np.int64)), "must have 4 values"),
    ((np.zeros((4, 4)), 2, np.zeros(4, np.int64), np.zeros(4, np.int64), np.array([2, 1])), "ascend within 0..3"),
    ((np.zeros((4, 4)), 2, np.zeros(4, np.int64), np.zeros(4, np.int64), np.array([4])), "ascend within 0..3"),
    ((np.zeros((4, 4)), 2, np.zeros(4, np.int64), np.zeros(4, np.int64), np.array([-1])), "ascend within 0..3"),
])
def test_seat_block_rejects_what_it_cannot_read(args, match):
    with pytest.raises(ValueError, match=match):
        stats.seat_block(*args)


def test_block_statistics_do_not_share_the_reused_block_matrix():
    # block_stats reuses one matrix per thread: nothing it returns may point into it
    cols, _ = _synthetic(300, 4, 5)
    a = stats.block_stats(cols, 0, 4, ["m"], True)
    snap = pickle.dumps(a)
    cols2, _ = _synthetic(300, 4, 6)
    stats.block_stats(cols2, 300, 4, ["m"], True)
    assert pickle.dumps(a) == snap
