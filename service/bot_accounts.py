"""Registered bots: accounts with a bot token (stored hashed), the games each one sits in, and its wake-up stream.

Keys (single-key commands only, so Redis Cluster works; one hash tag per bot):

- ``<prefix>:bots:{<name>}`` hash: ``token`` (sha-256 of the bot token), ``created``;
- ``<prefix>:bot-token:<hash>``: the bot's name, to find the bot a bearer token belongs to;
- ``<prefix>:bots:{<name>}:games`` sorted set: the games the bot holds a seat in (game id -> ms when seated);
- ``<prefix>:bots:{<name>}:wake`` stream, capped: one entry each time a write leaves the bot owing a move, so an
  open stream (api/routes/bots.py) wakes at once; the stream also rescans the games on its own, so a lost wake
  costs latency, never a turn.

A seat is given to a registered bot with ``"bot": "@<name>"``. Such a seat is never scheduled on RQ: the turn it
owes is read off the game's state by the bot's stream.
"""
from __future__ import annotations

import time

from .tokens import digest, new_token

PREFIX = "@"
WAKE_MAX = 100


def remote_name(bot: str | None) -> str | None:
    """The registered bot a seat's ``bot`` names (``"@name"``), else None (a worker strategy, or a human)."""
    if isinstance(bot, str) and bot.startswith(PREFIX) and len(bot) > 1:
        return bot[1:]
    return None


class BotAccounts:
    def __init__(self, conn, prefix: str):
        self.r = conn
        self.prefix = prefix

    def _account(self, name: str) -> str:
        return f"{self.prefix}:bots:{{{name}}}"

    def _games(self, name: str) -> str:
        return f"{self._account(name)}:games"

    def _wake(self, name: str) -> str:
        return f"{self._account(name)}:wake"

    def _by_token(self, token_hash: str) -> str:
        return f"{self.prefix}:bot-token:{token_hash}"

    def register(self, name: str) -> str | None:
        """A new bot's token (shown once), or None when the name is taken."""
        token = new_token("bot")
        hashed = digest(token)
        if not self.r.hsetnx(self._account(name), "token", hashed):
            return None
        self.r.hset(self._account(name), "created", time.time())
        self.r.set(self._by_token(hashed), name)
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
