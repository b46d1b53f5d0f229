"""Joffre Whist: the game's static facts (`INFO`, cardsim.info.GameInfo) and the bound derivations
(exact return bounds per deal and per match, the longest game), pure Python."""
from __future__ import annotations

from cardsim.errors import ConfigError, short
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, one_hot_seat, per_seat, per_side
from cardsim.options import MATCH_ONLY, SCOPE, Option

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
    Option("slam_bonus", 50, "bonus added to row(7) when slam_value='row_plus_bonus'", kind=int, min=0, max=10_000,
           applies_when={"slam_value": ("row_plus_bonus",)}),
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
    Option("num_deals", 8, "deals in a match (scope='match')", kind=int, min=1, max=10_000, applies_when=MATCH_ONLY),
    Option("max_redeals", 10, "throw-ins allowed in one deal (all_pass='throw_in'); the next all-pass "
           "passes the deal out, scored 0-0 (D14)", kind=int, min=0, max=1000,
                  applies_when={"all_pass": ("throw_in",)}),
    SCOPE,
)


# ---- the bounds: exact returns and the longest game -------------------------------------------
# Auction actions in one auction that ends with a contract: every bid outranks the last (49 bid
# ranks: 35 plain bids, 7 TA levels, 7 JTA levels; the suit named in TA/JTA does not rank), each
# seat doubles at most once (4) and passes at most once, and the third pass after a bid ends it
# (3): 49 + 4 + 3 = 56. An all-pass auction is 4 passes. Play: 52 cards.
AUCTION_MAX = 49 + 4 + 3
PLAY_ACTIONS = 52


def deal_max_points(opts) -> int:
    """The most points one team can score in one deal under these options (a Game's .options or a
    partial dict, resolved as make() resolves them) (§6): a
    made contract (slam, or 7 odd tricks on a lower level) or a failed one (JTA: 2 x row(level);
    other strains: row(OT - 6) <= row(7)), x2 doubled (x2 for a failed JTA only with
    failed_jta_double), plus every bonus (Joffre, or the JTA Joffre bonus in a JTA contract;
    honours: the complete set, 4 cards per_card, only the ♣J in NT; royal honours) when that
    team wins all 13 tricks, so that the other team scores nothing. Each case is reachable (13
    tricks to one team, a doubled contract, one player holding both Joffre cards)."""
    return _deal_max_points(INFO.resolve(opts))


def _deal_max_points(o: dict) -> int:
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


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): the lowest and highest return any seat can get in a terminal state of this
    configuration (o = the resolved options).

    A seat's return is its team's points minus the other team's. In one deal a team scores at
    most `deal_max_points(o)` (a doubled slam, or a failed doubled JTA, plus every bonus, taken
    when one team wins all 13 tricks, so the other scores 0): hi = that, lo = -hi (teams are
    symmetric), exact. A passed-out deal (D14) scores 0. Scope 'match' adds num_deals deals:
    +-num_deals x the deal bound (each deal can reach it)."""
    hi = _deal_max_points(o) * (o["num_deals"] if o["scope"] == "match" else 1)
    return (-float(hi), float(hi))


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state (per deal in scope 'deal',
    per match in scope 'match'), for any sequence of legal actions.

    One auction ending in a contract takes at most AUCTION_MAX = 56 actions (49 strictly rising
    bid ranks, 4 doubles (one per seat), 3 passes); the play 52 cards. With all_pass='throw_in'
    at most max_redeals all-pass auctions (4 passes each) are thrown in before the deal is played
    or passed out (D14): a deal takes at most 4 * max_redeals + 56 + 52 actions (a passed-out
    deal 4 * (max_redeals + 1) <= that). With 'dealer_bids' there is no throw-in: 56 + 52. A
    match is num_deals deals (a passed-out deal counts as one)."""
    redeals = o["max_redeals"] if o["all_pass"] == "throw_in" else 0
    per_deal = 4 * redeals + AUCTION_MAX + PLAY_ACTIONS
    return per_deal * (o["num_deals"] if o["scope"] == "match" else 1)


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    "in trick play, the declaring team's progress toward its contract (tricks won / tricks needed) "
    "against the defenders' progress toward setting it (tricks won / tricks that defeat it); nobody "
    "is ahead during the auction; both partners share their team's figure")


INFO = GameInfo(
    phases=('auction', 'play', 'end'),
    name="joffre_whist", title="Joffre Whist",
    players=(4,), default_players=4,
    teams="two partnerships: seat p plays for team p % 2 (NS = 0, EW = 1)",
    sides=2,
    unit="points",
    returns_sum="zero",
    options=OPTIONS,
    presets={},
    metrics=(
        Metric("declarer", "declarer's seat (-1: no contract)", categories="seat"),
        Metric("strain", "contract strain (-1: no contract)", categories=STRAINS),
        Metric("level", "contract level 1..7 (0: no contract)"),
        Metric("doubled", "contract doubled", categories="bool"),
        Metric("made", "last contract made (-1: none)", categories="bool"),
        Metric("declarer_tricks", "tricks won by the declarer's team (-1: no contract)"),
        Metric("ns_points", "points of team NS (seats 0 and 2)"),
        Metric("ew_points", "points of team EW (seats 1 and 3)"),
        Metric("joffre_team", "team that scored the Joffre bonus (-1: none)", categories="team"),
        Metric("throw_ins", "all-pass throw-ins"),
    ),
    observation=(
        ObsBlock("hand", 52, "own hand: 1 per card held"),
        ObsBlock("played", 4 * 52, "cards played this deal by each seat 0..3 (52 each)", seats=per_seat(4)),
        ObsBlock("card_trick", 52, "trick number + 1 of each played card / 13 (0 = not played)"),
        ObsBlock("trick", 4 * 52, "current trick: the card each seat 0..3 played to it (52 each)", seats=per_seat(4)),
        ObsBlock("bid_by", 91 * 4, "auction: for each bid 0..90, one-hot of the seat that made it",
                 seats=one_hot_seat(4)),
        ObsBlock("doubled_at", 4 * 91, "auction: for each seat, one-hot of the bid it doubled", seats=per_seat(4)),
        ObsBlock("passed_at", 4 * 92, "auction: for each seat that passed, one-hot of the high bid "
                 "then (slot 0 = no bid yet, else bid + 1)", seats=per_seat(4)),
        ObsBlock("strain", 7, "contract strain NT S D C H TA JTA"),
        ObsBlock("level", 7, "contract level 1..7"),
        ObsBlock("named", 4, "suit named in a TA/JTA contract"),
        ObsBlock("declarer", 4, "declarer's seat", seats=one_hot_seat(4)),
        ObsBlock("contract_doubled", 1, "1 if the contract is doubled"),
        ObsBlock("trump", 4, "trump suit S H D C (none in NT)"),
        ObsBlock("phase", 3, "phase: auction, play, end"),
        ObsBlock("turn", 4, "seat to act (none at the end)", seats=one_hot_seat(4)),
        ObsBlock("dealer", 4, "dealer's seat", seats=one_hot_seat(4)),
        ObsBlock("observer", 4, "the observing seat", seats=one_hot_seat(4)),
        ObsBlock("tricks", 4, "tricks won by each seat / 13", seats=per_seat(4)),
        ObsBlock("ta_count", 1, "trump leads made by the TA declarer's partner / 3", seats=FIXED),
        ObsBlock("score", 2, "cumulative team scores NS, EW / 100", seats=per_side(2)),
        ObsBlock("deals_done", 1, "deals completed / num_deals"),
        ObsBlock("throw_ins", 1, "throw-ins so far / 10"),
        ObsBlock("redeals", 1, "throw-ins in this deal / 10"),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=(
        {},
        {"scope": "match", "num_deals": 2},
        {"all_pass": "dealer_bids", "honours_mode": "per_card", "jta_joffre_holder": "declarer"},
    ),
    seat_names=("N", "E", "S", "W"),       # docs/rules/joffre_whist.md §1: seats 0..3 clockwise N, E, S, W
)
