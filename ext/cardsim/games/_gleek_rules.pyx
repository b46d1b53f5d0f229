"""Gleek, the pure rules (docs/rules/gleek.md): card notation, the trick winner and the follow
rule (§5), the ruff value (§4.3), gleeks and mournivals (§4.4) and the trick settlement (§6.5).
Nothing here sees a game state: the state machine (`cardsim.games._gleek_state`) and the public
oracles (`cardsim.games.gleek`) both run these kernels.

Card identity: suit*11 + rank, suits S H D C (0..3), rank 0 = '4' .. 6 = '10', 7 = J, 8 = Q,
9 = K, 10 = A.
"""
from cardsim.core._types cimport int8_t, int16_t, uint8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount

from cardsim import cards as _cards
from cardsim.errors import ParseError

cdef int16_t RUFF_SUM[2048]          # ruff value of an 11-bit suit holding

def _init_tables():
    cdef int r, m, v
    for m in range(2048):
        v = 0
        for r in range(11):
            if (m >> r) & 1:
                v += 11 if r == GL_RANK_ACE else (10 if r >= 7 else r + 4)   # A 11, K Q J 10, else face
        RUFF_SUM[m] = v
_init_tables()

SUITS = "SHDC"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HONOUR_NAMES = ("A", "K", "Q", "J")
RUFF_FOUR_ACES = GL_RUFF_FOUR_ACES


cdef int ruff_value(uint64_t hand, int* best_suit) noexcept nogil:
    """Ruff value of a hand (§4.3). Points: max over suits of the suit's card values (A 11,
    K Q J 10, 10..4 face); all four Aces = GL_RUFF_FOUR_ACES (beats any ruff). best_suit gets
    the suit revealed at a showdown: the first best suit in order S H D C (D7), or 4 for the
    four Aces."""
    cdef int s, v, best = -1, bs = 0
    if (hand & rank_cards(GL_RANK_ACE)) == rank_cards(GL_RANK_ACE):
        best_suit[0] = 4
        return GL_RUFF_FOUR_ACES
    for s in range(4):
        v = RUFF_SUM[(hand >> (11 * s)) & 0x7FF]
        if v > best:
            best = v
            bs = s
    best_suit[0] = bs
    return best

cdef int sets_value(const GLConfig* c, uint64_t hand, uint8_t ranks) noexcept nogil:
    """V of a hand (§4.4): the sum over its gleeks/mournivals (restricted to the honour indices
    in `ranks`) of the table value, received from each opponent."""
    cdef int r, n, v = 0
    for r in range(4):
        if (ranks >> r) & 1:
            n = cs_popcount(hand & rank_cards(GL_RANK_ACE - r))
            if n == 4:
                v += c.mournival[r]
            elif n == 3:
                v += c.gleek[r]
    return v

cdef void trick_settlement(const GLConfig* c, const int8_t* tricks, const uint64_t* honours,
                           int turnup, int dealer, uint64_t discards, int32_t* score,
                           int32_t* total, int32_t* delta) noexcept nogil:
    """Trick settlement (§6.5). Points: score[p] = trick_value x tricks[p] + honour values of the
    trump A/K/Q/J in honours[p] (held, or won with HONOUR_SCORING="won"), plus the turn-up's
    honour value for the dealer. T = 12 x trick_value + all honour values - those discarded
    (66 less discarded honours by default); every player's chips change by score[p] - T/3
    (zero-sum, D10)."""
    cdef int trump = card_suit(turnup), q, r
    total[0] = 12 * c.trick_value - honour_sum(c, discards, trump)
    for r in range(4):
        total[0] += c.honour[r]
    for q in range(3):
        score[q] = c.trick_value * tricks[q] + honour_sum(c, honours[q], trump)
    score[dealer] += honour_sum(c, bit(turnup), trump)
    for q in range(3):
        delta[q] = score[q] - total[0] // 3




# ---------------------------------------------------------------------------------------------
# card notation
# ---------------------------------------------------------------------------------------------
def card_str(int c):
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
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"gleek: expected a list of card strings, got {cards!r:.60}")
    return _cards.ids_to_mask(cards, parse_card, "gleek")



# ---------------------------------------------------------------------------------------------
# oracles' kernels (arguments validated by cardsim.games.gleek)
# ---------------------------------------------------------------------------------------------
def oracle_trick_winner(list cards, int trump):
    cdef int8_t cs[3]
    for i, c in enumerate(cards):
        cs[i] = c
    return trick_winner(cs, len(cards), trump)

def oracle_follow(uint64_t hand, int led_suit):
    return legal_follows(hand, led_suit)

def oracle_ruff(uint64_t hand):
    cdef int suit
    cdef int v = ruff_value(hand, &suit)
    return v, suit
