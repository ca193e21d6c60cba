"""Durable bot turns: the owed turn is stored with the move, the reaper re-enqueues a turn whose job is gone or
failed, a retry is claimed once, and however many jobs run for one turn, one move is applied."""
import threading

import pytest
from rq import SimpleWorker

from service.games import GameService
from service.reaper import BotReaper
from service.scheduler import job_id
from workers.jobs import play

HUMAN_LEADS = [["D3"], ["S5", "H5"], ["S9", "HT"], ["SK", "C4"]]  # seat 0 holds D3: it leads


@pytest.fixture
def svc(app):
    return app.extensions["referee.service"]


def game_jobs(queue, gid):
    return sorted(j for j in queue.job_ids if gid in j)


def test_the_owed_bot_turn_is_written_with_the_move(client, svc):
    g = client.create(players=4, bots={1, 2, 3}, hands=HUMAN_LEADS)
    gid, me = g["game_id"], g["seat_tokens"][0]
    assert gid in dict(svc.store.bot_games()), "a game with bot seats is indexed"
    before = svc.store.turn_status([gid])[0]
    assert before.owed is None and before.seq == 0, "the human leads: no bot owes anything"
    r = client.post(f"/v1/games/{gid}/moves", {"seat": 0, "action": "play", "cards": ["D3"]}, me)
    assert r.status_code == 200, r.json
    after = svc.store.turn_status([gid])[0]
    assert after.owed == after.seq == r.json["seq"] and after.tries == 0 and not after.over
    assert game_jobs(svc.scheduler.queue, gid) == [job_id(gid, after.seq)]


def test_a_human_only_game_is_not_indexed(client, svc):
    g = client.create(players=3)
    assert g["game_id"] not in dict(svc.store.bot_games())


def test_a_turn_whose_job_never_reached_the_queue_is_enqueued_by_the_reaper(client, app, svc, run_bots):
    crashed = GameService(svc.store, scheduler=None)  # an API process that died before enqueueing
    g = crashed.create("uecda", [{"name": f"b{i}", "bot": "random"} for i in range(4)], seed=5)
    gid = g["game_id"]
    queue = svc.scheduler.queue
    assert game_jobs(queue, gid) == []
    BotReaper(svc.store, svc.scheduler, grace_s=3600).run_once()
    assert game_jobs(queue, gid) == [], "within the grace period the appender may still enqueue"
    reaper = BotReaper(svc.store, svc.scheduler, grace_s=0)
    reaper.run_once()
    assert game_jobs(queue, gid) == [job_id(gid, 0, 1)]
    reaper.run_once()
    assert game_jobs(queue, gid) == [job_id(gid, 0, 1)], "the retry is waiting in the queue: nothing more to do"
    run_bots()
    state, seq = client.state(gid, g["table_token"])
    assert state["phase"] == "deal_over"
    events = client.get(f"/v1/games/{gid}/events", g["table_token"]).json["events"]
    assert [e["seq"] for e in events] == list(range(seq + 1))
    assert svc.store.turn_status([gid])[0].owed is None


def test_a_failed_job_is_retried_under_a_new_id(client, svc, run_bots, redis_url):
    crashed = GameService(svc.store, scheduler=None)
    g = crashed.create("uecda", [{"name": f"b{i}", "bot": "random"} for i in range(4)], seed=6)
    gid = g["game_id"]
    queue = svc.scheduler.queue
    # a job under the turn's id that fails when it runs
    queue.enqueue("builtins.int", "not a number", job_id=job_id(gid, 0))
    run_bots()
    assert queue.fetch_job(job_id(gid, 0)).get_status() == "failed"
    assert svc.store.turn_status([gid])[0].seq == 0
    BotReaper(svc.store, svc.scheduler, grace_s=0).run_once()
    assert game_jobs(queue, gid) == [job_id(gid, 0, 1)]
    run_bots()
    state, _ = client.state(gid, g["table_token"])
    assert state["phase"] == "deal_over"


def test_a_job_started_by_a_worker_that_is_not_alive_is_retried(client, svc, run_bots):
    g = client.create(players=4, bots={0, 1, 2, 3}, seed=7)
    gid = g["game_id"]
    queue = svc.scheduler.queue
    job = queue.fetch_job(job_id(gid, 0))
    reaper = BotReaper(svc.store, svc.scheduler, grace_s=0)
    # a worker takes the job and dies with it: the job stays "started" under the worker's name
    worker = SimpleWorker([queue], connection=queue.connection)
    svc.scheduler.mark_alive(worker.name, 30)
    with queue.connection.pipeline() as pipe:
        job.prepare_for_execution(worker.name, pipe)
        pipe.execute()
    assert job.get_status() == "started"
    queue.remove(job_id(gid, 0))  # the worker took it off the queue
    reaper.run_once()
    assert game_jobs(queue, gid) == [], "its worker is alive: the job is running"
    svc.scheduler.mark_gone(worker.name)
    reaper.run_once()
    assert game_jobs(queue, gid) == [job_id(gid, 0, 1)]
    run_bots()
    assert client.state(gid, g["table_token"])[0]["phase"] == "deal_over"


def test_a_retry_is_claimed_by_one_reaper_only(client, svc):
    g = client.create(players=4, bots={0, 1, 2, 3}, seed=8)
    gid = g["game_id"]
    assert svc.store.claim_retry(gid, 0, 0)
    assert not svc.store.claim_retry(gid, 0, 0), "a second reaper that saw the same turn loses"
    assert svc.store.turn_status([gid])[0].tries == 1
    assert not svc.store.claim_retry(gid, 1, 1), "no turn is owed at seq 1"


def test_racing_jobs_for_one_turn_apply_one_move(client, svc):
    g = client.create(players=4, bots={0, 1, 2, 3}, seed=9)
    gid = g["game_id"]
    results, start = [], threading.Barrier(4)

    def job():
        start.wait()
        results.append(play(svc, gid, 0)["status"])

    threads = [threading.Thread(target=job) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied", "superseded", "superseded", "superseded"]
    events = client.get(f"/v1/games/{gid}/events", g["table_token"]).json["events"]
    assert [e["seq"] for e in events] == [0, 1]


def test_the_conditional_append_refuses_a_second_write_at_the_same_seq(client, svc):
    g = client.create(players=4, bots={0, 1, 2, 3}, seed=10)
    gid = g["game_id"]
    rec = svc.load(gid)
    state = svc.state_of(rec)
    import referee as engine

    seat = engine.actors(state)[0]
    verdict, new_state, events = engine.apply(state, engine.legal_moves(state, seat)[0])
    assert verdict.legal
    assert svc.store.append(gid, 0, engine.state_to_json(new_state), events).status == "ok"
    assert svc.store.append(gid, 0, engine.state_to_json(new_state), events).status == "stale"
    assert len(svc.store.events(gid)) == 2


def test_the_index_forgets_gone_and_finished_games_but_not_a_new_deal(client, svc, run_bots):
    done = client.create(players=4, bots={0, 1, 2, 3}, seed=11)
    redealt = client.create(players=4, bots={0, 1, 2, 3}, seed=13)
    gone = client.create(players=4, bots={0, 1, 2, 3}, seed=12)
    run_bots()
    svc.store.r.delete(*svc.store.keys(gone["game_id"]))  # expired
    assert {g["game_id"] for g in (done, redealt, gone)} <= set(dict(svc.store.bot_games()))
    # a grace longer than the bots' play can take, however loaded the machine: every entry is within it
    BotReaper(svc.store, svc.scheduler, grace_s=0, index_grace_s=3600).run_once()
    assert {g["game_id"] for g in (done, redealt, gone)} <= set(dict(svc.store.bot_games())), \
        "entries registered within the grace stay (a new deal may be on its way)"
    r = client.post(f"/v1/games/{redealt['game_id']}/deals", None, redealt["table_token"])
    assert r.status_code == 201
    BotReaper(svc.store, svc.scheduler, grace_s=3600, index_grace_s=0).run_once()
    indexed = dict(svc.store.bot_games())
    assert done["game_id"] not in indexed and gone["game_id"] not in indexed
    assert redealt["game_id"] in indexed, "a deal in progress stays"
    run_bots()
    assert client.state(redealt["game_id"], redealt["table_token"])[0]["phase"] == "deal_over"


def test_a_turn_that_keeps_failing_is_given_up_after_max_retries(client, svc, caplog):
    crashed = GameService(svc.store, scheduler=None)
    g = crashed.create("uecda", [{"name": f"b{i}", "bot": "random"} for i in range(4)], seed=14)
    gid = g["game_id"]
    queue = svc.scheduler.queue
    reaper = BotReaper(svc.store, svc.scheduler, grace_s=0, max_retries=1)
    reaper.run_once()
    assert game_jobs(queue, gid) == [job_id(gid, 0, 1)]
    queue.remove(job_id(gid, 0, 1))  # the retry vanished too
    with caplog.at_level("ERROR", logger="service.reaper"):
        reaper.run_once()
        reaper.run_once()
    assert game_jobs(queue, gid) == [], "no retry beyond max_retries"
    assert sum(gid in r.getMessage() for r in caplog.records if r.levelname == "ERROR") == 1, "given up once, logged once"
    client.c.delete(f"/v1/games/{gid}", headers=client.auth(g["table_token"]))


def test_a_bot_job_for_a_deleted_game_does_nothing(client, svc):
    g = client.create(players=4, bots={0, 1, 2, 3}, seed=15)
    assert client.c.delete(f"/v1/games/{g['game_id']}", headers=client.auth(g["table_token"])).status_code == 204
    assert play(svc, g["game_id"], 0)["status"] == "gone"
    svc.scheduler.queue.remove(job_id(g["game_id"], 0))
