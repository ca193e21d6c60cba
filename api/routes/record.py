"""Game records (docs/record.md): ``GET /v1/games/{id}/record`` is the whole log as a text record.

The table token gets every card, a seat token the log redacted for that seat (the record says so).
Creating a game from a record is ``POST /v1/games`` with ``{"record": "<text>"}`` (routes/games.py).
"""
from __future__ import annotations

from flask import Blueprint, Response

import referee as engine
from referee.record import export_record

from ..http import bearer, service
from service.games import viewer_arg

bp = Blueprint("record", __name__)


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
