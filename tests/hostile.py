"""Shared pieces of the per-game bad-input tests (tests/games/<game>/test_inputs.py): the hostile
values every argument is replaced by, the short-message rule, the fuzz loop over one valid call,
and random playouts that must never meet a dead end."""
import math

import numpy as np

from cardsim.errors import CardsimError

LONG = "Z" * 10_000
BAD = (None, 1.5, True, 10 ** 30, -1, math.nan, math.inf, LONG, [], [LONG], [["AS"]], ["AS"] * 60,
       {"a": 1}, object(), b"AS", ("AS", 3), np.float64(2.0))


def echo_ok(e):
    """The message stays short whatever the input. (Card-parse errors are raised by the shared
    cardsim.cards parser, which cuts its own echo; they are exempt here.)"""
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return len(str(e)) < 800 or tb.tb_frame.f_code.co_filename.endswith("cards.py")


def fuzz_call(fn, args, kwargs):
    """Every argument in turn replaced by every BAD value: a result or a typed error, never an
    untyped one; messages stay short whatever the input."""
    fn(*args, **kwargs)                                       # the valid call works
    for i in range(len(args)):
        for bad in BAD:
            a = list(args)
            a[i] = bad
            try:
                fn(*a, **kwargs)
            except CardsimError as e:
                assert echo_ok(e), (fn.__name__, i, len(str(e)))
    for k in kwargs:
        for bad in BAD:
            try:
                fn(*args, **{**kwargs, k: bad})
            except CardsimError as e:
                assert echo_ok(e), (fn.__name__, k, len(str(e)))


def uncovered(mod, calls, skip=("build",)):
    """Public functions of the face module `mod` that no (function, args, kwargs) of `calls` covers."""
    import inspect

    covered = {(f.__module__, f.__name__) for f, _, _ in calls}
    return [name for name, fn in vars(mod).items()
            if not name.startswith("_") and name not in skip and inspect.isfunction(fn)
            and fn.__module__ == mod.__name__ and (mod.__name__, name) not in covered]


def playouts(st, rng, limit, n=3):
    """n random playouts from a clone of st: no dead end, at most `limit` actions."""
    for _ in range(n):
        s = st.clone()
        k = 0
        while not s.is_terminal():
            la = s.legal_actions()
            assert len(la), f"dead state: no legal action in a live state\n{s}"
            s.apply(int(la[rng.integers(len(la))]))
            k += 1
            assert k <= limit, "endless game"
