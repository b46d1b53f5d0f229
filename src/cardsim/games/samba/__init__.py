"""Samba (three-deck Canasta with sequences), 2 to 6 players: options, presets and rule oracles
(docs/rules/samba.md).

162 cards (three packs and six jokers), sides of one (N = 2, 3, 5) or partners (N = 4, 6), melds
of a rank (groups), sequences of one suit (a 7-card sequence is a samba), canastas, red threes,
an initial-meld minimum by side score. The action space and the returns: the docstring of the
compiled `cardsim.games.samba._state`; the greedy agent: `_agent`; the observation layout:
INFO.observation (`cardsim.games.samba.info`, generated into `_layout.pxd`).

Options (DESIGN §4 names of the spec's §8 table; first value = default):
  hand_size                 cards dealt: 0 = the spec's 15 (13 with 6 players)
  upcard_rewind             re-turn a wild or red-three upcard onto the pile (True)
  pile_model                "american" (frozen/unfrozen, lay-off pickup) | "always_frozen" (pair only)
  sequence_top_card_take    Dutch: take only a top card that extends an own sequence, draw 1 (False)
  red_three_mode            "auto" (exposed and replaced at once) | "manual" (PLACE_RED3, discardable)
  red3_in_hand_penalty      "per_card_100" | "per_player_750" (Dutch)
  red3_unqualified          "standard" (six = -1000) | "dutch" (six = -600)
  group_wild_rule           "standard" (>= 2 naturals, <= 2 wilds) | "dutch" (naturals >= 2 x wilds too)
  wild_onto_canasta         "allowed" | "not_onto_natural" | "never"
  initial_meld_table        "seed" (15/50/90/120/150) | "hoyle" (…, 3000-6995: 120, >= 7000: 160)
  insufficient_initial_meld "reject" | "penalize" (a short batch returns to hand, requirement +100)
  allow_go_out_query        ask the partner before going out (False; partnerships only)
  going_out_min_canastas    canastas or sambas needed to go out (2)
  target_score              match end (10000), concealed_bonus (0), scope "deal" | "match"
  max_failed_melds          penalize: failed initial batches a side may make per deal (10; S-D23)
  max_deals                 scope="match": deals after which the match ends anyway (100; S-D24)
Presets: standard (the defaults), dutch, no_wild_on_natural, hoyle, official (§8 columns).
"""
from __future__ import annotations

from cardsim.errors import ConfigError, ParseError, short
from cardsim.core._engine import State, _short, check_int
from cardsim.games.samba import _spec as _s
from cardsim.options import SCOPE, Option, resolve

NAME = "samba"
PLAYERS = (2, 3, 4, 5, 6)
DEFAULT_PLAYERS = 4

OPTIONS = (
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
           max=1_000_000),
    Option("concealed_bonus", 0, "bonus for going out without having melded before that turn", kind=int, min=0,
           max=10_000),
    Option("max_failed_melds", 10, "penalize: failed initial batches per side and deal before a short batch is "
           "refused as under 'reject' (S-D23)", kind=int, min=0, max=100),
    Option("max_deals", 100, "scope='match': the match ends after this many deals even if no side reached "
           "target_score (S-D24)", kind=int, min=1, max=10_000),
    SCOPE,
)
PRESETS: dict[str, dict] = {
    "standard": {},
    "dutch": {"pile_model": "always_frozen", "sequence_top_card_take": True, "red_three_mode": "manual",
              "red3_in_hand_penalty": "per_player_750", "red3_unqualified": "dutch", "group_wild_rule": "dutch"},
    "no_wild_on_natural": {"wild_onto_canasta": "not_onto_natural"},
    "hoyle": {"initial_meld_table": "hoyle"},
    "official": {"initial_meld_table": "hoyle", "wild_onto_canasta": "never"},
}

# Configurations the generic conformance suite runs (tests/conformance).
CONFORMANCE_CONFIGS = (
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


def build(opts: dict):
    """The engine spec of these resolved options (cardsim.make calls it); anything but a resolved
    Samba options dict raises ConfigError."""
    _resolved(opts)
    return _s.SambaSpec(opts)


def _opts(variant, options):
    if variant is not None and not isinstance(variant, str):
        raise ConfigError(f"samba: variant must be a string, got {short(variant)}")
    kw = dict(options)
    for bad in ("players", "scope"):
        kw.pop(bad, None)
    return resolve(NAME, OPTIONS, PRESETS, PLAYERS, DEFAULT_PLAYERS,
                   {**kw, **({"variant": variant} if variant not in (None, "standard") else {})})


def _kinds(cards, what):
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"samba: {what} must be a list of card strings like 'KS', '10H', 'JK', got {_short(cards)}")
    if len(cards) > 162:
        raise ParseError(f"samba: {what} holds {len(cards)} cards; the deck has 162")
    return [_s.parse_kind(c) for c in cards]


def _meld_lists(melds, what, limit=32):
    """A list of at most `limit` melds, each a list of card strings -> their kinds."""
    if isinstance(melds, (str, bytes)) or not isinstance(melds, (list, tuple)) or len(melds) > limit:
        raise ParseError(f"samba: {what} must be a list of at most {limit} melds (lists of card strings), "
                         f"got {_short(melds)}")
    return [_kinds(m, "a meld") for m in melds]


def _check_copies(groups):
    used = [0] * 53
    for ks in groups:
        for k in ks:
            used[k] += 1
    for k, n in enumerate(used):
        if n > (6 if k == 52 else 3):
            raise ParseError(f"samba: {_s.kind_str(k)} appears {n} times; the deck holds "
                             f"{6 if k == 52 else 3}")


_REASONS = {-1: "a meld has at least 3 cards", -2: "red threes are never melded",
            -3: "black threes meld only with black threes", -4: "a group needs at least 2 naturals and at most "
            "2 wild cards (Dutch: naturals >= 2 x wilds)", -5: "the naturals are neither one rank nor one suit",
            -6: "a sequence is consecutive cards of one suit, one of each rank, 4 to A, no wild cards",
            -7: "a sequence has at most 7 cards", -8: "wild cards alone are no meld"}


class MeldError(ParseError):
    """The cards are no legal meld (a ValueError, like every cardsim error)."""


def classify_meld(cards: list[str], going_out: bool = False, variant: str = "standard", **options) -> str:
    """The type of a legal meld (§4.0): "rank", "sequence", "canasta_natural", "canasta_mixed",
    "samba", or "black3" (only when going_out: black threes are melded only by a player going
    out). Raises MeldError (a ValueError) naming why otherwise."""
    if not isinstance(going_out, bool):
        raise ParseError(f"samba: going_out must be True or False, got {_short(going_out)}")
    opts = _opts(variant, options)
    ks = _kinds(cards, "a meld")
    _check_copies([ks])
    t, n, nat, wild = _s.oracle_classify(ks, going_out, opts)
    if t < 0:
        raise MeldError(f"samba: {_short(list(cards), 120)} is no meld: {_REASONS[t]}")
    if t == 3:
        if not going_out:
            raise MeldError("samba: black threes may be melded only by a player who is going out (S-D9)")
        return "black3"
    if t == 2:
        return "samba" if n == 7 else "sequence"
    if n >= 7:
        return "canasta_natural" if wild == 0 else "canasta_mixed"
    return "rank"


def can_take_pile(hand: list[str], pile: list[str], side_melds: list[list[str]], side_has_melded: bool,
                  side_score: int = 0, variant: str = "standard", **options) -> bool:
    """True if a player holding `hand` may take the discard pile (§4.3): `pile[-1]` is the top card;
    `side_melds` the side's melds; `side_has_melded` whether the side has opened; `side_score`
    its cumulative score (fixes the initial-meld requirement). Either a natural pair (with, for
    an unopened side, an initial meld from the hand reaching the requirement) or, pile unfrozen,
    a lay-off of the top card alone onto a non-canasta meld. The Dutch top-card sequence take
    (option sequence_top_card_take) is not a pile take and is not reported here."""
    if not isinstance(side_has_melded, bool):
        raise ParseError(f"samba: side_has_melded must be True or False, got {_short(side_has_melded)}")
    side_score = check_int(side_score, "samba: side_score", -10**9, 10**9, ParseError)
    opts = _opts(variant, options)
    hk = _kinds(hand, "hand")
    pk = _kinds(pile, "pile")
    if not pk:
        raise ParseError("samba: the pile is empty")
    mk = _meld_lists(side_melds, "side_melds")
    _check_copies([hk, pk, *mk])
    for m, ks in zip(side_melds, mk):
        t = _s.oracle_classify(ks, False, opts)[0]
        if t <= 0:
            raise MeldError(f"samba: side meld {_short(list(m), 120)} is no meld: {_REASONS[t]}")
    if mk and not side_has_melded:
        raise ParseError("samba: a side with melds has melded (side_has_melded=True)")
    return _s.oracle_can_take_pile(hk, pk, mk, side_has_melded, side_score, opts)


def score_side(melds: list[list[str]], hands: list[list[str]], red_threes: int, went_out: bool,
               variant: str = "standard", **options) -> int:
    """A side's score for a deal (§6): its melds' card values, 500 per natural canasta, 300 per
    mixed one, 1500 per samba, 200 for going out, the red-three bonus (+100 each, 1000 for all six,
    negative without two canastas), minus the card values left in `hands` (one list per player
    of the side, 1 or 2; red threes in a hand cost 100 each, or 750 per player under the Dutch
    red3_in_hand_penalty). `red_threes`: the side's exposed red threes (an int 0..6).

    Impossible inputs raise ParseError (a ValueError) naming the reason: more red threes in all
    (exposed and in hands) than the deck's six; `went_out=True` without an empty hand or without
    the side's going_out_min_canastas canastas; a black-three meld without `went_out` (black
    threes are melded only by a player going out, S-D9); more copies of a card than the deck."""
    red_threes = check_int(red_threes, "samba: red_threes (exposed red threes)", 0, 6, ParseError)
    if not isinstance(went_out, bool):
        raise ParseError(f"samba: went_out must be True or False, got {_short(went_out)}")
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) not in (1, 2):
        raise ParseError("samba: hands must hold one list of cards per player of the side (1 or 2), "
                         f"got {_short(hands)}")
    opts = _opts(variant, options)
    mk = _meld_lists(melds, "melds")
    hk = [_kinds(h, "a hand") for h in hands]
    _check_copies([*mk, *hk])
    in_hands = sum(1 for h in hk for k in h if k in (14, 27))
    if red_threes + in_hands > 6:
        raise ParseError(f"samba: {red_threes} exposed red threes and {in_hands} in the hands: the deck has 6")
    canastas = 0
    for m, ks in zip(melds, mk):
        t, n = _s.oracle_classify(ks, True, opts)[:2]
        if t <= 0:
            raise MeldError(f"samba: {_short(list(m), 120)} is no meld: {_REASONS[t]}")
        if t == 3 and not went_out:
            raise ParseError("samba: a black-three meld means the side went out (S-D9: black threes are melded "
                             "only by a player going out); pass went_out=True")
        canastas += (t == 1 and n >= 7) or (t == 2 and n == 7)
    if went_out:
        if all(hk):
            raise ParseError("samba: went_out=True needs the hand of the player who went out to be empty")
        if canastas < opts["going_out_min_canastas"]:
            raise ParseError(f"samba: went_out=True needs {opts['going_out_min_canastas']} canastas or sambas "
                             f"(going_out_min_canastas); the melds hold {canastas}")
    return _s.oracle_score_side(mk, hk, red_threes, went_out, opts)


def initial_meld_requirement(side_score: int, table: str = "seed") -> int:
    """The initial-meld minimum for a side's cumulative score (§4.0, EX-S1)."""
    side_score = check_int(side_score, "samba: side_score", -2**63, 2**63 - 1, ParseError)
    if not isinstance(table, str) or table not in ("seed", "hoyle"):
        raise ParseError(f"samba: table must be 'seed' or 'hoyle', got {_short(table)}")
    return _s.oracle_req(max(min(side_score, 10**9), -10**9), table == "hoyle")


def scenario(game, hands, **facts):
    """A state built from given facts (see SambaSpec.scenario): `game` is a cardsim.make("samba")
    game; the facts are SambaSpec.scenario's keywords. Positions a real deal cannot produce where
    they would be dead ends are refused (ConfigError naming the reason)."""
    _samba_game(game)
    return game.spec.scenario(hands, **facts)


def _samba_game(game):
    spec = getattr(game, "spec", None)
    if not isinstance(spec, _s.SambaSpec):
        raise ConfigError(f"samba: expected a Samba game (cardsim.make('samba', ...)), got {_short(game)}")


def _samba_state(state):
    if not isinstance(state, State) or not isinstance(state.game, _s.SambaSpec):
        raise ConfigError(f"samba: expected a Samba State (cardsim.make('samba').new_state(...)), "
                          f"got {_short(state)}")


# ---- whole moves written in cards <-> factored actions ------------------------------------------
_FLAG_MOVES = ("draw", "decline", "fail", "ask")
_MOVE_KEYS = {"draw": (), "decline": (), "fail": (), "ask": (), "answer": (), "take": ("slot", "group", "batch"),
              "meld": (), "initial": (), "layoff": ("slot",), "merge": (), "discard": (), "red3": ()}
_MOVE_FORMS = ("{'draw': True}, {'decline': True}, {'fail': True}, {'ask': True}, {'answer': 'yes' | 'no'}, "
               "{'take': 'layoff' | 'seq', 'slot': i}, {'take': 'pair', 'group': [cards], 'batch': [[cards], ...]}, "
               "{'meld': [cards]}, {'initial': [[cards], ...]}, {'layoff': [cards], 'slot': i}, "
               "{'merge': [i, j]}, {'discard': card}, {'red3': '3H' | '3D'} (i, j: meld slots 0..31)")


def _move_kind(move):
    """The one main key of a whole move, with only the companion keys it allows."""
    if not isinstance(move, dict) or not move:
        raise ParseError(f"samba: a move is a dict such as {{'meld': ['KS', 'KH', 'KD']}}, got {_short(move)}; "
                         f"moves: {_MOVE_FORMS}")
    main = [k for k in move if isinstance(k, str) and k in _MOVE_KEYS]
    if len(main) != 1:
        raise ParseError(f"samba: a move names exactly one of {', '.join(_MOVE_KEYS)}, got keys "
                         f"{_short(list(move), 80)}; moves: {_MOVE_FORMS}")
    kind = main[0]
    extra = [k for k in move if k != kind and k not in _MOVE_KEYS[kind]]
    if extra:
        raise ParseError(f"samba: a {short(kind)} move takes no {_short(extra[0])}; moves: {_MOVE_FORMS}")
    return kind


def move_to_actions(state, move: dict) -> list[int]:
    """The action sequence of one whole move written in cards (for the player to act in `state`):
    {"draw": True}, {"decline": True}, {"take": "layoff" | "seq", "slot": i},
    {"take": "pair", "group": [hand cards joining the top card], "batch": [[...], ...]} (the
    batch: further initial melds), {"meld": [cards]}, {"initial": [[cards], ...]},
    {"layoff": [cards], "slot": i}, {"merge": [i, j]} (j joins i), {"discard": card},
    {"red3": card}, {"fail": True}, {"ask": True}, {"answer": "yes" | "no"}.
    A malformed move raises ParseError naming the forms above; a sequence that is not legal from
    `state` raises IllegalActionError (the state is unchanged either way)."""
    from cardsim.errors import IllegalActionError
    _samba_state(state)
    kind = _move_kind(move)
    A = _s.ACTIONS
    out: list[int] = []
    val = move[kind]
    if kind in _FLAG_MOVES:
        if val is not True:
            raise ParseError(f"samba: {{{short(kind)}: True}} is the {kind} move, got {_short(val)}")
        out = [A[kind]]
    elif kind == "answer":
        if not isinstance(val, str) or val not in ("yes", "no"):
            raise ParseError(f"samba: answer is 'yes' or 'no', got {_short(val)}")
        out = [A[val]]
    elif kind == "take":
        if not isinstance(val, str) or val not in ("pair", "layoff", "seq"):
            raise ParseError(f"samba: take is 'pair', 'layoff' or 'seq', got {_short(val)}")
        if val in ("layoff", "seq"):
            if "group" in move or "batch" in move:
                raise ParseError(f"samba: a {short(val)} take has a slot, no group or batch")
            out = [A["take " + val] + _slot(move.get("slot"))]
        else:
            if "slot" in move:
                raise ParseError("samba: a pair take has a group (and a batch), no slot")
            pile = state.spec.view(state)["pile"]
            if not pile:
                raise IllegalActionError("samba: the pile is empty")
            top = _card_kind(pile[-1])
            out = [A["take pair"]] + [A["+"] + k for k in _ordered(move.get("group", []), top % 13)] + [A["meld"]]
            for ks in _meld_lists(move.get("batch", []), "a pair take's batch"):
                out += [A["+"] + k for k in ks] + [A["meld"]]
    elif kind == "meld":
        out = [A["+"] + k for k in _kinds(val, "a meld")] + [A["meld"]]
    elif kind == "initial":
        batch = _meld_lists(val, "an initial batch")
        if not batch:
            raise ParseError("samba: an initial batch holds at least one meld")
        for ks in batch:
            out += [A["+"] + k for k in ks] + [A["meld"]]
    elif kind == "layoff":
        out = [A["+"] + k for k in _kinds(val, "a lay-off")] + [A["layoff"] + _slot(move.get("slot"))]
    elif kind == "merge":
        if isinstance(val, (str, bytes)) or not isinstance(val, (list, tuple)) or len(val) != 2:
            raise ParseError(f"samba: merge is [i, j] (meld slot j joins slot i, 0..31), got {_short(val)}")
        out = [A["merge"] + _slot(val[0]), A["into"] + _slot(val[1])]
    elif kind == "discard":
        out = [A["discard"] + _card_kind(val)]
    else:                                   # red3
        k = _card_kind(val)
        if k not in (14, 27):
            raise ParseError(f"samba: red3 is '3H' or '3D', got {_short(val)}")
        out = [A["red3 3H"] if k == 14 else A["red3 3D"]]
    trial = state.clone()
    for a in out:
        trial.apply(a)          # raises IllegalActionError naming the legal actions
    return out


def _card_kind(c):
    if not isinstance(c, str):
        raise ParseError(f"samba: a card is a string like 'KS', '10H', 'JK', got {_short(c)}")
    return _s.parse_kind(c)


def _slot(i):
    return check_int(i, "samba: a meld slot", 0, 31, ParseError)


def _ordered(cards, rank):
    ks = _kinds(cards, "the pile group")
    return sorted(ks, key=lambda k: (not (k < 52 and k % 13 == rank),))


def actions_to_moves(state, actions) -> list[dict]:
    """The whole moves (in the notation of move_to_actions) that `actions` (a sequence of action
    ints) make from `state`; a trailing incomplete move is returned with "incomplete": True.
    A non-integer or illegal action raises IllegalActionError (`state` is not changed)."""
    from cardsim.errors import IllegalActionError
    _samba_state(state)
    if isinstance(actions, (str, bytes, dict)) or not hasattr(actions, "__iter__") or not hasattr(actions, "__len__"):
        raise ParseError(f"samba: actions must be a sequence of action ints, got {_short(actions)}")
    if len(actions) > 1_000_000:
        raise ParseError(f"samba: at most 1,000,000 actions, got {len(actions)}")
    n = state.game.num_actions
    st = state.clone()
    moves: list[dict] = []
    staged: list[str] = []
    take = None
    for a in actions:
        a = check_int(a, f"samba: an action (an int 0..{n - 1})", 0, n - 1, IllegalActionError)
        text = st.action_to_string(a)
        st.apply(a)
        if text.startswith("+"):
            staged.append(text[1:])
            continue
        if text == "take pair":
            take = {"take": "pair", "group": [], "batch": []}
            moves.append(take)
        elif text == "meld":
            if take is not None:
                if not take["group"]:
                    take["group"] = staged
                else:
                    take["batch"].append(staged)
                if st.spec.view(st)["pile_take"] == 0:
                    take = None
            else:
                moves.append({"meld": staged})
            staged = []
            continue
        elif text.startswith("layoff "):
            moves.append({"layoff": staged, "slot": int(text.split()[1])})
        elif text.startswith("take "):
            w = text.split()
            moves.append({"take": w[1], "slot": int(w[2])})
        elif text.startswith("merge "):
            moves.append({"merge": [int(text.split()[1]), None]})
        elif text.startswith("into "):
            moves[-1]["merge"][1] = int(text.split()[1])
        elif text.startswith("discard "):
            moves.append({"discard": text.split()[1]})
        elif text.startswith("red3 "):
            moves.append({"red3": text.split()[1]})
        elif text in ("draw", "decline", "fail", "ask"):
            moves.append({text: True})
        elif text in ("yes", "no"):
            moves.append({"answer": text})
        staged = []
        if text != "take pair":
            take = None
    if staged:
        moves.append({"staged": staged, "incomplete": True})
    return moves


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


def _resolved(opts):
    if not isinstance(opts, dict):
        raise ConfigError(f"samba: opts must be the resolved options dict (cardsim.make('samba').options), "
                          f"got {_short(opts)}")
    try:
        o = dict(opts)
        players = check_int(o.pop("players", DEFAULT_PLAYERS), "samba: players", 2, 6, ConfigError)
        scope = o.pop("scope", "deal")
        o.pop("variant", None)
        o = _opts(None, o)
    except KeyError as e:
        raise ConfigError(f"samba: opts: {e}") from None
    if scope not in ("deal", "match"):
        raise ConfigError(f"samba: scope must be 'deal' or 'match', got {_short(scope)}")
    o["players"] = players
    o["scope"] = scope
    return o


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


def return_bounds(opts: dict) -> tuple[float, float]:
    """(lo, hi): provably safe lowest and highest return of any seat in a terminal state of this
    configuration (opts: cardsim.make("samba", ...).options).

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
    o = _resolved(opts)
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


def max_game_length(opts: dict) -> int:
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
    o = _resolved(opts)
    n = _deal_length(o)
    return n * o["max_deals"] if o["scope"] == "match" else n


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
