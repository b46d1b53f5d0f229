"""rbtying/shengji's mechanics unit tests as data, in cardsim's card notation (issue 17).

Read by tests/games/zhao_pengyou/test_shengji.py (which documents the counting rules and the
translation conventions). Source: rbtying/shengji `mechanics/src/{trick,types,format_match,
ordered_card,hands}.rs`, the `#[cfg(test)] mod tests` of each.

Card notation: shengji's `S_2`, `H_10`, `C_A`, `Card::SmallJoker`, `Card::BigJoker` are '2S', '10H',
'AC', 'SJ', 'BJ' here (shengji's `Debug` output writes the jokers `LJ`/`HJ`). A trump is
(trump_suit, trump_rank): `Trump::Standard{suit: Spades, number: Four}` is ('S', '4');
`Trump::NoTrump{number: Some(Four)}` is (None, '4').

Each `Case` is one Rust assertion under one setting; `NOT_EXPRESSIBLE` lists, per shengji test, the
assertions that have no counterpart, with the reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field

S4 = ("S", "4")          # shengji's `TRUMP` constant in trick.rs and format_match.rs
H4 = ("H", "4")

# shengji's defaults for the settings, in our option names (what the `shengji` preset sets).
SHENGJI_DEFAULTS = {"draw_policy": "no_protections", "throw_evaluation": "all", "bomb_policy": "no_bombs",
                    "rainbows": 0, "tractor_min_count": 2, "tractor_min_length": 2}

NP, LTP, OT, LTPOT, NFBD = ("no_protections", "longer_tuples_protected", "only_draw_tractor_on_tractor",
                            "longer_tuples_protected_and_only_draw_tractor_on_tractor", "no_format_based_draw")
TEPS = ("all", "highest", "trick_unit_length")
TEP_RS = {"all": "All", "highest": "Highest", "trick_unit_length": "TrickUnitLength"}
TDP_RS = {NP: "NoProtections", LTP: "LongerTuplesProtected", OT: "OnlyDrawTractorOnTractor",
          LTPOT: "LongerTuplesProtectedAndOnlyDrawTractorOnTractor", NFBD: "NoFormatBasedDraw"}
# pc!(id, hands, cards) and pc!(id, hands, cards, tep) leave these at NoProtections / All.
PC = {"draw_policy": NP, "throw_evaluation": "all"}


def C(text):
    """'2S 2S 3S' -> ['2S', '2S', '3S']."""
    return text.split()


def U(text):
    """Units as shengji lists them, ' | '-separated, each unit's cards low to high with their
    multiplicity: 'QS QS KS KS | AS' -> ((2, ('QS', 'KS')), (1, ('AS',))), sorted canonically."""
    out = []
    for part in text.split("|"):
        cards = part.split()
        distinct = tuple(dict.fromkeys(cards))
        n = cards.count(distinct[0])
        assert all(cards.count(c) == n for c in distinct) and len(cards) == n * len(distinct), text
        out.append((n, distinct))
    return tuple(sorted(out))


@dataclass(frozen=True)
class Case:
    src: str                 # 'trick.rs::test_name'
    gist: str                # what the Rust line asserts, shortly
    call: str                # which check (see CHECKS in the test file)
    args: tuple              # the check's arguments (card lists as tuples)
    trump: tuple             # (trump_suit or None, trump_rank)
    opts: dict = field(default_factory=dict)   # the shengji settings the Rust line runs under
    expect: object = None
    tags: frozenset = frozenset()               # features the case needs beyond its options/check

    def __hash__(self):
        return hash((self.src, self.gist, self.call, repr(self.args), self.trump, repr(sorted(self.opts.items()))))


CASES: list[Case] = []
IMPLICIT: list[Case] = []    # follows the Rust tests play with .unwrap() from a larger hand (not counted as assertions)
NOT_EXPRESSIBLE: list[tuple[str, int, str]] = []     # (src, number of assertions, reason)


def add(src, gist, call, args, trump, opts=None, expect=None, tags=(), implicit=False):
    args = tuple(tuple(a) if isinstance(a, list) else a for a in args)
    (IMPLICIT if implicit else CASES).append(Case("trick.rs::" + src if "::" not in src else src, gist, call, args, trump,
                      dict(opts or {}), expect, frozenset(tags)))


def ne(src, n, reason):
    NOT_EXPRESSIBLE.append(("trick.rs::" + src if "::" not in src else src, n, reason))


R_POINTS = ("TrickEnded.points (the list of point cards the winner takes): card arithmetic with no oracle "
            "counterpart, not a rule of the options under test")
R_CHECKPLAY = ("UnitLike::check_play of the cards against each of several possible groupings: no counterpart "
               "(the engine groups a lead one way; follow_matches asks the cards against that one)")


def T(*plays):
    return tuple(tuple(C(p)) for p in plays)


# ================================ trick.rs ================================================================
# ---- test_play_formats: TrickUnit::find_plays(TRUMP, requirements, cards) == the set of possible
# decompositions; our lead_units returns the engine's one choice, which must be one of them.
def _formats():
    src = "test_play_formats"
    rows = [
        ("2H 3H 7H", ["7H | 3H | 2H"], {}, ()),
        ("2H 2H 2H", ["2H 2H 2H"], {}, ()),
        ("2H 2H 3H 3H", ["2H 2H 3H 3H"], {}, ()),
        ("2H 2H 3H 3H", ["3H 3H | 2H 2H"], {"tractor_min_length": 3, "tractor_min_count": 2}, ()),
        ("2H 2H 3H 3H 5H 5H", ["2H 2H 3H 3H 5H 5H"], {"tractor_min_length": 3, "tractor_min_count": 2}, ()),
        ("2H 2H 3H 3H", ["3H 3H | 2H 2H"], {"tractor_min_length": 3, "tractor_min_count": 3}, ()),
        ("2H 2H 2H 3H 3H 3H", ["2H 2H 2H 3H 3H 3H"], {"tractor_min_length": 2, "tractor_min_count": 3}, ()),
        ("2H 2H 2H 3H 3H", ["2H | 2H 2H 3H 3H", "3H 3H | 2H 2H 2H"], {}, ("throw_units",)),
        ("2H 2H 3H 3H 3H", ["3H | 2H 2H 3H 3H", "3H 3H 3H | 2H 2H"], {}, ("throw_units",)),
        ("4H 4H 4S 4S", ["4H 4H 4S 4S"], {}, ("tractor_adjacency",)),
        ("4H 4H AS AS", ["AS AS 4H 4H"], {}, ("tractor_adjacency",)),
        ("QS QS KS KS AS", ["AS | QS QS KS KS"], {}, ("throw_units",)),
        ("3H 3H 3H 5H 5H 5H", ["3H 3H 3H 5H 5H 5H"], {}, ()),
        ("2H 2H 3H 3H 3H 5H 5H 5H", ["5H 5H 5H | 3H | 2H 2H 3H 3H", "3H 3H 3H 5H 5H 5H | 2H 2H",
                                     "5H | 3H | 2H 2H 3H 3H 5H 5H"], {}, ("throw_units",)),
    ]
    for cards, decomps, req, tags in rows:
        opts = {"tractor_min_count": 2, "tractor_min_length": 2, **req}   # TractorRequirements passed explicitly
        add(src, f"find_plays({cards}) in {decomps}", "units_in", [C(cards)], S4, opts,
            frozenset(U(d) for d in decomps), tags)
        if len(decomps) == 1:   # check_play(cards, the one grouping) matches: the lead matches its own format
            add(src, f"check_play({cards}, {decomps[0]}) matches", "matches", [C(cards), C(cards)], S4, opts, True,
                tags)
    ne(src, sum(len(d) > 1 for _, d, _, _ in rows), R_CHECKPLAY)


_formats()


# ---- whole tricks: hands are given, every play is legal (unwrap); the winner and unit size asserted.
def _trick(src, trump, plays, winner, largest=None, teps=(None,), n_points=1, tags=(), extra=None):
    """plays: the cards of P1..Pn; asserts trick_winner == winner under each throw evaluation policy in
    teps (None: pc! leaves it at All), lead_units' largest unit == largest."""
    for tep in teps:
        opts = dict(PC, throw_evaluation=tep or "all")
        suffix = f" [{TEP_RS[tep]}]" if tep else ""
        add(src, f"winner == P{winner + 1}{suffix}", "winner", [T(*plays)], trump, opts, winner, tags)
        if largest is not None:
            add(src, f"largest_trick_unit_size == {largest}{suffix}", "largest_unit", [C(plays[0])], trump,
                opts, largest, tags)
    if n_points:
        ne(src, n_points * len(teps), R_POINTS)


_trick("test_play_singles_trick", S4, ["2S", "5S", "3S", "5S"], 1, 1, TEPS)
_trick("test_play_trump_trick", S4, ["2S", "4S", "3S", "5S"], 1, 1, TEPS)
_trick("test_play_pairs_trick", S4, ["2S 2S", "3S 4S", "5S 5S", "3S 5S"], 2, 2, TEPS)

# test_play_tractor_trick: P4 plays 6S x4 after P2's 6S 6S 7S 7S: 6 copies of 6S in one trick.
_trick("test_play_tractor_trick", S4, ["2S 2S 3S 3S", "6S 6S 7S 7S", "2S 5S 5S 5S", "6S 6S 6S 6S"], 1, 4, TEPS)

# test_play_throw_trick: lead 8H 8H 7H 2H (pair + two singles), trump S/4; stands (nobody holds a higher heart).
_hands = T("2H 2S 2S 2S", "2S 2S 3S 4S", "4S 4S 4S 4S")
add("test_play_throw_trick", "largest_trick_unit_size == 2 (the throw stands)", "throw_largest",
    [C("8H 8H 7H 2H"), _hands], S4, PC, 2, ("throw_units",))
add("test_play_throw_trick", "winner == P3", "winner", [T("8H 8H 7H 2H", "2H 2S 2S 2S", "2S 2S 3S 4S",
                                                         "4S 4S 4S 4S")], S4, PC, 2, ("throw_units",))
ne("test_play_throw_trick", 1, R_POINTS)

# test_play_throw_trick_double_overflip: trump H/8, three pairs of clubs overtrumped twice.
for _tep in TEPS:
    add("test_play_throw_trick_double_overflip", f"winner == P4 [{TEP_RS[_tep]}]", "winner",
        [T("AC AC QC QC 10C 10C", "8S 8S 9H 9H 3H 3H", "8H 8H KH KH 10H 10H", "SJ SJ 8H 8H KH KH")],
        ("H", "8"), dict(PC, throw_evaluation=_tep), 3)

# test_play_throw_trick_failure: 8H 8H 7H 2H fails (P4 holds 3H > 2H), the forced lead is 2H.
_hands = T("2H 2S 2S 2S", "2S 2S 3S 4S", "4S 4S 4S 3H")
add("test_play_throw_trick_failure", "largest_trick_unit_size == 1 (the throw fails, 2H is forced)",
    "throw_largest", [C("8H 8H 7H 2H"), _hands], S4, PC, 1, ("throw_units",))
add("test_play_throw_trick_failure", "winner == P3 (after the forced lead 2H)", "winner",
    [T("2H", "2H", "3S", "3H")], S4, PC, 2)
add("test_play_throw_trick_failure", "failed_throw_size == 3", "throw_failed_size", [C("8H 8H 7H 2H"), _hands],
    S4, PC, 3, ("throw_units",))
ne("test_play_throw_trick_failure", 1, R_POINTS)

# test_play_throw_tractor_extra_cards: trump throw QS QS KS KS AS; P4 holds and plays 3H x5.
add("test_play_throw_tractor_extra_cards", "largest_trick_unit_size == 4 (asked of the lead alone: P4's "
    "hand of 3H x5 is not expressible; hearts cannot beat a trump throw)", "largest_unit",
    [C("QS QS KS KS AS")], S4, PC, 4, ("throw_units",))
ne("test_play_throw_tractor_extra_cards", 2, "winner == P1 and failed_throw_size == 0: P4 holds and plays 5 "
   "copies of 3H (at most 4 per hand or play)")
ne("test_play_throw_tractor_extra_cards", 1, R_POINTS)

# ---- TrickFormat::from_cards / matches
add("test_trick_format_basic", "from_cards(2S 2S 2S) == Repeated{3, 2S} (trumps)", "units", [C("2S 2S 2S")],
    S4, {}, U("2S 2S 2S"))
add("test_trick_format_basic", "matches(2S 2S 2S) is ok", "matches", [C("2S 2S 2S"), C("2S 2S 2S")], S4, {}, True)
add("test_trick_format_basic", "matches(2S 2S) is err", "matches", [C("2S 2S 2S"), C("2S 2S")], S4, {}, False)
_tr = C("2S 2S 2S 3S 3S 3S 5S 5S 5S")
add("test_trick_format_tractor", "from_cards(222333555) == Tractor{3, [2S 3S 5S]}", "units", [_tr], S4, {},
    U("2S 2S 2S 3S 3S 3S 5S 5S 5S"), ("tractor_adjacency",))
add("test_trick_format_tractor", "matches(222333555) is ok", "matches", [_tr, _tr], S4, {}, True)
add("test_trick_format_tractor", "matches(333555666) is ok", "matches", [_tr, C("3S 3S 3S 5S 5S 5S 6S 6S 6S")],
    S4, {}, True)
add("test_trick_format_tractor", "matches(222333666) is err", "matches", [_tr, C("2S 2S 2S 3S 3S 3S 6S 6S 6S")],
    S4, {}, False)
ne("test_trick_tractor_throw", 4, "7 copies of 2S (and of 8S) in the lead, 5 copies of 2S in the follow")
add("test_trick_simple_throw", "from_cards(222 3 555) == [3S], [2S x3], [5S x3]", "units",
    [C("2S 2S 2S 3S 5S 5S 5S")], S4, {}, U("3S | 2S 2S 2S | 5S 5S 5S"), ("throw_units",))
add("test_trick_simple_throw", "matches(555 333 2) is ok", "matches",
    [C("2S 2S 2S 3S 5S 5S 5S"), C("5S 5S 5S 3S 3S 3S 2S")], S4, {}, True, ("throw_units",))


# ---- TrickFormat::is_legal_play(hand, play, draw_policy, bomb_policy): the format is led as its cards
# (TrickUnit::cards); only its suit and unit shapes matter to legality, so the one format that is no
# real lead (a tractor whose members repeat a card) is written as another tractor of that shape.
def legal(src, hand, lead, play, policy, expect, trump=S4, bomb="no_bombs", note="", tags=()):
    add(src, f"is_legal_play(hand {hand}, {play}, {TDP_RS[policy]}) == {expect}{note}", "legal",
        [C(hand), C(lead), C(play)], trump, {"draw_policy": policy, "bomb_policy": bomb}, expect, tags)


def _legal_play_pairs():
    s = "test_legal_play_pairs"
    h1 = "2S 2S 3S 3S 5S 5S"
    lead = "3S 3S"                                    # Repeated{2, S_3}
    for play, pol, exp in [("2S 2S", NP, True), ("2S 3S", NP, False), ("2S 3S 3S", NP, False),
                           ("2S 2S", NFBD, True), ("2S 3S", NFBD, True), ("2S 3S 3S", NFBD, False)]:
        legal(s, h1, lead, play, pol, exp)
    h2 = "2S 2S 2S 3S 5S"
    for pol, exp in [(LTP, True), (NFBD, True), (NP, False)]:
        legal(s, h2, lead, "3S 5S", pol, exp)
    lead3 = "3S 3S 3S"                                # Repeated{3, S_3}
    note = ""
    for play, pol, exp in [("2S 2S 5S", NP, True), ("2S 3S 5S", NP, False), ("2S 2S 5S", NP, True),
                           ("2S 3S 5S", NP, False), ("2S 3S 5S", NFBD, True)]:
        legal(s, h1, lead3, play, pol, exp, note=note)
    ne(s, 6, "format Repeated{count: 5, S_3}: a lead of 5 identical cards (at most 4 packs)")
    h3 = "2S 2S 2S 2S 3S 3S 5S 5S"
    lead4 = "2S 2S 3S 3S"                             # Tractor{2, [S_2, S_3]}
    note = ""
    for pol, rows in [(NP, [("2S 2S 2S 2S", False), ("2S 2S 3S 3S", True), ("3S 3S 5S 5S", True)]),
                      (LTP, [("2S 2S 2S 2S", False), ("2S 2S 3S 3S", True), ("3S 3S 5S 5S", True)]),
                      (LTPOT, [("2S 2S 2S 2S", False), ("2S 2S 3S 3S", True), ("3S 3S 5S 5S", True)]),
                      (NFBD, [("2S 2S 2S 2S", True), ("2S 2S 3S 3S", True), ("3S 3S 5S 5S", True)])]:
        for play, exp in rows:
            legal(s, h3, lead4, play, pol, exp, note=note, tags=("tractor_adjacency",))
    h4 = "2S 2S 2S 2S 3S 5S 5S"
    for play, pol, exp in [("2S 2S 2S 2S", NP, True), ("2S 2S 5S 5S", NP, True), ("2S 2S 5S 3S", NP, False),
                           ("2S 2S 2S 2S", NFBD, True), ("2S 2S 5S 5S", NFBD, True), ("2S 2S 5S 3S", NFBD, True),
                           ("2S 2S 2S 2S", LTP, True), ("2S 2S 5S 5S", LTP, True),
                           ("2S 2S 2S 2S", LTPOT, True), ("2S 2S 5S 5S", LTPOT, True),
                           ("2S 2S 5S 3S", LTP, True)]:
        legal(s, h4, lead4, play, pol, exp, note=note, tags=("tractor_adjacency",))
    h5 = "2S 2S 2S 5S"
    lead5 = "2S 2S 3S"                                # [Repeated{2, S_2}, Repeated{1, S_3}]
    for pol in (NP, NFBD, LTP, LTPOT):
        for play in ("2S 2S 2S", "2S 2S 5S"):
            legal(s, h5, lead5, play, pol, True, tags=("throw_units",))


_legal_play_pairs()

for _play, _pol, _exp, _hand in [
        ("6S 7S 8S", NP, False, "2S 2S 2S 2S 5S 6S 7S 8S"), ("6S 7S 8S", NFBD, True, "2S 2S 2S 2S 5S 6S 7S 8S"),
        ("6S 7S 8S", LTP, True, "2S 2S 2S 2S 5S 6S 7S 8S"),
        ("5S 5S 6S", NP, False, "2S 2S 2S 2S 5S 5S 6S 7S 8S"), ("5S 5S 6S", NFBD, True, "2S 2S 2S 2S 5S 5S 6S 7S 8S"),
        ("5S 5S 6S", LTP, True, "2S 2S 2S 2S 5S 5S 6S 7S 8S"), ("5S 5S 6S", LTPOT, True, "2S 2S 2S 2S 5S 5S 6S 7S 8S"),
        ("6S 7S 8S", LTP, False, "2S 2S 2S 2S 5S 5S 6S 7S 8S")]:
    legal("test_protected_tuple", _hand, "3S 3S 3S", _play, _pol, _exp)

for _pol, _exp in [(NP, False), (NFBD, True), (LTP, True), (OT, False), (LTPOT, True)]:
    legal("test_protected_wider_tractor", "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "6S 6S 7S 7S", "5S 6S 7S 8S", _pol, _exp)

# format (spades, trump H/4): Tractor{count 2, members [S_9, S_9]} + Repeated{1, S_K}: a tractor of two
# pairs plus a single, written 9S 9S 10S 10S KS.
for _play, _pol, _exp in [("3S 5S 10S JS QS", NP, False), ("3S 5S 10S JS QS", NFBD, True),
                          ("3S 5S 10S JS QS", LTP, True), ("3S 6S 8S 8S 8S", NP, True),
                          ("3S 6S 8S 8S 8S", NFBD, True), ("3S 6S 8S 8S 8S", LTP, True)]:
    legal("test_protected_tractor_triple", "3S 5S 10S JS QS 6S 8S 8S 8S", "9S 9S 10S 10S KS", _play, _pol, _exp,
          trump=H4, note=" (format Tractor{2,[S_9,S_9]} + S_K written 9S 9S 10S 10S KS)", tags=("throw_units",))

# format (spades, trump H/4) Tractor{2, [S_6, S_7]} + Repeated{1, S_5}
_ld = "6S 6S 7S 7S 5S"
legal("test_longer_tuple_bypasses_genuine_false_positive", "6S 6S 6S 8S 8S", _ld, "6S 6S 6S 8S 8S",
      LTP, True, H4, tags=("throw_units",))
legal("test_longer_tuple_bypasses_genuine_false_positive", "6S 6S 6S 8S 8S", _ld, "6S 6S 6S 8S 8S",
      LTPOT, True, H4, tags=("throw_units",))
legal("test_longer_tuple_bypasses_genuine_false_positive", "6S 6S 6S 8S 8S JS JS", _ld,
      "6S 6S 6S 8S 8S", LTP, False, H4, tags=("throw_units",))

# test_play_throw_tractor_with_other_tractor_in_game (trump H/4): P4 holds and plays 3S x5.
add("test_play_throw_tractor_with_other_tractor_in_game", "largest_trick_unit_size == 4 (asked of the lead "
    "alone: P4's hand of 3S x5 is not expressible)", "largest_unit",
    [C("QS QS KS KS AS")], H4, PC, 4, ("throw_units",))
ne("test_play_throw_tractor_with_other_tractor_in_game", 2, "winner == P2 and failed_throw_size == 0: P4 holds and "
   "plays 5 copies of 3S (at most 4 per hand or play)")
ne("test_play_throw_tractor_with_other_tractor_in_game", 1, R_POINTS)

# test_long_tractor_decomposition_draws_pairs (trump S/K): lead 7S 7S 8S 8S 9S 9S; P2 holds SK SK, a pair.
_s = "test_long_tractor_decomposition_draws_pairs"
_h2 = "4S 10S AS KH KD KC KS KS"
for _pol in (NP, LTP, NFBD, OT, LTPOT):
    if _pol == NFBD:
        legal(_s, _h2, "7S 7S 8S 8S 9S 9S", "4S 10S AS KH KD KC", _pol, True, trump=("S", "K"))
    else:
        legal(_s, _h2, "7S 7S 8S 8S 9S 9S", "4S 10S AS KH KD KC", _pol, False, trump=("S", "K"))
        legal(_s, _h2, "7S 7S 8S 8S 9S 9S", "4S 10S AS KH KS KS", _pol, True, trump=("S", "K"))

# ---- throw evaluation policies
for _tep, _w in [("all", 2), ("highest", 3)]:
    add("test_throw_evaluation_policy_highest_card", f"winner == P{_w + 1} [{TEP_RS[_tep]}]", "winner",
        [T("4C 6C", "2S 3S", "3S 4S", "2S BJ")], ("S", "K"), dict(PC, throw_evaluation=_tep), _w)
for _tep, _w in [("all", 1), ("highest", 3), ("trick_unit_length", 2)]:
    add("test_throw_evaluation_policy_trick_unit_length", f"winner == P{_w + 1} [{TEP_RS[_tep]}]", "winner",
        [T("AH KH KH KH 9H 9H", "5S 5S 5S QS QS AS", "5S 5S 5S AS AS 4S", "4S 4S 4S 3S 3S BJ")], ("S", "2"),
        dict(PC, throw_evaluation=_tep), _w, ("throw_units",))

add("test_throw_of_trump_rank_in_trump", "largest_trick_unit_size == 1", "largest_unit", [C("4H 4S")], S4, PC, 1)
add("test_throw_of_trump_rank_in_trump", "winner == P1", "winner", [T("4H 4S", "4D 2S", "3S 3S", "3S 3S")], S4,
    PC, 0)
ne("test_throw_of_trump_rank_in_trump", 1, R_POINTS)

for _tep in TEPS:
    add("test_trump_throw_single_cards", f"winner == P3 [{TEP_RS[_tep]}]", "winner",
        [T("AC KC", "5C AD", "SJ 5S", "QS AD")], ("D", "5"), dict(PC, throw_evaluation=_tep), 2)
    add("test_trick_format_multi_parse", f"winner == P4 [{TEP_RS[_tep]}]", "winner",
        [T("8D 8D JD QD", "5C 5C AC 2S", "3S 3S 7C 8C", "6C 6C 2C 2C")], ("C", "2"),
        dict(PC, throw_evaluation=_tep), 3, ("throw_units",))


# ---- bombs
def bomb_trick(src, trump, plays, winner, bomb):
    add(src, f"winner == P{winner + 1} [{bomb}]", "winner", [T(*plays)], trump, dict(PC, bomb_policy=bomb), winner)


bomb_trick("test_bomb_beats_tractor", S4, ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 5S 6S 7S", "3S 5S 6S 7S"], 1,
           "allow_bombs")
bomb_trick("test_higher_bomb_beats_lower_bomb", S4, ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 3S 3S 3S", "5S 6S 7S 10S"],
           2, "allow_bombs")
bomb_trick("test_bomb_not_allowed_when_policy_disabled", S4,
           ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 5S 6S 7S", "3S 5S 6S 7S"], 0, "no_bombs")
ne("test_bomb_six_cards_beats_six_card_tractor", 1, "P2's bomb is 6 copies of 3S")
bomb_trick("test_trump_bomb_beats_non_trump_bomb", H4, ["8S 8S 9S 9S", "2S 2S 2S 2S", "3H 3H 3H 3H", "5S 6S 7S 10S"],
           2, "allow_bombs")
bomb_trick("test_three_identical_cards_not_a_bomb", S4, ["8S 8S 9S", "2S 2S 2S", "3S 5S 6S", "3S 5S 6S"], 0,
           "allow_bombs")
bomb_trick("test_bomb_suit_following_same_suit_allowed", S4,
           ["8S 8S 9S 9S", "2S 2S 2S 2S", "3S 5S 6S 7S", "3S 5S 6S 7S"], 1, "allow_bombs_suit_following")
legal("test_bomb_suit_following_off_suit_rejected_when_has_led_suit", "2D 2D 2D 2D 3S", "8S 8S 9S 9S",
      "2D 2D 2D 2D", NP, False, trump=H4, bomb="allow_bombs_suit_following")
bomb_trick("test_bomb_suit_following_off_suit_allowed_when_void", H4,
           ["8S 8S 9S 9S", "2D 2D 2D 2D", "3S 5S 6S 7S", "3S 5S 6S 7S"], 1, "allow_bombs_suit_following")
bomb_trick("test_bomb_suit_following_trump_bomb_allowed", H4,
           ["8S 8S 9S 9S", "3H 3H 3H 3H", "3S 5S 6S 7S", "3S 5S 6S 7S"], 1, "allow_bombs_suit_following")

_s = "test_triple_in_play_does_not_satisfy_pair_when_genuine_pair_available"
_ld = "10H 10H JH JH QH QH"
legal(_s, "KH KH 2H 2H 2H 5H 6H 7H 8H", _ld, "2H 2H 2H 5H 6H 7H", LTP, False, bomb="allow_bombs")
legal(_s, "KH KH 2H 2H 2H 5H 6H 7H 8H", _ld, "2H 2H KH KH 5H 6H", LTP, True, bomb="allow_bombs")
legal(_s, "2H 2H 2H 5H 6H 7H 8H 9H JH", _ld, "2H 2H 2H 5H 6H 7H", LTP, True, bomb="allow_bombs")

_s = "test_longer_tuple_guard_requires_enough_genuine_tuples"
for _bp in ("no_bombs", "allow_bombs"):
    legal(_s, "2S 2S 2S 2S 3S 5S 5S", "2S 2S 3S 3S", "2S 2S 2S 2S", LTP, True, bomb=_bp)
    legal(_s, "2S 2S 2S 5S 5S 6S", "3S 3S 5S", "2S 2S 2S", LTP, False, bomb=_bp, tags=("throw_units",))
    legal(_s, "2S 2S 2S 5S 5S 6S", "3S 3S 5S", "5S 5S 2S", LTP, True, bomb=_bp, tags=("throw_units",))
    legal(_s, "2S 2S 2S 6S 7S 8S", "3S 3S 5S", "2S 2S 2S", LTP, True, bomb=_bp, tags=("throw_units",))

bomb_trick("test_leader_bomb_not_beaten_by_lower_bomb", S4, ["JH JH JH JH", "2H 2H 2H 2H", "5C 6C 7C 8C",
                                                              "5C 6C 7C 8C"], 0, "allow_bombs")
bomb_trick("test_higher_bomb_beats_leader_bomb", S4, ["2H 2H 2H 2H", "JH JH JH JH", "5C 6C 7C 8C", "5C 6C 7C 8C"],
           1, "allow_bombs")
ne("test_larger_bomb_beats_smaller_bomb_regardless_of_order", 1, "6-card bombs: 6 copies of 2H, JH and 3H")

# ---- rainbows. shengji's `Trump::NoTrump { number: None }` (no trump rank: only the jokers are trumps)
# is (None, None).
NT = (None, None)
RB = {"rainbows": 4}
add("test_rainbow_detection_valid", "from_cards(5C 5D 5H 5S).is_rainbow()", "format", [C("5C 5D 5H 5S")], S4, RB,
    "rainbow")
add("test_rainbow_detection_valid", "from_cards(5C 5D 5H 5S).size() == 4", "unit_cards", [C("5C 5D 5H 5S")], S4,
    RB, 4)
add("test_rainbow_detection_too_few_cards", "from_cards(5C 5D 5H) is err (rainbows(4))", "format",
    [C("5C 5D 5H")], S4, RB, None)
add("test_rainbow_detection_too_few_suits", "from_cards(5C x4) is no rainbow", "format", [C("5C 5C 5C 5C")], S4, RB,
    "set")
add("test_rainbow_detection_mixed_numbers", "from_cards(5C 6D 5H 5S) is err", "format", [C("5C 6D 5H 5S")], S4, RB,
    None)
add("test_rainbow_disabled_by_default", "from_cards(5C 5D 5H 5S) is err (rainbows off)", "format",
    [C("5C 5D 5H 5S")], S4, {"rainbows": 0}, None)
add("test_rainbow_winner_higher_number_wins", "winner == P2", "winner",
    [T("5C 5D 5H 5S", "6C 6D 6H 6S", "3C 3D 3H 3S", "2C 2D 2H 2S")], NT, dict(PC, **RB), 1)
add("test_rainbow_winner_leader_wins_if_no_higher_rainbow", "winner == P1", "winner",
    [T("8C 8D 8H 8S", "3C 4D 5H 6S", "3C 4D 5H 6S", "3C 4D 5H 6S")], NT, dict(PC, **RB), 0)
add("test_rainbow_must_play_rainbow_if_available", "play_cards(P2, 3C 4D 7H 9S) is err", "legal",
    [C("6C 6D 6H 6S 3C 4D 7H 9S"), C("5C 5D 5H 5S"), C("3C 4D 7H 9S")], NT, dict(PC, **RB), False)
add("test_rainbow_must_play_rainbow_if_available", "winner == P2", "winner", [T("5C 5D 5H 5S", "6C 6D 6H 6S")], NT,
    dict(PC, **RB), 1)
add("test_rainbow_no_rainbow_available_anything_legal", "winner == P1", "winner",
    [T("5C 5D 5H 5S", "3C 4D 7H 9S")], NT, dict(PC, **RB), 0)
_rb8 = C("5C 5D 5H 5S 8C 8D 8H 8S")
_low = C("2C 2D 2H 2S 3C 3D 3H 3S")
add("test_multi_rainbow_throw_detection", "the standing throw's format is_rainbow()", "throw_format",
    [_rb8, (tuple(_low),)], NT, dict(PC, **RB), "rainbow", ("throw_outcome",))
add("test_multi_rainbow_throw_detection", "the standing throw's format has 2 units", "throw_units",
    [_rb8, (tuple(_low),)], NT, dict(PC, **RB), 2, ("throw_outcome",))
add("test_multi_rainbow_throw_detection", "the standing throw's format has size 8", "throw_size",
    [_rb8, (tuple(_low),)], NT, dict(PC, **RB), 8, ("throw_outcome",))
add("test_multi_rainbow_throw_follower_must_play_rainbows", "winner == P1 ([8, 5] > [3, 2])", "winner",
    [(tuple(_rb8), tuple(_low))], NT, dict(PC, **RB), 0)
add("test_multi_rainbow_is_legal_play_obligation", "2s + 3s legal when the hand has them", "legal",
    [_low, _rb8, _low], NT, {"draw_policy": NP, "bomb_policy": "no_bombs", **RB}, True)
ne("test_multi_rainbow_is_legal_play_obligation", 1, "asserts `!is_legal_play(..) || true`: cannot fail, "
   "nothing to translate")
add("test_multi_rainbow_is_legal_play_obligation", "any 8 cards legal when the hand cannot fill both units",
    "legal", [C("2C 2D 2H 3C 3D 3H 6C 7D"), _rb8, C("2C 2D 2H 3C 3D 3H 6C 7D")], NT,
    {"draw_policy": NP, "bomb_policy": "no_bombs", **RB}, True)
_hi = C("9C 9D 9H 9S 2C 3D 4H 7S")
add("test_multi_rainbow_throw_invalidated_when_beatable", "ThrowFailed (P2's 9s beat a unit)", "throw_led",
    [_rb8, (tuple(_hi),)], NT, dict(PC, **RB), tuple(sorted(C("5C 5D 5H 5S"))), ("throw_outcome",))
add("test_multi_rainbow_throw_invalidated_when_beatable", "still a rainbow after invalidation", "throw_format",
    [_rb8, (tuple(_hi),)], NT, dict(PC, **RB), "rainbow", ("throw_outcome",))
add("test_multi_rainbow_throw_invalidated_when_beatable", "one unit remains", "throw_units",
    [_rb8, (tuple(_hi),)], NT, dict(PC, **RB), 1, ("throw_outcome",))

# ================================ types.rs ================================================================
ne("types.rs::test_char_roundtrip", 1, "Card::from_char/as_char (Unicode playing-card characters): no counterpart")
ne("types.rs::test_deck_completeness", 1, "the Unicode string of shengji's FULL_DECK: no counterpart")
add("types.rs::test_ordering", "sort by Trump{S, 2}.compare: 4H 5H 6H 4C 3D 3S 2H 2S SJ BJ", "order",
    [C("4H 5H 6H 4C 3D 3S 2H 2S SJ BJ")], ("S", "2"), {}, ("H", "H", "H", "C", "D", "T", "T", "T", "T", "T"))
# successor(c): the cards x with c c x x a tractor, as the engine computes it (lead_units)
_ADJ = [
    (S4, "3S", "==", ["5S"]), (S4, "4S", "==", ["SJ"]), (S4, "4H", "contains", "4S"), (S4, "AS", "contains", "4H"),
    (S4, "AH", "==", []),
    ((None, "4"), "3S", "==", ["5S"]), ((None, "4"), "4S", "==", ["SJ"]), ((None, "4"), "4H", "==", ["SJ"]),
    ((None, "4"), "AS", "==", []), ((None, "4"), "AH", "==", []),
    (NT, "3S", "==", ["4S"]), (NT, "AS", "==", []), (NT, "AH", "==", []),
    (("S", "A"), "3S", "==", ["4S"]), (("S", "A"), "AS", "==", ["SJ"]), (("S", "A"), "AH", "==", ["AS"]),
    (("S", "A"), "KS", "contains", "AH"), (("S", "A"), "KH", "==", []),
    ((None, "A"), "3S", "==", ["4S"]), ((None, "A"), "AS", "==", ["SJ"]), ((None, "A"), "AH", "==", ["SJ"]),
    ((None, "A"), "KS", "==", []), ((None, "A"), "KH", "==", []),
]
for _t, _c, _rel, _x in _ADJ:
    _tags = ("tractor_adjacency",) + (("trump_rank_A",) if _t[1] == "A" else ())
    _rs = "Standard{%s, %s}" % _t if _t[0] else "NoTrump{%s}" % ("None" if _t is NT else _t[1])
    add("types.rs::test_adjacent", f"{_rs}.successor({_c}) {_rel} {_x}", "successors", [_c, _rel], _t,
        {}, _x if _rel == "contains" else tuple(_x), _tags)
ne("types.rs::test_serde", 1, "Rank string round trip: no counterpart")
ne("types.rs::test_rank_successor", 3, "Rank::successor (2..A then NoTrump): shengji's rank ladder, no oracle")

# ================================ format_match.rs =========================================================
# find_format_matches(units, counts): the ways to take the units from the trump cards `counts`. A hand of
# exactly those trumps following a trump lead of that format under no_protections must play one of them,
# so the legal follows are those ways (as multisets). Orders of shengji's enumeration are not a rule.
_hand = C("2S 2S 3S 3S 3S 5S 5S 5S BJ")
_FM = {"draw_policy": NP}
add("format_match.rs::test_tuple_format_match", "[[1]] -> BJ, 5S, 3S, 2S", "follows", [_hand, C("6S")], S4, _FM,
    frozenset({("BJ",), ("5S",), ("3S",), ("2S",)}))
add("format_match.rs::test_tuple_format_match", "[[2]] -> 55, 33, 22", "follows", [_hand, C("6S 6S")], S4, _FM,
    frozenset({("5S", "5S"), ("3S", "3S"), ("2S", "2S")}))
ne("format_match.rs::test_multiple_tuple_format_match", 2, "v[0] (the first match in shengji's enumeration "
   "order): an internal order, not a rule")
add("format_match.rs::test_multiple_tuple_format_match", "[[1],[1]]: 9 matches", "n_follows", [_hand, C("6S 8S")],
    S4, _FM, 9, ("throw_units",))
add("format_match.rs::test_multiple_tuple_format_match", "[[2],[2]]: 3 matches", "n_follows",
    [_hand, C("6S 6S 8S 8S")], S4, _FM, 3, ("throw_units",))
add("format_match.rs::test_tractor_format_match", "[[2,2]] -> 3355, 2233", "follows", [_hand, C("7S 7S 8S 8S")],
    S4, _FM, frozenset({("3S", "3S", "5S", "5S"), ("2S", "2S", "3S", "3S")}), ("tractor_adjacency",))
ne("format_match.rs::test_multiple_tractor_format_match", 1, "v[0]: shengji's enumeration order")
add("format_match.rs::test_multiple_tractor_format_match", "[[2,2],[2,2]]: 6 matches", "n_follows",
    [C("2S 2S 2S 2S 3S 3S 3S 3S 5S 5S 5S 5S 6S 6S 6S 6S BJ"), C("7S 7S 8S 8S 10S 10S JS JS")], S4, _FM, 6,
    ("throw_units", "tractor_adjacency"))
ne("format_match.rs::test_very_large_tractor_throw", 2, "counts of 10 copies of a card")
ne("format_match.rs::test_really_long_silly_requirements", 2, "counts of 10 copies of a card")

# ================================ ordered_card.rs, hands.rs ================================================
ne("ordered_card.rs::test_subsequent_decomposition_ordering", 21, "internal enumeration order of shengji's "
   "format decompositions: no counterpart")
ne("ordered_card.rs::test_full_decomposition_ordering", 6, "internal enumeration: no counterpart")
ne("ordered_card.rs::test_compute_adjacent_assignments", 4, "internal enumeration: no counterpart")
ne("ordered_card.rs::test_find_tuple_partitions", 6, "integer partitions: no counterpart")
ne("hands.rs::test_add_remove", 5, "Hands bookkeeping (add/remove, 3 asserts + 2 unwrap_err): no counterpart")

# ================================ implicit checks ==========================================================
# play_cards(..).unwrap() of a follow chosen from a larger hand: shengji's test fails if it is illegal.
def implicit(src, hand, lead, play, trump=S4, policy=NP, bomb="no_bombs", extra=None):
    add(src, f"(unwrap) {play} from {hand} follows {lead} [{TDP_RS[policy]}]", "legal", [C(hand), C(lead), C(play)],
        trump, {"draw_policy": policy, "bomb_policy": bomb, **(extra or {})}, True, implicit=True)


for _h, _p in [("2S 3S 5S", "5S"), ("2S 3S 5S", "3S"), ("2S 3S 5S", "5S")]:
    implicit("test_play_singles_trick", _h, "2S", _p)
for _h, _p in [("2H 3H 4S", "4S"), ("2S 3S 5S", "3S"), ("2S 3S 5S", "5S")]:
    implicit("test_play_trump_trick", _h, "2S", _p)
for _h, _p in [("2H 3S 4S", "3S 4S"), ("5S 5S 5S", "5S 5S"), ("3S 4S 5S", "3S 5S")]:
    implicit("test_play_pairs_trick", _h, "2S 2S", _p)
for _h, _p in [("6S 6S 7S 7S 4S", "6S 6S 7S 7S"), ("2S 5S 5S 5S 4S", "2S 5S 5S 5S"),
               ("6S 6S 6S 6S 4S", "6S 6S 6S 6S")]:
    implicit("test_play_tractor_trick", _h, "2S 2S 3S 3S", _p)
for _h, _p in [("2H 2S 2S 2S", "2H"), ("2S 2S 3S 4S", "3S"), ("4S 4S 4S 3H", "3H")]:
    implicit("test_play_throw_trick_failure", _h, "2H", _p)
for _pol in (NP, LTP, NFBD, OT, LTPOT):
    implicit("test_long_tractor_decomposition_draws_pairs", "2S 6S JS QS KH KC 10C SJ", "7S 7S 8S 8S 9S 9S",
             "2S 6S JS QS KH KC", ("S", "K"), _pol)
    implicit("test_long_tractor_decomposition_draws_pairs", "4C 6C 7C 3S 3S BJ 5C 8C", "7S 7S 8S 8S 9S 9S",
             "4C 6C 7C 3S 3S BJ", ("S", "K"), _pol)
implicit("test_bomb_suit_following_trump_bomb_allowed", "3H 3H 3H 3H 5S", "8S 8S 9S 9S", "3H 3H 3H 3H", H4,
         bomb="allow_bombs_suit_following")
implicit("test_rainbow_must_play_rainbow_if_available", "6C 6D 6H 6S 3C 4D 7H 9S", "5C 5D 5H 5S", "6C 6D 6H 6S",
         NT, extra=RB)
