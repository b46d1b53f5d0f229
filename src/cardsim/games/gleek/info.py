"""Gleek: the game's static facts (`INFO`, cardsim.info.GameInfo) and the bound derivations (return
bounds per deal and per match, the longest game), pure Python."""
from __future__ import annotations

import numbers

from cardsim.errors import ConfigError, short
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, one_hot_seat, per_seat
from cardsim.options import MATCH_ONLY, SCOPE, Option

HONOURS = ("A", "K", "Q", "J")


def _table(name, default, multiple_of=1):
    def check(value):
        if isinstance(value, dict):
            table = list(default)
            for k, v in value.items():
                key = str(k).upper()
                if key not in HONOURS:
                    raise ConfigError(f"gleek: {name} key {short(k)} unknown; keys: {list(HONOURS)}")
                table[HONOURS.index(key)] = v
        elif isinstance(value, (list, tuple)) and len(value) == 4:
            table = list(value)
        else:
            raise ConfigError(f"gleek: {name} must be 4 ints (A K Q J) or a dict by rank, got {short(value)}")
        for v in table:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1000:
                raise ConfigError(f"gleek: {name} values must be ints in 0..1000, got {short(v)}")
            if v % multiple_of:
                raise ConfigError(f"gleek: {name} values must be multiples of {multiple_of} "
                                  f"(so that the average T/3 is a whole number of chips), got {short(v)}")
        return tuple(table)
    return check


def _tiddy(value):
    """4 or 2, as an int (not 4.0 nor a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value not in (4, 2):
        raise ConfigError(f"gleek: option 'tiddy_turnup_pay' must be one of [4, 2], got {short(value)}")
    return int(value)


OPTIONS = (
    Option("tiddy_turnup_pay", 4, "a turned-up 4 (Tiddy): each non-dealer pays the dealer 4, or 2 (Cotgrave)",
           validate=_tiddy),
    Option("towser_tumbler", False, "turn-up 5 / 6 pays 5 / 6 from each non-dealer", kind=bool),
    Option("stock_opening_bid", 12, "eldest's forced opening bid for the stock (12, Cotgrave 13)",
           kind=int, min=0, max=960),
    Option("stock_raise", "any", "a bid may be any higher number up to max_stock_bid, or exactly +1",
           choices=("any", "plus_one")),
    Option("stock_odd_chip", "last_passer", "odd chip of an odd price: to the last passer (D13), or eldest (Cotton)",
           choices=("last_passer", "eldest")),
    Option("stock_payment", "halves", "the buyer pays half the price to each opponent, or the full price to each",
           choices=("halves", "full_each")),
    Option("exchange_order", "discard_first", "buyer discards 7 then takes the stock (D3), or takes then discards",
           choices=("discard_first", "take_first")),
    Option("honour_scoring", "held", "trump honours count for the player who held them, or who won them in a trick",
           choices=("held", "won")),
    Option("fold_pays", "committed", "a folding player owes what he committed (D5), or the current stake",
           choices=("committed", "stake")),
    Option("gleek_declaration", "automatic", "gleeks/mournivals declared automatically (D9), or optional per set",
           choices=("automatic", "optional")),
    Option("max_stock_bid", 40, "highest bid for the stock (engine cap, D2)", kind=int, min=1, max=960),
    Option("max_revies", 3, "revies allowed per deal (engine cap, D2)", kind=int, min=0, max=10),
    Option("honour_values", (15, 3, 3, 9), "trump honour values A K Q J (multiples of 3; D1)",
           validate=_table("honour_values", (15, 3, 3, 9), 3)),
    Option("gleek_values", (4, 3, 2, 1), "gleek (3 of a rank) from each opponent, A K Q J (D6)",
           validate=_table("gleek_values", (4, 3, 2, 1))),
    Option("mournival_values", (8, 6, 4, 2), "mournival (4 of a rank) from each opponent, A K Q J (D6)",
           validate=_table("mournival_values", (8, 6, 4, 2))),
    Option("trick_value", 3, "points per trick in the trick settlement", kind=int, min=0, max=1000),
    Option("num_deals", 6, "deals in a match (scope='match'; D11)", kind=int, min=1, max=10_000,
           applies_when=MATCH_ONLY),
    Option("starting_chips", 200, "chips each player starts a match with (D11)", kind=int, min=1, max=1_000_000,
           applies_when=MATCH_ONLY),
    SCOPE,
)

# Published variants (docs/rules/gleek.md §8, sources S6 S7 S11).
PRESETS: dict[str, dict] = {
    "cotgrave": {"stock_opening_bid": 13, "tiddy_turnup_pay": 2},
    "cotton": {"stock_odd_chip": "eldest", "stock_raise": "plus_one"},
    "parlett": {"exchange_order": "take_first"},
}

# Configurations the generic conformance suite runs (tests/conformance).
_CONFORMANCE_CONFIGS = (
    {},
    {"scope": "match", "num_deals": 3},
    {"variant": "cotgrave", "gleek_declaration": "optional", "fold_pays": "stake", "honour_scoring": "won",
     "exchange_order": "take_first", "towser_tumbler": True, "stock_payment": "full_each",
     "stock_odd_chip": "eldest", "stock_raise": "plus_one", "max_stock_bid": 20, "max_revies": 1},
    {"variant": "cotton"},
    {"variant": "parlett", "scope": "match", "num_deals": 2, "gleek_declaration": "optional", "starting_chips": 40},
)



# ---- the bounds ---------------------------------------------------------------------------------
def _deal_range(o: dict, dead: int) -> tuple[int, int]:
    """(lo, hi): a seat's chip change in one deal whose ruff base is 2 x (1 + dead); see
    return_bounds for the derivation."""
    pay = max(o["tiddy_turnup_pay"], 6 if o["towser_tumbler"] else 0)
    bid = o["max_stock_bid"]
    if o["stock_payment"] == "full_each":
        stock_in, stock_out = bid, 2 * bid
    else:
        stock_in, stock_out = (bid + 1) // 2, bid
    stake = 2 * (1 + dead) * 2 ** o["max_revies"]
    g, m = o["gleek_values"], o["mournival_values"]
    best_v = 0                                             # V of one 12-card hand at most
    for choice in range(3 ** 4):
        cards = v = 0
        for r in range(4):
            k = (choice // 3 ** r) % 3
            cards += (0, 3, 4)[k]
            v += (0, g[r], m[r])[k]
        if cards <= 12:
            best_v = max(best_v, v)
    others_v = sum(max(g[r], m[r]) for r in range(4))
    total = 12 * o["trick_value"] + sum(o["honour_values"])
    hi = 2 * pay + stock_in + 2 * stake + 2 * best_v + 2 * total // 3
    lo = -pay - stock_out - stake - others_v - total // 3
    return lo, hi


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return (chips) of any seat in a terminal
    state of this configuration (o: the resolved options, INFO.return_bounds resolves them).

    Derivation (docs/rules/gleek.md "Bounds"), per deal and seat, summing the five settlement
    steps (§6) at their extremes: turn-up: the dealer gets 2 p, the others pay p (p = the Tiddy
    pay, or 6 with towser_tumbler); stock (price h <= max_stock_bid): the buyer pays h (halves)
    or 2 h (full_each), an opponent gets at most ceil(h / 2) or h; ruff: the stake is at most
    B x 2^max_revies with base B = 2 (1 + dead) (dead = 0 at a new deal), a winner takes at most
    what two losers owe (2 S), a loser pays at most S; gleeks: a seat gets 2 V - V' - V'' with V
    the best value of a 12-card hand (sets of 3 or 4 cards) and loses at most the value of every
    rank's best set (each rank's set is in one hand only); tricks: score - T/3 with 0 <= score
    <= T, T = 12 trick_value + the honour values: in [-T/3, 2T/3]. A match of N = num_deals deals
    (dead <= N - 1) is bounded by N times the deal bounds, and also because it stops once a
    seat has <= 0 chips: before its last deal every seat had >= 1 chip, so a return lies in
    [1 - starting + lo_deal, 2 (starting - 1) + hi_deal]; the tighter of the two is used."""
    if o["scope"] != "match":
        lo, hi = _deal_range(o, 0)
        return (float(lo), float(hi))
    n = o["num_deals"]
    lo, hi = _deal_range(o, n - 1)
    start = o["starting_chips"]
    return (float(max(n * lo, 1 - start + lo)), float(min(n * hi, 2 * (start - 1) + hi)))


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play.

    Derivation (docs/rules/gleek.md "Bounds"): auction: every bid raises the price from the
    forced opening bid to at most max_stock_bid, plus the two passes that end it; exchange: 7
    discards; vying: at most 3 open-round actions (two checks and a vie, or three checks), then
    at most 2 responses per stake (pending holds two players; a revie, at most max_revies of
    them, refills it); optional declarations: at most 4 sets in all (a rank's 3 or 4 cards are
    in one hand) and one DONE per player; 36 cards in 12 tricks. A match has num_deals deals."""
    deal = (o["max_stock_bid"] - o["stock_opening_bid"] + 2) + 7 + (3 + 2 * (o["max_revies"] + 1)) + 36
    if o["gleek_declaration"] == "optional":
        deal += 4 + 3
    return deal * (o["num_deals"] if o["scope"] == "match" else 1)


def _check_options(o: dict) -> None:
    """The cross-option rule: eldest's forced opening bid is a bid (<= max_stock_bid)."""
    if o["stock_opening_bid"] > o["max_stock_bid"]:
        raise ConfigError(f"gleek: stock_opening_bid ({o['stock_opening_bid']}) must not exceed "
                          f"max_stock_bid ({o['max_stock_bid']})")


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    'the chips won so far in the deal: the returns themselves, which move as the turn-up, stock, ruff'
    ' and gleeks are paid during the deal')


INFO = GameInfo(
    phases=('auction', 'exchange', 'vie', 'declare', 'play', 'end'),
    name="gleek", title="Gleek",
    players=(3,), default_players=3,
    teams="none: each for himself",
    unit="chips",
    returns_sum="zero",
    options=OPTIONS,
    presets=PRESETS,
    metrics=(
        Metric("dealer", "dealer's seat", categories="seat"),
        Metric("buyer", "seat that bought the stock (-1: none)", categories="seat"),
        Metric("price", "price paid for the stock (-1: not bought)"),
        Metric("vied", "someone vied the ruff", categories="bool"),
        Metric("stake", "final ruff stake (0: no vie)"),
        Metric("showdown", "the ruff went to a showdown", categories="bool"),
        Metric("trump", "trump suit", categories=("S", "H", "D", "C")),
        Metric("discarded_honours", "honour value of the trumps the buyer discarded"),
        Metric("points_total", "T: trick-settlement points in play"),
        Metric("deals", "deals completed"),
    ),
    observation=(
        ObsBlock("hand", 44, "own hand: 1 per card held"),
        ObsBlock("discards", 44, "own discards (the buyer only)", seats=FIXED),
        ObsBlock("turnup", 44, "the turned-up card (trump indicator)"),
        ObsBlock("played", 3 * 44, "cards played this deal by each seat 0..2 (44 each)", seats=per_seat(3)),
        ObsBlock("trick", 3 * 44, "current trick: the card each seat 0..2 played to it (44 each)", seats=per_seat(3)),
        ObsBlock("shown", 3 * 44, "cards each seat showed (declared sets, ruff showdown; 44 each)", seats=per_seat(3)),
        ObsBlock("phase", 6, "phase: auction, exchange, vie, declare, play, end"),
        ObsBlock("turn", 3, "seat to act (none at the end)", seats=one_hot_seat(3)),
        ObsBlock("dealer", 3, "dealer's seat", seats=one_hot_seat(3)),
        ObsBlock("observer", 3, "the observing seat", seats=one_hot_seat(3)),
        ObsBlock("high", 1, "auction: high bid / 100"),
        ObsBlock("high_bidder", 3, "auction: seat of the high bid", seats=one_hot_seat(3)),
        ObsBlock("pass_order", 3 * 3, "auction: per seat, one-hot none / first / second passer", seats=per_seat(3)),
        ObsBlock("last_bid", 3, "auction: last bid of each seat / 100", seats=per_seat(3)),
        ObsBlock("buyer", 3, "seat that bought the stock", seats=one_hot_seat(3)),
        ObsBlock("discards_made", 1, "discards made by the buyer / 7", seats=FIXED),
        ObsBlock("stock_taken", 1, "1 once the buyer took the stock", seats=FIXED),
        ObsBlock("vie_open", 1, "vie: 1 in the open round"),
        ObsBlock("open_acted", 1, "vie: open-round actions / 3"),
        ObsBlock("vied", 1, "vie: someone vied"),
        ObsBlock("revies", 1, "vie: revies / 4"),
        ObsBlock("stake", 1, "vie: stake / 100"),
        ObsBlock("base", 1, "vie: base stake / 100"),
        ObsBlock("committed", 3, "vie: chips each seat committed / 100", seats=per_seat(3)),
        ObsBlock("owe", 3, "vie: what each seat owes if it loses / 100", seats=per_seat(3)),
        ObsBlock("folded", 3, "vie: seats that folded", seats=per_seat(3)),
        ObsBlock("checked", 3, "vie: seats that checked in the open round", seats=per_seat(3)),
        ObsBlock("pending", 3 * 3, "vie: for each pending-list position, one-hot of the seat", seats=one_hot_seat(3)),
        ObsBlock("showdown", 1, "1 if the ruff went to a showdown"),
        ObsBlock("ruff_suit", 3 * 5, "suit each seat revealed at the showdown (S H D C, fifth = four Aces)",
                 seats=per_seat(3)),
        ObsBlock("ruff", 3, "ruff value each seat revealed / 100", seats=per_seat(3)),
        ObsBlock("dead", 1, "consecutive dead ruffs before this deal / 10"),
        ObsBlock("declared", 3 * 4, "sets declared, per seat and rank A K Q J", seats=per_seat(3)),
        ObsBlock("set_size", 3 * 4, "size of each declared set / 4, per seat and rank", seats=per_seat(3)),
        ObsBlock("decl_done", 3, "seats done declaring", seats=per_seat(3)),
        ObsBlock("tricks", 3, "tricks won by each seat / 12", seats=per_seat(3)),
        ObsBlock("tricks_done", 1, "tricks completed / 12"),
        ObsBlock("leader", 3, "leader of the current trick (play phase)", seats=one_hot_seat(3)),
        ObsBlock("parts", 5 * 3, "this deal's chips by step (turn-up, stock, ruff, gleeks, tricks) and seat / 100",
                 seats=one_hot_seat(3)),
        ObsBlock("chips", 3, "chip balances / starting chips", seats=per_seat(3)),
        ObsBlock("deals_done", 1, "deals completed / num_deals"),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=_CONFORMANCE_CONFIGS,
    check_options=_check_options,
    seat_names=("seat 0", "seat 1", "seat 2"),   # docs/rules/gleek.md numbers the seats
)
