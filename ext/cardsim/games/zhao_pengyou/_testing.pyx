"""Zhao Pengyou test hooks (not used by the engine): the follow's set-obligation kernels on
count profiles, so that a test can compare the engine's factored answer with the plain one."""
from cardsim.core._types cimport uint64_t
from cardsim.core._hand cimport Hand, hand_clear, hand_add
from cardsim.games.zhao_pengyou._rules cimport ZP_NID, set_obligation_cost, zp_follow_set_adds, zp_pair_cost

from cardsim.errors import ConfigError


cdef void _fill(Hand* h, list counts):
    cdef int i, j
    hand_clear(h)
    for i in range(len(counts)):
        for j in range(<int>counts[i]):
            hand_add(h, i)


cdef int _check_counts(str name, list rest, list play) except -1:
    """13 whole counts each, >= 0, at most 4 copies per identity in rest and play together."""
    if len(rest) != 13 or len(play) != 13:
        raise ConfigError(f"{name}: rest and play are 13 counts each")
    for x in rest + play:
        if type(x) is not int:
            raise ConfigError(f"{name}: counts are whole numbers (int), got {x!r}")
    for i in range(13):
        if not (0 <= rest[i] and 0 <= play[i] and rest[i] + play[i] <= 4):
            raise ConfigError(f"{name}: counts are >= 0 and at most 4 copies per identity")
    return 0


cdef int _counts(list rest, list play, int* pc, int* sc):
    """The identities held (rest + play > 0), in order: copies in the follow (pc) and in all (sc)."""
    cdef int i, n = 0
    for i in range(13):
        if rest[i] or play[i]:
            pc[n] = play[i]
            sc[n] = play[i] + rest[i]
            n += 1
    return n


def follow_set_adds(list rest, list play, int k, int m, int min_size, int left):
    """(engine, plain): the identities (bit i: identity i of one suit, 0..12) whose next copy
    keeps a partial follow completable under the set obligation. `rest`: copies still in hand
    per identity, `play`: copies already in the follow (13 counts each, at most 4 copies in
    all per identity); a lead of m sets of k (2 <= k <= 4, 1 <= m <= 13), min_size 1 (the
    partial-set variant) or k, left >= 1 cards still to add (the hand holds that many). engine:
    zp_follow_set_adds; plain: every candidate evaluated with set_obligation_cost."""
    cdef Hand R, P
    cdef int pc[ZP_NID]
    cdef int sc[ZP_NID]
    cdef int i, j, n, cost, held
    cdef uint64_t plain = 0
    _check_counts("follow_set_adds", rest, play)
    held = sum(rest)
    if not (2 <= k <= 4 and 1 <= m <= 13 and min_size in (1, k) and 1 <= left <= held):
        raise ConfigError("follow_set_adds: 2 <= k <= 4, 1 <= m <= 13, min_size 1 or k, 1 <= left <= cards held")
    _fill(&R, rest)
    _fill(&P, play)
    engine = zp_follow_set_adds(&R, &P, 0x1FFF, k, m, min_size, left)
    n = _counts(rest, play, pc, sc)
    cost = set_obligation_cost(pc, sc, sc, n, k, m, min_size)
    j = 0
    for i in range(13):
        if rest[i]:
            pc[j] += 1
            if set_obligation_cost(pc, sc, sc, n, k, m, min_size) < left:
                plain |= (<uint64_t>1) << i
            pc[j] -= 1
        if rest[i] or play[i]:
            j += 1
    return int(engine), int(plain), cost


def pair_cost(list rest, list play, int m, int min_size):
    """(engine, plain): the set obligation's cost of a follow to m pairs (k = 2): zp_pair_cost on
    the packed layers, set_obligation_cost on the counts. rest, play: 13 counts each as in
    follow_set_adds; 1 <= m <= 13; min_size 1 or 2."""
    cdef Hand R, P
    cdef int pc[ZP_NID]
    cdef int sc[ZP_NID]
    cdef int n
    _check_counts("pair_cost", rest, play)
    if not (1 <= m <= 13 and min_size in (1, 2)):
        raise ConfigError("pair_cost: 1 <= m <= 13, min_size 1 or 2")
    _fill(&R, rest)
    _fill(&P, play)
    n = _counts(rest, play, pc, sc)
    return zp_pair_cost(&R, &P, 0x1FFF, m, min_size), set_obligation_cost(pc, sc, sc, n, 2, m, min_size)
