"""Each limit of service/settings.py on an app of its own, set low; the stream cap on a real gunicorn."""
import dataclasses
import io
import json
import os
import queue
import secrets
import subprocess
import threading

import pytest
import redis
import requests

from api.app import create_app
from referee import instantiate
from service.settings import Settings
from tests.procs import answers, free_port, wait_until

from .helpers import Client

PLAYERS = [{"name": f"p{i}"} for i in range(4)]


def _app(settings, **limits):
    low = dict(rate_create_per_address=3, rate_moves_per_token=4, rate_moves_per_address=6, rate_window_s=60,
               max_body_bytes=2000, max_json_depth=5, max_string_chars=50, max_name_chars=10, max_url_chars=300,
               sse_max_streams=2)
    low.update(limits)
    s = dataclasses.replace(settings, key_prefix=f"{settings.key_prefix}:lim{secrets.token_hex(3)}", **low)
    app = create_app(s)
    app.config["TESTING"] = True
    return app, s


def _client(app, address="10.0.0.1"):
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    return Client(c)


def _error(r, status, code):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:200])
    assert r.mimetype == "application/json" and r.json["error"]["code"] == code, r.json
    return r


def test_creating_games_is_rate_limited_per_address_across_processes(settings):
    app_a, s = _app(settings)
    app_b = create_app(s)  # a second API process on the same Redis shares the counters
    a, b = _client(app_a), _client(app_b)
    assert a.post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201
    assert b.post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201
    assert a.post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201
    r = _error(b.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 429, "rate_limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    # another address is counted on its own
    assert _client(app_a, "10.0.0.2").post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201
    # the counters are plain keys with an expiry: nothing outlives its window
    conn = redis.Redis.from_url(s.redis_url)
    keys = list(conn.scan_iter(f"{s.key_prefix}:rate:*"))
    assert keys and all(0 < conn.ttl(k) <= 61 for k in keys)


def test_moves_are_rate_limited_per_token_and_per_address(settings):
    app, _ = _app(settings, rate_create_per_address=0)
    c = _client(app)
    g = c.create(seed=3)
    gid, t = g["game_id"], g["table_token"]
    move = {"seat": 0, "action": "pass"}
    for _ in range(4):  # moves and what-ifs count alike (illegal or not)
        assert c.post(f"/v1/games/{gid}/judge", move, t).status_code == 200
    r = _error(c.post(f"/v1/games/{gid}/moves", move, t), 429, "rate_limited")
    assert "token" in r.json["error"]["message"] and int(r.headers["Retry-After"]) >= 1
    seat = g["seat_tokens"][1]  # another token from the same address: 2 more, then the address is spent
    assert c.post(f"/v1/games/{gid}/judge", {"seat": 1, "action": "pass"}, seat).status_code == 200
    r = _error(c.post(f"/v1/games/{gid}/judge", {"seat": 1, "action": "pass"}, seat), 429, "rate_limited")
    assert "address" in r.json["error"]["message"]
    # reading is never throttled, and a refused move changed nothing
    assert c.state(gid, t)[1] == 0
    other = _client(app, "10.0.0.9")
    assert other.post(f"/v1/games/{gid}/judge", {"seat": 2, "action": "pass"}, g["seat_tokens"][2]).status_code == 200


def test_body_json_and_url_limits(settings):
    app, _ = _app(settings, rate_create_per_address=0)
    c = _client(app)
    ok = {"preset": "uecda", "players": PLAYERS, "rules": {"a": {"b": []}}}  # depth 4
    assert c.post("/v1/games", ok).status_code in (201, 400)
    assert c.post("/v1/games", ok).json["error"]["code"] != "json_too_deep"
    _error(c.post("/v1/games", {**ok, "rules": {"a": {"b": [[[1]]]}}}), 400, "json_too_deep")
    _error(c.post("/v1/games", {**ok, "x": "a" * 2000}), 413, "body_too_large")
    _error(c.post("/v1/games", {"preset": "uecda", "players": PLAYERS, "x": "a" * 51}), 400, "string_too_long")
    _error(c.post("/v1/games", {"preset": "uecda", "players": [{"name": "n" * 11}] + PLAYERS[1:]}), 400, "bad_name")
    assert c.post("/v1/games", {"preset": "uecda", "players": [{"name": "大富豪 の n　x"}] + PLAYERS[1:]}).status_code == 201
    _error(c.get("/v1/games/" + "a" * 300), 414, "url_too_long")
    assert c.get("/v1/games/" + "a" * 250).status_code == 404
    # a body without Content-Length (chunked) is bounded too
    r = app.test_client().post("/v1/games", input_stream=io.BytesIO(b'{"x": "' + b"a" * 3000 + b'"}'),
                               headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                               environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 413 and r.json["error"]["code"] == "body_too_large"


def _hold_stream(client, url, token, statuses, release):
    """Open a stream in a thread of its own (as a server would) and keep it open until ``release``."""
    r = client.get(url, token)
    statuses.put(r.status_code)
    release.wait(30)
    r.close()


def test_open_streams_are_capped_per_process(settings):
    app, _ = _app(settings, rate_create_per_address=0)
    c = _client(app)
    g = c.create(seed=4)
    url, t = f"/v1/games/{g['game_id']}/stream?wait=30", g["table_token"]
    for _ in range(5):  # a stream that ran to its end gave its slot back, even if nobody closed the response
        assert c.get(url.replace("wait=30", "wait=0"), t).get_data(as_text=True).startswith(": game ")
    statuses, release = queue.Queue(), [threading.Event(), threading.Event()]
    holders = [threading.Thread(target=_hold_stream, args=(_client(app), url, t, statuses, ev)) for ev in release]
    for h in holders:
        h.start()
    assert [statuses.get(timeout=30), statuses.get(timeout=30)] == [200, 200]
    r = _error(c.get(url, t), 503, "too_many_streams")
    assert int(r.headers["Retry-After"]) > 0
    assert c.get("/healthz").status_code == 200
    release[0].set()
    holders[0].join(30)
    third = c.get(url.replace("wait=30", "wait=0"), t)  # a closed stream freed its slot
    assert third.status_code == 200
    third.close()
    release[1].set()
    holders[1].join(30)


# --- a real gunicorn: open streams do not starve other requests ---------------------------------------------
@pytest.fixture
def gunicorn(settings):
    from service.supervisor import Supervisor

    env = {"REDIS_URL": settings.redis_url, "REFEREE_KEY_PREFIX": f"{settings.key_prefix}:gun",
           "REFEREE_SSE_MAX_STREAMS": "4", "REFEREE_HTTP_THREADS": "2", "REFEREE_RATE_CREATE_PER_ADDRESS": "0"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        sup = Supervisor(settings=Settings.from_env(), children_stdout=subprocess.DEVNULL)
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    sup.env.update(env)
    port = free_port()
    sup.start_gunicorn("127.0.0.1", port, workers=1, access_log=False)
    base = f"http://127.0.0.1:{port}"

    try:
        wait_until(lambda: answers(base), 30, "gunicorn to be healthy")
        yield base
    finally:
        sup.stop()


def test_open_streams_leave_threads_for_other_requests(gunicorn):
    base = gunicorn
    g = requests.post(f"{base}/v1/games", json={"preset": "uecda", "seed": 6, "players": PLAYERS}, timeout=10).json()
    auth = {"Authorization": f"Bearer {g['table_token']}"}
    url = f"{base}/v1/games/{g['game_id']}/stream?wait=120"
    streams = [requests.get(url, headers=auth, stream=True, timeout=30) for _ in range(4)]  # the cap's worth
    try:
        assert all(s.status_code == 200 for s in streams)
        lines = [s.iter_lines() for s in streams]
        for it in lines:
            assert next(it).startswith(b": game ")  # each stream is open and holds a thread
        full = requests.get(url, headers=auth, timeout=10)
        assert full.status_code == 503 and full.json()["error"]["code"] == "too_many_streams"
        # with every stream slot taken, ordinary requests are still answered (a starved one would wait
        # the streams' 120 s and hit the 10 s timeout)
        for _ in range(5):
            assert requests.get(f"{base}/healthz", timeout=10).status_code == 200
        seat = requests.get(f"{base}/v1/games/{g['game_id']}/legal-moves?seat=0", headers=auth, timeout=10).json()
        actor = seat["actors"][0]
        move = requests.get(f"{base}/v1/games/{g['game_id']}/legal-moves?seat={actor}", headers=auth,
                            timeout=10).json()["moves"][0]
        move = instantiate(move)
        moved = requests.post(f"{base}/v1/games/{g['game_id']}/moves", json=move, headers=auth, timeout=10)
        assert moved.status_code == 200
        # the streams see the move
        for it in lines:
            got = []
            for line in it:
                got.append(line)
                if line.startswith(b"data: "):
                    break
            assert json.loads(got[-1][6:])["seq"] == 1, got
        # a long URL gets the app's JSON 414, not gunicorn's HTML one
        long = requests.get(f"{base}/v1/games/{g['game_id']}/events?x={'a' * 10_000}", headers=auth, timeout=10)
        assert long.status_code == 414 and long.json()["error"]["code"] == "url_too_long"
    finally:
        for s in streams:
            s.close()
    # closed streams free their slots
    wait_until(lambda: requests.get(url.replace("wait=120", "wait=0"), headers=auth, timeout=10).status_code == 200, 60,
               "a stream slot to be freed")


def test_threads_are_budgeted_around_the_stream_cap():
    s = Settings.from_env(redis_url="redis://x", sse_max_streams=5, sse_bot_streams=2, http_threads=3)
    assert s.gunicorn_threads == 10  # the bots' own slots hold threads too
    os.environ["REFEREE_SSE_MAX_STREAMS"] = "7"
    try:
        assert Settings.from_env().sse_max_streams == 7
    finally:
        del os.environ["REFEREE_SSE_MAX_STREAMS"]
