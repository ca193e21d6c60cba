"""Idle registered bots expire (REFEREE_BOT_IDLE_TTL_S): the account, its token and its name together; activity
(a seat, the stream, a move) restarts the clock; GET /v1/bots never lists an expired bot."""
import dataclasses
import secrets

from api.app import create_app
from referee import instantiate
from service.tokens import digest
from tests.procs import wait_until

from .helpers import Client
from .test_limits import _error

DAY = 24 * 3600


def _app(settings, ttl: int):
    s = dataclasses.replace(settings, key_prefix=f"{settings.key_prefix}:idle{secrets.token_hex(3)}",
                            bot_idle_ttl_s=ttl)
    app = create_app(s)
    app.config["TESTING"] = True
    return app, Client(app.test_client())


def _register(client, name=None) -> dict:
    r = client.post("/v1/bots", {"name": name or f"idle-{secrets.token_hex(3)}"})
    assert r.status_code == 201, r.json
    return r.json


def _keys(app, bot) -> dict[str, str]:
    accounts, name = app.extensions["referee.service"].accounts, bot["name"]
    return {"account": accounts._account(name), "games": accounts._games(name), "wake": accounts._wake(name),
            "results": accounts._results(name), "token": accounts._by_token(digest(bot["bot_token"])),
            "name": accounts._reservation(name)}


def _ttls(app, bot) -> dict[str, int]:
    """The TTL in s of each key the bot has (-1: none); keys it does not have are left out."""
    r = app.extensions["referee.service"].store.r
    found = {what: r.ttl(key) for what, key in _keys(app, bot).items()}
    return {what: ttl for what, ttl in found.items() if ttl != -2}


def _age(app, bot, seconds: int = 50) -> None:
    """As if the bot had been idle: every key of it left with ``seconds`` to live, and this process forgets that
    it refreshed them lately."""
    svc = app.extensions["referee.service"]
    for key in _keys(app, bot).values():
        svc.store.r.expire(key, seconds)
    svc.accounts._touched.clear()


def _listed(client) -> list[str]:
    r = client.get("/v1/bots?limit=200")
    assert r.status_code == 200, r.json
    return [b["name"] for b in r.json["bots"]]


def _game(client, bot, seat=2):
    players = [{"name": f"p{i}", **({"bot": bot["seat"]} if i == seat else {})} for i in range(4)]
    r = client.post("/v1/games", {"preset": "uecda", "seed": 5, "players": players})
    assert r.status_code == 201, r.json
    return r.json


def test_an_idle_bot_expires_with_its_token_and_its_name(settings):
    app, client = _app(settings, ttl=1)
    bot = _register(client)
    assert _listed(client) == [bot["name"]]
    assert set(_ttls(app, bot)) == {"account", "token", "name"}
    wait_until(lambda: _listed(client) == [] and _ttls(app, bot) == {}, 30, "the idle bot to expire")
    assert client.get("/v1/bots").json["count"] == 0
    _error(client.get("/v1/bots/stream?wait=0", bot["bot_token"]), 401, "invalid_token")
    _error(client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": bot["seat"]},
                                                                    {"name": "b"}]}), 400, "unknown_bot")
    again = _register(client, bot["name"].upper())  # the name is free again, in any case
    assert again["bot_token"] != bot["bot_token"]


def test_a_seat_the_stream_and_a_move_each_restart_the_clock(settings):
    app, client = _app(settings, ttl=30 * DAY)
    bot = _register(client)
    assert all(29 * DAY < ttl <= 30 * DAY for ttl in _ttls(app, bot).values()), _ttls(app, bot)
    _age(app, bot)
    game = _game(client, bot)  # seated
    ttls = _ttls(app, bot)
    assert {"account", "games", "token", "name"} <= set(ttls) and all(ttl > 29 * DAY for ttl in ttls.values()), ttls
    _age(app, bot)
    assert client.get("/v1/bots/stream?wait=0", bot["bot_token"]).status_code == 200  # the stream opened
    assert all(ttl > 29 * DAY for ttl in _ttls(app, bot).values()), _ttls(app, bot)
    # the others play up to the bot's turn; then it moves with its own token
    gid, table = game["game_id"], game["table_token"]
    while 2 not in (actors := client.legal(gid, table, 0)["actors"]):
        move = instantiate(client.legal(gid, table, actors[0])["moves"][0])
        assert client.post(f"/v1/games/{gid}/moves", move, table).status_code == 200
    move = instantiate(client.legal(gid, table, 2)["moves"][0])
    _age(app, bot)
    assert client.post(f"/v1/games/{gid}/moves", move, bot["bot_token"]).status_code == 200
    ttls = _ttls(app, bot)
    assert "wake" in ttls and all(ttl > 29 * DAY for ttl in ttls.values()), ttls


def test_wake_ups_and_results_live_as_long_as_the_account_and_an_expired_bot_gets_none(settings):
    app, client = _app(settings, ttl=30 * DAY)
    accounts, r = app.extensions["referee.service"].accounts, app.extensions["referee.service"].store.r
    bot = _register(client)
    accounts.wake(bot["name"], "g1", 3)
    assert accounts.record_result(bot["name"], "g1", 1, "uecda", 0, 4, 1)
    assert all(29 * DAY < ttl <= 30 * DAY for ttl in _ttls(app, bot).values()), _ttls(app, bot)
    r.delete(*_keys(app, bot).values())  # as the expiry leaves it: only the listing's index entry is left
    accounts.wake(bot["name"], "g1", 4)
    assert not accounts.record_result(bot["name"], "g1", 2, "uecda", 0, 4, 1)
    assert _ttls(app, bot) == {}  # nothing made again for a bot that is gone
    assert _listed(client) == [] and client.get("/v1/bots").json["count"] == 0


def test_a_ttl_of_0_keeps_bots_for_ever(settings):
    app, client = _app(settings, ttl=0)
    bot = _register(client)
    _game(client, bot)
    ttls = _ttls(app, bot)
    assert {"account", "games", "token", "name"} <= set(ttls) and set(ttls.values()) == {-1}, ttls
