# The batch kernel of core/_engine.pyx: play_one, which deals one deal and plays it to the end
# with C agents, and the generic copy of the hot loop it runs (core/_play_loop.pxi, through the
# vtable) for games without their own. Included by _engine.pyx (the same module: play_one is
# declared in _engine.pxd and used by run_batch, kernel_actions and the vector env), kept in its
# own file as its own concern: no Python, no allocation, nothing of the Python State wrapper.

include "cardsim/core/_play_loop_generic.pxi"   # the generic copy of the hot loop (play_loop)


cdef int play_one(const GameVTable* vt, const void* cfg, void* st, int num_players, int nw,
                  uint64_t seed, uint64_t deal, const int* agents, long max_steps,
                  DealRecord* rec, int32_t* actions, SearchWork* sw) noexcept nogil:
    """Deal (seed, deal) into st and play it to the end with C agents.

    `agents[p]` is the agent code of seat p; each seat draws from its own stream (seed, deal,
    STREAM_SEAT0 + p), so a seat's choices never depend on the other seats' agents' consumption.
    Fills *rec: actions, decisions (turns with more than one legal action), the sum of legal
    counts over decisions, the first seat to act and, when rec.track_leads is set, the number of
    lead changes of the running standing (game_standing; see run_batch). `actions` (may be NULL) receives the actions taken. `sw` is NULL
    or an array of MAX_PLAYERS search workspaces, sw[p] used by a seat p whose agent code is
    AGENT_ISMCTS (ISMCTS or PIMC, as sw[p].kind says). Returns 0, or -1 if the deal exceeded
    max_steps actions."""
    cdef Rng r
    cdef Rng ar[MAX_PLAYERS]
    cdef ActionSet las
    cdef int p, n, a
    cdef long k = 0, dec = 0, ls = 0
    cdef long cnt[2]
    cdef double cur[MAX_PLAYERS]
    cdef LeadCount lc
    cdef int leads = rec.track_leads
    lead_start(&lc)
    cdef uint64_t key = rng_deal_key(seed, deal)    # every stream of the deal starts from it
    rng_seed_keyed(&r, key, STREAM_DEAL)
    vt.init(st, cfg, &r)
    rec.first_player = vt.current_player(st, cfg)
    rec.lead_changes = 0
    rec.lead_from = 0
    for p in range(num_players):
        rng_seed_keyed(&ar[p], key, STREAM_SEAT0 + p)
    if leads or actions != NULL:
        while True:
            n = vt.legal(st, cfg, &las)
            if n == 0:
                break
            if n == 1:
                a = as_first(&las, nw)          # a forced move: whose turn it is does not matter
            else:
                p = vt.current_player(st, cfg)
                dec += 1
                ls += n
                a = seat_choose(vt, cfg, st, &las, n, nw, agents[p], &ar[p], sw, p)
            vt.apply(st, cfg, a)
            if actions != NULL:
                actions[k] = a
            if leads:
                game_standing(vt, st, cfg, cur)
                lead_see(&lc, cur, num_players)
            k += 1
            if k >= max_steps:
                rec.steps = k
                return -1
    else:
        # the hot path: the game's own copy of the loop (its functions inlined), else the generic one
        cnt[0] = 0
        cnt[1] = 0
        if vt.play != NULL:
            k = vt.play(vt, cfg, st, nw, agents, ar, sw, max_steps, cnt)
        else:
            k = play_loop(vt, cfg, st, nw, agents, ar, sw, max_steps, cnt)
        if k < 0:
            rec.steps = max_steps
            return -1
        dec = cnt[0]
        ls = cnt[1]
    rec.steps = k
    rec.decisions = dec
    rec.legal_sum = ls
    rec.lead_changes = lc.changes
    rec.lead_from = lc.since
    return 0
