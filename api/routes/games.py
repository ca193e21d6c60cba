from flask import Blueprint

from service.bot_turns import with_bot_seats
from service.errors import ApiError
from ..guards import charge_record_bytes, json_body
from ..http import bearer, body, check_room, query, respond, service
from ..schemas import (CreatedGameSchema, CreateGameSchema, DealSchema, HandsCorrectionSchema, LegalMovesSchema,
                       SeatQuery, StateSchema)

bp = Blueprint("games", __name__, url_prefix="/v1/games")
# built once: a schema instance deep-copies its fields, and legal-moves is the request clients send most
CREATE, CREATED, SEAT, LEGAL = CreateGameSchema(), CreatedGameSchema(), SeatQuery(), LegalMovesSchema()


@bp.post("")
def create_game():
    check_room()
    raw = json_body(record_key="record")
    if isinstance(raw, dict) and "record" in raw:
        charge_record_bytes()
        others = sorted(k for k in raw if k != "record")
        if others:
            raise ApiError(f"a game created from a record takes nothing else: drop {', '.join(others)}",
                           code="bad_record")
        return respond(CREATED, service().create_from_record(raw["record"]), 201)
    data = body(CREATE)
    out = service().create(data["preset"], data["players"], rules=data.get("rules"),
                           seed=data.get("seed"), hands=data.get("hands"), table=data["table"],
                           leader=data.get("leader"), bot_budget_ms=data.get("bot_budget_ms"),
                           bot_away_after=data.get("bot_away_after"), bot_fallback=data.get("bot_fallback"),
                           deals=data.get("deals"))
    return respond(CREATED, out, 201)


@bp.get("/<game_id>")
def get_game(game_id):
    svc = service()
    rec = svc.load(game_id)
    viewer = svc.viewer(rec, bearer())
    state = with_bot_seats(svc.view(svc.state_of(rec), viewer), rec)
    return state, 200, {"X-Referee-Seq": str(rec.seq), "X-Referee-Viewer": str(viewer)}


@bp.delete("/<game_id>")
def delete_game(game_id):
    svc = service()
    rec = svc.load(game_id)
    svc.delete(game_id, svc.viewer(rec, bearer()), rec)
    return "", 204


@bp.post("/<game_id>/deals")
def next_deal(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    data = body(DealSchema(), optional=True)
    return respond(StateSchema(), svc.next_deal(game_id, viewer, hands=data.get("hands")), 201)


@bp.post("/<game_id>/hands")
def correct_hands(game_id):
    svc = service()
    viewer = svc.viewer(svc.load(game_id), bearer())
    data = body(HandsCorrectionSchema())
    return respond(StateSchema(), svc.correct_hands(game_id, viewer, data["hands"]))


@bp.get("/<game_id>/legal-moves")
def legal_moves(game_id):
    svc = service()
    rec = svc.load(game_id)  # one read: the token is checked on the snapshot the moves are listed from
    viewer = svc.viewer(rec, bearer())
    seat = query(SEAT)["seat"]
    return respond(LEGAL, svc.legal_moves(game_id, viewer, seat, rec=rec))
