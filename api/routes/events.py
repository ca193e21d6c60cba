import json
import re
import time

from flask import Blueprint, request

import referee as engine

from ..http import bearer, query, respond, service
from ..streams import IDLE_CHECK_S, sse_response
from ..schemas import MAX_SEQ, AfterQuery, EventsSchema, SeqQuery, StateSchema, StreamQuery
from service.errors import ApiError
from service.games import viewer_arg
from service.store import entry_id_for_seq

bp = Blueprint("events", __name__, url_prefix="/v1/games")


@bp.get("/<game_id>/events")
def events(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    q = query(AfterQuery())
    return respond(EventsSchema(), svc.events(game_id, viewer, q["after"], q["include_rejected"]))


@bp.get("/<game_id>/replay")
def replay(game_id):
    svc = service()
    rec = svc.load(game_id)
    viewer = svc.viewer(rec, bearer())
    return respond(StateSchema(), svc.replay(game_id, viewer, query(SeqQuery())["seq"], rec=rec))


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
    after = _last_event_id()
    if after is None:
        after = q["after"] if "after" in request.args else rec.seq
    store, who = svc.store, viewer_arg(viewer)
    return sse_response(_events(store, game_id, who, after, q["wait"]), "poll GET /v1/games/{id}/events?after=N")


def _events(store, game_id, who, after, wait):
    cursor = entry_id_for_seq(after) if after >= 0 else "0-0"
    idle_since = time.monotonic()
    yield f": game {game_id} from seq {after}\n\n"
    while True:
        entries = store.wait_entries(game_id, cursor)  # the backlog first, without waiting
        if not entries:
            left = wait - (time.monotonic() - idle_since)
            if left <= 0:
                return
            entries = store.wait_entries(game_id, cursor, max(1, int(min(left, IDLE_CHECK_S) * 1000)))
            if not entries:
                yield ""  # nothing to say: the stream looks whether its client is still there, or keeps it alive
                continue
        for entry in entries:
            cursor = entry.stream_id
            if entry.kind != "event":
                continue
            event = engine.redact_event(entry.data, who)
            yield f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"
        idle_since = time.monotonic()


def _last_event_id() -> int | None:
    """The seq a reconnecting EventSource last received, or None without the header."""
    last = request.headers.get("Last-Event-ID")
    if last is None or last.strip() == "":
        return None
    if not re.fullmatch(r"[0-9]{1,16}", last.strip()) or int(last) > MAX_SEQ:
        raise ApiError(f"Last-Event-ID must be a seq from 0 to {MAX_SEQ}", code="bad_last_event_id")
    return int(last)
