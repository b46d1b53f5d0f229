"""Gleek notation (pure Python): cards and actions as text, the view built from the struct's
fields, the rendering, and the checking of scenario arguments; both the face (cardsim.games.gleek,
which re-exports it) and the compiled glue (_spec) use it, so the glue never imports the face.

Card identity: suit*11 + rank, suits S H D C, rank 0 = '4' .. 10 = 'A' (no 2s or 3s).
Actions: 0..43 a card (played, or discarded in the exchange), 44 PASS, 45 VIE, 46 SEE, 47 REVIE,
48..51 DECLARE an honour set, 52 DONE, 53 + n BID n."""
from __future__ import annotations

import numbers

from cardsim import cards as _cards
from cardsim.core._engine import check_int
from cardsim.core.notation import disjoint_hands
from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.gleek.info import HONOURS

# ---- card notation ------------------------------------------------------------------------------
SUITS = "SHDC"
RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HONOUR_NAMES = HONOURS
DISPLAY_ORDER = tuple(suit * 11 + r for suit in range(4) for r in range(10, -1, -1))
PHASES = ("auction", "exchange", "vie", "declare", "play", "end")
MAX_DEAD = 100_000            # dead ruffs given to a scenario: the stake (int32) stays exact
MAX_CHIPS = 1_000_000_000     # chip balances given to a scenario
# actions: 0..43 cards, then these (BID n = BID0 + n)
PASS, VIE, SEE, REVIE, DECLARE0, DONE, BID0 = 44, 45, 46, 47, 48, 52, 53


def card_str(c) -> str:
    """Card id 0..43 -> 'AS', '10H' (ParseError for any other id)."""
    if isinstance(c, bool) or not isinstance(c, numbers.Integral) or not 0 <= c < 44:
        raise ParseError(f"gleek: card id {short(c)} out of range 0..43")
    return RANKS[c % 11] + SUITS[c // 11]


def parse_suit(text):
    return _cards.parse_suit(text, "gleek")


def parse_card(text):
    """'AS', '10H', 'TD', '4♣', '♣4', lower case ok -> card id (no 2s or 3s in Gleek)."""
    rank, suit = _cards.parse_card(text, "gleek", RANKS)
    return suit * 11 + RANKS.index(rank)


def mask_to_cards(m):
    """Cards of a mask in display order: suits S H D C, high to low."""
    return _cards.mask_to_strings(m, DISPLAY_ORDER, card_str)


def cards_to_mask(cards):
    """A list of card strings (one pack: no card twice) -> mask."""
    return _cards.ids_to_mask(cards, parse_card, "gleek")


def action_str(a: int, phase: int) -> str:
    """Action id (checked by the caller) in this phase -> its text."""
    if a < 44:
        if phase == 1:                  # the exchange: discards
            return "DISCARD " + card_str(a)
        return card_str(a)
    if a == PASS:
        return "PASS"
    if a == VIE:
        return "VIE"
    if a == SEE:
        return "SEE"
    if a == REVIE:
        return "REVIE"
    if a == DONE:
        return "DONE"
    if a < DONE:
        return "DECLARE " + HONOUR_NAMES[a - DECLARE0]
    return f"BID {a - BID0}"


def parse_action(text: str, max_stock_bid: int) -> int:
    """Action text -> action id (bids up to max_stock_bid)."""
    t = " ".join(text.strip().upper().split())
    simple = {"PASS": PASS, "P": PASS, "CHECK": PASS, "FOLD": PASS, "VIE": VIE,
              "SEE": SEE, "REVIE": REVIE, "DONE": DONE}
    if t in simple:
        return simple[t]
    if t.startswith("DECLARE "):
        r = t[8:].strip()
        if r in HONOUR_NAMES:
            return DECLARE0 + HONOUR_NAMES.index(r)
    elif t.startswith("DISCARD "):
        return parse_card(t[8:])
    else:
        num = t[4:].strip() if t.startswith("BID ") else t
        if num.isdigit() and 0 <= int(num) <= max_stock_bid:
            return BID0 + int(num)
        try:
            return parse_card(t)
        except ParseError:
            pass
    raise ParseError(f"gleek: cannot parse action {short(text)}; expected a card ('AS', '10H'), "
                     f"'DISCARD AS', 'BID 13', 'PASS', 'VIE', 'SEE', 'REVIE', 'DECLARE A' or 'DONE'")


def view(f: dict, phase_name: str) -> dict:
    """The view (every fact of the state, public and hidden; for tests and display) from the
    struct's fields (`_spec.GleekSpec._fields`)."""
    bought = f["buyer"] >= 0
    return {
        "phase": phase_name, "dealer": f["dealer"], "eldest": f["eldest"],
        "turn": f["turn"] if f["phase"] != 5 else -1,
        "turnup": card_str(f["turnup"]), "trump": SUITS[f["trump"]],
        "high": f["high"], "high_bidder": f["high_bidder"],
        "passed": [q for q in range(3) if (f["passed"] >> q) & 1],
        "last_passer": next((q for q in range(3) if f["pass_rank"][q] == 2), None),
        "buyer": f["buyer"] if bought else None,
        "price": f["high"] if bought else None,
        "stock": mask_to_cards(f["stock"]), "discards": mask_to_cards(f["discards"]),
        "base": f["base"], "stake": f["stake"], "vied": bool(f["vied"]), "dead": f["dead"],
        "committed": f["committed"], "owe": f["owe"],
        "folded": [q for q in range(3) if (f["folded"] >> q) & 1],
        "pending": f["pending"],
        "showdown": bool(f["showdown"]),
        "ruff": [None if r < 0 else r for r in f["ruff"]],
        "ruff_suit": [None if r < 0 else ("SHDC" + "A")[r] for r in f["ruff_suit"]],
        "shown": [mask_to_cards(m) for m in f["shown"]],
        "declared": [[HONOUR_NAMES[r] for r in range(4) if (d >> r) & 1] for d in f["declared"]],
        "gleek_value": f["gleek_value"],
        "kept": [mask_to_cards(m) for m in f["kept"]],
        "leader": f["leader"], "trick": [None if c < 0 else card_str(c) for c in f["trick"]],
        "tricks": f["tricks"], "tricks_done": f["tricks_done"],
        "played": [mask_to_cards(m) for m in f["played"]],
        "won": [mask_to_cards(m) for m in f["won"]],
        "score": f["score"], "points_total": f["total"],
        "parts": {name: f["part"][k] for k, name in enumerate(("turnup", "stock", "ruff", "gleeks", "tricks"))},
        "deal_chips": [sum(f["part"][k][q] for k in range(5)) for q in range(3)],
        "chips": f["chips"], "deal_no": f["deal_no"],
    }


def render(v: dict, hands: list) -> str:
    """The text table of a view and the three hands (card strings)."""
    lines = [f"Gleek  phase={v['phase']}  dealer=P{v['dealer']}  turn-up {v['turnup']} (trump {v['trump']})"
             f"  deal {v['deal_no'] + (v['phase'] != 'end')}  chips {v['chips']}"]
    if v["phase"] == "auction":
        lines.append(f"auction: high {v['high']} by P{v['high_bidder']}  passed {v['passed']}")
    elif v["buyer"] is not None:
        lines.append(f"stock bought by P{v['buyer']} at {v['price']}; ruff base {v['base']} stake {v['stake']}"
                     f" folded {v['folded']}")
    for p in range(3):
        mark = "*" if v["turn"] == p else " "
        lines.append(f"{mark}P{p}: {' '.join(hands[p])}")
    if v["phase"] == "play":
        lines.append("trick: " + "  ".join(f"P{p}:{c}" for p, c in enumerate(v["trick"]) if c)
                     + f"   tricks {v['tricks']}")
    lines.append(f"this deal: {v['parts']}")
    return "\n".join(lines)


def _scenario(spec, hands, facts):
    """A fresh state at the start of the auction, for scenario tests and analysis: three
    12-card hands (card strings) and the public facts turnup (required), dealer (0..2),
    dead (consecutive dead ruffs before this deal, 0..MAX_DEAD: base stake 2 x (1 + dead))
    and chips (3 balances before this deal, scope "match"); the 7 remaining cards form the
    stock. Turn-up payment and eldest's forced bid are applied as in a real deal. Every
    argument is validated before the state is touched (ConfigError / ParseError)."""
    unknown = sorted(set(facts) - {"turnup", "dealer", "dead", "chips"})
    if unknown:
        raise ConfigError(f"gleek: unknown scenario facts {unknown}; known: turnup, dealer, dead, chips")
    if "turnup" not in facts:
        raise ConfigError("gleek: a scenario needs the turn-up card (turnup='7H')")
    masks, allm = disjoint_hands("gleek", hands, 3, cards_to_mask, 12)
    tu = parse_card(facts["turnup"])
    if (allm >> tu) & 1:
        raise ConfigError("gleek: the turn-up is in a hand")
    dealer = check_int(facts.get("dealer", 0), "gleek: dealer", 0, 2, ConfigError)
    dead = check_int(facts.get("dead", 0), "gleek: dead", 0, MAX_DEAD, ConfigError)
    chips = facts.get("chips")
    if chips is not None:
        if isinstance(chips, (str, bytes)) or not isinstance(chips, (list, tuple)) or len(chips) != 3:
            raise ConfigError(f"gleek: chips must be 3 ints, got {chips!r:.60}")
        chips = [check_int(v, "gleek: chips", -MAX_CHIPS, MAX_CHIPS, ConfigError) for v in chips]
    return spec._scenario_deal(masks, tu, dealer, dead, chips)
