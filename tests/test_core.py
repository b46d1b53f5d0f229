"""Core kernels: the frozen RNG stream (known answers), bit helpers, action sets, packed hands,
and the core mechanisms every game uses: shuffles, trick record, resample policy, staged moves,
spec installation, scenario states and the integer validator."""
import os
from pathlib import Path

import numpy as np
import pytest

from cardsim.core import _engine as e
from cardsim.core import _testing as t

M64 = (1 << 64) - 1


def _splitmix(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return x, z ^ (z >> 31)


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


def reference_stream(seed, deal, stream, n):
    """Independent pure-Python SplitMix64 keying + xoshiro256** (the documented algorithm)."""
    x, k = _splitmix(seed)
    x, k = _splitmix(k ^ deal)
    x, k = _splitmix(k ^ stream)
    x = k
    s = []
    for _ in range(4):
        x, z = _splitmix(x)
        s.append(z)
    out = []
    for _ in range(n):
        out.append((_rotl((s[1] * 5) & M64, 7) * 9) & M64)
        t = (s[1] << 17) & M64
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = _rotl(s[3], 45)
    return out


def test_rng_matches_reference_algorithm():
    for key in ((0, 0, 0), (1, 2, 3), (2**64 - 1, 12345, 0x101)):
        assert t.rng_known_answers(*key, 16) == reference_stream(*key, 16)


def test_rng_known_answers_frozen():
    assert t.rng_known_answers(1, 0, 0, 4) == EXPECTED_WORDS
    assert t.rng_known_answers(7, 3, 2, 8, 52) == EXPECTED_BELOW


def test_rng_streams_are_keyed_by_all_three():
    a = t.rng_known_answers(1, 2, 3, 4)
    assert a != t.rng_known_answers(2, 2, 3, 4)
    assert a != t.rng_known_answers(1, 3, 3, 4)
    assert a != t.rng_known_answers(1, 2, 4, 4)


def test_rng_below_uniform():
    draws = np.array(t.rng_known_answers(5, 0, 0, 60_000, 6))
    assert draws.min() == 0 and draws.max() == 5
    counts = np.bincount(draws, minlength=6)
    from scipy.stats import chisquare
    assert chisquare(counts).pvalue > 1e-4


def test_bit_helpers_against_python():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        x = int(rng.integers(1, 2**63)) | int(rng.integers(0, 2)) << 63
        bits = [i for i in range(64) if x >> i & 1]
        n = int(rng.integers(len(bits)))
        assert t._test_bit_nth(x, n) == bits[n]
        portable, pdep = t._test_bit_nth_paths(x, n)
        assert portable == bits[n] and pdep in (None, bits[n])


def test_bit_nth_paths_agree_on_every_index():
    """bit_nth uses PDEP where the CPU runs it fast, else a portable loop: both must pick the same
    bit for every n of words with every popcount, including the top bit and a full word."""
    rng = np.random.default_rng(7)
    words = [(1 << 64) - 1, 1 << 63, 0x8000000000000001] + [
        int(rng.integers(0, 2**63)) << 1 | int(rng.integers(0, 2)) for _ in range(300)]
    for x in words:
        bits = [i for i in range(64) if x >> i & 1]
        for n in range(len(bits)):
            portable, pdep = t._test_bit_nth_paths(x, n)
            assert portable == bits[n], (hex(x), n)
            assert pdep is None or pdep == bits[n], (hex(x), n)
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists() and os.environ.get("CARDSIM_NO_PDEP", "0") in ("", "0"):
        info = cpuinfo.read_text()
        if "GenuineIntel" in info and " bmi2" in info:
            assert t._test_fast_pdep()    # an Intel CPU with BMI2 takes the PDEP path
    assert e.build_info()["pdep"] is t._test_fast_pdep()   # one decision for every module


def test_cardsim_no_pdep_keeps_the_portable_pick_and_the_same_deals():
    """CARDSIM_NO_PDEP=1 at load turns the PDEP pick off (build_info says so) and every deal is the
    same: a batch of random deals of every game gives the same arrays either way."""
    import json
    import subprocess
    import sys
    script = (
        "import json, cardsim, numpy as np\n"
        "from cardsim.core import _engine as e\n"
        "out = {'pdep': e.build_info()['pdep']}\n"
        "for name in cardsim.GAMES:\n"
        "    g = cardsim.make(name)\n"
        "    r = g.spec.run_batch(3, 0, 40, [0] * g.spec.num_players)\n"
        "    out[name] = [np.asarray(r[k]).tolist() for k in sorted(r)]\n"
        "print(json.dumps(out))\n")
    runs = {}
    for flag in ("1", "0"):
        env = dict(os.environ, CARDSIM_NO_PDEP=flag)
        runs[flag] = json.loads(subprocess.run([sys.executable, "-c", script], env=env, check=True,
                                               capture_output=True, text=True).stdout)
    assert runs["1"].pop("pdep") is False
    runs["0"].pop("pdep")
    assert runs["1"] == runs["0"]


def test_action_set_ranges_against_python():
    rng = np.random.default_rng(1)
    for _ in range(500):
        lo, hi = sorted(int(v) for v in rng.integers(0, 1025, 2))
        got = t._test_add_range(lo, hi)
        assert got == list(range(lo, hi))


def test_packed_hand_layers():
    # add 3 copies of 5, 1 of 9, remove one 5: layers and counts as DESIGN §3 says
    layers, counts, size = t._test_hand([("add", 5), ("add", 5), ("add", 9), ("add", 5), ("remove", 5)], [5, 9, 1])
    assert layers == [(1 << 5) | (1 << 9), 1 << 5, 0, 0]
    assert counts == [2, 1, 0] and size == 3
    layers, counts, size = t._test_hand([("add", 63)] * 5 + [("remove", 1)], [63])
    assert counts == [4] and size == 4        # MAXCOPY = 4


# FROZEN: changing these values is a breaking change of every deal of every game.
EXPECTED_WORDS = [4502905892030763666, 8244539360862257095, 4796467816299365045, 2928150388969481134]
EXPECTED_BELOW = [19, 32, 7, 13, 47, 20, 48, 11]


def test_assign_zones_respects_allowed_zones_and_room():
    """The constrained deal used by resample: every card lands in an allowed zone and every zone
    gets exactly its room; with a feasible instance (built from a hidden true deal) one try succeeds
    often, and it reports a dead end instead of breaking a constraint."""
    rng = np.random.default_rng(7)
    successes = 0
    for trial in range(300):
        nz = int(rng.integers(2, 6))
        n = int(rng.integers(1, 40))
        truth = rng.integers(0, nz, n)                       # a consistent deal exists
        room = [int((truth == z).sum()) for z in range(nz)]
        allowed = [(1 << int(truth[c])) | int(rng.integers(0, 1 << nz)) for c in range(n)]
        got = t._test_assign_zones(list(range(n)), allowed, room, trial)
        if got is None:
            continue
        successes += 1
        assert all(allowed[c] >> z & 1 for c, z in enumerate(got))
        assert [got.count(z) for z in range(nz)] == room
    assert successes > 100                  # callers reshuffle and retry on a dead end
    assert t._test_assign_zones([0, 1], [0b01, 0b01], [1, 1], 0) is None   # infeasible: dead end


# ---- shuffles (core/_deal.pxd) ------------------------------------------------------------------
def reference_below(words, n):
    """rng_below(n) (Lemire multiply-shift with rejection) over an iterator of raw 64-bit words."""
    m = (next(words) >> 32) * n
    low = m & 0xFFFFFFFF
    if low < n:
        thr = ((1 << 32) - n) % n
        while low < thr:
            m = (next(words) >> 32) * n
            low = m & 0xFFFFFFFF
    return m >> 32


def test_shuffle_is_the_frozen_fisher_yates():
    """shuffle = for i from n-1 down to 1: swap(a[i], a[rng_below(i+1)]), the draw order every game
    has always used (an independent Python reference over the raw stream)."""
    for seed, n in ((1, 52), (9, 48), (123, 24), (5, 2), (5, 1), (5, 0)):
        words = iter(t.rng_known_answers(seed, 0, 0, 4 * n + 8))
        a = list(range(n))
        for i in range(n - 1, 0, -1):
            j = reference_below(words, i + 1)
            a[i], a[j] = a[j], a[i]
        assert t._test_shuffle(n, seed) == a


def test_shuffle_prefix_is_the_frozen_partial_fisher_yates():
    """shuffle_prefix(n, k) = for i in 0..k-1: swap(a[i], a[i + rng_below(n - i)]) (Karnöffel's
    deal draws 5N cards this way)."""
    for seed, n, k in ((1, 48, 20), (2, 48, 30), (3, 10, 10), (4, 10, 0), (5, 7, 1)):
        words = iter(t.rng_known_answers(seed, 0, 0, 4 * n + 8))
        a = list(range(n))
        for i in range(k):
            j = i + reference_below(words, n - i)
            a[i], a[j] = a[j], a[i]
        got = t._test_shuffle_prefix(n, k, seed)
        assert got == a and sorted(got) == list(range(n))


def test_shuffles_are_uniform():
    from itertools import permutations
    from scipy.stats import chisquare
    perms = {p: i for i, p in enumerate(permutations(range(4)))}
    counts = np.zeros(24)
    for seed in range(12_000):
        counts[perms[tuple(t._test_shuffle(4, seed))]] += 1
    assert chisquare(counts).pvalue > 1e-4
    pairs = {p: i for i, p in enumerate(permutations(range(5), 2))}
    counts = np.zeros(20)
    for seed in range(10_000):
        counts[pairs[tuple(t._test_shuffle_prefix(5, 2, seed)[:2])]] += 1
    assert chisquare(counts).pvalue > 1e-4


# ---- trick record (core/_trick.pxd) -------------------------------------------------------------
def test_trick_record_tracks_leader_order_cards_and_winner():
    r = t._test_trick(leader=2, size=4, plays=[(2, 17), (3, 5), (0, 40), (1, 8)], winner_pos=2)
    assert r["empty_before_start"] and r["leader_before"] == -1
    assert r["leader"] == 2 and r["n"] == 4 and r["done"] and not r["empty"]
    assert r["seats"] == [2, 3, 0, 1, -1]                 # play order; past the end: -1
    assert r["cards"] == r["card_at"] == [17, 5, 40, 8]   # cards in play order
    assert r["by_seat"][:4] == [40, 8, 17, 5] and set(r["by_seat"][4:]) == {-1}
    assert r["index_of"][:4] == [2, 3, 0, 1] and set(r["index_of"][4:]) == {-1}
    assert r["winner"] == 0                               # the seat of the play at position 2
    part = t._test_trick(leader=5, size=6, plays=[(5, 1), (0, 2)])
    assert not part["done"] and part["winner"] == -1 and part["seats"] == [5, 0, -1]
    multi = t._test_trick(leader=1, size=3, plays=[(1, None), (2, None), (0, None)], winner_pos=1)
    assert multi["done"] and multi["winner"] == 2 and set(multi["by_seat"]) == {-1}
    assert r["size_bytes"] <= 32                          # small: single-card games embed it



def test_trick_positional_mode_agrees_with_ordered_record_and_reopens_as_start():
    """Core's positional mode (Joffre Whist, Gleek): plays round the table without order[]; the
    positional helpers answer as the ordered helpers do on the same plays, order[] and winner
    stay -1, and trick_reopen leaves exactly trick_start's record for the winner."""
    rng = np.random.default_rng(11)
    for players in (3, 4, 6, 12):
        leader = int(rng.integers(players))
        tricks = []
        for _ in range(5):
            cards = [int(c) for c in rng.choice(100, players, replace=False)]
            tricks.append((cards, int(rng.integers(players))))
        out = t._test_trick_positional(players, leader, tricks)
        for (cards, wpos), res in zip(tricks, out):
            for k, st in enumerate(res["steps"]):
                assert st["n"] == k + 1
                assert st["done"] == st["done_ordered"] == (k + 1 == players)
                assert st["seats"] == st["seats_ordered"]
                assert st["cards"] == st["cards_ordered"] == cards[:k + 1]
                assert st["by_seat"] == st["by_seat_ordered"]
                assert st["order"] == [-1] * len(st["order"])     # order[] is not kept
            assert res["steps"][0]["seats"][0] == leader          # the trick was led by the leader
            assert res["winner"] == res["steps"][-1]["seats"][wpos]
            assert res["leader"] == res["winner"] and res["n"] == 0 and res["winner_field"] == -1
            assert res["reopened_equals_start"]
            leader = res["winner"]
    with pytest.raises(ValueError):
        t._test_trick_positional(4, 4, [])

# ---- resample policy (core/_resample.pxd) -------------------------------------------------------
def test_resample_zones_respects_allowed_zones_room_and_callback():
    rng = np.random.default_rng(3)
    for trial in range(200):
        nz = int(rng.integers(2, 5))
        n = int(rng.integers(1, 30))
        truth = rng.integers(0, nz, n)
        room = [int((truth == z).sum()) for z in range(nz)]
        allowed = [(1 << int(truth[c])) | int(rng.integers(0, 1 << nz)) for c in range(n)]
        need = min(room[0], 2)
        rule = (0, need, list(range(0, n, 2)))           # zone 0 holds >= need even cards
        if sum(1 for c in range(0, n, 2) if truth[c] == 0) < need:
            rule = None
        got, _ = t._test_resample_zones(list(range(n)), allowed, room, trial, min_rule=rule)
        assert got is not None                            # a consistent world exists: found
        assert all(allowed[c] >> z & 1 for c, z in enumerate(got))
        assert [got.count(z) for z in range(nz)] == room
        if rule:
            assert sum(1 for c in rule[2] if got[c] == 0) >= need


def test_resample_zones_reports_failure_instead_of_breaking_a_constraint():
    """No world satisfies the callback (zone 0 must hold 3 of cards 0,1 with room 2): every try is
    rejected and the policy returns failure, after both budgets, never a world that breaks it."""
    got, calls = t._test_resample_zones([0, 1, 2, 3], [0b11] * 4, [2, 2], 1, exact_tries=10,
                                        constrained_tries=20, min_rule=(0, 3, [0, 1]))
    assert got is None and calls == 30
    got, calls = t._test_resample_zones([0, 1], [0b01, 0b01], [1, 1], 1)   # per-card infeasible
    assert got is None and calls == 0


def test_resample_zones_exact_phase_is_uniform_over_consistent_worlds():
    """Enumerate every consistent world of a small instance; the policy's worlds (exact phase) are
    uniform over them (chi-square), including the callback's constraint."""
    from itertools import combinations
    from scipy.stats import chisquare
    cards = [0, 1, 2, 3, 4, 5]
    allowed = [0b011, 0b111, 0b110, 0b111, 0b101, 0b111]   # card 0 never in zone 2, ...
    room = [2, 2, 2]
    rule = (1, 1, [0, 1])                                  # zone 1 holds card 0 or 1
    worlds = []
    for z0 in combinations(cards, 2):
        for z1 in combinations([c for c in cards if c not in z0], 2):
            z = [0] * 6
            for c in z1:
                z[c] = 1
            for c in cards:
                if c not in z0 and c not in z1:
                    z[c] = 2
            if all(allowed[c] >> z[c] & 1 for c in cards) and any(z[c] == 1 for c in (0, 1)):
                worlds.append(tuple(z))
    index = {w: i for i, w in enumerate(worlds)}
    counts = np.zeros(len(worlds))
    for seed in range(6000):
        got, _ = t._test_resample_zones(cards, allowed, room, seed, exact_tries=200,
                                        constrained_tries=0, min_rule=rule)
        counts[index[tuple(got)]] += 1
    assert len(worlds) > 5 and counts.min() > 0
    assert chisquare(counts).pvalue > 1e-4


def test_resample_zones_constrained_phase_takes_over():
    """With no exact budget the constrained deal alone finds a world where plain rejection
    almost never would (each card pinned to one zone)."""
    n = 24
    allowed = [1 << (c % 3) for c in range(n)]
    got, _ = t._test_resample_zones(list(range(n)), allowed, [8, 8, 8], 4, exact_tries=0,
                                    constrained_tries=1)
    assert got == [c % 3 for c in range(n)]


# ---- staged moves (core/_staged.pxd) ------------------------------------------------------------
def test_staged_legal_adds_offer_only_completable_adds():
    """Basra-like capture choice: the chosen floor cards must stay a subset of one capture set;
    only adds that keep that possible are offered, at base + identity."""
    sets = [0b0111, 0b1001, 0b10000]                      # {0,1,2}, {0,3}, {4}
    r = t._test_staged([0], candidates=0b11110, sets=sets, base=100, kind=2, target=7)
    assert r["actions"] == [101, 102, 103] and r["count"] == 3   # 4 would break every set
    assert r["n"] == 1 and r["kind"] == 2 and r["target"] == 7 and r["cards"][0] == 1
    assert not r["active_before"] and r["active"]
    assert r["committed"] == 1 and r["committed_layer0"] == 1
    assert not r["active_after"] and r["n_after"] == 0 and r["kind_after"] == 0 and r["target_after"] == -1
    r = t._test_staged([0, 1], candidates=0b11100, sets=sets)
    assert r["actions"] == [2]
    r = t._test_staged([0, 3], candidates=0b10110, sets=sets)
    assert r["actions"] == [] and r["count"] == 0         # complete: only the game's commit remains
    r = t._test_staged([5, 5, 6], candidates=0b1100000, sets=None, removes=[5])
    assert r["actions"] == [5, 6] and r["n"] == 2 and r["cards"][5] == 1   # no callback: all offered


def test_staged_adds_copies_of_one_identity():
    """Multi-deck plays (Zhao Pengyou pairs): a second copy of an identity is a packed-hand layer;
    the test callback refuses doubles, so an identity already staged is not offered again."""
    r = t._test_staged([3], candidates=0b1000, sets=[0b1111])
    assert r["actions"] == []
    r = t._test_staged([3, 3], candidates=0, sets=None)
    assert r["cards"][3] == 2 and r["n"] == 2


# ---- spec installation, scenario states, the integer validator (core/_engine.pyx) ---------------
def test_install_computes_sizes_and_checks_limits():
    d = t._DummySpec(num_actions=130, players=3, obs_size=5, options={"x": 1})
    assert d.action_words == 3 and d.num_actions == 130 and d.num_players == 3
    assert d.name == "dummy" and d.metric_names == ("m",) and d.options == {"x": 1} and d.obs_size == 5
    assert t._DummySpec(num_actions=64).action_words == 1
    assert t._DummySpec(num_actions=1024).action_words == 16
    from cardsim.errors import CardsimError
    for bad in (dict(players=0), dict(players=13), dict(num_actions=0), dict(num_actions=1025),
                dict(returns_sum="sum"), dict(metric_names=("a", "a")), dict(name=""),
                dict(null_cfg=True), dict(skip=("legal",)), dict(skip=("resample", "greedy")),
                dict(skip=("metrics",)), dict(obs_size=-1)):
        with pytest.raises(CardsimError):
            t._DummySpec(**bad)
    assert t._DummySpec(skip=("metrics",), metric_names=()).metric_names == ()


def test_scenario_state_is_fresh_and_not_replayable():
    import copy
    d = t._DummySpec()
    s = d.new_state(1, 2)
    assert s.replayable and not s.resampled
    sc = d.scenario()
    assert not sc.replayable and sc.history() == [] and not sc.is_terminal()
    assert list(sc.legal_actions()) == [0]
    assert not sc.clone().replayable and not copy.deepcopy(sc).replayable
    assert not s.resample(0).replayable and s.replayable


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, 2.5, "1", None, [1], 1 + 0j])
def test_check_int_refuses_non_integers(value):
    from cardsim.errors import ConfigError
    with pytest.raises(ConfigError, match="must be an integer"):
        e.check_int(value, "x", 0, 10, ConfigError)


def test_check_int_accepts_ints_and_numpy_ints_in_range():
    from cardsim.errors import CardsimError
    assert e.check_int(3, "x", 0, 10) == 3 and type(e.check_int(np.int8(3), "x", 0, 10)) is int
    assert e.check_int(np.uint64(2**64 - 1), "seed", 0, 2**64 - 1) == 2**64 - 1
    for bad in (-1, 11, 2**63, np.uint64(2**64 - 1), -2**70):
        with pytest.raises(CardsimError, match="must be in 0..10"):
            e.check_int(bad, "x", 0, 10)
    with pytest.raises(CardsimError) as ei:
        e.check_int("9" * 500, "x", 0, 10)
    assert len(str(ei.value)) < 120                       # long inputs quoted only by a prefix


# ---- every State/GameSpec argument validated by check_int (issue 14) ----------------------------
@pytest.fixture
def kstate():
    import cardsim
    g = cardsim.make("karnoffel")
    return g, g.new_state(3, 1)


BAD_INTS = [1.7, 2.5, 1.0, None, "0", [0], True, np.bool_(False), 2**31, 2**63, -1, -(2**70),
            np.uint64(2**64 - 1), np.float64(1.0)]


@pytest.mark.parametrize("bad", BAD_INTS)
def test_state_player_arguments_are_validated(kstate, bad):
    from cardsim.errors import CardsimError
    g, st = kstate
    raw = st.state_bytes()
    for call in (st.hand, st.observation, st.resample):
        with pytest.raises(CardsimError, match="player"):
            call(bad)
    assert st.state_bytes() == raw


@pytest.mark.parametrize("bad", [1.5, -1, 2**64, None, "1", True, 1.0])
def test_seeds_are_validated(kstate, bad):
    from cardsim.errors import CardsimError, ConfigError
    g, st = kstate
    with pytest.raises(CardsimError, match="seed"):
        st.resample(0, seed=bad)
    with pytest.raises(CardsimError, match="seed"):
        g.spec.greedy_action(st, seed=bad)
    with pytest.raises(CardsimError, match="seed"):
        g.spec.ismcts_action(st, iterations=5, seed=bad)
    with pytest.raises(ConfigError, match="seed"):
        g.spec.new_state(bad, 0)
    with pytest.raises(CardsimError, match="seed"):
        g.spec.run_batch(bad, 0, 1, [0] * 4)


def test_valid_integer_arguments_of_every_kind_work(kstate):
    g, st = kstate
    p = st.current_player
    assert st.hand(np.int64(p)) == st.hand(p)
    assert np.array_equal(st.observation(np.uint8(p)), st.observation(p))
    assert st.resample(np.int32(0), seed=np.uint64(2**64 - 1)).hand(0) == st.hand(0)
    a = int(st.legal_actions()[0])
    assert st.action_to_string(np.int16(a)) == st.action_to_string(a)
    assert st.is_legal(np.int64(a)) and st.clone().apply(np.int64(a)).history() == [a]
    assert g.spec.new_state(np.uint64(3), np.int8(1)) == st


@pytest.mark.parametrize("bad", [True, False, np.bool_(True), 1.9, 1.0, None, "3", 2**63, -1, 2**64 - 1,
                                 np.uint64(2**64 - 1), np.float32(2.0)])
def test_actions_are_validated(kstate, bad):
    from cardsim.errors import IllegalActionError
    g, st = kstate
    raw = st.state_bytes()
    with pytest.raises(IllegalActionError):
        st.apply(bad)
    with pytest.raises(IllegalActionError):
        st.action_to_string(bad)
    assert st.state_bytes() == raw and st.history() == []


def test_is_legal_answers_for_any_integer_and_refuses_the_rest(kstate):
    from cardsim.errors import IllegalActionError
    g, st = kstate
    for v in (2**63, -1, -(2**70), np.uint64(2**64 - 1), g.num_actions):
        assert st.is_legal(v) is False
    for bad in (True, 1.0, None, "1"):
        with pytest.raises(IllegalActionError):
            st.is_legal(bad)


def test_batch_and_search_arguments_are_validated(kstate):
    from cardsim.errors import CardsimError
    g, st = kstate
    for kw in (dict(count=-1), dict(count=1.5), dict(start=-1), dict(agents=[0, 0, 0]),
               dict(agents=[0, 0, 0, 9]), dict(agents="0000"), dict(agents=[0, 0, 0, True]),
               dict(max_steps=0), dict(agents=[3, 0, 0, 0], ismcts_iterations=0),
               dict(agents=[3, 0, 0, 0], ismcts_c=float("nan"))):
        args = dict(seed=1, start=0, count=1, agents=[0] * 4) | kw
        with pytest.raises(CardsimError):
            g.spec.run_batch(**args)
    for kw in (dict(iterations=0), dict(iterations=1.5), dict(c=-1.0), dict(c=True), dict(c="x")):
        with pytest.raises(CardsimError):
            g.spec.ismcts_action(st, **kw)
    import cardsim
    other = cardsim.make("karnoffel", players=6).new_state(1, 1)
    with pytest.raises(CardsimError):
        g.spec.greedy_action(other)


# ---- search works on a private copy (issue 14: ismcts_action raced with apply) -------------------
def test_search_is_not_disturbed_by_another_thread_applying_to_the_state():
    import threading
    import time
    import cardsim
    g = cardsim.make("karnoffel", players=6, scope="match")
    st = g.new_state(5, 2)
    want = g.spec.ismcts_action(st.clone(), iterations=20000, seed=9)
    stop = threading.Event()

    def meddle():
        time.sleep(0.02)                  # after the search has taken its copy, during the search
        while not stop.is_set() and not st.is_terminal():
            st.apply(int(st.legal_actions()[0]))
            time.sleep(0.0005)

    th = threading.Thread(target=meddle)
    th.start()
    try:
        got = g.spec.ismcts_action(st, iterations=20000, seed=9)
    finally:
        stop.set()
        th.join()
    assert len(st.history()) > 0          # the other thread really played meanwhile
    assert got == want


# ---- the kernel's per-deal record of counters replaces play_one's lead-changes parameter ---------
def test_run_batch_keys_and_lead_changes_from_the_deal_record():
    import cardsim
    from cardsim.runner import lead_changes_of
    g = cardsim.make("karnoffel", scope="match")
    out = g.spec.run_batch(4, 10, 6, [1, 0, 1, 0], lead_changes=True)
    assert set(out) == {"returns", "actions", "decisions", "legal_sum", "metrics", "first_player",
                        "lead_changes", "lead_from"}
    assert "lead_changes" not in g.spec.run_batch(4, 10, 6, [1, 0, 1, 0])
    for i in range(6):
        assert out["lead_changes"][i] == lead_changes_of(g, 4, 10 + i, [1, 0, 1, 0])
        acts = e.kernel_actions(g.spec, 4, 10 + i, [1, 0, 1, 0])
        assert out["actions"][i] == len(acts)
        assert out["first_player"][i] == g.new_state(4, 10 + i).current_player


# ---- suit-major pack helpers (core/_suited.pxd), deal helpers, put_counts, resample_masks --------
def _ref_key(c, nranks, trump):
    return (c % nranks + (nranks if c // nranks == trump else 0), c)


def _bits(m):
    return [k for k in range(64) if m >> k & 1]


@pytest.mark.parametrize("nranks", [11, 13])
def test_suited_helpers_match_a_brute_force_reference(nranks):
    """follow_mask, lowest_by_rank, master_card, longest_side_suit, long_suit_lead and
    plain_beaters against straightforward Python on 2,000 random holdings and 1,000 tricks."""
    rng = np.random.default_rng(7)
    deck = 4 * nranks
    for _ in range(2000):
        cards = rng.permutation(deck)
        hand = sum(1 << int(c) for c in cards[:rng.integers(0, 14)])
        unseen = sum(1 << int(c) for c in cards[14:14 + rng.integers(0, 20)])
        trump = int(rng.integers(-1, 4))
        suit = lambda s: ((1 << nranks) - 1) << (nranks * s) if s >= 0 else 0
        led = int(rng.integers(-1, 4))
        want = hand & suit(led) or hand & suit(trump) or hand
        assert t._test_suited("follow", hand, nranks, trump, suit(led)) == want
        hc = _bits(hand)
        low = min(hc, key=lambda c: _ref_key(c, nranks, trump)) if hc else -1
        assert t._test_suited("lowest", hand, nranks, trump) == low
        masters = [c for c in hc if c // nranks != trump
                   and not any(u // nranks == c // nranks and u > c for u in _bits(unseen))]
        assert t._test_suited("master", hand, nranks, trump, unseen) == (masters[0] if masters else -1)
        counts = [(sum(1 for c in hc if c // nranks == s), -s) for s in range(4) if s != trump]
        best = max(counts)
        longest = -best[1] if best[0] > 0 else -1
        assert t._test_suited("longest", hand, nranks, trump) == longest
        lead = (min([c for c in hc if c // nranks == longest], key=lambda c: _ref_key(c, nranks, trump))
                if longest >= 0 else low)
        assert t._test_suited("lead", hand, nranks, trump) == lead
    for _ in range(1000):                                  # plain_beaters: brute-force tricks
        cards = [int(c) for c in rng.permutation(deck)]
        trick, hand = cards[:rng.integers(1, 4)], sum(1 << c for c in cards[4:4 + rng.integers(1, 10)])
        trump = int(rng.integers(-1, 4))

        def top(allc):
            return max([c for c in allc if c // nranks == trump]
                       or [c for c in allc if c // nranks == trick[0] // nranks])
        want = sum(1 << c for c in _bits(hand) if top(trick + [c]) == c)
        assert t._test_suited("beaters", hand, nranks, trump, top(trick)) == want


def test_shuffle_deal_four_is_the_pack_shuffled_then_dealt():
    """shuffle_deal_four (Joffre Whist's and Hearts' deal) gives the hands of shuffled_pack +
    deal_round_robin(batch 1) on the same stream, and leaves the stream where they leave it, for
    every table position of the first seat and pack sizes from 4 to 64; and its hands match an
    independent Fisher-Yates written here."""
    for n in (4, 8, 24, 32, 52, 64):
        for first in range(4):
            for seed in range(40):
                fused, two = t._test_shuffle_deal_four(n, first, seed, seed * 7)
                assert fused == two, (n, first, seed)
    fused, _ = t._test_shuffle_deal_four(52, 1, 11)
    pack = t._test_shuffle(52, 11)
    want = [0] * 4
    for i, c in enumerate(pack):
        want[(1 + i) % 4] |= 1 << c
    assert fused[0] == want
    with pytest.raises(ValueError):
        t._test_shuffle_deal_four(50, 0, 1)


def _dealt_by_position(n, runs, pack, up):
    """The pack dealt position by position: the seat of each position drawn (run r's d-th
    position to seat (r, d % nseats), or its card listed when nseats is 0), then the masks."""
    positions = list(range(n)) if up else list(range(n - 1, -1, -1))
    seat_of, k = {}, 0
    for r, (count, nseats) in enumerate(runs):
        for d in range(count):
            seat_of[positions[k]] = (r, d % nseats if nseats else d)
            k += 1
    out = [[0] * nseats if nseats else [None] * count for count, nseats in runs]
    for i, (r, slot) in seat_of.items():
        if runs[r][1]:
            out[r][slot] |= 1 << pack[i]
        else:
            out[r][slot] = pack[i]
    return out


def test_deal_as_drawn_is_the_pack_dealt_by_position():
    """deal_down / draw_down (deal_up / draw_up) give the cards of shuffled_pack (shuffle_prefix)
    dealt position by position, for the games' patterns (Joffre Whist and Hearts, Exposure, Six
    Tigers with 4 and 3 players, Karnöffel with 4 and 6), and random runs of 1-6 seats and single
    draws over packs of 1-64 cards, whole or in part; a deal that draws what the shuffle draws
    leaves the stream where it does."""
    import random
    rng = random.Random(26)
    patterns = [(52, [(52, 4)], False), (24, [(3, 1), (3, 0), (18, 2)], False),
                (37, [(33, 3), (4, 4)], False), (37, [(1, 0), (36, 3)], False),
                (48, [(4, 0), (16, 4)], True), (48, [(6, 0), (24, 6)], True), (1, [(1, 5)], False)]
    for _ in range(150):
        n, up = rng.randint(1, 64), rng.random() < 0.5
        total = n if rng.random() < 0.6 else rng.randint(1, n)
        runs = []
        while total:
            count = rng.randint(1, min(total, 20))
            runs.append((count, rng.randint(0, 6)))
            total -= count
        patterns.append((n, runs, up))
    for n, runs, up in patterns:
        for seed in range(12):
            (got, nxt), (pack, ref_nxt) = t._test_deal_as_drawn(n, runs, seed, up)
            assert got == _dealt_by_position(n, runs, pack, up), (n, runs, up, seed)
            if up or sum(c for c, _ in runs) == n:        # the same draws as the shuffle's
                assert nxt == ref_nxt, (n, runs, up, seed)
    for bad in ((0, [(1, 1)]), (4, [(5, 1)]), (4, [(2, 7)]), (4, [(0, 1)])):
        with pytest.raises(ValueError):
            t._test_deal_as_drawn(*bad, 1)


def test_shuffled_pack_and_deal_round_robin():
    """shuffled_pack draws exactly as fill_identity + shuffle; deal_round_robin gives card i to
    seat (first + i // batch) % nseats (Gleek: packets of 4 from eldest; Joffre Whist: one at a
    time from the dealer's left)."""
    for n, nseats, first, batch in ((52, 4, 3, 1), (36, 3, 2, 4), (18, 2, 1, 1)):
        pack, hands = t._test_deal(n, nseats, first, batch, 11)
        assert pack == t._test_shuffle(n, 11)
        want = [0] * nseats
        for i, c in enumerate(pack):
            want[(first + i // batch) % nseats] |= 1 << c
        assert hands == want


def test_hand_within_is_multiset_containment():
    """Brute force: sub within sup iff no identity occurs more often in sub (random small multisets)."""
    import collections
    import random
    rng = random.Random(5)
    for _ in range(2000):
        sub = [rng.randrange(6) for _ in range(rng.randrange(6))]
        sup = [rng.randrange(6) for _ in range(rng.randrange(9))]
        a, b = collections.Counter(sub), collections.Counter(sup)
        if max(list(a.values()) + list(b.values()) + [0]) > 4:
            continue
        assert t._test_hand_within(sub, sup) == all(a[k] <= b[k] for k in a), (sub, sup)
    assert t._test_hand_within([], []) and not t._test_hand_within([2, 2], [2])


def test_put_counts():
    got = t._test_put_counts([3, 3, 5, 7, 7, 7, 7], 0.25, 10)
    assert got == [0, 0, 0, 0.5, 0, 0.25, 0, 1.0, 0, 0]
    assert t._test_put_counts([1, 1, 2], 0.5, 4) == [0, 1.0, 0.5, 0]


def test_resample_masks_is_resample_zones_on_masks():
    """resample_masks lists the hidden cards in ascending order and returns the zones' masks: the
    same world as resample_zones on that list; forbidden cards never land in their zone."""
    hidden = sum(1 << c for c in (1, 4, 9, 17, 30, 41, 63))
    room = [3, 2, 2]
    forbid = [1 << 63, (1 << 1) | (1 << 4), 0]
    for seed in range(200):
        got = t._test_resample_masks(hidden, room, forbid, seed)
        cards = _bits(hidden)
        allowed = [0] * 64
        for c in cards:
            allowed[c] = sum(1 << z for z in range(3) if not forbid[z] >> c & 1)
        zones, _ = t._test_resample_zones(cards, allowed, room, seed)
        assert got == [sum(1 << c for c, z in zip(cards, zones) if z == q) for q in range(3)]
        assert not got[0] >> 63 & 1 and not got[1] & forbid[1]
        assert [bin(m).count("1") for m in got] == room and got[0] | got[1] | got[2] == hidden
    assert t._test_resample_masks(0b11, [1, 1], [0b11, 0], 1) is None        # infeasible: says so
    assert t._test_resample_masks(0b1111, [2, 2], None, 3) is not None


def test_disjoint_hands_validates_scenario_hands():
    """cardsim.core.notation.disjoint_hands: the scenario check every game shares (a list of N
    card lists, exact sizes when asked, no card twice across lists), ConfigError naming it."""
    import cardsim
    from cardsim.core.notation import SuitedPack, disjoint_hands
    pack = SuitedPack("test", ("2", "3", "4", "5"))
    masks, allm = disjoint_hands("test", [["2S", "3S"], ["4H"]], 2, pack.cards_to_mask)
    assert masks == [0b11, 1 << 6] and allm == 0b11 | 1 << 6
    for bad, kw in (([["2S"]], {}), ("2S", {}), ([["2S"], "3S"], {}), ([["2S"], ["2S"]], {}),
                    ([["2S"], ["3S"]], {"size": 2}), ([["2S"], ["3S"]], {"taken": 1})):
        with pytest.raises(cardsim.ConfigError, match="test"):
            disjoint_hands("test", bad, 2, pack.cards_to_mask, **kw)
    with pytest.raises(cardsim.ParseError):
        disjoint_hands("test", [["2S", "2S"], []], 2, pack.cards_to_mask)


def test_put_trick_cards_and_card_tricks():
    """The two observation blocks of single-card trick games: the current trick one-hot per seat
    (Joffre Whist, Karnöffel, Gleek) and (trick + 1) / ntricks per played card (Joffre Whist,
    Karnöffel, Exposure)."""
    out, a, b = t._test_put_trick(3, 5, [(1, 4), (2, 0)], [-1, 0, 2, -1], 4.0)
    assert (a, b) == (15, 4)
    want = [0.0] * 19
    want[1 * 5 + 4] = 1.0
    want[2 * 5 + 0] = 1.0
    want[15 + 1], want[15 + 2] = np.float32(1 / 4.0), np.float32(3 / 4.0)
    assert out == want


@pytest.mark.parametrize("name,kw", [("joffre_whist", {}), ("samba", {})])
def test_clone_history_is_copy_on_write(name, kw):
    """A clone shares its history buffer with the original until one of them appends: whatever
    order states and their clones apply in (past the first buffer's capacity, too), each state's
    history is exactly the actions applied to it and its struct equals a replay of that history.
    Samba's struct is larger than the State's inline storage and its deals outgrow the first
    history buffer; Joffre Whist's struct fits inline."""
    import random
    import cardsim
    g = cardsim.make(name, **kw)
    rng = random.Random(5)
    for deal in range(4):
        root = g.new_state(3, deal)
        pool = [(root, [])]
        for _ in range(600):
            i = len(pool) - 1 if rng.random() < 0.7 else rng.randrange(len(pool))
            st, hist = pool[i]
            if rng.random() < 0.3:
                pool.append((st.clone(), list(hist)))
                continue
            la = st.legal_actions()
            if len(la) == 0:
                continue
            a = int(la[rng.randrange(len(la))])
            st.apply(a)
            hist.append(a)
            if len(pool) > 12:
                pool.pop(rng.randrange(len(pool)))
        for st, hist in pool:
            assert st.history() == hist
            rep = g.new_state(3, deal)
            for a in hist:
                rep.apply(a)
            assert rep.state_bytes() == st.state_bytes()
