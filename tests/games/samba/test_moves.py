"""Samba: the whole moves reachable through the engine's factored actions (a DFS over legal actions
on clones until the move completes; every action it takes leaves a legal action or the end of the
deal, so no legal action leads into a dead end) equal an independent brute-force enumeration of the legal
whole moves written from the rules (docs/rules/samba.md §4, §8, §9; the reference, in plain
Python, is tests/games/samba_reference.py).

- test_factored_whole_moves_equal_brute_force: random small positions of every preset, 2-6
  players, reject/penalize, side scores for every requirement band, the side opened or not, a
  pile with natural, wild or black-three tops over cards that may freeze it, stocks of 0-3 cards;
  compared at the start and along a random path of whole moves through the turn (draw decision
  with every pile take and the initial batch, melds, lay-offs, merges, black threes, red threes,
  the discard, going out, the next turn's start with an empty stock).
- the spec's worked examples EX-S2..S6, S11, S14, S16 through the same comparison;
- initial melds with larger hands (from the hand and through the pile: equal); initial batches
  that empty the hand (test_initial_batch_going_out_equals_brute_force: hands near
  going_out_min_canastas 1 or 2 canastas, at the draw and in the meld phase, compared like the
  first test; examples with 1 and 2 canastas);
- test_go_out_query_exact: at 4 and 6 players, ASK is offered exactly when a going-out plan exists
  (any plan: melds, sequences, lay-offs, merges, black threes, an initial batch, a discard) and
  'yes' leads exactly to the ends of the legal plans;
- test_cards_conserved_every_step: 162 cards, counted from the public view (not the engine's own
  card_total), at every step of a random playout of every preset at 2..6 players.
"""
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
            assert c.is_terminal() or c.legal_actions().size, (
                f"dead end: {s.action_to_string(int(a))} leaves no legal action (S-D10)\n{c}")
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


def compare(state, rules, steps, rnd, events=False):
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
        labels = {_kind(pos, r) for r in brute} if events else set()
        if events and pos.phase == "draw":
            labels |= {f"take {k}" + ("" if pos.opened[0] else " (initial batch)") for k, _ in ref.takes(pos, rules)}
        for kind in sorted(labels):
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
        return "draw decision"
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
FILLERS = [["9C", "4D"], ["9H", "4H"], ["10C", "5D"], ["10D", "6D"], ["JC", "6C"]]


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
    players = draw(st.sampled_from([2, 2, 3, 4, 4, 5, 6]))
    opts = {"variant": preset, "players": players}
    if draw(st.booleans()):
        opts["insufficient_initial_meld"] = "penalize"
    if draw(st.integers(0, 5)) == 0:
        opts["going_out_min_canastas"] = draw(st.sampled_from([1, 3]))
    g = cardsim.make("samba", **opts)
    rules = ref.Rules.of(g.options)
    ranks = draw(st.lists(st.sampled_from(ref.RANKS), min_size=1, max_size=2, unique=True))
    focus = [r + su for r in ranks for su in ref.SUITS]
    phase = draw(st.sampled_from(["draw", "meld"]))
    opened = draw(st.booleans())
    r = ranks[0]
    templates = [[r + "S", r + "H", r + "D"], [r + "C", r + "C", "2D"], [r + "S", r + "H", r + "D", r + "C", r + "S", r + "H"],
                 ["4S", "5S", "6S"], ["10S", "JS", "QS", "KS"], ["AD", "AD", "AC", "JK"],
                 ["9H", "10H", "JH", "QH", "KH", "AH"], ["3C", "3S", "3C"]]
    melds = []
    if opened:
        picked = draw(st.lists(st.integers(0, len(templates) - 1), max_size=3, unique=True))
        melds = [templates[i] for i in picked if i != 7 or draw(st.booleans())]
        melds += CANASTAS[:draw(st.sampled_from([0, 1, 2, 2, 2]))]
        if rules.seq_take and templates[3] not in melds and draw(st.booleans()):
            melds.append(templates[3])                    # a sequence the Dutch top-card take extends
        if not melds:
            melds = [templates[0]]
    # the next side may hold a meld the top card or the hand would fit (never usable by seat 0)
    theirs = [templates[i] for i in draw(st.lists(st.sampled_from([0, 3]), max_size=1))]
    hyp.assume(fits(*melds, *theirs) and all(ref.meld_kind(m, rules) for m in melds + theirs))
    pool = focus * 2 + RUN + WILDS + OTHER + (["3D", "3H"] if rules.manual else [])
    hand = draw(st.lists(st.sampled_from(pool), min_size=1 if phase == "meld" else 2, max_size=7))
    top = draw(st.sampled_from(focus * 2 + ["7S", "7S", "9S", "AS", "8H", "2S", "JK", "3S"]))
    if rules.seq_take and templates[3] in melds and draw(st.booleans()):
        top = "7S"                                            # extends 4S 5S 6S
    if ref.is_natural(top) and draw(st.booleans()):
        hand += [ref.rank(top) + "S", ref.rank(top) + "H"]    # a natural pair for the pile
    under = draw(st.lists(st.sampled_from(["9C", "4D", "KC", "3H", "2D", "JK", "AC"]), max_size=3))
    stock = draw(st.lists(st.sampled_from(["9C", "4C", "KH", "3D", "3H", "5H"]), max_size=3))
    pile = under + [top]
    hyp.assume(fits(*melds, *theirs, pile))
    stock = trim(stock, *melds, *theirs, pile)
    hand = trim(hand, *melds, *theirs, pile, stock)
    hyp.assume(len(hand) >= (1 if phase == "meld" else 2))
    cum = draw(st.sampled_from(SCORES))
    hands = [hand]
    for q in range(1, players):
        hands.append(trim(FILLERS[q - 1], *melds, *theirs, pile, stock, *hands))
    side_melds = [melds] + [[] for _ in range(rules.sides - 1)]
    side_melds[1] = theirs
    side_opened = [opened, bool(theirs)] + [False] * (rules.sides - 2)
    state = refusable(g, hands, pile=pile, melds=side_melds, opened=side_opened,
                      cum=[cum] + [0] * (rules.sides - 1), stock=stock, turn=0, dealer=players - 1, phase=phase)
    return g, rules, state, dict(hands=hands, melds=side_melds, pile=pile, stock=stock, opened=side_opened,
                                 cum=cum, phase=phase)


def refusable(g, hands, **facts):
    """scenario(), with the positions it refuses as dead ends (a meld-phase hand the hand guard
    forbids: one card without the canastas to go out, S-D10) rejected as examples."""
    try:
        return scenario(g, hands, **facts)
    except cardsim.ConfigError as e:
        if "hand guard" not in str(e):
            raise
        hyp.reject()


def intended(g, rules, facts):
    """The reference position the scenario describes (the start of a turn applied: §4.5)."""
    S = rules.sides
    table = g.options["initial_meld_table"]
    pos = ref.canon(ref.Pos(
        phase=facts["phase"], turn=0, hands=tuple(tuple(h) for h in facts["hands"]),
        melds=tuple(tuple(tuple(m) for m in ms) for ms in facts["melds"]), pile=tuple(facts["pile"]),
        stock=tuple(facts["stock"]), red3=((),) * S, opened=tuple(facts["opened"]),
        req=(ref.requirement(facts["cum"], table),) + (ref.requirement(0, table),) * (S - 1),
        partner_no=False, end=()))
    return ref.start_turn(pos, 0, rules) if facts["phase"] == "draw" else pos


@hyp.settings(max_examples=400, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=positions(), path=st.integers(0, 2**32))
def test_factored_whole_moves_equal_brute_force(case, path):
    g, rules, state, facts = case
    assert ref.pos_from_view(g.spec.view(state)) == intended(g, rules, facts)
    compare(state, rules, 3, random.Random(path), events=True)


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


# ---- the spec's worked examples through the same comparison ------------------------------------
def moves_at(hands, variant="standard", players=2, options=None, **facts):
    """The whole moves of seat 0 in a scenario, after checking the engine's equal the reference's."""
    g = cardsim.make("samba", players=players, variant=variant, **(options or {}))
    rules = ref.Rules.of(g.options)
    filler = [["9C", "4D"]] * (players - 1)
    s = scenario(g, [hands] + filler, turn=0, dealer=players - 1, **facts)
    compare(s, rules, 1, random.Random(0))
    return ref.whole_moves(ref.pos_from_view(g.spec.view(s)), rules)


def side_melds(moves):
    return {m.melds[0] for m in moves if m.phase != "end"}


def test_ex_s2_s3_initial_meld_through_the_pile():
    # EX-S2: score 1600 -> 90; KKK + AAA = 90 takes the frozen pile and opens
    pile = ["9C", "2H", "4D", "5C", "6C", "7C", "8C", "10C", "KC"]
    got = side_melds(moves_at(["KH", "KS", "AD", "AC", "AS", "9D", "4H"], pile=pile, cum=[1600, 0],
                              stock=["9S", "9S"]))
    assert (("AC", "AD", "AS"), ("KC", "KH", "KS")) in got
    # EX-S3: the buried KD does not count: KKK + QQQ = 60 < 90; with the joker 110 >= 90
    got = side_melds(moves_at(["KH", "KS", "QD", "QC", "QS", "JK", "6C"], pile=["4C", "KD", "KC"], cum=[1600, 0],
                              stock=["9S", "9S"]))
    assert (("JK", "KC", "KH", "KS"), ("QC", "QD", "QS")) in got
    assert (("KC", "KH", "KS"), ("QC", "QD", "QS")) not in got
    assert all(sum(ref.total(m) for m in ms) >= 90 for ms in got if ms)


def test_ex_s3_penalize_raises_the_requirement():
    got = moves_at(["QD", "QC", "QS", "KH", "KS", "6C"], options={"insufficient_initial_meld": "penalize"},
                   pile=["4C"], cum=[1600, 0], phase="meld")
    assert any(m.req[0] == 190 and m.hands[0] == ref.srt(["QD", "QC", "QS", "KH", "KS", "6C"]) for m in got)


def test_ex_s4_s5_pile_takes():
    group8 = [["8D", "8S", "8H", "8C"]]
    got = moves_at(["8H", "JK", "5S"], pile=["9C", "8C"], melds=[group8, []], stock=["9S", "9S"])
    assert (("8C", "8C", "8D", "8H", "8S"),) in side_melds(got)                    # lay-off take
    got = moves_at(["8H", "JK", "5S"], pile=["2S", "8C"], melds=[group8, []], stock=["9S", "9S"])
    assert all(m.pile for m in got)                                                  # frozen: no take
    canasta9 = [["9S", "9S", "9H", "9H", "9D", "9D", "9C"]]
    got = moves_at(["9C", "5S", "6S"], pile=["4C", "9H"], melds=[canasta9, []], stock=["KS", "KS"])
    assert all(m.pile for m in got)
    got = moves_at(["9C", "9D", "5S"], pile=["4C", "9H"], melds=[canasta9, []], stock=["KS", "KS"])
    assert any(not m.pile and len(m.melds[0]) == 2 for m in got)                    # a new group of 9s


@pytest.mark.parametrize("top,hand,seq,takes", [
    ("9H", ["KS", "KS"], ["5H", "6H", "7H", "8H"], True), ("4H", ["KS", "KS"], ["5H", "6H", "7H", "8H"], True),
    ("10H", ["9H", "KS"], ["5H", "6H", "7H", "8H"], False), ("9S", ["KS", "KS"], ["5H", "6H", "7H", "8H"], False),
    ("JH", ["KS", "KS"], ["4H", "5H", "6H", "7H", "8H", "9H", "10H"], False),
    ("6C", ["7C", "8C", "KS"], ["5H", "6H", "7H", "8H"], False)])
def test_ex_s6_sequence_pickups(top, hand, seq, takes):
    got = moves_at(hand, pile=["4D", top], melds=[[seq], []], stock=["QS", "QS"])
    assert any(not m.pile for m in got) == takes


def test_ex_s11_hand_guard_and_black_threes():
    one = [["QS", "QS", "QH", "QH", "QD", "QD", "QC"]]
    two = one + [["JH", "JH", "JD", "JD", "JC", "JC", "JS"]]
    hand = ["KS", "KH", "KD", "8C"]
    got = moves_at(hand, melds=[one, []], pile=["4C"], phase="meld")
    assert not any(len(m.hands[0]) == 1 for m in got)                               # MELD KKK illegal
    got = moves_at(hand, melds=[two, []], pile=["4C"], phase="meld")
    assert any(m.melds[0] == ref.srt([ref.srt(x) for x in two] + [("KD", "KH", "KS")]) for m in got)  # then discard 8C: out
    got = moves_at(["3S", "3C", "3S", "KD"], melds=[two, []], pile=["4C"], phase="meld")
    assert any(("3C", "3S", "3S") in m.melds[0] for m in got)
    got = moves_at(["3S", "3C", "3S", "KD"], melds=[one, []], pile=["4C"], phase="meld")
    assert not any(("3C", "3S", "3S") in m.melds[0] for m in got)


def test_ex_s14_end_of_stock():
    g9 = [["9S", "9H", "9D", "9C"]]
    got = moves_at(["9H", "KS", "KS"], pile=["4C", "9C"], melds=[g9, []], stock=[])
    assert got and all(not m.pile and m.phase == "meld" for m in got)               # must take
    can9 = [["9S", "9S", "9H", "9H", "9D", "9D", "9C"]]
    got = moves_at(["9H", "9D", "KS"], pile=["4C", "9C"], melds=[can9, []], stock=[])
    assert any(m.end == ("stock_out", None) and m.pile == ("4C", "9C") for m in got)  # may decline
    assert any(m.phase == "meld" and not m.pile for m in got)                       # or take


def test_ex_s16_dutch_sequence_top_card_take():
    got = moves_at(["KS", "KS"], variant="dutch", pile=["4D"] * 2 + ["9C"], melds=[[["6C", "7C", "8C"]], []],
                   stock=["QS", "QS"])
    assert any(m.pile == ("4D", "4D") and ("6C", "7C", "8C", "9C") in m.melds[0] for m in got)


# ---- engine gaps found by the comparison (regressions: each once an xfail) ------------------------
def test_initial_batch_through_the_pile_with_a_sequence():
    got = moves_at(["QD", "QH", "2H", "QS", "KS", "AS", "8D"], pile=["4C", "QD"], cum=[1500, 0],
                   stock=["9C", "9C"])
    assert (("2H", "QD", "QD", "QH"), ("AS", "KS", "QS")) in side_melds(got)


# ---- the go-out query (allow_go_out_query, S-D11) ----------------------------------------------
def plan_outcomes(pos, rules):
    """Every position in which a going-out plan (a complete list of T2 actions that empties the
    hand, §4.4 GO_OUT_QUERY) ends, by the reference's whole moves within the turn."""
    out, todo, seen = set(), [pos], {pos}
    while todo:
        for r in ref.whole_moves(todo.pop(), rules):
            if r.phase == "end" and r.end == ("went_out", pos.turn):
                out.add(r)
            elif r.phase == "meld" and r.turn == pos.turn and r not in seen:
                seen.add(r)
                todo.append(r)
    return out


def asked(state, answer):
    """The state after ASK and the partner's answer."""
    s = state.clone()
    s.apply(s.string_to_action("ask"))
    s.apply(s.string_to_action(answer))
    return s


def engine_yes_outcomes(state):
    """Every end the engine's legal actions reach after ASK and 'yes' (the mover's turn only)."""
    out, seen = set(), set()
    mover = state.spec.view(state)["turn"]

    def walk(s):
        for a in s.legal_actions():
            c = s.clone()
            c.apply(int(a))
            v = c.spec.view(c)
            if v["phase"] == "end" or v["turn"] != mover:
                out.add(ref.pos_from_view(v))
            elif (k := _full_key(v)) not in seen:
                seen.add(k)
                walk(c)

    walk(asked(state, "yes"))
    return out


QUERY_MELDS = [["KS", "KH", "KD"], ["5S", "6S", "7S"], ["KC", "KC", "2D"], ["9H", "10H", "JH", "QH", "KH", "AH"],
               ["AD", "AD", "AC", "JK"], ["3C", "3S", "3C"], ["8D", "8D", "8C", "8C", "8H", "8S"]]
QUERY_FIT = [["KS", "KC", "KH", "2S", "JK"], ["4S", "8S", "3S"], ["KD", "KC", "2S"], ["8H", "2S"], ["AH", "AS", "2S"],
             ["3S", "3C", "3S"], ["8H", "8C", "JK"]]              # cards that lay off onto each of QUERY_MELDS
QUERY_POOL = ["KS", "KC", "KC", "KH", "KD", "4S", "8S", "8H", "QC", "2S", "9D", "3S", "3C", "JK", "9H", "JC", "AH",
              "8C", "4S", "QS"]


@st.composite
def query_positions(draw):
    """Seat 0 of a partnership (4 or 6 players) in the meld phase with the go-out query on: an
    opened side with melds the hand may go out onto (groups, sequences one card short of a samba,
    a group one card short of a canasta, black threes, 0-2 canastas) or an unopened side whose hand
    may hold a canasta; going_out_min_canastas 1, 2 or 3."""
    players = draw(st.sampled_from([4, 6]))
    opts = {"players": players, "variant": draw(st.sampled_from(PRESETS)), "allow_go_out_query": True}
    if draw(st.integers(0, 2)) == 0:
        opts["going_out_min_canastas"] = draw(st.sampled_from([1, 1, 3]))
    g = cardsim.make("samba", **opts)
    rules = ref.Rules.of(g.options)
    opened = draw(st.integers(0, 4)) > 0
    melds = []
    hand = draw(st.lists(st.sampled_from(QUERY_POOL), min_size=1, max_size=5))
    if opened:
        picked = draw(st.lists(st.integers(0, len(QUERY_MELDS) - 1), min_size=1, max_size=3, unique=True))
        melds = [QUERY_MELDS[i] for i in picked] + CANASTAS[:draw(st.sampled_from([0, 1, 2, 2]))]
        if draw(st.booleans()):            # mostly cards that fit the melds (+ QC, JS: the canastas; 9D 9D 9S: new)
            fit = [c for i in picked for c in QUERY_FIT[i]] + ["QC", "JS", "9D", "9D", "9S"]
            hand = draw(st.lists(st.sampled_from(fit), min_size=1, max_size=5)) + hand[:draw(st.integers(0, 1))]
    elif draw(st.booleans()):
        hand = ["8S", "8H", "8D", "8C", "8S", "8H", "2H"][:draw(st.integers(5, 7))] + hand[:2]
    hands = [hand] + FILLERS[:players - 1]
    hyp.assume(fits(*hands, *melds, ["4C"]) and all(ref.meld_kind(m, rules) for m in melds))
    side = [melds] + [[] for _ in range(rules.sides - 1)]
    s = refusable(g, hands, pile=["4C"], melds=side, opened=[opened] + [False] * (rules.sides - 1),
                  cum=[draw(st.sampled_from([-200, 0]))] + [0] * (rules.sides - 1), turn=0, dealer=players - 1,
                  phase="meld")
    return g, rules, s


@hyp.settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=query_positions())
def test_go_out_query_exact(case):
    """ASK is offered exactly when a going-out plan exists (§4.4 GO_OUT_QUERY: melds, sequences,
    lay-offs, black threes, an initial batch, then an optional discard) and the hand has 2+ cards
    (so that after a 'no' the player can still discard and keep a card: no dead end, S-D10);
    after 'yes' the engine's actions reach exactly the ends of the legal plans (every action keeps
    going out completable); 'no' leaves the reference's moves under partner_said_no."""
    g, rules, s = case
    pos = ref.pos_from_view(g.spec.view(s))
    plans = plan_outcomes(pos, rules)
    offered = s.string_to_action("ask") in s.legal_actions()
    hyp.event(f"plans: {bool(plans)}, ask offered: {offered}, opened: {pos.opened[0]}")
    assert offered == (bool(plans) and len(pos.hands[0]) >= 2)
    if offered:
        assert engine_yes_outcomes(s) == plans
        compare(asked(s, "no"), rules, 2, random.Random(1))


def test_go_out_query_any_plan():
    two = CANASTAS[:2]
    g = cardsim.make("samba", players=4, allow_go_out_query=True)
    s = scenario(g, [["KS", "KH", "KD", "8C"]] + FILLERS[:3], pile=["4C"], melds=[two, []], turn=0,
                 dealer=3, phase="meld")
    assert plan_outcomes(ref.pos_from_view(g.spec.view(s)), ref.Rules.of(g.options))   # MELD KKK, DISCARD 8C
    assert s.string_to_action("ask") in s.legal_actions()


# ---- initial melds with larger hands (several melds reaching 50..160) ----------------------------
BIG_POOL = [r + su for r in ("K", "Q", "A", "5", "8", "9", "10", "J", "7", "6") for su in ref.SUITS] + [
    "2S", "2H", "2D", "JK", "JK", "JK", "4S", "4H"]


@st.composite
def unopened_positions(draw, phase):
    """Seat 0 of an unopened side with 5-10 cards (and, at the draw, a natural pair of the top's
    rank), any side score (requirement 15..160), every preset, reject or penalize."""
    opts = {"variant": draw(st.sampled_from(PRESETS)), "players": 2}
    if draw(st.booleans()):
        opts["insufficient_initial_meld"] = "penalize"
    g = cardsim.make("samba", **opts)
    rules = ref.Rules.of(g.options)
    hand = draw(st.lists(st.sampled_from(BIG_POOL), min_size=5, max_size=10))
    top = draw(st.sampled_from([c for c in BIG_POOL if ref.is_natural(c) and c != "9C"]))
    if phase == "draw":
        hand += [ref.rank(top) + "S", ref.rank(top) + "H"]
    pile = ["4C", top]
    hand = trim(hand, pile, ["9C", "9C", "9C", "4D"])
    hyp.assume(phase == "meld" or sum(ref.rank(c) == ref.rank(top) for c in hand) >= 2)
    s = scenario(g, [hand, ["9C", "4D"]], pile=pile, melds=[[], []], opened=[False, False],
                 cum=[draw(st.sampled_from(SCORES)), 0], stock=["9C", "9C"], turn=0, dealer=1, phase=phase)
    return g, rules, s


@hyp.settings(max_examples=100, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=unopened_positions("meld"))
def test_initial_meld_from_hand_equals_brute_force(case):
    g, rules, s = case
    compare(s, rules, 2, random.Random(0))


@hyp.settings(max_examples=100, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=unopened_positions("draw"))
def test_initial_meld_through_the_pile_large_hands_equals_brute_force(case):
    """An unopened side with a larger hand at the draw: the takes the engine offers, each with its
    initial batch, are exactly the legal TAKE_PILE_PAIR moves (compared after the whole move)."""
    g, rules, s = case
    pos = ref.pos_from_view(g.spec.view(s))
    eng = set(engine_moves(s))
    brute = ref.whole_moves(pos, rules)
    assert eng == brute, (f"{pos}\nnot spec-legal: {sorted(eng - brute, key=repr)}"
                          f"\nnot reachable: {sorted(brute - eng, key=repr)}")


def test_initial_batch_through_the_pile_wilds_on_the_second_meld():
    got = moves_at(["2S", "2S", "KH", "KH", "KS", "KS", "QS", "QS"], pile=["4C", "KS"], cum=[1500, 0],
                   stock=["9C", "9C"])
    assert (("2S", "2S", "QS", "QS"), ("KS", "KS", "KS")) in side_melds(got)


def test_initial_batch_through_the_pile_the_deal_does_not_end():
    g = cardsim.make("samba", players=2)
    s = scenario(g, [["10S", "5S", "5S", "8S", "9S", "10S", "10H"], ["9C", "4D"]], pile=["10S"], stock=[],
                 turn=0, dealer=1)
    assert s.spec.view(s)["phase"] == "draw"
    assert (("10H", "10S", "10S"), ("10S", "8S", "9S")) in side_melds(moves_at(
        ["10S", "5S", "5S", "8S", "9S", "10S", "10H"], pile=["10S"], stock=[]))


@st.composite
def going_out_batches(draw):
    """An unopened seat 0 whose hand nearly holds going_out_min_canastas canastas (1 or 2), at the
    draw (a natural pair for a pile of 1-2 cards) or in the meld phase: initial batches that empty
    the hand (§4.0 HG), with or without a discard, every preset, reject or penalize, 2 or 4 players."""
    min_can = draw(st.sampled_from([1] * 7 + [2]))
    players = draw(st.sampled_from([2, 4]))
    opts = {"variant": draw(st.sampled_from(PRESETS)), "players": players, "going_out_min_canastas": min_can}
    if draw(st.booleans()):
        opts["insufficient_initial_meld"] = "penalize"
    g = cardsim.make("samba", **opts)
    rules = ref.Rules.of(g.options)
    r1, r2 = draw(st.lists(st.sampled_from(ref.RANKS[:-1]), min_size=2, max_size=2, unique=True))
    phase = draw(st.sampled_from(["draw", "meld"]))
    n1 = draw(st.integers(4 if min_can == 1 else 5, 6))
    n2 = draw(st.sampled_from([5, 6]) if min_can == 2 else st.sampled_from([0, 0, 2, 3]))
    hand = ([r1 + "S", r1 + "H"] * 3)[:n1] + ([r2 + "D", r2 + "C"] * 3)[:n2]
    hand += draw(st.lists(st.sampled_from(["2S", "JK", "2H"]), max_size=2))
    hand += draw(st.lists(st.sampled_from(["5S", "6S", "7S", "9D"]), max_size=1 if min_can == 2 else 2))
    pile = draw(st.lists(st.sampled_from(["9C", "4D"]), max_size=1)) + [r1 + "D" if phase == "draw" else "4C"]
    stock = draw(st.sampled_from([[], ["9C", "9C"]]))
    hands = [hand] + FILLERS[:players - 1]
    hyp.assume(fits(*hands, pile, stock))
    s = refusable(g, hands, pile=pile, melds=[[] for _ in range(rules.sides)], opened=[False] * rules.sides,
                  cum=[draw(st.sampled_from(SCORES))] + [0] * (rules.sides - 1), stock=stock, turn=0,
                  dealer=players - 1, phase=phase)
    return g, rules, s


@hyp.settings(max_examples=200, deadline=None, derandomize=True,
              suppress_health_check=[hyp.HealthCheck.too_slow, hyp.HealthCheck.filter_too_much])
@hyp.given(case=going_out_batches(), path=st.integers(0, 2**32))
def test_initial_batch_going_out_equals_brute_force(case, path):
    g, rules, s = case
    pos = ref.pos_from_view(g.spec.view(s))
    hyp.event(f"an initial batch may leave <= 1 card: {any(m.opened[0] and len(m.hands[0]) <= 1 for m in ref.whole_moves(pos, rules))}")
    compare(s, rules, 3, random.Random(path), events=True)


def test_initial_batch_that_goes_out():
    """going_out_min_canastas 1: the pile group of all seven 4s is a canasta and empties the hand:
    HG allows it (§4.0), so the pile can be taken (and, the stock being empty, the deal goes on)."""
    got = moves_at(["4S", "4S", "4H", "4H", "4S", "4H"], options={"going_out_min_canastas": 1}, pile=["4D"],
                   stock=[], cum=[-200, 0])
    assert any(m.end == ("went_out", 0) for m in got)


KINGS = ["KS", "KH", "KS", "KH", "KS", "KH", "2S"]
QUEENS = ["QD", "QC", "QD", "QC", "QD", "QC", "JK"]


def _unopened(hand):
    g = cardsim.make("samba", players=2)
    return g, scenario(g, [hand, ["9C", "4D"]], pile=["4C"], stock=["9C", "9C"], cum=[5000, 0], turn=0, dealer=1,
                       phase="meld")


def test_initial_batch_that_goes_out_with_two_canastas():
    """Default rules (two canastas), requirement 150: K x6 + 2S (80) and Q x6 + JK (110) are one minimal
    batch holding both canastas, so it may empty the hand (out at once) or leave one card to discard;
    without the second canasta a batch may not leave the hand under two cards (HG, §4.0)."""
    from cardsim.games.samba import move_to_actions
    g, s = _unopened(KINGS + QUEENS)
    for a in move_to_actions(s, {"initial": [KINGS, QUEENS]}):
        s.apply(a)
    assert ref.pos_from_view(g.spec.view(s)).end == ("went_out", 0)
    g, s = _unopened(KINGS + QUEENS + ["5S"])
    for a in move_to_actions(s, {"initial": [KINGS, QUEENS]}):
        s.apply(a)
    assert ref.pos_from_view(g.spec.view(s)).hands[0] == ("5S",)
    for a in move_to_actions(s, {"discard": "5S"}):
        s.apply(a)
    assert ref.pos_from_view(g.spec.view(s)).end == ("went_out", 0)
    g, s = _unopened(KINGS + ["QD", "QC", "QD", "JK"])
    with pytest.raises(cardsim.IllegalActionError):
        move_to_actions(s, {"initial": [KINGS, ["QD", "QC", "QD", "JK"]]})
