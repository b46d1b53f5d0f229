"""Hearts' card notation and the checking of scenario arguments: the Python code that both the
face (cardsim.games.hearts, which re-exports it) and the glue (_spec) use, kept apart from the
face so that the glue never imports the face (no import cycle)."""
from __future__ import annotations

from cardsim.core._engine import check_int
from cardsim.core.notation import SuitedPack, disjoint_hands
from cardsim.errors import ConfigError, short
from cardsim.games.hearts.info import PASS_DIRS, deck_size

# ---- card notation: id = suit*13 + rank, suits S H D C, ranks 2..A -------------------------------
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_PACK = SuitedPack("hearts", RANKS)
DISPLAY_ORDER = _PACK.display_order
card_str = _PACK.card_str            # identity -> 'QS', '10H'
parse_suit = _PACK.parse_suit        # 'S' / '♥' -> 0..3
parse_card = _PACK.parse_card        # 'QS', '10H', 'TD', '7♦' -> identity
mask_to_cards = _PACK.mask_to_cards  # mask -> cards in display order (S H D C, high to low)
cards_to_mask = _PACK.cards_to_mask  # card strings -> mask
REMOVED = {3: ("2D",), 4: (), 5: ("2D", "2S"), 6: ("2D", "3D", "2S", "3S")}   # D1


def deck_mask(n: int) -> int:
    """The cards in play with n players (D1)."""
    deck_size(n)                     # checks n (ConfigError)
    return ((1 << 52) - 1) & ~cards_to_mask(list(REMOVED[n]))


def _check_in_deck(mask: int, n: int, what: str) -> None:
    """ConfigError if a card of `mask` is not in the n-player pack (D1)."""
    if mask & ~deck_mask(n):
        raise ConfigError(f"hearts: {what} holds a card removed with {n} players "
                          f"({', '.join(REMOVED[n])}: docs/rules/hearts.md D1)")


def _scenario(spec, hands, dealer, pass_dir):
    """Check and convert scenario()'s arguments for `spec` (a HeartsSpec), then build the state
    with the spec's struct setter."""
    n = spec.num_players
    size = deck_size(n) // n
    masks, _ = disjoint_hands("hearts", hands, n, cards_to_mask, size)
    for q, m in enumerate(masks):
        _check_in_deck(m, n, f"hand {q}")
    d = n - 1 if dealer is None else check_int(dealer, "hearts: dealer", 0, n - 1, ConfigError)
    if pass_dir is None:
        pd = -1
    else:
        allowed = [x for x in PASS_DIRS if n == 4 or x != "across"]
        if not isinstance(pass_dir, str) or pass_dir not in allowed:
            raise ConfigError(f"hearts: pass_dir must be one of {allowed} or None, got {short(pass_dir)}")
        pd = PASS_DIRS.index(pass_dir)
    return spec._set_deal(list(masks), d, pd)
