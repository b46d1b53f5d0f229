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
