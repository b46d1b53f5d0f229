# Samba: state struct and action layout (docs/rules/samba.md); the pure rules are _samba_rules.
from cardsim.core._types cimport int8_t, int16_t, int32_t, uint64_t
from cardsim.core._rng cimport Rng
from cardsim.core._hand cimport Hand
from cardsim.core._staged cimport Staged
from cardsim.games._samba_rules cimport SBConfig, Meld

cdef enum:
    SB_MAXP = 6
    SB_MAXS = 5              # sides (N = 5: five sides of one)
    # actions (see the module docstring)
    A_ADD = 0                # 0..52: stage one card of that kind from the hand
    A_DISCARD = 53           # 53..105: discard one card of that kind
    A_DRAW = 106             # DRAW_STOCK
    A_TAKE_PAIR = 107        # TAKE_PILE_PAIR: start the group on the top card
    A_DECLINE = 108          # DECLINE_PILE (stock empty)
    A_MELD = 109             # the staged cards become a new meld (with the top card in a pile take)
    A_FAIL = 110             # insufficient_initial_meld=penalize: give up the pending initial batch
    A_RED3 = 111             # 111, 112: PLACE_RED3 of 3H / 3D (red_three_mode=manual)
    A_ASK = 113              # GO_OUT_QUERY
    A_YES = 114              # partner's answer
    A_NO = 115
    A_LAYOFF = 116           # 116..147: the staged cards join meld slot i of the side
    A_TAKE_LAYOFF = 148      # 148..179: TAKE_PILE_LAYOFF onto slot i
    A_TAKE_SEQ = 180         # 180..211: sequence_top_card_take onto slot i
    A_MERGE_FROM = 212       # 212..243: MERGE, first meld
    A_MERGE_TO = 244         # 244..275: MERGE, second meld (joins the first)
    SB_NUM_ACTIONS = 276
    PH_DRAW = 0
    PH_MELD = 1
    PH_ANSWER = 2
    PH_END = 3

ctypedef struct SBState:
    Rng rng                  # deal stream: first dealer, shuffles, the next deals of a match
    Hand hand[6]             # cards held per seat (staged cards excluded)
    Hand known[6]            # cards every player knows seat q holds (taken from the pile)
    Staged stage             # the move under construction (core staged move; public): kind 1
    Hand aside               # cards out of play (only scenarios with an explicit stock use it)
    Hand red3[5]             # exposed red threes per side
    Meld melds[5][32]        # meld slots per side (SB_MAXMELDS)
    int8_t stock[162]        # stock kinds, top = stock[nstock - 1]
    int8_t pile[162]         # discard pile kinds, top = pile[npile - 1]
    int16_t nstock           # cards in the stock
    int16_t npile            # cards in the pile
    int16_t pile_frz         # wilds and red threes in the pile (frozen for everyone when > 0)
    int16_t batch_value      # value of the pending initial-meld melds
    int16_t req_pen[5]       # +100 per failed initial batch (penalize)
    int16_t deal_no          # deals finished (scope="match")
    int8_t phase             # PH_*
    int8_t turn              # seat to act (the partner in PH_ANSWER)
    int8_t mover             # seat whose turn it is
    int8_t dealer            # dealer of this deal
    int8_t opened[5]         # side has made its initial meld
    int8_t first_done[6]     # seat has had its first turn (dealt red threes exposed)
    int8_t melded[6]         # seat has melded or laid off this deal (concealed bonus)
    int8_t melded_at_start   # melded[mover] at the start of this turn
    int8_t partner_no        # the partner said no this turn
    int8_t asked             # GO_OUT_QUERY used this turn
    int8_t must_out          # the partner said yes: this turn goes out
    int8_t drew              # drew from the stock this turn
    int8_t pile_take         # 1: building the group on the top card; 2: its initial batch continues
    int8_t take_top          # the top card being taken (kind), -1 (the pile group's target)
    int8_t merge_from        # slot chosen by MERGE_FROM, -1
    int8_t end_type          # 0 none, 1 went out, 2 stock out / pile declined, 3 last draw red threes
    int8_t out_seat          # seat that went out, -1
    int32_t cum[5]           # cumulative scores at the start of this deal
    int32_t last[5]          # scores of the last finished deal per side
