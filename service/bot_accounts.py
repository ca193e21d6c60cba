"""Registered bots: accounts with a bot token (stored hashed), the games each one sits in, its wake-up stream and
its recent results.

Keys (single-key commands, or one script over one bot's keys, so Redis Cluster works; one hash tag per bot):

- ``<prefix>:bots:{<name>}`` hash: ``token`` (sha-256 of the bot token), ``created``;
- ``<prefix>:bot-token:<hash>``: the bot's name, to find the bot a bearer token belongs to;
- ``<prefix>:bot-fold:<folded name>``: the bot's name, reserving every name that folds the same
  (service/names.py ``folded``: ``S4BOT`` and a full-width ``ｓ4bot`` are taken once ``s4bot`` is);
- ``<prefix>:bots:{<name>}:games`` sorted set: the games the bot holds a seat in (game id -> ms when seated);
- ``<prefix>:bots:{<name>}:wake`` stream, capped: one entry each time a write leaves the bot owing a move, so an
  open stream (api/routes/bots.py) wakes at once; the stream also rescans the games on its own, so a lost wake
  costs latency, never a turn;
- ``<prefix>:bots:{<name>}:events`` stream, capped (``EVENTS_MAX``): the bot's lifecycle events (``challenge``,
  ``game_start``, ``deal_over``, ``game_end``) as its stream sends them; an entry's id is the message's SSE id,
  so a reconnect resumes after the last one it saw (api/routes/bots.py);
- ``<prefix>:bots:{<name>}:results`` list, capped (``RESULTS_MAX``, newest first): one JSON entry per finished
  deal the bot sat in (game, deal, preset, seat, seats, place, UECda points, its fallback moves, rated or not,
  when); the account hash also counts every deal (``deals``, ``place_sum``, ``points_sum``, ``fb_timeout``,
  ``fb_away``, ``fb_resigned``) for the all-time summary, its standing ``policy`` (service/challenges.py), its
  rating (service/ratings.py) and ``revoked`` (when its token was revoked);
- ``<prefix>:bot-names`` sorted set (name -> ms of its last activity or finished deal): the index that
  ``GET /v1/bots`` lists, most recently active first.

A bot unused for ``idle_ttl_s`` (Settings.bot_idle_ttl_s) expires: every key above but the index has that TTL,
refreshed when the bot is active (its token used: a move, its stream, a read; a seat given to it), at most every
TOUCH_EVERY_S per process; keys made later (a wake-up, a result) take the account's TTL. The listing drops index
entries idle longer than that, and any whose account is gone.

A bot's token can be rotated (the old one stops at once), revoked (the bot keeps its name and record and plays
no more) or the bot deleted (its keys go; its name stays taken for ``hold_s``, the life of a game, so that no new
bot of that name inherits the seats of its games).

A seat is given to a registered bot with ``"bot": "@<name>"``. Such a seat is never scheduled on RQ: the turn it
owes is read off the game's state by the bot's stream.
"""
from __future__ import annotations

import json
import logging
import math
import time

import redis

from referee.scoring import uecda_points

from .names import folded
from .ratings import rating_view
from .settings import Settings
from .tokens import digest, new_token

log = logging.getLogger(__name__)
PREFIX = "@"
WAKE_MAX = 100
EVENTS_MAX = 500  # lifecycle events kept per bot: what a reconnect with Last-Event-ID can still be sent
RESULTS_MAX = 50  # recent results kept per bot
FALLBACK_KINDS = ("timeout", "away", "resigned")
TOUCH_EVERY_S = 60.0  # an active bot's TTLs are refreshed at most this often per process
SEAT_GRACE_S = 60.0  # a game seated this recently is not dropped from the bot's list for not existing (yet)

# Keys made after the account take its TTL (KEYS[1] is the account hash).
_FOLLOW = """
local function follow(key)
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
"""

# KEYS: the account hash, its results list. ARGV: the entry's id ("<game>.<deal>"), the entry (JSON starting
# with that id), the cap, place, points, its fallback moves (timeout, away, resigned). A deal already recorded (a
# retried write) is not counted again; an account that expired gets nothing (-1).
_RECORD = _FOLLOW + """
if redis.call('HEXISTS', KEYS[1], 'token') == 0 then return -1 end
local head = '{"id": "' .. ARGV[1] .. '"'
for _, item in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  if string.sub(item, 1, #head) == head then return 0 end
end
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[3]) - 1)
redis.call('HINCRBY', KEYS[1], 'deals', 1)
redis.call('HINCRBY', KEYS[1], 'place_sum', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'points_sum', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'fb_timeout', ARGV[6])
redis.call('HINCRBY', KEYS[1], 'fb_away', ARGV[7])
redis.call('HINCRBY', KEYS[1], 'fb_resigned', ARGV[8])
follow(KEYS[2])
return 1
"""

# KEYS: the account hash, its events stream. ARGV: type, data (JSON), cap. Returns the entry's id; nothing for an
# account that expired or was deleted.
_EMIT = _FOLLOW + """
if redis.call('HEXISTS', KEYS[1], 'token') == 0 then return false end
local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'type', ARGV[1], 'data', ARGV[2])
follow(KEYS[2])
return id
"""

# KEYS: the bot's games. ARGV: a game, a time in ms. Drops the game if it was seated before that time.
_FORGET_OLD = """
local seated = redis.call('ZSCORE', KEYS[1], ARGV[1])
if seated and tonumber(seated) < tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

# KEYS: the account hash. ARGV: the token's hash now, the new one. A rotation: 1, or 0 if the token changed since.
_SWAP = """
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'revoked') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'token', ARGV[2])
return 1
"""

# KEYS: the account hash, its wake stream. ARGV: game id, seq, cap. No wake-up for an account that expired.
_WAKE = _FOLLOW + """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'game', ARGV[1], 'seq', ARGV[2])
follow(KEYS[2])
return 1
"""

# KEYS: the bot's own keys (account first). ARGV: the TTL in s (0: none). Returns the token's hash, or nothing
# when the account expired.
_TOUCH = """
local token = redis.call('HGET', KEYS[1], 'token')
if not token then return false end
for _, key in ipairs(KEYS) do
  if ARGV[1] == '0' then redis.call('PERSIST', key) else redis.call('EXPIRE', key, ARGV[1]) end
end
return token
"""


def remote_name(bot: str | None) -> str | None:
    """The registered bot a seat's ``bot`` names (``"@name"``), else None (a worker strategy, or a human)."""
    if isinstance(bot, str) and bot.startswith(PREFIX) and len(bot) > 1:
        return bot[1:]
    return None


class BotAccounts:
    def __init__(self, conn, prefix: str, idle_ttl_s: int = Settings.bot_idle_ttl_s, hold_s: int = Settings.game_ttl_s):
        self.r = conn
        self.prefix = prefix
        self.idle_ttl_s = idle_ttl_s  # 0: accounts never expire
        self.hold_s = hold_s  # a deleted bot's name stays taken this long: the life of its games
        self._record = conn.register_script(_RECORD)
        self._wake_script = conn.register_script(_WAKE)
        self._touch = conn.register_script(_TOUCH)
        self._emit = conn.register_script(_EMIT)
        self._swap = conn.register_script(_SWAP)
        self._forget_old = conn.register_script(_FORGET_OLD)
        self._touched: dict[str, float] = {}  # name -> when this process last refreshed its TTLs (monotonic)

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

    def _events(self, name: str) -> str:
        return f"{self._account(name)}:events"

    def _index(self) -> str:
        return f"{self.prefix}:bot-names"

    def _reservation(self, name: str) -> str:
        return f"{self.prefix}:bot-fold:{folded(name)}"

    def _own_keys(self, name: str) -> list[str]:
        return [self._account(name), self._games(name), self._wake(name), self._results(name), self._events(name)]

    def register(self, name: str) -> str | None:
        """A new bot's token (shown once), or None when the name, or one folding the same, is taken."""
        token = new_token("bot")
        hashed = digest(token)
        ttl = self.idle_ttl_s or None
        if not self.r.set(self._reservation(name), name, nx=True, ex=ttl):
            return None
        try:
            if not self.r.hsetnx(self._account(name), "token", hashed):
                return None  # an account of this very name from before reservations: the reservation is its now
            self.r.hset(self._account(name), "created", time.time())
            if ttl:
                self.r.expire(self._account(name), ttl)
            self.r.set(self._by_token(hashed), name, ex=ttl)
            self.r.zadd(self._index(), {name: int(time.time() * 1000)})
        except redis.RedisError:
            self._unregister(name, hashed)  # no half-made account holds the name
            raise
        return token

    def _unregister(self, name: str, hashed: str) -> None:
        try:
            self.r.delete(self._reservation(name), self._by_token(hashed))
            if self.r.hget(self._account(name), "token") == hashed:
                self.r.delete(self._account(name))
        except redis.RedisError:
            log.exception("bot @%s: could not undo a failed registration", name)

    def exists(self, name: str) -> bool:
        return bool(self.r.exists(self._account(name)))

    def revoked(self, name: str) -> bool:
        return bool(self.r.hexists(self._account(name), "revoked"))

    # --- the token's life -------------------------------------------------------------------------------------
    def rotate(self, name: str, token: str) -> str | None:
        """A new token for the bot holding ``token``, shown once; ``token`` stops at once (None: it changed since)."""
        old, fresh = digest(token), new_token("bot")
        new = digest(fresh)
        self.r.set(self._by_token(new), name, ex=self.idle_ttl_s or None)
        if not self._swap(keys=[self._account(name)], args=[old, new]):
            self.r.delete(self._by_token(new))
            return None
        self.r.delete(self._by_token(old))
        self._kick(name)
        return fresh

    def revoke(self, name: str, token: str) -> None:
        """``token`` stops at once and no other is given: the bot keeps its name and its record, and plays no more."""
        self.r.delete(self._by_token(digest(token)))
        self.r.hset(self._account(name), "revoked", time.time())
        self._kick(name)

    def delete(self, name: str, token: str) -> None:
        """The bot and everything kept of it go; its name stays taken for ``hold_s`` (its games' life)."""
        self.r.delete(self._by_token(digest(token)), *self._own_keys(name))
        self.r.zrem(self._index(), name)
        self.r.zrem(f"{self.prefix}:leaderboard", f"{PREFIX}{name}")
        if self.hold_s:
            self.r.set(self._reservation(name), name, ex=self.hold_s)
        self._touched.pop(name, None)

    def _kick(self, name: str) -> None:
        """Wake the bot's open streams, so they see at once that their token stopped."""
        try:
            self.r.xadd(self._wake(name), {"game": "", "seq": -1}, maxlen=WAKE_MAX, approximate=True)
        except redis.RedisError:  # the streams check their token at their next rescan anyway
            log.warning("bot @%s: could not wake its streams", name, exc_info=True)

    def token_live(self, token: str) -> bool:
        return bool(self.r.exists(self._by_token(digest(token))))

    # --- the standing policy ----------------------------------------------------------------------------------
    def policy(self, name: str) -> dict | None:
        raw = self.r.hget(self._account(name), "policy")
        return json.loads(raw) if raw else None

    def set_policy(self, name: str, policy: dict) -> None:
        self.r.hset(self._account(name), "policy", json.dumps(policy))

    def name_of(self, token: str) -> str | None:
        """The bot a bearer token belongs to, or None. Using the token keeps the bot from expiring."""
        if not token.startswith("bot_"):
            return None
        name = self.r.get(self._by_token(digest(token)))
        if name is not None:
            self.touch(name)
        return name

    def touch(self, name: str, force: bool = False) -> None:
        """Restart the idle TTL of the bot's keys (at most every TOUCH_EVERY_S, unless ``force``) and move it to
        the front of the listing. Best effort: a bot whose TTL was not refreshed now is refreshed next time."""
        now = time.monotonic()
        every = min(TOUCH_EVERY_S, self.idle_ttl_s / 10) if self.idle_ttl_s else TOUCH_EVERY_S
        if not force and now - self._touched.get(name, -math.inf) < every:
            return
        if len(self._touched) > 10_000:
            self._touched.clear()
        self._touched[name] = now
        ttl = self.idle_ttl_s
        try:
            hashed = self._touch(keys=self._own_keys(name), args=[ttl])
            if hashed is None:
                return
            for key in (self._by_token(hashed), self._reservation(name)):
                if ttl:
                    self.r.expire(key, ttl)
                else:
                    self.r.persist(key)
            self.r.zadd(self._index(), {name: int(time.time() * 1000)})
        except redis.exceptions.ResponseError:  # e.g. out of memory: the request itself may still be served
            log.warning("bot @%s: could not refresh its expiry", name, exc_info=True)

    def seat(self, name: str, gid: str) -> None:
        self.r.zadd(self._games(name), {gid: int(time.time() * 1000)})
        self.touch(name, force=True)  # a seat is activity, and the games set is new to its TTL

    def games(self, name: str) -> list[str]:
        return list(self.r.zrange(self._games(name), 0, -1))

    def forget(self, name: str, gid: str) -> None:
        self.r.zrem(self._games(name), gid)

    def forget_gone(self, name: str, gid: str, grace_s: float = SEAT_GRACE_S) -> bool:
        """Drop a game its stream found gone, unless it was seated within ``grace_s``: a bot is seated before its
        game's keys are written, so a scan in between must not drop a game about to exist."""
        return bool(self._forget_old(keys=[self._games(name)], args=[gid, int((time.time() - grace_s) * 1000)]))

    def wake(self, name: str, gid: str, seq: int) -> None:
        self._wake_script(keys=[self._account(name), self._wake(name)], args=[gid, seq, WAKE_MAX])

    def last_wake(self, name: str) -> str:
        last = self.r.xrevrange(self._wake(name), count=1)
        return last[0][0] if last else "0-0"

    def wait_wake(self, name: str, after: str, block_ms: int) -> str | None:
        """The id of the newest wake-up after ``after`` (waiting up to ``block_ms``), or None."""
        res = self.r.xread({self._wake(name): after}, block=max(1, block_ms), count=WAKE_MAX)
        if not res:
            return None
        return res[0][1][-1][0]

    # --- lifecycle events -------------------------------------------------------
    def emit(self, name: str, kind: str, data: dict) -> str | None:
        """Add a lifecycle event to the bot's log (its stream sends it, and a reconnect resumes after it)."""
        return self._emit(keys=[self._account(name), self._events(name)], args=[kind, json.dumps(data), EVENTS_MAX])

    def events_after(self, name: str, cursor: str, count: int = 100) -> list[tuple[str, str, dict]]:
        """(id, type, data) of the lifecycle events after ``cursor``, oldest first."""
        rows = self.r.xrange(self._events(name), min=f"({cursor}", max="+", count=count) if cursor != "0-0" else \
            self.r.xrange(self._events(name), min="-", max="+", count=count)
        return [(sid, f["type"], json.loads(f["data"])) for sid, f in rows]

    def last_event(self, name: str) -> str:
        last = self.r.xrevrange(self._events(name), count=1)
        return last[0][0] if last else "0-0"

    def saw_event(self, name: str, cursor: str) -> bool:
        """Could the bot have been sent ``cursor`` as an event id: ``0-0`` (none yet), an entry of its log, or one
        older than the oldest entry still kept (the log is capped); never one past its newest."""
        if cursor == "0-0":
            return True
        if self.r.xrange(self._events(name), min=cursor, max=cursor, count=1):
            return True
        if self.r.xlen(self._events(name)) < EVENTS_MAX:
            return False  # never trimmed: every id it sent is still there
        first = self.r.xrange(self._events(name), count=1)
        return bool(first) and _stream_id(cursor) < _stream_id(first[0][0])

    def wait_any(self, name: str, wake_after: str, events_after: str, block_ms: int) -> str | None:
        """Wait up to ``block_ms`` for a wake-up or a lifecycle event after the ids given: the newest wake-up's id
        (``wake_after`` when only events came), or None when nothing came. One XREAD over two keys of the bot's own
        hash slot."""
        res = self.r.xread({self._wake(name): wake_after, self._events(name): events_after},
                           block=max(1, block_ms), count=WAKE_MAX)
        if not res:
            return None
        newest = {key: entries[-1][0] for key, entries in res}
        return newest.get(self._wake(name), wake_after)

    # --- results --------------------------------------------------------------
    def record_result(self, name: str, game_id: str, deal: int, preset: str, seat: int, seats: int, place: int,
                      finished_at: float | None = None, fallbacks: dict | None = None, rated: bool = False) -> bool:
        """Keep the place the bot finished a deal in, with its fallback moves in the deal and whether the deal was
        rated (once per game and deal); False if it was kept already."""
        finished_at = time.time() if finished_at is None else finished_at
        entry_id = f"{game_id}.{deal}"
        points = uecda_points(place, seats)
        fallbacks = {kind: int((fallbacks or {}).get(kind, 0)) for kind in FALLBACK_KINDS}
        entry = {"id": entry_id, "game_id": game_id, "deal": deal, "preset": preset, "seat": seat, "seats": seats,
                 "place": place, "points": points, "fallbacks": fallbacks, "rated": rated,
                 "finished_at": round(finished_at, 3)}
        added = self._record(keys=[self._account(name), self._results(name)],
                             args=[entry_id, json.dumps(entry), RESULTS_MAX, place, points,
                                   *(fallbacks[kind] for kind in FALLBACK_KINDS)])
        if added != -1:  # bots registered before the index join it here
            self.r.zadd(self._index(), {name: int(finished_at * 1000)})
        return added == 1

    def listing(self, limit: int, recent: int) -> dict:
        """The registered bots, most recently active first: each with its all-time summary and its ``recent``
        newest results. Never a token or its hash, nor a bot that expired."""
        if self.idle_ttl_s:
            self.r.zremrangebyscore(self._index(), "-inf", int((time.time() - self.idle_ttl_s) * 1000))
        index = self.r.zrevrange(self._index(), 0, limit - 1)
        pipe = self.r.pipeline(transaction=False)
        for name in index:
            pipe.hgetall(self._account(name))
            pipe.lrange(self._results(name), 0, recent - 1)
        answers = pipe.execute() if index else []
        bots, gone = [], []
        for i, name in enumerate(index):
            account, items = answers[2 * i], answers[2 * i + 1]
            if not account.get("created"):
                gone.append(name)  # expired, with its results
                continue
            results = []
            for item in items:
                entry = json.loads(item)
                entry.pop("id", None)
                results.append(entry)
            bots.append(dict(summary(name, account), recent=results))
        if gone:
            self.r.zrem(self._index(), *gone)
        return {"count": self.r.zcard(self._index()), "bots": bots}

    def account(self, name: str) -> dict | None:
        """The bot's own summary (``summary``), with its standing policy; None when it is gone."""
        account = self.r.hgetall(self._account(name))
        if not account.get("created"):
            return None
        return summary(name, account)


def _stream_id(sid: str) -> tuple[int, int]:
    ms, _, n = sid.partition("-")
    return int(ms), int(n or 0)


def summary(name: str, account: dict) -> dict:
    """A bot's public summary from its account hash: deals, mean place, points, fallbacks, rating, status."""
    deals = int(account.get("deals") or 0)
    place_sum, points_sum = int(account.get("place_sum") or 0), int(account.get("points_sum") or 0)
    return {"name": name, "seat": f"{PREFIX}{name}", "registered_at": round(float(account["created"]), 3),
            "status": "revoked" if account.get("revoked") else "active", "deals": deals,
            "mean_place": round(place_sum / deals, 3) if deals else None, "points": points_sum,
            "mean_points": round(points_sum / deals, 3) if deals else None,
            "fallbacks": {kind: int(account.get(f"fb_{kind}") or 0) for kind in FALLBACK_KINDS},
            "rating": rating_view(account)}
