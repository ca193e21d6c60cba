"""No single client denies the table: open streams capped per token and per address with slots kept for bots,
new deals behind the bot gate and the create rate limit, record imports charged by size, slow senders holding
no server thread, and the headers every answer carries. Real Redis; a real gunicorn where only a server shows it;
every wait a condition with a deadline (the one timed check is /healthz answering within 1 s under attack)."""
from __future__ import annotations

import dataclasses
import json
import math
import queue
import random
import re
import secrets
import socket
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

import pytest
import redis
import requests
from rq import Queue
from rq.job import Job

from api.app import create_app
from api.streams import HEARTBEAT_S, client_left
from service.redis_conn import connect
from service.scheduler import BotScheduler
from service.settings import Settings
from tests.procs import answers, free_port, wait_until
from tests.redis_support import cleanup
from workers.rq_worker import PromptSimpleWorker

from .helpers import Client, play_random_game

PLAYERS = [{"name": f"p{i}"} for i in range(4)]
TINY_DEAL = [["D3"], ["S5"], ["S9"], ["SK"]]  # a deal of four moves


def _app(settings, **over):
    s = dataclasses.replace(settings, key_prefix=f"{settings.key_prefix}:host{secrets.token_hex(3)}", **over)
    app = create_app(s)
    app.config["TESTING"] = True
    return app, s


def _client(app, address="10.0.0.1") -> Client:
    c = app.test_client()
    c.environ_base["REMOTE_ADDR"] = address
    return Client(c)


def _error(r, status, code):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.json["error"]["code"] == code, r.json
    return r


# --- 1. stream slots ----------------------------------------------------------------------------------------
class Held:
    """A stream opened in a thread of its own (as a server serves it), open until ``close``."""

    def __init__(self, app, url: str, token: str, address: str):
        self.answers: queue.Queue = queue.Queue()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(app, url, token, address))
        self.thread.start()
        self.response = self.answers.get(timeout=30)
        self.status = self.response.status_code

    def _run(self, app, url, token, address):
        r = _client(app, address).get(url, token)
        self.answers.put(r)
        self.done.wait(60)
        r.close()

    def close(self):
        self.done.set()
        self.thread.join(30)


def test_streams_are_capped_per_token_and_address_and_bots_keep_their_slots(settings):
    app, _ = _app(settings, sse_max_streams=4, sse_bot_streams=1, sse_streams_per_token=2,
                  sse_streams_per_address=3, rate_create_per_address=0, rate_bots_per_address=0)
    c = _client(app)
    g = c.create(seed=5)
    table, seats = g["table_token"], g["seat_tokens"]
    url = f"/v1/games/{g['game_id']}/stream?wait=30"
    bots = [c.post("/v1/bots", {"name": f"host-{secrets.token_hex(3)}"}).json["bot_token"] for _ in range(2)]
    held = []
    try:
        def hold(token, address, path=url):
            h = Held(app, path, token, address)
            held.append(h)
            return h

        assert [hold(table, "10.0.0.1").status, hold(table, "10.0.0.1").status] == [200, 200]
        r = _error(hold(table, "10.0.0.1").response, 429, "too_many_streams_for_token")
        assert int(r.headers["Retry-After"]) > 0
        assert hold(seats[0], "10.0.0.1").status == 200
        _error(hold(seats[1], "10.0.0.1").response, 429, "too_many_streams_for_address")
        assert hold(seats[1], "10.0.0.2").status == 200  # the 4 shared slots are taken now
        full = _error(hold(seats[2], "10.0.0.3").response, 503, "too_many_streams")
        assert "kept for bots" in full.json["error"]["message"] and int(full.headers["Retry-After"]) > 0
        # the slot kept for bots: a bot's stream still connects, and only one
        bot = hold(bots[0], "10.0.0.3", "/v1/bots/stream?wait=30")
        assert bot.status == 200 and bot.response.mimetype == "text/event-stream"
        _error(hold(bots[1], "10.0.0.4", "/v1/bots/stream?wait=30").response, 503, "too_many_streams")
        # a closed game stream frees a shared slot for anyone
        held[0].close()
        assert hold(seats[2], "10.0.0.3").status == 200
    finally:
        for h in held:
            h.close()
    slots = app.extensions["referee.streams"]
    assert (slots._games, slots._bots, dict(slots._tokens), dict(slots._addresses)) == (0, 0, {}, {}), "no count leaks"


# --- 2. new deals: the bot gate and the create rate limit ---------------------------------------------------
def test_new_deals_count_in_the_create_rate_limit(settings):
    app, _ = _app(settings, rate_create_per_address=3, rate_window_s=3600, rate_moves_per_token=0,
                  rate_moves_per_address=0)
    c = _client(app)
    g = c.create(seed=1, hands=TINY_DEAL)  # 1
    gid, table = g["game_id"], g["table_token"]
    play_random_game(c, g, random.Random(1))
    assert c.post(f"/v1/games/{gid}/deals", token=table).status_code == 201  # 2
    _error(c.post(f"/v1/games/{gid}/deals", token=table), 409, "deal_not_over")  # 3: refused, but counted
    r = _error(c.post(f"/v1/games/{gid}/deals", token=table), 429, "rate_limited")
    assert int(r.headers["Retry-After"]) >= 1
    _error(c.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 429, "rate_limited")  # one bucket
    _error(_client(app, "10.0.0.2").post(f"/v1/games/{gid}/deals", token=table), 409, "deal_not_over")


@pytest.fixture
def gated(redis_url, settings):
    tag = secrets.token_hex(4)
    own = dataclasses.replace(settings, key_prefix=f"referee-test-host-{tag}", queue_name=f"referee-test-host-{tag}",
                              data_dir=tempfile.mkdtemp(), bots_busy_wait_s=2.0)
    yield own
    cleanup(redis_url, own.key_prefix, own.queue_name)


def test_new_deals_of_bot_games_wait_behind_the_bot_gate(gated, redis_url):
    raw = connect(redis_url, decode=False)
    c = Client(create_app(gated).test_client())
    bots = c.create(seed=2, hands=TINY_DEAL, bots=(0, 1, 2, 3))
    humans = c.create(seed=3, hands=TINY_DEAL)
    PromptSimpleWorker([Queue(gated.queue_name, connection=raw)], connection=raw).work(burst=True, with_scheduler=False)
    assert c.legal(bots["game_id"], bots["table_token"], 0)["actors"] == [], "the workers played the bot deal out"
    play_random_game(c, humans, random.Random(3))

    scheduler = BotScheduler(raw, gated.queue_name, gated.key_prefix)
    late = Job.fetch(scheduler.schedule("0" * 24, 7), connection=raw)
    late.enqueued_at = datetime.utcnow() - timedelta(seconds=30)  # a turn owed 30 s ago and still queued
    late.save()
    busy = Client(create_app(gated).test_client())  # a process that looks at the queue now
    r = _error(busy.post(f"/v1/games/{bots['game_id']}/deals", token=bots["table_token"]), 503, "bots_busy")
    assert int(r.headers["Retry-After"]) >= 1
    assert busy.post(f"/v1/games/{humans['game_id']}/deals", token=humans["table_token"]).status_code == 201
    assert busy.state(bots["game_id"], bots["table_token"])[0]["deal"] == 1, "the refused deal changed nothing"

    Queue(gated.queue_name, connection=raw).empty()
    quiet = Client(create_app(gated).test_client())
    assert quiet.post(f"/v1/games/{bots['game_id']}/deals", token=bots["table_token"]).status_code == 201


# --- 3. record imports charged by size ----------------------------------------------------------------------
def _post_json(client: Client, body: dict):
    return client.c.post("/v1/games", data=json.dumps(body), content_type="application/json")


def _record_body(size: int) -> dict:
    """A record import whose JSON body is ``size`` bytes."""
    return {"record": "x" * (size - len(json.dumps({"record": ""})))}


def test_record_imports_count_one_more_create_per_started_block_of_body(settings):
    app, s = _app(settings, rate_create_per_address=10, rate_record_bytes=1000, rate_window_s=3600)
    c = _client(app)
    # a real record, from another address: it costs 1 + one per started 1000 bytes of the body
    g = _client(app, "10.0.0.2").create(seed=4, hands=TINY_DEAL)
    play_random_game(_client(app, "10.0.0.2"), g, random.Random(4))
    text = _client(app, "10.0.0.2").get(f"/v1/games/{g['game_id']}/record", g["table_token"]).get_data(as_text=True)
    imported = _post_json(_client(app, "10.0.0.3"), {"record": text})
    assert imported.status_code == 201, imported.json
    conn = redis.Redis.from_url(s.redis_url, decode_responses=True)
    spent = sum(int(conn.get(k)) for k in conn.scan_iter(f"{s.key_prefix}:rate:create-address:10.0.0.3:*"))
    assert spent == 1 + math.ceil(len(json.dumps({"record": text})) / 1000)

    # 4,500 bytes: 1 + 5 creates, counted even though the text is no record
    _error(_post_json(c, _record_body(4500)), 400, "bad_record")                     # 6
    assert c.post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201  # 7
    r = _error(_post_json(c, _record_body(4500)), 429, "rate_limited")                # 8, then 13 > 10
    assert int(r.headers["Retry-After"]) >= 1
    _error(c.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 429, "rate_limited")


# --- 5. headers ---------------------------------------------------------------------------------------------
def test_every_answer_has_nosniff_and_v1_answers_are_not_stored(client, app):
    g = client.create(seed=6)
    gid, t = g["game_id"], g["table_token"]
    answers = {
        "rules": client.get("/v1/rules"),
        "state": client.get(f"/v1/games/{gid}", t),
        "unknown game": client.get("/v1/games/nope", t),
        "no token": client.get(f"/v1/games/{gid}"),
        "bad json": client.c.post("/v1/judge", data="{", content_type="application/json"),
        "no route": client.get("/v1/nothing-here"),
        "stream": client.get(f"/v1/games/{gid}/stream?wait=0", t),
        "405": client.c.delete("/v1/rules"),
    }
    for name, r in answers.items():
        assert r.headers.get("X-Content-Type-Options") == "nosniff", name
        assert r.headers.get("Cache-Control") == "no-store", (name, r.headers.get("Cache-Control"))
    assert answers["stream"].mimetype == "text/event-stream" and answers["stream"].get_data(as_text=True)
    for path in ("/healthz", "/", "/openapi.yaml", "/metrics", "/nothing-here"):
        assert client.get(path).headers.get("X-Content-Type-Options") == "nosniff", path
    assert client.get("/").headers["Cache-Control"] == "no-cache"  # the page keeps its own


def test_every_405_names_the_methods_the_url_takes(client, app):
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = re.sub(r"<[^>]+>", "x", rule.rule)
        taken = set().union(*(r.methods for r in app.url_map.iter_rules() if r.rule == rule.rule))
        for method in {"GET", "POST", "PUT", "PATCH", "DELETE"} - taken:
            r = client.c.open(url, method=method)
            assert r.status_code == 405, (method, url, r.status_code)
            assert r.json["error"]["code"] == "method_not_allowed"
            assert taken <= set(r.headers["Allow"].split(", ")), (method, url, r.headers.get("Allow"))
            checked += 1
    assert checked > 30


# --- 4. slow senders, and the caps across a real server's threads --------------------------------------------
THREADS = {"REFEREE_HTTP_THREADS": "2", "REFEREE_SSE_MAX_STREAMS": "3", "REFEREE_SSE_BOT_STREAMS": "1"}  # 6 threads


@pytest.fixture(scope="module")
def server(redis_url):
    from service.supervisor import Supervisor

    prefix = f"referee-test-host-{secrets.token_hex(4)}"
    env = {"REDIS_URL": redis_url, "REFEREE_KEY_PREFIX": prefix, "REFEREE_QUEUE": prefix, **THREADS,
           "REFEREE_DATA_DIR": tempfile.mkdtemp(), "REFEREE_SSE_STREAMS_PER_ADDRESS": "2",
           "REFEREE_TRUSTED_PROXIES": "1", "REFEREE_REQUEST_READ_TIMEOUT_S": "3", "REFEREE_RATE_CREATE_PER_ADDRESS": "0",
           "REFEREE_RATE_MOVES_PER_TOKEN": "0", "REFEREE_RATE_MOVES_PER_ADDRESS": "0", "REFEREE_RATE_BOTS_PER_ADDRESS": "0"}
    settings = Settings.from_env(redis_url=redis_url, http_threads=2, sse_max_streams=3, sse_bot_streams=1)
    sup = Supervisor(settings=settings, children_stdout=subprocess.DEVNULL)
    sup.env.update(env)
    port = free_port()
    sup.start_gunicorn("127.0.0.1", port, workers=1)
    base = f"http://127.0.0.1:{port}"

    try:
        wait_until(lambda: answers(base), 40, "gunicorn to be healthy")
        yield base, port
    finally:
        sup.stop()
        cleanup(redis_url, prefix, prefix)


def _create(base: str) -> dict:
    r = requests.post(f"{base}/v1/games", json={"preset": "uecda", "seed": 7, "players": PLAYERS}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _open_stream(url: str, token: str, address: str):
    return requests.get(url, headers={"Authorization": f"Bearer {token}", "X-Forwarded-For": address},
                        stream=True, timeout=30)


def test_the_caps_hold_across_the_threads_of_a_real_server(server):
    base, _ = server
    g = _create(base)
    url = f"{base}/v1/games/{g['game_id']}/stream?wait=60"
    tokens = [g["table_token"], *g["seat_tokens"]]
    bot = _bot(base)
    opened = []
    try:
        with ThreadPoolExecutor(5) as pool:  # five at once from one address: its cap (2) lets exactly two in
            opened = list(pool.map(lambda token: _open_stream(url, token, "10.1.0.1"), tokens[:5]))
        codes = sorted(r.status_code for r in opened)
        assert codes == [200, 200, 429, 429, 429], codes
        assert {r.json()["error"]["code"] for r in opened if r.status_code == 429} == {"too_many_streams_for_address"}
        opened.append(_open_stream(url, tokens[0], "10.1.0.2"))
        assert opened[-1].status_code == 200  # the three shared slots are taken
        opened.append(_open_stream(url, tokens[1], "10.1.0.3"))
        assert opened[-1].status_code == 503 and opened[-1].json()["error"]["code"] == "too_many_streams"
        opened.append(_open_stream(f"{base}/v1/bots/stream?wait=60", bot["bot_token"], "10.1.0.3"))
        assert opened[-1].status_code == 200, opened[-1].text  # the bot's slot
        assert requests.get(f"{base}/healthz", timeout=10).status_code == 200
    finally:
        for r in opened:
            r.close()
    wait_until(lambda: _open_stream(url.replace("wait=60", "wait=0"), tokens[1], "10.1.0.3").status_code == 200, 30,
               "the closed streams' slots to be free")


def test_a_stream_whose_client_left_frees_its_slot_before_its_next_keep_alive(server):
    base, _ = server
    g = _create(base)
    url = f"{base}/v1/games/{g['game_id']}/stream?wait=60"
    probe = url.replace("wait=60", "wait=0")
    bots = [_bot(base)["bot_token"] for _ in range(2)]
    for path, tokens in ((url, g["seat_tokens"][:2]), (f"{base}/v1/bots/stream?wait=60", bots)):
        opened = [_open_stream(path, token, "10.1.0.9") for token in tokens]
        assert [r.status_code for r in opened] == [200, 200], [r.text for r in opened]
        assert _open_stream(probe, g["table_token"], "10.1.0.9").status_code == 429
        for r in opened:
            r.close()
        # an idle stream looks at its client every IDLE_CHECK_S; a keep-alive (HEARTBEAT_S) would come after 5 s
        wait_until(lambda: _open_stream(probe, g["table_token"], "10.1.0.9").status_code == 200,
                   HEARTBEAT_S - 1, "the left streams' slots to be free before a keep-alive is due")


def test_a_socket_reads_as_left_only_when_its_peer_closed_it():
    ours, theirs = socket.socketpair()
    try:
        assert not client_left(ours)  # open and quiet
        theirs.sendall(b"GET /healthz HTTP/1.1\r\n\r\n")
        assert not client_left(ours)  # a pipelined request is not a leave, and stays unread
        assert ours.recv(64).startswith(b"GET")
        theirs.close()
        assert client_left(ours)
        assert not client_left(None)
    finally:
        ours.close()


def _bot(base: str) -> dict:
    r = requests.post(f"{base}/v1/bots", json={"name": f"host-{secrets.token_hex(3)}"}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _slow_sockets(port: int, body: int, heads: int) -> list[socket.socket]:
    """``body`` connections that sent their headers and one byte of a 1000-byte body, ``heads`` that sent part
    of their headers."""
    opened = []
    for i in range(body + heads):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if i < body:
            s.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000\r\n\r\n{")
        else:
            s.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\n")
        opened.append(s)
    return opened


def _answer(s: socket.socket, deadline_s: float = 15.0) -> bytes:
    """What the server sends on ``s`` until it closes it."""
    s.settimeout(deadline_s)
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass  # closed with bytes of ours unread: what it sent before is all here
    return data


def test_slow_senders_hold_no_thread_and_are_answered_408(server):
    base, port = server
    g = _create(base)
    auth = {"Authorization": f"Bearer {g['table_token']}"}
    slow = _slow_sockets(port, body=100, heads=20)  # 120 connections against 6 threads
    stop = threading.Event()

    def trickle():  # one more byte on each slow body now and then, as the attack did
        while not stop.wait(0.5):
            for s in slow[:100]:
                try:
                    s.send(b" ")
                except OSError:
                    pass

    sender = threading.Thread(target=trickle)
    sender.start()
    try:
        for _ in range(3):  # the probe: answered within 1 s
            started = time.monotonic()
            assert requests.get(f"{base}/healthz", timeout=1).status_code == 200
            assert time.monotonic() - started < 1.0
        actor = requests.get(f"{base}/v1/games/{g['game_id']}/legal-moves?seat=0", headers=auth, timeout=10).json()
        seat = actor["actors"][0]
        move = requests.get(f"{base}/v1/games/{g['game_id']}/legal-moves?seat={seat}", headers=auth,
                            timeout=10).json()["moves"][0]
        from referee import instantiate
        assert requests.post(f"{base}/v1/games/{g['game_id']}/moves", json=instantiate(move), headers=auth,
                             timeout=10).status_code == 200
        # each slow request ends within REFEREE_REQUEST_READ_TIMEOUT_S (3 s) and a loop tick: a JSON 408, closed
        for s in (slow[0], slow[-1]):
            answer = _answer(s)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408"), answer[:200]
            assert b"X-Content-Type-Options: nosniff" in head and b"Connection: close" in head
            assert json.loads(body)["error"]["code"] == "request_timeout"
    finally:
        stop.set()
        sender.join(10)
        for s in slow:
            s.close()


def _exchange(port: int, *pieces: bytes, wait_for: bytes = b"") -> bytes:
    """Send ``pieces`` on one connection, each after the server has sent ``wait_for`` (if given) or at once."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(pieces[0])
        got = b""
        while wait_for not in got:
            got += s.recv(100)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for piece in pieces[1:]:
            time.sleep(0.05)  # to let the pieces arrive apart; the answer must be the same if they do not
            s.sendall(piece)
        return got + _answer(s)


def test_requests_sent_in_pieces_are_served_whole(server):
    """The worker's own reading: Content-Length and chunked bodies in pieces, Expect: 100-continue, two requests in
    one packet, and a body over the limit (413 at once, then closed)."""
    base, port = server
    body = json.dumps({"preset": "uecda", "players": PLAYERS}).encode()
    head = b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
    plain = _exchange(port, head + b"Content-Length: %d\r\n\r\n" % len(body), body[:7], body[7:])
    assert plain.startswith(b"HTTP/1.1 201"), plain[:200]
    chunked = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (9, body[:9], len(body) - 9, body[9:])
    answer = _exchange(port, head + b"Transfer-Encoding: chunked\r\n\r\n", chunked[:5], chunked[5:])
    assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
    answer = _exchange(port, head + b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body), body,
                       wait_for=b"100 Continue\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 100 Continue") and b"HTTP/1.1 201" in answer, answer[:200]
    twice = _exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n"
                            b"Connection: close\r\n\r\n")
    assert twice.count(b"HTTP/1.1 200") == 2, twice
    too_long = _exchange(port, b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n{")
    assert too_long.startswith(b"HTTP/1.1 413") and b"Connection: close" in too_long, too_long[:300]
    assert b'"body_too_large"' in too_long
