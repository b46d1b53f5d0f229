"""legal_actions() recycles its arrays (core/_legal_pool.pxi): an array comes back to the pool only
when nothing else refers to it, so an array a caller keeps — or keeps a view, a memoryview, a
weak reference or the storage of — is never changed, and a recycled array is as fresh as a new one."""
import gc
import threading
import warnings
import weakref

import numpy as np
import pytest

import cardsim


def _legal_list(s):
    return [a for a in range(s.spec.num_actions) if s.is_legal(a)]


def _check_fresh(arr, s):
    assert isinstance(arr, np.ndarray) and type(arr) is np.ndarray
    assert arr.dtype == np.int64 and arr.ndim == 1 and arr.shape == (len(arr),)
    assert arr.flags.c_contiguous and arr.flags.writeable and arr.flags.aligned
    assert arr.strides == (8,)
    assert arr.tolist() == _legal_list(s)


@pytest.mark.parametrize("name", ["joffre_whist", "samba", "zhao_pengyou", "hearts"])
def test_kept_arrays_never_change(name):
    """Random playouts keeping every array legal_actions() returned (and a copy of it): at the end
    each kept array still equals its copy; dropped ones were recycled meanwhile."""
    g = cardsim.make(name)
    rng = np.random.default_rng(5)
    kept = []
    for d in range(3):
        s = g.new_state(2, d)
        while True:
            la = s.legal_actions()
            _check_fresh(la, s)
            if len(la) == 0:
                break
            if rng.random() < 0.3:
                kept.append((la, la.copy()))
            s.apply(la[rng.integers(len(la))])
            if len(kept) > 200:
                break
    for arr, copy in kept:
        assert np.array_equal(arr, copy)


def test_dropped_arrays_are_recycled():
    """The pool works: a dropped array is handed out again (the same object, its data on the
    pool's own storage: a bytearray base, which a plain new array would not have), and fresh."""
    g = cardsim.make("joffre_whist")
    s = g.new_state(1, 0)
    a = s.legal_actions()
    ident, base = id(a), id(a.base)
    assert isinstance(a.base, bytearray) and not a.flags.owndata
    s.apply(a[0])
    del a
    b = s.legal_actions()
    assert id(b) == ident and id(b.base) == base
    _check_fresh(b, s)


@pytest.mark.parametrize("hold", ["view", "memoryview", "base", "weakref", "list", "frombuffer"])
def test_held_arrays_are_not_recycled(hold):
    g = cardsim.make("joffre_whist")
    s = g.new_state(1, 3)
    a = s.legal_actions()
    copy = a.copy()
    if hold == "view":
        keep = a[1:]
        expect = copy[1:]
    elif hold == "memoryview":
        keep = memoryview(a)
        expect = copy
    elif hold == "base":
        keep = a.base
        expect = copy.tobytes()
    elif hold == "weakref":
        keep = weakref.ref(a)
        expect = None
    elif hold == "list":
        keep = [a]
        expect = copy
    else:
        keep = np.frombuffer(a, dtype=np.int64)
        expect = copy
    del a
    gc.collect()
    arrays = []
    t = s.clone()
    for _ in range(30):                    # many later calls, on other positions
        la = t.legal_actions()
        arrays.append(la)
        if len(la) == 0:
            break
        t.apply(la[-1])
    if hold == "view":
        assert np.array_equal(keep, expect)
    elif hold == "memoryview":
        assert np.array_equal(np.asarray(keep), expect)
    elif hold == "base":
        assert bytes(keep[:len(expect)]) == expect
    elif hold == "weakref":
        held = keep()
        assert held is None or np.array_equal(held, copy)
    elif hold == "list":
        assert np.array_equal(keep[0], expect)
    else:
        assert np.array_equal(keep, expect)


@pytest.mark.parametrize("spoil", ["dtype", "shape", "readonly", "strides", "fill"])
def test_changed_arrays_come_back_fresh(spoil):
    """An array the caller changed and dropped is never handed out changed."""
    g = cardsim.make("hearts")
    s = g.new_state(1, 0)
    for _ in range(8):
        a = s.legal_actions()
        if spoil == "dtype":
            a.dtype = np.int32
        elif spoil == "shape":
            a.shape = (len(a), 1)
        elif spoil == "readonly":
            a.setflags(write=False)
        elif spoil == "strides":
            with warnings.catch_warnings():       # deprecated in NumPy 2.4, still possible
                warnings.simplefilter("ignore", DeprecationWarning)
                a.strides = (0,)
        else:
            a[:] = -1
        del a
        b = s.legal_actions()
        _check_fresh(b, s)
        s.apply(b[0])
        del b


def test_more_arrays_than_the_pool():
    """Holding many arrays at once: each correct, and each unchanged afterwards."""
    g = cardsim.make("basra")
    s = g.new_state(4, 4)
    held = [s.legal_actions() for _ in range(40)]
    for a in held:
        _check_fresh(a, s)
    ref = held[0].copy()
    s.apply(held[0][0])
    more = [s.legal_actions() for _ in range(10)]
    for a in held:
        assert np.array_equal(a, ref)
    for a in more:
        _check_fresh(a, s)


def test_threads_share_the_pool_safely():
    """Several Python threads stepping their own states at once: every array is right."""
    g = cardsim.make("gleek")
    errors = []

    def run(seed):
        try:
            rng = np.random.default_rng(seed)
            for d in range(4):
                s = g.new_state(seed, d)
                while True:
                    la = s.legal_actions()
                    assert la.tolist() == _legal_list(s)
                    if len(la) == 0:
                        break
                    s.apply(la[rng.integers(len(la))])
        except Exception as e:             # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
