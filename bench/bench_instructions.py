"""Instructions per deal under callgrind (issue 26): bench/instructions.py, the one measurement of the
table in docs/performance.md. In smoke mode (--benchmark-disable, as CI runs the benchmarks) it
measures two games with few deals and checks that every figure is a plausible count; otherwise it
measures every game with the issue's deal counts and reports each row against its target.

    pytest bench/bench_instructions.py -s            # the full table, about 10 minutes on 2 cores
    python bench/instructions.py --agent both        # the same table as a command, greedy rows too
"""
import importlib.util
import pathlib
import shutil

import pytest

from .conftest import smoke_mode, target

HERE = pathlib.Path(__file__).resolve().parent


def _tool():
    spec = importlib.util.spec_from_file_location("cardsim_bench_instructions", HERE / "instructions.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bench_instructions_per_deal(request):
    if shutil.which("valgrind") is None or shutil.which("gcc") is None:
        pytest.skip("valgrind or gcc not on PATH")
    tool = _tool()
    smoke = smoke_mode(request)
    if smoke:
        configs = [(*c[:3], tool.SMOKE_DEALS, *c[4:]) for c in tool.CONFIGS if c[1] in tool.SMOKE_GAMES]
        rows = tool.measure(configs, ["random"], jobs=2)
    else:
        rows = tool.measure(tool.CONFIGS, ["random", "greedy"], jobs=2)
    print()
    print(tool.table(rows))
    ref = rows[0]["c_loop_instructions_per_deal"]
    assert 3_000 < ref < 8_000, f"the C loop's one-deck deal should cost ~4,700 instructions, got {ref}"
    for r in rows:
        # a deal plays at least a full hand of cards: no kernel can do it in fewer than ~1,000
        assert 1_000 < r["instructions_per_deal"] < 10_000_000, r
        # where they go: the per-function profile of the same runs adds up to the row's figure
        assert abs(sum(v for _k, v in r["profile"]) - r["instructions_per_deal"]) < 1, r["profile"]
        if r["label"] in tool.FLOORS and r["agent"] == "random":
            # the same deals by hand in C (bench/reference): a floor below the kernel, streams and all
            assert 3_000 < r["floor_instructions_per_deal"] < r["instructions_per_deal"], r
        if r["counted"] == "run_batch":       # a build with symbols: named functions
            assert any(name.endswith("play_loop") for name, _v in r["profile"]), r["profile"]
        if not smoke and r["target"]:
            target(None, f"{r['label']} instructions per random deal", r["instructions_per_deal"], r["target"],
                   higher=False)
