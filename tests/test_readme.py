"""The README runs as written: every code block is extracted and run, with a time limit.

- ```python blocks run as they are, each in a fresh interpreter.
- Shell blocks run line by line (comments after `#` dropped) in one temporary directory, in
  order, so a later line can read an earlier line's output file. Three kinds of line are not run
  as written, each for a stated reason:
  * installing (`python3 -m venv`, `pip install`, `. .venv/bin/activate`) would rebuild the
    package from scratch (minutes, network): checked instead to be literally the documented
    command, with extras that exist in pyproject.toml; the command after the install (`cardsim
    simulate ...`) runs;
  * long jobs (`--deals N`, `--matches N`) run with N reduced to at most SMALL; `cardsim bench`
    with `--deals` small; `pytest` (this suite itself) and `pytest bench` are not re-entered;
  * lines that need what a test machine lacks or that change the repository (a Dask scheduler
    at tcp://head:8786, a checks rebuild, regenerating golden files, an interactive `cardsim play`)
    are listed in SKIP with the reason.
- Nothing in the README points outside the repository: every path it names exists in the
  checkout, and the workspace's shared folder is never cited.
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SMALL = 1500
TIMEOUT = 300

SKIP = {
    "tcp://head:8786": "needs a running Dask scheduler at that address",
    "CARDSIM_CHECKS=ON": "a checks rebuild of the whole package (minutes); .ci/run builds it",
    "tests/playthroughs/generate.py": "rewrites the golden files in the repository",
    "cardsim play": "interactive; tests/test_play.py drives it through a pseudo-terminal",
}
SETUP_RUN = "python3 -m venv .venv && . .venv/bin/activate && pip install . && cardsim simulate joffre_whist --deals 100000 --seed 1"
SETUP_TEST = "python3 -m venv .venv && . .venv/bin/activate && pip install '.[test]' && pytest -n auto"


def blocks():
    text = README.read_text()
    return [(m.group(1).strip(), m.group(2)) for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)]


def _strip_comment(line):
    out = []
    for tok in shlex.split(line, comments=True):
        out.append(tok)
    return out


def _reduce(argv):
    argv = list(argv)
    for i, a in enumerate(argv[:-1]):
        if a in ("--deals", "--matches") and argv[i + 1].isdigit():
            argv[i + 1] = str(min(int(argv[i + 1]), SMALL if a == "--deals" else 20))
    if argv[:2] == ["cardsim", "bench"] and "--deals" not in argv:
        argv += ["--deals", "2000", "--rounds", "1"]
    return argv


def _run(argv, cwd):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    if argv[0] == "cardsim":
        argv = [sys.executable, "-m", "cardsim"] + argv[1:]
    elif argv[0] == "python":
        argv = [sys.executable] + argv[1:]
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert r.returncode == 0, f"{' '.join(argv)} failed:\n{r.stdout}\n{r.stderr}"
    return r


def test_the_readme_has_the_expected_blocks():
    kinds = [k for k, _ in blocks()]
    assert kinds.count("python") >= 2 and len(kinds) >= 6


def test_setup_commands_are_literally_correct():
    """The two set-up commands stay exactly as documented, and the extras they name exist."""
    shell = [b.strip() for k, b in blocks() if k == ""]
    assert SETUP_RUN in shell and SETUP_TEST in shell
    pyproject = (ROOT / "pyproject.toml").read_text()
    for extra in re.findall(r"pip install '\.\[(\w+)\]'", README.read_text()):
        assert re.search(rf"^{extra} = \[", pyproject, re.M), f"README names a missing extra [{extra}]"
    assert 'cardsim = "cardsim.cli:main"' in pyproject


@pytest.mark.parametrize("i", [i for i, (k, _) in enumerate(blocks()) if k == "python"])
def test_python_block_runs(i, tmp_path):
    code = blocks()[i][1]
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, f"README python block {i} failed:\n{code}\n{r.stderr}"


def test_shell_blocks_run(tmp_path):
    ran = 0
    for kind, body in blocks():
        if kind != "":
            continue
        for line in body.splitlines():
            if not line.strip():
                continue
            if any(key in line for key in SKIP):
                continue
            parts = [p.strip() for p in line.split("&&")]
            for part in parts:
                argv = _strip_comment(part)
                if not argv:
                    continue
                if argv[0] in ("python3", ".", "source") or argv[:2] == ["pip", "install"] or argv[0] == "pytest":
                    continue                       # installing / the test suite itself: see the docstring
                _run(_reduce(argv), tmp_path)
                ran += 1
    assert ran >= 10


def test_nothing_points_outside_the_repository():
    text = README.read_text()
    assert "shared" + "/" not in text                  # (spelled so this guard does not cite it)
    named = re.findall(r"`((?:docs|tests|bench|src|ext)/[^` ]*)`", text)
    assert len(named) >= 8
    for path in named:
        if "<" in path or "*" in path:                 # a pattern such as docs/rules/<game>.md: its folder
            path = path[:min(i for i in (path.find("<"), path.find("*")) if i >= 0)].rsplit("/", 1)[0]
        assert (ROOT / path).exists(), f"README names {path}, which is not in the repository"
