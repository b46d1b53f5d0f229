"""The running standing (State.standing, the games' vt.standing; core game_standing): who is ahead
mid-deal, the figure lead tracking watches ("decided before the last round" in the atlas).

- in every game and every conformance configuration, standing() == returns() at every terminal
  state over many random playouts, and it is finite, one number per seat, at every state;
- in every game, standing() is what the game's info.STANDING says, recomputed here in Python from
  the state's view() (the rules' own figures: points taken, tricks won, counts, melds ...) at every
  step of seeded deals; partners share their side's figure;
- in every game except Gleek (whose returns already move), the standing moves before the deal ends,
  so decisiveness is measured everywhere;
- the kernel's recording loop and the Python replay watch the same standing (tests/test_lead_from.py
  checks lead_from and lead changes deal by deal).
"""
import importlib

import numpy as np
import pytest

import cardsim
from cardsim.game import game_info
from cardsim.runner import lead_track_of

GAMES = list(cardsim.GAMES)
CHEAP = {"samba": 4, "zhao_pengyou": 4}           # playouts per configuration where deals are long


def _playout(g, seed, deal, rng, check):
    st = g.new_state(seed, deal)
    n = 0
    while not st.is_terminal():
        check(st)
        la = st.legal_actions()
        st.apply(la[int(rng.integers(len(la)))])
        n += 1
        assert n < 100_000
    check(st)
    return st


@pytest.mark.parametrize("game", GAMES)
def test_standing_is_the_returns_at_every_terminal_state(game):
    info = game_info(game)
    rng = np.random.default_rng(7)
    for cfg in info.conformance_configs:
        g = cardsim.make(game, **cfg)
        P = g.num_players

        def check(st):
            s = st.standing()
            assert s.dtype == np.float64 and s.shape == (P,) and np.isfinite(s).all()
            if st.is_terminal():
                assert np.array_equal(s, st.returns()), (game, cfg)

        for d in range(CHEAP.get(game, 30)):
            st = _playout(g, 11, d, rng, check)
            assert np.array_equal(st.standing(), st.returns())


@pytest.mark.parametrize("game", GAMES)
def test_every_game_defines_its_standing_in_words(game):
    text = importlib.import_module(f"cardsim.games.{game}.info").STANDING
    assert isinstance(text, str) and len(text) > 40


@pytest.mark.parametrize("game", [g for g in GAMES if g != "gleek"])
def test_the_standing_moves_before_the_deal_ends(game):
    """Mid-deal the standing names a leader in most deals (returns stay 0 until the end in these
    games), and the kernel's lead_from then sees the final leaders before the last action."""
    g = cardsim.make(game)
    P = g.num_players
    n = CHEAP.get(game, 20)
    moved = 0
    for d in range(n):
        st = g.new_state(5, d)
        rng = np.random.default_rng(d)
        seen = False
        while not st.is_terminal():
            la = st.legal_actions()
            st.apply(la[int(rng.integers(len(la)))])
            if not st.is_terminal():
                assert not st.returns().any() or game == "tien_gow"   # hk bonuses only
                s = st.standing()
                seen |= bool(s.max() != s.min())
        moved += seen
    assert moved >= n // 2, (game, moved, n)
    r = g.spec.run_batch(5, 0, n, [1] * P, lead_changes=True)
    assert ((r["lead_from"] > 0) & (r["lead_from"] < r["actions"])).any()


# ---- the rules' figures, recomputed from view() ---------------------------------------------------
def _hearts(g, st, v):
    o = g.options
    pts = [v["score"][q] + v["points"][q] for q in range(g.num_players)]
    if o["returns"] == "openspiel":
        return [26.0 - x for x in pts]
    N = g.num_players
    return [(sum(pts) - x) / (N - 1) - x for x in pts]


def _joffre_whist(g, st, v):
    base = [float(v["score"][p & 1] - v["score"][1 - (p & 1)]) for p in range(4)]
    if v["phase"] != "play":
        return base
    T = v["declarer"] & 1
    need = 6 + int(v["contract"][0])
    dt = v["tricks"][T] + v["tricks"][T + 2]
    ot = v["tricks_done"] - dt
    f = dt / need - ot / (14 - need)
    return [base[p] + (f if p & 1 == T else -f) for p in range(4)]


def _karnoffel(g, st, v):
    ante = g.options["ante"]
    tt = v["team_tricks"]
    sc = v["score"]
    return [ante * (sc[p & 1] - sc[1 - (p & 1)]) + ante * (tt[p & 1] - tt[1 - (p & 1)]) / 3
            for p in range(g.num_players)]


def _exposure(g, st, v):
    o = g.options
    tp, bonus = o.get("points_per_trick", 2), o.get("contract_bonus", 5)
    dp = [tp * v["tricks"][q] + v["meld_points"][q] + (bonus if v["tricks"][q] == v["target"] else 0)
          for q in range(2)]
    x = dp[0] - dp[1]
    return [x, -x]


def _basra(g, st, v):
    from cardsim.games.basra.info import card_half
    from cardsim.games.basra.notation import parse_card
    o = g.options
    ch = card_half(o)
    S = len(v["piles"])
    half = []
    for s in range(S):
        h = 2 * v["basra_points"][s]
        h += sum(ch[parse_card(c)] for c in v["piles"][s])
        h += sum(ch[parse_card(c)] for c in v["doubled"][s] if c in v["piles"][s])
        half.append(h)
    n = [len(p) for p in v["piles"]]
    top = max(n)
    if n.count(top) == 1:
        half[n.index(top)] += 2 * o["majority_points"] * (1 + v["carry"])
    own = [2 * v["total_points"][s] + half[s] for s in range(S)]
    tot = sum(own)
    side = (lambda p: p & 1) if S == 2 and g.num_players == 4 else (lambda p: p)
    return [(own[side(p)] - (tot - own[side(p)]) / (S - 1)) / 2 for p in range(g.num_players)]


def _tien_gow(g, st, v):
    base = v["balance"] if g.options["scope"] == "match" else v["deal_pay"]
    return [base[q] + v["tricks"][q] for q in range(4)]


def _six_tigers(g, st, v):
    return [v["score"][q] + (0 if q == v["dreamer"] else v["counts"][q]) for q in range(g.num_players)]


def _zhao_pengyou(g, st, v):
    o = g.options
    n = g.num_players
    base = list(st.returns())
    if v["declarer"] is None or v["phase"] == "end":
        return base
    decl = set(v["decl"])
    P = sum(v["captured"][q] for q in range(n) if q not in decl)
    if "penalty" in o["failed_throw"]:
        fd = sum(v["fails"][q] for q in decl)
        fo = sum(v["fails"][q] for q in range(n) if q not in decl)
        P = max(0, P + 10 * (fd - fo))
    cf = g.spec.config
    t1, t2, t3 = (t * cf["decks"] for t in o["thresholds"])
    gpt = o["game_points"]
    short = max(0, 1 + cf["calls"] - len(decl))
    if P < t1:
        won, gp = True, (gpt[0] + gpt[1] * short if P == 0 else gpt[2] + gpt[3] * short)
    else:
        won, gp = False, (gpt[4] if P < t2 else gpt[5] if P < t3 else gpt[6])
    win = decl if won else set(range(n)) - decl
    return [base[q] + (gp if q in win else 0) for q in range(n)]


def _samba(g, st, v):
    from cardsim.games import samba
    out = []
    sides = len(v["melds"])
    tab = []
    for s in range(sides):
        melds = [m["cards"] for m in v["melds"][s]]
        tab.append(samba.score_side(melds, [[]], len(v["red3"][s]), False, **{k: x for k, x in g.options.items()
                                                                              if k not in ("players", "variant")}))
    for p in range(g.num_players):
        out.append(float(v["cum_scores"][p % sides] if g.options["scope"] == "match" else 0) + tab[p % sides])
    return out


REF = {"hearts": _hearts, "joffre_whist": _joffre_whist, "karnoffel": _karnoffel, "exposure": _exposure,
       "basra": _basra, "tien_gow": _tien_gow, "six_tigers": _six_tigers, "zhao_pengyou": _zhao_pengyou,
       "samba": _samba}


@pytest.mark.parametrize("game", sorted(REF))
def test_the_standing_is_what_the_rules_say(game):
    """At every step of seeded deals (greedy play: contracts, melds and captures happen), the
    standing equals the game's definition recomputed from view()."""
    g = cardsim.make(game)
    ref = REF[game]
    for d in range(CHEAP.get(game, 6)):
        st = g.new_state(2, d)
        rng = np.random.default_rng(100 + d)
        while True:
            v = g.spec.view(st)
            want = st.returns() if st.is_terminal() else ref(g, st, v)
            assert st.standing() == pytest.approx(want, abs=1e-9), (game, d, len(st.history()), v)
            if st.is_terminal():
                break
            la = st.legal_actions()
            st.apply(la[int(rng.integers(len(la)))])


def test_gleek_keeps_its_returns():
    g = cardsim.make("gleek")
    rng = np.random.default_rng(3)
    for d in range(10):
        _playout(g, 1, d, rng, lambda st: np.testing.assert_array_equal(st.standing(), st.returns()))


def test_the_replay_and_the_kernel_watch_the_same_standing():
    for game in GAMES:
        g = cardsim.make(game)
        P = g.num_players
        n = 3 if game in CHEAP else 10
        r = g.spec.run_batch(8, 0, n, [1] * P, lead_changes=True)
        for d in range(n):
            assert (r["lead_changes"][d], r["lead_from"][d]) == lead_track_of(g, 8, d, [1] * P), (game, d)


# ---- hand-built positions: the standing after a known trick --------------------------------------
def _hearts_first_trick(**opts):
    """Seat 0 holds every club, seat 1 every heart, seat 2 every diamond, seat 3 every spade; no
    pass; points allowed on the first trick: ♣2 is led, seat 1 throws ♥A, seat 2 a diamond, seat 3
    ♠Q, and seat 0 (the only club) takes 14 penalty points."""
    from cardsim.games.hearts import scenario
    g = cardsim.make("hearts", no_points_first_trick=False, **opts)
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hands = [[r + s for r in ranks] for s in "CHDS"]
    st = scenario(g, hands, pass_dir="hold")
    play = {0: "2C", 1: "AH", 2: "2D", 3: "QS"}
    assert g.spec.view(st)["phase"] == "play" and st.current_player == 0
    for _ in range(4):
        st.apply_string(play[st.current_player])
    v = g.spec.view(st)
    assert v["points"] == [14, 0, 0, 0] and v["tricks"] == [1, 0, 0, 0]
    return st


def test_hearts_standing_after_a_known_trick():
    st = _hearts_first_trick()
    # relative returns (D10): the others' mean minus own
    assert st.standing() == pytest.approx([-14.0, 14 / 3, 14 / 3, 14 / 3])
    assert not st.returns().any()
    st = _hearts_first_trick(returns="openspiel")
    assert st.standing().tolist() == [12.0, 26.0, 26.0, 26.0]     # 26 - points taken


def test_six_tigers_standing_in_the_x16_position():
    """docs/rules/six_tigers.md X-16: tricks [5, 6, 0, 0], seat 0 leads SHI9, the last card; once the
    trick is won the active players' counts are [6, 6, -, 0] (no cards left; the dreamer, seat 2,
    holding SUO5, counts nothing), the standing while the claim window is open, then the returns
    [2, -1, 0, -1]."""
    from cardsim.games.six_tigers import play, scenario
    from cardsim.games.six_tigers.notation import card_str
    g = cardsim.make("six_tigers")
    hands = [["SHI9"], ["GUAN2"], ["SUO5"], ["XIAN2"]]
    rest = [card_str(c) for c in range(37) if card_str(c) not in {h[0] for h in hands}]
    s = scenario(g, hands, dealer=0, declarer=0, played=[rest, [], [], []], tricks=[5, 6, 0, 0])
    while s.phase == "claim":
        s.apply(78)                                       # CONTINUE: play on before the lead
    v = g.spec.view(s)
    assert v["dreamer"] == 2 and v["tricks"] == [5, 6, 0, 0]
    assert s.standing().tolist() == [float(c) if q != 2 else 0.0 for q, c in enumerate(v["counts"])]
    play(s, ["SHI9"])
    play(s, ["GUAN2"], face_down=True)
    play(s, ["XIAN2"], face_down=True)
    assert s.phase == "claim" and s.standing().tolist() == [6.0, 6.0, 0.0, 0.0]
    s.apply(77)                                           # CLAIM
    assert s.is_terminal() and s.standing().tolist() == s.returns().tolist() == [2, -1, 0, -1]
