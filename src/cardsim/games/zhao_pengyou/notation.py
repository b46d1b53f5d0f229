"""Zhao Pengyou notation (pure Python): cards, ranks, suits and actions as text, and the rendering
of a view; both the face (cardsim.games.zhao_pengyou, which re-exports the card notation) and the
compiled glue (_spec) use it, so the glue never imports the face.

Card strings (DESIGN §4): 'AS', '10H', 'BJ' (big joker), 'SJ' (small joker); identity suit*13 +
rank (suits S H D C = 0..3, rank 0 = '2' .. 12 = 'A'), 52 = SJ, 53 = BJ.
Actions: 0..53 add one copy of that identity to the play being built; 54 COMMIT (the lead built so
far); 55 PASS (a declaration window); 56..59 DECLARE a suit S H D C; 60..113 DISCARD that identity
to the kitty; 114 + 4*id + (N-1) CALL the N-th copy of plain identity id; 322 DECLARE NT (option
notrump_declaration). `tests/games/zhao_pengyou` checks these constants against the kernel's
(`_spec.CONSTANTS`)."""
from __future__ import annotations

from cardsim import cards as _cards
from cardsim.errors import ParseError, short

NID = 54                   # card identities (52 plain + 2 jokers)
NPLAIN = 52
MAX_DECK = 216             # cards in the largest pack (4 packs + 8 jokers)
SJK, BJK = 52, 53          # the small and the big joker
A_ADD, A_COMMIT, A_PASS, A_DECLARE, A_DISCARD, A_CALL, A_DECLARE_NT = 0, 54, 55, 56, 60, 114, 322
NUM_ACTIONS = 322          # without DECLARE NT
CONSTANTS = {"NID": NID, "NPLAIN": NPLAIN, "MAX_DECK": MAX_DECK, "SJK": SJK, "BJK": BJK, "A_ADD": A_ADD,
             "A_COMMIT": A_COMMIT, "A_PASS": A_PASS, "A_DECLARE": A_DECLARE, "A_DISCARD": A_DISCARD,
             "A_CALL": A_CALL, "A_DECLARE_NT": A_DECLARE_NT, "NUM_ACTIONS": NUM_ACTIONS}

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PHASES = ("draw", "kitty", "call", "play", "end")
FORMATS = (None, "single", "set", "sequence", "throw")

_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)}
_RANK_ALIASES["T"] = 8


def card_str(k) -> str:
    """Identity 0..53 -> 'AS', '10H', 'SJ', 'BJ'."""
    if isinstance(k, bool) or not hasattr(k, "__index__") or not 0 <= k < NID:
        raise ParseError(f"zhao_pengyou: card identity {short(k)} out of range 0..{NID - 1}")
    k = int(k)
    if k == BJK:
        return "BJ"
    if k == SJK:
        return "SJ"
    return RANKS[k % 13] + SUITS[k // 13]


def parse_card(text) -> int:
    """'AS', '10H', 'TD', '7♦', 'BJ' (big joker), 'SJ' (small joker), lower case ok -> identity."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"zhao_pengyou: a card is a string like 'AS', '10H', 'BJ' or 'SJ', got {short(text)}")
    rank, suit = _cards.parse_card(text, "zhao_pengyou", jokers=("BJ", "SJ"))
    if suit < 0:
        return BJK if rank == "BJ" else SJK
    return suit * 13 + RANKS.index(rank)


def parse_suit(text) -> int:
    """'S' / '♥' -> 0..3."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"zhao_pengyou: a suit is one of S H D C (or ♠ ♥ ♦ ♣), got {short(text)}")
    return _cards.parse_suit(text, "zhao_pengyou")


def parse_rank(text) -> int:
    """'2'..'10', 'T', 'J', 'Q', 'K', 'A' (or the ints 2..14) -> rank 0..12."""
    if isinstance(text, int) and not isinstance(text, bool) and 2 <= text <= 14:
        return text - 2
    if not isinstance(text, str) or text.strip().upper() not in _RANK_ALIASES:
        raise ParseError(f"zhao_pengyou: bad rank {short(text)}; ranks: 2-10 J Q K A (or the ints 2..14)")
    return _RANK_ALIASES[text.strip().upper()]


def action_str(a: int) -> str:
    """Action id (checked by the caller) -> 'AS', 'COMMIT', 'PASS', 'DECLARE S', 'DECLARE NT',
    'DISCARD 5H', 'CALL AH 2'."""
    if a < A_COMMIT:
        return card_str(a)
    if a == A_COMMIT:
        return "COMMIT"
    if a == A_PASS:
        return "PASS"
    if a == A_DECLARE_NT:
        return "DECLARE NT"
    if a < A_DISCARD:
        return "DECLARE " + SUITS[a - A_DECLARE]
    if a < A_CALL:
        return "DISCARD " + card_str(a - A_DISCARD)
    a -= A_CALL
    return f"CALL {card_str(a // 4)} {a % 4 + 1}"


def parse_action(text: str) -> int:
    """Inverse of action_str (also 'LEAD' for COMMIT, 'DECLARE NOTRUMP')."""
    t = " ".join(text.strip().upper().split())
    try:
        if t in ("COMMIT", "LEAD"):
            return A_COMMIT
        if t == "PASS":
            return A_PASS
        if t in ("DECLARE NT", "DECLARE NOTRUMP"):
            return A_DECLARE_NT
        if t.startswith("DECLARE "):
            return A_DECLARE + parse_suit(t[8:])
        if t.startswith("DISCARD "):
            return A_DISCARD + parse_card(t[8:])
        if t.startswith("CALL "):
            parts = t[5:].split()
            if len(parts) != 2 or not parts[1].isdigit() or not 1 <= int(parts[1]) <= 4:
                raise ParseError("bad call")
            k = parse_card(parts[0])
            if k >= NPLAIN:
                raise ParseError("jokers cannot be called")
            return A_CALL + 4 * k + int(parts[1]) - 1
        return A_ADD + parse_card(t)
    except ParseError:
        raise ParseError(f"zhao_pengyou: cannot parse action {short(text)}; expected a card ('AS', '10H', 'BJ'), "
                         f"'COMMIT', 'PASS', 'DECLARE S', 'DISCARD 5H' or 'CALL AH 2'") from None


def render(v: dict, hands: list, n: int) -> str:
    """The text table of a view (`spec.view(state)`) and the n hands (card strings)."""
    lines = [f"Zhao Pengyou  {n} players  phase={v['phase']}  deal {v['deal_no'] + 1}  "
             f"ranks {' '.join(v['ranks'])}"]
    if v["declarer"] is not None:
        lines.append(f"declarer {v['declarer']}  trump {v['trump_suit']}/{v['trump_rank']}  calls "
                     + ", ".join(f"{c} #{nn}" + (f"->{b}" if b is not None else "") for c, nn, b in v["calls"])
                     + f"  DECL {v['decl']}  captured {v['captured']}")
    for q in range(n):
        mark = "*" if v["turn"] == q else " "
        lines.append(f"{mark}{q}: {' '.join(hands[q])}"
                     + (f"   trick: {' '.join(v['trick'][q])}" if v["trick"][q] else ""))
    if v["building"]:
        lines.append("building: " + " ".join(v["building"]))
    if v["phase"] == "end":
        lines.append(f"opposition points {v['opp_points']}  winners {v['winners']}  gained {v['gained']}")
    return "\n".join(lines)
