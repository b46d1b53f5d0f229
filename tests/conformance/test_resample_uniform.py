"""Resample is uniform over the worlds consistent with what the observer knows (issues 9 and 14),
for every game, and never changes what the observer sees.

A world is everything the observer cannot see. The key of a world below lists its hidden zones:
  * Basra, Exposure, Gleek, Joffre Whist, Zhao Pengyou: the other seats' hands (the rest of the
    state follows from them);
  * Tien Gow: the other hands and every face-down discard of another seat, trick by trick (T8:
    a discard is seen only by its owner);
  * Six Tigers: the other hands (the dreamer's card included), the card set aside in the
    3-player game, and every face-down discard of another seat with its trick (read from that
    seat's own observation, which holds the trick of each card it played);
  * Samba: the other seats' cards that are not publicly known (taken from the pile), and the
    stock in its order: the resample draws the order (`write_world` lays the stock out as
    drawn and later draws take from its top), so the order is part of the hidden world.
Karnöffel hides an undealt stock; its uniformity is tested in tests/games/karnoffel/test_karnoffel.py.

Uniform means every deal of the physical cards that agrees with the observer's view is equally
likely, as from a shuffled pack. A world in which an unordered zone (a hand, a discard) holds c
copies of one identity gathers c! fewer such deals than one where the copies are told apart, so
its expected frequency is proportional to 1 / prod(c!) over its unordered zones and identities;
with one copy of every card (Six Tigers, the one-deck games) all worlds are equally likely.
Where no constraint limits the zones (Tien Gow without must_beat_if_able; Samba when no red three
is hidden), the observed worlds must also carry all the probability there is: the sum of their
weights equals n! / (prod n_k! * prod room_z!) over the hidden identities k and unordered zones z.

Positions with few worlds (2..40, counted from 100 resamples):
  * the hand games and Samba (2 players): late in seeded random deals;
  * Tien Gow and Six Tigers: face-down discards never become public, so a seeded full deal keeps
    thousands of worlds to its end; the positions are late in seeded random endgames instead:
    `scenario` with 2-3 random cards per hand from a seeded shuffle (the other cards played face
    up earlier), then random play. Samba with 4 players likewise (its other hands stay large to
    the end of a full deal): 1 card per hand, 2 in the stock, the rest in the pile.
At each position, for the observer (the seat to act, or the seat after it, whose view differs:
e.g. another seat's move under construction), 2,000 resamples of the true state and 2,000 of
another world the observer cannot tell from it: both follow the expected frequencies
(chi-square, p > 1e-4; every seed is fixed, so the test is deterministic), so nothing of the
truth leaks into the draw; every resampled state shows the observer exactly the observation of
the state it came from. Up to 3 positions (seeds) per case."""
import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

import cardsim
from cardsim.games import six_tigers, tien_gow
from cardsim.games.six_tigers.notation import mask_to_cards

HAND_GAMES = ("basra", "exposure", "gleek", "joffre_whist", "zhao_pengyou")
SAMPLES = 2000
MAX_WORLDS = 40


# ---- world keys: (unordered zones, ordered zones), each zone a tuple of card strings ----------

def hands_world(g, st, p):
    return tuple(tuple(st.hand(q)) for q in range(g.num_players) if q != p), ()


def tien_gow_world(g, st, p):
    v = g.spec.view(st)
    zones = [tuple(st.hand(q)) for q in range(4) if q != p]
    zones += [tuple(play["tiles"]) for trick in v["trick_log"] for q, play in sorted(trick["plays"].items())
              if q != p and not play["face_up"]]
    return tuple(zones), ()


ST_DECK = 37
ST_OWN_DOWN = 2 * ST_DECK + 4 * ST_DECK       # own hand, own old cards, face-up plays per seat
ST_TRICK_NO = ST_OWN_DOWN + ST_DECK           # then own face-down discards, then trick number + 1 /12
ST_CARDS = mask_to_cards((1 << ST_DECK) - 1)  # card strings by identity


def six_tigers_world(g, st, p):
    zones = [tuple(g.spec.view(st)["aside"])]
    for q in range(g.num_players):
        if q == p:
            continue
        zones.append(tuple(st.hand(q)))
        o = st.observation(q)
        by_trick = {}
        for c in np.flatnonzero(o[ST_OWN_DOWN:ST_OWN_DOWN + ST_DECK]):
            by_trick.setdefault(int(round(o[ST_TRICK_NO + c] * 12)) - 1, []).append(ST_CARDS[c])
        zones += [(f"trick {t}", *sorted(cards)) for t, cards in sorted(by_trick.items())]
    return tuple(zones), ()


def _hidden_part(v, q):
    return tuple(sorted((Counter(v["hands"][q]) - Counter(v["known"][q])).elements()))


def samba_world(g, st, p):
    v = g.spec.view(st)
    return tuple(_hidden_part(v, q) for q in range(g.num_players) if q != p), (tuple(v["stock"]),)


def weight(world):
    """Relative probability of a world under a uniform deal of the physical cards."""
    unordered, _ = world
    w = 1.0
    for zone in unordered:
        for c in Counter(card for card in zone if not card.startswith("trick ")).values():
            w /= math.factorial(c)
    return w


def total_weight(world):
    """Sum of weight() over every world that fills these zones, if no constraint forbids any."""
    unordered, ordered = world
    cards = [c for zone in unordered + ordered for c in zone if not c.startswith("trick ")]
    t = math.factorial(len(cards))
    for c in Counter(cards).values():
        t /= math.factorial(c)
    for zone in unordered:
        t /= math.factorial(len([c for c in zone if not c.startswith("trick ")]))
    return t


# ---- positions ----------------------------------------------------------------------------------

def from_deal(g, seed):
    return g.new_state(seed, 0)


def tien_gow_endgame(g, seed):
    tiles = tien_gow.shuffled_set(seed)
    n = 2 + seed % 2
    return tien_gow.scenario(g, [tiles[n * q:n * q + n] for q in range(4)], banker=seed % 4)


def six_tigers_endgame(g, seed):
    rng = np.random.default_rng(seed)
    cards = [ST_CARDS[i] for i in rng.permutation(ST_DECK)]
    N, dealer, n = g.num_players, seed % g.num_players, 2 + seed % 2
    dreamer = (dealer + 2) % 4 if N == 4 else -1
    hands, i = [], 0
    for q in range(N):
        k = 1 if q == dreamer else n
        hands.append(cards[i:i + k])
        i += k
    active = [q for q in range(N) if q != dreamer]
    rest = cards[i:len(cards) - (1 if N == 3 else 0)]      # 3 players: the last card goes aside
    played = [[] for _ in range(N)]
    for j, c in enumerate(rest):
        played[active[j % len(active)]].append(c)
    return six_tigers.scenario(g, hands, dealer=dealer, declarer=dealer, played=played, leader=dealer)


SAMBA_DECK = None


def samba_endgame(g, seed):
    """1 card per hand, 2 in the stock, the red threes exposed, every other card in the pile."""
    global SAMBA_DECK
    if SAMBA_DECK is None:
        v = g.spec.view(g.new_state(0, 0))
        SAMBA_DECK = sorted(sum(v["hands"], []) + v["stock"] + v["pile"] + sum(v["red3"], []))
    cards = [SAMBA_DECK[i] for i in np.random.default_rng(seed).permutation(len(SAMBA_DECK))]
    red = [c for c in cards if c in ("3H", "3D")]
    rest = [c for c in cards if c not in ("3H", "3D")]
    N = g.num_players
    sides = N // 2 if N in (4, 6) else N
    from cardsim.games.samba import scenario
    return scenario(g, [[c] for c in rest[:N]], dealer=seed % N, stock=rest[N:N + 2], pile=rest[N + 2:],
                           red3=[red if side == 0 else [] for side in range(sides)])


CASES = [pytest.param(game, {}, hands_world, from_deal, False, id=game) for game in HAND_GAMES] + [
    pytest.param("tien_gow", {}, tien_gow_world, tien_gow_endgame, True, id="tien_gow"),
    pytest.param("tien_gow", {"must_beat_if_able": True}, tien_gow_world, tien_gow_endgame, False,
                 id="tien_gow-must_beat"),
    pytest.param("six_tigers", {}, six_tigers_world, six_tigers_endgame, False, id="six_tigers"),
    pytest.param("six_tigers", {"players": 3, "old_tracking": "public"}, six_tigers_world,
                 six_tigers_endgame, False, id="six_tigers-3p-public"),
    pytest.param("samba", {"players": 2}, samba_world, from_deal, "no_hidden_red3", id="samba-2p"),
    pytest.param("samba", {}, samba_world, samba_endgame, "no_hidden_red3", id="samba-4p-endgame"),
]


def _worlds(st, p, world, g, n):
    out = set()
    for k in range(n):
        try:
            out.add(world(g, st.resample(p, k), p))
        except cardsim.CardsimError:
            pass
    return out


def _late_position(g, world, start, seed, after):
    """The latest state of the random playout of `start(g, seed)` where the observer (`after`
    seats after the seat to act) sees 2..MAX_WORLDS worlds, and that observer (or None). A
    resample that finds no world at all fails the test: the true world is consistent, and with
    so few hidden cards the policy's budget cannot miss it."""
    st = start(g, seed)
    rng = np.random.default_rng(seed)
    states = []
    while not st.is_terminal():
        states.append(st.clone())
        la = st.legal_actions()
        st.apply(int(la[rng.integers(len(la))]))
    for st in reversed(states):
        p = (st.current_player + after) % g.num_players
        n = len(_worlds(st, p, world, g, 100))
        assert n > 0, f"{g.name} seed {seed}: resample finds no world for seat {p}, the true one included:\n{st}"
        if 2 <= n <= MAX_WORLDS:
            return st, p
    return None, None


def _draw(g, world, st, p, first_seed):
    """SAMPLES resamples of st for p: the worlds drawn, counted; each keeps p's observation."""
    seen = st.observation(p)
    counts = Counter()
    for k in range(SAMPLES):
        r = st.resample(p, first_seed + k)
        assert np.array_equal(r.observation(p), seen), f"resample changed what seat {p} sees"
        counts[world(g, r, p)] += 1
    return counts


@pytest.mark.parametrize("after", [0, 1], ids=["seat to act", "next seat"])
@pytest.mark.parametrize("game, opts, world, start, complete", CASES)
def test_resample_is_uniform_late_in_a_deal(game, opts, world, start, complete, after):
    """From the true state and from another world the observer cannot tell from it (a resample
    of it), the worlds drawn follow the same expected frequencies: nothing of the truth leaks."""
    g = cardsim.make(game, **opts)
    tested = 0
    for seed in range(12):
        st, p = _late_position(g, world, start, seed, after)
        if st is None:
            continue
        truth = world(g, st, p)
        other = next(r for r in (st.resample(p, 500 + k) for k in range(200)) if world(g, r, p) != truth)
        drawn = {"the truth": _draw(g, world, st, p, 10_000), "another world": _draw(g, world, other, p, 20_000)}
        worlds = sorted(set(drawn["the truth"]) | set(drawn["another world"]))
        w = np.array([weight(x) for x in worlds])
        where = f"{game} {opts} seed {seed}, seat {p}: {len(worlds)} worlds"
        unconstrained = complete
        if complete == "no_hidden_red3":
            unconstrained = not any(c in ("3H", "3D") for zone in sum(truth, ()) for c in zone)
        if unconstrained:
            assert w.sum() == pytest.approx(total_weight(truth)), f"{where}: some worlds never drawn"
        for source, counts in drawn.items():
            observed = np.array([counts[x] for x in worlds])
            p_value = stats.chisquare(observed, SAMPLES * w / w.sum()).pvalue
            assert p_value > 1e-4, f"{where}, resampled from {source}: (frequency, expected) {sorted(zip(observed / SAMPLES, w / w.sum()))}"
        tested += 1
        if tested == 3:
            break
    assert tested >= 1, f"{game}: no late position with 2..{MAX_WORLDS} worlds found"
