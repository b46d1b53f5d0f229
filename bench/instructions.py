"""Instructions per deal under callgrind: every game's batch kernel against the C reference loop.

    python bench/instructions.py                      # every game, random agents, the issue-26 table
    python bench/instructions.py gleek hearts --agent greedy
    python bench/instructions.py --agent both --json out.json
    python bench/instructions.py hearts --agent both --update docs/instructions.json --write-doc docs/performance.md
    python bench/instructions.py --smoke              # few deals, two games (CI: it runs, numbers > 0)

What is counted: the instructions (callgrind's Ir) executed inside `game.spec.run_batch` (callgrind
--toggle-collect on its Python wrapper: the call and everything it calls) by a Python process that
makes the game and calls `game.spec.run_batch(1, 0, N, [agent] * players)` once, run twice, with N
and 2N deals; the difference divided by N is the cost of one deal of that kernel. A warm-up batch of
200 deals runs first in both processes, so one-time costs (lazy tables, first-touch pages) cancel.
The interpreter's start-up, imports and exit are not counted at all: their counts move from run to
run with the address-space layout (dicts and sets keyed by pointers), by up to ~1% of a deal at
these N when they were counted. This needs the build's symbols (an install with
SKBUILD_INSTALL_STRIP=false; pip's default install strips them): without them the whole process
is counted, the row says so ("counted": "process"), and the profile's functions have no names. The C loop (bench/reference/trick_limit.c, built with gcc -O2
-mpopcnt as the engine is: cardsim.bench.reference_cflags) is counted whole: its process run with N and 2N deals. Where the CPU
runs PDEP fast the engine picks a random agent's drawn action with it (decided at load, the same
action as the portable loop); the C loop, built without -mbmi2, selects by a loop: each row
records which (`pdep`). Instruction
counts do not depend on the machine's load: the same build gives the same figure to within a
tenth of an instruction per deal at N = 6,000 and a few at the smallest N (Zhao Pengyou 12
players: what the allocator does outside calloc, divided by N), so a change of a few
instructions is real.

Where a game has one (FLOORS: Hearts), its random row is also compared with the same deals played by
hand in C on the engine's own random streams (bench/reference/hearts_limit.c, compiled with the C
loop's flags, and -mbmi2 where the engine picks by PDEP; counted whole, seed 1, deals N..2N-1: the
game row's deals): the row carries floor_instructions_per_deal and ratio_to_floor.

Where they go: the same two runs give each function's self cost (callgrind_annotate, exclusive
Ir), and their difference divided by N is that function's instructions per deal (functions the C
compiler inlined count in their caller; the per-function figures add up to the total). Every row
carries this profile (`profile` in the JSON: [function, instructions per deal], largest first, the
small ones summed as "everything else"), and --write-doc puts the random-agent profile under each
game's table in docs/performance.md.

OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=1 are set for the measured processes: numpy's OpenBLAS
threads otherwise spin while idle, and callgrind counts their instructions too. So is a fixed
MALLOC_MMAP_THRESHOLD_ (glibc otherwise moves its threshold with the process's history).

calloc is not counted: run_batch's result arrays are np.zeros, and whether calloc clears a chunk
for them (memset) or gets zero pages from the kernel depends on what the heap held before, not on
the kernel; counted, it moved rows by up to ~200 instructions per deal between runs of the same
build (2026-12-03, before this rule: Zhao Pengyou 12 players 83,088 / 83,265, Gleek 9,096 / 9,136).
The count is run_batch's instructions minus calloc's (inclusive, callgrind_annotate --tree=caller;
calloc_cost), and memset, the leaf calloc calls, loses that part of its self cost in the profile. The kernels
allocate nothing while dealing, so nothing of theirs is left out.

Needs valgrind (Debian's `valgrind` package) and gcc; without them it says so and exits 2.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = pathlib.Path(__file__).resolve().parent
REFERENCE = HERE / "reference" / "trick_limit.c"

# label, game, options, deals N (the measured run plays N, then 2N), C loop to compare with,
# issue 26's target for random agents (instructions per deal; None: no target)
CONFIGS = [
    ("joffre_whist", "joffre_whist", {}, 6000, "1", 8000),
    ("karnoffel", "karnoffel", {}, 6000, "1", 3500),
    ("gleek", "gleek", {}, 6000, "1", 8000),
    ("exposure", "exposure", {}, 6000, "1", 9000),
    ("basra (4 players)", "basra", {"players": 4}, 3000, "1", 12000),
    ("tien_gow", "tien_gow", {}, 6000, "1", 11000),
    ("six_tigers", "six_tigers", {}, 3000, "1", 12000),
    ("zhao_pengyou 6 players", "zhao_pengyou", {"players": 6}, 1200, "2deck", 55000),
    ("zhao_pengyou 12 players", "zhao_pengyou", {"players": 12}, 600, "2deck", 100000),
    ("samba 4 players", "samba", {"players": 4}, 300, None, 160000),
    ("hearts", "hearts", {}, 6000, "1", 7000),
]
# a game's random deals played by hand in C on the engine's own streams (the same deals, card for
# card: tests/test_reference.py): the floor its random row is compared with, besides the C loop
FLOORS = {"hearts": "hearts_limit.c"}
AGENTS = {"random": 0, "greedy": 1}
SMOKE_GAMES = ("karnoffel", "hearts")
SMOKE_DEALS = 1000

_SCRIPT = """
import sys, json, cardsim
g = cardsim.make({game!r}, **json.loads({opts!r}))
P = g.spec.num_players
g.spec.run_batch(1, 10**9, 200, [{code}] * P)
g.spec.run_batch(1, 0, int(sys.argv[1]), [{code}] * P)
"""


def _env():
    env = dict(os.environ)
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONHASHSEED="0",
               # a fixed mmap threshold: glibc otherwise moves it with the process's history (what
               # calloc costs inside run_batch is left out of the count anyway: calloc_cost)
               MALLOC_MMAP_THRESHOLD_="65536")
    return env


# what a game's process counts: only the instructions inside run_batch (its Python wrapper, and all
# it calls), so the interpreter's start-up, imports and exit, whose counts move with address-space
# layout (pointer-keyed dicts and sets), stay out; the C loop's process is counted whole
RUN_BATCH = "__pyx_pw_7cardsim_4core_7_engine_8GameSpec_*run_batch"


def _ir(cmd, tmp, collect=None):
    """(total instructions, {function: self instructions}) of one process under callgrind;
    collect: only inside this function (callgrind's --toggle-collect pattern)."""
    fd, out = tempfile.mkstemp(dir=tmp, suffix=".cg")
    os.close(fd)
    opts = [f"--toggle-collect={collect}"] if collect else []
    subprocess.run(["valgrind", "--tool=callgrind", *opts, f"--callgrind-out-file={out}", *cmd],
                   check=True, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = pathlib.Path(out).read_text()
    m = re.search(r"^(?:totals|summary):\s+(\d+)", text, flags=re.M)
    if not m:
        raise RuntimeError(f"no instruction total in callgrind's output for {cmd}")
    ann = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", "--auto=no", out],
                         check=True, capture_output=True, text=True, env=_env()).stdout
    tree = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=yes", "--tree=caller", "--auto=no",
                           out], check=True, capture_output=True, text=True, env=_env()).stdout
    selfs = parse_annotate(ann)
    zeroing, cleared = calloc_cost(tree, selfs)
    for label, ir in cleared.items():
        selfs[label] -= ir
    return int(m.group(1)) - zeroing, selfs


_TREE_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?([<*>])\s+(\S.*?)(?:\s+\([\d,]+x\))?\s*(?:\[(.+)\])?\s*$")


def calloc_cost(tree, selfs):
    """(calloc's inclusive Ir, {label: Ir of that function called from calloc}) from
    callgrind_annotate --tree=caller --inclusive=yes. calloc is numpy's np.zeros for run_batch's
    result arrays: whether it clears a chunk (memset) or gets zero pages from the kernel depends on
    the heap's history, not on the kernel, and moved a row by up to ~200 instructions per deal from
    one run to the next; the count leaves it out (the kernels allocate nothing while dealing).
    selfs: the self costs (parse_annotate); only a leaf (its inclusive cost equals its self cost:
    memset) is in the dict, since a call's cost from calloc is inclusive and a non-leaf's part of
    it cannot be told from its callees' (their few instructions stay in "everything else")."""
    total, cleared, callers = 0, {}, []
    for line in tree.splitlines():
        m = _TREE_LINE.match(line)
        if not m:
            callers = []
            continue
        ir, mark, where, obj = int(m.group(1).replace(",", "")), m.group(2), m.group(3), m.group(4)
        func = where.rsplit(":", 1)[-1]
        if mark == "<":
            callers.append((func, ir))
        elif mark == "*":
            if func == "calloc":
                total += ir
            from_calloc = sum(c_ir for c_func, c_ir in callers if c_func == "calloc")
            label = function_label(func, obj)
            if from_calloc and func != "calloc" and selfs.get(label) == ir:
                cleared[label] = cleared.get(label, 0) + from_calloc
            callers = []
    return total, cleared


_ANN_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(?!PROGRAM TOTALS)([^:\s][^:]*?):(.+?)\s*(?:\[(.+)\])?\s*$")


def parse_annotate(text):
    """{function label: self Ir} from callgrind_annotate's per-function listing ("Ir  file:function
    [object]" lines, with or without a percentage); labels from function_label."""
    out = {}
    for line in text.splitlines():
        m = _ANN_LINE.match(line)
        if not m or "=>" in line or "<" in line.split(":")[0]:
            continue
        ir = int(m.group(1).replace(",", ""))
        label = function_label(m.group(3).strip(), m.group(4))
        out[label] = out.get(label, 0) + ir
    return out


def demangle(name):
    """A Cython C name as module.function: __pyx_f_7cardsim_5games_6hearts_6_state_play_loop ->
    hearts._state.play_loop (length-prefixed components, then the function; `cardsim.` and
    `games.` left out); a name that is not Cython's comes back unchanged."""
    m = re.match(r"__pyx_(?:f|pf|pw)_(.*)$", name)
    if not m:
        return name
    rest, parts = m.group(1), []
    while True:
        d = re.match(r"\d+", rest)
        if not d or len(rest) < d.end() + int(d.group(0)):
            break
        n = int(d.group(0))
        parts.append(rest[d.end():d.end() + n])
        rest = rest[d.end() + n:]
        if not rest.startswith("_"):
            break
        rest = rest[1:]
    rest = re.sub(r"^\d+", "", rest)            # a def method's index (__pyx_pf_..._40run_batch)
    if parts and parts[0] == "cardsim":
        parts = parts[1:]
    if parts and parts[0] == "games":
        parts = parts[1:]
    return ".".join(parts + ([rest] if rest else []))


def function_label(func, obj=None):
    """The label of a profiled function: a cardsim function by its module and name (hearts._state.
    play_loop, core._engine.play_one), anything else by name and library (memset (libc.so.6))."""
    base = re.sub(r"'\d+$", "", func)              # callgrind's recursion-depth suffix
    if base.startswith("__pyx_"):
        return demangle(base)
    lib = pathlib.PurePath(obj).name if obj else "?"
    return f"{base} ({lib})"


def _profile(a, b, n, total, keep=0.005, most=12):
    """[[label, instructions per deal], ...] of one measured row: (b - a) / n per function, the
    largest first; functions under `keep` of the total (or beyond the `most`-th) are summed into
    "everything else", so the figures add up to the total."""
    per = {k: (b.get(k, 0) - a.get(k, 0)) / n for k in set(a) | set(b)}
    big = sorted((kv for kv in per.items() if kv[1] >= keep * total), key=lambda kv: -kv[1])[:most]
    rest = total - sum(v for _k, v in big)
    rows = [[k, round(v, 1)] for k, v in big]
    rows.append(["everything else", round(rest, 1)])
    return rows


def per_deal(cmd_for_n, n, tmp, profile=False, collect=None):
    """(Ir(2n) - Ir(n)) / n: instructions of one deal, start-up cancelled; with profile=True,
    (that, its profile by function, what was counted: "run_batch" or "process"). With `collect`,
    only inside that function; a build whose symbols were stripped (pip's default install strips
    them) has no such name, nothing is collected, and the whole process is counted instead."""
    counted = "run_batch" if collect else "process"
    a, pa = _ir(cmd_for_n(n), tmp, collect)
    b, pb = _ir(cmd_for_n(2 * n), tmp, collect)
    if collect and a == 0 and b == 0:
        print(f"bench/instructions.py: {collect} not found (a stripped build?): counting the whole "
              "process; build with SKBUILD_INSTALL_STRIP=false for the run_batch-only count and named "
              "profiles", file=sys.stderr)
        counted = "process"
        a, pa = _ir(cmd_for_n(n), tmp)
        b, pb = _ir(cmd_for_n(2 * n), tmp)
    value = (b - a) / n
    return (value, _profile(pa, pb, n, value), counted) if profile else value


def game_cmd(game, opts, code, tmp):
    path = pathlib.Path(tmp) / f"run_{game}_{abs(hash(json.dumps(opts, sort_keys=True)))}_{code}.py"
    path.write_text(_SCRIPT.format(game=game, opts=json.dumps(opts), code=code))
    return lambda n: [sys.executable, str(path), str(n)]


def engine_pdep():
    """Whether the measured engine picks a random agent's action by PDEP on this CPU
    (build_info()["pdep"]; the C loop, built without -mbmi2, selects by a loop)."""
    out = subprocess.run([sys.executable, "-c", "import cardsim.core._engine as e; print(e.build_info()['pdep'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    return out == "True"


def build_reference(tmp, source=REFERENCE, extra=()):
    """Compile a C reference with the engine's flags (cardsim.bench.reference_cflags) and `extra`."""
    source = pathlib.Path(source)
    exe = pathlib.Path(tmp) / source.stem
    flags = json.loads(subprocess.run(
        [sys.executable, "-c", "import json, cardsim.bench as b; print(json.dumps(b.reference_cflags()))"],
        capture_output=True, text=True, check=True).stdout)
    subprocess.run(["gcc", *flags, *extra, "-o", str(exe), str(source)], check=True)
    return exe


def build_floor(tmp, label, pdep):
    """The floor of a configuration (FLOORS), compiled as the engine picks a drawn legal bit: with
    -mbmi2 (PDEP) where the engine uses PDEP on this CPU, else by the portable loop."""
    return build_reference(tmp, HERE / "reference" / FLOORS[label], ["-mbmi2"] if pdep else [])


def measure(configs, agents, deals_scale=1.0, jobs=1, progress=None):
    """Rows of dicts: label, game, options, agent, deals, instructions per deal, C loop, ratio,
    target (random agents), met."""
    pdep = engine_pdep()
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_reference(tmp)
        loops = sorted({c[4] for c in configs if c[4]})
        tasks = [("ref", mode, None, max(20, int(6000 * deals_scale))) for mode in loops]
        floors = {}
        for cfg in configs:
            for agent in agents:
                tasks.append(("game", cfg, agent, max(10, int(cfg[3] * deals_scale))))
            if cfg[0] in FLOORS and "random" in agents:
                floors[cfg[0]] = build_floor(tmp, cfg[0], pdep)
                tasks.append(("floor", cfg[0], None, max(10, int(cfg[3] * deals_scale))))

        def run(task):
            kind, what, agent, n = task
            if kind == "ref":
                return task, per_deal(lambda k: [str(exe), what, str(k), "1", "42"], n, tmp)
            if kind == "floor":     # seed 1, deals 0..k-1: the difference is the game row's deals N..2N-1
                return task, per_deal(lambda k: [str(floors[what]), "1", "0", str(k)], n, tmp)
            label, game, opts = what[:3]
            return task, per_deal(game_cmd(game, opts, AGENTS[agent], tmp), n, tmp, profile=True,
                                  collect=RUN_BATCH)

        results = {}
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for task, value in pool.map(run, tasks):
                results[(task[0], task[1] if task[0] != "game" else task[1][0], task[2])] = (value, task[3])
                if progress:
                    progress(task, value[0] if isinstance(value, tuple) else value)
        rows = []
        for label, game, opts, _n, loop, target in configs:
            ref = results[("ref", loop, None)][0] if loop else None
            for agent in agents:
                (value, prof, counted), n = results[("game", label, agent)]
                tgt = target if agent == "random" else None
                rows.append({"label": label, "game": game, "options": opts, "agent": agent, "deals": n,
                             "instructions_per_deal": round(value, 1),
                             "c_loop": ({"1": "1 deck", "2deck": "2 decks"}[loop] if loop else None),
                             "c_loop_instructions_per_deal": round(ref, 1) if ref else None,
                             "ratio_to_c_loop": round(value / ref, 2) if ref else None,
                             "target": tgt, "met": (value <= tgt) if tgt else None, "counted": counted,
                             "pdep": pdep, "profile": prof})
                if agent == "random" and ("floor", label, None) in results:
                    floor = results[("floor", label, None)][0]
                    rows[-1].update({"floor": FLOORS[label], "floor_instructions_per_deal": round(floor, 1),
                                     "ratio_to_floor": round(value / floor, 2),
                                     "target_to_floor": round(tgt / floor, 2) if tgt else None})
        return rows


def table(rows):
    lines = ["| game | agent | instructions per deal | C loop | ratio to the C loop | issue-26 target | met |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        loop = (f"{r['c_loop_instructions_per_deal']:,.0f} ({r['c_loop']})" if r["c_loop"] else "—")
        ratio = f"{r['ratio_to_c_loop']:.2f}×" if r["ratio_to_c_loop"] else "—"
        tgt = f"≤ {r['target']:,}" if r["target"] else "—"
        met = {True: "yes", False: "no", None: "—"}[r["met"]]
        lines.append(f"| {r['label']} | {r['agent']} | {r['instructions_per_deal']:,.0f} | {loop} | {ratio} | {tgt} | {met} |")
    return "\n".join(lines)


ROW_PREFIX = "callgrind instructions per deal"
DOC_NOTE_START = "<!-- instructions: generated by bench/instructions.py --write-doc; do not edit by hand -->"


def doc_rows(rows):
    """{game: [table rows]}: the callgrind rows of docs/performance.md, one per (configuration,
    agent), the ratio to the C loop and the issue's target beside each; then, for a random row
    with a floor (FLOORS), the same figure against the game's deals by hand in C."""
    out, floors = {}, {}
    for r in rows:
        who = r["label"].replace(r["game"], "").strip().strip("()")
        what = f"{ROW_PREFIX}, {r['agent']} agents" + (f", {who}" if who else "")
        loop = f"{r['c_loop_instructions_per_deal']:,.0f} ({r['c_loop']})" if r["c_loop"] else "—"
        ratio = f"{r['ratio_to_c_loop']:.2f}" if r["ratio_to_c_loop"] else "—"
        tgt = f"<= {r['target']:,} (issue 26)" if r["target"] else "—"
        out.setdefault(r["game"], []).append(
            f"| {what} | {r['instructions_per_deal']:,.0f} | {loop} | {ratio} | — | — | {tgt} |")
        if r.get("floor"):
            floors.setdefault(r["game"], []).append(
                f"| {what}, against the same deals by hand in C | {r['instructions_per_deal']:,.0f} | "
                f"{r['floor_instructions_per_deal']:,.0f} (bench/reference/{r['floor']}) | {r['ratio_to_floor']:.2f} "
                f"| — | — | " + (f"{r['target_to_floor']:.2f} × the floor" if r["target"] else "—") + " |")
    for game, lines in floors.items():          # after the game's rows against the C loop
        out[game] += lines
    return out


PROFILE_START = "<!-- profile: generated by bench/instructions.py --write-doc from its JSON; do not edit by hand -->"
PROFILE_END = "<!-- /profile -->"


def doc_profiles(rows):
    """{game: the generated block}: for each random-agent row of the game, where its instructions
    per deal go (the row's profile) as a table with each function's share."""
    out = {}
    for r in rows:
        if r["agent"] != "random" or not r.get("profile"):
            continue
        total = r["instructions_per_deal"]
        lines = [f"Where a random deal's instructions go ({r['label']}, {total:,.0f} per deal): each "
                 "function's self cost in the same two callgrind runs as the row, (Ir(2N) - Ir(N)) / N. "
                 "A function the C compiler inlined counts in its caller: `play_loop` is the batch "
                 "loop with the game's legal set, apply and the random agents' draw and pick inlined "
                 "into it; `_pl_fused_play` and `fused_*`, where a game has them, are the random play the "
                 "loop hands whole segments to (core/_play_loop.pxi). The figures add up to the row's.",
                 "",
                 "| function | instructions per deal | share of the deal |",
                 "|---|---|---|"]
        for name, v in r["profile"]:
            lines.append(f"| {name} | {v:,.0f} | {100 * v / total:.1f}% |")
        out.setdefault(r["game"], []).append("\n".join(lines))
    return {g: "\n".join([PROFILE_START, "\n\n".join(blocks), PROFILE_END]) for g, blocks in out.items()}


SUMMARY_START = "<!-- summary: generated by bench/instructions.py --write-doc from its JSON; do not edit by hand -->"
SUMMARY_END = "<!-- /summary -->"


def doc_summary(rows):
    """The block at the top of docs/performance.md: the verdict on issue 26's targets first (how
    many are met, which are not and by how much), then one line per configuration with its random
    and greedy figures and their ratios to the C loop. None unless `rows` hold every configuration
    with both agents (a partial run leaves the block as it is)."""
    got = {(r["label"], r["agent"]): r for r in rows}
    if any((c[0], a) not in got for c in CONFIGS for a in ("random", "greedy")):
        return None
    rand = [got[(c[0], "random")] for c in CONFIGS]
    with_target = [r for r in rand if r["target"]]
    missed = [r for r in with_target if not r["met"]]
    loops = sorted({(r["c_loop"], r["c_loop_instructions_per_deal"]) for r in rand if r["c_loop"]})
    verdict = (f"**Where it stands.** Issue 26's targets (callgrind instructions per deal, random agents at "
               f"every seat): {len(with_target) - len(missed)} of {len(with_target)} met.")
    if missed:
        verdict += " Not met: " + "; ".join(
            f"{r['label']}, {r['instructions_per_deal']:,.0f} against a target of {r['target']:,}" for r in missed) + "."
    lines = [SUMMARY_START, "", verdict, "",
             "Figures: callgrind instructions per deal inside `game.spec.run_batch`, lower is better (the "
             "method is in the next paragraph). The C reference loop, bench/reference/trick_limit.c, plays "
             "a plain four-player trick game with random cards in "
             + " and ".join(f"{v:,.0f} ({k})" for k, v in loops)
             + " instructions per deal; a ratio of 2 means twice its instructions. Greedy agents are the "
             "default agents of `simulate` and the CLI.",
             "",
             "| game | random agents | ratio to the C loop | issue-26 target | met | greedy agents | ratio to the C loop |",
             "|---|---|---|---|---|---|---|"]
    for c in CONFIGS:
        r, g = got[(c[0], "random")], got[(c[0], "greedy")]
        ratio = (lambda x: f"{x['ratio_to_c_loop']:.2f}" if x["ratio_to_c_loop"] else "—")
        lines.append(f"| {c[0]} | {r['instructions_per_deal']:,.0f} | {ratio(r)} | "
                     + (f"≤ {r['target']:,} | {'yes' if r['met'] else 'no'}" if r["target"] else "— | —")
                     + f" | {g['instructions_per_deal']:,.0f} | {ratio(g)} |")
    floors = [r for r in rand if r.get("floor")]
    if floors:
        lines += ["", " ".join(
            f"{r['label'].capitalize()} by hand in C, bench/reference/{r['floor']}, plays the same random deals card "
            f"for card on the engine's own random streams (tests/test_reference.py checks it) in "
            f"{r['floor_instructions_per_deal']:,.0f} instructions per deal: the kernel takes {r['ratio_to_floor']:.2f}× "
            f"that floor" + (f", the target {r['target_to_floor']:.2f}×." if r["target"] else ".") for r in floors)]
    lines += ["", SUMMARY_END]
    return "\n".join(lines)


def _measure_cell(line):
    """The first cell of a table row (what it measures): a row's identity in the doc."""
    return line.split("|")[1].strip()


def merge_rows(old, new):
    """The rows of `old` (an earlier full measurement) with those of `new` put in place of the
    rows of the same configuration and agent, in CONFIGS order (random before greedy): a partial
    run (some games, one agent) updates only what it measured."""
    got = {(r["label"], r["agent"]): r for r in old}
    got.update({(r["label"], r["agent"]): r for r in new})
    order = {(c[0], a): i for i, (c, a) in enumerate((c, a) for c in CONFIGS for a in ("random", "greedy"))}
    return sorted(got.values(), key=lambda r: order.get((r["label"], r["agent"]), len(order)))


def write_doc(rows, path):
    """Put `rows` into docs/performance.md (atomically): the summary at the top (doc_summary, when
    the rows are complete) replaces the old one; each row replaces the callgrind row of the
    same configuration and agent in its game's table (a row the table lacks follows its last
    row; rows not measured stay as they are); a game's profile block (if its random row carries
    a profile) replaces the old one at the end of its section."""
    import re as _re
    path = pathlib.Path(path)
    text = path.read_text(encoding="utf-8")
    new = doc_rows(rows)
    profiles = doc_profiles(rows)
    parts = _re.split(r"(?m)^(## \S+\s*)$", text)
    head = parts[0]
    summary = doc_summary(rows)
    if summary is not None:
        if SUMMARY_START in head:
            head = _re.sub(_re.escape(SUMMARY_START) + r".*?" + _re.escape(SUMMARY_END), lambda m: summary, head,
                           flags=_re.S)
        else:                                   # after the title line
            title, _, rest = head.partition("\n")
            head = title + "\n\n" + summary + "\n\n" + rest.lstrip("\n")
    out = [head]
    for head, body in zip(parts[1::2], parts[2::2]):
        game = head[3:].strip()
        if game in new:
            fresh = {_measure_cell(ln): ln for ln in new[game]}
            lines = [fresh.pop(_measure_cell(ln), ln) if ln.startswith(f"| {ROW_PREFIX}") else ln
                     for ln in body.split("\n")]
            # a row the table lacks: after the table's last callgrind row, else at the end of
            # the section's first table (a section may hold more tables after it: the profile)
            rows_at = [i for i, ln in enumerate(lines) if ln.startswith(f"| {ROW_PREFIX}")]
            if rows_at:
                last = rows_at[-1]
            else:
                last = next(i for i, ln in enumerate(lines) if ln.startswith("|"))
                while last + 1 < len(lines) and lines[last + 1].startswith("|"):
                    last += 1
            lines[last + 1:last + 1] = list(fresh.values())
            body = "\n".join(lines)
        if game in profiles:
            body = _re.sub(_re.escape(PROFILE_START) + r".*?" + _re.escape(PROFILE_END) + r"\n*", "", body,
                           flags=_re.S)
            last_section = head is parts[-2]
            body = body.rstrip("\n") + "\n\n" + profiles[game] + ("\n" if last_section else "\n\n")
        out += [head, body]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(out), encoding="utf-8")
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Figures: instructions per deal (callgrind Ir), (Ir(2N) - Ir(N)) / N.")
    ap.add_argument("games", nargs="*", help="games to measure (default: every row of the issue-26 table)")
    ap.add_argument("--agent", choices=["random", "greedy", "both"], default="random",
                    help="the agents at every seat (default random; both = two rows per game)")
    ap.add_argument("--smoke", action="store_true",
                    help=f"CI mode: {SMOKE_DEALS} deals, {' and '.join(SMOKE_GAMES)} only unless games are named")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every row's deal count (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="callgrind processes at once (default 1)")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON (atomically)")
    ap.add_argument("--update", metavar="FILE", help="merge the measured rows into this JSON of an earlier "
                    "full run (e.g. docs/instructions.json; rows of the same configuration and agent are "
                    "replaced, the others kept; atomically); --write-doc then writes the merged rows")
    ap.add_argument("--from-json", metavar="FILE", help="measure nothing: take the rows of an earlier --json run "
                    "(for --write-doc)")
    ap.add_argument("--write-doc", metavar="MD", help="rewrite the callgrind rows of the measured games in this "
                    "docs/performance.md (atomically); with --json, the JSON docs/instructions.json is what "
                    "tests/test_performance_doc.py compares the rows with")
    args = ap.parse_args(argv)
    for tool in ("valgrind", "callgrind_annotate", "gcc"):
        if shutil.which(tool) is None:
            print(f"bench/instructions.py needs {tool} on PATH", file=sys.stderr)
            return 2
    known = sorted({c[1] for c in CONFIGS})
    unknown = [g for g in args.games if g not in known]
    if unknown:
        ap.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(known)}")
    if args.scale <= 0 or args.jobs < 1:
        ap.error("--scale must be > 0 and --jobs >= 1")
    if args.update and (args.smoke or args.from_json):
        ap.error("--update merges a real measurement: not with --smoke (too few deals) or --from-json")
    wanted = args.games or (list(SMOKE_GAMES) if args.smoke else known)
    configs = [c for c in CONFIGS if c[1] in wanted]
    agents = ["random", "greedy"] if args.agent == "both" else [args.agent]
    scale = args.scale
    if args.smoke:
        configs = [(*c[:3], SMOKE_DEALS, *c[4:]) for c in configs]
        scale = 1.0
    if args.from_json:
        rows = json.loads(pathlib.Path(args.from_json).read_text())
        print(table(rows))
        if args.write_doc:
            write_doc(rows, args.write_doc)
        return 0
    rows = measure(configs, agents, scale, args.jobs,
                   progress=lambda t, v: print(f"  {t[1] if t[0] != 'game' else t[1][0]} "
                                               f"{t[2] or ('C loop' if t[0] == 'ref' else 'by hand in C')}: "
                                               f"{v:,.0f} instructions per deal", file=sys.stderr))
    print(table(rows))
    if args.json:
        _write_json(rows, args.json)
    if args.update:
        rows = merge_rows(json.loads(pathlib.Path(args.update).read_text()), rows)
        _write_json(rows, args.update)
    if args.write_doc:
        write_doc(rows, args.write_doc)
    return 0


def _write_json(rows, path):
    path = pathlib.Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(rows, indent=1) + "\n")
    os.replace(tmp, path)


if __name__ == "__main__":
    sys.exit(main())
