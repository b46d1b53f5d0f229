"""Hearts' static facts, declared once (cardsim.info.GameInfo): seats, the options (with the
decision codes of docs/rules/hearts.md), the `openspiel` preset (pyspiel's `hearts` with its
default parameters), the unit of the returns, the metrics of the result table, the observation
layout (from which `_layout.pxd` is generated: tools/gen_layout.py) and the bounds of the returns
and of the game length (docs/rules/hearts.md "Bounds").

Options:
  players                 3, 4 (default), 5 or 6 (D1: small diamonds and spades removed)
  pass_rotation           D2: "cycle" (left, right, across, hold by deal number; no across
                          unless 4 players), "left", "right", "across" (4 players), "hold",
                          "random" (drawn from the deal stream, as OpenSpiel's first chance node)
  first_lead              D4: "two_clubs" (♣2 leads) or "any_club" (its holder leads any club)
  no_points_first_trick   D5: no heart or ♠Q on the first trick unless nothing else
  must_break_hearts       D6: hearts are led only once broken (or when nothing else is left)
  queen_breaks_hearts     D6: ♠Q breaks hearts too
  lead_hearts_over_queen  D6: a leader holding only hearts and ♠Q may lead a heart
  moon                    D8: "add" (the others +26, the shooter 0) or "subtract" (shooter -26)
  jd_bonus                D9: ♦J counts -10
  avoid_all_tricks_bonus  D9: -5 to a seat that took no trick (no moon)
  returns                 D10: "relative" (mean of the others' scores minus own: zero-sum) or
                          "openspiel" (26 - own points, scope "deal" only)
  match_target, max_deals D11: a match ends after the deal in which a score reaches
                          match_target (100), or after max_deals deals
  scope                   "deal" or "match"
"""
from __future__ import annotations

from cardsim.errors import ConfigError, short
from cardsim.info import FIXED, GameInfo, Metric, ObsBlock, one_hot_seat, per_seat
from cardsim.options import SCOPE, Option

SUITS = ("S", "H", "D", "C")           # suit 0..3 of a card id suit*13 + rank
PASS_DIRS = ("hold", "left", "across", "right")    # as OpenSpiel numbers them (0..3)
ROTATIONS = ("cycle", "left", "right", "across", "hold", "random")

OPENSPIEL = {                          # pyspiel.load_game("hearts") with its default parameters
    "pass_rotation": "random",         # its first chance node: No Pass / Left / Across / Right
    "first_lead": "two_clubs",         # can_lead_any_club=False
    "no_points_first_trick": True,     # no_pts_on_first_trick=True
    "must_break_hearts": True,         # must_break_hearts=True
    "queen_breaks_hearts": True,       # qs_breaks_hearts=True
    "lead_hearts_over_queen": False,   # can_lead_hearts_instead_of_qs=False
    "moon": "add",                     # ComputeScore: shooter -26, the others +26
    "jd_bonus": False,                 # jd_bonus=False
    "avoid_all_tricks_bonus": False,   # avoid_all_tricks_bonus=False
    "returns": "openspiel",            # Returns(): 26 - points
    "scope": "deal",
}


def _check(o: dict) -> None:
    n = o["players"]
    if o["pass_rotation"] == "across" and n != 4:
        raise ConfigError(f"hearts: pass_rotation 'across' needs 4 players (got {n}); allowed with "
                          f"{n}: cycle, left, right, hold, random")
    if o["returns"] == "openspiel" and o["scope"] != "deal":
        raise ConfigError("hearts: returns='openspiel' (26 - the deal's points) is defined for "
                          "scope='deal' only; use returns='relative' for a match")


def _deal_outcomes(o: dict):
    """Every (own points, the other seats' total) seat 0 can end one deal with (§6-§7): own hearts
    h, own ♠Q, own ♦J (jd_bonus), own trickless (avoid bonus) and k trickless other seats; no
    moon unless by a seat taking every heart and ♠Q, and without a moon the point cards are split
    between at least two seats taking tricks."""
    n = o["players"]
    jd = 10 if o["jd_bonus"] else 0
    av = 5 if o["avoid_all_tricks_bonus"] else 0
    add = o["moon"] == "add"
    out = set()
    for j0 in (0, 1) if jd else (0,):
        ojd = jd * (1 - j0)                          # the ♦J bonus taken by another seat
        # moon by seat 0, or by another seat (no trick bonus with a moon)
        out.add((26 - j0 * jd - (26 if add else 52), (26 * (n - 1) if add else 0) - ojd))
        out.add(((26 if add else 0) - j0 * jd, (0 if add else -26) + (n - 2) * (26 if add else 0) - ojd))
        for h in range(14):
            for q in (0, 1):
                if h == 13 and q == 1:
                    continue                         # a moon
                for t0 in (0, 1) if av else (0,):
                    if t0 and (h or q or j0):
                        continue                     # a trickless seat takes no card
                    for k in range(n - 1 if av else 1):
                        takers = n - 1 - k           # other seats taking tricks
                        if h == 0 and q == 0 and takers < 2:
                            continue                 # all 14 point cards to one other: a moon
                        if takers < 1:
                            continue
                        own = h + 13 * q - j0 * jd - av * t0
                        others = (13 - h) + 13 * (1 - q) - ojd - av * k
                        out.add((own, others))
    return out


def _return_bounds(o: dict) -> tuple[float, float]:
    """(lo, hi): lowest and highest return of any seat in a terminal state of the resolved
    configuration `o`.

    Derivation (docs/rules/hearts.md "Bounds"): a deal's returns follow from (own points, the
    other seats' total), enumerated by `_deal_outcomes` over every split of the 13 hearts, ♠Q,
    ♦J and trickless seats the rules allow, moons included: returns = "openspiel" gives
    26 - own ([0, 26]; [0, 36] with the ♦J bonus: pyspiel declares [0, 36] always), "relative" gives
    others / (N - 1) - own; both exact for one deal (e.g. 4 players, default options:
    [-74/3, 26]). A match is at most max_deals deals and its relative return is the sum of its
    deals' relative returns: [max_deals x lo, max_deals x hi], a valid bound (not reached)."""
    n = o["players"]
    if o["returns"] == "openspiel":
        vals = [26.0 - own for own, _ in _deal_outcomes(o)]
    else:
        vals = [others / (n - 1) - own for own, others in _deal_outcomes(o)]
    lo, hi = min(vals), max(vals)
    if o["scope"] == "match":
        lo, hi = lo * o["max_deals"], hi * o["max_deals"]
    return (float(lo), float(hi))


def deck_size(n: int) -> int:
    """Cards in play with n players (D1): 52 less 1 (3), 0 (4), 2 (5), 4 (6)."""
    if type(n) is not int or n not in (3, 4, 5, 6):
        raise ConfigError(f"hearts: players must be one of [3, 4, 5, 6] (an integer), got {short(n)}")
    return 52 - {3: 1, 4: 0, 5: 2, 6: 4}[n]


def _max_game_length(o: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play, in the
    resolved configuration `o`.

    Derivation: a deal is at most 3 pass actions per seat (none when it holds: a scenario may set
    any direction, so the bound counts the pass whatever the rotation) and one action per card
    in play (D1: 51, 52, 50, 48 cards for 3, 4, 5, 6 players); a match is at most max_deals
    deals (D11). Exact for a deal that passes (pyspiel's MaxGameLength 64, also constant)."""
    n = o["players"]
    per = deck_size(n) + 3 * n
    return per * (o["max_deals"] if o["scope"] == "match" else 1)


# The running standing (vt.standing in _spec.pyx; State.standing): who is ahead mid-deal, what lead
# tracking ("decided before the last round" in the atlas) watches; the returns at the end.
STANDING = (
    'the penalty points taken so far (a heart 1, ♠Q 13; ♦J -10 with jd_bonus), fewest ahead, counted '
    "as the returns count them (the others' mean minus own, or 26 - own); a moon counts only when the"
    ' deal ends')


INFO = GameInfo(
    phases=('pass', 'play', 'end'),
    name="hearts", title="Hearts",
    players=(3, 4, 5, 6), default_players=4,
    teams="none: every seat plays for itself",
    unit="points",
    returns_sum="none",
    options=(
        Option("pass_rotation", "cycle", "pass direction: by deal number, fixed, or random (D2)",
               choices=ROTATIONS),
        Option("first_lead", "two_clubs", "the first lead: ♣2, or any club of its holder (D4)",
               choices=("two_clubs", "any_club")),
        Option("no_points_first_trick", True, "no heart or ♠Q on the first trick unless nothing else (D5)",
               kind=bool),
        Option("must_break_hearts", True, "hearts are led only once broken (D6)", kind=bool),
        Option("queen_breaks_hearts", True, "♠Q breaks hearts (D6)", kind=bool),
        Option("lead_hearts_over_queen", False, "with only hearts and ♠Q, a heart may be led (D6)",
               kind=bool),
        Option("moon", "add", "shooting the moon: the others +26, or the shooter -26 (D8)",
               choices=("add", "subtract")),
        Option("jd_bonus", False, "♦J counts -10 (D9)", kind=bool),
        Option("avoid_all_tricks_bonus", False, "-5 to a seat that takes no trick (D9)", kind=bool),
        Option("returns", "relative", "returns: others' mean score minus own, or 26 - points (D10)",
               choices=("relative", "openspiel")),
        Option("match_target", 100, "a match ends when a score reaches this (D11)", kind=int, min=1, max=10_000),
        Option("max_deals", 50, "a match ends after at most this many deals (D11)", kind=int, min=1, max=1000),
        SCOPE,
    ),
    presets={"openspiel": OPENSPIEL},
    metrics=(
        Metric("shooter", "seat that shot the moon in the last deal (-1: none)", categories="seat"),
        Metric("queen_taker", "seat that took ♠Q in the last deal", categories="seat"),
        Metric("pass_dir", "pass direction of the last deal", categories=PASS_DIRS),
        Metric("dealer", "dealer of the last deal", categories="seat"),
        Metric("deals", "deals played"),
    ),
    # 6 seat slots whatever the table size
    observation=(
        ObsBlock("hand", 52, "own hand: 1 per card held"),
        ObsBlock("passed", 52, "cards this seat passes (chosen so far) or passed this deal", seats=FIXED),
        ObsBlock("received", 52, "cards this seat received in the pass", seats=FIXED),
        ObsBlock("played", 6 * 52, "cards played by each seat slot this deal, 6 x 52", seats=per_seat(6)),
        ObsBlock("trick", 6 * 52, "current trick: the card played by each seat slot, 6 x 52", seats=per_seat(6)),
        ObsBlock("points", 6, "points in the cards each seat slot took this deal, / 26", seats=per_seat(6)),
        ObsBlock("tricks", 6, "tricks each seat slot won this deal, / 13", seats=per_seat(6)),
        ObsBlock("broken", 1, "1 once hearts are broken (or when they need no breaking)"),
        ObsBlock("pass_dir", 4, "pass direction one-hot: hold, left, across, right"),
        ObsBlock("phase", 3, "phase one-hot: pass, play, end"),
        ObsBlock("turn", 6, "seat to act, one-hot (all 0 at the end)", seats=one_hot_seat(6)),
        ObsBlock("dealer", 6, "dealer, one-hot", seats=one_hot_seat(6)),
        ObsBlock("observer", 6, "observing seat, one-hot", seats=one_hot_seat(6)),
        ObsBlock("score", 6, "scores of each seat slot, / match_target", seats=per_seat(6)),
        ObsBlock("deals", 1, "deals finished, / max_deals"),
    ),
    return_bounds=_return_bounds,
    max_game_length=_max_game_length,
    check_options=_check,
    conformance_configs=(
        {},
        {"players": 3},
        {"players": 5, "pass_rotation": "random"},
        {"players": 6, "scope": "match", "match_target": 30},
        {"variant": "openspiel"},
        {"moon": "subtract", "jd_bonus": True, "avoid_all_tricks_bonus": True, "first_lead": "any_club",
         "lead_hearts_over_queen": True, "queen_breaks_hearts": False, "scope": "match", "match_target": 40},
        {"must_break_hearts": False, "no_points_first_trick": False, "pass_rotation": "hold"},
    ),
)
