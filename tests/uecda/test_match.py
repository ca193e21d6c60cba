"""Five ``uecda-client`` bots against ``uecda-server``: a whole match, judged on both sides, replayable."""
from __future__ import annotations

import threading

import referee
from uecda.client import run_client
from uecda.match import MatchLog

from .conftest import ServerThread


def play_match(srv, bots, seeds=None):
    results = [None] * len(bots)

    def run(i):
        results[i] = run_client("127.0.0.1", srv.port, bots[i], name=f"{bots[i]}{i}", seed=i)

    threads = []
    for i in range(len(bots)):   # connect in order, so that client i is player i
        th = threading.Thread(target=run, args=(i,), daemon=True)
        th.start()
        threads.append(th)
        deadline_wait_for_players(srv, i + 1)
    summary = srv.join(120)
    for th in threads:
        th.join(30)
    return summary, results


def deadline_wait_for_players(srv, n, timeout=10.0):
    """Wait until the server has accepted ``n`` players (its accept order is the player order)."""
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if srv.accepted() >= n:
            return
        time.sleep(0.005)  # polling a counter the server thread updates; no event to wait on
    raise AssertionError(f"the server did not accept player {n - 1}")


def test_five_clients_play_a_match_with_seat_changes_resets_and_exchanges(start_server, service):
    # 4 games: random seats at games 1 and 4, class resets at games 1 and 3, exchanges at games 2 and 4
    srv = start_server(games=4, seed=5, reset_every=2)
    summary, results = play_match(srv, ["random", "random", "greedy", "random", "random"])
    assert all(r["completed"] for r in results), results
    assert [r["player"] for r in results] == [0, 1, 2, 3, 4]
    assert all(r["games"] == 4 for r in results)
    assert sum(r["disagreements"] for r in results) == 0, [r["details"] for r in results]
    assert all(r["moves_judged"] > 0 for r in results)
    assert summary["faults"] == 0 and summary["rejected_plays"] == 0
    assert sum(p["points"] for p in summary["players"]) == 4 * 15
    assert all(sum(p["classes"]) == 4 for p in summary["players"])
    gid = summary["game_id"]
    events = service.store.events(gid)
    state = referee.replay(events)
    stored = service.state_of(service.load(gid))
    assert referee.state_to_json(state) == referee.state_to_json(stored)
    assert state.deal == 4
    entries = MatchLog.read(service.store, gid)
    starts = [e for e in entries if e["type"] == "game_start"]
    assert [e["reset"] for e in starts] == [True, False, True, False]
    assert [bool(e["exchange"]) for e in starts] == [False, True, False, True]
    assert starts[1]["seating"] == starts[0]["seating"] and starts[2]["seating"] == starts[0]["seating"]
    results_ = [e for e in entries if e["type"] == "game_result"]
    assert [e["game"] for e in results_] == [1, 2, 3, 4]
    assert results_[-1]["totals"] == [p["points"] for p in summary["players"]]
    assert entries[-1]["type"] == "match"
    # the game can be read like any other: every deal's moves are in the log with their verdicts
    view = service.view(stored, "table")
    assert view["deal"] == 4 and view["phase"] == "deal_over"
    assert all(e["verdict"]["legal"] for e in events if e["type"] == "move")


def test_our_bots_can_take_seats_in_process(start_server, service):
    srv = start_server(seats=["human", "mc", "greedy", "human", "random"], games=2, seed=2)
    results = [None, None]

    def run(i):
        results[i] = run_client("127.0.0.1", srv.port, "random", seed=i)

    a = threading.Thread(target=run, args=(0,), daemon=True)
    a.start()
    deadline_wait_for_players(srv, 1)
    b = threading.Thread(target=run, args=(1,), daemon=True)
    b.start()
    summary = srv.join(120)
    a.join(30)
    b.join(30)
    assert [r["player"] for r in results] == [0, 3]
    assert all(r["completed"] and r["disagreements"] == 0 for r in results)
    assert [p["name"] for p in summary["players"]][1:3] == ["mc1", "greedy2"]
    assert summary["faults"] == 0
    referee.replay(service.store.events(summary["game_id"]))


def test_a_match_of_our_bots_alone_is_an_ordinary_game_of_the_http_api(uecda_redis_url, service):
    """No TCP client at all: five in-process bots; the stored match reads back through the HTTP API."""
    import tempfile

    from api.app import create_app
    from service.settings import Settings

    import io
    printed = io.StringIO()
    srv = ServerThread(service, ["random"] * 5, games=2, seed=9, out=printed).start()
    summary = srv.join(60)
    first, *games = printed.getvalue().splitlines()
    assert first.startswith(f"uecda: game {summary['game_id']} table token tbl_")
    assert [g.split(":")[0] for g in games] == ["game 1", "game 2"]
    assert summary["games"] == 2 and summary["faults"] == 0
    token = next(e for e in MatchLog.read(service.store, summary["game_id"]) if e["type"] == "match_start")
    assert token["players"][0] == {"player": 0, "name": "random0", "remote": False}
    settings = Settings(redis_url=uecda_redis_url, data_dir=tempfile.mkdtemp(), key_prefix=service.store.prefix,
                        queue_name="unused")
    http = create_app(settings).test_client()
    gid = summary["game_id"]
    auth = {"Authorization": f"Bearer {first.rsplit(' ', 1)[1]}"}
    r = http.get(f"/v1/games/{gid}", headers=auth)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["deal"] == 2 and r.get_json()["phase"] == "deal_over"
    events = http.get(f"/v1/games/{gid}/events", headers=auth).get_json()["events"]
    assert sum(e["type"] == "move" for e in events) > 0
    assert http.get(f"/v1/games/{gid}", headers={"Authorization": "Bearer nope"}).status_code == 401
    match_key = service.store.key(gid, "match")
    assert service.store.r.ttl(match_key) > 0, "the match log expires with the game"
    assert http.delete(f"/v1/games/{gid}", headers=auth).status_code == 204
    assert not service.store.r.exists(match_key), "and is deleted with it"
