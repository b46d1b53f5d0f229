"""ISMCTS over the per-game vtable (see _search.pxd). Generic: no game rule lives here.

Rewards are scale-free so one exploration constant serves every game: after a playout, seat p
scores the share of the other seats whose return it beats (ties count a half), in [0, 1]. In a
partnership game the partner always ties, which shifts every reward equally and changes nothing.
"""
from libc.math cimport sqrt, log
from libc.string cimport memcpy

from cardsim.core._types cimport int32_t, MAX_PLAYERS
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._actions cimport ActionSet, as_count, as_nth, as_has, as_remove, as_first
from cardsim.core._game cimport GameVTable


cdef inline void rewards(const double* ret, int n, double* out) noexcept nogil:
    cdef int p, q
    cdef double r
    for p in range(n):
        r = 0.0
        for q in range(n):
            if q != p:
                if ret[p] > ret[q]:
                    r += 1.0
                elif ret[p] == ret[q]:
                    r += 0.5
        out[p] = r / (n - 1) if n > 1 else 0.5


cdef int ismcts_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                       Rng* rng) noexcept nogil:
    """The action ISMCTS picks for the seat to act in `root` (which it never modifies).

    Each iteration redraws the hidden cards from the acting seat's point of view
    (vt.resample), descends the tree choosing among the children legal in this
    determinization by UCB1 with availability counts (total/visits + c*sqrt(ln(avail)/visits)),
    expands one untried legal action, plays a uniformly random rollout and backs up each node's
    reward for the seat that chose it. Returns the most visited root child."""
    cdef MctsNode* nodes = w.nodes
    cdef ActionSet las, untried
    cdef double ret[MAX_PLAYERS]
    cdef double rew[MAX_PLAYERS]
    cdef int me = vt.current_player(root, cfg)
    cdef int nw = w.action_words
    cdef int n_nodes = 1, it, node, child, n, p, a, best, k
    cdef double score, best_score
    n = vt.legal(root, cfg, &las)
    if n <= 1:
        return as_first(&las, nw)
    nodes[0].parent = -1
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].action = -1
    nodes[0].player = -1
    nodes[0].visits = 0
    nodes[0].avail = 0
    nodes[0].total = 0.0
    for it in range(w.iterations):
        memcpy(w.det, root, w.state_size)
        if not vt.resample(w.det, cfg, me, rng):
            continue             # no consistent world this time: skip the iteration
        node = 0
        # selection and expansion
        while True:
            n = vt.legal(w.det, cfg, &las)
            if n == 0:
                break
            p = vt.current_player(w.det, cfg)
            untried = las
            best = -1
            best_score = -1.0
            child = nodes[node].first_child
            while child >= 0:
                a = nodes[child].action
                if as_has(&las, a):
                    as_remove(&untried, a)
                    nodes[child].avail += 1
                    score = (nodes[child].total / nodes[child].visits
                             + w.c * sqrt(log(<double>nodes[child].avail) / nodes[child].visits))
                    if score > best_score:
                        best_score = score
                        best = child
                child = nodes[child].next_sibling
            k = as_count(&untried, nw)
            if k > 0 and n_nodes <= w.iterations:
                a = as_nth(&untried, nw, <int>rng_below(rng, <unsigned int>k))
                child = n_nodes
                n_nodes += 1
                nodes[child].parent = node
                nodes[child].first_child = -1
                nodes[child].next_sibling = nodes[node].first_child
                nodes[node].first_child = child
                nodes[child].action = a
                nodes[child].player = p
                nodes[child].visits = 0
                nodes[child].avail = 1
                nodes[child].total = 0.0
                vt.apply(w.det, cfg, a)
                node = child
                break
            if best < 0:
                break
            vt.apply(w.det, cfg, nodes[best].action)
            node = best
        # rollout
        while True:
            n = vt.legal(w.det, cfg, &las)
            if n == 0:
                break
            vt.apply(w.det, cfg, as_nth(&las, nw, <int>rng_below(rng, <unsigned int>n)))
        vt.returns(w.det, cfg, ret)
        rewards(ret, w.num_players, rew)
        while node > 0:
            nodes[node].visits += 1
            nodes[node].total += rew[nodes[node].player]
            node = nodes[node].parent
        nodes[0].visits += 1
    best = -1
    k = -1
    child = nodes[0].first_child
    while child >= 0:
        if nodes[child].visits > k:
            k = nodes[child].visits
            best = child
        child = nodes[child].next_sibling
    if best < 0:                 # every determinization failed: a uniformly random legal action
        n = vt.legal(root, cfg, &las)
        return as_nth(&las, nw, <int>rng_below(rng, <unsigned int>n))
    return nodes[best].action
