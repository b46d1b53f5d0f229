"""Zhao Pengyou 找朋友: the compiled rule oracles behind `cardsim.games.zhao_pengyou` (classify, trick
winner, legal follows, follow check, strength; under shengji's rules (issue 17) the mixed format,
winner, follows, throw outcome and format matching).

docs/rules/zhao_pengyou.md §2, §5 and "Shengji's rules": each oracle runs the same nogil kernels
the engine plays with (`_rules`, `_formats`, `_plays`), so the oracles answer exactly as the engine
plays. They take card identities (lists of ints 0..ZP_NID-1, at most 4 copies of each, checked by
the face) and, under shengji's rules, the config struct as bytes (ZhaoPengyouSpec._config_bytes);
the face parses the card strings, checks the input and raises the typed errors. Cards come back as
identities in display order (jokers, then suits S H D C, high to low).
"""
from libc.string cimport memset, memcpy
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size
from cardsim.games.zhao_pengyou._rules cimport (ZP_NID, ZP_SJK, ZP_BJK,
    ZPTrump, ZPConfig, ZPFormat, ZP_TRUMP, zp_set_trump, zp_classify, zp_trick_winner, zp_follow_ok,
    set_obligation_cost, zp_set_adjacency)
from cardsim.games.zhao_pengyou._formats cimport zp_mixed_format, zp_mixed_blocker, zp_fmt_unit_cards
from cardsim.games.zhao_pengyou._plays cimport (zp_mixed_winner, zp_mixed_follow_ok, zp_mixed_completable,
                                                zp_fmt_matches)

cdef enum:
    MAX_PLAYS = 12           # plays in a trick (the largest table)
    OVERFLOW = -2            # an enumeration went past its limit


cdef list ids_of(const Hand* h):
    """Identities of a multiset in display order: jokers, then suits S H D C, high to low."""
    cdef int k, su, r, i
    out = []
    for k in (ZP_BJK, ZP_SJK):
        for i in range(hand_count(h, k)):
            out.append(k)
    for su in range(4):
        for r in range(12, -1, -1):
            for i in range(hand_count(h, su * 13 + r)):
                out.append(su * 13 + r)
    return out


cdef void fill(Hand* h, ids):
    hand_clear(h)
    for k in ids:
        hand_add(h, k)


cdef int config_of(ZPConfig* c, bytes cfg) except -1:
    if len(cfg) != sizeof(ZPConfig):
        raise ValueError(f"zhao_pengyou: a config struct has {sizeof(ZPConfig)} bytes, got {len(cfg)}")
    memcpy(c, <const char*>cfg, sizeof(ZPConfig))
    return 0


# ---- the seed's rules ---------------------------------------------------------------------------
def oracle_classify(list lead, int suit, int rank):
    """(format, k, m, effective suit) of a lead (format < 0: no valid lead, zp_classify's code)."""
    cdef ZPTrump t
    cdef Hand P
    cdef int k = 0, m = 0, su = 0, f
    zp_set_trump(&t, suit, rank)
    fill(&P, lead)
    f = zp_classify(&t, &P, &k, &m, &su)
    return f, k, m, su


def oracle_trick_winner(list plays, int suit, int rank):
    """Index of the winning play (plays[0] a valid lead, every play of its size, 1..12 plays)."""
    cdef ZPTrump t
    cdef Hand hs[MAX_PLAYS]
    cdef int k = 0, m = 0, su = 0, f
    zp_set_trump(&t, suit, rank)
    for i, p in enumerate(plays[:MAX_PLAYS]):
        fill(&hs[i], p)
    f = zp_classify(&t, &hs[0], &k, &m, &su)
    return zp_trick_winner(&t, hs, min(len(plays), MAX_PLAYS), f, k, m, su)


cdef int _enum_counts(int* pc, int* cap, const int* sc, const int* ids, int n, int i, int left, int k, int m,
                      int mins, bint oblige, list prefix, list out, int limit) except -1:
    """Depth-first over the identities ids[i..]: how many copies of each go into the follow. A
    branch is entered only if set_obligation_cost (the kernel behind the engine's factored
    actions) says a completion still exists, so every leaf is a legal follow and the work is
    proportional to the number of follows. OVERFLOW once more than `limit` follows are found."""
    cdef int a, j, room = 0
    cdef Hand h
    if i == n:
        if left == 0:
            fill(&h, prefix)
            for j in range(n):
                for a in range(pc[j]):
                    hand_add(&h, ids[j])
            out.append(ids_of(&h))
            if len(out) > limit:
                return OVERFLOW
        return 0
    for j in range(i + 1, n):
        room += sc[j]
    a = sc[i] if sc[i] < left else left
    while a >= 0 and left - a <= room:
        pc[i] = a
        cap[i] = a
        if not oblige or set_obligation_cost(pc, cap, sc, n, k, m, mins) <= left - a:
            if _enum_counts(pc, cap, sc, ids, n, i + 1, left - a, k, m, mins, oblige, prefix, out, limit) == OVERFLOW:
                return OVERFLOW
        a -= 1
    pc[i] = 0
    cap[i] = sc[i]
    return 0


def oracle_legal_follows(list hand, list lead, int suit, int rank, bint partial_sets, int limit):
    """Every distinct legal follow (§5.4) of `hand` to the valid lead `lead` (the hand holding at
    least as many cards), each multiset once; None if there are more than `limit`."""
    cdef ZPTrump t
    cdef Hand H, P
    cdef int k = 0, m = 0, su = 0, f, n = 0, L, nS = 0, kk, c
    cdef int ids[ZP_NID]
    cdef int sc[ZP_NID]
    cdef int pc[ZP_NID]
    cdef int cap[ZP_NID]
    zp_set_trump(&t, suit, rank)
    fill(&H, hand)
    fill(&P, lead)
    f = zp_classify(&t, &P, &k, &m, &su)
    L = hand_size(&P)
    for kk in range(ZP_NID):
        if hand_count(&H, kk) and t.eff[kk] == su:
            nS += hand_count(&H, kk)
    prefix = []
    for kk in range(ZP_NID):
        c = hand_count(&H, kk)
        if c == 0:
            continue
        if (t.eff[kk] == su) == (nS >= L):
            ids[n] = kk
            sc[n] = c
            pc[n] = 0
            cap[n] = c
            n += 1
        else:
            prefix += [kk] * c
    out = []
    if nS >= L:
        f = _enum_counts(pc, cap, sc, ids, n, 0, L, k, m, 1 if partial_sets else k, k >= 2, [], out, limit)
    else:
        f = _enum_counts(pc, cap, sc, ids, n, 0, L - nS, k, m, k, False, prefix, out, limit)
    return None if f == OVERFLOW else out


def oracle_follow_ok(list hand, list lead, list play, int suit, int rank, bint partial_sets):
    """Whole-play legality of a follow to the valid lead `lead` (§5.4)."""
    cdef ZPTrump t
    cdef ZPConfig c
    cdef Hand H, P, Q
    cdef int k = 0, m = 0, su = 0
    memset(&c, 0, sizeof(ZPConfig))
    c.partial_sets = partial_sets
    zp_set_trump(&t, suit, rank)
    fill(&H, hand)
    fill(&P, lead)
    fill(&Q, play)
    zp_classify(&t, &P, &k, &m, &su)
    return bool(zp_follow_ok(&t, &c, &H, &Q, k, m, su, hand_size(&P)))


def oracle_strength(int card, int suit, int rank):
    """(effective suit 0..3 plain S H D C or ZP_TRUMP, strength inside it) of an identity."""
    cdef ZPTrump t
    zp_set_trump(&t, suit, rank)
    return t.eff[card], t.strength[card]


# ---- shengji's rules (issue 17) -------------------------------------------------------------------
cdef int _mixed_setup(ZPConfig* c, ZPTrump* t, bytes cfg, int suit, int rank, list lead, Hand* P,
                      ZPFormat* F) except -100:
    """Every shengji oracle's preamble: the config and trump (with the adjacency), then the lead
    into P and its format F; returns zp_mixed_format's code (< 0: no valid lead)."""
    config_of(c, cfg)
    zp_set_trump(t, suit, rank)
    zp_set_adjacency(t, c.adj_sj)
    fill(P, lead)
    return zp_mixed_format(t, c, P, F)


def oracle_mixed_lead_code(list lead, int suit, int rank, bytes cfg):
    """zp_mixed_format's code of a lead under shengji's rules: >= 0 a lead; -1 empty, -2 not one
    suit (nor a rainbow), below: more units than a format holds."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef Hand P
    cdef ZPFormat F
    return _mixed_setup(&c, &t, cfg, suit, rank, lead, &P, &F)


cdef str _fmt_kind(const ZPConfig* c, const ZPFormat* F):
    if F.rainbow:
        return "rainbow"
    if c.bombs and F.nu == 1 and F.len[0] == 1 and F.cnt[0] >= 4:
        return "bomb"
    if F.nu == 1 and F.len[0] == 1:
        return "single" if F.cnt[0] == 1 else "set"
    if F.nu == 1:
        return "sequence"
    return "throw"


# The mixed oracles take each hand, lead and play as its own packed multiset (at most 4 copies of
# a card each); together they may hold more copies than 4 packs (shengji's tests use up to 6 decks).
def oracle_mixed_format(list lead, int suit, int rank, bytes cfg):
    """(kind, units) of a valid lead under throw_units='mixed': units largest first, each (count,
    distinct identities low to high); a rainbow unit (count cards of one rank, several suits) is
    listed as (count, [its lowest card]), so that count * len(cards) is its size."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef Hand P
    cdef ZPFormat F
    _mixed_setup(&c, &t, cfg, suit, rank, lead, &P, &F)
    units = []
    for u in range(F.nu):
        if F.rainbow:
            mem = [F.mem[F.off[u]]]
        else:
            mem = [F.mem[F.off[u] + j] for j in range(F.len[u])]
        strength = max(t.strength[k] for k in mem)
        units.append((F.cnt[u] * F.len[u], strength, u, (F.cnt[u], mem)))
    units.sort(key=lambda x: (-x[0], -x[1], -x[2]))
    return _fmt_kind(&c, &F), [x[3] for x in units]


def oracle_mixed_winner(list plays, int suit, int rank, bytes cfg):
    """Index of the winning play (plays[0] a valid lead, every play of its size, 1..12 plays)."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand hs[MAX_PLAYS]
    cdef Hand h
    _mixed_setup(&c, &t, cfg, suit, rank, plays[0], &h, &F)
    for i, p in enumerate(plays[:MAX_PLAYS]):
        fill(&hs[i], p)
    return zp_mixed_winner(&t, &c, &F, hs, min(len(plays), MAX_PLAYS))


def oracle_mixed_follow_ok(list hand, list lead, list play, int suit, int rank, bytes cfg):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand H, P, Q
    _mixed_setup(&c, &t, cfg, suit, rank, lead, &P, &F)
    fill(&H, hand)
    fill(&Q, play)
    return bool(zp_mixed_follow_ok(&t, &c, &F, &H, &Q))


cdef int _mixed_enum(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* H, Hand* Q, list ids,
                     int i, int left, list out, int limit) except -1:
    """Depth-first over the hand's identities ids[i..] (copies of each in the follow); a branch
    is entered only if zp_mixed_completable (the engine's factored-follow kernel) says a legal
    completion may exist; leaves are checked with zp_mixed_follow_ok. OVERFLOW past `limit`."""
    cdef int a, j, k, room = 0, r = 0
    if left == 0:
        if zp_mixed_follow_ok(t, c, F, H, Q):
            out.append(ids_of(Q))
            if len(out) > limit:
                return OVERFLOW
        return 0
    if i == len(ids):
        return 0
    for j in range(i + 1, len(ids)):
        room += hand_count(H, ids[j])
    k = ids[i]
    a = hand_count(H, k)
    if a > left:
        a = left
    while a >= 0:
        if left - a <= room:
            for j in range(a):
                hand_add(Q, k)
            if a == 0 or zp_mixed_completable(t, c, F, H, Q):
                r = _mixed_enum(t, c, F, H, Q, ids, i + 1, left - a, out, limit)
            for j in range(a):
                hand_remove(Q, k)
            if r == OVERFLOW:
                return OVERFLOW
        a -= 1
    return 0


def oracle_mixed_follows(list hand, list lead, int suit, int rank, bytes cfg, int limit):
    """Every distinct legal follow of `hand` (at least as many cards as the valid lead) under
    shengji's is_legal_play; None if there are more than `limit`."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand H, P, Q
    _mixed_setup(&c, &t, cfg, suit, rank, lead, &P, &F)
    fill(&H, hand)
    hand_clear(&Q)
    out = []
    if _mixed_enum(&t, &c, &F, &H, &Q, sorted(set(hand)), 0, hand_size(&P), out, limit) == OVERFLOW:
        return None
    return out


def oracle_throw_outcome(list lead, list others, int suit, int rank, bytes cfg):
    """The identities actually led when the valid lead `lead` is attempted against the other
    hands (1..11, in play order after the leader): the lead if the throw stands, else the forced
    unit."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand P
    cdef Hand hs[MAX_PLAYS]
    cdef Hand out
    cdef int u = 0, b
    _mixed_setup(&c, &t, cfg, suit, rank, lead, &P, &F)
    others = others[:MAX_PLAYS - 1]
    c.n = 1 + len(others)
    hs[0] = P
    for i, x in enumerate(others):
        fill(&hs[i + 1], x)
    b = zp_mixed_blocker(&t, &c, hs, 0, &F, &u)
    if b < 0:
        return ids_of(&P)
    zp_fmt_unit_cards(&t, &F, &P, u, &out)
    return ids_of(&out)


def oracle_follow_matches(list lead, list play, int suit, int rank, bytes cfg):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand P, Q
    _mixed_setup(&c, &t, cfg, suit, rank, lead, &P, &F)
    fill(&Q, play)
    return bool(zp_fmt_matches(&t, &c, &F, &Q))
