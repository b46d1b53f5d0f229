# The fused random play's shared pieces (core/_play_loop_fused.pxi): the pointer type the loop
# calls _pl_fused_play through, and the loop's pick of a card, which a game's segment code
# (Hearts, Joffre Whist, Gleek: the hands and trick in locals) uses.
from cardsim.core._types cimport uint64_t
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._bits cimport cs_popcount, bit_low, bit_nth
from cardsim.core._game cimport GameVTable

# _pl_fused_play's signature (core/_play_loop_fused.pxi; NULL in a game without one)
ctypedef long (*fused_fn)(const GameVTable* vt, void* st, const void* cfg, int nw, Rng* ar,
                          long budget, long* dec, long* ls) noexcept nogil

cdef inline int fused_pick(uint64_t legal, Rng* r, long* dec, long* ls) noexcept nogil:
    """The batch loop's random pick from a legal set held in one word (not empty): the lowest
    action when it is the only one (as_first, no draw), else the drawn bit of the seat's stream r
    (bit_nth of rng_below(n), a decision: *dec += 1, *ls += n)."""
    cdef int n = cs_popcount(legal)
    if n == 1:
        return bit_low(legal)
    dec[0] += 1
    ls[0] += n
    return bit_nth(legal, <int>rng_below(r, <unsigned int>n))
