"""Search agents over the per-game vtable (see _search.pxd): ISMCTS and PIMC, with random or
greedy playouts. Generic: no game rule lives here; the greedy playout policy is each game's own
vt.greedy.

Rewards are scale-free so one exploration constant serves every game: after a playout, seat p
scores the share of the other seats whose return it beats (ties count a half), in [0, 1]. In a
partnership game the partner always ties, which shifts every reward equally and changes nothing.
"""
from libc.math cimport sqrt, log
from libc.string cimport memcpy

from cardsim.core._types cimport int32_t, uint64_t, MAX_PLAYERS
from cardsim.core._bits cimport cs_ctz
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


cdef inline void playout_rewards(const double* ret, SearchWork* w, double* out) noexcept nogil:
    """Each seat's reward of a finished playout: rank share (scale-free) or own points (the
    range seen so far is tracked so that UCB can normalize)."""
    cdef int p
    if w.reward == REWARD_POINTS:
        for p in range(w.num_players):
            out[p] = ret[p]
            if ret[p] < w.lo:
                w.lo = ret[p]
            if ret[p] > w.hi:
                w.hi = ret[p]
    else:
        rewards(ret, w.num_players, out)


cdef inline double norm_value(const SearchWork* w, double mean) noexcept nogil:
    """A node's mean reward on the [0, 1] scale the exploration constant is tuned for."""
    if w.reward != REWARD_POINTS:
        return mean
    if w.hi > w.lo:
        return (mean - w.lo) / (w.hi - w.lo)
    return 0.5


cdef inline void rollout(const GameVTable* vt, const void* cfg, void* st, const SearchWork* w,
                         Rng* rng) noexcept nogil:
    """Play st to the end: uniformly random legal actions, or the game's greedy agent."""
    cdef ActionSet las
    cdef int n
    while True:
        n = vt.legal(st, cfg, &las)
        if n == 0:
            return
        if w.rollout == ROLLOUT_GREEDY and n > 1:
            vt.apply(st, cfg, vt.greedy(st, cfg, &las, n, rng))
        else:
            vt.apply(st, cfg, as_nth(&las, w.action_words, <int>rng_below(rng, <unsigned int>n)))


cdef int search_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                       Rng* rng) noexcept nogil:
    """The configured search agent's action for the seat to act in root (never modified)."""
    if w.kind == SEARCH_PIMC:
        return pimc_choose(vt, cfg, root, w, rng)
    return ismcts_choose(vt, cfg, root, w, rng)


cdef int pimc_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                     Rng* rng) noexcept nogil:
    """Perfect-information Monte Carlo (determinized flat Monte Carlo with voting).

    Samples `worlds` determinizations with vt.resample from the acting seat's view (hidden cards
    redrawn, never the true ones); in each, every legal action gets an equal share of the
    world's playouts (iterations / worlds, at least one per action), each playout applying the
    action and rolling out (random or greedy) to the end; the world votes for its best action
    by mean reward (the share of other seats beaten, as ISMCTS). The most voted action wins, ties
    broken by the summed mean rewards. If no world could be sampled, a uniformly random legal
    action."""
    cdef ActionSet las
    cdef double ret[MAX_PLAYERS]
    cdef double rew[MAX_PLAYERS]
    cdef double* votes = w.acc
    cdef double* value = w.acc + w.num_actions
    cdef int me = vt.current_player(root, cfg)
    cdef int nw = w.action_words
    cdef int n = vt.legal(root, cfg, &las), k, j, a, i, per, best, good = 0
    cdef double tot, v, bv
    cdef uint64_t bits
    if n <= 1:
        return as_first(&las, nw)
    for a in range(w.num_actions):
        votes[a] = 0.0
        value[a] = 0.0
    per = w.iterations // (w.worlds * n)
    if per < 1:
        per = 1
    for k in range(w.worlds):
        memcpy(w.det, root, w.state_size)
        if not vt.resample(w.det, cfg, me, rng):
            continue
        good += 1
        best = -1
        bv = -1e300
        for i in range(nw):
            bits = las.w[i]
            while bits:
                a = (i << 6) + cs_ctz(bits)
                bits &= bits - 1
                tot = 0.0
                for j in range(per):
                    memcpy(w.det2, w.det, w.state_size)
                    vt.apply(w.det2, cfg, a)
                    rollout(vt, cfg, w.det2, w, rng)
                    vt.returns(w.det2, cfg, ret)
                    playout_rewards(ret, w, rew)
                    tot += rew[me]
                v = tot / per
                value[a] += v
                if v > bv:
                    bv = v
                    best = a
        votes[best] += 1.0
    if good == 0:
        return as_nth(&las, nw, <int>rng_below(rng, <unsigned int>n))
    best = -1
    for i in range(nw):
        bits = las.w[i]
        while bits:
            a = (i << 6) + cs_ctz(bits)
            bits &= bits - 1
            if best < 0 or votes[a] > votes[best] or (votes[a] == votes[best] and value[a] > value[best]):
                best = a
    return best


cdef int ismcts_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                       Rng* rng) noexcept nogil:
    """The action ISMCTS picks for the seat to act in `root` (which it never modifies).

    Each iteration redraws the hidden cards from the acting seat's point of view
    (vt.resample), descends the tree choosing among the children legal in this
    determinization by UCB1 with availability counts (total/visits + c*sqrt(ln(avail)/visits)),
    expands one untried legal action, plays a rollout (uniformly random, or the game's greedy
    agent with rollout=greedy) and backs up each node's reward for the seat that chose it.
    Returns the most visited root child."""
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
    w.lo = 1e300
    w.hi = -1e300
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
                    score = (norm_value(w, nodes[child].total / nodes[child].visits)
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
        rollout(vt, cfg, w.det, w, rng)
        vt.returns(w.det, cfg, ret)
        playout_rewards(ret, w, rew)
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
