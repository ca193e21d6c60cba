from flask import Blueprint, request

from ..http import bearer, body, json_answer, respond, service
from ..schemas import JudgedSchema, MoveRequestSchema, move_from

bp = Blueprint("moves", __name__, url_prefix="/v1/games")
MOVE_REQUEST, JUDGED = MoveRequestSchema(), JudgedSchema()  # built once: a move is the hot path


@bp.post("/<game_id>/moves")
def propose(game_id):
    """One script call when this process holds the game's latest snapshot, else one read more (the snapshot
    and token hashes; the token check uses the same read)."""
    svc = service()
    key = request.headers.get("Idempotency-Key")
    rec = svc.snapshot(game_id)
    viewer = svc.viewer(rec, bearer())
    data = body(MOVE_REQUEST)
    status, out = svc.propose(game_id, move_from(data), viewer, expected_seq=data.get("expected_seq"), rec=rec,
                              idempotency_key=key)
    headers = {"Idempotent-Replayed": "true"} if out.pop("replayed", False) else {}
    return json_answer(out, status, headers)  # already the JudgedSchema shape, the table's state encoded once


@bp.post("/<game_id>/judge")
def judge(game_id):
    svc = service()
    rec = svc.load(game_id)
    viewer = svc.viewer(rec, bearer())
    data = body(MOVE_REQUEST)
    return respond(JUDGED, svc.judge(game_id, move_from(data), viewer, rec=rec))
