"""Notation of a one-deck, suit-major pack (core mechanism): identity = suit * len(ranks) + rank
index, suits S H D C, ranks low to high as the game lists them. Karnöffel (2..K) and Joffre
Whist (2..A) use it; any game whose card identities have this layout can, instead of writing
its own card_str / parse_card / mask_to_cards / cards_to_mask. Parsing accepts everything
`cardsim.cards.parse_card` accepts ('10H', 'TH', '♥10', lower case)."""
from __future__ import annotations

from cardsim import cards as _cards


class SuitedPack:
    """Card strings <-> identities of one suit-major pack of `len(ranks)` x 4 cards.

    Bound methods (`card_str`, `parse_card`, `parse_suit`, `mask_to_cards`, `cards_to_mask`)
    are meant to be re-exported by the game's rules module under those names."""

    def __init__(self, game: str, ranks: tuple[str, ...], suits: str = _cards.SUITS):
        self.game = game
        self.ranks = tuple(ranks)
        self.suits = suits
        n = len(self.ranks)
        self.size = 4 * n
        # display order: suits S H D C, ranks high to low
        self.display_order = tuple(s * n + r for s in range(4) for r in range(n - 1, -1, -1))

    def card_str(self, c: int) -> str:
        """Identity -> card string, e.g. 'KS', '10H'."""
        n = len(self.ranks)
        return self.ranks[c % n] + self.suits[c // n]

    def parse_suit(self, text) -> int:
        """'S' / 'h' / '♦' -> suit 0..3 (ParseError otherwise)."""
        return _cards.parse_suit(text, self.game)

    def parse_card(self, text) -> int:
        """Card string -> identity; a rank outside the pack or malformed text raises ParseError."""
        rank, suit = _cards.parse_card(text, self.game, self.ranks)
        return suit * len(self.ranks) + self.ranks.index(rank)

    def mask_to_cards(self, m: int) -> list[str]:
        """The cards of a bit mask, in display order."""
        return _cards.mask_to_strings(m, self.display_order, self.card_str)

    def cards_to_mask(self, cards) -> int:
        """A list of card strings -> bit mask (a bare string or a card given twice: ParseError)."""
        return _cards.ids_to_mask(cards, self.parse_card, self.game)


def disjoint_hands(game: str, lists, count: int, to_mask, size=None, what: str = "hand",
                   taken: int = 0):
    """Scenario validation of `count` card lists that share no card (hands, played cards, ...):
    `lists` must be a list or tuple of `count` lists (or tuples) of card strings, each of exactly
    `size` cards when `size` is given; `to_mask` turns one list into a bit mask (it raises
    ParseError for a bad card or one given twice); `taken` = cards already placed elsewhere.
    Returns (masks, union of masks and taken). Raises ConfigError naming `what` and its index."""
    from cardsim.errors import ConfigError

    if isinstance(lists, (str, bytes)) or not isinstance(lists, (list, tuple)) or len(lists) != count:
        raise ConfigError(f"{game}: need a list of {count} {what}s (one per seat), got {lists!r:.60}")
    masks = []
    for q, h in enumerate(lists):
        if isinstance(h, (str, bytes)) or not isinstance(h, (list, tuple)):
            raise ConfigError(f"{game}: {what} {q} must be a list of card strings, got {h!r:.60}")
        if size is not None and len(h) != size:
            raise ConfigError(f"{game}: {what} {q} must be a list of {size} cards, got {len(h)}")
        m = to_mask(list(h))
        if taken & m:
            raise ConfigError(f"{game}: a card of {what} {q} is also in an earlier {what} or "
                              f"elsewhere in the position")
        taken |= m
        masks.append(m)
    return masks, taken
