"""A per-process cache of the latest snapshot of the games this process moved.

A move through a cached snapshot costs one round trip (the append script), and the script refuses it if the
game moved on elsewhere (expected seq): a stale entry costs one extra read, never a wrong move. Only the
move path uses it; every other read goes to the store.
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

from .store import GameRecord


class SnapshotCache:
    def __init__(self, size: int = 1024):
        self.size = size
        self._items: OrderedDict[str, GameRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, gid: str) -> GameRecord | None:
        with self._lock:
            rec = self._items.get(gid)
            if rec is not None:
                self._items.move_to_end(gid)
        return rec

    def put(self, rec: GameRecord, parsed, **changes) -> None:
        """Cache ``rec`` with ``changes`` (the fields a write changed) and its engine state ``parsed``."""
        entry = dataclasses.replace(rec, idem=None, idem_digest=None, parsed=parsed, cached=True, **changes)
        with self._lock:
            self._items[rec.game_id] = entry
            self._items.move_to_end(rec.game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def drop(self, gid: str) -> None:
        with self._lock:
            self._items.pop(gid, None)
