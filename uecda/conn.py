"""One TCP peer: whole messages in, one prebuilt buffer out, faults instead of exceptions (UECDA.md §1, §8).

A peer that stalls past a deadline owes us the rest of the message it was sending; those bytes are skipped
before its next message, so a slow client that answers late falls back into step instead of out of sync.
"""
from __future__ import annotations

import select
import socket
import time

SEND_TIMEOUT_S = 10.0


class Fault(Exception):
    """The peer could not give an answer: disconnected, too slow, or already dead."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Peer:
    def __init__(self, sock: socket.socket, label: str = "peer"):
        self.sock = sock
        self.label = label
        self.owed = 0           # bytes of a message abandoned at a deadline, still to come
        self.dead: str | None = None
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass

    def kill(self, reason: str) -> None:
        if self.dead is None:
            self.dead = reason
            try:
                self.sock.close()
            except OSError:
                pass

    def close(self) -> None:
        self.kill("closed")

    def send(self, buf: bytes) -> bool:
        if self.dead:
            return False
        try:
            self.sock.settimeout(SEND_TIMEOUT_S)
            self.sock.sendall(buf)
            return True
        except OSError as exc:
            self.kill(f"send failed ({exc.__class__.__name__})")
            return False

    def _recv_into(self, buf: bytearray, n: int, deadline: float | None) -> None:
        while len(buf) < n:
            if deadline is None:
                self.sock.settimeout(None)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(n - len(buf))
            except (TimeoutError, socket.timeout):
                raise TimeoutError from None
            except OSError as exc:
                self.kill(f"disconnected ({exc.__class__.__name__})")
                raise Fault(self.dead) from None
            if not chunk:
                self.kill("disconnected")
                raise Fault(self.dead)
            buf += chunk

    def recv(self, n: int, timeout: float | None) -> bytes:
        """Exactly ``n`` bytes, reassembled from partial reads, within ``timeout`` seconds (None: no limit)."""
        if self.dead:
            raise Fault(self.dead)
        deadline = None if timeout is None else time.monotonic() + timeout
        if self.owed:
            stale = bytearray()
            try:
                self._recv_into(stale, self.owed, deadline)
            except TimeoutError:
                self.owed -= len(stale)
                raise Fault("timeout (still sending an earlier late answer)") from None
            self.owed = 0
        buf = bytearray()
        try:
            self._recv_into(buf, n, deadline)
        except TimeoutError:
            self.owed = n - len(buf)
            raise Fault(f"timeout after {timeout:.3f} s") from None
        return bytes(buf)

    def drain(self) -> int:
        """Drop bytes nobody asked for (beyond what is owed): garbage must not be read as the next answer."""
        if self.dead:
            return 0
        dropped = 0
        while True:
            try:
                ready, _, _ = select.select([self.sock], [], [], 0)
            except (OSError, ValueError):
                return dropped
            if not ready:
                return dropped
            try:
                self.sock.settimeout(0)
                chunk = self.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                return dropped
            except OSError as exc:
                self.kill(f"disconnected ({exc.__class__.__name__})")
                return dropped
            if not chunk:
                self.kill("disconnected")
                return dropped
            use = min(self.owed, len(chunk))
            self.owed -= use
            dropped += len(chunk) - use
