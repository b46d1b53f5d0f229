"""Regenerate the golden playthroughs: python tests/playthroughs/generate.py [game ...]

For every game (or those named) and each of its CONFORMANCE_CONFIGS, plays three seeded deals
with the batch kernel (greedy on even seats, random on odd ones) and writes the action log as
strings and the final returns to tests/playthroughs/<game>.json (atomically: a temporary file
renamed, so an interrupted run never leaves a half-written golden). test_golden.py replays them.
Regenerate only for an intended rule change, and say so in the commit."""
import json
import pathlib
import sys

import cardsim
from cardsim.core._engine import kernel_actions
from cardsim.game import game_info, game_module
from cardsim.results_io import write_text_atomic

HERE = pathlib.Path(__file__).resolve().parent
SEEDS = ((1, 0), (2, 5), (3, 17))


def agents_for(n):
    return [1 if p % 2 == 0 else 0 for p in range(n)]


def playthroughs(name):
    out = []
    for cfg in game_info(name).conformance_configs:
        g = cardsim.make(name, **cfg)
        for seed, deal in SEEDS:
            acts = kernel_actions(g.spec, seed, deal, agents_for(g.num_players))
            st = g.new_state(seed=seed, deal=deal)
            log = []
            for a in acts:
                log.append(st.action_to_string(a))
                st.apply(a)
            out.append({"options": cfg, "seed": seed, "deal": deal, "actions": log,
                        "returns": st.returns().tolist()})
    return out


def main(names):
    for name in names or cardsim.GAMES:
        path = HERE / f"{name}.json"
        write_text_atomic(path, json.dumps(playthroughs(name), indent=0) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main(sys.argv[1:])
