"""Gleek, the pure rules (docs/rules/gleek.md): the oracles' entry points (`oracle_*`, on card ids and
masks; the public oracles of `cardsim.games.gleek` check and convert card strings, then call them).
The rule kernels themselves (trick winner and follow rule §5, ruff value §4.3, gleeks and
mournivals §4.4, trick settlement §6.5) are all inline in `_rules.pxd`: the state machine runs
them every deal. Nothing here sees a game state.

Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10', 7 = J, 8 = Q,
9 = K, 10 = A.
"""
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._engine cimport GameSpec
from cardsim.games.gleek._rules cimport (GLConfig, GL_RUFF_FOUR_ACES, trick_winner, legal_follows,
                                         ruff_value, sets_value, trick_settlement)

RUFF_FOUR_ACES = GL_RUFF_FOUR_ACES


# ---- oracles' entry points (arguments checked by the face; the guards here only keep memory safe)
def oracle_trick_winner(list cards, int trump):
    """Index of the winning card of cards (ids 0..43, cards[0] led, 1..3 cards), trump 0..3 (§5)."""
    cdef int8_t cs[3]
    if not 1 <= len(cards) <= 3 or not 0 <= trump < 4 or not all(0 <= c < 44 for c in cards):
        raise ValueError("gleek: oracle_trick_winner needs 1..3 card ids 0..43 and a trump suit 0..3")
    for i, c in enumerate(cards):
        cs[i] = c
    return trick_winner(cs, len(cards), trump)


def oracle_follow(uint64_t hand, int led_suit):
    """Mask of the cards of `hand` (a 44-bit mask) that may be played to a trick led in led_suit
    (-1: on lead) (§5)."""
    if hand >> 44 or not -1 <= led_suit < 4:
        raise ValueError("gleek: oracle_follow needs a 44-bit mask and led_suit in -1..3")
    return legal_follows(hand, led_suit)


def oracle_ruff(uint64_t hand):
    """(ruff value, suit revealed: 0..3, or 4 for the four Aces) of a hand mask (§4.3)."""
    cdef int suit
    if hand >> 44:
        raise ValueError("gleek: oracle_ruff needs a 44-bit mask")
    cdef int v = ruff_value(hand, &suit)
    return v, suit


cdef const GLConfig* _config(GameSpec spec) except NULL:
    if spec.name != "gleek" or spec.cfg == NULL:
        raise ValueError("gleek: the oracle needs a gleek spec (cardsim.make('gleek').spec)")
    return <const GLConfig*>spec.cfg


def oracle_sets_value(GameSpec spec, uint64_t hand):
    """V of a hand mask (§4.4) under `spec`'s gleek and mournival tables."""
    return sets_value(_config(spec), hand, 15)


def oracle_trick_settlement(GameSpec spec, list tricks, list honours, int turnup, int dealer,
                            uint64_t discards):
    """(scores, T, chip deltas) of the trick settlement (§6.5) under `spec`'s options: tricks[q]
    0..12, honours[q] = mask of the cards that count for seat q, turnup a card id, dealer 0..2."""
    cdef int8_t t[3]
    cdef uint64_t h[3]
    cdef int32_t score[3]
    cdef int32_t delta[3]
    cdef int32_t total
    cdef const GLConfig* c = _config(spec)
    if (len(tricks) != 3 or len(honours) != 3 or not 0 <= dealer < 3 or not 0 <= turnup < 44
            or not all(0 <= x <= 12 for x in tricks)):
        raise ValueError("gleek: oracle_trick_settlement needs 3 trick counts 0..12, 3 honour masks, "
                         "a dealer 0..2 and a turn-up card id 0..43")
    for q in range(3):
        t[q] = tricks[q]
        h[q] = honours[q]
    trick_settlement(c, t, h, turnup, dealer, discards, score, &total, delta)
    return [score[q] for q in range(3)], total, [delta[q] for q in range(3)]
