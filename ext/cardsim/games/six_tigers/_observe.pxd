# Hakka Six Tigers: observation (vt.observe) and resample (vt.resample); the replay check of a
# candidate world is declared for the test hook in _testing.
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.games.six_tigers._rules cimport STConfig
from cardsim.games.six_tigers._state cimport STState

ctypedef struct WorldCtx:
    const STState* s         # the true state (its public record is what the observer saw)
    const STConfig* c
    int p                    # observer
    int nz                   # zones
    int8_t zseat[32]         # seat of zone z (-1 = the aside card)
    int8_t ztrick[32]        # trick of a face-down group, -1 = a hand / aside
    uint64_t pinned[4]       # hand cards shown at the end (stay where they are)

cdef void play_groups(const STState* s, uint64_t* down, uint64_t* up) noexcept nogil
cdef bint replay_ok(const WorldCtx* w, const uint64_t* hands, const uint64_t* group) noexcept nogil
cdef void st_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil
cdef int st_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil
