"""Exposure's card notation and the checking of scenario arguments: the Python code that both the
face (cardsim.games.exposure, which re-exports it) and the glue (_spec) use, kept apart from the
face so that the glue never imports the face (no import cycle)."""
from __future__ import annotations

from numbers import Integral

from cardsim import cards as _cards
from cardsim.core._engine import check_int
from cardsim.errors import ConfigError, ParseError, short

MAX_SCORE = 1_000_000         # cumulative scores given to a scenario


# ---- card notation: id = rank*4 + suit, ranks 9 10 J Q K A, suits S H D C ------------------------
SUITS = "SHDC"
RANKS = ("9", "10", "J", "Q", "K", "A")
DISPLAY_ORDER = tuple(r * 4 + suit for suit in range(4) for r in range(5, -1, -1))   # S H D C, high to low
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}


class _Notation:
    """Card strings <-> ids of the rank-major 24-card pack (bound methods re-exported below)."""

    def card_str(self, c: int) -> str:
        """Card id 0..23 -> 'AS', '10H'."""
        if isinstance(c, bool) or not isinstance(c, Integral) or not 0 <= c < 24:
            raise ParseError(f"exposure: card id {short(c)} out of range 0..23")
        c = int(c)
        return RANKS[c >> 2] + SUITS[c & 3]

    def parse_suit(self, text) -> int:
        """'S' / 'h' / '♦' -> suit 0..3."""
        return _cards.parse_suit(text, "exposure")

    def parse_rank(self, text) -> int:
        """'Q', '10', 'T', lower case ok -> rank index 0 ('9') .. 5 ('A')."""
        t = text.strip().upper() if isinstance(text, str) else None
        r = _cards.RANK_ALIASES.get(t)
        if r not in _RANK_INDEX:
            raise ParseError(f"exposure: bad rank {short(text)}; ranks: 9 10 J Q K A")
        return _RANK_INDEX[r]

    def parse_card(self, text) -> int:
        """'AS', '10H', 'TD', '9♦', lower case ok (cardsim.cards), and the spec's symbol-first
        '♦9' -> card id (rank*4 + suit)."""
        rank, suit = _cards.parse_card(text, "exposure", RANKS)
        return _RANK_INDEX[rank] * 4 + suit

    def mask_to_cards(self, m: int) -> list[str]:
        """Cards of a mask in display order: suits S H D C, high to low."""
        return _cards.mask_to_strings(m, DISPLAY_ORDER, self.card_str)

    def cards_to_mask(self, cards) -> int:
        """A list of card strings (one pack: no card twice) -> mask."""
        return _cards.ids_to_mask(cards, self.parse_card, "exposure")


_NOTATION = _Notation()
card_str = _NOTATION.card_str
parse_suit = _NOTATION.parse_suit
parse_rank = _NOTATION.parse_rank
parse_card = _NOTATION.parse_card
mask_to_cards = _NOTATION.mask_to_cards
cards_to_mask = _NOTATION.cards_to_mask



def _scenario(spec, hands, facts: dict):
    """Check and convert scenario()'s arguments, then build the state with the spec's struct
    setter from the deck in dealing order they imply."""
    unknown = sorted(set(facts) - {"table", "dealer", "scores"})
    if unknown:
        raise ConfigError(f"exposure: unknown scenario facts {unknown}; known: table, dealer, scores")
    table = facts.get("table")
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != 2:
        raise ConfigError(f"exposure: hands must be 2 lists of 9 cards, got {hands!r:.60}")
    masks = [cards_to_mask(h) for h in hands]
    for h in hands:
        if len(h) != 9:
            raise ConfigError(f"exposure: every hand has 9 cards, got {len(h)}")
    tm = cards_to_mask(table)
    if len(table) != 3:
        raise ConfigError("exposure: need 3 face-up cards [H, T, C]")
    tcards = [parse_card(t) for t in table]
    dealer = check_int(facts.get("dealer", 1), "exposure: dealer", 0, 1, ConfigError)
    scores = facts.get("scores")
    if scores is not None:
        if isinstance(scores, (str, bytes)) or not isinstance(scores, (list, tuple)) or len(scores) != 2:
            raise ConfigError(f"exposure: scores must be 2 ints, got {scores!r:.60}")
        scores = [check_int(v, "exposure: scores", 0, MAX_SCORE, ConfigError) for v in scores]
    allm = masks[0] | masks[1]
    if masks[0] & masks[1] or allm & tm:
        raise ConfigError("exposure: a card appears twice among the hands and face-up cards")
    nd = 1 - dealer
    h = [sorted(c for c in range(24) if (masks[q] >> c) & 1) for q in range(2)]
    rest = [c for c in range(24) if not ((allm | tm) >> c) & 1]
    perm = [0] * 24
    for i in range(9):
        perm[2 * i] = h[nd][i]
        perm[2 * i + 1] = h[dealer][i]
    for i in range(3):
        perm[18 + i] = tcards[i]
        perm[21 + i] = rest[i]
    return spec._set_deal(perm, dealer, scores)
