"""Ratings of registered bots (and of the built-in bots they meet) from the places of rated deals.

The model is OpenSkill's Plackett-Luce (Weng and Lin's Bayesian approximation, the ``openskill`` package): every
player has a skill ``mu`` and an uncertainty ``sigma`` (25 and 25/3 to start), and each deal, a ranking of up to
eight seats, moves them all at once. A bot is shown with ``score`` = mu − 3σ (what the leaderboard sorts by: a
bot rises by winning, and by playing enough for its sigma to shrink) and a 95% ``interval`` mu ± 2σ.

What is rated (service/games.py ``_deal_over``): a deal of a game the bot accepted (by its policy or by hand), in
which it played its seat itself: not resigned, no move of its seat played by the fallback because it was away or
had resigned (a single missed turn, ``timeout``, is the bot's own clock and counts, as a flag fall counts on
Lichess), and at least one move of its own. The built-in bots (``random``, ``greedy``, ``mc``) are rated in the
deals where a registered bot's deal is rated, so the board has fixed points of reference; a human seat counts as a
player of the starting rating and is never kept. A player holding several seats of one deal (three ``random``
seats) moves once, by the mean of its seats' updates.

Keys: a registered bot's ``mu``, ``sigma`` and ``rated`` (rated deals) live in its account hash
(service/bot_accounts.py); a built-in bot's in ``<prefix>:builtin:{<name>}``; ``<prefix>:leaderboard`` is a sorted
set (``@name`` or a built-in's name -> score). Each player's rating changes by a compare-and-set on its own hash
(one key: Redis Cluster is fine), recomputed when another deal moved it first, so concurrent deals lose nothing.
"""
from __future__ import annotations

import logging
from typing import Callable

from openskill.models import PlackettLuce

log = logging.getLogger(__name__)
MODEL = PlackettLuce()
TRIES = 8

# KEYS: the player's hash. ARGV: the mu and sigma read ('' for none), the new ones, '1' when the hash must be a live
# bot account. 1 stored; 0 it changed since it was read; -1 the account is gone.
_SET = """
if ARGV[5] == '1' and redis.call('HEXISTS', KEYS[1], 'token') == 0 then return -1 end
local mu = redis.call('HGET', KEYS[1], 'mu') or ''
local sigma = redis.call('HGET', KEYS[1], 'sigma') or ''
if mu ~= ARGV[1] or sigma ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'mu', ARGV[3], 'sigma', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'rated', 1)
return 1
"""


def rating_view(fields: dict) -> dict | None:
    """A player's rating as served, from its hash's ``mu``, ``sigma`` and ``rated``; None before its first rated deal."""
    if not fields.get("mu"):
        return None
    mu, sigma = float(fields["mu"]), float(fields["sigma"])
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "score": round(mu - 3 * sigma, 3),
            "interval": [round(mu - 2 * sigma, 3), round(mu + 2 * sigma, 3)], "deals": int(fields.get("rated") or 0)}


def new_ratings(current: list[tuple[float, float] | None], places: list[int]) -> list[tuple[float, float]]:
    """Every seat's (mu, sigma) after a deal finished in ``places`` (1 = first), from ``current`` (None: the prior).

    >>> after = new_ratings([None, None], [1, 2])
    >>> after[0][0] > 25 > after[1][0]
    True
    """
    teams = [[MODEL.rating() if r is None else MODEL.create_rating([r[0], r[1]])] for r in current]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]


def pooled(who: list[str | None], after: list[tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """One update per player: the mean of the updates of the seats it holds (``who[s]``; None: a human, left out)."""
    seats: dict[str, list[tuple[float, float]]] = {}
    for player, value in zip(who, after):
        if player is not None:
            seats.setdefault(player, []).append(value)
    return {p: (sum(v[0] for v in vs) / len(vs), sum(v[1] for v in vs) / len(vs)) for p, vs in seats.items()}


class Ratings:
    def __init__(self, conn, prefix: str, account_key: Callable[[str], str]):
        self.r = conn
        self.prefix = prefix
        self.account_key = account_key  # a registered bot's name -> its account hash
        self._set = conn.register_script(_SET)

    @property
    def board(self) -> str:
        return f"{self.prefix}:leaderboard"

    def key(self, player: str) -> str:
        """``@name``: the bot's account hash; else a built-in bot's own hash."""
        return self.account_key(player[1:]) if player.startswith("@") else f"{self.prefix}:builtin:{{{player}}}"

    def rate_deal(self, who: list[str | None], places: list[int], rated: set[str]) -> dict[str, dict]:
        """Rate one finished deal: ``who[s]`` holds seat ``s`` (``@name``, a built-in's name, or None for a human)
        and finished ``places[s]``; only the players in ``rated`` are updated. Returns their new ratings."""
        done: dict[str, dict] = {}
        for _ in range(TRIES):
            players = sorted({p for p in who if p is not None})
            read = self._read(players)
            current = [_floats(read.get(p)) if p is not None else None for p in who]
            after = pooled(who, new_ratings(current, places))
            for player in sorted(rated - set(done)):
                mu, sigma = after[player]
                old = read.get(player) or ("", "")
                stored = self._set(keys=[self.key(player)],
                                   args=[old[0], old[1], repr(mu), repr(sigma), int(player.startswith("@"))])
                if stored == 1:
                    self.r.zadd(self.board, {player: mu - 3 * sigma})
                    done[player] = rating_view(self.r.hgetall(self.key(player))) or {}
                elif stored == -1:
                    done[player] = {}  # a bot deleted meanwhile: nothing to keep
            if rated <= set(done):
                break
        else:
            log.warning("ratings: gave up on %s after %d tries", sorted(rated - set(done)), TRIES)
        return {p: v for p, v in done.items() if v}

    def _read(self, players: list[str]) -> dict[str, tuple[str, str] | None]:
        pipe = self.r.pipeline(transaction=False)
        for player in players:
            pipe.hmget(self.key(player), "mu", "sigma")
        return {p: (mu, sigma) if mu else None for p, (mu, sigma) in zip(players, pipe.execute())}

    def leaderboard(self, limit: int) -> list[tuple[str, dict]]:
        """The best rated players first: (``@name`` or a built-in's name, its hash); players gone are dropped."""
        names = self.r.zrevrange(self.board, 0, limit - 1)
        pipe = self.r.pipeline(transaction=False)
        for player in names:
            pipe.hgetall(self.key(player))
        out, gone = [], []
        for player, fields in zip(names, pipe.execute() if names else []):
            if not fields.get("mu") or (player.startswith("@") and not fields.get("created")):
                gone.append(player)
            else:
                out.append((player, fields))
        if gone:
            self.r.zrem(self.board, *gone)
        return out


def _floats(raw: tuple[str, str] | None) -> tuple[float, float] | None:
    return None if raw is None else (float(raw[0]), float(raw[1]))
