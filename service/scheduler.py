"""Enqueueing bot turns on RQ with one deterministic job id per (game, seq)."""
from __future__ import annotations

from rq import Queue

JOB = "workers.jobs.play_bot_turn"  # by name: the service never imports the workers
# The strategies a seat may name; workers/bots registers one function for each (a test checks both agree).
BOT_STRATEGIES = ("greedy", "mc", "random")


def job_id(game_id: str, seq: int) -> str:
    return f"bot-{game_id}-{seq}"


class BotScheduler:
    def __init__(self, raw_conn, queue_name: str, key_prefix: str):
        self.queue = Queue(queue_name, connection=raw_conn)
        self.key_prefix = key_prefix

    def schedule(self, game_id: str, seq: int) -> None:
        self.queue.enqueue(JOB, game_id, seq, self.key_prefix, self.queue.name,
                           job_id=job_id(game_id, seq), result_ttl=3600, failure_ttl=7 * 24 * 3600)
