"""Zhao Pengyou 找朋友 (Finding Friends): options, the deck table, rule oracles and helpers
(docs/rules/zhao_pengyou.md).

See the docstrings of the compiled modules `cardsim.games._zhao_pengyou` (overview, decisions),
`_zhao_pengyou_state` (action space, returns, observation layout), `_zhao_pengyou_greedy` and
`_zhao_pengyou_oracles` (the kernels behind the rule oracles below).

Card strings follow DESIGN §4: 'AS', '10H', 'BJ' (big joker), 'SJ' (small joker). Beware: the
rules spec writes the jack of spades as `SJ` and the jokers as `BJK`/`SJK`; here 'JS' is the jack of
spades and 'SJ' the small joker.
"""
from __future__ import annotations


from cardsim.errors import ConfigError, IllegalActionError, ParseError, short
from cardsim.games import _zhao_pengyou as _k
from cardsim.games import _zhao_pengyou_oracles as _o
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
            raise ConfigError(f"zhao_pengyou: {name} must be {n} ints in {lo}..{hi}, got {short(value)}")
        if increasing and any(a >= b for a, b in zip(value, value[1:])):
            raise ConfigError(f"zhao_pengyou: {name} must be strictly increasing, got {short(value)}")
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
    # shengji-compatible rules (issue 17; docs/rules/zhao_pengyou.md "shengji options"): the seed's
    # rules stay the default; every shengji value below needs throw_units='mixed'
    Option("throw_units", "uniform", "a multi-group lead: groups of one size (seed, §5.2) or shengji's "
           "TrickFormat: any set of units (tuples, tractors) of one suit, sizes may differ", choices=("uniform", "mixed")),
    Option("tractor_adjacency", "standard", "tractors: consecutive ranks of one suit skipping the trump rank "
           "(seed, §2.5) or shengji's successor order through the trump rank and the jokers",
           choices=("standard", "shengji")),
    Option("tractor_min_count", 2, "copies of each card in a tractor, at least (shengji TractorRequirements)",
           kind=int, min=2, max=100),
    Option("tractor_min_length", 2, "cards in a tractor, at least (shengji TractorRequirements)",
           kind=int, min=2, max=100),
    Option("draw_policy", "seed", "follow obligations: the seed's (§5.4, D6/D7, V7) or shengji's format-based "
           "TrickDrawPolicy", choices=("seed", "no_protections", "longer_tuples_protected",
                                       "only_draw_tractor_on_tractor",
                                       "longer_tuples_protected_and_only_draw_tractor_on_tractor",
                                       "no_format_based_draw")),
    Option("throw_evaluation", "seed", "who wins when trumps answer a throw: the seed's (§5.5, D21) or "
           "shengji's ThrowEvaluationPolicy", choices=("seed", "all", "highest", "trick_unit_length")),
    Option("bomb_policy", "no_bombs", "shengji BombPolicy: four or more identical cards beat any non-bomb",
           choices=("no_bombs", "allow_bombs", "allow_bombs_suit_following")),
    Option("rainbows", 0, "shengji CompoundFormats.rainbows: 0 = off, n = leads of one rank across 4 effective "
           "suits with at least n cards per rank", kind=int, min=0, max=100),
    Option("notrump_declaration", False, "two copies of a joker declare a no-trump deal (shengji's joker bid)",
           kind=bool),
    Option("max_deals", 1000, "cap on deals in a match (scope='match'): the match then ends with the ranks "
           "reached, no winner (D23)", kind=int, min=1, max=100_000),
    Option("max_redeals", 10, "redeals (nobody declared) allowed in one deal; when nobody declares once more "
           "the deal is void: nobody scores (D24)", kind=int, min=0, max=1000),
    SCOPE,
)
PRESETS: dict[str, dict] = {
    # rbtying/shengji's defaults (core/src/settings.rs, mechanics/src/trick.rs): KittyPenalty::Times,
    # ThrowPenalty::None with the halting player shown, TrickDrawPolicy::NoProtections,
    # ThrowEvaluationPolicy::All, TractorRequirements {2, 2}, no bombs, no rainbows, joker bids
    # (BothTwoOrMore) make no-trump deals
    "shengji": {"kitty_multiplier": "largest_component", "throw_validity": "component",
                "failed_throw": "reveal_blocker", "friend_self_consume": False, "partial_set_obligation": True,
                "throw_units": "mixed", "tractor_adjacency": "shengji", "tractor_min_count": 2,
                "tractor_min_length": 2, "draw_policy": "no_protections", "throw_evaluation": "all",
                "bomb_policy": "no_bombs", "rainbows": 0, "notrump_declaration": True},
}
_SHENGJI_ONLY = ("tractor_adjacency", "tractor_min_count", "tractor_min_length", "draw_policy", "throw_evaluation",
                 "bomb_policy", "rainbows")


def _check_combo(opts: dict) -> None:
    """Cross-option rules: the shengji options need throw_units='mixed' and vice versa."""
    defaults = {o.name: o.default for o in OPTIONS}
    if opts.get("throw_units", "uniform") == "mixed":
        for name in ("draw_policy", "throw_evaluation"):
            if opts[name] == "seed":
                allowed = [c for c in next(o for o in OPTIONS if o.name == name).choices if c != "seed"]
                raise ConfigError(f"zhao_pengyou: throw_units='mixed' needs a shengji {name} (one of {allowed}), "
                                  f"got 'seed'")
        if opts["failed_throw"] == "reject":
            raise ConfigError("zhao_pengyou: failed_throw='reject' is not available with throw_units='mixed' "
                              "(allowed: force_lowest_group, penalty, reveal_blocker, penalty_reveal_blocker)")
    else:
        for name in _SHENGJI_ONLY:
            if opts.get(name, defaults[name]) != defaults[name]:
                raise ConfigError(f"zhao_pengyou: option {name}={short(opts[name])} needs throw_units='mixed' "
                                  f"(with throw_units='uniform' it must be {short(defaults[name])})")

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
    # shengji's rules (issue 17): the preset, bombs and rainbows with 4 packs, the other draw and throw
    # evaluation policies, no-trump declarations with the seed's rules
    {"variant": "shengji"},
    {"variant": "shengji", "players": 12, "bomb_policy": "allow_bombs", "rainbows": 4},
    {"variant": "shengji", "players": 12, "bomb_policy": "allow_bombs_suit_following", "rainbows": 5,
     "draw_policy": "longer_tuples_protected", "throw_evaluation": "trick_unit_length"},
    {"variant": "shengji", "players": 5, "draw_policy": "only_draw_tractor_on_tractor", "throw_evaluation": "highest",
     "failed_throw": "penalty_reveal_blocker", "tractor_min_length": 3},
    {"variant": "shengji", "players": 11, "scope": "match", "max_deals": 2,
     "draw_policy": "longer_tuples_protected_and_only_draw_tractor_on_tractor", "tractor_adjacency": "standard"},
    {"variant": "shengji", "players": 6, "draw_policy": "no_format_based_draw", "tractor_min_count": 3},
    {"players": 6, "notrump_declaration": True},
)


def build(opts: dict):
    _check_combo(opts)
    return _k.ZhaoPengyouSpec(opts, TABLE[opts["players"]])


MAX_FOLLOWS = _o.MAX_FOLLOWS


def _trump(trump_suit, trump_rank, opts=None):
    """(suit index, rank index); trump_suit=None is a no-trump game (shengji's NoTrump: only the
    jokers and the trump rank are trumps, every trump-rank card equal); trump_rank=None is
    accepted by the oracles under shengji's rules (throw_units='mixed') only: shengji's NoTrump
    without a number (only the jokers are trumps), or a trump suit without a trump rank."""
    if trump_rank is None and opts is not None and opts["throw_units"] == "mixed":
        return (-1 if trump_suit is None else _k.parse_suit(trump_suit)), -1
    return (-1 if trump_suit is None else _k.parse_suit(trump_suit)), _k.parse_rank(trump_rank)


def _cards(cards, what):
    if not isinstance(cards, (list, tuple)):
        raise ParseError(f"zhao_pengyou: {what} must be a list of card strings, got {_k._short(cards)}")
    return list(cards)


_RULES: dict = {}


def _rules(variant, options):
    """The resolved options (as make() resolves them: defaults, the variant's preset, then the
    options given) the oracles run with, and the table row. variant None or 'standard' is the
    seed's rule set. Unknown options or bad values raise ConfigError naming what is allowed."""
    from cardsim.options import resolve

    if variant == "standard":
        variant = None
    try:
        key = (variant, repr(sorted(options.items())))
    except TypeError:
        key = None
    if key is not None and key in _RULES:
        return _RULES[key]
    kw = dict(options)
    if variant is not None:
        kw["variant"] = variant
    opts = resolve(NAME, OPTIONS, PRESETS, PLAYERS, DEFAULT_PLAYERS, kw)
    _check_combo(opts)
    out = (opts, TABLE[opts["players"]])
    if key is not None and len(_RULES) < 256:
        _RULES[key] = out
    return out


_FMT_NAMES = {1: "single", 2: "set", 3: "sequence", 4: "throw"}
_FMT_ERRORS = {-1: "an empty lead", -2: "the cards are not all of one suit (trumps count as one suit)",
               -3: "the groups of identical cards have different sizes"}


def lead_format(cards: list[str], trump_suit: str | None, trump_rank: str | None, variant: str | None = None,
                **options) -> str:
    """Format of a lead (§5.2): 'single', 'set', 'sequence' or 'throw' (a throw's top-card check
    happens when it is played); with throw_units='mixed' (the shengji preset) any set of units of
    one suit is a lead ('throw' when it has several units), and 'bomb' / 'rainbow' when those
    options are on and the lead is one. Raises ParseError for malformed cards and
    IllegalActionError naming why it is no valid lead."""
    cards = _cards(cards, "a lead")
    opts, table = _rules(variant, options)
    s, r = _trump(trump_suit, trump_rank, opts)
    if opts["throw_units"] == "mixed":
        return _o.oracle_mixed_format(cards, s, r, opts, table)[0]
    f, _, _, _ = _o.oracle_classify(cards, s, r)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_k._short(cards)} is no valid lead: {_FMT_ERRORS[f]}")
    return _FMT_NAMES[f]


def lead_units(cards: list[str], trump_suit: str | None, trump_rank: str | None, variant: str | None = None,
               **options) -> list[tuple[int, list[str]]]:
    """The decomposition of a lead into units as the engine sees it: each unit (count, cards),
    cards the distinct cards of the unit from low to high (one card: a tuple of `count` copies;
    several: a tractor of `count` copies each; a rainbow unit: `count` cards of one rank, its
    distinct cards listed). Largest units first (by count*len, then strength). With
    throw_units='mixed' this is shengji's TrickFormat::from_cards without a format hint: of the
    decompositions find_plays_inner lists, the one whose largest unit (size, is_tractor) is
    greatest, the last such in shengji's order (shengji lets the leader pick another through a
    format hint; the engine always takes this one). With the seed's rules: m groups of k."""
    cards = _cards(cards, "a lead")
    opts, table = _rules(variant, options)
    s, r = _trump(trump_suit, trump_rank, opts)
    if opts["throw_units"] == "mixed":
        return _o.oracle_mixed_format(cards, s, r, opts, table)[1]
    f, k, m, _ = _o.oracle_classify(cards, s, r)
    if f < 0:
        raise IllegalActionError(f"zhao_pengyou: {_k._short(cards)} is no valid lead: {_FMT_ERRORS[f]}")
    ids = sorted(set(cards), key=lambda c: card_order(c, trump_suit, trump_rank)[1] if r >= 0 else 0)
    if f == 3:
        return [(k, ids)]
    return [(k, [c]) for c in reversed(ids)]


def legal_follows(hand: list[str], lead: list[str], trump_suit: str | None, trump_rank: str | None,
                  variant: str | None = None, **options) -> list[list[str]]:
    """Every distinct legal follow (a multiset of len(lead) cards of hand) to a legal lead, by the
    engine's own follow-obligation kernels (the seed's §5.4, or shengji's is_legal_play with
    throw_units='mixed'). At most MAX_FOLLOWS (10,000) follows are listed: a position with more
    raises ConfigError (use is_legal_follow to check single plays)."""
    hand = _cards(hand, "a hand")
    lead = _cards(lead, "a lead")
    opts, table = _rules(variant, options)
    lead_format(lead, trump_suit, trump_rank, variant, **options)
    s, r = _trump(trump_suit, trump_rank, opts)
    if opts["throw_units"] == "mixed":
        return _o.oracle_mixed_follows(hand, lead, s, r, opts, table)
    return _o.oracle_legal_follows(hand, lead, s, r, bool(opts["partial_set_obligation"]))


def is_legal_follow(hand: list[str], lead: list[str], play: list[str], trump_suit: str | None,
                    trump_rank: str | None, variant: str | None = None, **options) -> bool:
    """Whole-play legality of a follow (§5.4; shengji's is_legal_play with throw_units='mixed'),
    by the engine's kernel."""
    hand = _cards(hand, "a hand")
    lead = _cards(lead, "a lead")
    play = _cards(play, "a play")
    opts, table = _rules(variant, options)
    lead_format(lead, trump_suit, trump_rank, variant, **options)
    s, r = _trump(trump_suit, trump_rank, opts)
    if opts["throw_units"] == "mixed":
        return _o.oracle_mixed_follow_ok(hand, lead, play, s, r, opts, table)
    return _o.oracle_follow_ok(hand, lead, play, s, r, bool(opts["partial_set_obligation"]))


def trick_winner(plays: list[list[str]], trump_suit: str | None, trump_rank: str | None,
                 variant: str | None = None, **options) -> int:
    """Index of the winning play; plays[0] is the lead (a throw lead is taken as standing). A
    trick holding more copies of a card than 4 packs have raises ConfigError. With
    throw_units='mixed': shengji's compute_winner under throw_evaluation and bomb_policy."""
    if not isinstance(plays, (list, tuple)) or not plays:
        raise ParseError(f"zhao_pengyou: a trick is a list of plays (lists of card strings), got {_k._short(plays)}")
    plays = [_cards(p, "a play") for p in plays]
    opts, table = _rules(variant, options)
    lead_format(plays[0], trump_suit, trump_rank, variant, **options)
    s, r = _trump(trump_suit, trump_rank, opts)
    if opts["throw_units"] == "mixed":
        return _o.oracle_mixed_winner(plays, s, r, opts, table)
    return _o.oracle_trick_winner(plays, s, r)


def _mixed_rules(variant, options, what):
    opts, table = _rules(variant, options)
    if opts["throw_units"] != "mixed":
        raise ConfigError(f"zhao_pengyou: {what} answers shengji's rules: it needs throw_units='mixed' "
                          f"(variant='shengji')")
    return opts, table


def throw_outcome(lead: list[str], other_hands: list[list[str]], trump_suit: str | None, trump_rank: str | None,
                  variant: str | None = None, **options) -> list[str]:
    """The cards actually led when `lead` is attempted and other_hands (in play order after the
    leader) are the other seats' hands: the lead itself if the throw stands, else the forced unit
    (shengji's Trick::play_cards check, by the engine's kernel). Needs throw_units='mixed'."""
    lead = _cards(lead, "a lead")
    opts, table = _mixed_rules(variant, options, "throw_outcome")
    s, r = _trump(trump_suit, trump_rank, opts)
    return _o.oracle_throw_outcome(lead, other_hands, s, r, opts, table)


def follow_matches(lead: list[str], play: list[str], trump_suit: str | None, trump_rank: str | None,
                   variant: str | None = None, **options) -> bool:
    """Does `play` have the lead's format (shengji's TrickFormat::matches: one effective suit, the
    led suit or trumps, the lead's size, groupable into the lead's units), i.e. can it compete
    for the trick? Needs throw_units='mixed'."""
    lead = _cards(lead, "a lead")
    play = _cards(play, "a play")
    opts, table = _mixed_rules(variant, options, "follow_matches")
    s, r = _trump(trump_suit, trump_rank, opts)
    return _o.oracle_follow_matches(lead, play, s, r, opts, table)


def card_order(card: str, trump_suit: str | None, trump_rank: str | None) -> tuple[str, int]:
    """(effective suit 'S'/'H'/'D'/'C'/'T', strength inside it) of a card (trump_suit=None: no
    trump suit)."""
    s, r = _trump(trump_suit, trump_rank)
    return _o.oracle_strength(card, s, r)


def _check_state(state):
    from cardsim.core._engine import State

    if not isinstance(state, State) or state.game.name != NAME:
        raise ConfigError(f"zhao_pengyou: need a State of a zhao_pengyou game, got {_k._short(state)}")


def play_to_actions(state, cards: list[str]) -> list[int]:
    """The action sequence for a whole play by the seat to act: one ADD per card (identities in
    the given order), then COMMIT if the seat is leading."""
    _check_state(state)
    cards = _cards(cards, "a play")
    if len(cards) > 216:
        raise ParseError(f"zhao_pengyou: a play has at most 216 cards (the largest pack), got {len(cards)}")
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
    """A state built from given facts (for scenarios and analysis); see ZhaoPengyouSpec.scenario.
    `game` is a cardsim.make('zhao_pengyou', ...) game."""
    from cardsim.game import Game

    if not isinstance(game, Game) or game.name != NAME:
        raise ConfigError(f"zhao_pengyou: need a game made by cardsim.make('zhao_pengyou', ...), got {_k._short(game)}")
    return game.spec.scenario(hands, **facts)


# ---- the shared protocol: episode and return bounds ---------------------------------------------
def _resolved(opts) -> dict:
    """opts resolved and checked as cardsim.make resolves them (cardsim.game.resolved_options)."""
    from cardsim.game import resolved_options

    return resolved_options(NAME, opts)


def deal_max_game_points(opts) -> int:
    """The most game points a seat can gain in one deal (§6.2 with the game_points table gp):
    DECL with P_opp = 0 gets gp[0] + gp[1] x short, below t1 gp[2] + gp[3] x short, where short =
    1 + F - |DECL| <= F (the declarer alone: every call consumed by him, D9, or unfulfilled, D10);
    OPP gets gp[4], gp[5] or gp[6]. The maximum of these is provably safe (exact for the default
    table: a lone declarer whose opponents capture nothing)."""
    o = _resolved(opts)
    gp = o["game_points"]
    f = TABLE[o["players"]]["calls"]
    return max(gp[0] + gp[1] * f, gp[2] + gp[3] * f, gp[4], gp[5], gp[6])


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): the lowest and highest return any seat can get in a terminal state of this
    configuration (opts = cardsim.make('zhao_pengyou', ...).options).

    Scope 'deal': the game points the seat gained, 0 for the losing team (and for everybody in a
    void deal, D24), else deal_max_game_points(opts) at most: (0, that). Scope 'match': the rank
    levels gained (final rank - 2); ranks never fall and stop at A (12 levels; with defend_A a
    rank also stays at A), and each of at most max_deals deals adds at most the deal bound:
    (0, min(12, max_deals x deal bound))."""
    o = _resolved(opts)
    hi = deal_max_game_points(o)
    if o["scope"] == "match":
        hi = min(12, o["max_deals"] * hi)
    return (0.0, float(hi))


def max_game_length(opts: dict) -> int:
    """Upper bound on the actions from new_state to a terminal state (per deal in scope 'deal',
    per match in scope 'match'), for any sequence of legal actions. With n players, c cards per
    player, k kitty cards, F calls (TABLE):

    * draw: D = n * c draws, each followed by a declaration window (D1, D2) in which every seat
      acts at most once, and only a seat that has drawn a card can be eligible: at most
      sum(min(j, n) for j in 1..D) = D * n - n * (n - 1) / 2 actions (own_draw_only: one per
      draw, D); a declaration closes the windows. Nobody declaring redeals at most max_redeals
      times, then the deal is void (D24): at most max_redeals + 1 draws per deal;
    * kitty k DISCARD actions, F CALL actions;
    * play: each trick takes at least one card from every hand, so at most c tricks, each with
      one COMMIT; every card is added once when it is finally played (n * c ADDs), plus the cards
      of a failed throw that go back to the hand (D4): at the trick where the leader holds h
      cards at most h - 1 of them, h <= c - t at trick t, c * (c - 1) / 2 in all.

    A deal: (max_redeals + 1) * draw + k + F + n * c + c + c * (c - 1) / 2. A match: max_deals
    deals (a void deal counts as one, D24)."""
    o = _resolved(opts)
    n = o["players"]
    row = TABLE[n]
    c, d = row["cards"], n * row["cards"]
    windows = d * n - n * (n - 1) // 2 if o["declaration_windows"] == "every_draw" else d
    per_deal = ((o["max_redeals"] + 1) * windows + row["kitty"] + row["calls"] + n * c + c + c * (c - 1) // 2)
    return per_deal * (o["max_deals"] if o["scope"] == "match" else 1)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
