"""How much worse than the best candidate a search's choice is, on the turns where its budget runs out: a measure of
search variants with far less noise than tournaments (400 deals tell mean places apart only by about 0.1).

    python benchmarks/search_regret.py points --preset gekifugo --points 120 --out /tmp/points.json
    python benchmarks/search_regret.py oracle /tmp/points.json --worlds 250 --out /tmp/oracle.json
    python benchmarks/search_regret.py regret /tmp/points.json /tmp/oracle.json --variant '{}' \
        --variant '{"scale": 2}' --variant '{"candidates": 2}' --repeats 4

**points**: ``policy_mc`` (seat 0) plays matches of 5 deals against three ``mc``, every bot at ``--budget-ms``;
each of its turns on which the search ran until the deadline (at least 75% of the budget) with two candidates or
more still in doubt is kept: what the bot was given (view, legal moves, redacted history, ``forbidden_last``) and the
playouts its search made.

**oracle**: at each point, every candidate ``policy_mc`` considers there (the policy's 3 plays and pass, then the 4
plays its widening adds) is played out in the same ``--worlds`` worlds, drawn as the search draws them: each
candidate's mean place, its value under the search's own model of the game. Its noise is shared by every variant.

**regret**: each ``--variant`` (``policy_mc``'s options as JSON; ``"scale"``: the playouts the search made at the
point times this, default 1) searches every point ``--repeats`` times with that playout count and no time limit, so
the figures do not depend on the machine's speed or load. A choice's regret is the oracle's mean place of it minus
the best candidate's (a move outside the candidates counts as the worst of them). Prints each variant's mean regret
with a 95% interval, and its difference from the first variant's, paired by point and repeat.

Processes (``--processes``) split the points; results do not depend on their number.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time

from referee import actors, apply, new_game, next_deal, redact_event
from referee.memo import relax_gc
from referee.ruleset import ruleset_from_json
from referee.scoring import mean_ci95
from workers.bots import make
from workers.bots.features import features
from workers.bots.observer import observe
from workers.bots.policy import load, softmax, turn_of

SEATS = ["policy_mc", "mc1", "mc2", "mc3"]


def points(preset: str, wanted: int, seed: int, budget_ms: float) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < wanted:
        bots = [make("policy_mc", budget_ms=budget_ms)] + [make("mc", budget_ms=budget_ms) for _ in range(3)]
        budget = budget_ms / 1000.0
        st, events = new_game(preset, None, SEATS, rng.randrange(1 << 30))
        for deal in range(5):
            if deal:
                st, events = next_deal(st)
            history = [[redact_event(ev, s) for ev in events] for s in range(4)]
            while actors(st):
                s = actors(st)[0]
                seen = observe(st, s)
                bot_rng = random.Random(rng.getrandbits(32))
                started = time.perf_counter()
                move = bots[s](seen.view, seen.legal, bot_rng, history=history[s], forbidden_last=seen.forbidden_last)
                stats = bots[s].last_stats if s == 0 else None
                if stats and stats["worlds"] and stats["left"] >= 2 and time.perf_counter() - started >= 0.75 * budget:
                    out.append({"view": seen.view, "legal": seen.legal, "history": list(history[0]),
                                "forbidden_last": list(seen.forbidden_last), "playouts": stats["playouts"]})
                _, st, evs = apply(st, move)
                for s2 in range(4):
                    history[s2] += [redact_event(ev, s2) for ev in evs]
    return out[:wanted]


def candidates(point: dict) -> list[dict]:
    """The moves ``policy_mc`` would search at ``point``: its candidates, then its widening's reserve."""
    bot = make("policy_mc")
    t, situation = turn_of(point["view"], point["legal"], point["forbidden_last"])
    probs = softmax(load().scores(features(t, situation)), 1.0, -1)
    first, reserve = bot.candidates_of(t.choices, probs)
    return [t.choices[i] for i in first + reserve]


def oracle_of(job: tuple[int, dict, int]) -> dict:
    index, point, worlds = job
    moves = candidates(point)
    bot = make("policy_mc", budget_ms=1e12, playouts=worlds * len(moves), prune=False, widen=0)
    view = point["view"]
    places = bot.search(view, point["legal"][0]["seat"], moves, len(moves), ruleset_from_json(view), point["history"],
                        random.Random(10_000 + index), time.perf_counter() + 1e9)
    return {"point": index, "moves": [_key(m) for m in moves], "places": places}


def regrets_of(job: tuple[int, dict, dict, dict, int]) -> list[float]:
    index, point, oracle, variant, repeats = job
    options = dict(variant)
    scale = options.pop("scale", 1.0)
    options["budget_ms"] = 1e12
    options["playouts"] = max(8, round(scale * point["playouts"]))
    values = dict(zip(oracle["moves"], oracle["places"]))
    best, worst = min(oracle["places"]), max(oracle["places"])
    out = []
    for r in range(repeats):
        bot = make("policy_mc", **options)
        move = bot(point["view"], point["legal"], random.Random(r * 7919 + index), history=point["history"],
                   forbidden_last=point["forbidden_last"])
        out.append(values.get(_key(move), worst) - best)
    return out


def _key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def _mean_and_half_width(xs: list[float]) -> tuple[float, float]:
    mean, _, high = mean_ci95(xs)
    return mean, high - mean


def _map(fn, jobs: list, processes: int) -> list:
    if processes <= 1:
        return [fn(job) for job in jobs]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        return pool.map(fn, jobs, chunksize=1)


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("points")
    p.add_argument("--preset", default="gekifugo")
    p.add_argument("--points", type=int, default=120)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--budget-ms", type=float, default=200.0, help="every bot's budget (200, as served)")
    p.add_argument("--out", required=True)
    o = sub.add_parser("oracle")
    o.add_argument("points")
    o.add_argument("--worlds", type=int, default=250)
    o.add_argument("--processes", type=int, default=2)
    o.add_argument("--out", required=True)
    g = sub.add_parser("regret")
    g.add_argument("points")
    g.add_argument("oracle")
    g.add_argument("--variant", action="append", default=None, help="policy_mc's options as JSON (repeatable)")
    g.add_argument("--repeats", type=int, default=4)
    g.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    from referee.compiled import build
    print(f"engine: {build()[1]}", flush=True)
    relax_gc()
    if args.command == "points":
        with open(args.out, "w") as f:
            json.dump(points(args.preset, args.points, args.seed, args.budget_ms), f)
        return
    with open(args.points) as f:
        kept = json.load(f)
    if args.command == "oracle":
        with open(args.out, "w") as f:
            json.dump(_map(oracle_of, [(i, pt, args.worlds) for i, pt in enumerate(kept)], args.processes), f)
        return
    with open(args.oracle) as f:
        oracles = json.load(f)
    variants = [json.loads(v) for v in args.variant or ["{}"]]
    first: list[float] = []
    for variant in variants:
        jobs = [(o["point"], kept[o["point"]], o, variant, args.repeats) for o in oracles]
        regrets = [x for xs in _map(regrets_of, jobs, args.processes) for x in xs]
        mean, half = _mean_and_half_width(regrets)
        line = f"{json.dumps(variant):<40} regret {mean:.4f} ± {half:.4f} ({len(regrets)} searches)"
        if first:
            d, dh = _mean_and_half_width([a - b for a, b in zip(regrets, first)])
            line += f"  against the first: {d:+.4f} ± {dh:.4f}"
        else:
            first = regrets
        print(line, flush=True)


if __name__ == "__main__":
    main()
