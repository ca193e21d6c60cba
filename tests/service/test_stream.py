"""Server-Sent Events of new events, redacted per bearer."""
import json

from referee import instantiate

from .helpers import leaked


def _sse(resp):
    events = []
    for block in resp.get_data(as_text=True).split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if fields:
            events.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
    return events


def test_stream_sends_events_after_a_seq(client):
    g = client.create(seed=71)
    gid, t = g["game_id"], g["table_token"]
    for _ in range(3):
        seat = client.legal(gid, t, 0)["actors"][0]
        assert client.post(f"/v1/games/{gid}/moves", instantiate(client.legal(gid, t, seat)["moves"][0]), t).status_code == 200
    r = client.get(f"/v1/games/{gid}/stream?after=0&wait=0.3", t)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    got = _sse(r)
    assert [i for i, _, _ in got] == [1, 2, 3]
    assert all(e["seq"] == i and e["type"] == typ for i, typ, e in got)
    r = client.c.get(f"/v1/games/{gid}/stream?wait=0.2",
                     headers={"Authorization": f"Bearer {t}", "Last-Event-ID": "2"})
    assert [i for i, _, _ in _sse(r)] == [3]
    assert _sse(client.get(f"/v1/games/{gid}/stream?wait=0.2", t)) == []
    # wait=0 still sends the backlog, then closes
    assert [i for i, _, _ in _sse(client.get(f"/v1/games/{gid}/stream?after=1&wait=0", t))] == [2, 3]


def test_stream_is_redacted_for_seats(client):
    g = client.create(seed=72)
    gid, t = g["game_id"], g["table_token"]
    table, _ = client.state(gid, t)
    r = client.get(f"/v1/games/{gid}/stream?after=-1&wait=0.2", g["seat_tokens"][2])
    got = _sse(r)
    assert got and got[0][0] == 0
    assert not leaked(got[0][2], table, 2)
    assert client.get(f"/v1/games/{gid}/stream?wait=0.2").status_code == 401
    assert client.get(f"/v1/games/{gid}/stream?wait=-1", t).status_code == 400


def test_an_idle_stream_outlives_the_redis_socket_timeout(client):
    # redis-py >= 8 reads with a 5 s socket timeout; a blocking XREAD must not die of it
    g = client.create(seed=73)
    r = client.get(f"/v1/games/{g['game_id']}/stream?wait=6.5", g["table_token"])
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert body.startswith(": game ") and _sse(r) == []
