"""run_batch(lead_changes=True)'s lead_from: the number of actions after which the final leaders
(the seats with the highest running standing at the end, i.e. the highest returns; none when all
tie) held the lead without interruption. Checked against an independent Python reading of the
running standing (State.standing: each game's provisional score, the returns at the end) along the
kernel's own action sequence, in every game, with random and greedy agents; lead changes too."""
import numpy as np
import pytest

import cardsim
from cardsim.runner import kernel_actions, kernel_args


def _leaders(r):
    r = np.asarray(r, dtype=np.float64)
    if r.max() == r.min():
        return frozenset()
    return frozenset(np.flatnonzero(r == r.max()).tolist())


def _lead_from_reference(g, seed, deal, codes):
    st = g.new_state(seed, deal)
    sets = []
    ints, search = kernel_args(codes)
    for a in kernel_actions(g.spec, seed, deal, ints, search=search):
        st.apply(a)
        sets.append(_leaders(st.standing()))
    final = sets[-1]
    k = len(sets)
    while k > 0 and sets[k - 1] == final:
        k -= 1
    # k actions were applied before the final leaders' unbroken run began; the kernel counts the
    # returns seen when they took over, i.e. k + 1, unless the run spans the whole deal from a
    # start where no one leads (then nothing changed: 0)
    return 0 if (k == 0 and not final) else k + 1


@pytest.mark.parametrize("game", cardsim.GAMES)
@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_lead_from_matches_the_running_standing(game, agent):
    g = cardsim.make(game)
    P = g.num_players
    code = {"random": 0, "greedy": 1}[agent]
    n = 6 if game in ("samba", "zhao_pengyou") else 25
    r = g.spec.run_batch(9, 0, n, [code] * P, lead_changes=True)
    assert r["lead_from"].dtype == np.int32
    assert (r["lead_from"] >= 0).all() and (r["lead_from"] <= r["actions"]).all()
    for d in range(n):
        assert r["lead_from"][d] == _lead_from_reference(g, 9, d, [code] * P), (game, d)


def test_lead_from_only_with_lead_changes():
    g = cardsim.make("karnoffel")
    assert "lead_from" not in g.spec.run_batch(1, 0, 3, [0] * g.num_players)


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_the_hot_loop_and_the_recording_loop_play_the_same_deals(game):
    """run_batch without recording runs the game's own copy of the hot loop (vt.play, from
    core/_play_loop.pxi) where it has one; with lead_changes=True it runs the generic recording
    loop through the vtable. Both must play the same deals, for every agent: all seats random,
    all greedy, and mixed seats."""
    g = cardsim.make(game)
    P = g.num_players
    n = 8 if game in ("samba", "zhao_pengyou") else 200
    for codes in ([0] * P, [1] * P, [i % 3 for i in range(P)]):
        a = g.spec.run_batch(4, 0, n, codes)
        b = g.spec.run_batch(4, 0, n, codes, lead_changes=True)
        for k in a:
            assert np.array_equal(a[k], b[k]), (game, codes, k)


def _lead_changes_reference(g, seed, deal, codes):
    """Lead changes read independently: a new set of leaders sharing no seat with the previous
    set (all level: no leaders, ignored)."""
    st = g.new_state(seed, deal)
    prev, n = frozenset(), 0
    ints, search = kernel_args(codes)
    for a in kernel_actions(g.spec, seed, deal, ints, search=search):
        st.apply(a)
        cur = _leaders(st.standing())
        if cur:
            if prev and not (cur & prev):
                n += 1
            prev = cur
    return n


@pytest.mark.parametrize("game", cardsim.GAMES)
def test_lead_changes_follow_the_running_standing(game):
    g = cardsim.make(game)
    P = g.num_players
    n = 5 if game in ("samba", "zhao_pengyou") else 20
    r = g.spec.run_batch(6, 0, n, [1] * P, lead_changes=True)
    for d in range(n):
        assert r["lead_changes"][d] == _lead_changes_reference(g, 6, d, [1] * P), (game, d)
    if game != "gleek":                   # the standing moves mid-deal: some deal changes leaders
        r = g.spec.run_batch(6, 0, 4 * n, [0] * P, lead_changes=True)
        assert r["lead_changes"].max() > 0, game
