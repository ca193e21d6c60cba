"""Game records (docs/record.md): export a match as text, create a game from a record.

``GET /v1/games/{id}/record`` is the whole log as a text record: the table token
gets every card, a seat token the log redacted for that seat (the record says so).

``POST /v1/games`` with ``{"record": "<text>"}`` (instead of preset/players/hands)
replays the record and stores its events as the new game's log.  That body is
recognised here, before the games blueprint's handler runs, so the create handler
and its schema stay as they are; every other create body goes on to games.create_game.
"""
from __future__ import annotations

import secrets

from flask import Blueprint, Response, request

import referee as engine
from referee.record import export_record, import_record

from ..errors import ApiError
from ..http import bearer, respond, service
from ..schemas import CreatedGameSchema
from ..service import viewer_arg
from ..tokens import digest, new_token

bp = Blueprint("record", __name__)
MAX_RECORD_CHARS = 4_000_000


@bp.get("/v1/games/<game_id>/record")
def get_record(game_id):
    svc = service()
    viewer = viewer_arg(svc.viewer(svc.load(game_id), bearer()))
    events = [engine.redact_event(ev, viewer) for ev in svc.store.events(game_id)]
    text = f"# game {game_id}\n" + export_record(events, viewer=viewer)
    return Response(text, mimetype="text/plain", headers={
        "Content-Disposition": f'inline; filename="daifugo-{game_id}.txt"',
        "X-Referee-Seq": str(events[-1]["seq"]),
    })


@bp.before_app_request
def create_from_record():
    if request.endpoint != "games.create_game" or request.method != "POST":
        return None
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or "record" not in data:
        return None
    text = data["record"]
    if not isinstance(text, str):
        raise ApiError("'record' must be the text of a game record (docs/record.md)", code="bad_record")
    others = sorted(k for k in data if k in ("preset", "players", "hands", "rules", "seed"))
    if others:
        raise ApiError(f"a game created from a record takes nothing else: drop {', '.join(others)}",
                       code="bad_record")
    if len(text) > MAX_RECORD_CHARS:
        raise ApiError(f"the record is longer than {MAX_RECORD_CHARS} characters", code="bad_record")
    try:
        events = import_record(text)
        state = engine.replay(events)
    except engine.InputError as exc:
        raise ApiError(exc.message, code="bad_record") from None
    svc = service()
    gid = secrets.token_hex(12)
    table = new_token("tbl")
    seats = [new_token("seat") for _ in state.players]
    state_json = engine.state_to_json(state)
    seq = svc.store.create(gid, state_json, events, digest(table), [digest(t) for t in seats],
                           [None] * len(seats))
    return respond(CreatedGameSchema(), {"game_id": gid, "table_token": table, "seat_tokens": seats,
                                         "seq": seq, "state": state_json}, 201)
