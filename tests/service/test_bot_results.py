"""A registered bot's recent results: kept when a deal it sits in ends, listed by the public GET /v1/bots with an
all-time summary, never with a token."""
import json
import random
import secrets

from openapi_schema_validator import OAS31Validator

from referee.scoring import uecda_points
from service.bot_accounts import RESULTS_MAX

from .helpers import play_random_game
from .test_openapi_bodies import SPEC


def _register(client):
    r = client.post("/v1/bots", {"name": f"res-{secrets.token_hex(4)}"})
    assert r.status_code == 201, r.json
    return r.json


def _listed(client, name, **query):
    q = "&".join(f"{k}={v}" for k, v in {"limit": 200, **query}.items())
    r = client.get(f"/v1/bots?{q}")
    assert r.status_code == 200, r.json
    OAS31Validator({**SPEC["components"]["schemas"]["BotList"], "components": SPEC["components"]}).validate(r.json)
    return next(b for b in r.json["bots"] if b["name"] == name), r.json


def test_a_finished_deal_is_kept_in_the_seated_bots_recent_results(client):
    bot = _register(client)
    listed, _ = _listed(client, bot["name"])
    assert listed["deals"] == 0 and listed["recent"] == [] and listed["mean_place"] is None
    players = [{"name": "b", "bot": bot["seat"]}] + [{"name": f"h{i}"} for i in range(3)]
    game = client.post("/v1/games", {"preset": "uecda", "seed": 7, "players": players}).json
    rng = random.Random(7)
    places = []
    for deal in (1, 2):
        if deal == 2:
            assert client.post(f"/v1/games/{game['game_id']}/deals", None, game["table_token"]).status_code == 201
        play_random_game(client, game, rng, movers={0: bot["bot_token"]})  # the bot plays its seat, the table the rest
        state, _ = client.state(game["game_id"], game["table_token"])
        places.append(state["players"][0]["place"])
    listed, whole = _listed(client, bot["name"])
    assert whole["bots"][0]["name"] == bot["name"]  # most recently active first
    assert listed["deals"] == 2 and listed["mean_place"] == sum(places) / 2
    assert listed["points"] == sum(uecda_points(p, 4) for p in places)
    assert [(r["game_id"], r["deal"], r["place"], r["seat"], r["seats"], r["preset"]) for r in listed["recent"]] == \
        [(game["game_id"], d, places[d - 1], 0, 4, "uecda") for d in (2, 1)]
    assert all(r["points"] == uecda_points(r["place"], 4) for r in listed["recent"])
    assert bot["bot_token"] not in json.dumps(whole) and "token" not in json.dumps(whole)
    one, _ = _listed(client, bot["name"], recent=1)
    assert len(one["recent"]) == 1 and one["deals"] == 2


def test_a_deal_is_counted_once_and_the_list_is_capped(app, client):
    bot = _register(client)
    accounts = app.extensions["referee.service"].accounts
    assert accounts.record_result(bot["name"], "ab12", 1, "uecda", 0, 4, 1)
    assert not accounts.record_result(bot["name"], "ab12", 1, "uecda", 0, 4, 1)  # a retried write
    for deal in range(2, RESULTS_MAX + 5):
        accounts.record_result(bot["name"], "ab12", deal, "uecda", 0, 4, 4)
    listed, _ = _listed(client, bot["name"], recent=50)
    assert listed["deals"] == RESULTS_MAX + 4 and len(listed["recent"]) == RESULTS_MAX
    assert listed["recent"][0]["deal"] == RESULTS_MAX + 4


def test_the_listing_refuses_bad_queries(client):
    for q in ("limit=0", "limit=201", "recent=51", "recent=x"):
        r = client.get(f"/v1/bots?{q}")
        assert r.status_code == 400 and r.json["error"]["code"] == "invalid_request", q
