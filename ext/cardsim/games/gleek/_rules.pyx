"""Gleek, the pure rules (docs/rules/gleek.md): card notation, the trick winner and the follow
rule (§5), the ruff value (§4.3), gleeks and mournivals (§4.4) and the trick settlement (§6.5).
Nothing here sees a game state: the state machine (`cardsim.games._gleek_state`) and the public
oracles (`cardsim.games.gleek`) both run these kernels, which are all inline in _gleek_rules.pxd
(every deal calls them; this module holds the card notation and the oracles' entry points).

Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10', 7 = J, 8 = Q,
9 = K, 10 = A.
"""
from cardsim.core._types cimport int8_t, int16_t, uint8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount

from cardsim import cards as _cards
from cardsim.errors import ParseError

SUITS = "SHDC"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HONOUR_NAMES = ("A", "K", "Q", "J")
RUFF_FOUR_ACES = GL_RUFF_FOUR_ACES


# ---------------------------------------------------------------------------------------------
# card notation
# ---------------------------------------------------------------------------------------------
def card_str(int c):
    if not 0 <= c < 44:
        raise ParseError(f"gleek: card id {c} out of range 0..43")
    return RANKS[c % 11] + SUITS[c // 11]

def parse_suit(text):
    return _cards.parse_suit(text, "gleek")

def parse_card(text):
    """'AS', '10H', 'TD', '4♣', '♣4', lower case ok -> card id (no 2s or 3s in Gleek)."""
    rank, suit = _cards.parse_card(text, "gleek", RANKS)
    return suit * 11 + RANKS.index(rank)

DISPLAY_ORDER = tuple(suit * 11 + r for suit in range(4) for r in range(10, -1, -1))

def mask_to_cards(uint64_t m):
    """Cards of a mask in display order: suits S H D C, high to low."""
    return _cards.mask_to_strings(m, DISPLAY_ORDER, card_str)

def cards_to_mask(cards):
    """A list of card strings (one pack: no card twice) -> mask."""
    return _cards.ids_to_mask(cards, parse_card, "gleek")



# ---------------------------------------------------------------------------------------------
# oracles' kernels (arguments validated by cardsim.games.gleek)
# ---------------------------------------------------------------------------------------------
def oracle_trick_winner(list cards, int trump):
    cdef int8_t cs[3]
    if not 1 <= len(cards) <= 3 or not 0 <= trump < 4:
        raise ParseError("gleek: a trick holds 1 to 3 cards and the trump is a suit 0..3")
    for i, c in enumerate(cards):
        if not 0 <= c < 44:
            raise ParseError(f"gleek: card id {c} out of range 0..43")
        cs[i] = c
    return trick_winner(cs, len(cards), trump)

def oracle_follow(uint64_t hand, int led_suit):
    return legal_follows(hand, led_suit)

def oracle_ruff(uint64_t hand):
    cdef int suit
    cdef int v = ruff_value(hand, &suit)
    return v, suit
