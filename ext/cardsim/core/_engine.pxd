# Generic engine: the GameSpec every game subclasses, the Python State wrapper, kernels.
from cardsim.core._types cimport int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork

cdef enum:
    AGENT_RANDOM = 0             # uniform over legal actions (seat's own stream)
    AGENT_GREEDY = 1             # the game's vt.greedy
    AGENT_FIRST = 2              # lowest legal action (deterministic baseline)
    AGENT_ISMCTS = 3             # information-set MCTS (core/_search), seat's own stream

cdef class State

cdef class GameSpec:
    cdef GameVTable vt           # filled once by the game's subclass, then checked by install()
    cdef const void* cfg         # points at the subclass's typed config field
    cdef readonly str name       # registry name, e.g. "joffre_whist"
    cdef readonly int num_players  # seats at the table
    cdef readonly int num_actions  # size of the fixed action space
    cdef readonly int action_words # ceil(num_actions / 64)
    cdef readonly int state_size   # sizeof(the game's state struct)
    cdef readonly int obs_size     # length of observation(p)
    cdef readonly tuple metric_names  # names of the vt.metrics columns
    cdef readonly dict options     # resolved options (after presets and defaults)
    cdef readonly str returns_sum  # "zero", "constant" or "none": the returns invariant

    cdef int install(self, str name, const void* cfg, int num_players, int num_actions,
                     Py_ssize_t state_size, int obs_size, metric_names, str returns_sum,
                     dict options) except -1
    cdef int install_game(self, object info, const void* cfg, int num_players, int num_actions,
                          Py_ssize_t state_size, int obs_size, dict options) except -1
    cdef State _scenario_state(self)
    cdef char* _data(self, object s) except NULL
    cdef char* _private_copy(self, object s, ActionSet* las, int* n) except NULL
    cdef int _agent_codes(self, agents, int* codes) except -1

cdef class State:
    cdef readonly GameSpec spec  # the game this state belongs to
    cdef char* data              # spec.state_size bytes: the game's state struct (owned)
    cdef int32_t* hist           # actions applied so far (owned)
    cdef Py_ssize_t hist_len     # number of actions in hist
    cdef Py_ssize_t hist_cap     # capacity of hist
    cdef ActionSet legal_cache   # legal set of the current position, valid iff legal_n >= 0
    cdef int legal_n             # count in legal_cache, -1 = not computed
    cdef readonly uint64_t seed  # seed of the deal
    cdef readonly uint64_t deal  # deal index
    cdef readonly bint resampled # True once resample() invented hidden cards (no replay)
    cdef bint scenario           # built by a scenario helper, not dealt (no replay)

    cdef int _legal(self) noexcept
    cdef int _push(self, int action) except -1
    cdef int _player(self, object p) except -1
    cdef int _action(self, object action) except -1
    @staticmethod
    cdef State _alloc(GameSpec spec)

ctypedef struct DealRecord:
    long steps                   # out: actions applied
    long decisions               # out: turns with more than one legal action
    long legal_sum               # out: sum of legal counts over decisions
    int first_player             # out: seat to act in the initial state
    int lead_changes             # out: lead changes (see GameSpec.run_batch), when track_leads
    int track_leads              # in: 1 = count lead changes (vt.returns after every action)

cdef int play_one(const GameVTable* vt, const void* cfg, void* st, int num_players, int nw,
                  uint64_t seed, uint64_t deal, const int* agents, long max_steps,
                  DealRecord* rec, int32_t* actions, SearchWork* sw) noexcept nogil

cpdef object check_int(object value, str what, object lo, object hi, object exc=*)
