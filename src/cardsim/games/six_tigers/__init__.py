"""Hakka Six Tigers 客家六虎牌 (Luk Fu): options, rule oracles and helpers.

Rules as implemented, with every option and decision: docs/rules/six_tigers.md. Four seats (a
dealer, two more active players and the dreamer opposite the dealer, who holds one card and
never plays) or three without a dreamer; 37 cards (SHI > GUAN > SUO > XIAN of 1-9, and CLOUD).
The action space, returns and the greedy agent are documented in the compiled modules
`cardsim.games.six_tigers._state` and `._agent`; the observation layout is INFO.observation.

Options, presets, players, the unit of the returns, the metrics, the observation layout and the
bounds: `INFO` (cardsim.games.six_tigers.info). Card and action notation:
`cardsim.games.six_tigers.notation`.

Bounds (the shared protocol): `return_bounds(opts)` and `max_game_length(opts)` (INFO's, derived in
info.py).
"""
from __future__ import annotations

from cardsim.core._engine import GameSpec, State, check_int
from cardsim.core.notation import disjoint_hands
from cardsim.errors import ConfigError, IllegalActionError, ParseError
from cardsim.info import scenario_spec
from cardsim.errors import short as _short
from cardsim.games.six_tigers import _rules as _r
from cardsim.games.six_tigers import _spec
from cardsim.games.six_tigers import notation as _n
from cardsim.games.six_tigers.info import INFO
from cardsim.games.six_tigers.notation import card_str, cards_to_mask, mask_to_cards, parse_card

__doc__ = (__doc__ or "") + "\n" + INFO.layout_doc() + "\n"

_NAME = INFO.name
RULE_OPTIONS = ("set_order", "cloud_in_sets")
return_bounds = INFO.return_bounds
max_game_length = INFO.max_game_length


def build(opts: dict):
    return _Spec(opts)


def _rules_config(options):
    by_name = {o.name: o for o in INFO.options}
    vals = {k: by_name[k].default for k in RULE_OPTIONS}
    for k, v in options.items():
        if k not in RULE_OPTIONS:
            raise ConfigError(f"six_tigers: option {_short(k)} does not change this rule; allowed: {list(RULE_OPTIONS)}")
        vals[k] = by_name[k].check(_NAME, v)
    return (vals["set_order"] == "natural", bool(vals["cloud_in_sets"]))


def _mask(cards, what, max_cards=37):
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ParseError(f"six_tigers: {what} must be a list of card strings, got {_short(cards)}")
    if len(cards) > max_cards:
        raise ParseError(f"six_tigers: {what} holds at most {max_cards} cards, got {len(cards)}")
    return cards_to_mask(list(cards))


def _check_state(state, what):
    if not isinstance(state, State) or state.spec.name != _NAME:
        raise ConfigError(f"six_tigers: {what} needs a six_tigers State, got {_short(state)}")


def _check_game(game, what):
    spec = getattr(game, "spec", None)
    if not isinstance(spec, GameSpec) or spec.name != _NAME:
        raise ConfigError(f"six_tigers: {what} needs a six_tigers game (cardsim.make('six_tigers', ...)), "
                          f"got {_short(game)}")


def _why_not(cards) -> str:
    ids = sorted(parse_card(c) for c in cards)
    if len(ids) == 2:
        return "two cards are no pattern (runs and sets need at least 3)"
    nums = {36 if i == 36 else i % 9 for i in ids}
    if 36 in ids:
        return "CLOUD is used only as a single (and in Five Tigers)"
    if len({i // 9 for i in ids}) == 1:
        return "cards of one suit form a run only with consecutive numbers"
    if len(nums) == 1:
        return "a set has 3 or 4 cards"
    return "the cards share neither a suit (run) nor a number (set)"


def pattern(cards: list[str]) -> str:
    """"single", "run" or "set" (§2.2-§2.4, X3: CLOUD never in a run or set); otherwise
    ParseError (a ValueError) saying why the cards are no legal pattern."""
    m = _mask(cards, "a play")
    if m == 0:
        raise ParseError("six_tigers: an empty play is no pattern")
    kind = _r.oracle_pattern(m)[0]
    if kind == 0:
        raise ParseError(f"six_tigers: {_short(mask_to_cards(m), 200)} is no legal pattern: {_why_not(cards)}")
    return ("", "single", "run", "set")[kind]


def trick_winner(plays: list[list[str]], **options) -> int:
    """Index of the winning play of a trick (§5.1, §5.3): plays[0] is the lead (a legal
    pattern), every play has as many cards; a play that does not beat the current high is a
    discard. Options: set_order, cloud_in_sets."""
    rules = _rules_config(options)
    if isinstance(plays, (str, bytes)) or not isinstance(plays, (list, tuple)) or not 1 <= len(plays) <= 4:
        raise ParseError(f"six_tigers: plays must be a list of 1 to 4 plays (lists of cards), got {_short(plays)}")
    masks = [_mask(p, f"play {i}", 12) for i, p in enumerate(plays)]
    k = len(plays[0])
    if any(len(p) != k for p in plays):
        raise ParseError(f"six_tigers: every play of a trick has as many cards as the lead ({k})")
    allm = 0
    for m in masks:
        if allm & m:
            raise ParseError("six_tigers: a card appears in two plays")
        allm |= m
    if k == 0 or _r.oracle_pattern(masks[0], *rules)[0] == 0:
        raise ParseError(f"six_tigers: the lead {mask_to_cards(masks[0])} is no legal pattern")
    return _r.oracle_trick_winner(masks, *rules)


def _sorted_plays(masks):
    order = {c: i for i, c in enumerate(_n.DISPLAY_ORDER)}
    out = [mask_to_cards(m) for m in masks]
    return sorted(out, key=lambda p: (len(p), [order[parse_card(c)] for c in p]))


def legal_leads(hand: list[str], played: list[str], special: bool = False, **options) -> list[list[str]]:
    """Every legal lead (§5.1-§5.2) of `hand`, given the cards already played (which decide the
    old cards, §2.5); special = the special player's privilege. Options: set_order,
    cloud_in_sets. Plays are listed by size, cards in display order. A hand holds at most 12
    cards (the deal); more raise ParseError."""
    rules = _rules_config(options)
    h = _mask(hand, "a hand", 12)
    pm = _mask(played, "played")
    if h & pm:
        raise ParseError("six_tigers: a card cannot be both in the hand and played")
    if not isinstance(special, bool):
        raise ConfigError(f"six_tigers: special must be True or False, got {_short(special)}")
    return _sorted_plays(_r.oracle_leads(h, pm, special, *rules))


def old_cards(played: list[str]) -> list[str]:
    """The old cards (§2.5) once `played` have been played: SHI1, XIAN1, CLOUD while unplayed
    and the highest unplayed card of each suit."""
    return mask_to_cards(_r.oracle_old_mask(_mask(played, "played")))


def play_actions(state, cards: list[str], face_down: bool = False) -> list[int]:
    """The action sequence that makes this whole play for the seat to act (cards added in
    ascending identity order, then COMMIT when a lead does not commit itself). Raises
    IllegalActionError if the play is not legal now; the state is unchanged."""
    _check_state(state, "play_actions")
    if not isinstance(face_down, bool):
        raise ConfigError(f"six_tigers: face_down must be True or False, got {_short(face_down)}")
    m = _mask(cards, "a play", 12)
    ids = [c for c in range(37) if (m >> c) & 1]
    if not ids:
        raise IllegalActionError("six_tigers: a play has at least one card")
    base = _n.A_DISCARD if face_down else 0
    acts = [base + c for c in ids]
    probe = state.clone()
    seat = probe.current_player
    for a in acts:
        if not probe.is_legal(a):
            raise IllegalActionError(f"six_tigers: {mask_to_cards(m)} is not a legal "
                                     f"{'discard' if face_down else 'play'} for seat {seat} now")
        probe.apply(a)
    if probe.spec.view(probe)["staged"]:
        if not probe.is_legal(_n.A_COMMIT):
            raise IllegalActionError(f"six_tigers: {mask_to_cards(m)} is not a whole legal play")
        acts.append(_n.A_COMMIT)
    return acts


def play(state, cards: list[str], face_down: bool = False):
    """Apply a whole play (see play_actions) and return the state."""
    for a in play_actions(state, cards, face_down):
        state.apply(a)
    return state


def scenario(game, hands, dealer=0, declarer=None, played=None, tricks=None, leader=None):
    """A round of `game` with these hands (card strings per seat; with 4 players the dreamer,
    seat opposite the dealer, holds 1 card and the active players equally many, 1..12).
    `played[q]`: cards seat q already played face up (public, in no particular trick); every
    one of the 37 cards must be in a hand or played (3 players: one card may be left over, it
    goes aside). `tricks[q]`: tricks already credited. With declarer=None the state is in
    DECLARE (the dealer first); with a seat (or -1: everybody passed) the declaration is over:
    §4.1 rotation, the special player, Five Tigers, then the claim window and the lead of
    `leader` (default the dealer). Not replayable. Raises ConfigError / ParseError before
    building.

    Positions no real deal reaches are refused where they could break the round (X18): before
    the declaration (declarer=None) nothing has been played, so `played`, `tricks` and `leader`
    must be absent (the hands are then the whole deal, 12 cards each); the dreamer has no
    tricks; with n cards in each active hand every active player has played 12 - n cards, and a
    trick credits as many tricks as cards each player played, so the active players' tricks sum
    to at most 12 - n (a count, tricks + old cards held, then never exceeds 12, the top of the
    point table); a leader needs a declarer."""
    _check_game(game, "scenario")
    N = game.num_players
    d = check_int(dealer, "six_tigers: dealer", 0, N - 1, ConfigError)
    masks, allm = disjoint_hands(_NAME, hands, N, cards_to_mask)
    dreamer = (d + 2) % N if N == 4 else -1
    sizes = {len(hands[q]) for q in range(N) if q != dreamer}
    if len(sizes) != 1 or not 1 <= sizes.pop() <= 12:
        raise ConfigError("six_tigers: the active players hold equally many cards, 1 to 12")
    if dreamer >= 0 and len(hands[dreamer]) != 1:
        raise ConfigError(f"six_tigers: the dreamer (seat {dreamer}, opposite the dealer) holds exactly 1 card")
    pl = [0] * 4
    if played is not None:
        pl, allm = disjoint_hands(_NAME, played, N, cards_to_mask, what="played list", taken=allm)
        if dreamer >= 0 and pl[dreamer]:
            raise ConfigError("six_tigers: the dreamer never plays")
        pl = pl + [0] * (4 - N)
    rest = _n.FULL & ~allm
    if bin(rest).count("1") > (1 if N == 3 else 0):
        raise ConfigError(f"six_tigers: every card must be held or played; missing {mask_to_cards(rest)}")
    n = len(hands[d])
    tr = [0] * 4
    if tricks is not None:
        if isinstance(tricks, (str, bytes)) or not isinstance(tricks, (list, tuple)) or len(tricks) != N:
            raise ConfigError(f"six_tigers: tricks must list {N} ints, got {_short(tricks)}")
        for q in range(N):
            tr[q] = check_int(tricks[q], f"six_tigers: tricks[{q}]", 0, 12 - n, ConfigError)
        if dreamer >= 0 and tr[dreamer]:
            raise ConfigError(f"six_tigers: the dreamer (seat {dreamer}) never plays, so has no tricks")
        if sum(tr) > 12 - n:
            raise ConfigError(f"six_tigers: with {n} cards in each active hand, each active player has played "
                              f"{12 - n} cards, so at most {12 - n} tricks were credited in all; got {tr[:N]}")
    if declarer is not None:
        declarer = check_int(declarer, "six_tigers: declarer", -1, N - 1, ConfigError)
        if declarer == dreamer and declarer >= 0:
            raise ConfigError("six_tigers: the dreamer takes no part in the declaration")
    if leader is not None:
        leader = check_int(leader, "six_tigers: leader", 0, N - 1, ConfigError)
        if leader == dreamer:
            raise ConfigError("six_tigers: the dreamer never leads")
    if declarer is None and (any(pl) or any(tr) or leader is not None):
        raise ConfigError("six_tigers: with declarer=None the round is before the declaration, where nothing "
                          "has been played: give no played cards, tricks or leader (or give a declarer)")
    if leader is not None and (declarer is None or declarer < 0):
        raise ConfigError("six_tigers: a leader needs a declarer (a seat who declared; -1 means everybody "
                          "passed and the round is redealt)")
    return game.spec._scenario_set(d, list(masks) + [0] * (4 - N), pl, tr, rest, declarer, leader)



_Spec = scenario_spec(_spec.SixTigersSpec, scenario)   # build() returns it: spec.scenario forwards to scenario()


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())


_CHARS = {"SHI": "拾", "GUAN": "貫", "SUO": "索", "XIAN": "綫"}


class Replay:
    """What the web replay (`cardsim replay six_tigers --html`, cardsim.replay.table_of) draws of
    a position: the cards in play (a face-down play as backs unless it is the viewer's), the aside
    card and the cards shown, the roles, and the tricks and points. Cards are drawn as long cards
    with their suit character and number (`glyph`). `viewer`: the seat the page is seen by."""

    @staticmethod
    def table(state, viewer=None) -> dict:
        v = state.spec.view(state)
        n = len(v["trick"])
        names = INFO.seat_names_for(n)
        groups = []
        for q in range(n):
            cards = v["trick"][q]
            if cards:
                down = v["trick_down"][q]
                groups.append({"seat": q, "cards": ["?"] * len(cards) if down and viewer not in (None, q) else cards,
                               "label": "face down" if down else ""})
        zones = [{"name": "trick", "trick": True, "groups": groups}]
        if v["shown"]:
            zones.append({"name": "shown", "groups": [{"cards": v["shown"]}]})
        if v["aside"]:
            zones.append({"name": "aside", "groups": [{"cards": v["aside"] if viewer is None else ["?"] * len(v["aside"])}]})
        facts = [("dealer", names[v["dealer"]])]
        if v["dreamer"] is not None:
            facts.append(("dreamer", names[v["dreamer"]]))
        if v["declarer"] is not None:
            facts.append(("declarer", names[v["declarer"]]))
        if v["winner"] is not None:
            facts.append(("round won by", names[v["winner"]]))
        scores = [{"label": "tricks", "cols": names, "values": list(v["tricks"])},
                  {"label": "round payments", "cols": names, "values": list(v["last"])},
                  {"label": "points", "cols": names, "values": list(v["score"])}]
        return {"zones": zones, "facts": facts, "scores": scores}

    @staticmethod
    def glyph(card: str) -> dict:
        """A Six Tigers card as a long card: its suit character, its number, its suit word."""
        if card == "CLOUD":
            return {"top": "雲", "mid": "☁", "small": "CLOUD", "color": "#c8102e"}
        suit, num = card[:-1], card[-1]
        return {"top": _CHARS.get(suit, suit[:1]), "mid": num, "small": suit,
                "color": "#c8102e" if suit in ("SHI", "XIAN") else "#111"}
