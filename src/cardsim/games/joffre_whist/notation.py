"""Joffre Whist notation (pure Python): cards, bids and actions as text, the rendering of a view,
and the checking of scenario arguments; both the face (cardsim.games.joffre_whist, which
re-exports it) and the compiled glue (_spec) use it, so the glue never imports the face.

Card identity: suit*13 + rank, suits S H D C (0..3), rank 0 = '2' .. 12 = 'A'.
Actions: 0..51 play that card; 52 PASS; 53 DOUBLE; 54..144 bids in rank order
(1NT..7NT, 1S..7S, 1D..7D, 1C..7C, 1H..7H, then TA level-major with suits S H D C, then JTA)."""
from __future__ import annotations

from cardsim import cards as _cards
from cardsim.core._engine import check_int
from cardsim.core.notation import SuitedPack, disjoint_hands
from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.joffre_whist.info import STRAINS

# ---- card and bid notation ------------------------------------------------------------------------
SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
STRAIN_NAMES = STRAINS
_PACK = SuitedPack("joffre_whist", RANKS)
DISPLAY_ORDER = _PACK.display_order
card_str = _PACK.card_str            # identity -> 'AS', '10H'
mask_to_cards = _PACK.mask_to_cards  # mask -> cards in display order (S H D C, high to low)
PASS, DOUBLE, BID0 = 52, 53, 54      # actions: 0..51 cards, PASS, DOUBLE, 54..144 bids


def parse_suit(text):
    """'S' / '♥' -> 0..3 (ParseError otherwise, quoting at most 40 characters of the input)."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"joffre_whist: a suit is one of S H D C (or ♠ ♥ ♦ ♣), got {short(text, 40)}")
    return _PACK.parse_suit(text)


def parse_card(text):
    """'AS', '10H', 'TD', '7♦' -> identity (ParseError otherwise, quoting at most 40 characters)."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"joffre_whist: a card is a string like 'AS' or '10H', got {short(text, 40)}")
    return _PACK.parse_card(text)


def cards_to_mask(cards):
    """A list of card strings -> mask (a bare string, a bad card or a card given twice: ParseError)."""
    return _cards.ids_to_mask(cards, parse_card, "joffre_whist")


def _bid_index(level: int, strain: int, named: int) -> int:
    if strain < 5:
        return strain * 7 + level - 1
    if strain == 5:
        return 35 + (level - 1) * 4 + named
    return 63 + (level - 1) * 4 + named


def _decode(bi: int):
    """Bid index 0..90 -> (level 1..7, strain 0..6 NT S D C H TA JTA, named suit or -1)."""
    if bi < 35:
        return bi % 7 + 1, bi // 7, -1
    if bi < 63:
        return (bi - 35) // 4 + 1, 5, (bi - 35) % 4
    return (bi - 63) // 4 + 1, 6, (bi - 63) % 4


def bid_str(bi: int) -> str:
    """Bid index 0..90 -> '3D', '1NT', '2TA-S'."""
    lvl, strain, named = _decode(bi)
    if strain >= 5:
        return f"{lvl}{STRAIN_NAMES[strain]}-{SUITS[named]}"
    return f"{lvl}{STRAIN_NAMES[strain]}"


def parse_bid(text) -> int:
    """'3D', '1NT', '2TA-S', '4JTA♥', '2 TA S' -> bid index 0..90."""
    if not isinstance(text, str) or not text.strip() or len(text) > 16:
        raise ParseError(f"joffre_whist: malformed bid {short(text, 40)}; e.g. '3D', '1NT', '2TA-S', '4JTA-H'")
    t = text.strip().upper().replace(" ", "").replace("-", "").replace(":", "")
    if t[:1] in ("1", "2", "3", "4", "5", "6", "7"):          # ASCII digits only ('٣NT' is no bid)
        lvl = int(t[0])
        rest = t[1:]
        for strain, name in ((6, "JTA"), (5, "TA")):
            if rest.startswith(name) and len(rest) == len(name) + 1 and rest[-1] in _cards.SUIT_ALIASES:
                return _bid_index(lvl, strain, _cards.SUIT_ALIASES[rest[-1]])
        if rest == "NT":
            return _bid_index(lvl, 0, -1)
        if rest in _cards.SUIT_ALIASES:
            return _bid_index(lvl, (1, 4, 2, 3)[_cards.SUIT_ALIASES[rest]], -1)
    raise ParseError(f"joffre_whist: malformed bid {short(text, 40)}; e.g. '3D', '1NT', '2TA-S', '4JTA-H'")


def action_str(a: int) -> str:
    """Action id (checked by the caller) -> 'AS', 'PASS', 'DOUBLE', 'BID 3D'."""
    if a < 52:
        return card_str(a)
    if a == PASS:
        return "PASS"
    if a == DOUBLE:
        return "DOUBLE"
    return "BID " + bid_str(a - BID0)


def parse_action(text: str, phase: int) -> int:
    """Action text in phase 0 (auction), 1 (play) or 2 (end) -> action id."""
    t = text.strip().upper()
    if t in ("PASS", "P"):
        return PASS
    if t in ("DOUBLE", "DBL", "X"):
        return DOUBLE
    if t.startswith("BID"):
        t = t[3:]
    elif phase != 0:
        # in play '2S' is the card; in the auction it is the bid (cards cannot be played there)
        try:
            return parse_card(t)
        except ParseError:
            pass
    try:
        return BID0 + parse_bid(t)
    except (ParseError, ValueError):
        pass
    # name what this phase allows: the auction takes bids, PASS and DOUBLE; play takes cards
    if phase == 0:
        allowed = ("in the auction: a bid ('3D', '1NT', '2TA-S', '4JTA-H'), 'PASS' or "
                   "'DOUBLE' (cards are played only once the auction is over)")
    elif phase == 1:
        allowed = "in play: a card ('AS', '10H')"
    else:
        allowed = "nothing: the deal is over"
    raise ParseError(f"joffre_whist: cannot parse action {short(text)}; expected {allowed}")


def render(v: dict, hands: list) -> str:
    """The text table of a view (`spec.view(state)`) and the four hands (card strings)."""
    seats = "NESW"
    lines = [f"Joffre Whist  phase={v['phase']}  dealer={seats[v['dealer']]}  "
             f"score NS {v['score'][0]} EW {v['score'][1]}  deal {v['deal_no'] + (v['phase'] != 'end')}"]
    if v["declarer"] is not None:
        lines.append(f"contract {v['contract']}{' doubled' if v['contract_doubled'] else ''} by "
                     f"{seats[v['declarer']]}  trump {v['trump'] or 'none'}  tricks {v['tricks']}")
    elif v["phase"] == "auction":
        lines.append(f"auction: high {v['high'] or '-'}"
                     + (f" by {seats[v['high_bidder']]}" if v['high'] else "")
                     + (" doubled" if v['doubled'] else "") + f"  passed {[seats[p] for p in v['passed']]}")
    for p in range(4):
        mark = "*" if v["phase"] != "end" and v["turn"] == p else " "
        lines.append(f"{mark}{seats[p]}: {' '.join(hands[p])}")
    if v["phase"] == "play":
        lines.append("trick: " + "  ".join(f"{seats[p]}:{c}" for p, c in enumerate(v["trick"]) if c))
    return "\n".join(lines)


def _scenario(spec, hands, dealer):
    """Check and convert scenario()'s arguments, then build the state with the spec's struct
    setter: hands[q] is seat q's 13 cards (card strings), `dealer` the dealing seat."""
    masks, _ = disjoint_hands("joffre_whist", hands, 4, cards_to_mask, 13)
    d = check_int(dealer, "joffre_whist: dealer", 0, 3, ConfigError)
    return spec._scenario_deal(d, masks)
