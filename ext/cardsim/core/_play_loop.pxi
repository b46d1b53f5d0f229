# The batch kernel's hot loop, written once and compiled into every module that includes it.
#
# core/_engine.pyx includes it with the vtable's indirect calls (the loop every game gets); a
# game's _state.pyx includes it after its own legal, current-player and apply functions, so that
# the C compiler sees them in the same translation unit and can inline them into the loop (calls
# through the vtable, and between Cython modules, never inline). The game then puts its copy in
# vt.play, and play_one (core/_engine.pyx) runs it for every deal it records nothing of.
#
# The including module defines, before the include, three `cdef inline ... noexcept nogil`
# functions taking the vtable first:
#     int  _pl_legal(const GameVTable* vt, const void* st, const void* cfg, ActionSet* out)
#     int  _pl_player(const GameVTable* vt, const void* st, const void* cfg)
#     void _pl_apply(const GameVTable* vt, void* st, const void* cfg, int a)
#     int  _pl_words(int nw)   (the game's action words as a constant >= nw, or nw itself)
#     bint _pl_word0(const void* st)   (after _pl_legal(st): every legal action is in w[0], so
#                                       the pick is the drawn bit of w[0]; `_pl_words(0) == 1`
#                                       for a game whose actions fit one word, a phase test for
#                                       one whose play phase's set is w[0] alone)
#     bint _pl_fused_ok(const void* cfg, const int* agents)   (may the fused play run: random seats)
#     fused_fn _pl_fused_ptr   (the fused random play, core/_play_loop_fused.pxi, or NULL)
#          (a game with a fused random play includes core/_play_loop_fused.pxi before this file,
#           a game without one core/_play_loop_unfused.pxi: see there. When every seat's agent is
#           random (_pl_fused_ok), the loop first runs the game's fused play, which plays the
#           game as the loop's steps would while they stay below max_steps; the loop plays the
#           rest. _pl_fused_ok False: the compiler drops the call.)
# and has cimported GameVTable, ActionSet, as_first, as_nth, Rng, rng_below, SearchWork,
# seat_choose and AGENT_RANDOM. The loop is play_one's: the same agents drawing from the same
# per-seat streams in the same order, so a game's copy gives byte-identical deals.

from cardsim.core._bits cimport bit_nth

cdef long play_loop(const void* vtp, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                    void* swp, long max_steps, long* counts) noexcept nogil:
    """Play st to the end: seat p's agent agents[p] draws from ar[p]; swp is NULL or the
    SearchWork array of the search agents. counts[0] += decisions (turns with two or more legal
    actions), counts[1] += their legal counts. Returns the actions applied, or -1 once max_steps
    actions were applied (the deal did not end).

    One loop for every agent mix: a second copy for all-random seats (no agent test, counters in
    registers) was measured (2026-12-03) at -1% to -2% for most games but +7% for Exposure and
    +1.5% for Six Tigers, whose hot functions the C compiler then stopped inlining into either
    copy; not kept."""
    cdef const GameVTable* vt = <const GameVTable*>vtp
    cdef SearchWork* sw = <SearchWork*>swp
    cdef ActionSet las
    cdef int p, n, a
    cdef long k = 0, dec = 0, ls = 0
    nw = _pl_words(nw)                      # a game's constant: the pick's word loop unrolled
    if _pl_fused_ok(cfg, agents):           # random seats only: what the game plays fused first
        k = _pl_fused_ptr(vt, st, cfg, nw, ar, max_steps - 1, &dec, &ls)     # (k stays below max_steps)
    while True:
        n = _pl_legal(vt, st, cfg, &las)
        if n == 0:
            break
        if n == 1:
            a = as_first(&las, nw)          # a forced move: whose turn it is does not matter
        else:
            p = _pl_player(vt, st, cfg)
            dec += 1
            ls += n
            if agents[p] == AGENT_RANDOM:   # seat_choose's first case, written out
                if _pl_word0(st):           # the legal set in w[0]: the draw (< n) picks its bit
                    a = bit_nth(las.w[0], <int>rng_below(&ar[p], <unsigned int>n))
                else:
                    a = as_nth(&las, nw, <int>rng_below(&ar[p], <unsigned int>n))
            else:
                a = seat_choose(vt, cfg, st, &las, n, nw, agents[p], &ar[p], sw, p)
        _pl_apply(vt, st, cfg, a)
        k += 1
        if k >= max_steps:
            k = -1
            break
    counts[0] += dec
    counts[1] += ls
    return k
