"""Canonical (seat-relative) observations, `VectorEnv(..., canonical=True)` and
`cardsim.vector.canonical_observation`: the acting seat is seat 0 of every block the layout
declares per seat (ObsBlock.seats / about_seat, src/cardsim/games/<game>/info.py).

- the canonical observation of seat p is the plain one with the declared per-seat blocks rotated
  by p, checked against a reconstruction written here from the layout declaration alone (numpy
  reshapes and rolls, not cardsim.info.canonical_source), in the kernel (VectorEnv) and in Python;
- symmetric positions agree: the same deal with every hand (and the dealer) moved r seats on gives
  every seat the same canonical observation as the seat r places before it, move after move;
- a policy trained and evaluated on canonical observations runs in VectorEnv in every game;
- every block whose meaning names a seat (or a seat's role) declares how it does.
"""
import numpy as np
import pytest

import cardsim
from cardsim.info import FIXED, GameInfo, ObsBlock, SeatField, one_hot_seat, per_seat
from cardsim.vector import VectorEnv, canonical_observation, canonical_permutation

# every game, and the configurations that change the number of seats or sides
CONFIGS = [(g, {}) for g in cardsim.GAMES] + [
    ("hearts", {"players": 3}), ("hearts", {"players": 5}), ("hearts", {"players": 6}),
    ("karnoffel", {"players": 6}), ("basra", {"players": 3}), ("basra", {"players": 2}),
    ("basra", {"partnership": False}), ("samba", {"players": 2}), ("samba", {"players": 3}),
    ("samba", {"players": 5}), ("samba", {"players": 6}), ("six_tigers", {"players": 3}),
    ("zhao_pengyou", {"players": 5}), ("zhao_pengyou", {"players": 7}), ("zhao_pengyou", {"players": 12}),
]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in CONFIGS]


def reference_canonical(info, options, obs, p):
    """Seat p's canonical observation rebuilt from the layout declaration: each seat field's slot
    axis (of every record) rolled so that slot j holds plain slot (p + j) mod n, n = players (or
    sides); each block about one seat replaced by its counterpart about seat (q + p) mod players."""
    n = options["players"]
    sides = info.sides(options)
    obs = np.asarray(obs, dtype=np.float32)
    out = obs.copy()
    off = info.obs_offsets()
    for b in info.observation:
        view = out[off[b.name]: off[b.name] + b.size]
        plain = obs[off[b.name]: off[b.name] + b.size]
        if b.about_seat is not None:
            if b.about_seat < n:
                twin = f"{b.seat_stem}_{(b.about_seat + p) % n}"
                view[:] = obs[off[twin]: off[twin] + b.size]
            continue
        if not isinstance(b.seats, tuple):
            continue
        for f in b.seats:
            record = f.record or b.size
            width = f.width or (record - f.offset) // f.slots
            m = n if f.of == "seat" else sides
            rec_in = plain.reshape(-1, record)[:, f.offset: f.offset + f.slots * width].reshape(-1, f.slots, width)
            rec_out = view.reshape(-1, record)
            rolled = np.roll(rec_in[:, :m], -(p % m), axis=1)
            rec_out[:, f.offset: f.offset + m * width] = rolled.reshape(rec_out.shape[0], m * width)
    return out


def _options(game):
    opts = dict(game.options)
    opts["players"] = game.num_players
    return opts


@pytest.mark.parametrize("name,opts", CONFIGS, ids=IDS)
def test_canonical_observation_is_the_declared_rotation(name, opts):
    """State API: for every seat p at every decision of a few random deals, the canonical
    observation equals the reference rotation of the plain one; seat 0's is the plain one; the
    observer block is always seat 0 and the canonical form holds the same floats (a rotation reveals
    nothing the seat does not see)."""
    g = cardsim.make(name, **opts)
    info, o = g.info, _options(g)
    obs_off = info.obs_offsets()["observer"]
    rng = np.random.default_rng(3)
    perm = canonical_permutation(g)
    for p in range(g.num_players):
        assert sorted(perm[p]) == list(range(g.observation_size)), "not a permutation"
    steps = 0
    for deal in range(3):
        s = g.new_state(5, deal)
        while not s.is_terminal() and steps < 120 * (deal + 1):
            for p in range(g.num_players):
                plain = s.observation(p)
                can = canonical_observation(s, p)
                np.testing.assert_array_equal(can, reference_canonical(info, o, plain, p), err_msg=f"seat {p}")
                np.testing.assert_array_equal(np.sort(can), np.sort(plain))
                assert can[obs_off] == 1.0
                if p == 0:
                    np.testing.assert_array_equal(can, plain)
            legal = s.legal_actions()
            s.apply(int(rng.choice(legal)))
            steps += 1


@pytest.mark.parametrize("name,opts", CONFIGS, ids=IDS)
def test_vector_env_canonical_matches_the_reference_rotation(name, opts):
    """The kernel's canonical observations (VectorEnv canonical=True, every seat a learner) are the
    reference rotation of the plain VectorEnv's, by the seat to act, step after step, final
    observations included."""
    N = 4
    plain = VectorEnv(name, N, seed=11, **opts)
    canon = VectorEnv(name, N, seed=11, canonical=True, **opts)
    info, o = plain.game.info, _options(plain.game)
    plain.reset()
    canon.reset()
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(150):
        np.testing.assert_array_equal(plain.current_player, canon.current_player)
        for i in range(N):
            ref = reference_canonical(info, o, plain.obs[i], int(plain.current_player[i]))
            np.testing.assert_array_equal(canon.obs[i], ref)
        acts = np.array([rng.choice(np.flatnonzero(plain.legal_mask[i])) for i in range(N)])
        _, _, _, _, ip = plain.step(acts)
        _, _, _, _, ic = canon.step(acts)
        np.testing.assert_array_equal(plain.final, canon.final)
        for i in np.flatnonzero(plain.final):
            # the final observation is the seat that made the deal's last decision: rotated by it
            seat = next(p for p in range(plain.num_players)
                        if np.array_equal(canon.final_obs[i], reference_canonical(info, o, plain.final_obs[i], p)))
            assert reference_canonical(info, o, plain.final_obs[i], seat)[info.obs_offsets()["observer"]] == 1.0
            finals += 1
    assert finals > 0 or name in ("zhao_pengyou", "samba")


def _rot(hands, r):
    """hands moved r seats on: seat q + r gets what seat q had."""
    n = len(hands)
    return [hands[(q - r) % n] for q in range(n)]


def _rotated_scenarios():
    """(game, options, build(game, source state, r) -> State): the source deal with every hand,
    the dealer (banker, starter) and the seat-indexed public facts moved r seats on."""
    def hands_of(g, s):
        return [list(s.hand(q)) for q in range(g.num_players)]

    def hearts(g, s, r):
        n = g.num_players
        return g.spec.scenario(_rot(hands_of(g, s), r), dealer=(n - 1 + r) % n)

    def joffre(g, s, r):
        return g.spec.scenario(_rot(hands_of(g, s), r), dealer=(3 + r) % 4)

    def karnoffel(g, s, r):
        return g.spec.scenario(_rot(hands_of(g, s), r), dealer=r % g.num_players)

    def tien_gow(g, s, r):
        return g.spec.scenario(_rot(hands_of(g, s), r), banker=r % 4)

    def six_tigers(g, s, r):
        v = g.spec.view(s)
        return g.spec.scenario(_rot(hands_of(g, s), r), dealer=(v["dealer"] + r) % g.num_players)

    def exposure(g, s, r):
        v = g.spec.view(s)
        return g.spec.scenario(_rot(hands_of(g, s), r), table=[v["high_card"], v["trump_card"], v["contract_card"]],
                               dealer=(v["dealer"] + r) % 2)

    def gleek(g, s, r):
        v = g.spec.view(s)
        return g.spec.scenario(_rot(hands_of(g, s), r), turnup=v["turnup"], dealer=(v["dealer"] + r) % 3)

    def basra(g, s, r):
        v = g.spec.view(s)
        return g.spec.scenario(_rot(hands_of(g, s), r), floor=v["floor"], stock=v["stock"],
                               dealer=(v["dealer"] + r) % g.num_players)

    def zhao(g, s, r):
        return g.spec.scenario(None, seed=1, deal=0, starter=(g.spec.view(s)["starter"] + r) % g.num_players)

    def samba(g, s, r):
        v = g.spec.view(s)
        n = g.num_players
        return g.spec.scenario(_rot(hands_of(g, s), r), dealer=(v["dealer"] + r) % n, turn=(v["turn"] + r) % n,
                               pile=v["pile"], stock=v["stock"], first_turn_done=False)

    return [("samba", {}, samba), ("samba", {"players": 6}, samba), ("samba", {"players": 3}, samba),
            ("hearts", {}, hearts), ("hearts", {"players": 5}, hearts), ("joffre_whist", {}, joffre),
            ("karnoffel", {}, karnoffel), ("karnoffel", {"players": 6}, karnoffel), ("tien_gow", {}, tien_gow),
            ("six_tigers", {}, six_tigers), ("six_tigers", {"players": 3}, six_tigers), ("exposure", {}, exposure),
            ("gleek", {}, gleek), ("basra", {}, basra), ("basra", {"players": 3}, basra),
            ("zhao_pengyou", {}, zhao), ("zhao_pengyou", {"players": 5}, zhao),
            # matches: the side scores (Joffre Whist's NS / EW, Basra's sides) carry across deals
            ("joffre_whist", {"scope": "match", "all_pass": "dealer_bids"}, joffre),
            ("karnoffel", {"scope": "match"}, karnoffel), ("basra", {"scope": "match"}, basra)]


@pytest.mark.parametrize("name,opts,build", _rotated_scenarios(),
                         ids=[n + "".join(f"-{k}={v}" for k, v in o.items()) for n, o, _ in _rotated_scenarios()])
def test_symmetric_positions_have_the_same_canonical_observation(name, opts, build):
    """The same position with every hand and the dealer r seats on: seat q + r's canonical
    observation equals seat q's in the original, at the start (the same hand dealt to another
    seat gives the same canonical own-hand block and everything else) and after every move of a
    random playout made in both (an action names cards, not seats)."""
    g = cardsim.make(name, **opts)
    n = g.num_players
    src = g.new_state(1, 0)
    rng = np.random.default_rng(1)
    for r in range(1, n):
        a, b = build(g, src, 0), build(g, src, r)
        moves = 0
        while not a.is_terminal() and moves < 1500:
            assert b.current_player == (a.current_player + r) % n
            for q in range(n):
                np.testing.assert_array_equal(canonical_observation(b, (q + r) % n), canonical_observation(a, q),
                                              err_msg=f"r={r} seat {q} after {moves} moves")
            act = int(rng.choice(a.legal_actions()))
            assert b.is_legal(act)
            a.apply(act)
            b.apply(act)
            moves += 1
        assert moves > 0
        np.testing.assert_allclose(np.roll(b.returns(), -r), a.returns()) if a.is_terminal() else None


def test_same_hand_at_another_seat_gives_the_same_canonical_hand_block():
    """Joffre Whist: one 13-card hand dealt to each seat in turn (others rotated with it): the
    canonical own-hand, played and trick blocks of the holder are identical."""
    g = cardsim.make("joffre_whist")
    src = g.new_state(4, 2)
    hands = [list(src.hand(q)) for q in range(4)]
    off, info = g.info.obs_offsets(), g.info
    blocks = [b for b in info.observation if b.name in ("hand", "played", "trick", "dealer", "turn")]
    first = None
    for r in range(4):
        s = g.spec.scenario([hands[(q - r) % 4] for q in range(4)], dealer=(3 + r) % 4)
        can = canonical_observation(s, r)
        got = np.concatenate([can[off[b.name]: off[b.name] + b.size] for b in blocks])
        first = got if first is None else first
        np.testing.assert_array_equal(got, first)
        plain = s.observation(r)
        assert plain[off["observer"] + r] == 1.0 and can[off["observer"]] == 1.0


def _logits(W, obs, mask):
    """A linear policy's masked logits, summed over each observation's nonzero floats (the
    observations are sparse; this avoids a dense BLAS product per step)."""
    out = np.empty((obs.shape[0], W.shape[1]))
    for i, o in enumerate(obs):
        nz = np.flatnonzero(o)
        out[i] = o[nz] @ W[nz]
    out[~mask] = -np.inf
    return out


@pytest.mark.parametrize("name", cardsim.GAMES)
def test_a_policy_trains_and_plays_on_canonical_observations(name):
    """A masked linear softmax policy learns (REINFORCE steps) from canonical observations of a
    learner seat against in-kernel random opponents, then is evaluated greedily: every observation
    is finite and has the observer at slot 0, normalized episode returns lie in [-1, 1], and
    episodes end (or are truncated) in every game."""
    opts = {"all_pass": "dealer_bids"} if name == "joffre_whist" else {}
    env = VectorEnv(name, 8, seed=2, learner_seats=[1], opponents="random", canonical=True,
                    normalize_rewards=True, max_episode_steps=400, **opts)
    obs_off = env.game.info.obs_offsets()["observer"]
    rng = np.random.default_rng(0)
    W = np.zeros((env.observation_size, env.num_actions))
    G = np.zeros_like(W)
    obs, info = env.reset(seed=2)
    done_eps = 0
    for t in range(300):
        assert np.isfinite(obs).all() and (obs[:, obs_off] == 1.0).all()
        assert (info["current_player"] == 1).all()
        logits = _logits(W, obs, info["action_mask"])
        pr = np.exp(logits - logits.max(1, keepdims=True))
        pr /= pr.sum(1, keepdims=True)
        acts = np.array([rng.choice(env.num_actions, p=pr[i]) for i in range(env.num_envs)])
        for i in range(env.num_envs):                   # d log pi(a_i) / dW, on the nonzero floats
            g = -pr[i]
            g[acts[i]] += 1.0
            nz = np.flatnonzero(obs[i])
            G[nz] += np.outer(obs[i, nz], g)
        obs, rew, term, trunc, info = env.step(acts)
        if rew.any():
            W += 0.01 * float(rew.mean()) * G
            G[:] = 0
        done_eps += int((term | trunc).sum())
    assert np.isfinite(W).all() and W.any()
    obs, info = env.reset(seed=3)                        # evaluation: greedy on the learned weights
    ret = np.zeros(env.num_envs)
    for t in range(300):
        obs, rew, term, trunc, info = env.step(_logits(W, obs, info["action_mask"]).argmax(1))
        assert (obs[:, obs_off] == 1.0).all()
        ret += rew
        assert (np.abs(ret[term]) <= 1 + 1e-9).all()      # normalized: an episode's return is in [-1, 1]
        ret[term | trunc] = 0
        done_eps += int((term | trunc).sum())
    assert done_eps > 0 or name in ("zhao_pengyou", "samba")


# ---- the declaration covers every block that names seats -----------------------------------------

@pytest.mark.parametrize("name", cardsim.GAMES)
def test_every_block_that_names_a_seat_declares_how(name):
    info = cardsim.make(name).info
    assert info.untagged_seat_blocks() == [], (
        f"{name}: blocks whose meaning names a seat must say how (ObsBlock seats=per_seat(n) / one_hot_seat(n) / "
        f"per_side(n) / SeatField(...) / 'fixed', or about_seat=q): {info.untagged_seat_blocks()}")
    assert any(b.seat_fields for b in info.observation)


def _fake_info(blocks, **kw):
    return GameInfo(name="fake", title="Fake", players=(3,), default_players=3, teams="none", unit="points",
                    returns_sum="zero", options=(), presets={}, metrics=(), observation=blocks,
                    return_bounds=lambda o: (-1, 1), max_game_length=lambda o: 10, **kw)


def test_an_untagged_seat_block_is_caught():
    """A new block that mentions a seat (or a role: dealer, leader, side ...) but declares nothing
    is reported; declaring it (per seat, or 'fixed') clears the report."""
    blocks = (ObsBlock("hand", 5, "own hand"), ObsBlock("leader", 3, "seat that led the trick"),
              ObsBlock("dealer_cards", 3, "cards the dealer showed"), ObsBlock("stake", 1, "stake / 100"))
    assert _fake_info(blocks).untagged_seat_blocks() == ["leader", "dealer_cards"]
    fixed = (blocks[0], ObsBlock("leader", 3, "seat that led the trick", seats=one_hot_seat(3)),
             ObsBlock("dealer_cards", 3, "cards the dealer showed", seats=FIXED), blocks[3])
    assert _fake_info(fixed).untagged_seat_blocks() == []


def test_malformed_seat_declarations_are_refused():
    for kw in ({"seats": per_seat(4)},                          # 6 floats are not 4 slots
               {"seats": SeatField(3, width=3)},                 # 9 floats > 6
               {"seats": SeatField(3, record=4)},                # 6 floats are not records of 4
               {"seats": SeatField(3, of="team")},               # unknown index
               {"seats": "rotate"}, {"seats": (per_seat(3), per_seat(3))},   # overlap
               {"about_seat": 1}):                               # name must end in _1
        with pytest.raises(cardsim.ConfigError):
            _fake_info((ObsBlock("x", 6, "per seat", **kw),))
    with pytest.raises(cardsim.ConfigError, match="slots"):             # fewer slots than seats
        _fake_info((ObsBlock("x", 2, "per seat", seats=per_seat(2)),))
    no_sides = _fake_info((ObsBlock("x", 2, "per side", seats=SeatField(2, of="side")),))
    with pytest.raises(cardsim.ConfigError, match="sides"):             # side slots, no sides
        no_sides.canonical_source({}, 1)
    with pytest.raises(cardsim.ConfigError, match="side slots"):        # 2 side slots for 3 sides
        _fake_info((ObsBlock("x", 2, "per side", seats=SeatField(2, of="side")),), sides=3).canonical_source({}, 1)
    with pytest.raises(cardsim.ConfigError, match="seat p"):
        _fake_info((ObsBlock("x", 3, "per seat", seats=per_seat(3)),)).canonical_source({}, 3)
    with pytest.raises(cardsim.ConfigError, match="about_seat"):        # missing counterparts
        _fake_info((ObsBlock("x_0", 2, "seat 0", about_seat=0), ObsBlock("x_1", 2, "seat 1", about_seat=1)))


def test_canonical_source_of_a_declared_layout():
    """canonical_source on a small layout: groups, one-hots with a trailing 'none' slot, fields
    inside records, side fields and blocks about one seat."""
    blocks = (ObsBlock("hand", 2, "own"), ObsBlock("played", 6, "per seat", seats=per_seat(3)),
              ObsBlock("who", 4, "seat one-hot, slot 3 = none", seats=SeatField(3, width=1)),
              ObsBlock("meta", 8, "per record: seat one-hot (3), size (1)", seats=SeatField(3, width=1, record=4)),
              ObsBlock("a_0", 1, "seat 0", about_seat=0), ObsBlock("a_1", 1, "seat 1", about_seat=1),
              ObsBlock("a_2", 1, "seat 2", about_seat=2))
    info = _fake_info(blocks)
    x = np.arange(info.obs_size)
    assert list(x[info.canonical_source({}, 0)]) == list(x)
    assert list(x[info.canonical_source({}, 1)]) == [0, 1, 4, 5, 6, 7, 2, 3, 9, 10, 8, 11, 13, 14, 12, 15,
                                                       17, 18, 16, 19, 21, 22, 20]
    assert list(x[info.canonical_source({}, 2)]) == [0, 1, 6, 7, 2, 3, 4, 5, 10, 8, 9, 11, 14, 12, 13, 15,
                                                       18, 16, 17, 19, 22, 20, 21]


def test_canonical_is_refused_without_per_seat_blocks():
    from types import SimpleNamespace

    blocks = (ObsBlock("hand", 3, "own hand"),)
    fake = SimpleNamespace(name="fake", num_players=3, observation_size=3, options={},
                           info=_fake_info(blocks))
    with pytest.raises(cardsim.ConfigError, match="canonical"):
        canonical_permutation(fake)


def test_canonical_observation_checks_its_arguments():
    g = cardsim.make("karnoffel")
    s = g.new_state(0, 0)
    for bad in (-1, 4, 1.0, "0", None):
        with pytest.raises(cardsim.ConfigError):
            canonical_observation(s, bad)
    with pytest.raises(cardsim.ConfigError):
        canonical_observation("state", 0)
    out = np.empty(g.observation_size, np.float32)
    assert canonical_observation(s, 2, out) is out
    np.testing.assert_array_equal(out, canonical_observation(s, 2))
    with pytest.raises(cardsim.ConfigError):
        canonical_observation(s, 2, np.empty(3, np.float32))
    for bad in ("yes", 1, None):
        with pytest.raises(cardsim.ConfigError, match="canonical"):
            VectorEnv("karnoffel", 1, canonical=bad)


@pytest.mark.parametrize("name", ["karnoffel", "basra", "exposure"])
def test_pettingzoo_canonical_observations(name):
    """cardsim.pettingzoo.env(game, canonical=True): every agent's observation is the canonical
    form of its plain one (as canonical_observation gives it), through a whole deal; the option
    is checked."""
    from cardsim.pettingzoo import env as pz_env

    plain, canon = pz_env(name), pz_env(name, canonical=True)
    plain.reset(seed=4)
    canon.reset(seed=4)
    info, o = plain.game.info, _options(plain.game)
    rng = np.random.default_rng(2)
    steps = 0
    for agent in canon.agent_iter():
        obs, _, term, trunc, _ = canon.last()
        p = canon.possible_agents.index(agent)
        ref = reference_canonical(info, o, plain.observe(agent)["observation"], p)
        np.testing.assert_array_equal(obs["observation"], ref)
        np.testing.assert_array_equal(obs["observation"], canonical_observation(canon.state, p))
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        canon.step(action)
        plain.step(action)
        steps += 1
    assert steps > 4
    with pytest.raises(cardsim.ConfigError, match="canonical"):
        pz_env(name, canonical="yes")
