"""Server-Sent Event responses under the process's stream caps: every open stream, a game's or a bot's, holds a
server thread and one slot. Past Settings.sse_max_streams only bots' streams get one of the sse_bot_streams more
slots kept for them, and no token or client address holds more than its own cap (docs/limits.md)."""
from __future__ import annotations

import hashlib
import os
import select
import socket
import threading
import time
from collections import Counter
from typing import Callable

from flask import Response, current_app, request, stream_with_context

from service.errors import ApiError
from service.settings import Settings

from .guards import client_address
from .http import bearer
from .observability import counted_stream

# the process that started this one (gunicorn's master: the app is imported in each worker after the fork)
_PARENT = os.getppid()
IDLE_CHECK_S = 1.0  # how often an idle stream looks whether its client has left, and so how soon it frees its slot
HEARTBEAT_S = 5.0   # a comment line after this long without a message, so that proxies keep the stream open
RETRY_AFTER_S = 2


class StreamRefused(ApiError):
    def __init__(self, message: str, code: str, status: int):
        super().__init__(message, code=code, status=status)
        self.headers = {"Retry-After": str(RETRY_AFTER_S)}


class StreamSlots:
    """The open streams of one process, counted under one lock: gunicorn serves each on a thread of its own.

    Bots' streams take the slots kept for them first, then the shared ones; games' streams only the shared ones.
    """

    def __init__(self, shared: int, bots_only: int, per_token: int, per_address: int):
        self.shared, self.bots_only = shared, bots_only
        self.per_token, self.per_address = per_token, per_address
        self._lock = threading.Lock()
        self._games = self._bots = 0
        self._tokens: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()

    @classmethod
    def from_settings(cls, s: Settings) -> "StreamSlots":
        return cls(s.sse_max_streams, s.sse_bot_streams, s.sse_streams_per_token, s.sse_streams_per_address)

    def take(self, token: str, address: str, bot: bool, poll_hint: str) -> Callable[[], None]:
        """Hold a slot for ``token`` from ``address``; returns what gives it back (once, however often called)."""
        with self._lock:
            self._refuse_past_caps(token, address, bot, poll_hint)
            if bot:
                self._bots += 1
            else:
                self._games += 1
            self._tokens[token] += 1
            self._addresses[address] += 1
        given_back: list[bool] = []

        def give_back() -> None:
            with self._lock:
                if given_back:
                    return
                given_back.append(True)
                if bot:
                    self._bots -= 1
                else:
                    self._games -= 1
                _drop(self._tokens, token)
                _drop(self._addresses, address)
        return give_back

    def _refuse_past_caps(self, token: str, address: str, bot: bool, poll_hint: str) -> None:
        room = (self._games + self._bots < self.shared + self.bots_only if bot
                else self._games + max(0, self._bots - self.bots_only) < self.shared)
        if not room:
            kept = f" (the other {self.bots_only} are kept for bots)" if not bot and self.bots_only else ""
            raise StreamRefused(f"this server has as many open event streams as it serves{kept}; retry shortly or "
                                f"{poll_hint}", "too_many_streams", 503)
        if self.per_token > 0 and self._tokens[token] >= self.per_token:
            raise StreamRefused(f"this token has {self.per_token} event streams open on this server already; close "
                                f"one or {poll_hint}", "too_many_streams_for_token", 429)
        if self.per_address > 0 and self._addresses[address] >= self.per_address:
            raise StreamRefused(f"this client address has {self.per_address} event streams open on this server "
                                f"already; close one or {poll_hint}", "too_many_streams_for_address", 429)


def _drop(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]  # no key outlives its last stream


def client_left(sock: socket.socket | None) -> bool:
    """Whether the client at the other end of ``sock`` has closed it: it reads as ended (or reset) with nothing
    in it. A request a client pipelined after ours reads as data and is not a leave."""
    if sock is None:
        return False
    try:
        poller = select.poll()  # not select.select, which fails on descriptors past 1023
        poller.register(sock, select.POLLIN)
        if not poller.poll(0):
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except ConnectionError:  # reset
        return True
    except (OSError, ValueError):  # nothing to read after all, or a TLS socket, which cannot peek: the next write tells
        return False


def sse_response(events, poll_hint: str, bot: bool = False) -> Response:
    """``events`` (an iterator of SSE text) as a streaming response holding one slot while it runs; ``bot``: a
    registered bot's stream, which may take the slots kept for bots.

    ``events`` yields an empty string at least every IDLE_CHECK_S while it has nothing to send: the stream then
    looks at its client's socket and ends, freeing its slot, if the client has left, and sends a keep-alive
    comment when nothing has been sent for HEARTBEAT_S."""
    slots: StreamSlots = current_app.extensions["referee.streams"]
    token = hashlib.sha256((bearer() or "").encode()).hexdigest()[:32]  # counted by a hash, as the rate limits
    sock = request.environ.get("gunicorn.socket") or request.environ.get("werkzeug.socket")
    release = slots.take(token, client_address(), bot, poll_hint)

    def generate():
        said = time.monotonic()
        try:
            for chunk in events:
                if not chunk:
                    if client_left(sock):
                        return
                    if time.monotonic() - said < HEARTBEAT_S:
                        continue
                    chunk = ": keep-alive\n\n"
                said = time.monotonic()
                yield chunk
                if os.getppid() != _PARENT:
                    # our gunicorn master died: end the stream, so that this orphaned process can exit and the
                    # client reconnects (Last-Event-ID) to the master that replaced it
                    return
        finally:
            release()  # the stream ended, or the server closed it (its client left)

    try:
        resp = Response(stream_with_context(counted_stream(generate())), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    except BaseException:
        release()
        raise
    resp.call_on_close(release)  # also when the response is closed before the stream started
    return resp
