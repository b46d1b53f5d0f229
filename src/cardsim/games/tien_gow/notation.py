"""Tien Gow notation (docs/rules/tien_gow.md §2.1): tile and action strings, parsing. Pure Python,
shared by the face (`cardsim.games.tien_gow`) and the spec glue (`_spec`: action strings, hands,
view, render); imports only cardsim.errors.

Tile identities 0..20, strongest first in each suit: civil 0..10 = 6-6 1-1 4-4 3-1 5-5 3-3 2-2 6-5
6-4 6-1 5-1 (two copies each), military 11..20 = 6-3 5-4 6-2 5-3 5-2 4-3 4-2 4-1 3-2 2-1 (one
copy each). Tiles are written by their pips, high end first; parsers also accept the low end first
('1-3') and the names of §2.1 that name exactly one tile ('Heaven', '天', 'Goose', '二四').
Actions: 0..20 'up <tile>', 21..41 'down <tile>', 42 'commit'.
"""
from __future__ import annotations

from cardsim.errors import ParseError, short

TILES = ("6-6", "1-1", "4-4", "3-1", "5-5", "3-3", "2-2", "6-5", "6-4", "6-1", "5-1",
         "6-3", "5-4", "6-2", "5-3", "5-2", "4-3", "4-2", "4-1", "3-2", "2-1")
COPIES = tuple(2 if k < 11 else 1 for k in range(21))
SET_SIZE = sum(COPIES)                 # 32 tiles
A_DOWN = 21                            # first DOWN action (the kernel's TG_A_DOWN)
A_COMMIT = 42                          # the leader's commit (TG_A_COMMIT)
PHASES = ("play", "end")               # the kernel's TG_PH_* in order
STAGE_MODES = ("none", "up", "down")   # the kernel's TG_MODE_* in order
# combination categories, in the order of the kernel's CAT_* (ext/cardsim/games/tien_gow/_rules.pxd)
CATEGORIES = ("single_civil", "single_military", "pair_civil", "pair_military", "pair_mixed", "supreme",
              "triple_2c1m", "triple_1c2m", "quad", "two_pairs_civil", "two_pairs_military")

# names of §2.1 that name exactly one tile identity (Chinese and English/Cantonese)
NAMES = {
    "天": 0, "heaven": 0, "teen": 0, "地": 1, "earth": 1, "day": 1, "人": 2, "man": 2, "yun": 2,
    "和": 3, "鵝": 3, "harmony": 3, "goose": 3, "gor": 3, "梅": 4, "梅花": 4, "plum": 4, "plum flower": 4,
    "plum-flower": 4, "mooy": 4, "長三": 5, "long three": 5, "long-three": 5, "chong": 5, "板凳": 6,
    "bench": 6, "bon": 6, "斧頭": 7, "虎頭": 7, "axe": 7, "tiger's head": 7, "tigers head": 7, "foo": 7,
    "紅頭十": 8, "red-head ten": 8, "red head ten": 8, "ping": 8, "高腳七": 9, "long-leg seven": 9,
    "long leg seven": 9, "tit": 9, "零霖六": 10, "銅錘六": 10, "red-mallet six": 10, "red mallet six": 10,
    "look": 10, "二四": 17, "six": 17, "luk": 17, "丁三": 20, "幺二": 20, "three": 20, "saam": 20,
}
AMBIGUOUS = {"雜九": (11, 12), "nines": (11, 12), "nine": (11, 12), "chop gow": (11, 12),
             "雜八": (13, 14), "eights": (13, 14), "eight": (13, 14), "chop bot": (13, 14),
             "雜七": (15, 16), "sevens": (15, 16), "seven": (15, 16), "chop chit": (15, 16),
             "雜五": (18, 19), "fives": (18, 19), "five": (18, 19), "chop ng": (18, 19)}


def parse_tile(text) -> int:
    """'6-6', '4-2', low end first '1-3', or a name of §2.1 that names one tile ('Heaven', '天',
    'Goose', '二四') -> identity 0..20; ParseError otherwise."""
    if not isinstance(text, str):
        raise ParseError(f"tien_gow: a tile is a string such as '6-6', '4-2' or 'Heaven', got {short(text)}")
    t = text.strip().lower()
    if t in NAMES:
        return NAMES[t]
    if t in AMBIGUOUS:
        a, b = AMBIGUOUS[t]
        raise ParseError(f"tien_gow: {short(text)} names two tiles ({TILES[a]} and {TILES[b]}); write the pips")
    parts = t.replace("–", "-").split("-")
    if len(parts) == 2 and all(len(x) == 1 and x in "123456" for x in parts):
        key = f"{max(parts)}-{min(parts)}"
        if key in TILES:
            return TILES.index(key)
    raise ParseError(f"tien_gow: cannot parse tile {short(text)}; tiles are written by their pips, high end first "
                     f"('6-6', '4-2', '2-1'; '1-3' is accepted too), or named ('Heaven', '天', 'Six')")


def tiles_to_ids(tiles, what: str = "tiles") -> list[int]:
    """Parse a list of tile strings (at most the copies of the set) -> list of identities."""
    if not isinstance(tiles, (list, tuple)):
        raise ParseError(f"tien_gow: {what} must be a list of tile strings, got {short(tiles)}")
    if len(tiles) > SET_SIZE:
        raise ParseError(f"tien_gow: {what}: a list of tiles holds at most the {SET_SIZE} tiles of the set, got "
                         f"{len(tiles)}")
    ids = [parse_tile(x) for x in tiles]
    for k in set(ids):
        if ids.count(k) > COPIES[k]:
            raise ParseError(f"tien_gow: {TILES[k]} appears {ids.count(k)} times in {what}; the set holds "
                             f"{COPIES[k]} {'copies' if COPIES[k] > 1 else 'copy'}")
    return ids


def counts_of(ids) -> list[int]:
    """21 counts (one per identity) of a list of identities."""
    c = [0] * 21
    for k in ids:
        c[k] += 1
    return c


def tiles_of(counts) -> list[str]:
    """The tile strings of 21 counts, strongest identity first."""
    out = []
    for k, n in enumerate(counts):
        out.extend([TILES[k]] * n)
    return out


def action_string(a: int) -> str:
    """'up 6-6', 'down 4-2' or 'commit' (a checked action id 0..42)."""
    if a == A_COMMIT:
        return "commit"
    if a < A_DOWN:
        return "up " + TILES[a]
    return "down " + TILES[a - A_DOWN]


def parse_action(text: str) -> int:
    """'up 6-6' (also 'lead', 'beat', 'play' or a bare tile), 'down 6-6' ('discard'), 'commit'."""
    t = text.strip().lower()
    if t == "commit":
        return A_COMMIT
    words = t.split(None, 1)
    try:
        if len(words) == 2 and words[0] in ("up", "lead", "beat", "play"):
            return parse_tile(words[1])
        if len(words) == 2 and words[0] in ("down", "discard"):
            return A_DOWN + parse_tile(words[1])
        return parse_tile(t)
    except ParseError as e:
        raise ParseError(f"tien_gow: cannot parse action {short(text)}; actions are 'up 6-6' (lead or beat, face "
                         f"up), 'down 6-6' (discard face down) and 'commit' (end a lead)") from e


def render(v: dict, hands: list[list[str]], match: bool) -> str:
    """The text picture of a state from its view `v` and the four hands."""
    lines = [f"Tien Gow  phase={v['phase']}  banker={v['banker']}  tricks {v['tricks']}  "
             f"deal chips {v['deal_pay']}" + (f"  balances {v['balance']} after {v['deal_no']} deals"
                                               if match else "")]
    for p in range(4):
        mark = "*" if v["phase"] == "play" and v["turn"] == p else " "
        lines.append(f"{mark}{p}: {' '.join(hands[p])}")
    if v["phase"] == "play" and v["trick_log"]:
        cur = v["trick_log"][len(v["trick_log"]) - 1]
        shown = []
        for q, pl in cur["plays"].items():
            shown.append(f"{q}:{'+'.join(pl['tiles']) if pl['face_up'] else 'x' * len(pl['tiles'])}")
        lines.append("trick: " + "  ".join(shown) + (f"  (staged {'+'.join(v['stage'])} {v['stage_mode']})"
                                                     if v["stage"] else ""))
    return "\n".join(lines)
