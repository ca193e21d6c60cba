"""What a game keeps and for how long: clipped and capped audit entries, TTLs, DELETE."""
import dataclasses
import json

from api.app import create_app
from referee import instantiate

from .helpers import Client

HANDS = [["D3", "S4"], ["S5", "H5"], ["S9", "HT"], ["SK", "C4"]]  # seat 0 leads


def store_of(client):
    return client.c.application.extensions["referee.service"].store


def test_a_rejected_proposal_is_stored_clipped(client):
    g = client.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    # within the request limits (strings of at most 1000 characters), yet far too big to keep verbatim
    huge = {"seat": 0, "action": "play", "cards": ["S3"] * 5000, "declare": {f"x{i}": "y" * 900 for i in range(100)}}
    r = client.post(f"/v1/games/{gid}/moves", huge, t)
    assert r.status_code == 422
    entry = [e for e in client.get(f"/v1/games/{gid}/events?include_rejected=true", t).json["events"]
             if e["type"] == "rejected"][0]
    assert len(json.dumps(entry["move"])) <= 600 and entry["move"]["seat"] == 0
    assert entry["move"]["action"] == "play"
    raw = store_of(client).r.xrange(store_of(client).keys(gid)[2])
    assert len(raw) == 1 and len(raw[0][1]["data"]) < 2000


def test_audit_entries_are_capped_and_events_are_not(settings):
    client = Client(create_app(dataclasses.replace(settings, audit_max=10)).test_client())
    g = client.create(players=4, hands=HANDS)
    gid, t = g["game_id"], g["table_token"]
    for _ in range(250):
        assert client.post(f"/v1/games/{gid}/moves", {"seat": 1, "action": "pass"}, t).status_code == 422
    assert client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["D3"]}, t).status_code == 200
    assert client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "pass"}, t).status_code == 422
    log = client.get(f"/v1/games/{gid}/events?include_rejected=true", t).json["events"]
    rejected = [e for e in log if e["type"] == "rejected"]
    # MAXLEN ~ trims whole stream nodes (100 entries by default): well under 251, never under the cap
    assert 10 <= len(rejected) <= 10 + 100
    assert rejected[-1]["id"] == "2-1", "the newest entries are kept, in order after the event judged against"
    assert [e["seq"] for e in log if e["type"] != "rejected"] == [0, 1], "events are never trimmed"
    assert log[-1]["type"] == "rejected" and log[-2]["seq"] == 1
    plain = client.get(f"/v1/games/{gid}/events", t).json["events"]
    assert [e["seq"] for e in plain] == [0, 1]


def test_every_key_of_a_game_expires_idle_and_sooner_once_the_deal_is_over(settings):
    client = Client(create_app(dataclasses.replace(settings, game_ttl_s=5000, game_ttl_over_s=500,
                                                   snapshot_every=1)).test_client())
    store = store_of(client)
    g = client.create(players=4, hands=[["D3"], ["S5"], ["S9"], ["SK"]], bots={1, 2, 3})
    gid, t = g["game_id"], g["table_token"]
    meta, log = store.keys(gid)[:2]
    assert 4900 < store.r.ttl(meta) <= 5000 and 4900 < store.r.ttl(log) <= 5000
    r = client.c.post(f"/v1/games/{gid}/moves", json={"seat": 1, "action": "pass"},
                      headers={**client.auth(t), "Idempotency-Key": "k"})
    assert r.status_code == 422
    written = [store.key(gid, part) for part in ("meta", "log", "audit", "idem", "idemw")]  # not a UECda match
    assert all(4900 < store.r.ttl(k) <= 5000 for k in written), "audit and idempotency keys too"
    # play the deal out with the table token: once nobody can act the shorter TTL applies
    for _ in range(50):
        probe = client.legal(gid, t, 0)
        if not probe["actors"]:
            break
        seat = probe["actors"][0]
        move = instantiate(client.legal(gid, t, seat)["moves"][0])
        assert client.post(f"/v1/games/{gid}/moves", move, t).status_code == 200
    assert client.state(gid, t)[0]["phase"] == "deal_over"
    written.append(store.key(gid, "snaps"))  # a replay snapshot at every seq (snapshot_every=1)
    assert all(0 < store.r.ttl(k) <= 500 for k in written)
    assert client.post(f"/v1/games/{gid}/deals", None, t).status_code == 201
    assert all(4900 < store.r.ttl(k) <= 5000 for k in written), "a new deal brings the idle TTL back"


def test_delete_a_game_with_the_table_token(client):
    g = client.create(players=4, bots={1, 2, 3}, hands=HANDS)
    gid, t, seat = g["game_id"], g["table_token"], g["seat_tokens"][0]
    store = store_of(client)
    assert client.c.delete(f"/v1/games/{gid}", headers=client.auth(seat)).status_code == 403
    assert client.c.delete(f"/v1/games/{gid}").status_code == 401
    r = client.c.delete(f"/v1/games/{gid}", headers=client.auth(t))
    assert r.status_code == 204 and r.data == b""
    assert client.get(f"/v1/games/{gid}", t).status_code == 404
    r = client.c.delete(f"/v1/games/{gid}", headers=client.auth(t))
    assert r.status_code == 404 and r.json["error"]["code"] == "unknown_game"
    assert not any(store.r.exists(k) for k in store.keys(gid))
    assert gid not in dict(store.bot_games())
