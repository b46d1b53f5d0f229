"""Hakka Six Tigers (Luk Fu): the pure rules, on card masks and a rules config only.

Rules as implemented: docs/rules/six_tigers.md. This module holds the pattern rules (§2.3-§2.4),
the dynamic old cards (§2.5), the single-card lead restriction (§5.2), beating (§5.3), the trick
winner (§5.1), the dreamer's matches and the payments (§6). The state machine
(`_state`) and the public oracles (`cardsim.games.six_tigers`, through the `oracle_*` entry
points below) both run these kernels.

Card identity: suit * 9 + (number - 1) with suits SHI, GUAN, SUO, XIAN = 0..3 (strongest first),
CLOUD = 36. Numbers of one suit are consecutive bits, so a run is a block of set bits.

Bound on the enumerations (ST_MAX_PLAYS = 208): a 12-card hand has at most 12 singles, at most
28 runs in one fully held suit (sum over lengths 3..9 of 10 - L) plus one run in the three
cards left, and at most 3 numbers held four times (5 sets each, 15 with CLOUD as a 1): well
under 160 plays. Even a mask of all 37 cards has 37 singles, 4 x 28 runs, 8 x 5 sets and 15
sets of ones (204 plays), so no mask can overflow a buffer; the Python face still
refuses hands of more than 12 cards (no real hand is larger).
"""
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, bit_high, card_bit

cdef uint64_t RED_CARDS = ((<uint64_t>1 << 8) | (<uint64_t>1 << 17) | (<uint64_t>1 << 26) | (<uint64_t>1 << 35)
                           | (<uint64_t>1 << ST_SHI1) | (<uint64_t>1 << ST_XIAN1) | (<uint64_t>1 << 7)
                           | (<uint64_t>1 << ST_CLOUD))


cdef inline uint64_t number_mask(int n, bint with_cloud) noexcept nogil:
    """The four suit cards of number n (1..9), plus CLOUD for n = 1 when with_cloud."""
    cdef uint64_t m = ((<uint64_t>1) | (<uint64_t>1 << 9) | (<uint64_t>1 << 18) | (<uint64_t>1 << 27)) << (n - 1)
    if n == 1 and with_cloud:
        m |= card_bit(ST_CLOUD)
    return m

cdef inline int set_rank(int n, const STRules* r) noexcept nogil:
    """Rank of a set of number n (§2.4). Default (DECISION X4): 9 > 1 > 8 > ... > 2, i.e. 9 -> 10,
    1 -> 9, others their number; set_natural: the number itself (9 > 8 > ... > 1)."""
    if r.set_natural:
        return n
    if n == 9:
        return 10
    if n == 1:
        return 9
    return n


cdef int st_pattern(uint64_t m, const STRules* r, STPlay* out) noexcept nogil:
    """Classify a set of cards (§2.2-§2.4). Returns PT_SINGLE, PT_RUN, PT_SET or PT_NONE and
    fills out (type, size, key).

    Validity: SINGLE any one card; RUN >= 3 cards of one suit with consecutive numbers (no
    wrap, CLOUD never); SET 3 or 4 cards of one number (CLOUD as a 1 only with cloud_in_sets,
    DECISION X3). Key: single = the card; run = (3 - suit) * 16 + top number (suit first, then
    number); set = its rank in the set order (X4 or natural)."""
    cdef int n = cs_popcount(m), lo, s, num
    out.type = PT_NONE
    out.size = n
    out.key = 0
    if n == 0:
        return PT_NONE
    lo = bit_low(m)
    if n == 1:
        out.type = PT_SINGLE
        out.key = lo
        return PT_SINGLE
    if n < 3:
        return PT_NONE
    num = st_number(lo)
    if n <= 4 and (m & ~number_mask(num, r.cloud_in_sets)) == 0:
        out.type = PT_SET
        out.key = set_rank(num, r)
        return PT_SET
    if m & card_bit(ST_CLOUD):
        return PT_NONE
    s = st_suit(lo)
    if (m & ~st_suit_mask(s)) == 0 and (m >> lo) == ((<uint64_t>1 << n) - 1):
        out.type = PT_RUN
        out.key = (3 - s) * 16 + st_number(bit_high(m))
        return PT_RUN
    return PT_NONE


cdef bint st_beats(uint64_t cand, const STPlay* high, const STRules* r) noexcept nogil:
    """Whether cand beats the current high play (§5.3).

    Validity: the same type and the same number of cards. Singles: same suit, higher number;
    nothing beats a led SHI1, XIAN1 or CLOUD (a fixed old card is the current high only when it
    was led, since it can never beat); CLOUD never beats. Runs: higher (suit, top number).
    Sets: higher in the set order."""
    cdef STPlay p
    cdef int c, h
    if st_pattern(cand, r, &p) == PT_NONE or p.type != high.type or p.size != high.size:
        return False
    if p.type == PT_SINGLE:
        h = high.key
        c = p.key
        if card_bit(h) & st_fixed_old() or c == ST_CLOUD:
            return False
        return st_suit(c) == st_suit(h) and c > h
    return p.key > high.key


cdef int enum_runs(uint64_t hand, int exact, int min_key, uint64_t* out, int n) noexcept nogil:
    """Append every run in hand (length exactly `exact`, or >= 3 when exact = 0) whose key is
    above min_key; returns the new count."""
    cdef int s, a, L, lmin, lmax
    cdef uint64_t bits, blk
    for s in range(4):
        bits = (hand >> (9 * s)) & 0x1FF
        if (bits & (bits >> 1) & (bits >> 2)) == 0:     # no three in a row in this suit
            continue
        for a in range(7):
            if ((bits >> a) & 7) != 7:                   # no run starts at a (the loop below
                continue                                 # would stop at once)
            lmin = 3 if exact == 0 else exact
            lmax = 9 - a if exact == 0 else exact
            for L in range(lmin, lmax + 1):
                if a + L > 9:
                    break
                blk = ((<uint64_t>1 << L) - 1) << a
                if (bits & blk) != blk:
                    break
                if (3 - s) * 16 + a + L > min_key:
                    out[n] = blk << (9 * s)
                    n += 1
    return n

cdef int enum_sets(uint64_t hand, int exact, int min_key, const STRules* r, uint64_t* out, int n) noexcept nogil:
    """Append every set in hand (size exactly `exact`, or 3..4 when exact = 0) whose rank is
    above min_key; returns the new count."""
    cdef int num, k
    cdef uint64_t grp, sub
    for num in range(1, 10):
        if set_rank(num, r) <= min_key:
            continue
        grp = hand & number_mask(num, r.cloud_in_sets)
        if cs_popcount(grp) < 3:
            continue
        sub = grp
        while sub:
            k = cs_popcount(sub)
            if (exact == 0 and 3 <= k <= 4) or k == exact:
                out[n] = sub
                n += 1
            sub = (sub - 1) & grp
    return n


cdef int st_enum_leads(uint64_t hand, uint64_t old, bint special, const STRules* r,
                       uint64_t* out) noexcept nogil:
    """Every legal lead (§5.1-§5.2) as a card mask: the allowed singles, every run and every
    set in hand (runs and sets are never restricted). out needs ST_MAX_PLAYS entries."""
    cdef int n = 0
    cdef uint64_t s = st_single_leads(hand, old, special)
    while s:
        out[n] = s & (~s + 1)
        s &= s - 1
        n += 1
    n = enum_runs(hand, 0, -1, out, n)
    return enum_sets(hand, 0, -1, r, out, n)


cdef int st_enum_leads_with(uint64_t hand, uint64_t old, bint special, const STRules* r, uint64_t part,
                            uint64_t* out) noexcept nogil:
    """The legal leads (st_enum_leads) that may contain the non-empty staged cards `part`: every
    one of them that holds all of part is in the list, which may hold other legal leads too
    (callers look for supersets of part and for part itself). Only part's suit is searched for
    runs and only its number for sets, so a staged lead does not enumerate the whole hand."""
    cdef int n = 0, lo = bit_low(part), num
    cdef uint64_t m
    if (part & (part - 1)) == 0 and (part & st_single_leads(hand, old, special)):
        out[0] = part
        n = 1
    if lo != ST_CLOUD:
        m = st_suit_mask(st_suit(lo))
        if (part & ~m) == 0:
            n = enum_runs(hand & m, 0, -1, out, n)
    num = st_number(lo)
    m = number_mask(num, r.cloud_in_sets)
    if (part & ~m) == 0:
        n = enum_sets(hand & m, 0, -1, r, out, n)
    return n


cdef int st_enum_beats(uint64_t hand, const STPlay* high, const STRules* r, uint64_t* out) noexcept nogil:
    """Every play from hand that beats the current high play (§5.3), as card masks."""
    cdef int n = 0
    cdef uint64_t m
    if high.type == PT_SINGLE:
        m = st_single_beats(hand, high.key)
        while m:
            out[n] = m & (~m + 1)
            m &= m - 1
            n += 1
        return n
    if high.type == PT_RUN:
        return enum_runs(hand, high.size, high.key, out, 0)
    if high.type == PT_SET:
        return enum_sets(hand, high.size, high.key, r, out, 0)
    return 0


cdef int st_enum_beats_with(uint64_t hand, const STPlay* high, const STRules* r, uint64_t part,
                            uint64_t* out) noexcept nogil:
    """The beats (st_enum_beats) that may contain the staged cards `part`: with part non-empty,
    only part's suit is searched for runs and only its number for sets; every beat holding all
    of part is in the list (which may hold other beats too)."""
    cdef int lo
    if part:
        lo = bit_low(part)
        if high.type == PT_RUN:
            hand &= st_suit_mask(st_suit(lo)) if lo != ST_CLOUD else 0
        elif high.type == PT_SET:
            hand &= number_mask(st_number(lo), r.cloud_in_sets)
    return st_enum_beats(hand, high, r, out)


cdef bint st_has_beat(uint64_t hand, const STPlay* high, const STRules* r) noexcept nogil:
    """Whether hand holds at least one play that beats the current high (X7 obligation)."""
    cdef int su, a, L = high.size, num, k
    cdef uint64_t bits, blk
    if high.type == PT_SINGLE:
        return st_single_beats(hand, high.key) != 0
    if high.type == PT_RUN:                    # enum_runs(hand, L, key) > 0, stopping at the first
        if L < 1 or L > 9:
            return False
        blk = ((<uint64_t>1) << L) - 1
        for su in range(4):
            bits = (hand >> (9 * su)) & 0x1FF
            for a in range(7):
                if a + L > 9:
                    break
                if ((bits >> a) & blk) == blk and (3 - su) * 16 + a + L > high.key:
                    return True
        return False
    if high.type == PT_SET:                    # enum_sets(hand, L, key) > 0: a number whose group
        for num in range(1, 10):               # (of at least 3) holds L cards
            if set_rank(num, r) > high.key:
                k = cs_popcount(hand & number_mask(num, r.cloud_in_sets))
                if k >= 3 and k >= L:
                    return True
        return False
    return False


cdef int st_trick_winner(const uint64_t* plays, int n, const STRules* r) noexcept nogil:
    """Index of the winning play of a trick (§5.1): plays[0] is the lead (a legal pattern), each
    later play that beats the current high becomes the current high, any other play is a
    discard. Returns -1 if the lead is no pattern."""
    cdef STPlay high
    cdef int i, w = 0
    if st_pattern(plays[0], r, &high) == PT_NONE:
        return -1
    for i in range(1, n):
        if st_beats(plays[i], &high, r):
            st_pattern(plays[i], r, &high)
            w = i
    return w


cdef int st_dream_matches(uint64_t win_cards, int dream_card) noexcept nogil:
    """Dreamer's extra tricks (§6.2, DECISION X13): the winning cards with the same number as
    the dreamer's card, suit irrelevant, CLOUD counting as a 1 on either side."""
    return cs_popcount(win_cards & number_mask(st_number(dream_card), True) & ~card_bit(dream_card))


cdef int st_sung_points(int t, uint64_t win_cards, bint five_tigers) noexcept nogil:
    """Sung's scoring (§7 option scoring = "sung"). Points: (winning cards - 5) + the red cards
    among the winning cards (the four 9s, SHI1, XIAN1, SHI8, CLOUD); 12 cards with all 8 reds
    score 30; Five Tigers (Ung Fu Ha San) scores 6. t < 6 scores 0."""
    cdef int reds
    if five_tigers:
        return 6
    if t < 6:
        return 0
    reds = cs_popcount(win_cards & RED_CARDS)
    if t == 12 and reds == 8:
        return 30
    return t - 5 + reds


cdef void st_payments(int nplayers, const int8_t* active, int winner, int special, int dreamer,
                      int pts, int dream_pts, int32_t* out) noexcept nogil:
    """Payments of a round (§6.2) into out[0..nplayers-1] (net points per seat; zero-sum).

    Points: each active player other than the winner pays `pts` to the winner and, when
    dream_pts > 0, `dream_pts` to the dreamer (the winner never pays the dreamer). Liability
    (DECISION X14): a special player who is not the winner pays the shares of both losing active
    players (winner's and dreamer's), the other loser pays nothing. No winner (winner < 0): no
    payments."""
    cdef int q, payer
    for q in range(nplayers):
        out[q] = 0
    if winner < 0:
        return
    for q in range(nplayers):
        if not active[q] or q == winner:
            continue
        payer = special if (special >= 0 and special != winner) else q
        out[payer] -= pts
        out[winner] += pts
        if dreamer >= 0 and dream_pts > 0:
            out[payer] -= dream_pts
            out[dreamer] += dream_pts


# ---- compiled oracle entry points (masks in, ints / masks out) --------------------------------
# The Python face (cardsim.games.six_tigers) checks what the caller gives and raises the typed
# errors; these entry points only keep the kernels inside their buffers (ValueError on a mask
# with bits above the 37 cards, a trick of more than 4 plays, a seat or player count outside
# the 4 slots of the payment arrays). The rules config is (set_natural, cloud_in_sets).
cdef int _mask_ok(uint64_t m) except -1:
    if m >> ST_DECK:
        raise ValueError("six_tigers: a card mask holds bits 0..36 only")
    return 0

cdef void _rules_of(STRules* r, bint set_natural, bint cloud_in_sets) noexcept:
    r.set_natural = set_natural
    r.cloud_in_sets = cloud_in_sets


def oracle_pattern(uint64_t m, bint set_natural=False, bint cloud_in_sets=False):
    """(type, size, key) of a card mask; type 0 = no pattern (PT_*)."""
    cdef STRules r
    cdef STPlay p
    _mask_ok(m)
    _rules_of(&r, set_natural, cloud_in_sets)
    st_pattern(m, &r, &p)
    return (p.type, p.size, p.key)


def oracle_trick_winner(list plays not None, bint set_natural=False, bint cloud_in_sets=False):
    """Index of the winning play: plays = 1..4 card masks, the lead first."""
    cdef STRules r
    cdef uint64_t ps[4]
    cdef int i
    if not 1 <= len(plays) <= 4:
        raise ValueError("six_tigers: a trick has 1 to 4 plays")
    for i in range(len(plays)):
        ps[i] = plays[i]
        _mask_ok(ps[i])
    _rules_of(&r, set_natural, cloud_in_sets)
    return st_trick_winner(ps, len(plays), &r)


def oracle_old_mask(uint64_t played):
    """The old cards once `played` have been played (§2.5)."""
    _mask_ok(played)
    return st_old_mask(played)


def oracle_leads(uint64_t hand, uint64_t played, bint special, bint set_natural=False,
                 bint cloud_in_sets=False):
    """Every legal lead of a hand (masks; any mask fits the buffer, see ST_MAX_PLAYS)."""
    cdef STRules r
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef int n, i
    _mask_ok(hand)
    _mask_ok(played)
    _rules_of(&r, set_natural, cloud_in_sets)
    n = st_enum_leads(hand, st_old_mask(played), special, &r, buf)
    return [buf[i] for i in range(n)]


def oracle_beats(uint64_t hand, uint64_t high, bint set_natural=False, bint cloud_in_sets=False):
    """Every play of a hand that beats the play `high` (masks; any mask fits the buffer)."""
    cdef STRules r
    cdef STPlay hp
    cdef uint64_t buf[ST_MAX_PLAYS]
    cdef int n, i
    _mask_ok(hand)
    _mask_ok(high)
    _rules_of(&r, set_natural, cloud_in_sets)
    if st_pattern(high, &r, &hp) == PT_NONE:
        return []
    n = st_enum_beats(hand, &hp, &r, buf)
    return [buf[i] for i in range(n)]


def oracle_dream_matches(uint64_t win_cards, int dream_card):
    """The dreamer's matches among the winning cards (§6.2, X13)."""
    _mask_ok(win_cards)
    if not 0 <= dream_card < ST_DECK:
        raise ValueError("six_tigers: a card id is 0..36")
    return st_dream_matches(win_cards, dream_card)


def oracle_sung_points(int t, uint64_t win_cards, bint five_tigers):
    """Sung's score of a win with t tricks and these winning cards."""
    _mask_ok(win_cards)
    return st_sung_points(t, win_cards, five_tigers)


def oracle_payments(int nplayers, list active not None, int winner, int special, int dreamer,
                    int pts, int dream_pts):
    """Net payments of a round (see st_payments): nplayers 3 or 4, active = nplayers flags,
    winner / special / dreamer a seat or -1."""
    cdef int8_t act[4]
    cdef int32_t out[4]
    cdef int i
    if not 3 <= nplayers <= 4 or len(active) != nplayers:
        raise ValueError("six_tigers: 3 or 4 players, one active flag each")
    for i in (winner, special, dreamer):
        if not -1 <= i < nplayers:
            raise ValueError("six_tigers: a seat is -1 or 0..nplayers-1")
    for i in range(nplayers):
        act[i] = 1 if active[i] else 0
    st_payments(nplayers, act, winner, special, dreamer, pts, dream_pts, out)
    return [out[i] for i in range(nplayers)]
