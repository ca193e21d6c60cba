"""Per-game Redis storage: an append-only Stream log plus a snapshot of the latest state.

Keys of one game share the hash tag ``{game_id}`` so they live on one cluster slot:
``<prefix>:{<id>}:meta`` (hash: seq, state, token hashes, bots) and
``<prefix>:{<id>}:log`` (stream).  Stream ids: the applied event with ``seq = s``
has id ``(s+1)-0`` (stream ids must be > 0-0); the k-th proposal rejected while
the game stood at seq ``s`` has id ``(s+1)-k``, k >= 1, so audit entries sort
right after the event they were judged against.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

import redis

BLOCK_STEP_MS = 2000  # well under the client's socket timeout

_APPEND = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'seq'))
if cur == nil then return {-1, -1} end
if cur ~= tonumber(ARGV[1]) then return {0, cur} end
local last = cur
for i = 3, #ARGV, 2 do
  local s = tonumber(ARGV[i])
  if s <= last then return redis.error_reply('event seq ' .. s .. ' after ' .. last) end
  redis.call('XADD', KEYS[2], (s + 1) .. '-0', 'kind', 'event', 'data', ARGV[i + 1])
  last = s
end
redis.call('HSET', KEYS[1], 'seq', last, 'state', ARGV[2], 'rk', 0)
return {1, last}
"""

_REJECT = """
local cur = tonumber(redis.call('HGET', KEYS[1], 'seq'))
if cur == nil then return {-1, -1} end
if cur ~= tonumber(ARGV[1]) then return {0, cur} end
local k = redis.call('HINCRBY', KEYS[1], 'rk', 1)
redis.call('XADD', KEYS[2], (cur + 1) .. '-' .. k, 'kind', 'rejected', 'data', ARGV[2])
return {1, k}
"""


@dataclass
class GameRecord:
    game_id: str
    seq: int
    state: dict
    table_hash: str
    seat_hashes: list[str]
    bots: list[str | None]


@dataclass
class LogEntry:
    kind: str  # "event" or "rejected"
    stream_id: str
    data: dict


def entry_id_for_seq(seq: int) -> str:
    return f"{seq + 1}-0"


class GameStore:
    def __init__(self, conn: redis.Redis, prefix: str = "referee"):
        self.r = conn
        self.prefix = prefix
        self._append = conn.register_script(_APPEND)
        self._reject = conn.register_script(_REJECT)

    def _meta(self, gid: str) -> str:
        return f"{self.prefix}:{{{gid}}}:meta"

    def _log(self, gid: str) -> str:
        return f"{self.prefix}:{{{gid}}}:log"

    def marker_key(self, gid: str, seq: int) -> str:
        return f"{self.prefix}:{{{gid}}}:bot:{seq}"

    def create(self, gid: str, state: dict, events: list[dict], table_hash: str,
               seat_hashes: list[str], bots: list[str | None]) -> int:
        last = events[-1]["seq"]
        pipe = self.r.pipeline(transaction=True)
        for ev in events:
            pipe.xadd(self._log(gid), {"kind": "event", "data": json.dumps(ev)}, id=entry_id_for_seq(ev["seq"]))
        pipe.hset(self._meta(gid), mapping={
            "seq": last, "state": json.dumps(state), "rk": 0, "table": table_hash,
            "seats": json.dumps(seat_hashes), "bots": json.dumps(bots),
        })
        pipe.execute()
        return last

    def load(self, gid: str) -> GameRecord | None:
        seq, state, table, seats, bots = self.r.hmget(self._meta(gid), "seq", "state", "table", "seats", "bots")
        if seq is None:
            return None
        return GameRecord(gid, int(seq), json.loads(state), table, json.loads(seats), json.loads(bots))

    def append(self, gid: str, expected_seq: int, state: dict, events: list[dict]) -> tuple[bool, int]:
        """Atomically add ``events`` and the new snapshot iff the game still stands at ``expected_seq``."""
        args: list = [expected_seq, json.dumps(state)]
        for ev in events:
            args += [ev["seq"], json.dumps(ev)]
        ok, seq = self._append(keys=[self._meta(gid), self._log(gid)], args=args)
        return ok == 1, seq

    def reject(self, gid: str, expected_seq: int, audit: dict) -> bool:
        ok, _ = self._reject(keys=[self._meta(gid), self._log(gid)], args=[expected_seq, json.dumps(audit)])
        return ok == 1

    def entries(self, gid: str, after_seq: int = -1, upto_seq: int | None = None,
                count: int | None = None) -> list[LogEntry]:
        start = f"({entry_id_for_seq(after_seq)}" if after_seq >= 0 else "-"
        end = f"{upto_seq + 1}-0" if upto_seq is not None else "+"
        rows = self.r.xrange(self._log(gid), min=start, max=end, count=count)
        return [LogEntry(f["kind"], sid, json.loads(f["data"])) for sid, f in rows]

    def events(self, gid: str, after_seq: int = -1, upto_seq: int | None = None) -> list[dict]:
        return [e.data for e in self.entries(gid, after_seq, upto_seq) if e.kind == "event"]

    def wait_entries(self, gid: str, last_id: str, block_ms: int | None = None) -> list[LogEntry]:
        """Entries after stream id ``last_id``; with ``block_ms``, wait that long for new ones.

        The wait is cut into XREADs of at most BLOCK_STEP_MS: redis-py (>= 8) reads with a 5 s socket timeout
        by default, and a longer BLOCK would end in a TimeoutError instead of an empty answer.
        """
        deadline = None if block_ms is None else time.monotonic() + block_ms / 1000
        while True:
            step = None
            if deadline is not None:
                step = max(1, min(BLOCK_STEP_MS, int((deadline - time.monotonic()) * 1000)))
            res = self.r.xread({self._log(gid): last_id}, block=step, count=100)
            if res or deadline is None or time.monotonic() >= deadline:
                break
        if not res:
            return []
        return [LogEntry(f["kind"], sid, json.loads(f["data"])) for sid, f in res[0][1]]

    def claim_bot_turn(self, gid: str, seq: int) -> bool:
        """True exactly once per (game, seq): guards against scheduling a bot turn twice."""
        return bool(self.r.set(self.marker_key(gid, seq), 1, nx=True, ex=7 * 24 * 3600))

    def ping(self) -> bool:
        return bool(self.r.ping())
