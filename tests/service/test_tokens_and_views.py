"""Bearer tokens, per-seat views and redaction: no hidden card reaches another seat."""
import random

from referee import instantiate

from .helpers import hands, leaked, play_random_game


def test_tokens(client):
    g = client.create()
    gid = g["game_id"]
    assert client.get(f"/v1/games/{gid}").status_code == 401
    assert client.get(f"/v1/games/{gid}").json["error"]["code"] == "missing_token"
    r = client.get(f"/v1/games/{gid}", "seat_forged")
    assert r.status_code == 401 and r.json["error"]["code"] == "invalid_token"
    other = client.create(seed=2)
    assert client.get(f"/v1/games/{gid}", other["table_token"]).status_code == 401
    assert client.c.get(f"/v1/games/{gid}", headers={"Authorization": "Basic abc"}).status_code == 401


def test_tokens_are_stored_hashed(client, app):
    g = client.create()
    store = app.extensions["referee.service"].store
    raw = store.r.hgetall(store._meta(g["game_id"]))
    blob = str(raw)
    assert g["table_token"] not in blob
    assert not any(t in blob for t in g["seat_tokens"])


def test_table_sees_all_and_seat_sees_its_own(client):
    g = client.create()
    gid = g["game_id"]
    table, seq = client.state(gid, g["table_token"])
    assert all(hands(table))
    for seat, token in enumerate(g["seat_tokens"]):
        view, _ = client.state(gid, token)
        for i, p in enumerate(view["players"]):
            if i == seat:
                assert sorted(p["hand"]) == sorted(table["players"][i]["hand"])
            else:
                assert p["hand"] is None
        assert not leaked(view, table, seat)


def test_no_hidden_card_in_views_or_events_during_a_game(client):
    g = client.create(seed=7)
    gid, table_token = g["game_id"], g["table_token"]
    play_random_game(client, g, random.Random(7))
    _, last = client.state(gid, table_token)
    for seat, token in enumerate(g["seat_tokens"]):
        events = client.get(f"/v1/games/{gid}/events", token).json["events"]
        assert [e["seq"] for e in events] == list(range(last + 1))
        for event in events:
            table_then = client.get(f"/v1/games/{gid}/replay?seq={event['seq']}", table_token).json["state"]
            assert not leaked(event, table_then, seat), event
            view_then = client.get(f"/v1/games/{gid}/replay?seq={event['seq']}", token).json["state"]
            assert not leaked(view_then, table_then, seat)
        r = client.get(f"/v1/games/{gid}/events?include_rejected=true", token)
        assert r.status_code == 403


def test_events_after(client):
    g = client.create(seed=3)
    gid, t = g["game_id"], g["table_token"]
    seat = client.legal(gid, t, 0)["actors"][0]
    move = instantiate(client.legal(gid, t, seat)["moves"][0])
    assert client.post(f"/v1/games/{gid}/moves", move, t).status_code == 200
    all_events = client.get(f"/v1/games/{gid}/events", t).json
    assert [e["seq"] for e in all_events["events"]] == [0, 1] and all_events["seq"] == 1
    assert [e["seq"] for e in client.get(f"/v1/games/{gid}/events?after=0", t).json["events"]] == [1]
    assert client.get(f"/v1/games/{gid}/events?after=1", t).json["events"] == []
    assert client.get(f"/v1/games/{gid}/events?after=x", t).status_code == 400
    assert client.get(f"/v1/games/{gid}/events?after=-5", t).status_code == 400
