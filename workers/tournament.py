"""Tournaments: bots play matches of several deals (the exchange carries over) with rotating seats.

    python -m workers.cli tournament --preset nanko --seats mc,greedy,random,random --deals 400 --seed 1

The N deals are cut into matches of ``--match-deals`` deals; match i seats the bots rotated by i, so every
bot sits at every seat position equally often (when the number of matches is a multiple of the seat count).
Matches run in parallel processes; every decision's RNG is derived from (seed, match, seq, seat), so the
result does not depend on the number of processes. The last line printed is one JSON object.
"""
from __future__ import annotations

import multiprocessing
import random
import sys
import time
from typing import Iterator

from referee import actors, apply, catalog, legal_moves, new_game, next_deal, redact_event
from referee.scoring import standing

from .bots import make, wants_history
from .bots.observer import ask

MAX_PLIES_PER_DEAL = 5000


def random_switches(rng: random.Random, k: int = 8) -> dict[str, bool]:
    """``k`` rules of the catalogue switched on or off at random: a table the presets do not name (the jokers, the
    stairs and the first card are left as the preset has them)."""
    ids = [r["id"] for r in catalog()["rules"] if r["id"] not in ("jokers", "stairs", "first_card")]
    return {rid: rng.random() < 0.5 for rid in rng.sample(ids, k)}


def match_seed(seed: int, index: int, bits: int = 31) -> int:
    """Match ``index``'s seed, drawn from the tournament's by public code (``bits`` wide: 31 in process, so the
    published results stay reproducible; a league asks for 63, which no one can enumerate on the server)."""
    return random.Random(f"tournament:{seed}:{index}").randrange(1 << bits)


def play_match(task: dict) -> dict:
    """Play one match; returns its index and one record per deal: {places, bots, forbidden}."""
    preset, rules, seats, deals = task["preset"], task["rules"], task["seats"], task["deals"]
    index, seed, options = task["index"], task["seed"], task.get("options") or {}
    open_hands = set(task.get("open_hands") or ())  # the bots shown every hand (observe's open_hands)
    n = len(seats)
    rot = index % n
    names = [seats[(s + rot) % n] for s in range(n)]
    bots = [make(name, **options.get(name, {})) for name in names]
    history_of: list[list[dict] | None] = [[] if wants_history(b) else None for b in bots]
    st, events = new_game(preset, rules, [f"{names[s]}@{s}" for s in range(n)], match_seed(seed, index))
    records = []
    for d in range(deals):
        if d:
            st, events = next_deal(st)
        for s in range(n):
            if history_of[s] is not None:
                history_of[s] = [redact_event(ev, s) for ev in events]
        forbidden = [0] * n
        plies = 0
        while True:
            acting = actors(st)
            if not acting:
                break
            plies += 1
            if plies > MAX_PLIES_PER_DEAL:
                raise RuntimeError(f"match {index} deal {d + 1}: no end after {MAX_PLIES_PER_DEAL} plies")
            seat = acting[0]
            legal = legal_moves(st, seat)
            if len(legal) == 1 and "choose" not in legal[0]:
                move = legal[0]
            else:
                rng = random.Random(f"{seed}:{index}:{st.seq}:{seat}")
                move = ask(bots[seat], st, seat, rng, history=history_of[seat], legal=legal,
                           open_hands=names[seat] in open_hands)
            verdict, st, evs = apply(st, move)
            if not verdict.legal:
                raise RuntimeError(f"bot {names[seat]} chose an illegal move {move}: {verdict.to_json()}")
            for ev in evs:
                for item in ev.get("outcome", ()) or ():
                    if item.get("kind") == "finish" and item.get("why"):
                        forbidden[item["seat"]] += 1
                for s, history in enumerate(history_of):
                    if history is not None:
                        history.append(redact_event(ev, s))
        records.append({"places": [p.place for p in st.players], "bots": names, "forbidden": forbidden,
                        "match": f"{seed}:{index}"})
    return {"index": index, "records": records}


def summarize(records: list[dict], match_key: str = "match") -> dict:
    """Per bot name over every deal it played: referee.scoring.standing (mean place, 95% interval, UECda
    points, ...), best first (by mean place, then name): the order every table and JSON line prints them in.
    A record is ``{"places": [...], "bots": [...], "forbidden": [...]}``, one entry per seat, and under
    ``match_key`` the match it was a deal of (the interval counts the deals of a match as dependent; a record
    without one is a match of its own)."""
    per: dict[str, dict] = {}
    for i, rec in enumerate(records):
        n = len(rec["bots"])
        match = rec.get(match_key, f"record {i}")
        for s, name in enumerate(rec["bots"]):
            b = per.setdefault(name, {"places": [], "seats": [], "forbidden": 0, "matches": []})
            b["places"].append(rec["places"][s])
            b["seats"].append(n)
            b["forbidden"] += rec["forbidden"][s]
            b["matches"].append(match)
    standings = {name: standing(b["places"], b["seats"], b["forbidden"], b["matches"]) for name, b in per.items()}
    return dict(sorted(standings.items(), key=lambda item: (item[1]["mean_place"], item[0])))


def progress(done: int, total: int, started: float, out=None) -> None:
    out = out or sys.stderr
    width = 30
    filled = int(width * done / total) if total else width
    elapsed = time.time() - started
    eta = elapsed / done * (total - done) if done else 0.0
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals  {elapsed:6.1f}s  eta {eta:6.1f}s")
    if done >= total:
        out.write("\n")
    out.flush()


def run(preset: str, seats: list[str], deals: int, seed: int, rules=None, match_deals: int = 10,
        processes: int | None = None, options=None, show_progress: bool = True, open_hands=()) -> dict:
    tasks = []
    left, index = deals, 0
    while left > 0:
        k = min(match_deals, left)
        tasks.append({"preset": preset, "rules": rules, "seats": seats, "deals": k, "index": index, "seed": seed,
                      "options": options or {}, "open_hands": list(open_hands)})
        left -= k
        index += 1
    processes = processes or min(len(tasks), multiprocessing.cpu_count())
    results, done, started = [], 0, time.time()
    if show_progress:
        progress(0, deals, started)
    iterator: Iterator[dict]
    if processes <= 1:
        iterator = map(play_match, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork").Pool(processes)
        iterator = pool.imap_unordered(play_match, tasks)
    try:
        for res in iterator:
            results.append(res)
            done += len(res["records"])
            if show_progress:
                progress(done, deals, started)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    results.sort(key=lambda r: r["index"])
    records = [rec for r in results for rec in r["records"]]
    return {"preset": preset, "deals": len(records), "seats": seats, "bots": summarize(records),
            "seconds": round(time.time() - started, 1), "records": records}


def table(summary: dict) -> str:
    lines = [f"preset {summary['preset']}, {summary['deals']} deals, seats {','.join(summary['seats'])}",
             f"{'bot':<16} {'deals':>6} {'mean place':>11} {'95% CI':>17} {'1st share':>10} {'points':>7} "
             f"{'pts/deal':>9} {'forbidden':>10}"]
    for name, b in summary["bots"].items():
        ci = f"[{b['ci95'][0]:.3f}, {b['ci95'][1]:.3f}]"
        lines.append(f"{name:<16} {b['deals']:>6} {b['mean_place']:>11.3f} {ci:>17} {b['first_share']:>10.3f} "
                     f"{b['points']:>7} {b['mean_points']:>9.3f} {b['forbidden_finishes']:>10}")
    return "\n".join(lines)


def last_line(summary: dict) -> dict:
    """The JSON object a tournament or league prints last, with ``--json``."""
    keys = ("mean_place", "ci95", "first_share", "points", "mean_points")
    return {"preset": summary["preset"], "deals": summary["deals"],
            "bots": {k: {f: v[f] for f in keys} for k, v in summary["bots"].items()}}
