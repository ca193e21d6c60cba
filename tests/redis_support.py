"""The real Redis the service, web and bot tests share: the machine's if it answers, and the cleanup of a run's keys."""
from __future__ import annotations

import os
import tempfile

import redis

TEST_DB = int(os.environ.get("REFEREE_TEST_DB", "13"))


def machine_redis() -> str | None:
    """The machine's Redis (127.0.0.1:6379, a test db) if it answers, else None (start an embedded one)."""
    url = os.environ.get("REFEREE_TEST_REDIS_URL", f"redis://127.0.0.1:6379/{TEST_DB}")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
        return url
    except redis.exceptions.RedisError:
        return None


def real_redis_url(prefix: str):
    """For a session fixture: yields the machine's Redis URL, or that of an embedded server it starts and stops."""
    from service.redis_conn import embedded_url, start_embedded, stop_embedded

    url = machine_redis()
    if url:
        yield url
        return
    server = start_embedded(tempfile.mkdtemp(prefix=prefix))
    yield embedded_url(server)
    stop_embedded(server)


def cleanup(url: str, key_prefix: str, queue_name: str) -> None:
    """Delete every key a test run made under its own prefix and queue (games, RQ jobs, workers)."""
    conn = redis.Redis.from_url(url, decode_responses=True)
    games = set()
    for key in conn.scan_iter(f"{key_prefix}:*", count=1000):
        if "{" in key:  # a game's key; the others (the reaper's index, the active-games set, rate counters) are cross-game
            games.add(key.split("{", 1)[1].split("}", 1)[0])
        conn.delete(key)
    for key in conn.scan_iter(f"rq:*{queue_name}*", count=1000):
        conn.delete(key)
    # RQ keys its job hashes and results by job id (bot-<game>-<seq>[-r<n>]), not by queue
    for key in conn.scan_iter("rq:*bot-*", count=1000):
        if key.rsplit("bot-", 1)[1].split("-", 1)[0] in games:
            conn.delete(key)
    for key in conn.scan_iter("rq:worker:*", count=1000):
        if conn.type(key) == "hash" and conn.hget(key, "queues") == queue_name:
            conn.delete(key)
    conn.srem("rq:queues", f"rq:queue:{queue_name}")
