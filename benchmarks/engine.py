"""Engine speed against RLCard's Dou Dizhu environment, measured side by side in this one process.

    python benchmarks/engine.py                    # 5 rounds of 1 s CPU slices per contestant
    python benchmarks/engine.py --rounds 8 --slice 2
    python benchmarks/engine.py --profile gekifugo # cProfile of our self-play instead
    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/engine.py --just-play nanko --plies 3000   # instructions

Random self-play: RLCard steps its ``doudizhu`` environment with a random legal action (what its RandomAgent
does); ours enumerates ``legal_moves`` of an acting seat and ``apply``-s a random one every ply, every effect
and event built as the service would ("uecda"), and, as bots and playouts do, takes a random one of
``options`` and ``advance``-s it, every effect applied but no verdict or event built ("uecda core"), as the mc
playouts play. The
contestants run in interleaved slices (round after round, each contestant one slice of CPU time,
``time.process_time``) so that a noisy shared machine slows all alike; the
table gives each one's rate over all rounds and its ratio to RLCard's (with the spread of the per-round
ratios). Then: the median time of one ``judge`` call on positions from self-play, and the time of
``replay`` of a game of about 2,000 events, in the engine and through the service (``GET …/replay?seq=N``: the
store's nearest snapshot and the events after it; ``--replay-only`` for just these).

RLCard is the optional ``bench`` extra (``pip install -e '.[bench]'``); without it only our rates are shown.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time

from referee import actors, advance, apply, instantiate, judge, legal_moves, new_game, next_deal, replay
from referee.legal import options
from referee.memo import relax_gc
from referee.presets import DEFAULT_PLAYERS

PRESETS = ("uecda", "nanko", "gekifugo")


class Ours:
    """Random self-play of one preset, one ply per ``step``; a finished deal starts a new game."""

    def __init__(self, preset: str, seed: int = 0):
        self.name, self.preset = preset, preset
        self.rng = random.Random(seed)
        self.st = self._new()

    def _new(self):
        n = DEFAULT_PLAYERS[self.preset]
        return new_game(self.preset, None, [f"p{i}" for i in range(n)], self.rng.randrange(10 ** 9))[0]

    def acting_seat(self) -> int:
        """A seat that must act now (a finished deal starts a new game)."""
        acting = actors(self.st)
        if not acting:
            self.st = self._new()
            acting = actors(self.st)
        return self.rng.choice(acting)

    def step(self):
        seat = self.acting_seat()
        move = instantiate(self.rng.choice(legal_moves(self.st, seat)), self.rng)
        self.st = apply(self.st, move)[1]


class OursCore(Ours):
    """The self-play path of bots and playouts: ``options`` (plays as shared Move objects) and ``advance`` (the
    state only, no verdict or event)."""

    def __init__(self, preset: str, seed: int = 0):
        super().__init__(preset, seed)
        self.name = f"{preset} core"

    def step(self):
        seat = self.acting_seat()
        move = self.rng.choice(options(self.st, seat))
        self.st = advance(self.st, instantiate(move, self.rng) if isinstance(move, dict) else move)


PATHS = {"full": Ours, "core": OursCore}


class RLCardDouDizhu:
    """RLCard's Dou Dizhu environment stepped with a random legal action; a finished game resets it."""

    name = "rlcard doudizhu"

    def __init__(self, seed: int = 0):
        import rlcard
        self.env = rlcard.make("doudizhu", config={"seed": seed})
        self.rng = random.Random(seed)
        self.state, _ = self.env.reset()

    def step(self):
        action = self.rng.choice(list(self.state["legal_actions"]))
        self.state, _ = self.env.step(action)
        if self.env.is_over():
            self.state, _ = self.env.reset()


def rlcard_or_none(seed: int):
    try:
        return RLCardDouDizhu(seed)
    except ImportError as e:
        print(f"RLCard is not installed ({e}): pip install -e '.[bench]' for the comparison; our rates only.")
        return None


def run_slice(contestant, seconds: float) -> tuple[int, float]:
    """Steps until ``seconds`` of CPU time have passed: (steps, CPU seconds)."""
    clock = time.process_time
    t0 = clock()
    end = t0 + seconds
    steps = 0
    while True:
        contestant.step()
        steps += 1
        now = clock()
        if now >= end:
            return steps, now - t0


def interleaved(contestants: list, rounds: int, seconds: float) -> dict:
    """{name: [(steps, cpu) per round]}, the contestants taking turns slice by slice."""
    out = {c.name: [] for c in contestants}
    for c in contestants:
        run_slice(c, min(0.2, seconds))  # warm up caches (rulesets, tables) outside the measure
    for r in range(rounds):
        order = contestants if r % 2 == 0 else contestants[::-1]
        for c in order:
            out[c.name].append(run_slice(c, seconds))
    return out


def print_table(results: dict, baseline: str | None):
    rate = {n: sum(s for s, _ in rs) / sum(t for _, t in rs) for n, rs in results.items()}
    base = rate.get(baseline) if baseline else None
    print(f"{'contestant':<17} {'steps':>8} {'cpu_s':>7} {'steps/s':>9}" + ("  ratio  (per-round range)" if base else ""))
    for name, rs in results.items():
        line = f"{name:<17} {sum(s for s, _ in rs):>8} {sum(t for _, t in rs):>7.2f} {rate[name]:>9.0f}"
        if base:
            per_round = [(s / t) / (bs / bt) for (s, t), (bs, bt) in zip(rs, results[baseline])]
            line += f"  {rate[name] / base:5.2f}×  ({min(per_round):.2f}–{max(per_round):.2f})"
        print(line)


def judge_times(preset: str, samples: int, seed: int = 1) -> tuple[list[float], list[float]]:
    """CPU seconds per ``judge`` of a legal move at positions of random self-play (every 4th ply): every
    proposal, and the plays among them."""
    rng = random.Random(seed)
    out, plays = [], []
    game = Ours(preset, seed)
    ply = 0
    while len(out) < samples:
        st = game.st
        acting = actors(st)
        if acting and ply % 4 == 0:
            seat = rng.choice(acting)
            move = instantiate(rng.choice(legal_moves(st, seat)), rng)
            t0 = time.process_time()
            judge(st, move)
            out.append(time.process_time() - t0)
            if move["action"] == "play":
                plays.append(out[-1])
        game.step()
        ply += 1
    return out, plays


def long_game(preset: str, events_wanted: int, seed: int = 3) -> list[dict]:
    """The event log of a random game of several deals with at least ``events_wanted`` events."""
    rng = random.Random(seed)
    st, log = new_game(preset, None, [f"p{i}" for i in range(DEFAULT_PLAYERS[preset])], seed)
    while len(log) < events_wanted:
        acting = actors(st)
        if not acting:
            st, evs = next_deal(st)
        else:
            move = instantiate(rng.choice(legal_moves(st, rng.choice(acting))), rng)
            _, st, evs = apply(st, move)
        log += evs
    return log


def replay_times(log: list[dict], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.process_time()
        replay(log)
        out.append(time.process_time() - t0)
    return out


def stored_game(store, log: list[dict]) -> str:
    """``log`` stored as the service stores a played game: created, then one append per event, so its replay
    snapshots fall where a served game's do."""
    import secrets

    from referee import state_to_json
    gid = secrets.token_hex(12)
    n = len(log[0]["players"])
    st = replay(log[:1])
    store.create(gid, state_to_json(st), log[:1], "x", ["x"] * n, [None] * n)
    for ev in log[1:]:
        st = replay([ev], start=st)
        store.append(gid, ev["seq"] - 1, state_to_json(st), [ev])
    return gid


def service_replay_times(log: list[dict], repeats: int, url: str, every: int) -> dict | None:
    """(CPU, wall) seconds of GameService.replay through a real Redis store, as GET …/replay?seq=N serves it,
    by seq: with a snapshot every ``every`` events at the seqs furthest from one (N = kK - 1: K - 1 events to
    fold), and without snapshots at the last seq but one (the whole log). None when no Redis answers at ``url``."""
    import secrets

    import redis

    from service.games import TABLE, GameService
    from service.store import GameStore
    try:
        conn = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=1)
        conn.ping()
    except redis.exceptions.RedisError:
        return None
    prefix = f"bench-{secrets.token_hex(4)}"
    last = log[-1]["seq"]
    cases = {"snapshots": (every, range(every - 1, last, every)), "none": (0, [last - 1])}
    try:
        out = {}
        for name, (k, seqs) in cases.items():
            service = GameService(GameStore(conn, prefix, snapshot_every=k))
            gid = stored_game(service.store, log)
            times = {}
            for seq in seqs:
                times[seq] = []
                for _ in range(repeats):
                    c0, t0 = time.process_time(), time.perf_counter()
                    service.replay(gid, TABLE, seq)
                    times[seq].append((time.process_time() - c0, time.perf_counter() - t0))
            out[name] = times
        return out
    finally:
        for key in conn.scan_iter(f"{prefix}:*"):
            conn.delete(key)


def replay_line(preset: str, log: list[dict], engine_s: list[float], service: dict | None, every: int) -> str:
    line = f"replay {preset:<8} events={len(log)} engine_median_ms={statistics.median(engine_s) * 1e3:.0f} (CPU)"
    if service:
        per_seq = {seq: [statistics.median(x) * 1e3 for x in zip(*t)] for seq, t in service["snapshots"].items()}
        cpu, wall = (statistics.median(x) for x in zip(*per_seq.values()))
        worst = max(per_seq.values(), key=lambda v: v[1])
        full = [statistics.median(x) * 1e3 for x in zip(*next(iter(service["none"].values())))]
        line += (f"; GameService.replay on Redis, ms CPU/wall: snapshots every {every}: median {cpu:.1f}/{wall:.1f}"
                 f" (worst {worst[0]:.1f}/{worst[1]:.1f}) over seq={min(per_seq)}..{max(per_seq)} step {every};"
                 f" no snapshots (the whole log): {full[0]:.0f}/{full[1]:.0f}")
    return line


def profile(preset: str, plies: int, top: int):
    game = Ours(preset, 0)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(plies):
        game.step()
    prof.disable()
    print(f"cProfile of {preset} random self-play (legal_moves + apply), {plies} plies")
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=float, default=1.0, help="CPU seconds per contestant per round")
    parser.add_argument("--judge-samples", type=int, default=400, help="judge calls timed per preset")
    parser.add_argument("--replay-events", type=int, default=2000)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15", help="for the service-level replay")
    parser.add_argument("--snapshot-every", type=int, default=200, help="the service's REFEREE_SNAPSHOT_EVERY")
    parser.add_argument("--replay-only", action="store_true", help="only the replay figures")
    parser.add_argument("--profile", choices=PRESETS, help="profile this preset's self-play instead")
    parser.add_argument("--just-play", choices=PRESETS, help="only play --plies plies of this preset's self-play "
                        "(under valgrind --tool=callgrind: instructions per ply, whatever the machine's load)")
    parser.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    parser.add_argument("--plies", type=int, default=3000, help="plies profiled by --profile")
    parser.add_argument("--path", choices=sorted(PATHS), default="full", help="what --just-play plays")
    args = parser.parse_args(argv)
    from referee.compiled import build
    print(f"engine: {build()[1]}", flush=True)  # a benchmark says what it measures
    relax_gc()  # as the service, workers and tournaments run the engine
    if args.profile:
        profile(args.profile, args.plies, args.top)
        return
    if args.just_play:
        game = PATHS[args.path](args.just_play, 5)
        for _ in range(args.plies):
            game.step()
        return
    if args.replay_only:
        replay_figures(args)
        return
    rl = rlcard_or_none(0)
    contestants = ([rl] if rl else []) + [Ours(p, i) for i, p in enumerate(PRESETS)] + [
        OursCore(p, i) for i, p in enumerate(PRESETS)]
    print(f"random self-play, {args.rounds} rounds × {args.slice:g} s CPU per contestant, interleaved "
          f"(ours: legal_moves + apply every ply, verdicts and events built; 'core': options + advance; "
          f"RLCard: env.step of a random legal action)")
    print_table(interleaved(contestants, args.rounds, args.slice), rl.name if rl else None)
    print()
    for preset in PRESETS:
        every, plays = judge_times(preset, args.judge_samples)
        print(f"judge {preset:<9} median_us={statistics.median(every) * 1e6:.0f} "
              f"p90_us={sorted(every)[int(len(every) * 0.9)] * 1e6:.0f} (n={len(every)}); "
              f"plays only: median_us={statistics.median(plays) * 1e6:.0f} (n={len(plays)})")
    if args.replay_events:
        replay_figures(args)


def replay_figures(args) -> None:
    for preset in PRESETS:
        log = long_game(preset, args.replay_events)
        service = service_replay_times(log, 5, args.redis, args.snapshot_every)
        print(replay_line(preset, log, replay_times(log, 3), service, args.snapshot_every))

if __name__ == "__main__":
    main()
