"""Back-pressure on bot seats by cost: a new game with bot seats is refused (503 ``bots_busy`` with Retry-After)
when its first bot turn is expected to wait longer than its budget, rather than queued behind turns that would
make it late. Games in progress are never refused: their owed turns keep their place in the queue.

The expected wait plays the queue forward the way the workers play it (``turn_ms``): each queued turn costs a
job's overhead plus its strategy's time — a fixed few milliseconds for ``random``, ``greedy`` and ``policy``, and
for the searches (``mc``, ``policy_mc``) what is left of their budget, shared with the turns queued behind it. A
queue of quick turns therefore lets new games in where an equally long queue of searches does not. Two more
signals close the gate: the oldest turn had already waited longer than ``bots_busy_wait_s`` when the queue was
looked at (late, whatever the estimate), and every game let in since the last look counts as one more turn owed
now (a burst of creates between two looks cannot all pass).
"""
from __future__ import annotations

import heapq
import math
import threading
import time
from dataclasses import dataclass
from typing import Callable, Protocol

from .errors import BotsBusy

LOOK_EVERY_S = 0.25  # one look at the queue per process this often, not one per created game
LOOK_AT_MOST = 500   # queued turns looked at; a queue longer than this is busy whatever they cost
# A bot job's cost besides its strategy's decision, and the decision of the strategies that do not search. Under
# load (benchmarks/load.py at 32 and 64 clients on 2 cores) a job costs about 20 ms besides its decision: 10 in the
# job (the game's snapshot, the move's script), 10 of RQ's own between two jobs. The other 20 stand for what a look
# at the queue does not see, the turns being played: with 40, the first bot turns of the games let in still waited
# some 40 ms longer than expected, on average.
JOB_OVERHEAD_MS = 40.0
DECISION_MS = {"random": 1.0, "greedy": 3.0, "policy": 3.0}
# the strategies that search for their whole budget (workers.bots.SEARCHES: a test checks both agree)
SEARCHES = ("mc", "policy_mc")


@dataclass(frozen=True)
class QueuedTurn:
    """An owed bot turn waiting in the queue, as the gate prices it."""
    owed_at: float      # epoch seconds
    fixed_ms: float     # the expected decision time of the seats that do not search
    search_share: float  # the share of the game's worker seats that search (``SEARCHES``): 0 to 1


def price(strategies: list[str], owed_at: float) -> QueuedTurn:
    """The turn of a game whose worker seats play ``strategies`` (the seat that owes it unknown: an average)."""
    if not strategies:
        return QueuedTurn(owed_at, 0.0, 0.0)
    fixed = [DECISION_MS.get(s, 0.0) for s in strategies if s not in SEARCHES]
    return QueuedTurn(owed_at, sum(fixed) / len(strategies), 1 - len(fixed) / len(strategies))


def remaining_ms(budget_ms: float, owed_at: float, now: float) -> float:
    """What is left of a turn's budget counted from when it became owed."""
    return max(0.0, budget_ms - 1000.0 * max(0.0, now - owed_at))


def shared_ms(left_ms: float, queued: int, workers: int) -> float:
    """A searching turn's part of ``left_ms`` when ``queued`` turns wait behind it for ``workers`` workers: each
    worker has queued/workers more turns to play within about the same time."""
    return left_ms / (1.0 + max(0, queued) / max(1, workers))


def turn_ms(turn: QueuedTurn, starts: float, behind: int, workers: int, budget_ms: float) -> float:
    search = shared_ms(remaining_ms(budget_ms, turn.owed_at, starts), behind, workers)
    return JOB_OVERHEAD_MS + turn.fixed_ms + turn.search_share * search


def expected_wait_s(queue: list[QueuedTurn], workers: int, now: float, budget_ms: float) -> float:
    """How long a turn owed now waits before a worker takes it, the ``queue`` ahead of it played forward."""
    free = [now] * max(1, workers)
    for i, turn in enumerate(queue):
        starts = heapq.heappop(free)
        heapq.heappush(free, starts + turn_ms(turn, starts, len(queue) - i, workers, budget_ms) / 1000.0)
    return max(0.0, free[0] - now)


class Queue(Protocol):
    def queued_turns(self, limit: int) -> tuple[int, list[tuple[str, float]]]: ...
    def workers(self) -> int: ...


@dataclass(frozen=True)
class Look:
    depth: int                # owed turns queued
    turns: list[QueuedTurn]   # the first LOOK_AT_MOST of them, priced
    workers: int
    at: float                 # epoch seconds


class BotGate:
    """``strategies_of(game ids)``: each game's worker strategies (a game's seats never change; gone: [])."""

    def __init__(self, queue: Queue, strategies_of: Callable[[list[str]], dict[str, list[str]]], wait_s: float,
                 budget_ms: float, workers_started: int = 0, clock=time.monotonic, wall=time.time):
        self.queue, self.strategies_of = queue, strategies_of
        self.wait_s, self.budget_ms = wait_s, budget_ms
        self.workers_started = workers_started  # `referee serve` started these: counted while they register
        self.clock, self.wall = clock, wall
        self._lock = threading.Lock()
        self._looked_at = -math.inf
        self._seen = Look(0, [], 1, 0.0)
        self._let_in: list[QueuedTurn] = []  # bot games created since the last look: a turn owed each
        self._strategies: dict[str, list[str]] = {}

    def look(self) -> Look:
        """The queue priced, looked up at most every LOOK_EVERY_S, with the games let in since."""
        with self._lock:
            now = self.clock()
            if now - self._looked_at >= LOOK_EVERY_S:
                self._seen = self._look_now()
                self._looked_at = now
                self._let_in = []
            seen = self._seen
            return Look(seen.depth + len(self._let_in), seen.turns + self._let_in, seen.workers, seen.at)

    def _look_now(self) -> Look:
        depth, queued = self.queue.queued_turns(LOOK_AT_MOST)
        unknown = sorted({gid for gid, _ in queued if gid not in self._strategies})
        if unknown:
            if len(self._strategies) > 10 * LOOK_AT_MOST:
                self._strategies.clear()  # games long played out; the ones still queued are read again
            self._strategies.update(self.strategies_of(unknown))
        turns = [price(self._strategies.get(gid, []), owed_at) for gid, owed_at in queued]
        return Look(depth, turns, max(self.queue.workers(), self.workers_started), self.wall())

    def check(self, strategies: list[str]) -> None:
        """Let in a new game whose worker seats play ``strategies``, or raise BotsBusy."""
        seen = self.look()
        now = self.wall()
        # the oldest wait the look saw: the look is up to LOOK_EVERY_S old and its turns may have been played since,
        # so the time since it is not counted as waiting (counted, a look 0.2 s old refused every new game while
        # anything at all had been queued); the games let in since the look are younger than it
        oldest = max((seen.at - t.owed_at for t in seen.turns), default=0.0)
        if oldest > self.wait_s:
            raise BotsBusy(f"bot seats are busy: the oldest owed bot turn has waited {oldest:.1f} s "
                           f"(limit {self.wait_s:g} s); try again later", retry_after=max(1, math.ceil(oldest)))
        if seen.depth > len(seen.turns):
            raise BotsBusy(f"bot seats are busy: {seen.depth} owed bot turns are queued; try again later", retry_after=1)
        wait = expected_wait_s(seen.turns, seen.workers, now, self.budget_ms)
        if wait * 1000.0 > self.budget_ms:
            raise BotsBusy(f"bot seats are busy: a new game's first bot turn would wait about {wait * 1000:.0f} ms "
                           f"behind {seen.depth} owed bot turns for {seen.workers} worker(s), longer than its "
                           f"{self.budget_ms:g} ms budget; try again later", retry_after=max(1, math.ceil(wait)))
        with self._lock:
            self._let_in.append(price(strategies, now))
