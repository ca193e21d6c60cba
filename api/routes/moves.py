from flask import Blueprint, request

from service.bot_accounts import remote_name
from service.idempotency import idempotency_key

from ..guards import bot_move_rate, charge_bot_move
from ..http import bearer, json_answer, move_body, respond, service
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
    token = bearer()
    viewer = svc.viewer(rec, token)
    data = move_body(MOVE_REQUEST)
    _bot_answered(svc, rec, viewer, data.get("seat"))
    move, expected_seq = move_from(data), data.get("expected_seq")
    rec = svc.current(rec, expected_seq)
    owed_ms = svc.owed_answer(rec, viewer, data.get("seat"), expected_seq)
    bot_move_rate(owed_ms)  # a bot's answer to a turn it owes is never refused for the rate (docs/limits.md)
    keyed = idempotency_key(key, token, move, expected_seq) if key is not None else None
    status, out = svc.propose(game_id, move, viewer, expected_seq=expected_seq, rec=rec, idempotency=keyed)
    if owed_ms is not None and status == 422:
        charge_bot_move()
    headers = {"Idempotent-Replayed": "true"} if out.pop("replayed", False) else {}
    return json_answer(out, status, headers)  # already the JudgedSchema shape, the table's state encoded once


def _bot_answered(svc, rec, viewer, seat) -> None:
    """A registered bot that posts a move for its seat is there, whether or not the move arrives in time: its
    misses in a row start again from 0 (a no-op unless it missed). ``viewer`` came from its bot token."""
    if viewer == seat and (bearer() or "").startswith("bot_") and remote_name(rec.bots[seat]):
        svc.bot_back(rec.game_id, seat)


@bp.post("/<game_id>/judge")
def judge(game_id):
    svc = service()
    rec = svc.load(game_id)
    viewer = svc.viewer(rec, bearer())
    data = move_body(MOVE_REQUEST)
    return respond(JUDGED, svc.judge(game_id, move_from(data), viewer, rec=rec))
