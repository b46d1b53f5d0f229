"""Search agents by spec: the grammar, the kernel's per-seat ISMCTS/PIMC with random or greedy
playouts (legal, deterministic, executor-independent, no peeking), and the strength table."""
import numpy as np
import pytest

import cardsim
from cardsim import tournament
from cardsim.agents import SearchAgent, parse_agent, resolve_agents, split_agents
from cardsim.core._engine import AGENT_CODES, kernel_actions

AGENT_ISMCTS = AGENT_CODES["ismcts"]


def test_grammar():
    s = parse_agent("ismcts:iterations=2000,c=0.7,rollout=greedy")
    assert (s.name, s.code, s.params) == ("ismcts", AGENT_ISMCTS, {"iterations": 2000, "c": 0.7, "rollout": "greedy", "reward": "rank"})
    assert parse_agent("pimc").params == {"iterations": 1000, "worlds": 10, "rollout": "random", "reward": "rank"}
    assert parse_agent("ismcts:reward=points").params["reward"] == "points"
    assert parse_agent("greedy").params is None
    assert split_agents("ismcts:iterations=9,c=1,random") == ["ismcts:iterations=9,c=1", "random"]
    assert [a.name for a in resolve_agents(2, "pimc:worlds=3,greedy")] == ["pimc", "greedy"]
    assert [a.name for a in resolve_agents(3, "first")] == ["first"] * 3
    for bad in ("smart", "ismcts:foo=1", "ismcts:iterations=0", "ismcts:iterations=1.5", "ismcts:c=nan",
                "ismcts:c=-1", "pimc:rollout=mcts", "ismcts:reward=chips", "greedy:x=1", "pimc:worlds=10**9", 3, None):
        with pytest.raises(cardsim.ConfigError):
            parse_agent(bad)
    with pytest.raises(cardsim.ConfigError, match="3 agents given for 4 seats"):
        resolve_agents(4, "greedy,random,first")


SPECS = ["ismcts:iterations=60,rollout=greedy", "pimc:iterations=80,worlds=4",
         "pimc:iterations=60,worlds=3,rollout=greedy,reward=points", "ismcts:iterations=50,reward=points"]


@pytest.mark.parametrize("game", cardsim.GAMES)
@pytest.mark.parametrize("spec", SPECS)
def test_kernel_search_plays_legal_deterministic_deals(game, spec):
    g = cardsim.make(game, **tournament.GAME_OPTIONS.get(game, {}))
    P = g.num_players
    a = parse_agent(spec)
    codes = [AGENT_ISMCTS] + [1] * (P - 1)
    search = [a.kernel_params()] + [None] * (P - 1)
    acts = kernel_actions(g.spec, 3, 1, codes, search=search)
    assert acts == kernel_actions(g.spec, 3, 1, codes, search=search)
    st = g.new_state(3, 1)
    for x in acts:
        st.apply(x)                       # raises if the kernel chose an illegal action
    assert st.is_terminal()


def test_simulate_with_specs_is_executor_independent():
    agents = ["pimc:iterations=60,worlds=3,rollout=greedy", "greedy", "ismcts:iterations=50", "random"]
    a = cardsim.simulate("karnoffel", deals=120, seed=5, agents=agents, workers=1)
    b = cardsim.simulate("karnoffel", deals=120, seed=5, agents=agents, workers=2, chunk_size=7)
    np.testing.assert_array_equal(a.table, b.table)
    # plain "ismcts" is the old default (200 iterations, c = 0.7, random playouts)
    c = cardsim.simulate("karnoffel", deals=40, seed=5, agents=["ismcts"] + ["random"] * 3, workers=1)
    d = cardsim.simulate("karnoffel", deals=40, seed=5, agents=["ismcts:iterations=200,c=0.7,rollout=random"]
                         + ["random"] * 3, workers=1)
    np.testing.assert_array_equal(c.table, d.table)


def test_search_never_peeks():
    """A search agent's choice depends only on what its seat knows: two deals that differ only in
    the other seats' hidden cards get the same decision (the search sees resampled worlds only)."""
    g = cardsim.make("karnoffel")
    st = g.new_state(8, 0)
    p = st.current_player
    other = st.resample(p, 99)            # same information for p, other hidden cards
    assert np.array_equal(other.observation(p), st.observation(p))
    for spec in SPECS:
        prm = parse_agent(spec).kernel_params()
        assert g.spec.search_action(st, prm, 4) == g.spec.search_action(other, prm, 4)


def test_python_search_agent_and_errors():
    g = cardsim.make("basra")
    st = g.new_state(1, 0)
    ag = SearchAgent("pimc:iterations=40,worlds=2")
    before = st.state_bytes()
    assert ag.act(st) in st.legal_actions()
    assert st.state_bytes() == before
    with pytest.raises(cardsim.ConfigError):
        SearchAgent("greedy")
    with pytest.raises(cardsim.CardsimError):
        g.spec.run_batch(0, 0, 1, [AGENT_ISMCTS] * 4, search=[None] * 4)
    with pytest.raises(cardsim.CardsimError):
        g.spec.run_batch(0, 0, 1, [1] * 4, search=[{"kind": "ismcts"}] + [None] * 3)
    with pytest.raises(cardsim.CardsimError):
        g.spec.search_action(st, {"kind": "mcts"})


def test_search_beats_random():
    """ISMCTS with greedy playouts is clearly stronger than random play (Karnöffel, seats rotated)."""
    r = tournament.strength("karnoffel", "ismcts:iterations=100,rollout=greedy", baseline="random", deals=150, seed=2)
    assert r["ci95"][0] > 0 and r["verdict"] == "stronger"


def test_tournament_table_and_cli(tmp_path, capsys):
    from cardsim.cli import main

    out = tmp_path / "s.md"
    assert main(["tournament", "karnoffel", "--deals", "20", "--agents", "pimc:iterations=20,worlds=2",
                 "--out", str(out)]) == 0
    text = out.read_text()
    assert "| karnoffel | `pimc:iterations=20,worlds=2,rollout=random,reward=rank` | greedy | 20 x 4 |" in text
    assert "cardsim tournament karnoffel --deals 20" in text
    capsys.readouterr()
    assert main(["tournament", "karnoffel", "--deals", "20", "--out", str(out)]) == 2      # exists, no --force
    assert main(["tournament", "karnoffel", "--agents", "smart", "--deals", "5"]) == 2
    assert "unknown agent 'smart'" in capsys.readouterr().err
    assert main(["tournament", "--deals", "5"]) == 2                                       # no game, no --all
