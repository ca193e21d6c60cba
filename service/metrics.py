"""Prometheus metrics shared by the API processes and the bot workers.

Under `referee serve` every process writes its samples to PROMETHEUS_MULTIPROC_DIR (prometheus_client's
multiprocess mode) and /metrics aggregates them: counters need no Redis round trip on the move path, and the
workers' bot-job figures show up next to the API's. Without that variable each process reports its own.
`games active` is the one cross-process figure kept in Redis: a sorted set of game ids by last activity,
written by a background thread in batches (one ZADD every few seconds per process, never on the move path).
"""
from __future__ import annotations

import logging
import os
import threading
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

ACTIVE_WINDOW_S = 600.0
FLUSH_EVERY_S = 5.0

REQUESTS = Counter("referee_http_requests_total", "HTTP requests by route and status", ["method", "route", "status"])
REQUEST_SECONDS = Histogram("referee_http_request_duration_seconds", "HTTP request latency by route", ["route"])
MOVE_SECONDS = Histogram("referee_move_duration_seconds", "POST …/moves latency, judged and stored",
                         buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
VERDICTS = Counter("referee_verdicts_total", "Judged proposals by verdict reason (legal for applied moves)",
                   ["reason"])
BOT_JOB_SECONDS = Histogram("referee_bot_job_duration_seconds", "Bot turn job run time",
                            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30))
BOT_WAIT_SECONDS = Histogram("referee_bot_job_wait_seconds", "Bot turn job time in the queue before a worker ran it",
                             buckets=(0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60))
BOT_TURN_SECONDS = Histogram("referee_bot_turn_latency_seconds",
                             "From the write that made a bot's turn owed to the bot's move applied (queueing included)",
                             buckets=(0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30, 60))
BOT_JOBS = Counter("referee_bot_jobs_total", "Bot turn jobs by outcome", ["status"])
BOT_RETRIES = Counter("referee_bot_job_retries_total",
                      "Bot turns tried again: a conflict in the job, or a job the reaper re-enqueued")
BOT_FALLBACKS = Counter("referee_bot_fallback_moves_total",
                        "Moves the fallback played for registered bot seats: timeout (the budget ran out) or away",
                        ["reason"])
STREAMS = Gauge("referee_sse_streams_open", "Open Server-Sent Events streams", multiprocess_mode="livesum")

_pending: dict[str, float] = {}  # game id -> last activity, not yet written
_lock = threading.Lock()
_flusher: tuple[int, threading.Thread] | None = None  # (pid, thread): a forked child starts its own
log = logging.getLogger(__name__)


_verdicts: dict = {}  # reason -> its child of VERDICTS: labels() is a lookup under a lock, once per move


def verdict(reason: str | None) -> None:
    key = reason or "legal"
    child = _verdicts.get(key)
    if child is None:
        child = _verdicts[key] = VERDICTS.labels(key)
    child.inc()


def active_key(prefix: str) -> str:
    return f"{prefix}:active-games"


def touch_game(conn, prefix: str, game_id: str) -> None:
    """Mark a game active. Only remembered here: a thread writes the batch (a single-key ZADD, cluster-safe)."""
    global _flusher
    with _lock:
        _pending[game_id] = time.time()
        if _flusher is None or _flusher[0] != os.getpid() or not _flusher[1].is_alive():
            thread = threading.Thread(target=_flush_forever, args=(conn, prefix), name="games-active", daemon=True)
            _flusher = (os.getpid(), thread)
            thread.start()


def flush(conn, prefix: str) -> None:
    with _lock:
        batch = dict(_pending)
        _pending.clear()
    if batch:
        conn.zadd(active_key(prefix), batch)


def _flush_forever(conn, prefix: str) -> None:
    while True:
        time.sleep(FLUSH_EVERY_S)
        try:
            flush(conn, prefix)
        except Exception as exc:  # noqa: BLE001 - a metric must never take a process down; the next batch retries
            log.warning("games-active batch not written: %s", exc)


def render(conn=None, prefix: str = "referee", backlog: tuple[int, float] | None = None) -> bytes:
    """The Prometheus text exposition of every process's metrics, plus games active from Redis and the bot
    queue's ``backlog`` (owed turns waiting, the oldest one's wait) when given."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY as registry  # noqa: N811
    text = generate_latest(registry)
    if conn is not None:
        flush(conn, prefix)
        key, now = active_key(prefix), time.time()
        conn.zremrangebyscore(key, 0, now - ACTIVE_WINDOW_S)
        family = GaugeMetricFamily("referee_games_active", f"Games with activity in the last {ACTIVE_WINDOW_S:.0f} s")
        family.add_metric([], conn.zcard(key))
        text += _families(family)
    if backlog is not None:
        depth = GaugeMetricFamily("referee_bot_queue_depth", "Owed bot turns waiting in the queue for a worker")
        depth.add_metric([], backlog[0])
        oldest = GaugeMetricFamily("referee_bot_queue_oldest_wait_seconds",
                                   "How long the oldest owed bot turn in the queue has waited")
        oldest.add_metric([], backlog[1])
        text += _families(depth, oldest)
    return text


def _families(*families) -> bytes:
    extra = CollectorRegistry()
    for family in families:
        extra.register(_Fixed(family))
    return generate_latest(extra)


class _Fixed:
    def __init__(self, family):
        self.family = family

    def collect(self):
        yield self.family
