"""Samba: the whole moves reachable through the engine's factored actions equal an independent
brute-force enumeration of the legal whole moves written from the rules (docs/rules/samba.md §4,
§8, §9; the reference is tests/games/samba_reference.py), on random small positions of every
preset; and cards are conserved (162, counted independently) at every step of random playouts of
every preset and player count."""
import random
from collections import Counter

import numpy as np
import pytest

import cardsim
from cardsim.games.samba import scenario

from . import samba_reference as ref

hyp = pytest.importorskip("hypothesis")
st = hyp.strategies

PRESETS = ("standard", "dutch", "hoyle", "official", "no_wild_on_natural")


# ---- the engine side: DFS over legal actions on clones until the whole move completes ----------
def quiescent(v):
    """Between whole moves: nothing staged, no pile group or initial batch or merge under way."""
    return (not v["staged"] and v["take_top"] is None and v["pile_take"] == 0 and v["merge_from"] is None
            and not v["must_go_out"] and v["phase"] != "answer"
            and not any(m["pending"] for side in v["melds"] for m in side))


def _full_key(v):
    return repr(sorted((k, v[k]) for k in v if k not in ("known", "deal_scores")))


def engine_moves(state):
    """{reference position: an engine state reaching it} for every whole move of the seat to act."""
    out = {}
    seen = set()
    spec = state.spec

    def walk(s):
        for a in s.legal_actions():
            c = s.clone()
            c.apply(int(a))
            v = spec.view(c)
            if quiescent(v):
                out.setdefault(ref.pos_from_view(v), c)
                continue
            k = _full_key(v)
            if k not in seen:
                seen.add(k)
                walk(c)

    walk(state)
    return out


def compare(state, rules, steps, rnd):
    """At the state and along a random path of whole moves within the turn (at most `steps`),
    the engine's whole moves equal the reference's."""
    mover = state.spec.view(state)["turn"]
    for _ in range(steps):
        v = state.spec.view(state)
        if v["phase"] == "end" or v["turn"] != mover:
            return
        pos = ref.pos_from_view(v)
        eng = engine_moves(state)
        brute = ref.whole_moves(pos, rules)
        missing, extra = brute - set(eng), set(eng) - brute
        assert not missing and not extra, (
            f"\nposition {pos}\nspec-legal, not reachable through the actions: {sorted(missing)}"
            f"\nreachable, not spec-legal: {sorted(extra)}")
        for kind in sorted({_kind(pos, r) for r in brute}):
            hyp.event(kind)
        nxt = sorted(eng, key=repr)
        if not nxt:
            return
        state = eng[rnd.choice(nxt)]


def _kind(pos, res):
    """A label of the whole move pos -> res (hypothesis statistics only)."""
    p = pos.turn
    if res.phase == "end":
        return f"end {res.end[0]}" + (" (black threes)" if any(
            ref.meld_kind(m, ref.Rules(2, 2, False, "allowed", False, False, False, False, 2)) == ("black3", None)
            for side in res.melds for m in side) else "")
    if pos.phase == "draw":
        if res.pile == pos.pile[:-1] and res.pile:
            return "take seq"
        if not res.pile:
            return "take " + ("pair, initial batch" if not pos.opened[p % 2] else "pile")
        return "draw"
    if res.req != pos.req:
        return "failed initial meld"
    if res.opened != pos.opened:
        return f"initial meld of {sum(len(s) for s in res.melds) - sum(len(s) for s in pos.melds)}"
    if res.turn != pos.turn:
        return "discard"
    return "meld/layoff/merge/red3"


# ---- random small positions --------------------------------------------------------------------
WILDS = ["2S", "2H", "JK"]
OTHER = ["3S", "3C", "3S", "9D"]
RUN = ["5S", "6S", "7S", "8S", "9S"]
CANASTAS = [["QS", "QS", "QH", "QH", "QD", "QD", "QC"], ["JH", "JH", "JD", "JD", "JC", "JC", "JS"],
            ["8H", "9H", "10H", "JH", "QH", "KH", "AH"], ["7H", "7H", "7D", "7D", "7C", "7C", "2C"]]
SCORES = [-200, 0, 1500, 3000, 5000, 7000]


def fits(*groups):
    c = Counter(x for g in groups for x in g)
    return all(n <= (6 if k == "JK" else 3) for k, n in c.items())


def trim(cards, *fixed):
    """`cards` without the copies the deck no longer holds once `fixed` are placed."""
    c = Counter(x for g in fixed for x in g)
    out = []
    for x in cards:
        if c[x] < (6 if x == "JK" else 3):
            c[x] += 1
            out.append(x)
    return out


@st.composite
def positions(draw, presets=PRESETS):
    """A position of seat 0 at the draw or the meld phase: a hand of a few cards around one or two
    focus ranks (so that groups, pile pairs and lay-offs occur), wilds, black threes; the side
    opened or not, with a few melds (groups of the focus ranks, sequences, 0-2 canastas); a pile
    whose top is often of a focus rank, over cards that may freeze it; a stock of 0-3 cards."""
    preset = draw(st.sampled_from(presets))
    penalize = draw(st.booleans())
    players = draw(st.sampled_from([2, 4]))
    opts = {"variant": preset, "players": players}
    if penalize:
        opts["insufficient_initial_meld"] = "penalize"
    g = cardsim.make("samba", **opts)
    rules = ref.Rules.of(g.options)
    ranks = draw(st.lists(st.sampled_from(ref.RANKS), min_size=1, max_size=2, unique=True))
    focus = [r + su for r in ranks for su in ref.SUITS]
    phase = draw(st.sampled_from(["draw", "meld"]))
    opened = draw(st.booleans())
    melds = []
    if opened:
        r = ranks[0]
        templates = [[r + "S", r + "H", r + "D"], [r + "C", r + "C", "2D"], [r + "S", r + "H", r + "D", r + "C"] * 1
                     + [r + "S", r + "H"], ["4S", "5S", "6S"], ["10S", "JS", "QS", "KS"], ["AD", "AD", "AC", "JK"],
                     ["9H", "10H", "JH", "QH", "KH", "AH"], ["3C", "3S", "3C"]]
        picked = draw(st.lists(st.integers(0, len(templates) - 1), max_size=3, unique=True))
        melds = [templates[i] for i in picked if i != 7 or draw(st.booleans())]
        melds += CANASTAS[:draw(st.sampled_from([0, 1, 2, 2, 2]))]
        if not melds:
            melds = [templates[0]]
    hyp.assume(fits(*melds) and all(ref.meld_kind(m, rules) for m in melds))
    pool = focus * 2 + RUN + WILDS + OTHER + (["3D", "3H"] if rules.manual else [])
    hand = draw(st.lists(st.sampled_from(pool), min_size=1 if phase == "meld" else 2, max_size=7))
    top = draw(st.sampled_from(focus * 2 + ["7S", "9S", "AS", "8H", "2S", "JK", "3S"]))
    under = draw(st.lists(st.sampled_from(["9C", "4D", "KC", "3H", "2D", "JK", "AC"]), max_size=3))
    stock = draw(st.lists(st.sampled_from(["9C", "4C", "KH", "3D", "3H", "5H"]), max_size=3))
    pile = under + [top]
    hyp.assume(fits(*melds, pile))
    stock = trim(stock, *melds, pile)
    hand = trim(hand, *melds, pile, stock)
    hyp.assume(len(hand) >= (1 if phase == "meld" else 2))
    cum = draw(st.sampled_from(SCORES))
    partner = trim(["9C", "4D"], *melds, pile, stock, hand)
    hands = [hand] + [partner] * (players - 1)
    hyp.assume(fits(*hands, *melds, pile, stock))
    side_melds = [melds] + [[] for _ in range(rules.sides - 1)]
    state = scenario(g, hands, pile=pile, melds=side_melds, opened=[opened] + [False] * (rules.sides - 1),
                     cum=[cum] + [0] * (rules.sides - 1), stock=stock, turn=0, dealer=players - 1, phase=phase)
    return g, rules, state, dict(hands=hands, melds=side_melds, pile=pile, stock=stock, opened=opened,
                                 cum=cum, phase=phase)


def intended(g, rules, facts):
    """The reference position the scenario describes (the start of a turn applied: §4.5)."""
    S = rules.sides
    table = g.options["initial_meld_table"]
    pos = ref.canon(ref.Pos(
        phase=facts["phase"], turn=0, hands=tuple(tuple(h) for h in facts["hands"]),
        melds=tuple(tuple(tuple(m) for m in ms) for ms in facts["melds"]), pile=tuple(facts["pile"]),
        stock=tuple(facts["stock"]), red3=((),) * S, opened=(facts["opened"],) + (False,) * (S - 1),
        req=(ref.requirement(facts["cum"], table),) + (ref.requirement(0, table),) * (S - 1),
        partner_no=False, end=()))
    return ref.start_turn(pos, 0, rules) if facts["phase"] == "draw" else pos


@hyp.settings(max_examples=400, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=positions(), path=st.integers(0, 2**32))
def test_factored_whole_moves_equal_brute_force(case, path):
    g, rules, state, facts = case
    assert ref.pos_from_view(g.spec.view(state)) == intended(g, rules, facts)
    compare(state, rules, 3, random.Random(path))


# ---- cards are conserved at every step ---------------------------------------------------------
def card_count(v):
    """Every card in the view, counted independently of the engine's own card_total."""
    c = Counter()
    for h in v["hands"]:
        c.update(h)
    for side in v["melds"]:
        for m in side:
            c.update(m["cards"])
    for r in v["red3"]:
        c.update(r)
    c.update(v["staged"])
    c.update(v["pile"])
    c.update(v["stock"])
    if v["take_top"]:
        c[v["take_top"]] += 1
    return c


FULL_DECK = Counter({f"{r}{s}": 3 for r in ("2", "3") + ref.RANKS for s in ref.SUITS} | {"JK": 6})


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset", PRESETS)
def test_cards_conserved_every_step(preset, players):
    g = cardsim.make("samba", variant=preset, players=players)
    rng = np.random.default_rng(players)
    st_ = g.new_state(seed=11, deal=players)
    steps = 0
    while not st_.is_terminal():
        assert card_count(g.spec.view(st_)) == FULL_DECK
        la = st_.legal_actions()
        st_.apply(int(la[rng.integers(len(la))]))
        steps += 1
    assert card_count(g.spec.view(st_)) == FULL_DECK
    assert sum(FULL_DECK.values()) == 162 and steps > 0
