"""The mc bot's speed: playouts per second per preset.

    python benchmarks/bots.py --decisions 8 --playouts 24

For each preset, greedy self-play deals provide ``--decisions`` turn decisions with a real choice (taken
spread over the deal); the mc bot searches each one with a playout cap (no time limit). Prints one line per
preset, ``<preset> playouts_per_s=<n> ms_per_playout=<n> decisions=<n> playouts=<n>``, then a table of
playouts per CPU second (``time.process_time``, so other processes on a shared machine count less). Compare
figures measured in one run.
"""
from __future__ import annotations

import argparse
import random
import time

from referee import actors, apply, new_game
from referee.memo import relax_gc
from referee.presets import PRESETS
from workers.bots import make
from workers.bots.observer import observe


def decision_points(preset: str, wanted: int, seed: int):
    rng = random.Random(seed)
    greedy = make("greedy")
    points = []
    while len(points) < wanted:
        st, _ = new_game(preset, None, ["a", "b", "c", "d"], rng.randrange(1 << 30))
        while actors(st):
            s = actors(st)[0]
            seen = observe(st, s)
            if not st.pending and len(seen.legal) > 2 and rng.random() < 0.15 and len(points) < wanted:
                points.append(seen)
            _, st, _ = apply(st, greedy(seen.view, seen.legal, rng, forbidden_last=seen.forbidden_last))
    return points


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=8, help="decisions searched per preset")
    parser.add_argument("--playouts", type=int, default=24, help="mc playout cap per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from referee.compiled import build
    print(f"engine: {build()[1]}", flush=True)  # a benchmark says what it measures
    relax_gc()  # as the service, workers and tournaments run the engine
    rows = []
    for preset in PRESETS:
        bot = make("mc", playouts=args.playouts, budget_ms=10 ** 9)
        total, elapsed = 0, 0.0
        for i, (view, legal, last) in enumerate(decision_points(preset, args.decisions, args.seed)):
            t0 = time.process_time()
            bot(view, legal, random.Random(i), forbidden_last=last)
            elapsed += time.process_time() - t0
            total += bot.last_stats.get("playouts", 0) if bot.last_stats else 0
            bot.last_stats = {}
        rate = total / elapsed if elapsed else 0.0
        ms = 1000 * elapsed / total if total else 0.0
        rows.append((preset, total, elapsed, rate, ms))
        print(f"{preset} playouts_per_s={rate:.1f} ms_per_playout={ms:.2f} decisions={args.decisions} "
              f"playouts={total}", flush=True)
    print(f"\nmc playouts per CPU second ({args.decisions} decisions × up to {args.playouts} playouts per preset)")
    print(f"{'preset':<10} {'playouts':>9} {'cpu_s':>7} {'playouts/s':>11} {'ms/playout':>11}")
    for preset, total, elapsed, rate, ms in rows:
        print(f"{preset:<10} {total:>9} {elapsed:>7.2f} {rate:>11.1f} {ms:>11.2f}")


if __name__ == "__main__":
    main()
