import json
import time

from flask import Blueprint, Response, request, stream_with_context

import referee as engine

from ..observability import counted_stream
from ..http import bearer, query, respond, service
from ..schemas import AfterQuery, EventsSchema, SeqQuery, StateSchema, StreamQuery
from service.games import viewer_arg
from service.store import entry_id_for_seq

bp = Blueprint("events", __name__, url_prefix="/v1/games")
HEARTBEAT_S = 15


@bp.get("/<game_id>/events")
def events(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    q = query(AfterQuery())
    return respond(EventsSchema(), svc.events(game_id, viewer, q["after"], q["include_rejected"]))


@bp.get("/<game_id>/replay")
def replay(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    return respond(StateSchema(), svc.replay(game_id, viewer, query(SeqQuery())["seq"]))


@bp.get("/<game_id>/stream")
def stream(game_id):
    """Server-Sent Events: each applied event (redacted for the bearer), ``id`` = its seq.

    Starts after ``Last-Event-ID`` or ``?after=N`` (default: the current seq, i.e. only
    new events) and closes after ``?wait=S`` seconds without a new event.
    """
    svc = service()
    rec = svc.load(game_id)
    viewer = svc.viewer(rec, bearer())
    q = query(StreamQuery())
    last = request.headers.get("Last-Event-ID", "")
    after = int(last) if last.lstrip("-").isdigit() else (q["after"] if "after" in request.args else rec.seq)
    store, who = svc.store, viewer_arg(viewer)

    def generate():
        cursor = entry_id_for_seq(after) if after >= 0 else "0-0"
        idle_since = time.monotonic()
        yield f": game {game_id} from seq {after}\n\n"
        while True:
            entries = store.wait_entries(game_id, cursor)  # the backlog first, without waiting
            if not entries:
                left = q["wait"] - (time.monotonic() - idle_since)
                if left <= 0:
                    return
                entries = store.wait_entries(game_id, cursor, max(1, int(min(left, HEARTBEAT_S) * 1000)))
                if not entries:
                    yield ": keep-alive\n\n"
                    continue
            for entry in entries:
                cursor = entry.stream_id
                if entry.kind != "event":
                    continue
                event = engine.redact_event(entry.data, who)
                yield f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
            idle_since = time.monotonic()

    return Response(stream_with_context(counted_stream(generate())), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
