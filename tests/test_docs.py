"""docs/rules/<game>.md: the rules as the engine implements them, kept in step with the code —
every option with its default, every preset, every decision the game module cites by code, the
way moves are typed — and nothing in them (or in the files users start from) points outside the
repository."""
import pathlib
import re

import pytest

import cardsim
from cardsim.game import game_info, game_module

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCUMENTED = cardsim.GAMES
# The letter of each rules spec's decision codes: D7, S-D3 (most games), T4 (Tien Gow), X9 (Six Tigers).
DECISION_LETTER = {"tien_gow": "T", "six_tigers": "X"}


def _decision_codes(text, letter):
    return set(re.findall(rf"\b(?:[A-Z]-)?{letter}\d+\b", text))


def _doc(game):
    return (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", DOCUMENTED)
def test_every_option_with_its_default(game):
    doc = _doc(game)
    info = game_info(game)
    for o in info.options:
        assert re.search(rf"\| `{o.name}` \| `{re.escape(repr(o.default))}` \|", doc), f"{o.name} = {o.default!r}"
        for c in o.choices or ():
            assert f"`{c!r}`" in doc, f"{o.name}: choice {c!r}"
    for name in info.presets:
        assert f"| `{name}` |" in doc
    assert f"Players: {', '.join(map(str, info.players))} (default {info.default_players}" in doc


@pytest.mark.parametrize("game", DOCUMENTED)
def test_every_decision_the_engine_cites_is_documented(game):
    import importlib

    doc = _doc(game)
    # the docstrings of every compiled module of the game's folder (ext/cardsim/games/<game>/)
    mods = sorted(p.stem for p in (ROOT / "ext" / "cardsim" / "games" / game).glob("*.pyx"))
    kdoc = "".join(importlib.import_module(f"cardsim.games.{game}.{m}").__doc__ or "" for m in mods)
    letter = DECISION_LETTER.get(game, "D")
    codes = _decision_codes(kdoc + (game_module(game).__doc__ or ""), letter)
    codes |= {c for o in game_info(game).options for c in _decision_codes(o.doc, letter)}
    assert codes, "the module cites no decision codes"
    for code in sorted(codes):
        assert re.search(rf"\b{re.escape(code)}\b", doc), f"{code} is not explained in docs/rules/{game}.md"


@pytest.mark.parametrize("game", DOCUMENTED)
def test_doc_sections_and_notation(game):
    doc = _doc(game)
    for heading in ("## How the engine plays it", "## Options", "## Card notation and moves", "## The rules"):
        assert heading in doc
    assert f"cardsim replay {game}" in doc and f"cardsim play {game}" in doc
    tests = f"tests/games/{game}/test_{game}.py"
    assert tests in doc and (ROOT / tests).exists()


OUTSIDE = re.compile(r"\bshared[/]|\bseeds[/][0-9a-f]")    # the workspace's shared folder and its seeds


def _repository_text_files():
    files = [ROOT / "README.md", ROOT / "CMakeLists.txt", ROOT / "pyproject.toml", ROOT / ".ci" / "run"]
    for top in ("src", "ext", "docs", "tests", "bench", "tools"):
        files += [p for p in sorted((ROOT / top).rglob("*"))
                  if p.suffix in (".py", ".pyx", ".pxd", ".pyi", ".md", ".txt", ".toml", ".cfg", ".sh")]
    return [p for p in files if p.is_file()]


@pytest.mark.parametrize("path", [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
                                  ROOT / "bench" / "conftest.py", ROOT / "src" / "cardsim" / "cli.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_points_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    assert not OUTSIDE.search(text), f"{path.relative_to(ROOT)} cites the workspace's shared folder or seeds"


def test_no_source_file_points_outside_the_repository():
    """Every source, test, benchmark, tool and doc file: a user's clone has no shared folder, so
    rules are cited as docs/rules/<game>.md. (This file and tests/test_readme.py spell the
    forbidden path so that it does not match.)"""
    files = _repository_text_files()
    assert len(files) > 100, "the repository's files were not found"
    bad = [str(p.relative_to(ROOT)) for p in files if OUTSIDE.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert not bad, f"these files cite the workspace's shared folder or seeds: {bad}"


def test_cardsim_games_points_to_the_rules_docs(capsys):
    from cardsim.cli import main

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for game in cardsim.GAMES:
        if game in DOCUMENTED:
            assert f"rules: cardsim rules {game}" in out      # the installed page (tests/test_docs_drift.py)
