"""Small request/response helpers shared by the blueprints."""
from __future__ import annotations

from flask import Response, current_app, request
from marshmallow import Schema

from service.encoded import dumps
from service.errors import ApiError
from service.games import GameService

from . import fastload
from .guards import json_body


def service() -> GameService:
    return current_app.extensions["referee.service"]


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
