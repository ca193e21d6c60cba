"""Engine speed: random self-play where every ply enumerates legal_moves and applies a random one.

    python benchmarks/engine.py --seconds 10

Prints one line per preset, ``<preset> plies_per_s=<n> games_per_s=<n>``, then the median and p99 time of
one ``judge`` call, all measured in this one run (the machine is shared and noisy: compare ratios).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from referee import actors, apply, instantiate, judge, legal_moves, new_game
from referee.presets import DEFAULT_PLAYERS, PRESETS


def self_play(preset: str, seconds: float, seed: int = 0):
    plies = games = 0
    judged = []
    rng = random.Random(seed)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        st, _ = new_game(preset, None, [f"p{i}" for i in range(DEFAULT_PLAYERS[preset])], rng.randrange(10 ** 9))
        while True:
            acting = actors(st)
            if not acting:
                games += 1
                break
            seat = rng.choice(acting)
            move = instantiate(rng.choice(legal_moves(st, seat)), rng)
            if plies % 16 == 0:
                t0 = time.perf_counter()
                judge(st, move)
                judged.append(time.perf_counter() - t0)
            _, st, _ = apply(st, move)
            plies += 1
    return plies, games, judged


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0, help="per preset")
    args = parser.parse_args()
    all_judged = []
    for preset in PRESETS:
        t0 = time.perf_counter()
        plies, games, judged = self_play(preset, args.seconds)
        elapsed = time.perf_counter() - t0
        all_judged += judged
        print(f"{preset} plies_per_s={plies / elapsed:.0f} games_per_s={games / elapsed:.2f}")
    all_judged.sort()
    p99 = all_judged[int(len(all_judged) * 0.99)]
    print(f"judge median_us={statistics.median(all_judged) * 1e6:.0f} p99_us={p99 * 1e6:.0f} "
          f"(n={len(all_judged)})")


if __name__ == "__main__":
    main()
