"""Karnöffel: what a seat sees (vt.observe) and the worlds consistent with it (vt.resample).

The observation's blocks are declared once in INFO.observation (src/cardsim/games/karnoffel/
info.py, with their meaning and scaling); `_layout.pxd`, generated from them by
tools/gen_layout.py, gives each block's offset OBS_<BLOCK>, at which kn_observe writes it. Seat
blocks have KN_MAXP = 6 slots whatever the table size. The engine zeroes the vector first."""
from cardsim.core._types cimport uint64_t
from cardsim.core._bits cimport cs_popcount, put_bits, card_bit
from cardsim.core._rng cimport Rng, rng_next
from cardsim.core._trick cimport put_trick_cards, put_card_tricks
from cardsim.core._resample cimport resample_masks, resample_rekey
from cardsim.games.karnoffel._rules cimport KNConfig, KN_DECK, KN_MAXP, KN_TRICKS
from cardsim.games.karnoffel._state cimport KNState, KN_PH_END
from cardsim.games.karnoffel._layout cimport *


cdef void kn_observe(const void* st, const void* cfg, int p, float* o) noexcept nogil:
    cdef const KNState* s = <const KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int q, i
    put_bits(o + OBS_HAND, s.hand[p])
    for q in range(KN_MAXP):
        if s.up[q] >= 0:
            o[OBS_UP + KN_DECK * q + s.up[q]] = 1.0
        put_bits(o + OBS_PLAYED + KN_DECK * q, s.played[q])
    put_card_tricks(o + OBS_CARD_TRICK, s.card_trick, KN_DECK, 5.0)
    put_trick_cards(o + OBS_TRICK, &s.cur, KN_MAXP, KN_DECK)
    for i in range(KN_TRICKS):
        if s.trick_leader[i] >= 0:
            o[OBS_TRICK_LEADER + KN_MAXP * i + s.trick_leader[i]] = 1.0
        if s.trick_winner[i] >= 0:
            o[OBS_TRICK_WINNER + KN_MAXP * i + s.trick_winner[i]] = 1.0
    o[OBS_CHOSEN + s.chosen] = 1.0
    o[OBS_TEAM_TRICKS] = s.team_tricks[0] / 3.0
    o[OBS_TEAM_TRICKS + 1] = s.team_tricks[1] / 3.0
    o[OBS_PHASE + s.phase] = 1.0
    if s.phase != KN_PH_END:
        o[OBS_TURN + s.turn] = 1.0
    o[OBS_DEALER + s.dealer] = 1.0
    o[OBS_OBSERVER + p] = 1.0
    o[OBS_SCORE] = s.score[0] / <float>c.match_target
    o[OBS_SCORE + 1] = s.score[1] / <float>c.match_target
    o[OBS_DEALS] = s.deal_no / (2.0 * c.match_target)


cdef int kn_resample(void* st, const void* cfg, int p, Rng* rng) noexcept nogil:
    """Redeal what p cannot see with the core resample policy: the face-down cards of the other
    seats and the stock. Each seat keeps its hand size and its own face-up card if still held
    (public, D5); there is no follow duty, so play reveals no voids, every zone may take every
    hidden card and the policy's first exact try (a uniform shuffle split seat by seat, then the
    stock) is exactly uniform over the consistent deals: one exact try, no constrained deal. The
    deal stream is replaced too (later deals of a match must not leak)."""
    cdef KNState* s = <KNState*>st
    cdef const KNConfig* c = <const KNConfig*>cfg
    cdef int N = c.nplayers
    cdef uint64_t unknown = s.stock, known
    cdef uint64_t newh[KN_MAXP + 1]
    cdef int room[KN_MAXP + 1]
    cdef int q
    for q in range(N):
        room[q] = 0
        if q == p:
            continue
        known = card_bit(s.up[q]) & s.hand[q]
        unknown |= s.hand[q] & ~known
        room[q] = cs_popcount(s.hand[q] & ~known)
        s.hand[q] = known
    room[N] = cs_popcount(s.stock)
    if not resample_masks(unknown, room, NULL, N + 1, newh, rng, NULL, NULL, 1, 0):
        return 0
    s.stock = newh[N]
    for q in range(N):
        s.hand[q] |= newh[q]
    resample_rekey(&s.rng, rng)
    rng_next(&s.rng)          # then one step on (as before the shared re-key: same streams)
    return 1
