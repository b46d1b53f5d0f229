"""Samba ADD decisions in closed form on the packed hands' bit masks (docs/rules/samba.md §4), for
_legal: an opened side's ADD candidates decided by whole classes without the hand's count
vector. Each function answers exactly what the completion
searches of `_rules` (sb_complete_new_n, sb_complete_layoff, through _legal's
add_check) would answer for the candidates it decides, and says why; the candidates it cannot
decide stay in *cand for those searches. tests/games/samba/test_agents.py pins the legal sets
and tests/games/samba/test_moves.py checks them against a brute force.
"""
# The functions are `cdef inline` in _masks.pxd (_legal calls them on every meld-phase legal set;
# a call across modules goes through a pointer and is never inlined).
