"""Analysis above the runner: `summary` (the Summary object: verdict, units, teams, category
tables), `compare` (two runs, paired deal by deal when they share game, seed and deals), `skill`
(restricted-play balance analysis) and `sweep` (variants or option values on the same seeds).

This package's __init__ imports nothing, so that any layer may import one of its modules without
pulling in the others (the import graph of src/cardsim is acyclic: tests/test_layers.py).
"""
