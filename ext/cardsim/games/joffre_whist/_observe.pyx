"""Joffre Whist, what a seat sees and what it may believe: the observation (vt.observe; the
blocks are declared once in INFO.observation, offsets in the generated _layout.pxd) and the
resample of the hidden hands (vt.resample) under the public constraints: shown voids and the TA
length rule (§4, D6)."""
from libc.string cimport memset
from cardsim.core._types cimport card_t, int8_t, uint8_t, uint64_t
from cardsim.core._trick cimport put_trick_cards, put_card_tricks
from cardsim.core._resample cimport (resample_masks, resample_rekey, RESAMPLE_EXACT_TRIES,
                                     RESAMPLE_TOTAL_TRIES)
from cardsim.core._bits cimport cs_popcount, put_bits, card_bit, bit_low
from cardsim.core._rng cimport Rng, rng_next

from cardsim.games.joffre_whist._rules cimport JWConfig, JW_NBIDS, suit_mask, ta_length_ok
from cardsim.games.joffre_whist._state cimport JWState, JW_PH_END
from cardsim.games.joffre_whist._layout cimport *


cdef void jw_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    """Seat p's view: every block at its OBS_<BLOCK> offset (INFO.observation says what each holds)."""
    cdef const JWState* s = <const JWState*>st
    cdef const JWConfig* c = <const JWConfig*>cfg
    cdef int q, i, t
    cdef uint64_t m
    cdef int8_t card_trick[52]
    memset(card_trick, -1, sizeof(card_trick))
    put_bits(o + OBS_HAND, s.hand[p])
    for q in range(4):
        put_bits(o + OBS_PLAYED + 52 * q, s.played[q])
    for t in range(s.tricks_done + 1):        # when each card was played: its trick's number
        m = s.trick_cards[t] if t < s.tricks_done else s.trick_mask
        while m:
            card_trick[bit_low(m)] = t
            m &= m - 1
    put_card_tricks(o + OBS_CARD_TRICK, card_trick, 52, 13.0)
    put_trick_cards(o + OBS_TRICK, &s.cur, 4, 52)
    for i in range(JW_NBIDS):
        if s.bid_by[i] >= 0:
            o[OBS_BID_BY + 4 * i + s.bid_by[i]] = 1.0
    for q in range(4):
        if s.dbl_at[q] >= 0:
            o[OBS_DOUBLED_AT + 91 * q + s.dbl_at[q]] = 1.0
    for q in range(4):
        if s.pass_at[q] >= -1:
            o[OBS_PASSED_AT + 92 * q + s.pass_at[q] + 1] = 1.0
    if s.declarer >= 0:
        o[OBS_STRAIN + s.strain] = 1.0
        o[OBS_LEVEL + s.level - 1] = 1.0
        if s.named >= 0:
            o[OBS_NAMED + s.named] = 1.0
        o[OBS_DECLARER + s.declarer] = 1.0
        o[OBS_CONTRACT_DOUBLED] = s.cdoubled
        if s.trump >= 0:
            o[OBS_TRUMP + s.trump] = 1.0
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase != JW_PH_END:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    for q in range(4):
        o[OBS_TRICKS + q] = s.tricks[q] / 13.0
    o[OBS_TA_COUNT] = s.ta_count / 3.0
    o[OBS_SCORE] = s.score[0] / 100.0
    o[OBS_SCORE + 1] = s.score[1] / 100.0
    o[OBS_DEALS_DONE] = s.deal_no / <float>c.num_deals
    o[OBS_THROW_INS] = s.throw_ins / 10.0
    o[OBS_REDEALS] = s.redeals / 10.0

ctypedef struct TACheck:
    const JWState* s         # the state being resampled (hands of the hidden seats cleared)
    int p                    # the observer

cdef bint ta_world_ok(const void* ctx, const card_t* cards, const uint8_t* dest, int n) noexcept nogil:
    """Resample constraint that is not per card (§4, D6): every seat that bid TA in a suit was
    dealt >= 4 cards of it (cards still held + cards it has played)."""
    cdef const TACheck* k = <const TACheck*>ctx
    cdef const JWState* s = k.s
    cdef uint64_t dealt[4]
    cdef int q, i, suit
    for q in range(4):
        dealt[q] = s.played[q]
    for i in range(n):
        dealt[dest[i]] |= card_bit(cards[i])
    for q in range(4):
        if q == k.p or not s.ta_suits[q]:
            continue
        for suit in range(4):
            if (s.ta_suits[q] >> suit) & 1 and not ta_length_ok(dealt[q], suit):
                return False
    return True

cdef int jw_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal the cards p cannot see among the other seats with the core resample policy: each
    keeps its hand size, no seat gets a suit it has shown void in (per-card allowed seats), and
    every TA bidder was dealt >= 4 cards of each suit it named (the ta_world_ok callback). Exact
    rejection sampling first (uniform over the consistent deals), then constrained deals checked
    by the same rules; returns 0 when neither finds a consistent deal (never the true hands,
    never a deal that drops a constraint). The deal stream is replaced too, so later deals of a
    match are not leaked."""
    cdef JWState* s = <JWState*>st
    cdef uint64_t hidden = 0
    cdef uint64_t forbid[4]
    cdef uint64_t newh[4]
    cdef int room[4]
    cdef int q, t
    cdef TACheck ctx
    for q in range(4):
        room[q] = 0
        forbid[q] = <uint64_t>0xFFFFFFFFFFFFFFFF    # p's own zone takes nothing
        if q != p:
            hidden |= s.hand[q]
            room[q] = cs_popcount(s.hand[q])
            forbid[q] = 0                            # seats may not hold a suit shown void
            for t in range(4):
                if (s.void_suits[q] >> t) & 1:
                    forbid[q] |= suit_mask(t)
    ctx.s = s
    ctx.p = p
    if not resample_masks(hidden, room, forbid, 4, newh, rng, ta_world_ok, &ctx,
                          RESAMPLE_EXACT_TRIES, RESAMPLE_TOTAL_TRIES - RESAMPLE_EXACT_TRIES):
        return 0
    for q in range(4):
        if q != p:
            s.hand[q] = newh[q]
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)
    return 1

