"""The RQ worker classes `referee worker` runs: RQ's own, listening for RQ's commands in one-second polls.

RQ listens for its commands (shutdown, kill the horse) on a pub/sub thread that it joins when the worker stops;
redis-py 8 waits for that thread's current poll to end, and RQ polls for 60 s, so a SIGTERM (or the supervisor's
death) could keep a worker alive a minute after its last job. Polling every second bounds that to a second.
"""
from __future__ import annotations

import logging
import time

import redis
from rq import SimpleWorker, Worker
from rq.worker import BaseWorker

POLL_S = 1.0
log = logging.getLogger(__name__)


def _retry_on_lost_connection(exc: BaseException, pubsub, thread) -> None:
    """Keep listening through a storage outage, as RQ's main loop does; anything else ends the listener."""
    if not isinstance(exc, redis.exceptions.ConnectionError):
        raise exc
    log.warning("RQ command listener: %s; retrying", exc)
    time.sleep(POLL_S)


class _PromptListener(BaseWorker):
    def subscribe(self) -> None:
        self.pubsub = self.connection.pubsub()
        self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
        # sleep_time is the poll's timeout: 0 (redis-py's default) would spin the thread, a core's worth of CPU
        # per idle worker taken from the bot turns and the API
        self.pubsub_thread = self.pubsub.run_in_thread(  # type: ignore[assignment]  # RQ annotates it None
            sleep_time=POLL_S, daemon=True, exception_handler=_retry_on_lost_connection)


class PromptSimpleWorker(_PromptListener, SimpleWorker):
    """Plays each job in the worker process itself (the default)."""


class PromptForkWorker(_PromptListener, Worker):
    """Forks a work horse per job (`referee worker --fork`)."""
