"""compare(): the difference between two runs, with intervals and p-values."""
from __future__ import annotations

import numpy as np

from cardsim.result import SimResult, as_result
from cardsim.stats import count_of, paired_difference, two_proportions, welch


def compare(a, b) -> dict:
    """The difference b - a between two runs (two variants, two agent line-ups, two seeds), with
    95% intervals and p-values, per seat (mean return, win rate), for draws, duration and every
    metric the two runs share.

    a, b: SimResult objects, summary dicts, or paths of saved results (.parquet, .csv, .json).
    When both runs kept their tables over the same seed and deal indices (the same deals under
    two rule sets or line-ups), return differences are *paired* deal by deal (common random
    numbers: much tighter intervals); otherwise Welch's t test on the two summaries, and
    Newcombe/z for win and draw rates (runs treated as independent)."""
    ra, rb = as_result(a), as_result(b)
    sa = ra.summary() if isinstance(ra, SimResult) else ra
    sb = rb.summary() if isinstance(rb, SimResult) else rb
    paired = (isinstance(ra, SimResult) and isinstance(rb, SimResult) and ra.table is not None
              and rb.table is not None and ra.seed == rb.seed and len(ra.table) == len(rb.table)
              and ra.num_players == rb.num_players and np.array_equal(ra.table["deal"], rb.table["deal"]))
    na, nb = count_of(sa), count_of(sb)
    out = {"a": {**{k: sa.get(k) for k in ("game", "options", "agents", "seed", "unit")}, "deals": na},
           "b": {**{k: sb.get(k) for k in ("game", "options", "agents", "seed", "unit")}, "deals": nb},
           "method": "paired" if paired else "independent", "seats": []}
    P = min(len(sa["seats"]), len(sb["seats"]))
    for p in range(P):
        A, B = sa["seats"][p], sb["seats"][p]
        if paired:
            ret = paired_difference(ra.table[f"return_{p}"], rb.table[f"return_{p}"])
        else:
            ret = welch(A["mean"], A["sd"], na, B["mean"], B["sd"], nb)
        win = two_proportions(A["wins"], na, B["wins"], nb)
        adv = welch(A["advantage"], None, na, B["advantage"], None, nb)
        out["seats"].append({"seat": p, "mean": ret, "win_rate": win,
                             "advantage": {"a": adv["a"], "b": adv["b"], "diff": adv["diff"]}})
    out["draws"] = two_proportions(sa["draws"]["count"], na, sb["draws"]["count"], nb)
    out["duration"] = {}
    for k in ("actions", "decisions"):
        if paired:
            out["duration"][k] = paired_difference(ra.table[k].astype(float), rb.table[k].astype(float))
        else:
            A, B = sa["duration"][k], sb["duration"][k]
            out["duration"][k] = welch(A["mean"], A["sd"], na, B["mean"], B["sd"], nb)
    out["metrics"] = {}
    for k in sa.get("metrics", {}):
        if k in sb.get("metrics", {}):
            if paired:
                out["metrics"][k] = paired_difference(ra.table[k], rb.table[k])
            else:
                A, B = sa["metrics"][k], sb["metrics"][k]
                out["metrics"][k] = welch(A["mean"], A["sd"], na, B["mean"], B["sd"], nb)
    fa, fb = sa.get("first_player"), sb.get("first_player")
    if fa and fb:
        out["first_player_win_rate"] = two_proportions(fa["positions"][0]["wins"], na, fb["positions"][0]["wins"], nb)
    return out
