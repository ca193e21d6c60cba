"""Games on a real 3-master Redis Cluster (REDIS_CLUSTER_NODES), the bot queue on a plain Redis (REDIS_URL):
two API processes and two workers play bot games to the end."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest
import redis
import requests
from redis.cluster import RedisCluster

from referee import instantiate
from tests.cluster_support import Servers, binaries
from tests.procs import Serve, serve_env, wait_until

pytestmark = pytest.mark.skipif(binaries() is None, reason="no redis-server/redis-cli binary to start a local cluster")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    root = tmp_path_factory.mktemp("cluster")
    servers = Servers(str(root))
    started, workers = [], []
    try:
        nodes = servers.cluster()
        queue = servers.plain()
        # six bot games at once, before the workers have registered: no back-pressure (tests/service/test_load.py)
        env = serve_env(None, REDIS_URL=queue, REDIS_CLUSTER_NODES=nodes, REFEREE_SNAPSHOT_EVERY="10",
                        REFEREE_BOTS_BUSY_WAIT_S="0")
        for i in range(2):
            started.append(Serve(env, root / f"api{i}.log", "--no-worker", "--http-workers", "1"))
        for i in range(2):
            log = open(root / f"worker{i}.log", "ab")
            workers.append(subprocess.Popen([sys.executable, "-m", "cli", "worker"], env=env, stdout=log, stderr=log))
        for s in started:
            s.healthy()
        yield {"apis": [s.base for s in started], "nodes": nodes, "queue": queue, "workers": workers}
    finally:
        for s in started:
            s.stop()
        for w in workers:
            w.terminate()
        for w in workers:
            try:
                w.wait(timeout=20)
            except subprocess.TimeoutExpired:
                w.kill()
                w.wait()
        servers.stop()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_bot_games_finish_across_two_apis_and_two_workers_on_a_cluster(deployment):
    apis = deployment["apis"]
    assert all(requests.get(f"{b}/healthz", timeout=5).json()["storage"] == "redis-cluster" for b in apis)
    games = []
    for i, preset in enumerate(["uecda", "nanko", "gekifugo", "uecda", "nanko", "uecda"]):
        players = [{"name": f"b{k}", "bot": "random"} for k in range(4)]
        r = requests.post(f"{apis[i % 2]}/v1/games", json={"preset": preset, "seed": 100 + i, "players": players},
                          timeout=10)
        assert r.status_code == 201, r.text
        games.append(r.json())

    reads = iter(range(10**9))

    def over(game):  # read through both APIs in turn
        r = requests.get(f"{apis[next(reads) % 2]}/v1/games/{game['game_id']}", headers=auth(game["table_token"]), timeout=10)
        return r.json()["phase"] == "deal_over"

    wait_until(lambda: all(over(g) for g in games), 50, "every bot game to finish", every=0.25)

    cluster = RedisCluster.from_url(f"redis://{deployment['nodes'].split(',')[0]}", decode_responses=True)
    queue = redis.Redis.from_url(deployment["queue"], decode_responses=True)
    for game in games:
        gid = game["game_id"]
        keys = [k for k in cluster.scan_iter(f"referee:{{{gid}}}:*")]
        assert {k.rsplit(":", 1)[-1] for k in keys} >= {"meta", "log", "snaps"}
        assert len({cluster.keyslot(k) for k in keys}) == 1, keys  # every key of a game on one slot
        seq = int(cluster.hget(f"referee:{{{gid}}}:meta", "seq"))
        events = requests.get(f"{apis[0]}/v1/games/{gid}/events", headers=auth(game["table_token"]), timeout=10).json()
        assert [e["seq"] for e in events["events"]] == list(range(seq + 1))  # no gap, no move applied twice
        assert not list(queue.scan_iter(f"referee:{{{gid}}}:*"))  # the queue's Redis holds no game
    assert list(queue.scan_iter("rq:*"))  # but it does hold the bot queue


def test_a_human_game_alternates_between_the_two_apis_on_a_cluster(deployment):
    apis = deployment["apis"]
    rng = random.Random(5)
    r = requests.post(f"{apis[0]}/v1/games", json={"preset": "nanko", "seed": 9,
                                                    "players": [{"name": f"p{k}"} for k in range(3)]}, timeout=10)
    game = r.json()
    gid, tok = game["game_id"], game["table_token"]
    seen = {game["seq"]: game["state"]}  # the table's state after each move, as answered
    for turn in range(400):
        base = apis[turn % 2]
        probe = requests.get(f"{base}/v1/games/{gid}/legal-moves?seat=0", headers=auth(tok), timeout=10).json()
        if not probe["actors"]:
            break
        seat = rng.choice(probe["actors"])
        moves = requests.get(f"{base}/v1/games/{gid}/legal-moves?seat={seat}", headers=auth(tok), timeout=10).json()
        other = apis[(turn + 1) % 2]
        move = dict(instantiate(rng.choice(moves["moves"]), rng), expected_seq=probe["seq"])
        r = requests.post(f"{other}/v1/games/{gid}/moves", json=move, headers=auth(tok), timeout=10)
        assert r.status_code == 200, r.text
        seen[r.json()["seq"]] = r.json()["state"]
        stale = requests.post(f"{base}/v1/games/{gid}/moves", json=move, headers=auth(tok), timeout=10)
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_seq"  # the script's condition
    else:
        raise AssertionError("the deal did not end")
    for seq, state in seen.items():  # from the replay snapshots (every 10 events here) and the log after them
        r = requests.get(f"{apis[seq % 2]}/v1/games/{gid}/replay?seq={seq}", headers=auth(tok), timeout=10)
        assert r.status_code == 200 and r.json()["state"] == state, seq
    metrics = requests.get(f"{apis[0]}/metrics", timeout=10).text
    assert "referee_games_active" in metrics and 'referee_verdicts_total{reason="legal"}' in metrics
