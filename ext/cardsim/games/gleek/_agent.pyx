"""Gleek, the greedy agent (vt.greedy): passes in the auction (eldest's 12 is forced), discards the
cards it values least, vies on its ruff value, declares every set, and plays master cards, long
suits and cheapest winners (the face's docstring has the full description)."""
from cardsim.core._types cimport uint32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, bit_low, card_bit
from cardsim.core._rng cimport Rng
from cardsim.core._actions cimport ActionSet, as_has, as_first
from cardsim.core._suited cimport lowest_by_rank, master_card, long_suit_lead, plain_beaters
from cardsim.games.gleek._rules cimport GL_RANK_ACE, rank_cards, suit_mask, card_suit, card_rank, winning_card, ruff_value
from cardsim.games.gleek._state cimport *


cdef inline int lowest_card(uint64_t m, int trump) noexcept nogil:
    """Lowest card of m by rank, non-trumps before trumps."""
    return lowest_by_rank(m, 11, trump)

cdef inline uint32_t set_ranks(uint64_t hand) noexcept nogil:
    """Bit r set for each rank r >= 7 (J Q K A) of which the hand holds 3 or 4 cards."""
    cdef uint32_t sets = 0
    cdef int r
    for r in range(7, 11):
        if cs_popcount(hand & rank_cards(r)) >= 3:
            sets |= 1 << r
    return sets

cdef inline int keep_value(uint64_t trumps, uint32_t sets, int cd) noexcept nogil:
    """What card cd is worth keeping: its rank, +100 a trump, +60 a J Q K A of a set (3 or
    4 of the rank held: `sets`, from set_ranks), +30 an Ace."""
    cdef int r = card_rank(cd), v = r
    if (trumps >> cd) & 1:
        v += 100
    if (sets >> r) & 1:
        v += 60
    if r == 10:
        v += 30
    return v

cdef int greedy_play(const GLState* s, const ActionSet* legal) noexcept nogil:
    cdef int p = s.turn, cd, n = s.cur.n
    cdef uint64_t m = legal.w[0], gone, tm
    if n == 0:
        gone = s.played[0] | s.played[1] | s.played[2] | card_bit(s.turnup)
        if s.buyer == p:
            gone |= s.discards
        cd = master_card(m, ~gone & ~s.hand[p], 11, s.trump)
        if cd >= 0:
            return cd
        return long_suit_lead(m, 11, s.trump)
    # the cards of the trick so far: played this deal, in no closed trick yet
    tm = (s.played[0] | s.played[1] | s.played[2]) & ~(s.won[0] | s.won[1] | s.won[2])
    cd = lowest_card(plain_beaters(m, winning_card(tm, s.led, s.trump), 11, s.trump), s.trump)
    if cd >= 0:
        return cd
    return lowest_card(m, s.trump)

cdef int greedy_phase(const GLState* s, const ActionSet* legal) noexcept nogil:
    """The greedy choice in the exchange, the vie and the declarations."""
    cdef int p = s.turn, suit, v, cd, bv, best
    cdef uint64_t tmp, trumps, plain
    cdef uint32_t sets
    if s.phase == GL_PH_EXCHANGE:
        best = -1
        bv = 1 << 30
        tmp = s.hand[p]
        sets = set_ranks(tmp)
        trumps = suit_mask(s.trump)
        # the plain cards (no trump, no Ace, no card of a set) are worth their rank (< 10) and
        # every other card 40 or more: the least is the lowest rank of them, the lowest suit
        # on ties, as the scan below would find
        plain = tmp & ~trumps & ~rank_cards(GL_RANK_ACE)
        for v in range(7, 10):
            if (sets >> v) & 1:
                plain &= ~rank_cards(v)
        if plain:
            return lowest_by_rank(plain, 11, -1)
        while tmp:
            cd = bit_low(tmp)
            tmp &= tmp - 1
            v = keep_value(trumps, sets, cd)
            if v < bv:
                bv = v
                best = cd
        return best
    if s.phase == GL_PH_VIE:
        v = ruff_value(s.hand[p], &suit)
        if s.vie_open:
            return GL_VIE if v >= 45 else GL_PASS
        if v >= 55 and as_has(legal, GL_REVIE):
            return GL_REVIE
        return GL_SEE if v >= 42 else GL_PASS
    if s.phase == GL_PH_DECLARE:
        for v in range(4):
            if as_has(legal, GL_DECLARE0 + v):
                return GL_DECLARE0 + v
        return GL_DONE
    return as_first(legal, 1)

# the phases before the play are called through a pointer: the C compiler cannot inline it, so
# their registers stay out of the card play's path (inlined, every card paid their prologue)
ctypedef int (*phase_fn)(const GLState* s, const ActionSet* legal) noexcept nogil
cdef phase_fn cold_greedy_phase = greedy_phase

cdef int gl_greedy(const void* st, const void* cfg, const ActionSet* legal, int n, Rng* rng) noexcept nogil:
    cdef const GLState* s = <const GLState*>st
    if s.phase == GL_PH_PLAY:
        return greedy_play(s, legal)
    if s.phase == GL_PH_AUCTION:
        return GL_PASS
    return cold_greedy_phase(s, legal)
