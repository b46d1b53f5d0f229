# Staged moves: a play built one card at a time (add actions) and then committed (a commit
# action, or automatically when the game says the play is whole). Used for multi-card plays
# (Zhao Pengyou leads and follows, Tien Gow's k-tile beats/discards, Six Tigers' runs and
# sets, Samba's melds and lay-offs) and for choices made card by card (Basra: the floor cards
# a played card captures; Samba: taking the pile).
#
# The game keeps one `Staged` in its state struct and decides what `target` and `kind` mean
# (Basra: target = the card being played; Samba: kind = meld / lay-off / pile, target = the
# meld id). The one rule every staged game must keep: every add the legal set offers can still
# be completed into a legal whole play. `staged_legal_adds` enforces it with the game's
# completability callback, so a legal action never leads into a dead end.
from cardsim.core._types cimport int8_t, int16_t, uint64_t
from cardsim.core._hand cimport Hand, hand_clear, hand_add, hand_remove, hand_count
from cardsim.core._bits cimport cs_ctz
from cardsim.core._actions cimport ActionSet, as_add

ctypedef struct Staged:
    Hand cards                   # the play so far (packed: copies of one identity allowed)
    int16_t n                    # cards in it
    int16_t target               # game-defined target (card being played, meld id, ...), -1 = none
    int8_t kind                  # game-defined kind of play, 0 = nothing staged

ctypedef bint (*completable_fn)(const void* ctx, const Staged* play) noexcept nogil
# True iff `play` (the staged play after a candidate add) can still be completed into a legal
# whole play. `ctx` is the game's (state, config, seat: whatever it needs).

cdef inline void staged_clear(Staged* s) noexcept nogil:
    """Nothing staged: no cards, target -1, kind 0."""
    hand_clear(&s.cards)
    s.n = 0
    s.target = -1
    s.kind = 0

cdef inline void staged_start(Staged* s, int kind, int target) noexcept nogil:
    """Begin a play of this kind and target, with no cards yet."""
    staged_clear(s)
    s.kind = <int8_t>kind
    s.target = <int16_t>target

cdef inline void staged_add(Staged* s, int k) noexcept nogil:
    """Add one copy of identity k to the play."""
    hand_add(&s.cards, k)
    s.n += 1

cdef inline void staged_remove(Staged* s, int k) noexcept nogil:
    """Take one copy of identity k back out (precondition: held)."""
    hand_remove(&s.cards, k)
    s.n -= 1

cdef inline bint staged_active(const Staged* s) noexcept nogil:
    """True while a play is under construction (started, or holding cards)."""
    return s.kind != 0 or s.n > 0

cdef inline int staged_commit(Staged* s, Hand* out) noexcept nogil:
    """Hand over the finished play: *out = its cards (if out is not NULL); clears the stage and
    returns the number of cards."""
    cdef int n = s.n
    if out != NULL:
        out[0] = s.cards
    staged_clear(s)
    return n

cdef inline int staged_legal_adds(const Staged* s, uint64_t candidates, int base,
                                  completable_fn completable, const void* ctx,
                                  ActionSet* out) noexcept nogil:
    """Add action base + k to `out` for every identity k of `candidates` (a mask of the
    identities the game could add: cards still in hand, floor cards, ...) such that the play
    with one more copy of k can still be completed (`completable`; NULL = every candidate).
    Returns the number of actions added. The game adds its commit action itself when the
    staged play is already a legal whole play."""
    cdef Staged trial
    cdef int k, cnt = 0
    while candidates:
        k = cs_ctz(candidates)
        candidates &= candidates - 1
        if completable != NULL:
            trial = s[0]
            hand_add(&trial.cards, k)
            trial.n += 1
            if not completable(ctx, &trial):
                continue
        as_add(out, base + k)
        cnt += 1
    return cnt
