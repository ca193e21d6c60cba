"""Health, rules, the OpenAPI document, errors and game creation."""
from pathlib import Path

import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.validation.validators import OpenAPIV31SpecValidator

from api.spec import openapi_spec

ROOT = Path(__file__).resolve().parents[2]


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json["status"] == "ok" and r.json["storage"]


def test_rules_is_the_engine_catalog(client):
    import referee

    r = client.get("/v1/rules")
    assert r.status_code == 200
    assert r.json == referee.catalog()


class _StrictLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice in one mapping, as strict loaders (code generators) do."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def test_openapi_has_no_key_twice():
    text = (ROOT / "openapi.yaml").read_text()
    assert yaml.load(text, Loader=_StrictLoader) == yaml.safe_load(text)
    try:
        yaml.load("a:\n  b: 1\n  b: 2\n", Loader=_StrictLoader)
    except yaml.constructor.ConstructorError as exc:
        assert "duplicate key 'b'" in str(exc)
    else:
        raise AssertionError("the strict loader let a duplicate key through")


def test_openapi_validates_and_is_served(client):
    """GET /openapi.yaml serves openapi.yaml with the rules' slots filled in (api/spec.py), a valid document."""
    raw = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    spec = openapi_spec()
    assert spec["openapi"] == "3.1.0"
    validate(spec, cls=OpenAPIV31SpecValidator)
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    assert yaml.safe_load(r.data) == spec
    assert spec["paths"] == raw["paths"] and spec != raw


def test_openapi_states_locks_are_the_catalogues_lock_slots():
    """A new lock (a slot with lock=True) is in the served State schema's ``locks``, required and described by its
    own schema; the schema refuses any other key there. Every other slot of the catalogue is a property of the State
    too, required, its schema the slot's."""
    import referee

    state = openapi_spec()["components"]["schemas"]["State"]
    props = state["properties"]
    slots = [s for r in referee.catalog()["rules"] for s in r["slots"]]
    keys = {s["key"].split(".", 1)[1] for s in slots if s["lock"]}
    locks = props["locks"]
    assert set(locks["properties"]) == keys and set(locks["required"]) == keys
    assert locks["additionalProperties"] is False
    assert all(locks["properties"][k].get("description") for k in keys), locks["properties"]
    others = {s["key"]: s["schema"] for s in slots if "." not in s["key"]}
    assert {k: props.get(k) for k in others} == others and set(others) <= set(state["required"])


def test_openapi_names_every_kind_of_effect():
    """A rule whose effect has a new KIND (what legal-moves annotations call it) adds it to the LegalMove schema."""
    from referee.contract import effect_classes
    from referee.rules import MODULES

    spec = openapi_spec()
    kinds = set(spec["components"]["schemas"]["LegalMove"]["properties"]["kinds"]["items"]["enum"])
    assert {c.KIND for c in effect_classes(MODULES) if c.KIND} <= kinds


def test_unknown_route_and_method_are_json_errors(client):
    r = client.get("/nope")
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    r = client.c.delete("/v1/games")
    assert r.status_code == 405 and r.json["error"]["code"] == "method_not_allowed"


def test_create_game(client):
    g = client.create(players=4, bots={1, 2, 3})
    assert len(g["seat_tokens"]) == 4 and len(set(g["seat_tokens"])) == 4
    assert g["table_token"] not in g["seat_tokens"]
    assert g["seq"] == 0
    assert len(g["state"]["players"]) == 4


def test_create_game_rejects_bad_input(client):
    cases = [
        (None, "bad_json"),
        ([1, 2], "bad_json"),
        ({"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}, "invalid_request"),
        ({"preset": "uecda", "players": "abc"}, "invalid_request"),
        ({"preset": "uecda", "players": [{"name": "a"}] * 3, "extra": 1}, "invalid_request"),
        ({"preset": "uecda", "players": [{"name": "a", "bot": "genius"}] * 4}, "unknown_bot"),
        ({"preset": "no-such-preset", "players": [{"name": "a"}] * 4}, None),
        ({"preset": "uecda", "players": [{"name": "a"}] * 4, "seed": "x"}, "invalid_request"),
    ]
    for body, code in cases:
        r = client.c.post("/v1/games", data="not json" if body is None else None,
                          json=body if body is not None else None, content_type="application/json")
        assert r.status_code == 400, (body, r.json)
        assert set(r.json["error"]) == {"code", "message"} and r.json["error"]["message"]
        if code:
            assert r.json["error"]["code"] == code, (body, r.json)


def test_a_seat_count_the_preset_is_not_played_by_is_a_400_naming_the_preset_and_the_range(client):
    for preset, n, named in [("nanko", 2, "nanko is played by 3 to 6"), ("nanko", 7, "nanko is played by 3 to 6"),
                             ("uecda", 9, None), ("gekifugo", 1, None)]:
        r = client.post("/v1/games", {"preset": preset, "players": [{"name": f"p{i}"} for i in range(n)]})
        assert r.status_code == 400, (preset, n, r.json)
        code, message = r.json["error"]["code"], r.json["error"]["message"]
        if named:  # 1 or 9 players: the schema's bounds (2 to 8) answer first
            assert code == "bad_seat_count" and named in message and f"not {n}" in message
    assert client.get("/v1/rules").json["seats"]["nanko"] == {"min": 3, "max": 6}
    assert client.post("/v1/games", {"preset": "nanko", "players": [{"name": f"p{i}"} for i in range(3)]}).status_code == 201


def test_unknown_game_is_404(client):
    g = client.create()
    for path in ("", "/events", "/replay?seq=0", "/legal-moves?seat=0", "/stream"):
        r = client.get(f"/v1/games/0123456789abcdef01234567{path}", g["table_token"])
        assert r.status_code == 404 and r.json["error"]["code"] == "unknown_game", path
    r = client.post("/v1/games/../moves", {"seat": 0, "action": "pass"}, g["table_token"])
    assert r.status_code in (404, 405)
