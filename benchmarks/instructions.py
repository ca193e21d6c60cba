"""Instructions per request of POST …/moves and GET /healthz in one process: a figure the machine's load does not move.

The app runs in this process (Flask's test client, no gunicorn) on a real Redis; valgrind's callgrind counts the
instructions of the measured loop only (collection is switched on and off around it), so the Redis server, the
kernel and the test client's set-up are not in the figure, but the test client's own request building is. Each
endpoint is measured in its own valgrind run; moves replay a scripted game with the table token, as
benchmarks/api.py does. Needs `valgrind` (Debian: apt-get install valgrind); a run takes about a minute.

    python benchmarks/instructions.py [--requests 100] [--redis redis://127.0.0.1:6379/15]
"""
from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def scripted_moves(client, n: int) -> list[tuple[str, dict, dict]]:
    """(url, headers, body) of ``n`` legal moves: one random game, replayed in fresh games as often as needed."""
    from referee import instantiate

    def create():
        body = {"preset": "uecda", "seed": 1, "players": [{"name": f"p{i}"} for i in range(4)]}
        game = client.post("/v1/games", json=body).json
        return game["game_id"], {"Authorization": f"Bearer {game['table_token']}"}

    rng, moves = random.Random(1), []
    gid, auth = create()
    while actors := client.get(f"/v1/games/{gid}/legal-moves?seat=0", headers=auth).json["actors"]:
        legal = client.get(f"/v1/games/{gid}/legal-moves?seat={actors[0]}", headers=auth).json["moves"]
        moves.append(instantiate(rng.choice(legal), rng))
        assert client.post(f"/v1/games/{gid}/moves", json=moves[-1], headers=auth).status_code == 200
    out = []
    while len(out) < n:
        gid, auth = create()
        out += [(f"/v1/games/{gid}/moves", auth, dict(m, expected_seq=i)) for i, m in enumerate(moves)]
    return out[:n]


def measured(endpoint: str, n: int, redis_url: str) -> None:
    """Runs inside valgrind: warm up, then ``n`` requests with collection on."""
    import redis

    from api.app import create_app
    from service.settings import Settings

    prefix = f"bench-instr-{secrets.token_hex(4)}"
    settings = Settings(redis_url=redis_url, data_dir=tempfile.mkdtemp(), key_prefix=prefix, queue_name=prefix,
                        rate_create_per_address=0, rate_moves_per_token=0, rate_moves_per_address=0)
    client = create_app(settings).test_client()
    if endpoint == "moves":
        todo = iter(scripted_moves(client, n + 10))

        def one():
            url, auth, body = next(todo)
            assert client.post(url, json=body, headers=auth).status_code == 200
    else:
        def one():
            assert client.get("/healthz").status_code == 200
    try:
        for _ in range(10):
            one()
        collect = ["callgrind_control", "-i"]
        subprocess.run([*collect, "on", str(os.getpid())], check=True, capture_output=True)
        for _ in range(n):
            one()
        subprocess.run([*collect, "off", str(os.getpid())], check=True, capture_output=True)
    finally:
        conn = redis.Redis.from_url(redis_url)
        for key in conn.scan_iter(f"{prefix}:*"):
            conn.delete(key)


def count(endpoint: str, n: int, redis_url: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/out",
                              sys.executable, __file__, "--inside", endpoint, "--requests", str(n), "--redis", redis_url],
                             capture_output=True, text=True, cwd=tmp)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode or not found:
        raise SystemExit(f"valgrind run of {endpoint} failed:\n{run.stderr[-2000:]}")
    return int(found.group(1)) // n


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"))
    ap.add_argument("--inside", choices=("moves", "healthz"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not args.inside:
        from referee.compiled import build
        print(f"engine: {build()[1]}", flush=True)
    if args.inside:
        measured(args.inside, args.requests, args.redis)
        return
    figures = {endpoint: count(endpoint, args.requests, args.redis) for endpoint in ("healthz", "moves")}
    for endpoint, instructions in figures.items():
        print(f"{endpoint:<8} {instructions:>10,} instructions/request (in process, {args.requests} requests)")
    print(f"moves/healthz instructions = {figures['moves'] / figures['healthz']:.3f}")


if __name__ == "__main__":
    main()
