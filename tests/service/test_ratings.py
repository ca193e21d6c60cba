"""Ratings: a registered bot's OpenSkill rating moves after the deals it accepted and played itself, and not after
a deal where the fallback played it for being away, nor after it resigned; the built-in bots it met are rated
beside it; GET /v1/bots and the leaderboard serve them. The API on the suite's real Redis and real RQ workers."""
from __future__ import annotations

import secrets
import time

from openapi_schema_validator import OAS31Validator

from referee import instantiate
from service.deadlines import DeadlineKeeper
from service.ratings import new_ratings, pooled

from .test_openapi_bodies import SPEC


def _register(client):
    return client.post("/v1/bots", {"name": f"rate-{secrets.token_hex(4)}"}).json


def _game(client, bot, seed, **extra):
    players = [{"name": "me", "bot": bot["seat"]}] + [{"name": f"w{i}", "bot": "random"} for i in range(3)]
    r = client.post("/v1/games", {"preset": "uecda", "seed": seed, "players": players, **extra})
    assert r.status_code == 201, r.json
    return r.json


def _drive(client, app, run_bots, game, bot, plays=True):
    """Play the deal to its end: the workers their seats, the bot its own (or, when it does not play, the
    fallback once its deadline passed)."""
    svc, gid = app.extensions["referee.service"], game["game_id"]
    for _ in range(500):
        run_bots()
        legal = client.legal(gid, game["table_token"], 0)
        if not legal["actors"]:
            return
        if 0 not in legal["actors"]:
            continue
        if plays:
            move = dict(instantiate(legal["moves"][0]), expected_seq=legal["seq"])
            assert client.post(f"/v1/games/{gid}/moves", move, bot["bot_token"]).status_code == 200
        else:
            DeadlineKeeper(svc.store, svc.scheduler, clock=lambda: time.time() + 3600).run_once()
    raise AssertionError("the deal did not end")


def _rating(client, name):
    bots = client.get("/v1/bots?limit=200&sort=rating").json["bots"]
    return next(b for b in bots if b["name"] == name)


def test_a_rating_moves_after_rated_deals_only(client, app, run_bots):
    played, away, quitter = _register(client), _register(client), _register(client)
    assert _rating(client, played["name"])["rating"] is None
    _drive(client, app, run_bots, _game(client, played, 11), played)
    first = _rating(client, played["name"])
    assert first["rating"]["deals"] == 1 and first["recent"][0]["rated"] is True
    _drive(client, app, run_bots, _game(client, played, 12), played)
    second = _rating(client, played["name"])["rating"]
    assert second["deals"] == 2 and second["mu"] != first["rating"]["mu"] and second["sigma"] < first["rating"]["sigma"]
    lo, hi = second["interval"]
    assert lo < second["mu"] < hi and abs(second["score"] - (second["mu"] - 3 * second["sigma"])) < 0.01
    # away from the second move on: the deal is played by the fallback, and not rated
    _drive(client, app, run_bots, _game(client, away, 13, bot_budget_ms=100, bot_away_after=1), away, plays=False)
    gone = _rating(client, away["name"])
    assert gone["deals"] == 1 and gone["rating"] is None and gone["recent"][0]["rated"] is False
    assert gone["fallbacks"]["away"] > 0 and gone["recent"][0]["fallbacks"]["away"] > 0
    # resigned: the rest of the game is the fallback's, and not rated
    game = _game(client, quitter, 14)
    assert client.post(f"/v1/bots/games/{game['game_id']}/resign", None, quitter["bot_token"]).status_code == 200
    _drive(client, app, run_bots, game, quitter, plays=False)
    left = _rating(client, quitter["name"])
    assert left["rating"] is None and left["recent"][0]["rated"] is False and left["fallbacks"]["resigned"] > 0


def test_the_leaderboard_ranks_registered_and_built_in_bots(client, app, run_bots):
    bot = _register(client)
    _drive(client, app, run_bots, _game(client, bot, 21), bot)
    r = client.get("/v1/bots/leaderboard?limit=200")
    assert r.status_code == 200
    OAS31Validator({**SPEC["components"]["schemas"]["Leaderboard"], "components": SPEC["components"]}).validate(r.json)
    entries = r.json["entries"]
    assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))
    assert [e["rating"]["score"] for e in entries] == sorted((e["rating"]["score"] for e in entries), reverse=True)
    mine = next(e for e in entries if e["seat"] == bot["seat"])
    assert mine["kind"] == "registered" and mine["deals"] == 1 and mine["fallbacks"]["timeout"] == 0
    builtin = next(e for e in entries if e["seat"] == "random")
    assert builtin["kind"] == "builtin" and builtin["rating"]["deals"] >= 1 and builtin["mean_place"] is None
    for bad in ("limit=0", "limit=201"):
        assert client.get(f"/v1/bots/leaderboard?{bad}").status_code == 400


def test_the_model_rates_places_and_pools_a_players_seats():
    after = new_ratings([None, None, None, None], [1, 2, 3, 4])
    assert [a[0] for a in after] == sorted((a[0] for a in after), reverse=True)
    both = pooled(["x", "y", "x", None], after)
    assert set(both) == {"x", "y"} and both["x"][0] == (after[0][0] + after[2][0]) / 2
