"""Registered bots: POST /v1/bots gives a bot its token; GET /v1/bots lists the bots and their recent results;
GET /v1/bots/stream sends the bot every move it owes."""
import json
import re
import time

from flask import Blueprint, request

from service.errors import ApiError, Conflict, Forbidden, Unauthorized
from service.names import bot_name_problem

from ..guards import settings
from ..http import bearer, body, check_room, query, respond, service
from ..schemas import BotCreatedSchema, BotListQuery, BotListSchema, BotStreamQuery, RegisterBotSchema
from ..streams import sse_response

bp = Blueprint("bots", __name__, url_prefix="/v1/bots")
HEARTBEAT_S = 2  # the stream rescans the bot's games at least this often, woken or not
TURN_ID = re.compile(r"[0-9a-f]{1,64}\.[0-9]{1,16}")


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
    """Public: the registered bots, most recently active first, each with its all-time summary (deals, mean
    place, UECda points) and its newest results (one per finished deal). No token, nor its hash, ever."""
    q = query(BotListQuery())
    return respond(BotListSchema(), service().accounts.listing(q["limit"], q["recent"]))


@bp.get("/stream")
def stream():
    """Server-Sent Events, one ``turn`` event per move the bot owes (``id`` = ``<game>.<seq>``).

    On connect every turn owed now is sent, then each new one. A reconnect (with or without ``Last-Event-ID``)
    gets every turn still owed again, the one it last saw included: a bot that died before answering must
    still answer it. Closes after ``?wait=S`` seconds without a new turn.
    """
    svc = service()
    token = bearer()
    if not token:
        raise Unauthorized("missing bearer token (Authorization: Bearer <bot token>)", code="missing_token")
    name = svc.accounts.name_of(token)
    if name is None:
        raise Unauthorized("this is not a registered bot's token", code="invalid_token")
    last = _last_turn_id()
    wait = query(BotStreamQuery())["wait"]
    svc.bot_returns(name)  # a bot that opens its stream is back at every seat where it was away
    return sse_response(_turns(svc, name, last, wait), "reconnect later", bot=True)


def _turns(svc, name: str, last: str | None, wait: float):
    accounts = svc.accounts
    yield f": bot @{name}" + (f" resuming after {last}" if last else "") + "\n\n"
    sent: set[str] = set()
    woken = accounts.last_wake(name)  # before the scan: a wake-up during it is not missed
    idle_since = time.monotonic()
    while True:
        owed = svc.owed_turns(name)
        for turn in owed:
            tid = f"{turn['game_id']}.{turn['seq']}"
            if tid in sent:
                continue
            sent.add(tid)
            idle_since = time.monotonic()
            yield f"id: {tid}\nevent: turn\ndata: {json.dumps(turn)}\n\n"
        sent &= {f"{t['game_id']}.{t['seq']}" for t in owed}  # answered turns never come back: forget them
        left = wait - (time.monotonic() - idle_since)
        if left <= 0:
            return
        newer = accounts.wait_wake(name, woken, int(min(left, HEARTBEAT_S) * 1000))
        if newer is None:
            yield ": keep-alive\n\n"
        else:
            woken = newer


def _last_turn_id() -> str | None:
    last = request.headers.get("Last-Event-ID")
    if last is None or last.strip() == "":
        return None
    if not TURN_ID.fullmatch(last.strip()):
        raise ApiError("Last-Event-ID must be a turn id as the stream sent it: <game id>.<seq>",
                       code="bad_last_event_id")
    return last.strip()
