"""Hakka Six Tigers card notation (DESIGN §4): suit word then number, or CLOUD.

Card identity: suit * 9 + (number - 1) with suits SHI, GUAN, SUO, XIAN = 0..3 (strongest first),
CLOUD = 36; a set of cards is a mask (bit k = identity k). Pure Python: the face and the
compiled glue (`_spec`) convert with these; the kernels never see a string.
"""
from __future__ import annotations

from cardsim.core._engine import check_int
from cardsim.errors import ConfigError, ParseError, short

DECK = 37                    # 36 suit cards + CLOUD
CLOUD = 36
FULL = (1 << DECK) - 1
SUITS = ("SHI", "GUAN", "SUO", "XIAN")
SUIT_ALIASES = {"SHI": 0, "GUAN": 1, "SUO": 2, "XIAN": 3,
                "SUP": 0, "GON": 1, "ZOK": 2, "SIN": 3,         # NovelGames' Hakka names
                "拾": 0, "貫": 1, "索": 2, "綫": 3}
CLOUD_NAMES = ("CLOUD", "WANSIN", "雲綫")
DISPLAY_ORDER = tuple(s * 9 + n for s in range(4) for n in range(8, -1, -1)) + (CLOUD,)


def card_str(c) -> str:
    """'SHI9', 'GUAN1', ..., 'CLOUD'."""
    c = check_int(c, "six_tigers: a card id", 0, DECK - 1, ConfigError)
    if c == CLOUD:
        return "CLOUD"
    return SUITS[c // 9] + str(c % 9 + 1)


def parse_card(text) -> int:
    """'SHI9', 'guan7', 'SUO1', 'XIAN3', 'CLOUD' (also 'SUP9', 'GON7', 'ZOK1', 'SIN3', 'WANSIN'
    and the characters 拾 貫 索 綫 雲綫) -> card id 0..36. Anything else raises ParseError."""
    if not isinstance(text, str):
        raise ParseError(f"six_tigers: a card must be a string like 'SHI9' or 'CLOUD', got {short(text)}")
    t = text.strip().upper()
    if t in CLOUD_NAMES:
        return CLOUD
    n = len(t)
    if n >= 2 and t[n - 1] in "123456789" and t[:n - 1] in SUIT_ALIASES:
        return SUIT_ALIASES[t[:n - 1]] * 9 + int(t[n - 1]) - 1
    raise ParseError(f"six_tigers: malformed card {short(text)}; expected a suit (SHI GUAN SUO XIAN, or "
                     f"SUP GON ZOK SIN) then a number 1-9, e.g. 'SHI9', 'GUAN1', or CLOUD (WANSIN)")


def mask_arg(m, what: str, max_cards: int = DECK) -> int:
    """A card mask of the 37 cards holding at most max_cards cards, else ConfigError."""
    v = check_int(m, f"six_tigers: {what} (a card mask of the 37 cards)", 0, FULL, ConfigError)
    if bin(v).count("1") > max_cards:
        raise ConfigError(f"six_tigers: {what} holds at most {max_cards} cards, got {bin(v).count('1')}")
    return v


def mask_to_cards(m) -> list[str]:
    """Cards of a mask in display order: SHI, GUAN, SUO, XIAN high to low, then CLOUD."""
    m = mask_arg(m, "a card mask")
    return [card_str(c) for c in DISPLAY_ORDER if (m >> c) & 1]


def cards_to_mask(cards) -> int:
    """Card strings -> mask; a bare string or a card given twice raises ParseError."""
    if not isinstance(cards, (list, tuple)):
        raise ParseError(f"six_tigers: expected a list of card strings, got {short(cards)}")
    if len(cards) > DECK:
        raise ParseError(f"six_tigers: a list of cards holds at most the {DECK} cards of the pack, got {len(cards)}")
    m = 0
    for t in cards:
        c = parse_card(t)
        if (m >> c) & 1:
            raise ParseError(f"six_tigers: card {card_str(c)} given twice (the pack holds one of each)")
        m |= 1 << c
    return m


# ---- actions (79): 0..36 add a card face up, 37..73 add it face down, then five words ----------
A_DISCARD = 37
A_COMMIT = 74
WORDS = ("COMMIT", "DECLARE", "PASS", "CLAIM", "CONTINUE")     # actions 74..78
PHASES = ("declare", "claim", "play", "end")                    # ST_PH_* of the state struct


def action_string(a: int) -> str:
    """'SHI9' (add face up), 'DISCARD SHI9' (add face down), or one of WORDS."""
    if a < A_DISCARD:
        return card_str(a)
    if a < A_COMMIT:
        return "DISCARD " + card_str(a - A_DISCARD)
    return WORDS[a - A_COMMIT]


def parse_action(text: str) -> int:
    """The action named by `text` (the inverse of action_string), else ParseError."""
    t = text.strip().upper()
    if t in WORDS:
        return A_COMMIT + WORDS.index(t)
    try:
        if t.startswith("DISCARD "):
            return A_DISCARD + parse_card(t[8:].strip())
        return parse_card(t)
    except ParseError as e:
        raise ParseError(f"six_tigers: cannot parse action {short(text)}; actions: a card to add face up "
                         f"('SHI9', 'CLOUD'), 'DISCARD <card>', COMMIT, DECLARE, PASS, CLAIM, "
                         f"CONTINUE") from e


def render(v: dict, hands: list[list[str]]) -> str:
    """A readable table from a view `v` (spec.view) and each seat's cards in display order."""
    N = len(hands)
    lines = [f"Six Tigers  {N} players  phase={v['phase']}  dealer={v['dealer']}  dreamer={v['dreamer']}  "
             f"special={v['special']}  tricks={v['tricks']}  points={v['score']}"]
    old = set(v["old"])
    for p in range(N):
        mark = "*" if v["turn"] == p else " "
        role = "dreamer" if p == v["dreamer"] else f"count {v['counts'][p]}"
        cards = " ".join(c + ("*" if c in old else "") for c in hands[p])
        lines.append(f"{mark}{p} ({role}): {cards}")
    if v["phase"] == "play":
        lines.append("trick: " + "  ".join(
            f"{p}:{'(down x%d)' % v['k'] if v['trick_down'][p] else '-'.join(v['trick'][p])}"
            for p in range(N) if v["trick"][p]))
    if v["phase"] == "end":
        lines.append(f"winner {v['winner']} t={v['t']} dreamer t={v['t_dream']} payments {v['last']}")
    return "\n".join(lines)
