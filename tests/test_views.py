"""Notebook views: `cardsim.views.state_html(state)` shows hands, the cards in play and the scores,
for every game, and hides other seats' hands when asked for one seat's view."""
import html
from html.parser import HTMLParser

import pytest

import cardsim
from cardsim.replay import with_symbols
from cardsim.views import state_html

VOID = {"br", "meta"}


class _Balanced(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.text = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def _text(h):
    p = _Balanced()
    p.feed(h)
    p.close()
    assert p.stack == []
    return " ".join(" ".join(p.text).split())


def _midgame(game, steps=15):
    g = cardsim.make(game)
    st = g.new_state(seed=2, deal=1)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(g.spec.greedy_action(st))
    return g, st


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_state_html_shows_hands_table_and_scores(game):
    g, st = _midgame(game)
    text = _text(state_html(st))
    assert game in text and st.phase in text
    for p in range(g.num_players):
        hand = st.hand(p)
        if hand:
            assert " ".join(with_symbols(c) for c in hand) in text, (p, hand)
    assert f"seat {st.current_player} to act" in text


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_state_html_for_one_seat_hides_the_others(game):
    g, st = _midgame(game)
    me = st.current_player
    text = _text(state_html(st, seat=me))
    for p in range(g.num_players):
        hand = st.hand(p)
        if p == me:
            assert " ".join(with_symbols(c) for c in hand) in text
        elif len(hand) >= 2:
            assert " ".join(with_symbols(c) for c in hand) not in text
            assert f"{len(hand)} cards" in text


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_terminal_state_shows_the_returns(game):
    g = cardsim.make(game)
    st = g.new_state(seed=3, deal=0)
    while not st.is_terminal():
        st.apply(g.spec.greedy_action(st))
    text = _text(state_html(st))
    assert "terminal" in text
    assert "returns: " + " ".join(html.escape(str(int(x) if float(x).is_integer() else float(x)))
                                  for x in st.returns()) in text


def test_the_current_trick_is_shown_in_play():
    g = cardsim.make("joffre_whist")
    st = g.new_state(seed=1, deal=0)
    while st.phase != "play":
        st.apply(g.spec.greedy_action(st))
    leader = st.current_player
    st.apply(g.spec.greedy_action(st))
    card = g.spec.view(st)["trick"][leader]
    h = state_html(st)
    row = h.split(f"seat {leader}</th>")[1].split("</tr>")[0]
    assert with_symbols(card) in row.split("<td>")[-1]


def test_summary_html_has_every_seat_and_figure():
    from cardsim.report import fmt, fmt_ci
    from cardsim.views import summary_html

    from cardsim.report import pct

    s = cardsim.simulate("karnoffel", deals=300, seed=4, agents=["greedy", "random"] * 2).summary()
    text = _text(summary_html(s))
    assert "Karnoffel: 300 deals, seed 4, agents greedy, random, greedy, random" in text
    for x in s.sides():                 # one row per side (partners grouped), as Summary._repr_html_
        assert f"{x['label']} {fmt(x['mean'])} {fmt_ci(x['ci95'])} {pct(x['win_rate'])}" in text
