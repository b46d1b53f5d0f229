"""Joffre Whist, the pure rules (docs/rules/joffre_whist.md): the deal's score (§6) and the
oracles' entry points (`oracle_*`, on card ids; the public oracles of `cardsim.games.joffre_whist`
check and convert card strings, then call them). The hot rule kernels (bid ranking, TA length
rule, follow rule, trick winner) are inline in `_rules.pxd`. Nothing here sees a game state."""
from cardsim.core._types cimport int8_t, int32_t, uint64_t
from cardsim.core._bits cimport cs_popcount, card_bit
from cardsim.core._engine cimport GameSpec
from cardsim.games.joffre_whist._rules cimport (JWConfig, JW_NT, JW_TA, JW_JTA, JW_D10, JW_S2, JW_CJ,
                                                row, strain_suit, jw_follow_mask, jw_trick_winner,
                                                suit_mask)


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
    cdef uint64_t joffre = card_bit(JW_D10) | card_bit(JW_S2)
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
            if team_won[t] & card_bit(JW_CJ):
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


# ---- oracles' entry points (arguments checked by the face; the guards here only keep memory safe)
def oracle_trick_winner(list cards, int trump):
    """Index of the winning card of cards (ids 0..51, cards[0] led, 1..4 cards), trump -1..3 (§5)."""
    cdef int8_t cs[4]
    if not 1 <= len(cards) <= 4 or not -1 <= trump < 4 or not all(0 <= c < 52 for c in cards):
        raise ValueError("joffre_whist: oracle_trick_winner needs 1..4 card ids 0..51 and trump -1..3")
    for i, c in enumerate(cards):
        cs[i] = c
    return jw_trick_winner(cs, len(cards), trump)


def oracle_follow(uint64_t hand, int led_suit, int trump):
    """Mask of the cards of `hand` (a 52-bit mask) that may be played (§5)."""
    if hand >> 52 or not -1 <= led_suit < 4 or not -1 <= trump < 4:
        raise ValueError("joffre_whist: oracle_follow needs a 52-bit mask, led_suit and trump in -1..3")
    return jw_follow_mask(hand, led_suit, suit_mask(trump) if trump >= 0 else 0)


def oracle_score(GameSpec spec, list won, list tricks, int declarer, int level, int strain,
                 int named, int doubled):
    """(NS points, EW points, made) of one deal (§6) under `spec`'s options: won[p] = mask of the
    cards seat p won, tricks[p] = its tricks, the contract as level 1..7, strain 0..6 and named
    suit (-1 or 0..3)."""
    cdef uint64_t w[4]
    cdef int8_t t[4]
    cdef int32_t pts[2]
    cdef int8_t made, jt
    if (spec.name != "joffre_whist" or len(won) != 4 or len(tricks) != 4 or not 0 <= declarer < 4
            or not 1 <= level <= 7 or not 0 <= strain < 7 or not -1 <= named < 4
            or (named < 0) != (strain < JW_TA)):
        raise ValueError("joffre_whist: oracle_score needs a joffre_whist spec, 4 masks, 4 trick "
                         "counts, a seat, level 1..7, strain 0..6 and named -1..3")
    for p in range(4):
        w[p] = won[p]
        t[p] = tricks[p]
    jw_score(<const JWConfig*>spec.cfg, w, t, declarer, level, strain, named, doubled, pts, &made, &jt)
    return (pts[0], pts[1], bool(made))
