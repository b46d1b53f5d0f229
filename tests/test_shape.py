"""The one game shape (issue 24): every game is a folder with the same role modules, and every
game's compiled spec keeps the uniform `spec.scenario(hands, **facts)`, which builds exactly what
the face's `<game>.scenario(game, hands, **facts)` builds (or refuses it with the same error)."""
import importlib
import pathlib

import pytest

import cardsim

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROLES = {"__init__.pxd", "_rules.pxd", "_rules.pyx", "_state.pxd", "_state.pyx", "_agent.pxd", "_agent.pyx",
         "_observe.pxd", "_observe.pyx", "_layout.pxd", "_spec.pyx"}


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_every_game_folder_has_the_role_modules(game):
    files = {p.name for p in (ROOT / "ext" / "cardsim" / "games" / game).iterdir()}
    assert ROLES <= files, sorted(ROLES - files)
    assert (ROOT / "src" / "cardsim" / "games" / game / "info.py").exists()
    assert (ROOT / "src" / "cardsim" / "games" / game / "notation.py").exists()
    assert (ROOT / "tests" / "games" / game / f"test_{game}.py").exists()


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_spec_scenario_is_the_face_scenario(game):
    g = cardsim.make(game)
    face = importlib.import_module(f"cardsim.games.{game}")
    for deal in range(3):
        st = g.new_state(7, deal)
        hands = [g.spec.hand_strings(st, p) for p in range(g.num_players)]
        try:
            a = g.spec.scenario(hands)
        except cardsim.CardsimError as e:
            with pytest.raises(type(e)) as e2:
                face.scenario(g, hands)
            assert str(e2.value) == str(e)
            continue
        b = face.scenario(g, hands)
        assert a.state_bytes() == b.state_bytes() and not a.replayable


HOOKS = ("_action_string", "_parse_action", "_hand_strings", "_phase_name", "_view", "_render")


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_one_hook_convention(game):
    """The string hooks are the compiled spec's (`_spec.pyx`, text from `notation.py`); the face
    adds nothing to the compiled spec but the uniform `scenario` (cardsim.info.scenario_spec)."""
    spec_cls = type(cardsim.make(game).spec)
    compiled = importlib.import_module(f"cardsim.games.{game}._spec")
    base = next(c for c in spec_cls.__mro__ if c.__module__ == compiled.__name__)
    assert spec_cls.__mro__[1] is base, spec_cls.__mro__
    added = {k for k in vars(spec_cls) if not k.startswith("__")}
    assert added == {"scenario"}, added
    for hook in HOOKS:
        assert hook in vars(base), f"{game}: {hook} is not implemented in {compiled.__name__}"
    source = (ROOT / "ext" / "cardsim" / "games" / game / "_spec.pyx").read_text()
    assert "def scenario(" not in source


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_info_phases_are_every_phase_the_state_gives(game):
    """GameInfo.phases (what an agent's greedy_in names) lists every name State.phase gives, in
    every conformance configuration over random playouts, and the game's notation agrees where it
    keeps its own table. Every phase but "end" is seen while a seat has a choice to make."""
    import numpy as np

    info = cardsim.game.game_info(game)
    assert info.phases, f"{game}: INFO declares no phases"
    seen = set()
    rng = np.random.default_rng(0)
    for opts in info.conformance_configs:
        g = cardsim.make(game, **opts)
        for deal in range(12):
            st = g.new_state(5, deal)
            while True:
                assert st.phase in info.phases, (opts, st.phase)
                seen.add(st.phase)
                la = st.legal_actions()
                if len(la) == 0:
                    break
                st.apply(la[rng.integers(len(la))])
    assert "end" in seen and seen <= set(info.phases)
    notation = importlib.import_module(f"cardsim.games.{game}.notation")
    if hasattr(notation, "PHASES"):
        assert tuple(notation.PHASES) == info.phases
