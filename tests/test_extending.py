"""The installed .pxd files are a usable C interface: compile an outside .pyx that cimports the
engine's RNG, packed hands and action sets (like numpy's test_extending)."""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig

import pytest

import cardsim
from cardsim.core import _testing

SRC = '''
from cardsim.core._rng cimport Rng, rng_seed, rng_next
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_count, hand_size
from cardsim.core._actions cimport ActionSet, as_clear, as_add_range, as_count, as_nth

def first_words(unsigned long long seed, unsigned long long deal, unsigned long long stream, int n):
    cdef Rng r
    rng_seed(&r, seed, deal, stream)
    return [rng_next(&r) for _ in range(n)]

def pairs():
    cdef Hand h
    hand_clear(&h)
    for k in (3, 3, 7, 9, 9, 9):
        hand_add(&h, k)
    return h.layer[1], hand_count(&h, 9), hand_size(&h)

def third_of_range(int lo, int hi):
    cdef ActionSet s
    as_clear(&s, 16)
    as_add_range(&s, lo, hi)
    return as_count(&s, 16), as_nth(&s, 16, 2)
'''


def test_outside_module_cimports_the_engine(tmp_path):
    cython = shutil.which("cython") or shutil.which("cython3")
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cython is None or cc is None:
        pytest.skip("cython or a C compiler not available")
    # a normal install ships the .pxd files beside the modules; an editable one keeps them in ext/
    roots = [pathlib.Path(cardsim.__file__).resolve().parent.parent, pathlib.Path(__file__).resolve().parents[1] / "ext"]
    pkg_root = next((r for r in roots if (r / "cardsim/core/_rng.pxd").exists()), None)
    assert pkg_root is not None, "the .pxd files are installed with the package"
    pyx = tmp_path / "outside.pyx"
    pyx.write_text(SRC)
    c_file = tmp_path / "outside.c"
    subprocess.run([cython, "-3", "-I", str(pkg_root), str(pyx), "-o", str(c_file)], check=True)
    ext = tmp_path / ("outside" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([cc, "-shared", "-fPIC", "-O1", f"-I{sysconfig.get_paths()['include']}", str(c_file),
                    "-o", str(ext)], check=True)
    spec = importlib.util.spec_from_file_location("outside", ext)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.first_words(1, 2, 3, 5) == _testing.rng_known_answers(1, 2, 3, 5)
    assert mod.pairs() == ((1 << 3) | (1 << 9), 3, 6)
    assert mod.third_of_range(60, 70) == (10, 62)
