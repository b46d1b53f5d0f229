"""Batched environments for RL: many states of one game advanced in one nogil call.

`VectorKernel` owns `num_envs` game states (one contiguous block, each the game's fixed-size
struct) and, per environment, the legal-action set, the returns before the last action, the
actions of the current deal and the opponents' random streams. `reset` and `step` run one nogil
loop over the environments and write into caller-owned arrays (numpy, preallocated once by
`cardsim.VectorEnv`): the observation of the seat to act, the legal mask, the per-seat rewards,
the terminated and truncated flags, the seat to act and, for environments whose deal ended in the
step, the final observation. Nothing is allocated per step; no Python object is touched inside
the loop.

Seats: every seat is a *stop* seat (a decision handed back to the caller: a learner, or an
opponent played by a Python policy) or is played inside the kernel by a C agent (code as in
core._engine: random, greedy, first, ismcts/pimc), exactly as the batch kernel (play_one) plays
it: the seat draws from its own stream (seed, deal, STREAM_SEAT0 + p) and a position with one
legal action is played without a draw. After the caller's actions are applied, each environment
is advanced through the kernel-played seats until a stop seat is to act.

Deals: environment i plays deals (i << 32) | k, k = 0, 1, 2, ... of the seed, so every state's
deal sequence depends only on (seed, i), never on the number of environments or on threads.
Automatic reset in the same step (gymnasium's AutoresetMode.SAME_STEP): when a deal ends
(terminated) or reaches max_steps actions without ending (truncated), the observation of the
final seat (the stop seat that acted last in that deal, else the first stop seat) is written to
final_obs, the flag is set, and the environment is dealt its next deal at once.
"""
from libc.string cimport memset, memcpy, memcmp
from cpython.mem cimport PyMem_Malloc, PyMem_Free
cimport numpy as cnp
import numpy as np

from cardsim.core._types cimport uint8_t, int32_t, int64_t, uint64_t, MAX_PLAYERS
from cardsim.core._rng cimport Rng, rng_seed, STREAM_DEAL, STREAM_SEAT0
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.core._bits cimport cs_ctz
from cardsim.core._engine cimport (GameSpec, State, _SearchBuffers, _buffers_for, seat_choose,
                                   AGENT_ISMCTS)
from cardsim.core._search cimport SearchWork

from cardsim.errors import CardsimError, IllegalActionError

cnp.import_array()


cdef inline void write_mask(const ActionSet* s, int nw, uint8_t* row, int num_actions) noexcept nogil:
    """row[a] = 1 for every legal action a (row cleared first)."""
    cdef int i, a
    cdef uint64_t w
    memset(row, 0, num_actions)
    for i in range(nw):
        w = s.w[i]
        while w:
            a = (i << 6) + cs_ctz(w)
            row[a] = 1
            w &= w - 1


cdef class VectorKernel:
    """num_envs states of one configured game; see the module docstring."""
    cdef GameSpec spec
    cdef char* states               # num_envs * state_size bytes
    cdef ActionSet* legal           # legal set of each environment's current position
    cdef int* n_legal               # its size (0 = terminal, never left so: auto reset)
    cdef double* before             # num_envs * num_players: returns before the last action
    cdef uint64_t* episode          # deals started by each environment
    cdef int64_t* steps             # actions applied in each environment's current deal
    cdef int* last_stop             # stop seat that acted last in the current deal (-1: none yet)
    cdef Rng* seat_rng              # num_envs * MAX_PLAYERS: the kernel-played seats' streams
    cdef int codes[MAX_PLAYERS]     # agent code of each kernel-played seat
    cdef int stop[MAX_PLAYERS]      # 1 = the seat's decisions are handed back to the caller
    cdef int first_stop             # lowest stop seat
    cdef _SearchBuffers sb          # search workspaces (None unless a seat searches)
    cdef SearchWork* sw
    cdef int32_t* perm              # NULL, or num_players * obs_size source indices (canonical obs)
    cdef float* scratch             # obs_size floats (canonical obs)
    cdef object perm_owner
    cdef readonly int num_envs
    cdef readonly uint64_t seed
    cdef readonly int64_t max_steps  # actions of one deal before it is truncated

    def __cinit__(self, GameSpec spec, int num_envs, uint64_t seed, stop=None, codes=None, search=None,
                  int64_t max_steps=0):
        cdef int p, P = spec.num_players
        if num_envs < 1:
            raise CardsimError(f"num_envs must be >= 1, got {num_envs}")
        self.spec = spec
        self.num_envs = num_envs
        self.seed = seed
        self.max_steps = max_steps if max_steps > 0 else (<int64_t>1) << 62
        stop = [1] * P if stop is None else [int(bool(x)) for x in stop]
        codes = [0] * P if codes is None else [int(x) for x in codes]
        if len(stop) != P or len(codes) != P or not any(stop):
            raise CardsimError(f"{spec.name}: need a stop flag and an agent code per seat ({P}), "
                               f"at least one stop seat")
        self.first_stop = -1
        for p in range(P):
            self.stop[p] = stop[p]
            if stop[p] and self.first_stop < 0:
                self.first_stop = p
        spec._agent_codes([0 if stop[p] else codes[p] for p in range(P)], self.codes)
        if search is not None:
            search = [None if stop[p] else search[p] for p in range(P)]
        self.sb = _buffers_for(spec, self.codes, 200, 0.7, search)
        self.sw = &self.sb.w[0] if self.sb is not None else NULL
        self.states = <char*>PyMem_Malloc(<size_t>num_envs * spec.state_size)
        self.legal = <ActionSet*>PyMem_Malloc(num_envs * sizeof(ActionSet))
        self.n_legal = <int*>PyMem_Malloc(num_envs * sizeof(int))
        self.before = <double*>PyMem_Malloc(num_envs * P * sizeof(double))
        self.episode = <uint64_t*>PyMem_Malloc(num_envs * sizeof(uint64_t))
        self.steps = <int64_t*>PyMem_Malloc(num_envs * sizeof(int64_t))
        self.last_stop = <int*>PyMem_Malloc(num_envs * sizeof(int))
        self.seat_rng = <Rng*>PyMem_Malloc(<size_t>num_envs * MAX_PLAYERS * sizeof(Rng))
        self.scratch = <float*>PyMem_Malloc(spec.obs_size * sizeof(float))
        if not (self.states and self.legal and self.n_legal and self.before and self.episode
                and self.steps and self.last_stop and self.seat_rng and self.scratch):
            raise MemoryError()
        memset(self.episode, 0, num_envs * sizeof(uint64_t))

    def __dealloc__(self):
        PyMem_Free(self.states)
        PyMem_Free(self.legal)
        PyMem_Free(self.n_legal)
        PyMem_Free(self.before)
        PyMem_Free(self.episode)
        PyMem_Free(self.steps)
        PyMem_Free(self.last_stop)
        PyMem_Free(self.seat_rng)
        PyMem_Free(self.scratch)

    def set_obs_perm(self, perm):
        """Canonical observations: perm (int32, num_players x obs_size) or None. With perm, the
        observation of seat p is written as out[j] = observation(p)[perm[p, j]]."""
        if perm is None:
            self.perm, self.perm_owner = NULL, None
            return
        arr = np.ascontiguousarray(perm, dtype=np.int32)
        if arr.shape != (self.spec.num_players, self.spec.obs_size) or arr.min() < 0 or arr.max() >= self.spec.obs_size:
            raise CardsimError(f"{self.spec.name}: obs permutation must be int32 "
                               f"({self.spec.num_players}, {self.spec.obs_size}) of indices 0..{self.spec.obs_size - 1}")
        cdef int32_t[:, ::1] v = arr
        self.perm_owner = arr
        self.perm = &v[0, 0]

    cdef void _deal(self, int i) noexcept nogil:
        """Deal environment i's next deal and compute its legal set."""
        cdef Rng r
        cdef int p
        cdef uint64_t deal = ((<uint64_t>i) << 32) | self.episode[i]
        cdef void* st = self.states + <size_t>i * self.spec.state_size
        rng_seed(&r, self.seed, deal, STREAM_DEAL)
        for p in range(self.spec.num_players):
            rng_seed(&self.seat_rng[i * MAX_PLAYERS + p], self.seed, deal, STREAM_SEAT0 + p)
        self.episode[i] += 1
        self.steps[i] = 0
        self.last_stop[i] = -1
        memset(st, 0, self.spec.state_size)
        self.spec.vt.init(st, self.spec.cfg, &r)
        self.n_legal[i] = self.spec.vt.legal(st, self.spec.cfg, &self.legal[i])
        self.spec.vt.returns(st, self.spec.cfg, &self.before[i * self.spec.num_players])

    cdef void _observe(self, const void* st, int p, float* o) noexcept nogil:
        """Seat p's observation into o (rotated by perm[p] when canonical)."""
        cdef int j, n = self.spec.obs_size
        cdef const int32_t* pr
        if self.perm == NULL:
            memset(o, 0, n * sizeof(float))
            self.spec.vt.observe(st, self.spec.cfg, p, o)
            return
        memset(self.scratch, 0, n * sizeof(float))
        self.spec.vt.observe(st, self.spec.cfg, p, self.scratch)
        pr = self.perm + <size_t>p * n
        for j in range(n):
            o[j] = self.scratch[pr[j]]

    cdef void _emit(self, int i, float* obs, uint8_t* mask, int32_t* cur) noexcept nogil:
        """Write environment i's seat to act, its observation and the legal mask."""
        cdef void* st = self.states + <size_t>i * self.spec.state_size
        cdef int p = self.spec.vt.current_player(st, self.spec.cfg)
        cdef float* o = obs + <size_t>i * self.spec.obs_size
        cur[i] = p
        if p >= 0:
            self._observe(st, p, o)
        else:
            memset(o, 0, self.spec.obs_size * sizeof(float))
        write_mask(&self.legal[i], self.spec.action_words, mask + <size_t>i * self.spec.num_actions,
                   self.spec.num_actions)

    cdef void _after(self, int i, double* rw, uint8_t* term, uint8_t* trunc, uint8_t* fin,
                     float* final_obs) noexcept nogil:
        """The action just applied in environment i: credit its rewards, end or truncate the deal
        (final observation, next deal), then play the kernel-played seats until a stop seat is to
        act (every action they take credited and checked the same way)."""
        cdef void* st = self.states + <size_t>i * self.spec.state_size
        cdef int P = self.spec.num_players, nw = self.spec.action_words
        cdef int q, p, a, n, fs
        cdef double* bf = &self.before[i * P]
        cdef double cur[MAX_PLAYERS]
        while True:
            self.spec.vt.returns(st, self.spec.cfg, cur)
            for q in range(P):
                rw[q] += cur[q] - bf[q]
                bf[q] = cur[q]
            self.steps[i] += 1
            n = self.spec.vt.legal(st, self.spec.cfg, &self.legal[i])
            self.n_legal[i] = n
            if n == 0 or self.steps[i] >= self.max_steps:
                if n == 0:
                    term[i] = 1
                else:
                    trunc[i] = 1
                fin[i] = 1
                fs = self.last_stop[i] if self.last_stop[i] >= 0 else self.first_stop
                self._observe(st, fs, final_obs + <size_t>i * self.spec.obs_size)
                self._deal(i)
                n = self.n_legal[i]
            p = self.spec.vt.current_player(st, self.spec.cfg)
            if self.stop[p]:
                return
            if n == 1:
                a = as_first(&self.legal[i], nw)
            else:
                a = seat_choose(&self.spec.vt, self.spec.cfg, st, &self.legal[i], n, nw, self.codes[p],
                                &self.seat_rng[i * MAX_PLAYERS + p], self.sw, p)
            self.spec.vt.apply(st, self.spec.cfg, a)

    def reset(self, float[:, ::1] obs, cnp.uint8_t[:, ::1] mask, double[:, ::1] rewards,
              cnp.uint8_t[::1] terminated, cnp.uint8_t[::1] truncated, cnp.uint8_t[::1] final,
              float[:, ::1] final_obs, int32_t[::1] current_player, bint restart=True):
        """Deal every environment a new deal (restart: from deal k = 0 again, else its next one)
        and play the kernel-played seats up to the first stop seat; rewards then hold what those
        opening actions paid (zeros when a stop seat acts first)."""
        self._check(obs, mask, rewards, terminated, truncated, final, final_obs, current_player)
        cdef int i, q, p, P = self.spec.num_players
        cdef void* st
        with nogil:
            if restart:
                memset(self.episode, 0, self.num_envs * sizeof(uint64_t))
            memset(&rewards[0, 0], 0, self.num_envs * P * sizeof(double))
            for i in range(self.num_envs):
                self._deal(i)
                terminated[i] = 0
                truncated[i] = 0
                final[i] = 0
                st = self.states + <size_t>i * self.spec.state_size
                p = self.spec.vt.current_player(st, self.spec.cfg)
                if not self.stop[p]:
                    self.steps[i] -= 1          # _after counts the action it credits; none was applied
                    self._after(i, &rewards[i, 0], &terminated[0], &truncated[0], &final[0], &final_obs[0, 0])
                self._emit(i, &obs[0, 0], &mask[0, 0], &current_player[0])

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, cnp.uint8_t[:, ::1] mask,
             double[:, ::1] rewards, cnp.uint8_t[::1] terminated, cnp.uint8_t[::1] truncated,
             cnp.uint8_t[::1] final, float[:, ::1] final_obs, int32_t[::1] current_player,
             const cnp.uint8_t[::1] active=None, bint accumulate=False):
        """Apply actions[i] in environment i (only where active[i], when active is given): every
        action is checked first (one illegal action raises IllegalActionError and changes no
        environment). Then each stepped environment plays its kernel-played seats up to the next
        stop seat (auto reset on the way) and its rewards (per seat, the change of the returns
        over all those actions), flags, final observation and next position are written. With
        accumulate, rewards and flags are added to what the arrays hold (several calls make one
        step); else they are cleared first for the stepped environments."""
        self._check(obs, mask, rewards, terminated, truncated, final, final_obs, current_player)
        N = self.num_envs
        if actions.shape[0] != N or (active is not None and active.shape[0] != N):
            raise CardsimError(f"step needs one action (and active flag) per environment ({N}), got {actions.shape[0]}")
        cdef int i, A = self.spec.num_actions, P = self.spec.num_players
        cdef int64_t a
        cdef int bad = -1
        cdef const uint8_t* act = &active[0] if active is not None else NULL
        with nogil:
            for i in range(self.num_envs):
                if act != NULL and not act[i]:
                    continue
                if self.episode[i] == 0:
                    bad = -2
                    break
                a = actions[i]
                if a < 0 or a >= A or not as_has(&self.legal[i], <int>a):
                    bad = i
                    break
        if bad == -2:
            raise CardsimError("call reset() before step()")
        if bad >= 0:
            legal = np.flatnonzero(self.legal_mask_of(bad))
            raise IllegalActionError(
                f"{self.spec.name}: action {actions[bad]} is illegal in environment {bad}; legal: "
                f"{legal.tolist()} (no environment was changed)")
        cdef void* st
        with nogil:
            for i in range(self.num_envs):
                if act != NULL and not act[i]:
                    continue
                if not accumulate:
                    memset(&rewards[i, 0], 0, P * sizeof(double))
                    terminated[i] = 0
                    truncated[i] = 0
                    final[i] = 0
                st = self.states + <size_t>i * self.spec.state_size
                self.last_stop[i] = self.spec.vt.current_player(st, self.spec.cfg)
                self.spec.vt.apply(st, self.spec.cfg, <int>actions[i])
                self._after(i, &rewards[i, 0], &terminated[0], &truncated[0], &final[0], &final_obs[0, 0])
                self._emit(i, &obs[0, 0], &mask[0, 0], &current_player[0])

    def legal_mask_of(self, int i):
        """Environment i's legal actions as a bool array."""
        self._env(i)
        out = np.zeros(self.spec.num_actions, dtype=np.bool_)
        cdef cnp.uint8_t[::1] v = out.view(np.uint8)
        write_mask(&self.legal[i], self.spec.action_words, &v[0], self.spec.num_actions)
        return out

    def state(self, int i):
        """A copy of environment i's current state as a cardsim State of deal `deal_of(i)`. The
        kernel keeps no history, so the copy has an empty history(): it is `replayable` only when
        that empty history leads to it, i.e. when it is still the deal's first position (byte for
        byte the state new_state(seed, deal_of(i)) deals); any later position is marked not
        replayable (its history does not lead to it)."""
        self._env(i)
        s = self.spec.new_state(self.seed, self.deal_of(i))
        cdef State st = s
        cdef const char* cur = self.states + <size_t>i * self.spec.state_size
        if memcmp(st.data, cur, self.spec.state_size) != 0:
            memcpy(st.data, cur, self.spec.state_size)
            st.scenario = True          # not dealt as it stands: history() does not lead to it
        st.legal_n = -1                 # no legal set cached for the fresh deal survives the copy
        return st

    def deal_of(self, int i):
        """Deal index of environment i's current deal ((i << 32) | k)."""
        self._env(i)
        return ((<uint64_t>i) << 32) | (self.episode[i] - 1)

    def steps_of(self, int i):
        """Actions applied in environment i's current deal (every seat's)."""
        self._env(i)
        return self.steps[i]

    def reseed(self, uint64_t seed):
        """Use `seed` from the next reset on."""
        self.seed = seed

    cdef int _env(self, int i) except -1:
        if not 0 <= i < self.num_envs or self.episode[i] == 0:
            raise CardsimError(f"environment {i} out of range 0..{self.num_envs - 1}, or not reset yet")
        return 0

    cdef _check(self, float[:, ::1] obs, cnp.uint8_t[:, ::1] mask, double[:, ::1] rewards,
                cnp.uint8_t[::1] terminated, cnp.uint8_t[::1] truncated, cnp.uint8_t[::1] final,
                float[:, ::1] final_obs, int32_t[::1] current_player):
        N = self.num_envs
        if (obs.shape[0] != N or obs.shape[1] != self.spec.obs_size or mask.shape[0] != N
                or mask.shape[1] != self.spec.num_actions or rewards.shape[0] != N
                or rewards.shape[1] != self.spec.num_players or terminated.shape[0] != N
                or truncated.shape[0] != N or final.shape[0] != N or final_obs.shape[0] != N
                or final_obs.shape[1] != self.spec.obs_size or current_player.shape[0] != N):
            raise CardsimError("VectorKernel: output arrays do not match (num_envs, sizes)")


def observe_into(State s not None, int p, float[::1] out not None):
    """Write state s's observation for seat p into `out` (float32, length obs_size) without
    allocating: the batched form of `State.observation(p)`. (cardsim.vector.observe_into checks
    every argument first and raises the project's typed errors.)"""
    if not 0 <= p < s.spec.num_players:
        raise CardsimError(f"{s.spec.name}: player {p} out of range; seats are 0..{s.spec.num_players - 1}")
    if out.shape[0] != s.spec.obs_size:
        raise CardsimError(f"{s.spec.name}: out must have length {s.spec.obs_size}, got {out.shape[0]}")
    with nogil:
        memset(&out[0], 0, s.spec.obs_size * sizeof(float))
        s.spec.vt.observe(s.data, s.spec.cfg, p, &out[0])
