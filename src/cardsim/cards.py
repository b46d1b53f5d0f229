"""Card notation shared by every French-suited game (DESIGN §4): rank then suit, ASCII
(`AS`, `10H`, `7D`, `2C`); parsers also take `T` for 10, lower case, the suit symbols (after or,
as in the rules specs, before the rank: `♦10`); jokers
`BJ`/`SJ` and Samba's `JK`. Each game maps (rank, suit) to its own card identities."""
from __future__ import annotations

from cardsim.errors import ParseError, short

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_ALIASES = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
                "♤": 0, "♡": 1, "♢": 2, "♧": 3}
SUIT_SYMBOLS = "♠♥♦♣♤♡♢♧"
RANK_ALIASES = {**{r: r for r in RANKS}, "T": "10"}
JOKERS = ("BJ", "SJ", "JK")


def parse_suit(text, game: str = "cardsim") -> int:
    """'S' / 'h' / '♦' -> suit index 0..3 in the order S H D C."""
    t = text.strip().upper() if isinstance(text, str) else None
    if t not in SUIT_ALIASES:
        raise ParseError(f"{game}: bad suit {short(text)}; suits: S H D C (or ♠ ♥ ♦ ♣)")
    return SUIT_ALIASES[t]


def parse_card(text, game: str = "cardsim", ranks: tuple[str, ...] = RANKS, jokers: tuple[str, ...] = ()):
    """Split a card string into (rank, suit): rank one of `ranks` ('10' for 'T'), suit 0..3; a
    joker allowed by `jokers` comes back as (joker, -1). Anything else raises ParseError naming
    the accepted forms."""
    if not isinstance(text, str):
        raise ParseError(f"{game}: a card must be a string like 'AS' or '10H', got {short(text)}")
    t = text.strip().upper()
    if t in jokers:
        return t, -1
    if len(t) >= 2 and t[0] in SUIT_SYMBOLS:          # the specs' symbol-first notation: '♦10'
        t = t[1:] + t[0]
    if len(t) >= 2 and t[-1] in SUIT_ALIASES:
        rank = RANK_ALIASES.get(t[:-1])
        if rank in ranks:
            return rank, SUIT_ALIASES[t[-1]]
        if rank is not None:
            raise ParseError(f"{game}: {short(text)}: rank {rank} is not in this game's deck ({' '.join(ranks)})")
    extra = f", jokers {' '.join(jokers)}" if jokers else ""
    raise ParseError(f"{game}: malformed card {short(text)}; expected rank ({' '.join(ranks)}) then suit "
                     f"(S H D C), e.g. '{ranks[-1]}S', '10H'{extra}")


def card_string(rank: str, suit: int) -> str:
    return rank + SUITS[suit]


def ids_to_mask(cards, parse, game: str = "cardsim") -> int:
    """Card strings of a one-deck game -> bitmask of their identities (`parse`: string -> id).
    Anything but a list or tuple (None, an int, a bare string), or a card given twice, raises
    ParseError."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"{game}: expected a list of card strings, got {cards!r:.60}")
    m = 0
    for t in cards:
        c = parse(t)
        if (m >> c) & 1:
            raise ParseError(f"{game}: card {short(t)} given twice (one deck)")
        m |= 1 << c
    return m


def mask_to_strings(mask: int, order, card_str) -> list[str]:
    """The identities set in `mask`, in the display order `order` (ids), as card strings."""
    return [card_str(c) for c in order if (mask >> c) & 1]
