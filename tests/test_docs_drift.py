"""Docs that cannot drift: every document that describes the code is generated from it or checked
against it here, and each check is proved by breaking it once (a check that cannot fail checks
nothing).

- README.md's game list (between `<!-- games -->` markers) is the registry's titles, in order;
- docs/observations.md is what tools/gen_layout.py writes (`--check` run as a user runs it);
- docs/glossary.md is `cardsim.analysis.glossary.markdown()`;
- the glossary and every rules page are installed with the package (cardsim/_docs/, CMakeLists.txt)
  and equal to the repository's copies; `cardsim glossary` / `cardsim rules GAME` print them;
- docs/ADDING_A_GAME.md names only paths, modules and tools the repository has;
- every game's seat names (GameInfo.seat_names) are the ones its rules page uses.
"""
import importlib
import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

import cardsim
from cardsim import docpages
from cardsim.analysis import glossary
from cardsim.game import game_info

ROOT = pathlib.Path(__file__).resolve().parent.parent


# ---- README's game list ---------------------------------------------------------------------------

def games_line(games=None) -> str:
    """The README's list of games: every registered game's title, in registry order."""
    return ", ".join(game_info(g).title for g in (games or cardsim.GAMES)) + "."


def readme_games_problems(text: str, games=None) -> list[str]:
    m = re.search(r"<!-- games -->\n(.*?)\n<!-- /games -->", text, re.S)
    if not m:
        return ["README.md has no <!-- games --> ... <!-- /games --> list"]
    have, want = " ".join(m.group(1).split()), games_line(games)
    return [] if have == want else [f"README.md lists {have!r}; the registry has {want!r}"]


def test_readme_lists_every_registered_game():
    assert readme_games_problems((ROOT / "README.md").read_text(encoding="utf-8")) == []


def test_readme_game_list_check_catches_a_missing_or_extra_game():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    six = game_info("six_tigers").title
    assert six in text
    broken = text.replace(six + ", ", "")                 # the list as it was before: Six Tigers missing
    assert readme_games_problems(broken) != []
    assert readme_games_problems(text, [g for g in cardsim.GAMES if g != "six_tigers"]) != []   # an unknown game listed
    assert readme_games_problems(text.replace("<!-- games -->", "")) != []


# ---- docs/observations.md: tools/gen_layout.py --check ----------------------------------------

def _gen_layout():
    spec = importlib.util.spec_from_file_location("gen_layout", ROOT / "tools" / "gen_layout.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_gen_layout_check_passes_as_a_user_runs_it():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_layout.py"), "--check"], capture_output=True,
                       text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr


def test_gen_layout_check_fails_on_a_stale_observations_doc(monkeypatch, capsys):
    """A block declared one float longer in one game's INFO: the doc on disk no longer matches what
    the tool writes, and --check names docs/observations.md and exits 1."""
    import copy

    from cardsim.info import ObsBlock

    tool = _gen_layout()
    real = tool._info

    def broken(game):
        info = real(game)
        if game != "karnoffel":
            return info
        bad = copy.copy(info)
        blocks = list(info.observation)
        blocks[-1] = ObsBlock(blocks[-1].name, blocks[-1].size + 1, blocks[-1].meaning)
        object.__setattr__(bad, "observation", tuple(blocks))
        return bad

    monkeypatch.setattr(tool, "_info", broken)
    assert tool.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "docs/observations.md" in out and "karnoffel/_layout.pxd" in out
    # and a doc that differs by one line on disk is caught as well
    monkeypatch.setattr(tool, "_info", real)
    files = tool.expected()
    doc = tool.DOC
    files[doc] = files[doc].replace("| karnoffel |", "| karnoffel  |")
    assert tool.stale(files) == ["docs/observations.md"]


# ---- the glossary ---------------------------------------------------------------------------------

def test_glossary_doc_is_the_codes_glossary():
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") == glossary.markdown()


def test_glossary_check_catches_a_changed_term(monkeypatch):
    terms = list(glossary.TERMS)
    name, what, how = terms[0]
    terms[0] = (name, what + " (changed)", how)
    monkeypatch.setattr(glossary, "TERMS", tuple(terms))
    assert (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8") != glossary.markdown()


# ---- installed copies, cardsim glossary / cardsim rules ---------------------------------------

def test_installed_docs_equal_the_repository_docs():
    """The build installs docs/glossary.md and docs/rules/*.md as package data (cardsim/_docs);
    stale copies (docs edited, package not rebuilt) fail here."""
    files = docpages.installed_files()
    assert set(files) == {"glossary.md"} | {f"rules/{g}.md" for g in cardsim.GAMES}
    for rel, text in files.items():
        assert text == (ROOT / "docs" / rel).read_text(encoding="utf-8"), f"installed {rel} differs from docs/{rel}"


def test_installed_docs_check_catches_a_stale_copy(monkeypatch):
    real = docpages._read
    monkeypatch.setattr(docpages, "_read", lambda parts, what: real(parts, what) + "stale\n")
    files = docpages.installed_files()
    assert any(text != (ROOT / "docs" / rel).read_text(encoding="utf-8") for rel, text in files.items())


def test_cli_prints_the_glossary_and_rules_pages(capsys):
    from cardsim.cli import main

    assert main(["glossary"]) == 0
    assert capsys.readouterr().out == glossary.markdown()
    for g in cardsim.GAMES:
        assert main(["rules", g]) == 0
        assert capsys.readouterr().out == (ROOT / "docs" / "rules" / f"{g}.md").read_text(encoding="utf-8")
    assert main(["rules", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err and "basra" in err


def test_the_cli_names_commands_not_repository_paths(capsys):
    """An installed package has no docs/ folder: the CLI points to `cardsim rules GAME`."""
    from cardsim.cli import main

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "docs/" not in out
    for g in cardsim.GAMES:
        assert f"cardsim rules {g}" in out
    from cardsim.cli import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict)).choices
    for name, sp in subs.items():                      # every help text, description and example
        texts = [sp.description or "", sp.epilog or ""] + [a.help or "" for a in sp._actions]
        assert not [x for x in texts if "docs/rules" in x or "docs/glossary" in x], name


def test_a_missing_installed_doc_is_a_typed_error(monkeypatch):
    monkeypatch.setattr(docpages, "PACKAGE_DIR", "_no_such_docs")
    with pytest.raises(cardsim.ConfigError, match="not installed"):
        docpages.glossary_text()
    with pytest.raises(cardsim.ConfigError, match="not installed"):
        docpages.rules_text("basra")


# ---- ADDING_A_GAME.md names only what the repository has ----------------------------------------

PATH = re.compile(r"`([^`\s]*/[^`\s]*)`")                # `ext/cardsim/games/<game>/_rules.pxd/.pyx`
MODULE = re.compile(r"`(cardsim(?:\.[A-Za-z_<>]+)+)")    # `cardsim.core._rng`, `cardsim.games.<game>`
TOOL = re.compile(r"`python ([\w/.]+\.py)")              # `python tools/gen_layout.py <game>`
COMMAND = re.compile(r"(?:^|\n)\s{4}(\S+)|[Rr]un `(\S+)")  # indented command lines, "run `...`"
COMMANDS = {"python", "pytest", "pip", "cardsim", "cmake"}
# files only some games have (the doc says which): they must exist for at least one game
SOME_GAMES = {"src/cardsim/games/<game>/notation.py", "ext/cardsim/games/<game>/_<role>.pyx"}


def _file_exists(rel: str) -> bool:
    p = ROOT / rel
    if p.exists():
        return True
    base, _, tail = rel.rpartition("/")                    # `_rules.pxd/.pyx`: both files
    if tail.startswith(".") and "." in base.rsplit("/", 1)[-1]:
        return (ROOT / base).exists() and (ROOT / (base.rsplit(".", 1)[0] + tail)).exists()
    return False


def _exists(rel: str) -> bool:
    rel = rel.rstrip("/.,:;") if not rel.endswith("/") else rel
    if rel in SOME_GAMES:
        return any(list(ROOT.glob(rel.replace("<game>", g).replace("<role>", "*"))) for g in cardsim.GAMES)
    if "<game>" in rel:
        return all(_exists(rel.replace("<game>", g)) for g in cardsim.GAMES)
    if "<module>" in rel or "*" in rel:                       # a pattern: some file must match it
        return bool(list(ROOT.glob(rel.replace("<module>", "*"))))
    return _file_exists(rel)


def _module_exists(name: str) -> bool:
    if "<game>" in name:
        return all(_module_exists(name.replace("<game>", g)) for g in cardsim.GAMES)
    if "<module>" in name:
        return True
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        mod = "/".join(parts[:k])                           # a compiled module's source (a .pxd-only one too)
        if k == len(parts) and any((ROOT / top / f"{mod}{ext}").exists() for top in ("ext", "src")
                                   for ext in (".pxd", ".pyx", ".py", "/__init__.py")):
            return True
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for attr in parts[k:]:                              # then attributes of it
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def adding_a_game_problems(text: str) -> list[str]:
    bad = []
    for m in PATH.finditer(text):
        ref = m.group(1)
        if not re.match(r"^[\w.-][\w<>.-]*(/[\w<>.*-]*)+$", ref) or ref.startswith("<"):
            continue                                       # `<game>/` (a folder you create), not a path
        if "*" in ref and "<" not in ref:
            if not list(ROOT.glob(ref)):
                bad.append(ref)
        elif not _exists(ref):
            bad.append(ref)
    for m in TOOL.finditer(text):
        if not _exists(m.group(1)):
            bad.append(m.group(1))
    for m in COMMAND.finditer(text):
        word = m.group(1) or m.group(2)
        if word and m.group(2) is not None and word not in COMMANDS and not _exists(word):
            bad.append(word)
        if m.group(1) and re.match(r"^[a-z][\w-]*$", word) and word not in COMMANDS:
            bad.append(word)
    for m in MODULE.finditer(text):
        if not _module_exists(m.group(1).rstrip(".")):
            bad.append(m.group(1))
    return sorted(set(bad))


def test_adding_a_game_names_only_what_the_repository_has():
    text = (ROOT / "docs" / "ADDING_A_GAME.md").read_text(encoding="utf-8")
    assert len(PATH.findall(text)) > 20 and len(MODULE.findall(text)) > 5, "the references were not found"
    assert adding_a_game_problems(text) == []


def test_adding_a_game_check_catches_a_missing_tool_path_or_module():
    text = (ROOT / "docs" / "ADDING_A_GAME.md").read_text(encoding="utf-8")
    assert adding_a_game_problems(text + "\nRun `python tools/gen_game_skeleton.py <game>`.\n") == ["tools/gen_game_skeleton.py"]
    assert adding_a_game_problems(text + "\nSee `tests/games/<game>/test_rules_only.py`.\n") == \
        ["tests/games/<game>/test_rules_only.py"]
    assert adding_a_game_problems(text + "\nSee `cardsim.core._nothing_here`.\n") == ["cardsim.core._nothing_here"]
    assert adding_a_game_problems(text + "\n8. Then run `duplicates --change --base main`.\n") == ["duplicates"]
    assert adding_a_game_problems(text + "\n\n    duplicates --change\n") == ["duplicates"]


# ---- seat names are the rules pages' --------------------------------------------------------------

@pytest.mark.parametrize("game", cardsim.GAMES)
def test_seat_names_are_the_rules_pages(game):
    info = game_info(game)
    doc = (ROOT / info.rules_doc).read_text(encoding="utf-8")
    names = info.seat_names_for(max(info.players))
    assert len(set(names)) == len(names) == max(info.players)
    if names[0] == "seat 0":
        assert names == tuple(f"seat {p}" for p in range(len(names)))
        assert re.search(r"\bseats? 0\b|`0 … N−1`|Seats 0\.\.N-1|seat `?p`?", doc), "the rules page numbers the seats"
    else:
        assert ", ".join(names) in doc, f"{game}: the rules page does not name the seats {names}"


# ---- docs/strength.md: the stated command reproduces the rows ------------------------------------

def strength_doc():
    text = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    specs = dict(re.findall(r"^- (\w+ \d+): `([^`]+)`$", text, re.M))
    rows = {}
    for m in re.finditer(r"^\| (\w+) \| (\w+ \d+) \| (\d+) x (\d+) \| ([^|]+) \| ([^|]+) \|$", text, re.M):
        rows[(m.group(1), m.group(2))] = (int(m.group(3)), int(m.group(4)), m.group(5).strip(), m.group(6).strip())
    return text, specs, rows


def figure_matches(figure: str, mean: float, lo: float, hi: float) -> bool:
    """'+0.105 [+0.038, +0.172] game points' printed from (mean, lo, hi) at the precision shown."""
    nums = re.findall(r"[+-]\d+(?:\.(\d+))?", figure)
    vals = [float(x) for x in re.findall(r"[+-]\d+(?:\.\d+)?", figure)]
    if len(vals) != 3:
        return False
    return all(round(v, len(d)) == round(x, len(d)) for v, x, d in zip((mean, lo, hi), vals, nums))


def test_strength_doc_states_every_rows_command():
    text, specs, rows = strength_doc()
    from cardsim.agents import parse_agent

    assert len(rows) >= 25 and set(a for _, a in rows) == set(specs), (set(a for _, a in rows), specs)
    for short_name, spec in specs.items():
        assert parse_agent(spec).text == spec, f"{short_name}: {spec} is not written out in full"
    assert f"cardsim tournament basra --deals 100 --seed 0 --agents {specs['ismcts 200']}" in text
    assert all(deals == 100 for deals, _, _, _ in rows.values()), "the command says --deals 100"
    for (game, _), (_, seats, _, _) in rows.items():
        assert seats == cardsim.make(game).num_players


def test_a_strength_row_reproduces_with_the_stated_command():
    """The Karnöffel ismcts-200 row (3 s), run as the doc says: the same figure and verdict."""
    from cardsim import tournament

    _, specs, rows = strength_doc()
    deals, _, figure, verdict = rows[("karnoffel", "ismcts 200")]
    r = tournament.strength("karnoffel", specs["ismcts 200"], deals=deals, seed=0, workers=2)
    assert figure_matches(figure, r["mean_diff"], *r["ci95"]), (figure, r["mean_diff"], r["ci95"])
    assert r["verdict"] == verdict
    # the comparison is not vacuous: the row as it would read after a change of the engine fails it
    assert not figure_matches(figure, r["mean_diff"] + 0.04, *r["ci95"])
    assert not figure_matches("+5.750 [+2.996, +8.504] points", 5.790, 2.791, 8.789)   # Basra's stale row


def test_seat_names_are_checked_when_declared():
    import copy

    info = game_info("karnoffel")
    kw = dict(name="x", title="X", players=(2, 3), default_players=2, teams="", unit="points", returns_sum="zero",
              options=(), presets={}, metrics=(), observation=info.observation,
              return_bounds=lambda o: (-1, 1), max_game_length=lambda o: 10)
    from cardsim.info import GameInfo

    assert GameInfo(**kw).seat_names_for(3) == ("seat 0", "seat 1", "seat 2")
    assert GameInfo(**kw, seat_names=("A", "B", "C")).seat_names_for(2) == ("A", "B")
    assert GameInfo(**kw, seat_names=("A", "B", "C")).side_names(3, 1) == ("A & B & C",)
    for bad in (("A", "B"), ("A", "A", "B"), ("A", "", "B"), ("A", 1, "B"), "ABC", ("A", "B", "x" * 40)):
        with pytest.raises(cardsim.ConfigError, match="seat_names"):
            GameInfo(**kw, seat_names=bad)
    with pytest.raises(cardsim.ConfigError, match="players must be one of"):
        GameInfo(**kw).seat_names_for(4)
    with pytest.raises(cardsim.ConfigError, match="sides must be"):
        copy.copy(info).side_names(4, 0)
