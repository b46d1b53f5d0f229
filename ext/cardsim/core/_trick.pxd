# The trick record every trick game keeps for its current trick: who led, who played in which
# order, what each seat played (single-card games), and the winner once decided.
#
# Single-card games (Joffre Whist, Karnöffel, Gleek, ...) use `card` directly. Multi-card games
# (Zhao Pengyou, Tien Gow, Six Tigers) keep their plays as packed Hands in their own struct
# (Hand plays[seat]) and use the record for leader / order / winner only, leaving `card` at -1
# (trick_add_seat). 28 bytes, fixed size, memcpy-clonable like every state.
#
# Positional mode: a game whose plays always go round the table (the i-th play of a trick is by
# seat (leader + i) mod players, every seat plays) may skip `order[]`: it opens the deal's first
# trick with trick_start, records plays with trick_add_positional and opens each next trick with
# trick_reopen. order[] then stays -1 and winner stays -1, so the helpers that read them
# (trick_seat_of, trick_card_at, trick_cards, trick_index_of, trick_set_winner, trick_close) are
# NOT valid on a positional record (trick_card_at would index card[-1]); the positional helpers
# below give the same answers from the leader. A record is positional or ordered for its whole
# life; the two modes are never mixed in one game.
from libc.string cimport memset
from cardsim.core._types cimport int8_t, MAX_PLAYERS

ctypedef struct TrickRecord:
    int8_t leader                # seat that led, -1 before trick_start
    int8_t n                     # plays made so far
    int8_t size                  # plays that complete the trick (seats taking part)
    int8_t winner                # winning seat once decided (trick_set_winner), else -1
    int8_t order[MAX_PLAYERS]    # order[i] = seat of the i-th play
    int8_t card[MAX_PLAYERS]     # card[seat] = card that seat played, -1 = none

cdef inline void trick_reset(TrickRecord* t) noexcept nogil:
    """No trick in progress: leader, winner and every card -1, no plays."""
    t.leader = -1
    t.n = 0
    t.size = 0
    t.winner = -1
    memset(t.order, -1, sizeof(t.order))
    memset(t.card, -1, sizeof(t.card))

cdef inline void trick_start(TrickRecord* t, int leader, int size) noexcept nogil:
    """Open a trick led by `leader` that `size` plays (1..MAX_PLAYERS) complete."""
    trick_reset(t)
    t.leader = <int8_t>leader
    t.size = <int8_t>size

cdef inline void trick_add(TrickRecord* t, int seat, int card) noexcept nogil:
    """Record that `seat` played `card` (the next play in order). Precondition: not done."""
    t.order[t.n] = <int8_t>seat
    t.card[seat] = <int8_t>card
    t.n += 1

cdef inline void trick_add_seat(TrickRecord* t, int seat) noexcept nogil:
    """Record that `seat` played (multi-card games keep the play itself as a Hand)."""
    t.order[t.n] = <int8_t>seat
    t.n += 1

cdef inline int trick_seat_of(const TrickRecord* t, int i) noexcept nogil:
    """Seat of the i-th play (0 = the leader), -1 if not made yet."""
    return t.order[i] if 0 <= i < t.n else -1

cdef inline int trick_card_at(const TrickRecord* t, int i) noexcept nogil:
    """Card of the i-th play in play order (single-card games); i < t.n."""
    return t.card[t.order[i]]

cdef inline int trick_cards(const TrickRecord* t, int8_t* out) noexcept nogil:
    """out[i] = card of the i-th play, for the game's trick-winner rule; returns t.n."""
    cdef int i
    for i in range(t.n):
        out[i] = t.card[t.order[i]]
    return t.n

cdef inline int trick_index_of(const TrickRecord* t, int seat) noexcept nogil:
    """Position (0 = lead) at which `seat` played, -1 if it has not."""
    cdef int i
    for i in range(t.n):
        if t.order[i] == seat:
            return i
    return -1

cdef inline void trick_add_positional(TrickRecord* t, int seat, int card) noexcept nogil:
    """Positional mode: `seat` played `card` (card[seat] and n; order[] is not kept).
    Precondition: not done, and seat is (leader + n) mod players."""
    t.card[seat] = <int8_t>card
    t.n += 1

cdef inline void trick_reopen(TrickRecord* t, int leader) noexcept nogil:
    """Positional mode: open the next trick, led by `leader`, of the same size. The record is
    then what trick_start(t, leader, t.size) makes of a positional record: a positional play
    changes only n and card[], and order[] and winner stay -1, so only those are reset."""
    t.leader = <int8_t>leader
    t.n = 0
    memset(t.card, -1, sizeof(t.card))

cdef inline int trick_positional_seat(const TrickRecord* t, int i, int players) noexcept nogil:
    """Positional mode: seat of the i-th play (0 = the leader), -1 if not made yet."""
    return (t.leader + i) % players if 0 <= i < t.n else -1

cdef inline int trick_positional_card_at(const TrickRecord* t, int i, int players) noexcept nogil:
    """Positional mode: card of the i-th play in play order; 0 <= i < t.n."""
    return t.card[(t.leader + i) % players]

cdef inline bint trick_done(const TrickRecord* t) noexcept nogil:
    """True once every taking part seat has played."""
    return t.n >= t.size

cdef inline bint trick_empty(const TrickRecord* t) noexcept nogil:
    """True when nobody has played yet (the next play leads)."""
    return t.n == 0

cdef inline void trick_set_winner(TrickRecord* t, int i) noexcept nogil:
    """Mark the play at position i (0 = lead) as the winner; t.winner gets its seat."""
    t.winner = t.order[i]

cdef inline int trick_close(TrickRecord* t, int i) noexcept nogil:
    """Close a complete trick: the play at position i (0 = lead) wins; the record then holds the
    next trick, led by the winner, of the same size (trick_start: no plays, winner -1). A game
    that must show the closed trick until the next lead keeps its own copy. Returns the winning
    seat."""
    cdef int w = t.order[i]
    trick_start(t, w, t.size)
    return w

cdef inline int put_trick_cards(float* o, const TrickRecord* t, int nseats, int ncards) noexcept nogil:
    """Observation block of the current trick (single-card games): for each seat in turn, a
    one-hot of ncards with the card it played (all 0 if none yet). Returns nseats * ncards,
    the floats the block takes."""
    cdef int q
    for q in range(nseats):
        if t.card[q] >= 0:
            o[q * ncards + t.card[q]] = 1.0
    return nseats * ncards

cdef inline int put_card_tricks(float* o, const int8_t* card_trick, int ncards,
                                double ntricks) noexcept nogil:
    """Observation block of when each card was played: o[c] = (trick number + 1) / ntricks for
    every card c with card_trick[c] >= 0 (0 = not played). Returns ncards."""
    cdef int i
    for i in range(ncards):
        if card_trick[i] >= 0:
            o[i] = (card_trick[i] + 1) / ntricks
    return ncards
