"""`cardsim replay`: the deal move by move, generic over every registered game.

Checked against the engine itself: the replayed actions are the batch kernel's (`kernel_actions`),
the printed returns are the kernel's, every trick line names the seat the engine credits, and a
replay seen by one seat never prints another seat's hidden cards."""
import re

import numpy as np
import pytest

import cardsim
from cardsim.cli import main
from cardsim.core._engine import AGENT_CODES, kernel_actions
from cardsim.replay import from_symbols, replay_lines, resolve_agents, seat_names, turn_visibility, with_symbols


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_replay_shows_the_kernels_deal(game):
    g = cardsim.make(game)
    lines = replay_lines(game, seed=3, deal=2, agents="greedy")
    text = "\n".join(lines)
    acts = kernel_actions(g.spec, 3, 2, [AGENT_CODES["greedy"]] * g.num_players)
    st = g.new_state(seed=3, deal=2)
    names = seat_names(game, g.num_players)
    for p in range(g.num_players):
        assert f"{names[p]}: {' '.join(st.hand(p))}" in text        # every starting hand
    for a in acts:
        st.apply(a)
    r = st.returns()
    assert "  returns: " + "  ".join(f"{names[p]}: {float(x) + 0.0:g}" for p, x in enumerate(r)) in lines
    assert f"cardsim rules {game}" in text and "docs/" not in text
    assert f"{st.phase}" == "end" or st.is_terminal()


@pytest.mark.parametrize("game", [g for g in cardsim.GAMES
                                  if "tricks_done" in (getattr(cardsim.make(g).spec, "view", lambda s: {})(cardsim.make(g).new_state()))])
def test_trick_lines_name_the_engines_winners(game):
    """For trick games: one 'trick k' line per trick the engine completed, in order, whose winner
    is the seat the engine's view reports as winning that trick."""
    g = cardsim.make(game)
    for deal in range(3):
        lines = replay_lines(g, seed=5, deal=deal)
        tricks = [x for x in lines if x.startswith("  trick ")]
        st = g.new_state(seed=5, deal=deal)
        winners = []
        for a in kernel_actions(g.spec, 5, deal, [AGENT_CODES["greedy"]] * g.num_players):
            before = g.spec.view(st)["tricks_done"]
            st.apply(a)
            v = g.spec.view(st)
            if v["tricks_done"] != before:
                winners.append(v["trick_winners"][-1] if v.get("trick_winners") else
                               v["last_winner"] if v.get("last_winner") is not None else v["leader"])
        assert len(tricks) == len(winners) > 0
        names = seat_names(game, g.num_players)
        for k, (line, w) in enumerate(zip(tricks, winners), 1):
            assert line.startswith(f"  trick {k}: ") and line.endswith(f"-> {names[w]} wins"), line


def test_seat_view_hides_other_hands_and_hidden_moves():
    # Gleek: the stock buyer's seven discards are face down; Zhao Pengyou: the kitty burial
    for game, hidden_word in (("gleek", "DISCARD"), ("zhao_pengyou", "DISCARD")):
        g = cardsim.make(game)
        full = "\n".join(replay_lines(game, seed=1, deal=0))
        assert hidden_word in full
        for seat in range(g.num_players):
            lines = replay_lines(game, seed=1, deal=0, seat=seat)
            st = g.new_state(seed=1, deal=0)
            for p in range(g.num_players):
                if p != seat:
                    assert f"seat {p}: {' '.join(st.hand(p))}" not in lines
            # a seat sees its own discards, never another seat's
            for x in lines:
                m = re.match(r"  seat (\d+): .*DISCARD", x)
                if m:
                    assert int(m.group(1)) == seat, x


def test_turn_visibility_against_the_observation():
    """A hidden action is one some other legal action would have left indistinguishable."""
    g = cardsim.make("zhao_pengyou")
    st = g.new_state(seed=1, deal=0)
    while st.phase != "kitty":
        st.apply(g.spec.greedy_action(st))
    start, acts = st.clone(), []
    seat = st.current_player
    while st.current_player == seat and st.phase == "kitty":
        a = g.spec.greedy_action(st)
        acts.append(a)
        st.apply(a)
    other = (seat + 1) % g.num_players
    assert turn_visibility(start, acts, st, other) == [False] * len(acts)
    assert turn_visibility(start, acts, st, seat) == [True] * len(acts)
    assert turn_visibility(start, acts, st, None) == [True] * len(acts)
    # the observation really cannot tell the burial apart: swapping the first discard for another
    alt = start.clone()
    b = next(int(x) for x in alt.legal_actions() if int(x) not in acts)
    alt.apply(b)
    for a in acts[1:]:
        alt.apply(a)
    assert np.array_equal(alt.observation(other), st.observation(other))
    assert not np.array_equal(alt.observation(seat), st.observation(seat))


def test_symbols():
    assert with_symbols("AS 10H TAKE 7D BID 2TA-S BID 1S PASS SJ 5C*") == "A♠ 10♥ TAKE 7♦ BID 2TA-S BID 1♠ PASS SJ 5♣*"
    assert from_symbols("A♠ 10♥ TAKE 7♦ BID 1♠") == "AS 10H TAKE 7D BID 1S"


def test_agents_are_checked_by_name():
    g = cardsim.make("joffre_whist")
    assert resolve_agents(g, "greedy") == ["greedy"] * 4
    with pytest.raises(cardsim.ConfigError, match="'smart'"):
        resolve_agents(g, "greedy,smart,greedy,greedy")
    with pytest.raises(cardsim.ConfigError, match="3 agents given for 4 seats"):
        resolve_agents(g, "greedy,random,greedy")


def test_cli_replay_text_html_and_errors(tmp_path, capsys):
    assert main(["replay", "karnoffel", "--seed", "2", "--deal", "1", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == replay_lines("karnoffel", seed=2, deal=1)
    page = tmp_path / "deal.html"
    assert main(["replay", "basra", "--seed", "2", "--html", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "captures" in html and "♠" in html
    capsys.readouterr()
    assert main(["replay", "basra", "--seed", "2", "--html", str(page)]) == 2     # no silent overwrite
    assert "--force" in capsys.readouterr().err
    assert main(["replay", "basra", "--seed", "2", "--html", str(page), "--force"]) == 0
    capsys.readouterr()
    assert main(["replay", "gleek", "--seat", "3"]) == 2
    assert "seat must be 0..2" in capsys.readouterr().err
    assert main(["replay", "gleek", "--agents", "greedy,smart,random"]) == 2
    assert "'smart'" in capsys.readouterr().err


def test_a_phase_inside_one_turn_is_not_a_section():
    """Basra's capture choice ('choose') happens inside the player's turn: shown on the turn's
    line, not as a section; Zhao Pengyou's kitty and call phases are sections of their own."""
    found = False
    for seed in range(1, 30):
        lines = replay_lines("basra", seed=seed, agents="random")
        assert "choose:" not in lines
        takes = [x for x in lines if " TAKE " in x]
        if takes:
            assert all(re.match(r"  seat \d: \w+ TAKE ", x) for x in takes), takes
            found = True
            break
    assert found
    zp = replay_lines("zhao_pengyou", seed=1, deal=0)
    assert [x for x in zp if x.endswith(":") and not x.startswith(" ")][:5] == ["hands:", "draw:", "kitty:", "call:", "play:"]


def test_a_match_is_shown_deal_by_deal():
    g = cardsim.make("karnoffel", scope="match")
    lines = replay_lines(g, seed=0, deal=0)
    st = g.new_state(seed=0, deal=0)
    deals = 0
    for a in kernel_actions(g.spec, 0, 0, [AGENT_CODES["greedy"]] * 4):
        before = g.spec.view(st)["deal_no"]
        st.apply(a)
        deals += g.spec.view(st)["deal_no"] != before
    overs = [x for x in lines if x.startswith("match deal ") and " over" in x]
    assert len(overs) == deals >= 2
    # trick numbers restart with every deal, and each deal's first trick follows its 'over' line
    firsts = [i for i, x in enumerate(lines) if x.startswith("  trick 1: ")]
    assert len(firsts) == deals
    assert all(a < b < c for a, b, c in zip(firsts, [lines.index(x) for x in overs], firsts[1:] + [len(lines)]))


# ---- issue 30: what the replay and play print -------------------------------------------------

def _play_text(game, seat=1, seed=4):
    from cardsim.play import Session

    out = []

    class Out:
        def write(self, s):
            out.append(s)

        def flush(self):
            pass

    sess = None

    def typed(prompt):
        out.append(prompt)
        return sess.state.action_to_string(int(sess.state.legal_actions()[0]))

    sess = Session(game, seat=seat, seed=seed, input=typed, out=Out())
    sess.run()
    return "".join(out)


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_seats_are_named_as_the_rules_page_names_them(game):
    """One naming per game in replay and play (GameInfo.seat_names): no bare numbers next to
    N/E/S/W, no P1 (Gleek's state rendering), no 'seat 2' in Joffre Whist."""
    g = cardsim.make(game)
    names = seat_names(game, g.num_players)
    assert names == cardsim.game.game_info(game).seat_names_for(g.num_players)
    texts = ["\n".join(replay_lines(game, seed=1, deal=0)), "\n".join(replay_lines(game, seed=1, deal=0, seat=0))]
    if game in ("joffre_whist", "gleek"):                 # play is slow in the others' long deals: two suffice
        texts.append(_play_text(game))
    for text in texts:
        assert not re.search(r"\bP\d\b", text)
        if names[0] == "seat 0":
            assert not re.search(r"(^|\s)[NESW]:", text, re.M)
        else:
            assert not re.search(r"\bseat \d", text)
            for n in names:
                assert f"{n}: " in text
    if game == "joffre_whist":
        assert "W> " in _play_text(game, seat=3)            # the prompt names the seat too


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_deal_0_is_shown_as_deal_0_and_the_result_is_a_table(game):
    lines = replay_lines(game, seed=5, deal=0)
    text = "\n".join(lines)
    assert lines[0].startswith(f"{game}  seed 5  deal 0  ")
    assert not re.search(r"\bdeal 1\b", text), "a deal-scope replay of deal 0 mentions deal 1"
    res = lines[lines.index("result:") + 1:]
    assert res[-1].startswith("  returns: ") and len(res) >= 2
    for x in res:                                          # label: name value, ... (no dict, no list)
        assert re.match(r"  [\w ,()-]+: ", x) and not re.search(r"[{}\[\]]", x), x
    assert " mean " not in text                            # nothing averaged (category codes least of all)


def test_samba_shows_the_real_deal_scores():
    """The deal's score of each side, as the returns count it (not scores=[0, 0] next to them)."""
    for seed in (1, 2):
        lines = replay_lines("samba", seed=seed, deal=0)
        (row,) = [x for x in lines if x.startswith("  deal score: ")]
        scores = [float(v.rsplit(" ", 1)[1]) for v in row.split(": ", 1)[1].split(", ")]
        g = cardsim.make("samba")
        st = g.new_state(seed=seed, deal=0)
        for a in kernel_actions(g.spec, seed, 0, [AGENT_CODES["greedy"]] * 4):
            st.apply(a)
        r = st.returns()
        assert scores == [float(r[0]), float(r[1])] and any(scores)


def test_gleek_result_is_a_table_of_chips_by_step():
    lines = replay_lines("gleek", seed=1, deal=0)
    text = "\n".join(lines + [_play_text("gleek")])
    assert "{" not in text and "parts" not in text
    res = lines[lines.index("result:") + 1:]
    assert any(x.startswith("  chips: stock: ") or x.startswith("  chips: tricks: ") for x in res)
    assert res[-2].startswith("  chips: seat 0 ")


def test_a_match_names_its_deals_apart_from_the_seeds_deal():
    lines = replay_lines(cardsim.make("karnoffel", scope="match"), seed=0, deal=0)
    assert "(a whole match)" in lines[0] and any(x.startswith("match deal 1 over") for x in lines)
