"""Joffre Whist: options, presets and rule oracles (docs/rules/joffre_whist.md).

See the docstring of the compiled module `cardsim.games._joffre_whist` for the action space,
the observation layout, the returns and the greedy agent.
"""
from __future__ import annotations


from cardsim.core._engine import check_int
from cardsim.core.notation import disjoint_hands
from cardsim.errors import ConfigError, ParseError, short
from cardsim.games import _joffre_whist as _k
from cardsim.options import SCOPE, Option

NAME = "joffre_whist"
PLAYERS = (4,)
DEFAULT_PLAYERS = 4
STRAINS = ("NT", "S", "D", "C", "H", "TA", "JTA")
DEFAULT_UNIT_TABLE = (6, 8, 10, 12, 14, 16, 20)


def _unit_table(value):
    """A 7-tuple of ints in strain order NT S D C H TA JTA, or a dict overriding some strains."""
    table = list(DEFAULT_UNIT_TABLE)
    if isinstance(value, dict):
        for k, v in value.items():
            key = str(k).upper()
            if key not in STRAINS:
                raise ConfigError(f"joffre_whist: unit_table key {short(k)} unknown; keys: {list(STRAINS)}")
            table[STRAINS.index(key)] = v
    elif isinstance(value, (list, tuple)) and len(value) == 7:
        table = list(value)
    else:
        raise ConfigError(f"joffre_whist: unit_table must be 7 ints (NT S D C H TA JTA) or a dict by strain, got {short(value)}")
    for v in table:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10_000:
            raise ConfigError(f"joffre_whist: unit_table values must be ints in 0..10000, got {short(v)}")
    return tuple(table)


OPTIONS = (
    Option("unit_table", DEFAULT_UNIT_TABLE, "points per odd trick by strain NT S D C H TA JTA (D2)",
           validate=_unit_table),
    Option("slam_value", "double_row", "slam = 2 x row(7) (D3), or row(7) + slam_bonus",
           choices=("double_row", "row_plus_bonus")),
    Option("slam_bonus", 50, "bonus added to row(7) when slam_value='row_plus_bonus'", kind=int, min=0, max=10_000),
    Option("jta_joffre_holder", "either", "JTA needs both Joffre cards with one partner (either) or the declarer (D4)",
           choices=("either", "declarer")),
    Option("ta_length_rule", "named_suit", "TA needs 4+ cards of the named suit, or of any suit (D6)",
           choices=("named_suit", "any_suit")),
    Option("failed_jta_double", True, "a failed doubled JTA pays x2 (D5)", kind=bool),
    Option("honours_mode", "set", "honours: 2 for the complete set, or 2 per captured trump honour (D13)",
           choices=("set", "per_card")),
    Option("all_pass", "throw_in", "all four pass: throw-in and redeal, or the dealer must bid (D10)",
           choices=("throw_in", "dealer_bids")),
    Option("joffre_bonus", 15, "Joffre bonus", kind=int, min=0, max=10_000),
    Option("jta_joffre_bonus", 50, "Joffre bonus in a JTA contract (D12)", kind=int, min=0, max=10_000),
    Option("honours_bonus", 2, "honours bonus", kind=int, min=0, max=10_000),
    Option("royal_bonus", 8, "royal honours bonus", kind=int, min=0, max=10_000),
    Option("num_deals", 8, "deals in a match (scope='match')", kind=int, min=1, max=10_000),
    Option("max_redeals", 10, "throw-ins allowed in one deal (all_pass='throw_in'); the next all-pass "
           "passes the deal out, scored 0-0 (D14)", kind=int, min=0, max=1000),
    SCOPE,
)
PRESETS: dict[str, dict] = {}

# Configurations the generic conformance suite runs (tests/conformance).
CONFORMANCE_CONFIGS = (
    {},
    {"scope": "match", "num_deals": 2},
    {"all_pass": "dealer_bids", "honours_mode": "per_card", "jta_joffre_holder": "declarer"},
)


def build(opts: dict):
    return _k.JoffreWhistSpec(opts)


def _short(value, limit=60) -> str:
    r = repr(value)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def _trump(trump):
    """None / 'NT' (no trump) or a suit 'S' 'H' 'D' 'C' (also ♠ ♥ ♦ ♣) -> -1 or 0..3."""
    if trump is None:
        return -1
    if not isinstance(trump, str) or len(trump) > 8:
        raise ParseError(f"joffre_whist: trump must be None, 'NT' or a suit S H D C, got {_short(trump)}")
    if trump.strip().upper() in ("NT", "NONE", ""):
        return -1
    return _k.parse_suit(trump)


def _card_list(cards, what, max_len) -> list:
    """A list or tuple of at most max_len card strings (no card twice) -> list of identities."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"joffre_whist: {what} must be a list of card strings, got {_short(cards)}")
    if len(cards) > max_len:
        raise ParseError(f"joffre_whist: {what} holds at most {max_len} cards, got {len(cards)}")
    ids = [_k.parse_card(c) for c in cards]
    if len(set(ids)) != len(ids):
        dup = next(c for c in ids if ids.count(c) > 1)
        raise ParseError(f"joffre_whist: {_k.card_str(dup)} appears twice in {what} (one pack: every card once)")
    return ids


def trick_winner(plays: list[str], trump: str | None) -> int:
    """Index of the winning card of a trick (plays[0] leads; trump 'S'/'H'/'D'/'C' or None)."""
    if isinstance(plays, (list, tuple)) and not plays:
        raise ParseError("joffre_whist: a trick is a list of 1 to 4 cards, got an empty list")
    cards = _card_list(plays, "a trick", 4)
    return _k.oracle_trick_winner(cards, _trump(trump))


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
        lc = _k.parse_card(led)
        if lc in ids:
            raise ParseError(f"joffre_whist: the led card {_k.card_str(lc)} cannot also be in the hand")
        led_suit = lc // 13
    return _k.mask_to_cards(_k.oracle_follow(m, led_suit, _trump(trump)))


def score_deal(contract: str, declarer: int, won: list[list[str]], doubled: bool = False,
               **options) -> tuple[int, int, bool]:
    """Score one deal (§6) with the engine's kernel: contract like '2D', '4JTA-S'; declarer a
    seat 0..3; won[p] = the cards in the tricks seat p won (whole tricks of 4 cards; the four
    lists hold every card of the pack exactly once); doubled True or False; options as for
    cardsim.make. Returns (NS points, EW points, made). Anything else raises ConfigError (or
    ParseError for a card or contract that does not parse) naming what is allowed."""
    from cardsim.game import make

    decl = check_int(declarer, "joffre_whist: declarer (a seat)", 0, 3, ConfigError)
    if not isinstance(doubled, bool) and type(doubled).__name__ != "bool_":
        raise ConfigError(f"joffre_whist: doubled must be True or False, got {_short(doubled)}")
    if isinstance(won, (list, tuple)):
        for q, w in enumerate(won):
            if isinstance(w, (list, tuple)) and len(w) > 52:
                raise ConfigError(f"joffre_whist: won list {q} holds {len(w)} cards; the pack has 52")
    masks, union = disjoint_hands(NAME, won, 4, _k.cards_to_mask, what="won list")
    if union != (1 << 52) - 1:
        missing = _k.mask_to_cards(((1 << 52) - 1) & ~union)
        raise ConfigError(f"joffre_whist: won must hold all 52 cards once each; missing {_short(missing, 120)}")
    if any(len(w) % 4 for w in won):
        raise ConfigError(f"joffre_whist: won lists are whole tricks of 4 cards, got sizes {[len(w) for w in won]}")
    bi = _k.parse_bid(contract)
    spec = make(NAME, **options).spec
    lvl, strain, named = _decode(bi)
    return _k.oracle_score(spec, masks, [len(w) // 4 for w in won], decl, lvl, strain, named, int(bool(doubled)))


def _decode(bi: int):
    if bi < 35:
        return bi % 7 + 1, bi // 7, -1
    if bi < 63:
        return (bi - 35) // 4 + 1, 5, (bi - 35) % 4
    return (bi - 63) // 4 + 1, 6, (bi - 63) % 4


def scenario(game, hands: list[list[str]], dealer: int = 3):
    """A state at the start of the auction with the given hands (for scenarios and analysis).
    Same as game.spec.scenario(hands, dealer=...); the state is not replayable. `game` is a
    cardsim.make('joffre_whist', ...) game; hands are four disjoint lists of 13 cards (every 4x13
    split of the pack is a real deal, so every accepted scenario is reachable)."""
    _check_game(game)
    return game.spec.scenario(hands, dealer=dealer)


def _check_game(game):
    from cardsim.game import Game

    if not isinstance(game, Game) or game.name != NAME:
        raise ConfigError(f"joffre_whist: need a game made by cardsim.make('joffre_whist', ...), got {_short(game)}")


# ---- the shared protocol: episode and return bounds ---------------------------------------------
def _resolved(opts) -> dict:
    """opts resolved and checked as cardsim.make resolves them (cardsim.game.resolved_options)."""
    from cardsim.game import resolved_options

    return resolved_options(NAME, opts)


# Auction actions in one auction that ends with a contract: every bid outranks the last (49 bid
# ranks: 35 plain bids, 7 TA levels, 7 JTA levels; the suit named in TA/JTA does not rank), each
# seat doubles at most once (4) and passes at most once, and the third pass after a bid ends it
# (3): 49 + 4 + 3 = 56. An all-pass auction is 4 passes. Play: 52 cards.
AUCTION_MAX = 49 + 4 + 3
PLAY_ACTIONS = 52


def deal_max_points(opts) -> int:
    """The most points one team can score in one deal under these options (§6): a made
    contract (slam, or 7 odd tricks on a lower level) or a failed one (JTA: 2 x row(level);
    other strains: row(OT - 6) <= row(7)), x2 doubled (x2 for a failed JTA only with
    failed_jta_double), plus every bonus (Joffre, or the JTA Joffre bonus in a JTA contract;
    honours: the complete set, 4 cards per_card, only the ♣J in NT; royal honours) when that
    team wins all 13 tricks, so that the other team scores nothing. Each case is reachable (13
    tricks to one team, a doubled contract, one player holding both Joffre cards)."""
    o = _resolved(opts)
    u = o["unit_table"]
    best = 0
    for strain in range(7):
        row7 = 7 * u[strain]
        slam = 2 * row7 if o["slam_value"] == "double_row" else row7 + o["slam_bonus"]
        made = 2 * max(slam, row7)                       # doubled; 7 odd tricks on a lower level
        if strain == 6:
            failed = 2 * row7 * (2 if o["failed_jta_double"] else 1)
            joffre = o["jta_joffre_bonus"]
        else:
            failed = 2 * row7
            joffre = o["joffre_bonus"]
        if strain == 0:
            honours = o["honours_bonus"]                 # NT: the ♣J only
        else:
            honours = o["honours_bonus"] * (4 if o["honours_mode"] == "per_card" else 1)
        best = max(best, max(made, failed) + joffre + honours + o["royal_bonus"])
    return best


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): the lowest and highest return any seat can get in a terminal state of this
    configuration (opts = cardsim.make('joffre_whist', ...).options).

    A seat's return is its team's points minus the other team's. In one deal a team scores at
    most `deal_max_points(opts)` (a doubled slam, or a failed doubled JTA, plus every bonus,
    taken when one team wins all 13 tricks, so the other scores 0): hi = that, lo = -hi (teams
    are symmetric), exact. A passed-out deal (D14) scores 0. Scope 'match' adds num_deals deals:
    +-num_deals x the deal bound (each deal can reach it)."""
    o = _resolved(opts)
    hi = deal_max_points(o) * (o["num_deals"] if o["scope"] == "match" else 1)
    return (-float(hi), float(hi))


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state (per deal in scope 'deal',
    per match in scope 'match'), for any sequence of legal actions.

    One auction ending in a contract takes at most AUCTION_MAX = 56 actions (49 strictly rising
    bid ranks, 4 doubles (one per seat), 3 passes); the play 52 cards. With all_pass='throw_in'
    at most max_redeals all-pass auctions (4 passes each) are thrown in before the deal is played
    or passed out (D14): a deal takes at most 4 * max_redeals + 56 + 52 actions (a passed-out
    deal 4 * (max_redeals + 1) <= that). With 'dealer_bids' there is no throw-in: 56 + 52. A
    match is num_deals deals (a passed-out deal counts as one)."""
    o = _resolved(opts)
    redeals = o["max_redeals"] if o["all_pass"] == "throw_in" else 0
    per_deal = 4 * redeals + AUCTION_MAX + PLAY_ACTIONS
    return per_deal * (o["num_deals"] if o["scope"] == "match" else 1)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
