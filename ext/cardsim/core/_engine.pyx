"""Generic engine: GameSpec base class, the Python `State` wrapper and the nogil batch kernel.

Everything here is written against the per-game vtable (`_game.pxd`); no rule of any game lives
here. The Python API (`cardsim.game`, `cardsim.simulate`) is a thin layer over this module.
"""
cimport cython
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from cpython.long cimport PyLong_AsLongAndOverflow
from libc.string cimport memcpy, memset
from cpython.bytearray cimport PyByteArray_FromStringAndSize, PyByteArray_AS_STRING
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
cimport numpy as cnp
import numpy as np

from cardsim.core._types cimport uint8_t, int8_t, int32_t, int64_t, uint32_t, uint64_t
from cardsim.core._rng cimport (Rng, rng_seed, rng_below, rng_deal_key, rng_seed_keyed, STREAM_DEAL,
                                STREAM_SEAT0, STREAM_RESAMPLE)
from cardsim.core._bits cimport CARDSIM_CHECKS, CARDSIM_POPCNT_BUILT, bit_low, cs_fast_pdep
from cardsim.core._types cimport MAX_ACTION_WORDS, MAX_PLAYERS
from cardsim.core._actions cimport ActionSet, as_has, as_nth, as_first
from cardsim.core._game cimport GameVTable, game_standing
from cardsim.core._search cimport (SearchWork, MctsNode, search_choose, SEARCH_ISMCTS, SEARCH_PIMC,
                                   ROLLOUT_RANDOM, ROLLOUT_GREEDY, REWARD_RANK, REWARD_POINTS)

from cardsim.errors import CardsimError, ConfigError, IllegalActionError, ParseError, short
from cardsim.errors import short as _short   # the name the game modules import from here

cnp.import_array()

# the agents' codes and the search agents' defaults: the one place (cardsim.agents reads them)
AGENT_CODES = {"random": AGENT_RANDOM, "greedy": AGENT_GREEDY, "first": AGENT_FIRST, "ismcts": AGENT_ISMCTS}
SEARCH_DEFAULTS = {"ismcts": {"iterations": 200, "c": 0.7, "rollout": "random", "reward": "rank"},
                   "pimc": {"iterations": 1000, "worlds": 10, "rollout": "random", "reward": "rank"}}
ISMCTS_ITERATIONS = SEARCH_DEFAULTS["ismcts"]["iterations"]
ISMCTS_C = SEARCH_DEFAULTS["ismcts"]["c"]
SEARCH_KEYS = ("kind", "iterations", "c", "rollout", "reward", "worlds")   # a search agent's settings


include "cardsim/core/_search_buffers.pxi"


_HTML_VIEW = None
_SPEC_REBUILD = None


def set_spec_rebuild(fn):
    """Register the function that rebuilds a spec from (name, options) when unpickling: cardsim.game
    registers its own on import (the engine imports nothing above it: tests/test_layers.py)."""
    global _SPEC_REBUILD
    if not callable(fn):
        raise CardsimError(f"set_spec_rebuild needs a callable, got {_short(fn)}")
    _SPEC_REBUILD = fn


def set_html_view(fn):
    """Register the function that renders a State as HTML for notebooks (State._repr_html_)."""
    global _HTML_VIEW
    if fn is not None and not callable(fn):
        raise CardsimError(f"set_html_view needs a callable or None, got {_short(fn)}")
    _HTML_VIEW = fn


DEFAULT_MAX_STEPS = 1_000_000
cdef object _NP_INT64 = np.int64     # the type of legal_actions()' elements (State.apply's fast path)
cdef object _I64_DESCR = np.dtype(np.int64)   # legal_actions()' dtype, built once
cdef bint _NP_INT64_IS_LONG = np.int64 is np.dtype('l').type   # np.int64 is C long (Linux) or long long

cdef extern from "numpy/arrayobject.h":
    # numpy's own pxd leaves these out: NewFromDescr steals a reference to descr (callers incref),
    # and an int64 scalar's value is read straight from the object (its type checked first)
    object new_from_descr "PyArray_NewFromDescr"(PyTypeObject* subtype, PyObject* descr, int nd,
                                                   cnp.npy_intp* dims, cnp.npy_intp* strides, void* data,
                                                   int flags, PyObject* obj)
    PyTypeObject PyArray_Type
    ctypedef struct Int64Scalar "PyLongLongScalarObject":
        cnp.npy_longlong obval
    ctypedef struct LongScalar "PyLongScalarObject":
        cnp.npy_long obval

cdef extern from "Python.h":
    # the count of a borrowed pointer (cpython.ref's Py_REFCNT takes an object, which Cython increfs)
    Py_ssize_t refcount "Py_REFCNT"(PyObject* o)


include "cardsim/core/_legal_pool.pxi"

MAX_ACTION_TEXT = 1_000        # longest action text parsed (a Zhao Pengyou throw of many cards fits)
U64_MAX = 2**64 - 1
MAX_ISMCTS_ITERATIONS = 10_000_000


def _check_c(str name, c):
    """The ISMCTS exploration constant: a finite number >= 0 (bool refused)."""
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, float, np.integer, np.floating)) \
            or not 0 <= c < float("inf"):
        raise CardsimError(f"{name}: ismcts c must be a finite number >= 0, got {_short(c)}")
    return float(c)


cpdef object check_int(object value, str what, object lo, object hi, object exc=None):
    """The one integer validator of the public API: returns value as a Python int if it is an
    integer (int or numpy integer; bool and numpy bool are refused, as are floats, strings and
    None) with lo <= value <= hi; otherwise raises `exc` (default CardsimError; every project
    error is a ValueError) naming `what` and the allowed range."""
    if exc is None:
        exc = CardsimError
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise exc(f"{what} must be an integer in {lo}..{hi}, got {_short(value)}")
    v = int(value)
    if v < lo or v > hi:
        raise exc(f"{what} must be in {lo}..{hi}, got {_short(v)}")
    return v


def build_info():
    """How this extension was built and runs here: checks (a checks build: bounds checks and C
    asserts on); pdep (a random agent's pick, the n-th legal action, is one PDEP instruction on
    this CPU: Intel with BMI2 or AMD from Zen 3, detected at load, unless the environment variable
    CARDSIM_NO_PDEP was set (not "0") then; else a portable loop that picks the same action);
    popcnt (compiled with -mpopcnt: CMake's CARDSIM_POPCNT, on by default on x86-64, so a bit count
    is one instruction; the C reference loop of `cardsim bench` and bench/ is compiled the same
    way, cardsim.bench.reference_cflags)."""
    return {"checks": bool(CARDSIM_CHECKS), "pdep": bool(cs_fast_pdep), "popcnt": bool(CARDSIM_POPCNT_BUILT)}


cdef class GameSpec:
    """One configured game: options resolved to a C config, the vtable and the sizes.

    Subclasses (one per game, in ext/cardsim/games/) fill their config struct and `vt`, then call
    `install` (the one place that sets the sizes and checks them), and override the Python-level
    helpers below (strings, rendering, phases)."""

    # ---- installation: every game's spec __init__ ends with one call -------------------------
    cdef int install(self, str name, const void* cfg, int num_players, int num_actions,
                     Py_ssize_t state_size, int obs_size, metric_names, str returns_sum,
                     dict options) except -1:
        """Install a configured game: name, config pointer (the subclass's own config field),
        seats, action space, sizeof(state struct), observation length, metric names, returns
        invariant and resolved options. Computes action_words = ceil(num_actions / 64) and
        checks the limits (1 <= num_players <= MAX_PLAYERS, 1 <= num_actions <= 64 *
        MAX_ACTION_WORDS) and that every vtable entry is set (vt.metrics only when there are
        metrics). Fill `self.vt` before calling. Raises CardsimError (a game bug, not user input)."""
        cdef GameVTable* vt = &self.vt
        if not name:
            raise CardsimError("GameSpec.install: empty game name")
        if cfg == NULL:
            raise CardsimError(f"{name}: GameSpec.install needs the config pointer")
        if not 1 <= num_players <= MAX_PLAYERS:
            raise CardsimError(f"{name}: {num_players} players; the engine supports 1..{MAX_PLAYERS}")
        if not 1 <= num_actions <= 64 * MAX_ACTION_WORDS:
            raise CardsimError(f"{name}: {num_actions} actions; the engine supports 1..{64 * MAX_ACTION_WORDS}")
        if state_size <= 0 or obs_size < 0:
            raise CardsimError(f"{name}: state size {state_size} / observation size {obs_size} invalid")
        names = tuple(metric_names)
        if not all(isinstance(m, str) for m in names) or len(set(names)) != len(names):
            raise CardsimError(f"{name}: metric names must be distinct strings, got {short(names)}")
        if returns_sum not in ("zero", "constant", "none"):
            raise CardsimError(f"{name}: returns_sum must be 'zero', 'constant' or 'none', got {short(returns_sum)}")
        missing = [k for k, ok in (("init", vt.init != NULL), ("current_player", vt.current_player != NULL),
                                   ("legal", vt.legal != NULL), ("apply", vt.apply != NULL),
                                   ("is_terminal", vt.is_terminal != NULL), ("returns", vt.returns != NULL),
                                   ("observe", vt.observe != NULL), ("resample", vt.resample != NULL),
                                   ("greedy", vt.greedy != NULL),
                                   ("metrics", vt.metrics != NULL or not names)) if not ok]
        if missing:
            raise CardsimError(f"{name}: vtable entries not set: {', '.join(missing)}")
        self.name = name
        self.cfg = cfg
        self.num_players = num_players
        self.num_actions = num_actions
        self.action_words = (num_actions + 63) // 64
        self.state_size = <int>state_size
        self.obs_size = obs_size
        self.metric_names = names
        self.returns_sum = returns_sum
        self.options = dict(options)
        return 0

    cdef int install_game(self, object info, const void* cfg, int num_players, int num_actions,
                          Py_ssize_t state_size, int obs_size, dict options) except -1:
        """Install a configured game from its GameInfo (cardsim.info, declared once in the game's
        folder): name, metric names and returns invariant come from `info`; `obs_size` (the
        kernel's OBS_SIZE from the generated _layout.pxd) must equal info.obs_size, the sum of the
        declared blocks. The rest as in `install`."""
        names = info.metric_names(options)
        if obs_size != info.obs_size:
            raise CardsimError(f"{info.name}: the kernel's observation size {obs_size} differs from the "
                               f"declared layout ({info.obs_size}): run tools/gen_layout.py and rebuild")
        return self.install(info.name, cfg, num_players, num_actions, state_size, obs_size, names,
                            info.returns_sum, options)

    cdef State _scenario_state(self):
        """A state for a scenario helper (`spec.scenario(hands, **public_facts)`) to fill: dealt
        by vt.init from (seed 0, deal 0) so every field is valid, with an empty history and no
        cached legal set, marked not replayable (State.replayable is False: its history does not
        lead to it from a deal). The helper overwrites the struct fields it sets."""
        cdef State s = self.new_state(0, 0)
        s.hist_len = 0
        s.legal_n = -1
        s.scenario = True
        return s

    # ---- the public face of every spec: arguments checked here, once, for every game ----------
    # Each game overrides the underscore hooks below (_action_string, _parse_action, ...), which
    # run only on checked arguments: a State of this game (see _data), an action in range, a seat
    # in range, a bounded string. The hooks read the struct through self._data(s) too.
    cdef char* _data(self, object s) except NULL:
        """The struct of `s` once it is checked to be a State of this game with these options (the
        one check every spec method and hook passes through before a kernel reads a state); else
        CardsimError naming the game expected."""
        if type(s) is not State:
            raise CardsimError(f"{self.name}: expected a State of {self.name}, got "
                               f"{'None' if s is None else type(s).__name__}")
        cdef State st = <State>s
        if st.spec is not self and (st.spec.name != self.name or st.spec.options != self.options):
            if st.spec.name != self.name:
                raise CardsimError(f"{self.name}: expected a State of {self.name}, got a State of {st.spec.name}")
            raise CardsimError(f"{self.name}: the State belongs to {self.name} with other options "
                               f"({_short(st.spec.options, 120)}); expected {_short(self.options, 120)}")
        return st.data

    def check_state(self, state):
        """Raise CardsimError unless `state` is a State of this game with these options."""
        self._data(state)

    def action_string(self, state, action):
        """The text of `action` (an integer 0..num_actions-1, else IllegalActionError) in `state`."""
        self._data(state)
        return self._action_string(state, check_int(action, f"{self.name}: action", 0, self.num_actions - 1,
                                                    IllegalActionError))

    def parse_action(self, state, text):
        """The action named by `text` in `state` (ParseError when it names none)."""
        self._data(state)
        if not isinstance(text, str):
            raise ParseError(f"{self.name}: action text must be a str, got {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            raise ParseError(f"{self.name}: action text of {len(text)} characters (at most {MAX_ACTION_TEXT}): "
                             f"{_short(text)}")
        return self._parse_action(state, text)

    def hand_strings(self, state, player):
        """Seat `player`'s cards (or tiles) as strings, in the game's display order."""
        self._data(state)
        return self._hand_strings(state, check_int(player, f"{self.name}: player", 0, self.num_players - 1))

    def render(self, state):
        """A readable view of the table (str(state))."""
        self._data(state)
        return self._render(state)

    def phase_name(self, state):
        """The phase of `state` as a word ("play", "auction", ..., "end")."""
        self._data(state)
        return self._phase_name(state)

    def card_total(self, state):
        """Number of cards (or tiles) in all zones together (hands, tricks, floor, stock, kitty,
        ...): the conformance suite checks it equals deck_size at every step."""
        self._data(state)
        return self._card_total(state)

    def view(self, state):
        """Every fact of `state` as a dict (hidden ones included: for tests and display)."""
        self._data(state)
        return self._view(state)

    # ---- the hooks each game overrides ---------------------------------------------------------
    def _action_string(self, State s, int a):
        return f"a{a}"

    def _parse_action(self, State s, str text):
        """Default parser: match against every action's string (case-insensitive)."""
        t = text.strip().upper()
        for a in range(self.num_actions):
            if self._action_string(s, a).upper() == t:
                return a
        raise ParseError(f"{self.name}: cannot parse action {_short(text)}")

    def _hand_strings(self, State s, int p):
        raise NotImplementedError

    def _render(self, State s):
        return f"<{self.name} state>"

    def _phase_name(self, State s):
        return "end" if s.is_terminal() else "play"

    def _card_total(self, State s):
        raise NotImplementedError(f"{self.name} must implement _card_total(state)")

    def _view(self, State s):
        raise NotImplementedError(f"{self.name} must implement _view(state)")

    @property
    def deck_size(self):
        raise NotImplementedError(f"{self.name} must implement deck_size")

    cdef char* _private_copy(self, object s, ActionSet* las, int* n) except NULL:
        """A malloc'd copy of s's struct (taken with the GIL, so no other thread is applying to s
        meanwhile) and its legal set; the caller frees it. Raises if s is of another game or over."""
        cdef char* data = self._data(s)
        cdef char* copy = <char*>PyMem_Malloc(self.state_size)
        if copy == NULL:
            raise MemoryError()
        memcpy(copy, data, self.state_size)
        n[0] = self.vt.legal(copy, self.cfg, las)
        if n[0] == 0:
            PyMem_Free(copy)
            raise IllegalActionError(f"{self.name}: the game is over")
        return copy

    def ismcts_action(self, s, iterations=ISMCTS_ITERATIONS, seed=0, c=ISMCTS_C):
        """The ISMCTS agent's choice for the seat to act in s (s is not modified)."""
        it = check_int(iterations, f"{self.name}: ismcts iterations", 1, MAX_ISMCTS_ITERATIONS)
        return self.search_action(s, {"kind": "ismcts", "iterations": it, "c": _check_c(self.name, c)}, seed)

    def search_action(self, s, params, seed=0):
        """A search agent's choice for the seat to act in s (s is not modified). params: a dict
        with kind ("ismcts" | "pimc"), iterations, c, rollout ("random" | "greedy"), reward
        ("rank" | "points"), worlds (PIMC) — see cardsim.agents. The search runs without the GIL
        on a private copy of s taken first, so another thread applying actions to s meanwhile
        cannot change or break it."""
        cdef Rng r
        cdef uint64_t sd = check_int(seed, f"{self.name}: seed", 0, U64_MAX)
        cdef ActionSet las
        cdef int a, n, p
        if not isinstance(params, dict):
            raise CardsimError(f"{self.name}: search params must be a dict (see cardsim.agents), got {_short(params)}")
        cdef char* copy = self._private_copy(s, &las, &n)
        try:
            p = self.vt.current_player(copy, self.cfg)
            seats = [None] * self.num_players
            seats[p] = params
            sb = _SearchBuffers(self, seats)
            rng_seed(&r, sd, (<State>s).deal, STREAM_SEAT0 + p)
            a = _search_one(self, copy, sb, p, &r)
        finally:
            PyMem_Free(copy)
        return a

    def greedy_action(self, s, seed=0):
        """The C greedy agent's choice in state s (its stream keyed by seed; s is not modified).
        Runs on a private copy of s, like ismcts_action."""
        cdef Rng r
        cdef uint64_t sd = check_int(seed, f"{self.name}: seed", 0, U64_MAX)
        cdef ActionSet las
        cdef int a, n
        cdef char* copy = self._private_copy(s, &las, &n)
        try:
            rng_seed(&r, sd, 0, 0)
            with nogil:
                a = self.vt.greedy(copy, self.cfg, &las, n, &r)
        finally:
            PyMem_Free(copy)
        return a

    def __reduce__(self):
        if _SPEC_REBUILD is None:
            raise CardsimError(f"{self.name}: a spec pickles once cardsim.game registered set_spec_rebuild")
        return (_SPEC_REBUILD, (self.name, dict(self.options)))

    # ---- engine entry points ------------------------------------------------------------------
    def new_state(self, seed=0, deal=0):
        """Deal `deal` of seed `seed` (integers 0..2**64-1, else ConfigError): the same state
        every time, on any machine."""
        cdef uint64_t sd = check_int(seed, "seed", 0, U64_MAX, ConfigError)
        cdef uint64_t dl = check_int(deal, "deal", 0, U64_MAX, ConfigError)
        cdef State s = State._alloc(self)
        cdef Rng r
        s.seed = sd
        s.deal = dl
        rng_seed(&r, sd, dl, STREAM_DEAL)
        with nogil:
            self.vt.init(s.data, self.cfg, &r)
        return s

    def run_batch(self, seed, start, count, agents, max_steps=DEFAULT_MAX_STEPS,
                  ismcts_iterations=ISMCTS_ITERATIONS, ismcts_c=ISMCTS_C, bint lead_changes=False, search=None):
        """Play deals start..start+count-1 of `seed` with C agents (codes per seat), in one nogil
        call. Returns a dict of numpy arrays: returns (count, P) float64, actions, decisions
        (turns with more than one legal action) and legal_sum (sum of legal counts over
        decisions) as int64, metrics (count, M) float64, first_player (count,) int8 (the seat to
        act in the initial state) and, with lead_changes=True, lead_changes (count,) int32: how
        often the set of seats with the highest running return changed to one sharing no seat
        with the previous set (the game's running standing, vt.standing or else vt.returns, after every action; ties of all seats are no lead), and
        lead_from (count,) int32: the number of actions after which the final leaders (the seats
        with the highest returns at the end; none if all tie) held the lead without interruption,
        so a deal of `actions` actions was decided lead_from actions in (0: led from the start).
        The kernel fills one DealRecord of counters per deal (play_one)."""
        cdef int P = self.num_players
        cdef int M = len(self.metric_names)
        cdef int i
        cdef uint64_t sd = check_int(seed, f"{self.name}: seed", 0, U64_MAX)
        cdef int64_t first = check_int(start, f"{self.name}: start", 0, 2**63 - 1)
        cdef int64_t n_deals = check_int(count, f"{self.name}: count", 0, 2**62)
        cdef long steps_cap = check_int(max_steps, f"{self.name}: max_steps", 1, 2**62)
        if first + n_deals > 2**63 - 1:
            raise CardsimError(f"{self.name}: start + count must stay below 2**63")
        cdef int agent_codes[MAX_PLAYERS]
        self._agent_codes(agents, agent_codes)
        cdef _SearchBuffers sb = _buffers_for(self, agent_codes, check_int(ismcts_iterations, f"{self.name}: ismcts iterations", 1,
                                              MAX_ISMCTS_ITERATIONS), _check_c(self.name, ismcts_c), search)
        cdef SearchWork* sw = NULL if sb is None else &sb.w[0]
        rets = np.zeros((n_deals, P), dtype=np.float64)
        acts = np.zeros(n_deals, dtype=np.int64)
        decs = np.zeros(n_deals, dtype=np.int64)
        lsum = np.zeros(n_deals, dtype=np.int64)
        mets = np.zeros((n_deals, M), dtype=np.float64)
        fps = np.zeros(n_deals, dtype=np.int8)
        lcs = np.zeros(n_deals, dtype=np.int32)
        lfs = np.zeros(n_deals, dtype=np.int32)
        cdef int8_t[::1] fv = fps
        cdef int32_t[::1] lcv = lcs
        cdef int32_t[::1] lfv = lfs
        cdef double[:, ::1] rv = rets
        cdef int64_t[::1] av = acts
        cdef int64_t[::1] dv = decs
        cdef int64_t[::1] lv = lsum
        cdef double[:, ::1] mv = mets
        cdef DealRecord rec
        rec.track_leads = 1 if lead_changes else 0
        cdef void* st = PyMem_Malloc(self.state_size)
        if st == NULL:
            raise MemoryError()
        cdef const GameVTable* vt = &self.vt
        cdef const void* cfg = self.cfg
        cdef int nw = self.action_words
        cdef int64_t d
        cdef int rc = 0
        cdef int64_t bad = -1
        try:
            with nogil:
                for d in range(n_deals):
                    rc = play_one(vt, cfg, st, P, nw, sd, <uint64_t>(first + d), agent_codes,
                                  steps_cap, &rec, NULL, sw)
                    if rc != 0:
                        bad = first + d
                        break
                    vt.returns(st, cfg, &rv[d, 0])
                    if M > 0:
                        vt.metrics(st, cfg, &mv[d, 0])
                    av[d] = rec.steps
                    fv[d] = rec.first_player
                    lcv[d] = rec.lead_changes
                    lfv[d] = rec.lead_from
                    dv[d] = rec.decisions
                    lv[d] = rec.legal_sum
        finally:
            PyMem_Free(st)
        if bad >= 0:
            raise CardsimError(f"{self.name}: deal {bad} of seed {sd} did not end within {steps_cap} actions")
        out = {"returns": rets, "actions": acts, "decisions": decs, "legal_sum": lsum, "metrics": mets,
               "first_player": fps}
        if lead_changes:
            out["lead_changes"] = lcs
            out["lead_from"] = lfs
        return out

    cdef int _agent_codes(self, agents, int* codes) except -1:
        """Validate one agent code per seat into codes[0..P-1]."""
        if isinstance(agents, (str, bytes)) or not hasattr(agents, "__len__") or len(agents) != self.num_players:
            raise CardsimError(f"{self.name}: need {self.num_players} agents, got {_short(agents)}")
        for i in range(self.num_players):
            codes[i] = check_int(agents[i], f"{self.name}: agent code", 0, AGENT_ISMCTS)
        return 0


def kernel_actions(GameSpec spec not None, seed, deal, agents, max_steps=100_000,
                   ismcts_iterations=ISMCTS_ITERATIONS, ismcts_c=ISMCTS_C, search=None):
    """The actions the batch kernel takes in deal (seed, deal) with these agent codes (to check
    that the kernel and the Python State API agree)."""
    cdef uint64_t sd = check_int(seed, "seed", 0, U64_MAX)
    cdef uint64_t dl = check_int(deal, "deal", 0, U64_MAX)
    cdef long cap = check_int(max_steps, "max_steps", 1, 100_000_000)
    cdef int codes[MAX_PLAYERS]
    cdef int i
    spec._agent_codes(agents, codes)
    cdef _SearchBuffers sb = _buffers_for(spec, codes, check_int(ismcts_iterations, "ismcts iterations", 1,
                                          MAX_ISMCTS_ITERATIONS), _check_c(spec.name, ismcts_c), search)
    cdef SearchWork* sw = NULL if sb is None else &sb.w[0]
    rec_actions = np.zeros(cap, dtype=np.int32)
    cdef int32_t[::1] rv = rec_actions
    cdef void* st = PyMem_Malloc(spec.state_size)
    cdef DealRecord rec
    cdef int rc
    rec.track_leads = 0
    if st == NULL:
        raise MemoryError()
    try:
        rc = play_one(&spec.vt, spec.cfg, st, spec.num_players, spec.action_words, sd, dl, codes,
                      cap, &rec, &rv[0], sw)
    finally:
        PyMem_Free(st)
    if rc != 0:
        raise CardsimError(f"{spec.name}: deal did not end within {cap} actions")
    return rec_actions[:rec.steps].tolist()


include "cardsim/core/_batch_kernel.pxi"


cdef enum:
    HIST_FIRST_CAP = 120          # a first history buffer of 8 + 480 bytes stays a pymalloc block


@cython.freelist(64)
@cython.final
@cython.no_gc        # it refers to its GameSpec and to bytearrays only: it can be in no cycle
cdef class State:
    """A position of one game: a fixed-size C struct plus the action history.

    Created by `Game.new_state(seed, deal)`; every method validates its arguments and raises a
    `cardsim.CardsimError` subclass (a ValueError) without changing the state."""

    def __cinit__(self):
        self.legal_n = -1
        # no __dealloc__: every buffer a State owns is a Python object, so dropping one (a search's
        # clones) is a free-list push with no error-state save and restore around user code

    cdef int _own_data(self, Py_ssize_t size) except -1:
        """Point data at the object's inline words when the struct fits, else at a new block."""
        if size <= <Py_ssize_t>sizeof(self.inline_data):
            self.data = <char*>self.inline_data
        else:
            self.big = PyByteArray_FromStringAndSize(NULL, size)
            self.data = PyByteArray_AS_STRING(self.big)
        return 0

    cdef int _new_hist(self, Py_ssize_t cap) except -1:
        """A fresh history buffer of cap entries holding this state's history."""
        cdef bytearray nb = PyByteArray_FromStringAndSize(NULL, sizeof(int64_t) + cap * sizeof(int32_t))
        cdef char* p = PyByteArray_AS_STRING(nb)
        if self.hist_len:
            memcpy(p + sizeof(int64_t), self.hist, self.hist_len * sizeof(int32_t))
        (<int64_t*>p)[0] = self.hist_len
        self.hbuf = nb
        self.hist = <int32_t*>(p + sizeof(int64_t))
        self.hist_cap = cap
        return 0

    @staticmethod
    cdef State _alloc(GameSpec spec):
        cdef State s = State.__new__(State)
        s.spec = spec
        s._own_data(spec.state_size)
        s._new_hist(HIST_FIRST_CAP)
        memset(s.data, 0, spec.state_size)
        return s

    def __init__(self, *args, **kwargs):
        raise TypeError("States are created by Game.new_state(seed, deal)")

    # ---- internal ----------------------------------------------------------------------------
    cdef int _legal(self) noexcept:
        if self.legal_n < 0:
            self.legal_n = self.spec.vt.legal(self.data, self.spec.cfg, &self.legal_cache)
        return self.legal_n

    cdef int _push(self, int action) except -1:
        """Append action to the history. The buffer may be shared with clones: its `used` is the
        longest history any sharer wrote. A state whose history is exactly that long appends in
        place (the original keeps appending in place after it is cloned); any other copies first."""
        cdef Py_ssize_t n = self.hist_len
        cdef int64_t* used = <int64_t*>PyByteArray_AS_STRING(self.hbuf)
        if refcount(<PyObject*>self.hbuf) == 1:
            used[0] = n                   # the only sharer: whatever lies past n is its own
        if used[0] != n or n == self.hist_cap:
            self._new_hist(self.hist_cap * 2 if n == self.hist_cap else self.hist_cap)
            used = <int64_t*>PyByteArray_AS_STRING(self.hbuf)
        self.hist[n] = action
        used[0] = n + 1
        self.hist_len = n + 1
        return 0

    cdef int _player(self, object p) except -1:
        """A seat argument: an integer 0..num_players-1 (numpy integers too), else CardsimError."""
        return check_int(p, f"{self.spec.name}: player", 0, self.spec.num_players - 1)

    cdef int _action(self, object action) except -1:
        """An action argument: an integer 0..num_actions-1 (numpy integers too; bool, float,
        str, None refused), else IllegalActionError."""
        return check_int(action, f"{self.spec.name}: action (an int; use string_to_action for text)", 0,
                         self.spec.num_actions - 1, IllegalActionError)

    # ---- public API (DESIGN §4) ----------------------------------------------------------------
    @property
    def game(self):
        return self.spec

    @property
    def num_players(self):
        return self.spec.num_players

    @property
    def current_player(self):
        """Seat to act, -1 when terminal."""
        if self._legal() == 0:
            return -1
        return self.spec.vt.current_player(self.data, self.spec.cfg)

    @property
    def phase(self):
        return self.spec._phase_name(self)

    def legal_actions(self):
        """Legal actions as an ascending int64 numpy array; empty only when terminal. Arrays are
        recycled once nothing refers to them (core/_legal_pool.pxi): one you keep never changes."""
        cdef int n = self._legal()
        cdef cnp.ndarray arr = _la_array(n)    # recycled once dropped (see _la_array)
        cdef int64_t* out = <int64_t*>cnp.PyArray_DATA(arr)
        cdef int i, j = 0
        cdef uint64_t w
        for i in range(self.spec.action_words):
            w = self.legal_cache.w[i]
            while w:
                out[j] = (i << 6) + bit_low(w)
                j += 1
                w &= w - 1
        return arr

    def legal_mask(self):
        """Legal actions as a bool array of length num_actions (for RL action masking)."""
        cdef int n = self._legal()
        mask = np.zeros(self.spec.num_actions, dtype=np.bool_)
        cdef cnp.uint8_t[::1] mv = mask.view(np.uint8)
        cdef int a
        for a in range(self.spec.num_actions):
            mv[a] = as_has(&self.legal_cache, a)
        return mask

    def is_legal(self, action):
        """True iff `action` is legal now. Any integer is a fair question (out of range: False);
        anything else (bool, float, str, None) raises IllegalActionError."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            self._action(action)             # raises the typed error
        v = int(action)
        if v < 0 or v >= self.spec.num_actions:
            return False
        self._legal()
        return as_has(&self.legal_cache, <int>v)

    def apply(self, action):
        """Apply one action. An illegal, out-of-range or non-integer action raises
        IllegalActionError naming the legal ones; the state is then unchanged."""
        cdef long v
        cdef int overflow = 0
        if type(action) is int:              # the common cases, without a conversion
            v = PyLong_AsLongAndOverflow(action, &overflow)
        elif type(action) is _NP_INT64:      # an element of legal_actions(): read its value directly
            v = <long>((<LongScalar*><PyObject*>action).obval if _NP_INT64_IS_LONG
                       else (<Int64Scalar*><PyObject*>action).obval)
        else:
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                self._action(action)         # raises the typed error naming what is allowed
            v = PyLong_AsLongAndOverflow(int(action), &overflow)
        cdef int n = self._legal()
        cdef GameSpec spec = self.spec
        if overflow or v < 0 or v >= spec.num_actions or not as_has(&self.legal_cache, <int>v):
            self._raise_illegal(int(action), n)
        self._push(<int>v)
        spec.vt.apply(self.data, spec.cfg, <int>v)
        self.legal_n = -1
        return self

    def apply_string(self, text):
        """Parse an action string and apply it."""
        return self.apply(self.string_to_action(text))

    def _raise_illegal(self, a, int n):
        if n == 0:
            raise IllegalActionError(f"{self.spec.name}: the game is over; no action is legal (got {a})")
        legal = [self.spec._action_string(self, int(x)) for x in self.legal_actions()]
        if 0 <= a < self.spec.num_actions:
            what = f"{a} ({self.spec._action_string(self, int(a))})"
        else:
            what = f"{_short(a)} (out of range 0..{self.spec.num_actions - 1})"
        raise IllegalActionError(
            f"{self.spec.name}: action {what} is illegal for player {self.current_player} "
            f"in phase {short(self.phase)}; legal: {', '.join(legal)}")

    def action_to_string(self, action):
        """The string of action (an integer 0..num_actions-1, else IllegalActionError)."""
        return self.spec._action_string(self, self._action(action))

    def string_to_action(self, text):
        if not isinstance(text, str):
            raise ParseError(f"{self.spec.name}: action text must be a str, got {type(text).__name__}")
        return int(self.spec.parse_action(self, text))

    def is_terminal(self):
        return self.spec.vt.is_terminal(self.data, self.spec.cfg)

    def returns(self):
        """Per-seat returns (float64), in the game's own points; see the game's docs."""
        out = np.zeros(self.spec.num_players, dtype=np.float64)
        cdef double[::1] ov = out
        self.spec.vt.returns(self.data, self.spec.cfg, &ov[0])
        return out

    def standing(self):
        """Per-seat running standing (float64): who is ahead now, by the game's provisional score
        (its info.py STANDING says which: penalty points taken so far, points or tricks captured,
        progress toward a contract, melds on the table); equal to returns() at a terminal state
        and in games without one. What lead tracking watches (run_batch(lead_changes=True))."""
        out = np.zeros(self.spec.num_players, dtype=np.float64)
        cdef double[::1] ov = out
        game_standing(&self.spec.vt, self.data, self.spec.cfg, &ov[0])
        return out

    def metrics(self):
        """The game's metrics for this state, as a dict (same columns as simulate's table)."""
        cdef int M = len(self.spec.metric_names)
        out = np.zeros(max(M, 1), dtype=np.float64)
        cdef double[::1] ov = out
        if M:
            self.spec.vt.metrics(self.data, self.spec.cfg, &ov[0])
        return {k: float(out[i]) for i, k in enumerate(self.spec.metric_names)}

    def hand(self, p):
        """Player p's cards as strings, in the game's display order."""
        return self.spec._hand_strings(self, self._player(p))

    def observation(self, p):
        """Float32 vector of fixed length obs_size: every public fact and p's own cards; nothing
        hidden from p. Layout documented in the game's module."""
        cdef int q = self._player(p)
        cdef cnp.npy_intp dims = self.spec.obs_size
        cdef cnp.ndarray arr = cnp.PyArray_ZEROS(1, &dims, cnp.NPY_FLOAT32, 0)
        self.spec.vt.observe(self.data, self.spec.cfg, q, <float*>cnp.PyArray_DATA(arr))
        return arr

    def resample(self, p, seed=0):
        """A full state consistent with everything p knows (own hand, every card seen, voids
        shown by play, public calls); hidden cards are redrawn, never copied from the truth.
        seed: an integer 0..2**64-1. Raises CardsimError when no consistent world is found."""
        cdef int q = self._player(p)
        cdef uint64_t sd = check_int(seed, f"{self.spec.name}: seed", 0, U64_MAX)
        cdef State s = self.clone()
        cdef Rng r
        rng_seed(&r, sd, self.deal, STREAM_RESAMPLE + q)
        if not self.spec.vt.resample(s.data, s.spec.cfg, q, &r):
            raise CardsimError(
                f"{self.spec.name}: resample found no world consistent with what player {q} knows "
                f"(the state is unchanged; try another seed)")
        s.resampled = True
        s.legal_n = -1
        return s

    def clone(self):
        """An independent copy: a memcpy of the struct; the history is shared copy-on-write."""
        cdef State s = State.__new__(State)
        cdef GameSpec spec = self.spec
        s.spec = spec
        s._own_data(spec.state_size)
        memcpy(s.data, self.data, spec.state_size)
        s.hbuf = self.hbuf                # shared copy-on-write (see _push)
        s.hist = self.hist
        s.hist_len = self.hist_len
        s.hist_cap = self.hist_cap
        s.seed = self.seed
        s.deal = self.deal
        s.resampled = self.resampled
        s.scenario = self.scenario
        if self.legal_n >= 0:
            s.legal_cache = self.legal_cache
            s.legal_n = self.legal_n
        return s

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    @property
    def replayable(self):
        """True iff replaying history() on new_state(seed, deal) reproduces this state: False for
        states built by a scenario helper and for resampled states."""
        return not (self.resampled or self.scenario)

    def history(self):
        """Actions applied so far; replaying them on new_state(seed, deal) reproduces this state."""
        return [self.hist[i] for i in range(self.hist_len)]

    def state_bytes(self):
        """The raw C struct (for equality checks and serialisation)."""
        return self.data[:self.spec.state_size]

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        cdef State o = other
        if o.spec is not self.spec and (o.spec.name != self.spec.name or o.spec.options != self.spec.options):
            return False
        return self.state_bytes() == o.state_bytes()

    def __hash__(self):
        return hash(self.state_bytes())

    def __str__(self):
        return self.spec._render(self)

    def _repr_html_(self):
        """The position as an HTML table in notebooks: the view registered by the Python layer
        (cardsim.views.state_html, registered on `import cardsim`; the engine imports nothing
        above it)."""
        if _HTML_VIEW is None:
            return None
        return _HTML_VIEW(self)

    def __repr__(self):
        return (f"<cardsim.State {self.spec.name} seed={self.seed} deal={self.deal} "
                f"phase={self.phase!r} actions={self.hist_len}>")

    def __reduce__(self):
        return (_restore_state, (self.spec, self.state_bytes(), self.history(),
                                 self.seed, self.deal, self.resampled, self.scenario, _layout_digest(self.spec)))


_LAYOUTS = {}


def _layout_digest(GameSpec spec):
    """A digest of this build's state struct for `spec`'s game and options: the bytes of the
    states of a fixed short playout (deal 0 of seed 0, the first legal action each step). A build
    whose struct layout (or deal, or rules) differs gives another digest, so a pickled state's raw
    bytes are never read under a layout they were not written in."""
    key = (spec.name, repr(sorted(spec.options.items())))
    d = _LAYOUTS.get(key)
    if d is None:
        import hashlib
        h = hashlib.blake2b(digest_size=16)
        h.update(spec.state_size.to_bytes(8, "little"))
        st = spec.new_state(0, 0)
        for _ in range(8):
            h.update(st.state_bytes())
            la = st.legal_actions()
            if len(la) == 0:
                break
            st.apply(int(la[0]))
        d = _LAYOUTS[key] = h.hexdigest()
    return d


def _restore_state(GameSpec spec not None, bytes data not None, list hist not None, uint64_t seed, uint64_t deal, bint resampled,
                   bint scenario=False, layout=None):
    """Unpickle a State. A replayable one (neither resampled nor built by a scenario helper) is
    rebuilt from its seed, deal and history, so it loads under any build; when it was pickled by a
    build with this one's layout, its bytes must also equal the rebuilt state's (else it was
    altered). A state that cannot be replayed keeps its bytes, and loads only under the layout it
    was pickled with (`layout`; a pickle from before layouts were recorded: same struct size)."""
    cdef State s
    if not (resampled or scenario):
        s = spec.new_state(seed, deal)
        try:
            for a in hist:
                s.apply(a)
        except CardsimError as e:
            raise CardsimError(f"{spec.name}: the pickled state's history does not replay: {e}") from None
        if layout == _layout_digest(spec) and s.state_bytes() != data:
            raise CardsimError(f"{spec.name}: the pickled state's bytes differ from its replayed history "
                               "(the pickle was altered)")
        return s
    if len(data) != spec.state_size:
        raise CardsimError(f"{spec.name}: the pickled state's {len(data)} bytes do not match this build's "
                           f"{spec.state_size}-byte state")
    if layout is not None and layout != _layout_digest(spec):
        raise CardsimError(f"{spec.name}: this State was pickled by a cardsim build whose state layout differs "
                           "from this one's, and it cannot be replayed (it was resampled or built by a "
                           "scenario helper); re-create it with this build")
    s = State._alloc(spec)
    memcpy(s.data, <char*>data, spec.state_size)
    for a in hist:
        s._push(check_int(a, f"{spec.name}: pickled history action", 0, spec.num_actions - 1, CardsimError))
    s.seed = seed
    s.deal = deal
    s.resampled = resampled
    s.scenario = scenario
    return s


