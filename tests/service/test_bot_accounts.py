"""Registered bots: accounts and tokens, seats by "@name", what a bot token may see and do, the bot's stream."""
import json
import queue
import secrets
import threading

from openapi_schema_validator import OAS31Validator

from referee import instantiate

from .test_openapi_bodies import SPEC
from .test_limits import _app, _client, _error, _hold_stream


def _register(client, name=None):
    name = name or f"bot-{secrets.token_hex(4)}"
    r = client.post("/v1/bots", {"name": name})
    assert r.status_code == 201, r.json
    assert r.json["name"] == name and r.json["seat"] == f"@{name}" and r.json["bot_token"].startswith("bot_")
    return r.json


def _game(client, seat_bot: str, seat=0, others="random", seed=5):
    players = [{"name": f"p{i}", **({"bot": seat_bot} if i == seat else ({"bot": others} if others else {}))}
               for i in range(4)]
    r = client.post("/v1/games", {"preset": "uecda", "seed": seed, "players": players})
    assert r.status_code == 201, r.json
    return r.json


def _messages(resp):
    out = []
    for block in resp.get_data(as_text=True).split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if fields:
            out.append((fields["event"], fields["id"], json.loads(fields["data"])))
    return out


def _turns(resp):
    return [(mid, data) for kind, mid, data in _messages(resp) if kind == "turn"]


def _stream(client, token, last=None, wait=0):
    headers = {"Authorization": f"Bearer {token}", **({"Last-Event-ID": last} if last else {})}
    return client.c.get(f"/v1/bots/stream?wait={wait}", headers=headers)


def test_a_bot_is_registered_once_per_name_and_its_token_is_stored_hashed(client, app):
    bot = _register(client)
    _error(client.post("/v1/bots", {"name": bot["name"]}), 409, "bot_name_taken")
    _error(client.post("/v1/bots", {"name": "a\u200bb"}), 400, "bad_name")
    _error(client.post("/v1/bots", {"name": "x" * 41}), 400, "bad_name")
    _error(client.post("/v1/bots", {}), 400, "invalid_request")
    r = app.extensions["referee.service"].store.r
    stored = {k: r.type(k) for k in r.scan_iter(f"*{bot['name']}*")}
    dump = json.dumps([r.hgetall(k) if t == "hash" else r.get(k) if t == "string" else None for k, t in stored.items()])
    assert bot["bot_token"] not in dump and bot["bot_token"] not in json.dumps(list(stored))


def test_a_game_seats_registered_bots_by_name_only(client):
    bot = _register(client)
    _error(client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": "@nobody-" + secrets.token_hex(4)},
                                                                    {"name": "b"}]}), 400, "unknown_bot")
    _error(client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": bot["seat"]},
                                                                    {"name": "b", "bot": bot["seat"]}]}), 400,
           "bot_seated_twice")
    _error(client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": "wizard"}, {"name": "b"}]}),
           400, "unknown_bot")


def test_a_bot_token_sees_and_plays_only_its_own_seat(client):
    bot, other = _register(client), _register(client)
    g = _game(client, bot["seat"], seat=2, others=None)
    gid, tok = g["game_id"], bot["bot_token"]
    assert g["seat_tokens"][2] is None and all(g["seat_tokens"][i] for i in (0, 1, 3))  # no token for the bot's seat
    r = client.get(f"/v1/games/{gid}", tok)
    assert r.status_code == 200 and r.headers["X-Referee-Viewer"] == "2"
    assert all(p.get("hand") is None for i, p in enumerate(r.json["players"]) if i != 2)
    _error(client.get(f"/v1/games/{gid}", other["bot_token"]), 401, "invalid_token")
    _error(client.get(f"/v1/games/{gid}/legal-moves?seat=1", tok), 403, "wrong_seat")
    assert client.legal(gid, tok, 2)["moves"] == client.legal(gid, g["table_token"], 2)["moves"]
    _error(client.get(f"/v1/games/{gid}", "bot_" + secrets.token_urlsafe(24)), 401, "invalid_token")
    # play up to the bot's turn with the table token, then the bot moves with its own token
    t = g["table_token"]
    while 2 not in client.legal(gid, t, 0)["actors"]:
        seat = client.legal(gid, t, 0)["actors"][0]
        assert client.post(f"/v1/games/{gid}/moves", instantiate(client.legal(gid, t, seat)["moves"][0]), t).status_code == 200
    move = instantiate(client.legal(gid, tok, 2)["moves"][0])
    _error(client.post(f"/v1/games/{gid}/moves", dict(move, seat=1), tok), 403, "wrong_seat")
    _error(client.post(f"/v1/games/{gid}/moves", move, t), 403, "bot_seat")  # the creator's table token: never
    key = {"Authorization": f"Bearer {tok}", "Idempotency-Key": "turn-1"}
    first = client.c.post(f"/v1/games/{gid}/moves", json=move, headers=key)
    again = client.c.post(f"/v1/games/{gid}/moves", json=move, headers=key)
    assert first.status_code == 200 and again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true" and again.json["seq"] == first.json["seq"]


def test_a_registered_bot_seat_is_owed_to_its_stream_not_to_the_workers(client, app, run_bots):
    bot = _register(client)
    g = _game(client, bot["seat"], seat=1)
    gid = g["game_id"]
    run_bots()
    svc = app.extensions["referee.service"]
    rec = svc.load(gid)
    assert 1 in client.legal(gid, g["table_token"], 1)["actors"]  # the workers stopped at the bot's turn
    # owed with a deadline, no job: one is enqueued only if the deadline passes (tests/service/test_bot_deadlines.py)
    assert rec.owed == rec.seq and rec.deadline is not None and rec.tries == 0
    assert run_bots() == 0
    got = _turns(_stream(client, bot["bot_token"]))
    assert len(got) == 1
    tid, turn = got[0]
    assert tid.split(".", 1)[1] == f"{gid}.{rec.seq}" and turn["game_id"] == gid and turn["seat"] == 1 and turn["seq"] == rec.seq
    assert turn["legal_moves"] == client.legal(gid, bot["bot_token"], 1)
    assert turn["state"] == client.state(gid, bot["bot_token"])[0]
    assert 0 <= turn["time_left_ms"] <= turn["budget_ms"] == 10_000
    spec = SPEC["components"]
    errors = [e.message for e in OAS31Validator({**spec["schemas"]["BotTurn"], "components": spec}).iter_errors(turn)]
    assert not errors, errors[:5]


def test_the_stream_sends_owed_turns_again_on_reconnect_and_new_ones_live(client, run_bots):
    bot = _register(client)
    a, b = _game(client, bot["seat"], seat=0, seed=7), _game(client, bot["seat"], seat=3, seed=8)
    run_bots()
    tok = bot["bot_token"]
    first = _turns(_stream(client, tok))
    assert sorted(t["game_id"] for _, t in first) == sorted([a["game_id"], b["game_id"]])
    # reconnecting: every turn still owed comes again, the last one seen included
    again = _turns(_stream(client, tok, last=first[-1][0]))
    assert [i for i, _ in again] == [i for i, _ in first]
    _error(_stream(client, tok, last="not-a-turn"), 400, "bad_last_event_id")
    # answer one game's turn: while the workers move, an open stream gets the next turn of that game
    turn = next(t for _, t in first if t["game_id"] == a["game_id"])
    move = instantiate(turn["legal_moves"]["moves"][0])
    assert client.post(f"/v1/games/{a['game_id']}/moves", dict(move, expected_seq=turn["seq"]), tok).status_code == 200
    live = client.c.get("/v1/bots/stream?wait=60", headers={"Authorization": f"Bearer {tok}"}, buffered=False)
    chunks = iter(live.response)
    seen: list = []
    pending = [""]  # text of a message not yet complete

    def read_until(cond):
        while not cond(seen):
            blocks = (pending.pop() + next(chunks).decode()).split("\n\n")
            pending.append(blocks.pop())
            for block in blocks:
                fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
                if fields.get("event") == "turn":
                    seen.append(json.loads(fields["data"]))

    read_until(lambda got: any(t["game_id"] == b["game_id"] for t in got))  # game b's turn, still owed
    assert not any(t["game_id"] == a["game_id"] for t in seen)  # game a's was answered
    run_bots()  # the workers move in game a up to the bot's next turn, and wake the stream
    read_until(lambda got: any(t["game_id"] == a["game_id"] for t in got))
    later = next(t for t in seen if t["game_id"] == a["game_id"])
    assert later["seq"] > turn["seq"] and later["seat"] == 0
    live.close()


def test_the_stream_needs_a_bot_token(client):
    g = client.create(seed=3)
    _error(client.get("/v1/bots/stream?wait=0"), 401, "missing_token")
    _error(client.get("/v1/bots/stream?wait=0", g["table_token"]), 401, "invalid_token")
    _error(client.get("/v1/bots/stream?wait=-1", _register(client)["bot_token"]), 400, "invalid_request")


def test_bot_registration_is_rate_limited_and_can_be_turned_off(settings):
    app, _ = _app(settings, rate_bots_per_address=2)
    c = _client(app)
    for _ in range(2):
        _register(c, f"b{secrets.token_hex(3)}")  # these apps take names of 10 characters at most
    r = _error(c.post("/v1/bots", {"name": "one-too-many"}), 429, "rate_limited")
    assert int(r.headers["Retry-After"]) > 0
    closed, _ = _app(settings, bot_registration=0)
    _error(_client(closed).post("/v1/bots", {"name": "anyone"}), 403, "bot_registration_closed")


def test_a_bot_stream_counts_against_the_stream_cap(settings):
    """With no slot kept for bots' streams, a bot's stream takes a shared one like a game's stream
    (tests/service/test_hostile_clients.py: the kept slots let a bot in when games' streams hold the shared ones)."""
    app, _ = _app(settings, rate_create_per_address=0, sse_max_streams=1, sse_bot_streams=0)
    c = _client(app)
    g, bot = c.create(seed=4), _register(c, f"b{secrets.token_hex(3)}")
    statuses, release = queue.Queue(), threading.Event()
    holder = threading.Thread(target=_hold_stream,
                              args=(_client(app), f"/v1/games/{g['game_id']}/stream?wait=30", g["table_token"], statuses,
                                    release))
    holder.start()
    assert statuses.get(timeout=30) == 200
    _error(c.get("/v1/bots/stream?wait=0", bot["bot_token"]), 503, "too_many_streams")
    release.set()
    holder.join(30)
    assert c.get("/v1/bots/stream?wait=0", bot["bot_token"]).status_code == 200
