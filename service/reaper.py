"""The reaper: every owed bot turn gets a live job.

The store keeps, in each game's meta, the seq at which a bot seat owes a move (written by the same script that
appends the move), and an index of the games with bot seats (worker strategies or registered bots). A turn
only registered bots owe has a deadline instead of a job: the reaper enqueues its fallback job once the
deadline passed if no deadline keeper did (``due_at``). Every `referee worker` runs this at start and
every ``reaper_interval_s``: for each indexed game whose owed turn is older than ``reaper_grace_s`` and whose
current job is neither waiting nor running on a live worker (never enqueued, failed, finished without moving,
or started by a worker that died), it claims the next retry in the game's meta (compare-and-set: one reaper
wins) and enqueues a job with a new id. A job only ever applies its move through the conditional append with
``expected_seq``, so however many jobs run for one turn, at most one move is applied.
"""
from __future__ import annotations

import logging
import threading
import time

from . import metrics
from .periodic import repeat
from .scheduler import BotScheduler, job_id
from .store import GameStore, TurnStatus

log = logging.getLogger(__name__)
INDEX_GRACE_S = 60.0  # a gone or finished game stays indexed this long after it was (re)registered
BATCH = 200


class BotReaper:
    def __init__(self, store: GameStore, scheduler: BotScheduler, grace_s: float = 5.0, max_retries: int = 5,
                 clock=time.time, index_grace_s: float = INDEX_GRACE_S):
        self.store = store
        self.scheduler = scheduler
        self.grace_s = grace_s
        self.max_retries = max_retries
        self.clock = clock
        self.index_grace_s = index_grace_s
        self._given_up: set[tuple[str, int]] = set()

    def run_once(self) -> dict:
        counts = {"games": 0, "retried": 0, "forgotten": 0, "given_up": 0}
        batch: list[tuple[str, float]] = []
        for item in self.store.bot_games(BATCH):
            batch.append(item)
            if len(batch) >= BATCH:
                self._pass(batch, counts)
                batch = []
        if batch:
            self._pass(batch, counts)
        return counts

    def _pass(self, batch: list[tuple[str, float]], counts: dict) -> None:
        now = self.clock()
        counts["games"] += len(batch)
        due: list[tuple[str, int, TurnStatus]] = []
        for (gid, score), st in zip(batch, self.store.turn_status([gid for gid, _ in batch])):
            if st.seq is None or (st.over and st.owed is None):
                # gone (deleted, expired, or its creation never finished) or nobody can act: unless it was
                # registered again lately (a new deal is being started), drop it from the index
                if now * 1000 - score > self.index_grace_s * 1000 and self.store.forget(gid, score):
                    counts["forgotten"] += 1
                continue
            if st.owed is not None and st.owed == st.seq and now >= due_at(st, self.grace_s):
                due.append((gid, st.owed, st))
        if not due:
            return
        alive = self.scheduler.live([job_id(gid, seq, st.tries) for gid, seq, st in due])
        for (gid, seq, st), ok in zip(due, alive):
            if ok:
                continue
            if st.tries >= self.max_retries:
                if (gid, seq) not in self._given_up:
                    self._given_up.add((gid, seq))
                    log.error("game %s: the bot turn at seq %d failed %d retries; not retrying it again",
                              gid, seq, st.tries)
                counts["given_up"] += 1
                continue
            if self.store.claim_retry(gid, seq, st.tries):
                jid = self.scheduler.schedule(gid, seq, st.tries + 1)
                counts["retried"] += 1
                metrics.BOT_RETRIES.inc()
                log.warning("game %s: the bot turn at seq %d had no live job (%s); enqueued %s",
                            gid, seq, job_id(gid, seq, st.tries), jid)


def due_at(st, grace_s: float) -> float:
    """When a turn without a live job needs one. A worker seat's turn: a grace after it was owed (or retried),
    left to the process that enqueued it. Registered bots' turn: its deadline (no job exists before it; the
    deadline keeper, service/deadlines.py, is usually first), then a grace after each claimed job."""
    if st.deadline is None:
        return st.owed_at + grace_s
    if st.tries == 0:
        return st.deadline
    return max(st.deadline, st.owed_at + grace_s)


def alive_ttl(interval_s: float) -> float:
    return max(1.0, 4 * interval_s)


def run_in_thread(reaper: BotReaper, interval_s: float, worker_name: str) -> tuple[threading.Thread, threading.Event]:
    """Mark ``worker_name`` alive and reap now, then again every ``interval_s`` until the event is set."""
    reaper.scheduler.mark_alive(worker_name, alive_ttl(interval_s))

    def once():
        reaper.scheduler.mark_alive(worker_name, alive_ttl(interval_s))
        reaper.run_once()
    return repeat(once, interval_s, "reaper")
