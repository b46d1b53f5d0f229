"""Exposure: options, presets and rule oracles (docs/rules/exposure.md).

See the docstring of the compiled module `cardsim.games._exposure` for the action space, the
observation layout, the returns and the greedy agent. Rule oracles (card strings, the engine's
kernels): `trick_winner(plays, trump, high_rank)`, `legal_follows(hand, led, exposed)`,
`contract_target`, `score_deal`, `match_outcome`, `deal_order`, `declaration_actions`,
`declare_melds`; `game.spec.scenario(hands, table=[H, T, C], dealer=1, scores=None)` (or
`deal_hands(game, ...)`) builds a state for analysis.
"""
from __future__ import annotations

import numpy as np

from cardsim.core._engine import _short, check_int
from cardsim.errors import ConfigError, IllegalActionError, ParseError
from cardsim.games import _exposure as _k
from cardsim.games import _exposure_rules as _r
from cardsim.options import SCOPE, Option

NAME = "exposure"
PLAYERS = (2,)
DEFAULT_PLAYERS = 2
MELD_TYPES = ("three_of_a_kind", "four_of_a_kind", "sequence_4", "sequence_5", "sequence_6")
DEFAULT_MELD_POINTS = (1, 2, 1, 2, 3)


def _meld_points(value):
    """5 ints in the order of MELD_TYPES, or a dict overriding some of them."""
    table = list(DEFAULT_MELD_POINTS)
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in MELD_TYPES:
                raise ConfigError(f"exposure: meld_points key {_short(k)} unknown; keys: {list(MELD_TYPES)}")
            table[MELD_TYPES.index(k)] = v
    elif isinstance(value, (list, tuple)) and len(value) == 5:
        table = list(value)
    else:
        raise ConfigError(f"exposure: meld_points must be 5 ints ({', '.join(MELD_TYPES)}) or a dict, got {_short(value)}")
    for v in table:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
            raise ConfigError(f"exposure: meld_points values must be ints in 0..100, got {_short(v)}")
    return tuple(table)


def _min_hand(value):
    """2 or 1, as an int (not 2.0 nor True)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value not in (2, 1):
        raise ConfigError(f"exposure: option 'min_hand_cards_per_meld' must be one of [2, 1], got {_short(value)}")
    return int(value)


OPTIONS = (
    Option("declaration_order", "non_dealer_first",
           "non-dealer declares, then the dealer (D1); or simultaneous (hidden until both are done)",
           choices=("non_dealer_first", "simultaneous")),
    Option("min_hand_cards_per_meld", 2, "hand cards a meld needs at least (seed: 2; pagat: 1)",
           validate=_min_hand),
    Option("table_card_reuse", "once_per_player",
           "a face-up card serves one meld of a player (D2), or several (pagat)",
           choices=("once_per_player", "reusable")),
    Option("target_score", 50, "a match ends once someone reaches this score", kind=int, min=1, max=10_000),
    Option("meld_points", DEFAULT_MELD_POINTS,
           "points of 3 of a kind, 4 of a kind, 4, 5 and 6 in sequence (D3)", validate=_meld_points),
    Option("points_per_trick", 2, "points per trick won", kind=int, min=0, max=100),
    Option("contract_bonus", 5, "bonus for exactly the contract target", kind=int, min=0, max=100),
    Option("max_deals", 10_000, "scope 'match': the match ends after this many deals, the higher score "
           "winning (D6)", kind=int, min=1, max=30_000),
    SCOPE,
)
PRESETS: dict[str, dict] = {
    # pagat.com's description [S1]: no minimum of hand cards, contract cards reusable.
    "pagat": {"min_hand_cards_per_meld": 1, "table_card_reuse": "reusable"},
}

# Configurations the generic conformance suite runs (tests/conformance).
CONFORMANCE_CONFIGS = (
    {},
    {"scope": "match"},
    # the "pagat" preset's options, spelled out (a preset name does not survive pickling: the
    # core's _rebuild_spec drops `variant`)
    {"declaration_order": "simultaneous", "min_hand_cards_per_meld": 1, "table_card_reuse": "reusable"},
)


def build(opts: dict):
    return _k.ExposureSpec(opts)


def _resolved(opts) -> dict:
    """opts resolved and checked as cardsim.make resolves them (cardsim.game.resolved_options)."""
    from cardsim.game import resolved_options

    return resolved_options(NAME, opts)


def _max_melds(o: dict) -> int:
    """Most melds one player can declare in a deal: each takes at least min_hand_cards_per_meld
    of his 9 hand cards (a hand card serves one meld); with face-up cards usable once per player,
    his melds of >= 3 cards share his 9 + 3 cards, so at most 4."""
    m = 9 // o["min_hand_cards_per_meld"]
    if o["table_card_reuse"] != "reusable":
        m = min(m, (9 + 3) // 3)
    return m


def _deal_gain(o: dict) -> int:
    """Most points one player can make in a deal: 9 tricks, his melds, the contract bonus."""
    return 9 * o["points_per_trick"] + _max_melds(o) * max(o["meld_points"]) + o["contract_bonus"]


def _max_deals(o: dict) -> int:
    """Deals in a match at most: every deal adds 9 x points_per_trick to the sum of the two
    scores and the match goes on only while both are below the target: k deals without an end
    need 9 ppt k <= 2 (target - 1); and never more than max_deals (D6)."""
    if o["scope"] != "match":
        return 1
    if o["points_per_trick"] == 0:
        return o["max_deals"]
    return min(o["max_deals"], 2 * (o["target_score"] - 1) // (9 * o["points_per_trick"]) + 1)


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return of any seat in a terminal state of this
    configuration (opts: ``cardsim.make("exposure", ...).options``).

    Derivation (docs/rules/exposure.md "Bounds"): a return is own points minus the opponent's
    (zero-sum, symmetric bounds). One player's points in a deal are at most G = 9 x
    points_per_trick + m x (largest meld value) + contract_bonus, m = the most melds he can
    declare (9 // min_hand_cards_per_meld, and at most 4 when a face-up card serves one meld of
    a player: 12 cards, >= 3 per meld); the opponent has >= 0: |return| <= G for a deal. A match
    goes on only while both scores are below the target T (or ends at the deal cap, both below
    T), so before its last deal both are in 0..T-1 and the last deal adds at most G to one:
    |return| <= T - 1 + G."""
    o = _resolved(opts)
    g = _deal_gain(o)
    hi = g if o["scope"] != "match" else o["target_score"] - 1 + g
    return (-float(hi), float(hi))


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state, for any legal play.

    Derivation (docs/rules/exposure.md "Bounds"): per player, the declarations take one MELD per
    card of a declared meld (a started meld must be declared: no action is undone), one DECLARE
    per meld and one DONE: his 9 hand cards at most once each, face-up cards 3 in all (or 3 per
    meld when reusable), m melds (see return_bounds): 9 + 3 (or 3 m) + m + 1; then 18 cards in
    9 tricks. A match has at most D deals: min(max_deals (D6), floor(2 (T - 1) / (9 ppt)) + 1)
    when points_per_trick > 0, else max_deals."""
    o = _resolved(opts)
    m = _max_melds(o)
    table = 3 * m if o["table_card_reuse"] == "reusable" else 3
    deal = 18 + 2 * (9 + table + m + 1)
    return _max_deals(o) * deal


def _high(high_rank) -> int:
    """A rank ('Q', '10', 'T') or a card whose rank counts ('QC')."""
    if not isinstance(high_rank, str):
        raise ParseError(f"exposure: high_rank must be a rank like 'Q' or '10', got {_short(high_rank)}")
    try:
        return _k.parse_rank(high_rank)
    except ParseError:
        try:
            return _k.parse_card(high_rank) >> 2
        except ParseError:
            raise ParseError(f"exposure: bad high rank {_short(high_rank)}; ranks: 9 10 J Q K A") from None


def _trump(trump) -> int:
    """A suit ('H', '♥') or a card whose suit counts ('10H')."""
    if not isinstance(trump, str):
        raise ParseError(f"exposure: trump must be a suit like 'H', got {_short(trump)}")
    try:
        return _k.parse_suit(trump)
    except ParseError:
        try:
            return _k.parse_card(trump) & 3
        except ParseError:
            raise ParseError(f"exposure: bad trump {_short(trump)}; suits: S H D C") from None


def trick_winner(plays: list[str], trump: str, high_rank: str) -> int:
    """Index (0 = leader, 1 = follower) of the winner of a trick (§5): plays[0] is led.
    trump: the trump suit ('H') or the T-card; high_rank: the high rank ('Q') or the H-card."""
    if not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 2:
        raise ParseError(f"exposure: a trick is a list of 1 or 2 cards, got {_short(plays)}")
    cards = [_k.parse_card(c) for c in plays]
    if len(set(cards)) != len(cards):
        raise ParseError(f"exposure: a card appears twice in the trick {_short(plays)}")
    t, h = _trump(trump), _high(high_rank)
    if len(cards) == 1:
        return 0
    return _r.oracle_trick_winner(cards[0], cards[1], t, h)


def legal_follows(hand: list[str], led: str | None, exposed: list[str] = ()) -> list[str]:
    """Cards of hand ∪ exposed that may be played to a trick led by `led` (None: on lead)."""
    hm, em = _k.cards_to_mask(hand), _k.cards_to_mask(exposed)
    if hm & em:
        raise ParseError(f"exposure: a card is both in the hand and exposed: {_k.mask_to_cards(hm & em)}")
    if len(hand) + len(exposed) > 9:
        raise ConfigError(f"exposure: a player holds at most 9 cards (hand and exposed), got "
                          f"{len(hand) + len(exposed)}")
    m = hm | em
    lc = -1 if led is None else _k.parse_card(led)
    if lc >= 0 and (m >> lc) & 1:
        raise ConfigError(f"exposure: the led card {_short(led)} cannot also be the follower's")
    return _k.mask_to_cards(_r.oracle_follow(m, lc))


def contract_target(contract_card: str) -> int:
    """Tricks to take exactly for the contract bonus: A 9, K 8, Q 7, J 6, 10 5, 9 4."""
    return _high(contract_card) + 4


def score_deal(tricks: list[int], meld_points: list[int], contract: str | int, **options) -> tuple[int, int]:
    """Deal points per player (§6) with the engine's kernel: tricks won, meld points, and the
    contract target (an int) or the C-card / its rank."""
    from cardsim.game import make

    if (not isinstance(tricks, (list, tuple)) or len(tricks) != 2
            or any(isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks) or sum(tricks) != 9):
        raise ConfigError(f"exposure: tricks must be two counts summing to 9, got {_short(tricks)}")
    if not isinstance(meld_points, (list, tuple)) or len(meld_points) != 2 or any(isinstance(m, bool) or not isinstance(m, int) or not 0 <= m <= 900
                                    for m in meld_points):
        raise ConfigError(f"exposure: meld_points must be two ints in 0..900, got {_short(meld_points)}")
    if isinstance(contract, int) and not isinstance(contract, bool):
        if not 4 <= contract <= 9:
            raise ConfigError(f"exposure: a contract target is 4..9 tricks, got {_short(contract)}")
        target = contract
    else:
        target = contract_target(contract)
    spec = make(NAME, **options).spec
    return _k.oracle_score(spec, list(tricks), list(meld_points), target)


def match_outcome(scores: list[int], target_score: int = 50):
    """Game end (§7) after a deal: None = play another deal, -1 = draw, else the winning seat."""
    if isinstance(scores, (str, bytes)) or not isinstance(scores, (list, tuple)) or len(scores) != 2:
        raise ConfigError(f"exposure: scores must be two ints, got {_short(scores)}")
    a, b = (check_int(v, "exposure: scores", -2**31, 2**31 - 1, ConfigError) for v in scores)
    target = check_int(target_score, "exposure: target_score", 1, 2**31 - 1, ConfigError)
    o = _r.oracle_match_outcome(a, b, target)
    return None if o == -2 else o


def deal_order(deck: list[str], dealer: int) -> dict:
    """Where each card of a deck (in dealing order) goes (§3), by the engine's dealing kernel."""
    dealer = check_int(dealer, "exposure: dealer", 0, 1, ConfigError)
    if isinstance(deck, (str, bytes)) or not isinstance(deck, (list, tuple)):
        raise ParseError(f"exposure: a deck is a list of the 24 cards, got {_short(deck)}")
    perm = [_k.parse_card(c) for c in deck]
    if len(perm) != 24 or len(set(perm)) != 24:
        raise ConfigError("exposure: a deck is the 24 distinct cards")
    hands, table, aside, first, high, trump, target = _k.oracle_deal_order(perm, dealer)
    return {"hands": [_k.mask_to_cards(h) for h in hands], "table": [_k.card_str(c) for c in table],
            "aside": _k.mask_to_cards(aside), "first": first, "high_rank": _k.RANKS[high],
            "trump": _k.SUITS[trump], "target": target}


def _own_game(game):
    """game, checked to be an Exposure game (cardsim.make("exposure", ...))."""
    from cardsim.game import Game

    if not isinstance(game, Game) or game.name != NAME:
        raise ConfigError(f"exposure: expected an Exposure game (cardsim.make('exposure', ...)), got {_short(game)}")
    return game


def deal_hands(game, hands: list[list[str]], table: list[str], dealer: int = 1, scores=None):
    """A state at the start of the declarations with the given hands and face-up cards [H, T, C]
    (for scenarios and analysis); the other three cards are set aside. The same as
    game.spec.scenario(hands, table=table, dealer=dealer, scores=scores)."""
    return _own_game(game).spec.scenario(hands, table=table, dealer=dealer, scores=scores)


def declaration_actions(melds: list[list[str]]) -> list[str]:
    """The action strings that declare `melds` in order and end the turn: for each meld one
    'MELD <card>' per card, then 'DECLARE'; finally 'DONE'."""
    if isinstance(melds, (str, bytes)) or not isinstance(melds, (list, tuple)):
        raise ParseError(f"exposure: melds must be a list of card lists, got {_short(melds)}")
    out = []
    for meld in melds:
        if isinstance(meld, str) or not isinstance(meld, (list, tuple)) or not meld:
            raise ParseError(f"exposure: a meld is a non-empty list of cards, got {_short(meld)}")
        out += ["MELD " + _k.card_str(_k.parse_card(c)) for c in meld] + ["DECLARE"]
    return out + ["DONE"]


def declare_melds(hand: list[str], table: list[str], melds: list[list[str]], **options) -> int:
    """Declare `melds` in order from a 9-card `hand` with face-up cards `table` [H, T, C] through the
    engine's legal-action kernel; returns the meld points, raises IllegalActionError if a meld
    is illegal (alone or after the earlier ones)."""
    from cardsim.game import make

    g = make(NAME, **options)
    hm = _k.cards_to_mask(hand)
    tm = _k.cards_to_mask(table)
    if isinstance(melds, (str, bytes)) or not isinstance(melds, (list, tuple)) or any(
            isinstance(m, (str, bytes)) or not isinstance(m, (list, tuple)) for m in melds):
        raise ParseError(f"exposure: melds must be a list of card lists, got {_short(melds)}")
    rest = [_k.card_str(c) for c in range(24) if not ((hm | tm) >> c) & 1]
    st = g.spec.scenario([list(hand), rest[:9]], table=list(table), dealer=1)   # player 0 declares first
    for meld in melds:
        for card in meld:
            a = st.string_to_action("MELD " + card)
            if not st.is_legal(a):
                raise IllegalActionError(f"exposure: meld {_short(meld)}: adding {_short(card)} is illegal here")
            st.apply(a)
        a = st.string_to_action("DECLARE")
        if not st.is_legal(a):
            raise IllegalActionError(f"exposure: {_short(meld)} is not a complete legal meld")
        st.apply(a)
    return g.spec.view(st)["meld_points"][0]


def scenario(game, hands, **facts):
    """A state built from card strings for scenarios and analysis: game.spec.scenario(hands,
    **facts) (two 9-card hands; facts: table ([H, T, C], required), dealer, scores. See
    ExposureSpec.scenario.); every argument is validated before the state is touched, and the state is
    marked not replayable."""
    return _own_game(game).spec.scenario(hands, **facts)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
