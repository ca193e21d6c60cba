"""Bot seats under load: a turn that waited in the queue searches for what is left of its budget, and new games
with bot seats are refused while owed turns wait too long. Decisions are checked with injected times."""
from __future__ import annotations

import secrets
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from rq.job import Job

from api.app import create_app
from service.redis_conn import connect
from service.scheduler import BotScheduler, job_id
from tests.redis_support import cleanup
from service.backpressure import remaining_ms
from workers import bots, jobs

from .helpers import Client

FULL_MS = bots.get("mc").budget_ms
MC_TABLE = [{"name": f"mc{i}", "bot": "mc"} for i in range(4)]


def owed_game(client, service, seed: int) -> tuple[str, int]:
    r = client.post("/v1/games", {"preset": "nanko", "seed": seed, "players": MC_TABLE})
    assert r.status_code == 201, r.json
    gid, seq = r.json["game_id"], r.json["seq"]
    assert service.store.turn_status([gid])[0].owed == seq
    service.scheduler.queue.remove(job_id(gid, seq))  # the test plays this turn itself
    return gid, seq


def owed_since(service, gid: str, seconds_ago: float, now: float) -> None:
    service.store.r.hset(service.store._meta(gid), "owed_at", now - seconds_ago)


@pytest.mark.parametrize("waited_s, backlog, budget_ms", [
    (0.0, (0, 2), FULL_MS),
    (0.15, (0, 2), FULL_MS - 150),
    (5.0, (0, 2), 0.0),
    (0.0, (4, 2), FULL_MS / 3),          # two more turns per worker queued behind it: a third of the budget
    (0.05, (1, 1), (FULL_MS - 50) / 2),
])
def test_a_waited_turn_plays_with_what_is_left_of_its_budget(app, client, settings, waited_s, backlog, budget_ms):
    service = app.extensions["referee.service"]
    now = 1_900_000_000.0
    gid, seq = owed_game(client, service, seed=3)
    owed_since(service, gid, waited_s, now)
    out = jobs.play_owed(service, gid, seq, settings, clock=lambda: now, backlog=backlog)
    assert out["status"] == "applied"
    assert out["budget_ms"] == pytest.approx(budget_ms, abs=0.01)
    assert out["owed_for_s"] == pytest.approx(waited_s, abs=1e-5)


def test_a_turn_with_no_budget_left_plays_greedy_and_a_partial_one_a_shorter_search():
    full, _ = jobs.bot_within("mc", FULL_MS, FULL_MS, None)
    partial, given = jobs.bot_within("mc", 40.0, FULL_MS, None)
    spent, nothing = jobs.bot_within("mc", 0.0, FULL_MS, None)
    assert full.budget_ms == FULL_MS
    assert (partial.budget_ms, given) == (40.0, 40.0)
    assert (spent, nothing) == (bots.get("greedy"), 0.0)
    assert remaining_ms(200.0, owed_at=100.0, now=100.05) == pytest.approx(150.0)
    assert remaining_ms(200.0, owed_at=100.0, now=107.0) == 0.0


@pytest.fixture
def busy_app(redis_url, settings):
    tag = secrets.token_hex(4)
    own = replace(settings, key_prefix=f"referee-test-busy-{tag}", queue_name=f"referee-test-busy-{tag}",
                  data_dir=tempfile.mkdtemp(), bots_busy_wait_s=2.0)
    app = create_app(own)
    app.config["TESTING"] = True
    yield app, own
    cleanup(redis_url, own.key_prefix, own.queue_name)


def test_new_bot_games_get_503_bots_busy_while_owed_turns_wait_too_long(busy_app, redis_url):
    app, own = busy_app
    client = Client(app.test_client())
    raw = connect(redis_url, decode=False)
    scheduler = BotScheduler(raw, own.queue_name, own.key_prefix)
    late = Job.fetch(scheduler.schedule("0" * 24, 7), connection=raw)
    late.enqueued_at = datetime.utcnow() - timedelta(seconds=30)  # owed 30 s ago and still queued
    late.save()
    assert scheduler.backlog()[0] == 1

    r = client.post("/v1/games", {"preset": "nanko", "seed": 1, "players": [{"name": "me"}, *MC_TABLE[1:]]})
    assert r.status_code == 503, r.json
    assert r.json["error"]["code"] == "bots_busy" and r.json["error"]["message"]
    assert int(r.headers["Retry-After"]) >= 30

    humans = client.post("/v1/games", {"preset": "nanko", "seed": 1, "players": [{"name": f"p{i}"} for i in range(4)]})
    assert humans.status_code == 201, humans.json


def test_new_bot_games_get_503_while_the_queued_searches_would_make_their_first_turn_late(busy_app, redis_url):
    """Real games of four `mc` seats queued for one worker (none registered counts as one): the first bot turn of
    a new game would wait behind their searches past its budget. Behind as many quick turns it is let in."""
    app, own = busy_app
    client = Client(app.test_client())
    service = app.extensions["referee.service"]
    scheduler = BotScheduler(connect(redis_url, decode=False), own.queue_name, own.key_prefix)
    assert scheduler.workers() == 0
    created_from = time.time()
    service.bot_gate.wall = lambda: created_from  # the gate looks as the games are made, however slow the machine
    for seed in range(3):
        r = client.post("/v1/games", {"preset": "nanko", "seed": seed, "players": MC_TABLE})
        assert r.status_code == 201, r.json
        service.bot_gate._let_in.clear()  # these were queued before the look below, not let in since
    service.bot_gate._looked_at = float("-inf")  # look again now, not a quarter second later

    r = client.post("/v1/games", {"preset": "nanko", "seed": 9, "players": MC_TABLE})
    assert r.status_code == 503, r.json
    assert r.json["error"]["code"] == "bots_busy" and int(r.headers["Retry-After"]) >= 1
    assert "budget" in r.json["error"]["message"] and "3 owed bot turns" in r.json["error"]["message"]

    scheduler.queue.empty()
    service.bot_gate._looked_at = float("-inf")
    randoms = [{"name": f"r{i}", "bot": "random"} for i in range(4)]
    for seed in range(3):
        assert client.post("/v1/games", {"preset": "nanko", "seed": seed, "players": randoms}).status_code == 201
        service.bot_gate._let_in.clear()
    service.bot_gate._looked_at = float("-inf")
    assert client.post("/v1/games", {"preset": "nanko", "seed": 9, "players": randoms}).status_code == 201


def test_the_expected_wait_plays_the_queue_as_the_workers_do():
    from service.backpressure import JOB_OVERHEAD_MS, expected_wait_s, price

    now, budget = 1000.0, 200.0
    mc, quick = price(["mc", "mc"], now), price(["random", "greedy"], now)
    assert expected_wait_s([], 2, now, budget) == 0.0
    assert expected_wait_s([quick] * 6, 2, now, budget) * 1000 < budget  # 6 quick turns for 2 workers: within
    assert expected_wait_s([mc] * 6, 2, now, budget) * 1000 > budget     # 6 searches for 2 workers: late
    # a search that waited its whole budget away costs only the job itself (it plays greedy at once)
    stale = price(["mc"], now - 1.0)
    assert expected_wait_s([stale], 1, now, budget) * 1000 == pytest.approx(JOB_OVERHEAD_MS)
    # more workers drain the same queue sooner
    assert expected_wait_s([mc] * 20, 4, now, budget) < expected_wait_s([mc] * 20, 2, now, budget)


def test_metrics_export_the_bot_turn_latency_and_the_queue(client, app):
    text = client.get("/metrics").data.decode()
    assert "referee_bot_queue_depth " in text
    assert "referee_bot_queue_oldest_wait_seconds " in text
    assert "referee_bot_turn_latency_seconds" in text


class _QuietQueue:
    """What the gate reads of the queue: empty, no worker registered yet."""

    def queued_turns(self, limit):
        return 0, []

    def workers(self):
        return 0


def test_a_burst_of_creates_between_two_looks_at_the_queue_cannot_all_pass():
    from service.backpressure import LOOK_EVERY_S, BotGate
    from service.errors import BotsBusy

    now = [0.0]
    gate = BotGate(_QuietQueue(), lambda gids: {}, wait_s=0.2, budget_ms=200.0, workers_started=2,
                   clock=lambda: now[0], wall=lambda: 1000.0)
    let_in = 0
    with pytest.raises(BotsBusy):
        while True:
            gate.check(["mc", "mc", "mc"])  # each game let in counts as one more owed turn until the next look
            let_in += 1
    assert 4 < let_in < 20  # more than the two turns per worker a count of turns let in; a bounded burst still
    now[0] += LOOK_EVERY_S
    gate.check(["mc"])  # the queue, looked at again, is still empty


def test_the_gate_counts_the_workers_serve_started_before_they_register():
    from service.backpressure import BotGate

    def let_in(started: int) -> int:
        gate = BotGate(_QuietQueue(), lambda gids: {}, wait_s=0.2, budget_ms=200.0, workers_started=started,
                       clock=lambda: 0.0, wall=lambda: 1000.0)
        n = 0
        try:
            while n < 100:
                gate.check(["mc"])
                n += 1
        except Exception:  # noqa: BLE001 - BotsBusy ends the count
            pass
        return n

    assert let_in(4) > let_in(1)


def test_the_service_prices_mc_turns_with_the_mc_bots_own_default_budget():
    from service.settings import MC_DEFAULT_BUDGET_MS

    assert MC_DEFAULT_BUDGET_MS == bots.get("mc").budget_ms


class _OneTurnQueue:
    """One `greedy` turn queued since ``owed_at``; no worker registered yet."""

    def __init__(self, owed_at: float):
        self.owed_at = owed_at

    def queued_turns(self, limit):
        return 1, [("0" * 24, self.owed_at)]

    def workers(self):
        return 0


def test_the_gate_counts_the_wait_its_look_saw_not_the_time_since():
    """A look at the queue is up to LOOK_EVERY_S old and the turns it saw may have been played since: a turn that
    had waited 0.1 s when seen is not late 0.2 s later, one that had waited 0.3 s is."""
    from service.backpressure import LOOK_EVERY_S, BotGate
    from service.errors import BotsBusy

    now = [1000.0]

    def gate(waited_s: float) -> BotGate:
        return BotGate(_OneTurnQueue(now[0] - waited_s), lambda gids: {gid: ["greedy"] for gid in gids}, wait_s=0.2,
                       budget_ms=200.0, workers_started=2, clock=lambda: now[0], wall=lambda: now[0])

    fresh, late = gate(0.1), gate(0.3)
    fresh.look()
    late.look()
    now[0] += 0.2
    assert 0.2 < LOOK_EVERY_S  # no new look before the checks
    fresh.check(["mc"])
    with pytest.raises(BotsBusy, match="has waited 0.3 s"):
        late.check(["mc"])
