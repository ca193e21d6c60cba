"""Prometheus metrics shared by the API processes and the bot workers.

Under `referee serve` every process writes its samples to PROMETHEUS_MULTIPROC_DIR (prometheus_client's
multiprocess mode) and /metrics aggregates them: counters need no Redis round trip on the move path, and the
workers' bot-job figures show up next to the API's. Without that variable each process reports its own.
`games active` is the one cross-process figure kept in Redis: a sorted set of game ids by last activity,
written at most once a minute per game and process.
"""
from __future__ import annotations

import os
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

ACTIVE_WINDOW_S = 600.0
TOUCH_EVERY_S = 60.0

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
BOT_JOBS = Counter("referee_bot_jobs_total", "Bot turn jobs by outcome", ["status"])
BOT_RETRIES = Counter("referee_bot_job_retries_total",
                      "Bot turns tried again: a conflict in the job, or a job the reaper re-enqueued")
STREAMS = Gauge("referee_sse_streams_open", "Open Server-Sent Events streams", multiprocess_mode="livesum")

_touched: dict[str, float] = {}


def verdict(reason: str | None) -> None:
    VERDICTS.labels(reason or "legal").inc()


def active_key(prefix: str) -> str:
    return f"{prefix}:active-games"


def touch_game(conn, prefix: str, game_id: str) -> None:
    """Mark a game active; one ZADD per game and process per minute (a single-key command, cluster-safe)."""
    now = time.time()
    if now - _touched.get(game_id, 0.0) < TOUCH_EVERY_S:
        return
    if len(_touched) > 50_000:
        _touched.clear()
    _touched[game_id] = now
    conn.zadd(active_key(prefix), {game_id: now})


def render(conn=None, prefix: str = "referee") -> bytes:
    """The Prometheus text exposition of every process's metrics, plus games active from Redis."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY as registry  # noqa: N811
    text = generate_latest(registry)
    if conn is not None:
        key, now = active_key(prefix), time.time()
        conn.zremrangebyscore(key, 0, now - ACTIVE_WINDOW_S)
        family = GaugeMetricFamily("referee_games_active", f"Games with activity in the last {ACTIVE_WINDOW_S:.0f} s")
        family.add_metric([], conn.zcard(key))
        extra = CollectorRegistry()
        extra.register(_Fixed(family))
        text += generate_latest(extra)
    return text


class _Fixed:
    def __init__(self, family):
        self.family = family

    def collect(self):
        yield self.family
