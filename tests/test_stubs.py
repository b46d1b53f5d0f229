"""The committed .pyi stubs are what tools/gen_stubs.py generates from the Cython sources (drift),
with real signatures; and the check fails when a stub is stale."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("gen_stubs", ROOT / "tools" / "gen_stubs.py")
gen_stubs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_stubs)

TARGETS = gen_stubs.targets()


@pytest.mark.parametrize("pyx, pyi, target", TARGETS, ids=[str(t[1].relative_to(ROOT)) for t in TARGETS])
def test_stub_matches_its_source(pyx, pyi, target):
    assert pyi.exists(), f"missing stub {pyi.relative_to(ROOT)}: python tools/gen_stubs.py {target}"
    assert pyi.read_text(encoding="utf-8") == gen_stubs.stub(pyx, target), \
        f"stale stub {pyi.relative_to(ROOT)}: python tools/gen_stubs.py {target}"


def test_every_core_extension_has_a_stub():
    core = {p.stem for p in (ROOT / "ext" / "cardsim" / "core").glob("*.pyx")}
    assert core == set(gen_stubs.CORE)


def test_real_signatures():
    text = (ROOT / "src" / "cardsim" / "core" / "_engine.pyi").read_text(encoding="utf-8")
    assert "def new_state(self, seed: int = ..., deal: int = ...) -> State: ..." in text
    assert "def check_int(value: Any, what: str, lo: Any, hi: Any, exc: Any = ...) -> int: ..." in text
    assert "    num_players: int" in text and "    def clone(self) -> State: ..." in text
    types = {"int a": "a: int", "uint64_t seed": "seed: int", "long n": "n: int", "double c": "c: float",
             "bint flag=False": "flag: bool = ...", "str text": "text: str", "list xs": "xs: list",
             "dict opts": "opts: dict", "State s not None": "s: State", "GameSpec spec": "spec: GameSpec",
             "float[::1] out": "out: npt.NDArray[np.float32]", "x=None": "x = ...", "*args": "*args"}
    for src, want in types.items():
        assert gen_stubs.parse_arg(src) == want, src


def test_check_mode_catches_drift(tmp_path, monkeypatch):
    pyx = tmp_path / "ext" / "cardsim" / "core" / "_toy.pyx"
    pyx.parent.mkdir(parents=True)
    pyx.write_text("cpdef int twice(int x):\n    return 2 * x\n\ndef name(GameSpec spec):\n    return spec.name\n\n"
                   "cdef class Box:\n    cdef readonly int size\n    def __init__(self, int size):\n"
                   "        self.size = size\n    def empty(self):\n        return self.size == 0\n")
    monkeypatch.setattr(gen_stubs, "ROOT", tmp_path)
    text = gen_stubs.stub(pyx, "core")
    assert "def twice(x: int) -> int: ..." in text and "def name(spec: GameSpec) -> Any: ..." in text
    assert "class Box:\n    size: int\n    def __init__(self, size: int) -> None: ...\n    def empty(self) -> bool: ..." \
        in text
    pyi = tmp_path / "src" / "cardsim" / "core" / "_toy.pyi"
    monkeypatch.setattr(gen_stubs, "targets", lambda names=None: [(pyx, pyi, "core")])
    assert gen_stubs.main(["--check"]) == 1            # missing
    assert gen_stubs.main([]) == 0 and gen_stubs.main(["--check"]) == 0
    pyx.write_text(pyx.read_text() + "\ndef more(double y):\n    return y\n")
    assert gen_stubs.main(["--check"]) == 1            # the source changed: the stub is stale
