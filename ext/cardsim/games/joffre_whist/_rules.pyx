"""Joffre Whist, the pure rules (docs/rules/joffre_whist.md): the deal's score (§6), card and bid
notation and the oracles' entry points. The hot rule kernels (bid ranking, TA length rule,
follow rule, trick winner) are inline in `_joffre_whist_rules.pxd`; the state machine
(`cardsim.games._joffre_whist`) and the public oracles (`cardsim.games.joffre_whist`) share them.
Nothing here sees a game state."""
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount
from cardsim.games._joffre_whist_rules cimport (JWConfig, JW_NT, JW_TA, JW_JTA, JW_D10, JW_S2, JW_CJ,
                                                row, strain_suit, bid_decode, bid_index,
                                                jw_follow_mask, jw_trick_winner, suit_mask)

from cardsim import cards as _cards
from cardsim.core.notation import SuitedPack
from cardsim.errors import ParseError

SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
STRAIN_NAMES = ("NT", "S", "D", "C", "H", "TA", "JTA")
_PACK = SuitedPack("joffre_whist", RANKS)
DISPLAY_ORDER = _PACK.display_order
card_str = _PACK.card_str            # identity -> 'AS', '10H'
mask_to_cards = _PACK.mask_to_cards  # mask -> cards in display order (S H D C, high to low)


def _short(value, int limit=40):
    r = repr(value)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def parse_suit(text):
    """'S' / '♥' -> 0..3 (ParseError otherwise, quoting at most 40 characters of the input)."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"joffre_whist: a suit is one of S H D C (or ♠ ♥ ♦ ♣), got {_short(text)}")
    return _PACK.parse_suit(text)


def parse_card(text):
    """'AS', '10H', 'TD', '7♦' -> identity (ParseError otherwise, quoting at most 40 characters)."""
    if not isinstance(text, str) or len(text) > 8:
        raise ParseError(f"joffre_whist: a card is a string like 'AS' or '10H', got {_short(text)}")
    return _PACK.parse_card(text)


def cards_to_mask(cards):
    """A list of card strings -> mask (a bare string, a bad card or a card given twice: ParseError)."""
    return _cards.ids_to_mask(cards, parse_card, "joffre_whist")


cdef void jw_score(const JWConfig* c, const uint64_t* won, const int8_t* tricks, int declarer,
                   int level, int strain, int named, int doubled, int32_t* pts, int8_t* made,
                   int8_t* joffre_team) noexcept nogil:
    """Score one deal (§6). Points: the contract (made: row(DT-6), slam on level 7; failed JTA:
    2 x row(level) to the opponents; failed other: row(OT-6) to the opponents), x2 when doubled;
    then Joffre (15, or 50 in a JTA contract), honours (2) and royal honours (8) to whichever
    team qualifies, never doubled. pts[0] = NS, pts[1] = EW."""
    cdef int T = declarer & 1
    cdef int DT = tricks[T] + tricks[T + 2]
    cdef int OT = 13 - DT
    cdef int holder = -1, p, t, ok
    cdef int32_t v
    cdef uint64_t joffre = ((<uint64_t>1) << JW_D10) | ((<uint64_t>1) << JW_S2)
    cdef uint64_t team_won[2]
    cdef uint64_t hon
    cdef int trump
    pts[0] = 0
    pts[1] = 0
    for p in range(4):
        if (won[p] & joffre) == joffre:
            holder = p
    team_won[0] = won[0] | won[2]
    team_won[1] = won[1] | won[3]
    ok = DT >= 6 + level
    if ok and strain == JW_JTA:
        if c.joffre_declarer_only:
            ok = holder == declarer
        else:
            ok = holder >= 0 and (holder & 1) == T
    made[0] = ok
    if ok:
        if level == 7:
            v = 2 * row(c, strain, 7) if c.slam_mode == 0 else row(c, strain, 7) + c.slam_bonus
        else:
            v = row(c, strain, DT - 6)
        pts[T] += v * (2 if doubled else 1)
    elif strain == JW_JTA:
        v = 2 * row(c, JW_JTA, level)
        pts[1 - T] += v * (2 if (doubled and c.failed_jta_double) else 1)
    elif OT > 6:
        pts[1 - T] += row(c, strain, OT - 6) * (2 if doubled else 1)
    joffre_team[0] = -1
    if holder >= 0:
        pts[holder & 1] += c.jta_joffre_bonus if strain == JW_JTA else c.joffre_bonus
        joffre_team[0] = holder & 1
    if strain == JW_NT:
        for t in range(2):
            if team_won[t] & ((<uint64_t>1) << JW_CJ):
                pts[t] += c.honours_bonus
    else:
        trump = named if strain >= JW_TA else strain_suit(strain)
        hon = (<uint64_t>0xF << 9) << (13 * trump)    # J Q K A of the trump suit
        for t in range(2):
            if c.honours_per_card:
                pts[t] += c.honours_bonus * cs_popcount(team_won[t] & hon)
            elif (team_won[t] & hon) == hon:
                pts[t] += c.honours_bonus
    hon = 0
    for t in range(4):
        hon |= (<uint64_t>0xF << 9) << (13 * t)
    for t in range(2):
        if (team_won[t] & hon) == hon:
            pts[t] += c.royal_bonus


# ---- notation -----------------------------------------------------------------------------------
def bid_str(int bi):
    cdef int lvl, strain, named
    bid_decode(bi, &lvl, &strain, &named)
    if strain >= JW_TA:
        return f"{lvl}{STRAIN_NAMES[strain]}-{SUITS[named]}"
    return f"{lvl}{STRAIN_NAMES[strain]}"

def parse_bid(text):
    """'3D', '1NT', '2TA-S', '4JTA♥', '2 TA S' -> bid index 0..90."""
    if not isinstance(text, str) or not text.strip() or len(text) > 16:
        raise ParseError(f"joffre_whist: malformed bid {_short(text)}; e.g. '3D', '1NT', '2TA-S', '4JTA-H'")
    t = text.strip().upper().replace(" ", "").replace("-", "").replace(":", "")
    if t[:1] in ("1", "2", "3", "4", "5", "6", "7"):          # ASCII digits only ('٣NT' is no bid)
        lvl = int(t[0])
        rest = t[1:]
        for strain, name in ((6, "JTA"), (5, "TA")):
            if rest.startswith(name) and len(rest) == len(name) + 1 and rest[-1] in _cards.SUIT_ALIASES:
                return bid_index(lvl, strain, _cards.SUIT_ALIASES[rest[-1]])
        if rest == "NT":
            return bid_index(lvl, 0, -1)
        if rest in _cards.SUIT_ALIASES:
            return bid_index(lvl, (1, 4, 2, 3)[_cards.SUIT_ALIASES[rest]], -1)
    raise ParseError(f"joffre_whist: malformed bid {_short(text)}; e.g. '3D', '1NT', '2TA-S', '4JTA-H'")


# ---- oracles' entry points ------------------------------------------------------------------------
def oracle_trick_winner(list cards, int trump):
    """Index of the winning card of cards (ids, cards[0] led, 1..4 cards), trump -1..3 (§5)."""
    cdef int8_t cs[4]
    if not 1 <= len(cards) <= 4:
        raise ParseError(f"joffre_whist: a trick has 1 to 4 cards, got {len(cards)}")
    if not -1 <= trump < 4:
        raise ParseError(f"joffre_whist: trump {trump} out of range -1..3")
    for i, c in enumerate(cards):
        if not 0 <= c < 52:
            raise ParseError(f"joffre_whist: card id {c} out of range 0..51")
        cs[i] = c
    return jw_trick_winner(cs, len(cards), trump)


def oracle_follow(uint64_t hand, int led_suit, int trump):
    """Mask of the cards of `hand` (a 52-bit mask) that may be played (§5)."""
    if hand >> 52 or not -1 <= led_suit < 4 or not -1 <= trump < 4:
        raise ParseError("joffre_whist: hand must be a 52-bit mask, led_suit and trump in -1..3")
    return jw_follow_mask(hand, led_suit, suit_mask(trump) if trump >= 0 else 0)
