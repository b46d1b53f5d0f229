"""Batched environments for RL: many states of one game advanced in one nogil call.

`VectorKernel` owns `num_envs` game states (one contiguous block, each the game's fixed-size
struct) and, per environment, the legal-action set and the returns before the last step. `reset`
and `step` run one nogil loop over the environments and write into caller-owned arrays (numpy,
preallocated once by `cardsim.VectorEnv`): the observation of the seat to act, the legal mask,
the per-seat rewards of the step, the terminated flags and the seat to act. Nothing is allocated
per step; no Python object is touched inside the loop.

Deals: environment i plays deals (i << 32) | k, k = 0, 1, 2, ... of the seed, so every state's
deal sequence depends only on (seed, i), never on the number of environments or on threads.
Automatic reset: when a step ends a deal, its rewards and `terminated[i] = True` are reported,
and the environment is dealt its next deal at once (its observation, mask and seat to act are
then those of the new deal's first position).
"""
from libc.string cimport memset, memcpy, memcmp
from cpython.mem cimport PyMem_Malloc, PyMem_Free
cimport numpy as cnp
import numpy as np

from cardsim.core._types cimport uint8_t, int32_t, int64_t, uint64_t, MAX_PLAYERS
from cardsim.core._rng cimport Rng, rng_seed, STREAM_DEAL
from cardsim.core._actions cimport ActionSet, as_has
from cardsim.core._bits cimport cs_ctz
from cardsim.core._engine cimport GameSpec, State

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
    cdef double* before             # num_envs * num_players: returns before the last step
    cdef uint64_t* episode          # deals started by each environment
    cdef readonly int num_envs
    cdef readonly uint64_t seed

    def __cinit__(self, GameSpec spec, int num_envs, uint64_t seed):
        if num_envs < 1:
            raise CardsimError(f"num_envs must be >= 1, got {num_envs}")
        self.spec = spec
        self.num_envs = num_envs
        self.seed = seed
        self.states = <char*>PyMem_Malloc(<size_t>num_envs * spec.state_size)
        self.legal = <ActionSet*>PyMem_Malloc(num_envs * sizeof(ActionSet))
        self.n_legal = <int*>PyMem_Malloc(num_envs * sizeof(int))
        self.before = <double*>PyMem_Malloc(num_envs * spec.num_players * sizeof(double))
        self.episode = <uint64_t*>PyMem_Malloc(num_envs * sizeof(uint64_t))
        if not (self.states and self.legal and self.n_legal and self.before and self.episode):
            raise MemoryError()
        memset(self.episode, 0, num_envs * sizeof(uint64_t))

    def __dealloc__(self):
        PyMem_Free(self.states)
        PyMem_Free(self.legal)
        PyMem_Free(self.n_legal)
        PyMem_Free(self.before)
        PyMem_Free(self.episode)

    cdef void _deal(self, int i) noexcept nogil:
        """Deal environment i's next deal and compute its legal set."""
        cdef Rng r
        cdef void* st = self.states + <size_t>i * self.spec.state_size
        rng_seed(&r, self.seed, ((<uint64_t>i) << 32) | self.episode[i], STREAM_DEAL)
        self.episode[i] += 1
        memset(st, 0, self.spec.state_size)
        self.spec.vt.init(st, self.spec.cfg, &r)
        self.n_legal[i] = self.spec.vt.legal(st, self.spec.cfg, &self.legal[i])
        self.spec.vt.returns(st, self.spec.cfg, &self.before[i * self.spec.num_players])

    cdef void _emit(self, int i, float* obs, uint8_t* mask, int32_t* cur) noexcept nogil:
        """Write environment i's seat to act, its observation and the legal mask."""
        cdef void* st = self.states + <size_t>i * self.spec.state_size
        cdef int p = self.spec.vt.current_player(st, self.spec.cfg)
        cdef float* o = obs + <size_t>i * self.spec.obs_size
        cur[i] = p
        memset(o, 0, self.spec.obs_size * sizeof(float))
        if p >= 0:
            self.spec.vt.observe(st, self.spec.cfg, p, o)
        write_mask(&self.legal[i], self.spec.action_words, mask + <size_t>i * self.spec.num_actions,
                   self.spec.num_actions)

    def reset(self, float[:, ::1] obs, cnp.uint8_t[:, ::1] mask, double[:, ::1] rewards,
              cnp.uint8_t[::1] terminated, int32_t[::1] current_player):
        """Start every environment on its first deal (episode counters back to 0)."""
        self._check(obs, mask, rewards, terminated, current_player)
        cdef int i
        with nogil:
            memset(self.episode, 0, self.num_envs * sizeof(uint64_t))
            for i in range(self.num_envs):
                self._deal(i)
                self._emit(i, &obs[0, 0], &mask[0, 0], &current_player[0])
                terminated[i] = 0
            memset(&rewards[0, 0], 0, self.num_envs * self.spec.num_players * sizeof(double))

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, cnp.uint8_t[:, ::1] mask,
             double[:, ::1] rewards, cnp.uint8_t[::1] terminated, int32_t[::1] current_player):
        """Apply actions[i] in environment i (every action is checked first: one illegal action
        raises IllegalActionError and changes no environment), then write each environment's
        rewards (change of its returns), terminated flag and next position (auto reset)."""
        self._check(obs, mask, rewards, terminated, current_player)
        if actions.shape[0] != self.num_envs:
            raise CardsimError(f"step needs one action per environment ({self.num_envs}), got {actions.shape[0]}")
        cdef int i, q, P = self.spec.num_players, A = self.spec.num_actions
        cdef int64_t a
        cdef double x
        cdef int bad = -1
        with nogil:
            for i in range(self.num_envs):
                a = actions[i]
                if a < 0 or a >= A or not as_has(&self.legal[i], <int>a):
                    bad = i
                    break
        if bad >= 0:
            legal = np.flatnonzero(self.legal_mask_of(bad))
            raise IllegalActionError(
                f"{self.spec.name}: action {actions[bad]} is illegal in environment {bad}; legal: "
                f"{legal.tolist()} (no environment was changed)")
        cdef void* st
        cdef double* bf
        cdef double* rw
        with nogil:
            for i in range(self.num_envs):
                st = self.states + <size_t>i * self.spec.state_size
                bf = &self.before[i * P]
                rw = &rewards[i, 0]
                self.spec.vt.apply(st, self.spec.cfg, <int>actions[i])
                self.spec.vt.returns(st, self.spec.cfg, rw)
                for q in range(P):
                    x = rw[q]
                    rw[q] = x - bf[q]
                    bf[q] = x
                self.n_legal[i] = self.spec.vt.legal(st, self.spec.cfg, &self.legal[i])
                if self.n_legal[i] == 0:
                    terminated[i] = 1
                    self._deal(i)
                else:
                    terminated[i] = 0
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

    cdef int _env(self, int i) except -1:
        if not 0 <= i < self.num_envs or self.episode[i] == 0:
            raise CardsimError(f"environment {i} out of range 0..{self.num_envs - 1}, or not reset yet")
        return 0

    cdef _check(self, float[:, ::1] obs, cnp.uint8_t[:, ::1] mask, double[:, ::1] rewards,
                cnp.uint8_t[::1] terminated, int32_t[::1] current_player):
        N = self.num_envs
        if (obs.shape[0] != N or obs.shape[1] != self.spec.obs_size or mask.shape[0] != N
                or mask.shape[1] != self.spec.num_actions or rewards.shape[0] != N
                or rewards.shape[1] != self.spec.num_players or terminated.shape[0] != N
                or current_player.shape[0] != N):
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
