# The fused random play of a game that has one (Hearts, Joffre Whist, Gleek): include this just
# before core/_play_loop.pxi, after the game's loop hooks (_pl_legal, _pl_player, _pl_apply,
# _pl_words, _pl_word0) and these three:
#     bint _pl_fused_ok(const void* cfg, const int* agents)   (every seat's agent random)
#     long _pl_segment(const void* st, const void* cfg)
#     long _pl_play_segment(void* st, const void* cfg, Rng* ar, long* dec, long* ls)
#          (where a segment the game plays whole starts in st (Hearts: a deal; Joffre Whist,
#           Gleek: a deal's play from a trick's start), _pl_segment is the most actions it can
#           take (0: none starts here), and _pl_play_segment plays it as the loop's steps would,
#           with the hands and the trick in locals instead of the state between steps (the same
#           draws from the same per-seat streams, through core/_fused.pxd's fused_pick, the same
#           actions, the same state after them), adds its decisions and legal counts to *dec and
#           *ls and returns its actions.)
# The loop (core/_play_loop.pxi) then runs _pl_fused_play first when every seat is random.
# Only the games that fuse include it: its second call site of the game's step functions changes
# the C compiler's inlining of the loop (measured: Exposure +4%, Six Tigers +1.6% instructions per
# random deal when every game compiled it).

from cardsim.core._bits cimport bit_nth
from cardsim.core._fused cimport fused_fn
cdef inline int _pl_random_step(const GameVTable* vt, void* st, const void* cfg, int nw, Rng* ar,
                                long* dec, long* ls) noexcept nogil:
    """One step of play_loop's body with a random agent at the seat to act: the same legal set,
    pick, draw and apply, *dec and *ls counted. Returns 0 at the end (no legal action; nothing
    applied), else 1."""
    cdef ActionSet las
    cdef int n, p, a
    nw = _pl_words(nw)                      # the game's constant where it has one (the pick unrolled)
    n = _pl_legal(vt, st, cfg, &las)
    if n == 0:
        return 0
    if n == 1:
        a = as_first(&las, nw)
    else:
        p = _pl_player(vt, st, cfg)
        dec[0] += 1
        ls[0] += n
        if _pl_word0(st):
            a = bit_nth(las.w[0], <int>rng_below(&ar[p], <unsigned int>n))
        else:
            a = as_nth(&las, nw, <int>rng_below(&ar[p], <unsigned int>n))
    _pl_apply(vt, st, cfg, a)
    return 1


cdef long _pl_fused_play(const GameVTable* vt, void* st, const void* cfg, int nw, Rng* ar, long budget,
                         long* dec_out, long* ls_out) noexcept nogil:
    """The game from st with a random agent at every seat, while each step stays below `budget`:
    every segment the game plays fused (_pl_segment, _pl_play_segment) whole, the steps between
    segments one at a time (_pl_random_step). Stops at the end of the game, or where the budget
    stops it (the loop plays the rest). Returns the actions applied; adds the decisions and
    their legal counts to *dec_out, *ls_out. tests/test_play_paths.py checks it, byte for byte,
    against the loop's steps."""
    cdef long k = 0, dec = 0, ls = 0, m
    while True:
        m = _pl_segment(st, cfg)
        if m > 0:
            if k + m >= budget:
                break
            k += _pl_play_segment(st, cfg, ar, &dec, &ls)
            continue
        if k + 1 >= budget or not _pl_random_step(vt, st, cfg, nw, ar, &dec, &ls):
            break
        k += 1
    dec_out[0] += dec
    ls_out[0] += ls
    return k

# called through a pointer on purpose: inlined into the loop, its register needs cost every step of
# the loop's other agents (Hearts: greedy +5.6% instructions per deal when it was inlined)
cdef fused_fn _pl_fused_ptr = _pl_fused_play
