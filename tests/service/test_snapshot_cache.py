"""Two API processes on one game: each caches the snapshots it wrote; a stale cache costs a read, never a
wrong verdict or a lost move."""
from api.app import create_app

from .helpers import Client

HANDS = [["D3", "S4"], ["S5", "H5"], ["S9", "HT"], ["SK", "C4"]]  # seat 0 leads


def test_a_stale_cached_snapshot_is_read_again(settings):
    a, b = (Client(create_app(settings).test_client()) for _ in range(2))
    g = a.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    assert a.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["D3"]}, t).status_code == 200
    # process b moves the game on; a's cache still holds seq 1
    assert b.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "play", "cards": ["S5"]}, t).status_code == 200
    # legal at seq 1 (seat 1 to play over D3), illegal now (seat 2 must beat S5): judged on the fresh state
    r = a.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "play", "cards": ["H5"]}, t)
    assert r.status_code == 422 and r.json["verdict"]["reason"] == "not_your_turn" and r.json["seq"] == 2
    # expected_seq of the fresh state passes in a (after one more read), a stale one is a 409
    r = a.post(f"/v1/games/{gid}/moves", {"seat": 2, "action": "play", "cards": ["S9"], "expected_seq": 2}, t)
    assert r.status_code == 200 and r.json["seq"] == 3
    r = b.post(f"/v1/games/{gid}/moves", {"seat": 3, "action": "play", "cards": ["SK"], "expected_seq": 2}, t)
    assert r.status_code == 409 and r.json["error"]["code"] == "stale_seq"
    r = b.post(f"/v1/games/{gid}/moves", {"seat": 3, "action": "play", "cards": ["SK"]}, t)
    assert r.status_code == 200 and r.json["seq"] == 4
    events = a.get(f"/v1/games/{gid}/events", t).json["events"]
    assert [(e["seq"], e.get("move", {}).get("cards")) for e in events] == [
        (0, None), (1, ["D3"]), (2, ["S5"]), (3, ["S9"]), (4, ["SK"])]


def test_a_game_deleted_elsewhere_is_gone_for_a_cached_process(settings):
    a, b = (Client(create_app(settings).test_client()) for _ in range(2))
    g = a.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    assert a.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["D3"]}, t).status_code == 200
    assert b.c.delete(f"/v1/games/{gid}", headers=b.auth(t)).status_code == 204
    r = a.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "play", "cards": ["S5"]}, t)
    assert r.status_code == 404 and r.json["error"]["code"] == "unknown_game"
    assert a.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "play", "cards": ["S5"]}, t).status_code == 404


def test_a_move_costs_one_round_trip_and_a_stale_cache_one_more(settings, monkeypatch):
    a, b = (Client(create_app(settings).test_client()) for _ in range(2))
    store = a.c.application.extensions["referee.service"].store
    sent = []
    real = store.r.execute_command
    monkeypatch.setattr(store.r, "execute_command", lambda *args, **kw: sent.append(args[0]) or real(*args, **kw))
    g = b.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]

    def move(client, seat, card):
        sent.clear()
        r = client.post(f"/v1/games/{gid}/moves", {"seat": seat, "action": "play", "cards": [card]}, t)
        assert r.status_code == 200, r.json
        return list(sent)

    assert move(a, 0, "D3") == ["HMGET", "EVALSHA"], "the first move a process sees reads the snapshot once"
    assert move(a, 1, "S5") == ["EVALSHA"], "then one script call per move"
    move(b, 2, "S9")
    assert move(a, 3, "SK") == ["EVALSHA", "EVALSHA"], "stale: the refusal carries the current snapshot"
