"""Samba speed (issue: Samba). Release build: pytest bench/bench_samba.py --benchmark-only
Target: 4-player deals with random agents, batch kernel, one thread, at least 0.02 x the deals/s of
the reference loop (the trick_limit fixture of bench/conftest.py, mode 1) measured in the same run.
Also prints the actions per deal (every small action of a factored move counts)."""
import cardsim


def _actions_per_deal(game, agents, deals=200):
    r = game.spec.run_batch(1, 0, deals, list(agents))
    return float(r["actions"].mean()), float(r["decisions"].mean())


def bench_samba_random_batch(kernel_speed):
    g = cardsim.make("samba")
    acts, decs = _actions_per_deal(g, [0] * 4)      # printed first: also when the target fails
    print(f"samba 4p random: {acts:.0f} actions per deal ({decs:.0f} decisions)")
    kernel_speed(g, [0] * 4, 2_000, "samba 4p random kernel", target=0.02, smoke_deals=5, rounds=3)


def bench_samba_greedy_batch(kernel_speed):
    g = cardsim.make("samba")
    rate = kernel_speed(g, [1, 0, 1, 0], 1_000, "samba greedy/random 4p kernel", smoke_deals=5, rounds=3)
    if rate is not None:
        acts, decs = _actions_per_deal(g, [1, 0, 1, 0])
        print(f"samba 4p greedy/random: {acts:.0f} actions per deal ({decs:.0f} decisions)")
