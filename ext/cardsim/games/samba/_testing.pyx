"""Samba test hooks (not used by the engine): checks the tests and the fuzzers run on a state's
internals."""
from libc.string cimport memset, memcpy, memcmp
from libc.stdlib cimport malloc, free
from cardsim.core._types cimport int8_t
from cardsim.core._engine cimport GameSpec
from cardsim.games.samba._rules cimport SBConfig, Meld, SB_KINDS, SB_MAXMELDS, MT_NONE, MT_SEQ, sb_meld_of, sb_counts
from cardsim.core._actions cimport ActionSet
from cardsim.games.samba._state cimport SBState, MeldIndex, reindex, side_of, PH_MELD, SB_NUM_ACTIONS
from cardsim.games.samba._legal cimport meld_legal_generic, sb_legal
from cardsim.games.samba._opening cimport groups_fit
from cardsim.games.samba._units cimport sb_best_value

from cardsim.errors import ConfigError, short


def records_consistent(GameSpec spec, s):
    """True when what the state keeps beside its melds equals what the melds say: each meld's
    record (type, rank or suit, cards, naturals, wilds; a SEQUENCE's ends) equals the
    classification of its cards (sb_meld_of), and each side's slots in use and meld index
    (canastas placed and pending, a free slot, GROUPs by rank, the SEQUENCEs' end kinds) equal a
    full rebuild (reindex); the side kept for the seat to act (tside) is its side;
    and no packed hand of the state (hands, known cards, the stage, the cards aside, red threes,
    melds) holds an identity four times (layer 3 empty: sb_size counts three layers).
    apply keeps both up to date incrementally; this is the check that it does (tests, fuzzing). `spec`: a Samba
    game's spec; `s`: one of its states."""
    if spec is None or spec.name != "samba":
        raise ConfigError(f"samba: records_consistent needs a Samba spec, got {short(spec)}")
    cdef SBState* st = <SBState*>spec._data(s)
    cdef const SBConfig* c = <const SBConfig*>spec.cfg
    cdef SBState* cp = <SBState*>malloc(sizeof(SBState))
    cdef int8_t cnt[SB_KINDS]
    cdef Meld m
    cdef const Meld* r
    cdef int side, i
    cdef bint ok = True
    if cp == NULL:
        raise MemoryError()
    memcpy(cp, st, sizeof(SBState))
    for i in range(6):
        if st.hand[i].layer[3] or st.known[i].layer[3]:
            ok = False
    if st.tside != side_of(c, st.turn):
        ok = False
    for i in range(5):
        if st.red3[i].layer[3]:
            ok = False
    if st.stage.cards.layer[3] or st.aside.layer[3]:
        ok = False
    for side in range(c.nsides):
        for i in range(SB_MAXMELDS):
            if st.melds[side][i].cards.layer[3]:
                ok = False
    for side in range(c.nsides):
        cp.live[side] = 0
        for i in range(SB_MAXMELDS):
            r = &st.melds[side][i]
            if r.type == MT_NONE:
                continue
            cp.live[side] |= 1 << i
            sb_counts(&r.cards, cnt)
            memset(&m, 0, sizeof(Meld))
            if (sb_meld_of(cnt, &m) != r.type or m.key != r.key or m.n != r.n or m.nat != r.nat
                    or m.wild != r.wild or (r.type == MT_SEQ and (m.lo != r.lo or m.hi != r.hi))):
                ok = False
        reindex(cp, c, side, -1)
        if cp.live[side] != st.live[side] or memcmp(&cp.mi[side], &st.mi[side], sizeof(MeldIndex)) != 0:
            ok = False
    free(cp)
    return ok


def legal_generic(GameSpec spec, s):
    """The legal actions of state s (ascending, with the count the generator returned) computed
    without the meld phase's dedicated generators (_legal.meld_legal_generic): the reference
    tests/games/samba/test_legal_paths.py compares state.legal_actions() with."""
    if spec is None or spec.name != "samba":
        raise ConfigError(f"samba: legal_generic needs a Samba spec, got {short(spec)}")
    cdef const SBState* st = <const SBState*>spec._data(s)
    cdef const SBConfig* c = <const SBConfig*>spec.cfg
    cdef ActionSet out
    cdef int n, a
    if st.phase == PH_MELD:
        n = meld_legal_generic(st, c, &out)
    else:
        n = sb_legal(st, c, &out)
    return ([a for a in range(SB_NUM_ACTIONS) if (out.w[a >> 6] >> (a & 63)) & 1], n)


def best_value_shortcut(counts, int budget, int target, bint dutch_groups=False):
    """(_opening.groups_fit(R, budget, target), _units.sb_best_value(R, budget, c, NULL, target))
    for the count vector R = counts (53 kinds, 0..6 copies each; c: the standard rules, or Dutch
    groups): the shortcut the initial-meld search takes before the constructive builder, which
    must say yes only where the builder reaches target (tests/games/samba/test_opening.py)."""
    cdef int8_t R[SB_KINDS]
    cdef SBConfig c
    cdef int i
    if len(counts) != SB_KINDS or any(not (0 <= int(x) <= 6) for x in counts):
        raise ConfigError(f"samba: best_value_shortcut needs {SB_KINDS} counts of 0..6, got {short(counts)}")
    memset(&c, 0, sizeof(SBConfig))
    c.dutch_groups = dutch_groups
    for i in range(SB_KINDS):
        R[i] = <int8_t>int(counts[i])
    return (bool(groups_fit(R, budget, target)), sb_best_value(R, budget, &c, NULL, target))
