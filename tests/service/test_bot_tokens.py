"""A bot token's life: rotated (the old one stops at once, its open stream closes), revoked (the bot plays no more,
its record stays), the bot deleted (its games resigned, its name held while its games may live). The API on the
suite's real Redis."""
from __future__ import annotations

import secrets
import time

from .test_limits import _error


def _register(client):
    r = client.post("/v1/bots", {"name": f"tok-{secrets.token_hex(4)}"})
    assert r.status_code == 201, r.json
    return r.json


def _seat(client, bot, seed=5):
    players = [{"name": "me", "bot": bot["seat"]}] + [{"name": f"h{i}"} for i in range(3)]
    r = client.post("/v1/games", {"preset": "uecda", "seed": seed, "players": players})
    assert r.status_code == 201, r.json
    return r.json


def _listed(client, name):
    return next((b for b in client.get("/v1/bots?limit=200").json["bots"] if b["name"] == name), None)


def test_a_rotated_token_stops_at_once_and_its_stream_closes(client):
    bot = _register(client)
    old = bot["bot_token"]
    game = _seat(client, bot)
    live = client.c.get("/v1/bots/stream?wait=60", headers=client.auth(old), buffered=False)
    chunks = iter(live.response)
    assert next(chunks).decode().startswith(f": bot @{bot['name']}")
    r = client.post("/v1/bots/token", None, old)
    assert r.status_code == 201 and r.json["name"] == bot["name"] and r.json["bot_token"] != old
    new = r.json["bot_token"]
    started = time.monotonic()
    rest = b"".join(chunks)  # the stream ends at its next look, not after its 60 s
    assert time.monotonic() - started < 10, rest
    live.close()
    _error(client.get("/v1/bots/me", old), 401, "invalid_token")
    _error(client.get(f"/v1/games/{game['game_id']}", old), 401, "invalid_token")
    _error(client.post("/v1/bots/token", None, old), 401, "invalid_token")
    assert client.get("/v1/bots/me", new).json["name"] == bot["name"]
    assert client.get(f"/v1/games/{game['game_id']}", new).status_code == 200  # its seats are its own still


def test_a_revoked_token_retires_the_bot_and_keeps_its_record(client, app):
    bot = _register(client)
    game = _seat(client, bot)
    assert client.c.delete("/v1/bots/token", headers=client.auth(bot["bot_token"])).status_code == 204
    _error(client.get("/v1/bots/me", bot["bot_token"]), 401, "invalid_token")
    listed = _listed(client, bot["name"])
    assert listed is not None and listed["status"] == "revoked"
    players = [{"name": "me", "bot": bot["seat"]}, {"name": "h"}]
    _error(client.post("/v1/games", {"preset": "uecda", "players": players}), 400, "bot_revoked")
    state, _ = client.state(game["game_id"], game["table_token"])
    assert state["players"][0]["resigned"] is True  # its game in progress was given up
    _error(client.post("/v1/bots", {"name": bot["name"]}), 409, "bot_name_taken")


def test_a_deleted_bot_is_gone_its_games_resigned_and_its_name_held(client, app):
    bot = _register(client)
    game = _seat(client, bot)
    assert client.c.delete("/v1/bots/me", headers=client.auth(bot["bot_token"])).status_code == 204
    _error(client.get("/v1/bots/me", bot["bot_token"]), 401, "invalid_token")
    assert _listed(client, bot["name"]) is None
    assert client.state(game["game_id"], game["table_token"])[0]["players"][0]["resigned"] is True
    _error(client.post("/v1/bots", {"name": bot["name"].upper()}), 409, "bot_name_taken")  # held for its games' life
    players = [{"name": "me", "bot": bot["seat"]}, {"name": "h"}]
    _error(client.post("/v1/games", {"preset": "uecda", "players": players}), 400, "unknown_bot")
    svc = app.extensions["referee.service"]
    assert not svc.store.r.exists(svc.accounts._account(bot["name"]), svc.accounts._events(bot["name"]))
    assert svc.store.r.ttl(svc.accounts._reservation(bot["name"])) <= svc.settings.game_ttl_s
