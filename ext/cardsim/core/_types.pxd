# The one typedef module: every other module cimports its integer types from here.
from libc.stdint cimport uint8_t, int8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t

ctypedef uint8_t card_t      # a card/tile identity 0..K-1 (K <= 64), per game
ctypedef uint64_t mask_t     # one bit per identity: a set of identities / one hand layer
ctypedef int32_t action_t    # an action id 0..num_actions-1
ctypedef int8_t seat_t       # a seat 0..num_players-1, -1 for none

cdef enum:
    MAXCOPY = 4              # layers of a packed multi-deck hand (4 decks max)
    MAX_PLAYERS = 12         # largest table of any game (Zhao Pengyou)
    MAX_ACTION_WORDS = 16    # ActionSet capacity: 16 x 64 = 1024 actions
