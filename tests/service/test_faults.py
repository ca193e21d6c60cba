"""Fault tests: real processes on the real Redis, killed with SIGKILL by PID; every wait is a condition with a
deadline. A bot turn survives its worker dying mid-job and the API dying between the append and the enqueue,
and no move is ever applied twice."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
import requests
from rq import Queue
from rq.job import Job
from rq.registry import StartedJobRegistry

from api.app import create_app
from service.redis_conn import connect
from service.scheduler import job_id
from service.settings import Settings
from tests.procs import children, free_port, wait_until
from tests.redis_support import cleanup

from .helpers import Client

ROOT = Path(__file__).resolve().parents[2]
MC_SEATS = [{"name": f"mc{i}", "bot": "mc"} for i in range(4)]
# 3 legal leads for seat 0 (so an mc decision uses its whole budget), a deal of a dozen turns
SMALL_DEAL = [["D3", "S4", "S6"], ["S5", "H5", "S7"], ["S9", "HT", "S8"], ["SK", "C4", "H8"]]
ONE_HUMAN_CARD = [["D3"], ["S5", "H5", "S7"], ["S9", "HT", "S8"], ["SK", "C4", "H8"]]




def api_with_bot(fault_env, prefix: str, worker: bool = True, **worker_env):
    """An API process (and a worker) on the suite's Redis, and a newly registered bot named ``prefix-…``:
    (settings, processes, base URL, the bot's registration answer)."""
    settings, procs = fault_env
    port = free_port()
    procs.api("api", port)
    if worker:
        procs.worker("worker", **worker_env)
    base = f"http://127.0.0.1:{port}"
    r = requests.post(f"{base}/v1/bots", json={"name": f"{prefix}-{secrets.token_hex(3)}"}, timeout=10)
    assert r.status_code == 201, r.text
    return settings, procs, base, r.json()


class Processes:
    """The processes a test starts (each logged to a file shown on failure); all SIGKILLed at the end."""

    def __init__(self, settings: Settings, tmp: Path):
        self.env = dict(os.environ, REDIS_URL=settings.redis_url, REFEREE_KEY_PREFIX=settings.key_prefix,
                        REFEREE_QUEUE=settings.queue_name, PYTHONPATH=str(ROOT), REFEREE_REAPER_INTERVAL_S="0.5",
                        REFEREE_REAPER_GRACE_S="1", REFEREE_BOTS_BUSY_WAIT_S="0")  # the suite's shared queue: no back-pressure
        self.env["REFEREE_DATA_DIR"] = settings.data_dir  # the seed secret the test's own app made: one for all
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []

    def start(self, name: str, args: list[str], **env) -> subprocess.Popen:
        out = open(self.tmp / f"{name}.log", "wb")
        proc = subprocess.Popen([sys.executable, *args], env={**self.env, **env}, cwd=str(ROOT), stdout=out,
                                stderr=subprocess.STDOUT)
        self.procs.append(proc)
        return proc

    def worker(self, name: str, **env) -> subprocess.Popen:
        return self.start(name, ["-m", "cli", "worker"], **env)

    def api(self, name: str, port: int, threads: int = 4, **env) -> subprocess.Popen:
        """gunicorn with one worker of ``threads`` threads: every open event stream holds one."""
        from gunicorn.config import KNOWN_SETTINGS

        no_socket = ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []
        proc = self.start(name, ["-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                                 "--worker-class", "gthread", "--threads", str(threads), *no_socket,
                                 "api.app:create_app()"],
                          **env)
        base = f"http://127.0.0.1:{port}"

        def healthy():
            assert proc.poll() is None, f"{name} exited: {self.logs()}"
            try:
                return requests.get(f"{base}/healthz", timeout=2).status_code == 200
            except requests.RequestException:
                return False

        wait_until(healthy, 40, f"{name} to answer")
        return proc

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.tmp.glob("*.log"))

    def kill_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=20)



@pytest.fixture
def fault_env(redis_url):
    tag = secrets.token_hex(4)
    settings = Settings(redis_url=redis_url, data_dir=tempfile.mkdtemp(), key_prefix=f"referee-fault-{tag}",
                        queue_name=f"referee-fault-bots-{tag}")
    procs = Processes(settings, Path(tempfile.mkdtemp(prefix="referee-faults-")))
    yield settings, procs
    procs.kill_all()
    cleanup(redis_url, settings.key_prefix, settings.queue_name)


def bot_jobs_applied_once(settings: Settings, gid: str, events: list[dict], bot_seats: set[int],
                          by_job=lambda event: False) -> None:
    """Every bot move in the log (a move of ``bot_seats``, or one ``by_job`` says a job made) was applied by exactly
    one job, and no job applied a second move."""
    raw = connect(settings.redis_url, decode=False)
    applied: dict[int, list[str]] = {}
    for key in raw.scan_iter(f"rq:job:bot-{gid}-*".encode()):
        jid = key.decode().split("rq:job:", 1)[1]
        result = Job.fetch(jid, connection=raw).return_value()
        if result and result.get("status") == "applied":
            applied.setdefault(result["seq"], []).append(jid)
    bot_moves = [e["seq"] for e in events if e["type"] == "move" and (e["move"]["seat"] in bot_seats or by_job(e))]
    assert sorted(applied) == bot_moves, (applied, bot_moves)
    assert all(len(jobs) == 1 for jobs in applied.values()), applied


def test_a_worker_killed_mid_job_loses_no_bot_turn(fault_env):
    settings, procs = fault_env
    client = Client(create_app(settings).test_client())
    raw = connect(settings.redis_url, decode=False)
    started = StartedJobRegistry(settings.queue_name, connection=raw)
    try:
        slow = procs.worker("worker-1", REFEREE_MC_BUDGET_MS="60000", REFEREE_MC_PLAYOUTS="100000000")
        r = client.post("/v1/games", {"preset": "uecda", "players": MC_SEATS, "hands": SMALL_DEAL})
        assert r.status_code == 201, r.json
        gid, table = r.json["game_id"], r.json["table_token"]
        first = job_id(gid, 0)
        wait_until(lambda: first in started.get_job_ids(cleanup=False), 40, "worker-1 to start the first bot turn")
        slow.send_signal(signal.SIGKILL)
        slow.wait(timeout=10)
        assert client.state(gid, table)[1] == 0, "the killed job applied nothing"
        procs.worker("worker-2", REFEREE_MC_BUDGET_MS="50")

        def over():
            state, _ = client.state(gid, table)
            return state["phase"] == "deal_over"

        wait_until(over, 45, "the deal to end after worker-2 took over", every=0.2)
        events = client.get(f"/v1/games/{gid}/events", table).json["events"]
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert Job.fetch(job_id(gid, 0, 1), connection=raw).get_status() == "finished", "the turn was retried"
        bot_jobs_applied_once(settings, gid, events, {0, 1, 2, 3})
    except AssertionError:
        print(procs.logs())
        raise


def test_the_api_killed_between_append_and_enqueue_loses_no_bot_turn(fault_env):
    settings, procs = fault_env
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    raw = connect(settings.redis_url, decode=False)
    games = connect(settings.redis_url)
    try:
        api = procs.api("api-1", port, REFEREE_FAULT_PAUSE_AFTER_APPEND_S="60")
        players = [{"name": "me"}] + [{"name": f"b{i}", "bot": "random"} for i in (1, 2, 3)]
        r = requests.post(f"{base}/v1/games", json={"preset": "uecda", "players": players, "hands": ONE_HUMAN_CARD},
                          timeout=30)
        assert r.status_code == 201, r.text
        gid, table, me = r.json()["game_id"], r.json()["table_token"], r.json()["seat_tokens"][0]
        meta = f"{settings.key_prefix}:{{{gid}}}:meta"
        assert games.hget(meta, "seq") == "0" and games.hget(meta, "owed") is None, "the human leads"

        def move():  # the API appends, then pauses before the enqueue; it dies in the pause
            try:
                requests.post(f"{base}/v1/games/{gid}/moves", json={"seat": 0, "action": "play", "cards": ["D3"]},
                              headers={"Authorization": f"Bearer {me}"}, timeout=90)
            except requests.RequestException:
                pass

        sender = threading.Thread(target=move, daemon=True)
        sender.start()
        wait_until(lambda: games.hget(meta, "seq") == "1", 40, "the move to be appended")
        assert games.hget(meta, "owed") == "1", "the bot turn is owed in the game's meta"
        for pid in children(api.pid):
            os.kill(pid, signal.SIGKILL)
        api.send_signal(signal.SIGKILL)
        api.wait(timeout=10)
        sender.join(timeout=30)
        assert Queue(settings.queue_name, connection=raw).job_ids == [], "nothing reached the queue"
        assert Job.fetch_many([job_id(gid, 1)], connection=raw) == [None]

        procs.api("api-2", port)
        procs.worker("worker")
        auth = {"Authorization": f"Bearer {table}"}

        def over():
            return requests.get(f"{base}/v1/games/{gid}", headers=auth, timeout=10).json()["phase"] == "deal_over"

        wait_until(over, 45, "the deal to end after the restart", every=0.2)
        events = requests.get(f"{base}/v1/games/{gid}/events", headers=auth, timeout=10).json()["events"]
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert [e["seq"] for e in events if e["type"] == "move" and e["move"]["seat"] == 0] == [1]
        assert Job.fetch(job_id(gid, 1, 1), connection=raw).get_status() == "finished", "the reaper enqueued it"
        bot_jobs_applied_once(settings, gid, events, {1, 2, 3})
    except AssertionError:
        print(procs.logs())
        raise
