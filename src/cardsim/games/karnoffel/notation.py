"""Karnöffel's card notation and the checking of scenario arguments: the Python code that both the
face (cardsim.games.karnoffel, which re-exports it) and the glue (_spec) use, kept apart from the
face so that the glue never imports the face (no import cycle)."""
from __future__ import annotations

from cardsim.core._engine import check_int
from cardsim.core.notation import SuitedPack, disjoint_hands
from cardsim.errors import ConfigError

# ---- card notation: id = suit*12 + rank, suits S H D C, ranks 2..K (no Aces) --------------------
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_PACK = SuitedPack("karnoffel", RANKS)
DISPLAY_ORDER = _PACK.display_order
card_str = _PACK.card_str            # identity -> 'KS', '10H'
parse_suit = _PACK.parse_suit        # 'S' / '♥' -> 0..3
parse_card = _PACK.parse_card        # 'KS', '10H', 'TD', '7♦' -> identity (no Aces in this deck)
mask_to_cards = _PACK.mask_to_cards  # mask -> cards in display order (S H D C, high to low)
cards_to_mask = _PACK.cards_to_mask  # card strings -> mask



def _scenario(spec, hands, dealer, up):
    """Check and convert scenario()'s arguments for `spec` (a KarnoffelSpec), then build the
    state with the spec's struct setter."""
    n = spec.num_players
    masks, _ = disjoint_hands("karnoffel", hands, n, cards_to_mask, 5)
    d = check_int(dealer, "karnoffel: dealer", 0, n - 1, ConfigError)
    if up is None:
        ups = [parse_card(h[0]) for h in hands]
    else:
        if not isinstance(up, (list, tuple)) or len(up) != n:
            raise ConfigError(f"karnoffel: up must list {n} face-up cards, one per seat")
        ups = [parse_card(u) for u in up]
    if any(not (masks[q] >> ups[q]) & 1 for q in range(n)):
        raise ConfigError("karnoffel: up[q] must be a card of hand q")
    return spec._set_deal(list(masks), d, ups)
