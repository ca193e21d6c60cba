"""Challenges: a game that seats a registered bot (``"bot": "@name"``) asks that bot first, as Lichess asks a bot.

Each bot keeps a standing policy (``PUT /v1/bots/policy``) that answers a challenge at once, or leaves it to the
bot to answer on its stream (``POST /v1/bots/challenges/{game_id}/accept`` or ``…/decline``):

- ``mode``: ``accept`` (the default: every challenge the limits below allow is accepted at once), ``manual`` (a
  challenge the limits allow waits for the bot's answer), or ``decline`` (every challenge is declined);
- ``presets``: the presets it plays (null: all); ``seats``: ``{"min", "max"}`` players at the table;
  ``budget_ms``: ``{"min", "max"}`` of the game's ``bot_budget_ms``; ``max_games``: the most games it plays at
  once (pending challenges included; null: no cap).

A challenge outside the limits is declined at once, with the reason (``DECLINE_REASONS``): the game is then not
created (409 ``challenge_declined``). A game whose bots all accepted at once starts as any other. A game with a
challenge left to a bot is created with the challenge pending: nobody moves until every bot accepted, and a
decline (or no answer within ``REFEREE_CHALLENGE_TIMEOUT_S``) voids the game, which never seats the bot.
"""
from __future__ import annotations

import time

from .errors import ApiError, Conflict

MODES = ("accept", "manual", "decline")
# why a challenge was declined: the bot declines everything (generic) or plays no more games now (later), the
# preset, the number of players, or the time per move (too_fast: under its minimum, too_slow: over its maximum)
DECLINE_REASONS = ("generic", "later", "preset", "seats", "too_fast", "too_slow")
DEFAULT_POLICY: dict = {"mode": "accept", "presets": None, "seats": None, "budget_ms": None, "max_games": None}
MAX_PRESETS = 32


class ChallengeDeclined(Conflict):
    """A registered bot's standing policy declined the game: it is not created."""
    code = "challenge_declined"

    def __init__(self, declined: list[tuple[str, str]]):
        names = ", ".join(f"@{name} ({reason})" for name, reason in declined)
        super().__init__(f"the game was not created: declined by {names}")
        self.declined = declined

    def to_json(self) -> dict:
        body = super().to_json()
        body["error"]["declined"] = [{"bot": f"@{name}", "reason": reason} for name, reason in self.declined]
        return body


def check_policy(raw: dict) -> dict:
    """The standing policy ``raw`` sets, checked (400 ``bad_policy``), with the defaults for what it leaves out."""
    policy = dict(DEFAULT_POLICY)
    unknown = sorted(set(raw) - set(policy))
    if unknown:
        raise ApiError(f"a policy has no field {unknown[0]!r} (it has {', '.join(policy)})", code="bad_policy")
    policy.update(raw)
    if policy["mode"] not in MODES:
        raise ApiError(f"mode must be one of {', '.join(MODES)}", code="bad_policy")
    presets = policy["presets"]
    if presets is not None and (not isinstance(presets, list) or len(presets) > MAX_PRESETS
                                or not all(isinstance(p, str) and 0 < len(p) <= 32 for p in presets)):
        raise ApiError(f"presets must be null or a list of at most {MAX_PRESETS} preset names", code="bad_policy")
    for field in ("seats", "budget_ms"):
        policy[field] = _range(field, policy[field])
    games = policy["max_games"]
    if games is not None and (not _integer(games) or games < 0):
        raise ApiError("max_games must be null (no cap) or an integer from 0", code="bad_policy")
    return policy


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range(field: str, value) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"min", "max"}:
        raise ApiError(f"{field} must be null or {{\"min\": …, \"max\": …}}", code="bad_policy")
    low, high = value.get("min"), value.get("max")
    if any(v is not None and (not _integer(v) or v < 0) for v in (low, high)):
        raise ApiError(f"{field}'s min and max are integers from 0, or null", code="bad_policy")
    if low is not None and high is not None and low > high:
        raise ApiError(f"{field}'s min is above its max", code="bad_policy")
    return {"min": low, "max": high}


def decide(policy: dict | None, preset: str, seats: int, budget_ms: int, games: int) -> tuple[str, str | None]:
    """What ``policy`` answers a challenge to a game of ``preset`` with ``seats`` players and ``budget_ms`` per move,
    the bot playing ``games`` games now: ("accept" | "manual", None) or ("decline", the reason)."""
    policy = policy or DEFAULT_POLICY
    if policy["mode"] == "decline":
        return "decline", "generic"
    if policy["presets"] is not None and preset not in policy["presets"]:
        return "decline", "preset"
    if not _within(policy["seats"], seats):
        return "decline", "seats"
    budget = policy["budget_ms"] or {}
    if budget.get("min") is not None and budget_ms < budget["min"]:
        return "decline", "too_fast"
    if budget.get("max") is not None and budget_ms > budget["max"]:
        return "decline", "too_slow"
    if policy["max_games"] is not None and games >= policy["max_games"]:
        return "decline", "later"
    return ("manual" if policy["mode"] == "manual" else "accept"), None


def _within(bounds: dict | None, value: int) -> bool:
    bounds = bounds or {}
    return not ((bounds.get("min") is not None and value < bounds["min"])
                or (bounds.get("max") is not None and value > bounds["max"]))


def new_challenge(answers: dict[str, str], timeout_s: float, now: float | None = None) -> dict:
    """The challenge stored with a game: each bot's answer so far (``accepted`` or ``pending``) and its expiry."""
    now = time.time() if now is None else now
    return {"bots": dict(answers), "expires_at": round(now + timeout_s, 3), "reason": None, "by": None}


def in_progress(game: dict | None, name: str, now: float | None = None) -> bool:
    """Does the game (``GameStore.progress``) hold the bot ``name`` now: seated, not resigned, its challenge
    accepted or pending (and not expired), and not over (a match of ``deals`` deals ends with its last deal; an
    open game is in progress until its deal is over)?"""
    if game is None or game["over"]:
        return False
    seat = next((s for s, b in enumerate(game["bots"]) if b == f"@{name}"), None)
    if seat is None or seat in game["resigned"]:
        return False
    if game["challenge"] == "pending":
        return (time.time() if now is None else now) <= float((game["chal"] or {}).get("expires_at", 0))
    return game["challenge"] in (None, "accepted")
