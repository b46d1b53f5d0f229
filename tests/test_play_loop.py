"""One play loop: a Python agent joining a table does not change how the C agents play.

The slow path (runner.python_task) lets the C seats choose through core._play.SeatAgents: each
seat's stream seeded as the batch kernel's play_one seeds it, the same choice function, forced
moves taken without a draw. So a Python agent that copies a C agent gives the very table the
batch kernel gives, deal by deal."""
import numpy as np
import pytest

import cardsim
from cardsim.agents import AGENT_CODES
from cardsim.core._play import LeadTracker, SeatAgents
from cardsim.game import GAMES


class Copy:
    """A Python agent that plays exactly like the C agent `name` at its seat: its own SeatAgents
    (the seat streams of the deal it is shown, re-keyed when a new deal starts)."""

    def __init__(self, name):
        self.name, self.table, self.key = name, None, None

    def act(self, state):
        if self.table is None:
            self.table = SeatAgents(state.spec, [AGENT_CODES[self.name]] * state.num_players)
        if self.key != (state.seed, state.deal):
            self.key = (state.seed, state.deal)
            self.table.deal(state.seed, state.deal)
        return self.table.choose(state)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("agent", ["greedy", "random"])
def test_a_python_copy_of_a_c_agent_changes_nothing(name, agent):
    g = cardsim.make(name)
    P = g.num_players
    n = 12
    batch = cardsim.simulate(g, deals=n, seed=7, agents=[agent] * P, workers=1, lead_changes=True)
    mixed = cardsim.simulate(g, deals=n, seed=7, agents=[Copy(agent)] + [agent] * (P - 1), workers=1, chunk_size=5,
                             lead_changes=True)
    for col in batch.table.dtype.names:
        assert np.array_equal(batch.table[col], mixed.table[col]), col


def test_c_seats_keep_their_kernel_streams_next_to_any_python_agent():
    """Whatever the Python seat plays, each C seat's choices are those the kernel's choice
    function makes with that seat's own stream: replaying a mixed deal with SeatAgents alone
    reproduces every C decision."""
    g = cardsim.make("karnoffel")
    P = g.num_players

    class Last:
        def act(self, state):
            return int(state.legal_actions()[-1])

    res = cardsim.simulate(g, deals=4, seed=2, agents=[Last()] + ["random"] * (P - 1), workers=1)
    for d in range(4):
        st = g.new_state(2, d)
        table = SeatAgents(g.spec, [AGENT_CODES["first"]] + [AGENT_CODES["random"]] * (P - 1))
        table.deal(2, d)
        while not st.is_terminal():
            st.apply(int(st.legal_actions()[-1]) if st.current_player == 0 else table.choose(st))
        assert np.array_equal(st.returns(), res.returns()[d])


def test_seat_agents_validate():
    g = cardsim.make("basra")
    with pytest.raises(cardsim.CardsimError):
        SeatAgents(g.spec, [1])
    t = SeatAgents(g.spec, [1] * g.num_players)
    st = g.new_state(0, 0)
    with pytest.raises(cardsim.CardsimError):
        t.choose(cardsim.make("gleek").new_state(0, 0))
    t.deal(0, 0)
    assert st.is_legal(t.choose(st))
    while not st.is_terminal():
        st.apply(int(st.legal_actions()[0]))
    with pytest.raises(cardsim.IllegalActionError):
        t.choose(st)


def test_one_lead_change_counter():
    """The kernel's counter (run_batch(lead_changes=True)) and LeadTracker are one function."""
    lt = LeadTracker()
    for r in ([0, 0, 0, 0], [5, 0, 5, 0], [5, 0, 5, 0], [5, 6, 5, 6], [7, 6, 7, 6], [7, 7, 7, 7], [7, 8, 7, 8]):
        lt.see(np.array(r, float))
    assert lt.changes == 3
    with pytest.raises(cardsim.CardsimError):
        lt.see(np.zeros(99))
