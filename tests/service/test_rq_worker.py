"""`referee worker`'s RQ worker stops at once: RQ's command listener never holds it (a real Redis)."""
from __future__ import annotations

import secrets
import threading
import time

import pytest
from service.redis_conn import connect
from tests.procs import wait_until
from workers.rq_worker import PromptForkWorker, PromptSimpleWorker


@pytest.mark.parametrize("cls", [PromptSimpleWorker, PromptForkWorker])
def test_stopping_the_command_listener_between_polls_takes_a_moment(redis_url, cls):
    # rq.SimpleWorker's own listener, stopped here, holds the worker for up to 60 s (redis-py 8 joins its poll)
    worker = cls([f"referee-test-listener-{secrets.token_hex(4)}"], connection=connect(redis_url, decode=False))
    worker.subscribe()
    try:
        worker.pubsub.unsubscribe()  # the listener now waits for a subscription, as after a lost connection
        wait_until(lambda: not worker.pubsub.subscribed, 10, "the unsubscription to be read")
        stopped = threading.Thread(target=worker.unsubscribe, daemon=True)
        stopped.start()
        wait_until(lambda: not stopped.is_alive(), 10, "the listener to stop")
    finally:
        worker.pubsub.close()


def test_the_listener_still_hears_rq_commands(redis_url):
    from rq.command import send_shutdown_command

    raw = connect(redis_url, decode=False)
    worker = PromptSimpleWorker([f"referee-test-listener-{secrets.token_hex(4)}"], connection=raw)
    heard = threading.Event()
    worker.handle_payload = lambda message: heard.set()
    worker.subscribe()
    try:
        wait_until(lambda: worker.pubsub.subscribed, 10, "the subscription")
        send_shutdown_command(raw, worker.name)
        wait_until(heard.is_set, 10, "the shutdown command to reach the worker")
    finally:
        worker.unsubscribe()
        worker.pubsub.close()



@pytest.mark.parametrize("cls", [PromptSimpleWorker, PromptForkWorker])
def test_the_idle_listener_waits_in_its_poll_rather_than_spinning(redis_url, cls):
    # a poll with no timeout returns at once: the thread would spin, a core per idle worker
    worker = cls([f"referee-test-listener-{secrets.token_hex(4)}"], connection=connect(redis_url, decode=False))
    worker.subscribe()
    try:
        assert worker.pubsub_thread.daemon
        wait_until(lambda: worker.pubsub.subscribed, 10, "the subscription")
        polls, get_message = [], worker.pubsub.get_message

        def counted(*args, **kwargs):
            polls.append(kwargs.get("timeout"))
            return get_message(*args, **kwargs)

        worker.pubsub.get_message = counted
        time.sleep(1.5)
        assert len(polls) <= 4, f"{len(polls)} polls in 1.5 s"
    finally:
        worker.unsubscribe()
        worker.pubsub.close()
