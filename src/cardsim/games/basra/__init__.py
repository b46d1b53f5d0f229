"""Basra / Bastra: the Python face (docs/rules/basra.md): build, the rule oracles on card
strings, scenario states and the whole-play helpers. The game's metadata (options, presets,
metrics, observation, bounds) is INFO in ``cardsim.games.basra.info``.

Egyptian rules by default (``variant=None`` or ``variant="egyptian"``); the regional games are
presets over the same options (§8.2) and every option can be overridden on its own. See the
docstring of the compiled module ``cardsim.games.basra._state`` for the action space, the
returns (per seat: own side's points minus the mean of the other sides', zero-sum; in a best-of-5
match games won, so that the returns rank the sides as the match result does) and the greedy
agent. Scenario states: ``scenario(game, hands, floor=..., ...)`` (and ``position`` /
``deal_pack``, which forward to it).

Where the spec is silent (documented in the module and the tests): a user-supplied card-point
table (``card_points={"J": 2, "10D": 4}``) is allowed besides the named tables;
``capture_options`` judges a play that is not the last card of the deal; a drawn game in a
best-of-5 match counts for nobody; ``hand_size`` is checked against a preset only when a preset
is named.
"""
from __future__ import annotations

import numbers

import numpy as np

from cardsim.core._engine import check_int
from cardsim.errors import ConfigError, ParseError, short
from cardsim.info import scenario_spec
from cardsim.games.basra import _rules, _spec
from cardsim.games.basra.info import INFO, PRESET_HAND_SIZES
from cardsim.games.basra.notation import RANKS, SUITS, card_str, cards_to_mask, mask_to_cards, parse_card

__doc__ += "\n" + INFO.layout_doc() + "\n"

return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length



def build(opts: dict):
    return _Spec(opts, INFO)


_SPECS: dict = {}


def _oracle_spec(variant, options):
    """The compiled spec the oracles run on (cached per variant and options)."""
    if variant is None:
        variant = "egyptian"
    try:
        key = (variant, repr(sorted(options.items())))
    except TypeError:
        key = None
    if key is not None and key in _SPECS:
        return _SPECS[key]
    if "players" in options:
        spec = build(INFO.resolve_kwargs(dict(options, variant=variant)))
    else:
        # the rule oracles do not depend on the table size; pick one the options allow
        try:
            spec = build(INFO.resolve_kwargs(dict(options, variant=variant)))
        except ConfigError:
            spec = build(INFO.resolve_kwargs(dict(options, variant=variant, players=2)))
    if key is not None and len(_SPECS) < 256:
        _SPECS[key] = spec
    return spec


def _own_game(game):
    """game, checked to be a Basra game (cardsim.make("basra", ...))."""
    return INFO.game_of(game)


def _own_state(state):
    """state, checked to be a State of a Basra game."""
    from cardsim.core._engine import State

    if not isinstance(state, State) or not isinstance(state.spec, _spec.BasraSpec):
        raise ConfigError(f"basra: expected a State of a Basra game, got {short(state)}")
    return state


def _floor_ids(floor, deck):
    if isinstance(floor, str) or not isinstance(floor, (list, tuple)):
        raise ParseError(f"basra: the floor must be a list of card strings, got {short(floor)}")
    ids = []
    for t in floor:
        k = parse_card(t)
        if k >= deck:
            raise ParseError(f"basra: card {short(t)} is not in the {deck}-card pack")
        if k in ids:
            raise ParseError(f"basra: card {short(t)} appears twice on the floor (one pack)")
        ids.append(k)
    return ids


def _card(card, deck):
    c = parse_card(card)
    if c >= deck:
        raise ParseError(f"basra: card {short(card)} is not in the {deck}-card pack")
    return c


def capture_options(floor: list[str], card: str, variant: str = "egyptian", **options) -> list[dict]:
    """Every legal outcome of playing `card` on `floor` (§4.2, §4.3), with the engine's kernels:
    a list of {"captured": [floor cards taken, in floor order], "basra_points": int}, in the
    order of the floor positions taken; [{"captured": [], "basra_points": 0}] when nothing can
    be taken (a trail). Options override the preset as in make(). The play is judged as not the
    last card of the deal (basra_on_last_play only matters there)."""
    spec = _oracle_spec(variant, options)
    deck = spec.deck_size
    ids = _floor_ids(floor, deck)
    c = _card(card, deck)
    if c in ids:
        raise ParseError(f"basra: card {short(card)} is both played and on the floor (one pack)")
    fmask = 0
    for k in ids:
        fmask |= 1 << k
    out = []
    for s in _rules.oracle_capture_sets(spec, fmask, c):
        taken = [i for i, k in enumerate(ids) if (s >> k) & 1]
        pts = _rules.oracle_basra_points(spec, c, fmask, False) if s and s == fmask else 0
        out.append((taken, {"captured": [card_str(ids[i]) for i in taken], "basra_points": int(pts)}))
    out.sort(key=lambda t: t[0])
    return [d for _, d in out]


def basra_points(floor: list[str], card: str, variant: str = "egyptian", last_play: bool = False,
                 **options) -> int:
    """Basra points for clearing the whole `floor` with `card` (§4.3); 0 if `card` cannot
    clear it."""
    spec = _oracle_spec(variant, options)
    ids = _floor_ids(floor, spec.deck_size)
    c = _card(card, spec.deck_size)
    if c in ids:
        raise ParseError(f"basra: card {short(card)} is both played and on the floor (one pack)")
    if not isinstance(last_play, (bool, np.bool_)):
        raise ConfigError(f"basra: last_play must be True or False, got {short(last_play)}")
    fmask = sum(1 << k for k in ids)
    if not fmask or fmask not in _rules.oracle_capture_sets(spec, fmask, c):
        return 0
    return int(_rules.oracle_basra_points(spec, c, fmask, bool(last_play)))


def score_deal(piles: list[list[str]], basras: list[float] | None = None, doubled: list[list[str]] | None = None,
               carry: int = 0, variant: str = "egyptian", **options) -> tuple[list[float], int, int]:
    """Score one deal (§6) with the engine's kernel: piles[s] = the cards side s captured,
    basras[s] = its basra points, doubled[s] = its doubled (Syrian) cards, carry = majority ties
    carried in. Returns (points per side, new carry, majority side or -1). Inconsistent inputs
    (a card in two piles, a doubled card outside its side's pile, negative or fractional
    counts) raise ConfigError / ParseError instead of being scored."""
    if isinstance(piles, (str, bytes)) or not isinstance(piles, (list, tuple)):
        raise ParseError(f"basra: piles must be a list of 2, 3 or 4 card lists, got {short(piles)}")
    n = len(piles)
    opts = dict(options)
    if n == 3:
        opts.setdefault("players", 3)
    elif n == 4:
        opts.setdefault("players", 4)
        opts.setdefault("partnership", False)
    elif n == 2:
        opts.setdefault("players", 2)
    else:
        raise ConfigError("basra: piles must hold 2, 3 or 4 sides")
    spec = _oracle_spec(variant, opts)
    if spec.num_sides != n:
        raise ConfigError(f"basra: piles hold {n} sides but the options make {spec.num_sides} sides")
    deck = spec.deck_size
    masks = [cards_to_mask(p, deck) for p in piles]
    used = 0
    for m in masks:
        if used & m:
            raise ConfigError(f"basra: a card appears in two piles: {mask_to_cards(used & m)}")
        used |= m
    if doubled is None:
        doubled = []
    if isinstance(doubled, (str, bytes)) or not isinstance(doubled, (list, tuple)) or len(doubled) > n:
        raise ConfigError(f"basra: doubled must be a list of at most {n} card lists, got {short(doubled)}")
    dbl = [cards_to_mask(p, deck) for p in doubled]
    for s, m in enumerate(dbl):
        if m & ~masks[s]:
            raise ConfigError(f"basra: doubled cards {mask_to_cards(m & ~masks[s])} are not in side {s}'s pile")
    if basras is None:
        basras = [0] * n
    if isinstance(basras, (str, bytes)) or not isinstance(basras, (list, tuple)) or len(basras) != n:
        raise ConfigError(f"basra: basras must be {n} numbers (basra points per side), got {short(basras)}")
    halves = [_half_points("basra points", b, MAX_POINTS) for b in basras]
    carry = check_int(carry, "basra: carry", 0, MAX_CARRY, ConfigError)
    pts, carry, side = _rules.oracle_score(spec, masks, dbl, halves, carry)
    return [h / 2.0 for h in pts], carry, side


# ---- scenario states (validated here; the struct is written by BasraSpec's setters) -------------
MAX_CARRY = 10_000            # majority ties carried over: far beyond play, keeps the bonus in range
MAX_POINTS = 1_000_000        # points per side given to set_scores / score_deal


def _half_points(name, value, limit):
    """A number of points (a multiple of 0.5, 0..limit, not a bool) -> half points."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= limit
            or 2 * value != int(2 * value)):
        raise ConfigError(f"basra: {name} must be multiples of 0.5 in 0..{limit}, got {value!r:.60}")
    return int(2 * value)


def side_of(game, p: int) -> int:
    """The side of seat p (0..players-1): partners opposite with 4 players in partnership."""
    spec = _own_game(game).spec
    p = check_int(p, "basra: seat", 0, spec.num_players - 1, ConfigError)
    return p & 1 if spec.num_sides == 2 and spec.num_players == 4 else p


def scenario(game, hands, **facts):
    """A state built from card strings, for scenario tests and analysis; every argument is
    validated before the state is touched (ConfigError / ParseError), and the state is marked
    not replayable.

    hands: one card list per seat (at most hand_size cards each), with the public facts
    floor, stock (top card first), piles (cards captured per side so far), dealer, turn
    (default: dealer's right, dealer + 1), last_capturer (a side or None) and carry
    (majority ties carried in). Cards listed nowhere are out of play (the pack is then
    incomplete, which scenarios allow). Or hands=None and pack=[52 or 44 cards, top first]
    (with dealer): a fresh deal dealt from that pack exactly as the engine deals (§3)."""
    return _scenario(_own_game(game).spec, hands, facts)


def _scenario(spec, hands, facts):
    unknown = sorted(set(facts) - {"floor", "stock", "dealer", "turn", "last_capturer", "piles", "carry", "pack"})
    if unknown:
        raise ConfigError(f"basra: unknown scenario facts {unknown}; known: floor, stock, dealer, turn, "
                          f"last_capturer, piles, carry (or pack with dealer)")
    if facts.get("pack") is not None:
        if hands is not None or set(facts) - {"pack", "dealer"}:
            raise ConfigError("basra: a scenario from a pack takes only pack= and dealer= (hands=None)")
        return _from_pack(spec, facts["pack"], facts.get("dealer", 0))
    facts.pop("pack", None)
    return _position(spec, hands, **facts)


def deal_pack(game, pack: list[str], dealer: int = 0):
    """A fresh deal dealt from an ordered pack (top card first), as the engine deals (§3); the
    same as scenario(game, None, pack=pack, dealer=dealer)."""
    return scenario(game, None, pack=pack, dealer=dealer)


def position(game, hands, floor, stock=(), dealer=0, turn=None, last_capturer=None, piles=None, carry=0):
    """A mid-deal position from card strings; the same as scenario(game, hands, floor=...,
    stock=..., dealer=..., turn=..., last_capturer=..., piles=..., carry=...)."""
    return scenario(game, hands, floor=floor, stock=stock, dealer=dealer, turn=turn,
                    last_capturer=last_capturer, piles=piles, carry=carry)


def _from_pack(spec, pack, dealer):
    deck = spec.deck_size
    cards_to_mask(pack, deck)
    if len(pack) != deck:
        raise ConfigError(f"basra: the pack must hold all {deck} cards, got {len(pack)}")
    dealer = check_int(dealer, "basra: dealer", 0, spec.num_players - 1, ConfigError)
    return spec._deal_pack([parse_card(t) for t in pack], dealer)


def _position(spec, hands, floor=(), stock=(), dealer=0, turn=None, last_capturer=None, piles=None, carry=0):
    N = spec.num_players
    deck = spec.deck_size
    hand_size = spec.options["hand_size"]
    sides = spec.num_sides
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (list, tuple)):
        raise ParseError(f"basra: hands must be a list of {N} card lists, got {hands!r:.60}")
    if len(hands) != N:
        raise ConfigError(f"basra: need {N} hands, got {len(hands)}")
    hm = [cards_to_mask(h, deck) for h in hands]
    for p, h in enumerate(hands):
        if len(h) > hand_size:
            raise ConfigError(f"basra: hand {p} holds {len(h)} cards; a hand holds at most "
                              f"hand_size = {hand_size}")
    fm = cards_to_mask(floor, deck)
    sm = cards_to_mask(stock, deck)
    if piles is None:
        piles = ()
    if isinstance(piles, (str, bytes)) or not isinstance(piles, (list, tuple)) or len(piles) > sides:
        raise ConfigError(f"basra: piles must be a list of at most {sides} card lists (one per "
                          f"side), got {piles!r:.60}")
    pm = [cards_to_mask(pl, deck) for pl in piles]
    dealer = check_int(dealer, "basra: dealer", 0, N - 1, ConfigError)
    turn = (dealer + 1) % N if turn is None else check_int(turn, "basra: turn", 0, N - 1, ConfigError)
    last_capturer = -1 if last_capturer is None else check_int(last_capturer, "basra: last_capturer (a side)", 0,
                                                               sides - 1, ConfigError)
    carry = check_int(carry, "basra: carry", 0, MAX_CARRY, ConfigError)
    used = 0
    for m in hm + [fm, sm] + pm:
        if used & m:
            raise ConfigError("basra: a card appears twice in the position")
        used |= m
    if hm[turn] == 0:
        raise ConfigError(f"basra: the seat to act ({turn}) must hold a card")
    # Play goes round from the seat to act, one card per seat (§4.1): a real deal has the
    # seats from `turn` on holding m cards, those that already played this round m - 1 (B-D27).
    # Other shapes end in a seat to act with no card while others still hold some (a dead end).
    sizes = [len(hands[(turn + j) % N]) for j in range(N)]
    if any(sizes[j] < sizes[j + 1] for j in range(N - 1)) or sizes[N - 1] < sizes[0] - 1:
        raise ConfigError(f"basra: hand sizes {[len(h) for h in hands]} cannot occur with seat {turn} to act: "
                          f"going round the table from the seat to act, hand sizes never grow and differ "
                          f"by at most one (the seats that already played this round hold one fewer)")
    if len(stock) % N:
        raise ConfigError(f"basra: the stock holds {len(stock)} cards; a real deal leaves a multiple of "
                          f"the {N} players (every re-deal gives each seat the same number)")
    return spec._set_position(hm, fm, [parse_card(t) for t in stock], pm, dealer, turn, last_capturer, carry)


def set_scores(state, game_points, carry=None, ladder_step=0):
    """Set the current game's points per side (real points, multiples of 0.5) and the carry of
    a state (also the whole state's totals); returns the state."""
    spec = _own_state(state).spec
    S = spec.num_sides
    if isinstance(game_points, (str, bytes)) or not isinstance(game_points, (list, tuple)) or len(game_points) != S:
        raise ConfigError(f"basra: game_points must be {S} numbers (one per side), got {game_points!r:.60}")
    halves = [_half_points("game_points", v, MAX_POINTS) for v in game_points]
    carry = -1 if carry is None else check_int(carry, "basra: carry", 0, MAX_CARRY, ConfigError)
    ladder_step = check_int(ladder_step, "basra: ladder_step", 0, 2, ConfigError)
    return spec._set_scores(state, halves, carry, ladder_step)


def game_end(state) -> int:
    """Run the §7 end-of-game check on a state's current points (-2 play on, -1 draw, else the
    winning side); it may raise the ladder target, as the engine does."""
    return _own_state(state).spec._game_end(state)

# ---- whole plays <-> factored actions ----------------------------------------------------------
def legal_plays(state) -> list[tuple[str, list[str]]]:
    """Every legal whole play of the seat to act, as (card, captured floor cards), from the
    start of its turn (phase "play"); in phase "choose" only the plays of the pending card that
    are still open. Empty when the state is terminal."""
    v = _own_state(state).spec.view(state)
    if v["phase"] == "end":
        return []
    cards = [v["pending"]] if v["phase"] == "choose" else v["hands"][v["turn"]]
    out = []
    for c in cards:
        for o in _rules.oracle_capture_sets(state.spec, cards_to_mask(v["floor"]), parse_card(c)):
            cap = mask_to_cards(o)
            if set(v["chosen"]) <= set(cap):
                out.append((c, cap))
    return out


def play_to_actions(state, card: str, captured: list[str]) -> list[int]:
    """The action sequence that plays `card` capturing exactly `captured` (a list of floor
    cards; [] = trail) from `state` (phase "play"). Raises IllegalActionError if that is not a
    legal play."""
    from cardsim.errors import IllegalActionError

    _own_state(state)
    want = cards_to_mask(captured)
    c = parse_card(card)
    if state.phase != "play":
        raise IllegalActionError("basra: play_to_actions starts at the beginning of a turn (phase 'play')")
    legal = {(k, frozenset(cap)) for k, cap in legal_plays(state)}
    if (card_str(c), frozenset(mask_to_cards(want))) not in legal:
        raise IllegalActionError(f"basra: playing {short(card)} capturing {short(list(captured))} is not legal here; "
                                 f"legal plays: {sorted(legal_plays(state))}")
    s = state.clone()
    acts = [c]
    s.apply(c)
    while s.phase == "choose":
        chosen = cards_to_mask(s.spec.view(s)["chosen"])
        if chosen == want:
            a = _spec.BA_COMMIT_ACTION
        else:
            rest = want & ~chosen
            a = _spec.BA_TAKE0_ACTION + (rest & -rest).bit_length() - 1
        acts.append(a)
        s.apply(a)
    return acts


def actions_to_play(state, actions: list[int]) -> tuple[str, list[str]]:
    """The (card, captured floor cards) that a complete action sequence plays from `state`
    (phase "play"); raises IllegalActionError if the actions are illegal or incomplete."""
    from cardsim.errors import IllegalActionError

    _own_state(state)
    if isinstance(actions, (str, bytes)) or not isinstance(actions, (list, tuple, np.ndarray)) or any(
            isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) for a in actions):
        raise IllegalActionError(f"basra: actions must be a list of action ints, got {short(actions)}")
    if not len(actions) or state.phase != "play":
        raise IllegalActionError("basra: need the actions of one whole play, from phase 'play'")
    s = state.clone()
    for i, a in enumerate(actions):
        if i > 0 and s.phase != "choose":
            raise IllegalActionError("basra: the actions hold more than one play")
        s.apply(int(a))
    if s.phase == "choose":
        raise IllegalActionError("basra: the actions do not complete the play")
    floor = cards_to_mask(state.spec.view(state)["floor"])
    card = int(actions[0])
    sets = _rules.oracle_capture_sets(state.spec, floor, card)
    chosen = 0
    for a in list(actions[1:]) + [None]:
        compat = [x for x in sets if x & chosen == chosen]
        inter = compat[0]
        for x in compat:
            inter &= x
        chosen = inter
        if len(compat) == 1 or a is None or a == _spec.BA_COMMIT_ACTION:
            break
        chosen |= 1 << (int(a) - _spec.BA_TAKE0_ACTION)
    return card_str(card), mask_to_cards(chosen)


_Spec = scenario_spec(_spec.BasraSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


class Replay:
    """What the web replay (`cardsim replay basra --html`, cardsim.replay.table_of) draws of a
    position: the floor, the card being played while its capture is chosen, each side's captured
    pile, and the points (per side). `viewer`: the seat the page is seen by (None: everything)."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        n = state.spec.num_players
        S = len(v["piles"])
        sides = INFO.side_names(n, S)
        zones = [{"name": "floor", "groups": [{"cards": v["floor"]}]}]
        if v["pending"]:
            zones.append({"name": "capturing with", "groups": [{"seat": v["turn"], "cards": [v["pending"]],
                                                                  "label": "chose " + (" ".join(v["chosen"]) or "nothing yet")}]})
        zones.append({"name": "captured piles", "groups": [
            {"cards": ["?"] if pile else [], "label": f"{sides[i]}: {len(pile)}"} for i, pile in enumerate(v["piles"])]})
        facts = [("dealer", INFO.seat_names_for(n)[v["dealer"]]), ("stock", f"{len(v['stock'])} cards"),
                 ("target", v["target"])]
        if v["carry"]:
            facts.append(("carried over", v["carry"]))
        scores = [
            {"label": "cards captured", "cols": sides, "values": [len(p) for p in v["piles"]]},
            {"label": "basras", "cols": sides, "values": v["basras"]},
            {"label": "deal points", "cols": sides, "values": v["deal_points"]},
            {"label": "game points", "cols": sides, "values": v["game_points"]},
        ]
        return {"zones": zones, "facts": facts, "scores": scores}
