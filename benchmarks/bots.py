"""The searching bots' speed (playouts per second per preset), and a bot's strength against three of another.

    python benchmarks/bots.py --decisions 8 --playouts 24
    python benchmarks/bots.py --strength --bot policy_mc --against mc,greedy,random --deals 60
    python benchmarks/bots.py --strength --bot policy_mc --against mc --deals 60 --switches 6

**Speed** (the default): for each preset, greedy self-play deals provide ``--decisions`` turn decisions with a real
choice (taken spread over the deal); each searching bot of ``--searchers`` (``mc``: greedy playouts; ``policy_mc``:
playouts drawn from the learned policy) searches each one with a playout cap (no time limit; ``policy_mc`` with no
early stop: every candidate played in every world). Prints one line per preset and bot, ``<preset>
playouts_per_s=<n> ms_per_playout=<n> decisions=<n> playouts=<n>`` (``mc``'s lines first, as before), then a table
of playouts per CPU second (``time.process_time``, so other processes on a shared machine count less). Compare
figures measured in one run.

**Strength** (``--strength``): for each preset and each opponent of ``--against``, a tournament (workers/tournament.py,
one process, seed ``--seed``) seats ``--bot`` against three of that opponent for ``--deals`` deals (matches of 10 deals,
the seats rotated). The searching bots get ``--budget-ms`` per decision (default 200, as served) and ``--playouts`` as
their cap (default: theirs, 400). Prints a table: the bot's mean place with its 95% interval (normal approximation,
as ``referee tournament`` prints it; 2.5 is equal strength at four seats), its share of first places, the CPU time of
its decisions (median and 99th percentile, ``time.thread_time``: its own work, not the machine's load), and the
playouts per searched turn of the bot and of a searching opponent. ``--json`` adds one JSON line per row (with the
largest decision time and the tables' rules). ``--switches K`` plays each preset's deals at K tables of eight random
rule switches (drawn from the seed; the row's preset reads ``<preset>+sw``); a bot's illegal move stops the run.
``--open-hands`` shows ``--bot`` every seat's hand (its opponents still see their own): a searching bot then plays
out the true deal instead of drawing worlds, which bounds what any belief over the hidden hands could gain it.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from referee import actors, apply, new_game
from referee.memo import relax_gc
from referee.presets import PRESETS
from workers import tournament
from workers.bots import SEARCHES, make
from workers.bots.observer import observe


def decision_points(preset: str, wanted: int, seed: int):
    rng = random.Random(seed)
    greedy = make("greedy")
    points: list = []
    while len(points) < wanted:
        st, _ = new_game(preset, None, ["a", "b", "c", "d"], rng.randrange(1 << 30))
        while actors(st):
            s = actors(st)[0]
            seen = observe(st, s)
            if not st.pending and len(seen.legal) > 2 and rng.random() < 0.15 and len(points) < wanted:
                points.append(seen)
            _, st, _ = apply(st, greedy(seen.view, seen.legal, rng, forbidden_last=seen.forbidden_last))
    return points


def searcher(name: str, playouts: int, budget_ms: float):
    """A searching bot with these bounds; ``policy_mc`` searches every candidate in every world (no early stop)."""
    extra = {"confident": 2.0, "prune": False} if name == "policy_mc" else {}
    return make(name, playouts=playouts, budget_ms=budget_ms, **extra)


def speed(args) -> None:
    rows = []
    for name in args.searchers.split(","):
        for preset in PRESETS:
            bot = searcher(name, args.playouts, 10 ** 9)
            total, elapsed = 0, 0.0
            for i, (view, legal, last) in enumerate(decision_points(preset, args.decisions, args.seed)):
                t0 = time.process_time()
                bot(view, legal, random.Random(i), forbidden_last=last)
                elapsed += time.process_time() - t0
                total += bot.last_stats.get("playouts", 0) if bot.last_stats else 0
                bot.last_stats = {}
            rate = total / elapsed if elapsed else 0.0
            ms = 1000 * elapsed / total if total else 0.0
            rows.append((name, preset, total, elapsed, rate, ms))
            label = preset if name == "mc" else f"{preset} {name}"
            print(f"{label} playouts_per_s={rate:.1f} ms_per_playout={ms:.2f} decisions={args.decisions} "
                  f"playouts={total}", flush=True)
    print(f"\nplayouts per CPU second ({args.decisions} decisions × up to {args.playouts} playouts per preset)")
    print(f"{'bot':<10} {'preset':<10} {'playouts':>9} {'cpu_s':>7} {'playouts/s':>11} {'ms/playout':>11}")
    for name, preset, total, elapsed, rate, ms in rows:
        print(f"{name:<10} {preset:<10} {total:>9} {elapsed:>7.2f} {rate:>11.1f} {ms:>11.2f}")


class Timed:
    """A bot that records the CPU time of its decisions and, for a search, its playouts per searched turn."""

    def __init__(self, bot, log: dict):
        self.bot, self.log = bot, log
        self.uses_history = getattr(bot, "uses_history", False)

    def __call__(self, view, legal, rng, history=None, forbidden_last=()):
        t0 = time.thread_time()
        move = self.bot(view, legal, rng, history=history, forbidden_last=forbidden_last)
        self.log.setdefault("ms", []).append(1000 * (time.thread_time() - t0))
        stats = getattr(self.bot, "last_stats", None)
        if stats and stats.get("playouts"):
            self.log.setdefault("playouts", []).append(stats["playouts"])
            self.bot.last_stats = {}
        return move


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else 0.0


def tables(preset: str, args) -> list[tuple[dict | None, int]]:
    """(rules, deals) of each table a preset's match is played at: the preset as it is, or with ``--switches`` that
    many tables of random switches (drawn from the seed), the deals shared among them."""
    if not args.switches:
        return [(None, args.deals)]
    rng = random.Random(f"switches:{preset}:{args.seed}")
    share = [args.deals // args.switches + (i < args.deals % args.switches) for i in range(args.switches)]
    return [(tournament.random_switches(rng), k) for k in share if k]


def strength(args) -> None:
    options = {k: v for k, v in (("budget_ms", args.budget_ms), ("playouts", args.playouts)) if v is not None}
    presets = args.presets.split(",") if args.presets else list(PRESETS)
    print(f"{'preset':<10} {'bot':<10} {'against':<8} {'deals':>5} {'mean place':>10} {'95% CI':>16} {'1st':>6} "
          f"{'ms p50':>7} {'ms p99':>7} {'playouts/turn':>14} {'opp playouts/turn':>18}", flush=True)
    for preset in presets:
        label = f"{preset}+sw" if args.switches else preset
        at = tables(preset, args)
        for opponent in args.against.split(","):
            logs: dict[str, dict] = {}
            made = tournament.make

            def timed(name, made=made, logs=logs, **opts):
                return Timed(made(name, **opts), logs.setdefault(name, {}))

            tournament.make = timed  # one process: the matches are played here, with these bots
            records: list[dict] = []
            try:
                for i, (rules, deals) in enumerate(at):
                    played = tournament.run(preset, [args.bot] + [opponent] * 3, deals, args.seed + i, rules=rules,
                                            processes=1, options={name: options for name in SEARCHES},
                                            show_progress=False, open_hands=[args.bot] if args.open_hands else ())
                    records.extend(played["records"])
            finally:
                tournament.make = made
            mine, theirs = logs.get(args.bot, {}), logs.get(opponent, {}) if opponent != args.bot else {}
            row = tournament.summarize(records)[args.bot]
            per_turn = sum(mine.get("playouts", [])) / max(1, len(mine.get("playouts", [])))
            their_turn = sum(theirs.get("playouts", [])) / max(1, len(theirs.get("playouts", [])))
            ms = mine.get("ms", [])
            lo, hi = row["ci95"]
            print(f"{label:<10} {args.bot:<10} {opponent:<8} {row['deals']:>5} {row['mean_place']:>10.3f} "
                  f"{f'[{lo:.3f}, {hi:.3f}]':>16} {row['first_share']:>6.3f} {_quantile(ms, 0.5):>7.1f} "
                  f"{_quantile(ms, 0.99):>7.1f} {per_turn:>14.1f} {their_turn:>18.1f}", flush=True)
            if args.json:
                print(json.dumps({"preset": label, "bot": args.bot, "against": opponent, "deals": row["deals"],
                                  "mean_place": row["mean_place"], "ci95": row["ci95"],
                                  "first_share": row["first_share"],
                                  "ms_p50": _quantile(ms, 0.5), "ms_p99": _quantile(ms, 0.99),
                                  "ms_max": max(ms, default=0.0), "playouts_per_turn": per_turn,
                                  "opponent_playouts_per_turn": their_turn,
                                  "tables": [rules for rules, _ in at]}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=8, help="speed: decisions searched per preset")
    parser.add_argument("--playouts", type=int, default=None, help="playout cap per decision (speed: default 24; "
                                                                   "strength: the bots' own, 400)")
    parser.add_argument("--searchers", default="mc,policy_mc", help="speed: the searching bots measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strength", action="store_true", help="measure --bot against three of each --against")
    parser.add_argument("--bot", default="policy_mc")
    parser.add_argument("--against", default="mc,greedy,random")
    parser.add_argument("--presets", default=None, help="strength: comma-separated presets (default: all)")
    parser.add_argument("--deals", type=int, default=60, help="strength: deals per preset and opponent")
    parser.add_argument("--budget-ms", type=float, default=None, help="strength: the searches' budget (default 200)")
    parser.add_argument("--switches", type=int, default=0,
                        help="strength: play each preset's deals at this many tables of random rule switches")
    parser.add_argument("--open-hands", action="store_true",
                        help="strength: --bot is shown every seat's hand (what the hidden hands cost it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from referee.compiled import build
    print(f"engine: {build()[1]}", flush=True)  # a benchmark says what it measures
    relax_gc()  # as the service, workers and tournaments run the engine
    if args.strength:
        strength(args)
    else:
        args.playouts = 24 if args.playouts is None else args.playouts
        speed(args)


if __name__ == "__main__":
    main()
