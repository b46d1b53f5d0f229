# Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse
# 2012) over the per-game vtable: determinize with vt.resample, UCB1 with availability counts,
# random rollouts. No allocation inside: the caller owns the node pool and the scratch state.
from cardsim.core._types cimport int32_t
from cardsim.core._rng cimport Rng
from cardsim.core._game cimport GameVTable

ctypedef struct MctsNode:
    int32_t parent           # index of the parent node, -1 for the root
    int32_t first_child      # index of the first child, -1 if none
    int32_t next_sibling     # next child of the same parent, -1 if last
    int32_t action           # action leading here from the parent
    int32_t player           # seat that chose `action`
    int32_t visits           # times this node was selected or expanded
    int32_t avail            # times its action was legal when the parent was visited
    double total             # sum of rewards of `player` through this node

cdef enum:
    SEARCH_ISMCTS = 0        # information-set MCTS (one tree over determinizations)
    SEARCH_PIMC = 1          # perfect-information Monte Carlo: flat MC per sampled world, vote
    ROLLOUT_RANDOM = 0       # playouts choose uniformly among legal actions
    ROLLOUT_GREEDY = 1       # playouts use the game's greedy agent (vt.greedy)
    REWARD_RANK = 0          # a playout scores the share of other seats whose return a seat beats
    REWARD_POINTS = 1        # a playout scores the seat's own return (normalized by the range seen)

ctypedef struct SearchWork:
    MctsNode* nodes          # pool of iterations + 1 nodes (owned by the caller); NULL = seat does not search
    char* det                # state_size bytes: the current determinization (owned by the caller)
    char* det2               # state_size bytes: PIMC's playout copy (owned by the caller)
    double* acc              # 2 * num_actions doubles: PIMC votes and values per action (owned by the caller)
    int kind                 # SEARCH_ISMCTS or SEARCH_PIMC
    int rollout              # ROLLOUT_RANDOM or ROLLOUT_GREEDY
    int reward               # REWARD_RANK or REWARD_POINTS
    double lo                # smallest playout reward seen in this search (REWARD_POINTS)
    double hi                # largest playout reward seen in this search (REWARD_POINTS)
    int worlds               # PIMC: determinizations sampled per decision
    int num_actions          # size of the game's action space
    int iterations           # playouts per decision (all worlds together for PIMC)
    int state_size           # sizeof the game's state struct
    int num_players          # seats
    int action_words         # words of the game's ActionSet
    double c                 # UCB exploration constant

cdef int ismcts_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                       Rng* rng) noexcept nogil
cdef int pimc_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                     Rng* rng) noexcept nogil
cdef int search_choose(const GameVTable* vt, const void* cfg, const void* root, SearchWork* w,
                       Rng* rng) noexcept nogil
