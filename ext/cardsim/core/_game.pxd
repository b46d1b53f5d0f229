# The per-game vtable: a struct of nogil function pointers each game fills once. The generic
# kernels (random playout, batch run, Python State wrapper) are written only against this.
#
# Conventions: `st` points at the game's fixed-size, pointer-free state struct (clone = memcpy);
# `cfg` at its immutable config struct (options resolved to C values), owned by the GameSpec.
from cardsim.core._types cimport action_t
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet

ctypedef void (*init_fn)(void* st, const void* cfg, Rng* rng) noexcept nogil
ctypedef int (*player_fn)(const void* st, const void* cfg) noexcept nogil
ctypedef int (*legal_fn)(const void* st, const void* cfg, ActionSet* out) noexcept nogil
ctypedef void (*apply_fn)(void* st, const void* cfg, int action) noexcept nogil
ctypedef bint (*terminal_fn)(const void* st, const void* cfg) noexcept nogil
ctypedef void (*returns_fn)(const void* st, const void* cfg, double* out) noexcept nogil
ctypedef void (*observe_fn)(const void* st, const void* cfg, int player, float* out) noexcept nogil
ctypedef int (*resample_fn)(void* st, const void* cfg, int player, Rng* rng) noexcept nogil
ctypedef int (*agent_fn)(const void* st, const void* cfg, const ActionSet* legal, int n_legal,
                         Rng* rng) noexcept nogil
ctypedef void (*metrics_fn)(const void* st, const void* cfg, double* out) noexcept nogil
# the batch kernel's loop compiled with the game's own functions (core/_play_loop.pxi): vt is the
# GameVTable, ar the seats' streams, sw NULL or the SearchWork array, counts decisions and legal sum
ctypedef long (*play_fn)(const void* vt, const void* cfg, void* st, int nw, const int* agents, Rng* ar,
                         void* sw, long max_steps, long* counts) noexcept nogil

ctypedef struct GameVTable:
    init_fn init                 # deal a fresh state from the deal stream rng (keep rng if needed later)
    player_fn current_player     # seat to act, -1 when terminal
    legal_fn legal               # fill out (cleared by the game), return the count; 0 iff terminal
    apply_fn apply               # precondition: action is in legal(st)
    terminal_fn is_terminal      # deal (or match, scope="match") over
    returns_fn returns           # per-seat returns, the game's own points
    observe_fn observe           # obs_size floats for player: public facts + own cards, nothing hidden
    resample_fn resample         # redeal hidden cards consistently with what player knows; 1, or 0 if no consistent world was found (st then unspecified)
    agent_fn greedy              # the game's documented heuristic agent
    metrics_fn metrics           # num_metrics game-specific numbers for the result table
    play_fn play                 # optional (NULL: the generic loop): core/_play_loop.pxi compiled in the game's module
    returns_fn standing          # optional (NULL: returns): per-seat running standing, who is ahead mid-deal (game_standing)


cdef inline void game_standing(const GameVTable* vt, const void* st, const void* cfg, double* out) noexcept nogil:
    """The running standing of st: per seat, the game's provisional score saying who is ahead now
    (penalty points taken so far, card points or tricks captured, progress toward a contract, melds
    on the table: each game's info.py `STANDING` says which). It is the returns at a terminal state
    and wherever the game has no standing (vt.standing NULL, e.g. Gleek, whose returns already move
    during a deal); vt.standing is called for non-terminal states only. Lead tracking (lead_see in
    the batch kernel, LeadTracker over State.standing) watches it after every action."""
    if vt.standing == NULL or vt.is_terminal(st, cfg):
        vt.returns(st, cfg, out)
    else:
        vt.standing(st, cfg, out)
