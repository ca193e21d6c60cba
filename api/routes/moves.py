from flask import Blueprint

from ..http import bearer, body, respond, service
from ..schemas import JudgedSchema, MoveRequestSchema, move_from

bp = Blueprint("moves", __name__, url_prefix="/v1/games")


@bp.post("/<game_id>/moves")
def propose(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    data = body(MoveRequestSchema())
    status, out = svc.propose(game_id, move_from(data), viewer, expected_seq=data.get("expected_seq"))
    return respond(JudgedSchema(), out, status)


@bp.post("/<game_id>/judge")
def judge(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    data = body(MoveRequestSchema())
    return respond(JudgedSchema(), svc.judge(game_id, move_from(data), viewer))
