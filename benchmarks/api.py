"""HTTP benchmark of the referee: GET /healthz, POST …/judge and POST …/moves, interleaved.

Starts `referee serve` as the README does (gunicorn with 2 workers, one bot worker, the embedded Redis under a
temporary data dir; or the Redis at --redis-url), then runs rounds: in each round every endpoint gets the
same number of requests from the same client threads, one endpoint after the other (the order rotates), so
the three see the same machine load. Only the timed requests count; games are created and their moves
scripted beforehand. Prints requests/s, p50 and p99 per endpoint, the CPU time the service's processes (Linux)
and the client's threads spent per request, and the ratios to /healthz. The client shares the machine: what
it spends per request is not available to the service. Then it plays a game of --replay-events events over
HTTP and times GET …/replay?seq=N where the most events follow the nearest replay snapshot.

    python benchmarks/api.py [--rounds 10] [--per-round 200] [--concurrency 4] [--redis-url URL] [--replay-events 2000]
"""
from __future__ import annotations

import argparse
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# this file is named api.py: keep its folder off sys.path so `api` is the service package
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import redis  # noqa: E402
import requests  # noqa: E402
from referee import actors, instantiate, legal_moves, state_from_json  # noqa: E402
from service.settings import Settings  # noqa: E402

from benchmarks.serving import free_port, start_serve, wait_healthy  # noqa: E402


def create(s: requests.Session, base: str, preset: str, seed: int) -> dict:
    body = {"preset": preset, "seed": seed, "players": [{"name": f"p{i}"} for i in range(4)]}
    r = s.post(f"{base}/v1/games", json=body)
    r.raise_for_status()
    return r.json()


def script_game(base: str, preset: str, seed: int) -> list[dict]:
    """Play one game of random legal moves (untimed) and return its moves, to replay them timed."""
    s, rng, moves = requests.Session(), random.Random(seed), []
    g = create(s, base, preset, seed)
    auth = {"Authorization": f"Bearer {g['table_token']}"}
    while True:
        probe = s.get(f"{base}/v1/games/{g['game_id']}/legal-moves?seat=0", headers=auth).json()
        if not probe["actors"]:
            return moves
        seat = probe["actors"][0]
        legal = s.get(f"{base}/v1/games/{g['game_id']}/legal-moves?seat={seat}", headers=auth).json()["moves"]
        move = instantiate(rng.choice(legal), rng)  # a choose entry: a random valid choice of its cards
        s.post(f"{base}/v1/games/{g['game_id']}/moves", json=move, headers=auth).raise_for_status()
        moves.append(move)


def long_game(base: str, preset: str, events: int, seed: int = 3) -> dict:
    """A game of at least ``events`` events played over HTTP, as a client plays one: random legal moves (chosen
    on the state each answer carries) and a new deal whenever one is over (untimed)."""
    s, rng = requests.Session(), random.Random(seed)
    game = create(s, base, preset, seed)
    auth = {"Authorization": f"Bearer {game['table_token']}"}
    url, seq, state = f"{base}/v1/games/{game['game_id']}", game["seq"], game["state"]
    while seq + 1 < events:
        st = state_from_json(state)
        acting = actors(st)
        if acting:
            move = instantiate(rng.choice(legal_moves(st, rng.choice(acting))), rng)
            r = s.post(f"{url}/moves", json=dict(move, expected_seq=seq), headers=auth)
        else:
            r = s.post(f"{url}/deals", headers=auth)
        r.raise_for_status()
        seq, state = r.json()["seq"], r.json()["state"]
    return dict(game, seq=seq)


def replay_figures(base: str, game: dict, server: list[int], every: int, repeats: int = 5) -> str:
    """GET …/replay?seq=N at the seqs furthest from a snapshot (N = kK - 1), each ``repeats`` times: the median
    wall time per request (client side) and the service's CPU per request."""
    s = requests.Session()
    auth = {"Authorization": f"Bearer {game['table_token']}"}
    seqs = list(range(every - 1, game["seq"], every)) or [game["seq"] - 1]
    walls, cpu0 = [], cpu_seconds(server)
    for seq in seqs:
        for _ in range(repeats):
            t0 = time.perf_counter()
            s.get(f"{base}/v1/games/{game['game_id']}/replay?seq={seq}", headers=auth).raise_for_status()
            walls.append(time.perf_counter() - t0)
    cpu = (cpu_seconds(server) - cpu0) / len(walls)
    return (f"replay   GET …/replay?seq=N of a {game['seq'] + 1}-event game, N = {seqs[0]}..{seqs[-1]} step {every} "
            f"(the most events after a snapshot): median {statistics.median(walls) * 1000:.1f} ms wall "
            f"(max {max(walls) * 1000:.1f}), server CPU {cpu * 1000:.1f} ms/request")


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.wall = 0.0
        self.per_round: list[float] = []  # requests/s of each round
        self.server_cpu = 0.0  # CPU seconds the service's processes spent during the phases
        self.client_cpu = 0.0  # CPU seconds this process (the client threads) spent during the phases


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return out


def cpu_seconds(pids: list[int]) -> float:
    """user + system CPU time of the processes (Linux /proc; 0 elsewhere)."""
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def run_phase(concurrency: int, n: int, request, stats: Stats, sessions: list[requests.Session],
              server: list[int]) -> None:
    """``n`` timed requests from each of ``concurrency`` threads; ``request(thread, session)`` sends one."""
    latencies: list[float] = []
    lock = threading.Lock()
    go = threading.Barrier(concurrency + 1)

    def work(i):
        mine = []
        go.wait()
        for _ in range(n):
            t0 = time.perf_counter()
            r = request(i, sessions[i])
            mine.append(time.perf_counter() - t0)
            if r.status_code not in (200,):
                raise SystemExit(f"unexpected {r.status_code}: {r.text[:300]}")
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(concurrency)]
    for t in threads:
        t.start()
    cpu0, client0 = cpu_seconds(server), time.process_time()
    go.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    stats.server_cpu += cpu_seconds(server) - cpu0
    stats.client_cpu += time.process_time() - client0
    stats.latencies += latencies
    stats.wall += wall
    stats.per_round.append(len(latencies) / wall)


def report(name: str, st: Stats) -> float:
    q = statistics.quantiles(st.latencies, n=100)
    rps = len(st.latencies) / st.wall
    print(f"{name:<8} n={len(st.latencies):>6}  {rps:9.1f} req/s  p50 {q[49] * 1000:7.2f} ms  "
          f"p99 {q[98] * 1000:7.2f} ms  CPU ms/request: server {st.server_cpu / len(st.latencies) * 1000:5.2f}, "
          f"client {st.client_cpu / len(st.latencies) * 1000:5.2f}")
    return rps


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--per-round", type=int, default=200, help="requests per endpoint per round (all threads)")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--preset", default="uecda")
    ap.add_argument("--redis-url", default=os.environ.get("REDIS_URL"),
                    help="default: the embedded Redis, as `referee serve` starts without REDIS_URL")
    ap.add_argument("--replay-events", type=int, default=2000, help="then time GET …/replay in a game this long (0: no)")
    args = ap.parse_args(argv)
    from referee.compiled import build
    print(f"engine: {build()[1]}", flush=True)  # a benchmark says what it measures

    prefix = f"referee-bench-{secrets.token_hex(4)}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_serve(port, tempfile.mkdtemp(prefix="referee-bench-"), args.redis_url, REFEREE_KEY_PREFIX=prefix,
                       REFEREE_QUEUE=prefix)
    try:
        wait_healthy(base, proc)
        storage = requests.get(f"{base}/healthz").json().get("storage")
        print(f"service: `referee serve` on {base} (gunicorn 2 workers), storage {storage}, "
              f"{args.concurrency} client threads, {args.rounds} rounds of {args.per_round} requests per endpoint")
        scripts = [script_game(base, args.preset, seed) for seed in range(4)]
        per_thread = max(1, args.per_round // args.concurrency)
        setup = requests.Session()

        # moves: each thread replays scripted games, created beforehand, one move after the other
        needed = args.rounds * per_thread
        queues = []
        for i in range(args.concurrency):
            todo, have = [], 0
            while have < needed:
                k = (i + len(todo)) % len(scripts)
                game = create(setup, base, args.preset, k)
                auth = {"Authorization": f"Bearer {game['table_token']}"}
                url = f"{base}/v1/games/{game['game_id']}/moves"
                todo += [(url, auth, dict(move, expected_seq=seq)) for seq, move in enumerate(scripts[k])]
                have += len(scripts[k])
            queues.append(iter(todo))

        judge_game = create(setup, base, args.preset, 0)
        judge_auth = {"Authorization": f"Bearer {judge_game['table_token']}"}
        judge_url = f"{base}/v1/games/{judge_game['game_id']}/judge"
        phases = {
            "healthz": lambda i, s: s.get(f"{base}/healthz"),
            "judge": lambda i, s: s.post(judge_url, json=scripts[0][0], headers=judge_auth),
            "moves": lambda i, s: (lambda url, auth, move: s.post(url, json=move, headers=auth))(*next(queues[i])),
        }
        stats = {name: Stats() for name in phases}
        sessions = [requests.Session() for _ in range(args.concurrency)]
        for s in sessions:  # warm the connections and both gunicorn workers
            for _ in range(20):
                s.get(f"{base}/healthz")
        names = list(phases)
        server = descendants(proc.pid)  # serve, gunicorn and its workers, the bot worker, the embedded Redis
        for r in range(args.rounds):
            for name in names[r % 3:] + names[:r % 3]:
                run_phase(args.concurrency, per_thread, phases[name], stats[name], sessions, server)
        h = report("healthz", stats["healthz"])
        j = report("judge", stats["judge"])
        m = report("moves", stats["moves"])
        per_round = [mv / hz for mv, hz in zip(stats["moves"].per_round, stats["healthz"].per_round)]
        print(f"ratio    judge/healthz = {j / h:.3f}   moves/healthz = {m / h:.3f} "
              f"(per round {min(per_round):.2f}..{max(per_round):.2f})")
        if args.replay_events:
            every = int(os.environ.get("REFEREE_SNAPSHOT_EVERY") or Settings.snapshot_every)
            print(replay_figures(base, long_game(base, args.preset, args.replay_events), server, every))
        return 0
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        if args.redis_url:
            conn = redis.Redis.from_url(args.redis_url)
            for key in conn.scan_iter(f"{prefix}:*", count=1000):
                conn.delete(key)


if __name__ == "__main__":
    sys.exit(main())
