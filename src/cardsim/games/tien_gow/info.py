"""Tien Gow 天九 / Da Tian Jiu: what the engine, the reports, the adapters, the CLI, the docs and the
tests know about the game without playing it (docs/rules/tien_gow.md), declared once. Pure Python."""
from __future__ import annotations

from cardsim.errors import ConfigError, short
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, SeatField, one_hot_seat, per_seat
from cardsim.options import MATCH_ONLY, SCOPE, Option


def _bankroll(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**9:
        raise ConfigError(f"tien_gow: option 'bankroll' must be None (no stop) or an int 1..10**9, got {short(value)}")
    return value


OPTIONS = (
    Option("military_fives_equal", True, "4-1 and 3-2 equal as singles (T1), or 4-1 > 3-2", kind=bool),
    Option("must_beat_if_able", False, "a follower who can BEAT must (T2: beating is optional)", kind=bool),
    Option("early_death", "on", "no trick before a single-tile final trick: may not BEAT (T3); 'two_tricks' "
           "needs 2", choices=("on", "off", "two_tricks")),
    Option("banker_multiplier", "fixed", "banker payments x2 (T7), or x2, x3, ... for consecutive banker wins",
           choices=("fixed", "increasing")),
    Option("supreme_follow", "discard", "a followed Supreme is a discard (T6), or beats any pair",
           choices=("discard", "highest_pair")),
    Option("mixed_combinations", "allowed", "mixed pairs, triples and quads allowed, or pure pairs only",
           choices=("allowed", "pure_pairs_only")),
    Option("two_pair_lead", False, "a leader may lead two civil or two military pairs", kind=bool),
    Option("shutout_bonus", False, "double the winner's collections when all three others took no trick",
           kind=bool),
    Option("hk_bonuses", False, "Hong Kong extras (T10): Supreme/5-1 pair payments, quad x4, 2-1 caught by 4-2",
           kind=bool),
    Option("num_deals", 16, "deals of a match, scope='match' (T5)", kind=int, min=1, max=10_000,
           applies_when=MATCH_ONLY),
    Option("bankroll", None, "stop a match when a balance falls below -bankroll (None: no stop)",
           validate=_bankroll, applies_when=MATCH_ONLY),
    SCOPE,
)

# The result table (the kernel's tg_metrics fills them in this order).
METRICS = (
    Metric("winner", "seat that won the final trick of the last deal (the deal winner, §5.4)", categories="seat"),
    Metric("banker", "banker of the last deal", categories="seat"),
    Metric("banker_won", "the banker won the last deal", categories="bool"),
    Metric("tricks_0", "tricks credited to seat 0 in the last deal (k for a k-tile trick)"),
    Metric("tricks_1", "tricks credited to seat 1 in the last deal"),
    Metric("tricks_2", "tricks credited to seat 2 in the last deal"),
    Metric("tricks_3", "tricks credited to seat 3 in the last deal"),
    Metric("final_trick_size", "tiles per play in the final trick of the last deal (1..4)"),
    Metric("deals", "deals settled (1 in deal scope)"),
)

# The observation vector (float32), block by block; the kernel writes each block at the offset
# OBS_<BLOCK> of the generated ext/cardsim/games/tien_gow/_layout.pxd (tools/gen_layout.py).
OBSERVATION = (
    ObsBlock("hand", 21, "own hand: count of each tile identity / 2"),
    ObsBlock("stage", 21, "own staged tiles (the play under construction): count / 2"),
    ObsBlock("stage_mode", 2, "own staging mode: up (lead or BEAT), down (DISCARD)"),
    ObsBlock("plays", 8 * 4 * 22, "for each of the 8 tricks and each seat: the tiles it played (count / 2; "
             "face-up tiles for everybody, face-down tiles only for their owner) and a face-down flag (22)",
             seats=SeatField(4, width=22, record=88)),
    ObsBlock("trick_meta", 8 * 9, "for each of the 8 tricks: leader one-hot (4), winner one-hot (4), size / 4 (1)",
             seats=(SeatField(4, width=1, record=9), SeatField(4, width=1, offset=4, record=9))),
    ObsBlock("high_seat", 4, "seat of the current high play (one-hot, during play)", seats=one_hot_seat(4)),
    ObsBlock("high_cat", 11, "category of the current high play (one-hot over the 11 categories)"),
    ObsBlock("tricks", 4, "tricks credited per seat this deal / 8", seats=per_seat(4)),
    ObsBlock("banker", 4, "banker (one-hot)", seats=one_hot_seat(4)),
    ObsBlock("turn", 4, "seat to act (one-hot, during play)", seats=one_hot_seat(4)),
    ObsBlock("observer", 4, "observing seat (one-hot)", seats=one_hot_seat(4)),
    ObsBlock("phase", 2, "phase: play, end"),
    ObsBlock("deal_pay", 4, "chips won this deal per seat / 20", seats=per_seat(4)),
    ObsBlock("balance", 4, "match balances per seat / 100", seats=per_seat(4)),
    ObsBlock("deals", 1, "deals settled / num_deals"),
    ObsBlock("streak", 1, "banker streak (consecutive deals won as banker) / 8", seats=FIXED),
)

# Configurations the generic conformance suite runs (tests/conformance): the default game and each §7 option.
CONFORMANCE_CONFIGS = (
    {},
    {"military_fives_equal": False},
    {"must_beat_if_able": True},
    {"early_death": "off"},
    {"early_death": "two_tricks"},
    {"supreme_follow": "highest_pair"},
    {"mixed_combinations": "pure_pairs_only"},
    {"two_pair_lead": True},
    {"shutout_bonus": True, "hk_bonuses": True},
    {"scope": "match", "num_deals": 3, "banker_multiplier": "increasing"},
    {"scope": "match", "num_deals": 40, "bankroll": 10},
)


# ---- episode and return bounds (docs/rules/tien_gow.md "Bounds") -----------------------------------
def _deal_bounds(mult: int, factor: int, shut: int, hk: bool) -> tuple[int, int]:
    """(lo, hi) of one deal's chips for one seat with banker multiplier `mult`."""
    hi = 15 * mult * factor * shut + (12 if hk else 0)
    lo = 5 * mult * factor * shut + (4 if hk else 0)
    if hk:
        lo = max(lo, 26 * mult + 2)
    return -lo, hi


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): provably safe bounds on any seat's return in a terminal state (exact in deal
    scope: both are reached, see tests/games/tien_gow/test_bounds.py). `opts`: resolved options.

    Derivation (§6.1, T7, §7). In a deal every loser i owes the winner W due_i = 5 (no trick)
    or 4 - t_i (so at most 5, and W pays at most 3, to a loser with 7 tricks), times the banker
    multiplier m <= M when i or W is the banker (M = 2; with banker_multiplier="increasing"
    M = 2 + streak, and the streak before deal d of a match is at most d), times F = 4 when
    hk_bonuses and the final trick is won with a quad (else 1), times S = 2 when shutout_bonus
    and all three losers took no trick (else 1). So W collects at most 3 * 5 * M * F * S (W the
    banker, nobody else with a trick) and a seat loses at most 5 * M * F * S by the settlement.
    hk_bonuses adds: (a) the shows: a Supreme and the 5-1 civil pair can each be shown once per
    deal (one 4-2, one 2-1, two 5-1), each worth 2 chips from each opponent: at most +12 or -4
    for a seat; (b) the catch (T13): the leader L of a final single 2-1 trick won by the 4-2
    pays double every positive amount: L won the trick before, so due_L <= 3, the others owe at
    most 5, so L pays at most 2 * (3 + 5 + 5) * M = 26 M (no quad factor in a single trick, no
    shutout with L holding a trick), and the 4-2 and 2-1 played as singles show no Supreme, so
    L loses at most 26 M + 2 (one 5-1 pair shown), while W gains at most 26 M < 15 * M * F.
    hi = 15 M F S (+ 12 with hk_bonuses); lo = -(5 M F S (+ 4)), or -(26 M + 2) if larger with
    hk_bonuses. Default: (-10, 30); hk_bonuses: (-54, 132); hk_bonuses and shutout_bonus:
    (-84, 252). Match scope: the sum of the per-deal bounds over num_deals deals (the bankroll
    stop only shortens a match)."""
    hk = opts["hk_bonuses"]
    factor = 4 if hk else 1
    shut = 2 if opts["shutout_bonus"] else 1
    inc = opts["banker_multiplier"] == "increasing"
    if opts["scope"] != "match":
        lo, hi = _deal_bounds(2, factor, shut, hk)
        return float(lo), float(hi)
    lo = hi = 0
    for d in range(opts["num_deals"]):
        a, b = _deal_bounds(2 + (d if inc else 0), factor, shut, hk)
        lo, hi = lo + a, hi + b
    return float(lo), float(hi)


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state(seed, deal) to a terminal state, for any
    sequence of legal actions (per deal in deal scope, per match in match scope). `opts`:
    resolved options.

    Derivation (§5.1, §5.2): a deal has no pre-play phase; each of the 4 players adds his 8
    tiles one action each (UP or DOWN k: 32 actions), and a trick needs at most one more action,
    the leader's COMMIT (a follow commits itself at k tiles). The final trick needs none: its
    leader stages all the tiles he holds, so none can be added and the lead commits itself.
    With at most 8 tricks: 32 + 7 = 39. (A single leader reaches 38: each group of tiles that
    combine, at most 4, ends with a tile that can no longer grow, see
    tests/games/tien_gow/test_bounds.py.) A match plays at most num_deals deals (a bankroll stop
    only ends it earlier): 39 * num_deals."""
    return 39 * (opts["num_deals"] if opts["scope"] == "match" else 1)


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    "the tricks credited so far (each one a chip less owed to the deal's winner), plus any Hong Kong "
    'bonus already paid')


INFO = GameInfo(
    phases=('play', 'end'),
    name="tien_gow", title="Tien Gow 天九 (Da Tian Jiu)",
    players=(4,), default_players=4,
    teams="none: every seat plays for itself (the banker pays and collects double, T7)",
    unit="chips",                 # §6: every payment is in chips, per deal or summed over a match
    returns_sum="zero",
    options=OPTIONS,
    presets={},
    metrics=METRICS,
    observation=OBSERVATION,
    return_bounds=return_bounds,
    max_game_length=max_game_length,
    conformance_configs=CONFORMANCE_CONFIGS,
    seat_names=("seat 0", "seat 1", "seat 2", "seat 3"),   # docs/rules/tien_gow.md numbers the seats
)
