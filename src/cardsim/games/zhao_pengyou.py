"""Zhao Pengyou 找朋友 (Finding Friends): options, the deck table, rule oracles and helpers
(docs/rules/zhao_pengyou.md).

See the docstrings of the compiled modules `cardsim.games._zhao_pengyou` (overview, decisions),
`_zhao_pengyou_state` (action space, returns, observation layout) and `_zhao_pengyou_greedy`.

Card strings follow DESIGN §4: 'AS', '10H', 'BJ' (big joker), 'SJ' (small joker). Beware: the
rules spec writes the jack of spades as `SJ` and the jokers as `BJK`/`SJK`; here 'JS' is the jack of
spades and 'SJ' the small joker.
"""
from __future__ import annotations

from cardsim.errors import ConfigError, IllegalActionError, ParseError
from cardsim.games import _zhao_pengyou as _k
from cardsim.options import SCOPE, Option

NAME = "zhao_pengyou"
PLAYERS = (5, 6, 7, 8, 9, 10, 11, 12)
DEFAULT_PLAYERS = 6

# §2.1 (players -> packs, big jokers, small jokers, cards per player, kitty, friend calls);
# 5 players is variant V1 (kitty 8, one call: D14).
TABLE = {
    5: dict(decks=2, big=2, small=2, cards=20, kitty=8, calls=1),
    6: dict(decks=2, big=2, small=2, cards=17, kitty=6, calls=2),
    7: dict(decks=2, big=0, small=0, cards=14, kitty=6, calls=2),
    8: dict(decks=3, big=2, small=0, cards=19, kitty=6, calls=3),
    9: dict(decks=3, big=3, small=0, cards=17, kitty=6, calls=3),
    10: dict(decks=3, big=0, small=0, cards=15, kitty=6, calls=4),
    11: dict(decks=3, big=2, small=2, cards=14, kitty=6, calls=4),
    12: dict(decks=4, big=2, small=0, cards=17, kitty=6, calls=5),
}
for _n, _row in TABLE.items():
    assert 52 * _row["decks"] + _row["big"] + _row["small"] == _n * _row["cards"] + _row["kitty"]

DEFAULT_GAME_POINTS = (2, 2, 1, 1, 1, 2, 3)
DEFAULT_THRESHOLDS = (40, 80, 100)


def _int_tuple(name, n, lo, hi, increasing=False):
    def check(value):
        if not isinstance(value, (list, tuple)) or len(value) != n or any(
                isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi for v in value):
            raise ConfigError(f"zhao_pengyou: {name} must be {n} ints in {lo}..{hi}, got {value!r}")
        if increasing and any(a >= b for a, b in zip(value, value[1:])):
            raise ConfigError(f"zhao_pengyou: {name} must be strictly increasing, got {value!r}")
        return tuple(value)
    return check


OPTIONS = (
    Option("kitty_multiplier", "x2", "kitty points to the last trick's team: x2 (seed), or 2 x the largest "
           "component of the last lead (V2)", choices=("x2", "largest_component")),
    Option("throw_validity", "card", "a throw stands if every card is top (seed) or every group is unbeatable "
           "by a same-size set (V3)", choices=("card", "component")),
    Option("failed_throw", "force_lowest_group", "failed throw: lead the lowest group (D4); 'penalty' adds 10 "
           "points per failed attempt, 'reveal_blocker' shows who stopped it, 'reject' makes an invalid throw "
           "an illegal action (leaks hidden information) (V4)",
           choices=("force_lowest_group", "penalty", "reveal_blocker", "penalty_reveal_blocker", "reject")),
    Option("friend_self_consume", True, "a called copy played inside DECL consumes the call (D9, V5)", kind=bool),
    Option("called_card_points", "removed", "the revealing copy's points count for nobody (D11) or go to the "
           "trick winner (V6)", choices=("removed", "to_trick_winner")),
    Option("partial_set_obligation", False, "shengji-style: smaller sets must be played when no full set is "
           "available (V7)", kind=bool),
    Option("declaration_windows", "every_draw", "declare in a window after every draw (D1) or only right after "
           "one's own draw (V8)", choices=("every_draw", "own_draw_only")),
    Option("game_end", "reach_A", "the match ends when a rank reaches A (seed) or when A is defended (V9)",
           choices=("reach_A", "defend_A")),
    Option("game_points", DEFAULT_GAME_POINTS, "game-point table (§6.2): DECL with P_opp = 0 (base, per "
           "missing friend), DECL below t1 (base, per missing friend), OPP in [t1, t2), [t2, t3), >= t3",
           validate=_int_tuple("game_points", 7, 0, 12)),
    Option("thresholds", DEFAULT_THRESHOLDS, "P_opp thresholds t1 t2 t3 per 52-card pack (§6.2: 40 80 100)",
           validate=_int_tuple("thresholds", 3, 1, 1000, increasing=True)),
    Option("max_deals", 1000, "safety cap on deals in a match (scope='match')", kind=int, min=1, max=100_000),
    SCOPE,
)
PRESETS: dict[str, dict] = {
    "shengji": {"kitty_multiplier": "largest_component", "throw_validity": "component",
                "failed_throw": "penalty", "friend_self_consume": False, "partial_set_obligation": True},
}

# Configurations the generic conformance suite runs (tests/conformance): every player count,
# every option value except failed_throw='reject' (its legal set depends on hidden cards by design).
CONFORMANCE_CONFIGS = (
    {},
    {"players": 5},
    {"players": 7, "declaration_windows": "own_draw_only", "kitty_multiplier": "largest_component"},
    {"players": 8, "failed_throw": "penalty_reveal_blocker", "throw_validity": "component"},
    {"players": 9, "called_card_points": "to_trick_winner", "friend_self_consume": False},
    {"players": 10, "partial_set_obligation": True},
    {"players": 11, "failed_throw": "reveal_blocker"},
    {"players": 12},
    {"scope": "match", "max_deals": 2},
    {"players": 7, "scope": "match", "game_end": "defend_A", "max_deals": 2, "failed_throw": "penalty"},
)


def build(opts: dict):
    return _k.ZhaoPengyouSpec(opts, TABLE[opts["players"]])


MAX_FOLLOWS = _k.MAX_FOLLOWS


def _trump(trump_suit, trump_rank):
    """(suit index, rank index); trump_suit=None is a no-trump game (shengji's NoTrump: only the
    jokers and the trump rank are trumps, every trump-rank card equal)."""
    return (-1 if trump_suit is None else _k.parse_suit(trump_suit)), _k.parse_rank(trump_rank)


def _cards(cards, what):
    if not isinstance(cards, (list, tuple)):
        raise ParseError(f"zhao_pengyou: {what} must be a list of card strings, got {_k._short(cards)}")
    return list(cards)


_FMT_NAMES = {1: "single", 2: "set", 3: "sequence", 4: "throw"}
_FMT_ERRORS = {-1: "an empty lead", -2: "the cards are not all of one suit (trumps count as one suit)",
               -3: "the groups of identical cards have different sizes"}


def lead_format(cards: list[str], trump_suit: str, trump_rank: str) -> str:
    """Format of a lead (§5.2): 'single', 'set', 'sequence' or 'throw' (a throw's top-card check
    happens when it is played); raises ParseError for malformed cards and IllegalActionError
    naming why it is no valid lead."""
    cards = _cards(cards, "a lead")
    s, r = _trump(trump_suit, trump_rank)
    f, _, _, _ = _k.oracle_classify(cards, s, r)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_k._short(cards)} is no valid lead: {_FMT_ERRORS[f]}")
    return _FMT_NAMES[f]


def legal_follows(hand: list[str], lead: list[str], trump_suit: str, trump_rank: str,
                  partial_set_obligation: bool = False) -> list[list[str]]:
    """Every distinct legal follow (a multiset of len(lead) cards of hand) to a legal lead, by the
    engine's own follow-obligation kernel. At most MAX_FOLLOWS (10,000) follows are listed: a
    position with more raises ConfigError (use is_legal_follow to check single plays); the work
    is proportional to the number of follows, so the limit also bounds the time."""
    hand = _cards(hand, "a hand")
    lead = _cards(lead, "a lead")
    lead_format(lead, trump_suit, trump_rank)
    s, r = _trump(trump_suit, trump_rank)
    return _k.oracle_legal_follows(hand, lead, s, r, bool(partial_set_obligation))


def is_legal_follow(hand: list[str], lead: list[str], play: list[str], trump_suit: str, trump_rank: str,
                    partial_set_obligation: bool = False) -> bool:
    """Whole-play legality of a follow (§5.4), by the engine's kernel."""
    hand = _cards(hand, "a hand")
    lead = _cards(lead, "a lead")
    lead_format(lead, trump_suit, trump_rank)
    s, r = _trump(trump_suit, trump_rank)
    return _k.oracle_follow_ok(hand, lead, _cards(play, "a play"), s, r, bool(partial_set_obligation))


def trick_winner(plays: list[list[str]], trump_suit: str, trump_rank: str) -> int:
    """Index of the winning play; plays[0] is the lead (a throw lead is taken as standing). A trick
    holding more copies of a card than 4 packs have raises ConfigError."""
    if not isinstance(plays, (list, tuple)) or not plays:
        raise ParseError(f"zhao_pengyou: a trick is a list of plays (lists of card strings), got {_k._short(plays)}")
    plays = [_cards(p, "a play") for p in plays]
    lead_format(plays[0], trump_suit, trump_rank)
    s, r = _trump(trump_suit, trump_rank)
    return _k.oracle_trick_winner(plays, s, r)


def card_order(card: str, trump_suit: str | None, trump_rank: str) -> tuple[str, int]:
    """(effective suit 'S'/'H'/'D'/'C'/'T', strength inside it) of a card (trump_suit=None: no
    trump suit)."""
    s, r = _trump(trump_suit, trump_rank)
    return _k.oracle_strength(card, s, r)


def play_to_actions(state, cards: list[str]) -> list[int]:
    """The action sequence for a whole play by the seat to act: one ADD per card (identities in
    the given order), then COMMIT if the seat is leading."""
    cards = _cards(cards, "a play")
    acts = [state.string_to_action(c) for c in cards]
    v = state.game.view(state)
    if v["phase"] != "play":
        raise IllegalActionError("zhao_pengyou: plays are made in the play phase")
    leading = not any(v["trick"]) and not v["building"]
    if leading:
        acts.append(state.string_to_action("COMMIT"))
    return acts


def play(state, cards: list[str]):
    """Apply a whole play (card strings) through its action sequence; IllegalActionError (state
    unchanged) if any step is illegal."""
    acts = play_to_actions(state, cards)
    trial = state.clone()
    for a in acts:
        trial.apply(a)
    for a in acts:
        state.apply(a)
    return state


def scenario(game, hands, **facts):
    """A state built from given facts (for scenarios and analysis); see ZhaoPengyouSpec.scenario."""
    return game.spec.scenario(hands, **facts)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
