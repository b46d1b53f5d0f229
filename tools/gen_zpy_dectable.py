"""shengji's decomposition orderings (ordered_card.rs full_decomposition_ordering, ported) and the
static C table the formats kernel reads (ext/cardsim/games/zhao_pengyou/_dectable.pxd), generated
from them at build time instead of installed from Python at run time:

    python tools/gen_zpy_dectable.py          # rewrite ext/cardsim/games/zhao_pengyou/_dectable.pxd
    python tools/gen_zpy_dectable.py --check  # exit 1 if it is out of date (a test does this)

The table lists, for each unit size n = 1..DEC_MAXN, every way of playing n cards as adjacent-tuple
shapes, in shengji's order: requirements (dec_nstart[n], dec_ncount[n]), each a run of shapes
(dec_rstart, dec_rns), each a run of tuple sizes (dec_sstart, dec_slen, dec_vals). The sizes of the
C arrays are named constants of the generated file, checked against the table before it is written.
A developer tool (not installed with the package). Pure Python: no compiled module.
"""
from __future__ import annotations

import itertools
import pathlib
import sys

DEC_MAXN = 12            # units up to 12 cards have shengji's full decomposition ordering
RQ_MAXS = 48             # shapes in one requirement (the kernel's Req.slen)
RQ_MAXV = 96             # tuple sizes in one requirement (the kernel's Req.vals)

_DEC_CACHE: dict = {}


_DEC_CACHE = {}


def _unique(seq):
    seen = set()
    out = []
    for x in seq:
        k = repr(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def find_tuple_partitions(num):
    """The partitions of num, descending (ordered_card.rs find_tuple_partitions)."""
    key = ("p", num)
    if key in _DEC_CACHE:
        return _DEC_CACHE[key]
    if num == 1:
        groupings = [[1]]
    else:
        groupings = []
        for g in find_tuple_partitions(num - 1):
            done = set()
            for v in g:
                if v not in done:
                    done.add(v)
                    found = False
                    g2 = []
                    for vv in g:
                        if vv == v and not found:
                            found = True
                            g2.append(vv + 1)
                        else:
                            g2.append(vv)
                    groupings.append(g2)
            groupings.append(list(g) + [1])
        groupings.sort(reverse=True)
        groupings = [g for i, g in enumerate(groupings) if i == 0 or groupings[i - 1] != g]
    _DEC_CACHE[key] = groupings
    return groupings


def _adjacent_assignments(length):
    key = ("a", length)
    if key in _DEC_CACHE:
        return _DEC_CACHE[key]
    if length == 1:
        out = [[[0]]]
    else:
        elem = length - 1
        out = []
        for part in _adjacent_assignments(length - 1):
            part = [list(p) for p in part]
            for i in range(len(part)):
                part[i].append(elem)
                out.append([list(p) for p in part])
                part[i].pop()
            out.append([list(p) for p in part] + [[elem]])
        out.sort(key=lambda a: (-max(len(v) for v in a), len(a)))
        out = [a for i, a in enumerate(out) if i == 0 or out[i - 1] != a]
    _DEC_CACHE[key] = out
    return out


def _sequential_tuples(values):
    res = []
    for assignment in _adjacent_assignments(len(values)):
        assignment = [[values[i] for i in sub] for sub in assignment]
        if all(all(pp == p[0] for pp in p) for p in assignment):
            res.append(assignment)
        else:
            perms = [_unique([list(x) for x in itertools.permutations(p)]) for p in assignment]
            for combo in itertools.product(*perms):
                res.append([list(c) for c in combo])
    return _unique(res)


def full_decomposition_ordering(n):
    """Every way of playing n cards as adjacent-tuple shapes, in shengji's order
    (ordered_card.rs full_decomposition_ordering)."""
    key = ("f", n)
    if key in _DEC_CACHE:
        return _DEC_CACHE[key]
    full = []
    for group in find_tuple_partitions(n):
        one = group.index(1) if 1 in group else len(group)
        gt1, eq1 = group[:one], group[one:]
        if not gt1:
            full.append([[v] for v in eq1])
        else:
            for d in _sequential_tuples(gt1):
                d = d + [[v] for v in eq1]
                d.sort(reverse=True)
                full.append(d)
    full = _unique(full)
    _DEC_CACHE[key] = full
    return full


def table() -> dict:
    """{n: full_decomposition_ordering(n)} for n = 1..DEC_MAXN."""
    return {n: full_decomposition_ordering(n) for n in range(1, DEC_MAXN + 1)}


def _flatten(tab) -> tuple:
    """The C arrays of a table, checked (ValueError) before anything is built or written: a dict
    with the keys 1..DEC_MAXN, tab[n] a list of requirements, each a non-empty list of shapes
    within the kernel's RQ_MAXS shapes and RQ_MAXV sizes, each shape a non-empty list of tuple
    sizes (ints 1..n) adding up to n over the requirement."""
    what = ("the decomposition table must map each n in 1..12 to a list of requirements, each a list of "
            "shapes (lists of tuple sizes 1..n adding up to n)")
    if not isinstance(tab, dict) or any(n not in tab for n in range(1, DEC_MAXN + 1)):
        raise ValueError(what)
    nstart, ncount, rstart, rns, sstart, slen, vals = [0], [0], [], [], [], [], []
    for n in range(1, DEC_MAXN + 1):
        reqs = tab[n]
        if not isinstance(reqs, (list, tuple)):
            raise ValueError(what)
        nstart.append(len(rns))
        ncount.append(len(reqs))
        for req in reqs:
            if not isinstance(req, (list, tuple)) or not req or len(req) > RQ_MAXS:
                raise ValueError(f"{what}; at most {RQ_MAXS} shapes in a requirement")
            if any(not isinstance(sh, (list, tuple)) or not sh for sh in req):
                raise ValueError(what)
            if sum(len(sh) for sh in req) > RQ_MAXV:
                raise ValueError(f"{what}; at most {RQ_MAXV} tuple sizes in a requirement")
            if any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= n for sh in req for x in sh):
                raise ValueError(what)
            if sum(x for sh in req for x in sh) != n:
                raise ValueError(what)
            rstart.append(len(slen))
            rns.append(len(req))
            for shape in req:
                sstart.append(len(vals))
                slen.append(len(shape))
                vals.extend(shape)
    return nstart, ncount, rstart, rns, sstart, slen, vals


def _c_array(ctype: str, name: str, size: int, values: list) -> list[str]:
    assert len(values) == size, name
    rows = [f"static const {ctype} {name}[{size}] = {{"]
    for i in range(0, len(values), 24):
        rows.append("    " + ", ".join(str(v) for v in values[i:i + 24]) + ",")
    rows.append("};")
    return rows


def render() -> str:
    """The text of _dectable.pxd."""
    nstart, ncount, rstart, rns, sstart, slen, vals = _flatten(table())
    nreq, nshape, nval = len(rns), len(slen), len(vals)
    c = []
    c += _c_array("int", "zp_dec_nstart", DEC_MAXN + 1, nstart)
    c += _c_array("int", "zp_dec_ncount", DEC_MAXN + 1, ncount)
    c += _c_array("int", "zp_dec_rstart", nreq, rstart)
    c += _c_array("int", "zp_dec_rns", nreq, rns)
    c += _c_array("int", "zp_dec_sstart", nshape, sstart)
    c += _c_array("int", "zp_dec_slen", nshape, slen)
    c += _c_array("signed char", "zp_dec_vals", nval, vals)
    out = ["# shengji's decomposition orderings as static C tables: GENERATED by",
           "# `python tools/gen_zpy_dectable.py`.",
           "# Do not edit: the sizes are named constants, checked against the table before this file is written.",
           "from cardsim.core._types cimport int8_t",
           "",
           "cdef enum:",
           f"    DEC_MAXN = {DEC_MAXN}".ljust(40) + "# unit sizes 1..DEC_MAXN have a table entry",
           f"    DEC_NREQ = {nreq}".ljust(40) + "# requirements in the table",
           f"    DEC_NSHAPE = {nshape}".ljust(40) + "# shapes",
           f"    DEC_NVAL = {nval}".ljust(40) + "# tuple sizes",
           f"    RQ_MAXS = {RQ_MAXS}".ljust(40) + "# shapes in one requirement",
           f"    RQ_MAXV = {RQ_MAXV}".ljust(40) + "# tuple sizes in one requirement",
           "",
           "cdef extern from *:",
           '    """']
    out += ["    " + r for r in c]
    out += ['    """',
            "    const int zp_dec_nstart[DEC_MAXN + 1]     # first requirement of unit size n",
            "    const int zp_dec_ncount[DEC_MAXN + 1]     # requirements of unit size n",
            "    const int zp_dec_rstart[DEC_NREQ]         # first shape of a requirement",
            "    const int zp_dec_rns[DEC_NREQ]            # shapes of a requirement",
            "    const int zp_dec_sstart[DEC_NSHAPE]       # first tuple size of a shape",
            "    const int zp_dec_slen[DEC_NSHAPE]         # tuple sizes of a shape (1 = a tuple, >= 2 a tractor)",
            "    const int8_t zp_dec_vals[DEC_NVAL]        # the tuple sizes"]
    return "\n".join(out) + "\n"


def path() -> pathlib.Path:
    return pathlib.Path(__file__).resolve().parent.parent / "ext" / "cardsim" / "games" / "zhao_pengyou" / "_dectable.pxd"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text, p = render(), path()
    if "--check" in argv:
        if not p.exists() or p.read_text() != text:
            print(f"{p} is out of date: run python tools/gen_zpy_dectable.py")
            return 1
        return 0
    tmp = p.with_name(p.name + ".tmp")          # written atomically: a temporary file, renamed
    tmp.write_text(text)
    tmp.replace(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
