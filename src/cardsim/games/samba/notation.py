"""Samba notation (pure Python): card kinds, action names and their parsing, the rendering of a
view, and the checks of card-kind lists that the glue (`_spec`) needs before it writes a struct.

Card kinds: suit*13 + rank (suits S H D C, rank 0 = '2' .. 12 = 'A'), 52 = the joker `JK`.
Actions (the action space of `_state`; `tests/games/samba` checks these constants against the
kernel's enum through `_spec.ACTION_BASES`):
0..52 stage a card of that kind, 53..105 discard that kind, 106 draw, 107 take the pile pair,
108 decline, 109 meld, 110 fail, 111/112 place a red three 3H/3D, 113 ask, 114 yes, 115 no,
then per meld slot i (0..31): 116+i lay off, 148+i take the pile onto i, 180+i take the top card
onto sequence i, 212+i merge from i, 244+i into i; 276 actions in all."""
from __future__ import annotations

from cardsim import cards as _cards
from cardsim.core._engine import check_int
from cardsim.errors import ParseError, short

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PHASES = ("draw", "meld", "answer", "end")
END_TYPES = (None, "went_out", "stock_out", "red_threes_last")
MELD_TYPES = ("", "group", "sequence", "black3")

KINDS = 53                 # card kinds; the joker is kind 52
JK = 52
DECK = 162                 # 3 x 52 + 6 jokers
MAXMELDS = 32              # meld slots per side
A_ADD, A_DISCARD, A_DRAW, A_TAKE_PAIR, A_DECLINE, A_MELD, A_FAIL = 0, 53, 106, 107, 108, 109, 110
A_RED3, A_ASK, A_YES, A_NO = 111, 113, 114, 115
A_LAYOFF, A_TAKE_LAYOFF, A_TAKE_SEQ, A_MERGE_FROM, A_MERGE_TO = 116, 148, 180, 212, 244
NUM_ACTIONS = 276
ACTION_BASES = {"A_ADD": A_ADD, "A_DISCARD": A_DISCARD, "A_DRAW": A_DRAW, "A_TAKE_PAIR": A_TAKE_PAIR,
                "A_DECLINE": A_DECLINE, "A_MELD": A_MELD, "A_FAIL": A_FAIL, "A_RED3": A_RED3,
                "A_ASK": A_ASK, "A_YES": A_YES, "A_NO": A_NO, "A_LAYOFF": A_LAYOFF,
                "A_TAKE_LAYOFF": A_TAKE_LAYOFF, "A_TAKE_SEQ": A_TAKE_SEQ, "A_MERGE_FROM": A_MERGE_FROM,
                "A_MERGE_TO": A_MERGE_TO, "NUM_ACTIONS": NUM_ACTIONS, "KINDS": KINDS, "JK": JK,
                "DECK": DECK, "MAXMELDS": MAXMELDS}


def _is_int(v) -> bool:
    return not isinstance(v, bool) and hasattr(v, "__index__")


def kind_str(k) -> str:
    """Card kind 0..52 -> 'KS', '10H', 'JK'."""
    if not _is_int(k) or not 0 <= k <= JK:
        raise ParseError(f"samba: no card kind {short(k)}; kinds are 0..{JK}")
    k = int(k)
    if k == JK:
        return "JK"
    return RANKS[k % 13] + SUITS[k // 13]


def parse_kind(text) -> int:
    """'KS', '10H', 'TD', '♦7', 'JK' -> card kind 0..52."""
    if not isinstance(text, str):
        raise ParseError(f"samba: a card must be a string like 'KS', '10H' or 'JK', got {short(text)}")
    if len(text) > 12:
        raise ParseError(f"samba: malformed card {short(text)}; expected rank (2..10, J, Q, K, A) then suit "
                         f"(S H D C), e.g. 'KS', '10H', or 'JK'")
    rank, suit = _cards.parse_card(text, "samba", RANKS, ("JK",))
    if suit == -1:
        return JK
    return suit * 13 + RANKS.index(rank)


DISPLAY_ORDER = tuple([JK] + [su * 13 + r for su in range(4) for r in range(12, -1, -1)])


def counts_to_strings(counts) -> list[str]:
    """A count per kind (53 entries) -> card strings in display order (jokers, then S H D C high
    to low)."""
    out = []
    for k in DISPLAY_ORDER:
        out.extend([kind_str(k)] * counts[k])
    return out


def check_kinds(kinds) -> None:
    """A list of card kinds that fits in the 162-card deck: ints 0..52 and no more copies than
    the deck holds (3 of each card, 6 jokers). Raises ParseError naming what is allowed."""
    if not isinstance(kinds, list):
        raise ParseError(f"samba: expected a list of card kinds, got {short(kinds)}")
    if len(kinds) > DECK:
        raise ParseError(f"samba: {len(kinds)} cards; the deck has {DECK}")
    n = [0] * KINDS
    for x in kinds:
        k = check_int(x, "samba: a card kind", 0, JK, ParseError)
        n[k] += 1
        if n[k] > (6 if k == JK else 3):
            raise ParseError(f"samba: more copies of {kind_str(k)} than the 162-card deck holds")


def action_name(a) -> str:
    """Action id -> its text (the inverse of parse_action_text)."""
    if not _is_int(a) or not 0 <= a < NUM_ACTIONS:
        raise ParseError(f"samba: no action {short(a)}; actions are 0..{NUM_ACTIONS - 1}")
    a = int(a)
    if a < A_DISCARD:
        return "+" + kind_str(a)
    if a < A_DRAW:
        return "discard " + kind_str(a - A_DISCARD)
    names = {A_DRAW: "draw", A_TAKE_PAIR: "take pair", A_DECLINE: "decline", A_MELD: "meld",
             A_FAIL: "fail", A_RED3: "red3 3H", A_RED3 + 1: "red3 3D", A_ASK: "ask", A_YES: "yes",
             A_NO: "no"}
    if a in names:
        return names[a]
    for base, word in ((A_MERGE_TO, "into"), (A_MERGE_FROM, "merge"), (A_TAKE_SEQ, "take seq"),
                       (A_TAKE_LAYOFF, "take layoff"), (A_LAYOFF, "layoff")):
        if a >= base:
            return f"{word} {a - base}"
    raise ParseError(f"samba: no action {a}")   # unreachable: every id below 276 is named above


ACTIONS = {"+": A_ADD, "discard": A_DISCARD, "draw": A_DRAW, "take pair": A_TAKE_PAIR, "decline": A_DECLINE,
           "meld": A_MELD, "fail": A_FAIL, "red3 3H": A_RED3, "red3 3D": A_RED3 + 1, "ask": A_ASK, "yes": A_YES,
           "no": A_NO, "layoff": A_LAYOFF, "take layoff": A_TAKE_LAYOFF, "take seq": A_TAKE_SEQ,
           "merge": A_MERGE_FROM, "into": A_MERGE_TO}   # first action of each range (move_to_actions)

_WORDS = {"draw": A_DRAW, "take pair": A_TAKE_PAIR, "decline": A_DECLINE, "meld": A_MELD, "fail": A_FAIL,
          "red3 3h": A_RED3, "red3 3d": A_RED3 + 1, "ask": A_ASK, "yes": A_YES, "no": A_NO}
_SLOTTED = (("into", A_MERGE_TO), ("merge", A_MERGE_FROM), ("take seq", A_TAKE_SEQ),
            ("take layoff", A_TAKE_LAYOFF), ("layoff", A_LAYOFF))


def parse_action_text(text) -> int:
    """Inverse of action_name: '+KS', 'discard 10H', 'draw', 'take pair', 'decline', 'meld',
    'fail', 'red3 3H', 'ask', 'yes', 'no', 'layoff 3', 'take layoff 0', 'take seq 1',
    'merge 2', 'into 5'."""
    if not isinstance(text, str):
        raise ParseError(f"samba: an action is a string like '+KS' or 'draw', got {short(text)}")
    t = " ".join(text.strip().lower().split())
    if t in _WORDS:
        return _WORDS[t]
    try:
        if t.startswith("+"):
            return A_ADD + parse_kind(t[1:])
        if t.startswith("discard "):
            return A_DISCARD + parse_kind(t[8:])
        for word, base in _SLOTTED:
            if t.startswith(word + " "):
                num = t[len(word) + 1:]
                if num.isascii() and num.isdigit() and len(num) <= 2 and int(num) < MAXMELDS:
                    return base + int(num)
    except (ParseError, ValueError):
        pass
    raise ParseError(f"samba: cannot parse action {short(text)}; actions: '+KS' (stage a card), 'discard KS', "
                     f"'draw', 'take pair', 'decline', 'meld', 'fail', 'red3 3H', 'ask', 'yes', 'no', "
                     f"'layoff i', 'take layoff i', 'take seq i', 'merge i', 'into i' (i = meld slot "
                     f"0..{MAXMELDS - 1})")


def render(v: dict, nplayers: int, nsides: int) -> str:
    """The text table of a view (`spec.view(state)`): header, hands, each side's melds, the
    staged cards."""
    lines = [f"Samba  {nplayers} players  phase={v['phase']}  dealer={v['dealer']}  stock={len(v['stock'])}  "
             f"pile={len(v['pile'])} top={v['pile'][-1] if v['pile'] else '-'}  scores={v['cum_scores']}"]
    for p in range(nplayers):
        mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
        lines.append(f"{mark}{p} (side {p % nsides}): {' '.join(v['hands'][p])}")
    for side in range(nsides):
        ms = "  ".join(f"[{m['slot']}{'?' if m['pending'] else ''}] {' '.join(m['cards'])}" for m in v["melds"][side])
        lines.append(f"side {side}: red3 {len(v['red3'][side])}  {ms}")
    if v["staged"] or v["take_top"]:
        lines.append(f"staged: {' '.join(v['staged'])}" + (f"  on top card {v['take_top']}" if v["take_top"] else ""))
    return "\n".join(lines)
