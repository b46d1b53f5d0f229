"""The import graph of src/cardsim has no cycle, and the runner's layers stay in order.

Every `import` statement counts, module-level or inside a function (a lazy import that closes a
cycle is still a cycle in the design). Python modules are parsed with `ast`; the Cython modules'
Python-level imports (not `cimport`) are read from their source in ext/."""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cardsim"
EXT = ROOT / "ext" / "cardsim"


def _modules() -> dict:
    """module name -> list of (imported name, is_from_import, imported attribute names)."""
    mods = {}
    for base in (SRC, EXT):
        for f in sorted(base.rglob("*.py")) + sorted(base.rglob("*.pyx")):
            rel = f.relative_to(base).with_suffix("")
            parts = ["cardsim", *rel.parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join(parts)] = f
    return mods


def _imports(path: Path, modname: str, is_pkg: bool) -> list:
    text = path.read_text(encoding="utf-8")
    out = []
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                out += [(a.name, ()) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    pkg = modname.split(".") if is_pkg else modname.split(".")[:-1]
                    pkg = pkg[:len(pkg) - node.level + 1]
                    base = ".".join(pkg + ([node.module] if node.module else []))
                else:
                    base = node.module
                out.append((base, tuple(a.name for a in node.names)))
    else:
        for line in text.splitlines():
            m = re.match(r"\s*from\s+([\w.]+)\s+import\s+(?!\*)(.+)", line)
            if m and "cimport" not in line:
                out.append((m.group(1), tuple(x.strip().split(" as ")[0] for x in m.group(2).split(","))))
                continue
            m = re.match(r"\s*import\s+([\w.]+)", line)
            if m and "cimport" not in line:
                out.append((m.group(1), ()))
    return out


def import_graph() -> dict:
    mods = _modules()
    graph = {m: set() for m in mods}
    for m, f in mods.items():
        is_pkg = f.name == "__init__.py"
        for base, names in _imports(f, m, is_pkg):
            if not base or not (base == "cardsim" or base.startswith("cardsim.")):
                continue
            targets = []
            for n in names:
                if f"{base}.{n}" in mods:
                    targets.append(f"{base}.{n}")      # from pkg import submodule
                elif base in mods:
                    targets.append(base)
            if not names:
                # `import a.b.c` binds a and runs a.b.c: the edge that matters is to a.b.c
                while base not in mods and "." in base:
                    base = base.rsplit(".", 1)[0]
                targets.append(base)
            graph[m].update(t for t in targets if t != m)
    return graph


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


def test_no_import_cycle_in_cardsim():
    graph = import_graph()
    assert "cardsim.stats" in graph and "cardsim.runner" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"a2"}, "a2": {"b"}, "b": {"a2"}}) == ["a2", "b", "a2"]


def _reach(graph, start):
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for n in graph.get(m, ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


@pytest.mark.parametrize("low, forbidden", [
    ("cardsim.stats", {"*"}),                                   # pure statistics: nothing from cardsim
    ("cardsim.executors", {"cardsim.runner", "cardsim.simulate", "cardsim.result", "cardsim.report",
                           "cardsim.analysis.*", "cardsim.stats"}),
    ("cardsim.results_io", {"cardsim.runner", "cardsim.simulate", "cardsim.result", "cardsim.report",
                            "cardsim.analysis.*", "cardsim.stats"}),
    ("cardsim.runner", {"cardsim.simulate", "cardsim.result", "cardsim.report", "cardsim.analysis.*", "cardsim.cli"}),
    ("cardsim.result", {"cardsim.simulate", "cardsim.report", "cardsim.runner", "cardsim.analysis.compare",
                        "cardsim.analysis.skill", "cardsim.analysis.sweep", "cardsim.cli"}),
    ("cardsim.simulate", {"cardsim.report", "cardsim.analysis.compare", "cardsim.analysis.skill",
                          "cardsim.analysis.sweep", "cardsim.cli"}),
])
def test_layers(low, forbidden):
    reach = _reach(import_graph(), low)
    bad = sorted(m for m in reach if "*" in forbidden and m.startswith("cardsim")
                 or m in forbidden or any(f.endswith(".*") and m.startswith(f[:-1]) for f in forbidden))
    assert not bad, f"{low} reaches {bad}"
