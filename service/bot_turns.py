"""Who owes the bot turn a write leaves, and the time registered bots get for it (docs/remote-bots.md).

A game's ``botcfg`` (stored with it, set when it is created): ``budget_ms``, the time a registered bot seat has
for each move; ``away_after``, the fallback moves in a row that mark the seat away (0: never); ``fallback``,
what plays a move not answered in time (``pass`` where legal, else the greedy policy; or ``greedy`` always).
"""
from __future__ import annotations

import time
from typing import TypeGuard

import referee as engine

from .bot_accounts import remote_name
from .errors import ApiError

MIN_BUDGET_MS = 100  # below a network round trip, a budget only measures the network
MAX_AWAY_AFTER = 100
FALLBACKS = ("pass", "greedy")


def worker_bot(bot: str | None) -> TypeGuard[str]:
    """A seat played by an RQ worker (a strategy name), not by a human or a registered bot (``@name``)."""
    return bool(bot) and remote_name(bot) is None


def game_botcfg(settings, budget_ms=None, away_after=None, fallback=None) -> dict:
    """The create-game body's bot settings, checked against the server's cap, with the server's defaults."""
    budget = settings.bot_budget_ms if budget_ms is None else budget_ms
    if not MIN_BUDGET_MS <= budget <= settings.bot_budget_max_ms:
        raise ApiError(f"bot_budget_ms must be {MIN_BUDGET_MS} to {settings.bot_budget_max_ms} (ms per move of a "
                       f"registered bot seat; the default is {settings.bot_budget_ms})", code="bad_bot_budget")
    away = settings.bot_away_after if away_after is None else away_after
    if not 0 <= away <= MAX_AWAY_AFTER:
        raise ApiError(f"bot_away_after must be 0 (never) to {MAX_AWAY_AFTER} (missed moves in a row that mark a "
                       "registered bot seat away)", code="bad_bot_away_after")
    fallback = FALLBACKS[0] if fallback is None else fallback
    if fallback not in FALLBACKS:
        raise ApiError(f"bot_fallback must be one of {', '.join(FALLBACKS)}", code="bad_bot_fallback")
    return {"budget_ms": int(budget), "away_after": int(away), "fallback": fallback}


def plan(state, bots, botcfg: dict | None, miss: tuple | None = None) -> tuple[dict, bool]:
    """(what the store's ``owe`` is told, nobody can act): the seats that owe a move now, and ``miss`` = (seat,
    "inc", the fallback's kind) or (seat, "reset"), the change to the mover's count of fallbacks in a row (None:
    not a registered seat)."""
    actors = engine.actors(state)
    cfg = botcfg or {}
    out = {"worker": any(worker_bot(bots[s]) for s in actors),
           "remote": [s for s in actors if remote_name(bots[s])],
           "budget_ms": cfg.get("budget_ms", 0), "away_after": cfg.get("away_after", 0)}
    if miss is not None:
        out["miss"] = list(miss)
    return out, not actors


def miss_change(bots, seat, fallback: str | None) -> tuple | None:
    """A move of a registered seat: +1 to its fallbacks in a row (and to its fallbacks of that kind) when the
    fallback played it, else its fallbacks in a row back to 0."""
    if not isinstance(seat, int) or not 0 <= seat < len(bots) or not remote_name(bots[seat]):
        return None
    return (seat, "inc", fallback) if fallback else (seat, "reset")


def away(rec, seat: int) -> bool:
    n = (rec.botcfg or {}).get("away_after", 0)
    return bool(n) and seat < len(rec.misses) and rec.misses[seat] >= n


def fallback_kind(rec, seat: int) -> str:
    """Why the fallback plays a registered seat's move: its bot ``resigned``, is ``away``, or missed the ``timeout``."""
    if seat in rec.resigned:
        return "resigned"
    return "away" if away(rec, seat) else "timeout"


FALLBACK_KINDS = ("timeout", "away", "resigned")


def fallback_counts(rec, seat: int) -> dict[str, int]:
    """The fallback moves played for ``seat`` in the game so far, by kind."""
    mine = (rec.fallbacks or {}).get(str(seat), {})
    return {kind: int(mine.get(kind, 0)) for kind in FALLBACK_KINDS}


def time_left_ms(rec, seat: int, now: float | None = None) -> int:
    """What a registered bot seat owing the move at ``rec.seq`` has left: until the deadline, or the whole budget
    while its clock has not started (a worker seat acts first at this seq)."""
    if away(rec, seat) or seat in rec.resigned:
        return 0
    if rec.deadline is None or rec.owed != rec.seq:
        return int((rec.botcfg or {}).get("budget_ms", 0))
    now = time.time() if now is None else now
    return max(0, int((rec.deadline - now) * 1000))


def fallback_due(rec, now: float | None = None) -> bool:
    """May a job play the registered seats' fallback now? Once the deadline passed (or a keeper or reaper, having
    seen it pass, claimed a job for it: tries > 0)."""
    if rec.deadline is None or rec.owed != rec.seq:
        return False
    return rec.tries > 0 or (time.time() if now is None else now) >= rec.deadline


def seat_status(rec) -> dict[int, dict]:
    """Per registered bot seat: what its player entry gets in a served state."""
    return {s: {"bot": b, "away": away(rec, s), "missed": rec.misses[s] if s < len(rec.misses) else 0,
                "resigned": s in rec.resigned, "fallbacks": fallback_counts(rec, s)}
            for s, b in enumerate(rec.bots) if remote_name(b)}


def challenge_view(rec, now: float | None = None) -> dict | None:
    """The game's challenge as served: its status (``expired`` once a pending one is past its expiry), each bot's
    answer, when it expires, and who declined and why. None for a game without registered bot seats."""
    if rec.challenge is None:
        return None
    chal = rec.chal or {}
    status = rec.challenge
    if status == "pending" and (time.time() if now is None else now) > float(chal.get("expires_at", 0)):
        status = "expired"
    return {"status": status, "bots": {f"@{name}": answer for name, answer in (chal.get("bots") or {}).items()},
            "expires_at": chal.get("expires_at"), "reason": chal.get("reason"),
            "by": f"@{chal['by']}" if chal.get("by") else None}


def with_bot_seats(state: dict, rec) -> dict:
    """``state`` (a view) whose registered bot seats' player entries say which bot holds them, if it is away or
    resigned and its fallbacks so far, with the game's challenge (GET /v1/games/{id} and the bot stream's turns)."""
    status = seat_status(rec)
    if status:
        state = dict(state, players=[dict(p, **status.get(i, {})) for i, p in enumerate(state["players"])])
    challenge = challenge_view(rec)
    if challenge is not None:
        state = dict(state, challenge=challenge)
    return state
