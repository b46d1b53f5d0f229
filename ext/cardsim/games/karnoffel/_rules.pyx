"""Karnöffel, the pure rules (docs/rules/karnoffel.md): the compiled entry points of the rule
oracles. The rule kernels themselves (chosen suit §3.4, trick winner §5) are inline in
`_rules.pxd`, shared by the state machine (`_state`), the greedy agent (`_agent`) and these
oracles; nothing here sees a game state.

The oracles take card ids (0..47) that the Python face (cardsim.games.karnoffel: trick_winner,
current_winner, chosen_suit) has parsed and checked, and raise a plain ValueError on anything
else (a guard for the fixed-size buffer, never reached through the face)."""
from cardsim.core._types cimport int8_t
from cardsim.games.karnoffel._rules cimport KN_DECK, KN_MAXP, kn_trick_winner, kn_chosen_suit


cdef int _load(cards, int8_t* out) except -1:
    """Copy 1..KN_MAXP card ids into out; returns their count."""
    cdef Py_ssize_t i, n = len(cards)
    if not 1 <= n <= KN_MAXP:
        raise ValueError(f"karnoffel: 1 to {KN_MAXP} card ids, got {n}")
    for i in range(n):
        c = cards[i]
        if not 0 <= c < KN_DECK:
            raise ValueError(f"karnoffel: card id out of range 0..{KN_DECK - 1}")
        out[i] = c
    return <int>n


def oracle_trick_winner(list cards, int chosen):
    """Index of the winning card of cards (ids, cards[0] led, 1 to 6 cards: a partial trick
    gives the card winning so far) with the chosen suit 0..3 (§5)."""
    cdef int8_t cs[KN_MAXP]
    cdef int n = _load(cards, cs)
    if not 0 <= chosen < 4:
        raise ValueError("karnoffel: chosen suit out of range 0..3")
    return kn_trick_winner(cs, n, chosen)


def oracle_chosen_suit(list cards):
    """The chosen suit 0..3 from the face-up card ids in dealing order (§3.4)."""
    cdef int8_t cs[KN_MAXP]
    cdef int n = _load(cards, cs)
    return kn_chosen_suit(cs, n)
