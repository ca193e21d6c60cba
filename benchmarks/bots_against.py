"""A searching bot's playouts per CPU second against another tree's (the issue's own, say), decision by decision.

    git worktree add /tmp/base 3fdb1c3
    python benchmarks/bots_against.py /tmp/base --rounds 6
    python benchmarks/bots_against.py /tmp/base --bot policy_mc --playouts 60

``benchmarks/bots.py`` measures one tree at a time, so comparing two trees means runs a minute apart, and a shared
machine's speed drifts by half within that. Here each tree runs in a process of its own, with its own
``benchmarks/bots.py`` (its decision points, its mc bot, bots.py's defaults), and the driver asks the two in turn
for one decision's search at a time: each process does exactly what its ``bots.py`` run does, in the same order,
and the drift falls on both alike. Every round starts both processes afresh (cold, as a ``bots.py`` run). Prints
each round's ratio per preset, then per preset the playouts per CPU second of each tree pooled over the rounds,
their ratio, and the median of the rounds' ratios.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
PRESETS = ("uecda", "nanko", "gekifugo")

# Run inside each tree: one decision's search per request line "bot preset index decisions playouts seed", answered
# with [cpu seconds, playouts]. What bots.py does before searching (relax_gc where it does) is done here too.
WORKER = r"""
import json, random, sys, time
sys.path.insert(0, "benchmarks")
import bots
if hasattr(bots, "relax_gc"):
    bots.relax_gc()
points, searchers = {}, {}
for line in sys.stdin:
    name, preset, i, decisions, playouts, seed = line.split()
    i = int(i)
    if preset not in points:
        points[preset] = bots.decision_points(preset, int(decisions), int(seed))
        searchers[preset] = bots.searcher(name, int(playouts), 10 ** 9)
    point, bot = points[preset][i], searchers[preset]
    extra = {"forbidden_last": point[2]} if len(point) > 2 else {}
    t0 = time.process_time()
    bot(point[0], point[1], random.Random(i), **extra)
    elapsed = time.process_time() - t0
    done = bot.last_stats.get("playouts", 0) if bot.last_stats else 0
    bot.last_stats = {}
    print(json.dumps([elapsed, done]), flush=True)
"""


class Tree:
    """A tree's worker process."""

    def __init__(self, path: Path):
        env = dict(os.environ, PYTHONPATH=str(path))
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], cwd=path, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def search(self, preset: str, i: int, args) -> tuple[float, int]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{args.bot} {preset} {i} {args.decisions} {args.playouts} {args.seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"a worker stopped (exit {self.proc.wait()})")
        elapsed, done = json.loads(line)
        return elapsed, done

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("against", type=Path, help="the other tree (a checkout of the commit to compare with)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=8, help="decisions searched per preset")
    parser.add_argument("--bot", choices=("mc", "policy_mc"), default="mc",
                        help="the searching bot (as benchmarks/bots.py searches: policy_mc plays every candidate)")
    parser.add_argument("--playouts", type=int, default=24, help="playout cap per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from referee.compiled import build
    print(f"engine: {build()[1]}", flush=True)  # a benchmark says what it measures
    # per preset and tree: [cpu seconds, playouts] pooled, and each round's playouts per second
    pooled = {(p, t): [0.0, 0] for p in PRESETS for t in ("this", "that")}
    ratios: dict[str, list[float]] = {p: [] for p in PRESETS}
    for r in range(args.rounds):
        trees = {"this": Tree(HERE), "that": Tree(args.against.resolve())}
        order = ("this", "that") if r % 2 else ("that", "this")  # who goes first alternates too
        row = []
        for preset in PRESETS:
            rnd = {t: [0.0, 0] for t in trees}
            for i in range(args.decisions):
                for t in order:
                    elapsed, done = trees[t].search(preset, i, args)
                    rnd[t][0] += elapsed
                    rnd[t][1] += done
            for t in trees:
                pooled[preset, t][0] += rnd[t][0]
                pooled[preset, t][1] += rnd[t][1]
            ratio = (rnd["this"][1] / rnd["this"][0]) / (rnd["that"][1] / rnd["that"][0])
            ratios[preset].append(ratio)
            row.append(f"{preset} {ratio:.2f}x")
        for tree in trees.values():
            tree.close()
        print(f"round {r + 1}: " + "  ".join(row), flush=True)
    print(f"\n{args.bot} playouts per CPU second, {args.rounds} rounds of {args.decisions} decisions × up to {args.playouts} "
          f"playouts, this tree against {args.against}")
    print(f"{'preset':<10} {'this':>10} {'that':>10} {'pooled':>8} {'median':>8}")
    for preset in PRESETS:
        rate = {t: pooled[preset, t][1] / pooled[preset, t][0] for t in ("this", "that")}
        print(f"{preset:<10} {rate['this']:>10.1f} {rate['that']:>10.1f} {rate['this'] / rate['that']:>7.2f}x "
              f"{statistics.median(ratios[preset]):>7.2f}x")


if __name__ == "__main__":
    main()
