"""Samba's static facts, declared once: INFO (cardsim.info.GameInfo) with the options, presets,
metrics, observation layout (the kernel's offsets in ext/cardsim/games/samba/_layout.pxd are
generated from it by tools/gen_layout.py) and the exact bounds of the returns and of a game's
length (docs/rules/samba.md "Bounds"). Pure Python: nothing compiled is imported here."""
from __future__ import annotations

from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, one_hot_seat, per_seat, per_side
from cardsim.options import MATCH_ONLY, SCOPE, Option

_OPTIONS = (
    Option("hand_size", 0, "cards dealt to each player; 0 = 15 (13 with 6 players)", kind=int, min=0, max=20),
    Option("upcard_rewind", True, "re-turn a wild or red-three upcard (§3.3)", kind=bool),
    Option("pile_model", "american", "frozen/unfrozen pile with lay-off pickup, or always frozen (pair only)",
           choices=("american", "always_frozen")),
    Option("sequence_top_card_take", False, "Dutch: take only the top card onto an own sequence and draw 1",
           kind=bool),
    Option("red_three_mode", "auto", "red threes exposed and replaced at once, or placed by hand (Dutch)",
           choices=("auto", "manual")),
    Option("red3_in_hand_penalty", "per_card_100", "red threes left in a hand: -100 each, or -750 per player",
           choices=("per_card_100", "per_player_750")),
    Option("red3_unqualified", "standard", "all six red threes without two canastas: -1000, or Dutch -600",
           choices=("standard", "dutch")),
    Option("group_wild_rule", "standard", ">= 2 naturals and <= 2 wilds, or Dutch naturals >= 2 x wilds",
           choices=("standard", "dutch")),
    Option("wild_onto_canasta", "allowed", "wilds onto canastas: allowed, not onto natural ones, never",
           choices=("allowed", "not_onto_natural", "never")),
    Option("initial_meld_table", "seed", "initial-meld requirement bands (S-D15)", choices=("seed", "hoyle")),
    Option("insufficient_initial_meld", "reject", "a short initial batch is impossible, or penalized +100",
           choices=("reject", "penalize")),
    Option("allow_go_out_query", False, "a player may ask the partner before going out (S-D11)", kind=bool),
    Option("going_out_min_canastas", 2, "canastas or sambas a side needs to go out", kind=int, min=0, max=10),
    Option("target_score", 10000, "cumulative score that ends a match (scope='match')", kind=int, min=1,
           max=1_000_000, applies_when=MATCH_ONLY),
    Option("concealed_bonus", 0, "bonus for going out without having melded before that turn", kind=int, min=0,
           max=10_000),
    Option("max_failed_melds", 10, "penalize: failed initial batches per side and deal before a short batch is "
           "refused as under 'reject' (S-D23)", kind=int, min=0, max=100,
                  applies_when={"insufficient_initial_meld": ("penalize",)}),
    Option("max_deals", 100, "scope='match': the match ends after this many deals even if no side reached "
           "target_score (S-D24)", kind=int, min=1, max=10_000, applies_when=MATCH_ONLY),
    SCOPE,
)
_PRESETS: dict[str, dict] = {
    "standard": {},
    "dutch": {"pile_model": "always_frozen", "sequence_top_card_take": True, "red_three_mode": "manual",
              "red3_in_hand_penalty": "per_player_750", "red3_unqualified": "dutch", "group_wild_rule": "dutch"},
    "no_wild_on_natural": {"wild_onto_canasta": "not_onto_natural"},
    "hoyle": {"initial_meld_table": "hoyle"},
    "official": {"initial_meld_table": "hoyle", "wild_onto_canasta": "never"},
}

_CONFORMANCE_CONFIGS = (
    {},
    {"players": 2},
    {"players": 3},
    {"players": 5},
    {"players": 6},
    {"variant": "dutch"},
    {"variant": "no_wild_on_natural", "players": 2},
    {"variant": "hoyle", "insufficient_initial_meld": "penalize"},
    {"variant": "official", "allow_go_out_query": True},
    {"players": 2, "scope": "match", "target_score": 600},
)

_SIDES = tuple(range(5))
_METRICS = (
    Metric("end_type", "how the deal (the last deal of a match) ended",
           categories=("none", "went_out", "stock_out", "red_threes_last")),
    Metric("out_seat", "seat that went out (none: the stock ran out)", categories="seat"),
    *(Metric(f"score_side{i}", f"deal score of side {i} (points; 0 for a side the table does not have)")
      for i in _SIDES),
    *(Metric(f"canastas_side{i}", f"canastas and sambas of side {i} at the end of the deal") for i in _SIDES),
    Metric("stock_left", "cards left in the stock at the end"),
    Metric("deals", "deals played (scope='match': the match's deals)"),
)

# The observation vector (float32), block by block; kinds are suit*13 + rank (suits S H D C, rank
# 0 = '2' .. 12 = 'A'), 52 = joker.
_OBSERVATION = (
    ObsBlock("hand", 53, "own hand: copies of each card kind / 3"),
    ObsBlock("staged", 53, "the move under construction's staged cards (public): copies / 3"),
    ObsBlock("take_top", 53, "the top card being taken in a pile take: 1 at its kind"),
    ObsBlock("known", 6 * 53, "per seat: cards every player knows it holds (taken from the pile) / 3",
             seats=per_seat(6)),
    ObsBlock("hand_sizes", 6, "cards in each seat's hand / 30", seats=per_seat(6)),
    ObsBlock("melds", 5 * 32 * 54, "per side and meld slot (5 x 32): the meld's card counts / 3 (53), then "
             "1 placed / 2 pending (part of an unfinished initial batch)", seats=per_side(5)),
    ObsBlock("red3", 5, "exposed red threes per side / 6", seats=per_side(5)),
    ObsBlock("opened", 5, "per side: 1 if it made its initial meld", seats=per_side(5)),
    ObsBlock("requirement", 5, "per side: initial-meld requirement / 200", seats=per_side(5)),
    ObsBlock("pile", 53, "the discard pile's card counts / 3"),
    ObsBlock("pile_top", 53, "the pile's top card: 1 at its kind"),
    ObsBlock("pile_state", 3, "pile size / 162, 1 if the pile is frozen, stock size / 162"),
    ObsBlock("phase", 4, "one-hot phase: draw, meld, answer, end"),
    ObsBlock("to_act", 6, "one-hot seat to act (zero at the end)", seats=one_hot_seat(6)),
    ObsBlock("mover", 6, "one-hot seat whose turn it is (zero at the end)", seats=one_hot_seat(6)),
    ObsBlock("dealer", 6, "one-hot dealer", seats=one_hot_seat(6)),
    ObsBlock("observer", 6, "one-hot observing seat", seats=one_hot_seat(6)),
    ObsBlock("merge_from", 32, "one-hot meld slot chosen by MERGE_FROM"),
    ObsBlock("flags", 5, "partner said no, go-out query asked, must go out, drew this turn, pile take stage (0..2)",
             seats=FIXED),
    ObsBlock("cum", 5, "cumulative score per side / 10000", seats=per_side(5)),
    ObsBlock("deals", 1, "deals finished / 20"),
)

# ---- episode and return bounds (the shared protocol; docs/rules/samba.md "Bounds") ----------------
# Card values of the 162 cards but the red threes (§2): 6 jokers x 50, 12 deuces and 12 aces x 20,
# 72 of K Q J 10 9 8 x 10, 48 of 7 6 5 4 x 5, 6 black threes x 5.
_ALL_VALUES = 6 * 50 + 12 * 20 + 12 * 20 + 72 * 10 + 48 * 5 + 6 * 5        # 1770
_MELDABLE = 162 - 6                                                       # every card but the red threes
# Canasta and samba bonuses of one side: a samba is 7 naturals of one suit in sequence, and every
# run of 7 of the ranks 4..A holds the 8, 9 and 10, of which a suit has 3 copies: at most 3 sambas
# a suit, 12 in all. Each samba or canasta holds 7 distinct cards out of the 150 naturals and
# wilds (black threes make no canasta), so with s sambas at most (150 - 7 s) // 7 canastas, worth
# at most 500 each: 1500 s + 500 ((150 - 7 s) // 7) grows with s, at most 12 x 1500 + 9 x 500.
_BONUS_MAX = 12 * 1500 + ((150 - 7 * 12) // 7) * 500                      # 22500


def _red3_penalty_max(o):
    """The largest red-three loss of one side in a deal (§6): k exposed red threes without the
    canastas (-100 each, -1000 for six unless Dutch red3_unqualified) and j others left in the
    side's hands (manual mode only: in auto mode a red three never stays in a hand, and dealt ones
    of a seat without a turn count as exposed, S-D14): -100 each, or -750 per player holding one."""
    per_side = 2 if o["players"] in (4, 6) else 1
    best = 0
    for k in range(7):
        exposed = 1000 if k == 6 and o["red3_unqualified"] == "standard" else 100 * k
        for j in range(7 - k if o["red_three_mode"] == "manual" else 1):
            held = 750 * min(j, per_side) if o["red3_in_hand_penalty"] == "per_player_750" else 100 * j
            best = max(best, exposed + held)
    return best


def _deal_bounds(o):
    hi = _ALL_VALUES + _BONUS_MAX + 200 + o["concealed_bonus"] + 1000
    lo = -_ALL_VALUES - _red3_penalty_max(o)
    return lo, hi


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return of any seat in a terminal state of this
    configuration (o: the resolved options, INFO.return_bounds resolves them).

    Deal scope (a seat's return is its side's deal score, §6):
      hi = 1770 (the card values of every card but the red threes, all melded by the side)
         + 22500 (canasta and samba bonuses: at most 3 sambas a suit, as every 7-run of 4..A holds
           the 8, 9 and 10, of which a suit has 3 copies: 12 sambas; each bonus meld holds 7 of the
           150 naturals and wilds, so 9 canastas more at 500)
         + 200 (going out) + concealed_bonus + 1000 (all six red threes with the canastas).
      lo = -1770 (every card but the red threes left in the side's hands) - the largest red-three
         loss: six exposed without the canastas (-1000, Dutch red3_unqualified -600) or, with
         manual red threes, some exposed and the others in the side's hands (-100 each, or -750
         per player holding one under per_player_750: at most -1900 with partners).
    Match scope (a seat's return is its side's cumulative score): the match ends after the deal
    in which a side reaches target_score, or after max_deals deals (S-D24), so before the last
    deal every side was below target_score: hi = min(max_deals * hi_deal, target_score - 1 + hi_deal);
    lo = max_deals * lo_deal."""
    lo, hi = _deal_bounds(o)
    if o["scope"] == "match":
        n = o["max_deals"]
        return float(n * lo), float(min(n * hi, o["target_score"] - 1 + hi))
    return float(lo), float(hi)


def _deal_length(o):
    N = o["players"]
    h = o["hand_size"] or (13 if N == 6 else 15)
    S = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}[N]
    stock = max(0, 162 - N * h - 1)
    fails = S * o["max_failed_melds"] if o["insufficient_initial_meld"] == "penalize" else 0
    turns = stock + _MELDABLE + 1
    adds = _MELDABLE * (1 + fails)
    return 4 * turns + 3 * adds + fails + 6


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state(seed, deal) to a terminal state, for any sequence
    of legal actions (per deal in deal scope; per match in match scope).

    Per deal, with N players dealt h cards each, S sides, P = 156 meldable cards (all but the red
    threes) and Z = 162 - N h - 1 cards at most in the stock after the deal and the upcard:
    - turns T <= Z + P + 1: a turn begins with a draw (>= 1 stock card), a take of the pile (its
      top card is melded, and a melded card never leaves the melds: MERGE keeps it on the table;
      FAIL returns only the pending melds of a batch made from the hand, never a pile group), or
      a decline (the last turn); a deal the stock cannot continue ends without an action (E2);
    - per turn at most 4 actions besides the card moves: the draw or take, ASK and the answer
      (once a turn), the discard;
    - ADD moves one card from the hand to the stage, and staged cards only go into melds, so
      ADDs <= P (1 + F), where F = S * max_failed_melds FAILs (penalize; S-D23) may each return
      up to P cards to the hands (F = 0 under 'reject');
    - each MELD or LAYOFF commits >= 1 new staged card (<= ADDs); a MERGE (2 actions) removes one
      of the melds the MELDs made (<= ADDs / 2 merges); FAIL <= F; PLACE_RED3 <= 6.
    So L_deal = 4 T + 3 P (1 + F) + F + 6 (1506 for the default 4 players); in match scope
    max_deals * L_deal (S-D24: the match ends after max_deals deals)."""
    n = _deal_length(o)
    return n * o["max_deals"] if o["scope"] == "match" else n


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    "each side's points on the table: the card values of its melds, its canasta and samba bonuses and"
    ' its exposed red threes (the cards left in hand and going out count only at the end); partners '
    "share their side's figure")


INFO = GameInfo(
    phases=('draw', 'meld', 'answer', 'end'),
    name="samba", title="Samba",
    players=(2, 3, 4, 5, 6), default_players=4,
    teams="sides: N = 2, 3, 5 each player alone; N = 4 partners {0,2} {1,3}; N = 6 {0,3} {1,4} {2,5} "
          "(side = seat % sides); every seat's return is its side's score",
    sides=lambda o: {4: 2, 6: 3}.get(o["players"], o["players"]),
    unit=lambda o: "cumulative points" if o["scope"] == "match" else "deal points",
    returns_sum="none",
    options=_OPTIONS,
    presets=_PRESETS,
    metrics=_METRICS,
    observation=_OBSERVATION,
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    conformance_configs=_CONFORMANCE_CONFIGS,
    seat_names=("seat 0", "seat 1", "seat 2", "seat 3", "seat 4", "seat 5"),   # docs/rules/samba.md numbers the seats
)
