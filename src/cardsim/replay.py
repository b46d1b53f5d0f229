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
  `last_winner`) each trick is printed with its winner; where it reports a `floor`, captures are
  printed as the cards that left the floor.
"""
from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass, field

import numpy as np

from cardsim.game import make as _make_game
from cardsim.agents import kernel_args, parse_agent, resolve_agents as _resolve_specs
from cardsim.errors import CardsimError, ConfigError

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_CARD = re.compile(r"(?<![\w-])(10|[1-9JQKAT])([SHDC])(?![\w-])")
_SYMBOL_CARD = re.compile(r"(?<![\w-])(10|[1-9JQKAT])([♠♥♦♣])")


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

    def __init__(self, game_name: str, num_players: int, viewer: int | None = None, shown_sizes=None):
        self.game = game_name
        self.n = num_players
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
            self.lines.append("  " + _hand_line(state, p))
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
            self.lines.append(f"  seat {t.seat}: {text}")

    def step(self, before, action: int, after, phase: str | None = None) -> None:
        """Record one applied action; `phase` overrides the section it is shown under."""
        seat = before.current_player
        phase = phase or before.phase
        vb, va = _view(before), _view(after)
        tricks = vb is not None and "tricks_done" in vb
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
        if tricks and va["tricks_done"] != vb["tricks_done"]:
            self._flush_turn(after, tricks)
            # the last trick of a deal in a match: the view already shows the next deal
            self._flush_trick(None if new_deal and not after.is_terminal() else self._winner(va))
        if new_deal and (self.deals > 0 or not after.is_terminal()):
            self._flush_turn(after, tricks)
            self._flush_trick(None)
            self.deals += 1
            self.tricks_shown = 0
            score = "; ".join(f"{k.replace('_', ' ')}: {' '.join(f'{x:g}' for x in va[k])}" for k in ("score", "game_points", "total_points", "chips")
                              if va.get(k) is not None)
            self.lines.append(f"deal {self.deals} over" + (f"  ({score})" if score else ""))
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
        plays = ",  ".join(f"{seat}: {text}" for seat, text in self.trick)
        won = f"  -> seat {winner} wins" if winner is not None else ""
        self.lines.append(f"  trick {k}:  {plays}{won}")
        self.trick = []

    def pending(self, state) -> str:
        """The cards of the unfinished trick and turn so far, as the viewer sees them."""
        parts = [f"{seat}: {text}" for seat, text in self.trick]
        if self.turn is not None:
            parts.append(f"{self.turn.seat}: {self.turn.text(state, self.viewer)}")
        return ",  ".join(parts)

    def finish(self, state) -> None:
        v = _view(state)
        self._flush_turn(state, v is not None and "tricks_done" in v)
        self._flush_trick(None)


# view() keys that hold public facts only (face-up cards, trump, contract, scores), shown to a seat
_PUBLIC = ("floor", "up", "turnup", "high_card", "trump_card", "contract_card", "trump", "chosen", "trump_suit",
           "trump_rank", "contract", "declarer", "calls", "exposed", "tricks", "team_tricks", "score")


def public_facts(state) -> str:
    """The public facts of a position that its `view()` reports (face-up cards, trump, contract,
    tricks, score), as one line; '' for a game without a view."""
    v = _view(state) or {}
    parts = []
    for k in _PUBLIC:
        x = v.get(k)
        if x is None or x == [] or (isinstance(x, list) and all(not y for y in x)):
            continue
        if isinstance(x, list) and all(isinstance(y, tuple) for y in x):
            x = ", ".join(" ".join(str(z) for z in y if z is not None) for y in x)
        elif isinstance(x, list) and all(isinstance(y, list) for y in x):
            x = " | ".join(" ".join(map(str, y)) or "-" for y in x)
        elif isinstance(x, list):
            x = " ".join(map(str, x))
        parts.append(f"{k.replace('_', ' ')}: {x}")
    return "; ".join(parts)


def section_phases(state, actions) -> list[str]:
    """The phase each action is shown under. A phase a seat enters and leaves again within its
    own turn (Basra's choice of capture after playing a card) is a step of that turn, not a
    section: its actions are shown under the phase the turn began in."""
    s = state.clone()
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


def _hand_line(state, p):
    return f"  seat {p}: {' '.join(state.hand(p)) or '-'}"


def replay_lines(game, seed: int = 0, deal: int = 0, agents="greedy", seat: int | None = None,
                 symbols: bool = False) -> list[str]:
    """The text of a replay of deal `deal` of seed `seed`: header, hands, every turn (tricks with
    their winners, captures), returns. `game`: a name or a Game; `seat`: show only what that
    seat sees."""
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
    head = [f"{game.name}  seed {seed}  deal {deal}  agents {','.join(names)}"
            + (f"  (seen by seat {seat})" if seat is not None else ""),
            f"rules: docs/rules/{game.name}.md"]
    head.append("hands:" if seat is None else "your hand:")
    for p in range(n) if seat is None else [seat]:
        head.append(_hand_line(state, p))
    v = _view(state)
    if v is not None and v.get("floor"):
        head.append("  floor: " + " ".join(v["floor"]))
    nar = Narrator(game.name, n, seat, [len(state.hand(p)) for p in range(n)])
    sections = section_phases(state, actions)
    for a, ph in zip(actions, sections):
        before = state.clone()
        state.apply(int(a))
        nar.step(before, a, state, ph)
    nar.finish(state)
    tail = ["result:"]
    if seat is None:
        tail += ["  " + x for x in str(state).splitlines() if not re.search(r":\s*$", x)]
    else:
        v = _view(state) or {}
        for k in ("tricks", "team_tricks", "captured", "deal_points", "score", "game_points", "chips"):
            if v.get(k) is not None:
                tail.append(f"  {k.replace('_', ' ')}: {v[k]}")
    r = state.returns()
    tail.append("  returns: " + "  ".join(f"seat {p}: {float(x) + 0.0:g}" for p, x in enumerate(r)))
    lines = head + nar.lines + tail
    return [with_symbols(x) if symbols else x for x in lines]


def to_html(lines: list[str], title: str) -> str:
    """A standalone HTML page of replay lines, hearts and diamonds in red."""
    body = html.escape("\n".join(lines))
    body = re.sub(r"(\S*[♥♦])", r'<span class="red">\1</span>', body)
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title>"
            "<style>body{font-family:system-ui,sans-serif;margin:2em}"
            "pre{font-size:15px;line-height:1.45}.red{color:#c00}</style></head>"
            f"<body><h1>{html.escape(title)}</h1><pre>{body}</pre></body></html>\n")
