"""Every body the API sends in whole games (each preset, table and seat views, table mode) fits openapi.yaml's
response schemas exactly as declared (OpenAPI 3.1: JSON Schema 2020-12), deep states included: the document the API
serves (api/spec.py), whose State holds the rules' slots with the schemas they declare."""
import random

import pytest
from openapi_schema_validator import OAS31Validator

from api.spec import openapi_spec

from .helpers import play_random_game

SPEC = openapi_spec()


def _validator(path, method, status):
    schema = SPEC["paths"][path][method]["responses"][str(status)]
    if "$ref" in schema:
        schema = SPEC["components"]["responses"][schema["$ref"].rsplit("/", 1)[1]]
    return OAS31Validator({**schema["content"]["application/json"]["schema"], "components": SPEC["components"]})


def check(response, path, method):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in _validator(path, method, response.status_code).iter_errors(response.json)]
    assert not errors, (path, method, response.status_code, errors[:5])


@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo"])
def test_bodies_of_whole_games_fit_the_spec(client, preset):
    rng = random.Random(preset)
    r = client.post("/v1/games", {"preset": preset, "seed": 11, "players": [{"name": f"p{i}"} for i in range(4)]})
    check(r, "/v1/games", "post")
    game = r.json
    gid, table, seats = game["game_id"], game["table_token"], game["seat_tokens"]

    def on_move(body):
        for token in [table, *seats]:
            check(client.get(f"/v1/games/{gid}", token), "/v1/games/{game_id}", "get")

    for deal in range(2):
        play_random_game(client, game, rng, on_move=on_move)
        if deal == 0:
            r = client.post(f"/v1/games/{gid}/deals", None, table)
            check(r, "/v1/games/{game_id}/deals", "post")
    for token in [table, seats[1]]:
        check(client.get(f"/v1/games/{gid}/events?after=-1&include_rejected={str(token == table).lower()}", token),
              "/v1/games/{game_id}/events", "get")
        check(client.get(f"/v1/games/{gid}/replay?seq=5", token), "/v1/games/{game_id}/replay", "get")
        check(client.get(f"/v1/games/{gid}/legal-moves?seat=1", token), "/v1/games/{game_id}/legal-moves", "get")
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["S3"]}, table)
    check(r, "/v1/games/{game_id}/moves", "post")
    state = client.get(f"/v1/games/{gid}", table).json
    r = client.post("/v1/judge", {"preset": preset, "state": state, "move": {"seat": 0, "action": "pass"}})
    check(r, "/v1/judge", "post")


def test_bodies_of_a_table_mode_game_fit_the_spec(client):
    r = client.post("/v1/games", {"preset": "nanko", "table": True, "leader": 1,
                                  "players": [{"name": f"p{i}"} for i in range(3)]})
    check(r, "/v1/games", "post")
    gid, table, seats = r.json["game_id"], r.json["table_token"], r.json["seat_tokens"]
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "play", "cards": ["HK"]}, table)
    check(r, "/v1/games/{game_id}/moves", "post")
    assert r.json["verdict"]["unchecked"] == ["not_in_hand"]
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 2, "action": "play", "cards": ["H9"]}, table)
    check(r, "/v1/games/{game_id}/moves", "post")
    assert r.status_code == 422 and r.json["verdict"]["reason"] == "too_weak"
    count = r.json["state"]["players"][0]["hand_count"]
    r = client.post(f"/v1/games/{gid}/hands", {"hands": [None, None, None]}, table)
    check(r, "/v1/games/{game_id}/hands", "post")
    cards = "S5 H5 D5 C5 S6 H6 D6 C6 S7 H7 D7 C7 S8 H8 D8 C8 S9 H9 D9".split()[:count]
    r = client.post(f"/v1/games/{gid}/hands", {"hands": [cards, None, None]}, table)
    check(r, "/v1/games/{game_id}/hands", "post")
    for token in [table, *seats]:
        check(client.get(f"/v1/games/{gid}", token), "/v1/games/{game_id}", "get")
        check(client.get(f"/v1/games/{gid}/events", token), "/v1/games/{game_id}/events", "get")
    check(client.post(f"/v1/games/{gid}/hands", {"hands": [["S3"], None, None]}, table),
          "/v1/games/{game_id}/hands", "post")


def test_the_catalog_and_health_fit_the_spec(client):
    check(client.get("/v1/rules"), "/v1/rules", "get")
    check(client.get("/healthz"), "/healthz", "get")
