"""Hearts, the pure rules (docs/rules/hearts.md): the compiled entry points of the rule oracles.
The rule kernels themselves (legal plays §5, trick winner §5, the points of a deal §6) are
inline in `_rules.pxd`, shared by the state machine (`_state`), the greedy agent (`_agent`) and
these oracles; nothing here sees a game state.

The oracles take card ids (0..51) and option values that the Python face
(cardsim.games.hearts: trick_winner, legal_plays, score_deal) has parsed and checked, and raise
a plain ValueError on anything else (a guard for the fixed-size buffers, never reached through
the face)."""
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.games.hearts._rules cimport (HTConfig, HT_DECK, HT_MAXP, ht_deck_of, ht_legal_mask,
                                          ht_trick_winner, ht_score_deal, ht_return, ht_full)


cdef int _load(cards, int8_t* out) except -1:
    """Copy 1..HT_MAXP card ids into out; returns their count."""
    cdef Py_ssize_t i, n = len(cards)
    if not 1 <= n <= HT_MAXP:
        raise ValueError(f"hearts: 1 to {HT_MAXP} card ids, got {n}")
    for i in range(n):
        c = cards[i]
        if not 0 <= c < HT_DECK:
            raise ValueError(f"hearts: card id out of range 0..{HT_DECK - 1}")
        out[i] = c
    return <int>n


cdef int _config(dict o, HTConfig* c) except -1:
    """Fill the rule fields of c from resolved options (the keys of INFO; checked by the face)."""
    c.nplayers = o["players"]
    if not 3 <= c.nplayers <= HT_MAXP:
        raise ValueError("hearts: players out of range 3..6")
    c.deck = ht_deck_of(c.nplayers)
    c.hand_size = 52 // c.nplayers
    c.any_club = o["first_lead"] == "any_club"
    c.no_pts_first = o["no_points_first_trick"]
    c.must_break = o["must_break_hearts"]
    c.qs_breaks = o["queen_breaks_hearts"]
    c.hearts_over_qs = o["lead_hearts_over_queen"]
    c.moon_add = o["moon"] == "add"
    c.jd_bonus = o["jd_bonus"]
    c.avoid_bonus = o["avoid_all_tricks_bonus"]
    c.openspiel_returns = o["returns"] == "openspiel"
    return 0


def oracle_trick_winner(list cards):
    """Index of the card winning cards (ids, cards[0] led, 1 to 6 cards) (§5)."""
    cdef int8_t cs[HT_MAXP]
    cdef int n = _load(cards, cs)
    return ht_trick_winner(cs, n)


def oracle_legal(dict opts, uint64_t hand, int led, bint first_trick, bint broken):
    """Mask of the legal plays from the hand mask (§5): led = led suit 0..3 or -1 on lead."""
    cdef HTConfig c
    _config(opts, &c)
    if hand & ~ht_full or not -1 <= led < 4:
        raise ValueError("hearts: hand mask or led suit out of range")
    return ht_legal_mask(&c, hand, led, first_trick, broken)


def oracle_deck(int n):
    """Mask of the cards in play with n players (D1)."""
    if not 3 <= n <= HT_MAXP:
        raise ValueError("hearts: players out of range 3..6")
    return ht_deck_of(n)


def oracle_score(dict opts, list taken):
    """(returns, deal points, shooter) of a finished deal: taken[q] = mask of the cards seat q
    took (§6-§7)."""
    cdef HTConfig c
    cdef uint64_t tk[HT_MAXP]
    cdef int32_t pts[HT_MAXP]
    cdef int q, n
    _config(opts, &c)
    n = c.nplayers
    if len(taken) != n:
        raise ValueError("hearts: one taken mask per seat")
    for q in range(n):
        tk[q] = taken[q]
        if tk[q] & ~ht_full:
            raise ValueError("hearts: taken mask out of range")
    shooter = ht_score_deal(&c, tk, n, pts)
    return ([ht_return(&c, pts, n, q) for q in range(n)], [pts[q] for q in range(n)], shooter)
