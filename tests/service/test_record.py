"""GET /v1/games/{id}/record and POST /v1/games with a record (docs/record.md)."""
import random

from referee import instantiate


def play_some(client, game, plies, seed=1):
    rng = random.Random(seed)
    gid, table = game["game_id"], game["table_token"]
    for _ in range(plies):
        acting = client.get(f"/v1/games/{gid}/legal-moves?seat=0", table).json["actors"]
        if not acting:
            return
        moves = client.legal(gid, table, acting[0])["moves"]
        r = client.post(f"/v1/games/{gid}/moves", instantiate(rng.choice(moves), rng), table)
        assert r.status_code == 200, r.json


def test_table_record_round_trips_into_a_new_game(client):
    game = client.create("nanko", players=4, seed=11)
    play_some(client, game, 30)
    gid, table = game["game_id"], game["table_token"]
    r = client.get(f"/v1/games/{gid}/record", table)
    assert r.status_code == 200
    assert r.mimetype == "text/plain"
    text = r.get_data(as_text=True)
    assert "view: table" in text and "preset: nanko" in text
    made = client.post("/v1/games", {"record": text})
    assert made.status_code == 201, made.json
    new = made.json
    assert new["seq"] == int(r.headers["X-Referee-Seq"])
    old_state, _ = client.state(gid, table)
    new_state, _ = client.state(new["game_id"], new["table_token"])
    assert new_state == old_state
    old_events = client.get(f"/v1/games/{gid}/events", table).json["events"]
    new_events = client.get(f"/v1/games/{new['game_id']}/events", new["table_token"]).json["events"]
    assert new_events == old_events
    # the imported game goes on: its seats can play
    acting = client.get(f"/v1/games/{new['game_id']}/legal-moves?seat=0", new["table_token"]).json["actors"]
    if acting:
        seat = acting[0]
        move = instantiate(client.legal(new["game_id"], new["seat_tokens"][seat], seat)["moves"][0])
        assert client.post(f"/v1/games/{new['game_id']}/moves", move, new["seat_tokens"][seat]).status_code == 200


def test_seat_record_is_redacted_and_says_so(client):
    game = client.create("uecda", players=4, seed=3)
    play_some(client, game, 10)
    r = client.get(f"/v1/games/{game['game_id']}/record", game["seat_tokens"][1])
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert "view: seat 1 (redacted" in text
    mine = game["state"]["players"][1]["hand"]
    theirs = game["state"]["players"][0]["hand"]
    hand_lines = [line for line in text.splitlines() if line.startswith("  hand ")]
    assert " ".join(mine) in hand_lines[1]
    assert " ".join(theirs) not in text and "hidden" in hand_lines[0]
    bad = client.post("/v1/games", {"record": text})
    assert bad.status_code == 400
    assert bad.json["error"]["code"] == "bad_record" and "redacted" in bad.json["error"]["message"]


def test_record_needs_a_token(client):
    game = client.create("uecda", players=4, seed=3)
    assert client.get(f"/v1/games/{game['game_id']}/record").status_code == 401
    assert client.get(f"/v1/games/{game['game_id']}/record", "nope").status_code == 401
    assert client.get("/v1/games/abcdef/record", game["table_token"]).status_code == 404


def test_bad_records_are_400_with_a_clear_message(client):
    for body, needle in [({"record": "hello"}, "record line 1"),
                         ({"record": 5}, "must be the text"),
                         ({"record": ""}, "empty"),
                         ({"record": "x", "preset": "nanko"}, "takes nothing else")]:
        r = client.post("/v1/games", body)
        assert r.status_code == 400, body
        assert r.json["error"]["code"] == "bad_record"
        assert needle in r.json["error"]["message"], (needle, r.json)


def test_table_mode_record_round_trips(client):
    made = client.post("/v1/games", {"preset": "nanko", "table": True,
                                     "players": [{"name": n} for n in ("a", "b", "c", "d")]})
    assert made.status_code == 201, made.json
    g = made.json
    gid, table = g["game_id"], g["table_token"]
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["S9"]}, table)
    assert r.status_code == 200, r.json
    hand = ["S3", "H3", "D3", "C3", "S4", "H4", "D4", "C4", "S5", "H5", "D5", "C5"]
    # seat 0 holds 12 cards after its S9, none of them seen elsewhere: the correction must be accepted
    fixed = client.post(f"/v1/games/{gid}/hands", {"hands": [hand, None, None, None]}, table)
    assert fixed.status_code == 200, fixed.json
    assert fixed.json["state"]["players"][0]["hand"] == hand
    text = client.get(f"/v1/games/{gid}/record", table).get_data(as_text=True)
    assert "hands corrected" in text
    assert "table: true" in text and "hands: unknown" in text and "unchecked:" in text
    back = client.post("/v1/games", {"record": text})
    assert back.status_code == 201, back.json
    assert client.state(back.json["game_id"], back.json["table_token"])[0] == client.state(gid, table)[0]
    seat_text = client.get(f"/v1/games/{gid}/record", g["seat_tokens"][1]).get_data(as_text=True)
    assert "view: seat 1 (redacted" in seat_text
