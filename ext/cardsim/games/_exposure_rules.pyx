"""Exposure, the pure rules (docs/rules/exposure.md): card notation, the trick order with its
high rank (§2), meld legality and completability (§4), the follow rule and trick winner (§5),
deal points (§6) and the game end (§7). Nothing here sees a game state: the state machine
(`cardsim.games._exposure`) and the public oracles (`cardsim.games.exposure`) both run these
kernels.

Card identity: rank*4 + suit, rank 0 = '9', 1 = '10', 2 = 'J', 3 = 'Q', 4 = 'K', 5 = 'A';
suits S H D C (0..3).
"""
from cardsim.core._types cimport int32_t, uint32_t
from cardsim.core._bits cimport cs_popcount, bit_low

from cardsim import cards as _cards
from cardsim.errors import ParseError, short

SUITS = "SHDC"
RANKS = ("9", "10", "J", "Q", "K", "A")


cdef uint32_t meld_extensions(const EXConfig* c, uint32_t sel, int sel_hand, uint32_t avail_hand,
                              uint32_t avail_table) noexcept nogil:
    """Cards that may be added to the meld under construction (§4), so that it can still be
    completed into a legal meld. `sel`: the cards built so far, `sel_hand` of them from the
    hand; `avail_hand` / `avail_table`: the own unmelded hand cards and the face-up cards the
    player may still use (none of them in sel).

    Whether a card k fits depends only on its rank and on whether it is a hand or a face-up card
    (the other available cards of its rank count the same either way), so the test runs once per
    rank: a set of a kind needs 3+ cards of the rank in all with min_hand from the hand; a
    sequence needs a window of 4-6 consecutive ranks around the built ranks whose missing ranks
    are all available, with enough hand cards among them."""
    cdef uint32_t A = avail_hand | avail_table
    cdef uint32_t RH = rank_bits(avail_hand), RA = rank_bits(A)
    cdef int nsel = cs_popcount(sel), r, i, best
    cdef uint32_t rsel = rank_bits(sel), ranks = RA, sr, W, need, nib, out = 0
    cdef bint distinct = cs_popcount(rsel) == nsel
    while ranks:
        r = bit_low(ranks)
        ranks &= ranks - 1
        nib = rank_cards(r)
        sr = rsel | ((<uint32_t>1) << r)
        if sr == ((<uint32_t>1) << r):         # a set of a kind is possible
            if nsel + cs_popcount(A & nib) >= 3 and sel_hand + cs_popcount(avail_hand & nib) >= c.min_hand:
                out |= A & nib
                continue
        if not distinct or (rsel >> r) & 1:
            continue
        best = -1
        for i in range(6):
            W = ex_windows[i]
            if sr & ~W:
                continue
            need = W & ~sr
            if need & ~RA:
                continue
            if cs_popcount(need & RH) > best:
                best = cs_popcount(need & RH)
        if best < 0:
            continue
        if sel_hand + 1 + best >= c.min_hand:
            out |= avail_hand & nib
        if sel_hand + best >= c.min_hand:
            out |= avail_table & nib
    return out


# ---------------------------------------------------------------------------------------------
# card notation
# ---------------------------------------------------------------------------------------------
def card_str(int c):
    if not 0 <= c < 24:
        raise ParseError(f"exposure: card id {c} out of range 0..23")
    return RANKS[c >> 2] + SUITS[c & 3]

_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}

def parse_suit(text):
    return _cards.parse_suit(text, "exposure")

def parse_rank(text):
    """'Q', '10', 'T', lower case ok -> rank index 0 ('9') .. 5 ('A')."""
    t = text.strip().upper() if isinstance(text, str) else None
    r = _cards.RANK_ALIASES.get(t)
    if r not in _RANK_INDEX:
        raise ParseError(f"exposure: bad rank {short(text)}; ranks: 9 10 J Q K A")
    return _RANK_INDEX[r]

def parse_card(text):
    """'AS', '10H', 'TD', '9♦', lower case ok (cardsim.cards), and the spec's symbol-first '♦9'
    -> card id (rank*4 + suit)."""
    rank, suit = _cards.parse_card(text, "exposure", RANKS)
    return _RANK_INDEX[rank] * 4 + suit

DISPLAY_ORDER = tuple(r * 4 + suit for suit in range(4) for r in range(5, -1, -1))

def mask_to_cards(uint32_t m):
    """Cards of a mask in display order: suits S H D C, high to low."""
    return _cards.mask_to_strings(m, DISPLAY_ORDER, card_str)

def cards_to_mask(cards):
    """A list of card strings (one pack: no card twice) -> mask."""
    return _cards.ids_to_mask(cards, parse_card, "exposure")


# ---------------------------------------------------------------------------------------------
# oracles' kernels (arguments validated by cardsim.games.exposure)
# ---------------------------------------------------------------------------------------------
def oracle_trick_winner(int lead, int follow, int trump, int high):
    return trick_winner(lead, follow, trump, high)

def oracle_follow(uint32_t held, int led):
    return legal_follows(held, led)

def oracle_match_outcome(int a, int b, int target):
    cdef int32_t sc[2]
    sc[0] = a
    sc[1] = b
    return match_outcome(sc, target)
