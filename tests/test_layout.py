"""The observation layout is declared once per game (GameInfo.observation, named blocks); the
kernel's offsets (ext/cardsim/games/<game>/_layout.pxd), the installed size and docs/observations.md
are generated from it or checked against it. These tests fail when any of them drift, and prove
that they would by breaking one on purpose."""
import copy
import importlib.util
import pathlib

import pytest

import cardsim
from cardsim.errors import CardsimError, ConfigError
from cardsim.game import game_info
from cardsim.info import GameInfo, Metric, ObsBlock

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("gen_layout", ROOT / "tools" / "gen_layout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _broken(info, block=-1, delta=1):
    """A copy of `info` whose block `block` is `delta` floats longer."""
    bad = copy.copy(info)
    blocks = list(info.observation)
    b = blocks[block]
    blocks[block] = ObsBlock(b.name, b.size + delta, b.meaning)
    object.__setattr__(bad, "observation", tuple(blocks))
    return bad


def test_generated_files_are_current():
    """Every game's _layout.pxd, and docs/observations.md, are exactly what
    tools/gen_layout.py writes from INFO.observation."""
    tool = _tool()
    assert tool.stale(tool.expected()) == [], "run python tools/gen_layout.py, then rebuild"


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_installed_size_is_the_declared_size(game):
    info = game_info(game)
    for cfg in info.conformance_configs:
        g = cardsim.make(game, **cfg)
        assert g.observation_size == info.obs_size
        assert len(g.new_state(0, 0).observation(0)) == info.obs_size
        assert g.metric_names == info.metric_names(g.options)


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_a_changed_block_is_caught(game):
    """Breaking one block (one float longer) makes the generated-file check and the kernel's
    install check fail: the layout cannot drift silently."""
    tool = _tool()
    info = game_info(game)
    bad = _broken(info)
    path = tool.layout_path(game)
    assert tool.render_layout(bad) != path.read_text()
    assert tool.stale({path: tool.render_layout(bad)}) == [str(path.relative_to(ROOT))]
    spec_cls = type(cardsim.make(game).spec)
    with pytest.raises(CardsimError, match="observation size"):
        spec_cls(dict(info.defaults()), bad)
    spec_cls(dict(info.defaults()), info)       # the true declaration installs


def test_doc_lists_every_game_and_block():
    text = (ROOT / "docs" / "observations.md").read_text()
    for g in cardsim.GAMES:
        info = game_info(g)
        assert f"| {g} | {info.obs_size} |" in text
        for b in info.observation:
            assert f"| `{b.name}` | {info.obs_offsets()[b.name]} | {b.size} |" in text


def test_gameinfo_refuses_malformed_declarations():
    info = game_info("karnoffel")
    kw = dict(name="x", title="X", players=(2,), default_players=2, teams="", unit="points",
              returns_sum="zero", options=(), presets={}, metrics=(Metric("m", "a metric"),),
              observation=(ObsBlock("hand", 4, "cards"),), return_bounds=lambda o: (0, 1),
              max_game_length=lambda o: 1)
    GameInfo(**kw)
    for change in ({"default_players": 3}, {"returns_sum": "sometimes"},
                   {"observation": (ObsBlock("a", 1, ""), ObsBlock("a", 2, ""))},
                   {"observation": ()}, {"return_bounds": None}, {"phases": ("play", "play")},
                   {"phases": ("Play", "end")}):
        with pytest.raises(ConfigError):
            GameInfo(**{**kw, **change})
    for bad in (lambda: ObsBlock("Hand", 1, ""), lambda: ObsBlock("h", 0, ""), lambda: ObsBlock("h", 2.0, ""),
                lambda: Metric("not an id", ""), lambda: Metric("m", "", categories=5)):
        with pytest.raises(ConfigError):
            bad()
    assert info.obs_size == sum(b.size for b in info.observation)
