"""Exposure: the Python face of the game (docs/rules/exposure.md) — its facts (INFO), the card
notation, the rule oracles on card strings and the scenario builders.

2 players, 24 cards (A K Q J 10 9), three face-up cards that set the high rank, the trump suit and
the contract target, meld declarations that expose cards, nine tricks, a game to 50. The options,
metrics, observation blocks and bounds are declared once in `INFO` (cardsim.games.exposure.info).
The kernel lives in ext/cardsim/games/exposure/: `_state` (the state machine; its docstring gives
the decisions followed, the action space and the returns), `_agent` (the greedy agent),
`_observe` (observation and resampling), `_rules` (the pure rule kernels and the compiled
oracles) and `_spec` (the glue, ExposureSpec).

Rule oracles (card strings, the engine's kernels): `trick_winner(plays, trump, high_rank)`,
`legal_follows(hand, led, exposed)`, `contract_target`, `score_deal`, `match_outcome`,
`deal_order`, `declaration_actions`, `declare_melds`; `scenario(game, hands, table=[H, T, C],
dealer=1, scores=None)` (or `deal_hands(game, ...)`, `game.spec.scenario(...)`) builds a state for
analysis. This module checks and converts every argument before a kernel sees it: bad input
raises ConfigError, ParseError or IllegalActionError, never reaches C.
"""
from __future__ import annotations

from cardsim.core._engine import check_int
from cardsim.errors import ConfigError, IllegalActionError, ParseError, short
from cardsim.games.exposure import _rules as _r, _spec
from cardsim.info import scenario_spec
from cardsim.games.exposure.info import DEFAULT_MELD_POINTS, INFO, MELD_TYPES  # noqa: F401 (re-exported)

__doc__ += "\n" + INFO.layout_doc() + "\n"
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length

# ---- card notation: id = rank*4 + suit, ranks 9 10 J Q K A, suits S H D C (see notation) ------------
from cardsim.games.exposure.notation import (DISPLAY_ORDER, MAX_SCORE, RANKS, SUITS, _scenario,  # noqa: E402,F401
                                           card_str, cards_to_mask, mask_to_cards, parse_card, parse_rank,
                                           parse_suit)


def build(opts: dict):
    """The compiled spec of the resolved options `opts` (cardsim.make calls it)."""
    return _Spec(opts)


# ---- rule oracles on card strings ---------------------------------------------------------------
def _high(high_rank) -> int:
    """A rank ('Q', '10', 'T') or a card whose rank counts ('QC')."""
    if not isinstance(high_rank, str):
        raise ParseError(f"exposure: high_rank must be a rank like 'Q' or '10', got {short(high_rank)}")
    try:
        return parse_rank(high_rank)
    except ParseError:
        try:
            return parse_card(high_rank) >> 2
        except ParseError:
            raise ParseError(f"exposure: bad high rank {short(high_rank)}; ranks: 9 10 J Q K A") from None


def _trump(trump) -> int:
    """A suit ('H', '♥') or a card whose suit counts ('10H')."""
    if not isinstance(trump, str):
        raise ParseError(f"exposure: trump must be a suit like 'H', got {short(trump)}")
    try:
        return parse_suit(trump)
    except ParseError:
        try:
            return parse_card(trump) & 3
        except ParseError:
            raise ParseError(f"exposure: bad trump {short(trump)}; suits: S H D C") from None


def trick_winner(plays: list[str], trump: str, high_rank: str) -> int:
    """Index (0 = leader, 1 = follower) of the winner of a trick (§5): plays[0] is led.
    trump: the trump suit ('H') or the T-card; high_rank: the high rank ('Q') or the H-card."""
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 2:
        raise ParseError(f"exposure: a trick is a list of 1 or 2 cards, got {short(plays)}")
    cards = [parse_card(c) for c in plays]
    if len(set(cards)) != len(cards):
        raise ParseError(f"exposure: a card appears twice in the trick {short(plays)}")
    t, h = _trump(trump), _high(high_rank)
    if len(cards) == 1:
        return 0
    return _r.oracle_trick_winner(cards[0], cards[1], t, h)


def legal_follows(hand: list[str], led: str | None, exposed: list[str] = ()) -> list[str]:
    """Cards of hand ∪ exposed that may be played to a trick led by `led` (None: on lead)."""
    hm, em = cards_to_mask(hand), cards_to_mask(exposed)
    if hm & em:
        raise ParseError(f"exposure: a card is both in the hand and exposed: {mask_to_cards(hm & em)}")
    if len(hand) + len(exposed) > 9:
        raise ConfigError(f"exposure: a player holds at most 9 cards (hand and exposed), got "
                          f"{len(hand) + len(exposed)}")
    m = hm | em
    lc = -1 if led is None else parse_card(led)
    if lc >= 0 and (m >> lc) & 1:
        raise ConfigError(f"exposure: the led card {short(led)} cannot also be the follower's")
    return mask_to_cards(_r.oracle_follow(m, lc))


def contract_target(contract_card: str) -> int:
    """Tricks to take exactly for the contract bonus: A 9, K 8, Q 7, J 6, 10 5, 9 4."""
    return _high(contract_card) + 4


def score_deal(tricks: list[int], meld_points: list[int], contract: str | int, **options) -> tuple[int, int]:
    """Deal points per player (§6) with the engine's kernel: tricks won, meld points, and the
    contract target (an int) or the C-card / its rank; `options` as for cardsim.make."""
    if (not isinstance(tricks, (list, tuple)) or len(tricks) != 2
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks) or sum(tricks) != 9):
        raise ConfigError(f"exposure: tricks must be two counts summing to 9, got {short(tricks)}")
    if not isinstance(meld_points, (list, tuple)) or len(meld_points) != 2 or any(isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= 900
                                    for m in meld_points):
        raise ConfigError(f"exposure: meld_points must be two ints in 0..900, got {short(meld_points)}")
    if isinstance(contract, int) and not isinstance(contract, bool):
        if not 4 <= contract <= 9:
            raise ConfigError(f"exposure: a contract target is 4..9 tricks, got {short(contract)}")
        target = contract
    else:
        target = contract_target(contract)
    o = INFO.resolve(options)
    return _r.oracle_deal_points(o["points_per_trick"], o["contract_bonus"], list(tricks), list(meld_points), target)


def match_outcome(scores: list[int], target_score: int = 50):
    """Game end (§7) after a deal: None = play another deal, -1 = draw, else the winning seat."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (list, tuple)) or len(scores) != 2:
        raise ConfigError(f"exposure: scores must be two ints, got {short(scores)}")
    a, b = (check_int(v, "exposure: scores", -2**31, 2**31 - 1, ConfigError) for v in scores)
    target = check_int(target_score, "exposure: target_score", 1, 2**31 - 1, ConfigError)
    o = _r.oracle_match_outcome(a, b, target)
    return None if o == -2 else o


def deal_order(deck: list[str], dealer: int) -> dict:
    """Where each card of a deck (in dealing order) goes (§3), by the engine's dealing kernel."""
    dealer = check_int(dealer, "exposure: dealer", 0, 1, ConfigError)
    if isinstance(deck, (str, bytes)) or not isinstance(deck, (list, tuple)):
        raise ParseError(f"exposure: a deck is a list of the 24 cards, got {short(deck)}")
    perm = [parse_card(c) for c in deck]
    if len(perm) != 24 or len(set(perm)) != 24:
        raise ConfigError("exposure: a deck is the 24 distinct cards")
    hands, table, aside, first, high, trump, target = _r.oracle_deal_order(perm, dealer)
    return {"hands": [mask_to_cards(h) for h in hands], "table": [card_str(c) for c in table],
            "aside": mask_to_cards(aside), "first": first, "high_rank": RANKS[high],
            "trump": SUITS[trump], "target": target}


def _own_game(game):
    """game, checked to be an Exposure game (cardsim.make("exposure", ...))."""
    return INFO.game_of(game)


def deal_hands(game, hands: list[list[str]], table: list[str], dealer: int = 1, scores=None):
    """A state at the start of the declarations with the given hands and face-up cards [H, T, C]
    (for scenarios and analysis); the other three cards are set aside. The same as
    game.spec.scenario(hands, table=table, dealer=dealer, scores=scores)."""
    return _own_game(game).spec.scenario(hands, table=table, dealer=dealer, scores=scores)


def declaration_actions(melds: list[list[str]]) -> list[str]:
    """The action strings that declare `melds` in order and end the turn: for each meld one
    'MELD <card>' per card, then 'DECLARE'; finally 'DONE'."""
    if isinstance(melds, (str, bytes)) or not isinstance(melds, (list, tuple)):
        raise ParseError(f"exposure: melds must be a list of card lists, got {short(melds)}")
    out = []
    for meld in melds:
        if isinstance(meld, str) or not isinstance(meld, (list, tuple)) or not meld:
            raise ParseError(f"exposure: a meld is a non-empty list of cards, got {short(meld)}")
        out += ["MELD " + card_str(parse_card(c)) for c in meld] + ["DECLARE"]
    return out + ["DONE"]


def declare_melds(hand: list[str], table: list[str], melds: list[list[str]], **options) -> int:
    """Declare `melds` in order from a 9-card `hand` with face-up cards `table` [H, T, C] through the
    engine's legal-action kernel; returns the meld points, raises IllegalActionError if a meld
    is illegal (alone or after the earlier ones)."""
    spec = build(INFO.resolve_kwargs(options))
    hm = cards_to_mask(hand)
    tm = cards_to_mask(table)
    if isinstance(melds, (str, bytes)) or not isinstance(melds, (list, tuple)) or any(
            isinstance(m, (str, bytes)) or not isinstance(m, (list, tuple)) for m in melds):
        raise ParseError(f"exposure: melds must be a list of card lists, got {short(melds)}")
    rest = [card_str(c) for c in range(24) if not ((hm | tm) >> c) & 1]
    st = spec.scenario([list(hand), rest[:9]], table=list(table), dealer=1)   # player 0 declares first
    for meld in melds:
        for card in meld:
            a = st.string_to_action("MELD " + card)
            if not st.is_legal(a):
                raise IllegalActionError(f"exposure: meld {short(meld)}: adding {short(card)} is illegal here")
            st.apply(a)
        a = st.string_to_action("DECLARE")
        if not st.is_legal(a):
            raise IllegalActionError(f"exposure: {short(meld)} is not a complete legal meld")
        st.apply(a)
    return spec.view(st)["meld_points"][0]


def scenario(game, hands, **facts):
    """A fresh state (declaration phase) built from card strings, for scenarios and analysis: two
    9-card hands and the public facts table (the face-up cards [H, T, C], required), dealer (0 or
    1, default 1) and scores (the two cumulative scores before this deal, scope "match"); the
    remaining three cards are set aside. Every argument is checked before the state is built
    (ConfigError / ParseError), and the state is marked not replayable. Same as
    game.spec.scenario(hands, **facts)."""
    return _scenario(_own_game(game).spec, hands, facts)


_Spec = scenario_spec(_spec.ExposureSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay exposure --html`, cardsim.replay.table_of) draws of a
    position: the three face-up table cards, each player's exposed cards and melds, the trick, and
    the tricks, meld points and scores. `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        names = INFO.seat_names_for(2)
        zones = [{"name": "face-up table cards", "groups": [
            {"cards": [v["high_card"]], "label": f"high: {v['high_rank']}"},
            {"cards": [v["trump_card"]], "label": f"trump: {v['trump']}"},
            {"cards": [v["contract_card"]], "label": f"contract: {v['target']} tricks"}]}]
        melds = [{"seat": p, "cards": m, "label": f"{names[p]} meld"} for p in range(2) for m in v["melds"][p]]
        if melds:
            zones.append({"name": "melds", "groups": melds})
        if any(v["exposed"]):
            zones.append({"name": "exposed cards", "groups": [{"seat": p, "cards": v["exposed"][p]}
                                                              for p in range(2) if v["exposed"][p]]})
        if v["led"] is not None:
            zones.append({"name": "trick", "trick": True, "groups": [{"seat": v["leader"], "cards": [v["led"]]}]})
        else:
            zones.append({"name": "trick", "trick": True, "groups": []})
        facts = [("dealer", names[v["dealer"]]), ("trump", v["trump"]), ("contract", f"{v['target']} tricks")]
        scores = [
            {"label": "tricks", "cols": names, "values": v["tricks"]},
            {"label": "meld points", "cols": names, "values": v["meld_points"]},
            {"label": "deal points", "cols": names, "values": v["deal_points"]},
            {"label": "score", "cols": names, "values": v["score"]},
        ]
        return {"zones": zones, "facts": facts, "scores": scores}
