"""Hakka Six Tigers: the game's static facts (`INFO`), declared once; read by the engine, the
runner, the reports, the adapters, the CLI, the docs and the tests. Rules as implemented:
docs/rules/six_tigers.md. Pure Python (no compiled module).

Options (the spec's §7 variants, defaults first):
  players            4 (with the dreamer) or 3 (no dreamer; the 37th card is set aside)
  direction          "cw" (X2) or "ccw" (Sung)
  must_beat_if_able  True (X7): a player who can beat must; False: he may discard instead
  set_order          "seed" (X4: 9 > 1 > 8 > ... > 2) or "natural" (9 > 8 > ... > 1)
  cloud_in_sets      False (X3) or True: CLOUD serves as a 1 in sets of 1s
  old_tracking       "all_played" (X9: face-down discards make old cards) or "public"
  auto_claim         False (X10: claiming is a choice) or True (forced at a count of 6)
  scoring            "table" (§6.1 with point_table) or "sung" (Sung's score)
  point_table        points for a win with 6..12 tricks, default (1, 2, 4, 8, 16, 32, 128) (X12)
  rounds             counted rounds of a match (scope="match"), default 4 (§6.3)
  claim_after_last_trick  True (X16: a claim window follows every trick, the last one too, as
                     §5.5 says) or False (X11 settles the round right after the last trick)
  max_redeals        10 (X17): void deals redealt in one round; one more void ends the round
                     with no winner (no payments, counted), so every round and match ends
  scope              "deal" (one counted round) or "match"
"""
from __future__ import annotations

from cardsim.errors import ConfigError, short
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, one_hot_seat, per_seat
from cardsim.options import MATCH_ONLY, SCOPE, Option

DEFAULT_TABLE = (1, 2, 4, 8, 16, 32, 128)


def _point_table(value):
    if (not isinstance(value, (list, tuple)) or len(value) != 7
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1_000_000 for v in value)):
        raise ConfigError(f"six_tigers: option 'point_table' must be 7 ints in 0..1000000 (points for 6..12 "
                          f"tricks), got {short(value)}")
    return tuple(value)


OPTIONS = (
    Option("direction", "cw", "direction of play (X2); Sung plays anticlockwise", choices=("cw", "ccw")),
    Option("must_beat_if_able", True, "a player holding a beat must play one (X7)", kind=bool),
    Option("set_order", "seed", "set order: seed = 9 > 1 > 8 > ... > 2 (X4), natural = 9 > ... > 1",
           choices=("seed", "natural")),
    Option("cloud_in_sets", False, "CLOUD may serve as a 1 in sets of 1s (X3 variant)", kind=bool),
    Option("old_tracking", "all_played", "face-down discards make old cards (X9), or face-up plays only",
           choices=("all_played", "public")),
    Option("auto_claim", False, "a player reaching a count of 6 claims at once (X10 variant)", kind=bool),
    Option("scoring", "table", "the point table of §6.1, or Sung's score (§7)", choices=("table", "sung")),
    Option("point_table", DEFAULT_TABLE, "points for a win with 6..12 tricks (X12)", validate=_point_table,
           applies_when={"scoring": ("table",)}),
    Option("rounds", 4, "counted rounds of a match, scope='match' (§6.3)", kind=int, min=1, max=1000,
           applies_when=MATCH_ONLY),
    Option("claim_after_last_trick", True, "a claim window follows the last trick too (§5.5 'after every trick', "
           "X16); False: X11 settles the round at once", kind=bool),
    Option("max_redeals", 10, "void deals redealt in one round; one more void ends it with no winner (X17)",
           kind=int, min=0, max=1000),
    SCOPE,
)


def _return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi) of the resolved options `opts`: provably safe bounds on any seat's return in a terminal state (exact for the
    deal scope: both are reached, see tests/games/six_tigers/test_bounds.py).

    Derivation (§6, X12-X14). A counted round pays only when it has a winner with t tricks;
    t <= 12, because a count is tricks + old cards held and a trick credits as many tricks as
    cards each player played (so tricks + cards held <= 12 for every player; Five Tigers scores
    t = 8). Let P = max point_table[t - 6] over t = 6..12 (Sung: 30, the most his score gives:
    12 winning cards with all 8 reds; otherwise at most (12 - 5) + 7 = 14; Five Tigers 6). The
    dreamer's t_dream = 5 + matches, and at most 4 other cards share the number of his card
    (three suit cards, plus CLOUD for a 1, or the four 1s for CLOUD), so t_dream <= 9; let
    Pd = max point_table[t - 6] over t = 6..9 (Sung: t_dream - 5 <= 4; 3 players: no dreamer,
    Pd = 0). Each of the two losing active players pays P to the winner and Pd to the dreamer,
    and a special player who loses pays both shares (X14). So the most a seat wins in a round
    is max(2 P, 2 Pd) (the winner never pays the dreamer) and the most it loses is 2 P + 2 Pd.
    Default table, 4 players: P = 128, Pd = 8: (-272, 256). A void round redealt pays nothing
    and an abandoned round (X17) pays nothing. Match scope: `rounds` counted rounds, each within
    the round bounds: (rounds * lo, rounds * hi)."""
    if opts["scoring"] == "sung":
        P, Pd = 30, 4
    else:
        table = opts["point_table"]
        P, Pd = max(table), max(table[:4])
    if opts["players"] == 3:
        Pd = 0
    lo, hi = -(2 * P + 2 * Pd), max(2 * P, 2 * Pd)
    if opts["scope"] == "match":
        n = opts["rounds"]
        lo, hi = n * lo, n * hi
    return float(lo), float(hi)


def _max_game_length(opts: dict) -> int:
    """Of the resolved options `opts`: upper bound on the actions from new_state(seed, deal) to a terminal state, for any
    sequence of legal actions (per counted round in deal scope, per match in match scope).

    Derivation: a deal that ends void takes 3 actions (the three PASSes, §4.1); a round redeals
    at most `max_redeals` void deals and ends at the next void one (X17), so voids cost at most
    3 * max_redeals actions before the deal that ends the round. That deal takes at most: 3
    declarations, a claim window before the first lead (one action per active player asked, at
    most 3; none under auto_claim, where claims take no action), 36 card actions (each active
    player adds his 12 cards one at a time, face up or down), one COMMIT per trick (only a lead
    ever needs one; at most 12 tricks) and a claim window of at most 3 actions after each trick
    (12 windows, or 11 with claim_after_last_trick=False; none under auto_claim):
    3 + 3 + 36 + 12 + 36 = 90 by default. Match scope: `rounds` rounds."""
    windows = 0 if opts["auto_claim"] else 3 * (1 + (12 if opts["claim_after_last_trick"] else 11))
    per_round = 3 * opts["max_redeals"] + 3 + 36 + 12 + windows
    return per_round * (opts["rounds"] if opts["scope"] == "match" else 1)


def _unit(opts: dict) -> str:
    """The returns are points paid between the players: by the point table, or Sung's score."""
    return "Sung points" if opts["scoring"] == "sung" else "table points"


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    "each player's count toward the 6 that claims the round: tricks credited plus old cards in hand "
    '(the dreamer, who cannot win the round, counts nothing)')


INFO = GameInfo(
    phases=('declare', 'claim', 'play', 'end'),
    name="six_tigers", title="Hakka Six Tigers",
    players=(4, 3), default_players=4,
    teams="none: each active player plays for himself (with 4 seats the dreamer, opposite the dealer, "
          "holds one card, never plays and is paid by the losers)",
    unit=_unit,
    returns_sum="zero",
    options=OPTIONS,
    presets={
        "sung": {"direction": "ccw", "must_beat_if_able": False, "set_order": "natural", "scoring": "sung"},
    },
    metrics=(
        Metric("winner", "seat that won the last counted round (none: no winner)", categories="seat"),
        Metric("t", "winner's count t (tricks + claimed old cards; 8 for Five Tigers; 0 without a winner)"),
        Metric("t_dream", "dreamer's tricks 5 + matches (0: no dreamer or no winner)"),
        Metric("five_tigers", "the round was won by Five Tigers", categories="bool"),
        Metric("claimed", "the round was won by a claim", categories="bool"),
        Metric("special", "special player (a non-dealer who declared; none: the dealer declared or all passed)",
               categories="seat"),
        Metric("declarer", "seat that declared (none: everybody passed)", categories="seat"),
        Metric("dealer", "dealer of the last round", categories="seat"),
        Metric("voids", "void deals (everybody passed) redealt"),
        Metric("counted_rounds", "counted rounds played"),
        Metric("tricks_played", "tricks completed in the last round"),
    ),
    observation=(
        ObsBlock("hand", 37, "own hand: 1 per card held"),
        ObsBlock("own_old", 37, "own old cards (held cards that are old now)"),
        ObsBlock("up", 4 * 37, "face-up cards each seat slot played this round", seats=per_seat(4)),
        ObsBlock("own_down", 37, "own face-down discards this round"),
        ObsBlock("card_trick", 37, "(trick number + 1) / 12 of each card the observer saw played, else 0", seats=FIXED),
        ObsBlock("down_count", 4, "face-down cards per seat slot / 12", seats=per_seat(4)),
        ObsBlock("trick_up", 4 * 37, "current trick: each seat slot's face-up play", seats=per_seat(4)),
        ObsBlock("trick_down", 4, "current trick: 1 per seat slot that discarded face down", seats=per_seat(4)),
        ObsBlock("staged", 37, "own play under construction (only when the observer is to play)", seats=FIXED),
        ObsBlock("staged_kind", 4, "its kind one-hot: none, lead, beat, discard"),
        ObsBlock("high_seat", 4, "seat of the current high play (one-hot)", seats=one_hot_seat(4)),
        ObsBlock("high_type", 4, "type of the current high play: none, single, run, set"),
        ObsBlock("k", 1, "cards per play in the current trick / 9"),
        ObsBlock("leader", 4, "leader of the current trick (one-hot, in the play phase)", seats=one_hot_seat(4)),
        ObsBlock("trick_winners", 12 * 4, "winner of each completed trick (12 one-hots)", seats=one_hot_seat(4)),
        ObsBlock("tricks", 4, "tricks credited per seat slot / 12", seats=per_seat(4)),
        ObsBlock("dealer", 4, "dealer (one-hot)", seats=one_hot_seat(4)),
        ObsBlock("dreamer", 4, "dreamer (one-hot; none with 3 players)", seats=one_hot_seat(4)),
        ObsBlock("declarer", 4, "declarer (one-hot; none yet)", seats=one_hot_seat(4)),
        ObsBlock("special", 4, "special player (one-hot)", seats=one_hot_seat(4)),
        ObsBlock("observer", 4, "the observing seat (one-hot)", seats=one_hot_seat(4)),
        ObsBlock("to_act", 4, "seat to act (one-hot; none at the end)", seats=one_hot_seat(4)),
        ObsBlock("phase", 4, "phase one-hot: declare, claim, play, end"),
        ObsBlock("progress", 3, "declarations made / 3, claim window position / 3, tricks done / 12"),
        ObsBlock("winner", 4, "round winner (one-hot)", seats=one_hot_seat(4)),
        ObsBlock("result", 4, "t / 12, t_dream / 12, Five Tigers, claimed"),
        ObsBlock("shown", 37, "cards shown at the end (dreamer's card, claimed old cards, Five Tigers)", seats=FIXED),
        ObsBlock("last", 4, "payments of the last counted round / 256", seats=per_seat(4)),
        ObsBlock("score", 4, "cumulative points / 1024", seats=per_seat(4)),
        ObsBlock("rounds", 2, "counted rounds / 4, void rounds / 10"),
        ObsBlock("public_old", 37, "the old cards when old_tracking = 'public' (else zeros)"),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=(
        {},
        {"direction": "ccw"},
        {"must_beat_if_able": False},
        {"set_order": "natural", "cloud_in_sets": True},
        {"old_tracking": "public"},
        {"auto_claim": True},
        {"scoring": "sung"},
        {"players": 3},
        {"scope": "match", "rounds": 2},
        {"claim_after_last_trick": False},
        {"scope": "match", "rounds": 3, "max_redeals": 0},
    ),
    seat_names=("seat 0", "seat 1", "seat 2", "seat 3"),   # docs/rules/six_tigers.md numbers the seats
)
