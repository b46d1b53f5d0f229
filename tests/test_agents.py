import numpy as np
import pytest

import cardsim
from cardsim.agents import FirstAgent, GreedyAgent, RandomAgent, from_name


@pytest.mark.parametrize("agent", [RandomAgent(1), FirstAgent(), GreedyAgent()])
def test_python_agents_play_legal_moves_to_the_end(agent):
    g = cardsim.make("joffre_whist", all_pass="dealer_bids")
    st = g.new_state(seed=2, deal=3)
    while not st.is_terminal():
        a = agent.act(st)
        assert st.is_legal(a)
        st.apply(a)


def test_greedy_agent_matches_kernel_greedy():
    # the Python GreedyAgent and the batch kernel's greedy choose identically (the Joffre
    # heuristic draws no random numbers)
    from cardsim.core._engine import kernel_actions

    g = cardsim.make("joffre_whist")
    acts = kernel_actions(g.spec, 4, 0, [1, 1, 1, 1])
    st = g.new_state(seed=4, deal=0)
    agent = GreedyAgent()
    for a in acts:
        assert agent.act(st) == a
        st.apply(a)
    assert st.is_terminal()


def test_from_name():
    assert isinstance(from_name("random", 3), RandomAgent)
    with pytest.raises(cardsim.ConfigError):
        from_name("minimax")


def test_ismcts_beats_random_at_joffre_whist():
    g = cardsim.make("joffre_whist")
    n = 60
    a = g.spec.run_batch(3, 0, n, [3, 0, 3, 0], ismcts_iterations=64)["returns"][:, 0]
    b = g.spec.run_batch(3, n, n, [0, 3, 0, 3], ismcts_iterations=64)["returns"][:, 1]
    x = np.concatenate([a, b])
    assert x.mean() - 1.96 * x.std(ddof=1) / np.sqrt(len(x)) > 0


def test_ismcts_agent_object_is_deterministic_and_legal():
    from cardsim.agents import ISMCTSAgent

    g = cardsim.make("karnoffel")
    st = g.new_state(seed=1, deal=2)
    raw = st.state_bytes()
    a1 = ISMCTSAgent(iterations=50, seed=9).act(st)
    a2 = ISMCTSAgent(iterations=50, seed=9).act(st)
    assert a1 == a2 and st.is_legal(a1) and st.state_bytes() == raw
    with pytest.raises(cardsim.CardsimError):
        g.spec.ismcts_action(st, iterations=0)


def test_agent_codes_and_defaults_live_in_the_engine_once():
    """cardsim.agents reads the kernel's codes and the search defaults from the engine."""
    from cardsim import agents
    from cardsim.core import _engine

    assert agents.AGENT_CODES == _engine.AGENT_CODES
    assert agents._PARAMS is _engine.SEARCH_DEFAULTS
    assert agents.AGENT_NAMES == ("random", "greedy", "first", "ismcts", "pimc")
    assert agents.parse_agent("pimc").code == _engine.AGENT_CODES["ismcts"]
    assert agents.parse_agent("ismcts").params == _engine.SEARCH_DEFAULTS["ismcts"]
    assert (_engine.ISMCTS_ITERATIONS, _engine.ISMCTS_C) == (200, 0.7)
    agents.parse_agent("ismcts:iterations=5")
    assert _engine.SEARCH_DEFAULTS["ismcts"]["iterations"] == 200     # parsing never edits the defaults
