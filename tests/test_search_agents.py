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


# ---- greedy_in: search where it helps, the game's greedy agent in the named phases -------------

MIXED = "ismcts:iterations=60,rollout=greedy,reward=points,greedy_in=auction+vie"


def test_greedy_in_grammar():
    s = parse_agent("pimc:iterations=50,greedy_in=vie+Auction")
    assert s.params["greedy_in"] == "auction+vie" and s.greedy_in() == frozenset({"auction", "vie"})
    assert s.python_only and s.text == "pimc:iterations=50,worlds=10,rollout=random,reward=rank,greedy_in=auction+vie"
    assert parse_agent(s.text) == s                                   # the text is a spec of the same agent
    none = parse_agent("ismcts:greedy_in=none")
    assert not none.python_only and none == parse_agent("ismcts") and none.kernel_params() == {"kind": "ismcts", **none.params}
    for bad in ("ismcts:greedy_in=", "ismcts:greedy_in=vie+", "ismcts:greedy_in=9vie", "ismcts:greedy_in=a b",
                "ismcts:greedy_in=vie+none", "greedy:greedy_in=vie", "ismcts:greedy_in=" + "x" * 300):
        with pytest.raises(cardsim.ConfigError):
            parse_agent(bad)
    with pytest.raises(cardsim.ConfigError, match="Python-side SearchAgent"):
        s.kernel_params()                                             # never silently dropped by the kernel
    with pytest.raises(cardsim.ConfigError, match="Python-side SearchAgent"):
        cardsim.simulate("gleek", deals=1, agents=[MIXED, "greedy", "greedy"], workers=1)


def _gleek_states(n_deals=3):
    """(state, phase) at every decision (two or more legal actions) of greedy-played Gleek deals."""
    from cardsim.agents import GreedyAgent

    g = cardsim.make("gleek")
    out = []
    for d in range(n_deals):
        st, ag = g.new_state(11, d), GreedyAgent(d)
        while not st.is_terminal():
            if len(st.legal_actions()) > 1:
                out.append(st.clone())
            st.apply(ag.act(st))
    return g, out


def test_greedy_in_plays_greedy_in_those_phases_and_searches_elsewhere():
    g, states = _gleek_states()
    assert {"auction", "vie", "play"} <= {s.phase for s in states}
    mixed, plain = SearchAgent(MIXED, seed=3), SearchAgent(MIXED.rsplit(",", 1)[0], seed=3)
    differ = 0
    for st in states:
        before = st.state_bytes()
        a, b = mixed.act(st), plain.act(st)          # same seed and call count: same search stream
        assert st.state_bytes() == before
        if st.phase in ("auction", "vie"):
            assert a == g.spec.greedy_action(st, 0)   # Gleek's greedy uses no random draw there
        else:
            assert a == b                             # elsewhere exactly the plain search agent
        differ += a != b
    assert differ > 0                                 # and the phases it hands over do change play


def test_greedy_in_is_deterministic_per_seed_and_in_tournaments():
    _, states = _gleek_states(1)
    runs = [[SearchAgent(MIXED, seed=s).act(st) for st in states] for s in (5, 5)]
    assert runs[0] == runs[1]
    r1 = tournament.strength("gleek", MIXED, deals=4, seed=2)
    r2 = tournament.strength("gleek", MIXED, deals=4, seed=2, workers=2)
    assert r1["agent"] == parse_agent(MIXED).text and r1["mean_diff"] == r2["mean_diff"]


def test_greedy_in_never_peeks():
    """Same seat information, other hidden cards: the same decision, in a greedy phase and in a
    searched one (state.phase is public; the greedy agent reads only the seat's own cards)."""
    g, states = _gleek_states(2)
    seen = set()
    for st in states:
        if st.phase in seen:
            continue
        p = st.current_player
        other = st.resample(p, 99)
        if other.state_bytes() == st.state_bytes():
            continue
        assert np.array_equal(other.observation(p), st.observation(p)) and other.phase == st.phase
        seen.add(st.phase)
        for spec in (MIXED, "pimc:iterations=80,worlds=4,rollout=greedy,greedy_in=play"):
            assert SearchAgent(spec, seed=4).act(st) == SearchAgent(spec, seed=4).act(other)
    assert {"auction", "vie", "play"} <= seen


def test_greedy_in_refuses_a_phase_the_game_does_not_have():
    """A misspelt phase would never match and the agent would search everywhere: the first
    decision (or the tournament, before any deal) refuses it, naming the game's phases."""
    g, states = _gleek_states(1)
    agent = SearchAgent("ismcts:iterations=20,greedy_in=vying", seed=1)
    with pytest.raises(cardsim.ConfigError, match=r"'vying', not a phase of gleek; its phases are auction\+exchange\+vie"):
        agent.act(states[0])
    assert agent.calls == 0
    with pytest.raises(cardsim.ConfigError, match="not a phase of karnoffel"):
        tournament.strength("karnoffel", "ismcts:iterations=20,greedy_in=vie", deals=2, seed=0)
    SearchAgent("ismcts:iterations=20,greedy_in=vie", seed=1).check_game("gleek")   # a real phase passes
