from flask import Blueprint

from ..http import move_body, respond
from ..schemas import DetachedJudgeSchema, JudgedSchema, move_from
from service.games import judge_detached

bp = Blueprint("judge", __name__)
DETACHED_JUDGE, JUDGED = DetachedJudgeSchema(), JudgedSchema()  # built once, not per request


@bp.post("/v1/judge")
def judge():
    data = move_body(DETACHED_JUDGE, under="move")
    out = judge_detached(data["preset"], data.get("rules"), data["state"], move_from(data["move"]))
    return respond(JUDGED, out)
