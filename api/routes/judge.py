from flask import Blueprint

from ..http import body, respond
from ..schemas import DetachedJudgeSchema, JudgedSchema, move_from
from service.games import judge_detached

bp = Blueprint("judge", __name__)


@bp.post("/v1/judge")
def judge():
    data = body(DetachedJudgeSchema())
    out = judge_detached(data["preset"], data.get("rules"), data["state"], move_from(data["move"]))
    return respond(JudgedSchema(), out)
