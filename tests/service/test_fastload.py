"""api.fastload answers exactly as ``schema.load`` does, and leaves every schema with hooks to marshmallow."""
import random

import pytest
from marshmallow import Schema, ValidationError, fields, post_load, pre_load, validates, validates_schema

from api import fastload, schemas

VALUES = [0, 1, -1, 7, True, False, 2.5, None, "", "S3", "JK1", "play", "pass", "cut_back", "xxxxx", [], ["S3"],
          ["S3", "H4"], ["S3", 5], [["S3"], ["H4"]], [["S3"], None], {}, {"JK1": "S3"}, {"JK1": 3}, {"a": 1}]
MOVE = {"seat": 1, "action": "play", "cards": ["JK1", "S7"], "as": {"JK1": "S7"}, "declare": ["give"], "expected_seq": 4}
VALID = {  # a body each schema accepts: the random bodies are it with keys dropped, replaced and added
    schemas.MoveSchema: {k: v for k, v in MOVE.items() if k != "expected_seq"},
    schemas.MoveRequestSchema: MOVE,
    schemas.DealSchema: {"hands": [["S3"], ["H4"]]},
    schemas.HandsCorrectionSchema: {"hands": [["S3"], None]},
    schemas.CreateGameSchema: {"preset": "nanko", "players": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "seed": 3},
    schemas.AfterQuery: {"after": 3},
    schemas.SeatQuery: {"seat": 1},
}
REQUEST_BODIES = list(VALID)


def outcome(load, schema, body):
    try:
        return "loaded", load(schema, body)
    except ValidationError as e:
        return "refused", e.messages


def bodies(schema, valid, rng, n):
    keys = [f.data_key or name for name, f in schema.load_fields.items()] + ["unknown"]
    for _ in range(n):
        body = dict(valid)
        for _ in range(rng.randint(0, 3)):
            key = rng.choice(keys)
            if key in body and rng.random() < 0.4:
                del body[key]
            else:
                body[key] = rng.choice(VALUES)
        yield body


@pytest.mark.parametrize("cls", REQUEST_BODIES, ids=lambda c: c.__name__)
def test_the_fast_path_answers_as_marshmallow_does(cls):
    schema, rng = cls(), random.Random(cls.__name__)
    cases = [VALID[cls], *bodies(schema, VALID[cls], rng, 2000)]
    fast = fastload._compile(schema)
    taken = 0
    for body in cases:
        assert outcome(fastload.load, schema, body) == outcome(lambda s, d: s.load(d), schema, body), body
        taken += fast is not None and fast(body) is not fastload._NO
    if fast is not None:
        assert taken > 100, "the fast path answered (almost) nothing: the comparison above did not test it"


def test_the_api_schemas_have_no_hooks():
    for cls in REQUEST_BODIES:
        assert not fastload.has_hooks(cls), cls


class Plain(Schema):
    seat = fields.Integer(required=True, strict=True)


class Posted(Plain):
    @post_load
    def tag(self, data, **kwargs):
        return {**data, "tagged": True}


class PreLoaded(Plain):
    @pre_load
    def shift(self, data, **kwargs):
        return {"seat": data["seat"] + 1}


class FieldChecked(Plain):
    @validates("seat")
    def not_seven(self, value, **kwargs):
        if value == 7:
            raise ValidationError("not 7")


class SchemaChecked(Plain):
    @validates_schema
    def not_seven(self, data, **kwargs):
        if data["seat"] == 7:
            raise ValidationError("not 7")


class OwnLoad(Plain):
    def load(self, data, **kwargs):
        return {"own": super().load(data, **kwargs)}


def test_a_schema_without_hooks_takes_the_fast_path():
    assert not fastload.has_hooks(Plain)
    assert fastload._compile(Plain())({"seat": 7}) == {"seat": 7}


def test_a_schema_with_a_post_load_hook_goes_through_marshmallow():
    assert fastload.has_hooks(Posted) and fastload._compile(Posted()) is None
    assert fastload.load(Posted(), {"seat": 7}) == {"seat": 7, "tagged": True}


@pytest.mark.parametrize("cls", [PreLoaded, FieldChecked, SchemaChecked, OwnLoad], ids=lambda c: c.__name__)
def test_every_other_hook_goes_through_marshmallow(cls):
    assert fastload.has_hooks(cls) and fastload._compile(cls()) is None
    assert outcome(fastload.load, cls(), {"seat": 7}) == outcome(lambda s, d: s.load(d), cls(), {"seat": 7})
    assert outcome(fastload.load, cls(), {"seat": 7}) != ("loaded", {"seat": 7})
