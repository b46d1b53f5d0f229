"""Samba: the public functions of cardsim.games.samba refuse impossible and malformed inputs with a
typed cardsim error naming what is allowed (issue 23): score_side's impossible inputs (12 red
threes, going out without the canastas), the move helpers' malformed moves and actions, and every
public function called with None, wrong types, floats, huge ints and oversized lists."""
import inspect

import numpy as np
import pytest

import cardsim
from cardsim import CardsimError, IllegalActionError, ParseError
from cardsim.games import samba
from cardsim.games.samba import actions_to_moves, move_to_actions, score_side

CAN_Q = ["QS", "QS", "QH", "QH", "QD", "QD", "QC"]
CAN_K = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]


# ---- 4. score_side ----------------------------------------------------------------------------------
def test_score_side_refuses_impossible_inputs():
    two = [CAN_Q, CAN_K]
    with pytest.raises(ParseError, match="red threes"):
        score_side(two, [["3H", "3H", "3H", "3D", "3D", "3D"]], 6, False)      # 12 red threes
    with pytest.raises(ParseError, match="red threes"):
        score_side(two, [["3H"], ["3D"]], 5, False)
    with pytest.raises(ParseError, match="canastas"):
        score_side([CAN_Q], [[]], 0, True)                                        # out with one canasta
    with pytest.raises(ParseError, match="empty"):
        score_side(two, [["4C"]], 0, True)                                        # out holding a card
    with pytest.raises(ParseError, match="black-three"):
        score_side(two + [["3S", "3C", "3S"]], [["4C"]], 0, False)
    assert score_side(two + [["3S", "3C", "3S"]], [[]], 0, True) == score_side(two, [[]], 0, True) + 15
    assert score_side([CAN_Q], [[]], 0, True, going_out_min_canastas=1) == 70 + 500 + 200
    for bad in (-1, 7, 1.0, True, None, "2", 2**70, np.float64(2), [2]):
        with pytest.raises(ParseError, match="red_threes"):
            score_side(two, [[]], bad, False)
    assert score_side(two, [[]], np.int64(2), False) == score_side(two, [[]], 2, False)
    for bad in (1, 0, None, "yes", np.bool_(True)):
        with pytest.raises(ParseError, match="went_out"):
            score_side(two, [[]], 0, bad)
    for bad in (None, "KS", [], [[]] * 3, [None], [[None]], [["KS"] * 200], 5):
        with pytest.raises(CardsimError):
            score_side(two, bad, 0, False)
    for bad in (None, "KS", [["KS"]], [CAN_Q] * 33, [[1, 2, 3]], [["A" * 10000]]):
        with pytest.raises(CardsimError) as e:
            score_side(bad, [[]], 0, False)
        assert len(str(e.value)) < 400


# ---- 5. the move helpers ------------------------------------------------------------------------------
@pytest.fixture
def st():
    g = cardsim.make("samba", players=2)
    return samba.scenario(g, [["KH", "KS", "QD", "QC", "QS", "JK", "6C"], ["4H", "5H", "9C"]],
                          pile=["5S", "KD", "KC"], cum=[1600, 0], turn=0, dealer=1)


BAD_MOVES = [{"merge": [0]}, {"merge": 0}, {"merge": [0, 1, 2]}, {"merge": ["a", "b"]}, {"merge": [0.0, 1]},
             {"merge": [0, 2**70]}, {"draw": False}, {"draw": 1}, {"draw": True, "meld": ["KS"]},
             {"answer": 1}, {"answer": ["yes"]}, {"take": 1}, {"take": ["pair"]}, {"take": "nothing"},
             {"take": "layoff"}, {"take": "layoff", "slot": -1}, {"take": "layoff", "slot": 1.0},
             {"take": "layoff", "slot": True}, {"take": "pair", "group": "KH"}, {"take": "pair", "batch": [1]},
             {"take": "pair", "slot": 0}, {"meld": "KS"}, {"meld": None}, {"meld": [1, 2, 3]},
             {"meld": ["KS"] * 500}, {"initial": []}, {"initial": [["KS"]] * 40}, {"initial": "KS"},
             {"layoff": ["KS"]}, {"layoff": ["KS"], "slot": "0"}, {"discard": 5}, {"discard": None},
             {"discard": "A" * 10000}, {"red3": "KS"}, {"red3": 14}, {"nonsense": 1}, {}, None, [], "draw",
             {1: 2}, {"draw": True, "extra": 1}, {"layoff": ["KS"], "slot": 0, "group": []}]


@pytest.mark.parametrize("move", BAD_MOVES, ids=range(len(BAD_MOVES)))
def test_move_to_actions_malformed_moves_are_typed_errors(st, move):
    before = st.clone()
    with pytest.raises(CardsimError) as e:
        move_to_actions(st, move)
    assert len(str(e.value)) < 1500
    assert st == before


def test_move_helpers_name_the_allowed_forms(st):
    with pytest.raises(ParseError, match=r"merge is \[i, j\]"):
        move_to_actions(st, {"merge": [0]})
    with pytest.raises(ParseError, match="'draw': True"):
        move_to_actions(st, {"nonsense": 1})
    with pytest.raises(IllegalActionError, match="action"):
        actions_to_moves(st, ["x"])
    for bad in (None, "x", 5, {"a": 1}, [None], [1.0], [-1], [276], [2**70], [True], [np.float64(106)]):
        with pytest.raises(CardsimError):
            actions_to_moves(st, bad)
    with pytest.raises(IllegalActionError):
        actions_to_moves(st, [109])                     # meld: not legal at the draw
    assert actions_to_moves(st, [106]) == [{"draw": True}]
    assert actions_to_moves(st, np.array([106])) == [{"draw": True}]
    for helper in (move_to_actions, actions_to_moves):
        for bad_state in (None, 5, cardsim.make("basra").new_state(1, 0), cardsim.make("samba")):
            with pytest.raises(CardsimError, match="Samba State"):
                helper(bad_state, {"draw": True} if helper is move_to_actions else [106])


def test_string_to_action_is_short_and_strict(st):
    with pytest.raises(ParseError) as e:
        st.string_to_action("A" * 10000)
    assert len(str(e.value)) < 600
    for bad in ("merge ٥", "merge 32", "merge -1", "merge 1_0", "into 99999999999999999999", "+XX", "discard"):
        with pytest.raises(ParseError):
            st.string_to_action(bad)
    assert st.action_to_string(st.string_to_action("merge 5")) == "merge 5"


# ---- every public function with junk ----------------------------------------------------------------
JUNK = [None, 1.5, -1, 2**70, True, "KS", b"x", ["KS"] * 300, [None], {"a": 1}, np.float64(1), [[1]],
        "A" * 10000, float("nan"), object()]


def test_every_public_function_refuses_junk_with_typed_errors(st):
    """Each public function of cardsim.games.samba with each positional argument replaced by junk:
    it returns or raises a CardsimError (never TypeError, ValueError of its own, IndexError, a crash)."""
    g = cardsim.make("samba", players=2)
    good = {
        "classify_meld": (["KS", "KH", "KD"],),
        "can_take_pile": (["KH", "KS", "4C"], ["5S", "KD"], [], False),
        "score_side": ([CAN_Q, CAN_K], [[]], 0, False),
        "initial_meld_requirement": (0,),
        "scenario": (g, [["4S", "5S", "9D"], ["4H", "5H", "9C"]]),
        "move_to_actions": (st, {"draw": True}),
        "actions_to_moves": (st, [106]),
        "return_bounds": (g.options,),
        "max_game_length": (g.options,),
        "build": (g.options,),
    }
    public = {n for n, f in vars(samba).items() if inspect.isfunction(f) and not n.startswith("_")
              and f.__module__ == samba.__name__}
    assert public <= set(good), public - set(good)
    calls = 0
    for name in sorted(public):
        fn = getattr(samba, name)
        fn(*good[name])                                  # the good call works
        for i in range(len(good[name])):
            for junk in JUNK:
                args = list(good[name])
                args[i] = junk
                try:
                    fn(*args)
                except CardsimError as e:
                    assert len(str(e)) < 1500, (name, i, str(e)[:200])
                calls += 1
    assert calls > 200


def test_the_oracle_kernels_check_their_lists():
    """cardsim.games.samba._spec oracle kernels (reachable from Python) refuse kinds outside 0..52,
    more copies than the deck, oversized lists and impossible red-three counts before writing."""
    from cardsim.games.samba import _spec as k
    opts = cardsim.make("samba").options
    for kinds in ([99], [-1], [0] * 4, [52] * 7, [0] * 200, [None], [1.5]):
        with pytest.raises(ParseError):
            k.oracle_classify(kinds, False, opts)
    with pytest.raises(ParseError):
        k.oracle_score_side([], [[]], 1000, False, opts)
    with pytest.raises(ParseError):
        k.oracle_score_side([[11, 11, 11]] * 40, [[]], 0, False, opts)
    with pytest.raises(ParseError):
        k.oracle_can_take_pile([5] * 4, [5], [], False, 0, opts)
    with pytest.raises(ParseError):
        k.oracle_can_take_pile([5], [7] * 300, [], False, 0, opts)
    assert k.oracle_classify([11, 24, 37], False, opts)[0] == 1


def test_notation_constants_match_the_kernel():
    """notation.py (pure Python) restates the kernel's action space and card constants; they must
    equal the enum values the compiled glue exports, and every action id round-trips through its
    text (break one constant in notation.py and this fails)."""
    from cardsim.games.samba import _spec, notation
    assert notation.ACTION_BASES == _spec.ACTION_BASES
    for a in range(notation.NUM_ACTIONS):
        assert notation.parse_action_text(notation.action_name(a)) == a
    for k in range(notation.KINDS):
        assert notation.parse_kind(notation.kind_str(k)) == k
    with pytest.raises(ParseError):
        notation.action_name(notation.NUM_ACTIONS)
    with pytest.raises(ParseError):
        notation.kind_str(True)
