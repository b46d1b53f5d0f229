"""Every game's own copy of the batch loop (vt.play: core/_play_loop.pxi compiled in the game's
module, with its functions inlined and, where the game has one, its fused random play) plays as
the generic loop does: from fresh deals and from states part-way through, with random agents at
every seat, both end in the same state, byte for byte, after the same actions, decisions and legal
counts, having drawn the same numbers from every seat's stream; and both stop at the same step
when max_steps cuts a deal short (the fused play must never take a step the loop would refuse)."""
import numpy as np
import pytest

import cardsim
from cardsim.core._engine import _play_paths

# option sets that change what the loops do (player counts, scopes, rule options); each game's
# defaults first
CONFIGS = [
    ("hearts", {}), ("hearts", {"players": 3}), ("hearts", {"players": 5}),
    ("hearts", {"players": 6, "first_lead": "any_club", "lead_hearts_over_queen": True}),
    ("hearts", {"no_points_first_trick": False, "must_break_hearts": False, "queen_breaks_hearts": False}),
    ("hearts", {"pass_rotation": "hold"}), ("hearts", {"pass_rotation": "random"}),
    ("hearts", {"scope": "match", "match_target": 40}), ("hearts", {"variant": "openspiel"}),
    ("joffre_whist", {}), ("joffre_whist", {"scope": "match"}),
    ("gleek", {}), ("karnoffel", {}), ("exposure", {}), ("basra", {}), ("tien_gow", {}),
    ("six_tigers", {}), ("zhao_pengyou", {}), ("samba", {}),
]


def _make(game, opts):
    return cardsim.make(game, **opts)


def _states(g, seed, deals, rng):
    """Fresh deals, and states a random number of random actions into them."""
    for d in deals:
        s = g.new_state(seed=seed, deal=d)
        yield d, s
        steps = int(rng.integers(1, 90))
        for _ in range(steps):
            if s.is_terminal():
                break
            la = s.legal_actions()
            s.apply(int(la[int(rng.integers(len(la)))]))
        if not s.is_terminal():
            yield d, s


@pytest.mark.parametrize("game,opts", CONFIGS, ids=[f"{g}-{i}" for i, (g, _o) in enumerate(CONFIGS)])
def test_the_games_loop_plays_as_the_generic_loop(game, opts):
    g = _make(game, opts)
    rng = np.random.default_rng(26)
    n = 12 if game in ("samba", "zhao_pengyou") else 60
    checked = 0
    for d, s in _states(g, 11, range(n), rng):
        before = s.state_bytes()
        generic, own = _play_paths(s, 11, d)
        assert s.state_bytes() == before                    # the hook plays copies
        if own is None:
            pytest.skip(f"{game} has no loop of its own")
        assert own == generic, (game, opts, d)
        assert generic[1] > 0 or s.is_terminal()
        checked += 1
    assert checked >= n


@pytest.mark.parametrize("game,opts", [c for c in CONFIGS if c[0] in ("hearts", "joffre_whist", "gleek")],
                         ids=lambda v: str(v))
def test_a_deal_cut_short_stops_at_the_same_step(game, opts):
    """max_steps around a deal's length: the fused play runs only when the whole segment fits, so
    the loops apply the same actions and both report -1 past the cap."""
    g = _make(game, opts)
    for d in range(8):
        s = g.new_state(seed=5, deal=d)
        full = _play_paths(s, 5, d)[0]
        length = full[1]
        for cap in sorted({1, 2, length // 2, length - 1, length, length + 1, length + 2}):
            if cap < 1:
                continue
            generic, own = _play_paths(s, 5, d, max_steps=cap)
            assert own == generic, (game, opts, d, cap)
            assert (generic[1] == -1) == (cap <= length)


def test_the_fused_play_is_what_run_batch_plays():
    """run_batch with lead_changes=True steps through the vtable (no fused play): its returns,
    metrics and counters equal the fast path's for the same deals."""
    for game, opts in [("hearts", {}), ("hearts", {"players": 3, "scope": "match"})]:
        g = _make(game, opts)
        fast = g.spec.run_batch(3, 0, 400, [0] * g.num_players)
        slow = g.spec.run_batch(3, 0, 400, [0] * g.num_players, lead_changes=True)
        for key in ("returns", "metrics", "decisions", "legal_sum", "first_player"):
            np.testing.assert_array_equal(fast[key], slow[key])
