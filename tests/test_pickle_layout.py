"""A pickled State never has its raw bytes read under a struct layout they were not written in.

A replayable state (neither resampled nor built by a scenario helper) is rebuilt from its seed,
deal and history, so it loads under any build (a kernel change may change a game's struct); its
bytes, when pickled under this build's layout, must equal the replayed state's. A state that
cannot be replayed carries the layout digest of the build that pickled it and loads only under
that layout. Every game, the class of inputs: altered bytes, a foreign layout, a wrong size, a
history that does not replay, out-of-range history entries, pickles from before the digest."""
import pickle

import numpy as np
import pytest

import cardsim
from cardsim import CardsimError

GAMES = sorted(cardsim.GAMES)


def _mid(game, seed=5, steps=12):
    st = game.new_state(seed, 2)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        la = st.legal_actions()
        if len(la) == 0:
            break
        st.apply(int(rng.choice(la)))
    return st


def _flip(data, i):
    b = bytearray(data)
    b[i % len(b)] ^= 0xFF
    return bytes(b)


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return cardsim.make(request.param)


def test_replayable_round_trip_and_altered_bytes(game):
    st = _mid(game)
    assert st.replayable
    again = pickle.loads(pickle.dumps(st))
    assert again == st and again.history() == st.history() and again.replayable
    f, args = st.__reduce__()
    assert len(args) == 8 and isinstance(args[7], str)
    for i in (0, len(args[1]) // 2, len(args[1]) - 1):
        altered = list(args)
        altered[1] = _flip(args[1], i)
        if altered[1] == args[1]:
            continue
        with pytest.raises(CardsimError, match="differ from its replayed history"):
            f(*altered)
    assert st == _mid(game)                                  # the original is untouched


def test_replayable_pickle_from_another_layout_is_replayed(game):
    """A pickle from before layouts were recorded (7 arguments), or from a build with another
    layout, whose bytes no longer fit: the state comes back as its history replays."""
    st = _mid(game)
    f, args = st.__reduce__()
    legacy = list(args[:7])
    legacy[1] = _flip(args[1], 3)
    assert f(*legacy) == st
    foreign = list(args)
    foreign[1], foreign[7] = b"\x00" * (len(args[1]) + 8), "0" * 32
    assert f(*foreign) == st


def test_replayable_history_that_does_not_replay(game):
    st = _mid(game)
    f, args = st.__reduce__()
    for hist in (args[2] + [game.num_actions], args[2] + [-1], args[2][:-1] + ["x"], args[2] + [10**30]):
        bad = list(args)
        bad[2] = hist
        with pytest.raises(CardsimError, match="does not replay"):
            f(*bad)


def test_non_replayable_state_loads_only_under_its_layout(game):
    st = None
    for seed in range(1, 8):                                 # a state with a consistent world
        base = _mid(game, seed, steps=seed)
        try:
            st = base.resample(base.current_player, 11)
            break
        except CardsimError:
            continue
    assert st is not None, f"{game.name}: no resampled world in 7 states"
    assert not st.replayable
    again = pickle.loads(pickle.dumps(st))
    assert again == st and again.history() == st.history() and not again.replayable
    f, args = st.__reduce__()
    foreign = list(args)
    foreign[7] = "0" * 32
    with pytest.raises(CardsimError, match="layout differs"):
        f(*foreign)
    short = list(args)
    short[1] = args[1][:-1]
    with pytest.raises(CardsimError, match="do not match this build"):
        f(*short)
    for hist in ([game.num_actions], [-1], [1.5], [10**30]):
        bad = list(args)
        bad[2] = hist
        with pytest.raises(CardsimError, match="pickled history action"):
            f(*bad)
    assert f(*args[:7]) == st                                 # a pickle from before the digest: same size, loaded


def test_layout_digest_is_per_game_and_stable():
    from cardsim.core._engine import _layout_digest
    digests = {name: _layout_digest(cardsim.make(name).spec) for name in GAMES}
    assert len(set(digests.values())) == len(GAMES)
    assert all(_layout_digest(cardsim.make(name).spec) == d for name, d in digests.items())
