"""Enqueueing bot turns on RQ, and what the reaper asks RQ: is a bot turn's job still alive?

Owed turns are played oldest first across games: RQ's queue is first in, first out, and a reaper's retry (a turn
owed for a while already) goes to its front. ``queued_turns()`` is what the API's back-pressure reads,
``backlog()`` what /metrics reads.

Job ids: ``bot-<game>-<seq>`` for the job scheduled by the write that made the turn owed, then
``bot-<game>-<seq>-r<n>`` for the reaper's n-th retry (a new id each time: a dead job stays inspectable in
RQ's registries, and a job that never reached the queue needs no requeue).
"""
from __future__ import annotations

import time
from datetime import datetime, timezone

from rq import Queue
from rq.job import Job, JobStatus
from rq.worker import Worker

JOB = "workers.jobs.play_bot_turn"  # by name: the service never imports the workers
# The strategies a seat may name; workers/bots registers one function for each (a test checks both agree).
BOT_STRATEGIES = ("greedy", "mc", "policy", "policy_mc", "random")
_WAITING = {JobStatus.CREATED, JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


def job_id(game_id: str, seq: int, tries: int = 0) -> str:
    base = f"bot-{game_id}-{seq}"
    return f"{base}-r{tries}" if tries else base


def game_of(jid: str) -> str | None:
    """The game id in a bot turn's job id (see ``job_id``)."""
    parts = jid.split("-")
    return parts[1] if len(parts) >= 3 and parts[0] == "bot" else None


def _epoch(stamp: bytes) -> float:
    return datetime.strptime(stamp.decode(), "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


class BotScheduler:
    def __init__(self, raw_conn, queue_name: str, key_prefix: str):
        self.queue = Queue(queue_name, connection=raw_conn)
        self.conn = raw_conn
        self.key_prefix = key_prefix

    def schedule(self, game_id: str, seq: int, tries: int = 0) -> str:
        jid = job_id(game_id, seq, tries)
        self.queue.enqueue(JOB, game_id, seq, self.key_prefix, self.queue.name,
                           job_id=jid, result_ttl=3600, failure_ttl=7 * 24 * 3600, at_front=tries > 0)
        return jid

    def backlog(self) -> tuple[int, float]:
        """(owed turns waiting in the queue, how long the oldest of them has waited in seconds)."""
        depth = self.queue.count
        head = self.conn.lindex(self.queue.key, 0) if depth else None
        job = Job.fetch_many([head.decode()], connection=self.conn)[0] if head else None
        if job is None or job.enqueued_at is None:
            return depth, 0.0
        return depth, max(0.0, time.time() - job.enqueued_at.replace(tzinfo=timezone.utc).timestamp())

    def queued_turns(self, limit: int) -> tuple[int, list[tuple[str, float]]]:
        """(owed turns waiting in the queue, the game id and enqueue time in epoch seconds of the first ``limit``)."""
        pipe = self.conn.pipeline(transaction=False)
        pipe.llen(self.queue.key)
        pipe.lrange(self.queue.key, 0, limit - 1)
        depth, ids = pipe.execute()
        for jid in ids:
            pipe.hget(Job.key_for(jid.decode()), "enqueued_at")
        stamps = pipe.execute() if ids else []
        now, out = time.time(), []
        for jid, stamp in zip(ids, stamps):
            game = game_of(jid.decode())
            if game is not None:
                out.append((game, _epoch(stamp) if stamp else now))
        return int(depth), out

    def workers(self) -> int:
        """RQ workers registered on this queue (a worker that died unregisters within its heartbeat's TTL)."""
        return Worker.count(connection=self.conn, queue=self.queue)

    # --- liveness, for the reaper --------------------------------------------
    def alive_key(self, worker_name: str) -> str:
        return f"rq:referee-alive:{self.queue.name}:{worker_name}"

    def mark_alive(self, worker_name: str, ttl_s: float) -> None:
        """A `referee worker` says it is alive; a job it started counts as abandoned once this expires."""
        self.conn.set(self.alive_key(worker_name), 1, px=max(1, int(ttl_s * 1000)))

    def mark_gone(self, worker_name: str) -> None:
        self.conn.delete(self.alive_key(worker_name))

    def live(self, job_ids: list[str]) -> list[bool]:
        """For each job: will it still run (waiting in the queue) or is it running on a live worker?"""
        if not job_ids:
            return []
        jobs = Job.fetch_many(job_ids, connection=self.conn)
        running = [j for j in jobs if j is not None and j.get_status(refresh=False) == JobStatus.STARTED]
        pipe = self.conn.pipeline(transaction=False)
        for j in running:
            pipe.exists(self.alive_key(j.worker_name or "?"))
        # a QUEUED job that is no longer in the queue's list was taken by a worker (RQ moves it to an
        # intermediate list first); if that worker died before starting it, nothing will ever run it
        queued = [j for j in jobs if j is not None and j.get_status(refresh=False) == JobStatus.QUEUED]
        for j in queued:
            pipe.lpos(self.queue.key, j.id)
        answers = pipe.execute() if running or queued else []
        alive = dict(zip((j.id for j in running), answers[:len(running)]))
        in_queue = dict(zip((j.id for j in queued), answers[len(running):]))
        out = []
        for job in jobs:
            if job is None:
                out.append(False)  # never enqueued (the appender died first) or long expired
            elif job.id in alive:
                out.append(bool(alive[job.id]))
            elif job.id in in_queue:
                out.append(in_queue[job.id] is not None)
            else:
                out.append(job.get_status(refresh=False) in _WAITING)
        return out
