"""The real Redis the service, web and bot tests share, and the cleanup of a run's keys.

By default the suite starts its own embedded Redis in a temp dir and never touches a server it did not start (a
Redis at 127.0.0.1:6379 is its owner's). Setting REFEREE_TEST_REDIS_URL opts in to an existing server; the
suite then removes every key it wrote there."""
from __future__ import annotations

import os
import tempfile

import redis



def machine_redis() -> str | None:
    """The Redis the user opted in to (REFEREE_TEST_REDIS_URL), else None: start an embedded one."""
    url = os.environ.get("REFEREE_TEST_REDIS_URL")
    if not url:
        return None
    redis.Redis.from_url(url, socket_connect_timeout=1).ping()  # opted in: a server that does not answer is an error
    return url


def real_redis_url(prefix: str):
    """For a session fixture: yields the opted-in Redis URL, or that of an embedded server it starts and stops."""
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
