"""The engine's contracts, written once: every game keeps them at every step of every deal.

The conformance suite (tests/conformance) and the fuzzer (`cardsim.fuzz`) both call these
checks; the fuzzer's nogil kernel pass (`cardsim.core._fuzz`) keeps in C only the checks that must
run at kernel speed and reports them by the codes of `KERNEL`, whose texts live here.

Each check raises `ContractViolation` (an AssertionError, so pytest shows it as a failed
assertion) naming the contract that broke. The checks read a game only through the public State
API and its GameSpec (`card_total`, `deck_size`, `greedy_action`).

    step(game, state, legal)            cheap, every step: the legal set and the seat to act
    mask(state, legal)                  legal_mask agrees with legal_actions
    strings(state, legal, every=1)      every action's text parses back to it
    clone(state, legal)                 a clone is equal and independent
    observations(game, state)           shape, dtype and finiteness for every seat
    resample(game, state, p, seed, ...) what p knows is kept; the world is real (plays on)
    pickle_round_trip(state)            pickling gives back an equal state
    illegal_refused(game, state, bad)   illegal actions raise IllegalActionError, state unchanged
    actor_sees(before, after)           the actor's observation changes with its own action
    terminal(game, state)               the end: no seat to act, cards kept, returns well formed
    replay(game, state)                 the history on a fresh deal reproduces the state
"""
from __future__ import annotations

import pickle

import numpy as np

from cardsim.errors import CardsimError, IllegalActionError

PLAYOUT_LIMIT = 1_000_000        # a deal (or a resampled world) longer than this never ends

# What the kernel pass (cardsim.core._fuzz.fuzz_batch) checks, by the code it reports.
KERNEL = {
    1: "legal count disagrees with the legal set or with is_terminal",
    2: "a legal bit lies outside the action space",
    3: "the seat to act is not a seat",
    4: "the greedy agent chose an illegal action",
    5: "resample changed the observer's observation",
    6: "resample changed the observer's legal actions",
    7: "a resampled world reached a dead end or never ended",
    8: "returns are not finite",
    9: "returns are not zero-sum",
    10: "replaying the actions did not reproduce the final state",
    11: "a deal did not end within max_steps actions",
}


class ContractViolation(AssertionError):
    """An engine contract does not hold (the message names it)."""


def check(cond, what: str):
    if not cond:
        raise ContractViolation(what)


def conformance_configs(name: str) -> list[dict]:
    """The option dicts a game is checked under: its GameInfo's conformance_configs (at least the
    defaults)."""
    from cardsim.game import game_info

    return [dict(c) for c in game_info(name).conformance_configs] or [{}]


def step(game, st, la):
    """Every step before the end: a non-empty, ascending, unique int64 legal set inside the action
    space, a seat to act, every card accounted for."""
    check(len(la) > 0, "legal set empty before the end")
    check(la.dtype == np.int64, "legal actions are not int64")
    check(bool(np.all(np.diff(la) > 0)), "legal actions not ascending/unique")
    check(0 <= la[0] and la[-1] < game.num_actions, "legal action outside the action space")
    p = st.current_player
    check(0 <= p < game.num_players, f"seat to act {p} is not a seat")
    check(game.spec.card_total(st) == game.spec.deck_size, "cards not conserved")


def mask(st, la):
    m = st.legal_mask()
    check(m.sum() == len(la) and bool(m[la].all()), "legal_mask disagrees with legal_actions")


def strings(st, la, every: int = 1):
    """Every `every`-th legal action's text is a non-empty str that parses back to the action."""
    for a in la[::max(1, every)]:
        s = st.action_to_string(int(a))
        check(isinstance(s, str) and s != "", f"action {a} has no text")
        check(st.string_to_action(s) == int(a), f"action string {s!r} does not parse back to {a}")


def clone(st, la):
    """A clone equals the state (bytes and history) and is independent of it."""
    c = st.clone()
    check(c == st and c.history() == st.history(), "clone differs")
    c.apply(int(la[0]))
    check(c != st or len(la) == 0, "applying to a clone left it equal to the original")
    check(st.legal_actions().tolist() == la.tolist(), "applying to a clone changed the original")


def observations(game, st):
    """observation(p) of every seat: shape (observation_size,), float32, finite."""
    for p in range(game.num_players):
        o = st.observation(p)
        check(o.shape == (game.observation_size,) and o.dtype == np.float32 and bool(np.all(np.isfinite(o))),
              f"observation({p}) has the wrong shape/dtype or is not finite")


def playout(st, rng, each=None, limit: int = PLAYOUT_LIMIT) -> int:
    """Play `st` to the end with uniform random actions from numpy Generator `rng` (calling
    each(st, legal) before every action); returns the number of actions."""
    n = 0
    while not st.is_terminal():
        la = st.legal_actions()
        check(len(la) > 0, "a live state has no legal action (dead end)")
        if each is not None:
            each(st, la)
        st.apply(int(la[rng.integers(len(la))]))
        n += 1
        check(n < limit, f"a deal did not end within {limit} actions")
    return n


def resample(game, st, p, seed, rng=None, allow_failure=False):
    """st.resample(p, seed) keeps everything p knows (observation, hand, and the legal set when p
    is to act), keeps every card, and (given `rng`) is a real state that plays on to the end.
    With allow_failure an honest CardsimError ("no consistent world") is accepted. Returns the
    resampled state (None after an accepted failure)."""
    try:
        r = st.resample(p, seed)
    except CardsimError:
        if allow_failure:
            return None
        raise
    check(np.array_equal(r.observation(p), st.observation(p)), "resample changed the observer's observation")
    check(r.hand(p) == st.hand(p), "resample changed the observer's hand")
    if st.current_player == p:
        check(r.current_player == p and r.legal_actions().tolist() == st.legal_actions().tolist(),
              "resample changed the observer's legal actions")
    check(game.spec.card_total(r) == game.spec.deck_size, "resample broke card conservation")
    if st.is_terminal():
        check(r.is_terminal() and np.array_equal(r.returns(), st.returns()), "resample changed a finished deal")
    if rng is not None:
        playout(r.clone(), rng)
    return r


def pickle_round_trip(st):
    again = pickle.loads(pickle.dumps(st))
    check(again == st and again.history() == st.history(), "pickle round trip differs")
    check(np.array_equal(again.returns(), st.returns()), "pickle round trip changed the returns")


def illegal_refused(game, st, actions=()):
    """Each of `actions` (illegal ones), out-of-range integers and non-integers raise
    IllegalActionError and leave the state (bytes and history) unchanged."""
    before, hist = st.state_bytes(), st.history()
    for a in [*actions, -1, game.num_actions, 10**9, "1", 1.5, None]:
        try:
            st.apply(a if not isinstance(a, (int, np.integer)) else int(a))
        except IllegalActionError:
            continue
        raise ContractViolation(f"illegal action {a!r} was accepted")
    check(st.state_bytes() == before and st.history() == hist, "a refused action changed the state")


def actor_sees(before, after):
    """The actor's observation after its own action differs from the one before."""
    check(not np.array_equal(before, after), "the actor does not see its own action")


def terminal(game, st):
    """The end: no seat to act, no legal action, every card kept, returns of shape (P,) float64
    and finite (zero-sum where the game declares it), a phase and a text, and applying raises."""
    check(st.current_player == -1 and len(st.legal_actions()) == 0, "terminal state still has a seat to act")
    check(game.spec.card_total(st) == game.spec.deck_size, "cards not conserved at the end")
    r = st.returns()
    check(r.shape == (game.num_players,) and r.dtype == np.float64 and bool(np.all(np.isfinite(r))),
          "returns not finite float64 per seat")
    if game.returns_sum == "zero":
        check(abs(float(r.sum())) < 1e-6, f"returns {r.tolist()} not zero-sum")
    check(bool(st.phase) and bool(str(st)), "a finished deal has no phase or text")
    try:
        st.apply(0)
    except IllegalActionError:
        pass
    else:
        raise ContractViolation("an action was accepted after the end")


def replay(game, st):
    """Replaying st's history on a fresh new_state(seed, deal) reproduces st byte for byte."""
    rep = game.new_state(st.seed, st.deal)
    for a in st.history():
        rep.apply(a)
    check(rep == st, "replaying the history does not reproduce the state")


def deep(game, st, la, rng, seed, *, illegal_sample: int = 32, allow_resample_failure: bool = True):
    """The expensive checks of one step (the fuzzer's sampled steps): mask, a sample of the action
    strings, clone, observations, resample of the seat to act (played on), pickling, one illegal
    action refused."""
    mask(st, la)
    strings(st, la, every=max(1, len(la) // 6))
    clone(st, la)
    observations(game, st)
    resample(game, st, st.current_player, seed, rng, allow_failure=allow_resample_failure)
    pickle_round_trip(st)
    legal = set(la.tolist())
    bad = [int(a) for a in rng.permutation(game.num_actions)[:illegal_sample] if int(a) not in legal][:1]
    illegal_refused(game, st, bad)
