"""Consent and ownership: seating "@bot" challenges the bot, whose standing policy answers at once or leaves the
challenge to it (accept or decline on its stream); a declined challenge never seats the bot; the creator never
holds a token for a registered bot's seat; a bot may resign. The API on the suite's real Redis and real RQ
workers; the last test runs gunicorn and `referee worker` processes."""
from __future__ import annotations

import dataclasses
import json
import secrets
import time

import requests

from api.app import create_app
from referee import instantiate
from tests.procs import wait_until

from . import test_faults
from .helpers import Client
from .test_faults import api_with_bot
from .test_limits import _error

fault_env = test_faults.fault_env  # real processes on the suite's Redis, SIGKILLed at the end


def _register(client, policy=None):
    bot = client.post("/v1/bots", {"name": f"ch-{secrets.token_hex(4)}"}).json
    if policy is not None:
        r = client.c.put("/v1/bots/policy", json=policy, headers=client.auth(bot["bot_token"]))
        assert r.status_code == 200, r.json
    return bot


def _players(*bots, humans=0, workers=0):
    out = [{"name": f"b{i}", "bot": b["seat"]} for i, b in enumerate(bots)]
    out += [{"name": f"h{i}"} for i in range(humans)] + [{"name": f"w{i}", "bot": "random"} for i in range(workers)]
    return out


def _create(client, players, status=201, **extra):
    r = client.post("/v1/games", {"preset": "uecda", "seed": 3, "players": players, **extra})
    assert r.status_code == status, r.json
    return r.json


def _events(client, bot, last=None):
    headers = {**client.auth(bot["bot_token"]), **({"Last-Event-ID": last} if last else {})}
    text = client.c.get("/v1/bots/stream?wait=0", headers=headers).get_data(as_text=True)
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        if fields:
            out.append((fields["event"], fields["id"], json.loads(fields["data"])))
    return out


def _answer(client, bot, gid, verb, **body):
    return client.post(f"/v1/bots/challenges/{gid}/{verb}", body or None, bot["bot_token"])


def test_a_default_bot_accepts_at_once_and_the_creator_gets_no_token_for_its_seat(client):
    bot = _register(client)
    g = _create(client, _players(bot, humans=3))
    assert g["seat_tokens"][0] is None and all(g["seat_tokens"][1:])
    assert g["challenge"]["status"] == "accepted" and g["challenge"]["bots"] == {bot["seat"]: "accepted"}
    state, _ = client.state(g["game_id"], g["table_token"])
    assert state["challenge"]["status"] == "accepted" and state["players"][0]["bot"] == bot["seat"]
    starts = [data for kind, _, data in _events(client, bot) if kind == "game_start"]
    assert [s["game_id"] for s in starts] == [g["game_id"]] and starts[0]["seat"] == 0


def test_a_standing_policy_declines_at_once_and_no_game_is_created(client, app):
    svc = app.extensions["referee.service"]
    cases = [({"mode": "decline"}, {}, "generic"), ({"presets": ["nanko"]}, {}, "preset"),
             ({"seats": {"min": 5, "max": 6}}, {}, "seats"), ({"budget_ms": {"min": 5000}}, {"bot_budget_ms": 1000}, "too_fast"),
             ({"budget_ms": {"max": 5000}}, {}, "too_slow"), ({"max_games": 0}, {}, "later")]
    for policy, extra, reason in cases:
        bot = _register(client, policy)
        r = client.post("/v1/games", {"preset": "uecda", "seed": 3, "players": _players(bot, humans=3), **extra})
        assert r.status_code == 409 and r.json["error"]["code"] == "challenge_declined", (policy, r.json)
        assert r.json["error"]["declined"] == [{"bot": bot["seat"], "reason": reason}], policy
        assert svc.accounts.games(bot["name"]) == []  # never seated
    capped = _register(client, {"max_games": 1})
    _create(client, _players(capped, humans=3))
    r = client.post("/v1/games", {"preset": "uecda", "players": _players(capped, humans=3)})
    assert r.status_code == 409 and r.json["error"]["declined"][0]["reason"] == "later"


def test_a_manual_challenge_waits_for_the_bots_answer_on_its_stream(client, run_bots):
    bot = _register(client, {"mode": "manual"})
    g = _create(client, _players(bot, workers=3))
    gid, table = g["game_id"], g["table_token"]
    assert g["challenge"]["status"] == "pending" and g["challenge"]["bots"] == {bot["seat"]: "pending"}
    assert run_bots() == 0  # no worker turn while the challenge waits
    human = _create(client, _players(_register(client, {"mode": "manual"}), humans=3),
                    hands=[["S4", "H5"], ["D3", "S9"], ["S5", "HT"], ["SK", "C4"]])  # seat 1, a human, leads
    _error(client.post(f"/v1/games/{human['game_id']}/moves", {"seat": 1, "action": "play", "cards": ["D3"]},
                       human["table_token"]), 409, "challenge_pending")
    got = _events(client, bot)
    challenges = [(mid, data) for kind, mid, data in got if kind == "challenge"]
    assert [d["id"] for _, d in challenges] == [gid] and not [k for k, _, _ in got if k == "turn"]
    assert challenges[0][1]["players"][1] == {"name": "w0", "bot": "random"} and challenges[0][1]["expires_at"] > time.time()
    # a reconnect after the challenge's id sends it again (it is still waiting), and nothing twice
    again = [d["id"] for kind, _, d in _events(client, bot, last=challenges[0][0]) if kind == "challenge"]
    assert again == [gid]
    assert _answer(client, bot, gid, "accept").status_code == 200
    assert _answer(client, bot, gid, "accept").status_code == 200  # the same answer again
    _error(_answer(client, bot, gid, "decline"), 409, "challenge_not_pending")
    assert client.state(gid, table)[0]["challenge"]["status"] == "accepted"
    run_bots()
    assert client.state(gid, table)[1] > 0 or 0 in client.legal(gid, table, 0)["actors"]  # play began
    kinds = [kind for kind, _, _ in _events(client, bot, last=challenges[0][0])]
    assert "game_start" in kinds


def test_a_declined_challenge_never_seats_the_bot(client, app, run_bots):
    svc = app.extensions["referee.service"]
    keen, shy = _register(client), _register(client, {"mode": "manual"})
    g = _create(client, _players(keen, shy, workers=2))
    gid, table = g["game_id"], g["table_token"]
    assert g["challenge"]["bots"] == {keen["seat"]: "accepted", shy["seat"]: "pending"}
    _error(client.post(f"/v1/bots/challenges/{gid}/decline", {"reason": "rude"}, shy["bot_token"]), 400, "bad_reason")
    r = _answer(client, shy, gid, "decline", reason="too_slow")
    assert r.status_code == 200 and r.json["challenge"]["status"] == "declined", r.json
    assert r.json["challenge"]["by"] == shy["seat"] and r.json["challenge"]["reason"] == "too_slow"
    assert run_bots() == 0
    state, seq = client.state(gid, table)
    assert seq == 0 and state["challenge"]["status"] == "declined"
    move = instantiate(client.legal(gid, table, 2)["moves"][0])
    _error(client.post(f"/v1/games/{gid}/moves", dict(move, seat=2), table), 409, "challenge_declined")
    _error(client.post(f"/v1/games/{gid}/deals", None, table), 409, "deal_not_over")
    assert gid not in svc.accounts.games(shy["name"])  # it never sat there
    assert not [k for k, _, _ in _events(client, shy) if k in ("turn", "game_start")]
    ends = [d for k, _, d in _events(client, keen, last="0-0") if k == "game_end"]
    assert [(e["game_id"], e["reason"]) for e in ends] == [(gid, "declined")]
    _error(_answer(client, shy, gid, "accept"), 409, "challenge_not_pending")
    _error(_answer(client, keen, "ab" * 12, "accept"), 404, "unknown_challenge")


def test_an_unanswered_challenge_expires(settings):
    s = dataclasses.replace(settings, key_prefix=f"{settings.key_prefix}:exp{secrets.token_hex(3)}", challenge_timeout_s=0.3)
    app = create_app(s)
    client = Client(app.test_client())
    bot = _register(client, {"mode": "manual"})
    g = _create(client, _players(bot, humans=3))
    wait_until(lambda: client.state(g["game_id"], g["table_token"])[0]["challenge"]["status"] == "expired", 10,
               "the challenge to expire")
    assert not [k for k, _, _ in _events(client, bot) if k == "challenge"]  # no longer offered
    _error(_answer(client, bot, g["game_id"], "accept"), 409, "challenge_expired")
    assert client.state(g["game_id"], g["table_token"])[0]["challenge"]["status"] == "declined"


def test_a_bot_resigns_and_the_fallback_plays_its_seat(client, app):
    from rq import Queue

    from service.deadlines import DeadlineKeeper
    from service.redis_conn import connect
    from workers.rq_worker import PromptSimpleWorker

    svc = app.extensions["referee.service"]
    bot = _register(client)
    hands = [["D3", "S9", "H9"], ["S4", "H5", "S7"], ["S5", "HT", "S8"], ["SK", "C4", "H8"]]
    g = _create(client, _players(bot, humans=3), hands=hands, bot_budget_ms=60_000)
    gid, token = g["game_id"], bot["bot_token"]
    _error(client.post(f"/v1/bots/games/{'cd' * 12}/resign", None, token), 404, "unknown_game")
    r = client.post(f"/v1/bots/games/{gid}/resign", None, token)
    assert r.status_code == 200 and r.json == {"game_id": gid, "seat": 0, "resigned": True}
    assert client.post(f"/v1/bots/games/{gid}/resign", None, token).status_code == 200  # once is enough
    rec = svc.load(gid)
    assert rec.deadline is not None and rec.deadline <= time.time() + 1, "the turn owed now falls to the fallback at once"
    _error(client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["D3"]}, token), 409, "resigned")
    assert DeadlineKeeper(svc.store, svc.scheduler).run_once() >= 1  # the suite's other due turns too
    raw = connect(svc.settings.redis_url, decode=False)
    PromptSimpleWorker([Queue(svc.settings.queue_name, connection=raw)], connection=raw).work(burst=True, with_scheduler=False)
    event = client.get(f"/v1/games/{gid}/events?after=0", g["table_token"]).json["events"][0]
    assert event["move"]["seat"] == 0 and event["fallback"] == "resigned"
    player = client.state(gid, g["table_token"])[0]["players"][0]
    assert player["resigned"] is True and player["fallbacks"] == {"timeout": 0, "away": 0, "resigned": 1}
    ends = [d for k, _, d in _events(client, bot, last="0-0") if k == "game_end"]
    assert [(e["game_id"], e["reason"]) for e in ends] == [(gid, "resigned")]


def test_policy_and_account_endpoints(client):
    bot = _register(client)
    token = bot["bot_token"]
    me = client.get("/v1/bots/me", token).json
    assert me["name"] == bot["name"] and me["policy"]["mode"] == "accept" and me["games"] == [] and me["status"] == "active"
    for bad in ({"mode": "maybe"}, {"presets": "uecda"}, {"seats": {"min": 5, "max": 2}}, {"max_games": -1},
                {"budget_ms": {"min": "1"}}, {"seats": [2, 3]}):
        r = client.c.put("/v1/bots/policy", json=bad, headers=client.auth(token))
        assert r.status_code == 400 and r.json["error"]["code"] == "bad_policy", (bad, r.json)
    r = client.c.put("/v1/bots/policy", json={"nope": 1}, headers=client.auth(token))
    assert r.status_code == 400
    r = client.c.put("/v1/bots/policy", json={"mode": "manual", "max_games": 3}, headers=client.auth(token))
    assert r.json == {"mode": "manual", "presets": None, "seats": None, "budget_ms": None, "max_games": 3}
    assert client.get("/v1/bots/policy", token).json == r.json
    g = _create(client, _players(bot, humans=3))
    assert client.get("/v1/bots/me", token).json["games"] == [{"game_id": g["game_id"], "seat": 0, "status": "pending",
                                                               "seq": 0}]
    _error(client.get("/v1/bots/me"), 401, "missing_token")
    _error(client.get("/v1/bots/me", g["table_token"]), 401, "invalid_token")


def test_with_real_processes_a_declined_challenge_never_seats_the_bot_and_the_table_token_gets_403(fault_env):
    settings, procs, base, bot = api_with_bot(fault_env, "consent")
    auth = {"Authorization": f"Bearer {bot['bot_token']}"}
    assert requests.put(f"{base}/v1/bots/policy", json={"mode": "manual"}, headers=auth, timeout=10).status_code == 200
    players = [{"name": "bot", "bot": bot["seat"]}] + [{"name": f"r{i}", "bot": "random"} for i in range(3)]
    games = [requests.post(f"{base}/v1/games", json={"preset": "uecda", "players": players}, timeout=10).json()
             for _ in range(2)]
    declined, accepted = games
    assert declined["seat_tokens"][0] is None and declined["challenge"]["status"] == "pending"
    # the bot reads its challenges on its stream and answers them
    seen = {}
    with requests.get(f"{base}/v1/bots/stream?wait=1", headers=auth, stream=True, timeout=20) as r:
        event = None
        for line in r.iter_lines(decode_unicode=True):
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "challenge":
                seen[json.loads(line[6:])["id"]] = True
    assert set(seen) == {declined["game_id"], accepted["game_id"]}
    r = requests.post(f"{base}/v1/bots/challenges/{declined['game_id']}/decline", json={"reason": "later"}, headers=auth,
                      timeout=10)
    assert r.status_code == 200 and r.json()["challenge"]["status"] == "declined"
    assert requests.post(f"{base}/v1/bots/challenges/{accepted['game_id']}/accept", headers=auth, timeout=10).status_code == 200

    def owed(game):
        r = requests.get(f"{base}/v1/games/{game['game_id']}/legal-moves?seat=0", timeout=10,
                         headers={"Authorization": f"Bearer {game['table_token']}"})
        return r.json()

    # the accepted game plays up to the bot's seat: the table token may not move there, the bot may
    wait_until(lambda: 0 in owed(accepted)["actors"], 60, "the accepted game to reach the bot's seat")
    move = dict(instantiate(owed(accepted)["moves"][0]), expected_seq=owed(accepted)["seq"])
    r = requests.post(f"{base}/v1/games/{accepted['game_id']}/moves", json=move, timeout=10,
                      headers={"Authorization": f"Bearer {accepted['table_token']}"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bot_seat", r.text
    assert requests.post(f"{base}/v1/games/{accepted['game_id']}/moves", json=move, headers=auth, timeout=10).status_code == 200
    # the declined game never moved, and the bot never owed anything there
    state = requests.get(f"{base}/v1/games/{declined['game_id']}", timeout=10,
                         headers={"Authorization": f"Bearer {declined['table_token']}"})
    assert state.headers["X-Referee-Seq"] == "0" and state.json()["challenge"]["status"] == "declined"
    with requests.get(f"{base}/v1/bots/stream?wait=0.5", headers=auth, stream=True, timeout=20) as r:
        text = r.text
    assert declined["game_id"] not in text
