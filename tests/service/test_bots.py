"""Bot seats are played by real RQ workers through the same conditional append."""
import pytest

from referee import instantiate
from workers.bots import names
from service.scheduler import job_id


@pytest.mark.parametrize("preset", ["uecda", "nanko", "gekifugo"])
def test_four_random_bots_finish_a_deal(client, run_bots, preset):
    g = client.create(preset=preset, players=4, bots={0, 1, 2, 3}, seed=31)
    gid, t = g["game_id"], g["table_token"]
    run_bots()
    state, seq = client.state(gid, t)
    assert state["phase"] == "deal_over", state
    probe = client.legal(gid, t, 0)
    assert probe["actors"] == [] and probe["seq"] == seq
    events = client.get(f"/v1/games/{gid}/events", t).json["events"]
    assert [e["seq"] for e in events] == list(range(seq + 1))
    rejected = client.get(f"/v1/games/{gid}/events?include_rejected=true", t).json["events"]
    assert all(e["type"] != "rejected" for e in rejected), "a bot chose a move the engine rejected"


def test_next_deal_and_bots_go_on(client, run_bots):
    g = client.create(players=4, bots={0, 1, 2, 3}, seed=41)
    gid, t = g["game_id"], g["table_token"]
    r = client.post(f"/v1/games/{gid}/deals", {}, t)
    assert r.status_code == 409 and r.json["error"]["code"] == "deal_not_over"
    run_bots()
    assert client.post(f"/v1/games/{gid}/deals", {"hands": [["S3"]]}, g["seat_tokens"][0]).status_code == 403
    r = client.post(f"/v1/games/{gid}/deals", None, t)  # the body is optional
    assert r.status_code == 201, r.json
    seq = r.json["seq"]
    run_bots()
    state, now = client.state(gid, t)
    assert state["phase"] == "deal_over" and now > seq


def test_a_human_seat_waits_for_its_turn(client, run_bots):
    g = client.create(players=4, bots={1, 2, 3}, seed=51)
    gid, me = g["game_id"], g["seat_tokens"][0]
    for _ in range(200):
        run_bots()
        mine = client.legal(gid, me, 0)
        if not mine["actors"]:
            break
        assert mine["actors"] == [0], "bots left a bot seat to act"
        r = client.post(f"/v1/games/{gid}/moves", dict(instantiate(mine["moves"][0]), expected_seq=mine["seq"]), me)
        assert r.status_code == 200, r.json
    state, _ = client.state(gid, g["table_token"])
    assert state["phase"] == "deal_over"


def test_a_bot_turn_is_enqueued_once_and_applied_once(client, app, run_bots):
    from service.reaper import BotReaper
    from workers.jobs import play

    g = client.create(players=4, bots={0, 1, 2, 3}, seed=61)
    gid = g["game_id"]
    svc = app.extensions["referee.service"]
    queue = svc.scheduler.queue
    assert [j for j in queue.job_ids if gid in j] == [job_id(gid, 0)]
    # a reaper finds the turn's job waiting: it enqueues nothing more
    BotReaper(svc.store, svc.scheduler, grace_s=0).run_once()
    assert [j for j in queue.job_ids if gid in j] == [job_id(gid, 0)]
    # the job run twice for the same seq plays once
    assert play(svc, gid, 0)["status"] == "applied"
    assert play(svc, gid, 0)["status"] == "superseded"
    assert client.state(gid, g["table_token"])[1] == 1
    run_bots()


def test_unknown_bot_names(client):
    assert "random" in names()
    r = client.post("/v1/games", {"preset": "uecda", "players": [{"name": "a", "bot": "x"}] * 4})
    assert r.status_code == 400 and r.json["error"]["code"] == "unknown_bot"
