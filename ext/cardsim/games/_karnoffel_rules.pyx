"""Karnöffel, the pure rules (docs/rules/karnoffel.md): card notation and the entry points of the
rule oracles. The rule kernels themselves (chosen suit §3.4, trick winner §5) are inline in
`_karnoffel_rules.pxd`, shared by the state machine (`cardsim.games._karnoffel`) and the public
oracles (`cardsim.games.karnoffel`); nothing here sees a game state."""
from cardsim.core._types cimport int8_t, uint64_t
from cardsim.games._karnoffel_rules cimport KN_MAXP, kn_trick_winner, kn_chosen_suit

from cardsim.core.notation import SuitedPack
from cardsim.errors import ParseError

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_PACK = SuitedPack("karnoffel", RANKS)
DISPLAY_ORDER = _PACK.display_order
card_str = _PACK.card_str            # identity -> 'KS', '10H'
parse_suit = _PACK.parse_suit        # 'S' / '♥' -> 0..3
parse_card = _PACK.parse_card        # 'KS', '10H', 'TD', '7♦' -> identity (no Aces in this deck)
mask_to_cards = _PACK.mask_to_cards  # mask -> cards in display order (S H D C, high to low)
cards_to_mask = _PACK.cards_to_mask  # card strings -> mask


cdef int _load(list cards, int8_t* out) except -1:
    if not 1 <= len(cards) <= KN_MAXP:
        raise ParseError(f"karnoffel: 1 to {KN_MAXP} cards, got {len(cards)}")
    for i, c in enumerate(cards):
        if not 0 <= c < 48:
            raise ParseError(f"karnoffel: card id {c} out of range 0..47")
        out[i] = c
    return len(cards)


def oracle_trick_winner(list cards, int chosen):
    """Index of the winning card of cards (ids, cards[0] led) with the chosen suit (§5)."""
    cdef int8_t cs[KN_MAXP]
    cdef int n = _load(cards, cs)
    if not 0 <= chosen < 4:
        raise ParseError(f"karnoffel: chosen suit {chosen} out of range 0..3")
    return kn_trick_winner(cs, n, chosen)


def oracle_chosen_suit(list cards):
    """The chosen suit 0..3 from the face-up card ids in dealing order (§3.4)."""
    cdef int8_t cs[KN_MAXP]
    cdef int n = _load(cards, cs)
    return kn_chosen_suit(cs, n)
