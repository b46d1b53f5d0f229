"""Generic conformance suite (DESIGN §6): runs on every registered game and each of the
configurations its GameInfo lists in conformance_configs. The contracts themselves are written
once, in cardsim.contracts (the fuzzer calls the same checks)."""
import numpy as np
import pytest

import cardsim
from cardsim import IllegalActionError, ParseError, contracts
from cardsim.core._engine import kernel_actions

from ..conftest import game_configs

CONFIGS = game_configs()
SEEDS = range(6)


def random_playout(state, rng, check=None, limit=200_000):
    return contracts.playout(state, rng, check, limit)


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_playouts_invariants(name, opts):
    g = cardsim.make(name, **opts)
    rng = np.random.default_rng(1)

    def check(st, la):
        contracts.step(g, st, la)
        contracts.mask(st, la)

    for seed in SEEDS:
        st = g.new_state(seed=seed, deal=seed * 7)
        random_playout(st, rng, check)
        contracts.terminal(g, st)


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_every_legal_applies_illegal_raise_unchanged(name, opts):
    g = cardsim.make(name, **opts)
    rng = np.random.default_rng(2)
    for seed in range(3):
        st = g.new_state(seed=seed, deal=1)
        steps = 0
        while not st.is_terminal():
            la = st.legal_actions()
            legal = set(la.tolist())
            for a in la:
                c = st.clone()
                c.apply(int(a))
            # a sample of illegal ones (all of them early on)
            illegal = [a for a in range(g.num_actions) if a not in legal]
            if steps > 5 and len(illegal) > 12:
                illegal = list(rng.choice(illegal, 12, replace=False))
            contracts.illegal_refused(g, st, illegal)
            st.apply(int(la[rng.integers(len(la))]))
            steps += 1


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_strings_clone_replay_pickle(name, opts):
    g = cardsim.make(name, **opts)
    rng = np.random.default_rng(3)
    st = g.new_state(seed=11, deal=4)
    while not st.is_terminal():
        la = st.legal_actions()
        contracts.strings(st, la)
        for p in range(g.num_players):
            assert isinstance(st.hand(p), list)
        contracts.clone(st, la)
        c = st.clone()
        a = int(la[rng.integers(len(la))])
        c.apply(a)
        st.apply(a)
        assert c == st
    with pytest.raises(ParseError):
        st.string_to_action("@@not an action@@")
    contracts.replay(g, st)
    contracts.pickle_round_trip(st)


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_deals_deterministic(name, opts):
    g = cardsim.make(name, **opts)
    a = g.new_state(seed=5, deal=9)
    b = g.new_state(seed=5, deal=9)
    assert a == b
    differs = sum(g.new_state(seed=5, deal=d) != a for d in range(10, 20))
    assert differs >= 9


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_observation_and_resample(name, opts):
    g = cardsim.make(name, **opts)
    rng = np.random.default_rng(4)
    for seed in range(3):
        st = g.new_state(seed=seed, deal=2)
        step = 0
        while not st.is_terminal():
            actor = st.current_player
            obs_before = st.observation(actor)
            if step % 3 == 0:
                contracts.observations(g, st)
                for p in range(g.num_players):
                    # everything p knows is kept; the resampled state is a real state (plays to the end)
                    contracts.resample(g, st, p, step, rng)
            la = st.legal_actions()
            st.apply(int(la[rng.integers(len(la))]))
            contracts.actor_sees(obs_before, st.observation(actor))
            step += 1
    with pytest.raises(cardsim.CardsimError):
        st.observation(g.num_players)
    with pytest.raises(cardsim.CardsimError):
        st.hand(-1)


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_batch_kernel_agents_and_threads(name, opts):
    g = cardsim.make(name, **opts)
    n = 300
    base = cardsim.simulate(g, deals=n, seed=3, agents="random", workers=1)
    for workers, chunk in ((2, 7), (2, 300), (1, 1)):
        other = cardsim.simulate(g, deals=n, seed=3, agents="random", workers=workers, chunk_size=chunk)
        assert np.array_equal(base.table, other.table)
    # the batch kernel and the Python State API agree move by move (random and greedy agents)
    for codes in ([0] * g.num_players, [1] * g.num_players, [0, 1] * (g.num_players // 2) + [0] * (g.num_players % 2)):
        batch = g.spec.run_batch(9, 0, 3, codes)
        for d in range(3):
            acts = kernel_actions(g.spec, 9, d, codes)
            st = g.new_state(seed=9, deal=d)
            for a in acts:
                assert st.is_legal(a)
                st.apply(a)
            assert st.is_terminal()
            assert np.array_equal(st.returns(), batch["returns"][d])
            assert len(acts) == batch["actions"][d]
    greedy = cardsim.simulate(g, deals=200, seed=4, agents="greedy", workers=2)
    assert len(greedy.table) == 200
    r = base.returns()
    if g.returns_sum == "zero":
        assert np.allclose(r.sum(axis=1), 0)


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_ismcts_agent_plays_legal_deals(name, opts):
    """The generic ISMCTS (determinize with resample, search with the vtable) runs on every
    game: its moves replay through the Python API and the batch kernel agrees."""
    g = cardsim.make(name, **opts)
    codes = [3] + [0] * (g.num_players - 1)
    batch = g.spec.run_batch(21, 0, 2, codes, ismcts_iterations=16)
    for d in range(2):
        acts = kernel_actions(g.spec, 21, d, codes, ismcts_iterations=16)
        st = g.new_state(seed=21, deal=d)
        for a in acts:
            st.apply(a)
        assert st.is_terminal()
        assert np.array_equal(st.returns(), batch["returns"][d])


@pytest.mark.parametrize("name,opts", CONFIGS)
def test_terminal_state_observation_resample_and_search(name, opts):
    """After the end: observations still work, resample keeps the result, search refuses."""
    g = cardsim.make(name, **opts)
    st = g.new_state(seed=2, deal=3)
    random_playout(st, np.random.default_rng(0))
    for p in range(g.num_players):
        contracts.resample(g, st, p, 5)
    with pytest.raises(IllegalActionError):
        g.spec.ismcts_action(st)
    with pytest.raises(IllegalActionError):
        g.spec.greedy_action(st)
