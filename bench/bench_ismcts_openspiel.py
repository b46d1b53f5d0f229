"""cardsim's ISMCTS against OpenSpiel's C++ ISMCTSBot, same number of simulations per decision,
random playouts, measured in the same run (skipped when open_spiel is not installed).

cardsim: Joffre Whist (all_pass="dealer_bids"), seat 0 searches with 'ismcts:iterations=N' inside
the batch kernel, the other seats random; simulations/s = searched decisions x N / time.
OpenSpiel: ISMCTSBot(RandomRolloutEvaluator(1), uct_c=0.7, N simulations, max-visit policy) for
player 0 on hearts and on bridge(use_double_dummy_result=false) (the card play is searched, not a
double-dummy solve per playout), the other players random; simulations/s = decisions x N / time
spent in bot.step. Target: cardsim >= 5x OpenSpiel on both.
Run: pytest bench/bench_ismcts_openspiel.py --benchmark-only -s"""
import time

import numpy as np
import pytest

import cardsim

from .conftest import ismcts_sims_per_s, smoke_mode, target

N = 200
TARGET = 5.0


def _cardsim_rate(deals):
    return ismcts_sims_per_s(cardsim.make("joffre_whist", all_pass="dealer_bids"), deals, N)


def _openspiel_rate(pyspiel, name, games):
    g = pyspiel.load_game(name)
    rng = np.random.default_rng(0)
    spent, decisions = 0.0, 0
    for k in range(games):
        bot = pyspiel.ISMCTSBot(k + 1, pyspiel.RandomRolloutEvaluator(1, k + 1), 0.7, N, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        st = g.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                o = st.chance_outcomes()
                st.apply_action(o[rng.integers(len(o))][0])
                continue
            la = st.legal_actions()
            if st.current_player() == 0 and len(la) > 1:
                t = time.perf_counter()
                a = bot.step(st)
                spent += time.perf_counter() - t
                decisions += 1
            else:
                a = la[rng.integers(len(la))]
            st.apply_action(a)
    return decisions * N / spent


def bench_ismcts_vs_openspiel(benchmark, request):
    pyspiel = pytest.importorskip("pyspiel")
    smoke = smoke_mode(request)
    deals = 1 if smoke else 20
    ours = benchmark.pedantic(_cardsim_rate, args=(deals,), rounds=1 if smoke else 3, iterations=1)
    if smoke:
        return
    rates = {"cardsim joffre_whist": ours}
    for name in ("hearts", "bridge(use_double_dummy_result=false)"):
        rates[f"openspiel {name}"] = _openspiel_rate(pyspiel, name, 2)
    benchmark.extra_info.update(rates)
    lines = [f"{k}: {v:,.0f} simulations/s" for k, v in rates.items()]
    ratios = {k: ours / v for k, v in rates.items() if k.startswith("openspiel")}
    print("\n" + "\n".join(lines))
    for k, v in ratios.items():
        target(benchmark, f"ratio cardsim / {k} (same run)", v, TARGET)
