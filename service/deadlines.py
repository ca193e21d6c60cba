"""The registered bots' deadlines: when one passes, a job plays the fallback move (docs/remote-bots.md).

The durable record is the game's meta (``owed``, ``deadline``, ``tries``, written by the script that appends the
move, service/store.py). ``<prefix>:bot-deadlines``, a sorted set (game id -> deadline in ms), only says when to
look: the API adds to it after the append, and every `referee worker` polls it every ``deadline_poll_s``. A
keeper claims the turn's first job with the reaper's compare-and-set (tries 0 -> 1), so one job is enqueued
however many keepers look; an entry lost with a crashed API process is found by the reaper's scan instead
(service/reaper.py), a grace later.
"""
from __future__ import annotations

import logging
import threading
import time

from .periodic import repeat
from .scheduler import BotScheduler
from .store import ZREM_IF_SCORE, GameStore

log = logging.getLogger(__name__)
BATCH = 200


class Deadlines:
    def __init__(self, conn, prefix: str):
        self.r = conn
        self.key = f"{prefix}:bot-deadlines"
        self._drop = conn.register_script(ZREM_IF_SCORE)

    def add(self, gid: str, deadline: float) -> None:
        self.r.zadd(self.key, {gid: int(deadline * 1000)})

    def due(self, now: float, limit: int = BATCH) -> list[tuple[str, float]]:
        return self.r.zrangebyscore(self.key, "-inf", int(now * 1000), start=0, num=limit, withscores=True)

    def drop(self, gid: str, score) -> None:
        """Drop the entry unless a newer deadline replaced it since it was read."""
        self._drop(keys=[self.key], args=[gid, score])


class DeadlineKeeper:
    def __init__(self, store: GameStore, scheduler: BotScheduler, clock=time.time):
        self.store = store
        self.scheduler = scheduler
        self.deadlines = Deadlines(store.r, store.prefix)
        self.clock = clock

    def run_once(self) -> int:
        """Enqueue the fallback job of every turn whose deadline passed; returns how many were enqueued."""
        now = self.clock()
        due = self.deadlines.due(now)
        if not due:
            return 0
        fired = 0
        for (gid, score), st in zip(due, self.store.turn_status([gid for gid, _ in due])):
            seq, deadline = st.seq, st.deadline
            if seq is not None and st.owed == seq and deadline is not None and st.tries == 0:  # still waiting
                if deadline > now:
                    self.deadlines.add(gid, deadline)  # a later turn of the game: look again then
                    continue
                if self.store.claim_retry(gid, seq, 0):
                    jid = self.scheduler.schedule(gid, seq, 1)
                    fired += 1
                    log.info("game %s: the registered bot's deadline at seq %d passed; enqueued %s", gid, seq, jid)
            self.deadlines.drop(gid, score)
        return fired


def run_in_thread(keeper: DeadlineKeeper, interval_s: float) -> tuple[threading.Thread, threading.Event]:
    return repeat(keeper.run_once, interval_s, "deadlines")
