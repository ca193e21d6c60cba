"""Registered bots: accounts with a bot token (stored hashed), the games each one sits in, its wake-up stream and
its recent results.

Keys (single-key commands, or one script over one bot's keys, so Redis Cluster works; one hash tag per bot):

- ``<prefix>:bots:{<name>}`` hash: ``token`` (sha-256 of the bot token), ``created``;
- ``<prefix>:bot-token:<hash>``: the bot's name, to find the bot a bearer token belongs to;
- ``<prefix>:bots:{<name>}:games`` sorted set: the games the bot holds a seat in (game id -> ms when seated);
- ``<prefix>:bots:{<name>}:wake`` stream, capped: one entry each time a write leaves the bot owing a move, so an
  open stream (api/routes/bots.py) wakes at once; the stream also rescans the games on its own, so a lost wake
  costs latency, never a turn;
- ``<prefix>:bots:{<name>}:results`` list, capped (``RESULTS_MAX``, newest first): one JSON entry per finished
  deal the bot sat in (game, deal, preset, seat, seats, place, UECda points, when); the account hash also
  counts every deal (``deals``, ``place_sum``, ``points_sum``) for the all-time summary;
- ``<prefix>:bot-names`` sorted set (name -> ms of registration or of its last finished deal): the index that
  ``GET /v1/bots`` lists, most recently active first.

A seat is given to a registered bot with ``"bot": "@<name>"``. Such a seat is never scheduled on RQ: the turn it
owes is read off the game's state by the bot's stream.
"""
from __future__ import annotations

import json
import time

from referee.scoring import uecda_points

from .tokens import digest, new_token

PREFIX = "@"
WAKE_MAX = 100
RESULTS_MAX = 50  # recent results kept per bot

# KEYS: the account hash, its results list. ARGV: the entry's id ("<game>.<deal>"), the entry (JSON starting
# with that id), the cap, place, points. A deal already recorded (a retried write) is not counted again.
_RECORD = """
local head = '{"id": "' .. ARGV[1] .. '"'
for _, item in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  if string.sub(item, 1, #head) == head then return 0 end
end
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[3]) - 1)
redis.call('HINCRBY', KEYS[1], 'deals', 1)
redis.call('HINCRBY', KEYS[1], 'place_sum', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'points_sum', ARGV[5])
return 1
"""


def remote_name(bot: str | None) -> str | None:
    """The registered bot a seat's ``bot`` names (``"@name"``), else None (a worker strategy, or a human)."""
    if isinstance(bot, str) and bot.startswith(PREFIX) and len(bot) > 1:
        return bot[1:]
    return None


class BotAccounts:
    def __init__(self, conn, prefix: str):
        self.r = conn
        self.prefix = prefix
        self._record = conn.register_script(_RECORD)

    def _account(self, name: str) -> str:
        return f"{self.prefix}:bots:{{{name}}}"

    def _games(self, name: str) -> str:
        return f"{self._account(name)}:games"

    def _wake(self, name: str) -> str:
        return f"{self._account(name)}:wake"

    def _by_token(self, token_hash: str) -> str:
        return f"{self.prefix}:bot-token:{token_hash}"

    def _results(self, name: str) -> str:
        return f"{self._account(name)}:results"

    def _index(self) -> str:
        return f"{self.prefix}:bot-names"

    def register(self, name: str) -> str | None:
        """A new bot's token (shown once), or None when the name is taken."""
        token = new_token("bot")
        hashed = digest(token)
        if not self.r.hsetnx(self._account(name), "token", hashed):
            return None
        self.r.hset(self._account(name), "created", time.time())
        self.r.set(self._by_token(hashed), name)
        self.r.zadd(self._index(), {name: int(time.time() * 1000)})
        return token

    def exists(self, name: str) -> bool:
        return bool(self.r.exists(self._account(name)))

    def name_of(self, token: str) -> str | None:
        """The bot a bearer token belongs to, or None."""
        if not token.startswith("bot_"):
            return None
        return self.r.get(self._by_token(digest(token)))

    def seat(self, name: str, gid: str) -> None:
        self.r.zadd(self._games(name), {gid: int(time.time() * 1000)})

    def games(self, name: str) -> list[str]:
        return list(self.r.zrange(self._games(name), 0, -1))

    def forget(self, name: str, gid: str) -> None:
        self.r.zrem(self._games(name), gid)

    def wake(self, name: str, gid: str, seq: int) -> None:
        self.r.xadd(self._wake(name), {"game": gid, "seq": seq}, maxlen=WAKE_MAX, approximate=True)

    def last_wake(self, name: str) -> str:
        last = self.r.xrevrange(self._wake(name), count=1)
        return last[0][0] if last else "0-0"

    def wait_wake(self, name: str, after: str, block_ms: int) -> str | None:
        """The id of the newest wake-up after ``after`` (waiting up to ``block_ms``), or None."""
        res = self.r.xread({self._wake(name): after}, block=max(1, block_ms), count=WAKE_MAX)
        if not res:
            return None
        return res[0][1][-1][0]

    # --- results --------------------------------------------------------------
    def record_result(self, name: str, game_id: str, deal: int, preset: str, seat: int, seats: int, place: int,
                      finished_at: float | None = None) -> bool:
        """Keep the place the bot finished a deal in (once per game and deal); False if it was kept already."""
        finished_at = time.time() if finished_at is None else finished_at
        entry_id = f"{game_id}.{deal}"
        points = uecda_points(place, seats)
        entry = {"id": entry_id, "game_id": game_id, "deal": deal, "preset": preset, "seat": seat, "seats": seats,
                 "place": place, "points": points, "finished_at": round(finished_at, 3)}
        added = self._record(keys=[self._account(name), self._results(name)],
                             args=[entry_id, json.dumps(entry), RESULTS_MAX, place, points])
        self.r.zadd(self._index(), {name: int(finished_at * 1000)})  # bots registered before the index join it here
        return bool(added)

    def listing(self, limit: int, recent: int) -> dict:
        """The registered bots, most recently active first: each with its all-time summary and its ``recent``
        newest results. Never a token or its hash."""
        index = self.r.zrevrange(self._index(), 0, limit - 1)
        pipe = self.r.pipeline(transaction=False)
        for name in index:
            pipe.hmget(self._account(name), "created", "deals", "place_sum", "points_sum")
            pipe.lrange(self._results(name), 0, recent - 1)
        answers = pipe.execute() if index else []
        bots = []
        for i, name in enumerate(index):
            (created, deals, place_sum, points_sum), items = answers[2 * i], answers[2 * i + 1]
            if created is None:
                continue  # not an account (never expected: accounts are not deleted)
            deals = int(deals or 0)
            results = []
            for item in items:
                entry = json.loads(item)
                entry.pop("id", None)
                results.append(entry)
            bots.append({"name": name, "seat": f"{PREFIX}{name}", "registered_at": round(float(created), 3),
                         "deals": deals,
                         "mean_place": round(int(place_sum or 0) / deals, 3) if deals else None,
                         "points": int(points_sum or 0),
                         "mean_points": round(int(points_sum or 0) / deals, 3) if deals else None,
                         "recent": results})
        return {"count": self.r.zcard(self._index()), "bots": bots}
