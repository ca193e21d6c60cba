"""A pass run again and again in a daemon thread of a `referee worker` (the reaper, the deadline keeper)."""
from __future__ import annotations

import logging
import threading
from typing import Callable

log = logging.getLogger(__name__)


def repeat(run_once: Callable[[], object], interval_s: float, name: str) -> tuple[threading.Thread, threading.Event]:
    """Run ``run_once`` now and then every ``interval_s`` until the returned event is set."""
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            try:
                run_once()
            except Exception:  # noqa: BLE001 - storage hiccups must not end the loop; the next pass retries
                log.exception("%s pass failed", name)
            stop.wait(interval_s)

    thread = threading.Thread(target=loop, name=f"referee-{name}", daemon=True)
    thread.start()
    return thread, stop
