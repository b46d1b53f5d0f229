"""The batch kernel's play step, for deals played through the State API.

`runner.python_task` plays a table where some seat is a Python agent (an object with act(state))
through the State API. Its C seats choose through `SeatAgents`: the streams, the choice function
(seat_choose) and the forced-move rule of play_one, so a Python agent joining a table never
changes how the C agents play. `LeadTracker` counts lead changes with play_one's own rule
(lead_see). Both functions live in _engine.pxd: one play step, one lead-change counter.
"""
import numpy as np

from cardsim.core._types cimport uint64_t, MAX_PLAYERS
from cardsim.core._rng cimport Rng, rng_seed, STREAM_SEAT0
from cardsim.core._actions cimport as_first
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork
from cardsim.core._engine cimport (GameSpec, State, _SearchBuffers, _buffers_for, check_int, seat_choose,
                                   LeadCount, lead_start, lead_see)

from cardsim.core._engine import ISMCTS_C, ISMCTS_ITERATIONS, U64_MAX
from cardsim.errors import CardsimError, IllegalActionError


cdef class SeatAgents:
    """The C agents of a table choosing in States, exactly as the batch kernel's play_one does at
    each turn: seat p's stream keyed (seed, deal, STREAM_SEAT0 + p) when a deal starts (`deal`),
    the one choice function (seat_choose), a forced move taken without a draw.

    agents: one agent code per seat (a seat played by a Python agent: any code, it is never
    asked); search: None or one dict or None per seat (search agents' settings), as run_batch."""
    cdef GameSpec spec
    cdef int codes[MAX_PLAYERS]
    cdef Rng ar[MAX_PLAYERS]
    cdef _SearchBuffers sb
    cdef bint dealt

    def __init__(self, GameSpec spec not None, agents, search=None):
        spec._agent_codes(agents, self.codes)
        self.sb = _buffers_for(spec, self.codes, ISMCTS_ITERATIONS, ISMCTS_C, search)
        self.spec = spec
        self.dealt = False

    def deal(self, seed, deal):
        """Key every seat's stream to deal (seed, deal), as play_one does when the deal starts."""
        cdef uint64_t sd = check_int(seed, "seed", 0, U64_MAX)
        cdef uint64_t dl = check_int(deal, "deal", 0, U64_MAX)
        cdef int p
        for p in range(self.spec.num_players):
            rng_seed(&self.ar[p], sd, dl, STREAM_SEAT0 + p)
        self.dealt = True

    def choose(self, state):
        """The action the C agent of the seat to act in `state` takes (the state is not changed;
        the seat's stream advances as in the batch kernel)."""
        cdef char* data = self.spec._data(state)
        cdef State s = <State>state
        cdef int n = s._legal(), p, a, code, nw = self.spec.action_words
        cdef const GameVTable* vt = &self.spec.vt
        cdef const void* cfg = self.spec.cfg
        cdef SearchWork* sw = NULL if self.sb is None else &self.sb.w[0]
        cdef Rng* r
        if n == 0:
            raise IllegalActionError(f"{self.spec.name}: the game is over")
        if not self.dealt:
            raise CardsimError(f"{self.spec.name}: call SeatAgents.deal(seed, deal) when a deal starts")
        if n == 1:
            return as_first(&s.legal_cache, nw)
        p = vt.current_player(data, cfg)
        code = self.codes[p]
        r = &self.ar[p]
        with nogil:
            a = seat_choose(vt, cfg, data, &s.legal_cache, n, nw, code, r, sw, p)
        return a


cdef class LeadTracker:
    """Lead changes over a sequence of running standings (`see(state.standing())` after every
    action, then `changes`), by the batch kernel's own rule (lead_see, which play_one feeds with
    game_standing): the leaders are the seats with the highest running standing (none while all
    are equal); a lead change is a new set of leaders that shares no seat with the previous one.
    Any per-seat numbers can be watched (e.g. running returns)."""
    cdef LeadCount lc

    def __cinit__(self):
        lead_start(&self.lc)

    def see(self, r):
        cdef double[::1] v = np.ascontiguousarray(r, dtype=np.float64).reshape(-1)
        if not 1 <= v.shape[0] <= MAX_PLAYERS:
            raise CardsimError(f"LeadTracker.see needs 1..{MAX_PLAYERS} returns, got {v.shape[0]}")
        lead_see(&self.lc, &v[0], <int>v.shape[0])

    @property
    def changes(self):
        return self.lc.changes

    @property
    def lead_from(self):
        """Standings seen (one per action) when the current leaders last changed: at the end of a
        deal, the number of actions after which the final leaders held the lead for good."""
        return self.lc.since
