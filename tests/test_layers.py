"""The import graph of cardsim has no cycle, and its layers stay in order.

Every import counts: module-level or inside a function (a lazy import that closes a cycle is
still a cycle in the design), and runtime imports through `importlib.import_module(...)` /
`__import__(...)` (a constant name is one edge; an f-string such as f"cardsim.games.{name}" is an
edge to every module under its constant prefix). Python modules are parsed with `ast`; the Cython
modules' Python-level imports (not `cimport`) are read from their .pyx sources in ext/.

The checks are functions of a source tree (`import_graph(src, ext)`), so the tests below also feed
them a synthetic tree with a violation and see them fail."""
import ast
import fnmatch
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cardsim"
EXT = ROOT / "ext" / "cardsim"

# kernel modules of a game folder (ext/cardsim/games/<g>/): nogil code, nothing from the Python
# package; only the glue (_spec) and the test hooks (_testing) may import Python-level things
GLUE = {"_spec", "_testing"}


def _modules(src: Path = SRC, ext: Path = EXT) -> dict:
    """module name -> source file (src: .py, ext: .pyx)."""
    mods = {}
    for base, pattern in ((src, "*.py"), (ext, "*.pyx")):
        for f in sorted(base.rglob(pattern)):
            rel = f.relative_to(base).with_suffix("")
            parts = ["cardsim", *rel.parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = f
    return mods


def _dynamic_target(node):
    """The module named by the first argument of an import_module/__import__ call: ("exact", name)
    for a constant, ("prefix", text) for an f-string's leading constant, else None."""
    if not node.args:
        return None
    a = node.args[0]
    if isinstance(a, ast.Constant) and isinstance(a.value, str):
        return ("exact", a.value)
    if isinstance(a, ast.JoinedStr) and a.values and isinstance(a.values[0], ast.Constant):
        return ("prefix", str(a.values[0].value))
    if isinstance(a, ast.BinOp) and isinstance(a.op, ast.Add) and isinstance(a.left, ast.Constant):
        return ("prefix", str(a.left.value))
    return None


def _py_imports(text: str, modname: str, is_pkg: bool) -> list:
    """(base, names, kind) for every import in a Python source: kind "static" for import
    statements (any depth), "exact"/"prefix" for importlib.import_module / __import__ calls."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            out += [(a.name, (), "static") for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pkg = modname.split(".") if is_pkg else modname.split(".")[:-1]
                pkg = pkg[:len(pkg) - node.level + 1]
                base = ".".join(pkg + ([node.module] if node.module else []))
            else:
                base = node.module
            out.append((base, tuple(a.name for a in node.names), "static"))
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in ("import_module", "__import__"):
                t = _dynamic_target(node)
                if t is not None:
                    out.append((t[1], (), t[0]))
    return out


_PYX_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(?!\*)(\([^)]*\)|[^\n#]+)", re.M)
_PYX_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)",
                         re.M)
_PYX_DYNAMIC = re.compile(r"\b(?:import_module|__import__)\(\s*(f?)([\"'])([\w.{}]*)\2")


def _pyx_imports(text: str) -> list:
    """The Python-level imports of a Cython source (cimports are compile-time, not counted):
    `from x import a, b` (parenthesized lists over several lines too), `import x, y as z`, and
    import_module/__import__ calls with a literal or f-string name."""
    text = re.sub(r"#[^\n]*", "", text)
    out = []
    for m in _PYX_FROM.finditer(text):
        names = m.group(2).strip().strip("()")
        out.append((m.group(1), tuple(x.strip().split(" as ")[0].strip() for x in names.split(",") if x.strip()),
                    "static"))
    for m in _PYX_IMPORT.finditer(text):
        for item in m.group(1).split(","):
            out.append((item.strip().split()[0], (), "static"))
    for m in _PYX_DYNAMIC.finditer(text):
        name = m.group(3)
        if m.group(1) and "{" in name:
            out.append((name.split("{")[0], (), "prefix"))
        else:
            out.append((name, (), "exact"))
    return out


def direct_imports(path: Path, modname: str, mods: dict) -> set:
    """The cardsim modules `path` imports (edges of the graph)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        found = _py_imports(text, modname, path.name == "__init__.py")
    else:
        found = _pyx_imports(text)
    targets = set()
    for base, names, kind in found:
        if not base or not (base == "cardsim" or base.startswith("cardsim.")):
            continue
        if kind == "prefix":
            targets.update(m for m in mods if m.startswith(base) and m != base.rstrip("."))
            continue
        for n in names:
            if f"{base}.{n}" in mods:
                targets.add(f"{base}.{n}")      # from pkg import submodule
            elif base in mods:
                targets.add(base)
        if not names:
            # `import a.b.c` binds a and runs a.b.c: the edge that matters is to a.b.c
            while base not in mods and "." in base:
                base = base.rsplit(".", 1)[0]
            targets.add(base)
    targets.discard(modname)
    return targets


def import_graph(src: Path = SRC, ext: Path = EXT) -> dict:
    if (src, ext) == (SRC, EXT):
        return {m: set(t) for m, t in _real_graph().items()}
    return _graph(src, ext)


def _graph(src: Path, ext: Path) -> dict:
    mods = _modules(src, ext)
    return {m: direct_imports(f, m, mods) for m, f in mods.items()}


@functools.lru_cache(maxsize=1)
def _real_graph() -> dict:
    return _graph(SRC, EXT)


def find_cycle(graph: dict):
    """A cycle as a list of modules, or None (iterative DFS)."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {m: WHITE for m in graph}
    for root in sorted(graph):
        if colour[root] != WHITE:
            continue
        stack = [(root, iter(sorted(graph[root])))]
        path = [root]
        colour[root] = GREY
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = BLACK
                stack.pop()
                path.pop()
            elif colour.get(nxt, BLACK) == GREY:
                return path[path.index(nxt):] + [nxt]
            elif colour.get(nxt) == WHITE:
                colour[nxt] = GREY
                stack.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
    return None


def _reach(graph, start):
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for n in graph.get(m, ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _matches(m: str, patterns) -> bool:
    """m matches a name or a glob ("cardsim.analysis.*", "cardsim.core._*"; "*": any module)."""
    return any(fnmatch.fnmatchcase(m, f) for f in patterns)


def layer_violations(graph: dict, low: str, forbidden=(), allowed=None) -> list:
    """The modules `low` reaches that it must not: those matching `forbidden`, or (given
    `allowed`) any cardsim module not matching `allowed`. Patterns: names or globs."""
    reach = _reach(graph, low)
    return sorted(m for m in reach if _matches(m, forbidden) or (allowed is not None and not _matches(m, allowed)))


def kernel_violations(graph: dict, src: Path = SRC, ext: Path = EXT) -> dict:
    """{kernel module: Python-package modules it imports} for the kernel modules of the game
    folders (ext/cardsim/games/<g>/*.pyx except the glue _spec and the hooks _testing)."""
    mods = _modules(src, ext)
    python = {m for m, f in mods.items() if f.suffix == ".py"}
    out = {}
    for m, f in mods.items():
        if f.suffix == ".pyx" and f.parent.parent == ext / "games" and f.stem not in GLUE:
            bad = sorted(graph[m] & python)
            if bad:
                out[m] = bad
    return out


PRESENTATION = ("cardsim.report", "cardsim.views", "cardsim.cli")
LAYERS = [
    # pure statistics: nothing from cardsim but its own compiled co-moments, which import nothing
    ("cardsim.stats", (), {"cardsim.core._blockstats"}),
    ("cardsim.core._blockstats", {"*"}, None),
    ("cardsim.errors", {"*"}, None),
    ("cardsim.contracts", {"cardsim.runner", "cardsim.simulate", "cardsim.result", "cardsim.analysis.*",
                           *PRESENTATION}, None),
    ("cardsim.executors", {"cardsim.runner", "cardsim.simulate", "cardsim.result", "cardsim.analysis.*",
                           "cardsim.stats", *PRESENTATION}, None),
    ("cardsim.results_io", {"cardsim.runner", "cardsim.simulate", "cardsim.result", "cardsim.analysis.*",
                            "cardsim.stats", *PRESENTATION}, None),
    ("cardsim.runner", {"cardsim.simulate", "cardsim.result", "cardsim.analysis.*", *PRESENTATION}, None),
    ("cardsim.result", {"cardsim.simulate", "cardsim.runner", "cardsim.analysis.*", *PRESENTATION}, None),
    ("cardsim.simulate", {"cardsim.analysis.*", *PRESENTATION}, None),
    *[(f"cardsim.analysis.{m}", set(PRESENTATION), None) for m in ("compare", "skill", "sweep", "summary", "glossary")],
    # the compiled core imports nothing from the Python package but the errors (no cardsim.game:
    # pickling a spec goes through the rebuild function the Python side registers)
    *[(f"cardsim.core.{m}", (), {"cardsim.errors", "cardsim.core._*"})
      for m in ("_engine", "_search", "_testing", "_vector", "_fuzz")],
]


def test_no_import_cycle_in_cardsim():
    graph = import_graph()
    assert "cardsim.stats" in graph and "cardsim.runner" in graph and "cardsim.core._engine" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"a2"}, "a2": {"b"}, "b": {"a2"}}) == ["a2", "b", "a2"]


@pytest.mark.parametrize("low, forbidden, allowed", LAYERS, ids=[x[0] for x in LAYERS])
def test_layers(low, forbidden, allowed):
    graph = import_graph()
    assert low in graph, f"{low}: no such module (update LAYERS)"
    bad = layer_violations(graph, low, forbidden, allowed)
    assert not bad, f"{low} reaches {bad}"


def test_game_kernels_import_nothing_from_the_python_package():
    bad = kernel_violations(import_graph())
    assert not bad, f"kernel modules import Python-level cardsim modules: {bad}"


def _write(root: Path, files: dict):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def test_checks_fail_on_a_synthetic_violation(tmp_path):
    """A tree with a runtime cycle (importlib and a function-level import in a .pyx), a lazy
    import of the report layer and a kernel importing cardsim.cards: every check catches it."""
    src, ext = tmp_path / "src" / "cardsim", tmp_path / "ext" / "cardsim"
    _write(src, {
        "__init__.py": "",
        "errors.py": "",
        "cards.py": "",
        "report.py": "from cardsim import result\n",
        "result.py": "",
        "game.py": "import importlib\n\ndef module(name):\n    return importlib.import_module(f'cardsim.games.{name}')\n",
        "runner.py": "def f():\n    from cardsim.report import page\n    return page\n",
        "games/__init__.py": "",
        "games/toy/__init__.py": "from cardsim.core._engine import GameSpec\n",
    })
    _write(ext, {
        "core/_engine.pyx": "from cardsim.errors import (CardsimError,\n    ConfigError)\n\n"
                            "cdef class GameSpec:\n    def __reduce__(self):\n"
                            "        from cardsim.game import rebuild   # the leak\n",
        "games/toy/_rules.pyx": "from libc.stdint cimport uint64_t\nfrom cardsim import cards as _cards\n",
        "games/toy/_spec.pyx": "from cardsim.errors import ConfigError\n",
    })
    graph = import_graph(src, ext)
    assert graph["cardsim.core._engine"] == {"cardsim.errors", "cardsim.game"}
    assert "cardsim.games.toy._rules" in graph["cardsim.game"]           # the f-string import_module
    cycle = find_cycle(graph)
    assert cycle is not None and {"cardsim.game", "cardsim.core._engine"} <= set(cycle)
    assert layer_violations(graph, "cardsim.runner", {"cardsim.report"}) == ["cardsim.report"]
    assert "cardsim.game" in layer_violations(graph, "cardsim.core._engine", (), {"cardsim.errors", "cardsim.core._*"})
    assert kernel_violations(graph, src, ext) == {"cardsim.games.toy._rules": ["cardsim.cards"]}
    # and the same tree without the leaks passes
    _write(ext, {"core/_engine.pyx": "from cardsim.errors import CardsimError\n",
                 "games/toy/_rules.pyx": "from libc.stdint cimport uint64_t\n"})
    _write(src, {"runner.py": "def f():\n    return None\n"})
    graph = import_graph(src, ext)
    assert find_cycle(graph) is None
    assert layer_violations(graph, "cardsim.runner", {"cardsim.report"}) == []
    assert kernel_violations(graph, src, ext) == {}
