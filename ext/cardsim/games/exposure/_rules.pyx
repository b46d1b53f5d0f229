"""Exposure, the pure rules (docs/rules/exposure.md): the trick order with its high rank (§2),
meld legality and completability (§4, inline in _rules.pxd), the follow rule and trick winner (§5), the dealing order
(§3), deal points (§6) and the game end (§7). Nothing here sees a game state: the state machine
(`_state`), the greedy agent (`_agent`), the resample (`_observe`) and the compiled oracles below
all run these kernels.

The oracles (oracle_*) take card ids, masks and numbers that the Python face
(cardsim.games.exposure: trick_winner, legal_follows, score_deal, match_outcome, deal_order) has
parsed and checked; they raise a plain ValueError on anything else (a guard, never reached
through the face).

Card identity: rank*4 + suit, rank 0 = '9', 1 = '10', 2 = 'J', 3 = 'Q', 4 = 'K', 5 = 'A';
suits S H D C (0..3).
"""
from cardsim.core._types cimport int8_t, int32_t, uint32_t, card_t
from cardsim.core._bits cimport cs_popcount, bit_low


# ---------------------------------------------------------------------------------------------
# the oracles' entry points (arguments checked by cardsim.games.exposure)
# ---------------------------------------------------------------------------------------------
cdef int _card(int c) except -1:
    if not 0 <= c < EX_NCARDS:
        raise ValueError(f"exposure: card id out of range 0..{EX_NCARDS - 1}")
    return c


def oracle_trick_winner(int lead, int follow, int trump, int high):
    """0 (leader) or 1 (follower): the winner of the trick lead, follow (card ids) with the
    trump suit 0..3 and the high rank 0..5 (§5)."""
    if not 0 <= trump < 4 or not 0 <= high <= EX_RANK_ACE:
        raise ValueError("exposure: trump 0..3 and high rank 0..5")
    return trick_winner(_card(lead), _card(follow), trump, high)


def oracle_follow(uint32_t held, int led):
    """The cards of `held` (a mask) that may follow the card `led` (-1: on lead) (§5)."""
    if led != -1:
        _card(led)
    return legal_follows(held & EX_FULL, led)


def oracle_match_outcome(int a, int b, int target):
    """Game end (§7) after a deal with scores a, b: -2 play on, -1 draw, else the winning seat."""
    cdef int32_t sc[2]
    sc[0] = a
    sc[1] = b
    return match_outcome(sc, target)


def oracle_deal_order(list perm, int dealer):
    """Where each card of a deck in dealing order (perm[0] = card 1; the 24 ids once each) goes
    (§3): ([hand masks of seats 0, 1], [H, T, C card ids], aside mask, first to declare, high
    rank, trump suit, contract target)."""
    cdef card_t pm[EX_NCARDS]
    cdef uint32_t hand[2]
    cdef uint32_t aside
    cdef int8_t table[3]
    cdef int i
    if len(perm) != EX_NCARDS or sorted(perm) != list(range(EX_NCARDS)) or not 0 <= dealer <= 1:
        raise ValueError("exposure: a deal order is the 24 card ids 0..23, each once, and a dealer 0 or 1")
    for i in range(EX_NCARDS):
        pm[i] = perm[i]
    deal_order(pm, dealer, hand, table, &aside)
    return ([hand[0], hand[1]], [table[EX_H], table[EX_T], table[EX_C]], aside, 1 - dealer,
            card_rank(table[EX_H]), card_suit(table[EX_T]), contract_target(table[EX_C]))


def oracle_deal_points(int trick_pts, int contract_bonus, list tricks, list meld_points, int target):
    """Deal points of the two players (§6) with points_per_trick and contract_bonus, from their
    tricks won, meld points and the contract target."""
    cdef EXConfig c
    c.trick_pts = trick_pts
    c.contract_bonus = contract_bonus
    return (deal_points(&c, tricks[0], meld_points[0], target),
            deal_points(&c, tricks[1], meld_points[1], target))
