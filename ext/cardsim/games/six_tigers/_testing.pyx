"""Hakka Six Tigers: test hooks (not used in play). `_true_world_ok` runs the resample's replay
check on the state's own hidden cards: the truth must always pass it, or a resample could fail
where a consistent world exists."""
from cardsim.core._types cimport uint64_t
from cardsim.core._engine cimport State, check_int
from cardsim.games.six_tigers._rules cimport STConfig
from cardsim.games.six_tigers._state cimport STState
from cardsim.games.six_tigers._observe cimport WorldCtx, play_groups, replay_ok

from cardsim.errors import ConfigError


def _true_world_ok(s, p):
    """replay_ok on the state's own hidden cards, for observer p (a resample can only succeed
    if the truth is consistent). s: a six_tigers State, p: a seat."""
    cdef STState* st
    cdef WorldCtx w
    cdef uint64_t hands[4]
    cdef uint64_t group[48]
    cdef uint64_t up[48]
    cdef int q
    if not isinstance(s, State) or (<State>s).spec.name != "six_tigers":
        raise ConfigError("six_tigers: _true_world_ok needs a six_tigers State")
    p = check_int(p, "six_tigers: observer", 0, (<State>s).spec.num_players - 1, ConfigError)
    st = <STState*>(<State>s).spec._data(s)
    w.s = st
    w.c = <const STConfig*>(<State>s).spec.cfg
    w.p = p
    for q in range(4):
        hands[q] = st.hand[q]
    play_groups(st, group, up)
    return replay_ok(&w, hands, group)
