"""Follow a seeded deal move by move, as a person at the table would (`cardsim replay`).

Written over the public State API only (`hand`, `action_to_string`, `phase`, `current_player`,
`observation`, `returns`, `str(state)`) plus the game's `view()` where it exists, so it works for
every registered game, including games added later:

- the actions are exactly those the batch kernel plays in deal (seed, deal) with the given agents
  (`kernel_actions`), so a replay shows the same deal as the corresponding row of `simulate`;
- consecutive actions of one seat form one turn (a factored multi-card play is shown as one line);
- with `seat=P` only what P sees is shown: P's hand, and another seat's action only when P's
  observation tells it apart from that seat's other legal choices (a discard to the kitty or a
  card given face down stays hidden) — judged by `observation(P)`, which by contract encodes
  every public fact and nothing hidden;
- where the game's `view()` reports tricks (`tricks_done`, `leader`, `trick_winners`,
  `last_winner`, or per-seat `tricks` counts) each trick is printed with its winner; where it
  reports a `floor`, captures are printed as the cards that left the floor;
- seats are named as the game's rules page names them (`GameInfo.seat_names`: N E S W in Joffre
  Whist, "seat 0", "seat 1", ... elsewhere), and the result is the table of scores the game's
  replay face gives (`table_of`: `cardsim.games.<game>.Replay.table`), then the returns.

`replay_data` is the same deal as JSON-ready data, one snapshot of the table per turn (hands,
zones in play, public facts, scores), which `cardsim.replay_html` draws as a web page.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

import numpy as np

from cardsim.game import make as _make_game
from cardsim.agents import kernel_args, parse_agent, resolve_agents as _resolve_specs
from cardsim.errors import CardsimError, ConfigError, short

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"(?<![\w-])(10|[1-9JQKAT])([SHDC])(?![\w-])")
_SYMBOL_CARD = re.compile(r"(?<![\w-])(10|[1-9JQKAT])([♠♥♦♣])")


def _state(state, what="state"):
    """`state` checked to be a cardsim State (ConfigError otherwise)."""
    from cardsim.core._engine import State

    if not isinstance(state, State):
        raise ConfigError(f"{what} must be a cardsim State (game.new_state(...)), got {short(state)}")
    return state


def _actions(actions):
    """A list of action ids checked to be ints (ConfigError otherwise)."""
    if isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__"):
        raise ConfigError(f"actions must be a list of action ids, got {short(actions)}")
    out = list(actions)
    if len(out) > 1_000_000 or not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in out):
        raise ConfigError(f"actions must be a list of action ids (ints), got {short(out)}")
    return [int(a) for a in out]


def _viewer(state, viewer):
    n = state.spec.num_players
    if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, (int, np.integer))
                               or not 0 <= viewer < n):
        raise ConfigError(f"{state.spec.name}: a viewer is None or a seat 0..{n - 1}, got {short(viewer)}")
    return None if viewer is None else int(viewer)


def symbols_supported(stream=None) -> bool:
    """True when `stream` (default stdout) can print the suit symbols ♠♥♦♣."""
    enc = getattr(stream or sys.stdout, "encoding", None) or ""
    try:
        "♠♥♦♣".encode(enc)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def with_symbols(text: str) -> str:
    """Card strings in `text` written with suit symbols: 'AS 10H' -> 'A♠ 10♥' (other words unchanged)."""
    return _CARD.sub(lambda m: m.group(1) + SYMBOLS[m.group(2)], text)


def from_symbols(text: str) -> str:
    """The inverse of with_symbols for typed input: 'A♠ 10♥' -> 'AS 10H'."""
    back = {v: k for k, v in SYMBOLS.items()}
    return _SYMBOL_CARD.sub(lambda m: m.group(1) + back[m.group(2)], text)


def resolve_agents(game, agents) -> list[str]:
    """Agent specs (a comma-separated string or a list; grammar in cardsim.agents) -> one spec
    text per seat; a single spec is used for every seat. Unknown names or parameters raise
    ConfigError naming them."""
    return [a.text for a in _resolve_specs(game.num_players, agents, game.name)]


def _view(state):
    v = getattr(state.spec, "view", None)
    return v(state) if v is not None else None


def turn_visibility(start, actions, end, viewer: int | None) -> list[bool]:
    """For each action of one seat's turn (applied from state `start`, reaching `end`): can seat
    `viewer` tell which action it was, once the turn is over? True for the viewer's own turn and
    when no viewer is given. Otherwise an action is hidden iff some other legal action at its
    point, followed by the rest of the turn, leaves the viewer with the same observation (a
    kitty discard stays hidden; the first card of a factored multi-card play is revealed when
    the play is complete). `observation` encodes every public fact and nothing hidden, so this
    needs no knowledge of the game."""
    start, end, actions = _state(start, "start"), _state(end, "end"), _actions(actions)
    viewer = _viewer(start, viewer)
    if viewer is None or start.current_player == viewer:
        return [True] * len(actions)
    target = end.observation(viewer)
    out = []
    s = start.clone()
    for i, a in enumerate(actions):
        hidden = False
        for b in s.legal_actions():
            if int(b) == int(a):
                continue
            alt = s.clone().apply(int(b))
            try:
                for c in actions[i + 1:]:
                    alt.apply(int(c))
            except CardsimError:
                continue
            if np.array_equal(alt.observation(viewer), target):
                hidden = True
                break
        out.append(not hidden)
        s.apply(int(a))
    return out


@dataclass
class Turn:
    """Consecutive actions of one seat (one whole turn), from state `start`."""
    seat: int
    phase: str
    start: object
    actions: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)

    def text(self, end, viewer: int | None) -> str:
        vis = turn_visibility(self.start, self.actions, end, viewer)
        s = self.start.clone()
        words = []
        for a, v in zip(self.actions, vis):
            if v:
                words.append(s.action_to_string(int(a)))
            s.apply(int(a))
        hidden = vis.count(False)
        shown = " ".join(words + self.notes)
        if hidden:
            shown = (shown + " " if shown else "") + ("(a hidden action)" if hidden == 1 else f"({hidden} hidden actions)")
        if self.captured:
            shown += " -> captures " + " ".join(self.captured)
        return shown


def _multiset_minus(a, b):
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


class Narrator:
    """Turns a sequence of applied actions into lines a person can follow. Feed it with
    `step(state_before, action, state_after)`, then `finish(state)`; `lines` holds the text so
    far, `pending(state)` the unfinished trick or turn."""

    def __init__(self, game_name: str, num_players: int, viewer: int | None = None, shown_sizes=None,
                 names=None):
        self.game = game_name
        self.n = num_players
        self.names = tuple(names) if names is not None else seat_names(game_name, num_players)
        self.viewer = viewer
        self.lines: list[str] = []
        self.turn: Turn | None = None
        self.trick: list[tuple[int, str]] = []
        self.phase = None
        self.sizes = shown_sizes
        self.facts = None
        self.deals = 0
        self.tricks_shown = 0

    def _show_hands(self, state, label):
        self.lines.append(label if self.viewer is None else label.replace("hands", "your hand"))
        for p in range(self.n) if self.viewer is None else [self.viewer]:
            self.lines.append("  " + _hand_line(state, p, self.names))
        self.sizes = [len(state.hand(p)) for p in range(self.n)]

    def _flush_turn(self, end, tricks: bool):
        t = self.turn
        self.turn = None
        if t is None:
            return
        text = t.text(end, self.viewer)
        if tricks and t.phase == "play":
            self.trick.append((t.seat, text))
        else:
            self.lines.append(f"  {self.names[t.seat]}: {text}")

    def step(self, before, action: int, after, phase: str | None = None) -> None:
        """Record one applied action; `phase` overrides the section it is shown under."""
        seat = before.current_player
        phase = phase or before.phase
        vb, va = _view(before), _view(after)
        tricks = _tricks_done(vb) is not None
        if phase != self.phase:
            self._flush_turn(before, tricks)
            self._flush_trick(None)
            sizes = [len(before.hand(p)) for p in range(self.n)]
            if self.phase is not None and self.sizes is not None and any(a > b for a, b in zip(sizes, self.sizes)):
                self._show_hands(before, "  hands now:")
            self.lines.append(f"{phase}:")
            self.phase = phase
            facts = public_facts(before)
            if facts and facts != self.facts:
                self.lines.append(f"  ({facts})")
                self.facts = facts
        if self.turn is not None and self.turn.seat != seat:
            self._flush_turn(before, tricks)
        if self.turn is None:
            self.turn = Turn(seat, phase, before.clone())
        self.turn.actions.append(int(action))
        if vb is not None and isinstance(vb.get("floor"), list) and va is not None:
            self.turn.captured += _multiset_minus(vb["floor"], va["floor"])
        if va is not None and "basras" in va and va["basras"] != vb["basras"]:
            self.turn.notes.append("(basra)")
        new_deal = vb is not None and any(k in vb and vb[k] != va.get(k) for k in ("deal_no", "deals"))
        if tricks and _tricks_done(va) != _tricks_done(vb):
            self._flush_turn(after, tricks)
            # the last trick of a deal in a match: the view already shows the next deal
            self._flush_trick(None if new_deal and not after.is_terminal() else _trick_winner(vb, va))
        if new_deal and (self.deals > 0 or not after.is_terminal()):
            self._flush_turn(after, tricks)
            self._flush_trick(None)
            self.deals += 1
            self.tricks_shown = 0
            score = "; ".join(f"{k.replace('_', ' ')}: {' '.join(f'{x:g}' for x in va[k])}" for k in ("score", "game_points", "total_points", "chips")
                              if va.get(k) is not None)
            self.lines.append(f"match deal {self.deals} over" + (f"  ({score})" if score else ""))
        grown = sum(len(after.hand(p)) for p in range(self.n)) - sum(len(before.hand(p)) for p in range(self.n))
        if grown >= self.n:                                # a round of cards dealt at once
            self._flush_turn(after, tricks)
            self._show_hands(after, "  dealt, hands now:")
        if new_deal and not after.is_terminal() and after.phase == self.phase:
            facts = public_facts(after)                   # the next deal's face-up cards, trump ...
            if facts and facts != self.facts:
                self.lines.append(f"  ({facts})")
                self.facts = facts

    @staticmethod
    def _winner(v):
        if v.get("trick_winners"):
            return v["trick_winners"][-1]
        if v.get("last_winner") is not None:
            return v["last_winner"]
        return v.get("leader")

    def _flush_trick(self, winner):
        if not self.trick:
            return
        self.tricks_shown += 1
        k = self.tricks_shown
        plays = ",  ".join(f"{self.names[seat]}: {text}" for seat, text in self.trick)
        won = f"  -> {self.names[winner]} wins" if winner is not None else ""
        self.lines.append(f"  trick {k}:  {plays}{won}")
        self.trick = []

    def pending(self, state) -> str:
        """The cards of the unfinished trick and turn so far, as the viewer sees them."""
        parts = [f"{self.names[seat]}: {text}" for seat, text in self.trick]
        if self.turn is not None:
            parts.append(f"{self.names[self.turn.seat]}: {self.turn.text(state, self.viewer)}")
        return ",  ".join(parts)

    def finish(self, state) -> None:
        self._flush_turn(state, _tricks_done(_view(state)) is not None)
        self._flush_trick(None)


# view() keys that hold public facts only (face-up cards, trump, contract, scores), shown to a seat
_PUBLIC = ("floor", "up", "turnup", "high_card", "trump_card", "contract_card", "trump", "chosen", "trump_suit",
           "trump_rank", "contract", "declarer", "calls", "exposed", "tricks", "team_tricks", "score")


_SEAT_KEYS = ("declarer",)               # view keys whose value is a seat number


def public_facts(state) -> str:
    """The public facts of a position that its `view()` reports (face-up cards, trump, contract,
    tricks, score), as one line, seats by their names (GameInfo.seat_names) and per-seat or
    per-side lists labelled with them; '' for a game without a view."""
    from cardsim.game import game_info

    v = _view(_state(state)) or {}
    n = state.spec.num_players
    info = game_info(state.spec.name)
    names = info.seat_names_for(n)
    parts = []
    for k in _PUBLIC:
        x = v.get(k)
        if x is None or x == [] or (isinstance(x, list) and all(not y for y in x)):
            continue
        if k in _SEAT_KEYS and isinstance(x, int) and 0 <= x < n:
            x = names[x]
        elif isinstance(x, list) and all(isinstance(y, tuple) for y in x):      # Zhao Pengyou's calls
            x = ", ".join(f"{y[0]} #{y[1]}" + (f" -> {names[y[2]]}" if len(y) > 2 and y[2] is not None else "")
                          if len(y) == 3 else " ".join(str(z) for z in y if z is not None) for y in x)
        elif isinstance(x, list) and all(isinstance(y, list) for y in x):
            x = " | ".join(" ".join(map(str, y)) or "-" for y in x)
        elif isinstance(x, list) and all(isinstance(y, (int, float)) and not isinstance(y, bool) for y in x) \
                and 1 < len(x) <= n and n % len(x) == 0:
            cols = names if len(x) == n else info.side_names(n, len(x))
            x = ", ".join(f"{c} {y:g}" for c, y in zip(cols, x))
        elif isinstance(x, list):
            x = " ".join(map(str, x))
        parts.append(f"{k.replace('_', ' ')}: {x}")
    return "; ".join(parts)


def section_phases(state, actions) -> list[str]:
    """The phase each action is shown under. A phase a seat enters and leaves again within its
    own turn (Basra's choice of capture after playing a card) is a step of that turn, not a
    section: its actions are shown under the phase the turn began in."""
    s = _state(state).clone()
    actions = _actions(actions)
    seats, phases = [], []
    for a in actions:
        seats.append(s.current_player)
        phases.append(s.phase)
        s.apply(int(a))
    out = list(phases)
    i, n = 1, len(actions)
    while i < n:
        if phases[i] != phases[i - 1] and seats[i] == seats[i - 1]:
            j = i
            while j < n and seats[j] == seats[i] and phases[j] == phases[i]:
                j += 1
            back = j == n and s.is_terminal() or (j < n and seats[j] == seats[i] and phases[j] == phases[i - 1])
            back = back or (j < n and seats[j] != seats[i] and phases[j] == phases[i - 1])
            if back:
                for k in range(i, j):
                    out[k] = out[i - 1]
            i = j
        else:
            i += 1
    return out


def _hand_line(state, p, names):
    return f"  {names[p]}: {' '.join(state.hand(p)) or '-'}"


def seat_names(game_name: str, players: int) -> tuple[str, ...]:
    """The seat names of a game as its rules page writes them (GameInfo.seat_names): N E S W in
    Joffre Whist, "seat 0", "seat 1", ... where the rules page numbers the seats."""
    from cardsim.game import game_info

    return game_info(game_name).seat_names_for(players)


def replay_hook(game_name: str):
    """The game's replay face: the `Replay` class of its face module (`cardsim.games.<game>`), with
    `table(state, viewer)` -> {"zones", "facts", "scores"} and optionally `glyph(card)`; None for a
    game that declares none (the replay then shows hands and returns only)."""
    from cardsim.game import game_module

    return getattr(game_module(game_name), "Replay", None)


def table_of(state, viewer: int | None = None) -> dict:
    """What the game's replay face shows of `state` (public facts only when `viewer` is a seat):
    {"zones": [{"name", "groups": [{"seat", "label", "cards"}], "trick"}], "facts": [[label, text]],
    "scores": [{"label", "cols", "values"}]}, checked to have that shape."""
    hook = replay_hook(_state(state).spec.name)
    out = hook.table(state, _viewer(state, viewer)) if hook is not None else {}
    if not isinstance(out, dict):
        raise CardsimError(f"{state.spec.name}: Replay.table must return a dict, got {type(out).__name__}")
    zones = [dict(z) for z in out.get("zones", ())]
    for z in zones:
        z["groups"] = [dict(g) for g in z.get("groups", ())]
        for g in z["groups"]:
            g["cards"] = [str(c) for c in g.get("cards", ())]
            g.setdefault("seat", None)
            g.setdefault("label", "")
        z.setdefault("trick", False)
    facts = [[str(a), str(b)] for a, b in out.get("facts", ())]
    scores = []
    for s in out.get("scores", ()):
        cols, vals = [str(c) for c in s["cols"]], [_num(x) for x in s["values"]]
        if len(cols) != len(vals):
            raise CardsimError(f"{state.spec.name}: score {s['label']!r} has {len(cols)} columns, {len(vals)} values")
        scores.append({"label": str(s["label"]), "cols": cols, "values": vals})
    return {"zones": zones, "facts": facts, "scores": scores}


def _num(x):
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) + 0.0
    return str(x)


def _fmt(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def score_lines(table: dict) -> list[str]:
    """The scores of a table as text lines: '  tricks: N 3, E 5, S 2, W 3'."""
    if not isinstance(table, dict) or not isinstance(table.get("scores"), list):
        raise ConfigError(f"expected a table of cardsim.replay.table_of(state), got {short(table)}")
    return [f"  {s['label']}: " + ", ".join(f"{c} {_fmt(v)}" for c, v in zip(s["cols"], s["values"]))
            for s in table["scores"]]


def _kernel_deal(game, seed, deal, agents, seat):
    from cardsim.core._engine import kernel_actions

    if isinstance(game, str):
        game = _make_game(game)
    names = resolve_agents(game, agents)
    n = game.num_players
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ConfigError(f"{game.name}: seat must be 0..{n - 1}, got {str(seat)[:40]}")
    state = game.new_state(seed=seed, deal=deal)
    codes, search = kernel_args([parse_agent(a) for a in names])
    actions = kernel_actions(game.spec, seed, deal, codes, search=search)
    return game, names, state, [int(a) for a in actions]


def _match(game) -> bool:
    return game.options.get("scope") == "match"


def replay_lines(game, seed: int = 0, deal: int = 0, agents="greedy", seat: int | None = None,
                 symbols: bool = False) -> list[str]:
    """The text of a replay of deal `deal` of seed `seed`: header, hands, every turn (tricks with
    their winners, captures), the scores and returns. `game`: a name or a Game; `seat`: show only
    what that seat sees. Seats are named as the game's rules page names them (GameInfo.seat_names)."""
    game, names, state, actions = _kernel_deal(game, seed, deal, agents, seat)
    n = game.num_players
    seats = seat_names(game.name, n)
    head = [f"{game.name}  seed {seed}  deal {deal}" + (" (a whole match)" if _match(game) else "")
            + f"  agents {','.join(names)}" + (f"  (seen by {seats[seat]})" if seat is not None else ""),
            f"seats: {', '.join(seats)}   rules: cardsim rules {game.name}"]
    head.append("hands:" if seat is None else "your hand:")
    for p in range(n) if seat is None else [seat]:
        head.append(_hand_line(state, p, seats))
    v = _view(state)
    if v is not None and v.get("floor"):
        head.append("  floor: " + " ".join(v["floor"]))
    nar = Narrator(game.name, n, seat, [len(state.hand(p)) for p in range(n)], names=seats)
    sections = section_phases(state, actions)
    for a, ph in zip(actions, sections):
        before = state.clone()
        state.apply(int(a))
        nar.step(before, a, state, ph)
    nar.finish(state)
    tail = ["result:"] + score_lines(table_of(state, seat))
    r = state.returns()
    tail.append("  returns: " + "  ".join(f"{seats[p]}: {float(x) + 0.0:g}" for p, x in enumerate(r)))
    lines = head + nar.lines + tail
    return [with_symbols(x) if symbols else x for x in lines]


# ---------------------------------------------------------------------------------------------
# the replay as data: one snapshot of the table per turn (cardsim.replay_html draws it)

_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_JOKERS = {"BJ": "big", "SJ": "small", "JK": "joker"}     # cardsim.cards.JOKERS
_FRENCH = re.compile(r"^(10|[2-9JQKAT1])([SHDC])(\*?)$")


def french_glyph(card: str) -> dict:
    """How a card string of a French-suited pack is drawn: {"rank", "suit"} ('10H' -> 10 of hearts;
    'T' is written 10), a joker {"joker": "big"|"small"}, or {"text"} for anything else."""
    if not isinstance(card, str):
        raise ConfigError(f"a card is a string such as 'AS' or '10H', got {short(card)}")
    m = _FRENCH.match(card)
    if m:
        r = m.group(1)
        return {"rank": "10" if r == "T" else r, "suit": m.group(2)}
    if card in _JOKERS:
        return {"joker": _JOKERS[card]}
    return {"text": card}


def _hand_diff(before: list[str], after: list[str]) -> list[str]:
    return _multiset_minus(before, after)


def _tricks_done(v):
    """Tricks completed so far, from a view: its `tricks_done`, else the sum of per-seat trick counts
    (`tricks`, Tien Gow); None for a game without tricks."""
    if v is None:
        return None
    if "tricks_done" in v:
        return v["tricks_done"]
    t = v.get("tricks")
    if isinstance(t, list) and t and all(isinstance(x, int) for x in t):
        return sum(t)
    return None


def _trick_winner(vb, va):
    """The seat that won the trick just completed (vb: the view before, va: after)."""
    if "tricks_done" in va:
        return Narrator._winner(va)
    won = [p for p, (a, b) in enumerate(zip(vb["tricks"], va["tricks"])) if b > a]
    return won[0] if len(won) == 1 else None


def _turns(state, actions):
    """Consecutive actions of one seat within one section, a turn ending early where a trick or
    a deal of a match is completed (as the text replay's lines do)."""
    sections = section_phases(state, actions)
    s = state.clone()
    out, cur = [], None
    for a, ph in zip(actions, sections):
        seat = s.current_player
        if cur is None or cur[0] != seat or cur[1] != ph:
            cur = (seat, ph, [])
            out.append(cur)
        vb = _view(s)
        s.apply(int(a))
        cur[2].append(a)
        va = _view(s)
        if vb is not None and va is not None and (_tricks_done(vb) != _tricks_done(va) or any(
                k in vb and vb[k] != va.get(k) for k in ("deal_no", "deals"))):
            cur = None
    return out


def replay_data(game, seed: int = 0, deal: int = 0, agents="greedy", seat: int | None = None) -> dict:
    """The replay of deal `deal` of seed `seed` as JSON-ready data, one snapshot per turn:

    {"game", "title", "seed", "deal", "agents", "viewer", "seats": [names], "rules": command,
     "piece": "card" or "tile", "glyphs": {card: how to draw it}, "steps": [{"label", "actor", "said", "phase", "to_act",
     "hands", "zones", "facts", "scores"}], "result": {"returns", "outcome"}}

    `hands[p]` is the list of seat p's cards, or {"hidden": k} (k cards) when `seat` is given and p
    is another seat; `zones`, `facts` and `scores` come from the game's replay face
    (`cardsim.games.<game>.Replay.table`, see `table_of`); a completed trick stays on the table in
    the step that completes it, with its winner. The actions are the batch kernel's (as in
    `replay_lines`), so the last step's scores and returns are those of `simulate`'s row. `said` is
    what the acting seat did in the step's turn, as the viewer may see it (a call such as PASS
    changes no card: the page shows it at the seat)."""
    from cardsim.game import game_info

    game, names, state, actions = _kernel_deal(game, seed, deal, agents, seat)
    n = game.num_players
    seats = seat_names(game.name, n)
    hook = replay_hook(game.name)
    glyph = getattr(hook, "glyph", None) or french_glyph
    seen: dict[str, dict] = {}

    def cards_of(cs):
        for c in cs:
            if c != "?" and c not in seen:
                seen[c] = glyph(c)
        return list(cs)

    def snapshot(st, label, actor, table=None, said=""):
        tab = table if table is not None else table_of(st, seat)
        for z in tab["zones"]:
            for g in z["groups"]:
                cards_of(g["cards"])
        hands = []
        for p in range(n):
            h = list(st.hand(p))
            hands.append(cards_of(h) if seat is None or p == seat else {"hidden": len(h)})
        term = st.is_terminal()
        return {"label": label, "actor": actor, "phase": st.phase, "to_act": None if term else int(st.current_player),
                "hands": hands, "zones": tab["zones"], "facts": tab["facts"], "scores": tab["scores"], "said": said}

    what = "match" if _match(game) else "deal"
    steps = [snapshot(state, f"the {what} begins: {seats[state.current_player]} to act", None)]
    deals_done = 0
    for p, ph, acts in _turns(state, actions):
        start = state.clone()
        vb = _view(state)
        for a in acts:
            state.apply(int(a))
        va = _view(state)
        turn = Turn(p, ph, start, list(acts))
        if vb is not None and isinstance(vb.get("floor"), list) and va is not None:
            turn.captured = _multiset_minus(vb["floor"], va["floor"])
        if va is not None and "basras" in va and va["basras"] != vb["basras"]:
            turn.notes.append("(basra)")
        text = turn.text(state, seat)
        label = f"{seats[p]}: {text}" if text else f"{seats[p]}"
        table = None
        if vb is not None and _tricks_done(vb) is not None and _tricks_done(va) != _tricks_done(vb):
            # the trick is complete: the table shows it (the start of the turn plus what left the
            # seat's hand) with its winner, before the cards are gathered
            w = _trick_winner(vb, va)
            table = table_of(start, seat)
            left = _hand_diff(list(start.hand(p)), list(state.hand(p)))
            hidden = seat is not None and p != seat and not all(turn_visibility(start, acts, state, seat))
            for z in table["zones"]:
                if z["trick"]:
                    mine = [g for g in z["groups"] if g["seat"] == p]
                    g = mine[0] if mine else {"seat": p, "label": "", "cards": []}
                    if not mine:
                        z["groups"].append(g)
                    g["cards"] = g["cards"] + (["?"] * len(left) if hidden else left)
                    if w is not None:
                        z["won_by"] = int(w)
            later = table_of(state, seat)
            table["scores"] = later["scores"]
            if w is not None:
                label += f"  \u2192 {seats[w]} wins the trick"
        if va is not None and vb is not None and any(k in vb and vb[k] != va.get(k) for k in ("deal_no", "deals")) \
                and (deals_done > 0 or not state.is_terminal()):
            deals_done += 1
            label += f"  \u2192 match deal {deals_done} over"
        steps.append(snapshot(state, label, p, table, text))
    r = [float(x) + 0.0 for x in state.returns()]
    final = table_of(state, seat)
    steps.append(snapshot(state, f"the {what} is over", None, final))
    info = game_info(game.name)
    return {
        "game": game.name, "title": info.title, "seed": int(seed), "deal": int(deal), "agents": names,
        "viewer": seat, "seats": list(seats), "rules": f"cardsim rules {game.name}",
        "unit": info.unit_for(game.options), "scope": what, "piece": getattr(hook, "piece", "card"),
        "glyphs": seen, "steps": steps,
        "result": {"returns": r, "outcome": _outcome(r, seats)},
    }


def _outcome(r, seats) -> str:
    hi = max(r)
    if min(r) == hi:
        return "a draw: every seat has the same result"
    best = [seats[p] for p, x in enumerate(r) if x == hi]
    return ("winner: " if len(best) == 1 else "winners: ") + ", ".join(best)


from cardsim._api import guard_public as _guard_public  # noqa: E402

_guard_public(globals())
