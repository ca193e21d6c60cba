"""The data directory is its owner's only: 0700, and nothing in it readable by group or others, whether the
embedded store starts on it alone or under `referee serve`, and a directory made 0755 before is fixed."""
import os
import stat

import redis
import requests

from service.embedded import EmbeddedRedis
from tests.procs import Serve, serve_env, wait_until


def _old_directory(path):
    """A data directory as an older version left it: 0755, its files 0644."""
    path.mkdir(mode=0o755)
    os.chmod(path, 0o755)
    (path / "metrics").mkdir(mode=0o755)
    for name in ("serve.log", "metrics/counter_1.db"):
        (path / name).write_text("old\n")
        os.chmod(path / name, 0o644)
    return path


def _open_to_others(path) -> list[str]:
    """Everything under ``path`` (itself included) that group or others may use, with its mode."""
    found = []
    for root, dirs, files in os.walk(path):
        for entry in [root] + [os.path.join(root, n) for n in dirs + files]:
            mode = os.lstat(entry).st_mode
            if stat.S_ISDIR(mode) and stat.S_IMODE(mode) != 0o700 or stat.S_IMODE(mode) & 0o077:
                found.append(f"{entry} {stat.S_IMODE(mode):o}")
    return found


def test_the_embedded_store_makes_its_directory_and_files_private(tmp_path):
    data = _old_directory(tmp_path / "data")
    server = EmbeddedRedis(str(data), maxmemory_mb=64).start()
    try:
        r = redis.Redis(unix_socket_path=server.socket, decode_responses=True)
        r.set("k", "v")
        r.save()  # the dump
        r.bgrewriteaof()
        wait_until(lambda: r.info("persistence")["aof_rewrite_in_progress"] == 0
                   and r.info("persistence")["aof_rewrite_scheduled"] == 0, 30, "the append-only file's rewrite")
        names = set(os.listdir(data))
        assert {"referee.rdb", "redis.log", "redis.conf", "owner.lock"} <= names, names
        assert names & {"appendonly.aof", "appendonlydir"}, names
        assert _open_to_others(data) == []
    finally:
        server.stop()


def test_serve_keeps_its_log_metrics_and_store_private(tmp_path):
    data = _old_directory(tmp_path / "data")
    serve = Serve(serve_env(data, REFEREE_JSON_LOGS="0"), tmp_path / "serve.stderr", "--no-worker").healthy()
    try:
        r = requests.post(f"{serve.base}/v1/games", json={"preset": "uecda", "players": [{"name": "a"}, {"name": "b"}]},
                          timeout=10)
        assert r.status_code == 201, r.text
        wait_until(lambda: os.path.getsize(data / "serve.log") > len("old\n"), 30, "serve.log to get the request")
        assert os.path.exists(data / "appendonly.aof") or os.path.exists(data / "appendonlydir")
        assert _open_to_others(data) == []
    finally:
        serve.stop()
    assert _open_to_others(data) == []
