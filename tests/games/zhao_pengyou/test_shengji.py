"""rbtying/shengji's mechanics unit tests, rewritten as calls of the Zhao Pengyou oracles (issue 17).

Every assertion of shengji's `mechanics/src/{trick,types,format_match,ordered_card,hands}.rs` tests
is one row of tests/games/zhao_pengyou/shengji_cases.py: either a `Case` (the oracle call, the trump, the
settings the Rust line runs under and the expected result) or a `NOT_EXPRESSIBLE` entry with the
reason. `test_shengji_case` runs each case under `variant="shengji"` plus the Rust line's settings
passed explicitly; `test_shengji_defaults_are_the_preset` runs the cases made under shengji's
default settings with `variant="shengji"` alone (the preset must be shengji's defaults).

Counting: one assertion is one `assert!`/`assert_eq!` (or explicit error check: `unwrap_err`,
`if let Err(IllegalPlay) .. else panic!`) executed once per setting it runs under (loops over
ThrowEvaluationPolicy / TrickDrawPolicy / BombPolicy are unrolled, each `test_eq!` macro call
counts on its own, loops over plain data count once per assertion line). Implicit checks
(`.unwrap()` of a play) are not counted.

Conventions (details in shengji_cases.py): shengji's `S_10`, `Card::SmallJoker` are '10S', 'SJ';
`Trump::Standard{Spades, Four}` is ('S', '4'), `Trump::NoTrump{Some(Four)}` is (None, '4') and
`NoTrump{number: None}` (only the jokers are trumps) is (None, None). An `is_legal_play` format is
led as its cards; the one that is no real lead (Tractor{2, [S_9, S_9]}) is another tractor of that
shape (legality depends on the format's suit and shapes only). Each hand, lead and play holds at
most 4 copies of a card (the packed hand); together they may hold more. A follow taken
from a trick test after a failed throw uses the forced lead the Rust test itself plays.
`find_format_matches(units, counts)` is asked as the legal follows of a hand of exactly those
trumps to a trump lead of that format.

Counts (checked by test_counts_in_docstring against the case table):
    shengji assertions: 321
    translated: 229
    agreeing: 229
    disagreeing: 0
    pending (a feature of XFAIL_FEATURES not on main yet): 0
    not expressible: 92
    implicit follow checks (.unwrap() from a larger hand), not counted above: 27
"""
import re
from collections import Counter

import pytest

from cardsim import IllegalActionError
from cardsim.games import zhao_pengyou as zp

from . import shengji_cases as sc

# Features of issue 17 not on main yet: their cases are xfail(strict=False). Remove a name when it
# lands and its cases become real assertions.
XFAIL_FEATURES: set[str] = set()   # all of issue 17's features are on main (zpeng, 0603957)
# Known names: oracle_options (variant=/**options), lead_units, throw_units (mixed throws),
# tractor_adjacency, tractor_requirements, draw_policy, throw_evaluation, bombs, rainbows,
# follow_matches, throw_outcome, trump_rank_A, trump_rank_none.

# Translated assertions on which the engine and shengji disagree: case id -> why (reported in the
# coordination file). Empty when every translated assertion agrees.
DISAGREE: dict[str, str] = {}

_OPTION_FEATURE = {"draw_policy": "draw_policy", "throw_evaluation": "throw_evaluation", "bomb_policy": "bombs",
                   "rainbows": "rainbows", "tractor_min_count": "tractor_requirements",
                   "tractor_min_length": "tractor_requirements"}
_CALL_FEATURE = {"units": "lead_units", "units_in": "lead_units", "largest_unit": "lead_units",
                 "unit_cards": "lead_units", "successors": "lead_units", "matches": "follow_matches",
                 "throw_led": "throw_outcome", "throw_format": "throw_outcome", "throw_units": "throw_outcome",
                 "throw_size": "throw_outcome", "throw_largest": "throw_outcome",
                 "throw_failed_size": "throw_outcome"}


_IDS = {}
for _c in sc.CASES:          # by position: shengji repeats some assertions word for word
    _IDS[id(_c)] = f"{_c.src}#{sum(1 for v in _IDS.values() if v.startswith(_c.src + '#')) + 1}"
for _c in sc.IMPLICIT:
    _IDS[id(_c)] = f"{_c.src}~unwrap{sum(1 for v in _IDS.values() if v.startswith(_c.src + '~')) + 1}"


def case_id(case):
    return _IDS[id(case)]


def features(case, with_options=True):
    f = set(case.tags) | ({"oracle_options"} if case.call != "order" else set())   # card_order takes no options
    if case.call in _CALL_FEATURE:
        f.add(_CALL_FEATURE[case.call])
    if case.trump[1] in ("A", None):
        f.add("trump_rank_A" if case.trump[1] == "A" else "trump_rank_none")
    if case.call in ("throw_units", "throw_size", "throw_largest"):
        f.add("lead_units")
    if with_options:
        f |= {_OPTION_FEATURE[k] for k in case.opts}
    else:
        f |= {_OPTION_FEATURE[k] for k, v in case.opts.items() if v != sc.SHENGJI_DEFAULTS[k]}
    return f


def is_default_setting(case):
    return all(sc.SHENGJI_DEFAULTS[k] == v for k, v in case.opts.items())


def _param(case, with_options):
    marks = []
    pending = sorted(features(case, with_options) & XFAIL_FEATURES)
    if pending:
        marks.append(pytest.mark.xfail(reason=f"issue 17: {', '.join(pending)} not implemented yet", strict=False))
    elif case_id(case) in DISAGREE:
        marks.append(pytest.mark.xfail(reason=f"disagrees with shengji: {DISAGREE[case_id(case)]}", strict=True))
    return pytest.param(case, id=case_id(case), marks=marks)


# ---- the checks ------------------------------------------------------------------------------------------
ALL_CARDS = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")] + [
    "SJ", "BJ"]


def canon(units):
    """lead_units' answer as a comparable value: sorted (count, cards low to high) pairs."""
    out = []
    for n, cards in units:
        assert isinstance(n, int) and n >= 1 and cards
        out.append((n, tuple(cards)))
    return tuple(sorted(out))


def size(units):
    return sum(n * len(cards) for n, cards in units)


def msets(plays):
    got = [tuple(sorted(p)) for p in plays]
    assert len(got) == len(set(got)), "each follow is listed once"
    return frozenset(got)


def successors(card, t, r, kw):
    """The cards x such that `card card x x` is a tractor with `card` low, per lead_units."""
    out = []
    for x in ALL_CARDS:
        if x != card:
            try:
                units = zp.lead_units([card, card, x, x], t, r, **kw)
            except IllegalActionError:          # x is of another suit: no lead
                continue
            if canon(units) == ((2, (card, x)),):
                out.append(x)
    return out


def _check(case, kw):
    t, r = case.trump
    a, e = case.args, case.expect
    lists = lambda xs: [list(x) for x in xs]  # noqa: E731
    if case.call == "units":
        assert canon(zp.lead_units(list(a[0]), t, r, **kw)) == e
    elif case.call == "units_in":
        assert canon(zp.lead_units(list(a[0]), t, r, **kw)) in e
    elif case.call == "largest_unit":
        assert max(n * len(cs) for n, cs in zp.lead_units(list(a[0]), t, r, **kw)) == e
    elif case.call == "unit_cards":
        assert size(zp.lead_units(list(a[0]), t, r, **kw)) == e
    elif case.call == "format":
        if e is None:
            with pytest.raises(IllegalActionError):
                zp.lead_format(list(a[0]), t, r, **kw)
        else:
            assert zp.lead_format(list(a[0]), t, r, **kw) == e
    elif case.call == "winner":
        assert zp.trick_winner(lists(a[0]), t, r, **kw) == e
    elif case.call == "legal":
        assert zp.is_legal_follow(list(a[0]), list(a[1]), list(a[2]), t, r, **kw) is e
    elif case.call == "matches":
        assert zp.follow_matches(list(a[0]), list(a[1]), t, r, **kw) is e
    elif case.call == "follows":
        assert msets(zp.legal_follows(list(a[0]), list(a[1]), t, r, **kw)) == e
    elif case.call == "n_follows":
        assert len(msets(zp.legal_follows(list(a[0]), list(a[1]), t, r, **kw))) == e
    elif case.call == "order":
        got = [zp.card_order(c, t, r) for c in a[0]]
        assert tuple(s for s, _ in got) == e
        for (s1, v1), (s2, v2) in zip(got, got[1:]):
            assert s1 != s2 or v1 < v2
    elif case.call == "successors":
        got = successors(a[0], t, r, kw)
        assert (e in got) if a[1] == "contains" else (tuple(sorted(got)) == tuple(sorted(e)))
    elif case.call.startswith("throw_"):
        led = zp.throw_outcome(list(a[0]), lists(a[1]), t, r, **kw)
        if case.call == "throw_led":
            assert tuple(sorted(led)) == e
        elif case.call == "throw_format":
            assert zp.lead_format(list(led), t, r, **kw) == e
        elif case.call == "throw_largest":
            assert max(n * len(cs) for n, cs in zp.lead_units(list(led), t, r, **kw)) == e
        elif case.call == "throw_failed_size":
            assert len(a[0]) - len(led) == e
        elif case.call == "throw_units":
            assert len(zp.lead_units(list(led), t, r, **kw)) == e
        else:
            assert size(zp.lead_units(list(led), t, r, **kw)) == e
    else:
        raise AssertionError(f"unknown check {case.call}")


@pytest.mark.parametrize("case", [_param(c, True) for c in sc.CASES + sc.IMPLICIT])
def test_shengji_case(case):
    """The Rust assertion under variant='shengji' plus the settings its line sets."""
    _check(case, dict(variant="shengji", **case.opts))


DEFAULT_CASES = [c for c in sc.CASES + sc.IMPLICIT if is_default_setting(c)]


@pytest.mark.parametrize("case", [_param(c, False) for c in DEFAULT_CASES])
def test_shengji_defaults_are_the_preset(case):
    """The assertions made under shengji's default settings hold under variant='shengji' alone."""
    _check(case, dict(variant="shengji"))


def counts():
    translated = len(sc.CASES)
    pending = sum(1 for c in sc.CASES if features(c) & XFAIL_FEATURES)
    disagreeing = sum(1 for c in sc.CASES if case_id(c) in DISAGREE and not features(c) & XFAIL_FEATURES)
    ne = sum(n for _, n, _ in sc.NOT_EXPRESSIBLE)
    return {"shengji assertions": translated + ne, "translated": translated,
            "agreeing": translated - pending - disagreeing, "disagreeing": disagreeing,
            "pending (a feature of XFAIL_FEATURES not on main yet)": pending, "not expressible": ne,
            "implicit follow checks (.unwrap() from a larger hand), not counted above": len(sc.IMPLICIT)}


def test_counts_in_docstring():
    doc = dict(re.findall(r"^    (.+?): (\d+)$", __doc__, re.M))
    assert {k: int(v) for k, v in doc.items()} == counts()


# shengji's assertions per test function, counted by the rules of the module docstring from the Rust
# source; the case table must account for each of them exactly once.
RUST_ASSERTIONS = {
    "trick.rs::test_play_formats": 28, "trick.rs::test_play_singles_trick": 9, "trick.rs::test_play_trump_trick": 9,
    "trick.rs::test_play_pairs_trick": 9, "trick.rs::test_play_tractor_trick": 9, "trick.rs::test_play_throw_trick": 3,
    "trick.rs::test_play_throw_trick_double_overflip": 3, "trick.rs::test_play_throw_trick_failure": 4,
    "trick.rs::test_play_throw_tractor_extra_cards": 4, "trick.rs::test_trick_format_basic": 3,
    "trick.rs::test_trick_format_tractor": 4, "trick.rs::test_trick_tractor_throw": 4,
    "trick.rs::test_trick_simple_throw": 2, "trick.rs::test_legal_play_pairs": 51, "trick.rs::test_protected_tuple": 8,
    "trick.rs::test_protected_wider_tractor": 5, "trick.rs::test_protected_tractor_triple": 6,
    "trick.rs::test_longer_tuple_bypasses_genuine_false_positive": 3,
    "trick.rs::test_play_throw_tractor_with_other_tractor_in_game": 4,
    "trick.rs::test_long_tractor_decomposition_draws_pairs": 9,
    "trick.rs::test_throw_evaluation_policy_highest_card": 2,
    "trick.rs::test_throw_evaluation_policy_trick_unit_length": 3, "trick.rs::test_throw_of_trump_rank_in_trump": 3,
    "trick.rs::test_trump_throw_single_cards": 3, "trick.rs::test_trick_format_multi_parse": 3,
    "trick.rs::test_bomb_beats_tractor": 1, "trick.rs::test_higher_bomb_beats_lower_bomb": 1,
    "trick.rs::test_bomb_not_allowed_when_policy_disabled": 1, "trick.rs::test_bomb_six_cards_beats_six_card_tractor": 1,
    "trick.rs::test_trump_bomb_beats_non_trump_bomb": 1, "trick.rs::test_three_identical_cards_not_a_bomb": 1,
    "trick.rs::test_bomb_suit_following_same_suit_allowed": 1,
    "trick.rs::test_bomb_suit_following_off_suit_rejected_when_has_led_suit": 1,
    "trick.rs::test_bomb_suit_following_off_suit_allowed_when_void": 1,
    "trick.rs::test_bomb_suit_following_trump_bomb_allowed": 1,
    "trick.rs::test_triple_in_play_does_not_satisfy_pair_when_genuine_pair_available": 3,
    "trick.rs::test_longer_tuple_guard_requires_enough_genuine_tuples": 8,
    "trick.rs::test_leader_bomb_not_beaten_by_lower_bomb": 1, "trick.rs::test_higher_bomb_beats_leader_bomb": 1,
    "trick.rs::test_larger_bomb_beats_smaller_bomb_regardless_of_order": 1,
    "trick.rs::test_rainbow_detection_valid": 2, "trick.rs::test_rainbow_detection_too_few_cards": 1,
    "trick.rs::test_rainbow_detection_too_few_suits": 1, "trick.rs::test_rainbow_detection_mixed_numbers": 1,
    "trick.rs::test_rainbow_disabled_by_default": 1, "trick.rs::test_rainbow_winner_higher_number_wins": 1,
    "trick.rs::test_rainbow_winner_leader_wins_if_no_higher_rainbow": 1,
    "trick.rs::test_rainbow_must_play_rainbow_if_available": 2,
    "trick.rs::test_rainbow_no_rainbow_available_anything_legal": 1,
    "trick.rs::test_multi_rainbow_throw_detection": 3, "trick.rs::test_multi_rainbow_throw_follower_must_play_rainbows": 1,
    "trick.rs::test_multi_rainbow_is_legal_play_obligation": 3,
    "trick.rs::test_multi_rainbow_throw_invalidated_when_beatable": 3,
    "types.rs::test_char_roundtrip": 1, "types.rs::test_deck_completeness": 1, "types.rs::test_ordering": 1,
    "types.rs::test_adjacent": 23, "types.rs::test_serde": 1, "types.rs::test_rank_successor": 3,
    "format_match.rs::test_tuple_format_match": 2, "format_match.rs::test_multiple_tuple_format_match": 4,
    "format_match.rs::test_tractor_format_match": 1, "format_match.rs::test_multiple_tractor_format_match": 2,
    "format_match.rs::test_very_large_tractor_throw": 2, "format_match.rs::test_really_long_silly_requirements": 2,
    "ordered_card.rs::test_subsequent_decomposition_ordering": 21,
    "ordered_card.rs::test_full_decomposition_ordering": 6, "ordered_card.rs::test_compute_adjacent_assignments": 4,
    "ordered_card.rs::test_find_tuple_partitions": 6, "hands.rs::test_add_remove": 5,
}


def test_every_shengji_assertion_is_accounted_for():
    got = Counter(c.src for c in sc.CASES)
    for src, n, _ in sc.NOT_EXPRESSIBLE:
        got[src] += n
    assert dict(got) == RUST_ASSERTIONS
    assert len({case_id(c) for c in sc.CASES + sc.IMPLICIT}) == len(sc.CASES) + len(sc.IMPLICIT)


def _card_lists(x):
    if isinstance(x, tuple) and x and all(isinstance(v, str) for v in x):
        yield x
    elif isinstance(x, tuple):
        for v in x:
            yield from _card_lists(v)


def test_cases_are_well_formed():
    """Every case names real cards, at most 4 copies per hand, lead or play (the packed hand)."""
    for c in sc.CASES + sc.IMPLICIT:
        assert c.trump[0] in (None, "S", "H", "D", "C") and c.call, c
        assert set(c.opts) <= set(sc.SHENGJI_DEFAULTS), c
        for cards in _card_lists(c.args):
            if c.call != "successors":
                assert set(cards) <= set(ALL_CARDS) and max(Counter(cards).values()) <= 4, c
