"""An OpenSpiel algorithm on a cardsim game: OpenSpiel's own Python ISMCTS bot
(``open_spiel.python.algorithms.ismcts``) against OpenSpiel's uniform random bot, through the
``cardsim.openspiel`` adapter (chance = the engine's deal; ISMCTS determinizes with the engine's
``resample``, so it never sees the other seats' cards). Results are evaluated with pyspiel's own
game loop; the ISMCTS seat alternates.

    python examples/openspiel_ismcts.py --game exposure --games 20 --simulations 100
"""
from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cardsim.openspiel import load_game


def play(game, bots, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def run(game_name="exposure", games=20, simulations=100, seed=0):
    game = load_game(game_name)
    rng = np.random.RandomState(seed)
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    n = game.num_players()
    diffs = []
    for k in range(games):
        seat = k % n
        bots = [pyspiel.make_uniform_random_bot(p, seed + 100 * k + p) for p in range(n)]
        bots[seat] = ismcts.ISMCTSBot(game=game, evaluator=ev, uct_c=2.0, max_simulations=simulations,
                                      random_state=rng)
        r = play(game, bots, rng)
        diffs.append(r[seat] - np.mean([r[p] for p in range(n) if p != seat]))
    diffs = np.array(diffs)
    print(f"OpenSpiel ISMCTS ({simulations} simulations) vs random on cardsim {game_name}: "
          f"mean return margin {diffs.mean():+.2f} over {games} games")
    return diffs


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="exposure")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--simulations", type=int, default=100)
    a = ap.parse_args()
    run(a.game, a.games, a.simulations)
