"""Samba (three-deck Canasta with sequences), 2 to 6 players: options, presets and rule oracles
(docs/rules/samba.md).

162 cards (three packs and six jokers), sides of one (N = 2, 3, 5) or partners (N = 4, 6), melds
of a rank (groups), sequences of one suit (a 7-card sequence is a samba), canastas, red threes,
an initial-meld minimum by side score. The action space and the returns: the docstring of the
compiled `cardsim.games.samba._state`; the greedy agent: `_agent`; the observation layout:
INFO.observation (`cardsim.games.samba.info`, generated into `_layout.pxd`).

Options (the names of the spec's §8 table, with types, defaults and docs), presets (standard,
dutch, no_wild_on_natural, hoyle, official: the §8 columns), metrics, unit, bounds and the
observation layout: INFO (`cardsim.games.samba.info`), declared once.
"""
from __future__ import annotations

from cardsim.errors import ConfigError, ParseError, short
from cardsim.info import scenario_spec
from cardsim.errors import short as _short
from cardsim.core._engine import State, check_int
from cardsim.games.samba import _spec as _s
from cardsim.games.samba import notation as _n
from cardsim.games.samba.info import INFO
from cardsim.options import resolve


def build(opts: dict):
    """The engine spec of these resolved options (cardsim.make calls it); anything but a resolved
    Samba options dict raises ConfigError."""
    if not isinstance(opts, dict):
        raise ConfigError(f"samba: opts must be the resolved options dict (cardsim.make('samba').options), "
                          f"got {_short(opts)}")
    INFO.resolve(opts)
    return _Spec(opts, INFO)


def _opts(variant, options):
    if variant is not None and not isinstance(variant, str):
        raise ConfigError(f"samba: variant must be a string, got {short(variant)}")
    kw = dict(options)
    for bad in ("players", "scope"):
        kw.pop(bad, None)
    return resolve(INFO.name, INFO.options, INFO.presets, INFO.players, INFO.default_players,
                   {**kw, **({"variant": variant} if variant not in (None, "standard") else {})})


def _kinds(cards, what):
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"samba: {what} must be a list of card strings like 'KS', '10H', 'JK', got {_short(cards)}")
    if len(cards) > 162:
        raise ParseError(f"samba: {what} holds {len(cards)} cards; the deck has 162")
    return [_n.parse_kind(c) for c in cards]


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
            raise ParseError(f"samba: {_n.kind_str(k)} appears {n} times; the deck holds "
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


_NSIDES = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}       # sides by player count (side = seat % sides)


def scenario(game, hands, *, dealer=0, turn=None, pile=(), melds=None, opened=None, red3=None, cum=None,
             stock=None, phase="draw", first_turn_done=True):
    """A state of `game` (a cardsim.make("samba") game) built from the given facts (tests and
    analysis): hands (card strings per seat), the pile (bottom first, top last), each side's
    melds (lists of card strings; all open unless `opened` says otherwise), exposed red threes per
    side, cumulative scores per side, the stock (top last; default: every card not placed, in
    display order), the seat to act (default dealer+1) and its phase ("draw" or "meld"). Marked
    not replayable.

    Every argument is checked before anything is read (ConfigError / ParseError naming what is
    allowed): one hand per seat, one entry per side in melds, opened, red3 and cum, card lists of
    card strings, at most 32 melds a side, each a valid meld, no more copies of a card than the
    deck. Positions a real deal cannot produce where they would be dead ends are refused (S-D10,
    S-D21): a side that has not opened holds no melds; in auto red-three mode a red three stays in
    a hand only as a dealt one (first_turn_done=False, exposed at the holder's first turn; in the
    draw phase the seat to act exposes them at once, as in a real deal), never in the hand of the
    seat in the meld phase; the seat in the meld phase holds a card, and a single card only with
    the side's going_out_min_canastas canastas (the hand guard: it must be able to discard it)."""
    _samba_game(game)
    opts = game.options
    N = game.spec.num_players
    S = _NSIDES[N]
    auto = opts["red_three_mode"] == "auto"
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)) or len(hands) != N:
        raise ConfigError(f"samba: need {N} hands (one list of card strings per seat), got {_short(hands)}")
    dealer = check_int(dealer, "samba: dealer", 0, N - 1, ConfigError)
    turn = check_int((dealer + 1) % N if turn is None else turn, "samba: turn", 0, N - 1, ConfigError)
    if not isinstance(phase, str) or phase not in ("draw", "meld"):
        raise ConfigError(f"samba: phase must be 'draw' or 'meld', got {_short(phase)}")
    if not isinstance(first_turn_done, bool):
        raise ConfigError(f"samba: first_turn_done must be True or False, got {_short(first_turn_done)}")
    melds = _per_side(melds, "melds (a list of melds per side)", S, [])
    opened = _per_side(opened, "opened", S, None)
    red3 = _per_side(red3, "red3 (a list of exposed red threes per side)", S, [])
    cum = _per_side(cum, "cum", S, 0)
    used = [0] * 53

    def take(cards, what):
        ks = _kinds(cards, what)
        for k in ks:
            used[k] += 1
        return ks
    hk = [take(h_, f"hand {q}") for q, h_ in enumerate(hands)]
    pk = take(pile, "the pile")
    for side in range(S):
        if (isinstance(melds[side], (str, bytes)) or not isinstance(melds[side], (list, tuple))
                or len(melds[side]) > 32):
            raise ConfigError(f"samba: melds of side {side}: a list of at most 32 melds (lists of "
                              f"card strings), got {_short(melds[side])}")
    mk = [[take(m_, "a meld") for m_ in side_melds] for side_melds in melds]
    rk = [take(r_, "red threes") for r_ in red3]
    for side in range(S):
        if any(k not in (14, 27) for k in rk[side]):
            raise ConfigError("samba: red3 lists hold only 3H / 3D")
    sk = None if stock is None else take(stock, "the stock")
    for k in range(53):
        if used[k] > (6 if k == 52 else 3):
            raise ConfigError(f"samba: more copies of {_n.kind_str(k)} than the 162-card deck holds")
    canastas = [0] * S
    for side in range(S):
        if opened[side] is None:
            opened[side] = bool(mk[side])
        elif not isinstance(opened[side], bool):
            raise ConfigError(f"samba: opened holds True or False per side, got {_short(opened[side])}")
        elif mk[side] and not opened[side]:
            raise ConfigError(f"samba: side {side} has melds on the table, so it has opened (a side's melds "
                              f"stay pending only while its initial batch is built in a turn)")
        for ks in mk[side]:
            t, n = _s.oracle_classify(ks, False, opts)[:2]
            if t <= 0:
                raise ConfigError(f"samba: {_short([_n.kind_str(k) for k in ks], 120)} is not a valid meld")
            canastas[side] += (t == 1 and n >= 7) or (t == 2 and n == 7)
    cum = [check_int(x, "samba: cum", -10**8, 10**8, ConfigError) for x in cum]
    for q in range(N):
        if auto and any(k in (14, 27) for k in hk[q]):
            if first_turn_done:
                raise ConfigError(f"samba: hand {q} holds a red three: with red_three_mode='auto' red threes "
                                  f"are exposed at once (drawn) or at the holder's first turn (dealt, S-D21); "
                                  f"pass first_turn_done=False for dealt red threes")
            if phase == "meld" and q == turn:
                raise ConfigError(f"samba: the seat in the meld phase ({q}) had its first turn and exposed "
                                  f"its dealt red threes (S-D21); its hand holds none")
    if phase == "meld":
        C = canastas[turn % S]
        need = opts["going_out_min_canastas"]
        if len(hk[turn]) == 0:
            raise ConfigError(f"samba: the seat in the meld phase ({turn}) holds no card: an empty hand "
                              f"ends the deal (going out)")
        if len(hk[turn]) == 1 and C < need:
            raise ConfigError(f"samba: the seat in the meld phase ({turn}) holds one card and its side "
                              f"{C} canastas: the hand guard (S-D10) keeps two cards until the side has "
                              f"{need} (the last card could not be discarded)")
    if sk is None:
        sk = []
        for k in reversed(_n.DISPLAY_ORDER):
            sk.extend([k] * ((6 if k == 52 else 3) - used[k]))
    return game.spec._scenario_fill(dealer, turn, phase == "meld", first_turn_done, hk, pk, mk, opened, rk,
                                    cum, sk)


def _per_side(value, what, S, default):
    """A list with one entry per side (None: `default` for each), checked before it is read."""
    if value is None:
        return [list(default) if isinstance(default, list) else default for _ in range(S)]
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or len(value) != S:
        raise ConfigError(f"samba: {what} needs one entry per side ({S}), got {_short(value)}")
    return list(value)


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
    A = _n.ACTIONS
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
    return _n.parse_kind(c)


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


# ---- episode and return bounds (the shared protocol; derivations in info.py) -------------------
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length



_Spec = scenario_spec(_s.SambaSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay samba --html`, cardsim.replay.table_of) draws of a
    position: the stock and the discard pile, each side's melds and red threes, the cards being
    melded, and each side's canastas and scores (the deal's and the running total, as the returns
    count them). `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        n = len(v["hands"])
        S = len(v["melds"])
        names = INFO.seat_names_for(n)
        sides = INFO.side_names(n, S)
        pile = v["pile"]
        zones = [{"name": "stock and discard pile", "groups": [
            {"cards": ["?"] if v["stock"] else [], "label": f"stock {len(v['stock'])}"},
            {"cards": pile[-1:], "label": f"pile {len(pile)}"}]}]
        for side in range(S):
            groups = [{"cards": m["cards"], "label": m["type"] + (" (pending)" if m["pending"] else "")}
                      for m in v["melds"][side]]
            if v["red3"][side]:
                groups.append({"cards": v["red3"][side], "label": "red threes"})
            if groups:
                zones.append({"name": f"melds of {sides[side]}", "groups": groups})
        if v["staged"] or v["take_top"]:
            zones.append({"name": "being melded", "groups": [{"seat": v["turn"], "cards": v["staged"] + (
                [v["take_top"]] if v["take_top"] else []), "label": names[v["turn"]]}]})
        facts = [("dealer", names[v["dealer"]])]
        if v["out_seat"] is not None:
            facts.append(("went out", names[v["out_seat"]]))
        if v["end_type"]:
            facts.append(("deal ended", v["end_type"].replace("_", " ")))
        scores = [{"label": "canastas", "cols": sides, "values": list(v["canastas"])},
                  {"label": "opened", "cols": sides, "values": [bool(x) for x in v["opened"]]},
                  {"label": "deal score", "cols": sides, "values": list(v["deal_scores"])}]
        if state.spec.options.get("scope") == "match":          # the running total counts in a match only
            scores.append({"label": "match score", "cols": sides, "values": list(v["cum_scores"])})
        return {"zones": zones, "facts": facts, "scores": scores}
