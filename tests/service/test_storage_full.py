"""Redis's memory bound: nothing new is stored near maxmemory while moves go on, and a write Redis refuses for
memory is a clean 507, never a 500. On an embedded Redis of this module's own, whose maxmemory the tests set."""
import dataclasses
import random
import secrets
import tempfile

import pytest
import redis

from api.app import create_app
from referee import instantiate
from service.errors import StorageFull
from service.memory import MIB, MemoryGate
from service.redis_conn import embedded_url, start_embedded, stop_embedded

from .helpers import Client
from .test_limits import _error

PLAYERS = [{"name": f"p{i}"} for i in range(4)]


@pytest.fixture(scope="module")
def server():
    embedded = start_embedded(tempfile.mkdtemp(prefix="referee-memory-redis-"), maxmemory_mb=0)
    yield embedded
    stop_embedded(embedded)


@pytest.fixture
def conn(server):
    r = redis.Redis.from_url(embedded_url(server), decode_responses=True)
    yield r
    r.config_set("maxmemory", 0)
    r.flushall()


def _client(settings, server, **overrides) -> Client:
    """An app of its own (a gate that has not looked at the memory yet) on the module's Redis."""
    s = dataclasses.replace(settings, redis_url=embedded_url(server), key_prefix="mem", **overrides)
    app = create_app(s)
    app.config["TESTING"] = True
    return Client(app.test_client())


def _pad(conn, mb: int) -> None:
    """Some megabytes of other data, so that the room left under a limit set near the used memory is about 1 MB. Written
    16 KiB a key, 8 keys a pipeline: the query buffer a pipeline leaves on the connection is counted in the memory the
    tests read and freed by Redis a moment later, so it is kept small against the limits they set."""
    for i in range(mb):
        for k in range(0, 64, 8):
            pipe = conn.pipeline(transaction=False)
            for j in range(k, k + 8):
                pipe.set(f"pad:{i}:{j}", "x" * (MIB // 64))
            pipe.execute()


def _limit_at(conn, share: float) -> None:
    """maxmemory such that what Redis uses now is ``share`` of it."""
    conn.config_set("maxmemory", int(conn.info("memory")["used_memory"] / share))


def _move(client, game, rng):
    gid, table = game["game_id"], game["table_token"]
    seat = client.legal(gid, table, 0)["actors"][0]
    move = instantiate(rng.choice(client.legal(gid, table, seat)["moves"]), rng)
    return client.post(f"/v1/games/{gid}/moves", move, table)


def test_nothing_new_is_stored_near_maxmemory_but_moves_go_on(settings, server, conn):
    before = _client(settings, server)
    game = before.create(seed=3)
    record = before.get(f"/v1/games/{game['game_id']}/record", game["table_token"]).get_data(as_text=True)
    _pad(conn, 40)
    _limit_at(conn, 0.97)  # the gate refuses above 0.9: the use may shrink by 7% (a client's buffers freed) and still be refused
    near = _client(settings, server)
    r = _error(near.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 507, "storage_full")
    assert "MiB" in r.json["error"]["message"]
    _error(near.post("/v1/games", {"record": record}), 507, "storage_full")
    _error(near.post("/v1/bots", {"name": f"b{secrets.token_hex(3)}"}), 507, "storage_full")
    rng = random.Random(7)
    for _ in range(5):
        assert _move(near, game, rng).status_code == 200
    assert near.get(f"/v1/games/{game['game_id']}", game["table_token"]).status_code == 200
    _limit_at(conn, 0.5)
    assert _client(settings, server).post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201


def test_the_fraction_0_turns_the_check_off_and_a_redis_without_maxmemory_needs_a_cap(settings, server, conn):
    _pad(conn, 4)
    _limit_at(conn, 0.95)
    off = _client(settings, server, storage_full_fraction=0)
    assert off.post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201
    conn.config_set("maxmemory", 0)
    used_mb = conn.info("memory")["used_memory"] / MIB
    assert _client(settings, server).post("/v1/games", {"preset": "uecda", "players": PLAYERS}).status_code == 201
    capped = _client(settings, server, storage_cap_mb=max(1, int(used_mb / 2)))  # refused unless the use halves
    _error(capped.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 507, "storage_full")


def test_a_write_redis_refuses_for_memory_is_a_507_and_leaves_nothing_half_done(settings, server, conn):
    client = _client(settings, server, storage_full_fraction=0)  # past the gate: Redis itself refuses
    limited = _client(settings, server, storage_full_fraction=0, rate_create_per_address=100,
                      rate_bots_per_address=100, rate_moves_per_token=100)
    game = client.create(seed=5)
    gid, table = game["game_id"], game["table_token"]
    seq = client.state(gid, table)[1]
    name = f"b{secrets.token_hex(3)}"
    conn.config_set("maxmemory", 1)
    rng = random.Random(1)
    _error(_move(client, game, rng), 507, "storage_full")  # the append script's first write is refused
    _error(_move(limited, game, rng), 507, "storage_full")  # the rate counter's INCR is refused
    _error(client.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 507, "storage_full")
    _error(limited.post("/v1/games", {"preset": "uecda", "players": PLAYERS}), 507, "storage_full")
    _error(client.post("/v1/bots", {"name": name}), 507, "storage_full")
    assert client.state(gid, table)[1] == seq  # reading goes on, and the refused move left no trace
    conn.config_set("maxmemory", 0)
    assert client.state(gid, table)[1] == seq
    assert client.post("/v1/bots", {"name": name}).status_code == 201  # the refused registration held no name
    assert _move(client, game, rng).status_code == 200


def test_the_embedded_redis_runs_with_maxmemory_and_noeviction(tmp_path):
    embedded = start_embedded(str(tmp_path / "data"), maxmemory_mb=64)
    try:
        r = redis.Redis.from_url(embedded_url(embedded), decode_responses=True)
        assert r.config_get("maxmemory")["maxmemory"] == str(64 * MIB)
        assert r.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
    finally:
        stop_embedded(embedded)


class _Info:
    """INFO memory of one server (or of a cluster's primaries), counting the reads."""

    def __init__(self, *servers):
        self.servers = list(servers)
        self.reads = 0

    def info(self, section, **kwargs):
        self.reads += 1
        answers = [{"used_memory": used, "maxmemory": limit} for used, limit in self.servers]
        return answers[0] if len(answers) == 1 else {f"node{i}": a for i, a in enumerate(answers)}


def test_the_gate_reads_memory_at_most_once_a_second_per_process():
    now = [0.0]
    conn = _Info((50, 100))
    gate = MemoryGate(conn, 0.9, clock=lambda: now[0])
    gate.check()
    conn.servers = [(95, 100)]
    for _ in range(10):
        gate.check()  # the figure read a moment ago
    assert conn.reads == 1
    now[0] = 1.0
    with pytest.raises(StorageFull):
        gate.check()
    assert conn.reads == 2


def test_the_gate_counts_against_maxmemory_else_the_cap_and_the_fullest_primary():
    assert MemoryGate(_Info((95 * MIB, 0)), 0.9).usage() == (95 * MIB, 0)
    MemoryGate(_Info((95 * MIB, 0)), 0.9).check()  # no maxmemory, no cap: no check
    with pytest.raises(StorageFull):
        MemoryGate(_Info((95 * MIB, 0)), 0.9, cap_mb=100).check()
    MemoryGate(_Info((95 * MIB, 200 * MIB)), 0.9, cap_mb=100).check()  # the server's own maxmemory wins
    cluster = _Info((10 * MIB, 100 * MIB), (95 * MIB, 100 * MIB))
    cluster.get_primaries, cluster.PRIMARIES = (lambda: []), "primaries"
    assert MemoryGate(cluster, 0.9).usage() == (95 * MIB, 100 * MIB)
