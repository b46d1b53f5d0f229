"""Basra card notation (pure Python; was compiled into the rules module): card identity
rank*4 + suit, rank 0 = A, 1 = 2 .. 9 = 10, 10 = J, 11 = Q, 12 = K; suits S H D C (0..3); the
44-card pack is identities 0..43. Strings through the shared notation of cardsim.cards ('AS',
'10H', 'TD', '7♦', the spec's '♦7', lower case ok)."""
from __future__ import annotations

from cardsim import cards as _cards
from cardsim.errors import ParseError, short

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _is_int(v) -> bool:
    return not isinstance(v, bool) and hasattr(v, "__index__")


def card_str(c) -> str:
    """Card id 0..51 -> 'AS', '10H', ..."""
    if not _is_int(c) or not 0 <= c < 52:
        raise ParseError(f"basra: card id {short(c)} out of range 0..51")
    c = int(c)
    return RANKS[c >> 2] + SUITS[c & 3]


def parse_card(text) -> int:
    """'AS', '10H', 'TD', '7♦', the spec's '♦7', lower case ok -> card id (rank*4 + suit)."""
    rank, suit = _cards.parse_card(text, "basra", RANKS)
    return RANKS.index(rank) * 4 + suit


def mask_to_cards(m: int) -> list[str]:
    """Cards of a mask in display order: rank A..K, suits S H D C (card id order)."""
    out = []
    while m:
        low = m & -m
        out.append(card_str(low.bit_length() - 1))
        m ^= low
    return out


def cards_to_mask(cards, deck: int = 52) -> int:
    """A list of card strings (one pack: no card twice, all in the deck-card pack) -> mask."""
    m = 0
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"basra: expected a list of card strings, got {cards!r:.60}")
    for t in cards:
        c = parse_card(t)
        if c >= deck:
            raise ParseError(f"basra: card {short(t)} is not in the {deck}-card pack")
        if (m >> c) & 1:
            raise ParseError(f"basra: card {short(t)} given twice (one pack)")
        m |= 1 << c
    return m
