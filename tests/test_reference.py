"""The C floors of bench/reference: a game's random deals played by hand in C on the engine's own
random streams (bench/instructions.py compares the kernel's instructions per deal with theirs).
A floor is a fair yardstick only if it plays the very same deals: here it is compiled and run, and
every deal's returns and decision counters must equal run_batch's for the same seed and deal."""
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

import cardsim

REFERENCE = pathlib.Path(__file__).resolve().parent.parent / "bench" / "reference"
CC = shutil.which("gcc") or shutil.which("cc")


@pytest.fixture(scope="module")
def hearts_limit(tmp_path_factory):
    if CC is None:
        pytest.skip("no C compiler on PATH")
    exe = tmp_path_factory.mktemp("floor") / "hearts_limit"
    subprocess.run([CC, "-O2", "-o", str(exe), str(REFERENCE / "hearts_limit.c")], check=True)
    return exe


def _floor_deals(exe, seed, start, count):
    out = subprocess.run([str(exe), str(seed), str(start), str(count), "dump"], check=True,
                         capture_output=True, text=True).stdout
    return np.array([[int(v) for v in line.split()] for line in out.splitlines()], dtype=np.int64)


@pytest.mark.parametrize("seed,start", [(1, 0), (2026, 10**12)])
def test_hearts_by_hand_plays_the_engines_deals(hearts_limit, seed, start):
    count = 1500
    got = _floor_deals(hearts_limit, seed, start, count)
    game = cardsim.make("hearts")
    want = game.spec.run_batch(seed, start, count, [0] * 4)
    assert got.shape == (count, 6)
    np.testing.assert_array_equal(got[:, :4], np.rint(want["returns"] * 3).astype(np.int64))
    np.testing.assert_array_equal(got[:, 4], want["decisions"])
    np.testing.assert_array_equal(got[:, 5], want["legal_sum"])
    # real Hearts deals: 3 x seat p's return is tot - 4 pts[p], tot the deal's points: 26 (each
    # point card once), or 78 when a seat shoots the moon (0 for it, 26 for each other seat)
    ret3 = got[:, :4]
    moon = (np.sort(ret3, axis=1) == [-26, -26, -26, 78]).all(axis=1)
    pts = (26 - ret3[~moon]) // 4
    assert ((26 - ret3[~moon]) % 4 == 0).all() and (pts >= 0).all() and (pts.sum(axis=1) == 26).all()
    assert 0 < moon.sum() < count // 20                  # a moon now and then, not often


def test_hearts_by_hand_refuses_a_missing_argument(hearts_limit):
    r = subprocess.run([str(hearts_limit), "1"], capture_output=True, text=True)
    assert r.returncode == 2 and "usage" in r.stderr
