"""The suite keeps to itself: without REFEREE_TEST_REDIS_URL it starts its own embedded Redis and sends not one
command to a Redis it did not start. Checked for real: a small slice of the service tests runs in a child
pytest while a Redis of "the user's" (started here, on a port of its own) counts the commands it receives;
the child has REDIS_URL pointing at it, as a user's shell may, and no opt-in."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import redis

from service.redis_conn import embedded_url, start_embedded, stop_embedded

ROOT = Path(__file__).resolve().parents[2]


def _commands(conn) -> int:
    return int(conn.info("stats")["total_commands_processed"])


def test_the_suite_sends_nothing_to_a_redis_it_did_not_start():
    users = start_embedded(tempfile.mkdtemp(prefix="referee-users-redis-"))
    try:
        url = embedded_url(users)
        conn = redis.Redis.from_url(url)
        conn.set("users:own:key", "theirs")
        before = _commands(conn)
        env = {k: v for k, v in os.environ.items() if k != "REFEREE_TEST_REDIS_URL"}
        env["REDIS_URL"] = url  # a user's shell may well have it set for their own work
        child = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                "tests/service/test_moves.py", "-x", "-k", "legal or illegal or pass"],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-3000:]
        assert " passed" in child.stdout
        after = _commands(conn)
        # the two INFO calls of this test are the only commands it saw
        assert after - before == 1, f"the suite sent {after - before - 1} command(s) to a Redis it did not start"
        assert conn.get("users:own:key") == b"theirs" and conn.dbsize() == 1
    finally:
        stop_embedded(users)
