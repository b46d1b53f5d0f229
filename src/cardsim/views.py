"""HTML views for notebooks, one per object, each the object's own `_repr_html_`:
`state_html(state)` (State), `summary_html(summary)` (Summary), `result_html(result)` (SimResult),
`sweep_html(sweep)` (SweepResult), `compare_html(comparison)` (compare()'s Comparison).

`state_html(state)` shows the position — every seat's hand,
the cards in play and the scores — as a small self-contained table (no scripts, no external CSS).

Generic over the public State API (`hand`, `phase`, `current_player`, `returns`, `str(state)`) and
the game's `view()` where it exists: the cards on the table are the view's `trick` (by seat),
`floor` or `building` entries; the scores its `score` / `game_points` / `chips` / `deal_points`
entries, with `returns()` once the state is terminal. `State._repr_html_` is wired to it.
`seat=p` hides every hand but p's (a position as that seat sees it)."""
from __future__ import annotations

import html

from cardsim.analysis.summary import as_summary
from cardsim.core._engine import State, check_int
from cardsim.errors import ConfigError, short
from cardsim.replay import SYMBOLS, with_symbols

_RED = ("♥", "♦")
_SCORE_KEYS = ("score", "game_points", "chips", "deal_points", "tricks", "team_tricks", "captured")
_TABLE_KEYS = ("trick", "floor", "building", "pending")


def _cards(cards) -> str:
    if not cards:
        return '<span style="color:#999">–</span>'
    out = []
    for c in cards:
        t = html.escape(with_symbols(str(c)))
        red = any(s in t for s in _RED)
        out.append(f'<span style="color:#c00">{t}</span>' if red else t)
    return " ".join(out)


def _fmt(v) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, list):
        return " ".join(_fmt(x) for x in v)
    return html.escape(str(v))


_short = short          # cardsim.errors.short: what a message may quote of an input


def _check_state(state, seat):
    """A cardsim State (any game) and None or one of its seats; else ConfigError."""
    if not isinstance(state, State):
        raise ConfigError(f"state_html needs a cardsim State (game.new_state(seed, deal)), got "
                          f"{type(state).__name__} {_short(state)}")
    if seat is not None:
        check_int(seat, f"{state.spec.name}: seat", 0, state.num_players - 1, ConfigError)


def state_html(state, seat: int | None = None) -> str:
    """An HTML table of the position: one row per seat (hand, card in play), then the cards on
    the table and the scores. With `seat`, the other seats' hands are hidden (shown as a count).
    Anything but a State, or a seat that is not one of its seats, raises ConfigError."""
    _check_state(state, seat)
    if seat is not None:
        seat = int(seat)
    n = state.num_players
    name = state.spec.name
    view = getattr(state.spec, "view", None)
    v = view(state) if view is not None else {}
    turn = state.current_player
    rows = []
    trick = v.get("trick") if isinstance(v.get("trick"), list) and len(v.get("trick")) == n else None
    for p in range(n):
        hand = state.hand(p)
        if seat is not None and p != seat:
            cell = f'<span style="color:#999">{len(hand)} cards</span>'
        else:
            cell = _cards(hand)
        played = ""
        if trick is not None and trick[p]:
            played = _cards(trick[p] if isinstance(trick[p], list) else [trick[p]])
        mark = "▶ " if p == turn else ""
        rows.append(f"<tr><th style='text-align:left'>{mark}seat {p}</th><td>{cell}</td><td>{played}</td></tr>")
    extra = []
    for k in _TABLE_KEYS:
        if k == "trick" or k not in v or v[k] in (None, [], ""):
            continue
        if seat is not None and k in ("building", "pending") and turn != seat:
            continue                                   # another seat's unfinished (hidden) selection
        val = v[k] if isinstance(v[k], list) else [v[k]]
        extra.append(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td colspan=2>{_cards(val)}</td></tr>")
    scores = []
    for k in _SCORE_KEYS:
        if k in v and v[k] is not None:
            scores.append(f"{html.escape(k.replace('_', ' '))}: {_fmt(v[k])}")
    if state.is_terminal():
        scores.append("returns: " + _fmt([float(x) for x in state.returns()]))
    status = "terminal" if state.is_terminal() else f"seat {turn} to act"
    head = (f"<caption style='text-align:left'><b>{html.escape(name)}</b> · phase {html.escape(str(state.phase))}"
            f" · {status}</caption>")
    table = ("<table style='border-collapse:collapse;font-family:monospace'>" + head
             + "<tr><th></th><th style='text-align:left'>hand</th><th style='text-align:left'>in play</th></tr>"
             + "".join(rows) + "".join(extra) + "</table>")
    foot = f"<div style='font-family:monospace'>{' · '.join(scores)}</div>" if scores else ""
    return f"<div class='cardsim-state'>{table}{foot}</div>"


def summary_html(s: dict) -> str:
    """A run's summary (`SimResult.summary()`) as HTML: exactly `Summary._repr_html_` (the verdict
    with its test and correction, the agents it is measured between, sides or seats with
    intervals, p and Holm p, the first-player frame, the game measures and metrics)."""
    if not isinstance(s, dict) or not isinstance(s.get("seats"), list) or not all(
            isinstance(x, dict) and {"seat", "mean", "ci95", "win_rate", "win_ci95", "advantage_p"} <= x.keys()
            for x in s["seats"]) or not {"game", "seed", "agents"} <= s.keys() or not ({"deals", "matches"} & s.keys()):
        raise ConfigError("summary_html needs a run's summary (SimResult.summary(): a dict with game, deals, "
                          f"seed, agents and per-seat figures), got {type(s).__name__} {_short(s)}")
    return as_summary(s)._repr_html_()


def result_html(result) -> str:
    """A SimResult as HTML: `SimResult._repr_html_`."""
    from cardsim.result import SimResult

    if not isinstance(result, SimResult):
        raise ConfigError(f"result_html needs a SimResult (cardsim.simulate(...)), got {type(result).__name__} "
                          f"{_short(result)}")
    return result._repr_html_()


def sweep_html(sweep) -> str:
    """A sweep (cardsim.sweep(...)) as HTML: `SweepResult._repr_html_`."""
    from cardsim.analysis.sweep import SweepResult

    if not isinstance(sweep, SweepResult):
        raise ConfigError(f"sweep_html needs a SweepResult (cardsim.sweep(...)), got {type(sweep).__name__} "
                          f"{_short(sweep)}")
    return sweep._repr_html_()


def compare_html(comparison) -> str:
    """A comparison (cardsim.compare(a, b)) as HTML: `Comparison._repr_html_`."""
    from cardsim.analysis.compare import Comparison

    if not isinstance(comparison, dict) or not {"a", "b", "verdict", "seats", "draws", "duration"} <= comparison.keys():
        raise ConfigError(f"compare_html needs a comparison (cardsim.compare(a, b)), got "
                          f"{type(comparison).__name__} {_short(comparison)}")
    return (comparison if isinstance(comparison, Comparison) else Comparison(comparison))._repr_html_()
