"""Play one seat of a game in the terminal against the engine's agents (`cardsim play`).

Generic over the public State API, like `cardsim.replay`: the position is shown as the human's
seat sees it (its hand, the other seats' moves only where its observation reveals them), the
legal moves are listed by their action strings, and a line of input is

- one action string (`AS`, `10H`, `PASS`, `BID 3D`, `TAKE 7C`, `MELD QS`, `DONE`, ...);
- or several cards for one multi-card play (`AS AS KS`): turned into the factored actions by the
  game's `play_to_actions` helper where the game module has one, else applied one action per
  word (all of them or none);
- `undo` (back to your previous decision), `hint` (what the greedy agent would play), `moves`
  (the legal moves again), `help`, `quit`.

Bad input is answered with the reason and a new prompt; the state is never changed by it.
"""
from __future__ import annotations

import inspect
import sys

import cardsim
import cardsim.agents
from cardsim.errors import CardsimError, ConfigError, IllegalActionError, short
from cardsim.game import check_seed
from cardsim.replay import (Narrator, from_symbols, public_facts, resolve_agents, score_lines, seat_names, table_of,
                             with_symbols)

HELP = ("type a move as listed (e.g. AS, 10H, PASS, BID 3D), several cards for one play "
        "(e.g. AS AS KS), or: undo, hint, moves, help, quit")


_short = short          # cardsim.errors.short: what a message may quote of an input


MAX_LINE = 400          # characters of one input line (the longest play is a few dozen)


def _cut(text: str, limit: int = 240) -> str:
    """A message of a lower layer cut to `limit` characters (it may quote the input)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def parse_line(state, line: str) -> list[int]:
    """The actions one input line stands for, checked on a copy of `state` (which is unchanged).
    Raises ParseError / IllegalActionError with the reason."""
    if not isinstance(line, str):
        raise IllegalActionError(f"an input line is a str, got {type(line).__name__}")
    if len(line) > MAX_LINE:
        raise IllegalActionError(f"input of {len(line):,} characters; a move is at most {MAX_LINE} (e.g. AS, "
                                 f"BID 3D, AS AS KS); {HELP}")
    text = " ".join(from_symbols(line).split())
    if not text:
        raise IllegalActionError("empty input; " + HELP)
    errors = []
    try:                                           # the whole line as one action ('BID 3D', 'TAKE 7C')
        a = state.string_to_action(text)
        if state.is_legal(a):
            return [a]
        errors.append(f"{_short(text)} is not legal now")
    except CardsimError as e:
        errors.append(_cut(str(e)))
    words = text.split()
    if len(words) > 1:
        mod = cardsim.game.game_module(state.spec.name)
        helper = getattr(mod, "play_to_actions", None)
        if helper is not None:
            try:
                nparams = len(inspect.signature(helper).parameters)
                acts = helper(state, words) if nparams == 2 else helper(state, words[0], words[1:])
                _check(state, acts)
                return [int(a) for a in acts]
            except CardsimError as e:
                errors.append(_cut(str(e)))
        try:
            trial = state.clone()
            seat = trial.current_player
            acts = []
            for w in words:
                if trial.current_player != seat:
                    raise IllegalActionError(f"{_short(w)}: your turn is over before it")
                a = trial.string_to_action(w)
                if not trial.is_legal(a):
                    raise IllegalActionError(f"{_short(w)} is not legal at that point")
                trial.apply(a)
                acts.append(a)
            return acts
        except CardsimError as e:
            errors.append(_cut(str(e)))
    raise IllegalActionError(errors[-1] if len(errors) == 1 else errors[0] if len(words) == 1 else errors[-1])


def format_moves(moves: list[str]) -> str:
    """Moves separated by two spaces; moves that share a first word are listed once under it:
    ['PASS', 'BID 1NT', 'BID 2NT'] -> 'PASS  BID: 1NT 2NT' (type them as 'BID 2NT')."""
    groups: dict[str, list[str]] = {}
    order: list[str] = []
    for m in moves:
        head, _, rest = m.partition(" ")
        if " " in rest:
            head, rest = m, ""
        key = head if rest else m
        if key not in groups:
            groups[key] = []
            order.append(key)
        if rest:
            groups[key].append(rest)
    out = []
    for key in order:
        rest = groups[key]
        out.append(f"{key}: {' '.join(rest)}" if len(rest) > 1 else f"{key} {rest[0]}" if rest else key)
    return "  ".join(out)


def outcome(returns, seat: int) -> str:
    """One sentence on how `seat` did, from the returns of every seat."""
    r = [float(x) for x in returns]
    hi, lo, me = max(r), min(r), r[seat]
    if hi == lo:
        return "a draw: every seat has the same result."
    if me == hi:
        return "you win" + (f" (shared by {r.count(hi)} seats)" if r.count(hi) > 1 else "") + "."
    if me == lo:
        return "you lose" + (f" (shared by {r.count(lo)} seats)" if r.count(lo) > 1 else "") + "."
    rank = 1 + sum(1 for x in r if x > me)
    return f"you finish {rank} of {len(r)}."


def _check(state, acts):
    trial = state.clone()
    for a in acts:
        trial.apply(int(a))


class Session:
    """One deal (or match) played in the terminal; `run()` returns the final state."""

    def __init__(self, game, seat: int = 0, agents="greedy", seed: int = 0, deal: int = 0,
                 symbols: bool = False, input=input, out=None):
        self.game = cardsim.make(game) if isinstance(game, str) else game
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ConfigError(f"{self.game.name}: seat must be 0..{n - 1}, got {_short(seat)}")
        names = resolve_agents(self.game, agents)
        self.seat = seat
        seed, deal = check_seed(seed, "seed"), check_seed(deal, "deal")
        self.seed, self.deal = seed, deal
        # each agent's own stream: seed + seat + 1, wrapped into 0..2**64-1 like every seed
        self.agents = [None if p == seat else cardsim.agents.from_name(names[p], (seed + p + 1) % 2**64)
                       for p in range(n)]
        self.names = names
        self.seats = seat_names(self.game.name, n)          # as the rules page names them
        self.symbols = symbols
        self.input = input
        self.out = out or sys.stdout
        self.state = self.game.new_state(seed=seed, deal=deal)
        self.nar = Narrator(self.game.name, n, seat, [len(self.state.hand(p)) for p in range(n)], names=self.seats)
        self.shown = 0
        self.undo: list[tuple] = []

    def say(self, text: str = "", plain: bool = False):
        print(with_symbols(text) if self.symbols and not plain else text, file=self.out, flush=True)

    def _flush_log(self):
        for line in self.nar.lines[self.shown:]:
            self.say(line)
        self.shown = len(self.nar.lines)

    def _apply(self, a: int):
        before = self.state.clone()
        self.state.apply(int(a))
        self.nar.step(before, a, self.state)

    def moves(self) -> str:
        return format_moves([self.state.action_to_string(int(a)) for a in self.state.legal_actions()])

    def show_position(self):
        s = self.state
        self._flush_log()
        pending = self.nar.pending(s)
        if pending:
            self.say("  on the table: " + pending)
        facts = public_facts(s)
        if facts:
            self.say(f"  table: {facts}")
        self.say(f"[{s.phase}] {self.seats[self.seat]}, your hand: {' '.join(s.hand(self.seat)) or '-'}")
        self.say(f"  legal: {self.moves()}")

    def run(self):
        g, s = self.game, self.state
        self.say(f"{g.name}: you are {self.seats[self.seat]} (seats {', '.join(self.seats)}); seed {self.seed} "
                 f"deal {self.deal}; others: "
                 f"{', '.join(f'{self.seats[p]} {self.names[p]}' for p in range(g.num_players) if p != self.seat)}")
        self.say(f"rules: cardsim rules {g.name}   ({HELP})", plain=True)
        while not self.state.is_terminal():
            p = self.state.current_player
            if p != self.seat:
                self._apply(self.agents[p].act(self.state))
                continue
            self.show_position()
            while True:
                try:
                    line = self.input(f"{self.seats[self.seat]}> ")
                except EOFError:
                    self.say("\n(end of input: game abandoned)")
                    return None
                cmd = line.strip().lower()
                if cmd in ("quit", "exit", "q"):
                    self.say("game abandoned")
                    return None
                if cmd in ("help", "?"):
                    self.say(HELP, plain=True)
                    continue
                if cmd == "moves":
                    self.say(f"  legal: {self.moves()}")
                    continue
                if cmd == "hint":
                    a = self.state.spec.greedy_action(self.state, self.seed)
                    self.say(f"  hint: the greedy agent would play {self.state.action_to_string(int(a))}")
                    continue
                if cmd == "undo":
                    if not self.undo:
                        self.say("  nothing to undo: this is your first decision")
                        continue
                    self.state, self.nar, self.shown = self.undo.pop()
                    self.say("  undone; back to your previous decision")
                    self.show_position()
                    continue
                try:
                    acts = parse_line(self.state, line)
                except CardsimError as e:
                    self.say(f"  not accepted: {e}  (type 'moves' to list the legal moves)", plain=True)
                    continue
                import copy

                self.undo.append((self.state.clone(), copy.deepcopy(self.nar), self.shown))
                for a in acts:
                    self._apply(a)
                break
        self.nar.finish(self.state)
        self._flush_log()
        r = self.state.returns()
        self.say("match over:" if self.game.options.get("scope") == "match" else "deal over:")
        for line in score_lines(table_of(self.state, None)):
            self.say(line)
        self.say("returns: " + "  ".join(f"{self.seats[p]}{' (you)' if p == self.seat else ''}: {float(x) + 0.0:g}"
                                         for p, x in enumerate(r)))
        self.say(outcome(r, self.seat))
        return self.state
