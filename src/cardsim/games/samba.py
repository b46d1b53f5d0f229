"""Samba (three-deck Canasta with sequences), 2 to 6 players: options, presets and rule oracles
(docs/rules/samba.md).

162 cards (three packs and six jokers), sides of one (N = 2, 3, 5) or partners (N = 4, 6), melds
of a rank (groups), sequences of one suit (a 7-card sequence is a samba), canastas, red threes,
an initial-meld minimum by side score. See the compiled module `cardsim.games._samba` for the
action space, the observation layout, the returns and the greedy agent.

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
Presets: standard (the defaults), dutch, no_wild_on_natural, hoyle, official (§8 columns).
"""
from __future__ import annotations

from cardsim.errors import ConfigError, ParseError
from cardsim.games import _samba as _s
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
    return _s.SambaSpec(opts)


def _opts(variant, options):
    if variant is not None and not isinstance(variant, str):
        raise ConfigError(f"samba: variant must be a string, got {variant!r}")
    kw = dict(options)
    for bad in ("players", "scope"):
        kw.pop(bad, None)
    return resolve(NAME, OPTIONS, PRESETS, PLAYERS, DEFAULT_PLAYERS,
                   {**kw, **({"variant": variant} if variant not in (None, "standard") else {})})


def _kinds(cards, what):
    if isinstance(cards, str) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"samba: {what} must be a list of card strings like 'KS', '10H', 'JK', got {cards!r}")
    return [_s.parse_kind(c) for c in cards]


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
        raise ParseError(f"samba: going_out must be True or False, got {going_out!r}")
    opts = _opts(variant, options)
    ks = _kinds(cards, "a meld")
    _check_copies([ks])
    t, n, nat, wild = _s.oracle_classify(ks, going_out, opts)
    if t < 0:
        raise MeldError(f"samba: {list(cards)} is no meld: {_REASONS[t]}")
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
        raise ParseError(f"samba: side_has_melded must be True or False, got {side_has_melded!r}")
    if isinstance(side_score, bool) or not isinstance(side_score, int) or abs(side_score) > 10**9:
        raise ParseError(f"samba: side_score must be an int, got {side_score!r}")
    opts = _opts(variant, options)
    hk = _kinds(hand, "hand")
    pk = _kinds(pile, "pile")
    if not pk:
        raise ParseError("samba: the pile is empty")
    if not isinstance(side_melds, (list, tuple)) or len(side_melds) > 32:
        raise ParseError("samba: side_melds must be a list of at most 32 melds (lists of card strings)")
    mk = [_kinds(m, "a meld") for m in side_melds]
    _check_copies([hk, pk, *mk])
    for m, ks in zip(side_melds, mk):
        try:
            _s.oracle_classify(ks, False, opts)
        except ParseError:
            raise
        t = _s.oracle_classify(ks, False, opts)[0]
        if t <= 0:
            raise MeldError(f"samba: side meld {list(m)} is no meld: {_REASONS[t]}")
    if mk and not side_has_melded:
        raise ParseError("samba: a side with melds has melded (side_has_melded=True)")
    return _s.oracle_can_take_pile(hk, pk, mk, side_has_melded, side_score, opts)


def score_side(melds: list[list[str]], hands: list[list[str]], red_threes: int, went_out: bool,
               variant: str = "standard", **options) -> int:
    """A side's score for a deal (§6): its melds' card values, 500 per natural canasta, 300 per
    mixed one, 1500 per samba, 200 for going out, the red-three bonus (+100 each, 1000 for all six,
    negative without two canastas), minus the card values left in `hands` (one list per player
    of the side, 1 or 2; red threes in a hand cost 100 each, or 750 per player under the Dutch
    red3_in_hand_penalty)."""
    if isinstance(red_threes, bool) or not isinstance(red_threes, int) or not 0 <= red_threes <= 6:
        raise ParseError(f"samba: red_threes must be an int 0..6, got {red_threes!r}")
    if not isinstance(went_out, bool):
        raise ParseError(f"samba: went_out must be True or False, got {went_out!r}")
    if not isinstance(hands, (list, tuple)) or len(hands) not in (1, 2):
        raise ParseError("samba: hands must hold one list of cards per player of the side (1 or 2)")
    if not isinstance(melds, (list, tuple)) or len(melds) > 32:
        raise ParseError("samba: melds must be a list of at most 32 melds")
    opts = _opts(variant, options)
    mk = [_kinds(m, "a meld") for m in melds]
    hk = [_kinds(h, "a hand") for h in hands]
    _check_copies([*mk, *hk])
    for m, ks in zip(melds, mk):
        t = _s.oracle_classify(ks, True, opts)[0]
        if t <= 0:
            raise MeldError(f"samba: {list(m)} is no meld: {_REASONS[t]}")
    return _s.oracle_score_side(mk, hk, red_threes, went_out, opts)


def initial_meld_requirement(side_score: int, table: str = "seed") -> int:
    """The initial-meld minimum for a side's cumulative score (§4.0, EX-S1)."""
    if isinstance(side_score, bool) or not isinstance(side_score, int):
        raise ParseError(f"samba: side_score must be an int, got {side_score!r}")
    if table not in ("seed", "hoyle"):
        raise ParseError(f"samba: table must be 'seed' or 'hoyle', got {table!r}")
    return _s.oracle_req(max(min(side_score, 10**9), -10**9), table == "hoyle")


def scenario(game, hands, **facts):
    """A state built from given facts (see SambaSpec.scenario)."""
    return game.spec.scenario(hands, **facts)


# ---- whole moves written in cards <-> factored actions ------------------------------------------
def _card_kind(c):
    return _s.parse_kind(c)


def move_to_actions(state, move: dict) -> list[int]:
    """The action sequence of one whole move written in cards (for the player to act in `state`):
    {"draw": True}, {"decline": True}, {"take": "layoff" | "seq", "slot": i},
    {"take": "pair", "group": [hand cards joining the top card], "batch": [[...], ...]} (the
    batch: further initial melds), {"meld": [cards]}, {"initial": [[cards], ...]},
    {"layoff": [cards], "slot": i}, {"merge": [i, j]} (j joins i), {"discard": card},
    {"red3": card}, {"fail": True}, {"ask": True}, {"answer": "yes" | "no"}.
    Raises IllegalActionError if the sequence is not legal from `state` (state unchanged)."""
    from cardsim.errors import IllegalActionError
    if not isinstance(move, dict) or len(move) == 0:
        raise ParseError(f"samba: a move is a dict such as {{'meld': ['KS', 'KH', 'KD']}}, got {move!r}")
    A = _s.ACTIONS
    out: list[int] = []
    if move.get("draw"):
        out = [A["draw"]]
    elif move.get("decline"):
        out = [A["decline"]]
    elif move.get("fail"):
        out = [A["fail"]]
    elif move.get("ask"):
        out = [A["ask"]]
    elif "answer" in move:
        if move["answer"] not in ("yes", "no"):
            raise ParseError("samba: answer is 'yes' or 'no'")
        out = [A[move["answer"]]]
    elif "take" in move:
        kind = move["take"]
        if kind in ("layoff", "seq"):
            out = [A["take " + kind] + _slot(move)]
        elif kind == "pair":
            view = state.spec.view(state)
            if not view["pile"]:
                raise IllegalActionError("samba: the pile is empty")
            top = _card_kind(view["pile"][-1])
            out = [A["take pair"]] + [A["+"] + k for k in _ordered(move.get("group", []), top % 13)] + [A["meld"]]
            for m in move.get("batch", []):
                out += [A["+"] + k for k in _kinds(m, "a meld")] + [A["meld"]]
        else:
            raise ParseError("samba: take is 'pair', 'layoff' or 'seq'")
    elif "meld" in move:
        out = [A["+"] + k for k in _kinds(move["meld"], "a meld")] + [A["meld"]]
    elif "initial" in move:
        for m in move["initial"]:
            out += [A["+"] + k for k in _kinds(m, "a meld")] + [A["meld"]]
    elif "layoff" in move:
        out = [A["+"] + k for k in _kinds(move["layoff"], "a lay-off")] + [A["layoff"] + _slot(move)]
    elif "merge" in move:
        i, j = move["merge"]
        out = [A["merge"] + _slot({"slot": i}), A["into"] + _slot({"slot": j})]
    elif "discard" in move:
        out = [A["discard"] + _card_kind(move["discard"])]
    elif "red3" in move:
        k = _card_kind(move["red3"])
        if k not in (14, 27):
            raise ParseError("samba: red3 is '3H' or '3D'")
        out = [A["red3 3H"] if k == 14 else A["red3 3D"]]
    else:
        raise ParseError(f"samba: unknown move {move!r}")
    trial = state.clone()
    for a in out:
        trial.apply(a)          # raises IllegalActionError naming the legal actions
    return out


def _slot(move):
    i = move.get("slot")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < 32:
        raise ParseError(f"samba: a meld slot is an int 0..31, got {i!r}")
    return i


def _ordered(cards, rank):
    ks = _kinds(cards, "the pile group")
    return sorted(ks, key=lambda k: (not (k < 52 and k % 13 == rank),))


def actions_to_moves(state, actions) -> list[dict]:
    """The whole moves (in the notation of move_to_actions) that `actions` make from `state`;
    a trailing incomplete move is returned with "incomplete": True."""
    st = state.clone()
    moves: list[dict] = []
    staged: list[str] = []
    take = None
    for a in actions:
        text = st.action_to_string(int(a))
        st.apply(int(a))
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


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
