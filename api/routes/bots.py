"""Registered bots: POST /v1/bots gives a bot its token; GET /v1/bots and /v1/bots/leaderboard list the bots, their
results and ratings; GET /v1/bots/stream sends the bot its challenges, games and every move it owes; the rest,
authenticated by the bot's token, is the bot's own: its account, standing policy, token, challenges and games."""
import json
import re
import time
from dataclasses import dataclass

from flask import Blueprint, request

from service.challenges import DEFAULT_POLICY, check_policy
from service.errors import ApiError, Conflict, Forbidden, Unauthorized
from service.names import bot_name_problem

from ..guards import settings
from ..http import bearer, body, check_room, query, respond, service
from ..schemas import (BotAccountSchema, BotCreatedSchema, BotListQuery, BotListSchema, BotStreamQuery, DeclineSchema,
                       LeaderboardQuery, LeaderboardSchema, PolicySchema, RegisterBotSchema)
from ..streams import IDLE_CHECK_S, sse_response

bp = Blueprint("bots", __name__, url_prefix="/v1/bots")
RESCAN_S = 2.0  # the stream rescans the bot's games at least this often, woken or not: a lost wake-up costs this
CURSOR = re.compile(r"(\d{1,20}-\d{1,20})(?:\.([0-9a-f]{1,64})\.(\d{1,16}))?")
LEGACY_TURN_ID = re.compile(r"([0-9a-f]{1,64})\.(\d{1,16})")  # a turn's id before the lifecycle events


@bp.post("")
def register():
    s = settings()
    if not s.bot_registration:
        raise Forbidden("bot registration is turned off on this server", code="bot_registration_closed")
    name = body(RegisterBotSchema())["name"]
    problem = bot_name_problem(name, s.max_name_chars)
    if problem:
        raise ApiError(problem, code="bad_name")
    check_room()
    token = service().accounts.register(name)
    if token is None:
        raise Conflict(f"the bot name {name!r} is taken (names are compared without case or width)",
                       code="bot_name_taken")
    return respond(BotCreatedSchema(), {"name": name, "seat": f"@{name}", "bot_token": token}, 201)


@bp.get("")
def listing():
    """Public: the registered bots, most recently active first (or best rated first with ``sort=rating``), each
    with its all-time summary, rating and newest results. No token, nor its hash, ever."""
    q = query(BotListQuery())
    out = service().accounts.listing(q["limit"], q["recent"])
    if q["sort"] == "rating":
        out["bots"].sort(key=lambda b: -b["rating"]["score"] if b["rating"] else float("inf"))
    return respond(BotListSchema(), out)


@bp.get("/leaderboard")
def leaderboard():
    """Public: the rated players, best first by score (mu − 3σ): registered bots and the built-in bots they met."""
    return respond(LeaderboardSchema(), service().bots.leaderboard(query(LeaderboardQuery())["limit"]))


# --- the bot's own (bearer: its token) --------------------------------------------------------------------------
def _bot() -> tuple[str, str]:
    """(the bot's name, its token) for the bearer token, else 401."""
    token = bearer()
    if not token:
        raise Unauthorized("missing bearer token (Authorization: Bearer <bot token>)", code="missing_token")
    name = service().accounts.name_of(token)
    if name is None:
        raise Unauthorized("this is not a registered bot's token", code="invalid_token")
    return name, token


@bp.get("/me")
def me():
    name, _ = _bot()
    return respond(BotAccountSchema(), service().bots.account(name))


@bp.delete("/me")
def delete_me():
    """Delete the bot: its games in progress are resigned, its token stops, its record and rating go."""
    name, token = _bot()
    svc = service()
    svc.bots.retire(name)
    svc.accounts.delete(name, token)
    return "", 204


@bp.get("/policy")
def get_policy():
    name, _ = _bot()
    return service().accounts.policy(name) or dict(DEFAULT_POLICY)


@bp.put("/policy")
def put_policy():
    """The standing policy that answers challenges at once (service/challenges.py)."""
    name, _ = _bot()
    policy = check_policy(body(PolicySchema()))
    service().accounts.set_policy(name, policy)
    return policy


@bp.post("/token")
def rotate_token():
    """A new token, shown once; the old one stops at once (its open streams close)."""
    name, token = _bot()
    fresh = service().accounts.rotate(name, token)
    if fresh is None:
        raise Conflict("the token changed meanwhile; use the new one", code="token_changed")
    return respond(BotCreatedSchema(), {"name": name, "seat": f"@{name}", "bot_token": fresh}, 201)


@bp.delete("/token")
def revoke_token():
    """The token stops at once and the bot plays no more: its games in progress are resigned; its name, record
    and rating stay (listed as revoked)."""
    name, token = _bot()
    svc = service()
    svc.accounts.revoke(name, token)
    svc.bots.retire(name)
    return "", 204


@bp.post("/challenges/<game_id>/accept")
def accept(game_id):
    name, _ = _bot()
    return service().bots.answer(name, game_id, accept=True)


@bp.post("/challenges/<game_id>/decline")
def decline(game_id):
    name, _ = _bot()
    reason = body(DeclineSchema(), optional=True).get("reason") or "generic"
    return service().bots.answer(name, game_id, accept=False, reason=reason)


@bp.post("/games/<game_id>/resign")
def resign(game_id):
    name, _ = _bot()
    return service().bots.resign(name, game_id)


# --- the stream -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Resume:
    cursor: str | None  # the last lifecycle event seen (None: an older client's turn id; nothing is replayed)


@bp.get("/stream")
def stream():
    """Server-Sent Events: the bot's lifecycle events (``challenge``, ``game_start``, ``deal_over``, ``game_end``)
    and one ``turn`` per move it owes. The wire format is in openapi.yaml and docs/remote-bots.md.

    Without ``Last-Event-ID`` it starts with the challenges waiting for the bot and a ``game_start`` per game it
    plays; with one, it first sends every lifecycle event after it. Then every turn owed now, and each new event
    and turn as they come. Closes after ``?wait=S`` seconds without a message, or when the token stops.
    """
    svc = service()
    name, token = _bot()
    resume = _resume(svc, name)
    wait = query(BotStreamQuery())["wait"]
    svc.bot_returns(name)  # a bot that opens its stream is back at every seat where it was away
    return sse_response(_messages(svc, name, token, resume, wait), "reconnect later", bot=True)


def _message(mid: str, kind: str, data: dict) -> str:
    return f"id: {mid}\nevent: {kind}\ndata: {json.dumps(data)}\n\n"


def _messages(svc, name: str, token: str, resume: Resume | None, wait: float):
    accounts = svc.accounts
    yield f": bot @{name}" + (f" resuming after {resume.cursor}" if resume and resume.cursor else "") + "\n\n"
    woken = accounts.last_wake(name)  # before the scan: a wake-up during it is not missed
    cursor, challenged, turns = accounts.last_event(name), set(), set()
    scan = None
    if resume is not None and resume.cursor is not None:
        cursor = resume.cursor
    elif resume is None:  # a new connection: the games it plays now, as if each had just started
        scan = svc.bots.scan(name)
        yield "".join(_message(cursor, "game_start", game) for game in scan.games)
    idle_since = time.monotonic()
    while True:
        sent = []
        for mid, kind, data in accounts.events_after(name, cursor):
            cursor = mid
            if kind == "challenge":
                challenged.add(data.get("id"))
            sent.append(_message(mid, kind, data))
        scan = scan if scan is not None and not sent else svc.bots.scan(name)
        sent += [_message(cursor, "challenge", c) for c in scan.challenges if c["id"] not in challenged]
        challenged |= {c["id"] for c in scan.challenges}
        for turn in scan.turns:
            tid = f"{turn['game_id']}.{turn['seq']}"
            if tid not in turns:
                turns.add(tid)
                sent.append(_message(f"{cursor}.{tid}", "turn", turn))
        turns &= {f"{t['game_id']}.{t['seq']}" for t in scan.turns}  # answered turns never come back: forget them
        scan = None
        if sent:
            idle_since = time.monotonic()
            yield "".join(sent)
        left = wait - (time.monotonic() - idle_since)
        if left <= 0 or not accounts.token_live(token):
            return
        rescan_at = time.monotonic() + min(left, RESCAN_S)
        while (now := time.monotonic()) < rescan_at:
            newer = accounts.wait_any(name, woken, cursor, max(1, int(min(rescan_at - now, IDLE_CHECK_S) * 1000)))
            if newer:
                woken = newer
                break
            yield ""  # nothing to say: the stream looks whether its client is still there, or keeps it alive


def _resume(svc, name: str) -> Resume | None:
    """Where a reconnecting bot resumes: the ``Last-Event-ID`` it sent, which must be an id its stream could have
    sent it (a lifecycle event of its log, or a turn of one of its games at a seq it reached); else 400."""
    last = (request.headers.get("Last-Event-ID") or "").strip()
    if not last:
        return None
    found = CURSOR.fullmatch(last)
    legacy = None if found else LEGACY_TURN_ID.fullmatch(last)
    if found:
        cursor, game, seq = found.groups()
    elif legacy:
        cursor, (game, seq) = None, legacy.groups()
    else:
        raise _bad_last_event_id()
    if cursor is not None and not svc.accounts.saw_event(name, cursor):
        raise _bad_last_event_id()
    if game is not None:
        progress = svc.store.progress([game])[0] if game in svc.accounts.games(name) else None
        if progress is None or int(seq) > progress["seq"]:
            raise _bad_last_event_id()
    return Resume(cursor)


def _bad_last_event_id() -> ApiError:
    return ApiError("Last-Event-ID must be an id this bot's stream sent it: <event id> or <event id>.<game id>.<seq> "
                    "(docs/remote-bots.md)", code="bad_last_event_id")
