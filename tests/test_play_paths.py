"""Every game's own copy of the batch loop (vt.play: core/_play_loop.pxi compiled in the game's
module, with its functions inlined and, where the game has one, its fused random play) plays as
the generic loop does: from fresh deals and from states part-way through, with random agents at
every seat, both end in the same state, byte for byte, after the same actions, decisions and legal
counts, having drawn the same numbers from every seat's stream; and both stop at the same step
when max_steps cuts a deal short (the fused play must never take a step the loop would refuse)."""
import numpy as np
import pytest

import cardsim
from cardsim.core._testing import _play_paths

# option sets that change what the loops do (player counts, scopes, rule options); each game's
# defaults first
CONFIGS = [
    ("hearts", {}), ("hearts", {"players": 3}), ("hearts", {"players": 5}),
    ("hearts", {"players": 6, "first_lead": "any_club", "lead_hearts_over_queen": True}),
    ("hearts", {"no_points_first_trick": False, "must_break_hearts": False, "queen_breaks_hearts": False}),
    ("hearts", {"pass_rotation": "hold"}), ("hearts", {"pass_rotation": "random"}),
    ("hearts", {"scope": "match", "match_target": 40}), ("hearts", {"variant": "openspiel"}),
    ("joffre_whist", {}), ("joffre_whist", {"scope": "match"}),
    ("gleek", {}), ("gleek", {"scope": "match"}),
    ("gleek", {"scope": "match", "num_deals": 3, "starting_chips": 20, "honour_scoring": "won"}),
    ("gleek", {"gleek_declaration": "optional", "exchange_order": "take_first"}),
    ("gleek", {"max_stock_bid": 300, "stock_opening_bid": 0}),
    ("karnoffel", {}), ("exposure", {}), ("basra", {}), ("tien_gow", {}),
    ("six_tigers", {}), ("zhao_pengyou", {}), ("samba", {}),
]


def _make(game, opts):
    return cardsim.make(game, **opts)


def _states(g, seed, deals, rng):
    """Fresh deals, and states a random number of actions into them: random actions, and (every
    other deal) the greedy agent's, whose bids reach the contracts random bidding never makes
    (random Joffre Whist auctions end in JTA)."""
    for d in deals:
        s = g.new_state(seed=seed, deal=d)
        yield d, s
        steps = int(rng.integers(1, 90))
        greedy = d % 2 == 1
        for i in range(steps):
            if s.is_terminal():
                break
            if greedy:
                s.apply(int(g.spec.greedy_action(s, seed=i)))
            else:
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


def test_joffre_whists_contracts_are_all_played_fused():
    """The fused play starts from every kind of contract (no trumps, a trump suit, TA with its
    partner's lead rule, JTA; random bidding ends in JTA, so each deal's first bidder bids the
    kind, the others pass) and plays each as the loop does, from the first lead and from a
    trick under way."""
    g = cardsim.make("joffre_whist")
    strains = {}
    for d in range(240):
        s = g.new_state(seed=3, deal=d)
        kind = ("NT", "S", "TA-", "JTA-")[d % 4]
        bids = [a for a in s.legal_actions() if s.action_to_string(int(a)).startswith(f"BID 1{kind}")]
        if not bids:                         # no 4-card suit to name in TA
            continue
        s.apply(int(bids[0]))
        while s.phase != "play":
            s.apply_string("PASS")
        strains[int(s.metrics()["strain"])] = strains.get(int(s.metrics()["strain"]), 0) + 1
        for cards in (0, 5):
            t = s.clone()
            for i in range(cards):
                t.apply(int(g.spec.greedy_action(t, seed=i)))
            generic, own = _play_paths(t, 3, d)
            assert own == generic, (d, kind, cards)
    assert set(strains) == {0, 1, 5, 6} and min(strains.values()) >= 30, strains


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
    for game, opts in [("hearts", {}), ("hearts", {"players": 3, "scope": "match"}), ("joffre_whist", {}),
                       ("joffre_whist", {"scope": "match"}), ("gleek", {}), ("gleek", {"scope": "match"})]:
        g = _make(game, opts)
        fast = g.spec.run_batch(3, 0, 400, [0] * g.num_players)
        slow = g.spec.run_batch(3, 0, 400, [0] * g.num_players, lead_changes=True)
        for key in ("returns", "metrics", "decisions", "legal_sum", "first_player"):
            np.testing.assert_array_equal(fast[key], slow[key])
