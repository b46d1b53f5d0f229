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
