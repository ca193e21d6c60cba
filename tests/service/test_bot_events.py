"""The bot's stream carries its lifecycle: game_start, deal_over (places, points, its fallbacks), game_end, besides
its turns; the wire format is SSE with one-line JSON data, comment lines and keep-alives; Last-Event-ID resumes
after an event and must be an id the stream could have sent. The API on the suite's real Redis."""
from __future__ import annotations

import json
import random
import secrets

from openapi_schema_validator import OAS31Validator

from referee.scoring import uecda_points

from .helpers import play_random_game
from .test_limits import _error
from .test_openapi_bodies import SPEC

SCHEMAS = {"turn": "BotTurn", "challenge": "BotChallenge", "game_start": "BotGameStart", "deal_over": "BotDealOver",
           "game_end": "BotGameEnd"}


def _raw(client, token, last=None, wait=0):
    headers = {**client.auth(token), **({"Last-Event-ID": last} if last else {})}
    return client.c.get(f"/v1/bots/stream?wait={wait}", headers=headers)


def _parse(text):
    """(event, id, data) of each message; every line is a comment, or one of id, event, data (one line of JSON)."""
    out = []
    for block in text.split("\n\n"):
        if not block:
            continue
        lines = block.split("\n")
        if all(line.startswith(":") for line in lines):
            continue
        fields = [line.split(": ", 1) for line in lines]
        assert [name for name, _ in fields] == ["id", "event", "data"], block
        kind, mid, data = fields[1][1], fields[0][1], json.loads(fields[2][1])
        schema = SPEC["components"]["schemas"][SCHEMAS[kind]]
        errors = [e.message for e in OAS31Validator({**schema, "components": SPEC["components"]}).iter_errors(data)]
        assert not errors, (kind, errors[:3])
        out.append((kind, mid, data))
    return out


def _play(client, bot, deals=1, seed=5):
    players = [{"name": "me", "bot": bot["seat"]}] + [{"name": f"h{i}"} for i in range(3)]
    game = client.post("/v1/games", {"preset": "uecda", "seed": seed, "players": players, "deals": deals}).json
    rng = random.Random(seed)
    for deal in range(deals):
        if deal:
            assert client.post(f"/v1/games/{game['game_id']}/deals", None, game["table_token"]).status_code == 201
        play_random_game(client, game, rng, movers={0: bot["bot_token"]})
    return game


def test_the_stream_carries_start_deal_over_and_end(client):
    bot = client.post("/v1/bots", {"name": f"ev-{secrets.token_hex(4)}"}).json
    game = _play(client, bot, deals=2)
    gid = game["game_id"]
    _error(client.post(f"/v1/games/{gid}/deals", None, game["table_token"]), 409, "match_over")
    events = _parse(_raw(client, bot["bot_token"], last="0-0").get_data(as_text=True))
    assert [(kind, data["game_id"]) for kind, _, data in events] == \
        [("game_start", gid), ("deal_over", gid), ("deal_over", gid), ("game_end", gid)]
    start, first, second, end = (data for _, _, data in events)
    assert start["seat"] == 0 and start["deals"] == 2 and start["players"][0] == {"name": "me", "bot": bot["seat"]}
    state, _ = client.state(gid, game["table_token"])
    places = [p["place"] for p in state["players"]]
    assert second["deal"] == 2 and second["places"] == places and second["place"] == places[0]
    assert second["points"] == [uecda_points(p, 4) for p in places]
    assert first["deal"] == 1 and first["fallbacks"] == {"timeout": 0, "away": 0, "resigned": 0} and first["rated"]
    assert end == {"game_id": gid, "seat": 0, "reason": "finished", "deals": 2}
    ids = [mid for _, mid, _ in events]
    assert len(set(ids)) == 4 and all("-" in mid for mid in ids)
    # resuming after the first deal's end sends what followed, only
    again = _parse(_raw(client, bot["bot_token"], last=ids[1]).get_data(as_text=True))
    assert [kind for kind, _, _ in again] == ["deal_over", "game_end"] and [m for _, m, _ in again] == ids[2:]
    # a new connection (no Last-Event-ID) replays nothing: the game is over, nothing is owed
    assert _parse(_raw(client, bot["bot_token"]).get_data(as_text=True)) == []


def test_last_event_id_must_be_one_the_stream_could_have_sent(client):
    bot = client.post("/v1/bots", {"name": f"ev-{secrets.token_hex(4)}"}).json
    other = client.post("/v1/bots", {"name": f"ev-{secrets.token_hex(4)}"}).json
    players = [{"name": "me", "bot": bot["seat"]}] + [{"name": f"h{i}"} for i in range(3)]
    g = client.post("/v1/games", {"preset": "uecda", "hands": [["D3", "S9"], ["S4", "H5"], ["S5", "HT"], ["SK", "C4"]],
                                  "players": players}).json
    gid = g["game_id"]
    messages = _parse(_raw(client, bot["bot_token"]).get_data(as_text=True))
    assert [kind for kind, _, _ in messages] == ["game_start", "turn"]
    start_id, turn_id = messages[0][1], messages[1][1]
    assert turn_id == f"{start_id}.{gid}.0"  # the turn's id: the last event before it, the game, the seq
    for good in (start_id, turn_id, "0-0", f"{gid}.0"):  # the last: a turn id of clients before the events
        assert _raw(client, bot["bot_token"], last=good).status_code == 200, good
    ms, n = start_id.split("-")
    made_up = [f"{int(ms) + 10_000}-0", f"{ms}-{int(n) + 1}", "1-0", f"{start_id}.{gid}.7", f"{start_id}.{'ab' * 12}.0",
               f"{'ab' * 12}.0", "not-an-id", f"{gid}.0.1"]
    for bad in made_up:
        _error(_raw(client, bot["bot_token"], last=bad), 400, "bad_last_event_id")
    _error(_raw(client, other["bot_token"], last=start_id), 400, "bad_last_event_id")  # another bot's event


def test_the_wire_format_has_comment_lines_and_keep_alives(client, monkeypatch):
    from api import streams
    from api.routes import bots as routes

    monkeypatch.setattr(streams, "HEARTBEAT_S", 0.2)
    monkeypatch.setattr(routes, "RESCAN_S", 0.1)
    bot = client.post("/v1/bots", {"name": f"ev-{secrets.token_hex(4)}"}).json
    text = _raw(client, bot["bot_token"], wait=0.5).get_data(as_text=True)
    blocks = [b for b in text.split("\n\n") if b]
    assert blocks[0] == f": bot @{bot['name']}" and ": keep-alive" in blocks[1:]
    assert text.endswith("\n\n")


def test_a_scan_between_seating_and_creating_a_game_keeps_it(client, app):
    """A bot is seated before its game's keys are written: a stream's scan in between (four league games created
    at once) once dropped the game from the bot's list, and the bot never heard of its turns."""
    svc = app.extensions["referee.service"]
    bot = client.post("/v1/bots", {"name": f"ev-{secrets.token_hex(4)}"}).json
    gid = secrets.token_hex(12)
    svc.accounts.seat(bot["name"], gid)  # seated; the game is not written yet
    svc.bots.scan(bot["name"])
    assert gid in svc.accounts.games(bot["name"])
    svc.store.r.zadd(svc.accounts._games(bot["name"]), {gid: 1})  # seated long ago, and gone: dropped
    svc.bots.scan(bot["name"])
    assert gid not in svc.accounts.games(bot["name"])
