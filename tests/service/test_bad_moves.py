"""A move the parser refuses is the move's fault: 400 ``bad_move`` naming the field, at ``POST …/moves``,
``POST …/judge`` and ``POST /v1/judge`` alike; ``bad_state`` is kept for a state the referee could not have
produced, and nothing is stored."""
import pytest

HANDS = [["D3", "S4", "S6"], ["S5", "H5", "S7"], ["S9", "HT", "S8"], ["SK", "C4", "H8"]]
BAD_MOVES = {
    "play-with-rank": ({"seat": 0, "action": "play", "cards": ["D3"], "rank": 5}, "rank"),
    "play-with-foo": ({"seat": 0, "action": "play", "cards": ["D3"], "foo": 1}, "foo"),
    "pass-with-cards": ({"seat": 0, "action": "pass", "cards": ["D3"]}, "cards"),
    "cards-not-a-list": ({"seat": 0, "action": "play", "cards": "D3"}, "cards"),
}


@pytest.fixture
def game(client):
    g = client.create(players=4, hands=HANDS)
    return g, client.get(f"/v1/games/{g['game_id']}", g["table_token"]).json


@pytest.mark.parametrize("name", sorted(BAD_MOVES))
@pytest.mark.parametrize("endpoint", ["moves", "judge", "detached"])
def test_a_move_the_parser_refuses_is_a_bad_move_naming_the_field(client, game, name, endpoint):
    g, state = game
    move, field = BAD_MOVES[name]
    if endpoint == "detached":
        r = client.c.post("/v1/judge", json={"preset": "uecda", "state": state, "move": move})
    else:
        r = client.c.post(f"/v1/games/{g['game_id']}/{endpoint}", json=move, headers=client.auth(g["table_token"]))
    assert r.status_code == 400, r.json
    assert r.json["error"]["code"] == "bad_move", r.json
    assert field in r.json["error"]["message"]
    events = client.get(f"/v1/games/{g['game_id']}/events?include_rejected=true", g["table_token"]).json["events"]
    assert [e["type"] for e in events] == ["game_created"], "a refused move is neither judged nor stored"


def test_the_detached_judge_still_blames_a_broken_state(client, game):
    _, state = game
    r = client.c.post("/v1/judge", json={"preset": "uecda", "state": {**state, "players": "x"},
                                         "move": {"seat": 0, "action": "play", "cards": ["D3"]}})
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_state", r.json


def test_an_unknown_field_beside_the_move_is_an_invalid_request(client, game):
    _, state = game
    r = client.c.post("/v1/judge", json={"preset": "uecda", "state": state, "foo": 1,
                                         "move": {"seat": 0, "action": "play", "cards": ["D3"]}})
    assert r.status_code == 400 and r.json["error"]["code"] == "invalid_request", r.json
