"""Redis's memory: new games, record imports and bot registrations are refused while it is nearly full.

Redis itself refuses writes past its ``maxmemory`` (policy ``noeviction``: game data is never evicted). The gate
refuses anything *new* earlier, above ``storage_full_fraction`` of that limit, so the room left is for the moves
of the games in progress. A server without maxmemory (your own Redis, say) is held to ``storage_cap_mb`` if that
is set, else not at all. Used memory is read from INFO at most every LOOK_EVERY_S per process.
"""
from __future__ import annotations

import math
import threading
import time

import redis

from .errors import StorageFull

LOOK_EVERY_S = 1.0
MIB = 1024 * 1024


def out_of_memory(exc: BaseException) -> bool:
    """Whether Redis refused a write for memory: an OOM reply, or (Redis 6) one inside a script's error."""
    return isinstance(exc, redis.exceptions.OutOfMemoryError) or (
        isinstance(exc, redis.exceptions.ResponseError) and "OOM command not allowed" in str(exc))


class MemoryGate:
    def __init__(self, conn, fraction: float, cap_mb: int = 0, clock=time.monotonic):
        self.r = conn  # a redis.Redis or a RedisCluster: every primary is read, the fullest counts
        self.fraction = fraction
        self.cap = cap_mb * MIB
        self.clock = clock
        self._lock = threading.Lock()
        self._looked_at = -math.inf
        self._seen = (0, 0)

    def usage(self) -> tuple[int, int]:
        """(used bytes, limit bytes; 0: no limit) of the fullest server, read at most every LOOK_EVERY_S."""
        with self._lock:
            now = self.clock()
            if now - self._looked_at >= LOOK_EVERY_S:
                self._seen = self._read()
                self._looked_at = now
            return self._seen

    def _read(self) -> tuple[int, int]:
        try:
            if hasattr(self.r, "get_primaries"):
                reply = self.r.info("memory", target_nodes=self.r.PRIMARIES)
            else:
                reply = self.r.info("memory")
        except redis.exceptions.ResponseError:  # a managed Redis may not serve INFO: nothing to go by
            return 0, 0
        servers = [reply] if "used_memory" in reply else list(reply.values())  # a cluster answers per node
        used_and_limits = [(int(s["used_memory"]), int(s.get("maxmemory") or 0) or self.cap) for s in servers]
        return max(used_and_limits, key=lambda u: u[0] / u[1] if u[1] else 0.0)

    def check(self) -> None:
        """507 storage_full when the fullest server is above the fraction of its limit."""
        if self.fraction <= 0:
            return
        used, limit = self.usage()
        if limit and used > self.fraction * limit:
            raise StorageFull(f"the referee's storage is nearly full ({used / MIB:.0f} of {limit / MIB:.0f} MiB "
                              "used): no new games or bots for now; games in progress go on")
