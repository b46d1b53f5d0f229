"""Samba agents and factored moves: greedy beats random (95% CI), and the whole moves reachable
through the factored actions equal a brute-force enumeration from the spec's rules."""
import itertools

import numpy as np
import pytest

import cardsim
from cardsim.games.samba import classify_meld, scenario


def greedy_minus_random(players, deals, seed=7):
    """Per deal, the greedy side's score minus the mean of the random sides' scores, seats
    rotated: in deal d the greedy seats are those of side d mod S (S = number of sides)."""
    g = cardsim.make("samba", players=players)
    S = {2: 2, 4: 2}[players]
    diffs = []
    for side in range(S):
        agents = [1 if p % S == side else 0 for p in range(players)]
        r = g.spec.run_batch(seed, side * deals, deals // S, agents)["returns"]
        greedy = r[:, side]
        others = np.mean([r[:, q] for q in range(S) if q != side], axis=0)
        diffs.append(greedy - others)
    d = np.concatenate(diffs)
    return d.mean(), 1.96 * d.std(ddof=1) / np.sqrt(len(d))


def test_greedy_beats_random_quick():
    m, h = greedy_minus_random(4, 400)
    assert m - h > 0, (m, h)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_greedy_beats_random_10000_deals(players):
    m, h = greedy_minus_random(players, 10_000)
    assert m - h > 0, (m, h)


# ---- factored actions = brute force ------------------------------------------------------------
RANK_ORDER = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def rank_suit(c):
    return ("JK", None) if c == "JK" else (c[:-1], c[-1])


def wild(c):
    return c == "JK" or rank_suit(c)[0] == "2"


def natural(c):
    return not wild(c) and rank_suit(c)[0] in RANK_ORDER


def black3(c):
    return c in ("3S", "3C")


def group_ok(nat, w):
    return nat >= 2 and w <= 2 and nat + w >= 3


def meld_shape(cards):
    """('group', rank, nat, wild) | ('seq', suit, lo, hi) | ('black3',) | None, from the spec (§4.0)."""
    if len(cards) < 3:
        return None
    if all(black3(c) for c in cards):
        return ("black3",) if len(cards) <= 6 else None
    if any(not (natural(c) or wild(c)) for c in cards):
        return None
    nats = [c for c in cards if natural(c)]
    w = len(cards) - len(nats)
    if not nats:
        return None
    ranks = {rank_suit(c)[0] for c in nats}
    if len(ranks) == 1:
        return ("group", ranks.pop(), len(nats), w) if group_ok(len(nats), w) else None
    if w or len({rank_suit(c)[1] for c in nats}) != 1:
        return None
    idx = sorted(RANK_ORDER.index(rank_suit(c)[0]) for c in nats)
    if len(set(idx)) != len(idx) or idx[-1] - idx[0] + 1 != len(idx) or len(idx) > 7:
        return None
    return ("seq", rank_suit(nats[0])[1], idx[0], idx[-1])


def canasta(shape, n):
    return (shape[0] == "group" and n >= 7) or (shape[0] == "seq" and n == 7)


def brute_moves(hand, melds):
    """Every legal single T2 move of an opened side with an empty stage (§4.4 and HG)."""
    C = sum(canasta(meld_shape(m), len(m)) for m in melds)
    out = set()
    hg = lambda h, c: h >= 2 or c >= 2
    subsets = set()
    for r in range(1, len(hand) + 1):
        for comb in itertools.combinations(sorted(hand), r):
            subsets.add(comb)
    for comb in subsets:
        h = len(hand) - len(comb)
        sh = meld_shape(list(comb))
        if sh is not None:
            if sh[0] == "black3":
                if h <= 1 and C >= 2:
                    out.add(("meld", comb))
            elif hg(h, C + canasta(sh, len(comb))):
                out.add(("meld", comb))
        for i, m in enumerate(melds):
            ms = meld_shape(m)
            if ms[0] == "seq" and len(m) == 7:
                continue
            new = meld_shape(m + list(comb))
            if new is None or new[0] != ms[0] or (ms[0] != "black3" and new[1] != ms[1]):
                continue
            if ms[0] == "black3":
                ok = h <= 1 and C >= 2
            else:
                ok = hg(h, C - canasta(ms, len(m)) + canasta(new, len(m) + len(comb)))
            if ok:
                out.add(("layoff", comb, i))
    for c in set(hand):
        if len(hand) - 1 >= 1 or C >= 2:
            out.add(("discard", c))
    for i, a in enumerate(melds):
        for j, b in enumerate(melds):
            sa, sb = meld_shape(a), meld_shape(b)
            if i != j and sa[0] == sb[0] == "group" and sa[1] == sb[1] and group_ok(sa[2] + sb[2], sa[3] + sb[3]):
                out.add(("merge", i, j))
    return out


def engine_moves(st):
    """Every whole move reachable through the factored actions from st (stage empty)."""
    out = set()
    seen = set()

    def walk(s, staged):
        key = tuple(sorted(staged))
        if key in seen:
            return
        seen.add(key)
        for a in s.legal_actions():
            t = s.action_to_string(int(a))
            if t.startswith("+"):
                c = s.clone()
                c.apply(int(a))
                walk(c, staged + [t[1:]])
            elif t == "meld":
                out.add(("meld", key))
            elif t.startswith("layoff "):
                out.add(("layoff", key, int(t.split()[1])))
            elif t.startswith("discard "):
                out.add(("discard", t.split()[1]))
            elif t.startswith("merge "):
                c = s.clone()
                c.apply(int(a))
                for b in c.legal_actions():
                    out.add(("merge", int(t.split()[1]), int(c.action_to_string(int(b)).split()[1])))
    walk(st, [])
    return out


hyp = pytest.importorskip("hypothesis")
st_ = hyp.strategies

POOL = ["5S", "5H", "5D", "6S", "7S", "8S", "KS", "KH", "KD", "AS", "AH", "2S", "2H", "JK", "3S", "3C", "9D"]
MELDS = [["KS", "KH", "KC"], ["5C", "5C", "2D"], ["4S", "5S", "6S"], ["AC", "AC", "AD", "JK"],
         ["3C", "3C", "3S"], ["9S", "10S", "JS", "QS", "KS", "AS"], ["KD", "KD", "KC", "KC"]]
CANASTAS = [["QS", "QS", "QH", "QH", "QD", "QD", "QC"], ["JH", "JH", "JD", "JD", "JC", "JC", "JS"]]


@hyp.settings(max_examples=60, deadline=None)
@hyp.given(hand=st_.lists(st_.sampled_from(POOL), min_size=2, max_size=7),
           melds=st_.lists(st_.sampled_from(range(len(MELDS))), max_size=3, unique=True),
           ncan=st_.integers(0, 2))
def test_factored_moves_equal_brute_force(hand, melds, ncan):
    side = [MELDS[i] for i in melds if not (MELDS[i][0] == "3C")] + CANASTAS[:ncan]
    cards = hand + [c for m in side for c in m]
    hyp.assume(all(cards.count(c) <= (6 if c == "JK" else 3) for c in set(cards)))
    g = cardsim.make("samba", players=2)
    s = scenario(g, [hand, ["9C", "9C"]], pile=["5C"], melds=[side, []], opened=[True, False], turn=0, dealer=1,
                 phase="meld")
    assert engine_moves(s) == brute_moves(hand, side)
