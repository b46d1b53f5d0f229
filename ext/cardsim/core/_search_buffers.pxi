# The search agents' workspaces of core/_engine.pyx: _SearchBuffers (declared in _engine.pxd), the
# check of a batch call's search settings that builds them, and _search_one, one seat's search
# on a private copy without the GIL. Included by _engine.pyx (the same module), kept in its own
# file as its own concern.

cdef class _SearchBuffers:
    """Owner of the search agents' workspaces, one per seat that searches (node pool, scratch
    states, PIMC accumulators), allocated once per batch call (never per deal or decision).

    `seats[p]` is None (seat p does not search) or a dict with kind ("ismcts" | "pimc"),
    iterations, c, rollout ("random" | "greedy") and worlds (PIMC)."""

    def __cinit__(self, GameSpec spec, list seats):
        cdef int p
        memset(self.w, 0, sizeof(self.w))
        if len(seats) != spec.num_players:
            raise CardsimError(f"{spec.name}: need a search setting per seat ({spec.num_players}), got {len(seats)}")
        for p in range(spec.num_players):
            prm = seats[p]
            if prm is None:
                continue
            if not isinstance(prm, dict):
                raise CardsimError(f"{spec.name}: search settings of seat {p} must be a dict or None, got {_short(prm)}")
            unknown = sorted(str(k) for k in prm if k not in SEARCH_KEYS)
            if unknown:
                raise CardsimError(f"{spec.name}: unknown search setting(s) {_short(unknown, 80)}; "
                                   f"known: {', '.join(SEARCH_KEYS)}")
            kind = prm.get("kind", "ismcts")
            d = SEARCH_DEFAULTS["pimc"] if kind == "pimc" else SEARCH_DEFAULTS["ismcts"]
            rollout = prm.get("rollout", d["rollout"])
            reward = prm.get("reward", d["reward"])
            if kind not in ("ismcts", "pimc") or rollout not in ("random", "greedy") or reward not in ("rank", "points"):
                raise CardsimError(f"search agent kind must be ismcts|pimc, rollout random|greedy and reward "
                                   f"rank|points, got {_short(kind)}, {_short(rollout)}, {_short(reward)}")
            iterations = check_int(prm.get("iterations", d["iterations"]), f"{spec.name}: search iterations", 1,
                                   MAX_ISMCTS_ITERATIONS)
            worlds = check_int(prm.get("worlds", d.get("worlds", 1)), f"{spec.name}: search worlds", 1, 100_000)
            self.w[p].kind = SEARCH_PIMC if kind == "pimc" else SEARCH_ISMCTS
            self.w[p].rollout = ROLLOUT_GREEDY if rollout == "greedy" else ROLLOUT_RANDOM
            self.w[p].reward = REWARD_POINTS if reward == "points" else REWARD_RANK
            self.w[p].worlds = worlds
            self.w[p].iterations = iterations
            self.w[p].c = _check_c(spec.name, prm.get("c", ISMCTS_C))
            self.w[p].state_size = spec.state_size
            self.w[p].num_players = spec.num_players
            self.w[p].action_words = spec.action_words
            self.w[p].num_actions = spec.num_actions
            self.w[p].nodes = <MctsNode*>PyMem_Malloc((iterations + 1) * sizeof(MctsNode))
            self.w[p].det = <char*>PyMem_Malloc(spec.state_size)
            self.w[p].det2 = <char*>PyMem_Malloc(spec.state_size)
            self.w[p].acc = <double*>PyMem_Malloc(2 * spec.num_actions * sizeof(double))
            if not (self.w[p].nodes and self.w[p].det and self.w[p].det2 and self.w[p].acc):
                raise MemoryError()

    def __dealloc__(self):
        cdef int p
        for p in range(MAX_PLAYERS):
            PyMem_Free(self.w[p].nodes)
            PyMem_Free(self.w[p].det)
            PyMem_Free(self.w[p].det2)
            PyMem_Free(self.w[p].acc)


cdef _SearchBuffers _buffers_for(GameSpec spec, const int* codes, int iterations, double c, search):
    """Workspaces for the seats whose agent code is AGENT_ISMCTS (a search agent): from
    `search` (one dict or None per seat), else plain ISMCTS with `iterations` and `c`. None when
    no seat searches."""
    cdef int p, P = spec.num_players
    if search is None:
        seats = [{"kind": "ismcts", "iterations": iterations, "c": c} if codes[p] == AGENT_ISMCTS else None
                 for p in range(P)]
    else:
        seats = list(search)
        if len(seats) != P:
            raise CardsimError(f"{spec.name}: search needs one entry per seat ({P}), got {len(seats)}")
        for p in range(P):
            if (codes[p] == AGENT_ISMCTS) != (seats[p] is not None):
                raise CardsimError(f"{spec.name}: seat {p}: search settings go with search agents only")
    if all(x is None for x in seats):
        return None
    return _SearchBuffers(spec, seats)


cdef int _search_one(GameSpec spec, char* copy, _SearchBuffers sb, int p, Rng* r) except -1:
    """Seat p's search agent on `copy` (a private state), without the GIL."""
    cdef int a
    with nogil:
        a = search_choose(&spec.vt, spec.cfg, copy, &sb.w[p], r)
    return a
