"""Hearts: the Python face of the game (docs/rules/hearts.md) — its facts (INFO), the card
notation, the rule oracles on card strings and scenario states.

3 to 6 players (4 by default), each for themselves; a 3-card pass whose direction turns with the
deal, the ♣2 leads, follow suit, no trumps, hearts led only once broken, 1 point per heart and 13
for ♠Q, shooting the moon; lower scores are better. The `openspiel` preset is pyspiel's `hearts`
with its default parameters, returns included (26 - points). The options, metrics, observation
blocks and bounds are declared once in `INFO` (cardsim.games.hearts.info). The kernel lives in
ext/cardsim/games/hearts/: `_state` (the state machine; its docstring gives the decisions
followed, the action space and the returns), `_agent` (the greedy agent), `_observe`
(observation and resampling), `_rules` (the pure rule kernels and the compiled oracles) and
`_spec` (the glue, HeartsSpec).

This module checks and converts every argument (card strings, options, scenario hands) before a
kernel sees it: bad input raises ConfigError or ParseError, never reaches C.
"""
from __future__ import annotations

from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.hearts import _rules, _spec
from cardsim.info import scenario_spec
from cardsim.games.hearts.info import INFO, PASS_DIRS, SUITS, deck_size  # noqa: F401

__doc__ += "\n" + INFO.layout_doc() + "\n"
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

# ---- card notation: id = suit*13 + rank, suits S H D C, ranks 2..A (see notation) -----------------
from cardsim.games.hearts.notation import (DISPLAY_ORDER, RANKS, REMOVED, _scenario, card_str,  # noqa: E402,F401
                                           _check_in_deck, cards_to_mask, deck_mask, mask_to_cards,
                                           parse_card, parse_suit)


def build(opts: dict):
    """The compiled spec of the resolved options `opts` (cardsim.make calls it)."""
    return _Spec(opts)


# ---- rule oracles on card strings (docs/rules/hearts.md §5-§7) ------------------------------------
def _opts(variant, options):
    """The resolved options of an oracle call (ConfigError for an unknown option or value)."""
    return INFO.resolve(dict(options, variant=variant))


def _cards(plays, what, limit):
    if isinstance(plays, (str, bytes)) or not isinstance(plays, (list, tuple)):
        raise ParseError(f"hearts: {what} must be a list of card strings, got {short(plays)}")
    if len(plays) > limit:
        raise ParseError(f"hearts: {what} holds at most {limit} cards, got {len(plays)}")
    cards = [parse_card(c) for c in plays]
    if len(set(cards)) != len(cards):
        raise ParseError(f"hearts: a card appears twice in {what} (one pack)")
    return cards


def _flag(value, what):
    if type(value).__name__ not in ("bool", "bool_"):
        raise ConfigError(f"hearts: {what} must be True or False, got {short(value)}")
    return bool(value)


def trick_winner(trick: list[str], variant=None, **options) -> int:
    """Index (leader first) of the card winning `trick` (§5): the highest card of the led suit.
    trick: 1 to `players` cards (a partial trick gives the card winning so far)."""
    o = _opts(variant, options)
    cards = _cards(trick, "a trick", o["players"])
    if not cards:
        raise ParseError("hearts: a trick has at least 1 card")
    n = o["players"]
    m = sum(1 << c for c in cards)
    _check_in_deck(m, n, "the trick")
    return _rules.oracle_trick_winner(cards)


def legal_plays(hand: list[str], trick: list[str], hearts_broken: bool, first_trick: bool,
                variant=None, **options) -> list[str]:
    """The cards of `hand` that may be played (§5, D4-D6): trick = the cards played so far to
    this trick, leader first ([] on lead); hearts_broken: a heart (or ♠Q, with
    queen_breaks_hearts) was played earlier in the deal (ignored when must_break_hearts is
    False); first_trick: no trick completed yet (its lead is ♣2, or any club with first_lead =
    'any_club': the hand must then hold ♣2). Cards in display order."""
    o = _opts(variant, options)
    n = o["players"]
    h = _cards(hand, "a hand", deck_size(n) // n)
    t = _cards(trick, "the trick", n - 1)
    if not h:
        raise ConfigError("hearts: the hand is empty: nothing can be played")
    broken = _flag(hearts_broken, "hearts_broken")
    first = _flag(first_trick, "first_trick")
    hm = sum(1 << c for c in h)
    tm = sum(1 << c for c in t)
    if hm & tm:
        raise ParseError("hearts: a card is both in the hand and in the trick (one pack)")
    _check_in_deck(hm | tm, n, "the hand or the trick")
    if first and not t and not (hm >> parse_card("2C")) & 1:
        raise ConfigError("hearts: the first trick is led by the holder of 2C (D4): the hand must hold it")
    led = t[0] // 13 if t else -1
    return mask_to_cards(_rules.oracle_legal(o, hm, led, first, broken or not o["must_break_hearts"]))


def score_deal(taken: list[list[str]], variant=None, **options) -> list[float]:
    """The returns of a finished deal (§6-§7, D7-D10) from the cards each seat took: taken[q] =
    the cards in the tricks seat q won (whole tricks: a multiple of `players` cards; together
    every card of the table's pack once). Shooting the moon, the ♦J and no-trick bonuses and the
    returns convention follow the options (returns='openspiel': 26 - points; 'relative': the
    mean of the others' points minus own)."""
    o = _opts(variant, options)
    n = o["players"]
    if isinstance(taken, (str, bytes)) or not isinstance(taken, (list, tuple)) or len(taken) != n:
        raise ConfigError(f"hearts: taken must list {n} card lists, one per seat, got {short(taken)}")
    masks, seen = [], 0
    for q, cards in enumerate(taken):
        ids = _cards(cards, f"taken[{q}]", 52)
        if len(ids) % n:
            raise ConfigError(f"hearts: taken[{q}] must be whole tricks of {n} cards, got {len(ids)} cards")
        m = sum(1 << c for c in ids)
        if m & seen:
            raise ConfigError(f"hearts: a card of taken[{q}] is also taken by another seat (one pack)")
        seen |= m
        masks.append(m)
    if seen != deck_mask(n):
        raise ConfigError(f"hearts: the taken cards must be the whole {deck_size(n)}-card pack of {n} players "
                          f"once ({len(mask_to_cards(deck_mask(n) & ~seen))} missing, "
                          f"{len(mask_to_cards(seen & ~deck_mask(n)))} not in play)")
    return [float(x) for x in _rules.oracle_score(o, masks)[0]]


# ---- scenario states ------------------------------------------------------------------------------
def scenario(game, hands: list[list[str]], dealer: int | None = None, pass_dir: str | None = None):
    """A fresh deal at the start of the pass (or of the play when the deal holds) with these
    hands: hands[q] is seat q's dealt cards (card strings; the table's pack, 52 // players each);
    `dealer` (a seat; default the last seat, so seat 0 passes first as in OpenSpiel) deals;
    pass_dir 'hold' / 'left' / 'across' (4 players) / 'right', or None for the one the
    pass_rotation option gives (D2). Match score 0. The state is not replayable
    (State.replayable is False). Same as game.spec.scenario(hands, dealer=..., pass_dir=...).
    Raises ConfigError (or ParseError for a card that does not parse) before building."""
    return _scenario(INFO.game_of(game).spec, hands, dealer, pass_dir)



class Replay:
    """What the web replay (`cardsim replay hearts --html`, cardsim.replay.table_of) draws of a
    position: the trick in play, the cards passed (only a viewer's own, and those it received,
    when the page is seen by one seat), and per seat the tricks, the points of this deal and the
    match score. `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        n = len(v["trick"])
        names = INFO.seat_names_for(n)
        zones = [{"name": "trick", "trick": True,
                  "groups": [{"seat": p, "cards": [c]} for p, c in enumerate(v["trick"]) if c is not None]}]
        if v["phase"] == "pass" or v["tricks_done"] == 0:
            seen = range(n) if viewer is None else [viewer]
            passed = [{"seat": p, "label": "passed", "cards": v["passed"][p]} for p in seen if v["passed"][p]]
            got = [{"seat": p, "label": "received", "cards": v["received"][p]} for p in seen if v["received"][p]]
            if passed or got:
                zones.append({"name": f"the pass ({v['pass_dir']})", "groups": passed + got})
        facts = [("dealer", names[v["dealer"]]), ("pass", v["pass_dir"]),
                 ("hearts broken", "yes" if v["hearts_broken"] else "no")]
        if v["shooter"] is not None:
            facts.append(("shot the moon", names[v["shooter"]]))
        scores = [{"label": "tricks", "cols": names, "values": list(v["tricks"])},
                  {"label": "points this deal", "cols": names, "values": list(v["deal_points"])},
                  {"label": "match score", "cols": names, "values": list(v["score"])}]
        return {"zones": zones, "facts": facts, "scores": scores}


_Spec = scenario_spec(_spec.HeartsSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
