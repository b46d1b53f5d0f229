"""Joffre Whist (E. Lynch, 1909): 4 players in partnerships, an auction over seven strains with
Trump Attack and Joffre Trump Attack, whist play, a reconstructed score table.

Implements docs/rules/joffre_whist.md §1-§8 and follows its decisions D1-D14 as written:
♦10 + ♠2 are the Joffre (D1); linear unit table, replaceable (D2); slam = 2 x row(7) (D3); JTA
success with either partner holding both Joffre cards alone (D4, option); failed doubled JTA x2
(D5, option); TA needs 4 cards of the named suit (D6, option); TA opening lead by the partner (D7);
strain dominates level (D8); a doubler left alone declares the doubled contract (D9); all-pass is
a throw-in that does not count as a deal (D10, option), at most max_redeals times in one deal,
then the deal is passed out, scored 0-0 (D14); failure pays only odd tricks over 6 (D11);
JTA Joffre bonus 50 replaces 15 (D12); honours are complete-set bonuses (D13, option).

Card identity: suit*13 + rank, suits S H D C (0..3), rank 0 = '2' .. 12 = 'A'.
Actions: 0..51 play that card; 52 PASS; 53 DOUBLE; 54..144 bids in rank order
(1NT..7NT, 1S..7S, 1D..7D, 1C..7C, 1H..7H, then TA level-major with suits S H D C, then JTA).

Returns: per seat, own team's points minus the other team's (zero-sum), for the deal (scope
"deal") or the whole match (scope "match"). Raw team points are the metrics ns_points/ew_points.

Observation: float32 blocks declared once in `INFO.observation` (info.py; name, size, meaning,
in order); the kernel writes them at the offsets of the generated `_layout.pxd`
(tools/gen_layout.py), and docs/observations.md lists them.

Greedy agent: bids the cheapest legal plain-suit or NT contract its estimate reaches (high
cards + trump length + 3 tricks expected from partner), never TA/JTA, doubles only a contract
of level >= 3 when it holds 3+ quick tricks against it; in play it leads a master card if it has
one, otherwise draws trumps as declarer side with 3+ trumps, otherwise the lowest card of its
longest suit; as follower it plays low when partner already wins, else the cheapest card that
wins, else its lowest card.

Layout (the one game shape, docs/ADDING_A_GAME.md): ext/cardsim/games/joffre_whist/ holds
`_rules` (card and bid layout, bid ranking, TA length rule, follow rule, trick winner, the deal's
score, the oracles' entry points), `_state` (the state struct, the auction and the play),
`_agent` (greedy), `_observe` (observation, and resampling with the TA rule as its callback) and
`_spec` (config, vtable, the hooks that read or write the struct); `notation.py` holds the card,
bid and action text, the rendering and the scenario checks; this face holds `INFO` (info.py) and
the public oracles, and re-exports the notation. Core mechanisms used:
shuffle (deal), TrickRecord and trick_close, resample_masks with the one budget policy and
resample_rekey, GameSpec.install_game, _scenario_state (spec.scenario).
"""
from __future__ import annotations

from cardsim.core._engine import check_int
from cardsim.core.notation import disjoint_hands
from cardsim.errors import ConfigError, ParseError, short
from cardsim.info import scenario_spec
from cardsim.games.joffre_whist import _rules, _spec
from cardsim.games.joffre_whist.info import (  # noqa: F401 (re-exported)
    INFO, AUCTION_MAX, PLAY_ACTIONS, STRAINS, deal_max_points)
# card and bid notation: cardsim.games.joffre_whist.notation, re-exported
from cardsim.games.joffre_whist.notation import (  # noqa: F401 (the public notation)
                                                 SUITS, RANKS, STRAIN_NAMES, DISPLAY_ORDER, PASS, DOUBLE,
                                                 BID0, card_str, mask_to_cards, parse_suit, parse_card,
                                                 cards_to_mask, bid_str, parse_bid, _bid_index, _decode, _scenario)

NAME = INFO.name                          # for the messages below
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

def build(opts: dict):
    return _Spec(opts)


# ---- the public oracles (card strings in, checked here; the kernels in _rules) ---------------------
def _trump(trump):
    """None / 'NT' (no trump) or a suit 'S' 'H' 'D' 'C' (also ♠ ♥ ♦ ♣) -> -1 or 0..3."""
    if trump is None:
        return -1
    if not isinstance(trump, str) or len(trump) > 8:
        raise ParseError(f"joffre_whist: trump must be None, 'NT' or a suit S H D C, got {short(trump)}")
    if trump.strip().upper() in ("NT", "NONE", ""):
        return -1
    return parse_suit(trump)


def _card_list(cards, what, max_len) -> list:
    """A list or tuple of at most max_len card strings (no card twice) -> list of identities."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"joffre_whist: {what} must be a list of card strings, got {short(cards)}")
    if len(cards) > max_len:
        raise ParseError(f"joffre_whist: {what} holds at most {max_len} cards, got {len(cards)}")
    ids = [parse_card(c) for c in cards]
    if len(set(ids)) != len(ids):
        dup = next(c for c in ids if ids.count(c) > 1)
        raise ParseError(f"joffre_whist: {card_str(dup)} appears twice in {what} (one pack: every card once)")
    return ids


def trick_winner(plays: list[str], trump: str | None) -> int:
    """Index of the winning card of a trick (plays[0] leads; trump 'S'/'H'/'D'/'C' or None)."""
    if isinstance(plays, (list, tuple)) and not plays:
        raise ParseError("joffre_whist: a trick is a list of 1 to 4 cards, got an empty list")
    cards = _card_list(plays, "a trick", 4)
    return _rules.oracle_trick_winner(cards, _trump(trump))


def legal_follows(hand: list[str], led: str | None, trump: str | None) -> list[str]:
    """Cards of `hand` (at most 13 distinct cards) that may be played to a trick led by card
    `led` (None: on lead, any card); the led card is not in the hand."""
    ids = _card_list(hand, "a hand", 13)
    m = 0
    for c in ids:
        m |= 1 << c
    if led is None:
        led_suit = -1
    else:
        lc = parse_card(led)
        if lc in ids:
            raise ParseError(f"joffre_whist: the led card {card_str(lc)} cannot also be in the hand")
        led_suit = lc // 13
    return mask_to_cards(_rules.oracle_follow(m, led_suit, _trump(trump)))


def score_deal(contract: str, declarer: int, won: list[list[str]], doubled: bool = False,
               **options) -> tuple[int, int, bool]:
    """Score one deal (§6) with the engine's kernel: contract like '2D', '4JTA-S'; declarer a
    seat 0..3; won[p] = the cards in the tricks seat p won (whole tricks of 4 cards; the four
    lists hold every card of the pack exactly once); doubled True or False; options as for
    cardsim.make. Returns (NS points, EW points, made). Anything else raises ConfigError (or
    ParseError for a card or contract that does not parse) naming what is allowed."""
    decl = check_int(declarer, "joffre_whist: declarer (a seat)", 0, 3, ConfigError)
    if not isinstance(doubled, bool) and type(doubled).__name__ != "bool_":
        raise ConfigError(f"joffre_whist: doubled must be True or False, got {short(doubled)}")
    if isinstance(won, (list, tuple)):
        for q, w in enumerate(won):
            if isinstance(w, (list, tuple)) and len(w) > 52:
                raise ConfigError(f"joffre_whist: won list {q} holds {len(w)} cards; the pack has 52")
    masks, union = disjoint_hands(NAME, won, 4, cards_to_mask, what="won list")
    if union != (1 << 52) - 1:
        missing = mask_to_cards(((1 << 52) - 1) & ~union)
        raise ConfigError(f"joffre_whist: won must hold all 52 cards once each; missing {short(missing, 120)}")
    if any(len(w) % 4 for w in won):
        raise ConfigError(f"joffre_whist: won lists are whole tricks of 4 cards, got sizes {[len(w) for w in won]}")
    bi = parse_bid(contract)
    spec = build(INFO.resolve_kwargs(options))
    lvl, strain, named = _decode(bi)
    return _rules.oracle_score(spec, masks, [len(w) // 4 for w in won], decl, lvl, strain, named,
                               int(bool(doubled)))


def scenario(game, hands: list[list[str]], dealer: int = 3):
    """A state at the start of the auction with the given hands (for scenarios and analysis).
    Same as game.spec.scenario(hands, dealer=...); the state is not replayable. `game` is a
    cardsim.make('joffre_whist', ...) game; hands are four disjoint lists of 13 cards (every 4x13
    split of the pack is a real deal, so every accepted scenario is reachable)."""
    return _scenario(INFO.game_of(game).spec, hands, dealer)


_Spec = scenario_spec(_spec.JoffreWhistSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay joffre_whist --html`, cardsim.replay.table_of) draws of
    a position: the auction or the contract and trump, the trick, and the tricks and points of N & S
    and E & W. `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        names = INFO.seat_names_for(4)
        teams = INFO.side_names(4, 2)
        zones = [{"name": "trick", "trick": True,
                  "groups": [{"seat": p, "cards": [c]} for p, c in enumerate(v["trick"]) if c is not None]}]
        facts = [("dealer", names[v["dealer"]])]
        if v["contract"] is not None:
            facts.append(("contract", f"{v['contract']} by {names[v['declarer']]}"
                          + (" doubled" if v["contract_doubled"] else "")))
            facts.append(("trump", v["trump"] or "none"))
        elif v["high"] is not None:
            facts.append(("high bid", f"{v['high']} by {names[v['high_bidder']]}" + (" doubled" if v["doubled"] else "")))
        if v["passed"] and v["phase"] == "auction":
            facts.append(("passed", ", ".join(names[p] for p in v["passed"])))
        tricks = list(v["tricks"])
        scores = [{"label": "tricks", "cols": names if len(tricks) == 4 else teams, "values": tricks},
                  {"label": "deal points", "cols": teams, "values": list(v["deal_points"])},
                  {"label": "match points", "cols": teams, "values": list(v["score"])}]
        return {"zones": zones, "facts": facts, "scores": scores}
