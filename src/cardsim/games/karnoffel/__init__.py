"""Karnöffel: the Python face of the game (docs/rules/karnoffel.md) — its facts (INFO), the card
notation, the rule oracles on card strings and scenario states.

4 or 6 players in two teams (seat p is on team p % 2), 48 cards (no Aces), five cards each, the
chosen suit from the lowest face-up card, no duty to follow, first team to three tricks wins the
deal. The options, metrics, observation blocks and bounds are declared once in `INFO`
(cardsim.games.karnoffel.info). The kernel lives in ext/cardsim/games/karnoffel/: `_state` (the
state machine; its docstring gives the decisions followed, the action space and the returns),
`_agent` (the greedy agent), `_observe` (observation and resampling), `_rules` (the pure rule
kernels and the compiled oracles) and `_spec` (the glue, KarnoffelSpec).

This module checks and converts every argument (card strings, scenario hands and public facts)
before a kernel sees it: bad input raises ConfigError or ParseError, never reaches C.
"""
from __future__ import annotations

from cardsim.errors import ConfigError, ParseError, short
from cardsim.games.karnoffel import _rules, _spec
from cardsim.info import scenario_spec
from cardsim.games.karnoffel.info import INFO, SUITS

__doc__ += "\n" + INFO.layout_doc() + "\n"
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

# ---- card notation: id = suit*12 + rank, suits S H D C, ranks 2..K (no Aces) (see notation) --------
from cardsim.games.karnoffel.notation import (DISPLAY_ORDER, RANKS, _scenario, card_str,  # noqa: E402,F401
                                            cards_to_mask, mask_to_cards, parse_card, parse_suit)


def build(opts: dict):
    """The compiled spec of the resolved options `opts` (cardsim.make calls it)."""
    return _Spec(opts)


# ---- rule oracles on card strings (docs/rules/karnoffel.md §3.4, §5) -------------------------------
def _cards(plays, what):
    if not isinstance(plays, (list, tuple)):
        raise ParseError(f"karnoffel: {what} must be a list of card strings, got {short(plays)}")
    cards = [parse_card(c) for c in plays]
    if len(set(cards)) != len(cards):
        raise ParseError(f"karnoffel: a card appears twice in {short(plays)} (one deck)")
    return cards


def trick_winner(plays: list[str], chosen_suit: str) -> int:
    """Index of the winning card of a complete trick (§5): plays[0] is the lead, 4 or 6 cards;
    chosen_suit 'S'/'H'/'D'/'C' (or a suit symbol)."""
    cards = _cards(plays, "a trick")
    if len(cards) not in (4, 6):
        raise ParseError(f"karnoffel: a trick has 4 or 6 cards, got {len(cards)}")
    return _rules.oracle_trick_winner(cards, parse_suit(chosen_suit))


def current_winner(plays: list[str], chosen_suit: str) -> int:
    """Index of the card winning a trick so far (1 to 6 cards, plays[0] led)."""
    cards = _cards(plays, "a trick")
    if not 1 <= len(cards) <= 6:
        raise ParseError(f"karnoffel: a trick has 1 to 6 cards, got {len(cards)}")
    return _rules.oracle_trick_winner(cards, parse_suit(chosen_suit))


def chosen_suit(up_cards: list[str]) -> str:
    """The chosen suit (§3.4) from the face-up cards in dealing order (4 or 6 cards): the suit
    of the lowest by natural order, a tie going to the card dealt first."""
    cards = _cards(up_cards, "the up-cards")
    if len(cards) not in (4, 6):
        raise ParseError(f"karnoffel: 4 or 6 up-cards, got {len(cards)}")
    return SUITS[_rules.oracle_chosen_suit(cards)]


def legal_plays(hand: list[str]) -> list[str]:
    """Cards of `hand` (at most 5) that may be played (§5): all of them, whatever was led."""
    m = cards_to_mask(hand)
    if len(hand) > 5:
        raise ConfigError(f"karnoffel: a hand holds at most 5 cards, got {len(hand)}")
    return mask_to_cards(m)


# ---- scenario states ------------------------------------------------------------------------------
def scenario(game, hands: list[list[str]], dealer: int = 0, up: list[str] | None = None):
    """A fresh deal at the start of play (nothing played, match score 0-0) with these hands:
    hands[q] is seat q's 5 cards (card strings); `dealer` (a seat) deals, so seat next(dealer)
    leads; up[q] is seat q's face-up card (default: the first card of each hand), which fixes the
    chosen suit (§3.4, dealing order from next(dealer)). Undealt cards form the stock. The state
    is not replayable (State.replayable is False). Same as game.spec.scenario(hands, dealer=...,
    up=...). Raises ConfigError (or ParseError for a card that does not parse) before building."""
    return _scenario(INFO.game_of(game).spec, hands, dealer, up)


_Spec = scenario_spec(_spec.KarnoffelSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay karnoffel --html`, cardsim.replay.table_of) draws of a
    position: the face-up cards that chose the suit, the trick, and each team's tricks and game
    points. `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        n = len(v["up"])
        names = INFO.seat_names_for(n)
        teams = INFO.side_names(n, 2)
        zones = [{"name": "trick", "trick": True,
                  "groups": [{"seat": p, "cards": [c]} for p, c in enumerate(v["trick"]) if c is not None]}]
        if v["phase"] != "play" or v["tricks_done"] == 0:
            zones.append({"name": "face-up cards (they chose the suit)",
                          "groups": [{"seat": p, "cards": [c]} for p, c in enumerate(v["up"]) if c]})
        facts = [("dealer", names[v["dealer"]]), ("chosen suit", v["chosen"])]
        scores = [{"label": "tricks", "cols": teams, "values": list(v["team_tricks"])},
                  {"label": "game points", "cols": teams, "values": list(v["score"])}]
        return {"zones": zones, "facts": facts, "scores": scores}
