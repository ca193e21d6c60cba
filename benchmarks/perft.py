"""The long run of the listing check (referee/perft.py): at self-play positions of every preset, plain and under
random rule switches, every proposal each seat could send is judged and the accepted outcomes are compared with
``legal_moves``, both ways. Exits 1 on any mismatch, printing each (preset, switches, seed, seq and seat reproduce
the position: ``perft.positions``).

    python benchmarks/perft.py                                  # 5,000 positions, cards up to 4 at a time
    python benchmarks/perft.py --positions 20000 --seed 7 --bound 5
    python benchmarks/perft.py --presets gekifugo --plain      # one preset, no switches

Figures in benchmarks/RESULTS.md. ``tests/engine/test_perft.py`` is the bounded run CI makes.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=5000, help="positions to check")
    parser.add_argument("--seed", type=int, default=2026, help="draws the games (presets, switches, seeds, seats)")
    parser.add_argument("--bound", type=int, default=4, help="every set of up to this many cards is proposed "
                        "(larger sets: those that read as one play)")
    parser.add_argument("--per-game", type=int, default=12, help="positions taken from one game at most")
    parser.add_argument("--presets", default="uecda,nanko,gekifugo")
    parser.add_argument("--plain", action="store_true", help="the presets only, no random switches")
    args = parser.parse_args(argv)
    from referee.compiled import build
    from referee.memo import relax_gc
    from referee.perft import run
    print(f"engine: {build()[1]}", flush=True)
    relax_gc()
    started, cpu = time.perf_counter(), time.process_time()
    totals = run(args.positions, args.seed, args.bound, args.per_game, tuple(args.presets.split(",")), not args.plain)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"positions {totals.positions} ({', '.join(f'{k}: {v}' for k, v in sorted(totals.by_preset.items()))}); "
          f"{totals.decisions} with a pending decision")
    print(f"seats checked {totals.seat_checks}; proposals judged {totals.proposals}; accepted {totals.accepted}; "
          f"distinct accepted outcomes {totals.outcomes}")
    print(f"mismatches {len(totals.mismatches)}; {wall:.0f} s wall, {cpu:.0f} s CPU")
    for m in totals.mismatches:
        print(json.dumps(m, ensure_ascii=False))
    return 1 if totals.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
