"""Points where the fault tests stop a process on purpose; the service runs with the no-op ``ServiceHooks``.

``referee serve`` injects ``PauseAfterAppend`` only when ``REFEREE_FAULT_PAUSE_AFTER_APPEND_S`` is set, so a
test can kill -9 an API process between a move's append and the enqueue of the bot turn it made owed.
"""
from __future__ import annotations

import time


class ServiceHooks:
    def bot_turn_stored(self, game_id: str, seq: int) -> None:
        """A stored move left a bot turn owed, not yet enqueued nor armed."""


class PauseAfterAppend(ServiceHooks):
    def __init__(self, seconds: float):
        self.seconds = seconds

    def bot_turn_stored(self, game_id: str, seq: int) -> None:
        time.sleep(self.seconds)


def hooks_for(pause_after_append_s: float) -> ServiceHooks:
    return PauseAfterAppend(pause_after_append_s) if pause_after_append_s > 0 else ServiceHooks()
