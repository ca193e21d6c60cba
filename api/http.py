"""Small request/response helpers shared by the blueprints."""
from __future__ import annotations

from flask import Response, current_app, request
from marshmallow import Schema, ValidationError

from service.encoded import dumps
from service.errors import ApiError
from service.games import GameService

from . import fastload
from .guards import json_body


def service() -> GameService:
    return current_app.extensions["referee.service"]


def check_room() -> None:
    """507 storage_full while Redis is nearly full (service/memory.py): before anything new is stored."""
    current_app.extensions["referee.memory"].check()


def body(schema: Schema, optional: bool = False) -> dict:
    data = json_body()
    if optional and data is None:
        return schema.load({})
    if data is None:
        raise ApiError("the request body must be a JSON object (Content-Type: application/json)",
                       code="bad_json")
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object", code="bad_json")
    return fastload.load(schema, data)


def move_body(schema: Schema, under: str | None = None) -> dict:
    """``body(schema)`` for a body that is a move, or holds one ``under`` a key: a move the parser refuses (an
    unknown field, a field of the wrong type) is a 400 ``bad_move`` naming the field, not an invalid request."""
    try:
        return body(schema)
    except ValidationError as exc:
        messages = exc.messages
        if under is None:
            raise ApiError(f"the move is not one the referee takes: {flatten(messages)}", code="bad_move") from None
        if isinstance(messages, dict) and under in messages:
            raise ApiError(f"the move is not one the referee takes: {flatten(messages[under], under)}",
                           code="bad_move") from None
        raise


def flatten(messages, path: str = "") -> str:
    """marshmallow's nested error dict as one readable line: 'players.0.name: Missing data...'."""
    if isinstance(messages, dict):
        return "; ".join(flatten(v, f"{path}.{k}" if path else str(k)) for k, v in messages.items())
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return f"{path}: {' '.join(messages)}" if path else " ".join(messages)
    if isinstance(messages, list):
        return "; ".join(flatten(m, path) for m in messages)
    return f"{path}: {messages}"


def query(schema: Schema) -> dict:
    return schema.load(request.args.to_dict())


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def respond(schema: Schema, payload: dict, status: int = 200):
    return schema.dump(payload), status


def json_answer(payload: dict, status: int = 200, headers: dict | None = None) -> Response:
    """``payload`` as Flask would send it, with any EncodedJSON value spliced in as the text it already has."""
    return current_app.response_class(dumps(payload) + "\n", status=status, headers=headers, mimetype="application/json")
