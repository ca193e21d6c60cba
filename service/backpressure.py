"""Back-pressure on bot seats: while owed bot turns wait longer than ``bots_busy_wait_s``, a new game with bot
seats is refused (503 ``bots_busy`` with Retry-After) rather than queued behind turns that already run late.
Games in progress are never refused: their owed turns keep their place in the queue."""
from __future__ import annotations

import math
import threading
import time

from .errors import BotsBusy

LOOK_EVERY_S = 0.25  # one look at the queue per process this often, not one per created game


class BotGate:
    def __init__(self, scheduler, wait_s: float, clock=time.monotonic):
        self.scheduler = scheduler
        self.wait_s = wait_s
        self.clock = clock
        self._lock = threading.Lock()
        self._looked_at = -math.inf
        self._oldest_s = 0.0

    def oldest_wait_s(self) -> float:
        with self._lock:
            now = self.clock()
            if now - self._looked_at >= LOOK_EVERY_S:
                self._oldest_s = self.scheduler.backlog()[1]
                self._looked_at = now
            return self._oldest_s

    def check(self) -> None:
        oldest = self.oldest_wait_s()
        if oldest > self.wait_s:
            raise BotsBusy(f"bot seats are busy: the oldest owed bot turn has waited {oldest:.1f} s "
                           f"(limit {self.wait_s:g} s); try again later", retry_after=max(1, math.ceil(oldest)))
