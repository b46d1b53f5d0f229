"""Invariant fuzzing at kernel speed: play deals with random and greedy agents over the vtable in
one nogil loop, checking the engine's contracts at every step (see `cardsim.fuzz`).

Per step: the legal count is 0 exactly when the state is terminal, agrees with the set's
popcount, and no bit lies outside the action space; the seat to act is a seat (-1 only at the
end); the greedy agent picks a legal action. Every `deep_every` steps: resample for the seat to
act (a copy) either reports failure or keeps that seat's observation and legal set bit for bit,
and the resampled world plays on (random) to a terminal state without a dead end. At the end of
a deal: finite returns, zero-sum when the game declares it, and replaying the recorded actions
on a fresh deal reproduces the final state byte for byte (determinism).
"""
from libc.string cimport memcpy, memcmp, memset
from libc.math cimport isfinite, fabs
from cpython.mem cimport PyMem_Malloc, PyMem_Free

from cardsim.core._types cimport int32_t, int64_t, uint64_t, MAX_PLAYERS, MAX_ACTION_WORDS
from cardsim.core._rng cimport Rng, rng_seed, rng_below, STREAM_DEAL, STREAM_SEAT0
from cardsim.core._actions cimport ActionSet, as_count, as_nth, as_has
from cardsim.core._engine cimport GameSpec
from cardsim.core._game cimport GameVTable
from cardsim.core._bits cimport bit_below


cdef enum:
    STREAM_FUZZ = 0x200

# The contract each code names: cardsim.contracts.KERNEL (the one list; this kernel keeps only the
# checks that must run in C at kernel speed).


cdef int _check_legal(const GameVTable* vt, const void* cfg, const void* st, ActionSet* las, int nw,
                      int num_actions, int P, int* n_out) noexcept nogil:
    """0 if the legal set, its count and the seat to act keep their contracts, else a violation
    code (cardsim.contracts.KERNEL)."""
    cdef int n = vt.legal(st, cfg, las), i, valid, p
    n_out[0] = n
    if n != as_count(las, nw) or (n == 0) != (vt.is_terminal(st, cfg) != 0):
        return 1
    for i in range(nw):
        valid = num_actions - (i << 6)
        if valid < 64 and (las.w[i] & ~bit_below(valid if valid > 0 else 0)):
            return 2
    p = vt.current_player(st, cfg)
    if (n > 0 and not (0 <= p < P)) or (n == 0 and p != -1):
        return 3
    return 0


def fuzz_batch(GameSpec spec, uint64_t seed, int64_t start, int64_t count, int greedy_mask=0,
               int deep_every=8, long max_steps=200_000):
    """Fuzz deals start..start+count-1 of `seed`. Seat p plays greedy when bit p of greedy_mask
    is set, else random. Returns {"deals", "actions", "resamples", "resample_failures", "violation"}:
    violation 0 when every contract held; else the code of the first broken one (its text:
    cardsim.contracts.KERNEL) with "deal", "step" and "history" (the deal's actions so far); the
    counts then stop at that deal."""
    cdef int P = spec.num_players, nw = spec.action_words, A = spec.num_actions, S = spec.state_size
    cdef int O = spec.obs_size
    cdef const GameVTable* vt = &spec.vt
    cdef const void* cfg = spec.cfg
    cdef bint zero = spec.returns_sum == "zero"
    cdef char* st = <char*>PyMem_Malloc(S)
    cdef char* det = <char*>PyMem_Malloc(S)
    cdef char* rep = <char*>PyMem_Malloc(S)
    cdef float* o1 = <float*>PyMem_Malloc(O * sizeof(float))
    cdef float* o2 = <float*>PyMem_Malloc(O * sizeof(float))
    cdef int32_t* hist = <int32_t*>PyMem_Malloc(max_steps * sizeof(int32_t))
    if not (st and det and rep and o1 and o2 and hist):
        PyMem_Free(st); PyMem_Free(det); PyMem_Free(rep); PyMem_Free(o1); PyMem_Free(o2); PyMem_Free(hist)
        raise MemoryError()
    cdef Rng r, fr
    cdef Rng ar[MAX_PLAYERS]
    cdef ActionSet las, las2
    cdef double ret[MAX_PLAYERS]
    cdef double tot
    cdef int64_t d, bad_deal = -1
    cdef long k = 0, actions = 0, resamples = 0, rfail = 0, m
    cdef int n, n2, p, a, i, code = 0
    try:
        with nogil:
            for d in range(start, start + count):
                rng_seed(&r, seed, <uint64_t>d, STREAM_DEAL)
                rng_seed(&fr, seed, <uint64_t>d, STREAM_FUZZ)
                for p in range(P):
                    rng_seed(&ar[p], seed, <uint64_t>d, STREAM_SEAT0 + p)
                memset(st, 0, S)
                vt.init(st, cfg, &r)
                k = 0
                while True:
                    code = _check_legal(vt, cfg, st, &las, nw, A, P, &n)
                    if code or n == 0:
                        break
                    p = vt.current_player(st, cfg)
                    if k % deep_every == 0:
                        memcpy(det, st, S)
                        resamples += 1
                        if vt.resample(det, cfg, p, &fr):
                            memset(o1, 0, O * sizeof(float))
                            memset(o2, 0, O * sizeof(float))
                            vt.observe(st, cfg, p, o1)
                            vt.observe(det, cfg, p, o2)
                            if memcmp(o1, o2, O * sizeof(float)) != 0:
                                code = 5
                                break
                            n2 = vt.legal(det, cfg, &las2)
                            if n2 != n or memcmp(&las, &las2, nw * sizeof(uint64_t)) != 0:
                                code = 6
                                break
                            m = 0
                            while n2 > 0 and m < max_steps:
                                vt.apply(det, cfg, as_nth(&las2, nw, <int>rng_below(&fr, <unsigned int>n2)))
                                n2 = vt.legal(det, cfg, &las2)
                                m += 1
                                if n2 == 0 and not vt.is_terminal(det, cfg):
                                    break
                            if n2 != 0 or not vt.is_terminal(det, cfg):
                                code = 7
                                break
                        else:
                            rfail += 1
                    if (greedy_mask >> p) & 1:
                        a = vt.greedy(st, cfg, &las, n, &ar[p])
                        if a < 0 or a >= A or not as_has(&las, a):
                            code = 4
                            break
                    else:
                        a = as_nth(&las, nw, <int>rng_below(&ar[p], <unsigned int>n))
                    vt.apply(st, cfg, a)
                    hist[k] = a
                    k += 1
                    if k >= max_steps:
                        code = 11
                        break
                if code:
                    bad_deal = d
                    break
                actions += k
                vt.returns(st, cfg, ret)
                tot = 0
                for p in range(P):
                    if not isfinite(ret[p]):
                        code = 8
                    tot += ret[p]
                if code == 0 and zero and fabs(tot) > 1e-6:
                    code = 9
                if code == 0:
                    rng_seed(&r, seed, <uint64_t>d, STREAM_DEAL)
                    memset(rep, 0, S)
                    vt.init(rep, cfg, &r)
                    for i in range(k):
                        vt.apply(rep, cfg, hist[i])
                    if memcmp(rep, st, S) != 0:
                        code = 10
                if code:
                    bad_deal = d
                    break
        out = {"deals": count, "actions": actions, "resamples": resamples, "resample_failures": rfail,
               "violation": code}
        if code:
            out.update(deals=bad_deal - start, deal=bad_deal, step=k,
                       history=[hist[i] for i in range(min(k, max_steps))])
        return out
    finally:
        PyMem_Free(st); PyMem_Free(det); PyMem_Free(rep); PyMem_Free(o1); PyMem_Free(o2); PyMem_Free(hist)
