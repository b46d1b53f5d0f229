"""`cardsim play`: a human plays one seat in a terminal. Driven through a real pseudo-terminal
(the `cardsim` process reads the keyboard from a pty), and through `parse_line` directly for the
input rules: one action string, several cards for one multi-card play (the game's
`play_to_actions` helper), bad input answered with the reason and the state unchanged."""
import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

import cardsim
from cardsim.play import Session, outcome, parse_line


class Pty:
    """A `python -m cardsim ...` process on a pseudo-terminal."""

    def __init__(self, *args):
        self.master, slave = pty.openpty()
        env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm")
        self.p = subprocess.Popen([sys.executable, "-m", "cardsim", *args], stdin=slave, stdout=slave, stderr=slave,
                                  close_fds=True, env=env)
        os.close(slave)
        self.buf = ""

    def expect(self, pattern, timeout=60):
        """Read until `pattern` matches the unread output; returns (text before it, match)."""
        rx = re.compile(pattern)
        end = time.time() + timeout
        while True:
            m = rx.search(self.buf)
            if m:
                before, self.buf = self.buf[:m.end()], self.buf[m.end():]
                return before, m
            left = end - time.time()
            if left <= 0:
                raise AssertionError(f"timeout waiting for {pattern!r}; got:\n{self.buf[-3000:]}")
            r, _, _ = select.select([self.master], [], [], left)
            if r:
                try:
                    data = os.read(self.master, 65536)
                except OSError:                       # EIO: the child closed the terminal
                    data = b""
                if not data:
                    m = rx.search(self.buf)
                    if m:
                        continue
                    raise AssertionError(f"process ended before {pattern!r}; got:\n{self.buf[-3000:]}")
                self.buf += data.decode("utf-8", "replace").replace("\r\n", "\n")

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def close(self):
        try:
            self.p.wait(timeout=30)
        finally:
            os.close(self.master)
        return self.p.returncode


PROMPT = r"(seat \d+|[NESW])> "          # the seat's name as the rules page writes it (GameInfo.seat_names)


def _legal(text):
    """The moves of the last 'legal:' line ('BID: 1NT 2NT' lists 'BID 1NT', 'BID 2NT')."""
    out = []
    for item in text.split("legal: ")[-1].splitlines()[0].split("  "):
        if ": " in item:
            head, rest = item.split(": ", 1)
            out += [f"{head} {x}" for x in rest.split()]
        elif item:
            out.append(item)
    return out


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_play_a_whole_deal_in_a_terminal(game):
    """Play seat 1 to the end by typing the first listed move, after exercising bad input, hint,
    moves and undo at the first decision."""
    t = Pty("play", game, "--seat", "1", "--seed", "4", "--ascii")
    before, m = t.expect(PROMPT + r"|deal over")
    decisions = 0
    first = True
    while m.group(0) != "deal over":
        legal = _legal(before)
        assert legal, before
        if first:
            t.send("ZZ")
            t.expect(r"not accepted: .*'ZZ'")
            t.expect(PROMPT)
            t.send("hint")
            _, h = t.expect(r"hint: the greedy agent would play (.+)\n")
            assert h.group(1).strip() in legal
            t.expect(PROMPT)
            t.send("undo")
            t.expect("nothing to undo")
            t.expect(PROMPT)
            t.send(legal[-1])
            before, m = t.expect(PROMPT + r"|deal over")
            if m.group(0) == "deal over":
                break
            t.send("undo")                                 # back to the first decision
            t.expect("undone")
            before, m = t.expect(PROMPT)
            assert _legal(before) == legal
            first = False
        t.send(legal[0])
        decisions += 1
        before, m = t.expect(PROMPT + r"|deal over", timeout=120)
    assert decisions >= 2
    rest, _ = t.expect(r"you (win|lose|finish).*|a draw.*")
    me = cardsim.game.game_info(game).seat_names_for(cardsim.make(game).num_players)[1]
    assert "returns: " in rest and f"{me} (you)" in rest
    assert t.close() == 0


def test_quit_and_end_of_input_leave_cleanly():
    t = Pty("play", "karnoffel", "--seed", "1")
    t.expect(PROMPT)
    t.send("quit")
    t.expect("game abandoned")
    assert t.close() == 0


def _zp_leader_with_a_pair():
    g = cardsim.make("zhao_pengyou")
    for seed in range(1, 40):
        st = g.new_state(seed=seed, deal=0)
        while not st.is_terminal():
            if st.phase == "play" and not any(g.spec.view(st)["trick"]) and not g.spec.view(st)["building"]:
                hand = st.hand(st.current_player)
                pairs = sorted({c for c in hand if hand.count(c) >= 2})
                if pairs:
                    return st, pairs[0]
            st.apply(g.spec.greedy_action(st))
    pytest.skip("no leader with a pair found")


def test_multi_card_play_on_one_line_uses_the_games_helper():
    from cardsim.games import zhao_pengyou

    st, card = _zp_leader_with_a_pair()
    before = st.state_bytes()
    acts = parse_line(st, f"{card} {card}")
    assert acts == zhao_pengyou.play_to_actions(st, [card, card])
    assert st.action_to_string(acts[-1]) == "COMMIT"
    assert st.state_bytes() == before                      # parsing never changes the state
    for a in acts:
        st.apply(a)
    assert sum(len(x) for x in cardsim.make("zhao_pengyou").spec.view(st)["trick"]) == 2


def test_basra_card_and_captures_on_one_line():
    from cardsim.games import basra

    g = cardsim.make("basra")
    for seed in range(1, 60):
        st = g.new_state(seed=seed, deal=0)
        while not st.is_terminal() and st.phase == "play":
            plays = [(c, cap) for c, cap in basra.legal_plays(st) if len(cap) >= 1]
            if plays:
                c, cap = plays[0]
                assert parse_line(st, " ".join([c] + cap)) == basra.play_to_actions(st, c, cap)
                return
            st.apply(g.spec.greedy_action(st))
    pytest.fail("no capture found")


def test_bad_input_names_the_reason_and_changes_nothing():
    g = cardsim.make("joffre_whist")
    st = g.new_state(seed=1, deal=0)
    before = st.state_bytes()
    with pytest.raises(cardsim.CardsimError, match="'QX'"):
        parse_line(st, "QX")
    with pytest.raises(cardsim.CardsimError):
        parse_line(st, "")
    with pytest.raises(cardsim.CardsimError, match="not legal"):
        parse_line(st, "DOUBLE")                        # nobody has bid yet
    assert st.state_bytes() == before
    assert parse_line(st, "pass") == [st.string_to_action("PASS")]
    assert parse_line(st, "bid 1nt") == [st.string_to_action("BID 1NT")]
    assert parse_line(st, "BID 2♠") == [st.string_to_action("BID 2S")]   # as the listing shows it


def test_session_with_scripted_input_plays_to_the_end():
    lines = []
    sess = None

    def typed(prompt):
        return sess.state.action_to_string(int(sess.state.legal_actions()[0]))

    class Out:
        def write(self, s):
            lines.append(s)

        def flush(self):
            pass

    sess = Session("exposure", seat=0, seed=2, input=typed, out=Out())
    end = sess.run()
    assert end.is_terminal()
    text = "".join(lines)
    assert "deal over" in text and "returns: seat 0 (you)" in text


def test_format_moves():
    from cardsim.play import format_moves

    assert format_moves(["PASS", "BID 1NT", "BID 2NT", "DOUBLE", "TAKE 7C"]) == "PASS  BID: 1NT 2NT  DOUBLE  TAKE 7C"
    assert format_moves(["CALL AH 1", "CALL AH 2"]) == "CALL AH 1  CALL AH 2"
    assert _legal("legal: PASS  BID: 1NT 2NT  TAKE 7C\n") == ["PASS", "BID 1NT", "BID 2NT", "TAKE 7C"]


def test_outcome_sentences():
    assert outcome([1, -1, 1, -1], 0) == "you win (shared by 2 seats)."
    assert outcome([1, -1, 1, -1], 1) == "you lose (shared by 2 seats)."
    assert outcome([11, -16, 5], 2) == "you finish 2 of 3."
    assert outcome([0, 0], 1).startswith("a draw")
