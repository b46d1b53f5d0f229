# Generic engine: the GameSpec every game subclasses, the Python State wrapper, kernels.
from cardsim.core._types cimport int32_t, uint64_t, MAX_PLAYERS
from cardsim.core._rng cimport Rng, rng_below
from cardsim.core._actions cimport ActionSet, as_nth, as_first
from cardsim.core._game cimport GameVTable
from cardsim.core._search cimport SearchWork, search_choose

cdef enum:
    AGENT_RANDOM = 0             # uniform over legal actions (seat's own stream)
    AGENT_GREEDY = 1             # the game's vt.greedy
    AGENT_FIRST = 2              # lowest legal action (deterministic baseline)
    AGENT_ISMCTS = 3             # information-set MCTS (core/_search), seat's own stream

cdef class State

cdef class _SearchBuffers:
    cdef SearchWork w[MAX_PLAYERS]   # one search workspace per seat (nodes NULL: the seat does not search)

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

cdef enum:
    STATE_INLINE_WORDS = 64      # a state struct of up to 512 bytes lives inside the State object

cdef class State:
    cdef readonly GameSpec spec  # the game this state belongs to
    cdef char* data              # spec.state_size bytes: the game's state struct (inline_data or big)
    cdef bytearray big           # the struct's storage when it is larger than inline_data, else None
    cdef bytearray hbuf          # the action history: an int64 `used`, then hist_cap int32 entries;
                                 # shared copy-on-write by a state and its clones (see State._push)
    cdef int32_t* hist           # hbuf's entries: the actions applied so far are hist[0..hist_len)
    cdef Py_ssize_t hist_len     # number of actions in this state's history
    cdef Py_ssize_t hist_cap     # entries hbuf holds
    cdef uint64_t inline_data[STATE_INLINE_WORDS]
    cdef ActionSet legal_cache   # legal set of the current position, valid iff legal_n >= 0
    cdef int legal_n             # count in legal_cache, -1 = not computed
    cdef readonly uint64_t seed  # seed of the deal
    cdef readonly uint64_t deal  # deal index
    cdef readonly bint resampled # True once resample() invented hidden cards (no replay)
    cdef bint scenario           # built by a scenario helper, not dealt (no replay)

    cdef int _legal(self) noexcept
    cdef int _push(self, int action) except -1
    cdef int _own_data(self, Py_ssize_t size) except -1
    cdef int _new_hist(self, Py_ssize_t cap) except -1
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
    int lead_from                # out: actions after which the final leaders led for good (lead_see), when track_leads
    int track_leads              # in: 1 = count lead changes (the running standing after every action)

cdef int play_one(const GameVTable* vt, const void* cfg, void* st, int num_players, int nw,
                  uint64_t seed, uint64_t deal, const int* agents, long max_steps,
                  DealRecord* rec, int32_t* actions, SearchWork* sw) noexcept nogil

cdef _SearchBuffers _buffers_for(GameSpec spec, const int* codes, int iterations, double c, search)

cpdef object check_int(object value, str what, object lo, object hi, object exc=*)


# ---- the one play step: what a C agent chooses, and the one lead-change rule -------------------
# play_one (the batch kernel) and SeatAgents / LeadTracker (the State-API path with Python agents)
# both call these, so a Python agent joining a table never changes how the C agents play.
cdef inline int seat_choose(const GameVTable* vt, const void* cfg, void* st, const ActionSet* las, int n,
                            int nw, int code, Rng* r, SearchWork* sw, int p) noexcept nogil:
    """The choice of agent `code` for seat p among n >= 2 legal actions `las`, drawing from the
    seat's stream r; sw[p] is the seat's search workspace (AGENT_ISMCTS only)."""
    if code == AGENT_RANDOM:
        return as_nth(las, nw, <int>rng_below(r, <unsigned int>n))
    elif code == AGENT_GREEDY:
        return vt.greedy(st, cfg, las, n, r)
    elif code == AGENT_ISMCTS:
        return search_choose(vt, cfg, st, &sw[p], r)
    return as_first(las, nw)


ctypedef struct LeadCount:
    double last[MAX_PLAYERS]     # the running standing seen last
    int have_last                # last is set
    int prev                     # bit mask of the previous leaders (0: none yet)
    int changes                  # lead changes counted
    int cur                      # bit mask of the current leaders (0: none, all returns equal)
    int seen                     # returns seen so far (one per action)
    int since                    # value of `seen` when the leaders last became `cur`


cdef inline void lead_start(LeadCount* lc) noexcept nogil:
    lc.have_last = 0
    lc.prev = 0
    lc.changes = 0
    lc.cur = 0
    lc.seen = 0
    lc.since = 0


cdef inline void lead_see(LeadCount* lc, const double* cur, int n) noexcept nogil:
    """Count lead changes over the running standing: the leaders are the seats with the highest standing
    (none while all are equal); a change is a new set of leaders sharing no seat with the previous
    one (a partnership taking the lead counts once; a tie keeping the old leader counts nothing).
    Returns equal to the last ones seen change nothing.

    Also keeps who leads now (lc.cur: the seats with the highest return, 0 while all are equal,
    any change counting) and since when (lc.since: how many returns had been seen when lc.cur last
    changed), so that at the end of a deal lc.since is the number of actions after which the final
    leaders, the winners, held the lead for good: the deal was decided from then on."""
    cdef int q, lead = 0, same = lc.have_last
    cdef double hi = cur[0], lo = cur[0]
    lc.seen += 1
    for q in range(n):
        if same and cur[q] != lc.last[q]:
            same = 0
        lc.last[q] = cur[q]
    lc.have_last = 1
    if same:
        return
    for q in range(1, n):
        hi = cur[q] if cur[q] > hi else hi
        lo = cur[q] if cur[q] < lo else lo
    if hi != lo:
        for q in range(n):
            if cur[q] == hi:
                lead |= 1 << q
        if lc.prev and not (lead & lc.prev):
            lc.changes += 1
        lc.prev = lead
    if lead != lc.cur:
        lc.cur = lead
        lc.since = lc.seen
