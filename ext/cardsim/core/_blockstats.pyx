"""The compiled half of cardsim.stats' block statistics: the co-moments of one canonical block
(`comoments`) and its seat statistics (`seat_block`: returns by offset from the first player, win
counts, running sums at the checkpoints), each numpy's numbers bit for bit.

`stats.moments_of_block` needs, per block of up to BLOCK deals, the centred co-moment matrix of
its first kf rows (the returns, the returns by offset from the first player, the three duration
counters) and the centred sums of squares of the other rows. In numpy that is a centred copy of
the block, then a product row and a pairwise-summed reduction for each of the kf (kf + 1) / 2 + (k
- kf) pairs: two large temporaries per block (fresh pages when the allocator hands them back to the
system) and some hundred ufunc calls under the GIL, most of simulate()'s statistics time.

`comoments` computes the same numbers in one nogil pass with no large temporary, and gives them
bit for bit: each sum is numpy's own pairwise summation of the same products (the reduction
`ndarray.sum(axis=1)` of a C-contiguous float64 row, numpy's `pairwise_sum`: leaves of at most
PW_BLOCKSIZE = 128 values summed with 8 accumulators, a longer range split at n / 2 rounded down
to a multiple of 8, left + right, the whole added to the reduction's identity 0.0), and each
product is the same IEEE product of the same centred values (x - mean, with the mean numpy
computed). The recursion's leaves are the same for every pair, so the block is walked leaf by
leaf: the k centred rows of one leaf (at most 128 values each) are made once, in a small buffer,
and every pair's leaf sum is taken from them. tests/test_stats.py checks the result against the
numpy computation byte for byte (random blocks of every length class, integers, large and tiny
magnitudes, infinities and NaNs), so a numpy that changed its summation would fail there.

The module is compiled without floating-point contraction (no fused multiply-add: numpy rounds
the product before the sum) and imports nothing from cardsim.
"""
import numpy as np

from libc.stdlib cimport malloc, free
from libc.stdint cimport int64_t

cdef enum:
    PW_BLOCK = 128           # numpy's PW_BLOCKSIZE: pairwise_sum sums a range this long or shorter directly
    MAX_DEPTH = 64           # halvings of a Py_ssize_t range down to PW_BLOCK (at most ~56)


cdef inline double leaf_dot(const double* a, const double* b, Py_ssize_t n) noexcept nogil:
    """numpy's pairwise_sum of the n <= PW_BLOCK products b[i] * a[i] (each rounded before it is
    added: the module is compiled without contraction): in order below 8, else 8 accumulators
    over the multiple of 8, combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then
    the rest in order."""
    cdef double res, r0, r1, r2, r3, r4, r5, r6, r7
    cdef Py_ssize_t i, m
    if n < 8:
        res = 0.0
        for i in range(n):
            res += b[i] * a[i]
        return res
    r0 = b[0] * a[0]
    r1 = b[1] * a[1]
    r2 = b[2] * a[2]
    r3 = b[3] * a[3]
    r4 = b[4] * a[4]
    r5 = b[5] * a[5]
    r6 = b[6] * a[6]
    r7 = b[7] * a[7]
    m = n - n % 8
    i = 8
    while i < m:
        r0 += b[i] * a[i]
        r1 += b[i + 1] * a[i + 1]
        r2 += b[i + 2] * a[i + 2]
        r3 += b[i + 3] * a[i + 3]
        r4 += b[i + 4] * a[i + 4]
        r5 += b[i + 5] * a[i + 5]
        r6 += b[i + 6] * a[i + 6]
        r7 += b[i + 7] * a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += b[i] * a[i]
        i += 1
    return res


ctypedef struct Work:
    const double* x          # the block: k rows of nb values (row r at x + r * nb)
    const double* mean       # the k row means
    Py_ssize_t nb
    int k
    int kf
    int npairs               # kf (kf + 1) / 2 co-moments, then k - kf squares
    double* xc               # k * PW_BLOCK: one leaf's centred rows
    double* levels           # MAX_DEPTH * npairs: the right halves' sums, one vector per depth


cdef void leaf_pairs(Work* w, Py_ssize_t lo, Py_ssize_t n, double* out) noexcept nogil:
    """out[p] = the leaf sum (leaf_dot) of pair p's products over positions lo .. lo + n - 1."""
    cdef int r, i, j, p = 0
    cdef Py_ssize_t t
    cdef const double* src
    cdef double* dst
    cdef double* a
    cdef double mu
    for r in range(w.k):
        src = w.x + r * w.nb + lo
        dst = w.xc + r * PW_BLOCK
        mu = w.mean[r]
        for t in range(n):
            dst[t] = src[t] - mu
    for i in range(w.kf):
        a = w.xc + i * PW_BLOCK
        for j in range(i, w.kf):
            out[p] = leaf_dot(a, w.xc + j * PW_BLOCK, n)
            p += 1
    for i in range(w.kf, w.k):
        a = w.xc + i * PW_BLOCK
        out[p] = leaf_dot(a, a, n)
        p += 1


cdef void pair_sums(Work* w, Py_ssize_t lo, Py_ssize_t n, double* out, int depth) noexcept nogil:
    """out[p] = numpy's pairwise_sum of pair p's products over positions lo .. lo + n - 1: a
    leaf directly, else the left half (n / 2 rounded down to a multiple of 8) + the right half."""
    cdef Py_ssize_t n2
    cdef double* right
    cdef int p
    if n <= PW_BLOCK:
        leaf_pairs(w, lo, n, out)
        return
    n2 = n // 2
    n2 -= n2 % 8
    right = w.levels + depth * w.npairs
    pair_sums(w, lo, n2, out, depth + 1)
    pair_sums(w, lo + n2, n - n2, right, depth + 1)
    for p in range(w.npairs):
        out[p] = out[p] + right[p]


def comoments(const double[:, ::1] xt not None, const double[::1] mean not None, int kf):
    """The co-moments of a block as stats.moments_of_block computes them with numpy, bit for bit:
    with xc = xt - mean[:, None], cb[i, j] = (xc[j] * xc[i]).sum() for i <= j < kf (cb symmetric)
    and m2b[i - kf] = (xc[i] * xc[i]).sum() for kf <= i < k, each sum numpy's pairwise summation.
    xt: (k, nb) C-contiguous float64 with nb >= 1; mean: its k row means; 0 <= kf <= k.
    Returns (cb, m2b): a (kf, kf) and a (k - kf,) float64 array."""
    cdef int k = xt.shape[0]
    cdef Py_ssize_t nb = xt.shape[1]
    if mean.shape[0] != k:
        raise ValueError(f"comoments: mean has {mean.shape[0]} values, the block {k} rows")
    if not 0 <= kf <= k:
        raise ValueError(f"comoments: kf must be in 0..{k}, got {kf}")
    if nb < 1:
        raise ValueError("comoments: the block has no column")
    cb = np.empty((kf, kf))
    m2b = np.empty(k - kf)
    cdef double[:, ::1] cbv = cb
    cdef double[::1] m2v = m2b
    cdef Work w
    cdef int i, j, p
    cdef double* sums
    w.x = &xt[0, 0] if k else NULL
    w.mean = &mean[0] if k else NULL
    w.nb = nb
    w.k = k
    w.kf = kf
    w.npairs = kf * (kf + 1) // 2 + (k - kf)
    if w.npairs == 0:
        return cb, m2b
    w.xc = <double*>malloc(sizeof(double) * (k * PW_BLOCK + (MAX_DEPTH + 1) * w.npairs))
    if w.xc == NULL:
        raise MemoryError()
    sums = w.xc + k * PW_BLOCK
    w.levels = sums + w.npairs
    try:
        with nogil:
            pair_sums(&w, 0, nb, sums, 0)
            p = 0
            for i in range(kf):
                for j in range(i, kf):
                    cbv[i, j] = 0.0 + sums[p]       # the reduction's identity, as numpy adds it
                    cbv[j, i] = cbv[i, j]
                    p += 1
            for i in range(k - kf):
                m2v[i] = 0.0 + sums[p]
                p += 1
    finally:
        free(w.xc)
    return cb, m2b



def seat_block(double[:, ::1] X not None, int P, const int64_t[::1] fp not None, const int64_t[::1] w not None,
               const int64_t[::1] cps not None):
    """The seat statistics of a block whose returns are X's first P rows (X[p, j]: seat p's
    return in deal j), in one nogil pass, the numbers stats.block_stats computed with numpy:

    - X's rows P .. 2P - 1 receive the returns by offset from the first player: X[P + q, j] =
      X[(fp[j] + q) % P, j];
    - wins[p]: the deals whose winners mask w[j] has bit p; rel_wins[q]: the deals whose mask has
      the bit of the seat q places after the first player; draws: the deals with w[j] == 0;
    - cs, cs2 (len(cps), P): the running sums of the returns and of their squares (each square
      rounded, then added in deal order, as np.cumsum of R and of R * R) up to and including deal
      cps[i] (ascending, each in 0 .. nb - 1).

    Returns (wins, rel_wins, draws, cs, cs2), or None when some fp[j] is not a seat (0 .. P - 1):
    the caller then takes numpy's path, whose indexing says what such a value means."""
    cdef Py_ssize_t nb = X.shape[1], j, i, ncp = cps.shape[0], nxt
    cdef int p, q, s
    if not 1 <= P <= 64 or X.shape[0] < 2 * P:
        raise ValueError(f"seat_block: need 1 <= P <= 64 and 2 * P rows, got P={P}, {X.shape[0]} rows")
    if fp.shape[0] != nb or w.shape[0] != nb:
        raise ValueError(f"seat_block: fp and w must have {nb} values, got {fp.shape[0]} and {w.shape[0]}")
    for i in range(ncp):
        if not 0 <= cps[i] < nb or (i and cps[i] <= cps[i - 1]):
            raise ValueError(f"seat_block: checkpoints must ascend within 0..{nb - 1}")
    for j in range(nb):
        if not 0 <= fp[j] < P:
            return None
    wins = np.zeros(P, np.int64)
    rel_wins = np.zeros(P, np.int64)
    cs = np.zeros((ncp, P))
    cs2 = np.zeros((ncp, P))
    cdef int64_t[::1] wv = wins
    cdef int64_t[::1] rv = rel_wins
    cdef double[:, ::1] csv = cs
    cdef double[:, ::1] cs2v = cs2
    cdef int64_t draws = 0, m
    cdef double x, run, run2
    with nogil:
        for j in range(nb):
            m = w[j]
            draws += m == 0
            s = <int>fp[j]
            for q in range(P):
                X[P + q, j] = X[s, j]
                rv[q] += (m >> s) & 1
                s += 1
                if s == P:
                    s = 0
            for p in range(P):
                wv[p] += (m >> p) & 1
        if ncp:
            for p in range(P):
                i = 0
                nxt = cps[0]
                run = X[p, 0]                   # np.cumsum: the first value, then each added
                run2 = X[p, 0] * X[p, 0]
                j = 0
                while True:
                    if j == nxt:
                        csv[i, p] = run
                        cs2v[i, p] = run2
                        i += 1
                        if i == ncp:
                            break
                        nxt = cps[i]
                    j += 1
                    x = X[p, j]
                    run = run + x
                    run2 = run2 + x * x
    return wins, rel_wins, int(draws), cs, cs2
