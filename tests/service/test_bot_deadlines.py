"""Registered bots' time budget: a turn not answered in time is played by the fallback, exactly once; misses in a
row mark the seat away; the bot comes back by opening its stream or posting a move. Real processes (gunicorn,
`referee worker`, the bot example) on the suite's Redis; every wait is a condition with a deadline."""
from __future__ import annotations

import json
import secrets
import threading
import time

import requests

from referee import instantiate
from tests.procs import free_port, wait_until

from . import test_faults
from .test_faults import ROOT, api_with_bot, bot_jobs_applied_once

fault_env = test_faults.fault_env  # real processes on the suite's Redis, SIGKILLed at the end

WORKER_SEATS = [{"name": f"r{i}", "bot": "greedy"} for i in range(3)]


def _setup(fault_env, worker=True):
    return api_with_bot(fault_env, "slow", worker)


def _new_game(base, bot, seed=5, seat=0, preset="uecda", **options):
    players = WORKER_SEATS[:seat] + [{"name": "remote", "bot": bot["seat"]}] + WORKER_SEATS[seat:]
    r = requests.post(f"{base}/v1/games", json={"preset": preset, "seed": seed, "players": players, **options},
                      timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _events(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}/events", headers=_auth(game["table_token"]), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["events"]


def _moves_of(base, game, seat):
    return [e for e in _events(base, game) if e["type"] == "move" and e["move"]["seat"] == seat]


def _player(base, game, seat):
    r = requests.get(f"{base}/v1/games/{game['game_id']}", headers=_auth(game["table_token"]), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["players"][seat]


def _over(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}/legal-moves?seat=0", headers=_auth(game["table_token"]),
                     timeout=10)
    return r.json()["actors"] == []


def _bot_process(procs, base, bot, name):
    return procs.start(name, [str(ROOT / "examples" / "random_bot.py")], BOT_TOKEN=bot["bot_token"], REFEREE_URL=base)


def test_a_silent_bot_is_played_by_the_fallback_then_marked_away_then_played_at_once(fault_env):
    settings, procs, base, bot = _setup(fault_env)
    game = _new_game(base, bot, bot_budget_ms=300, bot_away_after=2)
    first = _player(base, game, 0)
    assert first["bot"] == bot["seat"] and isinstance(first["away"], bool) and isinstance(first["missed"], int)
    wait_until(lambda: len(_moves_of(base, game, 0)) >= 3, 60, "the remote seat's third fallback move")
    moves = _moves_of(base, game, 0)
    assert [m.get("fallback") for m in moves[:3]] == ["timeout", "timeout", "away"]
    player = _player(base, game, 0)
    assert player["away"] is True and player["missed"] >= 3
    wait_until(lambda: _over(base, game), 60, "the deal to end with the remote seat played by the fallback")
    assert all(m.get("fallback") in ("timeout", "away") for m in _moves_of(base, game, 0))
    _fits("State", requests.get(f"{base}/v1/games/{game['game_id']}", headers=_auth(game["table_token"])).json())
    for event in _events(base, game):
        _fits("Event", event)


def test_the_fallback_passes_where_it_may_and_plays_greedy_where_it_must(fault_env):
    settings, procs, base, bot = _setup(fault_env)
    hands = [["D3", "S9"], ["S4", "H5", "S7"], ["S5", "HT", "S8"], ["SK", "C4", "H8"]]
    may_pass = _new_game(base, bot, preset="uecda", hands=hands, bot_budget_ms=200, bot_away_after=0)
    must_play = _new_game(base, bot, preset="nanko", hands=hands, bot_budget_ms=200, bot_away_after=0)
    wait_until(lambda: _moves_of(base, may_pass, 0) and _moves_of(base, must_play, 0), 60, "the remote seat's first moves")
    passed, played = _moves_of(base, may_pass, 0)[0], _moves_of(base, must_play, 0)[0]
    # the remote seat holds the 3 of diamonds and leads: uecda lets a leader pass, nanko does not
    assert passed["move"]["action"] == "pass" and passed["fallback"] == "timeout", passed
    assert played["move"]["action"] == "play" and played["fallback"] == "timeout", played
    assert played["move"]["cards"] == ["D3"], "greedy leads its weakest card"


def test_a_bot_that_opens_its_stream_is_back_and_answers_itself(fault_env):
    settings, procs, base, bot = _setup(fault_env)
    game = _new_game(base, bot, seed=8, bot_budget_ms=1500, bot_away_after=1)
    wait_until(lambda: _player(base, game, 0)["away"], 60, "the remote seat to be marked away")
    played = len(_moves_of(base, game, 0))
    _bot_process(procs, base, bot, "bot")
    # its stream brought it back: its turns wait for its answers again, and it answers them itself
    wait_until(lambda: any("fallback" not in m for m in _moves_of(base, game, 0)[played:]), 60, "a move the bot made itself")


def test_a_late_post_brings_an_away_bot_back(fault_env):
    settings, procs, base, bot = _setup(fault_env)
    game = _new_game(base, bot, seed=8, bot_budget_ms=300, bot_away_after=1)
    wait_until(lambda: _player(base, game, 0)["away"], 60, "the remote seat to be marked away")
    seq = _seq(base, game)
    r = requests.post(f"{base}/v1/games/{game['game_id']}/moves", headers=_auth(bot["bot_token"]), timeout=10,
                      json={"seat": 0, "action": "pass", "expected_seq": 0})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_seq", r.text
    # away, every fallback says "away"; back, its next missed turn waits for the budget again: "timeout"
    wait_until(lambda: any(m["seq"] > seq and m.get("fallback") == "timeout" for m in _moves_of(base, game, 0)), 60,
               "a fallback for a missed turn after the late post")


def test_a_late_answer_racing_the_fallback_is_applied_at_most_once(fault_env):
    settings, procs, base, bot = _setup(fault_env)
    game = _new_game(base, bot, seed=21, bot_budget_ms=300, bot_away_after=0)
    gid, token = game["game_id"], bot["bot_token"]
    outcomes = []
    for offset_ms in (-40, -10, 0, 10, 30, 60):
        turn = wait_until(lambda: _owed_turn(base, token, gid) or (_over(base, game) and "over"), 60, "the bot's turn or the deal's end")
        if turn == "over":
            break
        seq, left = turn["seq"], turn["time_left_ms"]
        assert 0 <= left <= 300
        move = dict(instantiate(turn["legal_moves"]["moves"][0]), expected_seq=seq)
        time.sleep(max(0.0, (left + offset_ms) / 1000))  # aim at the deadline: the answer races the fallback
        answers = _race(base, gid, token, move, copies=3)
        wait_until(lambda: _seq(base, game) > seq, 30, "the seq to move past the turn")
        event = next(e for e in _events(base, game) if e["seq"] == seq + 1)
        won = [a for a in answers if a[0] == 200]
        assert len(won) <= 1, answers
        assert all(status in (200, 409) for status, _ in answers), answers
        assert all(body["error"]["code"] == "stale_seq" for status, body in answers if status == 409)
        if won:
            assert "fallback" not in event and event["move"]["seat"] == 0
        else:
            assert event["fallback"] == "timeout"
        outcomes.append(bool(won))
        assert sum(1 for e in _events(base, game) if e["seq"] == seq + 1) == 1
    assert outcomes, "the bot never owed a turn"
    wait_until(lambda: _over(base, game), 60, "the deal to end (nothing moves any more)")
    # the worker seats' moves and the fallbacks played for seat 0
    bot_jobs_applied_once(settings, gid, _events(base, game), {1, 2, 3}, by_job=lambda e: bool(e.get("fallback")))


def test_a_deadline_survives_the_worker_being_down_and_the_deadline_index_being_lost(fault_env):
    settings, procs, base, bot = _setup(fault_env, worker=False)
    game = _new_game(base, bot, seed=31, seat=0, bot_budget_ms=200,
                     hands=[["D3", "S9"], ["S4", "H5", "S7"], ["S5", "HT", "S8"], ["SK", "C4", "H8"]])
    from service.redis_conn import connect

    r = connect(settings.redis_url)
    wait_until(lambda: r.zscore(f"{settings.key_prefix}:bot-deadlines", game["game_id"]), 40, "the deadline to be recorded")
    r.delete(f"{settings.key_prefix}:bot-deadlines")  # as if the API died before telling the keepers
    assert _moves_of(base, game, 0) == [], "no worker: nothing plays the turn"
    procs.worker("late-worker")
    wait_until(lambda: _moves_of(base, game, 0), 60, "the reaper to play the owed turn by the fallback")
    assert _moves_of(base, game, 0)[0]["fallback"] == "timeout"


def test_the_stream_sends_the_time_left(fault_env):
    settings, procs, base, bot = _setup(fault_env, worker=False)
    game = _new_game(base, bot, seat=0, bot_budget_ms=60_000,
                     hands=[["D3", "S9"], ["S4", "H5", "S7"], ["S5", "HT", "S8"], ["SK", "C4", "H8"]])
    turn = _owed_turn(base, bot["bot_token"], game["game_id"])
    assert turn["budget_ms"] == 60_000 and 0 < turn["time_left_ms"] <= 60_000
    assert {k: turn["state"]["players"][0][k] for k in ("bot", "away", "missed")} == \
        {"bot": bot["seat"], "away": False, "missed": 0}
    _fits("BotTurn", turn)


def _fits(name, body):
    from openapi_schema_validator import OAS31Validator

    from .test_openapi_bodies import SPEC

    spec = SPEC["components"]
    errors = [e.message for e in OAS31Validator({**spec["schemas"][name], "components": spec}).iter_errors(body)]
    assert not errors, (name, errors[:5])


def _owed_turn(base, token, gid):
    """The turn the bot owes in ``gid`` as its stream sends it (None: none now)."""
    with requests.get(f"{base}/v1/bots/stream?wait=0.2", headers=_auth(token), stream=True, timeout=10) as r:
        assert r.status_code == 200, r.text
        event = None
        for line in r.iter_lines(decode_unicode=True):
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: ") and event == "turn":
                turn = json.loads(line[len("data: "):])
                if turn["game_id"] == gid:
                    return turn
    return None


def _seq(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}", headers=_auth(game["table_token"]), timeout=10)
    return int(r.headers["X-Referee-Seq"])


def _race(base, gid, token, move, copies):
    answers = [None] * copies

    def post(i):
        r = requests.post(f"{base}/v1/games/{gid}/moves", json=move, timeout=10,
                          headers={**_auth(token), "Idempotency-Key": f"race-{move['expected_seq']}-{i}"})
        answers[i] = (r.status_code, r.json())

    threads = [threading.Thread(target=post, args=(i,)) for i in range(copies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_bad_bot_settings_are_a_400_naming_the_setting(client, settings):
    client.post("/v1/bots", {"name": "budgeted"})
    players = [{"name": "remote", "bot": "@budgeted"}] + WORKER_SEATS
    for options, code in [({"bot_budget_ms": 0}, "bad_bot_budget"), ({"bot_budget_ms": 99}, "bad_bot_budget"),
                          ({"bot_budget_ms": settings.bot_budget_max_ms + 1}, "bad_bot_budget"),
                          ({"bot_budget_ms": -5}, "bad_bot_budget"), ({"bot_budget_ms": 2 ** 70}, "bad_bot_budget"),
                          ({"bot_budget_ms": 1.5}, "invalid_request"), ({"bot_budget_ms": "300"}, "invalid_request"),
                          ({"bot_away_after": -1}, "bad_bot_away_after"), ({"bot_away_after": 101}, "bad_bot_away_after"),
                          ({"bot_fallback": "mc"}, "bad_bot_fallback"),
                          ({"bot_fallback": ""}, "bad_bot_fallback")]:
        r = client.post("/v1/games", {"preset": "uecda", "players": players, **options})
        assert r.status_code == 400 and r.json["error"]["code"] == code, (options, r.json)
    r = client.post("/v1/games", {"preset": "uecda", "players": players, "bot_budget_ms": settings.bot_budget_max_ms,
                                  "bot_away_after": 0, "bot_fallback": "greedy"})
    assert r.status_code == 201, r.json


def test_one_keeper_enqueues_one_fallback_job_and_only_after_the_deadline(fault_env):
    from rq import Queue

    from api.app import create_app
    from service.deadlines import DeadlineKeeper
    from service.reaper import BotReaper
    from service.redis_conn import connect
    from service.scheduler import job_id
    from workers.rq_worker import PromptSimpleWorker

    from .helpers import Client

    settings, _ = fault_env  # a prefix and a queue of its own: no other test's deadline is due here
    app = create_app(settings)
    client, svc = Client(app.test_client()), app.extensions["referee.service"]
    client.post("/v1/bots", {"name": "keeper-test"})
    players = [{"name": "remote", "bot": "@keeper-test"}] + [{"name": f"h{i}"} for i in range(3)]
    r = client.post("/v1/games", {"preset": "nanko", "players": players, "bot_budget_ms": 5000,
                                  "hands": [["D3", "S9"], ["S4", "H5"], ["S5", "HT"], ["SK", "C4"]]})
    gid = r.json["game_id"]
    rec = svc.load(gid)
    assert rec.owed == rec.seq == 0 and rec.tries == 0 and rec.deadline is not None
    jobs = lambda: sorted(j for j in svc.scheduler.queue.job_ids if gid in j)  # noqa: E731
    before = [DeadlineKeeper(svc.store, svc.scheduler, clock=lambda: rec.deadline - 0.01) for _ in range(2)]
    assert [k.run_once() for k in before] == [0, 0] and jobs() == []
    BotReaper(svc.store, svc.scheduler, grace_s=0, clock=lambda: rec.deadline - 0.01).run_once()
    assert jobs() == [], "the reaper leaves a registered bot its whole budget"
    after = [DeadlineKeeper(svc.store, svc.scheduler, clock=lambda: rec.deadline + 0.01) for _ in range(3)]
    assert sorted(k.run_once() for k in after) == [0, 0, 1] and jobs() == [job_id(gid, 0, 1)]
    raw = connect(settings.redis_url, decode=False)
    PromptSimpleWorker([Queue(settings.queue_name, connection=raw)], connection=raw).work(burst=True, with_scheduler=False)
    event = client.get(f"/v1/games/{gid}/events?after=0", r.json["table_token"]).json["events"][0]
    assert event["move"] == {"seat": 0, "action": "play", "cards": ["D3"]} and event["fallback"] == "timeout"


def test_the_api_killed_between_the_append_and_the_deadline_loses_no_turn(fault_env):
    import os
    import signal

    from rq.job import Job

    from service.redis_conn import connect
    from service.scheduler import job_id

    from tests.procs import children

    settings, procs = fault_env
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    games = connect(settings.redis_url)
    api = procs.api("api-1", port, REFEREE_FAULT_PAUSE_AFTER_APPEND_S="60")
    bot = requests.post(f"{base}/v1/bots", json={"name": f"gone-{secrets.token_hex(3)}"}, timeout=10).json()
    r = requests.post(f"{base}/v1/games", timeout=10, json={
        "preset": "uecda", "hands": [["D3", "S6"], ["S5", "H5"]], "bot_budget_ms": 300,
        "players": [{"name": "me"}, {"name": "remote", "bot": bot["seat"]}]})
    assert r.status_code == 201, r.text
    game = r.json()
    gid = game["game_id"]
    meta = f"{settings.key_prefix}:{{{gid}}}:meta"

    def move():  # the API appends, then pauses before adding the deadline; it dies in the pause
        try:
            requests.post(f"{base}/v1/games/{gid}/moves", json={"seat": 0, "action": "play", "cards": ["D3"]},
                          headers=_auth(game["seat_tokens"][0]), timeout=90)
        except requests.RequestException:
            pass

    sender = threading.Thread(target=move, daemon=True)
    sender.start()
    wait_until(lambda: games.hget(meta, "seq") == "1", 40, "the move to be appended")
    assert games.hget(meta, "owed") == "1" and games.hget(meta, "deadline"), "the turn and its deadline are stored"
    for pid in children(api.pid):
        os.kill(pid, signal.SIGKILL)
    api.send_signal(signal.SIGKILL)
    api.wait(timeout=10)
    sender.join(timeout=30)
    assert games.zscore(f"{settings.key_prefix}:bot-deadlines", gid) is None, "no keeper heard of the deadline"
    procs.api("api-2", port)
    procs.worker("worker")
    wait_until(lambda: _moves_of(base, game, 1), 60, "the reaper to have the fallback play the turn")
    assert [m.get("fallback") for m in _moves_of(base, game, 1)][:1] == ["timeout"]
    raw = connect(settings.redis_url, decode=False)
    result = wait_until(lambda: Job.fetch(job_id(gid, 1, 1), connection=raw).return_value(), 40, "the fallback job's result")
    assert result["status"] == "applied" and result["fallback"] == "timeout", "the reaper enqueued its one job"


def test_a_game_stored_before_budgets_gets_the_servers_defaults(client, app, settings):
    svc = app.extensions["referee.service"]
    client.post("/v1/bots", {"name": "legacy"})
    r = client.post("/v1/games", {"preset": "uecda", "hands": [["D3", "S6"], ["S5", "H5"]],
                                  "players": [{"name": "me"}, {"name": "remote", "bot": "@legacy"}]})
    gid = r.json["game_id"]
    svc.store.r.hdel(svc.store.key(gid, "meta"), "botcfg")
    svc.snapshots.drop(gid)
    assert svc.load(gid).botcfg == {"budget_ms": settings.bot_budget_ms, "away_after": settings.bot_away_after,
                                    "fallback": "pass"}
    move = client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["D3"]}, r.json["seat_tokens"][0])
    assert move.status_code == 200, move.json
    st = svc.store.turn_status([gid])[0]
    assert st.deadline - st.owed_at >= settings.bot_budget_ms / 1000 - 0.01, "the whole default budget, not 0"
