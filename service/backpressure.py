"""Back-pressure on bot seats: while owed bot turns wait longer than ``bots_busy_wait_s``, a new game with bot
seats is refused (503 ``bots_busy`` with Retry-After) rather than queued behind turns that already run late.
Games in progress are never refused: their owed turns keep their place in the queue.

The oldest turn's wait says it late; the queue's depth says it early: more than ``TURNS_PER_WORKER`` owed turns
per worker means a turn owed now waits behind at least that many searches, longer than its budget. A game let
in stays for its whole deal, so the gate closes on whichever comes first, and every game it let in since its last
look counts as one more turn queued: a burst of creates between two looks cannot all pass."""
from __future__ import annotations

import math
import threading
import time

from .errors import BotsBusy

LOOK_EVERY_S = 0.25  # one look at the queue per process this often, not one per created game
TURNS_PER_WORKER = 2


class BotGate:
    def __init__(self, scheduler, wait_s: float, clock=time.monotonic):
        self.scheduler = scheduler
        self.wait_s = wait_s
        self.clock = clock
        self._lock = threading.Lock()
        self._looked_at = -math.inf
        self._seen = (0, 0.0, 1)
        self._let_in = 0  # bot games created since the last look

    def look(self) -> tuple[int, float, int]:
        """(owed turns queued, the oldest one's wait in s, workers), looked up at most every LOOK_EVERY_S."""
        with self._lock:
            now = self.clock()
            if now - self._looked_at >= LOOK_EVERY_S:
                depth, oldest = self.scheduler.backlog()
                self._seen = (depth, oldest, self.scheduler.workers())
                self._looked_at = now
                self._let_in = 0
            depth, oldest, workers = self._seen
            return depth + self._let_in, oldest, workers

    def check(self) -> None:
        depth, oldest, workers = self.look()
        if oldest > self.wait_s:
            raise BotsBusy(f"bot seats are busy: the oldest owed bot turn has waited {oldest:.1f} s "
                           f"(limit {self.wait_s:g} s); try again later", retry_after=max(1, math.ceil(oldest)))
        if depth > TURNS_PER_WORKER * max(1, workers):
            raise BotsBusy(f"bot seats are busy: {depth} owed bot turns wait for {workers} worker(s); try again later",
                           retry_after=1)
        with self._lock:
            self._let_in += 1
