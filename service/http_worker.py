"""gunicorn's gthread worker, reading each request whole before a thread serves it.

gthread gives a connection to a thread as soon as it opens, and the thread then blocks reading the headers and
the body: 100 clients sending a body one byte every 2 s held every thread, and /healthz waited behind them. This
worker's own loop reads each request without blocking until its headers and its body (Content-Length or
chunked) are all there, and only then gives it to a thread, which finds it whole in the parser's buffer. A
request not whole within Settings.request_read_timeout_s is answered 408 and closed. Closing a connection (which
waits for the client to take the answer) is done from the loop too, so a slow client never stops it.

gunicorn_conf.py names this class as the worker class. It builds on gthread's own hooks (gunicorn >= 27); TLS
and HTTP/2 connections are left to gthread as they are: terminate TLS at a proxy in front (docs/deploy.md).
"""
from __future__ import annotations

import io
import json
import re
import selectors
import socket
import time
from dataclasses import dataclass, field
from functools import partial

from gunicorn.http import RequestParser
from gunicorn.workers.gthread import TConn, ThreadWorker

from .settings import Settings

NEED_MORE, WHOLE, AS_IS, TOO_LONG = "need more", "whole", "as is", "too long"
HEAD_MAX = 2 * 1024 * 1024  # past a 1 MiB request line and 100 fields of 8 KiB: gunicorn refuses a head this long
CHUNKED_SLACK = 64 * 1024   # room for a chunked body's framing: past twice the body limit and this, 413 here
RECV_BYTES = 64 * 1024
LINGER_S = 2.0              # as gthread's graceful close: how long a closed connection may still send to us
LINGER_BYTES = 64 * 1024
_FIELD = re.compile(rb"^(content-length|transfer-encoding|expect)[ \t]*:[ \t]*([^\r\n]*?)[ \t]*\r?$", re.I | re.M)
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")


class Framing:
    """Where the first request in a growing buffer ends, found as the bytes come: each is looked at about once.

    ``state`` says whether the request is WHOLE, NEED_MORE bytes, is to be given AS_IS to gunicorn's parser and
    the app, which answer it without reading the rest (a body over the limit: 413; a head gunicorn refuses), or
    is TOO_LONG to keep (a chunked body whose framing alone passes the limit).

    >>> Framing(100).state(bytearray(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"))
    'whole'
    >>> Framing(100).state(bytearray(b"POST / HTTP/1.1\\r\\nContent-Length: 5\\r\\n\\r\\nab"))
    'need more'
    >>> Framing(100).state(bytearray(b"POST / HTTP/1.1\\r\\nContent-Length: 500\\r\\n\\r\\n"))
    'as is'
    >>> Framing(100).state(bytearray(b"POST / HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n2\\r\\nab\\r\\n0\\r\\n\\r\\n"))
    'whole'
    """

    def __init__(self, max_body: int):
        self.max_body = max_body
        self.body_at = -1         # where the body starts, once the head is here
        self.body_end = -1        # a Content-Length body: where it ends
        self.chunk_at = -1        # a chunked body: where its next chunk-size line starts
        self.decoded = 0          # ... its data so far
        self.trailers_at = -1     # ... and where its last chunk's line ends
        self.expects_continue = False
        self._resume = 0          # where the search for the awaited line end goes on

    def state(self, data: bytearray) -> str:
        if self.body_at < 0:
            end = self._find(data, b"\r\n\r\n", 0)
            if end < 0:
                return AS_IS if len(data) > HEAD_MAX else NEED_MORE
            if not self._read_head(data, end):
                return AS_IS
        if self.body_end >= 0:
            return WHOLE if len(data) >= self.body_end else NEED_MORE
        return self._chunked_state(data)

    def _read_head(self, data: bytearray, end: int) -> bool:
        fields = {name.lower(): value for name, value in _FIELD.findall(data, 0, end + 2)}
        self.body_at = end + 4
        self.expects_continue = fields.get(b"expect", b"").lower() == b"100-continue"
        if b"chunked" in fields.get(b"transfer-encoding", b"").lower():
            self.chunk_at = self.body_at
            return True
        length = fields.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body:
            return False
        self.body_end = self.body_at + int(length)
        return True

    def _chunked_state(self, data: bytearray) -> str:
        while self.trailers_at < 0:
            if len(data) - self.body_at > 2 * self.max_body + CHUNKED_SLACK:
                return TOO_LONG
            if self.decoded > self.max_body:
                return AS_IS  # the app reads past its limit from what is here, and answers 413
            line_end = self._find(data, b"\r\n", self.chunk_at)
            if line_end < 0:
                return NEED_MORE
            size = bytes(data[self.chunk_at:line_end]).split(b";", 1)[0]
            if not _CHUNK_SIZE.fullmatch(size):
                return AS_IS  # gunicorn refuses it
            if int(size, 16) == 0:
                self.trailers_at = line_end  # the last chunk: trailer fields follow, up to an empty line
                break
            next_at = line_end + 2 + int(size, 16) + 2
            if next_at > len(data):
                return NEED_MORE
            self.chunk_at, self.decoded = next_at, self.decoded + int(size, 16)
        return WHOLE if self._find(data, b"\r\n\r\n", self.trailers_at) >= 0 else NEED_MORE

    def _find(self, data: bytearray, line_end: bytes, start: int) -> int:
        at = data.find(line_end, max(start, self._resume))
        self._resume = len(data) - len(line_end) + 1 if at < 0 else 0
        return at


def error_answer(status: str, code: str, message: str) -> bytes:
    """An answer the loop sends itself, as the app's errors look (docs/limits.md), closing the connection."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode() + body


@dataclass
class Reading:
    """A request on its way in: the bytes so far, and until when the rest may take."""
    conn: TConn
    deadline: float
    framing: Framing
    data: bytearray = field(default_factory=bytearray)
    watched: bool = False    # registered with the poller
    continued: bool = False  # "100 Continue" sent


class BufferingWorker(ThreadWorker):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        settings = Settings.from_env()
        self.read_timeout_s = settings.request_read_timeout_s
        self.max_body = settings.max_body_bytes
        self.buffering = not self.cfg.is_ssl and self.cfg.protocol == "http" and self.cfg.http_protocols == ["h1"]
        self.readings: dict[int, Reading] = {}                 # by id(conn), oldest (first deadline) first
        self.lingering: dict[int, tuple[TConn, float]] = {}   # closed connections read until they close too

    # --- reading a request whole, in the loop ------------------------------------------------------------
    def enqueue_req(self, conn) -> None:
        if not self.buffering:
            return super().enqueue_req(conn)
        reading = Reading(conn, time.monotonic() + self.read_timeout_s, Framing(self.max_body))
        if conn.parser is not None:  # kept alive: what reading the last request took ahead is this one's start
            reading.data += conn.parser.unreader.buf.getvalue()
            conn.parser.unreader.buf = io.BytesIO()
        conn.sock.setblocking(False)
        self.read_more(reading)

    def read_more(self, reading: Reading, _sock=None) -> None:
        state = reading.framing.state(reading.data) if reading.data else NEED_MORE
        while state == NEED_MORE:
            try:
                chunk = reading.conn.sock.recv(RECV_BYTES)
            except BlockingIOError:
                break
            except OSError:
                return self.drop(reading)
            if not chunk:  # the client will send no more: the parser answers what came, if anything did
                return self.hand_over(reading, AS_IS) if reading.data else self.drop(reading)
            reading.data += chunk
            state = reading.framing.state(reading.data)
        if state == TOO_LONG:
            return self.drop(reading, error_answer("413 Content Too Large", "body_too_large",
                                                   f"the request body is larger than {self.max_body} bytes"))
        if state != NEED_MORE:
            return self.hand_over(reading, state)
        if reading.framing.expects_continue and not reading.continued:  # gunicorn sends its own later: two are fine
            reading.continued = self.send_now(reading.conn.sock, b"HTTP/1.1 100 Continue\r\n\r\n")
        if not reading.watched:
            self.poller.register(reading.conn.sock, selectors.EVENT_READ, partial(self.read_more, reading))
            reading.watched = True
            self.readings[id(reading.conn)] = reading

    def hand_over(self, reading: Reading, state: str) -> None:
        conn = self.forget(reading)
        if conn.parser is None:
            conn.parser = RequestParser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(reading.data))
        conn.data_ready = True        # gthread would wait for the socket to be readable: it is all here already
        conn.unread = state == AS_IS  # the rest is still on the socket: close after the answer
        super().enqueue_req(conn)

    def forget(self, reading: Reading):
        if reading.watched:
            self.poller.unregister(reading.conn.sock)
            reading.watched = False
        self.readings.pop(id(reading.conn), None)
        return reading.conn

    def drop(self, reading: Reading, answer: bytes = b"") -> None:
        conn = self.forget(reading)
        self.nr_conns -= 1
        if answer and self.send_now(conn.sock, answer):
            self.linger(conn)
        else:
            conn.close()

    @staticmethod
    def send_now(sock, data: bytes) -> bool:
        """Send a short answer if the socket takes it at once: it has room for this much unless the client reads
        nothing at all, and then it waits for nothing either."""
        try:
            return sock.send(data) == len(data)
        except OSError:
            return False

    def handle_request(self, req, conn) -> bool:
        if getattr(conn, "unread", False):
            req.force_close()  # "Connection: close", and no next request on it
        return super().handle_request(req, conn)

    # --- timeouts, and closing without waiting in the loop -------------------------------------------------
    def murder_keepalived(self, force: bool = False) -> None:
        super().murder_keepalived(force)
        now = time.monotonic()
        stopping = force or not self.alive  # a request not yet whole when the worker stops is not served
        for reading in list(self.readings.values()):
            if not stopping and reading.deadline > now:
                break
            late = error_answer("408 Request Timeout", "request_timeout",
                                f"the request was not sent whole within {self.read_timeout_s:g} s")
            self.drop(reading, late if reading.data and not stopping else b"")
        for key, (_, until) in list(self.lingering.items()):
            if force or until <= now:
                self.stop_lingering(key)

    def finish_request(self, conn, fs) -> None:
        if self.buffering and not fs.cancelled() and fs.exception() is None and fs.result() is False:
            self.nr_conns -= 1
            return self.linger(conn)
        super().finish_request(conn, fs)

    def linger(self, conn) -> None:
        """gthread's graceful close (FIN, then read what the client still sends, so that it gets the answer rather
        than a reset), its reads from the poller: gthread waits for them in this loop, up to 2 s a connection."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
            conn.sock.setblocking(False)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.drain, id(conn)))
        except (OSError, ValueError, KeyError):
            conn.close()
            return
        self.lingering[id(conn)] = (conn, time.monotonic() + LINGER_S)

    def drain(self, key: int, _sock=None) -> None:
        conn, _ = self.lingering[key]
        try:
            if conn.sock.recv(LINGER_BYTES):
                return  # the client is still sending: read on until it closes or LINGER_S is up
        except BlockingIOError:
            return
        except OSError:
            pass
        self.stop_lingering(key)

    def stop_lingering(self, key: int) -> None:
        conn, _ = self.lingering.pop(key)
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        conn.close()
