"""Zhao Pengyou 找朋友: the rule oracles behind `cardsim.games.zhao_pengyou` (classify, trick
winner, legal follows, follow check, strength; under shengji's rules (issue 17) the mixed format,
winner, follows, throw outcome and format matching).

docs/rules/zhao_pengyou.md §2, §5 and "Shengji's rules": each oracle validates its input in Python
(typed errors naming what is allowed) and then calls the same nogil kernels the engine plays with
(`_zhao_pengyou_rules`, `_zhao_pengyou_shengji`, `_zhao_pengyou_shengji_play`), so the oracles
answer exactly as the engine plays. Card parsing and the deal config come from `_zhao_pengyou`.
"""
from libc.string cimport memset
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count, hand_size
from cardsim.games._zhao_pengyou_rules cimport (
    ZPTrump, ZPConfig, ZPFormat, ZP_TRUMP, zp_set_trump, zp_classify, zp_trick_winner, zp_follow_ok,
    set_obligation_cost, zp_set_adjacency)
from cardsim.games._zhao_pengyou_shengji cimport zp_mixed_format, zp_mixed_blocker, zp_fmt_unit_cards
from cardsim.games._zhao_pengyou_shengji_play cimport (zp_mixed_winner, zp_mixed_follow_ok, zp_mixed_completable,
                                                       zp_fmt_matches)
from cardsim.games._zhao_pengyou cimport hand_to_list, fill_config, _fill, cards_to_hand

from cardsim.errors import ConfigError, ParseError, IllegalActionError
from cardsim.games._zhao_pengyou import (SUITS as _SUITS, card_str as _card_str, parse_card as _parse_card,
                                          _parse_cards, _short)


# ---- oracle kernels ---------------------------------------------------------------------------
MAX_FOLLOWS = 10_000


def oracle_classify(list lead, int suit, int rank):
    cdef ZPTrump t
    cdef Hand P
    cdef int k = 0, m = 0, su = 0, f
    zp_set_trump(&t, suit, rank)
    cards_to_hand(lead, &P, "a lead")
    f = zp_classify(&t, &P, &k, &m, &su)
    return f, k, m, su


def oracle_trick_winner(list plays, int suit, int rank):
    cdef ZPTrump t
    cdef Hand hs[12]
    cdef Hand h
    cdef int k = 0, m = 0, su = 0, f
    if not 1 <= len(plays) <= 12:
        raise ConfigError(f"zhao_pengyou: a trick has 1 to 12 plays, got {len(plays)}")
    ids = [_parse_cards(p, f"play {i}") for i, p in enumerate(plays)]
    allc = [k for p in ids for k in p]
    for kk in set(allc):
        if allc.count(kk) > 4:
            raise ConfigError(f"zhao_pengyou: the trick holds {allc.count(kk)} copies of {_card_str(kk)}; "
                              f"a pack of at most 4 decks has 4")
    zp_set_trump(&t, suit, rank)
    for i, p in enumerate(ids):
        _fill(&h, p)
        hs[i] = h
    f = zp_classify(&t, &hs[0], &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: the lead {_short(plays[0])} is not a valid lead")
    L = hand_size(&hs[0])
    for i in range(1, len(plays)):
        if hand_size(&hs[i]) != L:
            raise IllegalActionError(f"zhao_pengyou: play {_short(plays[i])} has {hand_size(&hs[i])} cards, "
                                     f"the lead has {L}")
    return zp_trick_winner(&t, hs, len(plays), f, k, m, su)


cdef int _enum_counts(int* pc, int* cap, const int* sc, const int* ids, int n, int i, int left, int k, int m,
                      int mins, bint oblige, list prefix, list out, int limit) except -1:
    """Depth-first over the identities ids[i..]: how many copies of each go into the follow. A
    branch is entered only if set_obligation_cost (the kernel behind the engine's factored
    actions) says a completion still exists, so every leaf is a legal follow and the work is
    proportional to the number of follows."""
    cdef int a, j, room = 0
    cdef Hand h
    if i == n:
        if left == 0:
            _fill(&h, prefix)
            for j in range(n):
                for a in range(pc[j]):
                    hand_add(&h, ids[j])
            out.append(hand_to_list(&h))
            if len(out) > limit:
                raise ConfigError(f"zhao_pengyou: more than MAX_FOLLOWS = {limit} legal follows; legal_follows "
                                  f"refuses to list them all (is_legal_follow checks one play)")
        return 0
    for j in range(i + 1, n):
        room += sc[j]
    a = sc[i] if sc[i] < left else left
    while a >= 0 and left - a <= room:
        pc[i] = a
        cap[i] = a
        if not oblige or set_obligation_cost(pc, cap, sc, n, k, m, mins) <= left - a:
            _enum_counts(pc, cap, sc, ids, n, i + 1, left - a, k, m, mins, oblige, prefix, out, limit)
        a -= 1
    pc[i] = 0
    cap[i] = sc[i]
    return 0


def _hand_and_lead(hand, lead):
    h = _parse_cards(hand, "the hand")
    ld = _parse_cards(lead, "the lead")
    for k in set(h) | set(ld):
        if h.count(k) + ld.count(k) > 4:
            raise ParseError(f"zhao_pengyou: the hand and the lead hold {h.count(k) + ld.count(k)} copies of "
                             f"{_card_str(k)}; a pack of at most 4 decks has 4")
    return h, ld


def oracle_legal_follows(hand, lead, int suit, int rank, bint partial_sets=False):
    """Every distinct legal follow (§5.4) of `hand` to the legal lead `lead`, each multiset once,
    at most MAX_FOLLOWS of them (ConfigError beyond)."""
    cdef ZPTrump t
    cdef Hand H, P
    cdef int k = 0, m = 0, su = 0, f, n = 0, L, nS = 0
    cdef int ids[54]
    cdef int sc[54]
    cdef int pc[54]
    cdef int cap[54]
    h, ld = _hand_and_lead(hand, lead)
    zp_set_trump(&t, suit, rank)
    _fill(&H, h)
    _fill(&P, ld)
    f = zp_classify(&t, &P, &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} is not a valid lead")
    L = hand_size(&P)
    if hand_size(&H) < L:
        raise IllegalActionError(f"zhao_pengyou: the hand has fewer cards ({hand_size(&H)}) than the lead ({L})")
    for kk in range(54):
        if hand_count(&H, kk) and t.eff[kk] == su:
            nS += hand_count(&H, kk)
    prefix = []
    for kk in range(54):
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
        _enum_counts(pc, cap, sc, ids, n, 0, L, k, m, 1 if partial_sets else k, k >= 2, [], out, MAX_FOLLOWS)
    else:
        _enum_counts(pc, cap, sc, ids, n, 0, L - nS, k, m, k, False, prefix, out, MAX_FOLLOWS)
    return out


def oracle_follow_ok(hand, lead, play, int suit, int rank, bint partial_sets=False):
    cdef ZPTrump t
    cdef ZPConfig c
    cdef Hand H, P, Q
    cdef int k = 0, m = 0, su = 0, f
    memset(&c, 0, sizeof(ZPConfig))
    c.partial_sets = partial_sets
    h, ld = _hand_and_lead(hand, lead)
    zp_set_trump(&t, suit, rank)
    _fill(&H, h)
    _fill(&P, ld)
    cards_to_hand(play, &Q, "the play")
    f = zp_classify(&t, &P, &k, &m, &su)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} is not a valid lead")
    return bool(zp_follow_ok(&t, &c, &H, &Q, k, m, su, hand_size(&P)))


def oracle_strength(card, int suit, int rank):
    cdef ZPTrump t
    zp_set_trump(&t, suit, rank)
    k = _parse_card(card)
    return ("T" if t.eff[k] == ZP_TRUMP else _SUITS[t.eff[k]]), t.strength[k]


# ---- shengji-compatible oracle kernels (issue 17) ----------------------------------------------
cdef int _mixed_setup(ZPConfig* c, ZPTrump* t, dict opts, dict table, int suit, int rank, lead, Hand* P,
                      ZPFormat* F) except -1:
    """Every shengji oracle's preamble: the config and trump (with the adjacency), then the lead
    parsed into P and its format F (an IllegalActionError for an invalid lead)."""
    cdef int f
    fill_config(c, opts, table)
    zp_set_trump(t, suit, rank)
    zp_set_adjacency(t, c.adj_sj)
    cards_to_hand(lead, P, "a lead")
    f = zp_mixed_format(t, c, P, F)
    if f == -1:
        raise IllegalActionError("zhao_pengyou: an empty lead")
    if f == -2:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} is no valid lead: the cards are not all of one "
                                 f"suit (trumps count as one suit)" + (" and no rainbow" if c.rainbows else ""))
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_short(lead)} has more units than a lead can hold (32)")
    return 0


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
def oracle_mixed_format(list lead, int suit, int rank, dict opts, dict table):
    """(kind, units) of a lead under throw_units='mixed': units largest first, each (count,
    distinct cards low to high); a rainbow unit (count cards of one rank, several suits) is listed
    as (count, [its lowest card]), so that count * len(cards) is its size."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef Hand P
    cdef ZPFormat F
    _mixed_setup(&c, &t, opts, table, suit, rank, lead, &P, &F)
    units = []
    for u in range(F.nu):
        if F.rainbow:
            mem = [F.mem[F.off[u]]]
        else:
            mem = [F.mem[F.off[u] + j] for j in range(F.len[u])]
        strength = max(t.strength[k] for k in mem)
        units.append((F.cnt[u] * F.len[u], strength, u, (F.cnt[u], [_card_str(k) for k in mem])))
    units.sort(key=lambda x: (-x[0], -x[1], -x[2]))
    return _fmt_kind(&c, &F), [x[3] for x in units]


def oracle_mixed_winner(list plays, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand hs[12]
    cdef Hand h
    if not 1 <= len(plays) <= 12:
        raise ConfigError(f"zhao_pengyou: a trick has 1 to 12 plays, got {len(plays)}")
    ids = [_parse_cards(p, f"play {i}") for i, p in enumerate(plays)]
    _mixed_setup(&c, &t, opts, table, suit, rank, plays[0], &h, &F)
    for i, p in enumerate(ids):
        _fill(&h, p)
        hs[i] = h
    L = hand_size(&hs[0])
    for i in range(1, len(plays)):
        if hand_size(&hs[i]) != L:
            raise IllegalActionError(f"zhao_pengyou: play {_short(plays[i])} has {hand_size(&hs[i])} cards, "
                                     f"the lead has {L}")
    return zp_mixed_winner(&t, &c, &F, hs, len(plays))


def oracle_mixed_follow_ok(hand, lead, play, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand H, P, Q
    h = _parse_cards(hand, "the hand")
    _mixed_setup(&c, &t, opts, table, suit, rank, lead, &P, &F)
    _fill(&H, h)
    cards_to_hand(play, &Q, "the play")
    return bool(zp_mixed_follow_ok(&t, &c, &F, &H, &Q))


cdef int _mixed_enum(const ZPTrump* t, const ZPConfig* c, const ZPFormat* F, const Hand* H, Hand* Q, list ids,
                     int i, int left, list out, int limit) except -1:
    """Depth-first over the hand's identities ids[i..] (copies of each in the follow); a branch
    is entered only if zp_mixed_completable (the engine's factored-follow kernel) says a legal
    completion may exist; leaves are checked with zp_mixed_follow_ok."""
    cdef int a, j, k, room = 0
    if left == 0:
        if zp_mixed_follow_ok(t, c, F, H, Q):
            out.append(hand_to_list(Q))
            if len(out) > limit:
                raise ConfigError(f"zhao_pengyou: more than MAX_FOLLOWS = {limit} legal follows; legal_follows "
                                  f"refuses to list them all (is_legal_follow checks one play)")
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
                _mixed_enum(t, c, F, H, Q, ids, i + 1, left - a, out, limit)
            for j in range(a):
                hand_remove(Q, k)
        a -= 1
    return 0


def oracle_mixed_follows(hand, lead, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand H, P, Q
    h = _parse_cards(hand, "the hand")
    _mixed_setup(&c, &t, opts, table, suit, rank, lead, &P, &F)
    _fill(&H, h)
    L = hand_size(&P)
    if hand_size(&H) < L:
        raise IllegalActionError(f"zhao_pengyou: the hand has fewer cards ({hand_size(&H)}) than the lead ({L})")
    hand_clear(&Q)
    out = []
    _mixed_enum(&t, &c, &F, &H, &Q, sorted(set(h)), 0, L, out, MAX_FOLLOWS)
    return out


def oracle_throw_outcome(lead, others, int suit, int rank, dict opts, dict table):
    """The cards actually led when `lead` is attempted against the other hands (in play order
    after the leader): the lead if the throw stands, else the forced unit."""
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand P
    cdef Hand hs[12]
    cdef Hand out
    cdef int u = 0, b
    if not isinstance(others, (list, tuple)) or not 1 <= len(others) <= 11:
        raise ConfigError(f"zhao_pengyou: other_hands must be a list of 1 to 11 hands, got {_short(others)}")
    oh = [_parse_cards(x, f"other hand {i}") for i, x in enumerate(others)]
    _mixed_setup(&c, &t, opts, table, suit, rank, lead, &P, &F)
    c.n = 1 + len(oh)
    hs[0] = P
    for i, x in enumerate(oh):
        _fill(&hs[i + 1], x)
    b = zp_mixed_blocker(&t, &c, hs, 0, &F, &u)
    if b < 0:
        return hand_to_list(&P)
    zp_fmt_unit_cards(&t, &F, &P, u, &out)
    return hand_to_list(&out)


def oracle_follow_matches(lead, play, int suit, int rank, dict opts, dict table):
    cdef ZPConfig c
    cdef ZPTrump t
    cdef ZPFormat F
    cdef Hand P, Q
    _mixed_setup(&c, &t, opts, table, suit, rank, lead, &P, &F)
    cards_to_hand(play, &Q, "the play")
    return bool(zp_fmt_matches(&t, &c, &F, &Q))
